package cluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sim"
)

// checkScenario walks pods through every state a kubelet has for them, and
// through the states in which no kubelet has them (unbound, on a node with no
// kubelet, unknown): one input each time the cluster has settled.
func checkScenario(h *harness) []func() {
	ignore := func(error) {}
	return []func(){
		func() {
			for _, name := range []string{"a", "b", "c", "d"} {
				h.createPod(name, "")
			}
			h.createPod("early", "node-4")
		},
		func() { ignore(h.c.Kubelets.Crash("default", "a")) },
		func() { ignore(h.c.Kubelets.Evict("default", "b")) },
		func() { ignore(h.c.Kubelets.SetReady("default", "d", false)) },
		func() { h.deletePod("c", 30) },
		func() { ignore(h.c.CreateNode("node-4", nil)) },
		func() {
			for _, name := range []string{"node-1", "node-2", "node-3", "node-4"} {
				_, _ = h.c.Cordon(name)
			}
			h.createPod("stuck", "")
		},
		func() { h.deletePod("d", 0) },
	}
}

// playCheckScenario runs checkScenario, calling probe before every step.
func playCheckScenario(h *harness, probe func()) []uint64 {
	var hashes []uint64
	settle := func() {
		for h.k.Busy() {
			probe()
			hashes = append(hashes, h.step().Hash)
		}
	}
	settle()
	for _, in := range checkScenario(h) {
		in()
		settle()
	}
	return hashes
}

// kubeletsPicture is everything a Check could disturb: the kernel's clock,
// steps, hash and agenda, the kubelets' pods and the API store's objects.
type kubeletsPicture struct {
	Now    string
	Steps  uint64
	Hash   uint64
	Agenda []sim.Event
	Pods   []KubeletPod
	Store  []api.Object
	Reqs   int
}

func picture(h *harness) kubeletsPicture {
	return kubeletsPicture{Now: sim.FormatSeconds(h.k.Now()), Steps: h.k.Steps(), Hash: h.k.Hash(), Agenda: h.k.Agenda(),
		Pods: h.c.Kubelets.Pods(), Store: h.store.Objects(api.KindPod, ""), Reqs: len(h.srv.Requests())}
}

// TestCheckAgreesWithTheActionsAndChangesNothing asks Check about every pod
// (and a missing one) for every action before every step of a walk through
// all the pods' states, and holds it to two promises: its answer is the
// error the action itself returns (nil exactly when the action is taken),
// and asking changes nothing, neither at once (the picture before and after
// is the same) nor later (a twin run that never asks steps to the same hashes).
func TestCheckAgreesWithTheActionsAndChangesNothing(t *testing.T) {
	h := started(t, Config{})
	actions := map[PodAction]func(ns, name string) error{
		ActionCrash:    h.c.Kubelets.Crash,
		ActionEvict:    h.c.Kubelets.Evict,
		ActionSetReady: func(ns, name string) error { return h.c.Kubelets.SetReady(ns, name, true) },
	}
	order := []PodAction{ActionCrash, ActionEvict, ActionSetReady}
	seen := map[string]bool{}
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	probe := func() {
		targets := [][2]string{{"default", "ghost"}, {"other", "ghost"}}
		for _, o := range h.store.Objects(api.KindPod, "") {
			targets = append(targets, [2]string{o.Meta().Namespace, o.Meta().Name})
			if p, ok := h.c.Kubelets.Pod(o.Meta().Namespace, o.Meta().Name); ok {
				seen[string(p.State)] = true
			} else if o.(*api.Pod).Spec.NodeName == "" {
				seen["unbound"] = true
			}
		}
		for _, target := range targets {
			ns, name := target[0], target[1]
			for _, action := range order {
				before := picture(h)
				checked := h.c.Kubelets.Check(action, ns, name)
				require.Equal(t, before, picture(h), "Check(%s, %s/%s) changed the world", action, ns, name)

				snap, err := h.k.Snapshot()
				require.NoError(t, err)
				acted := actions[action](ns, name)
				require.NoError(t, h.k.Restore(snap))
				assert.Equal(t, errText(acted), errText(checked), "%s %s/%s: Check and the action disagree", action, ns, name)
			}
		}
	}
	asked := playCheckScenario(h, probe)

	for _, st := range []string{"unbound", string(PodWaiting), string(PodStarting), string(PodRunning), string(PodCrashed),
		string(PodFinished), string(PodStopping), string(PodRemoving)} {
		assert.True(t, seen[st], "the walk went through state %s", st)
	}

	twin := started(t, Config{})
	notAsked := playCheckScenario(twin, func() {})
	assert.Equal(t, notAsked, asked, "a run that asks Check before every step steps exactly as one that never asks")
}

func TestCheckRefusesAnUnknownAction(t *testing.T) {
	h := started(t, Config{})
	h.createPod("web", "node-1")
	h.stabilize()
	assert.EqualError(t, h.c.Kubelets.Check("explode", "default", "web"), `unknown pod action "explode"`)
	assert.NoError(t, h.c.Kubelets.Check(ActionCrash, "default", "web"))
}
