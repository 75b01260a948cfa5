//go:build !js

package e2e

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file prove the "words nobody explained" fixed:
// every word the panels inside the controller and the world's drawing use
// from Kubernetes' source is a term that explains itself in one line on hover
// and on keyboard focus, and leads to a Glossary panel that explains it at
// length and names the upstream function, type or field it comes from.

// termRoots are the parts of the page whose terms are checked: the panels
// inside the controller and the world.
var termRoots = []string{"#queue", "#workers", "#expectations", "#informers", "#agenda", "#faults", "#gc", "#world"}

// termReport is what termCheck returns.
type termReport struct {
	Count    int            `json:"count"`
	PerRoot  map[string]int `json:"perRoot"`
	Problems []string       `json:"problems"`
}

// termCheck is run in the page with a list of root selectors. For every
// term under them it checks that the term names an entry (data-term), that
// aria-describedby points at that entry's tooltip, whose text is the
// entry's one-line explanation, and that the Glossary panel has the entry
// with an upstream name and file. It returns what is wrong, term by term.
const termCheck = `((roots) => {
	// The page builds the Glossary panel when it is first needed; the
	// check needs it, as opening it would.
	RlabUI.buildGlossary();
	const problems = [];
	const perRoot = {};
	let count = 0;
	for (const root of roots) {
		perRoot[root] = 0;
		for (const el of document.querySelectorAll(root + " .term")) {
			count++;
			perRoot[root]++;
			const id = el.dataset.term || "";
			const what = root + " term " + JSON.stringify(el.textContent);
			if (id === "") {
				problems.push(what + ": names no entry");
				continue;
			}
			const entry = document.getElementById("glossary-" + id);
			if (entry === null) {
				problems.push(what + ": the glossary has no entry #glossary-" + id);
				continue;
			}
			const name = entry.querySelector(".gloss-name")?.textContent.trim() ?? "";
			const file = entry.querySelector(".gloss-file")?.textContent.trim() ?? "";
			if (name === "" || file === "") {
				problems.push(what + ": its entry names no upstream function and file");
			}
			const tipID = el.getAttribute("aria-describedby") ?? "";
			const tip = tipID === "" ? null : document.getElementById(tipID);
			const short = entry.querySelector(".gloss-short")?.textContent ?? "";
			if (tip === null || tip.getAttribute("role") !== "tooltip") {
				problems.push(what + ": aria-describedby=" + JSON.stringify(tipID) + " is not a tooltip");
			} else if (short.trim() === "" || tip.textContent !== short) {
				problems.push(what + ": its tooltip does not say the entry's one-line explanation");
			}
		}
	}
	return {count, perRoot, problems};
})`

// checkTerms fails the test for every term under termRoots that check
// finds wrong, and if a root has none at all.
func (p *page) checkTerms(when string) termReport {
	p.t.Helper()
	r := eval[termReport](p, termCheck+`(`+jsList(termRoots)+`)`)
	p.t.Logf("%s: %d terms (%v)", when, r.Count, r.PerRoot)
	for _, root := range termRoots {
		assert.Positive(p.t, r.PerRoot[root], "%s: %s shows no glossary term", when, root)
	}
	if len(r.Problems) > 0 {
		p.shot("term-problems")
		p.t.Errorf("%s: %d terms are wrong:\n\t%s", when, len(r.Problems), strings.Join(r.Problems, "\n\t"))
	}
	return r
}

