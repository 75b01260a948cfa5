package informer

import (
	"slices"
	"strconv"

	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// controllerUID indexes an object under the uid of its controller, like the
// index the ReplicaSet controller adds to find ReplicaSets of one Deployment.
func controllerUID(obj api.Object, values []string) []string {
	if ref := api.GetControllerOf(obj.Meta()); ref != nil {
		return append(values, ref.UID)
	}
	return values
}

func owned(name, ownerUID string) *api.Pod {
	p := pod(name, 1)
	yes := true
	p.Metadata.OwnerReferences = []api.OwnerReference{{Kind: "ReplicaSet", Name: "rs", UID: ownerUID, Controller: &yes}}
	return p
}

func names(objs []api.Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.Meta().Name)
	}
	return out
}

// checkIndexer verifies that every index, and every slot's record of its
// values, agrees with recomputing it from the items, that the key map and the
// table agree, and that lists follow the order keys entered the cache.
func checkIndexer(t *testing.T, ix *Indexer) {
	t.Helper()
	var keys []string
	ix.table.each(func(seq uint64, s *slot) {
		require.Less(t, seq, ix.nextSeq)
		got, ok := ix.seqs.Read()[s.key]
		require.True(t, ok, "slot %d holds %q, which the key map lacks", seq, s.key)
		require.Equal(t, seq, got, "the key map and the table disagree on %q", s.key)
		require.Equal(t, s.key, KeyOf(s.obj))
		keys = append(keys, s.key)
	})
	require.Len(t, keys, ix.Len(), "every key has a slot in use")
	for _, c := range ix.table.chunks {
		if c == nil {
			continue
		}
		live := 0
		for _, s := range c.slots {
			if s.obj != nil {
				live++
			}
		}
		require.Equal(t, live, c.live, "a chunk counts its slots in use")
		require.NotZero(t, c.live, "a chunk with no slot in use is dropped")
	}
	for i, x := range ix.indices {
		want := map[string][]string{}
		for _, k := range keys {
			obj, _ := ix.GetByKey(k)
			vals := x.fn(obj, nil)
			kept := slotValues(ix.table.read(ix.seqs.Read()[k]), i)
			if x.byKey {
				require.Nil(t, kept, "index %s keeps no values: they are read from the object", x.name)
			} else {
				require.Equal(t, vals, kept, "index %s: the values recorded for %q", x.name, k)
			}
			for _, v := range vals {
				want[v] = append(want[v], k)
			}
		}
		require.Equal(t, len(want), len(x.values.Read()), "index %s has a value with no keys, or misses one", x.name)
		for v, keys := range want {
			got, err := ix.IndexKeys(x.name, v)
			require.NoError(t, err)
			require.Equal(t, keys, got, "index %s value %q", x.name, v)
		}
	}
}

func TestIndexerCustomIndex(t *testing.T) {
	ix := NewIndexer()
	require.NoError(t, ix.AddIndexer("controllerUID", controllerUID))
	ix.Add(owned("a", "u1"))
	ix.Add(owned("b", "u2"))
	ix.Add(owned("c", "u1"))
	ix.Add(pod("orphan", 1))
	checkIndexer(t, ix)

	got, err := ix.ByIndex("controllerUID", "u1")
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "c"}, names(got))

	ix.Update(owned("a", "u2")) // adopted by another owner: moves between values
	checkIndexer(t, ix)
	got, _ = ix.ByIndex("controllerUID", "u2")
	assert.Equal(t, []string{"a", "b"}, names(got), "order is the order keys entered the cache, not of the update")

	ix.Delete(owned("c", "u1"))
	checkIndexer(t, ix)
	got, _ = ix.ByIndex("controllerUID", "u1")
	assert.Empty(t, got)
	at, _ := ix.find("controllerUID")
	_, hasValue := ix.indices[at].values.Read()["u1"]
	assert.False(t, hasValue, "an index value with no keys left is removed")
}

