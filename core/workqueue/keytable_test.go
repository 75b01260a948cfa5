package workqueue

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKeyTableAgainstAMap drives the table with random inserts, lookups and
// deletes over a small key space (so that runs of slots form, wrap round the
// end of the table and are cut by deletes), checks its invariants after every
// operation, and compares it with a Go map.
func TestKeyTableAgainstAMap(t *testing.T) {
	for seed := uint64(0); seed < 6; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		var tab keyTable
		want := map[string]bool{}
		for i := 0; i < 2000; i++ {
			key := "ns/k" + strconv.Itoa(rng.IntN(200))
			switch rng.IntN(3) {
			case 0:
				r, inserted := tab.findOrInsert(key)
				require.Equal(t, !want[key], inserted, "seed %d op %d: insert %q", seed, i, key)
				tab.state[r] = stateDirty
				want[key] = true
			case 1:
				if _, slot, ok := tab.find(key); ok {
					tab.removeAt(slot)
				}
				delete(want, key)
			default:
				_, _, ok := tab.find(key)
				require.Equal(t, want[key], ok, "seed %d op %d: find %q", seed, i, key)
			}
			require.NoError(t, tab.check(), "seed %d op %d", seed, i)
			require.Equal(t, len(want), tab.used)
		}
	}
}

// TestKeyTableClustersStayShort checks the hash on the keys a controller
// makes: names that share a long prefix and differ in a short suffix. A weak
// hash would pile them into long runs of slots; this one must not.
func TestKeyTableClustersStayShort(t *testing.T) {
	for _, keyOf := range []func(int) string{
		func(i int) string { return "default/obj-" + strconv.Itoa(i) },
		func(i int) string { return "ns-" + strconv.Itoa(i%97) + "/web-" + strconv.Itoa(i) },
		func(i int) string { return strconv.Itoa(i) },
	} {
		var tab keyTable
		const n = 100_000
		for i := 0; i < n; i++ {
			r, _ := tab.findOrInsert(keyOf(i))
			tab.state[r] = stateDirty
		}
		mask := len(tab.slots) - 1
		total, longest := 0, 0
		for _, e := range tab.slots {
			if e == 0 {
				continue
			}
			r := int32(uint32(e)) - 1
			_, slot, _ := tab.find(tab.key[r])
			d := (slot - int(uint32(e>>32))&mask) & mask
			total += d
			longest = max(longest, d)
		}
		mean := float64(total) / n
		// Linear probing at a load of at most one half averages half a slot
		// of displacement with a good hash.
		assert.Less(t, mean, 1.0, "mean displacement for keys like %q", keyOf(1))
		assert.Less(t, longest, 64, "longest displacement for keys like %q", keyOf(1))
	}
}

func TestHashKeyUsesEveryByte(t *testing.T) {
	base := "default/web-frontend-7d4b9c"
	seen := map[uint32]string{tagOf(base): base}
	for i := 0; i < len(base); i++ {
		b := []byte(base)
		b[i] ^= 1
		key := string(b)
		_, dup := seen[tagOf(key)]
		assert.False(t, dup, "flipping byte %d of %q leaves the tag unchanged", i, base)
		seen[tagOf(key)] = key
	}
	for n := 0; n <= 17; n++ {
		s := "abcdefghijklmnopq"[:n]
		_, dup := seen[tagOf(s)]
		assert.False(t, dup, "prefix %q collides", s)
		seen[tagOf(s)] = s
	}
}

func TestKeyTableCloneSharesNothing(t *testing.T) {
	var tab keyTable
	for i := 0; i < 10; i++ {
		r, _ := tab.findOrInsert("k" + strconv.Itoa(i))
		tab.state[r] = stateDirty
	}
	c := tab.clone()
	_, slot, _ := tab.find("k3")
	tab.removeAt(slot)
	r, _ := tab.findOrInsert("k99")
	tab.state[r] = stateDirty
	require.NoError(t, tab.check())
	require.NoError(t, c.check())
	_, _, ok := c.find("k3")
	assert.True(t, ok)
	_, _, ok = c.find("k99")
	assert.False(t, ok)
}
