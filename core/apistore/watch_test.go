package apistore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sim"
)

func TestWatchDeliversEveryChangeInOrder(t *testing.T) {
	h := newHarness(t)
	web := map[string]string{"app": "web"}
	h.create(newPod("default", "a", web))                       // 1
	h.create(newRS("default", "web", 1, web))                   // 2 (another kind)
	b := h.create(newPod("default", "b", web)).(*api.Pod)       // 3
	_, err := h.s.Patch(api.KindPod, "default", "a", MetaPatch{ // 4
		SetLabels: map[string]string{"x": "y"}})
	require.NoError(t, err)
	h.create(newPod("other", "c", web))                   // 5
	_, err = h.s.Delete(api.KindPod, "default", "a", nil) // 6 MODIFIED, 7 DELETED (unscheduled)
	require.NoError(t, err)
	bIn := b.DeepCopy()
	bIn.Status.Phase = api.PodRunning
	_, err = h.s.UpdateStatus(bIn) // 8
	require.NoError(t, err)
	h.check()

	events, err := h.s.Watch(api.KindPod, "", 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"ADDED a", "ADDED b", "MODIFIED a", "ADDED c", "MODIFIED a", "DELETED a", "MODIFIED b"},
		eventTypes(events))
	var rvs []uint64
	for _, ev := range events {
		rvs = append(rvs, ev.ResourceVersion)
		assert.Equal(t, u(ev.ResourceVersion), ev.Object.Meta().ResourceVersion)
	}
	assert.Equal(t, []uint64{1, 3, 4, 5, 6, 7, 8}, rvs, "one counter, shared with the ReplicaSet at 2")

	events, err = h.s.Watch(api.KindPod, "", 4)
	require.NoError(t, err)
	assert.Equal(t, []string{"ADDED c", "MODIFIED a", "DELETED a", "MODIFIED b"}, eventTypes(events),
		"from the middle: exactly the events after 4")

	events, err = h.s.Watch(api.KindPod, "default", 2)
	require.NoError(t, err)
	assert.Equal(t, []string{"ADDED b", "MODIFIED a", "MODIFIED a", "DELETED a", "MODIFIED b"}, eventTypes(events),
		"one namespace")

	events, err = h.s.Watch(api.KindPod, "", 8)
	require.NoError(t, err)
	assert.Empty(t, events, "nothing after the newest")

	events, err = h.s.Watch(api.KindReplicaSet, "", 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"ADDED web"}, eventTypes(events))
}

func TestListThenWatchReproducesTheStore(t *testing.T) {
	h := newHarness(t)
	web := map[string]string{"app": "web"}
	h.create(newPod("default", "a", web))
	h.create(newPod("default", "b", web))
	items, rv, err := h.s.List(api.KindPod, "", labels.Everything())
	require.NoError(t, err)

	cache := map[string]api.Object{}
	for _, obj := range items {
		cache[keyOf(obj.Meta())] = obj
	}
	h.create(newPod("default", "c", web))
	_, err = h.s.Delete(api.KindPod, "default", "a", GracePeriod(0))
	require.NoError(t, err)
	_, err = h.s.Patch(api.KindPod, "default", "b", MetaPatch{SetLabels: map[string]string{"v": "2"}})
	require.NoError(t, err)

	events, err := h.s.Watch(api.KindPod, "", rv)
	require.NoError(t, err)
	for _, ev := range events {
		if ev.Type == Deleted {
			delete(cache, keyOf(ev.Object.Meta()))
		} else {
			cache[keyOf(ev.Object.Meta())] = ev.Object
		}
	}
	now, _, err := h.s.List(api.KindPod, "", labels.Everything())
	require.NoError(t, err)
	require.Len(t, cache, len(now))
	for _, obj := range now {
		assert.Same(t, obj, cache[keyOf(obj.Meta())], "the list plus the events after it is the store")
	}
}

