//go:build !js

package e2e

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file follow a rolling update in the page, step by step,
// as a new user tries it: create deploy web, stabilize, set image, then
// Step. They read the world's Deployment card (its ReplicaSets by revision,
// its budget, its last scaling and its history), the picture of the loop and
// the panels inside the controller from the DOM after every step.

// rolloutRS is one of the Deployment's ReplicaSets as its card draws it.
type rolloutRS struct {
	Owner    string   `json:"owner"`
	Revision string   `json:"revision"`
	Hash     string   `json:"hash"`
	New      bool     `json:"new"`
	Desired  string   `json:"desired"`
	Pods     int      `json:"pods"`
	Images   []string `json:"images"`
	Label    string   `json:"label"`
}

// rolloutBudget is the card's budget line: its numbers, as data attributes,
// and its text.
type rolloutBudget struct {
	MaxPods      string `json:"maxPods"`
	MinAvailable string `json:"minAvailable"`
	Wanted       string `json:"wanted"`
	Available    string `json:"available"`
	Rolling      string `json:"rolling"`
	Text         string `json:"text"`
}

// rolloutState is what the page shows after one step of a rollout.
type rolloutState struct {
	Step    int    `json:"step"`
	Actor   string `json:"actor"`
	Models  string `json:"models"`
	Summary string `json:"summary"`
	// RSs are the Deployment's ReplicaSet groups, in the order drawn.
	RSs    []rolloutRS   `json:"rss"`
	Budget rolloutBudget `json:"budget"`
	// Scales are the moves of the last sync that scaled, "rs/web-x 1→2",
	// ScaleSeq that sync's number, ScaleText the card's words for it.
	Scales    []string `json:"scales"`
	ScaleSeq  string   `json:"scaleSeq"`
	ScaleText string   `json:"scaleText"`
	// Lit, Edge and Token are the picture of the loop; DeployQueue the keys
	// its Deployment controller's workqueue shows, and ViewQueue those the
	// engine's view says it holds.
	Lit         string   `json:"lit"`
	Edge        string   `json:"edge"`
	Token       string   `json:"token"`
	DeployQueue string   `json:"deployQueue"`
	ViewQueue   []string `json:"viewQueue"`
	// InsideQueue are the keys the Workqueue panel's section for the
	// Deployment controller lists (nil when there is none), Decisions its
	// last syncs in the Workers panel.
	InsideQueue []string `json:"insideQueue"`
	Decisions   string   `json:"decisions"`
}

// readRollout reads a rolloutState from the page.
const readRollout = `(() => {
	const view = window.__rlab.view();
	const steps = view.lastSteps || [];
	const last = steps[steps.length - 1] || {};
	const card = document.querySelector('#world .deployment[data-deployment="deploy/web"]');
	const svg = document.querySelector("#loop-figure svg");
	const token = document.querySelector("#loop-figure .loop-token");
	const budget = card?.querySelector(".deploy-budget");
	const scale = card?.querySelector(".deploy-last-scale");
	const dq = (view.deploymentController || {}).queue || {};
	const inside = document.querySelector('#queue .controller-section[data-controller="deploy"]');
	return {
		step: Number(svg.dataset.step), actor: last.actor || "", models: last.models || "", summary: last.summary || "",
		rss: card ? [...card.querySelectorAll(".owner[data-owner]")].map((g) => ({
			owner: g.dataset.owner, revision: g.dataset.revision || "", hash: g.dataset.hash || "", new: g.dataset.new === "true",
			desired: g.querySelector(".n-desired")?.textContent || "",
			pods: g.querySelectorAll("button.pod").length,
			images: [...new Set([...g.querySelectorAll("button.pod .pod-image")].map((e) => e.textContent))],
			label: g.querySelector(".rs-revision")?.textContent || "",
		})) : [],
		budget: budget ? {maxPods: budget.dataset.maxPods, minAvailable: budget.dataset.minAvailable, wanted: budget.dataset.wanted,
			available: budget.dataset.available, rolling: budget.dataset.rolling, text: budget.textContent} : {},
		scales: scale ? [...scale.querySelectorAll("li[data-rs]")].map((li) => li.dataset.rs + " " + li.dataset.from + "→" + li.dataset.to) : [],
		scaleSeq: scale?.dataset.seq || "",
		scaleText: scale?.textContent || "",
		lit: svg.dataset.lit, edge: svg.dataset.edge,
		token: token.classList.contains("hidden") ? "" : token.textContent,
		deployQueue: svg.querySelector('[data-place="deploy/queue"]')?.dataset.keys ?? "(not drawn)",
		viewQueue: [...new Set([...(dq.waiting || []), ...(dq.processing || []).map((p) => p.key), ...(dq.delayed || []).map((d) => d.key)])],
		insideQueue: inside ? [...inside.querySelectorAll(".waiting [data-queue-key], .processing [data-queue-key], .delayed [data-queue-key]")].map((e) => e.dataset.queueKey) : null,
		decisions: document.querySelector('#workers .controller-section[data-controller="deploy"] .syncs')?.textContent || "",
	};
})()`

