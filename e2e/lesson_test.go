//go:build !js

package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/lesson"
	"github.com/reconcilelab/rlab/lessons"
)

// TestTheControlLoopLessonInThePage plays the first pages of lesson 1 with
// the page's own controls, as a learner does: a prediction answered before
// its do block runs and graded by the engine once it has; the next page
// opening by itself once the page's check holds; a stepwise page that
// refuses Stabilize, from the button and from the console, and ticks off
// its step block as the learner presses Step; and a wrong prediction that
// offers to rewind to the moment it was given.
func TestTheControlLoopLessonInThePage(t *testing.T) {
	p := openPage(t, "")
	p.chooseWorld("01-the-control-loop")
	p.waitFor("the goal to be checked", runTimeout, `document.getElementById("goal-result")?.textContent.startsWith("Not yet")`)
	require.Contains(t, p.text("#lesson .page-count"), "page 1 of 7")

	// Page 1: predict, then run the do block; the engine grades.
	p.click("#predict-1-0-0")
	p.click("#lesson .predict-block button")
	assert.Contains(t, p.text("#lesson .predict-result"), "Now run the step")
	p.click("#lesson .do-block button")
	p.waitFor("the engine's verdict", runTimeout, `document.querySelector("#lesson .predict-result")?.textContent.includes("Right")`)
	assert.True(t, p.exists("#lesson .do-block button:disabled"), "a do block runs once and says so")
	assert.Contains(t, p.text("#lesson .do-block"), "✓ Ran")
	p.waitFor("the next page to open by itself", runTimeout, `!document.querySelector("#lesson .lesson-nav button:last-of-type").disabled`)
	p.shot("page-1-right")
	p.click("#lesson .lesson-nav button:last-of-type")
	p.waitFor("page 2", quick, `document.querySelector("#lesson .page-count")?.textContent.startsWith("page 2 of")`)

	// Page 2 walks every event: Stabilize and Next sync wait, and the
	// console refuses what runs many events.
	assert.True(t, p.exists("#stabilize:disabled"), "Stabilize waits on a stepwise page")
	assert.True(t, p.exists("#until-sync:disabled"), "Next sync waits on a stepwise page")
	before, _ := p.stepCount()
	p.command("stabilize")
	assert.Contains(t, p.text("#console-output .console-entry:last-child"), "page 2 of this lesson walks every event: press Step")
	after, _ := p.stepCount()
	assert.Equal(t, before, after, "the refused command ran nothing")

	p.stepUntilReached(2, 0, 40)
	p.shot("page-2-reached")
	assert.Contains(t, p.text("#lesson .step-block"), "✓ Reached")
	p.click("#lesson .lesson-nav button:last-of-type")
	p.waitFor("page 3", quick, `document.querySelector("#lesson .page-count")?.textContent.startsWith("page 3 of")`)

	// Its words lead on: a term to the glossary, a function to its source.
	assert.True(t, p.exists(`#lesson .lesson-page button.term[data-term="sync"]`), "[sync](glossary:sync) is the glossary's term")
	assert.Equal(t, "https://github.com/kubernetes/kubernetes/blob/v1.31.14/pkg/controller/replicaset/replica_set.go#L675",
		eval[string](p, `[...document.querySelectorAll("#lesson a.upstream-link")].find((a) => a.textContent === "syncReplicaSet")?.href ?? ""`))

	// Page 3: a wrong prediction ("three at once"), then the step.
	answeredAt, _ := p.stepCount()
	p.click("#predict-3-0-0")
	p.click("#lesson .predict-block button")
	p.stepUntilReached(3, 1, 40)
	p.waitFor("the engine's verdict", runTimeout, `document.querySelector("#lesson .predict-result")?.textContent.includes("Not what happened")`)
	p.shot("page-3-wrong")
	assert.Contains(t, p.text("#lesson .predict-result"), "one, to see whether creating works at all", "the verdict names what the engine did")
	p.click("#lesson .predict-result button")
	p.waitFor(fmt.Sprintf("the rewind to step %d", answeredAt), runTimeout, stepIs(answeredAt))
	p.waitFor("the verdict to wait for the step again", runTimeout, `document.querySelector("#lesson .predict-result")?.textContent.includes("Now run the step")`)
	p.shot("page-3-rewound")
}

