package cluster

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
)

// scenario is a list of inputs, each run when the world has settled after
// the one before: everything the cluster does, in one run.
func scenario(h *harness) []func() {
	ignore := func(error) {}
	return []func(){
		func() {
			for _, name := range []string{"a", "b", "c", "d", "e"} {
				h.createPod(name, "")
			}
			h.createPod("bare", "node-2")
			h.createPod("later", "node-4")
		},
		func() { _, _ = h.c.Cordon("node-1") },
		func() { h.createPod("f", ""); h.createPod("g", "") },
		func() { ignore(h.c.Kubelets.Crash("default", "a")) },
		func() { ignore(h.c.Kubelets.SetReady("default", "b", false)) },
		func() { ignore(h.c.Kubelets.Evict("default", "c")) },
		func() { h.c.Kubelets.SetKubeletStart(3 * time.Second); ignore(h.c.CreateNode("node-4", nil)) },
		func() { h.deletePod("d", 30); h.deletePod("e", 1) },
		func() { _, _ = h.c.Uncordon("node-1"); ignore(h.c.Kubelets.SetReady("default", "b", true)) },
		func() {
			_, _ = h.store.Faults().Add(apistore.FaultRule{Verb: apistore.VerbCreate, Resource: "pods/binding", Count: 1})
			h.createPod("h", "")
		},
		func() { h.deletePod("bare", 0); ignore(h.c.Kubelets.Crash("default", "f")) },
	}
}

// runScenario runs the scenario once from the start, recording the hash
// after every step, the step at which each input was applied, and a kernel
// snapshot every few steps.
func runScenario(t *testing.T, h *harness) (hashes map[uint64]uint64, applied map[uint64][]int, snaps []*sim.Snapshot) {
	hashes, applied = map[uint64]uint64{}, map[uint64][]int{}
	inputs := scenario(h)
	taken := map[uint64]bool{}
	take := func() {
		// One snapshot per step count, taken before the inputs of that step.
		if n := h.k.Steps(); n%7 == 0 && !taken[n] {
			taken[n] = true
			s, err := h.k.Snapshot()
			require.NoError(t, err)
			snaps = append(snaps, s)
		}
	}
	settle := func() {
		for h.k.Busy() {
			take()
			res := h.step()
			hashes[res.N] = res.Hash
		}
	}
	settle()
	for i, in := range inputs {
		take()
		applied[h.k.Steps()] = append(applied[h.k.Steps()], i)
		in()
		settle()
	}
	return hashes, applied, snaps
}

// replay restores a snapshot and runs on, applying the recorded inputs at the
// steps they were applied at, and checks every hash.
func replay(t *testing.T, h *harness, snap *sim.Snapshot, hashes map[uint64]uint64, applied map[uint64][]int) {
	require.NoError(t, h.k.Restore(snap))
	inputs := scenario(h)
	for {
		for _, i := range applied[h.k.Steps()] {
			inputs[i]()
		}
		if !h.k.Busy() {
			break
		}
		res := h.step()
		want, ok := hashes[res.N]
		require.True(t, ok, "the replay from step %d ran longer than the run: step %d %s", snap.Steps(), res.N, res.TraceLine())
		require.Equal(t, want, res.Hash, "the replay from step %d differs at step %d: %s", snap.Steps(), res.N, res.TraceLine())
	}
	assert.Equal(t, uint64(len(hashes)), h.k.Steps(), "the replay from step %d ended early", snap.Steps())
}

func TestSnapshotRestoreReplayGivesTheSameTrace(t *testing.T) {
	h := newHarness(t, Config{})
	hashes, applied, snaps := runScenario(t, h)
	require.Greater(t, len(snaps), 20)
	finalPods := h.store.Len(api.KindPod)

	// Step back to every snapshot, in reverse as a learner would, and replay.
	for i := len(snaps) - 1; i >= 0; i-- {
		replay(t, h, snaps[i], hashes, applied)
	}
	// The same snapshot restores again and again.
	replay(t, h, snaps[len(snaps)/2], hashes, applied)
	replay(t, h, snaps[len(snaps)/2], hashes, applied)
	assert.Equal(t, finalPods, h.store.Len(api.KindPod))

	// A fresh world with the same components restores another world's snapshot.
	fresh := newHarness(t, Config{})
	replay(t, fresh, snaps[len(snaps)/3], hashes, applied)
}

func TestTheScenarioExercisesEverything(t *testing.T) {
	h := newHarness(t, Config{})
	runScenario(t, h)
	models := map[string]bool{}
	for _, s := range h.steps {
		actor := s.Actor
		if strings.HasPrefix(actor, "kubelet/") && actor != "kubelet/node-4" {
			actor = "kubelet/*"
		}
		models[actor+" "+s.Models] = true
	}
	for _, want := range []string{
		"scheduler schedulePod", "scheduler bind", "scheduler handleBindingCycleError", "scheduler flushBackoffQCompleted",
		"kubelet/* PLEG", "kubelet/* prober", "kubelet/* evictionManager", "kubelet/node-4 registerWithAPIServer",
		"kubelet/* killPod", "kubectl kubectl cordon", "kubectl kubectl uncordon", "kubelet/node-4 syncPod",
		"kubelet/* HandlePodRemoves", "kubelet/* statusManager.syncPod",
	} {
		assert.True(t, models[want], "the scenario never shows %q", want)
	}
	assert.False(t, h.hasPod("e"), "deleted with a 1s grace period")
	assert.Equal(t, "Evicted", h.pod("c").Status.Reason)
	assert.Equal(t, api.PodRunning, h.pod("later").Status.Phase)
}