func TestIndexerMultiValueIndex(t *testing.T) {
	ix := NewIndexer()
	require.NoError(t, ix.AddIndexer("labels", func(obj api.Object, out []string) []string {
		for _, k := range []string{"app", "tier"} {
			if v, ok := obj.Meta().Labels[k]; ok {
				out = append(out, k+"="+v)
			}
		}
		return out
	}))
	p := pod("a", 1)
	p.Metadata.Labels = map[string]string{"app": "web", "tier": "front"}
	ix.Add(p)
	checkIndexer(t, ix)
	for _, v := range []string{"app=web", "tier=front"} {
		got, _ := ix.ByIndex("labels", v)
		assert.Equal(t, []string{"a"}, names(got), v)
	}
}

func TestIndexerConflictAndUnknownIndex(t *testing.T) {
	ix := NewIndexer()
	assert.ErrorIs(t, ix.AddIndexer(NamespaceIndex, IndexByNamespace), ErrIndexerConflict)
	_, err := ix.ByIndex("nope", "x")
	assert.ErrorContains(t, err, "index with name nope does not exist")
}

func TestIndexerIndexesExistingItemsWhenAnIndexIsAdded(t *testing.T) {
	ix := NewIndexer()
	ix.Add(owned("a", "u1"))
	require.NoError(t, ix.AddIndexer("controllerUID", controllerUID))
	got, _ := ix.ByIndex("controllerUID", "u1")
	assert.Equal(t, []string{"a"}, names(got))
}

func TestIndexerSnapshotRestoreKeepsOrderAndIndices(t *testing.T) {
	ix := NewIndexer()
	require.NoError(t, ix.AddIndexer("controllerUID", controllerUID))
	for _, n := range []string{"d", "b", "a", "c"} {
		ix.Add(owned(n, "u"+n))
	}
	ix.Delete(owned("b", ""))
	ix.Add(owned("b", "ua")) // comes back: now the newest
	snap := ix.snapshot()
	before := names(ix.List())

	ix.Add(owned("e", "ua"))
	ix.Delete(owned("d", ""))
	ix.Update(owned("a", "zz"))

	for range 2 {
		ix.restore(snap)
		checkIndexer(t, ix)
		assert.Equal(t, before, names(ix.List()))
		assert.Equal(t, []string{"d", "a", "c", "b"}, before)
		got, _ := ix.ByIndex("controllerUID", "ua")
		assert.Equal(t, []string{"a", "b"}, names(got))
		ix.Add(owned("f", "ua")) // writing after a restore must not change the snapshot
	}
}

func TestNamespaceLister(t *testing.T) {
	r := newRig(t)
	r.inf.Start()
	r.create("a")
	r.settle(t)
	got := r.inf.Lister().Namespace("default").List(everything())
	assert.Equal(t, []string{"a"}, names(got))
	assert.Empty(t, r.inf.Lister().Namespace("other").List(everything()))
	_, ok := r.inf.Lister().Namespace("default").Get("a")
	assert.True(t, ok)
}

func TestFilteringHandler(t *testing.T) {
	calls := &[]string{}
	h := FilteringHandler(func(obj api.Object) bool { return obj.Meta().Labels["tier"] == "front" }, recorder("f", calls))
	front := func(name, rv string) *api.Pod {
		p := pod(name, 1)
		p.Metadata.ResourceVersion = rv
		p.Metadata.Labels = map[string]string{"tier": "front"}
		return p
	}
	back := pod("a", 2)
	h.OnAdd(back, false)
	h.OnUpdate(back, front("a", "3")) // enters the filter: an add
	h.OnUpdate(front("a", "3"), front("a", "4"))
	h.OnUpdate(front("a", "4"), pod("a", 5)) // leaves it: a delete of the old object
	h.OnUpdate(pod("a", 5), pod("a", 6))     // outside before and after: nothing
	rep := h.OnDelete(DeletedFinalStateUnknown{Key: "default/a", Obj: front("a", "7")})
	assert.Equal(t, []string{"f: add a", "f: update a 3→4", "f: delete a", "f: delete tombstone default/a"}, *calls)
	assert.NotEqual(t, "FilteringResourceEventHandler", rep.Models)
	skipped := h.OnAdd(back, false)
	assert.Equal(t, "f", skipped.Actor)
	assert.Equal(t, "FilteringResourceEventHandler", skipped.Models)
	assert.Equal(t, "filtered out add of default/a", skipped.Summary.String())
}

