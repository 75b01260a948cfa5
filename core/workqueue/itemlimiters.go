package workqueue

import (
	"maps"
	"math"
	"slices"
	"time"

	"github.com/reconcilelab/rlab/core/sim"
)

// The per-key limiters: each counts the failures of every key since it was
// last forgotten, and derives the wait from the count.

var (
	_ RateLimiter     = (*ItemExponentialFailureRateLimiter)(nil)
	_ RateLimiter     = (*ItemFastSlowRateLimiter)(nil)
	_ Tracker         = (*ItemExponentialFailureRateLimiter)(nil)
	_ Tracker         = (*ItemFastSlowRateLimiter)(nil)
	_ sim.Snapshotter = (*ItemExponentialFailureRateLimiter)(nil)
	_ sim.Snapshotter = (*ItemFastSlowRateLimiter)(nil)
)

// ItemExponentialFailureRateLimiter doubles a key's wait with each failure:
// baseDelay × 2^failures, counting the failures before this one, capped at
// maxDelay. With a 5ms base a key waits 5ms, 10ms, 20ms, 40ms, …
type ItemExponentialFailureRateLimiter struct {
	// failures counts each key's When calls since its last Forget. A key
	// with no failures is not in the map.
	failures map[string]int

	baseDelay, maxDelay time.Duration
}

// NewItemExponentialFailureRateLimiter returns a limiter whose waits start at
// baseDelay and double up to maxDelay.
func NewItemExponentialFailureRateLimiter(baseDelay, maxDelay time.Duration) *ItemExponentialFailureRateLimiter {
	return &ItemExponentialFailureRateLimiter{
		failures:  make(map[string]int),
		baseDelay: baseDelay,
		maxDelay:  maxDelay,
	}
}

func (r *ItemExponentialFailureRateLimiter) When(key string) time.Duration {
	exp := r.failures[key]
	r.failures[key] = exp + 1
	return expBackoff(r.baseDelay, r.maxDelay, exp)
}

// expBackoff returns base × 2^exp capped at max, without overflowing however
// large exp grows.
//
// Like upstream it computes in float64, where multiplying by a power of two
// is exact until the result overflows to +Inf, and caps anything that would
// not fit a Duration. Upstream's test for that is "greater than
// math.MaxInt64", which as a float64 is 2^63; a product of exactly 2^63 (a
// base that is a power of two nanoseconds, 63 failures in) slips past it and
// converts to a negative Duration. Capping at 2^63 and above closes that gap;
// every other answer is upstream's.
func expBackoff(base, maxDelay time.Duration, exp int) time.Duration {
	backoff := math.Ldexp(float64(base), exp)
	if backoff >= math.MaxInt64 {
		return maxDelay
	}
	return min(time.Duration(backoff), maxDelay)
}

func (r *ItemExponentialFailureRateLimiter) NumRequeues(key string) int { return r.failures[key] }

func (r *ItemExponentialFailureRateLimiter) Forget(key string) { delete(r.failures, key) }

// Tracked returns the keys with failures, sorted.
func (r *ItemExponentialFailureRateLimiter) Tracked() []string {
	return slices.Sorted(maps.Keys(r.failures))
}

// Snapshot captures the failure counts (sim.Snapshotter).
func (r *ItemExponentialFailureRateLimiter) Snapshot() any { return maps.Clone(r.failures) }

// Restore brings the failure counts back to a Snapshot (sim.Snapshotter).
func (r *ItemExponentialFailureRateLimiter) Restore(s any) {
	r.failures = cloneCounts(s.(map[string]int))
}

// ItemFastSlowRateLimiter retries a key quickly for its first maxFastAttempts
// failures and slowly after that.
type ItemFastSlowRateLimiter struct {
	// failures counts each key's When calls since its last Forget. A key
	// with no failures is not in the map.
	failures map[string]int

	fastDelay, slowDelay time.Duration
	maxFastAttempts      int
}

// NewItemFastSlowRateLimiter returns a limiter that answers fastDelay for a
// key's first maxFastAttempts failures and slowDelay after that.
func NewItemFastSlowRateLimiter(fastDelay, slowDelay time.Duration, maxFastAttempts int) *ItemFastSlowRateLimiter {
	return &ItemFastSlowRateLimiter{
		failures:        make(map[string]int),
		fastDelay:       fastDelay,
		slowDelay:       slowDelay,
		maxFastAttempts: maxFastAttempts,
	}
}

// When counts this failure first, then compares: the maxFastAttempts-th
// failure still gets the fast delay.
func (r *ItemFastSlowRateLimiter) When(key string) time.Duration {
	n := r.failures[key] + 1
	r.failures[key] = n
	if n <= r.maxFastAttempts {
		return r.fastDelay
	}
	return r.slowDelay
}

func (r *ItemFastSlowRateLimiter) NumRequeues(key string) int { return r.failures[key] }

func (r *ItemFastSlowRateLimiter) Forget(key string) { delete(r.failures, key) }

// Tracked returns the keys with failures, sorted.
func (r *ItemFastSlowRateLimiter) Tracked() []string {
	return slices.Sorted(maps.Keys(r.failures))
}

// Snapshot captures the failure counts (sim.Snapshotter).
func (r *ItemFastSlowRateLimiter) Snapshot() any { return maps.Clone(r.failures) }

// Restore brings the failure counts back to a Snapshot (sim.Snapshotter).
func (r *ItemFastSlowRateLimiter) Restore(s any) {
	r.failures = cloneCounts(s.(map[string]int))
}

// cloneCounts copies a failure map for Restore, so that the snapshot it came
// from stays untouched for the next Restore.
func cloneCounts(m map[string]int) map[string]int {
	c := maps.Clone(m)
	if c == nil {
		c = make(map[string]int)
	}
	return c
}
