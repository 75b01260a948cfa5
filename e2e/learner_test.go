//go:build !js

package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/lesson"
	"github.com/reconcilelab/rlab/lessons"
)

// The tests of this file pin down what a learner tripped over the first time
// they met the page (the issue "The page as a learner meets it"): the
// controls scrolling away, shortcuts that died in the console, a reload that
// rewound, a first screen that started at "step 67 of 67", and the small
// things beside them.

// onScreen is a JavaScript function that says, for a selector, whether its
// element is wholly inside the viewport and is what a pointer at its middle
// would hit (not covered by anything else): what "stays on screen" means.
const onScreen = `((sel) => {
	const e = document.querySelector(sel);
	if (e === null) return sel + " is missing";
	const r = e.getBoundingClientRect();
	if (r.width === 0 || r.height === 0) return sel + " is not drawn";
	if (r.top < -0.5 || r.bottom > innerHeight + 0.5 || r.left < -0.5 || r.right > innerWidth + 0.5) {
		return sel + " is off screen (" + Math.round(r.top) + ".." + Math.round(r.bottom) + " of " + innerHeight + ")";
	}
	const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 10));
	if (hit === null || !(hit === e || e.contains(hit))) return sel + " is covered by " + (hit ? hit.outerHTML.slice(0, 80) : "nothing");
	return "";
})`

// TestControlsStayOnScreen scrolls the page, on a desktop screen and on a
// phone, to each of the panels a learner reads while stepping, and proves
// that Step, Back and the step's sentence are on screen, uncovered, at every
// scroll position: a learner never has to scroll back up to take the next
// step or to read what it did.
func TestControlsStayOnScreen(t *testing.T) {
	for _, screen := range []struct {
		name          string
		width, height int64
		mobile        bool
	}{
		{"desktop", 1400, 900, false},
		{"phone", 390, 844, true},
	} {
		t.Run(screen.name, func(t *testing.T) {
			p := newTab(t)
			emulate(p, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
				Width: screen.width, Height: screen.height, DeviceScaleFactor: 1, Mobile: screen.mobile,
			})
			p.navigate(p.s.server.URL + "/")
			p.waitReady()
			p.waitSettled()
			if screen.mobile {
				// The first screen's long sentence is clamped along the
				// bottom; a tap shows it whole, another clamps it again.
				const whole = `(() => { const e = document.getElementById("sentence"); return e.scrollHeight <= e.clientHeight + 1; })()`
				require.False(t, eval[bool](p, whole), "the first screen's sentence is not clamped on a phone, so this proves nothing")
				p.click("#sentence")
				assert.True(t, eval[bool](p, whole), "a tap on the clamped sentence does not show it whole")
				p.viewShot("sentence-whole")
				p.click("#sentence")
				assert.False(t, eval[bool](p, whole), "a second tap does not clamp the sentence again")
			}
			p.stepForward()
			require.Greater(t, eval[float64](p, `document.documentElement.scrollHeight`), float64(screen.height),
				"the page is not taller than the screen, so this test proves nothing")
			for _, target := range []string{"#world", "#console-input", "#timeline", "#queue", "#expectations", "#informers", "#agenda", "#gc", "bottom"} {
				if target == "bottom" {
					eval[any](p, `window.scrollTo(0, document.documentElement.scrollHeight), null`)
				} else {
					eval[any](p, `document.querySelector(`+js(target)+`).scrollIntoView({block: "end"}), null`)
				}
				eval[any](p, `new Promise((resolve) => requestAnimationFrame(() => resolve(null)))`)
				scrolled := eval[float64](p, `window.scrollY`)
				for _, sel := range []string{"#step-forward", "#step-back", "#sentence"} {
					assert.Empty(t, eval[string](p, onScreen+`(`+js(sel)+`)`),
						"scrolled to %s (scrollY %.0f)", target, scrolled)
				}
			}
			p.viewShot("scrolled-to-bottom")
			// The controls still work from there.
			p.stepForward()

		})
	}
}

