package apistore

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sim"
)

// client is a test component that records the replies it receives.
type client struct{ replies []*Reply }

func (c *client) Handle(ctx *sim.Context, ev sim.Event) sim.Report {
	r := ev.Data.(*Reply)
	c.replies = append(c.replies, r)
	return sim.Report{Actor: "client", Summary: sim.Text("got " + r.Response.Outcome() + " for " + r.Request.String())}
}
func (c *client) Snapshot() any { return append([]*Reply(nil), c.replies...) }
func (c *client) Restore(v any) { c.replies = append([]*Reply(nil), v.([]*Reply)...) }

// watcher is a test component that records the watch events it receives.
type watcher struct {
	events []string
	opened []*Reply
}

func (w *watcher) Handle(ctx *sim.Context, ev sim.Event) sim.Report {
	switch d := ev.Data.(type) {
	case *WatchDelivery:
		m := d.Event.Object.Meta()
		w.events = append(w.events, string(d.Event.Type)+" "+m.Name+"@"+m.ResourceVersion)
		return sim.Report{Actor: "watcher", Summary: sim.Text("heard " + string(d.Event.Type) + " " + m.Name)}
	case *Reply:
		w.opened = append(w.opened, d)
		return sim.Report{Actor: "watcher", Summary: sim.Text("watch " + d.Response.Outcome())}
	}
	return sim.Report{}
}
func (w *watcher) Snapshot() any {
	return [2]any{append([]string(nil), w.events...), append([]*Reply(nil), w.opened...)}
}
func (w *watcher) Restore(v any) {
	s := v.([2]any)
	w.events = append([]string(nil), s[0].([]string)...)
	w.opened = append([]*Reply(nil), s[1].([]*Reply)...)
}

type testWorld struct {
	k      *sim.Kernel
	srv    *Server
	client *client
	watch  *watcher
}

func newTestWorld(t *testing.T, seed uint64) *testWorld {
	t.Helper()
	k := sim.New(seed)
	store := New(Options{Now: k.Wall, Rand: k.Rand()})
	w := &testWorld{k: k, srv: NewServer("apiserver", store, ServerConfig{}), client: &client{}, watch: &watcher{}}
	require.NoError(t, k.Register("apiserver", w.srv))
	require.NoError(t, k.Register("client", w.client))
	require.NoError(t, k.Register("watcher", w.watch))
	return w
}

func bareRSPod(prefix string) *api.Pod {
	return &api.Pod{
		Metadata: api.ObjectMeta{GenerateName: prefix, Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec:     api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
	}
}

func (w *testWorld) send(req Request) uint64 { return w.srv.Send(w.k, "client", req) }

func (w *testWorld) stabilize(t *testing.T) []sim.StepResult {
	t.Helper()
	var out []sim.StepResult
	for w.k.Busy() {
		res, ok := w.k.Step()
		require.True(t, ok)
		out = append(out, res.Kept())
		require.NoError(t, w.srv.Store().CheckInvariants())
	}
	return out
}

func TestServerRequestAndResponseAreSeparateEvents(t *testing.T) {
	w := newTestWorld(t, 1)
	id := w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: bareRSPod("web-")})
	steps := w.stabilize(t)
	require.Len(t, steps, 2, "the request reaching the server, then the response reaching the client")

	assert.Equal(t, "apiserver", steps[0].Actor)
	assert.Equal(t, time.Millisecond, steps[0].At)
	assert.Equal(t, "registry.Create", steps[0].Models)
	assert.Regexp(t, `^create pods default/web-[a-z0-9]{5} from client: ok \(resourceVersion 1\)$`, steps[0].Summary.String())
	require.Len(t, steps[0].Touched, 1)
	assert.Equal(t, "pod", steps[0].Touched[0].Kind)

	assert.Equal(t, "client", steps[1].Actor)
	assert.Equal(t, 2*time.Millisecond, steps[1].At)
	require.Len(t, w.client.replies, 1)
	assert.Equal(t, id, w.client.replies[0].ID)
	assert.NoError(t, w.client.replies[0].Response.Err)
}

