package workqueue

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSnapshotRestoreThroughTheKernel takes a kernel snapshot of a busy queue
// with workers, runs on (steps, adds, failures, a shutdown), restores, and
// expects the same view, the same agenda and the same failure counts; then
// replays the same inputs and expects the same trace. It restores the one
// snapshot twice.
func TestSnapshotRestoreThroughTheKernel(t *testing.T) {
	k, q := busyQueue(t)
	w := &worker{name: "worker-3", q: q, work: 7 * ms}
	w.onGet = func(w *worker, key string) { w.q.AddRateLimited(key) }
	mustRegister(t, k, w.name, w)
	mustRegister(t, k, "worker-1", &recorder{})
	mustRegister(t, k, "worker-2", &recorder{})
	k.After(0, w.name, "start", nil)
	q.step()

	snap, err := k.Snapshot()
	require.NoError(t, err)
	wantView, wantAgenda := q.view(), k.Agenda()
	wantBucket := q.r.limiter.(*MaxOfRateLimiter).limiters[1].(*BucketRateLimiter).Tokens()

	run := func() []string {
		var trace []string
		for i := 0; i < 40; i++ {
			if i == 10 {
				q.Add("default/late")
				q.Done("default/web")
			}
			if i == 30 {
				q.ShutDownWithDrain("worker-1")
			}
			res, ok := q.step()
			if !ok {
				break
			}
			trace = append(trace, res.TraceLine())
		}
		return trace
	}
	first := run()
	require.Greater(t, len(first), 20, "the run must take steps")
	require.NotEqual(t, wantView, q.view(), "the run must change the queue, or the test proves nothing")

	for i := 0; i < 2; i++ {
		require.NoError(t, k.Restore(snap))
		q.verify()
		assert.Equal(t, wantView, q.view(), "restore %d: view", i)
		assert.Equal(t, wantAgenda, k.Agenda(), "restore %d: agenda", i)
		assert.Equal(t, wantBucket, q.r.limiter.(*MaxOfRateLimiter).limiters[1].(*BucketRateLimiter).Tokens(), "restore %d: bucket", i)
		assert.Equal(t, first, run(), "restore %d: the replay must repeat the run step for step", i)
	}
}

func TestQueueSnapshotSharesNothing(t *testing.T) {
	q := checkPlain(t, nil, New(Config{}))
	q.Add("a")
	q.Add("b")
	q.Get("worker-1")
	snap := q.q.Snapshot()
	want := q.view()

	q.Done("a")
	q.Add("c")
	q.Add("a")
	q.Get("worker-2")
	q.ShutDown()

	for i := 0; i < 2; i++ {
		q.q.Restore(snap)
		q.verify()
		assert.Equal(t, want, q.view(), "restore %d", i)
		q.Add("d") // mutate after restoring; the snapshot must not see it
	}
}

func TestDelayingSnapshotKeepsTheTimer(t *testing.T) {
	k, q := newDelayingWorld(t, Config{Name: "test"})
	q.AddAfter("a", 10*ms)
	q.AddAfter("b", 20*ms)
	snap, err := k.Snapshot()
	require.NoError(t, err)

	q.advance(15 * ms)
	q.AddAfter("c", time.Millisecond)
	require.NoError(t, k.Restore(snap))
	q.verify() // the armed timer is the agenda's, again

	steps := q.advance(time.Second)
	require.Len(t, steps, 2)
	assert.Equal(t, []string{"a", "b"}, q.view().Waiting)
}
