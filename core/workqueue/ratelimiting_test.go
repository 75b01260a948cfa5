package workqueue

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/sim"
)

func newRateLimitingWorld(t *testing.T, cfg Config, limiter RateLimiter) (*sim.Kernel, *checked) {
	t.Helper()
	k := sim.New(1)
	cfg.Scheduler = k
	rq := NewRateLimiting(cfg, limiter)
	mustRegister(t, k, rq.ComponentName(), rq)
	return k, checkRateLimiting(t, k, rq)
}

// TestRateLimitingQueue reproduces client-go's test of the same name (spec
// §5.4, item 59): each AddRateLimited of a key waits twice as long as the one
// before, keys are independent, and Forget starts over. Upstream reads each
// request's ready time off the delaying queue's input channel; here
// AddRateLimited returns the wait it asked for, and the view shows the ready
// time that stands.
func TestRateLimitingQueue(t *testing.T) {
	k, q := newRateLimitingWorld(t, Config{Name: "test"}, NewItemExponentialFailureRateLimiter(1*ms, 1*time.Second))
	k.Advance(time.Second) // any instant will do

	d, out := q.AddRateLimited("one")
	assert.Equal(t, 1*ms, d)
	assert.Equal(t, Delayed, out)
	d, out = q.AddRateLimited("one")
	assert.Equal(t, 2*ms, d)
	assert.Equal(t, DelayKept, out, "the earlier ready time stands")
	assert.Equal(t, 2, q.r.NumRequeues("one"))
	assert.Equal(t, time.Second+1*ms, q.view().Delayed[0].ReadyAt)

	d, _ = q.AddRateLimited("two")
	assert.Equal(t, 1*ms, d)
	d, _ = q.AddRateLimited("two")
	assert.Equal(t, 2*ms, d)

	q.Forget("one")
	assert.Zero(t, q.r.NumRequeues("one"))
	d, _ = q.AddRateLimited("one")
	assert.Equal(t, 1*ms, d)
}

// TestRetryLoop walks the loop a learner steps through: a failing sync
// requeues with back-off, the key comes back after it, and a success forgets.
func TestRetryLoop(t *testing.T) {
	k, q := newRateLimitingWorld(t, Config{Name: "replicaset", Kind: "rs"}, nil)
	w := &worker{name: "worker-1", q: q, work: 10 * ms}
	failures := 2
	w.onGet = func(w *worker, key string) {
		if failures > 0 {
			failures--
			w.q.AddRateLimited(key) // the sync failed: retry after a back-off
		} else {
			w.q.Forget(key)
		}
	}
	mustRegister(t, k, w.name, w)
	k.After(0, w.name, "start", nil)
	q.Add("default/web")
	q.settle()

	assert.Equal(t, []string{"default/web", "default/web", "default/web"}, w.got)
	assert.Zero(t, q.r.NumRequeues("default/web"), "the success forgot the failures")
	assert.Equal(t, 5*ms, q.r.RateLimiter().When("default/web"), "so the next failure backs off 5ms again")
}

func TestAddRateLimitedCountsTheFailureEvenAfterShutDown(t *testing.T) {
	_, q := newRateLimitingWorld(t, Config{Name: "test"}, nil)
	q.ShutDown()
	d, out := q.AddRateLimited("default/web")
	assert.Equal(t, 5*ms, d)
	assert.Equal(t, Ignored, out)
	assert.Equal(t, 1, q.r.NumRequeues("default/web"), "upstream asks the limiter before AddAfter checks for shutdown")
}

func TestAddRateLimitedWithNoWaitAddsAtOnce(t *testing.T) {
	_, q := newRateLimitingWorld(t, Config{Name: "test"}, NewItemExponentialFailureRateLimiter(0, 0))
	d, out := q.AddRateLimited("default/web")
	assert.Zero(t, d)
	assert.Equal(t, Queued, out)
	require.Equal(t, 1, q.Len())
}
