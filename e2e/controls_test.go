//go:build !js

package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/lessons"
)

// TestPlayPauseAndScrub proves the two controls that move through time by
// themselves: Play steps on its own until paused, and the timeline scrubber,
// driven by the keyboard, seeks to the first recorded step and back to the
// last, where the world is the one it left.
func TestPlayPauseAndScrub(t *testing.T) {
	p := openPage(t, "")
	start, _ := p.stepCount()

	p.click("#play")
	p.waitFor("#play to be pressed", quick, `document.getElementById("play").getAttribute("aria-pressed") === "true"`)
	p.waitFor("play to run three steps", runTimeout, fmt.Sprintf(`(() => {
		const d = document.getElementById("step-count")?.dataset;
		return d !== undefined && Number(d.step) >= %d;
	})()`, start+3))
	p.click("#play")
	p.waitFor("#play to be released", quick, `document.getElementById("play").getAttribute("aria-pressed") === "false"`)
	p.waitSettled()
	p.shot("paused")
	paused, recorded := p.stepCount()
	require.Greater(t, paused, start+2)
	want := p.snapshot()

	// Home and End on the focused range are what a keyboard user presses.
	eval[any](p, `document.getElementById("scrubber").focus(), null`)
	p.press(kb.Home)
	p.waitFor("the seek to step 0", runTimeout, stepIs(0))
	p.waitSettled()
	p.shot("scrubbed-to-0")
	assert.Zero(t, p.count(`#world .owner`), "no ReplicaSet exists at step 0")
	_, recordedAt0 := p.stepCount()
	assert.Equal(t, recorded, recordedAt0, "seeking back keeps the recorded future")

	p.press(kb.End)
	p.waitFor("the seek back to the end", runTimeout, stepIs(recorded))
	p.waitSettled()
	p.shot("scrubbed-to-end")
	got := p.snapshot()
	for _, sel := range insidePanels {
		assert.Equal(t, want[sel], got[sel], "%s after scrubbing to 0 and back", sel)
	}
}

// TestLessonGoalThroughThePage proves a lesson works in the page as it does
// headless: chosen from #world-select, its guide shows, its goal is not met
// by the setup alone, and the reference solution, typed into the console,
// meets it.
func TestLessonGoalThroughThePage(t *testing.T) {
	all, err := lessons.All()
	require.NoError(t, err)
	require.NotEmpty(t, all)
	l := all[0]

	p := openPage(t, "")
	p.waitFor("the lessons to be listed", runTimeout,
		`document.querySelector('#world-select option[value=`+js(l.ID)+`]') !== null`)
	eval[any](p, `(() => {
		const s = document.getElementById("world-select");
		s.value = `+js(l.ID)+`;
		s.dispatchEvent(new Event("change"));
		return null;
	})()`)
	p.waitFor("the lesson's guide", runTimeout, `document.getElementById("check-goal") !== null && document.body.dataset.state === "ready"`)
	p.waitSettled()
	assert.Contains(t, p.text("#lesson"), l.Title)

	p.click("#check-goal")
	p.waitFor("the goal's verdict", quick, `document.getElementById("goal-result")?.textContent !== ""`)
	p.shot("not-yet")
	assert.Contains(t, p.text("#goal-result"), "Not yet")

	for _, line := range strings.Split(l.Solution.Text, "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p.command(line)
		p.waitIdle(runTimeout)
	}
	p.click("#check-goal")
	p.waitFor("the goal to be met", runTimeout, `document.getElementById("goal-result")?.textContent.includes("Goal met")`)
	p.shot("met")
}

// TestInterveningInThePastForks proves what the help promises: a command
// given after stepping back forks the timeline there. The console and the
// timeline say so; the recorded future after that step is dropped, so the
// scrubber's end is the new branch's; stepping back across the fork and
// forward again replays the new branch, not the old; and a share link made
// on the new branch reopens it.
func TestInterveningInThePastForks(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	_, oldEnd := p.stepCount()
	const pods = `#world .owner[data-owner="rs/web"] button.pod`
	require.Equal(t, 3, p.count(pods), "rs/web has three pods at rest")

	for range 6 {
		p.stepBack()
	}
	at, recorded := p.stepCount()
	require.Equal(t, oldEnd, recorded, "stepping back keeps the recorded future")
	p.shot("stepped-back")

	p.command("scale rs/web --replicas=4")
	p.shot("forked")
	assert.Contains(t, p.text("#console-output"), fmt.Sprintf("timeline forked at step %d", at-p.base()),
		"the console does not say the timeline forked")
	assert.True(t, p.exists("#timeline li.fork"), "the timeline has no fork entry")
	step, newEnd := p.stepCount()
	assert.Equal(t, step, newEnd, "after the fork the present is the end of what is recorded")
	assert.Greater(t, oldEnd, newEnd, "the old future is still recorded")

	p.stabilize()
	require.Equal(t, 4, p.count(pods), "the new branch scales rs/web to four pods")
	want := p.state()
	_, end := p.stepCount()

	// Back across the fork, then forward to the end again: the new branch
	// is replayed, byte for byte.
	for step := end; step > at-2; {
		step = p.stepBack()
	}
	eval[any](p, `document.getElementById("scrubber").focus(), null`)
	p.press(kb.End)
	p.waitFor("the seek to the end of the new branch", runTimeout, stepIs(end))
	p.waitSettled()
	got := p.state()
	assert.Equal(t, want.World, got.World, "#world at the new branch's end, after stepping back across the fork")
	assert.Equal(t, want.View, got.View, "the view at the new branch's end, after stepping back across the fork")

	q := openLink(t, p.shareLink(), want.StepCount)
	assert.Equal(t, 4, q.count(pods), "the share link reopened the old branch")
	assert.Equal(t, want.View, q.state().View, "the share link's view")
}