// stepUntilReached presses Step until step block block (its index among the
// blocks) of the lesson's page page says it is reached, at most max times.
//
// The page checks a lesson's blocks after it has drawn a step, asking the
// engine, and draws the answers when they are all in; read as soon as the
// step shows, the block still says what it said a step before. Going by
// that alone, the test pressed Step once more than the lesson asks in two
// or three of lesson 1's five step blocks, and the page then graded a
// prediction, which it does in the world as it is, a step after the one
// the question is about. So it asks the engine, whose answer the page
// draws, whether the block holds now, and once it does, waits for the page
// to say so.
func (p *page) stepUntilReached(page, block, max int) {
	p.t.Helper()
	reached := `document.querySelector("#lesson .step-block")?.textContent.includes("Reached") === true`
	holds := fmt.Sprintf(`window.__rlab.engine.call("check", {page: %d, block: %d}).then((r) => r.met)`, page, block)
	for range max {
		if eval[bool](p, reached) || eval[bool](p, holds) {
			break
		}
		p.stepForward()
		p.waitIdle(runTimeout)
	}
	p.waitFor("the step block to be reached", runTimeout, reached)
}

// playLesson plays the lesson on show from its first page to its last, as
// a learner who answers every prediction right does.
func (p *page) playLesson(id string) {
	p.t.Helper()
	p.playLessonFrom(id, 1)
}

// playLessonFrom plays the lesson on show from page from, where it stands,
// to its last page, as playLesson does from the first.
func (p *page) playLessonFrom(id string, from int) {
	p.t.Helper()
	all, err := lessons.All()
	require.NoError(p.t, err)
	l := lessonByID(p.t, all, id)
	for pi, pg := range l.Pages {
		if pg.N < from {
			continue
		}
		p.waitFor(fmt.Sprintf("page %d", pg.N), quick, fmt.Sprintf(`document.querySelector("#lesson .page-count")?.textContent.startsWith("page %d of")`, pg.N))
		for bi, b := range pg.Blocks {
			switch b.Kind {
			case lesson.KindPredict:
				// The player redraws the page as the engine answers: the
				// choice is found afresh for each click.
				p.clickText(fmt.Sprintf("#predict-%d-%d-%d", pg.N, bi, b.Predict.Answer), "")
				p.clickText("#lesson .predict-block button", "Answer")
			case lesson.KindDo:
				ran := `[...document.querySelectorAll("#lesson .do-block button")].filter((b) => b.textContent === "✓ Ran").length`
				before := eval[int](p, ran)
				p.clickText("#lesson .do-block button", "Run")
				// The block says it ran once its commands have, and the
				// answers it settles are graded; then the page draws the
				// world they left.
				p.waitFor("the do block to have run", runTimeout, fmt.Sprintf(`%s > %d`, ran, before))
				p.waitIdle(runTimeout)
				p.waitSettled()
			case lesson.KindStep:
				p.stepUntilReached(pg.N, bi, 60)
			}
		}
		if pi < len(l.Pages)-1 {
			p.waitFor(fmt.Sprintf("page %d's checks to hold", pg.N), runTimeout, `!document.querySelector("#lesson .lesson-nav button:last-of-type").disabled`)
			p.shot(fmt.Sprintf("page-%d", pg.N))
			p.click("#lesson .lesson-nav button:last-of-type")
		}
	}
}

// clickText clicks the first element sel matches whose text starts with
// prefix.
func (p *page) clickText(sel, prefix string) {
	p.t.Helper()
	p.waitFor(sel+" "+prefix, quick, `[...document.querySelectorAll(`+js(sel)+`)].some((e) => e.textContent.startsWith(`+js(prefix)+`) && !e.disabled)`)
	eval[any](p, `([...document.querySelectorAll(`+js(sel)+`)].find((e) => e.textContent.startsWith(`+js(prefix)+`) && !e.disabled).click(), null)`)
}

