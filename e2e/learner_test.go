//go:build !js

package e2e

import (
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