// jsList writes strings as a JavaScript array literal.
func jsList(items []string) string {
	quoted := make([]string, len(items))
	for i, s := range items {
		quoted[i] = js(s)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// TestEveryTermHasAGlossaryEntry proves that every term the panels inside
// the controller and the world show, in the middle of a sync and at rest, has
// a glossary entry with an upstream name, and a tooltip saying the entry's
// one-line explanation; that every entry of the Glossary panel names its
// upstream function and file; and that the check catches a term without an
// entry.
func TestEveryTermHasAGlossaryEntry(t *testing.T) {
	p := openPage(t, "")
	// In the middle of a sync the queue, the workers and the expectations
	// all hold something, so their labels and the engine's words show.
	p.untilSync()
	for range 3 {
		p.stepForward()
	}
	p.shot("mid-sync")
	mid := p.checkTerms("in the middle of a sync")
	assert.Greater(t, mid.Count, 40, "too few terms in the middle of a sync to be the panels'")

	p.stabilize()
	p.shot("at-rest")
	p.checkTerms("at rest")

	// The words shown only now and then: a scale-down waiting for its
	// deletions, and the garbage collector at work.
	p.command("scale rs/web --replicas=1")
	p.stepUntil("the expectations to await deletions", 40, `#expectations .sub-body .term[data-term="deletes-awaited"]`)
	p.checkTerms("while a scale-down awaits its deletions")
	p.stabilize()
	p.command("delete rs/web")
	p.stepUntil("the garbage collector's queue", 60, `#gc .sub-body .term[data-term="attempt-to-delete"]`)
	p.shot("garbage-collector")
	p.checkTerms("while the garbage collector deletes the pods")

	type entryReport struct {
		ID, Term, Short, Long, Name, File string
	}
	entries := eval[[]entryReport](p, `[...RlabUI.buildGlossary().querySelectorAll(".gloss-entry")].map((e) => ({
		ID: e.id,
		Term: e.querySelector(".gloss-term")?.textContent ?? "",
		Short: e.querySelector(".gloss-short")?.textContent ?? "",
		Long: e.querySelector(".gloss-long")?.textContent ?? "",
		Name: e.querySelector(".gloss-name")?.textContent ?? "",
		File: e.querySelector(".gloss-file")?.textContent ?? "",
	}))`)
	assert.Greater(t, len(entries), 40, "the Glossary panel has too few entries")
	ids := map[string]bool{}
	for _, e := range entries {
		assert.Regexp(t, `^glossary-[a-z0-9-]+$`, e.ID, "an entry's id is not a stable glossary-<word> id")
		assert.False(t, ids[e.ID], "two entries are %s", e.ID)
		ids[e.ID] = true
		for field, v := range map[string]string{"term": e.Term, "one-line explanation": e.Short, "longer explanation": e.Long, "upstream name": e.Name, "upstream file": e.File} {
			assert.NotEmpty(t, strings.TrimSpace(v), "%s has no %s", e.ID, field)
		}
		assert.Regexp(t, `\.go$`, e.File, "%s names %q, not a Go source file", e.ID, e.File)
	}

	// The check must catch a term without an entry: a probe naming no
	// entry of the glossary is reported.
	eval[any](p, `(() => {
		const probe = Object.assign(document.createElement("button"), {type: "button", className: "term", textContent: "probe"});
		probe.dataset.term = "no-such-word";
		document.querySelector("#queue .sub-body").append(probe);
	})(), null`)
	r := eval[termReport](p, termCheck+`(["#queue"])`)
	assert.Len(t, r.Problems, 1, "the check should report exactly the probe: %v", r.Problems)
}

// stepUntil steps, at most max times, until sel matches an element.
func (p *page) stepUntil(what string, max int, sel string) {
	p.t.Helper()
	for i := 0; !p.exists(sel); i++ {
		if i == max {
			p.shot("never")
			p.t.Fatalf("%s (%s) never showed in %d steps", what, sel, max)
		}
		p.stepForward()
	}
}

// requiredTerms are the words the issue names, each with the entry that
// explains it and a piece of the text the term must show.
var requiredTerms = []struct{ entry, shows string }{
	{"dirty", "dirty"}, {"processing", "processing"}, {"waiting", "waiting"},
	{"delayed", "AddAfter"}, {"requeues", "NumRequeues"},
	{"expectations", "expect"}, {"add", "add"}, {"del", "del"},
	{"satisfied", "satisfied"}, {"expired", "expired"},
	{"has-synced", "HasSynced"}, {"last-sync-rv", "lastSyncResourceVersion"}, {"resource-version", "RV"},
	{"tombstone", "tombstone"}, {"deltafifo", "DeltaFIFO"},
	{"relist", "relist"}, {"list", "list"}, {"watch", "watch"}, {"resync", "resync"},
	{"controller-ref", "controller"}, {"slow-start", "slow"}, {"burst-replicas", "burst"},
	{"agenda", "agenda"}, {"faults", "faults"}, {"garbage-collector", "garbage collector"},
	{"attempt-to-delete", "attemptToDelete"}, {"owner", "owner"}, {"dependent", "dependent"},
	{"orphan", "orphan"}, {"adopt", "adopt"}, {"release", "release"}, {"terminating", "terminating"},
}

// visibleTerms lists the terms on the screen (drawn, wherever they are
// scrolled to) as "entry: text".
const visibleTerms = `[...document.querySelectorAll(".term")]
	.filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility === "visible")
	.map((e) => e.dataset.term + ": " + e.textContent)`

// TestRequiredWordsAreTerms proves that each word the issue names is drawn
// as a term where the learner sees it: in the panels in the middle of a sync
// or at rest, in the world, or in the help.
func TestRequiredWordsAreTerms(t *testing.T) {
	p := openPage(t, "")
	seen := map[string]bool{}
	collect := func(when string) {
		for _, s := range eval[[]string](p, visibleTerms) {
			seen[strings.ToLower(s)] = true
		}
		t.Logf("%s: %d different terms seen so far", when, len(seen))
	}
	p.untilSync()
	for range 3 {
		p.stepForward()
	}
	collect("in the middle of a sync")
	p.stabilize()
	collect("at rest")
	p.press("?")
	p.waitFor("#help to open", quick, `document.getElementById("help").open === true`)
	collect("with the help open")
	p.press(kb.Escape)

	var missing []string
	for _, want := range requiredTerms {
		found := false
		for s := range seen {
			id, text, _ := strings.Cut(s, ": ")
			if id == want.entry && strings.Contains(text, strings.ToLower(want.shows)) {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, fmt.Sprintf("%s (showing %q)", want.entry, want.shows))
		}
	}
	if len(missing) > 0 {
		all := make([]string, 0, len(seen))
		for s := range seen {
			all = append(all, s)
		}
		sort.Strings(all)
		t.Errorf("never drawn as a term: %s\nterms drawn: %s", strings.Join(missing, ", "), strings.Join(all, "; "))
	}
}

// tipState is what the page shows of a term's tooltip.
type tipState struct {
	Shown     bool    `json:"shown"`    // the tooltip is drawn
	Text      string  `json:"text"`     // its text
	Short     string  `json:"short"`    // the entry's one-line explanation, from the Glossary panel
	Covers    bool    `json:"covers"`   // its box overlaps the term's
	OnTop     bool    `json:"onTop"`    // it is what is drawn at its own middle (nothing covers it)
	InDialog  string  `json:"inDialog"` // the id of the dialog it is drawn in, if any
	Focused   bool    `json:"focused"`  // the term has the focus
	Top       float64 `json:"top"`      // where it is, for the log
	Left      float64 `json:"left"`
	Others    int     `json:"others"`    // how many other tooltips are drawn
	Described string  `json:"described"` // the term's aria-describedby
}

// tipOf describes the tooltip of the element marked data-e2e-term.
const tipOf = `(() => {
	RlabUI.buildGlossary();
	const el = document.querySelector("[data-e2e-term]");
	const id = el.getAttribute("aria-describedby") ?? "";
	const tip = document.getElementById(id);
	const shown = tip !== null && !tip.hidden && tip.getClientRects().length > 0;
	const others = [...document.querySelectorAll("[role=tooltip]")].filter((t) => t !== tip && !t.hidden).length;
	const short = document.querySelector("#glossary-" + el.dataset.term + " .gloss-short")?.textContent ?? "";
	if (!shown) return {shown, text: "", short, covers: false, onTop: false, inDialog: "", focused: document.activeElement === el, others, described: id};
	const a = el.getBoundingClientRect(), b = tip.getBoundingClientRect();
	const covers = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
	const at = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
	return {shown, text: tip.textContent, short, covers, onTop: at !== null && tip.contains(at),
		inDialog: tip.closest("dialog")?.id ?? "", focused: document.activeElement === el, top: b.top, left: b.left, others, described: id};
})()`

// markTerm marks the element expr finds with data-e2e-term, unmarking any
// other, scrolls it to the middle of the screen, and returns its middle.
func (p *page) markTerm(expr string) box {
	p.t.Helper()
	ok := eval[bool](p, `(() => {
		for (const e of document.querySelectorAll("[data-e2e-term]")) delete e.dataset.e2eTerm;
		const el = `+expr+`;
		if (!el) return false;
		el.dataset.e2eTerm = "";
		el.scrollIntoView({block: "center"});
		return true;
	})()`)
	if !ok {
		p.shot("no-term")
		p.t.Fatalf("no term found by %s", expr)
	}
	return p.rect("[data-e2e-term]")
}

// axDescription is the accessible description Chromium gives the element
// sel matches: what a screen reader says after its name.
func (p *page) axDescription(sel string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, quick)
	defer cancel()
	res, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: `document.querySelector(` + js(sel) + `)`})
	require.NoError(p.t, err)
	require.NotNil(p.t, res.Result, "no element matches %s", sel)
	relatives := false
	tree, err := chromedp.Call(ctx, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{ObjectID: res.Result.ObjectID, FetchRelatives: &relatives})
	require.NoError(p.t, err, "reading the accessibility node of %s", sel)
	require.NotEmpty(p.t, tree.Nodes, "%s has no accessibility node", sel)
	return axString(tree.Nodes[0].Description)
}