// TestFirstScreenSaysWhereTheLearnerIs opens the default sandbox and proves
// that its setup is marked as the world's history, not the learner's: the
// step counter counts from where the learner took over, the scrubber shows a
// labelled setup segment, and the sentence says in words what the learner is
// looking at and what to do. Stepping back into the setup says so.
func TestFirstScreenSaysWhereTheLearnerIs(t *testing.T) {
	p := openPage(t, "")
	p.shot("first-screen")
	step, recorded := p.stepCount()
	base := int(eval[float64](p, `window.__rlab.view().baseStep`))
	require.Greater(t, base, 0, "the default sandbox has no setup steps, so this test proves nothing")
	assert.Equal(t, fmt.Sprintf("step %d of %d", step-base, recorded-base), p.text("#step-count"),
		"the counter does not count from the learner's first step")
	assert.True(t, eval[bool](p, `!document.getElementById("setup-segment").hidden`), "the scrubber has no setup segment")
	assert.Equal(t, fmt.Sprintf("setup: %d steps", base), p.text("#setup-label"))
	sentence := p.text("#sentence")
	assert.Contains(t, sentence, "You are looking at a cluster of 3 nodes")
	assert.Contains(t, sentence, "create rs web --replicas=3 --selector=app=web")
	assert.Contains(t, sentence, "rs/web wants 3 pods and has 0")
	assert.Contains(t, sentence, "Press Step")

	// A step shows what it did, numbered as the counter numbers it.
	p.stepForward()
	assert.Regexp(t, fmt.Sprintf(`^step %d · t=`, step+1-base), p.text("#sentence"))
	assert.Contains(t, p.text("#timeline li[aria-current=step]"), fmt.Sprintf("#%d ", step+1-base))

	// Back, past the learner's start, goes into the setup, and says so.
	for n := step + 1; n >= base; n-- {
		p.stepBack()
	}
	p.shot("in-the-setup")
	assert.Equal(t, fmt.Sprintf("setup step %d of %d", base-1, base), p.text("#step-count"))
	assert.Regexp(t, fmt.Sprintf(`^setup step %d · t=`, base-1), p.text("#sentence"))
	assert.True(t, p.exists(`#timeline li.setup[aria-current=step]`), "the timeline does not mark the present step as a setup step")
	assert.Contains(t, eval[string](p, `document.getElementById("step-back").title`), "setup")
}

// chooseWorld picks a world (a sandbox start or a lesson id) in the World
// select, as a learner does, and waits until it is drawn.
func (p *page) chooseWorld(id string) {
	p.t.Helper()
	p.waitFor("the world "+id+" to be listed", runTimeout,
		`document.querySelector('#world-select option[value=`+js(id)+`]') !== null`)
	eval[any](p, `(() => {
		const s = document.getElementById("world-select");
		s.value = `+js(id)+`;
		s.dispatchEvent(new Event("change"));
		return null;
	})()`)
	p.waitFor("the world "+id+" to load", runTimeout, `window.__rlab.view()?.mode !== undefined && document.body.dataset.state === "ready" &&
		(window.__rlab.view().lesson ?? "sandbox") === `+js(strings.SplitN(id, ":", 2)[0]))
	p.waitSettled()
}

// reload reloads the tab at the address it shows now, as the browser's
// reload button does, and waits until the page is ready and drawn.
func (p *page) reload() {
	p.t.Helper()
	p.navigate(eval[string](p, `location.href`))
	p.waitReady()
	p.waitSettled()
}

