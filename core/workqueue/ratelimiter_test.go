package workqueue

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/sim"
)

// TestMaxOfRateLimiter and TestWithMaxWaitRateLimiter reproduce client-go's
// tests of the same names (spec §5.4, items 57 and 58); the per-key limiters'
// (items 55 and 56) are in itemlimiters_test.go.

// whens calls When n times and returns the answers.
func whens(l RateLimiter, key string, n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = l.When(key)
	}
	return out
}

const ms = time.Millisecond

func TestMaxOfRateLimiter(t *testing.T) {
	limiter := NewMaxOfRateLimiter(
		NewItemFastSlowRateLimiter(5*ms, 3*time.Second, 3),
		NewItemExponentialFailureRateLimiter(1*ms, 1*time.Second),
	)

	assert.Equal(t, []time.Duration{5 * ms, 5 * ms, 5 * ms, 3 * time.Second, 3 * time.Second}, whens(limiter, "one", 5))
	assert.Equal(t, 5, limiter.NumRequeues("one"))

	assert.Equal(t, []time.Duration{5 * ms, 5 * ms}, whens(limiter, "two", 2))
	assert.Equal(t, 2, limiter.NumRequeues("two"))

	limiter.Forget("one")
	assert.Zero(t, limiter.NumRequeues("one"), "Forget reaches every limiter")
	assert.Equal(t, 5*ms, limiter.When("one"))
	assert.Equal(t, []string{"one", "two"}, limiter.Tracked())
}

// stepRateLimiter answers baseDelay for its first threshold calls and
// maxDelay after that, whatever the key: upstream's StepRateLimiter.
type stepRateLimiter struct {
	count, threshold    int
	baseDelay, maxDelay time.Duration
}

func (r *stepRateLimiter) When(string) time.Duration {
	r.count++
	if r.count <= r.threshold {
		return r.baseDelay
	}
	return r.maxDelay
}
func (r *stepRateLimiter) NumRequeues(string) int { return 0 }
func (r *stepRateLimiter) Forget(string)          {}

func TestWithMaxWaitRateLimiter(t *testing.T) {
	limiter := NewWithMaxWaitRateLimiter(&stepRateLimiter{threshold: 100, baseDelay: 5 * ms, maxDelay: 1000 * time.Second}, 500*time.Second)
	for i := 0; i < 100; i++ {
		assert.Equal(t, 5*ms, limiter.When(strconv.Itoa(i)))
	}
	for i := 100; i < 200; i++ {
		assert.Equal(t, 500*time.Second, limiter.When(strconv.Itoa(i)), "the inner limiter's 1000s is capped")
	}
	assert.Nil(t, limiter.Tracked(), "the inner limiter keeps no history per key")
	assert.Nil(t, limiter.Snapshot())
}

func TestDefaultRateLimiters(t *testing.T) {
	k := sim.New(1)
	limiter := DefaultControllerRateLimiter(k)
	for i := 0; i < 100; i++ {
		require.Equal(t, 5*ms, limiter.When("default/rs-"+strconv.Itoa(i)), "within the burst, the 5ms back-off decides")
	}
	assert.Equal(t, 100*ms, limiter.When("default/rs-100"), "past the burst of 100, the 10 qps bucket decides")
	assert.Equal(t, 200*ms, limiter.When("default/rs-0"), "rs-0 backs off 10ms on its own, but the bucket is deeper in debt")
	assert.Equal(t, 2, limiter.NumRequeues("default/rs-0"), "the bucket counts no requeues; the back-off does")

	items := DefaultItemBasedRateLimiter()
	assert.Equal(t, []time.Duration{1 * ms, 2 * ms, 4 * ms}, whens(items, "a", 3))
	whens(items, "a", 40)
	assert.Equal(t, 1000*time.Second, items.When("a"))
}

func TestLimiterSnapshotsRestoreTwice(t *testing.T) {
	k := sim.New(1)
	limiter := NewWithMaxWaitRateLimiter(NewMaxOfRateLimiter(
		NewItemExponentialFailureRateLimiter(ms, time.Second),
		NewItemFastSlowRateLimiter(ms, time.Second, 2),
		NewBucketRateLimiter(k, 1, 1),
		&stepRateLimiter{threshold: 1}, // no state to capture: skipped
	), time.Minute)
	whens(limiter, "a", 2)
	snap := limiter.Snapshot()
	before := whens(limiter, "a", 3)

	for i := 0; i < 2; i++ {
		limiter.Restore(snap)
		assert.Equal(t, 2, limiter.NumRequeues("a"))
		assert.Equal(t, []string{"a"}, limiter.Tracked())
		after := whens(limiter, "a", 3)
		// The stepRateLimiter was not rewound, and answers 0 past its
		// threshold either way; every other limiter must repeat itself.
		assert.Equal(t, before, after, "restore %d", i)
	}
}
