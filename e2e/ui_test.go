//go:build !js

package e2e

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file each prove one thing a learner does in the page,
// in a real Chromium; doc.go lists them. Each saves a screenshot at every
// stage, and fails on any console error of the page or of its worker.

// TestPageLoads proves the page starts cleanly under its real headers: no
// console error, #status says "ready", the default sandbox's ReplicaSet is
// drawn, and the document came with a Content-Security-Policy.
func TestPageLoads(t *testing.T) {
	p := newTab(t)
	resp := p.navigate(p.s.server.URL + "/")
	p.waitReady()
	p.shot("ready")

	assert.Equal(t, int64(200), resp.Status)
	csp, ok := header(resp, "Content-Security-Policy")
	if assert.True(t, ok, "the document response has no Content-Security-Policy header") {
		assert.Contains(t, csp, "script-src 'self' 'wasm-unsafe-eval'")
	}
	assert.Equal(t, "ready", p.text("#status"))
	assert.True(t, p.exists(`#world .owner[data-owner="rs/web"]`), `#world has no .owner[data-owner="rs/web"]`)
	assert.True(t, p.exists(`#world .owner[data-owner="rs/web"] .selector`), `rs/web's owner has no .selector`)
	assert.Contains(t, p.text("#clock"), "simulated")
	assert.Contains(t, p.text("#hint"), "Press Step", "the sandbox's hint should say how to start")
	readyAt := eval[float64](p, `window.__rlabReadyAt ?? -1`)
	assert.Greater(t, readyAt, 0.0, "window.__rlabReadyAt is not set")
	t.Logf("interactive %.0f ms after navigation", readyAt)
}

// TestConsoleCreatesReplicaSet proves a ReplicaSet created by typing in the
// console gets its pods by stepping: the controller creates exactly the
// replicas asked for.
func TestConsoleCreatesReplicaSet(t *testing.T) {
	p := openPage(t, "")
	p.command("create rs api --replicas=2 --selector=app=api")
	p.waitFor("rs/api to be drawn", quick, `document.querySelector('#world .owner[data-owner="rs/api"]') !== null`)
	p.shot("created")

	const pods = `#world .owner[data-owner="rs/api"] button.pod`
	for i := 0; p.count(pods) < 2; i++ {
		require.Less(t, i, 200, "rs/api has %d pods after 200 steps", p.count(pods))
		p.stepForward()
	}
	p.shot("two-pods")
	assert.Equal(t, 2, p.count(pods))
	assert.Equal(t, 2, p.count(`#world button.pod[data-owner="rs/api"]`), "the pods drawn under rs/api should say data-owner=rs/api")
}

