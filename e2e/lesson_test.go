//go:build !js

package e2e

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

	p.stepUntilReached(40)
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
	p.stepUntilReached(40)
	p.waitFor("the engine's verdict", runTimeout, `document.querySelector("#lesson .predict-result")?.textContent.includes("Not what happened")`)
	p.shot("page-3-wrong")
	assert.Contains(t, p.text("#lesson .predict-result"), "one, to see whether creating works at all", "the verdict names what the engine did")
	p.click("#lesson .predict-result button")
	p.waitFor(fmt.Sprintf("the rewind to step %d", answeredAt), runTimeout, stepIs(answeredAt))
	p.waitFor("the verdict to wait for the step again", runTimeout, `document.querySelector("#lesson .predict-result")?.textContent.includes("Now run the step")`)
	p.shot("page-3-rewound")
}

// stepUntilReached presses Step until the lesson page's step block says it
// is reached, at most max times.
func (p *page) stepUntilReached(max int) {
	p.t.Helper()
	for range max {
		if eval[bool](p, `document.querySelector("#lesson .step-block")?.textContent.includes("Reached") === true`) {
			return
		}
		p.stepForward()
		p.waitIdle(runTimeout)
	}
	p.waitFor("the step block to be reached", runTimeout, `document.querySelector("#lesson .step-block")?.textContent.includes("Reached") === true`)
}
