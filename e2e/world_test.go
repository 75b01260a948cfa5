//go:build !js

package e2e

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file prove how the World panel is drawn again at each
// step: only what changed is drawn anew (which keeps a big world cheap to
// play), and what that leaves on the screen is what a drawing made from
// nothing would be.

// worldScript defines, in the page, what the tests of this file read:
//
//   - __e2eWorld.cards() describes the world's pod cards at the present
//     step: each pod's key, the pod as the view has it (with whether the
//     step touched it, which the card also shows), and whether its card is
//     the element mark() last marked for that pod.
//   - __e2eWorld.mark() marks each card with the pod it draws, in a property
//     the page knows nothing of: an element drawn anew has none.
//   - __e2eWorld.compare() returns #world's HTML and the HTML of the same
//     view drawn by UI.renderWorld into a new, detached element, so from
//     nothing, whether #world draws an owner gone from the API, and
//     whether an owner's status trails its pods. Both drawings are read
//     without tabindex: the page gives the glossary terms their Tab stops
//     after drawing (UI.roveTerms, one per part of the page), which is the
//     page's doing, not the drawing's.
const worldScript = `window.__e2eWorld = (() => {
	const present = () => {
		const view = window.__rlab.view();
		const steps = view.lastSteps || [];
		const last = steps[steps.length - 1];
		return {view, touched: RlabUI.touchedSet(last && last.n === view.step ? last : null)};
	};
	const html = (el) => {
		const copy = el.cloneNode(true);
		for (const t of copy.querySelectorAll("[tabindex]")) {
			t.removeAttribute("tabindex");
		}
		return copy.innerHTML;
	};
	return {
		cards() {
			const {view, touched} = present();
			const pods = new Map(view.pods.map((p) => [p.namespace + "/" + p.name, p]));
			return [...document.querySelectorAll("#world button.pod")].map((b) => {
				const key = b.dataset.namespace + "/" + b.dataset.pod;
				const pod = pods.get(key);
				return {
					key,
					pod: JSON.stringify([touched.has(RlabUI.refKey("pod", pod.namespace, pod.name)), pod]),
					kept: b.__e2eMark === key,
				};
			});
		},
		mark() {
			for (const b of document.querySelectorAll("#world button.pod")) {
				b.__e2eMark = b.dataset.namespace + "/" + b.dataset.pod;
			}
			return null;
		},
		compare() {
			const {view, touched} = present();
			const fresh = document.createElement("div");
			RlabUI.renderWorld(fresh, view, touched);
			const live = document.getElementById("world");
			return {live: html(live), fresh: html(fresh), gone: live.querySelector(".owner-gone") !== null, behind: live.querySelector(".behind") !== null};
		},
	};
})(), null`

// worldCard is one pod card, as __e2eWorld.cards() describes it.
type worldCard struct {
	Key  string `json:"key"`
	Pod  string `json:"pod"`
	Kept bool   `json:"kept"`
}

// worldCards describes the world's pod cards, by pod.
func (p *page) worldCards() map[string]worldCard {
	p.t.Helper()
	cards := map[string]worldCard{}
	for _, c := range eval[[]worldCard](p, `__e2eWorld.cards()`) {
		cards[c.Key] = c
	}
	return cards
}

// TestWorldRedrawsOnlyWhatChanged proves a step draws anew only the pod
// cards whose pod changed: across a scale, a kill and a pod set not ready,
// and the steps after each, every card whose pod is as it was (its fields,
// and whether the step touched it) is the very element drawn before, and
// every card whose pod changed is a new one. The killed pod's card is gone
// and the one set not ready is new, and says so.
func TestWorldRedrawsOnlyWhatChanged(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	eval[any](p, worldScript)

	// kept and redrawn count, over the whole test, the cards of pods that
	// stayed and of pods that changed, so that the test cannot pass with
	// nothing of either to look at.
	var kept, redrawn int
	// act does something to the world, and checks each card after it
	// against the pod it drew before.
	act := func(what string, do func()) map[string]worldCard {
		t.Helper()
		before := p.worldCards()
		eval[any](p, `__e2eWorld.mark()`)
		do()
		after := p.worldCards()
		for key, card := range after {
			was, drawn := before[key]
			switch {
			case drawn && was.Pod == card.Pod:
				kept++
				assert.True(t, card.Kept, "after %s, the card of %s, which did not change, was drawn anew", what, key)
			default:
				redrawn++
				assert.False(t, card.Kept, "after %s, the card of %s, which changed, is the element drawn before it changed", what, key)
			}
		}
		return after
	}

	// stepUntil steps, checking the cards at each step, until cond (a
	// JavaScript expression) holds, and returns the cards then.
	stepUntil := func(what, cond string) map[string]worldCard {
		t.Helper()
		var after map[string]worldCard
		for i := 0; !eval[bool](p, cond); i++ {
			require.Less(t, i, 100, "%s did not happen within 100 steps", what)
			after = act("a step", func() { p.stepForward() })
		}
		return after
	}
	const webCards = `document.querySelectorAll('#world .owner[data-owner="rs/web"] button.pod')`

	act("scale rs/web --replicas=5", func() { p.command("scale rs/web --replicas=5") })
	stepUntil("rs/web's five pods", webCards+`.length === 5 && [...`+webCards+`].every((b) => b.dataset.ready === "true")`)

	victim := eval[string](p, webCards+`[0].dataset.pod`)
	after := act("kill", func() { p.command("kill pod/" + victim) })
	// A killed pod leaves the API at once, or is drawn terminating: either
	// way its old card is gone.
	if card, drawn := after["default/"+victim]; drawn {
		assert.False(t, card.Kept, "the killed pod's card is the one drawn before it was killed")
		assert.True(t, p.exists(`#world button.pod.terminating[data-pod="`+victim+`"]`), "%s is drawn, but not terminating", victim)
	}
	stepUntil("rs/web's replacement pod", webCards+`.length === 5`)

	notReady := eval[string](p, webCards+`[1].dataset.pod`)
	flipped := `document.querySelector('#world button.pod[data-pod="` + notReady + `"]').dataset.ready === "false"`
	after = act("set ready false", func() { p.command("set ready pod/" + notReady + " false") })
	if !eval[bool](p, flipped) {
		after = stepUntil(notReady+" not ready", flipped)
	}
	assert.False(t, after["default/"+notReady].Kept, "the card of %s, set not ready, is the one drawn when it was ready", notReady)

	t.Logf("%d cards kept, %d drawn anew", kept, redrawn)
	assert.Greater(t, kept, 20, "too few cards stayed the same for the test to say anything")
	assert.Greater(t, redrawn, 5, "too few cards changed for the test to say anything")
}

