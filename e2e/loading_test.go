//go:build !js

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/internal/siteserver"
	"github.com/reconcilelab/rlab/internal/wasmbuild"
)

// The tests of this file load the page as a learner on a slow connection
// does: interactive long before main.wasm has arrived. They pin what the
// page says meanwhile, and that nothing the learner asks for is lost.

// slowLoadTimeout bounds a page load up to "ready" at slow4G: main.wasm
// alone is about 8 s of download there.
const slowLoadTimeout = 90 * time.Second

// openSlowPage opens the page in a new tab on slow4G and waits until it is
// interactive, which it is before the engine is up.
func openSlowPage(t *testing.T) *page {
	t.Helper()
	p := newTab(t)
	p.throttleNetwork(slow4G)
	p.navigate(p.s.server.URL + "/")
	p.waitFor("the page to be interactive", slowLoadTimeout, `window.__rlabReadyAt !== undefined`)
	return p
}

// engineStarted is true once main.wasm runs in the engine's worker: the page
// marks it on the performance timeline (rlab:engine-ready).
const engineStarted = `performance.getEntriesByName("rlab:engine-ready").length > 0`

// watchEarlyReady makes the page remember whether #status ever said
// "ready" while the engine was not running yet.
func (p *page) watchEarlyReady() {
	p.t.Helper()
	eval[any](p, `(() => {
		window.__e2eEarlyReady = [];
		const check = () => {
			const s = document.getElementById("status").textContent;
			if (s === "ready" && !(`+engineStarted+`)) {
				window.__e2eEarlyReady.push(performance.now());
			}
		};
		check();
		new MutationObserver(check).observe(document.getElementById("status"), {childList: true, characterData: true, subtree: true});
		return null;
	})()`)
}

var progressRE = regexp.MustCompile(`^(\d+\.\d) of (\d+\.\d) MB \((\d+\.\d) MB compressed\)`)

// TestReadyOnlyOnceTheEngineIs: on a slow connection the page is interactive
// while main.wasm still downloads, and says so: #status is not "ready" until
// the engine runs, and the download shows as bytes of main.wasm's size (and
// of its compressed size, what crosses the network).
func TestReadyOnlyOnceTheEngineIs(t *testing.T) {
	p := openSlowPage(t)
	p.watchEarlyReady()
	require.False(t, eval[bool](p, engineStarted), "at 1.6 Mbit/s the engine cannot be up yet; the test needs it downloading")

	status := p.text("#status")
	assert.NotEqual(t, "ready", status, "the page says ready while main.wasm downloads")
	assert.Contains(t, status, "simulator", "#status says what the page waits for")
	assert.Equal(t, "loading", eval[string](p, `document.body.dataset.state`))

	p.waitFor("the download's progress", slowLoadTimeout,
		`/^\d+\.\d of \d+\.\d MB/.test(document.getElementById("engine-load-text").textContent) &&
		document.getElementById("engine-progress").value > 0`)
	p.shot("downloading")
	// One read of all of it: the download goes on meanwhile.
	type progress struct {
		Text      string  `json:"text"`
		ValueText string  `json:"valueText"`
		Max       float64 `json:"max"`
		Hidden    bool    `json:"hidden"`
	}
	got := eval[progress](p, `(() => {
		const bar = document.getElementById("engine-progress");
		return {text: document.getElementById("engine-load-text").textContent, valueText: bar.getAttribute("aria-valuetext"),
			max: bar.max, hidden: document.getElementById("engine-load").hidden};
	})()`)
	text := got.Text
	m := progressRE.FindStringSubmatch(text)
	require.NotNil(t, m, "the progress says %q, not \"N of M MB (C MB compressed)\"", text)
	raw, err := os.Stat(filepath.Join(p.s.dir, "main.wasm"))
	require.NoError(t, err)
	br, err := os.Stat(filepath.Join(p.s.dir, "main.wasm.br"))
	require.NoError(t, err)
	mb := func(n int64) string { return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) }
	assert.Equal(t, mb(raw.Size()), m[2], "the total is main.wasm's size, as the bytes counted are its own")
	assert.Equal(t, mb(br.Size()), m[3], "the compressed size is main.wasm.br's, what is served")
	loaded, _ := strconv.ParseFloat(m[1], 64)
	total, _ := strconv.ParseFloat(m[2], 64)
	assert.Less(t, loaded, total, "the download is not over at 1.6 Mbit/s")
	assert.Equal(t, float64(raw.Size()), got.Max, "the progress bar counts to main.wasm's size")
	assert.Equal(t, text, got.ValueText, "a screen reader hears the same progress")
	assert.False(t, got.Hidden)

	assert.Zero(t, eval[int](p, `navigator.serviceWorker.getRegistrations().then((r) => r.length)`),
		"the service worker is registered while main.wasm downloads: its install downloads main.wasm too, which halves the bandwidth of the learner's own download")

	p.waitFor("the page to be ready", slowLoadTimeout,
		`document.getElementById("status").textContent === "ready"`)
	p.shot("ready")
	assert.True(t, eval[bool](p, engineStarted))
	p.waitFor("the service worker to be registered once the engine runs", runTimeout,
		`navigator.serviceWorker.getRegistrations().then((r) => r.length > 0)`)
	assert.Empty(t, eval[[]float64](p, `window.__e2eEarlyReady`), "#status said ready before the engine ran (ms after navigation)")
	assert.True(t, eval[bool](p, `document.getElementById("engine-load").hidden`), "the progress is gone once the engine runs")
	assert.Equal(t, "ready", eval[string](p, `document.body.dataset.state`))
}

