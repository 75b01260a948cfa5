package main

import (
	"fmt"
	"strconv"
	"strings"
)

// budgets is the one table of performance budgets (see DESIGN.md, "Budgets").
// Each entry covers Benchmark<Name> and its sub-benchmarks; the first entry
// that matches a benchmark is its budget.
//
// Relative budgets (MaxRatio) are derived from DESIGN.md's absolute targets
// and the upstream figures measured next to them: a selector parse in ≤ 1 µs
// against upstream's 4 µs is a ratio of 0.25. They hold on any machine, since
// both sides run on the same one.
var budgets = []budget{
	{Name: "SelectorParse", MaxRatio: 0.25, MaxAllocs: 10},
	{Name: "SelectorMatches", MaxRatio: 0.5, MaxAllocs: 0},
	{Name: "AddGetDoneSerial", MaxRatio: 0.5, MaxAllocs: 1},
	{Name: "Dedup10kKeys", MaxRatio: 0.5, MaxAllocs: anyAllocs},
	{Name: "KernelStep", MaxNsPerOp: 50_000, MaxAllocs: anyAllocs},

	// The convergence scenarios of BenchmarkConverge (core/world), judged by
	// the figures they report rather than by ns/op. DESIGN.md asks for a 5×
	// faster convergence than upstream in all three scenarios (the goal
	// beyond is 20×), for an average world step of at most 0.35 µs, and
	// for a peak heap of at most 60 MiB with 10,000 pods.
	//
	// The upstream figures are the ReplicaSet controller of k8s.io/kubernetes
	// v1.31.14 with its fake clientset, measured on this machine by
	// shared/oracle's rsbench in the run of ../shared/oracle/compare-converge 5
	// quoted in issue 18's closing note (27 November 2026): the median and
	// the fastest of 5 runs. They cannot be measured in the same go test
	// run, because the oracle is a separate module that compiles a large
	// part of Kubernetes; rerun compare-converge and update them if the
	// machine changes. Upstream's own runs spread widely (1000x10 took 2.8
	// to 5.2 s in that one), so a speed-up near its limit is not a verdict
	// to trust from a single run of ours either.
	{Name: "Converge/100x10", MinSpeedup: 5, MaxUsPerStep: 0.35, MaxAllocs: anyAllocs,
		Upstream: &upstreamRun{PodsMs: 96.2, PodsMsMin: 61.2, RecoverMs: 47.1, PeakHeapMiB: 31.5}},
	{Name: "Converge/1000x10", MinSpeedup: 5, MaxUsPerStep: 0.35, MaxPeakHeapMiB: 60, MaxAllocs: anyAllocs,
		Upstream: &upstreamRun{PodsMs: 3997.1, PodsMsMin: 2829.3, RecoverMs: 4632.9, PeakHeapMiB: 233.5}},
	{Name: "Converge/10x1000", MinSpeedup: 5, MaxUsPerStep: 0.35, MaxPeakHeapMiB: 60, MaxAllocs: anyAllocs,
		Upstream: &upstreamRun{PodsMs: 931.5, PodsMsMin: 661.8, RecoverMs: 547.3, PeakHeapMiB: 154.5}},

	// The page's 10,000-pod world run natively, in the page's own
	// configuration, snapshots for seeking included: its peak heap is held
	// to the same 60 MiB as the converge scenarios' (issue 18: the page
	// leaves at most 128 MiB of wasm memory, which never shrinks, and Go's
	// collector lets the heap grow to about twice what is live).
	{Name: "StabilizeAsThePage", MaxAllocs: anyAllocs, Limits: []limit{{"peak-heap-MiB", 60}}},

	// The page's budgets (the issue "The page"), judged by the figures the
	// benchmarks report: the size of site/main.wasm as make wasm builds it
	// (wasm/), and what a real headless Chromium measures (e2e/). main.wasm's
	// budget is on the copy a learner downloads, brotli at quality 11 as rlab
	// compress writes it, lessons included (DESIGN.md; 1,400,000 once
	// Deployments land), and on the raw file the browser compiles.
	{Name: "WasmSize", MaxAllocs: anyAllocs, Limits: []limit{{"brotli-bytes", 1_400_000}, {"raw-bytes", 8_500_000}}},
	{Name: "BrowserLoad", MaxAllocs: anyAllocs, Limits: []limit{{"load-ms", 200}}},
	// The page on a learner's network and machine (the issue "The page as
	// a learner meets it"): at 9 Mbit/s, 60 ms RTT and a 4× slower CPU,
	// interactive within a second and the engine ready within three; at
	// 1.6 Mbit/s, the download's progress on screen within a second.
	{Name: "BrowserLoadThrottled", MaxAllocs: anyAllocs,
		Limits: []limit{{"load-ms", 1000}, {"engine-ms", 3000}, {"progress-ms", 1000}}},
	{Name: "BrowserStep", MaxAllocs: anyAllocs, Limits: []limit{{"step-ms", 0.5}}},
	{Name: "BrowserSeek", MaxAllocs: anyAllocs, Limits: []limit{{"seek-ms", 100}, {"wasm-MiB", 256}}},
	// A 10,000-pod world stabilizing through the page's #stabilize: clicks
	// handled within 100 ms meanwhile, at rest within DESIGN.md's 3 s, and
	// at most DESIGN.md's 128 MiB of wasm memory left behind.
	// It took 65 s when the page spent the run on pictures of the world,
	// and 10 to 11 s once it did not: 3 s of that were the benchmark's
	// own first click cancelling the run, and 3 s the round trips of
	// 300 chunks of 1000 steps. With chunks sized to 100 ms of the
	// worker's time it takes 3.6 to 4.7 s (November 2026), where one call
	// that runs the world to rest takes 3.5 to 4.9 s of WebAssembly.
	{Name: "BrowserResponsive", MaxAllocs: anyAllocs, Limits: []limit{{"click-ms", 100}, {"stabilize-s", 3}, {"wasm-MiB", 128}}},
	// A 1,000-pod world played at Play's fastest speed for 10 s, read from a
	// Chromium trace (the issue "The loop, drawn"): the 95th percentile of
	// the page's main-thread time per frame within 12 ms, which leaves the
	// rest of a 60 Hz frame's 16.7 ms to the browser, and at most 5% of the
	// frames beginning more than 20 ms after the one before. steps/s, how
	// fast the page played, and frames are shown unjudged.
	{Name: "BrowserPlay", MaxAllocs: anyAllocs, Limits: []limit{{"frame-p95-ms", 12}, {"late-frames-%", 5}}},
}

