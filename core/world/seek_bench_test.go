package world

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/sim"
)

// seekTargets are the steps BenchmarkSeek seeks to, in this order, in a run
// of about 30,300 steps. They jump back and forth, so most seeks restore a
// snapshot and replay up to 2,047 steps (the world keeps fifteen snapshots,
// 2,048 steps apart, within the default SnapshotBudget), and some of the
// replayed stretches are the busiest of the run (pods created, scheduled and
// started at once).
var seekTargets = []uint64{
	23413, 18759, 23871, 24242, 7129, 1253, 15213, 13675, 4041, 5591,
	20143, 13535, 28636, 3695, 12061, 23845, 22240, 15477, 2228, 10052,
}

// BenchmarkSeek measures what the browser's time travel costs in a world of
// 1,000 pods: one op is one seek. Besides ns/op, B/op and allocs/op it
// reports the slowest single seek, which is what a learner feels (and what
// the browser's single-threaded garbage collector makes worse when a replayed
// stretch allocates a lot).
func BenchmarkSeek(b *testing.B) {
	w, err := New(Config{})
	require.NoError(b, err)
	createRS(b, w, replicaSet("seek", 1000, map[string]string{"app": "seek"}))
	_, err = w.Stabilize(sim.Limits{MaxSteps: 1000000})
	require.NoError(b, err)
	require.Greater(b, w.RecordedSteps(), seekTargets[0])

	b.ReportAllocs()
	b.ResetTimer()
	var worst time.Duration
	for i := 0; b.Loop(); i++ {
		n := seekTargets[i%len(seekTargets)]
		start := time.Now()
		if err := w.Seek(n); err != nil {
			b.Fatalf("seek to %d: %v", n, err)
		}
		worst = max(worst, time.Since(start))
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-seek-ms")
}
