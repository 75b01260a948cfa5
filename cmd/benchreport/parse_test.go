package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseLine(t *testing.T) {
	tests := []struct {
		line   string
		want   result
		wantOK bool
	}{
		{
			line:   "BenchmarkSelectorParse/ours-2   \t  285716\t      4132 ns/op\t    1208 B/op\t      25 allocs/op",
			want:   result{name: "SelectorParse/ours", nsPerOp: 4132, allocsPerOp: 25, hasAllocs: true},
			wantOK: true,
		},
		{
			line:   "BenchmarkSelectorMatches/upstream-16 \t 15528490\t        77.12 ns/op",
			want:   result{name: "SelectorMatches/upstream", nsPerOp: 77.12},
			wantOK: true,
		},
		{
			line:   "BenchmarkKernelStep \t 100 \t 41234 ns/op \t 12.5 MB/s \t 0 B/op \t 0 allocs/op",
			want:   result{name: "KernelStep", nsPerOp: 41234, hasAllocs: true},
			wantOK: true,
		},
		{
			line:   "BenchmarkCustomMetric-2  1000  512 ns/op  3.00 pods/op",
			want:   result{name: "CustomMetric", nsPerOp: 512, metrics: map[string]float64{"pods/op": 3}},
			wantOK: true,
		},
		{
			line: "BenchmarkConverge/1000x10-2  1  1680958171 ns/op  1194 converge-ms  90.50 peak-heap-MiB" +
				"  476.0 recover-ms  375807 steps  352254248 B/op  3693174 allocs/op",
			want: result{name: "Converge/1000x10", nsPerOp: 1680958171, allocsPerOp: 3693174, hasAllocs: true,
				metrics: map[string]float64{"converge-ms": 1194, "peak-heap-MiB": 90.5, "recover-ms": 476, "steps": 375807}},
			wantOK: true,
		},
		{line: "BenchmarkSelectorParse/ours-2", wantOK: false},                          // -v prints the name alone first
		{line: "BenchmarkBroken-2   \t--- FAIL: BenchmarkBroken-2", wantOK: false},      // a failure
		{line: "BenchmarkNoTime-2  100  3 allocs/op  0 B/op", wantOK: false},            // no ns/op
		{line: "BenchmarkGarbled-2  100  fast ns/op  0 B/op", wantOK: false},            // not a number
		{line: "Benchmark-2  100  3 ns/op  0 B/op", wantOK: false},                      // no name
		{line: "pkg: github.com/reconcilelab/rlab/core/labels", wantOK: false},          // header
		{line: "ok  \tgithub.com/reconcilelab/rlab/core/labels\t3.021s", wantOK: false}, // summary
		{line: "PASS", wantOK: false},
		{line: "", wantOK: false},
	}
	for _, tt := range tests {
		got, ok := parseLine(tt.line)
		assert.Equal(t, tt.wantOK, ok, "%q", tt.line)
		if tt.wantOK {
			assert.Equal(t, tt.want, got, "%q", tt.line)
		}
	}
}

func TestTrimProcs(t *testing.T) {
	for name, want := range map[string]string{
		"SelectorParse/ours-2":    "SelectorParse/ours",
		"SelectorParse/ours-16":   "SelectorParse/ours",
		"SelectorParse/ours":      "SelectorParse/ours", // GOMAXPROCS=1 adds no suffix
		"KernelStep-2":            "KernelStep",
		"Dedup10kKeys":            "Dedup10kKeys",
		"Workers-2/ours":          "Workers-2/ours", // only the last element carries it
		"Step/pods=1000-4":        "Step/pods=1000",
		"Step/trailing-":          "Step/trailing-",
		"Step/not-a-number-2x":    "Step/not-a-number-2x",
		"Step/two-suffixes-3-2":   "Step/two-suffixes-3",
		"Step/with-dash/ours-8":   "Step/with-dash/ours",
		"Step/size-10/upstream-2": "Step/size-10/upstream",
		"Converge/100x10-2":       "Converge/100x10", // x is not a digit: only -2 goes
		"Converge/10x1000-16":     "Converge/10x1000",
		"Converge/1000x10":        "Converge/1000x10",
	} {
		assert.Equal(t, want, trimProcs(name), name)
	}
}

func TestResultSetTakesMedianOfRuns(t *testing.T) {
	var set resultSet
	for _, ns := range []float64{300, 100, 200, 10_000} { // one slow outlier
		set.add(result{name: "X/ours", nsPerOp: ns, allocsPerOp: ns / 100, hasAllocs: true})
	}
	set.add(result{name: "X/upstream", nsPerOp: 7})

	assert.Equal(t, []string{"X/ours", "X/upstream"}, set.order, "names in the order they first ran")
	assert.Equal(t, 250.0, set.byName["X/ours"].nsPerOp(), "median of an even count is the mean of the middle two")
	allocs, ok := set.byName["X/ours"].allocsPerOp()
	assert.True(t, ok)
	assert.Equal(t, 2.5, allocs)
	_, ok = set.byName["X/upstream"].allocsPerOp()
	assert.False(t, ok, "no run reported allocs/op")
}

func TestResultSetTakesMedianOfReportedFigures(t *testing.T) {
	var set resultSet
	for _, ms := range []float64{130, 125, 900} { // one slow outlier
		set.add(result{name: "Converge/100x10", nsPerOp: ms * 1e6, metrics: map[string]float64{"converge-ms": ms}})
	}

	ms, ok := set.byName["Converge/100x10"].metric("converge-ms")
	assert.True(t, ok)
	assert.Equal(t, 130.0, ms)
	_, ok = set.byName["Converge/100x10"].metric("recover-ms")
	assert.False(t, ok, "no run reported recover-ms")
}
