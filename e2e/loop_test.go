//go:build !js

package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file read the picture of the loop (ui-loop.js) from the
// SVG's DOM, step by step: the lit places, the edge the step's token took,
// the queue's keys, and what a dropped watch event looks like.

// loopState is what the picture shows after a step, read from its DOM, with
// the step's actor and function from the page's view, to find steps by.
type loopState struct {
	Step   int    `json:"step"`
	Actor  string `json:"actor"`
	Models string `json:"models"`
	Trace  string `json:"trace"`
	Lit    string `json:"lit"`
	Edge   string `json:"edge"`
	Fault  string `json:"fault"`
	// Main is the place marked "now"; Queue the keys the ReplicaSet
	// controller's workqueue shows; Token the token's text, "" when none
	// is drawn.
	Main    string `json:"main"`
	Queue   string `json:"queue"`
	Token   string `json:"token"`
	Caption string `json:"caption"`
	// ViewQueue is what the engine's view says the queue holds (waiting,
	// processing and delayed keys), to hold the picture to.
	ViewQueue []string `json:"viewQueue"`
}

func (p *page) loopState() loopState {
	p.t.Helper()
	return eval[loopState](p, `(() => {
		const svg = document.querySelector("#loop-figure svg");
		const view = window.__rlab.view();
		const steps = view.lastSteps || [];
		const last = steps[steps.length - 1] || {};
		const rs = (view.controllers || []).find((c) => c.kind === "rs") || {queue: {}};
		const q = rs.queue || {};
		const token = document.querySelector("#loop-figure .loop-token");
		return {
			step: Number(svg.dataset.step), actor: last.actor || "", models: last.models || "", trace: last.trace || "",
			lit: svg.dataset.lit, edge: svg.dataset.edge, fault: svg.dataset.fault,
			main: svg.querySelector(".loop-place.main")?.dataset.place || "",
			queue: svg.querySelector('[data-place="rs/queue"]').dataset.keys || "",
			token: token.classList.contains("hidden") ? "" : token.textContent,
			caption: document.getElementById("loop-caption").textContent,
			viewQueue: [...new Set([...(q.waiting || []), ...(q.processing || []).map((p) => p.key), ...(q.delayed || []).map((d) => d.key)])],
		};
	})()`)
}

// stepLoop steps once and returns the picture after it; the picture must
// show the step the counter shows.
func (p *page) stepLoop() loopState {
	p.t.Helper()
	n := p.stepForward()
	p.waitLoop(n)
	return p.loopState()
}

// waitLoop waits until the picture shows step n, its token at rest.
func (p *page) waitLoop(n int) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf("the loop to show step %d at rest", n), quick,
		fmt.Sprintf(`(() => { const svg = document.querySelector("#loop-figure svg"); return svg?.dataset.step === %q && !svg.dataset.flying; })()`, fmt.Sprint(n)))
}

// stepLoopUntil steps until a step of actor (a prefix) modelling models,
// at most max steps, checking on the way that the queue drawn is the
// engine's; it returns that step's picture.
func (p *page) stepLoopUntil(actor, models string, max int) loopState {
	p.t.Helper()
	for range max {
		s := p.stepLoop()
		assert.Equal(p.t, strings.Join(s.ViewQueue, " "), s.Queue, "the workqueue drawn after %s", s.Trace)
		if strings.HasPrefix(s.Actor, actor) && s.Models == models {
			return s
		}
	}
	p.t.Fatalf("no step of %s modelling %s within %d steps", actor, models, max)
	return loopState{}
}

