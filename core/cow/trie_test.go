package cow

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// contents reads a trie back as a Go map, by walking it.
func contents[V any](t Trie[V]) map[string]V {
	m := map[string]V{}
	for k, v := range t.All() {
		m[k] = v
	}
	return m
}

// requireSame checks a trie against the map it should hold, through every
// way of reading it.
func requireSame(t *testing.T, want map[string]int, got Trie[int], msg string) {
	t.Helper()
	require.Equal(t, len(want), got.Len(), msg)
	require.Equal(t, want, contents(got), msg)
	for k, v := range want {
		g, ok := got.Get(k)
		require.True(t, ok, "%s: Get(%q)", msg, k)
		require.Equal(t, v, g, "%s: Get(%q)", msg, k)
	}
	_, ok := got.Get("never-set")
	require.False(t, ok, msg)
	require.Equal(t, slices.Sorted(maps.Keys(want)), got.SortedKeys(), msg)
}

// TestTrieActsAsAMapThroughSnapshots runs thousands of random writes against
// a trie and a Go map side by side, taking snapshots along the way and
// restoring some of them, as a component does; every snapshot must still
// hold what the map held when it was taken.
func TestTrieActsAsAMapThroughSnapshots(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	type snap struct {
		trie Trie[int]
		want map[string]int
	}
	var (
		e     Epoch
		live  Trie[int]
		want  = map[string]int{}
		snaps []snap
	)
	key := func() string { return "default/web-" + strconv.Itoa(r.IntN(3000)) }
	for i := range 40_000 {
		switch op := r.IntN(100); {
		case op < 60:
			k, v := key(), r.Int()
			live.Set(e, k, v)
			want[k] = v
		case op < 95:
			k := key()
			_, had := want[k]
			require.Equal(t, had, live.Delete(e, k), "Delete(%q) says whether it was there", k)
			delete(want, k)
		case op < 98:
			snaps = append(snaps, snap{trie: live, want: maps.Clone(want)})
			e.Next()
		default:
			if len(snaps) > 0 {
				s := snaps[r.IntN(len(snaps))]
				live, want = s.trie, maps.Clone(s.want)
				e.Next()
			}
		}
		if i%1000 == 0 {
			requireSame(t, want, live, "live at op "+strconv.Itoa(i))
		}
	}
	requireSame(t, want, live, "live at the end")
	require.NotEmpty(t, snaps)
	for i, s := range snaps {
		requireSame(t, s.want, s.trie, "snapshot "+strconv.Itoa(i))
	}
}

func TestTrieWriteAfterSnapshotLeavesTheSnapshotAsItWas(t *testing.T) {
	var e Epoch = 1
	var live Trie[int]
	for i := range 100 {
		live.Set(e, "k"+strconv.Itoa(i), i)
	}
	snap := live
	e.Next()
	live.Set(e, "k1", -1)
	live.Set(e, "new", 7)
	live.Delete(e, "k2")

	v, _ := snap.Get("k1")
	assert.Equal(t, 1, v, "the snapshot keeps the old value")
	_, ok := snap.Get("new")
	assert.False(t, ok, "the snapshot does not see the new key")
	_, ok = snap.Get("k2")
	assert.True(t, ok, "the snapshot keeps the deleted key")
	assert.Equal(t, 100, snap.Len())
	assert.Equal(t, 100, live.Len())
}

// TestTrieCopiesOnlyThePathOfAWrite: after a snapshot, one write copies the
// nodes from the root to its key and shares every other node.
func TestTrieCopiesOnlyThePathOfAWrite(t *testing.T) {
	var e Epoch
	var live Trie[int]
	for i := range 10_000 {
		live.Set(e, "default/web-"+strconv.Itoa(i), i)
	}
	snap := live
	e.Next()
	live.Set(e, "default/web-42", -42)

	nodes, shared := 0, 0
	var visit func(a, b *trieNode[int])
	visit = func(a, b *trieNode[int]) {
		nodes++
		if &a.slots[0] == &b.slots[0] {
			shared++
			return
		}
		for i := range a.slots {
			if a.slots[i].isNode() {
				visit(&a.slots[i].node, &b.slots[i].node)
			}
		}
	}
	visit(&live.root, &snap.root)
	copied := nodes - shared
	assert.LessOrEqual(t, copied, 4, "only the path to the key is copied (of %d nodes looked at)", nodes)
	assert.GreaterOrEqual(t, copied, 2, "the root and the key's node are copied")

	// A second write of the same epoch on the same path copies nothing more.
	root := &live.root.slots[0]
	live.Set(e, "default/web-42", 42)
	assert.Same(t, root, &live.root.slots[0])
}

