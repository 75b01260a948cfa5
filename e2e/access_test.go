//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file prove what the issue asks of the page for readers
// who do not use a mouse and a big screen: a phone can step with a tap, every
// control has a name a screen reader can say, and text is readable in both
// colour schemes. They check what the browser computes (layout, the
// accessibility tree, computed colours), not what the stylesheet says.

// TestPhoneTapToStep opens the page as a phone would show it, 390 by 844 CSS
// pixels with touch and no mouse, and proves it is usable there: nothing
// scrolls sideways, Step is a full-width tap target, a tap steps, and a tap
// on a pod opens its menu as a sheet along the bottom of the screen.
func TestPhoneTapToStep(t *testing.T) {
	p := openPhonePage(t)
	p.waitSettled()
	p.shot("phone")

	assert.True(t, eval[bool](p, `matchMedia("(pointer: coarse)").matches`), "the tab does not emulate a touch screen")
	width := eval[float64](p, `window.innerWidth`)
	require.Equal(t, 390.0, width, "the emulated viewport is not a phone's")
	assert.LessOrEqual(t, eval[float64](p, `document.documentElement.scrollWidth`), width,
		"the page is wider than the phone's screen, so it scrolls sideways")

	step := p.rect("#step-forward")
	assert.GreaterOrEqual(t, step.Height, 44.0, "Step is shorter than a 44 px tap target")
	assert.GreaterOrEqual(t, step.Width, 0.8*width, "Step does not span the screen")
	for _, sel := range []string{"#step-back", "#until-sync", "#play", "#stabilize"} {
		assert.GreaterOrEqual(t, p.rect(sel).Height, 44.0, "%s is shorter than a 44 px tap target", sel)
	}

	before, _ := p.stepCount()
	p.tap("#step-forward")
	p.waitFor(fmt.Sprintf("step %d after a tap on #step-forward", before+1), quick, stepIs(before+1))
	p.shot("tapped-step")

	p.tap("#stabilize")
	p.waitFor("the world to be at rest after a tap on #stabilize", runTimeout,
		`document.body.dataset.state === "ready" && window.__rlab?.view()?.atRest === true`)
	p.waitSettled()
	const pod = `#world button.pod[data-ready="true"]`
	require.True(t, p.exists(pod), "no ready pod is drawn at rest")
	assert.LessOrEqual(t, eval[float64](p, `document.documentElement.scrollWidth`), width,
		"the world at rest is wider than the phone's screen")
	p.tap(pod)
	p.waitFor("the pod menu", quick, `!document.getElementById("pod-menu").hidden`)
	p.shot("pod-menu")
	menu := p.rect("#pod-menu")
	assert.InDelta(t, width, menu.Width, 1, "the pod menu is not a sheet as wide as the screen")
	assert.InDelta(t, eval[float64](p, `window.innerHeight`), menu.Bottom, 1, "the pod menu does not sit on the bottom of the screen")
	assert.GreaterOrEqual(t, p.rect(`#pod-menu [data-action="kill"]`).Height, 44.0, "the menu's kill is shorter than a 44 px tap target")
}

// TestControlsHaveAccessibleNames reads Chromium's accessibility tree, the
// one a screen reader is given, with the page at rest, with a pod's menu
// open and with the help open, and proves that every control in it (button,
// text box, list box, slider, …) has a name, and that the timeline's news
// (#timeline-news, what a run did, in a sentence) and the console's output
// are live regions, so that what happens is announced.
func TestControlsHaveAccessibleNames(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	p.checkNames("at rest", 10)

	p.click(`#world button.pod[data-ready="true"]`)
	p.waitFor("the pod menu", quick, `!document.getElementById("pod-menu").hidden`)
	p.checkNames("with a pod's menu open", 10)
	p.press("\x1b") // Escape closes the menu
	p.waitFor("the pod menu to close", quick, `document.getElementById("pod-menu").hidden`)

	p.click("#help-button")
	p.waitFor("#help to open", quick, `document.getElementById("help").open === true`)
	// The help is a modal dialog: the page behind it is inert, out of the
	// tree, and the dialog's own controls are all a reader can reach.
	p.checkNames("with the help open", 1)

	p.press("\x1b")
	p.waitFor("#help to close", quick, `document.getElementById("help").open === false`)

	// The check itself must catch a control without a name: an empty button
	// added to the page is reported.
	eval[any](p, `document.getElementById("hint").after(Object.assign(document.createElement("button"), {id: "probe-unnamed"})), null`)
	_, unnamed := p.unnamedControls()
	assert.Len(t, unnamed, 1, "the check should report exactly the empty probe button")

	for _, sel := range []string{"#timeline-news", "#console-output", "#status"} {
		assert.Contains(t, []string{"polite", "assertive"}, eval[string](p, `document.querySelector(`+js(sel)+`).getAttribute("aria-live") ?? ""`),
			"%s is not a live region, so a screen reader does not announce it", sel)
	}
}

