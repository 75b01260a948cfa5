//go:build !js

package e2e

import (
	"net/http/httptest"
	"net/url"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/internal/siteserver"
)

// TestShareLinkIsValidatedNotTrusted proves a share link is untrusted input:
// a link that is wrong says what is wrong and the page falls back to the
// default sandbox, a command in a link only ever reaches the console's parser
// (markup in it is shown as text), and a link made by another engine version
// says so and is replayed anyway.
func TestShareLinkIsValidatedNotTrusted(t *testing.T) {
	t.Run("a bad seed is named and the sandbox loads", func(t *testing.T) {
		p := openPage(t, "#v=e2e&w=sandbox&seed=12x&at=0&end=0")
		p.shot("bad-seed")
		assert.Contains(t, p.text("#error"), `seed "12x" is not a whole number`)
		assert.True(t, p.exists(`#world .owner[data-owner="rs/web"]`), "the default sandbox is shown instead")
	})

	t.Run("an unknown part is named with the valid ones", func(t *testing.T) {
		p := openPage(t, "#v=e2e&w=sandbox&seed=1&at=0&end=0&x=1")
		assert.Contains(t, p.text("#error"), `unknown part "x" (valid: v, w, seed, at, end, i, p, l)`)
	})

	t.Run("markup in a command is text", func(t *testing.T) {
		// A command that is not one: the console's parser refuses it, and the
		// page shows the refusal; nothing in it becomes an element.
		hash := "#" + url.Values{"v": {"e2e"}, "w": {"sandbox"}, "seed": {"1"}, "at": {"0"}, "end": {"0"},
			"i": {`0:<img src=x onerror="window.__pwned=1">`}}.Encode()
		p := newTab(t)
		p.navigate(p.s.server.URL + "/" + hash)
		p.waitReady()
		p.shot("markup")
		assert.False(t, eval[bool](p, `window.__pwned === 1`), "the link ran script")
		assert.Zero(t, p.count(`img[src="x"]`), "the link's text became an element")
	})

	t.Run("another engine version is said and replayed", func(t *testing.T) {
		p := openPage(t, "")
		p.command("scale rs/web --replicas=4")
		p.untilSync()
		link := p.shareLink()
		u, err := url.Parse(link)
		require.NoError(t, err)
		frag, err := url.ParseQuery(u.Fragment)
		require.NoError(t, err)
		require.Equal(t, "e2e", frag.Get("v"), "the link names the engine that made it")
		want := p.state()

		frag.Set("v", "v0.0.1-older")
		q := newTab(t)
		q.navigate(p.s.server.URL + "/#" + frag.Encode())
		q.waitReady()
		q.waitFor("the link's step", runTimeout, `document.getElementById("step-count")?.textContent === `+js(want.StepCount))
		q.shot("older-version")
		assert.Contains(t, q.text("#notice"), "made with engine v0.0.1-older, this is e2e; replaying anyway")
		assert.Equal(t, want.World, q.state().World, "the world is replayed all the same")
	})
}

// TestPageWorksOffline proves the service worker: after one visit, the page
// loads and runs with its server gone. The test serves the site from a server
// of its own, so that it can stop it.
func TestPageWorksOffline(t *testing.T) {
	p := newTab(t)
	srv := httptest.NewServer(siteserver.Handler(os.DirFS(p.s.dir)))
	defer srv.Close()
	p.navigate(srv.URL + "/")
	p.waitReady()
	p.waitFor("the service worker to cache the page", runTimeout,
		`navigator.serviceWorker.ready.then(() => caches.open("rlab-site-v1")).then((c) => c.match("main.wasm")).then((r) => r !== undefined)`)

	srv.Close()
	p.navigate(srv.URL + "/")
	p.waitReady()
	p.shot("offline")
	assert.True(t, p.exists(`#world .owner[data-owner="rs/web"]`), "the page works offline")
	p.waitSettled()
	before, _ := p.stepCount()
	after := p.stepForward()
	assert.Equal(t, before+1, after, "the engine steps offline")
}

// TestSandboxStartsFromAChosenWorld proves the sandbox's starting worlds:
// choosing "two orphans, then rs/web" draws the two bare pods as orphans,
// marked as about to be adopted, and the next sync of rs/web adopts them,
// which the world then shows.
func TestSandboxStartsFromAChosenWorld(t *testing.T) {
	p := openPage(t, "")
	eval[any](p, `(() => {
		const s = document.getElementById("world-select");
		s.value = "sandbox:adopt";
		s.dispatchEvent(new Event("change"));
		return null;
	})()`)
	p.waitFor("the orphans to be drawn", runTimeout,
		`document.querySelectorAll('#orphans button.pod[data-pod^="stray-"]').length === 2 && document.body.dataset.state === "ready"`)
	p.waitSettled()
	p.shot("orphans")
	assert.Equal(t, 2, p.count(`#orphans button.pod.adoptable[data-pod^="stray-"]`),
		"the strays match rs/web's selector, so they should be marked as about to be adopted")

	p.untilSync()
	p.waitSettled()
	p.shot("adopted")
	assert.Zero(t, p.count(`#orphans button.pod`), "rs/web adopted the orphans")
	assert.Zero(t, p.count(`#world button.pod.adoptable`), "adopted pods are no longer marked as about to be adopted")
	assert.Equal(t, 2, p.count(`#world .owner[data-owner="rs/web"] button.pod[data-pod^="stray-"]`),
		"the strays are drawn under rs/web")
	assert.Contains(t, p.text("#console-output"), "create pod stray-1", "the start's commands are echoed, so the learner learns them")
}
