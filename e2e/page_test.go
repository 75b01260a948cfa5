//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// This file is the harness a test drives the page with: a page is one
// browser tab on the shared Chromium, with its console (and its Web
// Worker's) forwarded to the test log and every console error failing the
// test; its methods wait, read, click, type and take screenshots, each with
// its own short timeout derived from the tab's context.

// Timeouts of one step of a test. They are generous for a 2-core CI runner,
// but short enough that a page that stopped answering fails fast.
const (
	// quick bounds what should be immediate: reading the DOM, a click.
	quick = 5 * time.Second
	// loadTimeout bounds a page load up to "ready", wasm compile included.
	loadTimeout = 20 * time.Second
	// runTimeout bounds what runs the engine for a while: stabilizing a
	// small world, replaying a share link, restarting a crashed worker.
	runTimeout = 30 * time.Second
)

// page is one tab. A test that needs two tabs (a share link opened fresh)
// opens two; they share the test's screenshot numbering.
type page struct {
	t   testing.TB
	s   *suite
	ctx context.Context
	// close closes the tab; it runs at the end of the test, or earlier for
	// a benchmark that opens many tabs.
	close func()

	mu      sync.Mutex
	closed  bool
	allowed []*regexp.Regexp
}

// newTab opens a blank tab in a browser context of its own (like an
// incognito window), so that no test sees another's storage or cache. The
// tab closes when the test ends.
func newTab(tb testing.TB) *page {
	tb.Helper()
	s := getSuite(tb)
	p := &page{t: tb, s: s}
	ctx, cancel := chromedp.NewContext(s.browser,
		chromedp.WithNewBrowserContext(),
		chromedp.WithListener(p.listener))
	p.ctx = ctx
	p.close = sync.OnceFunc(func() {
		p.mu.Lock()
		p.closed = true
		p.mu.Unlock()
		cancel()
	})
	tb.Cleanup(p.close)
	// The first Do creates the tab and runs its event loop on the context it
	// is given for as long as that lives, so it must be the tab's own
	// context, never one with a timeout.
	if err := chromedp.Do(ctx); err != nil {
		tb.Fatalf("opening a tab: %v", err)
	}
	return p
}

// openPage opens the page, with fragment as its hash ("" for none), in a new
// tab and waits until it is ready.
func openPage(tb testing.TB, fragment string) *page {
	tb.Helper()
	p := newTab(tb)
	p.navigate(p.s.server.URL + "/" + fragment)
	p.waitReady()
	// The page is interactive before it has fetched the start of the
	// timeline and the lessons list; tests count both.
	p.waitFor("the page to finish starting up", loadTimeout, `window.__rlabStartedUpAt !== undefined`)
	p.waitSettled()
	return p
}

// navigate loads url in the tab and returns the document's response.
func (p *page) navigate(url string) *network.Response {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, loadTimeout)
	defer cancel()
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(url))
	if err != nil {
		p.t.Fatalf("loading %s: %v", url, err)
	}
	return resp
}

// waitReady waits until the page says it is ready and is not busy.
func (p *page) waitReady() {
	p.t.Helper()
	p.waitFor("the page to be ready", loadTimeout,
		`document.getElementById("status")?.textContent === "ready" && document.body.dataset.state === "ready"`)
}

// waitIdle waits until the page is not busy.
func (p *page) waitIdle(timeout time.Duration) {
	p.t.Helper()
	p.waitFor("the page to be idle", timeout, `document.body.dataset.state === "ready"`)
}

// --- Console -----------------------------------------------------------------

// allowConsoleErrors makes console errors that match one of patterns
// expected in this tab: logged, not failed on. The crash test needs this for
// the Go runtime's fatal panic output.
func (p *page) allowConsoleErrors(patterns ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pat := range patterns {
		p.allowed = append(p.allowed, regexp.MustCompile(pat))
	}
}

