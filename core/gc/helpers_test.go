package gc

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
)

// kubectl is the tiny client of these tests: it sends requests and ignores
// the answers.
type kubectl struct{}

func (kubectl) Handle(_ *sim.Context, ev sim.Event) sim.Report {
	r := ev.Data.(*apistore.Reply)
	return sim.Report{Actor: "kubectl", Summary: sim.Text(r.Request.String() + ": " + r.Response.Outcome())}
}
func (kubectl) Snapshot() any { return nil }
func (kubectl) Restore(any)   {}

// rig is a kernel with an API server, the garbage collector and kubectl.
type rig struct {
	t     *testing.T
	k     *sim.Kernel
	srv   *apistore.Server
	store *apistore.Store
	gc    *GarbageCollector
	trace []string
	// started is the number of requests the server had received when start
	// returned.
	started int
}

func newRig(t *testing.T) *rig {
	t.Helper()
	return newRigWith(t, nil)
}

// newRigWith is newRig with a collector that follows kinds (nil: the
// default table).
func newRigWith(t *testing.T, kinds []Followed) *rig {
	t.Helper()
	k := sim.New(1)
	store := apistore.New(apistore.Options{Now: k.Wall, Rand: k.Rand()})
	srv := apistore.NewServer("apiserver", store, apistore.ServerConfig{})
	g := New(Config{Server: srv, Kinds: kinds}, k)
	require.NoError(t, k.Register("apiserver", srv))
	require.NoError(t, k.Register(g.Name(), g))
	require.NoError(t, k.Register("kubectl", kubectl{}))
	return &rig{t: t, k: k, srv: srv, store: store, gc: g}
}

// start starts the collector and lets it list and watch.
func (r *rig) start() {
	r.t.Helper()
	r.gc.Start()
	r.settle()
	for _, m := range r.gc.monitors {
		require.Equal(r.t, monitorWatching, m.state)
	}
	r.started = len(r.srv.Requests())
}

func (r *rig) step() sim.StepResult {
	r.t.Helper()
	res, ok := r.k.Step()
	require.True(r.t, ok, "the agenda is empty")
	r.trace = append(r.trace, res.TraceLine())
	r.check()
	return res
}

func (r *rig) settle() {
	r.t.Helper()
	for n := 0; r.k.Busy(); n++ {
		require.Less(r.t, n, 100000, "the world does not settle")
		r.step()
	}
}

// check verifies the collector's invariants.
func (r *rig) check() {
	r.t.Helper()
	g := r.gc
	require.Len(r.t, g.taskOrder, len(g.tasks), "taskOrder lists every task once")
	for _, uid := range g.taskOrder {
		require.NotNil(r.t, g.tasks[uid])
	}
	seen := map[string]bool{}
	for _, uid := range g.queue {
		d := g.deps[uid]
		require.NotNil(r.t, d, "a queued uid has a dependent")
		require.Equal(r.t, depQueued, d.state)
		require.False(r.t, seen[uid], "a dependent is queued once")
		seen[uid] = true
	}
	if g.current != "" {
		require.Equal(r.t, depProcessing, g.deps[g.current].state)
		require.False(r.t, g.workScheduled, "no work step while the worker holds a dependent")
	}
	for uid, d := range g.deps {
		switch d.state {
		case depQueued:
			require.True(r.t, seen[uid], "a queued dependent is in the queue")
		case depProcessing:
			require.Equal(r.t, g.current, uid, "only the current dependent is processing")
		}
	}
	for _, uid := range g.deleting {
		_, alive := g.owners[uid]
		require.True(r.t, alive, "an owner deleting its dependents is alive")
	}
	require.Len(r.t, slices.Compact(slices.Sorted(slices.Values(g.deleting))), len(g.deleting), "an owner is marked once")
	require.LessOrEqual(r.t, len(g.absent), AbsentOwnerCacheSize)
	require.LessOrEqual(r.t, len(g.deletedOwners), AbsentOwnerCacheSize)
	r.checkGraph()
}

// checkGraph verifies that the graph's edges match its nodes.
func (r *rig) checkGraph() {
	r.t.Helper()
	g := r.gc
	edges := 0
	for uid, n := range g.allNodes() {
		require.Equal(r.t, uid, n.uid)
		require.Contains(r.t, g.nodes.parts[partOf(uid)].Read(), uid, "%s is kept in the part of its uid", n)
		seen := map[string]bool{}
		for _, ref := range n.owners {
			if seen[ref.UID] {
				continue
			}
			seen[ref.UID] = true
			edges++
			require.Contains(r.t, g.dependents[ref.UID].all(), n.depRef, "%s is a dependent of %s", n, refString(ref))
		}
	}
	n := 0
	for owner, list := range g.dependents {
		deps := list.all()
		require.Len(r.t, deps, list.len(), "the list of %s counts what it holds", owner)
		for _, c := range list.chunks {
			require.NotEmpty(r.t, c.refs, "no empty chunk is kept in the list of %s", owner)
			require.LessOrEqual(r.t, len(c.refs), depChunkMax, "no chunk of the list of %s is over depChunkMax", owner)
		}
		require.NotEmpty(r.t, deps, "no empty dependents list is kept for %s", owner)
		require.True(r.t, slices.IsSortedFunc(deps, cmpDeps), "the dependents of %s are in order", owner)
		require.Len(r.t, slices.CompactFunc(slices.Clone(deps), func(a, b depRef) bool { return cmpDeps(a, b) == 0 }), len(deps), "no dependent twice")
		for _, d := range deps {
			dep, ok := g.nodes.get(d.uid)
			require.True(r.t, ok, "a dependent of %s is in the graph", owner)
			require.Equal(r.t, dep.depRef, d, "the list holds the dependent as the graph does")
			require.True(r.t, slices.ContainsFunc(dep.owners, func(ref api.OwnerReference) bool { return ref.UID == owner }),
				"%s names %s", dep, owner)
		}
		n += len(deps)
	}
	require.Equal(r.t, edges, n)
}