// TestTextContrast proves the stylesheet's promise that every text meets
// WCAG AA contrast (4.5:1, or 3:1 for large text) against what is behind
// it, in the light and the dark scheme, at load, at rest, and with a pod
// terminating (striped) and its menu open. Disabled controls are exempt, as
// WCAG exempts them.
func TestTextContrast(t *testing.T) {
	for _, scheme := range []string{"light", "dark"} {
		t.Run(scheme, func(t *testing.T) {
			p := newTab(t)
			p.colourScheme(scheme)
			p.navigate(p.s.server.URL + "/")
			p.waitReady()
			p.waitSettled()
			require.Equal(t, scheme == "dark", eval[bool](p, `matchMedia("(prefers-color-scheme: dark)").matches`))
			p.checkContrast("at load")

			p.stabilize()
			p.checkContrast("at rest")

			victim := eval[string](p, `document.querySelector('#world button.pod[data-ready="true"]').dataset.pod`)
			p.command("delete pod " + victim)
			for i := 0; !p.exists(`#world button.pod.terminating`); i++ {
				require.Less(t, i, 50, "no pod is drawn terminating 50 steps after delete pod %s", victim)
				p.stepForward()
			}
			p.click(`#world button.pod.terminating`)
			p.waitFor("the pod menu", quick, `!document.getElementById("pod-menu").hidden`)
			p.checkContrast("with a pod terminating and its menu open")

			// The check itself must catch a pale text: a probe of #aaa on
			// white (2.3:1) is reported, and one of #595959 (7:1) is not.
			// The page's CSP forbids style attributes, so the probes are
			// styled through the CSSOM, which it allows.
			eval[any](p, `(() => {
				for (const [id, color] of [["probe-pale", "#aaa"], ["probe-dark", "#595959"]]) {
					const e = document.createElement("p");
					e.id = id;
					e.textContent = id;
					e.style.color = color;
					e.style.background = "#fff";
					document.getElementById("hint").after(e);
				}
			})(), null`)
			r := eval[contrastResult](p, contrastCheck)
			failed := strings.Join(r.Failures, "\n")
			assert.Contains(t, failed, "#probe-pale", "the contrast check missed a 2.3:1 text")
			assert.NotContains(t, failed, "#probe-dark", "the contrast check failed a 7:1 text")
		})
	}
}

// --- Helpers -----------------------------------------------------------------

// colourScheme makes the tab's prefers-color-scheme "light" or "dark", as a
// reader's system setting would, for the tests that check both schemes.
func (p *page) colourScheme(scheme string) {
	p.t.Helper()
	emulate(p, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	})
}

// openPhonePage opens the page in a new phone tab (newPhoneTab) and waits
// until it is ready.
func openPhonePage(tb testing.TB) *page {
	tb.Helper()
	p := newPhoneTab(tb)
	p.navigate(p.s.server.URL + "/")
	p.waitReady()
	return p
}

// newPhoneTab opens a blank tab that shows pages as a phone does: 390 by 844
// CSS pixels at twice the density, with touch and no mouse.
func newPhoneTab(tb testing.TB) *page {
	tb.Helper()
	p := newTab(tb)
	emulate(p, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: 390, Height: 844, DeviceScaleFactor: 2, Mobile: true,
	})
	emulate(p, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 5})
	return p
}

// emulate runs an Emulation command on p's tab, which keeps it until the tab
// closes.
func emulate[P any](p *page, cmd cdp.Command[P, cdp.Empty], params P) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, quick)
	defer cancel()
	if _, err := chromedp.Call(ctx, cmd, params); err != nil {
		p.t.Fatalf("%s: %v", cmd.Method, err)
	}
}

type box struct{ Width, Height, Bottom, X, Y float64 }

// rect returns the bounding box of the element sel matches, in CSS pixels of
// the viewport.
func (p *page) rect(sel string) box {
	p.t.Helper()
	b := eval[*box](p, `(() => {
		const e = document.querySelector(`+js(sel)+`);
		if (e === null) return null;
		const r = e.getBoundingClientRect();
		return {Width: r.width, Height: r.height, Bottom: r.bottom, X: r.left + r.width / 2, Y: r.top + r.height / 2};
	})()`)
	if b == nil {
		p.shot("missing")
		p.t.Fatalf("no element matches %s", sel)
	}
	return *b
}