// TestKillPodByClick proves the control loop a learner watches after killing
// a pod with the mouse, in order: the pod leaves, the owner's key is queued,
// the sync expects one creation (add=1), the creation is observed (add=0),
// and the ReplicaSet is back to three ready pods.
func TestKillPodByClick(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	const ready = `#world .owner[data-owner="rs/web"] button.pod[data-ready="true"]`
	require.Equal(t, 3, p.count(ready), "rs/web should have 3 ready pods at rest")
	assert.Contains(t, p.text("#hint"), "Click a pod", "at rest, the sandbox's hint should suggest disturbing the world")
	p.shot("at-rest")

	victim := eval[string](p, `document.querySelector(`+js(ready)+`).dataset.pod`)
	p.click(`#world button.pod[data-pod="` + victim + `"]`)
	p.waitFor("the pod menu", quick, `!document.getElementById("pod-menu").hidden`)
	p.shot("pod-menu")
	p.markConsole()
	p.click(`#pod-menu [data-action="kill"]`)
	p.waitConsole("the pod menu's kill")
	p.shot("killed")

	// observation is what the page shows of the milestones at one step.
	type observation struct {
		PodGone bool   `json:"podGone"`
		Queued  bool   `json:"queued"`
		Add     string `json:"add"`
		Pods    int    `json:"pods"`
		Ready   int    `json:"ready"`
	}
	observe := `(() => {
		const pod = document.querySelector('#world button.pod[data-pod=` + js(victim) + `]');
		const rs = document.querySelector('#queue [data-controller="rs"]');
		const queued = rs !== null && rs.querySelector('.waiting [data-queue-key="default/web"], .processing [data-queue-key="default/web"]') !== null;
		const add = document.querySelector('#expectations [data-key="default/web"] .add');
		const pods = [...document.querySelectorAll('#world .owner[data-owner="rs/web"] button.pod')].filter((e) => !e.classList.contains("terminating"));
		return {
			podGone: pod === null || pod.classList.contains("terminating"),
			queued,
			add: add === null ? "" : add.textContent.trim(),
			pods: pods.length,
			ready: pods.filter((e) => e.dataset.ready === "true").length,
		};
	})()`
	// seen maps each milestone to the first step it was observed at.
	seen := map[string]int{}
	mark := func(name string, step int) {
		if _, ok := seen[name]; !ok {
			seen[name] = step
			t.Logf("step %d: %s", step, name)
			p.shot(name)
		}
	}
	step, _ := p.stepCount()
	for i := 0; ; i++ {
		o := eval[observation](p, observe)
		if o.PodGone {
			mark("pod-gone", step)
		}
		if o.Queued {
			mark("key-queued", step)
		}
		if o.Add == "1" {
			mark("add-1", step)
		}
		if _, ok := seen["add-1"]; ok && o.Add == "0" {
			mark("add-0", step)
		}
		if _, ok := seen["pod-gone"]; ok && o.Pods == 3 {
			mark("three-pods", step)
		}
		if _, ok := seen["add-0"]; ok && o.Ready == 3 {
			mark("three-ready", step)
			break
		}
		require.Less(t, i, 400, "rs/web did not heal within 400 steps; seen: %v", seen)
		step = p.stepForward()
	}

	for _, name := range []string{"pod-gone", "key-queued", "add-1", "add-0", "three-pods", "three-ready"} {
		require.Contains(t, seen, name, "never saw %s", name)
	}
	assert.LessOrEqual(t, seen["pod-gone"], seen["key-queued"], "the key must be queued after the pod left")
	assert.Less(t, seen["key-queued"], seen["add-1"], "the sync that expects a creation must come after the key was queued")
	assert.Less(t, seen["add-1"], seen["add-0"], "the creation must be observed after it was expected")
	assert.LessOrEqual(t, seen["add-1"], seen["three-pods"], "the replacement pod must be created by the sync that expected it")
	assert.LessOrEqual(t, seen["add-0"], seen["three-ready"])
	assert.False(t, p.exists(`#world button.pod[data-pod="`+victim+`"]`), "the killed pod %s is still drawn", victim)
}

// insidePanels are the parts of the page that draw the world's state at a
// step; stepping back must redraw them exactly.
var insidePanels = []string{"#world", "#queue", "#expectations", "#informers", "#clock"}

func (p *page) snapshot() map[string]string {
	p.t.Helper()
	m := map[string]string{}
	for _, sel := range insidePanels {
		m[sel] = p.html(sel)
	}
	return m
}

// TestStepBackRestoresWorld proves stepping back shows the earlier world
// exactly: after five steps forward and five back, by button and by key,
// the step count and the world's panels are byte-identical to before.
func TestStepBackRestoresWorld(t *testing.T) {
	p := openPage(t, "")
	// Stop in the middle of a sync, where the queue, the workers and the
	// expectations all hold something.
	p.untilSync()
	for range 3 {
		p.stepForward()
	}
	start, _ := p.stepCount()
	before := p.snapshot()
	p.shot("before")

	for range 5 {
		p.stepForward()
	}
	p.shot("five-forward")
	after := p.snapshot()
	assert.NotEqual(t, before["#world"]+before["#queue"]+before["#informers"], after["#world"]+after["#queue"]+after["#informers"],
		"five steps changed nothing on the page, so this test proves nothing")

	for range 3 {
		p.stepBack()
	}
	// The last two by the keyboard shortcut, with the focus on the body.
	for range 2 {
		step, _ := p.stepCount()
		eval[any](p, `document.activeElement?.blur(), null`)
		p.press(kb.ArrowLeft)
		p.waitFor(fmt.Sprintf("step %d after ArrowLeft", step-1), quick, stepIs(step-1))
	}
	p.shot("five-back")

	end, _ := p.stepCount()
	assert.Equal(t, start, end)
	got := p.snapshot()
	for _, sel := range insidePanels {
		assert.Equal(t, before[sel], got[sel], "%s after five steps forward and five back", sel)
	}
}

