package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// benchOutput is canned go test -bench output from two packages: a budget met,
// a budget broken, a pair without a budget, a benchmark with neither, and
// lines that are not results.
const benchOutput = `goos: linux
goarch: amd64
pkg: github.com/reconcilelab/rlab/core/labels
cpu: Intel(R) Xeon(R) CPU @ 2.20GHz
BenchmarkSelectorParse/ours-2         	 1477316	       812.0 ns/op	     384 B/op	       6 allocs/op
BenchmarkSelectorParse/upstream-2     	  299580	      4012 ns/op	    1544 B/op	      25 allocs/op
BenchmarkSelectorMatches/ours-2       	24113270	        49.10 ns/op	       0 B/op	       0 allocs/op
BenchmarkSelectorMatches/upstream-2   	15528490	        77.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkLexer-2                      	 5000000	       230.0 ns/op	      16 B/op	       1 allocs/op
PASS
ok  	github.com/reconcilelab/rlab/core/labels	9.120s
pkg: github.com/reconcilelab/rlab/core/sim
BenchmarkKernelStep-2                 	   30000	     41234 ns/op	     128 B/op	       2 allocs/op
BenchmarkAgendaPush/ours-2            	10000000	       110.0 ns/op	       0 B/op	       0 allocs/op
BenchmarkAgendaPush/upstream-2        	 5000000	       330.0 ns/op	      48 B/op	       1 allocs/op
PASS
ok  	github.com/reconcilelab/rlab/core/sim	4.402s
`

const wantTable = `
benchmark        ours ns/op  upstream ns/op  ratio  ours allocs/op  upstream allocs/op  budget                     verdict
SelectorParse    812         4012            0.20   6               25                  ratio ≤ 0.25, allocs ≤ 10  ok
SelectorMatches  49.1        77.0            0.64   0               0                   ratio ≤ 0.5, allocs ≤ 0    OVER
KernelStep       41234       -               -      2               -                   ≤ 50000 ns/op              ok
AgendaPush       110         330             0.33   0               1                   -                          -

not measured: AddGetDoneSerial (ratio ≤ 0.5, allocs ≤ 1)
not measured: Dedup10kKeys (ratio ≤ 0.5)
`

func TestRunEchoesInputThenReportsAndFailsOverBudget(t *testing.T) {
	var stdout, stderr bytes.Buffer

	status := run(strings.NewReader(benchOutput), &stdout, &stderr)

	assert.Equal(t, 1, status, "a broken budget fails the run")
	require.True(t, strings.HasPrefix(stdout.String(), benchOutput), "the input is echoed first, unchanged")
	assert.Equal(t, wantTable, strings.TrimPrefix(stdout.String(), benchOutput))
	assert.Equal(t, "benchreport: SelectorMatches OVER: ratio 0.64 > 0.5\n"+
		"benchreport: FAIL: 1 of 3 measured budgets not met\n", stderr.String())
}

func TestRunPassesWhenEveryMeasuredBudgetHolds(t *testing.T) {
	in := strings.ReplaceAll(benchOutput, "49.10 ns/op", "30.00 ns/op")
	var stdout, stderr bytes.Buffer

	status := run(strings.NewReader(in), &stdout, &stderr)

	assert.Equal(t, 0, status, "stderr: %s", &stderr)
	assert.Empty(t, stderr.String())
	assert.Contains(t, stdout.String(), "not measured: Dedup10kKeys", "unmeasured budgets are reported, not failed")
}

func TestRunFailsWhenABudgetCannotBeChecked(t *testing.T) {
	in := "BenchmarkSelectorParse/ours-2  1000  812 ns/op\n" // no upstream, no -benchmem
	var stdout, stderr bytes.Buffer

	status := run(strings.NewReader(in), &stdout, &stderr)

	assert.Equal(t, 1, status)
	assert.Contains(t, stdout.String(), "INCOMPLETE")
	assert.Contains(t, stderr.String(), "SelectorParse INCOMPLETE: no upstream sub-benchmark to compare with; "+
		"no allocs/op (run go test with -benchmem)")
}

func TestRunWithoutBenchmarks(t *testing.T) {
	in := "?   \tgithub.com/reconcilelab/rlab/lessons\t[no test files]\n"
	var stdout, stderr bytes.Buffer

	status := run(strings.NewReader(in), &stdout, &stderr)

	assert.Equal(t, 0, status)
	assert.Contains(t, stdout.String(), "no ours/upstream pairs or budgeted benchmarks in the input")
	assert.Equal(t, len(budgets), strings.Count(stdout.String(), "not measured: "))
}
