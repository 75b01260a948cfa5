package parity

import "strings"

// Known is one row of the table of known divergences: a difference of
// state that parity allows, because upstream's source makes it so and rlab
// chose otherwise, or because the real run cannot be made deterministic.
type Known struct {
	// Match picks the differences the row explains.
	Match func(Line) bool
	// Why explains it, naming the upstream source.
	Why string
}

// KnownDivergences is the table. Keep it short: a row is a debt, and each
// names where upstream decides. README.md shows the same table.
var KnownDivergences = []Known{}

// KnownDivergence returns why a difference is known, or "".
func KnownDivergence(l Line) string {
	for _, k := range KnownDivergences {
		if k.Match(l) {
			return k.Why
		}
	}
	return ""
}

// keyHas is a Match for the differences whose key holds all the words.
func keyHas(words ...string) func(Line) bool {
	return func(l Line) bool {
		for _, w := range words {
			if !strings.Contains(l.Key, w) {
				return false
			}
		}
		return true
	}
}