// TestTrieOrderDependsOnlyOnItsKeys: the same keys, added in two orders and
// with detours through keys deleted again, are walked in the same order.
func TestTrieOrderDependsOnlyOnItsKeys(t *testing.T) {
	keys := make([]string, 2000)
	for i := range keys {
		keys[i] = "default/web-" + strconv.Itoa(i)
	}
	var e Epoch
	var a, b Trie[int]
	for _, k := range keys {
		a.Set(e, k, 1)
	}
	r := rand.New(rand.NewPCG(1, 2))
	shuffled := slices.Clone(keys)
	r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for i, k := range shuffled {
		b.Set(e, k, 1)
		b.Set(e, "detour-"+strconv.Itoa(i), 1)
	}
	for i := range shuffled {
		b.Delete(e, "detour-"+strconv.Itoa(i))
	}
	order := func(t *Trie[int]) []string {
		return slices.Collect(func(yield func(string) bool) { t.All()(func(k string, _ int) bool { return yield(k) }) })
	}
	assert.Equal(t, order(&a), order(&b))
}

// TestTrieKeepsKeysWhoseHashesCollide drives the trie with chosen hashes:
// keys whose whole hashes are equal share a collision node, and keys that
// agree on the first levels' bits part further down.
func TestTrieKeepsKeysWhoseHashesCollide(t *testing.T) {
	var e Epoch
	var live Trie[int]
	const same = 0xdead_beef_0bad_f00d
	const near = same ^ (1 << 62) // agrees on every level but the last
	live.setHashed(e, same, "a", 1)
	live.setHashed(e, same, "b", 2)
	live.setHashed(e, near, "c", 3)
	live.setHashed(e, same, "b", 20)
	snap := live
	e.Next()
	live.setHashed(e, same, "d", 4)

	get := func(tr Trie[int], h uint64, k string) int {
		v, ok := tr.getHashed(h, k)
		require.True(t, ok, k)
		return v
	}
	assert.Equal(t, 1, get(live, same, "a"))
	assert.Equal(t, 20, get(live, same, "b"))
	assert.Equal(t, 3, get(live, near, "c"))
	assert.Equal(t, 4, get(live, same, "d"))
	assert.Equal(t, 4, live.Len())
	_, ok := live.getHashed(same, "e")
	assert.False(t, ok, "a key not there is not found beside colliding ones")
	_, ok = snap.getHashed(same, "d")
	assert.False(t, ok, "the snapshot's collision node was not changed")

	require.True(t, live.deleteHashed(e, same, "a"))
	require.True(t, live.deleteHashed(e, same, "d"))
	require.False(t, live.deleteHashed(e, same, "a"))
	assert.Equal(t, 20, get(live, same, "b"))
	require.True(t, live.deleteHashed(e, same, "b"))
	assert.Equal(t, 3, get(live, near, "c"))
	// With one key left, its entry was lifted back up to the root.
	require.Len(t, live.root.slots, 1)
	assert.False(t, live.root.slots[0].isNode())
	require.True(t, live.deleteHashed(e, near, "c"))
	assert.Empty(t, live.root.slots)
	assert.Equal(t, 3, snap.Len())
}

func TestZeroTrieIsEmpty(t *testing.T) {
	var tr Trie[*int]
	v, ok := tr.Get("x")
	assert.Nil(t, v)
	assert.False(t, ok)
	assert.False(t, tr.Delete(0, "x"))
	assert.Equal(t, 0, tr.Len())
	assert.Empty(t, tr.SortedKeys())
}

// TestHashKeySpreadsNamesThatDifferAtTheEnd: generated pod names differ in
// their last characters; each level of the trie must still see them spread
// over its 32 slots.
func TestHashKeySpreadsNamesThatDifferAtTheEnd(t *testing.T) {
	for shift := uint(0); shift < 60; shift += trieBits {
		var used [32]int
		for i := range 3200 {
			used[(hashKey("default/web-7xk2"+strconv.Itoa(i))>>shift)&31]++
		}
		for slot, n := range used {
			assert.Greater(t, n, 50, "level at bit %d: slot %d got %d of 3200 keys", shift, slot, n)
		}
	}
	assert.Equal(t, uint64(0xbeab66c85444d7b1), hashKey("default/web"), "the hash is fixed: All's order must not change between runs")
}

func BenchmarkTrieGet(b *testing.B) {
	var tr Trie[*int]
	m := map[string]*int{}
	keys := make([]string, 10_000)
	for i := range keys {
		keys[i] = "default/web-" + strconv.Itoa(i) + "-x7k2p"
		tr.Set(0, keys[i], new(int))
		m[keys[i]] = new(int)
	}
	// Looked up in a shuffled order, as a controller's work does: in
	// the order they were added, both would find their next key in cache.
	rand.New(rand.NewPCG(1, 1)).Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	b.Run("trie", func(b *testing.B) {
		for i := range b.N {
			tr.Get(keys[i%len(keys)])
		}
	})
	b.Run("map", func(b *testing.B) {
		for i := range b.N {
			_ = m[keys[i%len(keys)]]
		}
	})
}
