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
