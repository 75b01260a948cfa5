package cluster

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// convergePods creates n unbound pods at once and steps the world until all
// are Running and Ready; it returns the number of steps.
func convergePods(tb testing.TB, n int) (*harness, int) {
	t := &testing.T{}
	if tt, ok := tb.(*testing.T); ok {
		t = tt
	}
	h := started(t, Config{})
	for i := 0; i < n; i++ {
		h.createPod("web-"+strconv.Itoa(i), "")
	}
	steps := 0
	for h.k.Busy() {
		h.k.Step()
		steps++
	}
	return h, steps
}

func TestTenThousandPodsConverge(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 pods")
	}
	const n = 10_000
	h, _ := convergePods(t, n)
	running := 0
	for _, obj := range h.store.Objects(api.KindPod, "") {
		if p := obj.(*api.Pod); p.Status.Phase == api.PodRunning && api.IsPodReady(p) {
			running++
		}
	}
	require.Equal(t, n, running)
	for _, node := range h.c.Scheduler.View().Nodes {
		require.InDelta(t, n/3, node.Pods, 1, "the scheduler spreads the pods evenly")
	}
}

func BenchmarkConverge10000Pods(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_, steps := convergePods(b, 10_000)
		b.ReportMetric(float64(steps), "steps/op")
	}
}