// listener forwards the tab's console, and its workers', to the test log,
// and fails the test on an error there. It runs in the tab's event loop, so
// it only logs; it never runs a command.
func (p *page) listener(ev any) {
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		text := consoleArgs(ev.Args)
		switch ev.Type {
		case runtime.ConsoleAPICalledTypeError, runtime.ConsoleAPICalledTypeAssert:
			p.consoleError("console."+string(ev.Type), text)
		default:
			p.logf("console.%s: %s", ev.Type, text)
		}
	case *runtime.EventExceptionThrown:
		p.consoleError("uncaught exception", (&chromedp.ExceptionError{ExceptionDetails: ev.ExceptionDetails}).Error())
	case *log.EventEntryAdded:
		// The engine's Web Worker has a console of its own, which
		// the page's Runtime domain does not see, but the page's Log
		// domain reports it, as entries from the source "worker":
		// its console calls at their level, and its uncaught
		// exceptions as errors. Go's own output (a fatal panic's,
		// for one) comes this way.
		text := ev.Entry.Text
		if ev.Entry.URL != "" {
			text += " (" + ev.Entry.URL + ")"
		}
		if ev.Entry.Level == log.EntryLevelError {
			p.consoleError("log entry from "+string(ev.Entry.Source), text)
		} else {
			p.logf("log %s from %s: %s", ev.Entry.Level, ev.Entry.Source, text)
		}
	}
}

func (p *page) consoleError(kind, text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	for _, re := range p.allowed {
		if re.MatchString(text) {
			p.t.Logf("%s (expected by this test): %s", kind, text)
			return
		}
	}
	p.t.Errorf("%s: %s", kind, text)
}

func (p *page) logf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.t.Logf(format, args...)
	}
}

// consoleArgs renders console arguments about as DevTools prints them.
func consoleArgs(args []*runtime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		switch {
		case a.Type == runtime.RemoteObjectTypeString:
			var s string
			if err := json.Unmarshal(a.Value, &s); err == nil {
				parts = append(parts, s)
				continue
			}
			parts = append(parts, string(a.Value))
		case a.Description != "":
			parts = append(parts, a.Description)
		case a.UnserializableValue != "":
			parts = append(parts, string(a.UnserializableValue))
		default:
			parts = append(parts, string(a.Value))
		}
	}
	return strings.Join(parts, " ")
}

// --- Waiting and reading -----------------------------------------------------

// waitFor polls the JavaScript expression expr until it is truthy, and
// fails the test, with a screenshot, after timeout. what says what is
// awaited, for the failure message.
func (p *page) waitFor(what string, timeout time.Duration, expr string) {
	p.t.Helper()
	if err := p.poll(timeout, expr); err != nil {
		p.shot("timeout")
		p.t.Fatalf("waiting %v for %s (%s): %v", timeout, what, expr, err)
	}
}

// poll polls expr until it is truthy or timeout passes.
func (p *page) poll(timeout time.Duration, expr string) error {
	ctx, cancel := context.WithTimeout(p.ctx, timeout+time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr,
		chromedp.WithPollingTimeout(timeout),
		chromedp.WithPollingInterval(10*time.Millisecond)))
	return err
}

// eval evaluates expr in the page, awaiting it if it is a promise, and
// decodes its value; an exception or a rejection fails the test.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	v, err := evalErr[T](p, runTimeout, expr)
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// evalErr is eval returning the error, for expressions expected to throw or
// to take a while.
func evalErr[T any](p *page, timeout time.Duration, expr string) (T, error) {
	ctx, cancel := context.WithTimeout(p.ctx, timeout)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
}

// js quotes s as a JavaScript string literal.
func js(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // a string always encodes
	}
	return string(b)
}

// exists says whether sel matches an element.
func (p *page) exists(sel string) bool {
	p.t.Helper()
	return eval[bool](p, `document.querySelector(`+js(sel)+`) !== null`)
}

// count is how many elements sel matches.
func (p *page) count(sel string) int {
	p.t.Helper()
	return eval[int](p, `document.querySelectorAll(`+js(sel)+`).length`)
}