func TestServerLatenciesAreConfigurable(t *testing.T) {
	w := newTestWorld(t, 1)
	w.srv.SetConfig(ServerConfig{Latency: 5 * time.Millisecond, WatchLatency: 20 * time.Millisecond})
	w.srv.Send(w.k, "watcher", Request{Verb: VerbWatch, Kind: api.KindPod})
	w.stabilize(t)
	start := w.k.Now()
	w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: bareRSPod("web-")})
	steps := w.stabilize(t)
	require.Len(t, steps, 3)
	assert.Equal(t, start+5*time.Millisecond, steps[0].At, "request")
	assert.Equal(t, start+10*time.Millisecond, steps[1].At, "response")
	assert.Equal(t, start+25*time.Millisecond, steps[2].At, "watch event")
	assert.Equal(t, "watcher", steps[2].Actor)
}

func TestServerWatchDeliversBacklogThenLiveEventsInOrder(t *testing.T) {
	w := newTestWorld(t, 1)
	w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: bareRSPod("a-")})
	w.stabilize(t)
	// Watch from 0: the create already happened and is delivered as backlog.
	w.srv.Send(w.k, "watcher", Request{Verb: VerbWatch, Kind: api.KindPod})
	w.stabilize(t)
	require.Len(t, w.watch.opened, 1)
	require.NoError(t, w.watch.opened[0].Response.Err)
	require.Len(t, w.watch.events, 1)
	assert.True(t, strings.HasPrefix(w.watch.events[0], "ADDED a-"))

	name := w.client.replies[0].Response.Object.Meta().Name
	w.send(Request{Verb: VerbPatch, Kind: api.KindPod, Namespace: "default", Name: name,
		Patch: &MetaPatch{SetLabels: map[string]string{"tier": "front"}}})
	zero := int64(0)
	w.send(Request{Verb: VerbDelete, Kind: api.KindPod, Namespace: "default", Name: name,
		DeleteOptions: &DeleteOptions{GracePeriodSeconds: &zero}})
	w.stabilize(t)
	// A delete with grace 0 first marks the pod (deletionTimestamp set) and then
	// removes it, as upstream's registry does: two events.
	assert.Equal(t, []string{"ADDED " + name + "@1", "MODIFIED " + name + "@2", "MODIFIED " + name + "@3", "DELETED " + name + "@4"}, w.watch.events)
}

func TestServerWatchIsScopedToKindAndNamespace(t *testing.T) {
	w := newTestWorld(t, 1)
	w.srv.Send(w.k, "watcher", Request{Verb: VerbWatch, Kind: api.KindPod, Namespace: "team-a"})
	w.stabilize(t)
	w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: bareRSPod("in-default-")})
	other := bareRSPod("in-team-a-")
	other.Metadata.Namespace = "team-a"
	w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: other})
	w.send(Request{Verb: VerbCreate, Kind: api.KindNode, Object: &api.Node{Metadata: api.ObjectMeta{Name: "node-1"}}})
	w.stabilize(t)
	require.Len(t, w.watch.events, 1)
	assert.Contains(t, w.watch.events[0], "in-team-a-")
}

func TestServerClosedWatchGetsNothingMore(t *testing.T) {
	w := newTestWorld(t, 1)
	w.srv.Send(w.k, "watcher", Request{Verb: VerbWatch, Kind: api.KindPod})
	w.stabilize(t)
	ids := w.srv.Watches("watcher")
	require.Len(t, ids, 1)
	w.srv.CloseWatch(ids[0])
	assert.Empty(t, w.srv.Watches("watcher"))
	w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: bareRSPod("web-")})
	w.stabilize(t)
	assert.Empty(t, w.watch.events)
}