// TestTheDownloadShowsBeforeThePageArrives: the page's first script
// (rlab-start.js) starts main.wasm's download and draws its progress by
// itself, so that on a slow network the learner sees it long before the
// page's own script (rlab.js) has arrived. Here the browser holds rlab.js
// back until the progress is on the screen, and only then lets it through;
// the page then takes the download over, and the engine starts from it.
func TestTheDownloadShowsBeforeThePageArrives(t *testing.T) {
	p := newTab(t)
	release := p.holdThePageScript()
	p.waitFor("the download's progress, drawn by the first script", slowLoadTimeout,
		`/^\d+\.\d of \d+\.\d MB/.test(document.getElementById("engine-load-text")?.textContent ?? "")`)
	p.shot("progress-before-the-page")
	text := p.text("#engine-load-text")
	assert.Regexp(t, progressRE, text, "the first script draws the download as bytes of main.wasm's size")
	assert.Equal(t, text, eval[string](p, `document.getElementById("engine-progress").getAttribute("aria-valuetext")`),
		"a screen reader hears the same progress")
	assert.False(t, eval[bool](p, `window.__rlabReadyAt !== undefined`), "the page ran without its own script")
	assert.True(t, eval[bool](p, `"__rlabProgressAt" in window`), "the first drawing is marked for the benchmarks")
	// The bytes are counted as they arrive, not as the compiler (which
	// waits for the page) reads them.
	p.waitFor("the count to go on before the page runs", slowLoadTimeout,
		`(() => { const m = /^(\d+\.\d) of/.exec(document.getElementById("engine-load-text").textContent); return m && Number(m[1]) > 0; })()`)
	assert.False(t, eval[bool](p, `window.__rlabReadyAt !== undefined`), "the page ran without its own script")

	release()
	p.waitFor("the page to be interactive", slowLoadTimeout, `window.__rlabReadyAt !== undefined`)
	// The page draws the download on: #status says its quarters, which
	// only the page writes.
	p.waitFor("the page to say the download in #status", slowLoadTimeout,
		`/simulator/.test(document.getElementById("status").textContent)`)
	p.waitFor("the page to be ready", slowLoadTimeout, `document.getElementById("status").textContent === "ready"`)
	assert.Equal(t, 1, eval[int](p, `performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/main.wasm")).length`),
		"main.wasm is downloaded once: the page took the first script's download over")
	assert.True(t, eval[bool](p, `document.getElementById("engine-load").hidden`), "the progress is gone once the engine runs")
}

// TestTheChinesePageShowsBeforeThePageArrives: a page in another language
// stays hidden until its words are there, so that no English flashes; the
// first script has the words, and translates index.html's text itself, so
// that the learner sees the page, in Chinese, with the download's progress,
// long before the page's own script (held back here) has arrived.
func TestTheChinesePageShowsBeforeThePageArrives(t *testing.T) {
	p := newTab(t)
	p.keepChinese()
	release := p.holdThePageScript()
	p.waitFor("the page to show itself, with the download's progress", slowLoadTimeout,
		`!document.documentElement.classList.contains("i18n-loading") &&
		/^\d+\.\d \/ \d+\.\d MB/.test(document.getElementById("engine-load-text")?.textContent ?? "")`)
	p.shot("chinese-before-the-page")
	assert.False(t, eval[bool](p, `window.__rlabReadyAt !== undefined`), "the page ran without its own script")
	assert.Equal(t, "单步 ▶", p.text("#step-forward"), "index.html's text is in the page's language when it shows")
	assert.Equal(t, "加载中…", p.text("#status"))
	assert.Equal(t, "zh-CN", p.value("#language-select"), "the select says the language shown")
	assert.Regexp(t, `^\d+\.\d / \d+\.\d MB（压缩后 \d+\.\d MB）$`, p.text("#engine-load-text"), "the progress is in the page's language")

	release()
	p.waitFor("the page to be ready in Chinese", slowLoadTimeout, chineseReady)
	assert.True(t, eval[bool](p, `document.getElementById("engine-load").hidden`), "the progress is gone once the engine runs")
}

