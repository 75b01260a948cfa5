package informer

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

func pod(name string, rv int) *api.Pod {
	return &api.Pod{Metadata: api.ObjectMeta{Namespace: "default", Name: name, ResourceVersion: strconv.Itoa(rv)}}
}

// deltaTypes renders deltas compactly: "Added,Updated,Deleted(tomb)".
func deltaTypes(d Deltas) string {
	s := ""
	for i, x := range d {
		if i > 0 {
			s += ","
		}
		s += string(x.Type)
		if _, tomb := x.Object.(DeletedFinalStateUnknown); tomb {
			s += "(tomb)"
		}
	}
	return s
}

// checkFIFO verifies the DeltaFIFO's invariants: every queued key has deltas,
// every key with deltas is queued once, and the map finds each key's entry.
// Keys the map keeps from entries popped must read as not pending.
func checkFIFO(t *testing.T, f *DeltaFIFO) {
	t.Helper()
	seen := map[string]bool{}
	for _, p := range f.queue.waiting() {
		require.False(t, seen[p.key], "key %q queued twice", p.key)
		seen[p.key] = true
		require.NotEmpty(t, p.deltas, "queued key %q has no deltas", p.key)
		serial, ok := f.pending(p.key)
		require.True(t, ok, "queued key %q is not in the map", p.key)
		require.Equal(t, p.key, f.entry(serial).key, "the map points %q at another entry", p.key)
	}
	live := 0
	for key := range f.items {
		if _, ok := f.pending(key); ok {
			live++
		} else {
			require.False(t, seen[key], "queued key %q reads as popped", key)
		}
	}
	require.Equal(t, f.queue.len(), live, "every key with deltas is queued")
	places := map[int32]bool{}
	for _, at := range f.free {
		places[at] = true
	}
	for key, at := range f.items {
		require.False(t, places[at], "key %q has a place freed or taken", key)
		places[at] = true
	}
	require.Len(t, places, len(f.serials), "every place is taken or free")
}

// pending returns the FIFO's pending keys in order, and their deltas.
func pending(f *DeltaFIFO) ([]string, map[string]Deltas) {
	var keys []string
	items := map[string]Deltas{}
	for k, d := range f.Pending() {
		keys = append(keys, k)
		items[k] = d
	}
	return keys, items
}

func popAll(t *testing.T, f *DeltaFIFO, ix *Indexer) []string {
	t.Helper()
	var out []string
	for {
		key, d, _, ok := f.Pop()
		if !ok {
			return out
		}
		checkFIFO(t, f)
		// Apply to the cache as processDeltas would, so later relists see it.
		for _, x := range d {
			if x.Type == Deleted {
				ix.Delete(x.Object)
			} else {
				ix.Update(x.Object.(api.Object))
			}
		}
		out = append(out, key+"="+deltaTypes(d))
	}
}

func TestDeltaFIFOBasicOrder(t *testing.T) {
	ix := NewIndexer()
	f := NewDeltaFIFO(ix)
	f.Add(pod("a", 1))
	f.Add(pod("b", 2))
	f.Update(pod("a", 3))
	checkFIFO(t, f)
	assert.Equal(t, 2, f.Len(), "a key is queued once however many deltas it has")
	assert.Equal(t, []string{"default/a=Added,Updated", "default/b=Added"}, popAll(t, f, ix),
		"keys pop in the order they first got a delta; a key's deltas come out oldest first")
}

// A popped key stays in the map, not pending, until a deletion of it pops:
// the map holds no more keys than the cache and the queue do.
func TestDeltaFIFOForgetsKeysDeletedOnly(t *testing.T) {
	ix := NewIndexer()
	f := NewDeltaFIFO(ix)
	f.Add(pod("a", 1))
	f.Add(pod("b", 2))
	popAll(t, f, ix)
	f.Update(pod("a", 3))
	assert.Equal(t, []string{"default/a=Updated"}, popAll(t, f, ix), "a popped key queues again")
	f.Delete(pod("b", 4))
	f.Delete(pod("c", 5))
	assert.Equal(t, []string{"default/b=Deleted"}, popAll(t, f, ix),
		"a popped key reads as known to the cache, not as pending")
	assert.Len(t, f.items, ix.Len(), "the map keeps the cached keys only")
}

func TestDeltaFIFONothingIsMergedButDoubleDeletes(t *testing.T) {
	ix := NewIndexer()
	f := NewDeltaFIFO(ix)
	f.Add(pod("a", 1))
	f.Update(pod("a", 2))
	f.Update(pod("a", 3))
	f.Delete(pod("a", 4))
	f.Delete(pod("a", 4))
	checkFIFO(t, f)
	_, items := pending(f)
	assert.Equal(t, "Added,Updated,Updated,Deleted", deltaTypes(items["default/a"]))
}