func TestServerWatchFromExpiredVersionFails(t *testing.T) {
	k := sim.New(1)
	store := New(Options{Now: k.Wall, Rand: k.Rand(), WatchWindow: 2})
	srv := NewServer("apiserver", store, ServerConfig{})
	wt := &watcher{}
	require.NoError(t, k.Register("apiserver", srv))
	require.NoError(t, k.Register("watcher", wt))
	require.NoError(t, k.Register("client", &client{}))
	for i := 0; i < 5; i++ {
		srv.Send(k, "client", Request{Verb: VerbCreate, Kind: api.KindPod, Object: bareRSPod("web-")})
	}
	srv.Send(k, "watcher", Request{Verb: VerbWatch, Kind: api.KindPod, ListOptions: &ListOptions{ResourceVersion: 1}})
	_, err := k.Stabilize(sim.Limits{})
	require.NoError(t, err)
	require.Len(t, wt.opened, 1)
	assert.True(t, IsExpired(wt.opened[0].Response.Err), "got %v", wt.opened[0].Response.Err)
	assert.Empty(t, srv.Watches("watcher"), "an expired watch is not opened")
}

func TestServerEndsGracePeriods(t *testing.T) {
	w := newTestWorld(t, 1)
	pod := bareRSPod("web-")
	pod.Spec.NodeName = "node-1" // a scheduled pod is deleted gracefully
	w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: pod})
	w.stabilize(t)
	name := w.client.replies[0].Response.Object.Meta().Name

	w.send(Request{Verb: VerbDelete, Kind: api.KindPod, Namespace: "default", Name: name})
	w.stabilize(t)
	_, ok := w.srv.Store().Object(api.KindPod, "default", name)
	assert.False(t, ok, "removed when the 30s grace period ended")
	// The deletionTimestamp is now+30s truncated to the second, as the API's
	// wire format stores it: the delete arrived at 3ms, so the deadline is 30s.
	assert.Equal(t, 30*time.Second, w.k.Now(), "at the deletionTimestamp")
}

// The removal at the end of a grace period models the kubelet's final
// delete, a request like any other: an injected fault may fail it. It used to
// be taken for "already gone" and never tried again, leaving the pod
// Terminating for ever (and, with its owner deleted, dangling: the garbage
// collector leaves a pod being deleted alone). Now it is tried again after
// GraceRetryPeriod, as the kubelet's status manager does; a NotFound, or a
// uid precondition that fails because another pod took the name, ends it.
func TestServerRetriesAGraceEndRemovalThatFailed(t *testing.T) {
	for _, fault := range []FaultKind{FaultServer, FaultUnavailable, FaultConflict} {
		t.Run(string(fault), func(t *testing.T) {
			w := newTestWorld(t, 1)
			pod := bareRSPod("web-")
			pod.Spec.NodeName = "node-1"
			w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: pod})
			w.stabilize(t)
			name := w.client.replies[0].Response.Object.Meta().Name
			// The client's delete goes through; the removal at the end of the
			// grace period fails, and so does its first retry.
			_, err := w.srv.Store().Faults().Add(FaultRule{Verb: VerbDelete, Resource: "pods", After: 1, Count: 2, Error: fault})
			require.NoError(t, err)
			w.send(Request{Verb: VerbDelete, Kind: api.KindPod, Namespace: "default", Name: name})
			var summaries []string
			for _, s := range w.stabilize(t) {
				summaries = append(summaries, s.Summary.String())
			}
			_, ok := w.srv.Store().Object(api.KindPod, "default", name)
			assert.False(t, ok, "removed in the end: %q", summaries)
			assert.Equal(t, 30*time.Second+2*GraceRetryPeriod, w.k.Now(), "at the second retry")
			joined := strings.Join(summaries, "\n")
			assert.Equal(t, 2, strings.Count(joined, "but removing it failed"), joined)
			assert.Contains(t, joined, "removing pod/"+name+" again after its grace period ended: removed")
			assert.NotContains(t, joined, "already gone")
			assert.Zero(t, w.srv.Store().Faults().Len(), "both failures were used up")
		})
	}
}

func TestServerCancelsGraceEndWhenPodGoesEarlier(t *testing.T) {
	w := newTestWorld(t, 1)
	pod := bareRSPod("web-")
	pod.Spec.NodeName = "node-1"
	w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: pod})
	w.stabilize(t)
	name := w.client.replies[0].Response.Object.Meta().Name
	w.send(Request{Verb: VerbDelete, Kind: api.KindPod, Namespace: "default", Name: name})
	w.k.Advance(10 * time.Millisecond)
	zero := int64(0)
	w.send(Request{Verb: VerbDelete, Kind: api.KindPod, Namespace: "default", Name: name,
		DeleteOptions: &DeleteOptions{GracePeriodSeconds: &zero}})
	steps := w.stabilize(t)
	for _, s := range steps {
		assert.NotContains(t, s.Summary.String(), "grace period", "the grace-end event was cancelled")
	}
	assert.Less(t, w.k.Now(), time.Second)
}

