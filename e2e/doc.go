//go:build !js

// Package e2e tests Reconcile Lab's page end to end, in a real headless
// Chromium, and measures it there. It holds no code of its own: everything is
// in its _test.go files, driven by chromedp (v0.20 or later, whose API is the
// generic one: chromedp.Run returns an action's value, chromedp.Do runs
// actions that return none).
//
// # What the tests prove
//
// Each test is one thing a learner does, done the way the learner does it
// (clicks and keys, not calls into the page), on the page as it ships: the
// real index.html, scripts and styles, served by internal/siteserver with the
// production headers and precompressed files, and main.wasm running in its
// Web Worker.
//
//   - TestPageLoads: the page starts with no console error, #status says
//     "ready", the default sandbox's rs/web is drawn, and the document
//     carries a Content-Security-Policy header.
//   - TestConsoleCreatesReplicaSet: a ReplicaSet typed into the console
//     gets exactly its two pods by clicking Step.
//   - TestKillPodByClick: after a pod is killed from its menu, stepping one
//     step at a time shows the control loop in order: the pod leaves, the
//     owner's key is queued, the sync expects one creation (add=1), the
//     informer sees it (add=0), and three pods are ready again.
//   - TestRelabelMakesAnOrphan: a pod relabelled out of rs/web's selector
//     with the pod menu is marked as about to be released; the controller
//     releases it (drawn with the orphans) and creates a replacement; labelled
//     back, it is marked as about to be adopted, and is.
//   - TestPodMenuActions: the menu's set not ready, crash, evict, delete and
//     set ready each run their command without an error; a pod set not
//     ready is not replaced, and rs/web has three ready pods again at the
//     end.
//   - TestGoneOwnerIsNotItsNamesake: rs/web deleted and created again at
//     once: the old pods are drawn under a group marked gone, not under the
//     new rs/web, until the garbage collector has deleted them.
//   - TestWorldRedrawsOnlyWhatChanged: across a scale, a kill, a pod set
//     not ready and the steps after each, a pod card whose pod did not
//     change (nor whether the step touched it) is the very element drawn
//     before, and one whose pod changed is drawn anew; a big world plays
//     smoothly because of it.
//   - TestWorldUpdatedDrawsWhatAFullDrawingDraws: at every step of a scale,
//     a kill, a relabel, an owner deleted and created again, a namespace, a
//     cordon and steps back, the World panel drawn step by step is byte for
//     byte what UI.renderWorld draws from nothing for the same view.
//   - TestRolloutUpdatedDrawsWhatAFullDrawingDraws: the same, at every step
//     of a Deployment's creation, rollout, scale, undo and deletion with
//     --cascade=orphan beside a ReplicaSet: its card, its ReplicaSets'
//     groups inside it and their pods' images, and at the end those
//     ReplicaSets drawn as owners of their own, with no revision; and the
//     card of a Deployment with no ReplicaSet says why, paused, resumed and
//     being deleted, redrawn as that changes.
//   - TestStepBackRestoresWorld: five steps forward and five back (by button
//     and by the ← key) redraw the world and the controller's insides byte
//     for byte.
//   - TestLastSyncsAreTheNewest: with seven ReplicaSets, the Workers panel
//     lists the five newest syncs, newest first (rs/web, scaled last, at the
//     top), not the five last owners by name.
//   - TestShareLinkReproducesState: a share link made after console inputs,
//     steps and a seek back reopens, in a fresh browser context, at the same
//     step with the same world and the same view, byte for byte.
//   - TestConsoleTypoSuggestion: a mistyped command shows an error with a
//     did-you-mean button that fixes the line, and says "did you mean"
//     once.
//   - TestConsoleCompletesPodNamesFromAList: Tab after kill pod/ lists the
//     world's pods as options of a listbox under the console's field (the
//     ARIA combobox pattern), not in the log, and fills in their common
//     prefix; ↓ and Enter pick one, a click picks one, Escape closes the
//     list without reaching the page's shortcuts, and ↑ recalls history
//     again once it is closed. The list's texts meet WCAG AA contrast in
//     both schemes.
//   - TestConsoleCompletesOneMatchAtOnce: a single candidate (scale rs/ is
//     rs/web, a unique start of a pod's name) goes in the line at once;
//     describe pod lists bare names; nothing to complete is said in a
//     status line in the list's place, not in the log.
//   - TestEngineSurvivesPanicAndCrash: a Go panic inside an op is answered as
//     an error and the page goes on; a crash that kills the Go program makes
//     the page say so in #error, restart its worker and replay to the same
//     step and world. This uses the test-only ops "panic" and "crash" of the
//     rlabtest build (wasm/bridge_testops.go), which is what the harness
//     builds.
//   - TestShareLinkIsValidatedNotTrusted: a wrong link names what is wrong
//     and the default sandbox loads; markup in a link's command stays text;
//     a link from another engine version says so and replays anyway.
//   - TestSandboxStartsFromAChosenWorld: the sandbox's "two orphans, then
//     rs/web" start draws the orphans, marked as about to be adopted, and the
//     next sync adopts them.
//   - TestPageWorksOffline: after one visit the service worker serves the
//     page, and the engine steps, with the server gone.
//   - TestPlayPauseAndScrub: Play steps on its own until paused; the
//     scrubber, by keyboard, seeks to step 0 and back to the same world.
//   - TestStabilizeSpendsLittleOfItsRunOnPictures: while 3,000 pods come
//     to rest through #stabilize, with the page's main thread 4× slower,
//     the views the page fetches and draws between chunks take at most two
//     fifths of the run (the page paces them to a fifth), and there are
//     some; at rest the timeline lists the run's newest 500 steps.
//   - TestInterveningInThePastForks: a command given after stepping back
//     forks the timeline there: the console and the timeline say so, the old
//     future is dropped, stepping back across the fork and forward again
//     replays the new branch, and its share link reopens it.
//   - TestLessonGoalThroughThePage: the first lesson, chosen in the page,
//     shows its guide; its goal is not met by the setup, and is met after
//     its reference solution is typed into the console.
//   - TestFencepostsLessonEndToEnd: lesson 16 played with the page's
//     controls: a wrong and a right prediction of a rollout's first sync,
//     graded by the engine once until sync deploy/web has run, the sync's
//     decision in the console, the world's two ReplicaSets wanting 3 and 8
//     pods, ResolveFenceposts linked at v1.31.14, and the goal met at the
//     end.
//   - TestKeyboardShortcuts: . and → step, ? opens the help and Escape closes
//     it, and the same keys typed into the console are only text.
//   - TestPhoneTapToStep: on a phone-sized touch screen nothing scrolls
//     sideways, Step spans the screen, every control is a 44 px tap target,
//     a tap steps, and a tap on a pod opens its menu as a bottom sheet.
//   - TestControlsHaveAccessibleNames: every control in Chromium's
//     accessibility tree has a name, at rest, with a pod's menu open and in
//     the help dialog; the timeline's news, console output and status are
//     live regions.
//   - TestKeyboardOnly: Tab reaches every control, each with a visible focus
//     ring; a pod reached by Tab opens its menu with Enter, the menu keeps
//     the focus until Escape returns it to the pod, and a kill chosen with
//     Enter leaves the focus on the pod or, once it is gone, on Step.
//   - TestTextContrast: every visible text meets WCAG AA contrast against
//     what is behind it (gradients and translucent layers composited), in
//     the light and the dark scheme, including a terminating pod's stripes.
//   - TestAxeFindsNothingSerious: axe-core finds no violation of serious or
//     critical impact, nor of a rule it used to report (listitem,
//     scrollable-region-focusable, label-content-name-mismatch,
//     landmark-one-main, region, aria-allowed-role), at first view, after
//     stepping, with a pod's menu open, with a lesson open, with the share
//     link and a notice, with an error, and at 390×844; each violation is
//     printed with its rule, impact and selectors.
//   - TestHelpGivesTheFocusBack: closing the help returns the focus to the
//     control focused before it opened, or to the ? button when none was.
//   - TestRunsAreAnnouncedInAFewSentences: the timeline is not a live
//     region; during Play and Stabilize every live region speaks at most
//     every 3 s, #timeline-news says how far a run got and where it ended,
//     and a single step is told at once, with what it did.
//   - TestEveryTermHasAGlossaryEntry: every glossary term in the panels
//     inside the controller and in the world, in the middle of a sync and at
//     rest, names an entry of the Glossary panel, which names its upstream
//     function and file, and its tooltip (aria-describedby) says the entry's
//     one-line explanation; every entry has its texts and upstream name; a
//     probe term naming no entry is caught.
//   - TestRequiredWordsAreTerms: each word the issue names (dirty,
//     processing, AddAfter, NumRequeues, add and del, HasSynced,
//     resourceVersion, tombstone, DeltaFIFO, relist, resync, controllerRef,
//     slow start, burst, attemptToDelete, orphan, adopt, release,
//     terminating, …) is drawn as a term somewhere the learner sees it.
//   - TestTermExplainsItselfOnHoverAndFocus: hovering a term with the mouse
//     and reaching one by keyboard each show its one-line explanation beside
//     it, not over it, which is also its accessible description; Escape
//     hides it and does nothing else; Tab goes on past it; in the help, a
//     modal dialog, the tooltip is drawn on top.
//   - TestTooltipNeedsAPointerThatMoves: a mouse pointerover with no
//     pointer moving (what a tap that scrolled the page left) shows no
//     tooltip; a mouse moving onto the term does.
//   - TestWordsAreOneTabStopPerPart: Tab reaches one term of each panel and
//     of each section inside the controller (27 stops on a small world, not
//     97), so the console is near the top of the Tab order; ↓, ↑, Home and
//     End move between a part's terms, showing each one's explanation, and
//     → still steps.
//   - TestGlossaryPanelOpens: the Glossary panel opens from the header, from
//     the help (and closes back to it), from a term (at its entry) and with
//     t, which the help lists; its controls are named, keys pressed in it do
//     not step the world, and closing it gives the focus back.
//   - TestGlossaryContrast: a term's tooltip and the open Glossary panel meet
//     WCAG AA contrast in the light and the dark scheme.
//   - TestReadyOnlyOnceTheEngineIs: at 1.6 Mbit/s (Chromium's network
//     throttling) the page is interactive while main.wasm downloads, and
//     says so: #status is never "ready" before the engine runs, and the
//     download shows as bytes of main.wasm's size and of its compressed
//     size, in text and in a progress bar with the same words for a screen
//     reader.
//   - TestThePageWithoutItsLessons: served without lessons.json, the page
//     still runs the sandbox, and the list of lessons says why it is empty
//     (the worker's fetch failed) instead of loading for ever.
//   - TestStepBeforeTheEngineWaitsAndRunsOnce: Step pressed at 1.6 Mbit/s
//     before the engine is up carries a pending mark, #queued and #status
//     say that it waits, and it runs exactly once when the engine is up.
//   - TestHundredPressesAreHundredSteps: → pressed 100 times, faster than
//     the engine steps, gives 100 steps; meanwhile #queued counts the
//     presses waiting ("+N queued").
//   - TestPlayDrawsOnlyTheNewestSteps: while Play runs the timeline draws
//     its newest 30 steps; once it stops, the whole timeline again.
//   - TestTheFirstFrameIsTheWorld: the timeline gets its first entry only
//     after the first frame is on the screen.
//   - TestTheLoopDrawsAKilledPodsWay: a killed pod followed around the
//     picture of the loop, step by step, from its SVG's DOM: kubectl → API
//     server → the pod reflector → DeltaFIFO, indexer and handlers → the
//     workqueue → a worker → the API server; the queue drawn is the
//     engine's at every step, lists default/web after the enqueue and not
//     after the last Done; Back draws the earlier picture exactly.
//   - TestTheLoopDrawsADroppedWatchEvent: a lost watch event falls off the
//     edge from the API server to the pod reflector, marked lost.
//   - TestTheLoopExplainsItsParts: the picture is one Tab stop, ↓ moves
//     through its parts, Enter shows a part's card (glossary explanation,
//     upstream name, what it holds) that leads to the glossary.
//   - TestTheLoopCardOfAnEmptyPartSaysNoNull: the card of a part that
//     holds nothing (the scheduler) has no "null" among its parts.
//   - TestTheLoopIsOneTapAwayOnAPhone: at 390×844 the picture is folded
//     behind a button that opens and folds it, and scrolls sideways.
//   - TestTheLoopHighlightsWithoutMotion: with prefers-reduced-motion no
//     token flies; the step's edge and part are highlighted instead.
//   - TestTheRolloutIsDrawnStepByStep: create deploy web, stabilize, set
//     image deploy/web app=nginx:2.0, then Step and Next sync: the
//     Deployment's card holds its ReplicaSets newest revision first, each
//     labelled with its revision and pod-template-hash, its pods with their
//     images; the budget (5 pods at most, 3 available at least) holds at
//     every press; the last scaling, with the controller's reasons,
//     alternates up and down; the loop, which draws no Deployment
//     controller until the first Deployment, lights its worker and sync,
//     whose card explains syncDeployment (not syncReplicaSet) and leads to
//     the Workers panel and the glossary, and draws its scale writes reaching the API server and, through the
//     ReplicaSet informer, the replication manager; the inside view lists
//     its queue and its decisions; the text timeline announces its steps;
//     the rollout ends at 4 and 0 with both revisions in a history the
//     keyboard opens; axe finds nothing serious mid-rollout or after it.
//   - TestSwitchingToChineseChangesThePage: the header's Language select
//     switches to 中文 at the same step; <html lang="zh-CN">, the words,
//     the durations; a reload and a share link keep it (the link opened by
//     a browser that never chose); English comes back the same way; a
//     browser whose language is Chinese gets the Chinese page.
//   - TestLessonOneInChinese: lesson 1, in its real translation, played
//     through its first page's check, the commands and expects English,
//     and reloaded, still in Chinese with its answer.
//   - TestStaticTextIsTheCatalogue: index.html's English is the English
//     catalogue's, every text and attribute it marks.
//   - TestChineseLeavesNoEnglishWord: in Chinese, in the states the axe
//     test visits, the help and the glossary, every visible text, label,
//     title and placeholder outside lang="en" has no English word that
//     i18n/terms.zh-CN.md does not keep (a probe proves the check fails).
//   - TestAxeFindsNothingSeriousInChinese: the axe check, in Chinese.
//   - TestChineseWorksOffline: the service worker keeps the Chinese
//     catalogue and glossary; the page is Chinese with its server gone.
//   - TestChineseFallsBackToEnglish: a catalogue that cannot be had leaves
//     the page English, with a notice saying why.
//
// The accessibility and contrast checks each prove first that they can fail:
// a probe without a name, a pale probe text, and a list item outside a list
// (for axe) are added and reported.
//
// axe-core is the suite's one JavaScript dependency, pinned in
// e2e/package.json and e2e/package-lock.json and installed into
// e2e/node_modules by npm ci (make test runs it when node_modules is missing
// or older than the lock file; .ci/run always does). The test evaluates
// axe.min.js in the tab through CDP, which the page's Content-Security-Policy
// does not govern, so the page is checked with the policy it ships with.
// Without it the axe test skips, except when CI=true, where it fails.
//
// Four tests check the harness itself, with no browser:
// TestThreadThrottleHoldsABusyThreadToItsShare (Linux only) proves that the
// throttle the throttled benchmark puts on the engine's worker thread holds a
// spinning process to its share of the time while its unthrottled twin spins
// on; TestMainThreadFrames reads the frames of a trace written by hand as
// BenchmarkBrowserPlay reads Chromium's (the page's renderer found by its
// URL, each frame's main-thread time its outermost tasks since the frame
// before, other threads and processes left out); TestScreenFrames reads
// the frames its compositor thread drew and dropped, likewise; and
// TestPercentileIsNearestRank pins the percentile its figures use.
//
// Every test fails on any console error: console.error, an uncaught
// exception, or a browser log entry of level error, from the page or from
// its worker (whose console reaches the tab's Log domain). A test that
// expects some, as the crash test expects Go's fatal panic output, lists
// them with allowConsoleErrors. Everything else the console says is in the
// test's log (go test -v).
//
// # The benchmarks
//
// The BenchmarkBrowser* benchmarks report figures, not ns/op: each runs its
// measurement once, times it inside the page (performance.now, so no CDP
// round trip is counted unless said), and reports it with b.ReportMetric.
//
//   - BenchmarkBrowserLoad: load to interactive (window.__rlabReadyAt), over
//     10 loads in fresh tabs with the HTTP cache disabled: load-ms (median)
//     and load-max-ms; and engine-ms, the median time until main.wasm runs
//     (the page is interactive earlier, drawing the first world that
//     site/index.html carries).
//   - BenchmarkBrowserLoadThrottled: the page on a learner's network and
//     machine, each load in a new browser context with the HTTP cache off
//     and the service worker bypassed. At 9 Mbit/s, 60 ms RTT and a 4×
//     slower CPU, over 5 loads: load-ms (median to interactive), engine-ms
//     (median until #status says "ready", window.__rlabEngineReadyAt) and
//     wasm-Mbit/s (the fastest main.wasm came; the benchmark fails if it
//     came faster than 9 Mbit/s allows, which would mean the throttling was
//     not real). At 1.6 Mbit/s and 150 ms RTT, over 5 loads: progress-ms,
//     the median time until the download's progress is on screen
//     (window.__rlabProgressAt).
//     The network is throttled with Network.emulateNetworkConditions and the
//     page's main thread with Emulation.setCPUThrottlingRate. Chromium 156
//     refuses the latter on a worker target ("Operation is only supported for
//     pages, not workers"), so the engine's Web Worker, to which the tab
//     auto-attaches with waitForDebuggerOnStart so that it waits until it is
//     throttled, has its thread throttled from outside instead: stopped and
//     resumed with ptrace(2), for 3 of every 4 quanta, as Chromium stops a
//     page's main thread (threadthrottle_linux_test.go). That needs Linux and
//     the right to trace the browser (root or CAP_SYS_PTRACE); without it
//     the benchmark fails, saying so.
//     It also fails if a worker's thread used more than a quarter of the
//     time it was throttled.
//   - BenchmarkBrowserStep: one step in a world of 1,000 pods with work to do
//     (step-ms, from one request of 1,000 steps).
//   - BenchmarkBrowserSeek: 20 seeks to pseudo-random steps of a run of at
//     least 10,000 steps with 1,000 pods: seek-ms (the slowest), seek-median-ms, and wasm-MiB,
//     the engine's memory afterwards.
//   - BenchmarkBrowserResponsive: 20 real mouse clicks while a 10,000-pod
//     ReplicaSet stabilizes through the page's Stabilize button: click-ms
//     (the latest a click was handled, from the event's timestamp),
//     click-median-ms, click-rtt-ms (the slowest press and release through
//     CDP, which also counts the browser's wait for the page), and
//     stabilize-s (its budget is 3 s) and wasm-MiB; a run not at rest
//     after two minutes is cancelled and reports steps-at-stop instead.
//   - BenchmarkBrowserPlay: a world of 1,000 pods, built through the console
//     and Stabilize with 300 of its pods then killed, played at #speed's
//     largest option for 10 s while Chromium records a trace (the CDP
//     Tracing domain, trace_test.go), with the page scrolled to its top,
//     where the loop's picture is. From the page's main thread
//     (CrRendererMain of the renderer TracingStartedInBrowser names for the
//     page), frame by frame (BeginMainThreadFrame): frame-p95-ms, the 95th
//     percentile of the main thread's top-level tasks per frame, and
//     main-frames. From its compositor thread, which draws what the screen
//     shows: late-frames-%, the share of vsyncs (BeginFrame) at which it
//     dropped a frame (DroppedFrame); and frames, how many it drew
//     (DrawFrame). And steps/s, how fast the page played. It fails unless
//     Play is still pressed at the end and the page played at least a fifth
//     of the steps its speed asks for.
//
// # Running them
//
//	go test ./e2e/ -count=1 -v                              # the tests, about 5 minutes on 2 cores
//	go test ./e2e/ -run '^$' -bench BenchmarkBrowser -v     # the benchmarks, a few minutes
//
// They need Chromium: Debian's chromium package (apt-get install chromium),
// or any Chrome or Chromium named by $RLAB_CHROMIUM or found on PATH as
// chromium, chromium-browser, google-chrome, google-chrome-stable or
// headless-shell. Without one the tests skip, saying how to install it,
// except when CI=true, where they fail: CI must run them (.ci/run installs
// Chromium when none is found).
//
// The harness builds the page once per test binary, in tmp/e2e-site under
// the module root: main.wasm with the rlabtest tag and the version "e2e",
// lessons.json, wasm_exec.js from the Go that built it, the site's own
// files (all of site/ but what make wasm writes there), and their .br and
// .gz siblings. Files
// that did not change are left alone, so a warm run recompresses nothing.
// Brotli is at siteserver.TestQuality (main.wasm in under a second) for the
// tests, and at ServedQuality, as rlab compress writes it (about 30 s), in
// tmp/e2e-site-served for the benchmarks, which time the download a learner
// waits for. It starts one Chromium for the whole binary
// (headless, no sandbox, since CI runs as root; no GPU; a fresh profile;
// 1280×900), and each test opens its tabs in a browser context of their own,
// so no test sees another's storage, cache or service worker.
//
// # Screenshots
//
// Each test saves a PNG of the whole page at each stage, as
// tmp/e2e/<TestName>/<NN>-<stage>.png under the module root, or under
// $RLAB_E2E_OUT when that is set, and logs the path; a test's directory is
// emptied at its first screenshot, and a wait that times out saves one named
// "timeout". make clean removes tmp/.
package e2e