// insideBodies is what the panels inside the controller draw, by panel,
// without the roving Tab stops among their terms (which follow the focus,
// not the world).
func (p *page) insideBodies() map[string]string {
	p.t.Helper()
	return eval[map[string]string](p, `(() => {
		const out = {};
		for (const body of document.querySelectorAll(".inside .sub-body")) {
			const copy = body.cloneNode(true);
			for (const t of copy.querySelectorAll("[tabindex]")) {
				t.removeAttribute("tabindex");
			}
			out[body.parentElement.id] = copy.innerHTML;
		}
		return out;
	})()`)
}

// TestInsidePanelsArePatchedToTheFreshDrawing proves that the panels inside
// the controller, which each step patches (UI.patch) rather than rebuilds,
// draw what a fresh page draws at the same step: the page steps one event at
// a time through a kill until the workqueue has changed three times, then reloads at that step and draws
// every panel from nothing. It also proves that a patch keeps what did not
// change: the workqueue's heading is the same element before and after
// steps that changed the queue.
func TestInsidePanelsArePatchedToTheFreshDrawing(t *testing.T) {
	p := openPage(t, "")
	p.untilSync()
	p.command("kill pods -l app=web --count=2")
	eval[any](p, `(document.querySelector("#queue .sub-body h4").__e2eKept = true, null)`)
	queues := map[string]bool{p.html("#queue"): true}
	for i := 0; i < 80 && len(queues) < 4; i++ {
		p.stepForward()
		queues[p.html("#queue")] = true
	}
	require.Len(t, queues, 4, "eighty steps after a kill hardly changed the workqueue, so this test proves nothing")
	assert.True(t, eval[bool](p, `document.querySelector("#queue .sub-body h4").__e2eKept === true`),
		"patching the workqueue's panel replaced its heading, which did not change")
	patched := p.insideBodies()
	require.Len(t, patched, 7)

	// The address follows the present step a moment later: reload only
	// once it holds this one.
	step, _ := p.stepCount()
	p.waitFor("the address to hold the present step", quick, `location.hash.includes("at=`+strconv.Itoa(step)+`&")`)
	p.reload()
	fresh := p.insideBodies()
	for id, html := range fresh {
		assert.Equal(t, html, patched[id], "the %s panel, patched step by step, differs from a fresh drawing", id)
	}
}

// TestLastSyncsAreTheNewest proves that the Workers panel lists a
// controller's newest syncs, newest first, whatever their owners' names:
// with seven ReplicaSets, rs/web, whose name sorts before the six others',
// is synced last and is listed first. The view lists each owner's last sync
// by key, so taking the last five of that list showed the five last names.
func TestLastSyncsAreTheNewest(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	for i := 1; i <= 6; i++ {
		p.command(fmt.Sprintf("create rs x%d --replicas=0 --selector=app=x%d", i, i))
	}
	p.stabilize()
	p.command("scale rs/web --replicas=4")
	p.stabilize()
	type sync struct {
		Owner string `json:"owner"`
		Seq   int    `json:"seq"`
	}
	view := eval[[]sync](p, `window.__rlab.view().controllers.find((c) => c.kind === "rs").lastSyncs`)
	require.Len(t, view, 7, "the view keeps the last sync of each of the seven ReplicaSets")
	slices.SortFunc(view, func(a, b sync) int { return b.Seq - a.Seq })
	var newest []string
	for _, s := range view[:5] {
		newest = append(newest, s.Owner)
	}
	require.Equal(t, "rs/web", newest[0], "rs/web, scaled last, has the newest sync")
	listed := eval[[]string](p, `[...document.querySelectorAll('#workers .controller-section[data-controller="rs"] .syncs li code:first-child')].map((e) => e.textContent)`)
	assert.Equal(t, newest, listed, "the Workers panel lists the five newest syncs, newest first")
	p.shot("last-syncs")
}

