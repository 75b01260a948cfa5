package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRefArenaListsStayApart hands out lists across a chunk's end and
// appends to one: no list may see another's refs, or be changed by an
// append to its neighbour.
func TestRefArenaListsStayApart(t *testing.T) {
	var a RefArena
	assert.Nil(t, a.Of(), "no refs, no list")
	var lists [][]Ref
	for i := range arenaChunk + 3 {
		name := string(rune('a' + i%26))
		lists = append(lists, a.Of(Ref{Kind: "pod", Name: name}, Ref{Kind: "rs", Name: name}))
	}
	grown := append(lists[0], Ref{Kind: "node", Name: "x"})
	require.Len(t, grown, 3)
	for i, l := range lists {
		name := string(rune('a' + i%26))
		require.Equal(t, []Ref{{Kind: "pod", Name: name}, {Kind: "rs", Name: name}}, l, "list %d", i)
		assert.Equal(t, len(l), cap(l), "list %d is capped at its length", i)
	}
	big := make([]Ref, arenaChunk+1)
	assert.Len(t, a.Of(big...), arenaChunk+1, "a list longer than a chunk gets a chunk of its own")
}

// TestRefArenaAllocatesOncePerChunk proves the point of the arena: a
// thousand one-ref lists cost a handful of allocations, not a thousand.
func TestRefArenaAllocatesOncePerChunk(t *testing.T) {
	var a RefArena
	ref := Ref{Kind: "pod", Namespace: "default", Name: "web"}
	allocs := testing.AllocsPerRun(10, func() {
		for range arenaChunk {
			_ = a.Of(ref)
		}
	})
	assert.LessOrEqual(t, allocs, 1.0)
}

// TestRefArenaReusedAllocatesNothing: an arena reused at every step, as a
// component reuses its own when a step it handles starts, hands out the
// step's lists from the chunk it already has.
func TestRefArenaReusedAllocatesNothing(t *testing.T) {
	var a RefArena
	ref := Ref{Kind: "pod", Namespace: "default", Name: "web-1"}
	a.Of(ref, ref) // the first chunk
	allocs := testing.AllocsPerRun(1000, func() {
		a.Reuse()
		_ = a.Of(ref)
		_ = a.Of(ref, ref)
	})
	assert.Zero(t, allocs)
}

// TestKeptStepsOutliveTheArena: once the arena that made a step's lists is
// reused, the step as the log keeps it, and as Kept keeps it, still has
// its own lists, while the step as it ran reads the new ones.
func TestKeptStepsOutliveTheArena(t *testing.T) {
	var refs RefArena
	var hands HandoffArena
	log := StepLog{Keep: 100}
	step := func(n uint64, name string) StepResult {
		refs.Reuse()
		hands.Reuse()
		return StepResult{N: n, Report: Report{Summary: Text("step"),
			Touched: refs.Of(Ref{Kind: "pod", Namespace: "default", Name: name}),
			Handed:  hands.Of(Handoff{To: "queue", What: "default/" + name})}}
	}
	first := step(1, "a")
	log.Push(&first)
	kept := first.Kept()
	second := step(2, "b")
	log.Push(&second)

	assert.Equal(t, "b", first.Touched[0].Name, "the step as it ran shares the arena's chunk, now the next step's")
	assert.Equal(t, "a", kept.Touched[0].Name)
	assert.Equal(t, "default/a", kept.Handed[0].What)
	assert.Equal(t, "a", log.At(0).Touched[0].Name, "the log keeps lists of its own")
	assert.Equal(t, "default/a", log.At(0).Handed[0].What)
	assert.Equal(t, "b", log.At(1).Touched[0].Name)
}