// TestFencepostsLessonEndToEnd plays lesson 16, rolling-update fenceposts,
// with the page's controls: on its second page the learner predicts the
// first sync of a rollout of ten pods, once wrongly (maxSurge rounded
// down, two pods) and once rightly (the old ReplicaSet scaled down to 8);
// the do block's until sync deploy/web runs the Deployment controller's
// sync, the engine grades both answers, naming what it did, the console
// says what the sync decided, and the world draws the new ReplicaSet
// wanting 3 pods and the old one 8. The rest of the lesson then plays to
// its goal.
func TestFencepostsLessonEndToEnd(t *testing.T) {
	const id = "16-rolling-update-fenceposts"
	p := openPage(t, "")
	p.click("#lessons-button")
	p.click(`#lessons-list li[data-lesson="` + id + `"] button`)
	p.waitFor("lesson 16", runTimeout, `document.querySelector("#lesson-title")?.textContent === "Lesson 16: Rolling-update fenceposts" && document.body.dataset.state === "ready"`)
	require.Contains(t, p.text("#lesson .page-count"), "page 1 of 5")
	// The page checks a page's claims after it is drawn: wait for the verdict.
	p.waitFor("setup to leave one ReplicaSet of ten pods, revision 1", runTimeout, `document.querySelector("#lesson .check-block")?.textContent.includes("✓ This holds")`)
	p.click("#lesson .lesson-nav button:last-of-type")
	p.waitFor("page 2", quick, `document.querySelector("#lesson .page-count")?.textContent.startsWith("page 2 of")`)

	// Two predictions, then the step they ask about.
	p.click("#predict-2-0-0")
	p.clickText("#lesson .predict-block button", "Answer")
	p.click("#predict-2-1-1")
	p.clickText("#lesson .predict-block button", "Answer")
	p.markConsole()
	p.clickText("#lesson .do-block button", "Run")
	p.waitConsole("until sync deploy/web")
	p.waitFor("both verdicts", runTimeout, `[...document.querySelectorAll("#lesson .predict-result")].every((r) => /Right|Not what happened/.test(r.textContent))`)
	p.shot("page-2-graded")

	// The goal's unmet lines say what they found in a line; the ten pods a
	// count is made of fold behind "which".
	eval[any](p, `document.getElementById("goal-checklist").scrollIntoView({block: "center"}), null`)
	p.viewShot("goal")
	folded := eval[[]string](p, `[...document.querySelectorAll("#goal-checklist li.unmet details.why-objects:not([open]) summary")].map((s) => s.textContent)`)
	assert.NotEmpty(t, folded, "a goal line about ten pods lists them all: %s", p.text("#goal-checklist"))
	assert.Contains(t, eval[string](p, `[...document.querySelectorAll("#goal-checklist li.unmet .why")].map((w) => w.textContent).join("\n")`),
		"10 more pods match -l app=web but not the filters which")
	verdicts := eval[[]string](p, `[...document.querySelectorAll("#lesson .predict-result")].map((r) => r.textContent)`)
	require.Len(t, verdicts, 2)
	assert.Contains(t, verdicts[0], "Not what happened", "maxSurge rounds up, not down")
	assert.Contains(t, verdicts[0], "three: 2.5 rounded up", "the verdict names what the engine did")
	assert.Contains(t, verdicts[1], "Right")

	// The console says what the Deployment controller's sync decided.
	out := eval[string](p, `[...document.querySelectorAll("#console-output .console-entry")].map((e) => e.textContent).join("\n")`)
	assert.Regexp(t, `deploy/web synced by deploy-worker-\d`, out)
	assert.Contains(t, out, "(revision 2) with 3 replicas")
	assert.Regexp(t, `scaling down rs/web-[a-z0-9]+ from 10 to 8`, out)

	// The world draws both ReplicaSets, wanting 3 and 8.
	desired := eval[[]string](p, `[...document.querySelectorAll('#world section[aria-label^="ReplicaSet web-"]')]
		.map((s) => s.querySelector(".n-desired")?.textContent ?? "").sort()`)
	assert.Equal(t, []string{"3", "8"}, desired, "the new ReplicaSet at its surge, the old one less what may be unavailable")

	// Its words lead on: ResolveFenceposts to its source at v1.31.14.
	assert.Equal(t, "https://github.com/kubernetes/kubernetes/blob/v1.31.14/pkg/controller/deployment/util/deployment_util.go#L851",
		eval[string](p, `[...document.querySelectorAll("#lesson a.upstream-link")].find((a) => a.textContent === "ResolveFenceposts")?.href ?? ""`))

	p.waitFor("page 2's checks to hold", runTimeout, `!document.querySelector("#lesson .lesson-nav button:last-of-type").disabled`)
	p.click("#lesson .lesson-nav button:last-of-type")
	p.playLessonFrom(id, 3)
	p.waitFor("the goal to be met", runTimeout, `document.getElementById("goal-result")?.textContent.includes("Goal met")`)
	p.shot("solved")
}