// untilSync clicks #until-sync and waits until the step has moved on and the
// page is idle.
func (p *page) untilSync() {
	p.t.Helper()
	step, _ := p.stepCount()
	p.click("#until-sync")
	p.waitFor("#until-sync to run", runTimeout, fmt.Sprintf(`(() => {
		const d = document.getElementById("step-count")?.dataset;
		return d !== undefined && Number(d.step) > %d && document.body.dataset.state === "ready";
	})()`, step))
}

// pageState is what must be equal in a page opened from a share link and in
// the page the link was made in.
type pageState struct {
	StepCount string
	World     string
	View      string
}

func (p *page) state() pageState {
	p.t.Helper()
	return pageState{
		StepCount: p.text("#step-count"),
		World:     p.html("#world"),
		View:      eval[string](p, `JSON.stringify(window.__rlab.view())`),
	}
}

// shareLink clicks #share and returns the link the page offers.
func (p *page) shareLink() string {
	p.t.Helper()
	p.click("#share")
	p.waitFor("#share-link to hold the link", quick, `document.getElementById("share-link").value.includes("#")`)
	return p.value("#share-link")
}

// openLink opens link in a new tab (a fresh browser context, so nothing is
// shared but the link) and waits until it shows stepCount ("step 42 of 57")
// and is idle.
func openLink(t *testing.T, link, stepCount string) *page {
	t.Helper()
	q := newTab(t)
	q.navigate(link)
	q.waitReady()
	q.waitFor("the link's step", runTimeout, `document.getElementById("step-count")?.textContent === `+js(stepCount)+
		` && document.body.dataset.state === "ready"`)
	q.shot("reopened")
	return q
}

// TestShareLinkReproducesState proves a share link is the whole state: made
// after console inputs, steps and a seek back, it reopens in a fresh tab (a
// fresh browser context, so nothing is shared but the link) at the same
// step, with the same world and the same view, byte for byte.
func TestShareLinkReproducesState(t *testing.T) {
	p := openPage(t, "")
	p.command("scale rs/web --replicas=5")
	p.untilSync()
	p.untilSync()
	p.command("kill pods -l app=web --pick=oldest")
	for range 5 {
		p.stepForward()
	}
	for range 3 {
		p.stepBack()
	}
	p.shot("original")
	want := p.state()

	link := p.shareLink()
	t.Logf("share link: %s", link)
	require.True(t, strings.HasPrefix(link, p.s.server.URL), "the share link %q is not on this site", link)
	p.shot("shared")

	q := openLink(t, link, want.StepCount)
	got := q.state()
	assert.Equal(t, want.StepCount, got.StepCount)
	assert.Equal(t, want.World, got.World, "#world")
	if !assert.JSONEq(t, want.View, got.View, "__rlab.view()") {
		return
	}
	assert.Equal(t, want.View, got.View, "__rlab.view() must be equal byte for byte, not only as JSON")
}

// TestConsoleTypoSuggestion proves a mistyped command shows an error with a
// did-you-mean button, saying "did you mean" once, and that the button fixes
// the line.
func TestConsoleTypoSuggestion(t *testing.T) {
	p := openPage(t, "")
	p.typeLine("#console-input", "crate rs x"+kb.Enter)
	p.waitFor("the console error", quick, `document.querySelector(".console-error")?.checkVisibility() === true`)
	p.waitFor("the suggestion", quick, `document.querySelector('button.suggestion[data-suggestion="create"]') !== null`)
	p.shot("typo")
	assert.Contains(t, p.text(".console-error"), "crate")
	shown := eval[string](p, `document.querySelector("#console-output .console-entry:last-child").innerText`)
	assert.Equal(t, 1, strings.Count(strings.ToLower(shown), "did you mean"), "the entry says did you mean once:\n%s", shown)
	assert.Equal(t, 1, strings.Count(shown, "create"), "the entry names the suggestion once:\n%s", shown)

	p.click(`button.suggestion[data-suggestion="create"]`)
	p.waitFor("the fixed line", quick, `document.getElementById("console-input").value === "create rs x"`)
	p.shot("fixed")
}