// tap touches the middle of the element sel matches and lifts the finger,
// as a phone does: a touchstart and a touchend, from which the browser makes
// the click. The element is scrolled into view first.
func (p *page) tap(sel string) {
	p.t.Helper()
	p.waitFor(sel+" to be enabled", quick,
		`(() => { const e = document.querySelector(`+js(sel)+`); return e !== null && !e.disabled; })()`)
	eval[any](p, `document.querySelector(`+js(sel)+`).scrollIntoView({block: "center"}), null`)
	at := p.rect(sel)
	ctx, cancel := context.WithTimeout(p.ctx, quick)
	defer cancel()
	for _, ev := range []input.DispatchTouchEventParams{
		{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: at.X, Y: at.Y}}},
		{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}},
	} {
		if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, ev); err != nil {
			p.shot("tap-failed")
			p.t.Fatalf("tapping %s: %v", sel, err)
		}
	}
}

// interactiveRoles are the accessibility roles of controls: what a reader
// can press, type into, choose from or move, each of which must be named.
var interactiveRoles = map[string]bool{
	"button": true, "checkbox": true, "combobox": true, "link": true, "listbox": true,
	"menuitem": true, "menuitemcheckbox": true, "menuitemradio": true, "option": true,
	"radio": true, "searchbox": true, "slider": true, "spinbutton": true, "switch": true,
	"tab": true, "textbox": true, "treeitem": true,
}

// checkNames fails the test for every control in the accessibility tree
// that has no name, saying which and when, and if the tree holds fewer than
// least controls (then it is not the tree of the page meant).
func (p *page) checkNames(when string, least int) {
	p.t.Helper()
	controls, unnamed := p.unnamedControls()
	p.t.Logf("%s: %d controls in the accessibility tree", when, controls)
	assert.GreaterOrEqual(p.t, controls, least, "%s: the accessibility tree has too few controls to be the page's", when)
	if len(unnamed) > 0 {
		p.shot("unnamed")
		p.t.Errorf("%s: %d controls have no accessible name: %s", when, len(unnamed), strings.Join(unnamed, ", "))
	}
}

// unnamedControls reads the tab's accessibility tree and returns how many
// controls it holds and a description of each that has no name.
func (p *page) unnamedControls() (controls int, unnamed []string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, quick)
	defer cancel()
	tree, err := chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	require.NoError(p.t, err, "reading the accessibility tree")
	for _, n := range tree.Nodes {
		if n.Ignored || n.Role == nil {
			continue
		}
		role := axString(n.Role)
		if !interactiveRoles[role] {
			continue
		}
		controls++
		if strings.TrimSpace(axString(n.Name)) == "" {
			unnamed = append(unnamed, fmt.Sprintf("a %s (DOM node %d)", role, n.BackendDOMNodeID))
		}
	}
	return controls, unnamed
}

// axString returns an accessibility value as a string, "" if it has none.
func axString(v *accessibility.Value) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	var s string
	if err := json.Unmarshal(v.Value, &s); err != nil {
		return ""
	}
	return s
}

