package main

import (
	"runtime"
	"testing"
	"time"
)

// BenchmarkStabilizeThroughTheBridge runs the page's 10,000-pod world to
// rest as the page's worker does: `create rs huge --replicas=10000`, then
// the bridge's stabilize op in chunks of 4,000 steps, each answer listing
// the newest 30 (the page's busyTimelineItems), through the session and its
// step log. It reports the run's wall time, its steps, the average step and
// the memory the Go runtime took from the host by the end (sys-MiB, what
// the runtime's MemStats.Sys counts): under js/wasm that is the wasm
// memory, which never grows back smaller, so it is the figure the page's
// 128 MiB budget is about. It depends on the collector's settings, which
// the page's worker gives the engine (GOGC, GOMEMLIMIT in site/worker.js)
// and a benchmark under node takes from its environment.
//
// Beside core/world's BenchmarkStabilizeAsThePage, which runs the same
// world without a session, the difference is the session's share: chiefly
// the step log packing every step it keeps. Built for js/wasm and run under
// node, it is the engine's share of the page's Stabilize without the
// browser (BenchmarkBrowserResponsive), and what doc.go's profiling reads.
func BenchmarkStabilizeThroughTheBridge(b *testing.B) {
	for range b.N {
		b.StopTimer()
		br := newSandbox(b, 1)
		run(b, br, "create rs huge --replicas=10000 --selector=app=huge")
		runtime.GC()
		b.StartTimer()
		start, steps := time.Now(), 0
		for {
			res := callOp[StepsResult](b, br, "stabilize", StabilizeArgs{MaxSteps: 4000, Steps: 30})
			steps += res.Ran
			if res.AtRest {
				break
			}
		}
		took := time.Since(start)
		b.ReportMetric(float64(took.Milliseconds()), "stabilize-ms")
		b.ReportMetric(float64(steps), "steps")
		b.ReportMetric(float64(took.Microseconds())/float64(steps), "us/step")
		var mem runtime.MemStats
		runtime.ReadMemStats(&mem)
		b.ReportMetric(float64(mem.Sys)/(1<<20), "sys-MiB")
	}
}
