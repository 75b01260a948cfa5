package workqueue

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The tests below reproduce client-go's tests of the same names (spec §5.4,
// items 55 and 56), with one more for the edges of the float arithmetic.

func TestItemExponentialFailureRateLimiter(t *testing.T) {
	limiter := NewItemExponentialFailureRateLimiter(1*ms, 1*time.Second)

	assert.Equal(t, []time.Duration{1 * ms, 2 * ms, 4 * ms, 8 * ms, 16 * ms}, whens(limiter, "one", 5))
	assert.Equal(t, 5, limiter.NumRequeues("one"))

	assert.Equal(t, []time.Duration{1 * ms, 2 * ms}, whens(limiter, "two", 2), "keys back off independently")
	assert.Equal(t, 2, limiter.NumRequeues("two"))

	limiter.Forget("one")
	assert.Zero(t, limiter.NumRequeues("one"))
	assert.Equal(t, 1*ms, limiter.When("one"), "Forget starts the back-off afresh")
}

func TestItemExponentialFailureRateLimiterOverFlow(t *testing.T) {
	limiter := NewItemExponentialFailureRateLimiter(1*ms, 1000*time.Second)
	whens(limiter, "one", 5)
	assert.Equal(t, 32*ms, limiter.When("one"))

	whens(limiter, "overflow1", 1000)
	assert.Equal(t, 1000*time.Second, limiter.When("overflow1"), "a huge count gives exactly the maximum")

	limiter = NewItemExponentialFailureRateLimiter(1*time.Minute, 1000*time.Hour)
	whens(limiter, "two", 2)
	assert.Equal(t, 4*time.Minute, limiter.When("two"))

	whens(limiter, "overflow2", 1000)
	assert.Equal(t, 1000*time.Hour, limiter.When("overflow2"))
}

// TestExpBackoffAtTheEdges covers the cases where upstream's float arithmetic
// is closest to the edge of a Duration, and the one where it falls off.
func TestExpBackoffAtTheEdges(t *testing.T) {
	const maxDelay = time.Duration(math.MaxInt64)
	assert.Equal(t, time.Duration(1<<62), expBackoff(1, maxDelay, 62))
	assert.Equal(t, maxDelay, expBackoff(1, maxDelay, 63), "2^63 does not fit; upstream would answer a negative wait here")
	assert.Equal(t, maxDelay, expBackoff(3, maxDelay, 62))
	assert.Equal(t, maxDelay, expBackoff(ms, maxDelay, 1<<40), "an exponent past float64's range")
	assert.Equal(t, time.Duration(0), expBackoff(0, time.Second, 5000), "a zero base stays zero")
}

func TestItemFastSlowRateLimiter(t *testing.T) {
	limiter := NewItemFastSlowRateLimiter(5*ms, 10*time.Second, 3)

	assert.Equal(t, []time.Duration{5 * ms, 5 * ms, 5 * ms, 10 * time.Second, 10 * time.Second}, whens(limiter, "one", 5))
	assert.Equal(t, 5, limiter.NumRequeues("one"), "every call counts, fast or slow")

	assert.Equal(t, []time.Duration{5 * ms, 5 * ms}, whens(limiter, "two", 2))
	assert.Equal(t, 2, limiter.NumRequeues("two"))

	limiter.Forget("one")
	assert.Zero(t, limiter.NumRequeues("one"))
	assert.Equal(t, 5*ms, limiter.When("one"))
}