// TestReloadReturnsHere proves that the URL follows the learner: the
// default first screen keeps a bare address (the fast path), and once they
// step, the address holds where they are, so a reload returns to exactly
// that step, world and view; in a lesson, to the same page of its guide.
func TestReloadReturnsHere(t *testing.T) {
	p := openPage(t, "")
	eval[any](p, `new Promise((resolve) => setTimeout(() => resolve(null), 600))`)
	assert.Empty(t, eval[string](p, `location.hash`), "the default first screen should keep a bare address")

	p.stepForward()
	p.stepForward()
	p.stepBack()
	step, _ := p.stepCount()
	p.waitFor("the address to hold the present step", quick, `location.hash.includes("at=`+strconv.Itoa(step)+`&")`)
	before := p.state()
	p.reload()
	p.shot("reloaded-sandbox")
	assert.Equal(t, before, p.state(), "a reload did not return to the same step, world and view")
	assert.Empty(t, eval[string](p, `document.getElementById("error").hidden ? "" : document.getElementById("error").textContent`))

	all, err := lessons.All()
	require.NoError(t, err)
	l := lessonByID(t, all, "02-a-pod-dies")
	p.chooseWorld(l.ID)
	require.Contains(t, p.text("#lesson .page-count"), "page 1 of")
	p.waitFor("the first page's check to hold, checked with no button pressed", runTimeout, `!document.querySelector("#lesson .lesson-nav button:last-of-type").disabled`)
	p.click(`#lesson .lesson-nav button:last-of-type`)
	p.waitFor("the guide's second page", quick, `document.querySelector("#lesson .page-count")?.textContent.startsWith("page 2 of")`)
	p.waitFor("the address to hold the lesson's page", quick, `location.hash.includes("p=2")`)
	before = p.state()
	p.reload()
	p.shot("reloaded-lesson")
	assert.Equal(t, before, p.state(), "a reload did not return to the same lesson world")
	assert.Equal(t, l.ID, p.value("#world-select"))
	assert.Contains(t, p.text("#lesson .page-count"), "page 2 of", "a reload did not return to the guide's page")
}

// TestShortcutsAfterAConsoleCommand proves a learner can go from a command
// to its steps without the mouse: → on the console's empty line steps, ←
// steps back, Escape leaves the console for Step, where → steps again; and
// → inside a line being typed only moves the cursor.
func TestShortcutsAfterAConsoleCommand(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	eval[any](p, `document.getElementById("console-input").focus(), null`)
	p.command("scale rs/web --replicas=4")
	require.True(t, eval[bool](p, `document.activeElement === document.getElementById("console-input")`), "the console lost the focus after its command")
	step, _ := p.stepCount()

	p.press(kb.ArrowRight)
	p.waitFor("→ on the console's empty line to step", quick, stepIs(step+1))
	p.press(kb.ArrowRight)
	p.waitFor("a second →", quick, stepIs(step+2))
	p.press(kb.ArrowLeft)
	p.waitFor("← on the console's empty line to step back", quick, stepIs(step+1))
	assert.True(t, eval[bool](p, `document.activeElement === document.getElementById("console-input")`), "stepping from the console took the focus away")

	p.press(kb.Escape)
	assert.Equal(t, "step-forward", eval[string](p, `document.activeElement.id`), "Escape did not leave the console for Step")
	p.press(kb.ArrowRight)
	p.waitFor("→ after Escape", quick, stepIs(step+2))

	// In a line being typed, → is the cursor's.
	p.press("/")
	p.typeLine("#console-input", "get pods")
	p.press(kb.ArrowLeft)
	p.press(kb.ArrowRight)
	p.waitSettled()
	now, _ := p.stepCount()
	assert.Equal(t, step+2, now, "→ and ← in a typed line moved time")
	assert.Contains(t, p.text("#help"), "empty line")
	assert.Contains(t, p.text("#hint"), "Esc")
}

