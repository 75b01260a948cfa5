//go:build !js

package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
