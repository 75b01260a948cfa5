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

// converged builds the samples of one convergence scenario that ran once.
func converged(convergeMs, peakHeapMiB float64) *samples {
	return &samples{ns: []float64{1e9}, metrics: map[string][]float64{
		metricConvergeMs:  {convergeMs},
		metricPeakHeapMiB: {peakHeapMiB},
	}}
}

func TestBudgetCheckConvergence(t *testing.T) {
	up := &upstreamRun{PodsMs: 6912, PodsMsMin: 5586, RecoverMs: 8999, PeakHeapMiB: 224}
	both := budget{Name: "Converge/1000x10", MinSpeedup: 10, MaxPeakHeapMiB: 60, MaxAllocs: anyAllocs, Upstream: up}
	speedOnly := budget{Name: "Converge/100x10", MinSpeedup: 10, MaxAllocs: anyAllocs,
		Upstream: &upstreamRun{PodsMs: 137, PodsMsMin: 109, RecoverMs: 72, PeakHeapMiB: 29.1}}
	stepLimited := budget{Name: "Converge/10x1000", MaxUsPerStep: 0.35, MaxAllocs: anyAllocs}
	stepped := func(us float64) *samples {
		return &samples{ns: []float64{1e9}, metrics: map[string][]float64{metricUsPerStep: {us}}}
	}

	tests := []struct {
		name         string
		budget       budget
		ours         *samples
		wantVerdict  string
		wantProblems []string
	}{
		{"within both limits", both, converged(600, 41.2), verdictOK, nil},
		{"exactly at the limits", both, converged(691.2, 60), verdictOK, nil},
		{"too slow", both, converged(1194, 41.2), verdictOver,
			[]string{"speed-up 5.79× < 10× (1194 ms against upstream's 6912 ms)"}},
		{"too much heap", both, converged(600, 90.5), verdictOver, []string{"peak heap 90.5 MiB > 60 MiB"}},
		{"both", both, converged(1194, 90.5), verdictOver,
			[]string{"speed-up 5.79× < 10× (1194 ms against upstream's 6912 ms)", "peak heap 90.5 MiB > 60 MiB"}},
		{"heap unchecked without a limit", speedOnly, converged(12, 500), verdictOK, nil},
		{"figures not reported", both, measured(1e9, 3), verdictIncomplete,
			[]string{"no converge-ms metric", "no peak-heap-MiB metric"}},
		{"over beats incomplete", both, &samples{ns: []float64{1e9},
			metrics: map[string][]float64{metricConvergeMs: {1194}}}, verdictOver,
			[]string{"speed-up 5.79× < 10× (1194 ms against upstream's 6912 ms)", "no peak-heap-MiB metric"}},
		{"no upstream figures", budget{Name: "X", MinSpeedup: 10, MaxAllocs: anyAllocs}, converged(1, 1),
			verdictIncomplete, []string{"no upstream figures to compare with"}},
		{"steps within their limit", stepLimited, stepped(0.35), verdictOK, nil},
		{"steps too slow", stepLimited, stepped(1.32), verdictOver, []string{"average step 1.32 µs > 0.35 µs"}},
		{"step not reported", stepLimited, converged(600, 41.2), verdictIncomplete, []string{"no us/step metric"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			verdict, problems := tt.budget.check(tt.ours, nil)

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
	assert.Equal(t, "speed-up ≥ 10×, peak heap ≤ 60 MiB",
		budget{MinSpeedup: 10, MaxPeakHeapMiB: 60, MaxAllocs: anyAllocs}.String())
	assert.Equal(t, "speed-up ≥ 5×, step ≤ 0.35 µs",
		budget{MinSpeedup: 5, MaxUsPerStep: 0.35, MaxAllocs: anyAllocs}.String())
}

func TestBudgetMetricBased(t *testing.T) {
	assert.True(t, budget{MinSpeedup: 10}.metricBased())
	assert.True(t, budget{MaxPeakHeapMiB: 60}.metricBased())
	assert.True(t, budget{MaxUsPerStep: 0.35}.metricBased())
	assert.False(t, budget{MaxRatio: 0.5}.metricBased())
	assert.False(t, budget{MaxNsPerOp: 50_000, MaxAllocs: 0}.metricBased())
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
		assert.True(t, b.MaxRatio > 0 || b.MaxNsPerOp > 0 || b.MaxAllocs != anyAllocs || b.metricBased() || b.figureBased(),
			"%s limits nothing", b.Name)
		assert.False(t, (b.metricBased() || b.figureBased()) && (b.MaxRatio > 0 || b.MaxNsPerOp > 0),
			"%s: a benchmark is judged by ns/op or by its reported figures, not both", b.Name)
		assert.False(t, b.metricBased() && b.figureBased(),
			"%s: a benchmark is a convergence scenario or has plain figure limits, not both", b.Name)
		assert.Equal(t, b.MinSpeedup > 0, b.Upstream != nil,
			"%s: a speed-up needs upstream figures, and upstream figures are there for a speed-up", b.Name)
		if b.Upstream != nil {
			assert.True(t, 0 < b.Upstream.PodsMsMin && b.Upstream.PodsMsMin <= b.Upstream.PodsMs,
				"%s: the fastest upstream run is no slower than the median", b.Name)
			assert.Positive(t, b.Upstream.RecoverMs, b.Name)
			assert.Positive(t, b.Upstream.PeakHeapMiB, b.Name)
		}
		assert.True(t, b.MaxAllocs == anyAllocs || b.MaxAllocs >= 0, "%s: MaxAllocs is a count or anyAllocs", b.Name)
	}
}
