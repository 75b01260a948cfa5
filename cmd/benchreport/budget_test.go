package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// measured builds the samples of one benchmark that ran once.
func measured(ns, allocs float64) *samples {
	return &samples{ns: []float64{ns}, allocs: []float64{allocs}}
}

func TestBudgetCheck(t *testing.T) {
	ratioAndAllocs := budget{Name: "SelectorParse", MaxRatio: 0.25, MaxAllocs: 10}
	zeroAllocs := budget{Name: "SelectorMatches", MaxRatio: 0.5, MaxAllocs: 0}
	absolute := budget{Name: "KernelStep", MaxNsPerOp: 50_000, MaxAllocs: anyAllocs}

	tests := []struct {
		name         string
		budget       budget
		ours         *samples
		upstream     *samples
		wantVerdict  string
		wantProblems []string
	}{
		{"within both limits", ratioAndAllocs, measured(800, 6), measured(4000, 25), verdictOK, nil},
		{"exactly at the limits", ratioAndAllocs, measured(1000, 10), measured(4000, 25), verdictOK, nil},
		{"too slow", ratioAndAllocs, measured(1240, 6), measured(4000, 25), verdictOver, []string{"ratio 0.31 > 0.25"}},
		{"allocates too much", ratioAndAllocs, measured(800, 11), measured(4000, 25), verdictOver, []string{"11 allocs/op > 10"}},
		{"both", ratioAndAllocs, measured(2000, 12), measured(4000, 25), verdictOver,
			[]string{"ratio 0.50 > 0.25", "12 allocs/op > 10"}},
		{"zero allocations means zero", zeroAllocs, measured(30, 1), measured(77, 0), verdictOver, []string{"1 allocs/op > 0"}},
		{"zero allocations met", zeroAllocs, measured(30, 0), measured(77, 0), verdictOK, nil},
		{"upstream twin missing", ratioAndAllocs, measured(800, 6), nil, verdictIncomplete,
			[]string{"no upstream sub-benchmark to compare with"}},
		{"only upstream ran", ratioAndAllocs, nil, measured(4000, 25), verdictIncomplete, []string{"no ours sub-benchmark"}},
		{"allocs not reported", ratioAndAllocs, &samples{ns: []float64{800}}, measured(4000, 25), verdictIncomplete,
			[]string{"no allocs/op (run go test with -benchmem)"}},
		{"over beats incomplete", ratioAndAllocs, &samples{ns: []float64{4000}}, measured(4000, 25), verdictOver,
			[]string{"ratio 1.00 > 0.25", "no allocs/op (run go test with -benchmem)"}},
		{"absolute within", absolute, measured(41_000, 3), nil, verdictOK, nil},
		{"absolute over", absolute, measured(52_500, 3), nil, verdictOver, []string{"52500 ns/op > 50000"}},
		{"absolute ignores allocs", absolute, &samples{ns: []float64{1000}}, nil, verdictOK, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			verdict, problems := tt.budget.check(tt.ours, tt.upstream)

			assert.Equal(t, tt.wantVerdict, verdict)
			assert.Equal(t, tt.wantProblems, problems)
		})
	}
}

func TestBudgetCovers(t *testing.T) {
	b := budget{Name: "SelectorParse"}

	assert.True(t, b.covers("SelectorParse"))
	assert.True(t, b.covers("SelectorParse/complex"), "sub-benchmarks share their parent's budget")
	assert.False(t, b.covers("SelectorParseStrict"), "a longer name is another benchmark")
	assert.False(t, b.covers("Selector"))
}

func TestBudgetString(t *testing.T) {
	assert.Equal(t, "ratio ≤ 0.25, allocs ≤ 10", budget{MaxRatio: 0.25, MaxAllocs: 10}.String())
	assert.Equal(t, "ratio ≤ 0.5", budget{MaxRatio: 0.5, MaxAllocs: anyAllocs}.String())
	assert.Equal(t, "≤ 50000 ns/op", budget{MaxNsPerOp: 50_000, MaxAllocs: anyAllocs}.String())
}

// TestBudgetsTable keeps the project's table well formed.
func TestBudgetsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, b := range budgets {
		assert.False(t, seen[b.Name], "%s is listed twice", b.Name)
		seen[b.Name] = true
		assert.NotEmpty(t, b.Name)
		assert.False(t, strings.HasPrefix(b.Name, "Benchmark"), "%s: write names without Benchmark", b.Name)
		assert.False(t, b.MaxRatio > 0 && b.MaxNsPerOp > 0,
			"%s: a benchmark has an upstream twin (MaxRatio) or not (MaxNsPerOp), not both", b.Name)
		assert.True(t, b.MaxRatio > 0 || b.MaxNsPerOp > 0 || b.MaxAllocs != anyAllocs, "%s limits nothing", b.Name)
		assert.True(t, b.MaxAllocs == anyAllocs || b.MaxAllocs >= 0, "%s: MaxAllocs is a count or anyAllocs", b.Name)
	}
}