// TestWorldUpdatedDrawsWhatAFullDrawingDraws proves the World panel, drawn
// step by step, is at every step exactly what a drawing of the same view
// made from nothing is, byte for byte: across a scale, a kill, a relabel (the
// pod moves to the orphans), a pod set not ready, an owner deleted and
// created again (its old pods drawn under a gone owner), a ReplicaSet in
// another namespace, a cordoned node, steps between them, and steps back.
func TestWorldUpdatedDrawsWhatAFullDrawingDraws(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	eval[any](p, worldScript)
	type drawings struct {
		Live   string `json:"live"`
		Fresh  string `json:"fresh"`
		Gone   bool   `json:"gone"`
		Behind bool   `json:"behind"`
	}
	checks, gone, behind := 0, 0, 0
	check := func(when string) {
		t.Helper()
		d := eval[drawings](p, `__e2eWorld.compare()`)
		require.NotEmpty(t, d.Fresh)
		require.Equal(t, d.Fresh, d.Live, "after %s, the world drawn step by step is not what a drawing from nothing is", when)
		checks++
		if d.Gone {
			gone++
		}
		if d.Behind {
			behind++
		}
	}
	steps := func(what string, n int) {
		t.Helper()
		for range n {
			p.stepForward()
			check("a step after " + what)
		}
	}

	check("stabilize")
	for _, c := range []struct {
		line  string
		steps int
	}{
		{"scale rs/web --replicas=5", 6},
		{"kill pods -l app=web --count=2", 6},
		{"label pods -l app=web --count=1 app=orphan --overwrite", 10},
		{"set ready pods -l app=web --count=1 false", 3},
		{"cordon node/node-2", 2},
		{"create rs other --replicas=2 --selector=app=other -n team", 6},
		{"delete rs/web", 2},
		{"create rs web --replicas=3 --selector=app=web", 8},
	} {
		p.command(c.line)
		check(c.line)
		steps(c.line, c.steps)
	}
	for range 5 {
		p.stepBack()
		check("a step back")
	}
	p.stabilize()
	check("stabilize")
	t.Logf("%d drawings compared, %d with a gone owner, %d with a status behind its pods", checks, gone, behind)
	assert.Positive(t, gone, "no drawing had an owner gone from the API: the sequence did not test one")
	assert.Positive(t, behind, "no drawing had a status behind its pods: the sequence did not test the note coming and going")
	assert.True(t, p.exists(`#orphans button.pod`), "the relabelled pod is not drawn with the orphans: the sequence did not test a move")
	assert.True(t, p.exists(`#world .owner[data-namespace="team"]`), "the ReplicaSet in namespace team is not drawn")
}