// mouseTo moves the mouse to x, y, as a real pointer does.
func (p *page) mouseTo(x, y float64) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, quick)
	defer cancel()
	require.NoError(p.t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, x, y)))
}

// TestTermExplainsItselfOnHoverAndFocus proves the tooltip works for the
// pointer and for the keyboard: hovering a term and Tabbing to one each show
// its one-line explanation, next to the term and not over it, which is also
// the term's accessible description; Escape hides it without moving the
// focus or doing anything else; Tab moves on past it (it holds no focus);
// and a term in the help, a modal dialog, shows its tooltip on top of it.
func TestTermExplainsItselfOnHoverAndFocus(t *testing.T) {
	p := openPage(t, "")
	p.untilSync()
	p.stepForward()
	before, _ := p.stepCount()

	// Hover: the mouse on the workqueue's "waiting" label.
	at := p.markTerm(`document.querySelector('#queue .sub-body .term[data-term="waiting"]')`)
	assert.Equal(t, "glossary-tip-waiting", eval[string](p, `document.querySelector("[data-e2e-term]").getAttribute("aria-describedby")`))
	p.mouseTo(at.X, at.Y)
	p.waitFor("the tooltip of a hovered term", quick, tipOf+`.shown`)
	p.shot("hover")
	tip := eval[tipState](p, tipOf)
	t.Logf("hovered tooltip at %.0f,%.0f: %q", tip.Left, tip.Top, tip.Text)
	assert.NotEmpty(t, tip.Short)
	assert.Equal(t, tip.Short, tip.Text, "the tooltip does not say the entry's one-line explanation")
	assert.False(t, tip.Covers, "the tooltip covers its term")
	assert.True(t, tip.OnTop, "something covers the tooltip")
	assert.Zero(t, tip.Others, "another tooltip is shown too")
	assert.Equal(t, tip.Short, p.axDescription("[data-e2e-term]"), "a screen reader is not given the one-line explanation")

	// Escape hides it and does nothing else.
	p.press(kb.Escape)
	p.waitFor("Escape to hide the hovered term's tooltip", quick, `!`+tipOf+`.shown`)
	step, _ := p.stepCount()
	assert.Equal(t, before, step, "Escape did more than hide the tooltip")

	// Moving away and back shows it again; moving away hides it.
	p.mouseTo(5, 5)
	p.mouseTo(at.X, at.Y)
	p.waitFor("the tooltip when the mouse comes back", quick, tipOf+`.shown`)
	p.mouseTo(5, 5)
	p.waitFor("the tooltip to hide when the mouse leaves", quick, `!`+tipOf+`.shown`)

	// Keyboard: ↓ from one term of the workqueue's caption to the next.
	eval[any](p, `document.querySelector("#queue .sub-note .term").focus(), null`)
	p.markTerm(`document.querySelectorAll("#queue .sub-note .term")[1]`)
	p.press(kb.ArrowDown)
	p.waitFor("the tooltip of the term ↓ reached", quick, tipOf+`.shown && `+tipOf+`.focused`)
	p.shot("focus")
	tip = eval[tipState](p, tipOf)
	t.Logf("focused tooltip at %.0f,%.0f: %q", tip.Left, tip.Top, tip.Text)
	assert.Equal(t, tip.Short, tip.Text, "the focused term's tooltip does not say its one-line explanation")
	assert.False(t, tip.Covers, "the focused term's tooltip covers it")
	assert.True(t, tip.OnTop, "something covers the focused term's tooltip")
	assert.Zero(t, tip.Others, "the previous term's tooltip is still shown")

	p.press(kb.Escape)
	p.waitFor("Escape to hide the focused term's tooltip", quick, `!`+tipOf+`.shown`)
	assert.True(t, eval[tipState](p, tipOf).Focused, "Escape took the focus from the term")
	step, _ = p.stepCount()
	assert.Equal(t, before, step, "Escape did more than hide the tooltip")

	// The tooltip holds no focus: Tab goes on to the next control.
	p.press(kb.Tab)
	assert.False(t, eval[bool](p, `document.activeElement.matches("[data-e2e-term], [role=tooltip]")`), "Tab stayed on the term or went into its tooltip")
	assert.False(t, eval[tipState](p, tipOf).Shown, "the tooltip stayed after the focus left its term")

	// In the help, a modal dialog, the tooltip is drawn over the dialog.
	eval[any](p, `document.activeElement?.blur(), null`)
	p.press("?")
	p.waitFor("#help to open", quick, `document.getElementById("help").open === true`)
	eval[any](p, `document.querySelector("#help .term").focus(), null`)
	p.markTerm(`document.querySelectorAll("#help .term")[1]`)
	p.press(kb.ArrowDown)
	p.waitFor("the tooltip of a term in the help", quick, tipOf+`.shown && `+tipOf+`.focused`)
	p.shot("help-focus")
	tip = eval[tipState](p, tipOf)
	assert.Equal(t, "help", tip.InDialog, "the tooltip of a term in the help is not drawn in the help")
	assert.True(t, tip.OnTop, "the help covers the tooltip of its own term")
	assert.False(t, tip.Covers, "the tooltip covers its term in the help")
	p.press(kb.Escape)
	p.waitFor("Escape to hide the tooltip in the help", quick, `!`+tipOf+`.shown`)
	assert.True(t, eval[bool](p, `document.getElementById("help").open`), "the Escape that hid the tooltip also closed the help")
	p.press(kb.Escape)
	p.waitFor("#help to close", quick, `document.getElementById("help").open === false`)
}