// requestsAfterStart counts the requests the collector sent with a verb on a
// resource after start returned.
func (r *rig) requestsAfterStart(verb apistore.Verb, resource string) int {
	n := 0
	for _, rec := range r.srv.Requests()[r.started:] {
		if rec.From == DefaultName && rec.Verb == verb && rec.Resource == resource {
			n++
		}
	}
	return n
}

func (r *rig) send(req apistore.Request) { r.srv.Send(r.k, "kubectl", req) }

func (r *rig) delete(kind api.Kind, name string, policy apistore.PropagationPolicy) {
	r.send(apistore.Request{Verb: apistore.VerbDelete, Kind: kind, Namespace: "default", Name: name,
		DeleteOptions: &apistore.DeleteOptions{PropagationPolicy: policy}})
}

func (r *rig) rs(name string) *api.ReplicaSet {
	r.t.Helper()
	return r.rsOwned(name)
}

// rsOwned stores a ReplicaSet with the given owner references: a
// Deployment's ReplicaSet, or, in these tests, one a ReplicationController
// owns (the store checks no owner's kind), for two levels of dependents.
func (r *rig) rsOwned(name string, owners ...api.OwnerReference) *api.ReplicaSet {
	r.t.Helper()
	one := int32(1)
	obj, err := r.store.Create(&api.ReplicaSet{
		Metadata: api.ObjectMeta{Namespace: "default", Name: name, OwnerReferences: owners},
		Spec: api.ReplicaSetSpec{
			Replicas: &one,
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Template: api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: map[string]string{"app": name}},
				Spec:     api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
			},
		},
	})
	require.NoError(r.t, err)
	return obj.(*api.ReplicaSet)
}

func (r *rig) rc(name string) *api.ReplicationController {
	r.t.Helper()
	one := int32(1)
	obj, err := r.store.Create(&api.ReplicationController{
		Metadata: api.ObjectMeta{Namespace: "default", Name: name},
		Spec: api.ReplicationControllerSpec{
			Replicas: &one,
			Selector: map[string]string{"app": name},
			Template: &api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: map[string]string{"app": name}},
				Spec:     api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
			},
		},
	})
	require.NoError(r.t, err)
	return obj.(*api.ReplicationController)
}

// pod stores a pod with the given owner references; node "" leaves it
// unscheduled (a delete removes it at once).
func (r *rig) pod(name, node string, owners ...api.OwnerReference) *api.Pod {
	r.t.Helper()
	obj, err := r.store.Create(&api.Pod{
		Metadata: api.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{"app": "x"}, OwnerReferences: owners},
		Spec:     api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}, NodeName: node},
	})
	require.NoError(r.t, err)
	return obj.(*api.Pod)
}

// createPod creates a pod through the API server, so that watches hear of it.
func (r *rig) createPod(name string, owners ...api.OwnerReference) {
	r.send(apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindPod, Object: &api.Pod{
		Metadata: api.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{"app": "x"}, OwnerReferences: owners},
		Spec:     api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
	}})
}

func controllerRef(obj api.Object) api.OwnerReference {
	return api.NewControllerRef(obj.Meta(), obj.Kind().APIVersion(), string(obj.Kind()))
}

func plainRef(obj api.Object) api.OwnerReference {
	ref := controllerRef(obj)
	ref.Controller = nil
	ref.BlockOwnerDeletion = nil
	return ref
}

func (r *rig) exists(kind api.Kind, name string) bool {
	_, ok := r.store.Object(kind, "default", name)
	return ok
}

func (r *rig) get(kind api.Kind, name string) api.Object {
	r.t.Helper()
	obj, ok := r.store.Object(kind, "default", name)
	require.True(r.t, ok, "%s %s exists", kind, name)
	return obj
}

// stepOf returns the index in the trace of the first line containing s, -1
// if none.
func (r *rig) stepOf(s string) int {
	for i, line := range r.trace {
		if strings.Contains(line, s) {
			return i
		}
	}
	return -1
}

// count returns how many trace lines contain s.
func (r *rig) count(s string) int {
	n := 0
	for _, line := range r.trace {
		if strings.Contains(line, s) {
			n++
		}
	}
	return n
}

// requests counts the requests the collector sent with a verb on a resource.
func (r *rig) requests(verb apistore.Verb, resource string) int {
	n := 0
	for _, rec := range r.srv.Requests() {
		if rec.From == DefaultName && rec.Verb == verb && rec.Resource == resource {
			n++
		}
	}
	return n
}

// allNodes returns the graph's nodes in one map, for assertions.
func (g *GarbageCollector) allNodes() map[string]node {
	out := map[string]node{}
	for _, uid := range g.nodes.sortedUIDs() {
		out[uid], _ = g.nodes.get(uid)
	}
	return out
}

// dependentUIDs returns the uids of an owner's dependents, in their order.
func dependentUIDs(list depList) []string {
	deps := list.all()
	uids := make([]string, len(deps))
	for i, d := range deps {
		uids[i] = d.uid
	}
	return uids
}

// edges copies the graph's dependents lists out as plain slices, to
// compare what the lists hold rather than how they are chunked.
func edges(dependents map[string]depList) map[string][]depRef {
	out := make(map[string][]depRef, len(dependents))
	for owner, list := range dependents {
		out[owner] = list.all()
	}
	return out
}