// TestLessonsListKeepsProgress: the Lessons button and the #lessons
// address open the list, which marks the first lesson not solved as the
// next one; a solved lesson's mark survives a reload; progress exported to
// a file, cleared and imported back brings the mark back, and a file that
// is not progress is refused with what is wrong.
func TestLessonsListKeepsProgress(t *testing.T) {
	p := openPage(t, "#lessons")
	p.waitFor("the list of lessons, opened by #lessons", runTimeout, `document.getElementById("lessons").open && document.querySelectorAll("#lessons-list li").length >= 2`)
	assert.Equal(t, "01-the-control-loop", eval[string](p, `document.querySelector("#lessons-list li.next").dataset.lesson`))
	assert.Contains(t, p.text(`#lessons-list li[data-lesson="02-a-pod-dies"]`), "Not started")
	p.shot("list")

	// Solve lesson 2 through the list.
	p.click(`#lessons-list li[data-lesson="02-a-pod-dies"] button`)
	p.waitFor("lesson 2", runTimeout, `document.querySelector("#lesson-title")?.textContent.includes("A pod dies") && document.body.dataset.state === "ready"`)
	p.command("kill pods -l app=web --pick=oldest")
	p.command("stabilize")
	p.waitFor("the goal to be met", runTimeout, `document.getElementById("goal-result")?.textContent.includes("Goal met")`)

	p.reload()
	p.click("#lessons-button")
	p.waitFor("the list", quick, `document.getElementById("lessons").open`)
	assert.Contains(t, p.text(`#lessons-list li[data-lesson="02-a-pod-dies"]`), "✓ Solved", "the mark survives a reload")
	assert.Equal(t, "01-the-control-loop", eval[string](p, `document.querySelector("#lessons-list li.next").dataset.lesson`),
		"the next lesson is the first one not solved")

	// Export, clear, import.
	exported := eval[string](p, `(() => {
		let text = null;
		const orig = URL.createObjectURL;
		URL.createObjectURL = (blob) => { window.__e2eBlob = blob; return orig.call(URL, blob); };
		document.getElementById("lessons-export").click();
		URL.createObjectURL = orig;
		return window.__e2eBlob ? "blob" : "";
	})()`)
	require.Equal(t, "blob", exported)
	text := eval[string](p, `window.__e2eBlob.text()`)
	assert.Contains(t, text, `"format": "reconcile-lab-progress"`)
	assert.Contains(t, p.text("#lessons-note"), "reconcile-lab-progress.json")

	eval[any](p, `(localStorage.clear(), null)`)
	p.click("#lessons-close")
	p.click("#lessons-button")
	assert.Contains(t, p.text(`#lessons-list li[data-lesson="02-a-pod-dies"]`), "Not started", "storage cleared")

	importFile := func(content string) {
		eval[any](p, `(() => {
			const input = document.getElementById("lessons-import");
			const dt = new DataTransfer();
			dt.items.add(new File([`+js(content)+`], "progress.json", {type: "application/json"}));
			input.files = dt.files;
			input.dispatchEvent(new Event("change"));
			return null;
		})()`)
	}
	importFile(`{"not": "progress"}`)
	p.waitFor("the refusal", quick, `document.getElementById("lessons-note").textContent.startsWith("Not imported")`)
	assert.Contains(t, p.text("#lessons-note"), `the file is not Reconcile Lab progress`)

	importFile(text)
	p.waitFor("the import", quick, `document.getElementById("lessons-note").textContent.startsWith("Imported")`)
	assert.Contains(t, p.text("#lessons-note"), "Imported the progress of 1 lesson")
	assert.Contains(t, p.text(`#lessons-list li[data-lesson="02-a-pod-dies"]`), "✓ Solved", "the mark is back")
	p.shot("imported")
}

