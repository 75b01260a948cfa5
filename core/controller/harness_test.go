package controller

import (
	"maps"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/informer"
	"github.com/reconcilelab/rlab/core/sim"
)

// rig is a small world for the manager's tests: a kernel, an API server,
// the two informers and the manager, with no scheduler or kubelet, so pods
// stay Pending unless a test changes them.
type rig struct {
	t     *testing.T
	k     *sim.Kernel
	srv   *apistore.Server
	pods  *informer.Informer
	rss   *informer.Informer
	m     *Manager
	trace []sim.StepResult

	// replies are the answers the manager's workers received, in order: the
	// request they had sent (bodies included) and the server's response. The
	// server's log keeps no bodies; this is how a test sees what a PUT carried.
	replies []*apistore.Reply
}

// kubectl is the test's client: it ignores the answers.
type kubectl struct{}

func (kubectl) Handle(*sim.Context, sim.Event) sim.Report {
	return sim.Report{Actor: "kubectl", Summary: sim.Text("answer")}
}
func (kubectl) Snapshot() any { return nil }
func (kubectl) Restore(any)   {}

// buildRig wires a world without starting anything: the store is empty and no
// event is on the agenda yet.
func buildRig(t *testing.T, kind api.Kind, cfg Config) *rig {
	t.Helper()
	k := sim.New(1)
	store := apistore.New(apistore.Options{Now: k.Wall, Rand: k.Rand()})
	srv := apistore.NewServer("apiserver", store, apistore.ServerConfig{})
	pods := informer.New(informer.Config{Name: "informer/pods", Kind: api.KindPod, Server: srv}, k)
	owners := informer.New(informer.Config{Name: "informer/" + kind.Resource(), Kind: kind, Server: srv}, k)
	cfg.Kind, cfg.Server, cfg.Pods, cfg.Owners = kind, srv, pods, owners
	m := New(cfg, k)
	require.NoError(t, k.Register("apiserver", srv))
	require.NoError(t, k.Register("kubectl", kubectl{}))
	require.NoError(t, k.Register(pods.Name(), pods))
	require.NoError(t, k.Register(owners.Name(), owners))
	for _, c := range m.Components() {
		require.NoError(t, k.Register(c.Name, c.Component))
	}
	return &rig{t: t, k: k, srv: srv, pods: pods, rss: owners, m: m}
}

// start registers the manager's handlers and starts the informers: their
// first lists are the first events on the agenda.
func (r *rig) start() {
	require.NoError(r.t, r.m.Start())
	r.pods.Start()
	r.rss.Start()
}

// newRig returns a started world with an empty store, settled.
func newRig(t *testing.T, kind api.Kind, cfg Config) *rig {
	t.Helper()
	r := buildRig(t, kind, cfg)
	r.start()
	r.settle()
	return r
}

// startRig returns a world whose store seed filled before the informers
// listed it, stepped just far enough that both caches hold what seed wrote
// and the manager has started its workers, but no sync has run yet. It is
// how a test reproduces upstream's tests that fill the informers' indexers
// and then call syncReplicaSet: the first sync of a key (r.syncOnce) sees
// exactly the seeded state.
func startRig(t *testing.T, kind api.Kind, cfg Config, seed func(r *rig)) *rig {
	t.Helper()
	r := buildRig(t, kind, cfg)
	if seed != nil {
		seed(r)
	}
	r.start()
	r.stepUntil("the manager starts its workers", func() bool { return r.m.View().Started })
	require.Zero(t, r.m.Syncs(), "no sync may run before the workers start")
	return r
}

func (r *rig) do(req apistore.Request) { r.srv.Send(r.k, "kubectl", req) }

// step runs one event, recording it in the trace and keeping every answer a
// worker receives.
func (r *rig) step() sim.StepResult {
	r.t.Helper()
	res, ok := r.k.Step()
	require.True(r.t, ok, "the agenda is empty")
	r.trace = append(r.trace, res)
	if res.Event.Kind == apistore.EventResponse && isWorker(res.Event.To) {
		r.replies = append(r.replies, res.Event.Data.(*apistore.Reply))
	}
	return res
}

func isWorker(component string) bool { return strings.Contains(component, "-worker-") }

// settle steps until nothing but background work is left.
func (r *rig) settle() {
	r.t.Helper()
	for n := 0; r.k.Busy(); n++ {
		require.Less(r.t, n, 100000, "the world does not settle")
		r.step()
	}
}

// stepUntil steps until done holds (checked before every step).
func (r *rig) stepUntil(what string, done func() bool) {
	r.t.Helper()
	for n := 0; !done(); n++ {
		require.Less(r.t, n, 100000, "never happened: "+what)
		require.True(r.t, r.k.Pending(), "the agenda ran dry before: "+what)
		r.step()
	}
}

