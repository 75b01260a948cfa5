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
//   - TestStepBackRestoresWorld: five steps forward and five back (by button
//     and by the ← key) redraw the world and the controller's insides byte
//     for byte.
//   - TestShareLinkReproducesState: a share link made after console inputs,
//     steps and a seek back reopens, in a fresh browser context, at the same
//     step with the same world and the same view, byte for byte.
//   - TestConsoleTypoSuggestion: a mistyped command shows an error with a
//     did-you-mean button that fixes the line.
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
//   - TestInterveningInThePastForks: a command given after stepping back
//     forks the timeline there: the console and the timeline say so, the old
//     future is dropped, stepping back across the fork and forward again
//     replays the new branch, and its share link reopens it.
//   - TestLessonGoalThroughThePage: the first lesson, chosen in the page,
//     shows its guide; its goal is not met by the setup, and is met after
//     its reference solution is typed into the console.
//   - TestKeyboardShortcuts: . and → step, ? opens the help and Escape closes
//     it, and the same keys typed into the console are only text.
//   - TestPhoneTapToStep: on a phone-sized touch screen nothing scrolls
//     sideways, Step spans the screen, every control is a 44 px tap target,
//     a tap steps, and a tap on a pod opens its menu as a bottom sheet.
//   - TestControlsHaveAccessibleNames: every control in Chromium's
//     accessibility tree has a name, at rest, with a pod's menu open and in
//     the help dialog; the timeline, console output and status are live
//     regions.
//   - TestKeyboardOnly: Tab reaches every control, each with a visible focus
//     ring; a pod reached by Tab opens its menu with Enter, the menu keeps
//     the focus until Escape returns it to the pod, and a kill chosen with
//     Enter leaves the focus on the pod or, once it is gone, on Step.
//   - TestTextContrast: every visible text meets WCAG AA contrast against
//     what is behind it (gradients and translucent layers composited), in
//     the light and the dark scheme, including a terminating pod's stripes.
//
// The accessibility and contrast checks each prove first that they can fail:
// a probe without a name, and a pale probe text, are added and reported.
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
//     (the page is interactive earlier, drawing its first world from
//     site/first-view.json).
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
//     stabilize-s; a run not at rest after two minutes is cancelled and
//     reports steps-at-cancel instead.
//
// # Running them
//
//	go test ./e2e/ -count=1 -v                              # the tests, about 40 s warm
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
// wasm_exec.js from the Go that built it, the site's own files (all of site/
// but what make wasm writes there), and their .br and .gz siblings. Files
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