// text is the textContent of the element sel matches; none fails the test.
func (p *page) text(sel string) string {
	p.t.Helper()
	v := eval[*string](p, `document.querySelector(`+js(sel)+`)?.textContent ?? null`)
	if v == nil {
		p.shot("missing")
		p.t.Fatalf("no element matches %s", sel)
	}
	return *v
}

// html is the innerHTML of the element sel matches; none fails the test.
func (p *page) html(sel string) string {
	p.t.Helper()
	v := eval[*string](p, `document.querySelector(`+js(sel)+`)?.innerHTML ?? null`)
	if v == nil {
		p.shot("missing")
		p.t.Fatalf("no element matches %s", sel)
	}
	return *v
}

// value is the value of the input sel matches.
func (p *page) value(sel string) string {
	p.t.Helper()
	v := eval[*string](p, `document.querySelector(`+js(sel)+`)?.value ?? null`)
	if v == nil {
		p.shot("missing")
		p.t.Fatalf("no element matches %s", sel)
	}
	return *v
}

// stepCount reads the step counter's engine numbers: the present step and
// the recorded steps, both counted from the world's start, setup included.
// (Its text counts the learner's steps, from the end of the setup; the
// engine's numbers are what every other part of a test speaks.)
func (p *page) stepCount() (step, recorded int) {
	p.t.Helper()
	at := eval[[]string](p, `(() => { const d = document.getElementById("step-count").dataset; return [d.step ?? "", d.recorded ?? ""]; })()`)
	var err1, err2 error
	step, err1 = strconv.Atoi(at[0])
	recorded, err2 = strconv.Atoi(at[1])
	if err1 != nil || err2 != nil {
		p.t.Fatalf(`#step-count has data-step %q and data-recorded %q, not numbers`, at[0], at[1])
	}
	return step, recorded
}

// base reads the step counter's base: the engine's step at which the
// learner took over the world on show, from which the page counts steps.
func (p *page) base() int {
	p.t.Helper()
	return int(eval[float64](p, `Number(document.getElementById("step-count").dataset.base)`))
}

// stepIs is a JavaScript expression that is true when the step counter
// shows the engine's step n and the page is not busy.
func stepIs(n int) string {
	return fmt.Sprintf(`(() => {
		const d = document.getElementById("step-count")?.dataset;
		return d !== undefined && Number(d.step) === %d && document.body.dataset.state === "ready";
	})()`, n)
}

// --- Acting ------------------------------------------------------------------

// click clicks the element sel matches with a real mouse event, once it is
// visible and enabled.
func (p *page) click(sel string) {
	p.t.Helper()
	p.waitFor(sel+" to be enabled", quick,
		`(() => { const e = document.querySelector(`+js(sel)+`); return e !== null && !e.disabled; })()`)
	ctx, cancel := context.WithTimeout(p.ctx, quick)
	defer cancel()
	for {
		err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel)))
		if err == nil {
			return
		}
		// The page redraws a view by replacing its nodes (a lesson page
		// as the engine checks it, say): a node found a moment ago may be
		// gone before the mouse reaches it. A learner would click the new
		// one; so does the test, until its time is up.
		if !nodeWentAway(err) || ctx.Err() != nil {
			p.shot("click-failed")
			p.t.Fatalf("clicking %s: %v", sel, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// nodeWentAway reports whether err is the DevTools protocol saying that the
// node an action resolved was removed from the document before it acted.
func nodeWentAway(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "Could not find node with given id") ||
		strings.Contains(msg, "No node with given id") ||
		strings.Contains(msg, "Node is detached from document")
}

// stepForward clicks #step-forward and waits for the next step to show.
func (p *page) stepForward() int {
	p.t.Helper()
	step, _ := p.stepCount()
	p.click("#step-forward")
	p.waitFor(fmt.Sprintf("step %d after #step-forward", step+1), quick, stepIs(step+1))
	return step + 1
}

// stepBack clicks #step-back and waits for the previous step to show.
func (p *page) stepBack() int {
	p.t.Helper()
	step, _ := p.stepCount()
	p.click("#step-back")
	p.waitFor(fmt.Sprintf("step %d after #step-back", step-1), quick, stepIs(step-1))
	return step - 1
}

// stabilize clicks #stabilize and waits until the world is at rest.
func (p *page) stabilize() {
	p.t.Helper()
	p.click("#stabilize")
	p.waitFor("the world to be at rest after #stabilize", runTimeout,
		`document.body.dataset.state === "ready" && window.__rlab?.view()?.atRest === true`)
	// The page has the view at rest before it draws it (on the next frame).
	p.waitSettled()
}

// typeLine types line into the element sel matches, as keystrokes. Each
// key is a round trip to the page, so the time allowed grows with the line:
// on a machine loaded far past CI's, fourteen keys once took more than
// quick.
func (p *page) typeLine(sel, line string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, quick+time.Duration(len(line))*250*time.Millisecond)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(sel), line)); err != nil {
		p.t.Fatalf("typing %q into %s: %v", line, sel, err)
	}
}