// syncOnce puts key on the queue and steps until the manager has finished one
// more sync of it, and returns that sync. It is the running-manager form of
// upstream's direct call of syncReplicaSet (or of processNextWorkItem: the
// worker's Forget or AddRateLimited and Done have run when it returns). Call
// it on a world at rest, or on one from startRig, so that the caches are not
// behind the store; it stops right after the sync, with whatever the sync
// caused (watch events, a requeue) still on the agenda.
func (r *rig) syncOnce(key string) SyncRecord {
	r.t.Helper()
	before, _ := r.m.LastSync(key)
	r.m.Queue().Add(key)
	r.stepUntil("a sync of "+key, func() bool {
		rec, ok := r.m.LastSync(key)
		return ok && rec.Seq > before.Seq
	})
	rec, _ := r.m.LastSync(key)
	return rec
}

func (r *rig) traceText() string {
	var b strings.Builder
	for _, s := range r.trace {
		b.WriteString(s.TraceLine())
		b.WriteByte('\n')
	}
	return b.String()
}

// The API requests the manager's workers sent, counted as upstream's
// FakePodControl and fake clientset count them.

// mark returns the current end of the server's request log, for tally.
func (r *rig) mark() int { return len(r.srv.Requests()) }

// tally counts the requests the workers sent that reached the server since
// mark.
type tally struct {
	creates, deletes, patches int // on pods
	gets, statusPuts          int // on the owner kind
	other                     []string
}

func (r *rig) tally(since int) tally {
	var out tally
	owner := r.m.Kind().Resource()
	for _, rec := range r.srv.Requests()[since:] {
		if !isWorker(rec.From) {
			continue
		}
		switch {
		case rec.Verb == apistore.VerbCreate && rec.Resource == "pods":
			out.creates++
		case rec.Verb == apistore.VerbDelete && rec.Resource == "pods":
			out.deletes++
		case rec.Verb == apistore.VerbPatch && rec.Resource == "pods":
			out.patches++
		case rec.Verb == apistore.VerbGet && rec.Resource == owner:
			out.gets++
		case rec.Verb == apistore.VerbUpdate && rec.Resource == owner+"/status":
			out.statusPuts++
		default:
			out.other = append(out.other, string(rec.Verb)+" "+rec.Resource)
		}
	}
	return out
}

// workerRequests returns the requests the workers sent since mark.
func (r *rig) workerRequests(since int) []apistore.RequestRecord {
	var out []apistore.RequestRecord
	for _, rec := range r.srv.Requests()[since:] {
		if isWorker(rec.From) {
			out = append(out, rec)
		}
	}
	return out
}

// Faults and expectations.

// addFault adds a fault rule to the store, failing the test if it is refused.
func (r *rig) addFault(rule apistore.FaultRule) {
	r.t.Helper()
	_, err := r.srv.Store().Faults().Add(rule)
	require.NoError(r.t, err)
}

// expectations returns the key's counts of creations and deletions still
// expected, failing the test if the key has no record.
func (r *rig) expectations(key string) (add, del int64) {
	r.t.Helper()
	add, del, ok := r.m.Expectations().GetExpectations(key)
	require.True(r.t, ok, "no expectations for "+key)
	return add, del
}

func (r *rig) fulfilled(key string) bool {
	r.t.Helper()
	v, ok := r.m.Expectations().View(key)
	require.True(r.t, ok, "no expectations for "+key)
	return v.Fulfilled
}

func (r *rig) hasExpectations(key string) bool {
	_, _, ok := r.m.Expectations().GetExpectations(key)
	return ok
}

// Fixtures. Every object lives in namespace "default".

var fooBar = map[string]string{"foo": "bar"}

func newRS(name string, replicas int32, sel map[string]string) *api.ReplicaSet {
	return &api.ReplicaSet{
		Metadata: api.ObjectMeta{Namespace: "default", Name: name},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: maps.Clone(sel)},
			Template: api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: maps.Clone(sel)},
				Spec:     api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
			},
		},
	}
}

func newRC(name string, replicas int32, sel map[string]string) *api.ReplicationController {
	return &api.ReplicationController{
		Metadata: api.ObjectMeta{Namespace: "default", Name: name},
		Spec: api.ReplicationControllerSpec{
			Replicas: &replicas,
			Selector: maps.Clone(sel),
			Template: &api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: maps.Clone(sel)},
				Spec:     api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
			},
		},
	}
}

