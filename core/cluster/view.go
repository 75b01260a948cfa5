package cluster

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/cow"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/sorting"
)

// Views are read-only pictures for the page and the reading commands: plain
// values, built on demand, in a fixed order. Building one may visit every pod;
// no step does.

// KubeletPod is one pod as its kubelet sees it.
type KubeletPod struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Namespace, Name, Node string
	State                 PodState
	// At is when the pod's pending step happens: its containers start
	// (PodStarting), its container is back (PodCrashed), it is removed
	// (PodStopping). 0 in the other states.
	At time.Duration
	// Phase, Ready and Restarts are what the kubelet reports.
	Phase    string
	Ready    bool
	Restarts int32
}

// String describes the pod's state in a few words: "starting at t=2.003s",
// "running, Ready", "crashed until t=7.005s", "stopping at t=9.004s".
func (p KubeletPod) String() string {
	switch p.State {
	case PodWaiting:
		return "waiting for a kubelet on " + p.Node
	case PodStarting:
		return "starting at t=" + sim.FormatSeconds(p.At)
	case PodRunning:
		if p.Ready {
			return "running, Ready"
		}
		return "running, not Ready"
	case PodCrashed:
		return "crashed until t=" + sim.FormatSeconds(p.At)
	case PodStopping:
		return "stopping at t=" + sim.FormatSeconds(p.At)
	case PodFinished:
		return "finished (" + p.Phase + ")"
	}
	return string(p.State)
}

func (p *kpod) view() KubeletPod {
	v := KubeletPod{Namespace: p.namespace(), Name: p.name(), Node: p.node, State: p.state,
		Phase: p.phase, Ready: p.running && p.ready, Restarts: p.restarts}
	switch p.state {
	case PodStarting, PodCrashed, PodStopping:
		v.At = p.at
	}
	if v.Phase == "" {
		v.Phase = api.PodPending
	}
	return v
}

// Pod returns what the kubelet knows of a pod, and false when no kubelet
// holds it (it is unbound, or gone, or its binding has not reached the
// kubelets yet).
func (k *Kubelets) Pod(namespace, name string) (KubeletPod, bool) {
	p := k.pods.Read()[api.Key(namespace, name)]
	if p == nil {
		return KubeletPod{}, false
	}
	return p.view(), true
}

// Pods returns every pod the kubelets hold, by node name and then by key.
func (k *Kubelets) Pods() []KubeletPod {
	out := make([]KubeletPod, 0, len(k.pods.Read()))
	for _, key := range cow.SortedKeys(k.pods) {
		out = append(out, k.pods.Read()[key].view())
	}
	sorting.Stable(out, func(a, b KubeletPod) int { return strings.Compare(a.Node, b.Node) })
	return out
}

// NodeView is one node for the page.
type NodeView struct {
	Name string
	// Kubelet tells whether a kubelet runs on the node; a node named by a bare
	// pod's --node but never created has none.
	Kubelet bool
	// Registered tells whether the Node is stored in the API.
	Registered bool
	// Schedulable is the Node's !spec.unschedulable as the API holds it; false
	// when the Node is not stored.
	Schedulable bool
	// IP is the address the kubelet reports as its pods' hostIP.
	IP string
	// Pods are the pods bound to the node, as its kubelet sees them, by key.
	Pods []KubeletPod
}