// TestIndexerByIndexValuesMergesInCacheOrder: ByIndexValues and
// EachByIndexValues visit the objects under any of the values, each once, in
// the order a scan of the cache would.
func TestIndexerByIndexValuesMergesInCacheOrder(t *testing.T) {
	ix := NewIndexer()
	require.NoError(t, ix.AddIndexer("controllerUID", func(obj api.Object, values []string) []string {
		if ref := api.GetControllerOf(obj.Meta()); ref != nil {
			return append(values, ref.UID)
		}
		return append(values, "orphan")
	}))
	ix.Add(owned("a", "u1"))
	ix.Add(pod("o1", 1))
	ix.Add(owned("b", "u2"))
	ix.Add(owned("c", "u1"))
	ix.Add(pod("o2", 1))
	got, err := ix.ByIndexValues("controllerUID", "u1", "orphan")
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "o1", "c", "o2"}, names(got), "as a scan of the cache would visit them")
	got, _ = ix.ByIndexValues("controllerUID", "u1")
	assert.Equal(t, []string{"a", "c"}, names(got), "one value's objects, in cache order")
	var each []api.Object
	require.NoError(t, ix.EachByIndexValues("controllerUID", []string{"u1", "orphan"}, func(o api.Object) { each = append(each, o) }))
	assert.Equal(t, []string{"a", "o1", "c", "o2"}, names(each), "EachByIndexValues visits what ByIndexValues returns")
	got, _ = ix.ByIndexValues("controllerUID", "u1", "u1")
	assert.Equal(t, []string{"a", "c"}, names(got), "a key is returned once")
	got, _ = ix.ByIndexValues("controllerUID", "nobody")
	assert.Empty(t, got)
	_, err = ix.ByIndexValues("nope", "x")
	assert.Error(t, err)
}

func TestIndexerRestoreGivesBackTheObjectsOfTheSnapshot(t *testing.T) {
	ix := NewIndexer()
	for i := range 3 * chunkLen {
		ix.Add(pod("p"+strconv.Itoa(i), 1))
	}
	snap := ix.snapshot()
	before := ix.List()

	// An update after the snapshot writes a copy of its slot's chunk, never
	// the chunk the snapshot shares.
	ix.Update(pod("p1", 2))
	now, _ := ix.GetByKey("default/p1")
	assert.Equal(t, "2", now.Meta().ResourceVersion)

	ix.restore(snap)
	checkIndexer(t, ix)
	got, _ := ix.GetByKey("default/p1")
	assert.Same(t, before[1], got)
	assert.Equal(t, before, ix.List())
}

// TestIndexerRenumbersWhenKeysComeAndGo pins the table's bound: keys that
// leave free their slots, and a cache whose keys came and went many times
// is renumbered so that its table stays about as long as its keys need,
// with every list still in the order the keys entered the cache.
func TestIndexerRenumbersWhenKeysComeAndGo(t *testing.T) {
	ix := NewIndexer()
	require.NoError(t, ix.AddIndexer("controllerUID", controllerUID))
	var order []string
	add := func(name string) {
		ix.Add(owned(name, "u"+strconv.Itoa(len(name)%3)))
		order = append(order, name)
	}
	remove := func(i int) {
		ix.Delete(owned(order[i], ""))
		order = slices.Delete(order, i, i+1)
	}
	for i := range 200 {
		add("k" + strconv.Itoa(i))
	}
	var snaps []indexerSnapshot
	var want [][]string
	for round := range 40 {
		// Every round, a few keys scattered over the cache leave, and as
		// many new ones come: the old chunks thin out.
		for j := range 20 {
			remove((j*7 + round) % len(order))
		}
		for j := range 20 {
			add("r" + strconv.Itoa(round) + "-" + strconv.Itoa(j))
		}
		checkIndexer(t, ix)
		require.Equal(t, order, names(ix.List()))
		require.LessOrEqual(t, len(ix.table.chunks), max(8, 2*(ix.Len()/chunkLen+1)), "round %d", round)
		if round%10 == 0 {
			snaps = append(snaps, ix.snapshot())
			want = append(want, slices.Clone(order))
		}
	}
	assert.Less(t, ix.nextSeq, uint64(200+40*20), "the keys were renumbered")
	for i, s := range snaps {
		ix.restore(s)
		checkIndexer(t, ix)
		assert.Equal(t, want[i], names(ix.List()), "snapshot %d", i)
	}
}

