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
not measured: Converge/100x10 (speed-up ≥ 5×, step ≤ 0.35 µs)
not measured: Converge/1000x10 (speed-up ≥ 5×, peak heap ≤ 60 MiB, step ≤ 0.35 µs)
not measured: Converge/10x1000 (speed-up ≥ 5×, peak heap ≤ 60 MiB, step ≤ 0.35 µs)
not measured: StabilizeAsThePage (peak-heap-MiB ≤ 60)
not measured: WasmSize (brotli-bytes ≤ 1400000, raw-bytes ≤ 8500000)
not measured: BrowserLoad (load-ms ≤ 200)
not measured: BrowserLoadThrottled (load-ms ≤ 1000, engine-ms ≤ 3000, progress-ms ≤ 1000)
not measured: BrowserStep (step-ms ≤ 0.5)
not measured: BrowserSeek (seek-ms ≤ 100, wasm-MiB ≤ 256)
not measured: BrowserResponsive (click-ms ≤ 100, stabilize-s ≤ 3, wasm-MiB ≤ 128)
not measured: BrowserPlay (frame-p95-ms ≤ 12, late-frames-% ≤ 5)
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

// convergeOutput is canned go test -bench output with a pair for the first
// table and two of the three convergence scenarios: one within its budget, one
// over both of its limits. go test prints reported figures sorted by unit.
const convergeOutput = `pkg: github.com/reconcilelab/rlab/core/labels
BenchmarkSelectorParse/ours-2         	 1477316	       812.0 ns/op	     384 B/op	       6 allocs/op
BenchmarkSelectorParse/upstream-2     	  299580	      4012 ns/op	    1544 B/op	      25 allocs/op
PASS
ok  	github.com/reconcilelab/rlab/core/labels	3.120s
pkg: github.com/reconcilelab/rlab/core/world
BenchmarkConverge/100x10-2         	       5	  60185129 ns/op	        12.00 converge-ms	        13.05 peak-heap-MiB	         5.000 recover-ms	     40597 steps	         0.3000 us/step	41985172 B/op	  405143 allocs/op
BenchmarkConverge/1000x10-2        	       1	1680958171 ns/op	      1194 converge-ms	        90.50 peak-heap-MiB	       476.0 recover-ms	    375807 steps	         4.440 us/step	352254248 B/op	 3693174 allocs/op
PASS
ok  	github.com/reconcilelab/rlab/core/world	5.365s
`

const wantConvergeTables = `
benchmark      ours ns/op  upstream ns/op  ratio  ours allocs/op  upstream allocs/op  budget                     verdict
SelectorParse  812         4012            0.20   6               25                  ratio ≤ 0.25, allocs ≤ 10  ok

World convergence (R ReplicaSets × P pods, one namespace)
          ours                                                upstream                             speed-up
scenario  converge ms  recover ms  steps   µs/step  peak MiB  pods ms        recover ms  peak MiB  converge  recover  budget                                             verdict
100x10    12           5           40597   0.30     13.1      61.2–96.2      47.1        31.5      8.02×     9.42×    speed-up ≥ 5×, step ≤ 0.35 µs                      ok
1000x10   1194         476         375807  4.44     90.5      2829.3–3997.1  4632.9      233.5     3.35×     9.73×    speed-up ≥ 5×, peak heap ≤ 60 MiB, step ≤ 0.35 µs  OVER
10x1000   -            -           -       -        -         661.8–931.5    547.3       154.5     -         -        speed-up ≥ 5×, peak heap ≤ 60 MiB, step ≤ 0.35 µs  not measured
note: ours also times a scheduler binding every pod, kubelets making it Running and Ready, and Events written; upstream's harness does not.

not measured: SelectorMatches (ratio ≤ 0.5, allocs ≤ 0)
not measured: AddGetDoneSerial (ratio ≤ 0.5, allocs ≤ 1)
not measured: Dedup10kKeys (ratio ≤ 0.5)
not measured: KernelStep (≤ 50000 ns/op)
not measured: StabilizeAsThePage (peak-heap-MiB ≤ 60)
not measured: WasmSize (brotli-bytes ≤ 1400000, raw-bytes ≤ 8500000)
not measured: BrowserLoad (load-ms ≤ 200)
not measured: BrowserLoadThrottled (load-ms ≤ 1000, engine-ms ≤ 3000, progress-ms ≤ 1000)
not measured: BrowserStep (step-ms ≤ 0.5)
not measured: BrowserSeek (seek-ms ≤ 100, wasm-MiB ≤ 256)
not measured: BrowserResponsive (click-ms ≤ 100, stabilize-s ≤ 3, wasm-MiB ≤ 128)
not measured: BrowserPlay (frame-p95-ms ≤ 12, late-frames-% ≤ 5)
`