func TestServerRequestLog(t *testing.T) {
	w := newTestWorld(t, 1)
	_, err := w.srv.Store().Faults().Add(FaultRule{Verb: VerbCreate, Resource: "pods", Count: 1, Error: FaultQuota})
	require.NoError(t, err)
	w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: bareRSPod("web-")})
	w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: bareRSPod("web-")})
	w.send(Request{Verb: VerbGet, Kind: api.KindPod, Namespace: "default", Name: "nope"})
	steps := w.stabilize(t)
	log := w.srv.Requests()
	require.Len(t, log, 3)
	assert.Equal(t, "Forbidden", log[0].Outcome)
	require.NotNil(t, log[0].Fault)
	assert.Contains(t, steps[0].Summary.String(), "(injected fault)")
	assert.Equal(t, "ok", log[1].Outcome)
	assert.Nil(t, log[1].Fault)
	assert.Equal(t, "NotFound", log[2].Outcome)
	assert.Equal(t, "default/nope", log[2].Key)
	assert.Equal(t, "pods", log[2].Resource)
	assert.Equal(t, VerbGet, log[2].Verb)
}

// TestServerRequestLogAcrossARestore: the log keeps what repeats in a table
// that a restore does not roll back. Requests of shapes first seen after a
// snapshot, then rewound and followed by requests of other shapes, must
// read back as the requests received on the new path, in order.
func TestServerRequestLogAcrossARestore(t *testing.T) {
	w := newTestWorld(t, 1)
	w.send(Request{Verb: VerbGet, Kind: api.KindPod, Namespace: "default", Name: "a"})
	w.stabilize(t)
	snap, err := w.k.Snapshot()
	require.NoError(t, err)
	w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: bareRSPod("web-")})
	w.send(Request{Verb: VerbList, Kind: api.KindReplicaSet, Namespace: "default"})
	w.stabilize(t)
	require.Len(t, w.srv.Requests(), 3)

	require.NoError(t, w.k.Restore(snap))
	require.Len(t, w.srv.Requests(), 1, "the restore rewound the log")
	w.send(Request{Verb: VerbDelete, Kind: api.KindPod, Namespace: "default", Name: "b"})
	w.send(Request{Verb: VerbList, Kind: api.KindReplicaSet, Namespace: "default"})
	w.stabilize(t)

	type line struct{ verb, resource, key, outcome string }
	var got []line
	for _, r := range w.srv.Requests() {
		got = append(got, line{string(r.Verb), r.Resource, r.Key, r.Outcome})
	}
	assert.Equal(t, []line{
		{"get", "pods", "default/a", "NotFound"},
		{"delete", "pods", "default/b", "NotFound"},
		{"list", "replicasets", "default", "ok"},
	}, got)
}

func TestServerDescribesPendingEvents(t *testing.T) {
	w := newTestWorld(t, 1)
	w.send(Request{Verb: VerbGet, Kind: api.KindPod, Namespace: "default", Name: "x"})
	agenda := w.k.Agenda()
	require.Len(t, agenda, 1)
	assert.Equal(t, "get pods default/x from client reaches apiserver", w.k.Describe(agenda[0]))
}

// script drives a small world: bare pods created with generateName, relabelled
// and deleted, watched throughout. It is the scripted world of the determinism
// tests below.
func script(t *testing.T, w *testWorld, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		switch i % 4 {
		case 0, 1:
			w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: bareRSPod("web-")})
		case 2:
			if n := len(w.client.replies); n > 0 && w.client.replies[n-1].Response.Object != nil {
				name := w.client.replies[n-1].Response.Object.Meta().Name
				w.send(Request{Verb: VerbPatch, Kind: api.KindPod, Namespace: "default", Name: name,
					Patch: &MetaPatch{SetLabels: map[string]string{"step": strings.Repeat("x", i%7+1)}}})
			}
		case 3:
			if n := len(w.client.replies); n > 1 && w.client.replies[n-2].Response.Object != nil {
				name := w.client.replies[n-2].Response.Object.Meta().Name
				w.send(Request{Verb: VerbDelete, Kind: api.KindPod, Namespace: "default", Name: name})
			}
		}
		res, ok := w.k.Step()
		if ok {
			require.NoError(t, w.srv.Store().CheckInvariants(), "step %d: %s", res.N, res.TraceLine())
		}
	}
}