// TestTheLoopDrawsAKilledPodsWay kills a pod and follows it around the
// picture, step by step: kubectl → API server → the pod informer's reflector
// (watchHandler) → DeltaFIFO, indexer and handlers (processDeltas) → the
// ReplicaSet's workqueue (the enqueue) → a worker → the API server (the
// create). The queue lists default/web from the enqueue, and not once the
// last sync is Done; Back draws the earlier picture exactly.
func TestTheLoopDrawsAKilledPodsWay(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	require.True(t, p.exists("#loop-figure svg"), "the loop is drawn")
	rest := p.loopState()
	assert.Empty(t, rest.Queue, "a world at rest has nothing queued")
	p.shot("at-rest")

	// kubectl's command runs until its answer is back: the picture shows
	// the answer's way, and one step back the delete reaching the API
	// server.
	p.command("kill pods -l app=web --pick=oldest")
	answer := p.loopState()
	assert.Equal(t, "kubectl", answer.Actor)
	assert.Equal(t, "apiserver>kubectl", answer.Edge)
	p.waitLoop(p.stepBack())
	del := p.loopState()
	assert.Equal(t, "apiserver", del.Actor)
	assert.Equal(t, "registry.Delete", del.Models)
	assert.Equal(t, "apiserver", del.Lit)
	assert.Equal(t, "apiserver", del.Main)
	assert.Equal(t, "kubectl>apiserver", del.Edge)
	assert.Equal(t, "delete pods", del.Token)

	watch := p.stepLoopUntil("informer/pods", "watchHandler", 20)
	assert.Equal(t, "informer/pods/reflector", watch.Lit)
	assert.Equal(t, "apiserver>informer/pods/reflector", watch.Edge)
	assert.Regexp(t, `^MODIFIED pod/web-`, watch.Token)

	pop := p.stepLoopUntil("informer/pods", "processDeltas", 20)
	assert.Equal(t, "informer/pods/fifo informer/pods/indexer informer/pods/handlers", pop.Lit)
	assert.Equal(t, "informer/pods/fifo>informer/pods/handlers", pop.Edge)

	// The ReplicaSet's handler hands default/web to its workqueue.
	var enqueue loopState
	for range 10 {
		enqueue = p.stepLoop()
		if enqueue.Actor == "rs-controller" {
			break
		}
	}
	require.Equal(t, "rs-controller", enqueue.Actor, "the ReplicaSet's handler runs after the DeltaFIFO is popped")
	assert.Equal(t, "rs/queue informer/pods/handlers", enqueue.Lit)
	assert.Equal(t, "rs/queue", enqueue.Main)
	assert.Equal(t, "informer/pods/handlers>rs/queue", enqueue.Edge)
	assert.Equal(t, "default/web", enqueue.Token)
	assert.Equal(t, "default/web", enqueue.Queue, "the queue lists the key after the enqueue")
	p.shot("enqueued")

	// Back draws the picture before this step exactly, and forward again
	// the one after it.
	before := p.html("#loop-figure")
	p.waitLoop(p.stepBack())
	earlier := p.html("#loop-figure")
	assert.NotEqual(t, before, earlier, "Back changes the picture")
	p.waitLoop(p.stepForward())
	assert.Equal(t, before, p.html("#loop-figure"), "the same step draws the same picture")
	p.waitLoop(p.stepBack())
	assert.Equal(t, earlier, p.html("#loop-figure"), "Back restores the earlier drawing exactly")
	p.stepLoop()

	took := p.stepLoopUntil("rs-worker-", "slowStartBatch", 20)
	assert.Equal(t, "rs/workers rs/syncHandler", took.Lit)
	assert.Equal(t, "rs/queue>rs/workers", took.Edge)
	assert.Equal(t, "default/web", took.Token)
	assert.Contains(t, took.Queue, "default/web", "the key is held while its sync runs")
	p.shot("mid-sync")

	create := p.stepLoopUntil("apiserver", "registry.Create", 20)
	assert.Equal(t, "apiserver", create.Lit)
	assert.Equal(t, "rs/syncHandler>apiserver", create.Edge)
	assert.Equal(t, "create pods", create.Token)
	assert.Contains(t, create.Caption, "travels from the sync of the ReplicaSet controller to the API server")

	// On to the sync that finds nothing left to do: its Done leaves the
	// queue without the key.
	for range 200 {
		s := p.stepLoop()
		assert.Equal(t, strings.Join(s.ViewQueue, " "), s.Queue, "the workqueue drawn after %s", s.Trace)
		if strings.Contains(s.Trace, "sync of default/web done") && len(s.ViewQueue) == 0 {
			assert.NotContains(t, s.Queue, "default/web", "the queue does not list the key after Done")
			return
		}
	}
	t.Fatalf("the ReplicaSet's syncs did not end with an empty queue within 200 steps")
}

// TestTheLoopDrawsADroppedWatchEvent: a watch event lost on its way is drawn
// on the edge from the API server to the pod informer's reflector, as a
// token fallen off it, marked lost.
func TestTheLoopDrawsADroppedWatchEvent(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	p.command("drop watch pods --count=1")
	p.command("kill pods -l app=web --pick=oldest")
	var lost loopState
	for range 20 {
		lost = p.stepLoop()
		if lost.Fault != "" {
			break
		}
	}
	require.Equal(t, "dropped", lost.Fault, "no step dropped a watch event")
	assert.Equal(t, "apiserver>informer/pods/reflector", lost.Edge)
	assert.Regexp(t, `^✕ lost: MODIFIED pod/web-`, lost.Token)
	assert.True(t, p.exists(`#loop-figure .loop-edge.travelled.fault[data-edge="apiserver>informer/pods/reflector"]`),
		"the edge it fell from is marked")
	assert.Contains(t, lost.Caption, "is lost on the way")
	p.shot("dropped-watch-event")
}