// crashOutput matches what the rlabtest build's crash op makes Go print
// before it dies, and what the page may log about the dead worker: the only
// console errors TestEngineSurvivesPanicAndCrash accepts. (Go writes a fatal
// panic to standard error, which wasm_exec.js passes to console.log, so today
// it arrives as info, not as an error; the list keeps the test right if
// either the runtime or the page reports the crash as an error.)
var crashOutput = []string{
	`injected by the rlabtest build's crash op`,
	`^goroutine \d+ \[`,
	`the Go program exited with code 2`,
	`(?i)the simulator crashed`,
	`^exit code: 2$`,
}

// TestEngineSurvivesPanicAndCrash proves both kinds of Go failure cost the
// learner nothing: a panic inside an op is answered as an error and the page
// goes on stepping; a crash that kills the Go program makes the page say so,
// restart the worker and replay to the same step and the same world.
func TestEngineSurvivesPanicAndCrash(t *testing.T) {
	p := openPage(t, "")
	p.stepForward()

	res, err := evalErr[string](p, quick, `window.__rlab.engine.call("panic").then(() => "resolved", (e) => "rejected: " + e.message)`)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(res, "rejected: "), "engine.call(\"panic\") should reject; it %s", res)
	assert.Contains(t, res, "internal error")
	before, _ := p.stepCount()
	after := p.stepForward()
	assert.Equal(t, before+1, after, "the page should step after a panic")
	p.shot("after-panic")

	p.allowConsoleErrors(crashOutput...)
	world := p.html("#world")
	// The engine's own view, asked of the engine rather than read from the
	// page, proves the new worker rebuilt the world, not only that the page
	// kept drawing the old one.
	const engineView = `window.__rlab.engine.call("view", {}).then((v) => JSON.stringify(v))`
	view := eval[string](p, engineView)
	// The op answers, but the program dies before the answer leaves the
	// worker, so the call may as well fail with the crash; either is right.
	res, err = evalErr[string](p, quick, `window.__rlab.engine.call("crash").then(() => "resolved", (e) => "rejected: " + e.message)`)
	require.NoError(t, err)
	if res != "resolved" {
		assert.Regexp(t, `^rejected: the simulator crashed`, res)
	}
	p.waitFor("the restart notice in #error", runTimeout,
		`(() => { const e = document.getElementById("error"); return !e.hidden && /restart/i.test(e.textContent); })()`)
	p.shot("restart-notice")
	p.waitReady()
	p.waitFor("the engine to have restarted once", quick, `window.__rlab.engine.restarts === 1`)
	p.waitSettled()
	p.shot("restarted")
	step, _ := p.stepCount()
	assert.Equal(t, after, step, "the step after the restart")
	assert.Equal(t, world, p.html("#world"), "#world after the restart")
	assert.Equal(t, view, eval[string](p, engineView), "the engine's view after the restart")

	assert.Equal(t, after+1, p.stepForward(), "the page should step after the restart")
}

// TestKeyboardShortcuts proves the shortcuts work from the page and stay out
// of the way in the console: . and → step, ? opens the help and Escape
// closes it, and the same keys typed into the console are just text.
func TestKeyboardShortcuts(t *testing.T) {
	p := openPage(t, "")
	blur := func() { eval[any](p, `document.activeElement?.blur(), null`) }

	blur()
	start, _ := p.stepCount()
	p.press(".")
	p.waitFor("a step after .", quick, stepIs(start+1))
	p.press(kb.ArrowRight)
	p.waitFor("a step after ArrowRight", quick, stepIs(start+2))
	p.shot("stepped")

	p.press("?")
	p.waitFor("#help to open", quick, `document.getElementById("help").open === true`)
	p.shot("help")
	p.press(kb.Escape)
	p.waitFor("#help to close", quick, `document.getElementById("help").open === false`)

	// In the console the same keys are text. SendKeys returns once the
	// page has handled each key, so a shortcut would have started by now.
	p.click("#console-input")
	p.typeLine("#console-input", ".?"+kb.ArrowRight)
	p.shot("typed")
	assert.Equal(t, ".?", p.value("#console-input"))
	assert.False(t, eval[bool](p, `document.getElementById("help").open`), "? in the console opened the help")
	assert.Equal(t, "ready", eval[string](p, `document.body.dataset.state`), "keys typed in the console started a run")
	step, _ := p.stepCount()
	assert.Equal(t, start+2, step, "keys typed in the console stepped")

	// One more step from the body proves nothing was queued behind the
	// console's keys either.
	blur()
	p.press(".")
	p.waitFor("a step after .", quick, stepIs(start+3))
	p.waitIdle(quick)
	step, _ = p.stepCount()
	assert.Equal(t, start+3, step)
}

