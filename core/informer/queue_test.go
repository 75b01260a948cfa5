package informer

import (
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