// command types line into the console, presses Enter, and waits until the
// command has run and the page shows the world it left.
func (p *page) command(line string) {
	p.t.Helper()
	p.markConsole()
	p.typeLine("#console-input", line+kb.Enter)
	p.waitConsole(line)
}

// markConsole remembers the console's last entry, so that waitConsole can
// tell the next one from it.
func (p *page) markConsole() {
	p.t.Helper()
	eval[any](p, `window.__e2eLastEntry = document.querySelector("#console-output .console-entry:last-child"), null`)
}

// waitConsole waits until the console has a new entry since markConsole
// that shows what its command did (output, a note or an error), and the
// page has drawn the world it left. A line is taken from the input at
// once, but runs after whatever the page is doing, so neither an empty
// input nor an idle page alone says it ran.
func (p *page) waitConsole(what string) {
	p.t.Helper()
	p.waitFor("the console to run "+strconv.Quote(what), runTimeout, `(() => {
		const e = document.querySelector("#console-output .console-entry:last-child");
		return e !== null && e !== window.__e2eLastEntry &&
			e.querySelector(".console-note, .console-out, .console-error") !== null;
	})()`)
	p.waitSettled()
}

// settled is a JavaScript expression that is true when the page is idle
// and #step-count shows the step of the view the page last fetched: what
// the page draws is the engine's latest word.
const settled = `(() => {
	const v = window.__rlab?.view();
	const d = document.getElementById("step-count")?.dataset;
	return v != null && d !== undefined && Number(d.step) === v.step && Number(d.recorded) === v.recordedSteps &&
		document.body.dataset.state === "ready";
})()`

// waitSettled waits until the page is idle and shows its latest view.
//
// #step-count alone does not say the rest is drawn: the page moves it at
// each chunk of a long run, and draws the rest from its latest view in an
// animation frame. So once it matches, waitSettled also waits two frames:
// the page's draw, asked for earlier, runs before the first of them ends.
func (p *page) waitSettled() {
	p.t.Helper()
	p.waitFor("the page to draw its latest view", runTimeout, settled)
	eval[any](p, `new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(null))))`)
	p.waitFor("the page to draw its latest view", runTimeout, settled)
}

// closeDialog closes the dialog with id by how (a key, a click) and waits
// until the page has handled its close event. That event comes a task after
// the dialog closed, and Chromium may run the test's next commands first: a
// test that moved the focus straight after a close raced the page's own
// handler, which moves the focus too (CI once saw the help's handler give
// the ? button the focus after the test had taken it away). The listener
// added here runs after the page's, which was added when the page started.
func (p *page) closeDialog(id string, how func()) {
	p.t.Helper()
	eval[any](p, `(() => {
		window.__e2eClosed = false;
		document.getElementById(`+js(id)+`).addEventListener("close", () => { window.__e2eClosed = true; }, {once: true});
		return null;
	})()`)
	how()
	p.waitFor("#"+id+" to close and the page to handle it", quick, `window.__e2eClosed === true`)
}

// press sends keys (characters or kb constants) to whatever has the focus.
func (p *page) press(keys string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, quick)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(keys)); err != nil {
		p.t.Fatalf("pressing %q: %v", keys, err)
	}
}

