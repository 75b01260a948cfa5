package informer

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQueueKeepsOrderAndReusesItsArray pins the buffer a handler's
// notifications and the DeltaFIFO's keys wait in: first in, first out,
// whatever the interleaving of pushes and pops, and items that come and go
// one at a time (the usual case) reuse one array instead of getting a new
// one each.
func TestQueueKeepsOrderAndReusesItsArray(t *testing.T) {
	var q queue[string]
	var want, got []string
	next := 0
	for round := range 50 {
		for range round%4 + 1 {
			x := "k" + strconv.Itoa(next)
			next++
			want = append(want, x)
			q.push(x)
		}
		for range round % 3 {
			if q.len() > 0 {
				got = append(got, q.pop())
			}
		}
		snap := q.clone()
		require.Equal(t, q.waiting(), snap.waiting())
		require.Equal(t, len(want)-len(got), q.len())
	}
	for q.len() > 0 {
		got = append(got, q.pop())
	}
	assert.Equal(t, want, got)
	assert.LessOrEqual(t, cap(q.items), 2*next, "the taken front is reused")

	var one queue[notification]
	allocs := testing.AllocsPerRun(100, func() {
		one.push(notification{kind: notifyDelete})
		one.pop()
	})
	assert.Zero(t, allocs, "one item at a time needs no new array")
}

// TestDeltaFIFORecycledDeltasHoldTheNextKeysDeltas pins Recycle: an array
// handed back after a Pop takes the deltas of the next key that gets
// some, holding nothing of the old ones, so that a watch event followed by
// its processing allocates no array for the deltas.
func TestDeltaFIFORecycledDeltasHoldTheNextKeysDeltas(t *testing.T) {
	ix := NewIndexer()
	f := NewDeltaFIFO(ix)
	f.Add(pod("a", 1))
	f.Update(pod("a", 2))
	_, d, _, ok := f.Pop()
	require.True(t, ok)
	require.Equal(t, "Added,Updated", deltaTypes(d))
	f.Recycle(d)

	f.Add(pod("b", 3))
	key, d2, _, _ := f.Pop()
	assert.Equal(t, "default/b", key)
	assert.Equal(t, "Added", deltaTypes(d2))
	assert.Same(t, &d[:1][0], &d2[0], "the recycled array is reused")
	assert.Equal(t, Delta{}, d[:2][1], "a recycled array keeps no old object alive")
	f.Recycle(d2)

	b4 := pod("b", 4)
	allocs := testing.AllocsPerRun(100, func() {
		f.update("default/b", b4)
		_, d, _, _ := f.Pop()
		f.Recycle(d)
	})
	assert.Zero(t, allocs)
	checkFIFO(t, f)
}

// TestDeltaFIFOMatchesASimpleModel drives the DeltaFIFO with a long,
// interleaved run of changes, pops and snapshots and compares it, step by
// step, with the plainest model of its rules: a list of keys in the order
// they first got a pending delta and, per key, its deltas. The queue entries
// move within their array as it fills and empties; the map must find them.
func TestDeltaFIFOMatchesASimpleModel(t *testing.T) {
	ix := NewIndexer()
	f := NewDeltaFIFO(ix)
	var order []string
	model := map[string][]string{}
	rng := rand.New(rand.NewPCG(1, 2))
	var snap fifoSnapshot
	var snapOrder []string
	snapModel := map[string][]string{}
	for step := range 3000 {
		switch r := rng.IntN(10); {
		case r < 5:
			name := "k" + strconv.Itoa(rng.IntN(40))
			f.Update(pod(name, step))
			key := "default/" + name
			if _, ok := model[key]; !ok {
				order = append(order, key)
			}
			model[key] = append(model[key], "Updated")
		case r < 9:
			key, d, _, ok := f.Pop()
			require.Equal(t, len(order) > 0, ok)
			if ok {
				require.Equal(t, order[0], key)
				require.Equal(t, strings.Join(model[key], ","), deltaTypes(d))
				delete(model, key)
				order = order[1:]
				f.Recycle(d)
			}
		case step%7 == 0:
			snap = f.snapshot()
			snapOrder = slices.Clone(order)
			snapModel = maps.Clone(model)
		default:
			f.restore(snap)
			order = slices.Clone(snapOrder)
			model = maps.Clone(snapModel)
		}
		checkFIFO(t, f)
		keys, items := pending(f)
		require.Equal(t, len(order), len(keys))
		for i, k := range keys {
			require.Equal(t, order[i], k)
			require.Equal(t, strings.Join(model[k], ","), deltaTypes(items[k]))
		}
	}
}