// A limit bounds one figure a benchmark reports with b.ReportMetric, by its
// unit: {"load-ms", 200} holds the median page load to 200 ms.
type limit struct {
	Unit string
	Max  float64
}

// The units of the figures a convergence scenario reports with
// b.ReportMetric; they must match core/world's BenchmarkConverge.
const (
	metricConvergeMs  = "converge-ms"
	metricRolloutMs   = "rollout-ms"
	metricUsPerStep   = "us/step"
	metricRecoverMs   = "recover-ms"
	metricSteps       = "steps"
	metricPeakHeapMiB = "peak-heap-MiB"
)

// anyAllocs as a budget's MaxAllocs leaves allocations unchecked.
const anyAllocs = -1

// A budget limits one benchmark. A zero MaxRatio or MaxNsPerOp leaves that
// figure unchecked, but a zero MaxAllocs means what it says, no allocations
// at all: forgetting to set it makes a budget stricter, never silently laxer.
type budget struct {
	// Name is the benchmark's name without "Benchmark": "SelectorParse". It
	// also covers sub-benchmarks: "SelectorParse/complex".
	Name string

	// MaxRatio bounds ours ns/op over upstream ns/op, for a benchmark with
	// ours and upstream sub-benchmarks.
	MaxRatio float64

	// MaxNsPerOp bounds ns/op, for a benchmark with no upstream twin.
	MaxNsPerOp float64

	// MaxAllocs bounds ours allocs/op; anyAllocs leaves it unchecked.
	MaxAllocs float64

	// The limits below make a metric-based budget, for a benchmark that
	// reports its own figures (b.ReportMetric) and has its upstream twin
	// measured outside go test. Such benchmarks get a table of their own.

	// MinSpeedup bounds Upstream.PodsMs over ours converge-ms from below.
	MinSpeedup float64

	// MaxPeakHeapMiB bounds ours peak-heap-MiB.
	MaxPeakHeapMiB float64

	// MaxUsPerStep bounds ours us/step: the average world step.
	MaxUsPerStep float64

	// Upstream holds the reference figures MinSpeedup compares with.
	Upstream *upstreamRun

	// Limits bound figures the benchmark reports, which puts it in the
	// table of figures.
	Limits []limit
}

// An upstreamRun is what the real controller did in one convergence scenario,
// in milliseconds and MiB. The medians are what we compare with; the fastest
// run shows how noisy the median is.
type upstreamRun struct {
	// PodsMs is the median time from the first create until the informer
	// has seen every pod, and PodsMsMin the fastest run's.
	PodsMs, PodsMsMin float64

	// RecoverMs is the median time from deleting every 10th pod until all
	// are replaced.
	RecoverMs float64

	// PeakHeapMiB is the median of the highest heap sampled during a run.
	PeakHeapMiB float64
}

// metricBased reports whether b judges reported figures, which puts its
// benchmark in the convergence table instead of the ns/op one.
func (b budget) metricBased() bool {
	return b.MinSpeedup > 0 || b.MaxPeakHeapMiB > 0 || b.MaxUsPerStep > 0
}

// figureBased reports whether b judges reported figures by plain limits.
func (b budget) figureBased() bool {
	return len(b.Limits) > 0
}

// covers reports whether the budget applies to the benchmark named name
// (without "Benchmark", ours/upstream and the -N suffix).
func (b budget) covers(name string) bool {
	return name == b.Name || strings.HasPrefix(name, b.Name+"/")
}

