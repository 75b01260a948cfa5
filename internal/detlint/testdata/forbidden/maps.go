package forbidden

import (
	"iter"
	"maps"
	"slices"
	"strings"
)

// labelSet is a named map type; ranging over it is ranging over a map.
type labelSet map[string]string

// mapOrder ranges over maps, and over the iterators of package maps, every way
// the lint must catch.
func mapOrder(counts map[string]int, labels labelSet) []string {
	var out []string
	for k := range counts { // want "range over map[string]int"
		out = append(out, k)
	}
	for k, v := range labels { // want "range over labelSet"
		out = append(out, k+"="+v)
	}
	for k := range maps.Keys(counts) { // want "maps.Keys"
		out = append(out, k)
	}
	for v := range maps.Values(labels) { // want "maps.Values"
		out = append(out, v)
	}
	for k := range maps.All(labels) { // want "maps.All"
		out = append(out, k)
	}
	// Collecting keys into a slice keeps their random order.
	return append(out, slices.Collect(maps.Keys(labels))...) // want "maps.Keys"
}

// keysOf ranges over a type parameter whose core type is a map.
func keysOf[M ~map[string]V, V any](m M) []string {
	var out []string
	for k := range m { // want "type parameter"
		out = append(out, k)
	}
	return out
}

// sortedOrder does what the kernel does instead.
func sortedOrder(counts map[string]int, labels labelSet, word string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		out = append(out, k)
	}
	for _, k := range slices.SortedFunc(maps.Keys(labels), strings.Compare) {
		out = append(out, k)
	}
	for _, v := range slices.Sorted(maps.Values(labels)) {
		out = append(out, v)
	}
	// Cloning and copying give the same map whatever order they walk in.
	copied := maps.Clone(labels)
	maps.Copy(copied, labels)
	for i := range 3 {
		out = append(out, out[i%len(out)])
	}
	for _, r := range word {
		out = append(out, string(r))
	}
	for i, s := range out {
		out[i] = strings.ToUpper(s)
	}
	for s := range countdown(3) {
		out = append(out, s)
	}
	for s := range slices.Values(out) {
		_ = s
	}
	return out
}

// countdown is a function iterator that does not come from package maps; its
// order is whatever it yields, the same on every run.
func countdown(n int) iter.Seq[string] {
	return func(yield func(string) bool) {
		for i := n; i > 0; i-- {
			if !yield(strings.Repeat("*", i)) {
				return
			}
		}
	}
}
