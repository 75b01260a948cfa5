package apistore

import (
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// storeView is everything a client can observe of a store.
type storeView struct {
	rv      uint64
	objects map[api.Kind][]api.Object
	start   map[api.Kind]uint64
	history map[api.Kind][]WatchEvent
	faults  []FaultRule
}

func observe(t *testing.T, s *Store) storeView {
	t.Helper()
	v := storeView{rv: s.ResourceVersion(), objects: map[api.Kind][]api.Object{},
		start: map[api.Kind]uint64{}, history: map[api.Kind][]WatchEvent{}, faults: s.Faults().Rules()}
	for _, k := range api.Kinds {
		v.objects[k] = s.Objects(k, "")
		v.start[k] = s.WatchWindowStart(k)
		events, err := s.EventsSince(k, "", v.start[k])
		require.NoError(t, err)
		v.history[k] = slices.Clone(events)
	}
	return v
}

// churn makes many writes of every sort, enough to push the watch window.
func churn(t *testing.T, h *harness, tag string, n int) {
	t.Helper()
	web := map[string]string{"app": "web"}
	for i := 0; i < n; i++ {
		name := tag + "-" + strconv.Itoa(i)
		pod := h.create(newGeneratedPod("default", "web-", web))
		_, err := h.s.Patch(api.KindPod, "default", pod.Meta().Name, MetaPatch{SetLabels: map[string]string{"i": name}})
		require.NoError(t, err)
		if i%2 == 0 {
			_, err = h.s.Delete(api.KindPod, "default", pod.Meta().Name, nil)
			require.NoError(t, err)
		}
		h.create(newNode(name))
		if i%3 == 0 {
			_, err = h.s.Delete(api.KindNode, "", name, nil)
			require.NoError(t, err)
		}
		h.check()
	}
	_, err := h.s.Faults().Add(FaultRule{Verb: VerbGet, Resource: "pods", Always: true})
	require.NoError(t, err)
	_, _ = h.s.Get(api.KindPod, "default", "x")
}

func TestSnapshotRestoreReturnsToTheSameState(t *testing.T) {
	h := newHarnessWith(t, Options{WatchWindow: 16})
	rs := h.create(newRS("default", "web", 2, map[string]string{"app": "web"}))
	_, err := h.s.Faults().Add(FaultRule{Verb: VerbCreate, Resource: "replicasets", Count: 3})
	require.NoError(t, err)
	churn(t, h, "before", 10)
	_, err = h.s.Create(newRS("default", "other", 1, map[string]string{"app": "other"})) // fires the fault once
	require.Error(t, err)

	want := observe(t, h.s)
	sn := h.s.Snapshot()
	assert.Equal(t, want.rv, sn.ResourceVersion())
	h.check()

	churn(t, h, "after", 25)
	_, err = h.s.Delete(api.KindReplicaSet, "default", "web", nil)
	require.NoError(t, err)
	h.s.Faults().HealAll()
	require.NotEqual(t, want.rv, h.s.ResourceVersion())

	h.s.Restore(sn)
	h.check()
	got := observe(t, h.s)
	assert.Equal(t, want, got, "objects, resourceVersion, watch history and fault counters are back")
	stored, ok := h.s.Object(api.KindReplicaSet, "default", "web")
	require.True(t, ok)
	assert.Same(t, rs, stored, "a snapshot shares the stored objects, it does not copy them")

	// The restored store works on, and the snapshot stays valid for a second restore.
	churn(t, h, "again", 12)
	_, err = h.s.Create(newRS("default", "third", 1, map[string]string{"app": "third"}))
	assert.Error(t, err, "the restored fault counters fire the remaining failures")
	h.s.Restore(sn)
	h.check()
	assert.Equal(t, want, observe(t, h.s))

	// Writes after the restore again leave the snapshot alone.
	churn(t, h, "third", 5)
	h.s.Restore(sn)
	assert.Equal(t, want, observe(t, h.s))
	h.check()
}

func TestSnapshotsDoNotInterfere(t *testing.T) {
	h := newHarnessWith(t, Options{WatchWindow: 8})
	var snaps []*Snapshot
	var views []storeView
	for round := 0; round < 6; round++ {
		churn(t, h, "r"+strconv.Itoa(round), 3)
		snaps = append(snaps, h.s.Snapshot())
		views = append(views, observe(t, h.s))
	}
	for _, i := range []int{2, 0, 5, 1, 4, 3, 0} {
		h.s.Restore(snaps[i])
		h.check()
		assert.Equal(t, views[i], observe(t, h.s), "snapshot %d", i)
		churn(t, h, "x", 2) // diverge before the next restore
	}
}

func TestSnapshotSharesUntouchedNamespaces(t *testing.T) {
	h := newHarness(t)
	h.create(newPod("a", "p", nil))
	h.create(newPod("b", "p", nil))
	sn := h.s.Snapshot()
	h.create(newPod("a", "q", nil))

	ks := &h.s.kinds[infoFor(api.KindPod).index]
	objects := func(ks kindState, ns string) map[string]storedObject {
		sp := ks.spaces.Read()[ns]
		return sp.Read()
	}
	// Two maps are the same map when they share one table.
	same := func(a, b map[string]storedObject) bool {
		return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
	}
	assert.True(t, same(objects(sn.kinds[0], "b"), objects(*ks, "b")), "a write to namespace a does not copy namespace b")
	assert.False(t, same(objects(sn.kinds[0], "a"), objects(*ks, "a")), "namespace a was cloned before the write")
	assert.Len(t, objects(sn.kinds[0], "a"), 1)
	h.check()
}

// TestWritesAfterANamespaceEmptiesAndAfterASnapshot: the namespace map a
// write remembers (Store.written) is not written to once its last object is
// deleted and the namespace removed, nor after a snapshot shares it.
func TestWritesAfterANamespaceEmptiesAndAfterASnapshot(t *testing.T) {
	h := newHarness(t)
	h.create(newPod("a", "p", nil))
	_, err := h.s.Delete(api.KindPod, "a", "p", GracePeriod(0))
	require.NoError(t, err)
	h.check()
	h.create(newPod("a", "q", nil))
	names := func() []string {
		var out []string
		for _, o := range h.s.Objects(api.KindPod, "a") {
			out = append(out, o.Meta().Name)
		}
		return out
	}
	assert.Equal(t, []string{"q"}, names())

	sn := h.s.Snapshot()
	h.create(newPod("a", "r", nil))
	assert.Equal(t, []string{"q", "r"}, names())
	h.s.Restore(sn)
	h.check()
	assert.Equal(t, []string{"q"}, names())
	h.create(newPod("a", "s", nil))
	assert.Equal(t, []string{"q", "s"}, names())
	h.s.Restore(sn)
	assert.Equal(t, []string{"q"}, names(), "the snapshot holds what it held")
	h.check()
}