// TestRelabelMakesAnOrphan proves the lesson the page is built for, done
// with the pod menu: a pod relabelled out of its ReplicaSet's selector is
// marked as about to be released, then the controller releases it (it is
// drawn with the orphans) and creates a replacement, so rs/web owns three
// pods again. Labelled back, the orphan is marked as about to be adopted,
// and is.
func TestRelabelMakesAnOrphan(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	const owned = `#world .owner[data-owner="rs/web"] button.pod`
	require.Equal(t, 3, p.count(owned))
	victim := eval[string](p, `document.querySelector(`+js(owned)+`).dataset.pod`)

	p.click(`#world button.pod[data-pod="` + victim + `"]`)
	p.waitFor("the pod menu", quick, `!document.getElementById("pod-menu").hidden`)
	p.click(`#pod-menu [data-action="relabel"]`)
	p.waitFor("the relabel form", quick, `!document.getElementById("relabel-form").hidden`)
	assert.Equal(t, "app=orphan", p.value("#relabel-input"), "the form should suggest moving the pod out of app=web")
	p.shot("relabel-form")
	p.markConsole()
	p.click("#relabel-apply")
	p.waitConsole("the pod menu's relabel")
	assert.Contains(t, p.text("#console-output .console-entry:last-child"), "label pod/"+victim+" app=orphan --overwrite",
		"the menu should show the command it ran")

	assert.True(t, eval[bool](p, `document.getElementById("sync-note").hidden`),
		"the note of the stabilize before the relabel still shows: %q", p.text("#sync-note"))

	// Until rs/web's next sync releases it, the pod is still rs/web's, and
	// marked as about to be released.
	pod := `button.pod[data-pod="` + victim + `"]`
	require.True(t, p.exists(`#world .owner[data-owner="rs/web"] `+pod+`.releasing`), "%s is not marked as about to be released", victim)
	assert.Contains(t, p.text(pod+" .pod-claim"), "left rs/web's selector")
	assert.Contains(t, eval[string](p, `document.querySelector(`+js(pod)+`).getAttribute("aria-label")`),
		"so the next sync of rs/web releases it", "the pod's label does not say it is about to be released")
	p.checkContrast("with a pod about to be released")
	p.shot("releasing")

	p.stabilize()
	p.shot("orphaned")
	assert.True(t, p.exists(`#orphans `+pod), "%s is not drawn with the orphans", victim)
	assert.False(t, p.exists(`#world `+pod+`.releasing`), "%s is still marked as about to be released", victim)
	assert.Equal(t, 3, p.count(owned), "rs/web should own three pods again")
	assert.False(t, p.exists(`#world .owner[data-owner="rs/web"] `+pod), "%s is still drawn under rs/web", victim)

	// Labelled back, the orphan matches rs/web's selector again: it is
	// marked as about to be adopted, and the next sync adopts it (and, with
	// four pods for three replicas, deletes one).
	p.command("label pod/" + victim + " app=web --overwrite")
	require.True(t, p.exists(`#orphans `+pod+`.adoptable`), "%s is not marked as about to be adopted", victim)
	assert.Contains(t, p.text(pod+" .pod-claim"), "matches rs/web")
	p.shot("adoptable")
	p.stabilize()
	assert.False(t, p.exists(`#orphans `+pod), "%s is still an orphan", victim)
	assert.Equal(t, 3, p.count(owned), "rs/web should own three pods after adopting one and deleting one")
}

