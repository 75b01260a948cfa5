//go:build !js

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/export"
	"github.com/reconcilelab/rlab/core/lesson"
	"github.com/reconcilelab/rlab/lessons"
)

// TestExportButtonDownloadsTheLessonAsKubectl plays lesson 5 in the page,
// with its do blocks, then presses Export from the keyboard and holds the
// file the page downloads to what core/export (rlab export) writes for the
// lesson's setup and solution: the same script, byte for byte. The script
// is written by export.wasm in a worker of its own, which the page fetches
// on this first press and not before (main.wasm does not carry the
// exporter), saying meanwhile that it prepares the export. The page's
// Blob is read as it is handed to URL.createObjectURL, since headless
// Chromium saves downloads nowhere a test can wait for.
func TestExportButtonDownloadsTheLessonAsKubectl(t *testing.T) {
	p := openPage(t, "")
	p.click("#lessons-button")
	p.click(`#lessons-list li[data-lesson="05-orphans"] button`)
	p.waitFor("lesson 5", runTimeout, `document.querySelector("#lesson-title")?.textContent.includes("Orphans") && document.body.dataset.state === "ready"`)
	p.playLesson("05-orphans")
	p.waitFor("the goal to be met", runTimeout, `document.getElementById("goal-result")?.textContent.includes("Goal met")`)

	assert.Equal(t, "Export", p.text("#export"), "the button is labelled")
	assert.Contains(t, eval[string](p, `document.getElementById("export").title`), "kind, minikube", "it says what it is for")
	eval[any](p, `(() => {
		window.__e2eExport = null;
		const create = URL.createObjectURL;
		URL.createObjectURL = (blob) => { blob.text().then((text) => { window.__e2eExport = {text, type: blob.type}; }); return create(blob); };
		window.__e2eDownload = null;
		document.addEventListener("click", (ev) => { if (ev.target instanceof HTMLAnchorElement && ev.target.download) { window.__e2eDownload = ev.target.download; } }, true);
		return null;
	})()`)
	// No other test presses Export, so export.wasm was never asked for.
	assert.Zero(t, shared.requests("/export.wasm"), "export.wasm is not fetched before Export is pressed")
	assert.Zero(t, shared.requests("/export-worker.js"), "nor is its worker")
	eval[any](p, `document.getElementById("export").focus(), null`)
	pressed := time.Now()
	p.press(kb.Enter)
	assert.Contains(t, p.text("#notice-text"), "Preparing export…", "the page says it is preparing the export while export.wasm loads")
	p.waitFor("the export's download", 60*time.Second, `window.__e2eExport !== null`)
	t.Logf("from the press of Export to the download: %v", time.Since(pressed).Round(time.Millisecond))
	assert.Equal(t, 1, shared.requests("/export.wasm"), "export.wasm is fetched on the first Export")
	assert.Equal(t, 1, shared.requests("/export-worker.js"))
	assert.Empty(t, eval[string](p, `document.getElementById("export").getAttribute("aria-busy") || ""`), "the button is not busy after")
	got := eval[map[string]string](p, `window.__e2eExport`)
	assert.Equal(t, "rlab-export.sh", eval[string](p, `window.__e2eDownload`))
	assert.Equal(t, "text/x-shellscript", got["type"])
	assert.Contains(t, p.text("#notice-text"), "Downloaded rlab-export.sh: run it with bash against a cluster of your own")

	all, err := lessons.All()
	require.NoError(t, err)
	var l *lesson.Lesson
	for _, c := range all {
		if c.ID == "05-orphans" {
			l = c
		}
	}
	require.NotNil(t, l)
	want, err := export.Run(l.Setup.Script.Commands, l.Solution.Script.Commands, "lesson 05-orphans")
	require.NoError(t, err)
	assert.Equal(t, want.Script(), got["text"], "the page's export is rlab export of the lesson's setup and solution")
	assert.True(t, strings.Contains(got["text"], "\ntargets=$(pick pods app=web oldest 1)\n"), "the pick is done on the cluster")
	p.shot("exported")
}

// TestAnExportThatCannotBeWrittenSaysWhy: when the export's worker cannot
// start (here its script is missing), the page says so in its own words
// with the reason, and the button is no longer busy.
func TestAnExportThatCannotBeWrittenSaysWhy(t *testing.T) {
	p := openPage(t, "")
	eval[any](p, `(() => {
		const Real = window.Worker;
		window.Worker = class extends Real {
			constructor(url, options) { super(url === "export-worker.js" ? "no-such-export-worker.js" : url, options); }
		};
		return null;
	})()`)
	eval[any](p, `document.getElementById("export").focus(), null`)
	p.press(kb.Enter)
	p.waitFor("the export's error", 30*time.Second, `!document.getElementById("error").hidden`)
	assert.Contains(t, p.text("#error-text"), "The export could not be written: ")
	assert.NotEmpty(t, eval[string](p, `document.querySelector("#error-text [lang=en]")?.textContent || ""`), "the reason is marked as the engine's English")
	assert.Empty(t, eval[string](p, `document.getElementById("export").getAttribute("aria-busy") || ""`), "the button is not busy after")
	assert.NotContains(t, p.text("#notice-text"), "Preparing export", "the busy notice is gone")
	p.shot("export-failed")
}