func TestDeltaFIFODedupKeepsTheRealObjectOverATombstone(t *testing.T) {
	ix := NewIndexer()
	ix.Add(pod("a", 1))
	f := NewDeltaFIFO(ix)
	f.Replace(nil) // a relist that misses a: tombstone
	f.Delete(pod("a", 2))
	_, items := pending(f)
	d := items["default/a"]
	require.Len(t, d, 1)
	assert.IsType(t, &api.Pod{}, d[0].Object, "the newer, real delete replaces the older tombstone")

	f = NewDeltaFIFO(ix)
	f.Delete(pod("a", 2))
	f.Replace(nil)
	_, items = pending(f)
	d = items["default/a"]
	require.Len(t, d, 1)
	assert.IsType(t, &api.Pod{}, d[0].Object, "a later tombstone does not replace the real delete")
}

func TestDeltaFIFODeleteOfUnknownKeyIsDropped(t *testing.T) {
	f := NewDeltaFIFO(NewIndexer())
	f.Delete(pod("ghost", 1))
	assert.Equal(t, 0, f.Len(), "nothing cached and nothing pending: nothing to delete")
}

func TestDeltaFIFOReplaceMakesTombstones(t *testing.T) {
	ix := NewIndexer()
	ix.Add(pod("kept", 1))
	ix.Add(pod("gone-from-cache", 2))
	f := NewDeltaFIFO(ix)
	f.Add(pod("gone-while-pending", 3))
	f.Replace([]api.Object{pod("kept", 1), pod("new", 4)})
	checkFIFO(t, f)

	queue, items := pending(f)
	assert.Equal(t, []string{"default/gone-while-pending", "default/kept", "default/new", "default/gone-from-cache"}, queue)
	assert.Equal(t, "Added,Deleted(tomb)", deltaTypes(items["default/gone-while-pending"]))
	assert.Equal(t, "Replaced", deltaTypes(items["default/kept"]))
	tomb := items["default/gone-from-cache"][0].Object.(DeletedFinalStateUnknown)
	assert.Equal(t, "default/gone-from-cache", tomb.Key)
	assert.Equal(t, "2", tomb.Obj.Meta().ResourceVersion, "the tombstone carries the last known state")
	pendingTomb := items["default/gone-while-pending"][1].Object.(DeletedFinalStateUnknown)
	assert.Equal(t, "3", pendingTomb.Obj.Meta().ResourceVersion, "for a pending key, the newest pending state")
}

func TestDeltaFIFOResyncSkipsPendingKeys(t *testing.T) {
	ix := NewIndexer()
	ix.Add(pod("a", 1))
	ix.Add(pod("b", 2))
	f := NewDeltaFIFO(ix)
	f.Update(pod("a", 3))
	assert.Equal(t, 1, f.Resync())
	_, items := pending(f)
	assert.Equal(t, "Updated", deltaTypes(items["default/a"]), "a key with pending deltas gets no Sync")
	assert.Equal(t, "Sync", deltaTypes(items["default/b"]))
}

func TestDeltaFIFOHasSynced(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(f *DeltaFIFO)
		pops  []bool // HasSynced after each pop
		start bool
	}{
		{"empty queue is not synced", func(*DeltaFIFO) {}, nil, false},
		{"an empty first list syncs at once", func(f *DeltaFIFO) { f.Replace(nil) }, nil, true},
		{"a first list of two syncs after two pops", func(f *DeltaFIFO) {
			f.Replace([]api.Object{pod("a", 1), pod("b", 2)})
		}, []bool{false, true}, false},
		{"adds before the first list count as populated", func(f *DeltaFIFO) {
			f.Add(pod("a", 1))
		}, []bool{true}, true},
		{"later adds do not unsync", func(f *DeltaFIFO) {
			f.Replace([]api.Object{pod("a", 1)})
			f.Add(pod("b", 2))
		}, []bool{true, true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewDeltaFIFO(NewIndexer())
			tc.setup(f)
			assert.Equal(t, tc.start, f.HasSynced())
			for i, want := range tc.pops {
				_, _, _, ok := f.Pop()
				require.True(t, ok)
				assert.Equal(t, want, f.HasSynced(), "after pop %d", i+1)
			}
		})
	}
}

func TestDeltaFIFOPopReportsInitialList(t *testing.T) {
	f := NewDeltaFIFO(NewIndexer())
	f.Replace([]api.Object{pod("a", 1)})
	f.Add(pod("b", 2))
	_, _, initial, _ := f.Pop()
	assert.True(t, initial, "items of the first list are in the initial list")
	_, _, initial, _ = f.Pop()
	assert.False(t, initial, "after HasSynced, nothing is")
}

func TestKeyOf(t *testing.T) {
	assert.Equal(t, "default/a", KeyOf(pod("a", 1)))
	assert.Equal(t, "x/y", KeyOf(DeletedFinalStateUnknown{Key: "x/y"}))
	assert.Equal(t, "node-1", KeyOf(&api.Node{Metadata: api.ObjectMeta{Name: "node-1"}}))
	assert.Equal(t, "", KeyOf(42))
}
