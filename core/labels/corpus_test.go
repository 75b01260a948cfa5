package labels

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// benchSelector is the selector every selector benchmark parses and matches, the
// same one the upstream benchmark harness uses, so the figures are comparable.
const benchSelector = "app=web,tier in (front,back),!canary"

var (
	corpusApps  = []string{"web", "api", "db"}
	corpusTiers = []string{"front", "back", "cache", ""} // "" means: no tier label
)

// corpusSet returns the i-th label set of the benchmark corpus, by the formula of
// the upstream harness:
//
//	app     = ["web","api","db"][i%3]
//	tier    = ["front","back","cache",<absent>][(i/3)%4]
//	canary  = "true" when (i/12)%5 == 0, otherwise absent
//	version = "v" + (i%7)
//	pod-template-hash = decimal (i*2654435761) mod 2^32
func corpusSet(i int) Set {
	s := Set{
		"app":               corpusApps[i%3],
		"version":           "v" + strconv.Itoa(i%7),
		"pod-template-hash": strconv.FormatUint(uint64(uint32(uint64(i)*2654435761)), 10),
	}
	if tier := corpusTiers[(i/3)%4]; tier != "" {
		s["tier"] = tier
	}
	if (i/12)%5 == 0 {
		s["canary"] = "true"
	}
	return s
}

func corpusSets(n int) []Set {
	sets := make([]Set, n)
	for i := range sets {
		sets[i] = corpusSet(i)
	}
	return sets
}

// TestBenchmarkCorpusMatchesEightInSixty pins the benchmark's workload: every block
// of 60 consecutive sets holds each (app, tier, canary) combination once, and the
// selector wants app=web (1 in 3), tier front or back (2 in 4) and no canary
// (4 in 5), so it matches 60 × 1/3 × 1/2 × 4/5 = 8 sets of every 60.
func TestBenchmarkCorpusMatchesEightInSixty(t *testing.T) {
	sel, err := Parse(benchSelector)
	require.NoError(t, err)
	sets := corpusSets(6_000)
	for block := 0; block < len(sets); block += 60 {
		matched := 0
		for _, set := range sets[block : block+60] {
			if sel.Matches(set) {
				matched++
			}
		}
		require.Equal(t, 8, matched, "sets %d to %d", block, block+59)
	}
	// Spot checks against the formula, independent of the selector code.
	assert.True(t, sel.Matches(corpusSet(12)), "web, front, no canary")
	assert.False(t, sel.Matches(corpusSet(0)), "web, front, canary")
	assert.False(t, sel.Matches(corpusSet(18)), "web, cache")
	assert.False(t, sel.Matches(corpusSet(13)), "api")
	assert.Equal(t, "2654435761", corpusSet(1)["pod-template-hash"])
	assert.Equal(t, "1013904226", corpusSet(2)["pod-template-hash"], "the product wraps at 2^32")
}

// TestMatchesDoesNotAllocate holds Matches to its budget of zero allocations, for
// every operator, on matching and failing sets, including the non-numeric value
// that would make strconv allocate an error.
func TestMatchesDoesNotAllocate(t *testing.T) {
	sel, err := Parse("a=1,b!=2,c in (x,y),d notin (z),e,!f,g>1,h<9,i==q")
	require.NoError(t, err)
	matching := Set{"a": "1", "b": "3", "c": "x", "d": "w", "e": "", "g": "5", "h": "0", "i": "q"}
	failing := Set{"a": "1", "b": "3", "c": "x", "d": "w", "e": "", "g": "five"}
	require.True(t, sel.Matches(matching))
	require.False(t, sel.Matches(failing))

	reqs, _ := sel.Requirements()
	allocs := testing.AllocsPerRun(1000, func() {
		sel.Matches(matching)
		sel.Matches(failing)
		for _, r := range reqs {
			r.Matches(failing)
		}
	})
	assert.Zero(t, allocs)
}

// TestParseAllocations holds Parse to its budget: the benchmark selector costs two
// allocations, one for the requirements and one for all their values.
func TestParseAllocations(t *testing.T) {
	allocs := testing.AllocsPerRun(1000, func() {
		if _, err := Parse(benchSelector); err != nil {
			t.Fatal(err)
		}
	})
	assert.LessOrEqual(t, allocs, 2.0)
	assert.Zero(t, testing.AllocsPerRun(100, func() { _, _ = Parse("") }), "the empty selector is free")
}