func TestScriptedWorldIsDeterministic(t *testing.T) {
	run := func(seed uint64) (*testWorld, []string) {
		w := newTestWorld(t, seed)
		w.srv.Send(w.k, "watcher", Request{Verb: VerbWatch, Kind: api.KindPod})
		script(t, w, 0, 300)
		w.stabilize(t)
		var names []string
		for _, obj := range w.srv.Store().Objects(api.KindPod, "") {
			names = append(names, obj.Meta().Name)
		}
		return w, names
	}
	a, namesA := run(11)
	b, namesB := run(11)
	assert.Equal(t, a.k.Hash(), b.k.Hash(), "one seed, one trace")
	assert.Equal(t, namesA, namesB)
	assert.Equal(t, a.watch.events, b.watch.events)

	c, namesC := run(12)
	assert.NotEqual(t, namesA, namesC, "another seed draws other generated names")
	assert.NotEqual(t, a.k.Hash(), c.k.Hash())
}

func TestSnapshotRestoreReplayOfAWorld(t *testing.T) {
	ref := newTestWorld(t, 5)
	ref.srv.Send(ref.k, "watcher", Request{Verb: VerbWatch, Kind: api.KindPod})
	script(t, ref, 0, 400)
	want := ref.k.Hash()
	wantEvents := append([]string(nil), ref.watch.events...)

	w := newTestWorld(t, 5)
	w.srv.Send(w.k, "watcher", Request{Verb: VerbWatch, Kind: api.KindPod})
	script(t, w, 0, 150)
	snap, err := w.k.Snapshot()
	require.NoError(t, err)
	script(t, w, 150, 400)
	require.Equal(t, want, w.k.Hash())

	for range 2 { // the same snapshot serves any number of seeks
		require.NoError(t, w.k.Restore(snap))
		require.NoError(t, w.srv.Store().CheckInvariants())
		script(t, w, 150, 400)
		assert.Equal(t, want, w.k.Hash(), "restore then replay the same inputs: the uninterrupted run's hash")
		assert.Equal(t, wantEvents, w.watch.events)
	}
}

// TestWhenWrittenRunsInTheStepOfAWrite: a hook of a kind runs inside the
// step that stored a change of that kind, and only then: not for reads,
// not for other kinds, not for a write that changed nothing.
func TestWhenWrittenRunsInTheStepOfAWrite(t *testing.T) {
	w := newTestWorld(t, 1)
	var at []uint64
	w.srv.WhenWritten(api.KindReplicaSet, func(sim.Scheduler) { at = append(at, w.k.Steps()) })
	w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: bareRSPod("web-")})
	w.stabilize(t)
	assert.Empty(t, at, "a pod is not a ReplicaSet")
	one := int32(1)
	rs := &api.ReplicaSet{Metadata: api.ObjectMeta{Namespace: "default", Name: "web"},
		Spec: api.ReplicaSetSpec{Replicas: &one, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{Metadata: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}}}}}
	w.send(Request{Verb: VerbCreate, Kind: api.KindReplicaSet, Object: rs})
	steps := w.stabilize(t)
	require.Equal(t, []uint64{steps[0].N}, at, "the hook ran in the step that served the create")
	w.send(Request{Verb: VerbGet, Kind: api.KindReplicaSet, Namespace: "default", Name: "web"})
	w.send(Request{Verb: VerbPatch, Kind: api.KindReplicaSet, Namespace: "default", Name: "web", Patch: &MetaPatch{}})
	w.stabilize(t)
	assert.Len(t, at, 1, "neither a read nor a write that changed nothing runs it")
}