// pressRollout presses the button whose id is button (step-forward, or
// until-sync for Next sync), at most max times, until the world is at rest
// or the state read after a press meets stop (a JavaScript expression of s,
// the state; "false" for never), and reads the page after each press once
// it has drawn it. The presses run inside the page, so that a rollout's
// hundreds of steps do not each cost a round trip to the browser.
func (p *page) pressRollout(button string, max int, stop string) []rolloutState {
	p.t.Helper()
	states, err := evalErr[[]rolloutState](p, 3*time.Minute, fmt.Sprintf(`(async () => {
		const read = () => %s;
		const button = document.getElementById(%q);
		const count = document.getElementById("step-count");
		const svg = document.querySelector("#loop-figure svg");
		const idle = () => document.body.dataset.state === "ready";
		const ready = () => idle() && !button.disabled;
		const until = async (what, cond) => {
			const t0 = performance.now();
			while (!cond()) {
				if (performance.now() - t0 > 20000) {
					throw new Error("timed out waiting for " + what);
				}
				await new Promise((resolve) => setTimeout(resolve, 2));
			}
		};
		const out = [];
		for (let i = 0; i < %d; i++) {
			await until("the button to be ready", ready);
			const before = Number(count.dataset.step);
			button.click();
			await until("the press after step " + before + " to be drawn",
				() => idle() && Number(count.dataset.step) > before && svg.dataset.step === count.dataset.step);
			const s = read();
			out.push(s);
			if (window.__rlab.view().atRest || (%s)) {
				break;
			}
		}
		return out;
	})()`, readRollout, button, max, stop))
	require.NoError(p.t, err)
	return states
}

// direction is "up" or "down" for a move "rs/web-x 1→2".
func direction(move string) string {
	_, fromTo, _ := strings.Cut(move, " ")
	from, to, _ := strings.Cut(fromTo, "→")
	f, _ := strconv.Atoi(from)
	n, _ := strconv.Atoi(to)
	if n > f {
		return "up"
	}
	return "down"
}