// TestOrphansLessonEndToEnd plays lesson 5 with the page's buttons alone:
// opened from the list of lessons, each prediction answered, each do block
// run, each check passed, the goal reached; the completion mark survives a
// reload.
func TestOrphansLessonEndToEnd(t *testing.T) {
	p := openPage(t, "")
	p.click("#lessons-button")
	p.click(`#lessons-list li[data-lesson="05-orphans"] button`)
	p.waitFor("lesson 5", runTimeout, `document.querySelector("#lesson-title")?.textContent.includes("Orphans") && document.body.dataset.state === "ready"`)
	p.playLesson("05-orphans")
	p.waitFor("the goal to be met", runTimeout, `document.getElementById("goal-result")?.textContent.includes("Goal met")`)
	verdicts := eval[map[string]string](p, `(() => {
		const answers = JSON.parse(localStorage.getItem("rlab.progress.v1")).lessons["05-orphans"].answers;
		return Object.fromEntries(Object.entries(answers).map(([k, a]) => [k, a.verdict]));
	})()`)
	assert.Equal(t, map[string]string{"2/0": "right", "3/0": "right"}, verdicts, "both predictions were graded, by the engine, right")
	p.shot("solved")

	p.reload()
	p.click("#lessons-button")
	p.waitFor("the list", quick, `document.getElementById("lessons").open`)
	assert.Contains(t, p.text(`#lessons-list li[data-lesson="05-orphans"]`), "✓ Solved", "the mark survives a reload")
}

// TestEveryLessonInThePage plays every lesson, in order, in one tab, with
// the page's controls alone, as a learner who answers every prediction
// right: each is opened from the list of lessons, its goal is met at the
// end, the engine graded every prediction right, and the last page lists
// what the real code did, each function linked to its source at v1.31.14.
// A lesson that works headless but not in the page fails here.
func TestEveryLessonInThePage(t *testing.T) {
	all, err := lessons.All()
	require.NoError(t, err)
	p := openPage(t, "")
	for _, l := range all {
		p.click("#lessons-button")
		p.click(fmt.Sprintf(`#lessons-list li[data-lesson=%q] button`, l.ID))
		p.waitFor("lesson "+l.ID, runTimeout, fmt.Sprintf(`document.querySelector("#lesson-title")?.textContent === %q && document.body.dataset.state === "ready"`,
			fmt.Sprintf("Lesson %d: %s", l.Number, l.Title)))
		p.playLesson(l.ID)
		p.waitFor(l.ID+"'s goal to be met", runTimeout, `document.getElementById("goal-result")?.textContent.includes("Goal met")`)
		p.shot(l.ID + "-done")
		// The last page says what the real code did, linked at v1.31.14.
		p.waitFor(l.ID+"'s code", runTimeout, `document.querySelectorAll("#lesson .code-run-list li").length > 3`)
		assert.Equal(t, 0, p.count(`#lesson .code-run-list a:not([href^="https://github.com/kubernetes/kubernetes/blob/v1.31.14/"])`), l.ID)
		if l.ID == "01-the-control-loop" {
			code := p.text("#lesson .code-run-list")
			for _, fn := range []string{"handleWatch", "processDeltas", "ReplicaSetController.addRS", "ReplicaSetController.syncReplicaSet", "slowStartBatch", "updateReplicaSetStatus"} {
				assert.Contains(t, code, fn)
			}
		}
		verdicts := eval[map[string]string](p, `(() => {
			const answers = JSON.parse(localStorage.getItem("rlab.progress.v1")).lessons[`+js(l.ID)+`].answers || {};
			return Object.fromEntries(Object.entries(answers).map(([k, a]) => [k, a.verdict]));
		})()`)
		predicts := 0
		for _, pg := range l.Pages {
			for bi, b := range pg.Blocks {
				if b.Kind == lesson.KindPredict {
					predicts++
					assert.Equal(t, "right", verdicts[fmt.Sprintf("%d/%d", pg.N, bi)], "%s page %d predict %d", l.ID, pg.N, bi)
				}
			}
		}
		assert.Positive(t, predicts, "%s asks at least one prediction", l.ID)
	}
}