func TestRunPrintsConvergenceTableAndFailsOverBudget(t *testing.T) {
	var stdout, stderr bytes.Buffer

	status := run(strings.NewReader(convergeOutput), &stdout, &stderr)

	assert.Equal(t, 1, status, "a broken convergence budget fails the run")
	require.True(t, strings.HasPrefix(stdout.String(), convergeOutput), "the input is echoed first, unchanged")
	assert.Equal(t, wantConvergeTables, strings.TrimPrefix(stdout.String(), convergeOutput))
	assert.Equal(t, "benchreport: Converge/1000x10 OVER: speed-up 3.35× < 5× (1194 ms against upstream's 3997.1 ms); "+
		"peak heap 90.5 MiB > 60 MiB; average step 4.44 µs > 0.35 µs\n"+
		"benchreport: FAIL: 1 of 3 measured budgets not met\n", stderr.String(),
		"a scenario that did not run is not counted as measured")
}

func TestRunPassesWhenEveryConvergenceBudgetHolds(t *testing.T) {
	in := strings.NewReplacer("1194 converge-ms", "600.0 converge-ms", "90.50 peak-heap-MiB", "41.20 peak-heap-MiB",
		"4.440 us/step", "0.3100 us/step").
		Replace(convergeOutput)
	var stdout, stderr bytes.Buffer

	status := run(strings.NewReader(in), &stdout, &stderr)

	assert.Equal(t, 0, status, "stderr: %s", &stderr)
	assert.Empty(t, stderr.String())
	assert.Contains(t, stdout.String(), "1000x10   600          476         375807  0.31     41.2      2829.3–3997.1  4632.9      233.5     "+
		"6.66×     9.73×    speed-up ≥ 5×, peak heap ≤ 60 MiB, step ≤ 0.35 µs  ok\n")
}

func TestRunConvergenceAlone(t *testing.T) {
	in := "BenchmarkConverge/10x1000  1  1521811899 ns/op  150.0 converge-ms  30.00 peak-heap-MiB" +
		"  90.00 recover-ms  303566 steps  0.2000 us/step\n" + // GOMAXPROCS=1: no -N suffix
		"BenchmarkConverge/1000x10x3  1  1521811899 ns/op  1500 converge-ms  80.00 peak-heap-MiB\n" // no budget
	var stdout, stderr bytes.Buffer

	status := run(strings.NewReader(in), &stdout, &stderr)

	// No empty first table; a scenario without a budget is shown unjudged;
	// the scenarios that did not run stay in the table and are not listed
	// again below it.
	assert.Equal(t, 0, status, "stderr: %s", &stderr)
	assert.Equal(t, in+`
World convergence (R ReplicaSets × P pods, one namespace)
           ours                                                upstream                             speed-up
scenario   converge ms  recover ms  steps   µs/step  peak MiB  pods ms        recover ms  peak MiB  converge  recover  budget                                             verdict
10x1000    150          90          303566  0.20     30.0      661.8–931.5    547.3       154.5     6.21×     6.08×    speed-up ≥ 5×, peak heap ≤ 60 MiB, step ≤ 0.35 µs  ok
1000x10x3  1500         ?           ?       ?        80.0      -              -           -         -         -        -                                                  -
100x10     -            -           -       -        -         61.2–96.2      47.1        31.5      -         -        speed-up ≥ 5×, step ≤ 0.35 µs                      not measured
1000x10    -            -           -       -        -         2829.3–3997.1  4632.9      233.5     -         -        speed-up ≥ 5×, peak heap ≤ 60 MiB, step ≤ 0.35 µs  not measured
note: ours also times a scheduler binding every pod, kubelets making it Running and Ready, and Events written; upstream's harness does not.

not measured: SelectorParse (ratio ≤ 0.25, allocs ≤ 10)
not measured: SelectorMatches (ratio ≤ 0.5, allocs ≤ 0)
not measured: AddGetDoneSerial (ratio ≤ 0.5, allocs ≤ 1)
not measured: Dedup10kKeys (ratio ≤ 0.5)
not measured: KernelStep (≤ 50000 ns/op)
not measured: StabilizeAsThePage (peak-heap-MiB ≤ 60)
not measured: WasmSize (brotli-bytes ≤ 1400000, raw-bytes ≤ 8500000)
not measured: BrowserLoad (load-ms ≤ 200)
not measured: BrowserLoadThrottled (load-ms ≤ 1000, engine-ms ≤ 3000, progress-ms ≤ 1000)
not measured: BrowserStep (step-ms ≤ 0.5)
not measured: BrowserSeek (seek-ms ≤ 100, wasm-MiB ≤ 256)
not measured: BrowserResponsive (click-ms ≤ 100, stabilize-s ≤ 3, wasm-MiB ≤ 128)
not measured: BrowserPlay (frame-p95-ms ≤ 12, late-frames-% ≤ 5)
`, stdout.String())
}