// holdThePageScript throttles the tab to slow4G, so that main.wasm's
// download is still under way when the test reads it, and starts loading
// the page with its second script (rlab.js) held back by the browser, until
// release lets it through. It does not wait for the load event, which waits
// for that script.
func (p *page) holdThePageScript() (release func()) {
	p.t.Helper()
	p.throttleNetwork(slow4G)
	held := make(chan fetch.RequestID, 4)
	chromedp.Listen(p.ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			held <- e.RequestID
		}
	})
	ctx, cancel := context.WithTimeout(p.ctx, quick)
	defer cancel()
	_, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{
		{URLPattern: "*/" + siteserver.PageScript, RequestStage: fetch.RequestStageRequest},
	}})
	require.NoError(p.t, err, "holding back %s", siteserver.PageScript)
	nav, err := chromedp.Call(ctx, cdppage.Navigate, cdppage.NavigateParams{URL: p.s.server.URL + "/"})
	require.NoError(p.t, err)
	require.Empty(p.t, nav.ErrorText, "navigating")
	var id fetch.RequestID
	select {
	case id = <-held:
	case <-time.After(loadTimeout):
		p.t.Fatalf("the browser never asked for %s", siteserver.PageScript)
	}
	return func() {
		p.t.Helper()
		_, err := chromedp.Call(p.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
		require.NoError(p.t, err, "letting %s through", siteserver.PageScript)
	}
}

// TestTheFirstFrameIsTheWorld: the first frame the learner sees holds the
// world, the sentence and the controls, and the timeline is drawn only after
// it is on the screen (window.__rlabReadyAt, the mark rlab:painted): drawn
// before, it made the first frame's script and layout half as long again.
func TestTheFirstFrameIsTheWorld(t *testing.T) {
	p := newTab(t)
	ctx, cancel := context.WithTimeout(p.ctx, quick)
	defer cancel()
	// Installed before the page's own scripts: it notes when the timeline
	// gets its first entry.
	if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: `
		new MutationObserver((records, observer) => {
			if (document.querySelector("#timeline > *")) {
				window.__e2eTimelineAt = performance.now();
				observer.disconnect();
			}
		}).observe(document, {childList: true, subtree: true});`}); err != nil {
		t.Fatalf("adding the timeline's observer: %v", err)
	}
	p.navigate(p.s.server.URL + "/")
	p.waitReady()
	p.waitFor("the timeline's first entry", runTimeout, `window.__e2eTimelineAt !== undefined`)
	painted := eval[float64](p, `performance.getEntriesByName("rlab:painted")[0].startTime`)
	timeline := eval[float64](p, `window.__e2eTimelineAt`)
	assert.Greater(t, timeline, painted, "the timeline was drawn at %.0f ms, before the first frame was on the screen (%.0f ms)", timeline, painted)
	assert.True(t, p.exists(`#world .owner[data-owner="rs/web"]`), "the first frame's world is there")
}

