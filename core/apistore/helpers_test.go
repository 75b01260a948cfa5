package apistore

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// testClock is a logical clock a test moves by hand. It starts half a second
// after the epoch, so that tests see the store truncate to whole seconds.
type testClock struct{ now time.Time }

func newTestClock() *testClock {
	return &testClock{now: DefaultEpoch.Add(500 * time.Millisecond)}
}

func (c *testClock) Now() time.Time          { return c.now }
func (c *testClock) Advance(d time.Duration) { c.now = c.now.Add(d) }

// harness is a store under test with its clock, and a guard that proves stored
// objects are never changed after they are stored.
type harness struct {
	t     *testing.T
	s     *Store
	clock *testClock
	guard immutabilityGuard
}

func newHarness(t *testing.T) *harness {
	return newHarnessWith(t, Options{})
}

// newHarnessWith fills in a test clock and a seeded source when opts has none.
func newHarnessWith(t *testing.T, opts Options) *harness {
	t.Helper()
	h := &harness{t: t, clock: newTestClock(), guard: immutabilityGuard{}}
	if opts.Now == nil {
		opts.Now = h.clock.Now
	}
	if opts.Rand == nil {
		opts.Rand = rand.New(rand.NewPCG(42, 7))
	}
	h.s = New(opts)
	return h
}

// check runs CheckInvariants and the immutability guard; tests call it after
// every operation.
func (h *harness) check() {
	h.t.Helper()
	require.NoError(h.t, h.s.CheckInvariants())
	h.guard.verify(h.t, h.s)
}

// create creates obj, requires success, checks invariants and returns the
// stored object.
func (h *harness) create(obj api.Object) api.Object {
	h.t.Helper()
	out, err := h.s.Create(obj)
	require.NoError(h.t, err)
	h.check()
	return out
}

// immutabilityGuard remembers a deep copy of every object the store has
// handed out (stored objects and watch-event objects) and fails if any of them
// changes later: the store promises never to change what it stored.
type immutabilityGuard map[api.Object]api.Object

func (g immutabilityGuard) verify(t *testing.T, s *Store) {
	t.Helper()
	see := func(obj api.Object) {
		if obj == nil {
			return
		}
		if copied, ok := g[obj]; ok {
			if !reflect.DeepEqual(copied, obj) {
				t.Fatalf("stored object %s/%s changed after it was stored:\nwas %#v\nnow %#v",
					obj.Meta().Namespace, obj.Meta().Name, copied, obj)
			}
			return
		}
		g[obj] = obj.DeepCopyObject()
	}
	for _, k := range api.Kinds {
		for _, obj := range s.Objects(k, "") {
			see(obj)
		}
		info := infoFor(k)
		ks := &s.kinds[info.index]
		for _, ev := range ks.hist.slice(0) {
			see(ev.Object)
		}
	}
}

// Fixtures. Each returns a valid object that tests change as they need.

func newPod(ns, name string, labels map[string]string) *api.Pod {
	return &api.Pod{
		Metadata: api.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
		Spec:     api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
	}
}

func newGeneratedPod(ns, generateName string, labels map[string]string) *api.Pod {
	p := newPod(ns, "", labels)
	p.Metadata.GenerateName = generateName
	return p
}

func newRS(ns, name string, replicas int32, selector map[string]string) *api.ReplicaSet {
	return &api.ReplicaSet{
		Metadata: api.ObjectMeta{Namespace: ns, Name: name},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: selector},
			Template: api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: selector},
				Spec:     api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
			},
		},
	}
}

func newRC(ns, name string, replicas int32, selector map[string]string) *api.ReplicationController {
	return &api.ReplicationController{
		Metadata: api.ObjectMeta{Namespace: ns, Name: name},
		Spec: api.ReplicationControllerSpec{
			Replicas: &replicas,
			Selector: selector,
			Template: &api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: selector},
				Spec:     api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
			},
		},
	}
}

func newNode(name string) *api.Node {
	return &api.Node{Metadata: api.ObjectMeta{Name: name}}
}

func newEvent(ns, name string) *api.Event {
	return &api.Event{
		Metadata:       api.ObjectMeta{Namespace: ns, Name: name},
		InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: ns, Name: "web-x"},
		Reason:         "Started",
		Message:        "started",
		Type:           api.EventNormal,
		Count:          1,
	}
}

func ptr[T any](v T) *T { return &v }

// controllerRef is the owner reference a ReplicaSet puts on its pods.
func controllerRef(owner api.Object) api.OwnerReference {
	return api.NewControllerRef(owner.Meta(), owner.Kind().APIVersion(), string(owner.Kind()))
}

// statusErr asserts err is a *StatusError and returns it.
func statusErr(t *testing.T, err error) *StatusError {
	t.Helper()
	require.Error(t, err)
	se, ok := err.(*StatusError)
	require.Truef(t, ok, "want a *StatusError, got %T: %v", err, err)
	return se
}

// eventTypes lists the types and names of watch events, for compact asserts:
// "ADDED web", "DELETED web".
func eventTypes(events []WatchEvent) []string {
	out := make([]string, len(events))
	for i, ev := range events {
		out[i] = string(ev.Type) + " " + ev.Object.Meta().Name
	}
	return out
}