// engineCall runs __rlab.engine.call(op, args) in the page and returns its
// result as JSON; args is JSON ("" for none).
func (p *page) engineCall(timeout time.Duration, op, args string) (json.RawMessage, error) {
	if args == "" {
		args = "undefined"
	}
	raw, err := evalErr[[]byte](p, timeout,
		fmt.Sprintf(`window.__rlab.engine.call(%s, %s).then((r) => r ?? null)`, js(op), args))
	return raw, err
}

// waitEngine waits until the engine holds the world the page shows. The
// page becomes interactive before its engine is up, drawing a first world
// computed ahead (carried in site/index.html), and catches the engine up with the
// same requests before any action of the learner's runs; a test that calls
// the engine itself must wait for that, or its requests would land in the
// middle of the catch-up. Reading the engine's view, which changes nothing,
// until its step is the page's, is that wait.
func (p *page) waitEngine() {
	p.t.Helper()
	_, err := evalErr[int](p, loadTimeout, `(async () => {
		const e = window.__rlab.engine;
		const none = {agenda: -1, steps: -1, pods: -1, entries: -1};
		for (;;) {
			try {
				const v = await e.call("view", none);
				if (v.step === window.__rlab.view().step) {
					return v.step;
				}
			} catch (err) {
				// Nothing loaded yet.
			}
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
	})()`)
	if err != nil {
		p.t.Fatalf("waiting for the engine to catch up with the page: %v", err)
	}
}

// --- Screenshots -------------------------------------------------------------

var (
	shotsMu sync.Mutex
	// shotCounts numbers each test's screenshots across its tabs; a test's
	// directory is emptied at its first screenshot, so that what is there
	// is from the last run.
	shotCounts = map[string]int{}
)

// shot saves a PNG of the whole page as <out>/<TestName>/<NN>-<stage>.png,
// where out is $RLAB_E2E_OUT or tmp/e2e under the module root, and logs its
// path. A screenshot that fails is logged, not failed on: it is a record,
// not a check.
func (p *page) shot(stage string) {
	p.t.Helper()
	p.saveShot(stage, chromedp.FullScreenshot(100))
}

// viewShot saves a PNG of what the screen shows now, scrolled as it is, as
// shot does for the whole page: a full-page picture cannot show what stays on
// screen while the page scrolls.
func (p *page) viewShot(stage string) {
	p.t.Helper()
	p.saveShot(stage, chromedp.CaptureScreenshot())
}

func (p *page) saveShot(stage string, capture chromedp.Action[[]byte]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, quick)
	defer cancel()
	buf, err := chromedp.Run(ctx, capture)
	if err != nil {
		p.t.Logf("screenshot %s: %v", stage, err)
		return
	}
	name := strings.NewReplacer("/", "_", " ", "_").Replace(p.t.Name())
	dir := os.Getenv("RLAB_E2E_OUT")
	if dir == "" {
		dir = filepath.Join(p.s.root, "tmp", "e2e")
	}
	dir = filepath.Join(dir, name)

	shotsMu.Lock()
	n, seen := shotCounts[name]
	if !seen {
		os.RemoveAll(dir)
	}
	n++
	shotCounts[name] = n
	shotsMu.Unlock()

	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Logf("screenshot %s: %v", stage, err)
		return
	}
	path := filepath.Join(dir, fmt.Sprintf("%02d-%s.png", n, stage))
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		p.t.Logf("screenshot %s: %v", stage, err)
		return
	}
	p.t.Logf("screenshot: %s", path)
}

// disableCache turns the HTTP cache off for the tab, so that a load
// measures the whole download.
func (p *page) disableCache() {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, quick)
	defer cancel()
	if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		p.t.Fatalf("disabling the HTTP cache: %v", err)
	}
}

// header returns a response header by name, whatever its case.
func header(resp *network.Response, name string) (string, bool) {
	for k, v := range resp.Headers {
		if strings.EqualFold(k, name) {
			return fmt.Sprint(v), true
		}
	}
	return "", false
}
