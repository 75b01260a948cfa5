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
		const m = /step (\d+) of/.exec(document.getElementById("step-count")?.textContent ?? "");
		return m !== null && Number(m[1]) >= %d;
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
