package sorting

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// pair has a key that many elements share and a tag that tells them apart,
// so that the order of ties shows.
type pair struct {
	key, tag int
}

func byKey(a, b pair) int { return a.key - b.key }

// TestFuncOrdersTiesAsSlicesSortFuncDoes pins what core/labels relies on:
// Func leaves elements that compare equal in exactly the order
// slices.SortFunc leaves them, for short slices (insertion sort) and long
// ones (pattern-defeating quicksort) alike.
func TestFuncOrdersTiesAsSlicesSortFuncDoes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 12, 13, 50, 1000} {
		for range 20 {
			in := make([]pair, n)
			for i := range in {
				in[i] = pair{key: r.IntN(5), tag: i}
			}
			want, got := slices.Clone(in), slices.Clone(in)
			slices.SortFunc(want, byKey)
			Func(got, byKey)
			require.Equal(t, want, got, "n=%d", n)
		}
	}
}

func TestStableKeepsEqualElementsInOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 20, 21, 500} {
		in := make([]pair, n)
		for i := range in {
			in[i] = pair{key: r.IntN(4), tag: i}
		}
		want, got := slices.Clone(in), slices.Clone(in)
		slices.SortStableFunc(want, byKey)
		Stable(got, byKey)
		require.Equal(t, want, got, "n=%d", n)
		require.True(t, slices.IsSortedFunc(got, func(a, b pair) int {
			if c := byKey(a, b); c != 0 {
				return c
			}
			return a.tag - b.tag
		}), "equal keys keep their order")
	}
}

// TestShortSortsDoNotAllocate keeps a short sort off the heap: core/labels
// parses a selector in two allocations, and sorts twice on the way.
func TestShortSortsDoNotAllocate(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		var s [shortLen]pair
		for i := range s {
			s[i] = pair{key: shortLen - i, tag: i}
		}
		Func(s[:], byKey)
		Stable(s[:], byKey)
	})
	require.Zero(t, allocs)
}