// TestTooltipNeedsAPointerThatMoves proves that only a pointer moving onto
// a term shows its tooltip. A pointerover alone may come with no pointer
// there: after a tap that scrolled the page, the browser reported the term
// that came under the finger's old place as hovered, by a mouse pointerover
// and no pointermove, and the tooltip it showed stayed up, since no
// pointer ever left. Headless Chromium sends no such event itself, so the
// test sends the browser's pointerover; then a real mouse moving there
// shows the tooltip.
func TestTooltipNeedsAPointerThatMoves(t *testing.T) {
	p := openPage(t, "")
	at := p.markTerm(`document.querySelector('#queue .sub-body .term[data-term="waiting"]')`)
	eval[any](p, `document.querySelector("[data-e2e-term]").dispatchEvent(new PointerEvent("pointerover", {bubbles: true, pointerType: "mouse", clientX: `+fmt.Sprint(at.X)+`, clientY: `+fmt.Sprint(at.Y)+`})), null`)
	eval[any](p, `new Promise((resolve) => setTimeout(() => resolve(null), 400))`)
	assert.False(t, eval[tipState](p, tipOf).Shown, "a pointerover with no pointer moving showed the tooltip")

	p.mouseTo(at.X, at.Y)
	p.waitFor("the tooltip of a term the mouse moved onto", quick, tipOf+`.shown`)
	p.mouseTo(5, 5)
	p.waitFor("the tooltip to hide when the mouse leaves", quick, `!`+tipOf+`.shown`)
}