func TestRunFailsWhenAScenarioReportsNoFigures(t *testing.T) {
	in := "BenchmarkConverge/100x10-2  1  238657864 ns/op\n"
	var stdout, stderr bytes.Buffer

	status := run(strings.NewReader(in), &stdout, &stderr)

	assert.Equal(t, 1, status)
	assert.Contains(t, stdout.String(), "\n100x10    ?            ?           ?      ?        ?         61.2–96.2")
	assert.Equal(t, "benchreport: Converge/100x10 INCOMPLETE: no converge-ms metric; no us/step metric\n"+
		"benchreport: FAIL: 1 of 1 measured budgets not met\n", stderr.String())
}

func TestRunPrintsFiguresAndFailsOverBudget(t *testing.T) {
	in := strings.Join([]string{
		"BenchmarkWasmSize-2   1   5000 ns/op   6900000 raw-bytes   1700000 gzip-bytes   1450000 brotli-bytes",
		"BenchmarkBrowserLoad-2   1   5000 ns/op   120.4 load-ms   180 load-max-ms",
	}, "\n")
	var stdout, stderr bytes.Buffer

	code := run(strings.NewReader(in), &stdout, &stderr)

	assert.Equal(t, 1, code, "brotli-bytes is over its budget")
	out := stdout.String()
	assert.Contains(t, out, "The page (sizes, and timings in headless Chromium)")
	assert.Regexp(t, `WasmSize\s+brotli-bytes=1450000 gzip-bytes=1700000 raw-bytes=6900000\s+brotli-bytes ≤ 1400000, raw-bytes ≤ 8500000\s+OVER`, out)
	assert.Regexp(t, `BrowserLoad\s+load-max-ms=180 load-ms=120\s+load-ms ≤ 200\s+ok`, out)
	assert.Contains(t, stderr.String(), "WasmSize OVER: brotli-bytes 1450000 > 1400000")
}

// judgement is one case of a benchmark line judged by run: the line with
// replace applied, and what run must say of it.
type judgement struct {
	name        string
	replace     []string
	wantCode    int
	wantVerdict string
	wantStderr  string
}

// checkJudgements runs each case on line and checks run's exit code, the
// report's row for the benchmark (rowRE, then the verdict) and what it
// says on stderr.
func checkJudgements(t *testing.T, line, rowRE string, tests []judgement) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := strings.NewReplacer(tt.replace...).Replace(line)
			var stdout, stderr bytes.Buffer

			code := run(strings.NewReader(in), &stdout, &stderr)

			assert.Equal(t, tt.wantCode, code)
			assert.Regexp(t, rowRE+tt.wantVerdict+`\n`, stdout.String())
			if tt.wantStderr == "" {
				assert.Empty(t, stderr.String())
			} else {
				assert.Contains(t, stderr.String(), tt.wantStderr)
			}
		})
	}
}