// TestRolloutUpdatedDrawsWhatAFullDrawingDraws proves the same of a world
// with a Deployment beside a ReplicaSet: its card, its ReplicaSets' groups
// inside it (newest revision first) and their pods' images, drawn step by
// step through its creation, a rollout, a scale, an undo and its deletion
// with --cascade=orphan (its ReplicaSets leave the card and become owners of
// their own, with no revision), and steps back, is at every step what a
// drawing of the same view made from nothing is. So are the cards of Deployments with no
// ReplicaSet, which say why they have none: one created paused, then
// resumed, and one being deleted in the foreground.
func TestRolloutUpdatedDrawsWhatAFullDrawingDraws(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	eval[any](p, worldScript)
	checks, cards := 0, 0
	check := func(when string) {
		t.Helper()
		d := eval[struct {
			Live  string `json:"live"`
			Fresh string `json:"fresh"`
		}](p, `__e2eWorld.compare()`)
		require.NotEmpty(t, d.Fresh)
		require.Equal(t, d.Fresh, d.Live, "after %s, the world drawn step by step is not what a drawing from nothing is", when)
		checks++
		if p.exists(`#world .deployment .deploy-rss .owner[data-revision]`) {
			cards++
		}
	}
	// A card with no ReplicaSet says why (note, checked right after the
	// command, before any step): a paused Deployment gets none until it is
	// resumed, and one being deleted gets none at all.
	for _, c := range []struct {
		line         string
		steps        int
		deploy, note string
	}{
		{"create deploy held --replicas=1 --selector=app=held --paused", 4, "held", "no ReplicaSet yet: the Deployment is paused, so its controller creates none until it is resumed"},
		{"rollout resume deploy/held", 0, "held", "no ReplicaSet yet: the Deployment controller's next sync creates one"},
		{"create deploy doomed --replicas=1 --selector=app=doomed --paused", 2, "doomed", "the Deployment is paused"},
		{"delete deploy/doomed --cascade=foreground", 12, "doomed", "no ReplicaSet: the Deployment is being deleted, so its controller only writes its status and creates none"},
		{"create deploy api --replicas=3 --selector=app=api", 40, "", ""},
		{"set image deploy/api app=nginx:2.0", 60, "", ""},
		{"scale deploy/api --replicas=5", 30, "", ""},
		{"rollout undo deploy/api", 40, "", ""},
		{"delete deploy/api --cascade=orphan", 30, "", ""},
	} {
		p.command(c.line)
		check(c.line)
		if c.note != "" {
			assert.Contains(t, p.text(fmt.Sprintf(`#world .deployment[data-deployment="deploy/%s"] > .empty`, c.deploy)), c.note,
				"after %s, deploy/%s's card says why it has no ReplicaSet", c.line, c.deploy)
			p.shot("no-replicaset-" + c.deploy)
		}
		for range c.steps {
			p.stepForward()
			check("a step after " + c.line)
		}
	}
	for range 5 {
		p.stepBack()
		check("a step back")
	}
	p.stabilize()
	check("stabilize")
	t.Logf("%d drawings compared, %d with a Deployment's card", checks, cards)
	assert.Greater(t, cards, 100, "too few drawings had a Deployment's card: the sequence did not test it")
	assert.False(t, p.exists(`#world .deployment[data-deployment="deploy/api"], #world .deployment[data-deployment="deploy/doomed"]`), "the deleted Deployments' cards are gone")
	assert.True(t, p.exists(`#world .deployment[data-deployment="deploy/held"] .owner[data-revision="1"]`), "the resumed Deployment got its ReplicaSet")

	// The orphaned ReplicaSets stay, each an owner of its own at the top of
	// the world: none is drawn inside a card, nor with the revision,
	// pod-template-hash and new-or-old line a Deployment's ReplicaSet has.
	type orphanedRS struct {
		Owner      string `json:"owner"`
		TopLevel   bool   `json:"topLevel"`
		InCard     bool   `json:"inCard"`
		Revision   bool   `json:"revision"`
		RevisionLn bool   `json:"revisionLine"`
		Pods       int    `json:"pods"`
	}
	inView := eval[[]string](p, `(window.__rlab.view().owners || []).filter((o) => o.kind === "rs" && o.name.startsWith("api-")).map((o) => "rs/" + o.name).sort()`)
	require.Len(t, inView, 2, "the Deployment's two ReplicaSets outlive it when it is deleted with --cascade=orphan")
	drawn := eval[[]orphanedRS](p, `[...document.querySelectorAll('#world .owner[data-owner^="rs/api-"]')].map((g) => ({
		owner: g.dataset.owner, topLevel: g.parentElement.id === "world", inCard: g.closest(".deployment") !== null,
		revision: "revision" in g.dataset || "hash" in g.dataset || "new" in g.dataset,
		revisionLine: g.querySelector(".rs-revision") !== null,
		pods: g.querySelectorAll("button.pod").length,
	})).sort((a, b) => a.owner < b.owner ? -1 : 1)`)
	require.Len(t, drawn, len(inView), "each orphaned ReplicaSet is drawn once")
	pods := 0
	for i, g := range drawn {
		assert.Equal(t, inView[i], g.Owner)
		assert.True(t, g.TopLevel, "%s is drawn at the top of the world, an owner of its own", g.Owner)
		assert.False(t, g.InCard, "%s is drawn inside a Deployment's card", g.Owner)
		assert.False(t, g.Revision, "%s is marked with a revision, though no Deployment owns it", g.Owner)
		assert.False(t, g.RevisionLn, "%s has a revision line, though no Deployment owns it", g.Owner)
		pods += g.Pods
	}
	assert.Equal(t, eval[int](p, `(window.__rlab.view().pods || []).filter((pod) => (pod.owner || "").startsWith("rs/api-")).length`), pods,
		"the orphaned ReplicaSets' groups hold their pods")
	assert.Positive(t, pods, "the orphaned ReplicaSets keep the Deployment's pods")
	p.shot("orphaned-replicasets")
}