// TestALessonCanBeLoweredOnAPhone: on a phone a lesson is a sheet over
// the world that the learner can lower to its title, to see more of the
// world, and raise again; its button says which, in words and in
// aria-expanded.
// TestALessonStandsBesideTheWorld: on a wide screen a lesson stands at the
// top of the right-hand column and the world beside it, both on the first
// screen; in a sandbox, which has no lesson, the two columns start level.
func TestALessonStandsBesideTheWorld(t *testing.T) {
	p := openPage(t, "")
	p.waitEngine()
	type box struct{ Top, Left, Right, Bottom float64 }
	rect := func(sel string) box {
		return eval[box](p, `(() => { const r = document.querySelector(`+js(sel)+`).getBoundingClientRect(); return {top: r.top, left: r.left, right: r.right, bottom: r.bottom}; })()`)
	}
	world := `section[aria-labelledby="world-heading"]`
	assert.InDelta(t, rect(".col-main").Top, rect(".col-side").Top, 1, "a sandbox's columns start level")

	p.chooseWorld("01-the-control-loop")
	p.waitFor("the lesson to show", quick, `!document.getElementById("lesson").hidden`)
	eval[any](p, `(window.scrollTo(0, 0), null)`)
	height := eval[float64](p, `innerHeight`)
	lesson, w := rect("#lesson"), rect(world)
	assert.GreaterOrEqual(t, lesson.Left, w.Right, "the lesson stands to the right of the world")
	assert.Less(t, lesson.Top, height, "the lesson starts on the first screen")
	// The world's heading and its first row of nodes are on the first
	// screen, beside the lesson's goal.
	nodes := rect("#world .node-row")
	assert.Less(t, nodes.Bottom, height, "the world's nodes are on the first screen (their bottom at %v of %v)", nodes.Bottom, height)
	assert.InDelta(t, lesson.Top, w.Top, 1, "the lesson and the world start level")
	// The loop's picture, which the lesson talks about at every step,
	// stands under the world; in the sandbox, beside it again.
	loop := rect("#loop-panel")
	assert.InDelta(t, w.Left, loop.Left, 1, "in a lesson the loop is in the world's column")
	assert.Greater(t, loop.Top, w.Bottom, "in a lesson the loop is under the world")
	p.shot("wide")
	p.click("#new-sandbox")
	p.waitFor("the sandbox", quick, `document.getElementById("lesson").hidden`)
	eval[any](p, `(window.scrollTo(0, 0), null)`)
	assert.InDelta(t, rect(".col-side").Left, rect("#loop-panel").Left, 1, "in the sandbox the loop is beside the world")
}

func TestALessonCanBeLoweredOnAPhone(t *testing.T) {
	q := openPhonePage(t)
	q.chooseWorld("01-the-control-loop")
	expanded := func() string {
		return eval[string](q, `document.getElementById("lesson-toggle").getAttribute("aria-expanded")`)
	}
	assert.Equal(t, "true", expanded())
	// The lesson is a sheet along the bottom of the screen, just above the
	// sentence and Step, over the world, which shows above it.
	type box struct{ Top, Bottom, Height float64 }
	rect := func(sel string) box {
		return eval[box](q, `(() => { const r = document.querySelector(`+js(sel)+`).getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: r.height}; })()`)
	}
	eval[any](q, `(window.scrollTo(0, 0), null)`)
	q.waitFor("the sheet to sit on the sentence", quick,
		`Math.abs(document.getElementById("lesson").getBoundingClientRect().bottom - document.querySelector(".now").getBoundingClientRect().top) <= 1`)
	assert.Equal(t, "fixed", eval[string](q, `getComputedStyle(document.getElementById("lesson")).position`))
	raised := rect("#lesson")
	height := eval[float64](q, `innerHeight`)
	assert.LessOrEqual(t, raised.Height, height*0.46, "the sheet takes at most about half the screen")
	// Scrolled to, the world shows above the sheet: its nodes at least.
	eval[any](q, `(document.querySelector('section[aria-labelledby="world-heading"]').scrollIntoView({block: "start"}), null)`)
	assert.Less(t, rect("#world .node-row").Bottom, raised.Top, "the world's nodes show above the sheet")
	q.viewShot("phone-sheet")
	q.click("#lesson-toggle")
	q.waitFor("the lesson lowered", quick, `document.getElementById("lesson-body").getClientRects().length === 0`)
	q.waitFor("the lowered sheet to sit on the sentence", quick,
		`Math.abs(document.getElementById("lesson").getBoundingClientRect().bottom - document.querySelector(".now").getBoundingClientRect().top) <= 1`)
	assert.Less(t, rect("#lesson").Height, raised.Height/2, "lowered, the sheet is its title")
	assert.Equal(t, "false", expanded())
	assert.Equal(t, "Raise the lesson", q.text("#lesson-toggle"))
	q.viewShot("phone-lowered")
	q.click("#lesson-toggle")
	q.waitFor("the lesson raised", quick, `document.getElementById("lesson-body").getClientRects().length > 0`)
	assert.Equal(t, "Lower the lesson", q.text("#lesson-toggle"))
	assert.False(t, eval[bool](q, `getComputedStyle(document.getElementById("lesson-toggle")).display === "none"`), "the button shows on a phone")
}