// contrastCheck is run in the page. For every visible element with text of
// its own, it finds the colour behind the text by compositing the
// backgrounds of the element and its ancestors (a gradient counts as each of
// its colours, the worst one deciding), blends the text colour over it with
// the element's opacity, and computes the WCAG contrast ratio. Colours are
// normalized by painting them on a canvas, so any CSS colour syntax works.
// It returns the texts below their threshold.
const contrastCheck = `(() => {
	const canvas = document.createElement("canvas");
	canvas.width = canvas.height = 1;
	const cx = canvas.getContext("2d", {willReadFrequently: true});
	const rgba = (css) => {
		cx.clearRect(0, 0, 1, 1);
		cx.fillStyle = "rgba(0, 0, 0, 0)";
		cx.fillStyle = css;
		cx.fillRect(0, 0, 1, 1);
		const d = cx.getImageData(0, 0, 1, 1).data;
		return [d[0], d[1], d[2], d[3] / 255];
	};
	const over = (top, below) => {
		const a = top[3];
		return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a)).concat(1);
	};
	const lum = (c) => {
		const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
		return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
	};
	const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
	// backdrops returns the opaque colours that can be behind e.
	const backdrops = (e) => {
		const layers = [];
		for (let n = e; n !== null; n = n.parentElement) {
			const s = getComputedStyle(n);
			const stops = s.backgroundImage.includes("gradient(")
				? (s.backgroundImage.match(/(rgba?|color|oklch|hsla?)\([^()]*\)|#[0-9a-f]{3,8}/gi) ?? []).map(rgba)
				: [];
			if (stops.length > 0) {
				layers.push(stops);
				if (stops.every((c) => c[3] === 1)) break;
			}
			const c = rgba(s.backgroundColor);
			if (c[3] > 0) {
				layers.push([c]);
				if (c[3] === 1) break;
			}
		}
		let result = [rgba(getComputedStyle(document.documentElement).backgroundColor)];
		if (result[0][3] < 1) result = [[255, 255, 255, 1]];
		for (let i = layers.length - 1; i >= 0; i--) {
			result = layers[i].flatMap((top) => result.map((below) => over(top, below)));
		}
		return result;
	};
	const failures = [];
	let checked = 0;
	for (const e of document.querySelectorAll("body *")) {
		const own = [...e.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join("").trim();
		if (own === "" || e.closest("[hidden], script, style, template, option") !== null) continue;
		if (e.closest("button:disabled, input:disabled, select:disabled") !== null) continue;
		const s = getComputedStyle(e);
		if (s.visibility !== "visible" || e.getClientRects().length === 0) continue;
		const r = e.getBoundingClientRect();
		if (r.width === 0 || r.height === 0) continue;
		let opacity = 1;
		for (let n = e; n !== null; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
		const size = parseFloat(s.fontSize);
		const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
		const need = large ? 3 : 4.5;
		const fg = rgba(s.color);
		fg[3] *= opacity;
		checked++;
		let worst = Infinity, worstBg = null;
		for (const bg of backdrops(e)) {
			const rr = ratio(over(fg, bg), bg);
			if (rr < worst) { worst = rr; worstBg = bg; }
		}
		if (worst < need) {
			const id = e.id ? "#" + e.id : e.tagName.toLowerCase() + (e.className ? "." + [...e.classList].join(".") : "");
			failures.push(id + " " + JSON.stringify(own.slice(0, 40)) + ": " + worst.toFixed(2) + ":1 < " + need +
				" (text " + s.color + " over rgb(" + worstBg.slice(0, 3).map(Math.round).join(", ") + "))");
		}
	}
	return {checked, failures};
})()`

// contrastResult is what contrastCheck returns.
type contrastResult struct {
	Checked  int      `json:"checked"`
	Failures []string `json:"failures"`
}

// checkContrast fails the test for every text below WCAG AA contrast.
func (p *page) checkContrast(when string) {
	p.t.Helper()
	r := eval[contrastResult](p, contrastCheck)
	p.t.Logf("%s: checked the contrast of %d texts", when, r.Checked)
	assert.Greater(p.t, r.Checked, 50, "%s: too few texts were checked to be the page's", when)
	if len(r.Failures) > 0 {
		p.shot("low-contrast")
		p.t.Errorf("%s: %d texts are below WCAG AA contrast:\n\t%s", when, len(r.Failures), strings.Join(r.Failures, "\n\t"))
	}
}

// focusStop is where one press of Tab left the focus.
type focusStop struct {
	Name    string `json:"name"`    // #id, or tag.class[data-pod=…]
	Ring    bool   `json:"ring"`    // a focus outline of at least 2 px is drawn
	Visible bool   `json:"visible"` // the element has a box on screen
}

// focusNow describes document.activeElement as a focusStop.
const focusNow = `(() => {
	const e = document.activeElement;
	if (e === null || e === document.body) return {name: "body", ring: false, visible: false};
	const s = getComputedStyle(e);
	const r = e.getBoundingClientRect();
	const name = e.id ? "#" + e.id : e.tagName.toLowerCase() + "." + [...e.classList].join(".") + (e.dataset.pod ? "[data-pod=" + e.dataset.pod + "]" : "");
	return {
		name,
		ring: s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2,
		visible: r.width > 0 && r.height > 0 && s.visibility === "visible",
	};
})()`