// String describes the limits: "ratio ≤ 0.25, allocs ≤ 10".
func (b budget) String() string {
	var limits []string
	if b.MaxRatio > 0 {
		limits = append(limits, "ratio ≤ "+formatFloat(b.MaxRatio))
	}
	if b.MaxNsPerOp > 0 {
		limits = append(limits, "≤ "+formatFloat(b.MaxNsPerOp)+" ns/op")
	}
	if b.MaxAllocs != anyAllocs {
		limits = append(limits, "allocs ≤ "+formatFloat(b.MaxAllocs))
	}
	if b.MinSpeedup > 0 {
		limits = append(limits, "speed-up ≥ "+formatFloat(b.MinSpeedup)+"×")
	}
	if b.MaxPeakHeapMiB > 0 {
		limits = append(limits, "peak heap ≤ "+formatFloat(b.MaxPeakHeapMiB)+" MiB")
	}
	if b.MaxUsPerStep > 0 {
		limits = append(limits, "step ≤ "+formatFloat(b.MaxUsPerStep)+" µs")
	}
	for _, l := range b.Limits {
		limits = append(limits, l.Unit+" ≤ "+formatFloat(l.Max))
	}
	return strings.Join(limits, ", ")
}

// Verdicts of a row of the report.
const (
	verdictOK         = "ok"
	verdictOver       = "OVER"       // a limit was broken
	verdictIncomplete = "INCOMPLETE" // a limit could not be checked
	verdictNone       = "-"          // the row has no budget

	// A budget whose benchmark did not run, shown in the convergence table
	// so that the upstream figures of every scenario stay in view.
	verdictNotMeasured = "not measured"
)

// check judges the measurements of one benchmark against b and returns the
// verdict with the reasons for anything but ok. upstream is nil if the
// benchmark has no upstream twin; ours is nil if only upstream ran.
func (b budget) check(ours, upstream *samples) (verdict string, problems []string) {
	over, incomplete := false, false
	fail := func(isOver bool, format string, args ...any) {
		over = over || isOver
		incomplete = incomplete || !isOver
		problems = append(problems, fmt.Sprintf(format, args...))
	}
	if ours == nil {
		fail(false, "no ours sub-benchmark")
		return verdictIncomplete, problems
	}
	if b.MaxRatio > 0 {
		if upstream == nil {
			fail(false, "no upstream sub-benchmark to compare with")
		} else if r := ours.nsPerOp() / upstream.nsPerOp(); r > b.MaxRatio {
			fail(true, "ratio %.2f > %s", r, formatFloat(b.MaxRatio))
		}
	}
	if b.MaxNsPerOp > 0 {
		if ns := ours.nsPerOp(); ns > b.MaxNsPerOp {
			fail(true, "%s ns/op > %s", formatNs(ns), formatFloat(b.MaxNsPerOp))
		}
	}
	if b.MaxAllocs != anyAllocs {
		if allocs, ok := ours.allocsPerOp(); !ok {
			fail(false, "no allocs/op (run go test with -benchmem)")
		} else if allocs > b.MaxAllocs {
			fail(true, "%s allocs/op > %s", formatFloat(allocs), formatFloat(b.MaxAllocs))
		}
	}
	if b.MinSpeedup > 0 {
		ms, ok := ours.metric(metricConvergeMs)
		switch {
		case !ok:
			fail(false, "no %s metric", metricConvergeMs)
		case b.Upstream == nil:
			fail(false, "no upstream figures to compare with")
		case b.Upstream.PodsMs/ms < b.MinSpeedup:
			fail(true, "speed-up %.2f× < %s× (%.0f ms against upstream's %s ms)",
				b.Upstream.PodsMs/ms, formatFloat(b.MinSpeedup), ms, formatFloat(b.Upstream.PodsMs))
		}
	}
	if b.MaxPeakHeapMiB > 0 {
		if mib, ok := ours.metric(metricPeakHeapMiB); !ok {
			fail(false, "no %s metric", metricPeakHeapMiB)
		} else if mib > b.MaxPeakHeapMiB {
			fail(true, "peak heap %.1f MiB > %s MiB", mib, formatFloat(b.MaxPeakHeapMiB))
		}
	}
	if b.MaxUsPerStep > 0 {
		if us, ok := ours.metric(metricUsPerStep); !ok {
			fail(false, "no %s metric", metricUsPerStep)
		} else if us > b.MaxUsPerStep {
			fail(true, "average step %.2f µs > %s µs", us, formatFloat(b.MaxUsPerStep))
		}
	}
	for _, l := range b.Limits {
		if v, ok := ours.metric(l.Unit); !ok {
			fail(false, "no %s metric", l.Unit)
		} else if v > l.Max {
			fail(true, "%s %s > %s", l.Unit, formatFloat(v), formatFloat(l.Max))
		}
	}
	switch {
	case over:
		return verdictOver, problems
	case incomplete:
		return verdictIncomplete, problems
	}
	return verdictOK, nil
}

func formatFloat(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}