// TestShowTheSolutionAsksFirst: while the goal is not met, Show the
// solution asks before playing it; played, it meets the goal, which the
// lesson then says was met by the solution, and the list of lessons does
// not mark the lesson solved.
func TestShowTheSolutionAsksFirst(t *testing.T) {
	p := openPage(t, "")
	p.chooseWorld("02-a-pod-dies")
	p.waitFor("the goal to be checked", runTimeout, `document.getElementById("goal-result")?.textContent.startsWith("Not yet")`)
	p.clickText("#lesson .solution button", "Show the solution")
	p.waitFor("the question", quick, `!document.querySelector("#lesson .solution-box").hidden`)
	assert.Contains(t, p.text("#lesson .solution-box"), "is not marked solved")
	assert.Contains(t, p.text("#goal-result"), "Not yet", "asking plays nothing")
	p.clickText("#lesson .solution-box button", "Yes")
	// Shown, the solution is a list of commands, none run yet; it plays
	// one command at a time, and the rest at once.
	p.waitFor("the solution's commands", quick, `document.querySelectorAll("#lesson .solution-lines li").length > 1`)
	lines := eval[int](p, `document.querySelectorAll("#lesson .solution-lines li").length`)
	assert.Equal(t, 0, eval[int](p, `document.querySelectorAll("#lesson .solution-lines li.done").length`), "showing runs nothing")
	assert.Contains(t, p.text("#goal-result"), "Not yet", "showing runs nothing")
	assert.Equal(t, "solution-next", eval[string](p, `document.activeElement.dataset.focusKey || ""`), "the focus is on the next command's button")
	p.clickText("#lesson .solution-box button", "Run the next command")
	p.waitFor("one command to have run", runTimeout, `document.querySelectorAll("#lesson .solution-lines li.done").length === 1`)
	assert.Contains(t, p.text("#console-output"), strings.TrimSpace(eval[string](p, `document.querySelector("#lesson .solution-lines li.done code").textContent`)), "the command ran in the console")
	p.shot("solution-one-run")
	if lines > 2 {
		p.clickText("#lesson .solution-box button", "Run the rest")
	} else {
		assert.True(t, eval[bool](p, `[...document.querySelectorAll("#lesson .solution-box button")].find((b) => b.textContent === "Run the rest").disabled`), "one command left is the next, not the rest")
		p.clickText("#lesson .solution-box button", "Run the next command")
	}
	p.waitFor("every command to have run", runTimeout, fmt.Sprintf(`document.querySelectorAll("#lesson .solution-lines li.done").length === %d`, lines))
	p.waitFor("the goal to be met by the solution", runTimeout, `document.getElementById("goal-result")?.textContent.includes("by the reference solution")`)
	p.click("#lessons-button")
	p.waitFor("the list", quick, `document.getElementById("lessons").open`)
	assert.Contains(t, p.text(`#lessons-list li[data-lesson="02-a-pod-dies"]`), "Goal met by the solution")
	assert.NotContains(t, p.text(`#lessons-list li[data-lesson="02-a-pod-dies"]`), "Solved")
}