// TestKeyboardOnly proves a reader with only a keyboard can reach and use
// everything: Tab walks every control of the page in order, each with a
// visible focus ring; a pod reached by Tab opens its menu with Enter, the
// menu keeps the focus until Escape gives it back to the pod, and its kill,
// chosen with Enter, runs and leaves the focus where the reader can go on.
// At rest, with nothing left to run, the controls that run time are disabled
// and say why; once the kill gives the controller work, Tab reaches them.
func TestKeyboardOnly(t *testing.T) {
	p := openPage(t, "")
	p.press("r") // Stabilize
	p.waitFor("the world to be at rest after r", runTimeout,
		`document.body.dataset.state === "ready" && window.__rlab?.view()?.atRest === true`)
	p.waitSettled()

	_, reached, podAt := p.tabWalk()
	for _, want := range []string{"#world-select", "#step-back", "#speed", "#scrubber", "#console-input", "#console-run", "#help-button", "#share"} {
		assert.True(t, reached[want], "Tab never reached %s", want)
	}
	for _, idle := range []string{"#step-forward", "#until-sync", "#play", "#stabilize"} {
		assert.True(t, eval[bool](p, `document.querySelector(`+js(idle)+`).disabled`), "%s is enabled with nothing to run", idle)
		assert.Contains(t, eval[string](p, `document.querySelector(`+js(idle)+`).title`), "Nothing to run", "%s does not say why it is disabled", idle)
	}
	require.Positive(t, podAt, "Tab never reached a pod")

	// Tab from the top again, to the first pod, and act on it by keyboard.
	eval[any](p, `document.activeElement?.blur(), null`)
	for range podAt {
		p.press(kb.Tab)
	}
	pod := eval[focusStop](p, focusNow)
	require.True(t, strings.HasPrefix(pod.Name, "button.pod"), "the %dth Tab stop is %s, not the pod", podAt, pod.Name)
	p.press(kb.Enter)
	p.waitFor("the pod menu", quick, `!document.getElementById("pod-menu").hidden`)
	assert.True(t, eval[bool](p, `document.getElementById("pod-menu").contains(document.activeElement)`), "the open menu does not have the focus")
	for range 12 {
		p.press(kb.Tab)
		require.True(t, eval[bool](p, `document.getElementById("pod-menu").contains(document.activeElement)`), "Tab left the open pod menu")
	}
	p.press(kb.Escape)
	p.waitFor("the pod menu to close", quick, `document.getElementById("pod-menu").hidden`)
	assert.Equal(t, pod.Name, eval[focusStop](p, focusNow).Name, "Escape did not give the focus back to the pod")

	p.press(kb.Enter)
	p.waitFor("the pod menu", quick, `!document.getElementById("pod-menu").hidden`)
	require.Equal(t, "kill", eval[string](p, `document.activeElement.dataset.action ?? ""`), "the menu's first choice is not kill")
	p.markConsole()
	p.press(kb.Enter)
	p.waitConsole("kill, chosen with Enter")
	p.shot("killed-by-keyboard")
	after := eval[focusStop](p, focusNow)
	t.Logf("after the kill the focus is on %s", after.Name)
	assert.True(t, after.Name == pod.Name || after.Name == "#step-forward",
		"after the kill the focus is on %s, neither the pod nor Step", after.Name)
	_, reached, _ = p.tabWalk()
	for _, want := range []string{"#step-forward", "#until-sync", "#play", "#stabilize"} {
		assert.True(t, reached[want], "with work to do, Tab never reached %s", want)
	}
	before, _ := p.stepCount()
	eval[any](p, `document.activeElement?.blur(), null`)
	p.press(".")
	p.waitFor(fmt.Sprintf("step %d after .", before+1), quick, stepIs(before+1))
}

// tabWalk presses Tab from the top of the page until the focus leaves it or
// comes around, and returns the stops, the set of their names, and the
// position (from 1) of the first pod among them, or -1. Every stop must be
// visible and show a focus ring.
func (p *page) tabWalk() (stops []focusStop, reached map[string]bool, podAt int) {
	p.t.Helper()
	// Blurring alone leaves Chromium's starting point for Tab where the
	// focus was; focusing the body moves it to the top of the page.
	eval[any](p, `(() => {
		document.activeElement?.blur();
		document.body.tabIndex = -1;
		document.body.focus();
		document.body.removeAttribute("tabindex");
		return null;
	})()`)
	reached = map[string]bool{}
	podAt = -1
	for i := 0; i < 120; i++ {
		p.press(kb.Tab)
		s := eval[focusStop](p, focusNow)
		if s.Name == "body" || (len(stops) > 0 && s.Name == stops[0].Name) {
			break // past the last control, to the browser's own UI, or around
		}
		stops = append(stops, s)
		reached[s.Name] = true
		if podAt < 0 && strings.HasPrefix(s.Name, "button.pod") {
			podAt = len(stops)
		}
		assert.True(p.t, s.Visible, "Tab stop %d, %s, is not visible", len(stops), s.Name)
		assert.True(p.t, s.Ring, "Tab stop %d, %s, shows no focus ring", len(stops), s.Name)
	}
	p.t.Logf("%d Tab stops", len(stops))
	return stops, reached, podAt
}