// TestRunJudgesTheThrottledLoad: the page's figures on a slow network and
// CPU are judged by their own limits, not by BrowserLoad's, and a figure
// with no limit (wasm-Mbit/s, which the benchmark checks itself) is shown.
func TestRunJudgesTheThrottledLoad(t *testing.T) {
	checkJudgements(t,
		"BenchmarkBrowserLoadThrottled-2   1   62149251754 ns/op   2480 engine-ms   850.5 load-ms   712 progress-ms   8.712 wasm-Mbit/s\n",
		`\nBrowserLoadThrottled\s+engine-ms=\d+ load-ms=\d+ (progress-ms=\d+ )?wasm-Mbit/s=8\.712\s+`+
			`load-ms ≤ 1000, engine-ms ≤ 3000, progress-ms ≤ 1000\s+`,
		[]judgement{
			{"within", nil, 0, "ok", ""},
			{"engine late", []string{"2480 engine-ms", "3012 engine-ms"}, 1, "OVER", "BrowserLoadThrottled OVER: engine-ms 3012 > 3000"},
			{"progress late", []string{"712 progress-ms", "1250 progress-ms"}, 1, "OVER", "BrowserLoadThrottled OVER: progress-ms 1250 > 1000"},
			{"interactive late", []string{"850.5 load-ms", "1001 load-ms"}, 1, "OVER", "BrowserLoadThrottled OVER: load-ms 1001 > 1000"},
			{"no progress", []string{"712 progress-ms", ""}, 1, "INCOMPLETE", "BrowserLoadThrottled INCOMPLETE: no progress-ms metric"},
		})
}

// TestRunJudgesPlay: the trace figures of a 1,000-pod world playing are held
// to their limits, each on its own; the figures with none (frames, steps/s)
// are shown, and a limited figure that is missing fails the run.
func TestRunJudgesPlay(t *testing.T) {
	checkJudgements(t,
		"BenchmarkBrowserPlay-2   1   20628906604 ns/op   9.8 frame-p95-ms   598 frames   3.2 late-frames-%   48.5 steps/s\n",
		`\nBrowserPlay\s+frame-p95-ms=[\d.]+ frames=598 (late-frames-%=[\d.]+ )?steps/s=48\.5\s+`+
			`frame-p95-ms ≤ 12, late-frames-% ≤ 5\s+`,
		[]judgement{
			{"within", nil, 0, "ok", ""},
			{"frames too long", []string{"9.8 frame-p95-ms", "127.4 frame-p95-ms"}, 1, "OVER", "BrowserPlay OVER: frame-p95-ms 127.4 > 12"},
			{"frames too late", []string{"3.2 late-frames-%", "64.97 late-frames-%"}, 1, "OVER", "BrowserPlay OVER: late-frames-% 64.97 > 5"},
			{"no late frames figure", []string{"3.2 late-frames-%", ""}, 1, "INCOMPLETE", "BrowserPlay INCOMPLETE: no late-frames-% metric"},
		})
}

func TestRunFailsWhenAFigureIsMissing(t *testing.T) {
	var stdout, stderr bytes.Buffer

	code := run(strings.NewReader("BenchmarkBrowserSeek-2   1   5000 ns/op   40 seek-ms\n"), &stdout, &stderr)

	assert.Equal(t, 1, code)
	assert.Contains(t, stderr.String(), "BrowserSeek INCOMPLETE: no wasm-MiB metric")
}

func TestRunPrintsRolloutsUnjudged(t *testing.T) {
	in := "BenchmarkRollout/10x100-2   1   4129293475 ns/op   18.34 peak-heap-MiB   3073 rollout-ms   69043 steps   44.51 us/step\n"
	var stdout, stderr bytes.Buffer

	code := run(strings.NewReader(in), &stdout, &stderr)

	assert.Equal(t, 0, code, "no budget judges a rollout")
	out := stdout.String()
	assert.Contains(t, out, "Rollouts (D Deployments × P pods, one namespace, set image on every one, to rest)")
	assert.Regexp(t, `\n10x100\s+3073\s+69043\s+44\.51\s+18\.3\s+-\n`, out)
	assert.Empty(t, stderr.String())
}