// TestIndexerUpdateThatMovesNothingAllocatesNothing: an update that leaves
// an object under the same index values (a status write) computes them into
// the Indexer's own buffer, compares, and keeps nothing new (see IndexFunc).
func TestIndexerUpdateThatMovesNothingAllocatesNothing(t *testing.T) {
	ix := NewIndexer()
	require.NoError(t, ix.AddIndexer("controllerUID", controllerUID))
	p := owned("a", "u1")
	ix.Add(p)
	newer := *p
	newer.Status.Phase = api.PodRunning
	// put, as the informer calls it, with the key it has: Update would make
	// the key anew.
	allocs := testing.AllocsPerRun(100, func() { ix.put("default/a", &newer) })
	assert.Zero(t, allocs)
	got, err := ix.ByIndex("controllerUID", "u1")
	require.NoError(t, err)
	assert.Equal(t, []api.Object{&newer}, got)
}

// TestGetNamedFindsTheCachesOwnKey: GetNamed looks an object up by
// namespace and name as GetByKey does by the joined key, for namespaced and
// cluster-scoped objects, and returns the key the cache holds rather than a
// new one; the lookup makes nothing, since the pod handlers of both
// replication managers make it for every pod event.
func TestGetNamedFindsTheCachesOwnKey(t *testing.T) {
	ix := NewIndexer()
	ix.Add(pod("web-1", 1))
	ix.Add(&api.Node{Metadata: api.ObjectMeta{Name: "node-1", ResourceVersion: "2"}})

	obj, key, ok := ix.GetNamed("default", "web-1")
	require.True(t, ok)
	assert.Equal(t, "default/web-1", key)
	want, _ := ix.GetByKey("default/web-1")
	assert.Same(t, want, obj)

	obj, key, ok = ix.GetNamed("", "node-1")
	require.True(t, ok)
	assert.Equal(t, "node-1", key)
	assert.Equal(t, "node-1", obj.Meta().Name)

	for _, missing := range [][2]string{{"default", "web-2"}, {"other", "web-1"}, {"", "web-1"}, {"default", ""}} {
		obj, key, ok := ix.GetNamed(missing[0], missing[1])
		assert.False(t, ok, "%v", missing)
		assert.Nil(t, obj)
		assert.Empty(t, key)
	}
	assert.Zero(t, testing.AllocsPerRun(100, func() { _, _, _ = ix.GetNamed("default", "web-1") }))
}

// TestNewKeysShareEqualIndexValues: keys added one after another with equal
// index values keep the same lists of them (Indexer.lastNew), and an update
// that moves one key to other values leaves the others where they were.
func TestNewKeysShareEqualIndexValues(t *testing.T) {
	ix := NewIndexer()
	require.NoError(t, ix.AddIndexer("controllerUID", controllerUID))
	ix.Add(owned("a", "u1"))
	ix.Add(owned("b", "u1"))
	ix.Add(pod("orphan", 1))
	ix.Add(owned("c", "u1"))
	checkIndexer(t, ix)
	slotOf := func(key string) *slot { return ix.table.read(ix.seqs.Read()[key]) }
	a, b, c := slotOf("default/a"), slotOf("default/b"), slotOf("default/c")
	assert.True(t, api.SameList(a.vals, b.vals), "b, added right after a with its values, shares a's lists")
	assert.False(t, api.SameList(b.vals, c.vals), "c, added after an orphan, has lists of its own")
	assert.Equal(t, b.vals, c.vals)

	ix.Update(owned("a", "u2"))
	checkIndexer(t, ix)
	got, err := ix.IndexKeys("controllerUID", "u1")
	require.NoError(t, err)
	assert.Equal(t, []string{"default/b", "default/c"}, got, "moving a leaves b, which shared its values, under u1")
	at, ok := ix.find("controllerUID")
	require.True(t, ok)
	assert.Equal(t, []string{"u1"}, slotValues(slotOf("default/b"), at))
}