// TestStepBeforeTheEngineWaitsAndRunsOnce: Step pressed while main.wasm
// still downloads shows that it waits, and runs once, when the engine is up.
func TestStepBeforeTheEngineWaitsAndRunsOnce(t *testing.T) {
	p := openSlowPage(t)
	require.False(t, eval[bool](p, engineStarted), "at 1.6 Mbit/s the engine cannot be up yet; the test needs it downloading")
	before, _ := p.stepCount()

	p.click("#step-forward")
	p.waitFor("Step's pending mark", quick, `document.querySelector("#step-forward.pending .pending-mark") !== null`)
	p.shot("pending")
	assert.Equal(t, "◷", p.text("#step-forward .pending-mark"), "one press waits")
	assert.False(t, eval[bool](p, `document.getElementById("queued").hidden`))
	assert.Equal(t, "◷ 1 action waiting for the simulator", p.text("#queued"))
	assert.Contains(t, p.text("#status"), "what you asked for runs then", "#status, which is read aloud, says it waits")
	step, _ := p.stepCount()
	assert.Equal(t, before, step, "nothing ran yet")

	p.waitFor("the page to be ready", slowLoadTimeout, `document.getElementById("status").textContent === "ready"`)
	p.waitFor(fmt.Sprintf("step %d", before+1), runTimeout, stepIs(before+1))
	p.waitSettled()
	// A second run would come at once, from the same queue; give it time.
	time.Sleep(500 * time.Millisecond)
	p.waitSettled()
	p.shot("ran")
	step, _ = p.stepCount()
	assert.Equal(t, before+1, step, "the press ran exactly once")
	assert.False(t, p.exists("#step-forward.pending"), "the mark is gone once the step ran")
	assert.False(t, p.exists(".pending-mark"))
	assert.True(t, eval[bool](p, `document.getElementById("queued").hidden`))
}

// TestHundredPressesAreHundredSteps: → pressed 100 times, faster than the
// engine steps, steps 100 times; the presses that wait are counted on
// screen meanwhile.
func TestHundredPressesAreHundredSteps(t *testing.T) {
	const presses = 100
	p := openPage(t, "")
	// A world with far more than 100 steps to run, so that no press
	// finds the agenda empty.
	p.command("create rs many --replicas=40 --selector=app=many")
	before, _ := p.stepCount()
	eval[any](p, `(() => {
		window.__e2eQueued = [];
		const q = document.getElementById("queued");
		if (q) {
			new MutationObserver(() => { if (!q.hidden) window.__e2eQueued.push(q.textContent); })
				.observe(q, {childList: true, characterData: true, subtree: true, attributes: true});
		}
		document.activeElement?.blur();
		return null;
	})()`)

	keys := make([]chromedp.Action[chromedp.Void], presses)
	for i := range keys {
		keys[i] = chromedp.KeyEvent(kb.ArrowRight)
	}
	ctx, cancel := context.WithTimeout(p.ctx, runTimeout)
	err := chromedp.Do(ctx, keys...)
	cancel()
	require.NoError(t, err)
	p.shot("pressed")

	p.waitFor(fmt.Sprintf("step %d", before+presses), runTimeout, stepIs(before+presses))
	p.waitSettled()
	time.Sleep(300 * time.Millisecond)
	p.waitSettled()
	p.shot("stepped")
	step, _ := p.stepCount()
	assert.Equal(t, before+presses, step, "every press is a step")
	assert.True(t, eval[bool](p, `document.getElementById("queued").hidden`), "nothing waits at the end")
	seen := eval[[]string](p, `window.__e2eQueued`)
	for _, s := range seen {
		assert.Regexp(t, `^\+\d+ queued$`, s)
	}
	if len(seen) > 0 {
		t.Logf("#queued changed %d times, from %q to %q", len(seen), seen[0], seen[len(seen)-1])
	}
}

// TestThePageWithoutItsLessons: main.wasm does not carry the lessons; the
// worker fetches lessons.json beside it. When that fails, the sandbox still
// works, and the list of lessons says why there are none instead of
// loading for ever.
func TestThePageWithoutItsLessons(t *testing.T) {
	s := getSuite(t)
	site := siteserver.Handler(os.DirFS(s.dir))
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/"+wasmbuild.LessonsFile {
			http.NotFound(w, r)
			return
		}
		site.ServeHTTP(w, r)
	}))
	t.Cleanup(server.Close)

	p := newTab(t)
	p.allowConsoleErrors(`lessons\.json`)
	p.navigate(server.URL + "/")
	p.waitReady()
	p.waitSettled()
	p.command("create rs api --replicas=2 --selector=app=api")
	p.command("stabilize")
	p.command("expect pods -l app=api count=2 ready=true")
	last := eval[string](p, `[...document.querySelectorAll("#console-output .console-entry")].pop().textContent`)
	assert.NotContains(t, last, "✕", "the sandbox runs without lessons: %s", last)

	p.click("#lessons-button")
	p.waitFor("the list to say why it is empty", runTimeout, `document.getElementById("lessons-list").textContent.includes("could not be listed")`)
	list := p.text("#lessons-list")
	assert.Contains(t, list, "the lessons could not be loaded: lessons.json: 404 Not Found", "the reason, from the worker's fetch")
	assert.Contains(t, list, "The sandbox works without them.")
	p.shot("no-lessons")
}
