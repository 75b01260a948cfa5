// Benchreport turns the output of go test -bench into a verdict on the
// project's performance budgets. make bench runs it:
//
//	go test -run '^$' -bench . -benchmem -count 1 ./... | tee bench.out | go run ./cmd/benchreport
//
// It copies its input to standard output as it arrives, so the benchmarks'
// progress stays visible, and then prints its tables. Exit status 1 means a
// budget was broken.
//
// # Ours against upstream
//
// Most budgets are relative, because the machine a benchmark runs on changes
// and the upstream code it is compared with does not: a benchmark measures our
// code and the Kubernetes code it models as two sub-benchmarks of one
// benchmark, named ours and upstream, on the same machine in the same run:
//
//	func BenchmarkSelectorParse(b *testing.B) {
//		b.Run("ours", func(b *testing.B) { … labels.Parse(s) … })
//		b.Run("upstream", func(b *testing.B) { … k8slabels.Parse(s) … })
//	}
//
// Benchreport pairs BenchmarkX/ours with BenchmarkX/upstream (ignoring the -N
// GOMAXPROCS suffix go test appends) into one row of the table:
//
//	benchmark        ours ns/op  upstream ns/op  ratio  ours allocs/op  upstream allocs/op  budget                   verdict
//	SelectorParse    812         4012            0.20   6               25                  ratio ≤ 0.25, allocs ≤ 10  ok
//
// The ratio is ours ns/op divided by upstream ns/op: 0.20 means ours takes a
// fifth of the time. If a benchmark ran more than once (-count), each figure
// is the median of its runs.
//
// # Budgets
//
// The budgets table in budget.go is the one place budgets live. An entry names
// a benchmark (without "Benchmark"; it also covers that benchmark's
// sub-benchmarks, as in SelectorParse/complex/ours) and limits any of:
//
//   - MaxRatio: ours/upstream ns/op, for a benchmark with an upstream twin;
//   - MaxNsPerOp: absolute ns/op, for one without (KernelStep has no upstream
//     counterpart to race);
//   - MaxAllocs: ours allocs/op, which needs -benchmem;
//   - MinSpeedup, MaxPeakHeapMiB and MaxUsPerStep: figures a convergence
//     scenario reports itself (see below).
//
// A row's verdict is ok, OVER (a limit was broken) or INCOMPLETE (a limit
// could not be checked: the upstream twin, allocs/op or a reported figure is
// missing); OVER and INCOMPLETE both fail the run. A budget whose benchmark
// did not run at all is listed as not measured, which does not fail: a budget
// can be written before its benchmark. Rows without a budget are shown with
// verdict "-".
//
// # World convergence
//
// BenchmarkConverge (core/world) runs whole scenarios, R ReplicaSets of P
// pods created at once in one namespace, and reports its own figures with
// b.ReportMetric: converge-ms, recover-ms (after every 10th pod is killed),
// steps, us/step (the average step of those two phases) and peak-heap-MiB.
// Its upstream twin, the real ReplicaSet controller
// with the fake clientset, is a separate module that takes minutes to build,
// so it cannot run alongside; its figures, measured on this machine, are
// written into the scenario's budget instead (Upstream). Scenarios get a
// second table:
//
//	World convergence (R ReplicaSets × P pods, one namespace)
//	          ours                                                upstream                             speed-up
//	scenario  converge ms  recover ms  steps   µs/step  peak MiB  pods ms        recover ms  peak MiB  converge  recover  budget                                             verdict
//	1000x10   600          476         375807  0.31     41.2      2829.3–3997.1  4632.9      233.5     6.66×     9.73×    speed-up ≥ 5×, peak heap ≤ 60 MiB, step ≤ 0.35 µs  ok
//
// Upstream pods ms is its fastest–median run; each speed-up is upstream's
// median over ours, so 6.66× means ours converged 6.66 times as fast. Once
// any scenario has run, budgeted scenarios that did not are listed in this
// table as not measured, with their upstream figures. A benchmark reporting
// converge-ms without a budget is shown with verdict "-".
//
// # The page
//
// The page's benchmarks report figures too, each judged by plain limits on
// its units (Limits): the size of main.wasm (WasmSize, wasm/) and what a real
// headless Chromium measures (BrowserLoad, BrowserStep, BrowserSeek,
// BrowserResponsive, BrowserPlay and BrowserLoadThrottled, e2e/). They get a
// third table, with every figure a benchmark reported, limited or not:
//
//	The page (sizes, and timings in headless Chromium)
//	benchmark             figures                                                         budget                                                verdict
//	BrowserLoadThrottled  engine-ms=3389 load-ms=1550 progress-ms=1971 wasm-Mbit/s=6.532  load-ms ≤ 1000, engine-ms ≤ 3000, progress-ms ≤ 1000  OVER
//
// BrowserLoadThrottled is the page as a learner on a slow connection and a
// slow machine meets it, with Chromium's network and CPU throttling (the
// engine's Web Worker throttled too): at 9 Mbit/s, 60 ms of round trip and a
// 4× slower CPU, load-ms is the median time to interactive (the first world
// laid out and painted, the controls taking input) and engine-ms the
// median time until the page says "ready", over 5 loads; at 1.6 Mbit/s,
// progress-ms is the median time until main.wasm's download shows on the
// screen. wasm-Mbit/s, how fast main.wasm's compressed bytes came at most,
// has no limit here: the benchmark itself fails when they came faster than
// 9 Mbit/s allows, since its other figures would then not be figures of a
// throttled network.
//
// BrowserPlay is a world of 1,000 pods played at Play's fastest speed for
// 10 s with the loop's picture on the screen, read from a Chromium trace:
// frame-p95-ms, the 95th percentile of the page's main-thread time per
// frame, is held to 12 ms, and late-frames-%, the share of vsyncs at which
// the page's compositor dropped a frame (the frame before stayed on the
// screen 33 ms or more), to 5%. frames (drawn by the compositor),
// main-frames (those the main thread had a part in) and steps/s, how fast
// the page played, have no limit: the last says whether a page is smooth
// because it plays slower.
//
// # The size of main.wasm
//
// With -wasm PATH it reads no benchmarks: it prints the sizes of the
// main.wasm at PATH and of the copies rlab serve sends (PATH.gz, PATH.br)
// against the WasmSize budget in budget.go, on one line, which is how make
// wasm ends:
//
//	site/main.wasm: 6922929 bytes raw (≤ 8500000), 1739108 gzip, 1247765 brotli as served (≤ 1400000): within budget
//
// A copy that is missing or older than PATH is said to be so, not measured.
// The line informs; make bench, through BenchmarkWasmSize, is what fails on
// a broken budget.
package main