// TestGlossaryPanelOpens proves the Glossary panel can be reached every way
// the page offers: the header's Glossary button, the help's, a term (which
// opens it at the term's entry, with its upstream name), and the t key, which
// the help's keyboard table lists. The panel's controls all have names, keys
// pressed in it do not step the world behind it, and closing it gives the
// focus back to whatever opened it.
func TestGlossaryPanelOpens(t *testing.T) {
	p := openPage(t, "")
	const open = `document.getElementById("glossary").open === true`
	// A dialog's close event, on which the focus goes back, comes a task
	// after it closes: closed waits for both.
	closed := func(focus string) string {
		return `document.getElementById("glossary").open === false && document.activeElement.matches(` + js(focus) + `)`
	}

	// From the header.
	p.click("#glossary-button")
	p.waitFor("the glossary to open from the header", quick, open)
	p.shot("from-header")
	assert.Equal(t, "workqueue.Typed.dirty", p.text("#glossary-dirty .gloss-name"))
	assert.Equal(t, "k8s.io/client-go/util/workqueue/queue.go", p.text("#glossary-dirty .gloss-file"))
	assert.Equal(t, "controller.UIDTrackingControllerExpectations", p.text("#glossary-expectations .gloss-name"))
	assert.Equal(t, "cache.DeltaFIFO", p.text("#glossary-deltafifo .gloss-name"))
	p.checkNames("with the glossary open", 10)
	before, _ := p.stepCount()
	p.press(kb.ArrowRight)
	p.press(".")
	step, _ := p.stepCount()
	assert.Equal(t, before, step, "a key pressed in the glossary stepped the world behind it")
	p.press(kb.Escape)
	p.waitFor("the glossary to close and give the focus back to its button", quick, closed("#glossary-button"))

	// From a term, at its entry.
	p.click(`#queue .sub-note .term[data-term="dirty"]`)
	p.waitFor("the glossary to open at dirty", quick, open+` && document.activeElement.id === "glossary-dirty"`)
	// The entry is at the top of the panel, just under its heading bar.
	where := eval[map[string]float64](p, `(() => {
		const e = document.getElementById("glossary-dirty").getBoundingClientRect();
		const d = document.getElementById("glossary").getBoundingClientRect();
		const head = document.querySelector("#glossary .gloss-head").getBoundingClientRect();
		return {entry: e.top, head: head.bottom, top: d.top, bottom: d.bottom};
	})()`)
	t.Logf("glossary from %.0f to %.0f, its heading bar ends at %.0f, the entry starts at %.0f", where["top"], where["bottom"], where["head"], where["entry"])
	assert.GreaterOrEqual(t, where["entry"], where["head"]-1, "the entry of the term pressed is under the glossary's heading bar")
	assert.Less(t, where["entry"], (where["top"]+where["bottom"])/2, "the glossary opened, but not scrolled to the entry of the term pressed")
	// Only now: a full-page screenshot makes the viewport as tall as the
	// page for a moment, which scrolls the dialog.
	p.shot("from-term")
	p.closeDialog("glossary", func() { p.press(kb.Escape) })
	p.waitFor("the glossary to close and give the focus back to the term", quick, closed(`.term[data-term="dirty"]`))

	// From the help, over it; closing it returns to the help.
	eval[any](p, `document.activeElement?.blur(), null`)
	p.press("?")
	p.waitFor("#help to open", quick, `document.getElementById("help").open === true`)
	assert.Contains(t, p.text("#help table.keys"), "Open the glossary", "the help's keyboard table does not list the glossary's key")
	p.click("#help-glossary")
	p.waitFor("the glossary to open from the help", quick, open)
	p.press(kb.Escape)
	p.waitFor("the glossary to close and give the focus back to the help's button", quick, closed("#help-glossary"))
	assert.True(t, eval[bool](p, `document.getElementById("help").open`), "closing the glossary closed the help too")
	// The help was opened with nothing focused, so its close event gives
	// the focus to the ? button; the blur below must come after it.
	p.closeDialog("help", func() { p.press(kb.Escape) })
	assert.Equal(t, "help-button", eval[string](p, `document.activeElement?.id ?? ""`),
		"the help opened with nothing focused, closed by Escape, left the focus elsewhere than on the ? button")

	// By its key, and not while typing in the console.
	eval[any](p, `document.activeElement?.blur(), null`)
	p.press("t")
	p.waitFor("t to open the glossary", quick, open)
	p.closeDialog("glossary", func() { p.press(kb.Escape) })
	p.waitFor("the glossary to close", quick, closed("#glossary-button"))
	p.typeLine("#console-input", "get pods -o wide")
	assert.False(t, eval[bool](p, open), "t typed in the console opened the glossary")
	assert.Equal(t, "get pods -o wide", p.value("#console-input"))
}