// TestPodMenuActions proves every other action of the pod menu runs its
// command without an error: set not ready, crash, evict and delete, each on
// a ready pod of rs/web, then set ready on the pod made not ready. A pod set
// not ready is not replaced (the controller counts it, as upstream does), so
// rs/web has three ready pods again only after the last.
func TestPodMenuActions(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	const ready = `#world .owner[data-owner="rs/web"] button.pod[data-ready="true"]`
	act := func(action, command, pod string) {
		t.Helper()
		p.click(`#world button.pod[data-pod="` + pod + `"]`)
		p.waitFor("the pod menu", quick, `!document.getElementById("pod-menu").hidden`)
		p.markConsole()
		p.click(`#pod-menu [data-action="` + action + `"]`)
		p.waitConsole("the pod menu's " + action)
		entry := p.text("#console-output .console-entry:last-child")
		assert.Contains(t, entry, fmt.Sprintf(command, pod), "%s ran another command", action)
		assert.False(t, p.exists("#console-output .console-entry:last-child .console-error"), "%s failed: %s", action, entry)
		p.stabilize()
	}
	first := func() string {
		t.Helper()
		require.True(t, p.exists(ready), "rs/web has no ready pod")
		return eval[string](p, `document.querySelector(`+js(ready)+`).dataset.pod`)
	}

	notReady := first()
	act("not-ready", "set ready pod/%s false", notReady)
	assert.Equal(t, 2, p.count(ready), "a pod set not ready stays, not ready, and is not replaced")
	assert.True(t, p.exists(`#world button.pod[data-pod="`+notReady+`"][data-ready="false"]`), "%s is not drawn not ready", notReady)
	for _, c := range []struct{ action, command string }{
		{"crash", "crash pod/%s"},
		{"evict", "evict pod/%s"},
		{"delete", "delete pod/%s"},
	} {
		act(c.action, c.command, first())
		assert.Equal(t, 2, p.count(ready), "rs/web did not heal after %s", c.action)
	}
	act("ready", "set ready pod/%s true", notReady)
	p.shot("healed")
	assert.Equal(t, 3, p.count(ready), "rs/web should have three ready pods again")
}

// TestGoneOwnerIsNotItsNamesake proves the world draws the pods of a deleted
// ReplicaSet apart from a new one of the same name: deleted (the garbage
// collector then deletes its pods) and created again at once, rs/web's old
// pods are drawn under a group marked gone, and the new rs/web gets pods of
// its own.
func TestGoneOwnerIsNotItsNamesake(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	const live = `#world .owner[data-owner="rs/web"] button.pod`
	old := eval[[]string](p, `[...document.querySelectorAll(`+js(live)+`)].map((e) => e.dataset.pod)`)
	require.Len(t, old, 3)

	p.command("delete rs/web")
	p.command("create rs web --replicas=3 --selector=app=web")
	p.shot("recreated")
	for _, name := range old {
		pod := `button.pod[data-pod="` + name + `"]`
		if !p.exists(`#world ` + pod) {
			continue // the garbage collector was quicker
		}
		assert.True(t, p.exists(`#world .owner-gone[data-gone-owner="rs/web"] `+pod), "%s is not drawn under the gone rs/web", name)
		assert.False(t, p.exists(live+`[data-pod="`+name+`"]`), "%s is drawn under the new rs/web", name)
	}
	require.True(t, p.exists(`#world .owner-gone[data-gone-owner="rs/web"]`), "no gone rs/web is drawn: the test needs its pods")

	p.stabilize()
	p.shot("at-rest")
	assert.False(t, p.exists(`#world .owner-gone`), "the garbage collector has deleted the old pods")
	assert.Equal(t, 3, p.count(live), "the new rs/web has its three pods")
	for _, name := range old {
		assert.False(t, p.exists(`#world button.pod[data-pod="`+name+`"]`), "%s outlived its owner", name)
	}
}
