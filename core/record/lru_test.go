package record

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLRUForgetsTheLeastRecentlyUsed(t *testing.T) {
	c := newLRU[int](3)
	c.Add("a", 1)
	c.Add("b", 2)
	c.Add("c", 3)
	_, ok := c.Get("a") // a is now the most recent
	require.True(t, ok)
	c.Add("d", 4) // b goes
	checkLRU(t, c)

	_, ok = c.Get("b")
	assert.False(t, ok, "b was the least recently used")
	for _, k := range []string{"a", "c", "d"} {
		_, ok := c.Get(k)
		assert.True(t, ok, "%s stays", k)
	}
	assert.Equal(t, 3, c.Len())
}

func TestLRUAddOfAnExistingKeyRefreshesIt(t *testing.T) {
	c := newLRU[int](2)
	c.Add("a", 1)
	c.Add("b", 2)
	c.Add("a", 10)
	c.Add("c", 3) // b goes, not a
	v, ok := c.Get("a")
	assert.True(t, ok)
	assert.Equal(t, 10, v)
	_, ok = c.Get("b")
	assert.False(t, ok)
}

func TestLRUCompactionKeepsTheOrder(t *testing.T) {
	c := newLRU[int](5)
	for i := 0; i < 5; i++ {
		c.Add(strconv.Itoa(i), i)
	}
	// Many uses of the same keys pile up stale log records and compact.
	for round := 0; round < 100; round++ {
		c.Get("3")
		c.Get("1")
		checkLRU(t, c)
	}
	assert.Less(t, len(c.log)-c.head, 2*c.Len()+17, "the log stays bounded")
	c.Add("5", 5) // 0 goes
	c.Add("6", 6) // 2 goes
	c.Add("7", 7) // 4 goes
	checkLRU(t, c)
	for _, k := range []string{"0", "2", "4"} {
		_, ok := c.entries[k]
		assert.False(t, ok, "%s was least recently used", k)
	}
	for _, k := range []string{"1", "3", "5", "6", "7"} {
		_, ok := c.entries[k]
		assert.True(t, ok, "%s stays", k)
	}
}

func TestLRUSnapshotIsIsolated(t *testing.T) {
	c := newLRU[int](3)
	c.Add("a", 1)
	c.Add("b", 2)
	s := c.snapshot()
	c.Add("c", 3)
	c.Add("d", 4)
	c.Add("a", 100)
	checkLRU(t, c)

	for i := 0; i < 2; i++ {
		c.restore(s)
		checkLRU(t, c)
		assert.Equal(t, 2, c.Len())
		v, _ := c.Get("a")
		assert.Equal(t, 1, v)
		c.Add("x", 9)
		c.Add("y", 9)
		checkLRU(t, c)
		_, ok := c.entries["b"]
		assert.False(t, ok, "b is the least recently used after the restore")
	}
}

// TestLRUMatchesAListInRecencyOrder: the cache keeps what a plain list of
// keys in the order of their last use keeps, through random Gets, Peeks,
// Adds (right after a Peek of the same key, as the correlator adds, or of
// another), evictions that free places for new keys, and restores of
// snapshots.
func TestLRUMatchesAListInRecencyOrder(t *testing.T) {
	type model struct {
		order  []string // least recently used first
		values map[string]int
	}
	clone := func(m model) model {
		return model{order: append([]string(nil), m.order...), values: maps.Clone(m.values)}
	}
	touch := func(m *model, key string) {
		m.order = slices.DeleteFunc(m.order, func(k string) bool { return k == key })
		m.order = append(m.order, key)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	c := newLRU[int](4)
	want := model{values: map[string]int{}}
	type saved struct {
		s lruSnapshot[int]
		m model
	}
	var snaps []saved
	for step := range 3000 {
		key := "k" + strconv.Itoa(rng.IntN(7))
		switch op := rng.IntN(10); {
		case op < 3:
			v, ok := c.Peek(key)
			wv, wok := want.values[key]
			require.Equal(t, wok, ok, "step %d: Peek(%s)", step, key)
			require.Equal(t, wv, v, "step %d: Peek(%s)", step, key)
			if rng.IntN(3) > 0 {
				break // Add right after, as the correlator does
			}
			fallthrough
		case op < 6:
			if rng.IntN(4) == 0 {
				key = "k" + strconv.Itoa(rng.IntN(7)) // Add another key than the one peeked
			}
			c.Add(key, step)
			want.values[key] = step
			touch(&want, key)
			if len(want.order) > 4 {
				delete(want.values, want.order[0])
				want.order = want.order[1:]
			}
		case op < 8:
			v, ok := c.Get(key)
			wv, wok := want.values[key]
			require.Equal(t, wok, ok, "step %d: Get(%s)", step, key)
			require.Equal(t, wv, v, "step %d: Get(%s)", step, key)
			if ok {
				touch(&want, key)
			}
		case op < 9:
			snaps = append(snaps, saved{c.snapshot(), clone(want)})
		case len(snaps) > 0:
			s := snaps[rng.IntN(len(snaps))]
			c.restore(s.s)
			want = clone(s.m)
		}
		checkLRU(t, c)
		require.Equal(t, len(want.values), c.Len(), "step %d", step)
	}
}