// TestTheLoopExplainsItsParts: a part of the picture, chosen with the
// keyboard alone, says what it is (its glossary entry and upstream name) and
// what it holds, and leads to its table and to the glossary.
func TestTheLoopExplainsItsParts(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	eval[any](p, `document.querySelector('#loop-figure [data-place="apiserver"]').focus(), null`)
	assert.Equal(t, "apiserver", eval[string](p, `document.activeElement.dataset.place`))
	assert.Equal(t, 1, eval[int](p, `document.querySelectorAll('#loop-figure .loop-place[tabindex="0"]').length`), "the picture is one Tab stop")
	// ↓ moves through the places in order, to the pod informer's DeltaFIFO.
	for range 20 {
		if eval[string](p, `document.activeElement.dataset.place`) == "informer/pods/fifo" {
			break
		}
		p.press(kb.ArrowDown)
	}
	require.Equal(t, "informer/pods/fifo", eval[string](p, `document.activeElement.dataset.place`))
	assert.Equal(t, "DeltaFIFO 0 waiting, part of informer/pods", eval[string](p, `document.activeElement.getAttribute("aria-label")`),
		"the name starts with what the box shows")
	p.press(kb.Enter)
	p.waitFor("the part's card", quick, `!document.getElementById("loop-detail").hidden`)
	card := p.text("#loop-detail")
	assert.Contains(t, card, "DeltaFIFO of informer/pods")
	assert.Contains(t, card, "cache.DeltaFIFO", "the card names the upstream type")
	assert.Contains(t, card, "The informer's inbox", "the card gives the glossary's explanation")
	assert.Contains(t, card, "Now: 0 waiting")
	p.shot("part-explained")
	p.click(`#loop-detail [data-loop-action="glossary"]`)
	p.waitFor("the glossary at DeltaFIFO", quick, `document.getElementById("glossary").open && document.activeElement.closest(".gloss-entry")?.textContent.includes("DeltaFIFO")`)
}

// TestTheLoopCardOfAnEmptyPartSaysNoNull: the card of a part that holds
// nothing (the scheduler) shows its explanation and its buttons, and no
// "null": the card's parts it does not have are left out, where
// replaceChildren once wrote them as the text "null".
func TestTheLoopCardOfAnEmptyPartSaysNoNull(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	p.click(`#loop-figure [data-place="scheduler"]`)
	p.waitFor("the scheduler's card", quick, `!document.getElementById("loop-detail").hidden`)
	card := p.text("#loop-detail")
	assert.Contains(t, card, "scheduler", "the card names the part")
	assert.NotContains(t, card, "Now:", "the scheduler holds nothing to list")
	assert.NotContains(t, card, "null", "a part the card does not have is left out, not written as null")
	assert.Equal(t, 0, eval[int](p, `[...document.getElementById("loop-detail").childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).length`),
		"the card's children are its elements only")
}

// TestTheLoopIsOneTapAwayOnAPhone: on a phone the picture is folded away
// behind one button under its heading, which says whether it is open; one
// tap shows it, with the step lit, and another folds it again.
func TestTheLoopIsOneTapAwayOnAPhone(t *testing.T) {
	p := openPhonePage(t)
	p.stabilize()
	p.command("kill pods -l app=web --pick=oldest")
	require.Equal(t, 390.0, eval[float64](p, `window.innerWidth`))
	assert.Equal(t, "false", eval[string](p, `document.getElementById("loop-toggle").getAttribute("aria-expanded")`))
	assert.Zero(t, p.rect("#loop-figure").Height, "the picture is folded away on a phone")

	p.tap("#loop-toggle")
	p.waitFor("the loop to open", quick, `document.getElementById("loop-toggle").getAttribute("aria-expanded") === "true"`)
	assert.Greater(t, p.rect("#loop-figure svg").Height, 100.0, "one tap shows the picture")
	assert.Equal(t, "Hide the loop", p.text("#loop-toggle"))
	assert.Equal(t, "apiserver>kubectl", eval[string](p, `document.querySelector("#loop-figure svg").dataset.edge`), "the picture shows the step")
	eval[any](p, `document.getElementById("loop-panel").scrollIntoView({block: "start"}), null`)
	p.viewShot("phone-loop-open")

	p.tap("#loop-toggle")
	p.waitFor("the loop to fold", quick, `document.getElementById("loop-toggle").getAttribute("aria-expanded") === "false"`)
	assert.Zero(t, p.rect("#loop-figure").Height)
}

// TestTheLoopHighlightsWithoutMotion: a reader who asked for less motion
// sees each step's token where it rests and its edge highlighted, with no
// flight; with motion, the same step's token flies.
func TestTheLoopHighlightsWithoutMotion(t *testing.T) {
	flies := func(p *page) bool {
		eval[any](p, `(() => {
			window.__e2eFlew = false;
			const svg = document.querySelector("#loop-figure svg");
			new MutationObserver(() => { if (svg.dataset.flying) window.__e2eFlew = true; }).observe(svg, {attributes: true});
			return null;
		})()`)
		n := p.stepForward()
		p.waitLoop(n)
		return eval[bool](p, `window.__e2eFlew`)
	}
	p := openPage(t, "")
	assert.True(t, flies(p), "with motion, the step's token flies")

	calm := newTab(t)
	emulate(calm, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
	})
	calm.navigate(calm.s.server.URL + "/")
	calm.waitReady()
	calm.waitSettled()
	assert.False(t, flies(calm), "with less motion asked for, no token flies")
	assert.True(t, calm.exists("#loop-figure .loop-edge.travelled"), "the step's edge is highlighted instead")
	assert.True(t, calm.exists("#loop-figure .loop-place.lit.main"), "and the part it happens in")
	assert.False(t, calm.exists("#loop-figure .loop-token.hidden"), "the token rests on its edge")
}
