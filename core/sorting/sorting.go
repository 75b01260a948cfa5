// Package sorting sorts slices of any type with one copy of the sorting code.
//
// slices.SortFunc and slices.SortStableFunc are generic, and Go compiles a
// generic function once per shape of its type argument: every struct type
// sorted by value gets its own copy of pattern-defeating quicksort,
// insertion sort, heap sort and the stable merge, about 16 KB of wasm each.
// main.wasm held eleven such copies. Func and Stable hand the slice to
// sort.Sort and sort.Stable through sort.Interface instead: what remains per
// type is three one-line methods, and the sorting code exists once.
//
// The order is the one slices.SortFunc gives, tie for tie, because sort.Sort
// runs the same pattern-defeating quicksort: core/labels relies on that to
// order requirements sharing a key as upstream does. The price is an indirect
// call per comparison and, for more than twelve elements, a copy of the
// slice, which no budget notices. Sorting strings in their natural order, by slices.Sort or
// slices.Sorted(maps.Keys(m)), is a single shared copy already and needs no
// help.
package sorting

import "sort"

// Func sorts s in the order cmp gives (negative: a before b), as
// slices.SortFunc does: not stable, and with the same result.
func Func[E any](s []E, cmp func(a, b E) int) {
	if len(s) <= shortLen {
		insertionSort(s, cmp)
		return
	}
	sortCopy(s, cmp, sort.Sort)
}

// Stable sorts s in the order cmp gives, keeping equal elements in their
// order, as slices.SortStableFunc does.
func Stable[E any](s []E, cmp func(a, b E) int) {
	if len(s) <= shortLen {
		insertionSort(s, cmp)
		return
	}
	sortCopy(s, cmp, sort.Stable)
}

// sortCopy sorts a copy of s with sortFunc and copies it back. Handing s
// itself to sort.Interface would make every caller's slice escape to the
// heap, even one that a short sort never hands over: core/labels keeps a
// selector's requirements on the stack while it parses them.
func sortCopy[E any](s []E, cmp func(a, b E) int, sortFunc func(sort.Interface)) {
	tmp := append([]E(nil), s...)
	sortFunc(&sorter[E]{tmp, cmp})
	copy(s, tmp)
}

// shortLen is the longest slice sorted by insertion sort here, without
// sort.Interface: a short sort then allocates nothing (core/labels parses a
// selector in two allocations, and sorts twice). Twelve is where
// pattern-defeating quicksort itself switches to insertion sort, so the
// order of ties is still the one slices.SortFunc gives.
const shortLen = 12

// insertionSort sorts s by moving each element left past every greater one:
// stable, and quick for the few elements it is given.
func insertionSort[E any](s []E, cmp func(a, b E) int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && cmp(s[j], s[j-1]) < 0; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// sorter is s as a sort.Interface.
type sorter[E any] struct {
	s   []E
	cmp func(a, b E) int
}

func (x *sorter[E]) Len() int           { return len(x.s) }
func (x *sorter[E]) Less(i, j int) bool { return x.cmp(x.s[i], x.s[j]) < 0 }
func (x *sorter[E]) Swap(i, j int)      { x.s[i], x.s[j] = x.s[j], x.s[i] }