// TestTheRolloutIsDrawnStepByStep: in an empty sandbox, create deploy web
// with 4 replicas and stabilize: the Deployment's card holds its one
// ReplicaSet, revision 1, with its pods and their image. Then set image
// deploy/web app=nginx:2.0 and step: the text timeline announces the
// Deployment controller's steps; the new ReplicaSet appears above the old,
// labelled revision 2 with its pod-template-hash; the budget (5 pods at
// most, 3 available at least) holds at every step; the last scaling,
// with the controller's reasons, alternates up and down; the loop, which
// drew no Deployment controller until the first Deployment, lights it and
// draws its scale writes reaching the API
// server and, through the ReplicaSet informer, the replication manager; the
// inside view shows its queue and its decisions; and the rollout ends with
// the new ReplicaSet at 4 pods of nginx:2.0, the old at 0, and both
// revisions in the history, reachable by keyboard. The card's words
// (Deployment, revision, pod-template-hash, RollingUpdate, maxSurge,
// maxUnavailable) are glossary terms.
func TestTheRolloutIsDrawnStepByStep(t *testing.T) {
	source := axeSource(t)
	p := openPage(t, "")
	eval[any](p, `(() => {
		const s = document.getElementById("world-select");
		s.value = "sandbox:empty";
		s.dispatchEvent(new Event("change"));
		return null;
	})()`)
	p.waitFor("the empty sandbox", runTimeout, `document.body.dataset.state === "ready" && window.__rlab.view()?.podsTotal === 0 && !(window.__rlab.view().owners || []).length`)
	p.waitSettled()
	require.True(t, p.exists(`#loop-figure [data-place="rs/queue"]`))
	require.False(t, p.exists(`#loop-figure [data-place="deploy/queue"]`),
		"the loop draws no Deployment controller while there is no Deployment: the engine keeps it asleep")
	p.shot("empty-sandbox")

	p.command("create deploy web --replicas=4 --selector=app=web")
	p.stabilize()
	rest := eval[rolloutState](p, readRollout)
	require.Len(t, rest.RSs, 1, "the Deployment's card holds its ReplicaSet")
	first := rest.RSs[0]
	assert.Equal(t, "1", first.Revision)
	assert.True(t, first.New)
	assert.NotEmpty(t, first.Hash)
	assert.Equal(t, "rs/web-"+first.Hash, first.Owner, "a Deployment names its ReplicaSet after its pod-template-hash")
	assert.Equal(t, [2]any{"4", 4}, [2]any{first.Desired, first.Pods})
	assert.Equal(t, []string{"nginx:1.0"}, first.Images, "each pod shows its image")
	assert.Contains(t, first.Label, "revision 1")
	assert.Contains(t, first.Label, "pod-template-hash "+first.Hash)
	for _, part := range []string{"informer/deployments/reflector", "informer/deployments/handlers", "deploy/queue", "deploy/workers", "deploy/syncHandler"} {
		assert.True(t, p.exists(fmt.Sprintf(`#loop-figure [data-place=%q]`, part)), "a Deployment wakes its controller: the loop draws %s", part)
	}
	p.shot("deployment-at-rest")

	// The Deployment controller's sync box explains syncDeployment, which
	// scales ReplicaSets and touches no pod, not the replication managers'
	// syncReplicaSet, and its table is the Workers panel's, where its
	// decisions are: it has no expectations.
	p.click(`#loop-figure [data-place="deploy/syncHandler"]`)
	p.waitFor("the Deployment sync's card", quick, `!document.getElementById("loop-detail").hidden`)
	card := p.text("#loop-detail")
	assert.Contains(t, card, "DeploymentController.syncDeployment", "the card names the Deployment controller's sync")
	assert.Contains(t, card, "never creates or deletes a pod")
	assert.NotContains(t, card, "syncReplicaSet")
	assert.Contains(t, card, "Last sync: deploy/web", "the box shows the Deployment controller's last sync, which has ended, not one under way")
	assert.NotContains(t, card, "Now: ")
	assert.NotContains(t, card, "compare the pods", "the Deployment controller does not count pods against replicas")
	p.shot("deployment-sync-card")
	p.click(`#loop-detail [data-loop-action="panel"]`)
	p.waitFor("the Workers panel to take the focus", quick, `document.activeElement?.id === "workers-h"`)
	p.click(`#loop-detail [data-loop-action="glossary"]`)
	p.waitFor("the glossary at syncDeployment", quick, `document.getElementById("glossary").open && document.activeElement.closest(".gloss-entry")?.id === "glossary-sync-deployment"`)
	p.press(kb.Escape)
	p.waitFor("the glossary to close", quick, `!document.getElementById("glossary").open`)

	p.command("set image deploy/web app=nginx:2.0")
	// The first steps after the change: the Deployment controller hears it
	// and its worker creates the new ReplicaSet, which the text timeline
	// announces.
	var created rolloutState
	for range 20 {
		p.stepForward()
		created = eval[rolloutState](p, readRollout)
		if strings.HasPrefix(created.Actor, "deploy-worker-") && created.Models == "getNewReplicaSet" {
			break
		}
	}
	require.Equal(t, "getNewReplicaSet", created.Models, "a Deployment worker's sync creates the new ReplicaSet")
	assert.Equal(t, "deploy/workers deploy/syncHandler", created.Lit, "the loop lights the Deployment controller's worker and sync")
	assert.Equal(t, "deploy/queue>deploy/workers", created.Edge)
	assert.Equal(t, "default/web", created.Token)
	p.waitFor("the text timeline to announce the Deployment controller's step", quick,
		`/deploy-worker-\d: took default\/web; no ReplicaSet has the Deployment's template: creating rs\/web-/.test(document.getElementById("timeline-news").textContent)`)
	assert.Contains(t, p.text("#timeline"), "no ReplicaSet has the Deployment's template: creating rs/web-", "the timeline lists the step")

	// Step by step until old and new pods run together, the rollout under
	// way, past the first moves and their writes; the page draws it as it
	// draws the rest of itself, and it passes the audit. Then Next sync, a
	// sync at a time, to the end: a rollout is some 800 steps, most of them
	// pods starting, and the page takes a tenth of a second to draw each.
	states := p.pressRollout("step-forward", 400, `s.rss.length === 2 && s.rss[0].pods > 0 && s.rss[1].pods > 0 && s.rss[1].desired === "3"`)
	mid := states[len(states)-1]
	require.Len(t, mid.RSs, 2, "the rollout never had old and new pods together")
	assert.Equal(t, "true", mid.Budget.Rolling)
	p.shot("rollout-under-way")
	p.checkAxe(source, "while a rollout is under way")
	terms := p.checkTerms("while a rollout is under way")
	for _, id := range []string{"deployment", "revision", "pod-template-hash", "rolling-update", "max-surge", "max-unavailable"} {
		assert.True(t, p.exists(fmt.Sprintf(`#world .deployment .term[data-term=%q]`, id)), "the Deployment's card explains %s", id)
	}
	assert.Positive(t, terms.Count)
	states = append(states, p.pressRollout("step-forward", 60, "false")...)
	for len(states) < 2000 && !eval[bool](p, `window.__rlab.view().atRest`) {
		states = append(states, p.pressRollout("until-sync", 100, "false")...)
	}
	require.True(t, eval[bool](p, `window.__rlab.view().atRest`), "the rollout did not come to rest")

	// The new ReplicaSet appears above the old one.
	at := slices.IndexFunc(states, func(s rolloutState) bool { return len(s.RSs) == 2 })
	require.GreaterOrEqual(t, at, 0, "the new ReplicaSet never appeared in the Deployment's card")
	two := states[at].RSs
	assert.Equal(t, []string{"2", "1"}, []string{two[0].Revision, two[1].Revision}, "the ReplicaSets are drawn newest revision first")
	assert.True(t, two[0].New)
	assert.False(t, two[1].New)
	assert.Equal(t, first.Owner, two[1].Owner)
	assert.NotEqual(t, first.Hash, two[0].Hash, "the new template has a hash of its own")
	assert.Equal(t, "rs/web-"+two[0].Hash, two[0].Owner)
	assert.Contains(t, two[0].Label, "revision 2")

	// The budget holds at every step, and the card says why.
	moves := []string{}
	seq := rest.ScaleSeq
	var wrote, heard, deployHeard, decidedStay, decidedDown bool
	insideChecked := 0
	for _, s := range states {
		decidedStay = decidedStay || strings.Contains(s.Decisions, "5 pods wanted in all, and maxSurge allows 5")
		decidedDown = decidedDown || strings.Contains(s.Decisions, "scaling down rs/web-")
		require.NotEmpty(t, s.Budget.MaxPods, "step %d: no budget drawn", s.Step)
		assert.Equal(t, [2]string{"5", "3"}, [2]string{s.Budget.MaxPods, s.Budget.MinAvailable}, "step %d", s.Step)
		wanted, _ := strconv.Atoi(s.Budget.Wanted)
		assert.LessOrEqual(t, wanted, 5, "step %d: the ReplicaSets want more than the budget allows", s.Step)
		assert.Equal(t, strings.Join(s.ViewQueue, " "), s.DeployQueue, "step %d: the Deployment controller's workqueue drawn is the engine's", s.Step)
		if s.InsideQueue != nil {
			insideChecked++
			assert.ElementsMatch(t, s.ViewQueue, slices.Compact(slices.Sorted(slices.Values(s.InsideQueue))), "step %d: the Workqueue panel lists the engine's keys", s.Step)
		}
		if s.ScaleSeq != seq && len(s.Scales) > 0 {
			seq = s.ScaleSeq
			var dirs []string
			for _, m := range s.Scales {
				dirs = append(dirs, direction(m))
			}
			moves = append(moves, strings.Join(dirs, "+"))
			if dirs[len(dirs)-1] == "up" {
				assert.Contains(t, s.ScaleText, "maxSurge 1", "step %d: a scale-up says what maxSurge allowed", s.Step)
			} else {
				assert.Contains(t, s.ScaleText, "maxUnavailable 1", "step %d: a scale-down says what maxUnavailable allowed", s.Step)
			}
		}
		if s.Edge == "deploy/syncHandler>apiserver" && s.Token == "update replicasets" {
			wrote = true
			assert.Equal(t, "apiserver", s.Lit, "step %d: the scale write reaches the API server", s.Step)
		}
		if wrote && s.Edge == "informer/replicasets/handlers>rs/queue" {
			heard = true
			assert.Regexp(t, `^default/web-`, s.Token, "step %d: the replication manager is handed the scaled ReplicaSet's key", s.Step)
		}
		if s.Edge == "informer/replicasets/handlers>deploy/queue" {
			deployHeard = true
		}
	}
	// The Deployment controller lives from the Deployment's creation on, so
	// the Workqueue panel has its section at every step of the rollout;
	// a panel without it would leave the check above silent.
	assert.Equal(t, len(states), insideChecked, "the Workqueue panel had no section for the Deployment controller at %d of %d steps", len(states)-insideChecked, len(states))
	assert.True(t, wrote, "no step drew a ReplicaSet scale write travelling from the Deployment controller's sync to the API server")
	assert.True(t, heard, "no step drew the scaled ReplicaSet reaching the replication manager through the ReplicaSet informer")
	assert.True(t, deployHeard, "no step drew the ReplicaSet informer's handlers handing the Deployment's key to its workqueue")
	assert.True(t, decidedDown && decidedStay, "the Workers panel never showed the Deployment controller's decisions in words")
	// The first sync makes the new ReplicaSet at 1 and scales the old one
	// to 3; then one move per sync, up and down in turn, to 4 and 0.
	assert.Equal(t, []string{"up+down", "up", "down", "up", "down", "up", "down"}, moves, "the last scaling, sync by sync")

	end := states[len(states)-1]
	require.Len(t, end.RSs, 2)
	assert.Equal(t, rolloutRS{Owner: two[0].Owner, Revision: "2", Hash: two[0].Hash, New: true, Desired: "4", Pods: 4,
		Images: []string{"nginx:2.0"}, Label: end.RSs[0].Label}, end.RSs[0], "the new ReplicaSet ends with 4 pods of nginx:2.0")
	assert.Equal(t, [3]any{first.Owner, "0", 0}, [3]any{end.RSs[1].Owner, end.RSs[1].Desired, end.RSs[1].Pods}, "the old ReplicaSet ends at 0")
	assert.Equal(t, "false", end.Budget.Rolling)
	assert.Contains(t, end.ScaleText, first.Owner+" 1 → 0", "the last move takes the old ReplicaSet to 0")
	p.shot("rollout-done")

	// The history lists both revisions, the current one marked, and opens
	// from the keyboard.
	type historyRow struct {
		Revision, ReplicaSet, Image, Current string
	}
	rows := eval[[]historyRow](p, `[...document.querySelectorAll('#world .deployment[data-deployment="deploy/web"] .deploy-history tbody tr')].map((tr) => ({
		Revision: tr.dataset.revision, ReplicaSet: tr.cells[1].textContent, Image: tr.cells[2].textContent, Current: tr.dataset.current || ""}))`)
	assert.Equal(t, []historyRow{
		{"1", strings.TrimPrefix(first.Owner, "rs/"), "nginx:1.0", ""},
		{"2", strings.TrimPrefix(two[0].Owner, "rs/"), "nginx:2.0", "true"},
	}, rows)
	eval[any](p, `document.querySelector('#world .deploy-history summary').focus(), null`)
	assert.True(t, eval[bool](p, `document.activeElement.matches('#world .deploy-history summary')`), "the history's summary takes the focus")
	p.press(kb.Enter)
	p.waitFor("the history to open", quick, `document.querySelector('#world .deploy-history').open`)

	// The inside view shows the Deployment controller's workers and their
	// last decisions in words.
	workers := p.text(`#workers .controller-section[data-controller="deploy"]`)
	assert.Contains(t, workers, "deploy-worker-1")
	assert.Contains(t, workers, "deploy/web by deploy-worker-")
	p.checkAxe(source, "after a rollout")

	// Back before the Deployment, the loop draws no Deployment controller
	// again; at the end, it does.
	_, recorded := p.stepCount()
	eval[any](p, `document.getElementById("scrubber").focus(), null`)
	p.press(kb.Home)
	p.waitFor("the seek to step 0", runTimeout, stepIs(0))
	p.waitSettled()
	assert.False(t, p.exists(`#loop-figure [data-place="deploy/queue"]`), "at step 0 there is no Deployment, and no Deployment controller drawn")
	assert.False(t, p.exists(`#world .deployment`))
	p.press(kb.End)
	p.waitFor("the seek back to the end", runTimeout, stepIs(recorded))
	p.waitSettled()
	assert.True(t, p.exists(`#loop-figure [data-place="deploy/queue"]`), "back at the end, the Deployment controller is drawn again")
	assert.True(t, p.exists(`#world .deployment[data-deployment="deploy/web"] details.deploy-history`))

	// rollout undo makes the first template the new one again, under a new
	// number: revision 1 is gone from the history, and revision 3 is its
	// ReplicaSet, with nginx:1.0.
	p.command("rollout undo deploy/web")
	p.stabilize()
	rows = eval[[]historyRow](p, `[...document.querySelectorAll('#world .deployment[data-deployment="deploy/web"] .deploy-history tbody tr')].map((tr) => ({
		Revision: tr.dataset.revision, ReplicaSet: tr.cells[1].textContent, Image: tr.cells[2].textContent, Current: tr.dataset.current || ""}))`)
	assert.Equal(t, []historyRow{
		{"2", strings.TrimPrefix(two[0].Owner, "rs/"), "nginx:2.0", ""},
		{"3", strings.TrimPrefix(first.Owner, "rs/"), "nginx:1.0", "true"},
	}, rows, "undo brings the first template back as revision 3")
	undone := eval[rolloutState](p, readRollout)
	require.Len(t, undone.RSs, 2)
	assert.Equal(t, [4]any{first.Owner, "3", "4", []string{"nginx:1.0"}}, [4]any{undone.RSs[0].Owner, undone.RSs[0].Revision, undone.RSs[0].Desired, undone.RSs[0].Images},
		"the first ReplicaSet, revision 3, is drawn first, with four pods of nginx:1.0")
	p.shot("undone")
}