// TestARequestStepSaysWhatHappenedWithoutWritingIt: a request's step says
// who asked what and how it went, and saying it allocates nothing, since
// every request is a step and almost none is read.
func TestARequestStepSaysWhatHappenedWithoutWritingIt(t *testing.T) {
	create := Request{Verb: VerbCreate, Kind: api.KindPod, Namespace: "default"}
	list := Request{Verb: VerbList, Kind: api.KindPod}
	watch := Request{Verb: VerbWatch, Kind: api.KindPod, ListOptions: &ListOptions{ResourceVersion: 7}}
	status := Request{Verb: VerbUpdate, Kind: api.KindReplicaSet, Subresource: SubresourceStatus}
	del := Request{Verb: VerbDelete, Kind: api.KindPod}
	conflict := newConflict("", "pods", "web-1", "the object has been modified")
	for _, c := range []struct {
		req  Request
		resp Response
		key  string
		want string
	}{
		{create, Response{ResourceVersion: 12, Events: make([]WatchEvent, 1)}, "default/web-1",
			"create pods default/web-1 from rs-worker-1: ok (resourceVersion 12)"},
		{create, Response{}, "default/web-1", "create pods default/web-1 from rs-worker-1: ok, nothing changed"},
		{Request{Verb: VerbGet, Kind: api.KindPod}, Response{}, "default/web-1", "get pods default/web-1 from rs-worker-1: ok"},
		{list, Response{Items: make([]api.Object, 3), ResourceVersion: 9}, "", "list pods from rs-worker-1: 3 items at resourceVersion 9"},
		{watch, Response{Events: make([]WatchEvent, 2)}, "", "watch pods from rs-worker-1: watch opened from resourceVersion 7 (2 events to catch up)"},
		{status, Response{ResourceVersion: 4, Events: make([]WatchEvent, 1)}, "default/web",
			"update replicasets/status default/web from rs-worker-1: ok (resourceVersion 4)"},
		{del, Response{ResourceVersion: 5, Deleted: true}, "default/web-1", "delete pods default/web-1 from rs-worker-1: removed (resourceVersion 5)"},
		{del, Response{ResourceVersion: 6}, "default/web-1", "delete pods default/web-1 from rs-worker-1: marked for deletion (resourceVersion 6)"},
	} {
		var s sim.Sentence
		allocs := testing.AllocsPerRun(10, func() { s = describe(&c.req, &c.resp, c.req.Resource(), c.key, "rs-worker-1") })
		assert.Equal(t, c.want, s.String())
		assert.Zero(t, allocs, c.want)
	}
	failed := describe(&create, &Response{Err: conflict, Fault: &FaultRule{}}, create.Resource(), "default/web-1", "rs-worker-1")
	assert.Equal(t, "create pods default/web-1 from rs-worker-1: Conflict (injected fault): "+conflict.Error(), failed.String())
}

// TestServerFanOutFollowsTheOpenWatches: a write reaches the open watches
// of its kind, in the order they were opened, and no more of them once one
// is closed, or once a restore goes back to before they were opened.
func TestServerFanOutFollowsTheOpenWatches(t *testing.T) {
	w := newTestWorld(t, 1)
	snap, err := w.k.Snapshot()
	require.NoError(t, err)
	w.srv.Send(w.k, "watcher", Request{Verb: VerbWatch, Kind: api.KindNode})
	w.srv.Send(w.k, "watcher", Request{Verb: VerbWatch, Kind: api.KindPod})
	w.srv.Send(w.k, "watcher", Request{Verb: VerbWatch, Kind: api.KindPod})
	w.stabilize(t)
	w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: bareRSPod("web-")})
	w.stabilize(t)
	require.Len(t, w.watch.events, 2, "both pod watches, not the node watch")

	w.srv.CloseWatch(w.srv.Watches("watcher")[1])
	w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: bareRSPod("web-")})
	w.stabilize(t)
	require.Len(t, w.watch.events, 3, "the pod watch left open")

	require.NoError(t, w.k.Restore(snap))
	w.send(Request{Verb: VerbCreate, Kind: api.KindPod, Object: bareRSPod("web-")})
	w.stabilize(t)
	assert.Empty(t, w.watch.events, "no watch was open at the snapshot")
}
