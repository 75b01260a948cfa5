package workqueue

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/sim"
)

// TestBucketRateLimiter walks a 10 qps bucket with a burst of 100 (the
// default controller's) through its life on the kernel's clock.
func TestBucketRateLimiter(t *testing.T) {
	k := sim.New(1)
	limiter := NewBucketRateLimiter(k, 10, 100)
	assert.Equal(t, 100.0, limiter.Tokens(), "the bucket starts full")

	for i := 0; i < 100; i++ {
		require.Zero(t, limiter.When("any"), "the burst goes through at once (When %d)", i)
	}
	assert.Equal(t, []time.Duration{100 * ms, 200 * ms, 300 * ms}, whens(limiter, "any", 3),
		"then each When waits one refill interval longer than the last")
	assert.InDelta(t, -3.0, limiter.Tokens(), 1e-9, "the bucket is in debt")

	k.Advance(250 * ms)
	assert.Equal(t, 150*ms, limiter.When("other"), "the debt shrinks as time passes, for every key alike")

	k.Advance(time.Hour)
	assert.Equal(t, 100.0, limiter.Tokens(), "refilling stops at the burst")
	assert.Zero(t, limiter.NumRequeues("any"))
	limiter.Forget("any")
}

func TestBucketRateLimiterEdgeCases(t *testing.T) {
	k := sim.New(1)

	unlimited := NewBucketRateLimiter(k, InfiniteQPS, 0)
	assert.Equal(t, []time.Duration{0, 0, 0}, whens(unlimited, "a", 3), "an infinite rate never waits, even with no burst")

	never := NewBucketRateLimiter(k, 0, 2)
	assert.Equal(t, []time.Duration{0, 0, math.MaxInt64, math.MaxInt64}, whens(never, "a", 4),
		"a zero rate lets the burst through once, and nothing after")

	noBurst := NewBucketRateLimiter(k, 10, 0)
	assert.Equal(t, time.Duration(math.MaxInt64), noBurst.When("a"), "a zero burst can never grant a token")
	assert.Zero(t, noBurst.Tokens(), "and takes none")
}

func TestBucketRateLimiterWithANegativeRate(t *testing.T) {
	// x/time/rate lets a reservation through on a negative rate, and then
	// asks for the longest wait there is; so does the bucket.
	limiter := NewBucketRateLimiter(sim.New(1), -1, 1)
	assert.Equal(t, time.Duration(math.MaxInt64), limiter.When("a"))
	assert.Equal(t, -1.0, limiter.Tokens(), "a negative rate never refills")
}