// newPod is a pod with the given labels and no owner.
func newPod(name string, labels map[string]string) *api.Pod {
	return &api.Pod{
		Metadata: api.ObjectMeta{Namespace: "default", Name: name, Labels: maps.Clone(labels)},
		Spec:     api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
	}
}

// ownedPod is a pod carrying rs's selector labels and a controller reference
// to rs, which must have its UID (read it back from the store).
func ownedPod(name string, rs *api.ReplicaSet) *api.Pod {
	p := newPod(name, rs.Spec.Selector.MatchLabels)
	p.Metadata.OwnerReferences = []api.OwnerReference{api.NewControllerRef(&rs.Metadata, "apps/v1", "ReplicaSet")}
	return p
}

// Writing the store directly. Before the informers start (in startRig's
// seed) the informers' first lists pick it up. After that, a direct write
// reaches no watcher until some later request of the same kind goes through
// the server, which then sends every event since the watcher's cursor: tests
// use that to make the API server and a cache disagree.

// storeRS creates rs and returns it as stored, with its UID.
func (r *rig) storeRS(rs *api.ReplicaSet) *api.ReplicaSet {
	r.t.Helper()
	obj, err := r.srv.Store().Create(rs)
	require.NoError(r.t, err)
	return obj.(*api.ReplicaSet)
}

// storeRSStatus writes rs's status through the status subresource (the
// store resets status on create) and returns the ReplicaSet as stored.
func (r *rig) storeRSStatus(name string, status api.ReplicaSetStatus) *api.ReplicaSet {
	r.t.Helper()
	rs := r.getRS(name).DeepCopy()
	rs.Status = status
	obj, err := r.srv.Store().UpdateStatus(rs)
	require.NoError(r.t, err)
	return obj.(*api.ReplicaSet)
}

// storePod creates the pod and then gives it phase through the status
// subresource, since a created pod is always Pending. A Running pod is Ready
// since now.
func (r *rig) storePod(p *api.Pod, phase string) *api.Pod {
	r.t.Helper()
	obj, err := r.srv.Store().Create(p)
	require.NoError(r.t, err)
	pod := obj.(*api.Pod)
	if phase == "" || phase == api.PodPending {
		return pod
	}
	pod = pod.DeepCopy()
	pod.Status.Phase = phase
	if phase == api.PodRunning {
		pod.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(r.k.Wall())}}
	}
	obj, err = r.srv.Store().UpdateStatus(pod)
	require.NoError(r.t, err)
	return obj.(*api.Pod)
}

func (r *rig) getRS(name string) *api.ReplicaSet {
	r.t.Helper()
	o, ok := r.srv.Store().Object(api.KindReplicaSet, "default", name)
	require.True(r.t, ok, "no ReplicaSet "+name)
	return o.(*api.ReplicaSet)
}

// scaleRS sends an update of the ReplicaSet's spec.replicas, as kubectl
// scale does.
func (r *rig) scaleRS(name string, replicas int32) {
	rs := r.getRS(name).DeepCopy()
	rs.Spec.Replicas = &replicas
	rs.Metadata.ResourceVersion = ""
	r.do(apistore.Request{Verb: apistore.VerbUpdate, Kind: api.KindReplicaSet, Object: rs})
}

// podsOwnedBy returns the pods in the store controlled by the owner named
// name that are not being deleted.
func (r *rig) podsOwnedBy(name string) []*api.Pod {
	var out []*api.Pod
	for _, o := range r.srv.Store().Objects(api.KindPod, "default") {
		p := o.(*api.Pod)
		if ref := api.GetControllerOf(&p.Metadata); ref != nil && ref.Name == name && p.Metadata.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out
}

// cachedPodsOwnedBy is podsOwnedBy over the pod informer's cache: what the
// manager sees.
func (r *rig) cachedPodsOwnedBy(name string) []*api.Pod {
	var out []*api.Pod
	for _, o := range r.pods.Lister().List("default", everything) {
		p := o.(*api.Pod)
		if ref := api.GetControllerOf(&p.Metadata); ref != nil && ref.Name == name && IsPodActive(p) {
			out = append(out, p)
		}
	}
	return out
}

func (r *rig) rsStatus(name string) api.ReplicaSetStatus { return r.getRS(name).Status }

func TestSmokeScaleUpFromZero(t *testing.T) {
	r := newRig(t, api.KindReplicaSet, Config{})
	r.do(apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindReplicaSet, Object: newRS("web", 5, map[string]string{"app": "web"})})
	r.settle()
	t.Log("\n" + r.traceText())
	require.Len(t, r.podsOwnedBy("web"), 5)
	require.Equal(t, int32(5), r.rsStatus("web").Replicas)
}