// TestGlossaryContrast proves the glossary's own texts readable, as
// TestTextContrast does for the rest of the page: the Glossary panel with an
// entry marked as the one asked for, and a term's tooltip, both meet WCAG AA
// contrast in the light and the dark scheme.
func TestGlossaryContrast(t *testing.T) {
	for _, scheme := range []string{"light", "dark"} {
		t.Run(scheme, func(t *testing.T) {
			p := newTab(t)
			p.colourScheme(scheme)
			p.navigate(p.s.server.URL + "/")
			p.waitReady()
			p.waitSettled()

			eval[any](p, `document.querySelector("#informers .sub-note .term").focus(), null`)
			p.waitFor("a focused term's tooltip", quick, `[...document.querySelectorAll("[role=tooltip]")].some((e) => !e.hidden)`)
			p.checkContrast("with a tooltip shown")

			p.click(`#queue .sub-note .term[data-term="dirty"]`)
			p.waitFor("the glossary to open at dirty", quick, `document.activeElement.id === "glossary-dirty"`)
			p.checkContrast("with the glossary open")
			p.shot("glossary")
		})
	}
}

// TestWordsAreOneTabStopPerPart proves the page's explained words do not
// bury its controls under Tab stops: Tab reaches one word of each part of
// the page (a panel, each section inside the controller), the
// console comes within a few dozen presses of the top, and ↓, ↑, Home and
// End move between the words of one part, each showing its explanation,
// while → still steps. Every word was a Tab stop of its own before: 75 of
// the first screen's 83.
func TestWordsAreOneTabStopPerPart(t *testing.T) {
	p := openPage(t, "")
	p.waitEngine()
	p.stepUntil("a pod in the API", 30, `#world button.pod`)

	stops, _, _ := p.tabWalk()
	termStops, parts, consoleAt := 0, eval[int](p, `new Set([...document.querySelectorAll("main button.term")].map((t) => t.closest(".panel:not(.inside), .inside > .sub"))).size`), -1
	for i, s := range stops {
		if strings.HasPrefix(s.Name, "button.term") {
			termStops++
		}
		if s.Name == "#console-input" && consoleAt < 0 {
			consoleAt = i + 1
		}
	}
	words := eval[int](p, `document.querySelectorAll("main button.term").length`)
	t.Logf("%d Tab stops, %d of them words, of %d words in %d parts; the console is stop %d", len(stops), termStops, words, parts, consoleAt)
	assert.Equal(t, parts, termStops, "Tab reaches more than one word of a part, or none of one")
	assert.Greater(t, words, 2*parts, "too few words for the test to mean anything")
	require.Positive(t, consoleAt, "Tab never reached the console")
	assert.LessOrEqual(t, consoleAt, 30, "the console is behind too many Tab stops")

	// ↓, ↑, Home and End move within the informers' section, and each
	// word reached shows its explanation.
	const informers = `[...document.querySelectorAll("#informers button.term")]`
	n := eval[int](p, informers+`.length`)
	require.Greater(t, n, 2, "the informers' section has too few words")
	eval[any](p, `document.querySelector("#informers button.term[tabindex='0']").focus(), null`)
	at := func() int { return eval[int](p, informers+`.indexOf(document.activeElement)`) }
	require.Equal(t, 0, at(), "the informers' Tab stop is not its first word")
	p.markTerm(informers + `[1]`)
	p.press(kb.ArrowDown)
	p.waitFor("↓ to reach the next word, with its explanation", quick, tipOf+`.shown && `+tipOf+`.focused`)
	p.press(kb.End)
	assert.Equal(t, n-1, at(), "End did not reach the section's last word")
	p.press(kb.ArrowDown)
	assert.Equal(t, n-1, at(), "↓ at the last word left it")
	p.press(kb.ArrowUp)
	assert.Equal(t, n-2, at(), "↑ did not reach the word before")
	p.press(kb.Home)
	assert.Equal(t, 0, at(), "Home did not reach the section's first word")
	assert.Equal(t, 1, eval[int](p, informers+`.filter((t) => t.tabIndex === 0).length`), "the section has more than one Tab stop after moving in it")

	before, _ := p.stepCount()
	p.press(kb.ArrowRight)
	p.waitFor("→ on a word to step", quick, stepIs(before+1))
}