func TestWatchFromAForgottenVersionExpires(t *testing.T) {
	h := newHarnessWith(t, Options{WatchWindow: 3})
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		h.create(newPod("default", name, nil)) // 1..5
	}
	h.create(newRS("default", "web", 1, map[string]string{"app": "web"})) // 6, not a pod
	assert.Equal(t, uint64(2), h.s.WatchWindowStart(api.KindPod), "events 1 and 2 are forgotten")

	_, err := h.s.Watch(api.KindPod, "", 1)
	se := statusErr(t, err)
	assert.True(t, IsExpired(err))
	assert.Equal(t, int32(410), se.Code)
	assert.Equal(t, "too old resource version: 1 (2)", se.Message)
	_, err = h.s.EventsSince(api.KindPod, "", 0)
	assert.True(t, IsExpired(err), "0 is the oldest version of all")

	events, err := h.s.Watch(api.KindPod, "", 2)
	require.NoError(t, err, "from the newest forgotten version, nothing is missing")
	assert.Equal(t, []string{"ADDED c", "ADDED d", "ADDED e"}, eventTypes(events))

	events, err = h.s.Watch(api.KindReplicaSet, "", 0)
	require.NoError(t, err, "each kind keeps its own window")
	assert.Len(t, events, 1)

	// The reflector's way out: list again, watch from the list.
	_, rv, err := h.s.List(api.KindPod, "", labels.Everything())
	require.NoError(t, err)
	events, err = h.s.Watch(api.KindPod, "", rv)
	require.NoError(t, err)
	assert.Empty(t, events)
	h.check()

	// Many more writes: the log is compacted behind the scenes and stays exact.
	for i := 0; i < 20; i++ {
		_, err := h.s.Patch(api.KindPod, "default", "e", MetaPatch{SetLabels: map[string]string{"i": u(uint64(i))}})
		require.NoError(t, err)
		h.check()
	}
	events, err = h.s.EventsSince(api.KindPod, "", h.s.ResourceVersion()-3)
	require.NoError(t, err)
	assert.Len(t, events, 3)
}

func TestWatchFromTheFutureTimesOut(t *testing.T) {
	h := newHarness(t)
	h.create(newPod("default", "a", nil))
	_, err := h.s.Watch(api.KindPod, "", 5)
	se := statusErr(t, err)
	assert.True(t, IsTimeout(err))
	assert.Equal(t, "Too large resource version: 5, current: 1", se.Message)
	assert.True(t, HasStatusCause(err, CauseTypeResourceVersionTooLarge))
}

func TestEventsSinceSharesTheLogSafely(t *testing.T) {
	h := newHarness(t)
	h.create(newPod("default", "a", nil))
	h.create(newPod("default", "b", nil))
	events, err := h.s.EventsSince(api.KindPod, "", 0)
	require.NoError(t, err)
	require.Len(t, events, 2)
	assert.Equal(t, len(events), cap(events), "the slice is capped: appending cannot reach the store's log")

	_ = append(events, WatchEvent{Type: Added, Object: newPod("default", "intruder", nil), ResourceVersion: 99})
	h.create(newPod("default", "c", nil))
	all, err := h.s.EventsSince(api.KindPod, "", 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"ADDED a", "ADDED b", "ADDED c"}, eventTypes(all))
	h.check()

	_, err = h.s.EventsSince("Gizmo", "", 0)
	assert.True(t, IsNotFound(err))
}

func TestWritesReportTheirEvents(t *testing.T) {
	h := newHarness(t)
	resp := h.s.Serve(Request{Verb: VerbCreate, Kind: api.KindPod, Object: newPod("default", "a", nil)})
	require.NoError(t, resp.Err)
	assert.Equal(t, []string{"ADDED a"}, eventTypes(resp.Events))
	assert.Same(t, resp.Object, resp.Events[0].Object)
	assert.Equal(t, resp.ResourceVersion, resp.Events[0].ResourceVersion)

	resp = h.s.Serve(Request{Verb: VerbCreate, Kind: api.KindPod, Subresource: SubresourceBinding,
		Namespace: "default", Name: "a", NodeName: "node-1"})
	require.NoError(t, resp.Err)
	assert.Equal(t, []string{"MODIFIED a"}, eventTypes(resp.Events))
	h.check()
}

var formSaw = &sim.Form{Text: "saw " + TypeWords}

func init() { sim.Register(formSaw) }

// TestTypeWordsSayEachEventType: a sentence that names an event by its
// type's choice says the type's own name.
func TestTypeWordsSayEachEventType(t *testing.T) {
	f := formSaw
	for _, typ := range []EventType{Added, Modified, Deleted} {
		assert.Equal(t, "saw "+string(typ), sim.Say(f).With(typ.Choice()).String())
	}
	assert.Equal(t, "saw %![255]", sim.Say(f).With(EventType("BOOKMARK").Choice()).String(), "a type it does not know shows")
}