// TestEverySummaryIsASentenceNamingThePod checks the words a learner reads:
// every step of the cluster's components says something in words, and every
// step that touches a pod names it.
func TestEverySummaryIsASentenceNamingThePod(t *testing.T) {
	h := newHarness(t, Config{})
	runScenario(t, h)
	checked := 0
	for _, s := range h.steps {
		if s.Actor != "scheduler" && s.Actor != "kubectl" && !strings.HasPrefix(s.Actor, "kubelet") {
			continue
		}
		checked++
		line := s.TraceLine()
		sum := s.Summary.String()
		require.NotEmpty(t, sum, line)
		assert.NotEmpty(t, s.Models, "every step names what it models: %s", line)
		assert.Equal(t, strings.TrimSpace(sum), sum, line)
		assert.NotContains(t, sum, "  ", line)
		assert.NotContains(t, sum, "%!", line)
		assert.False(t, strings.HasSuffix(sum, "."), "trace summaries end without a full stop: %s", line)
		assert.True(t, unicode.IsLower(rune(sum[0])), "a summary reads as the rest of the line's sentence: %s", line)
		assert.GreaterOrEqual(t, len(strings.Fields(sum)), 5, "a summary is a phrase, not a code: %s", line)
		for _, ref := range s.Touched {
			if ref.Kind == "pod" {
				assert.Contains(t, sum, "pod/"+ref.Name, "a step that touches a pod names it: %s", line)
			}
		}
		if d, ok := s.Event.Data.(*apistore.WatchDelivery); ok && d.Event.Object.Kind() == api.KindPod {
			assert.Contains(t, sum, "pod/"+d.Event.Object.Meta().Name, "a watch event's step names its pod: %s", line)
		}
		if d, ok := s.Event.Data.(*apistore.WatchDelivery); ok && s.Event.To == "kubelet" {
			// Only a node that has a kubelet at that moment can act.
			node := d.Event.Object.(*api.Pod).Spec.NodeName
			if node == "node-4" && s.N < createdNode4(h) {
				assert.Equal(t, "kubelet", s.Actor, line)
			}
		}
	}
	assert.Greater(t, checked, 100)
}

// TestEveryWriteGoesThroughTheServer checks that the cluster's components
// change the API only with requests: the request log shows each of their
// writes, and the code reads the store directly only to check a command
// before sending it.
func TestEveryWriteGoesThroughTheServer(t *testing.T) {
	h := started(t, Config{})
	for _, name := range []string{"a", "b", "c"} {
		h.createPod(name, "")
	}
	h.stabilize()
	_, err := h.c.Cordon("node-3")
	require.NoError(t, err)
	require.NoError(t, h.c.Kubelets.Crash("default", "a"))
	h.stabilize()
	h.deletePod("b", 30)
	h.stabilize()

	type count struct{ from, verb, resource string }
	got := map[count]int{}
	for _, r := range h.srv.Requests() {
		if r.From != "user" {
			got[count{from: r.From, verb: string(r.Verb), resource: r.Resource}]++
		}
	}
	assert.Equal(t, map[count]int{
		{from: "kubelet", verb: "create", resource: "nodes"}:          3, // registration
		{from: "kubelet", verb: "list", resource: "pods"}:             1,
		{from: "kubelet", verb: "watch", resource: "pods"}:            1,
		{from: "scheduler", verb: "list", resource: "nodes"}:          1,
		{from: "scheduler", verb: "watch", resource: "nodes"}:         1,
		{from: "scheduler", verb: "list", resource: "pods"}:           1,
		{from: "scheduler", verb: "watch", resource: "pods"}:          1,
		{from: "scheduler", verb: "create", resource: "pods/binding"}: 3,
		{from: "kubelet", verb: "update", resource: "pods/status"}:    5, // 3 Running, a crashed, a back
		{from: "kubectl", verb: "update", resource: "nodes"}:          1, // cordon
		{from: "kubelet", verb: "delete", resource: "pods"}:           1, // b, after kubelet-stop
	}, got)

	// The package's code reads the store only through Store().Object.
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if call, ok := sel.X.(*ast.CallExpr); ok {
				if inner, ok := call.Fun.(*ast.SelectorExpr); ok && inner.Sel.Name == "Store" {
					assert.Equal(t, "Object", sel.Sel.Name, "%s: the cluster may only read the store directly", fset.Position(sel.Pos()))
				}
			}
			return true
		})
	}
}

// TestAgendaDescribesEveryPendingEvent checks the agenda view: every pending
// event of the cluster's components is described in words, never as the
// "component: kind" fallback.
func TestAgendaDescribesEveryPendingEvent(t *testing.T) {
	h := newHarness(t, Config{})
	inputs := scenario(h)
	described := 0
	check := func() {
		for _, ev := range h.k.Agenda() {
			if ev.To == "apiserver" || ev.To == "user" {
				continue
			}
			d := h.k.Describe(ev)
			assert.NotEqual(t, ev.To+": "+ev.Kind, d, "event %q to %s has no description", ev.Kind, ev.To)
			described++
		}
	}
	for _, in := range inputs {
		for h.k.Busy() {
			check()
			h.step()
		}
		in()
	}
	for h.k.Busy() {
		check()
		h.step()
	}
	assert.Greater(t, described, 100)
}

// createdNode4 returns the step at which node-4's kubelet started.
func createdNode4(h *harness) uint64 {
	for _, s := range h.steps {
		if s.Actor == "kubelet/node-4" {
			return s.N
		}
	}
	return 0
}
