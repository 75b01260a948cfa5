package world

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
)

// rolloutScenario is D Deployments of P replicas in one namespace: created
// and brought to rest untimed, then a new image on every one of them at
// once, timed to rest.
type rolloutScenario struct{ D, P int }

func (s rolloutScenario) name() string { return strconv.Itoa(s.D) + "x" + strconv.Itoa(s.P) }

// run returns the rollout's wall time and its steps, with every Deployment
// checked complete: its newest ReplicaSet holds every replica, available.
func (s rolloutScenario) run(tb testing.TB, heap *peakHeap) (time.Duration, uint64) {
	w, err := New(Config{SnapshotEvery: -1})
	require.NoError(tb, err)
	require.NoError(tb, w.Do("create", func(w *World) error {
		for i := range s.D {
			d := webDeployment(int32(s.P), "nginx:1.0")
			d.Metadata.Name = "web-" + strconv.Itoa(i)
			d.Spec.Selector.MatchLabels = map[string]string{"app": d.Metadata.Name}
			d.Spec.Template.Metadata.Labels = map[string]string{"app": d.Metadata.Name}
			w.Send(apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindDeployment, Object: d})
		}
		return nil
	}))
	stabilizeSampling(tb, w, nil)
	before := w.Kernel.Steps()

	start := time.Now()
	require.NoError(tb, w.Do("set image", func(w *World) error {
		for _, o := range w.Store.Objects(api.KindDeployment, "default") {
			d := o.(*api.Deployment).DeepCopy()
			d.Spec.Template.Spec.Containers[0].Image = "nginx:2.0"
			d.Metadata.ResourceVersion = ""
			w.Send(apistore.Request{Verb: apistore.VerbUpdate, Kind: api.KindDeployment, Object: d})
		}
		return nil
	}))
	stabilizeSampling(tb, w, heap)
	took := time.Since(start)

	for _, o := range w.Store.Objects(api.KindDeployment, "default") {
		d := o.(*api.Deployment)
		require.Equal(tb, [3]int32{int32(s.P), int32(s.P), int32(s.P)},
			[3]int32{d.Status.Replicas, d.Status.UpdatedReplicas, d.Status.AvailableReplicas}, "deploy/%s", d.Metadata.Name)
	}
	return took, w.Kernel.Steps() - before
}

func TestRolloutSmall(t *testing.T) {
	took, steps := rolloutScenario{D: 3, P: 10}.run(t, nil)
	t.Logf("3x10: rollout %v, %d steps", took, steps)
}

// BenchmarkRollout reports the wall time of a rollout of every Deployment
// at once, from set image to rest, with its steps, the time per step and the
// peak heap. make bench shows them in a table of their own, unjudged.
func BenchmarkRollout(b *testing.B) {
	for _, s := range []rolloutScenario{{10, 100}} {
		b.Run(s.name(), func(b *testing.B) {
			for range b.N {
				freshHeap()
				heap := &peakHeap{}
				took, steps := s.run(b, heap)
				heap.sample()
				b.ReportMetric(float64(took.Milliseconds()), "rollout-ms")
				b.ReportMetric(float64(steps), "steps")
				b.ReportMetric(float64(took.Microseconds())/float64(steps), "us/step")
				b.ReportMetric(float64(heap.peak)/(1<<20), "peak-heap-MiB")
			}
		})
	}
}