// TestSmallThingsALearnerSaw pins the small things a learner met on the
// page: counts whose noun disagreed ("1 keys pending"), an owner's status
// beside a different pod count with nothing saying why, pod cards that did
// not name their node, a relabel field whose text became flags, the
// timeline's present lagging a long run, and a link's step told in other
// numbers than the counter's.
func TestSmallThingsALearnerSaw(t *testing.T) {
	p := openPage(t, "")
	p.stepForward()
	assert.Contains(t, p.text("#sentence"), "DeltaFIFO (1 key pending)")

	p.stabilize()
	const rs = `#world .owner[data-owner="rs/web"]`
	assert.NotContains(t, p.text(rs+" .replicas"), "catches up", "at rest the status and the pods agree")
	for _, card := range eval[[]string](p, `[...document.querySelectorAll("#world button.pod .pod-node")].map((e) => e.checkVisibility() ? e.textContent : "hidden")`) {
		assert.Regexp(t, `^on node-\d$`, card, "a pod card does not name its node")
	}

	// A relabel that is not label changes says so, and runs nothing.
	p.click(rs + ` button.pod[data-ready="true"]`)
	p.waitFor("the pod menu", quick, `!document.getElementById("pod-menu").hidden`)
	p.click(`#pod-menu [data-action="relabel"]`)
	entries := p.count("#console-output .console-entry")
	for input, want := range map[string]string{
		"":                     "Type at least one label change",
		"app=orphan --dry-run": `"--dry-run" is not a label change`,
		"app":                  `"app" is not a label change`,
	} {
		eval[any](p, `document.getElementById("relabel-input").value = `+js(input)+`, null`)
		p.click("#relabel-apply")
		p.waitFor("the relabel form's error", quick, `!document.getElementById("relabel-error").hidden`)
		assert.Contains(t, p.text("#relabel-error"), want, "relabel %q", input)
		assert.Equal(t, "true", eval[string](p, `document.getElementById("relabel-input").getAttribute("aria-invalid") ?? ""`))
	}
	p.viewShot("relabel-refused")
	assert.Equal(t, entries, p.count("#console-output .console-entry"), "a refused relabel ran a command")
	eval[any](p, `document.getElementById("relabel-input").value = "app=orphan", null`)
	p.click("#relabel-apply")
	p.waitConsole("label app=orphan")
	assert.Contains(t, p.text("#console-output .console-entry:last-child"), "app=orphan --overwrite")
	p.stabilize()

	// Between syncs, the status trails the pods, and the owner's line says so.
	p.command("kill pods -l app=web --pick=newest")
	assert.Contains(t, p.text(rs+" .replicas"), "2 active pods now: the status catches up", "after one of three pods was killed")

	// The timeline's present keeps up with a long run.
	p.command("scale rs/web --replicas=400")
	start, _ := p.stepCount()
	p.click("#stabilize")
	p.waitFor("the run to get going", runTimeout, fmt.Sprintf(`Number(document.getElementById("step-count").dataset.step) > %d || document.body.dataset.state === "ready"`, start+8000))
	got := eval[struct {
		Lag   float64 `json:"lag"`
		Chunk float64 `json:"chunk"`
	}](p, `(() => {
		const now = Number(document.getElementById("step-count").dataset.step);
		const li = document.querySelector("#timeline li[aria-current=step]");
		return {lag: li === null ? now : now - Number(li.dataset.step), chunk: Math.max(...window.__rlab.engine.chunks)};
	})()`)
	p.shot("long-run")
	// Stabilize runs in chunks (sized to the worker's time, 1,000 steps
	// at first); the timeline may be a chunk behind the counter, not more.
	t.Logf("the timeline's present was %v steps behind the counter; the largest chunk so far was %v steps", got.Lag, got.Chunk)
	assert.LessOrEqual(t, got.Lag, got.Chunk, "the timeline's present lags the counter by more than a chunk")
	eval[any](p, `document.getElementById("cancel").click(), null`)
	p.waitIdle(runTimeout)

	// A link at step 0 says, as the counter does, that it is in the setup.
	q := openPage(t, "#v=e2e&w=sandbox&seed=1&at=0&end=0")
	_, recorded := q.stepCount()
	require.Greater(t, recorded, 0)
	want := fmt.Sprintf("setup step 0 of %d", recorded)
	assert.Equal(t, want, q.text("#step-count"))
	assert.Contains(t, q.text("#console-output"), "now at "+want)
}

// lessonByID finds a built-in lesson by its ID.
func lessonByID(t testing.TB, all []*lesson.Lesson, id string) *lesson.Lesson {
	t.Helper()
	for _, l := range all {
		if l.ID == id {
			return l
		}
	}
	t.Fatalf("no lesson %s", id)
	return nil
}