// NodesWithoutPods returns what Nodes does, but for the pods: every node a
// kubelet runs on or a pod is bound to, by name, each with Pods nil. A pod's
// node either has a kubelet or has none yet, and then the pod waits for it
// (Kubelets.waiting), so the nodes are found without listing the pods,
// which in a world of 10,000 took a third of the page's view.
func (c *Cluster) NodesWithoutPods() []NodeView {
	k := c.Kubelets
	names := make([]string, 0, len(k.nodes)+len(k.waiting))
	for _, n := range k.nodes {
		names = append(names, n.name)
	}
	for _, name := range slices.Sorted(maps.Keys(k.waiting)) {
		if _, ok := k.nodeIndex[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	out := make([]NodeView, 0, len(names))
	for _, name := range names {
		v := NodeView{Name: name}
		if i, ok := k.nodeIndex[name]; ok {
			v.Kubelet, v.IP = k.nodes[i].started, k.nodes[i].ip
		}
		c.registration(&v)
		out = append(out, v)
	}
	return out
}

// registration sets whether v's Node is stored, and whether it is
// schedulable.
func (c *Cluster) registration(v *NodeView) {
	if obj, ok := c.srv.Store().Object(api.KindNode, "", v.Name); ok {
		v.Registered = true
		v.Schedulable = !obj.(*api.Node).Spec.Unschedulable
	}
}

// Nodes returns every node a kubelet runs on or a pod is bound to, by name,
// each with the pods its kubelet holds: NodesWithoutPods, with the pods. A
// pod on a node that NodesWithoutPods missed still gets its node here, so
// that the two differ, and assertNodesWithoutPods (in the tests) says so.
func (c *Cluster) Nodes() []NodeView {
	out := c.NodesWithoutPods()
	for _, p := range c.Kubelets.Pods() {
		i := slices.IndexFunc(out, func(v NodeView) bool { return v.Name == p.Node })
		if i < 0 {
			v := NodeView{Name: p.Node}
			c.registration(&v)
			out = append(out, v)
			i = len(out) - 1
		}
		out[i].Pods = append(out[i].Pods, p)
	}
	sorting.Stable(out, func(a, b NodeView) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// SchedulerView is the scheduler's state for the page.
type SchedulerView struct {
	// Queue lists the pods waiting for a scheduling attempt, next first.
	Queue []string
	// Unschedulable lists the pods that found no schedulable node, in the
	// order they failed; they are tried again when a node is added or
	// uncordoned.
	Unschedulable []string
	// BackingOff lists the pods whose binding failed and that wait out their
	// back-off, by key.
	BackingOff []string
	// Binding lists the pods whose binding is on its way ("key → node"), by key.
	Binding []string
	// Nodes lists the nodes the scheduler knows, by name, with the pods it
	// counts on each.
	Nodes []SchedulerNode
	// Attempts, Binds and BindFailures count scheduling attempts, successful
	// bindings and failed ones.
	Attempts, Binds, BindFailures int
}

// SchedulerNode is one node as the scheduler sees it.
type SchedulerNode struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Name        string
	Schedulable bool
	// Pods counts the non-terminal pods bound or being bound there.
	Pods int
}

// View returns the scheduler's state.
func (s *Scheduler) View() SchedulerView {
	v := SchedulerView{Attempts: s.attempts, Binds: s.binds, BindFailures: s.bindFailures}
	for _, e := range s.active[s.head:] {
		if p := s.pods.Read()[e.key]; p != nil && p.queue == qActive && p.gen == e.gen {
			v.Queue = append(v.Queue, e.key)
		}
	}
	for _, e := range s.unschedulable {
		if p := s.pods.Read()[e.key]; p != nil && p.queue == qUnschedulable && p.gen == e.gen {
			v.Unschedulable = append(v.Unschedulable, e.key)
		}
	}
	for _, key := range cow.SortedKeys(s.pods) {
		p := s.pods.Read()[key]
		if p.queue == qBackoff {
			v.BackingOff = append(v.BackingOff, key)
		}
		if p.assumed {
			v.Binding = append(v.Binding, key+" → "+p.node)
		}
	}
	for _, n := range s.nodes {
		v.Nodes = append(v.Nodes, SchedulerNode{Name: n.name, Schedulable: !n.unschedulable, Pods: s.bound[n.name]})
	}
	return v
}

// String sums the scheduler up in one line.
func (v SchedulerView) String() string {
	var parts []string
	for _, n := range v.Nodes {
		s := n.Name + "=" + strconv.Itoa(n.Pods)
		if !n.Schedulable {
			s += " (cordoned)"
		}
		parts = append(parts, s)
	}
	return "queue " + strconv.Itoa(len(v.Queue)) + ", unschedulable " + strconv.Itoa(len(v.Unschedulable)) +
		", backing off " + strconv.Itoa(len(v.BackingOff)) + ", binding " + strconv.Itoa(len(v.Binding)) +
		"; pods per node: " + strings.Join(parts, ", ")
}
