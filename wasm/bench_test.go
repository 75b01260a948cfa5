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
// step log. It reports the run's wall time, its steps and the average step.
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
	}
}
