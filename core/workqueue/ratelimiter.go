package workqueue

import (
	"slices"
	"time"

	"github.com/reconcilelab/rlab/core/sim"
)

// RateLimiter decides how long a failing key waits before its retry:
// upstream's TypedRateLimiter.
type RateLimiter interface {
	// When records one more failure of key and returns how long it should
	// wait before it is retried.
	When(key string) time.Duration

	// Forget drops key's history, because it succeeded or was given up
	// on. It does not touch the queue: Done is still required.
	Forget(key string)

	// NumRequeues returns how many failures of key have been recorded
	// since it was last forgotten.
	NumRequeues(key string) int
}

// Tracker is implemented by rate limiters that keep a history per key, so
// that a view can list the keys a limiter remembers and their counts.
type Tracker interface {
	// Tracked returns the keys with a history, sorted.
	Tracked() []string
}

// Clock is the time source of the limiters that need one: the kernel's
// logical clock, which both *sim.Kernel and *sim.Context provide.
type Clock interface {
	Now() time.Duration
}

// A limiter with state must also implement sim.Snapshotter, so that stepping
// back rewinds its memory of failures along with the queue. Every limiter
// here does; the composite ones forward to the limiters they hold.
var (
	_ RateLimiter     = (*MaxOfRateLimiter)(nil)
	_ RateLimiter     = (*WithMaxWaitRateLimiter)(nil)
	_ Tracker         = (*MaxOfRateLimiter)(nil)
	_ Tracker         = (*WithMaxWaitRateLimiter)(nil)
	_ sim.Snapshotter = (*MaxOfRateLimiter)(nil)
	_ sim.Snapshotter = (*WithMaxWaitRateLimiter)(nil)
)

// DefaultControllerRateLimiter returns the limiter of upstream's
// DefaultTypedControllerRateLimiter, which the ReplicaSet controller uses: the
// larger of a per-key exponential back-off from 5ms to 1000s and a token
// bucket shared by all keys, 10 retries a second with bursts of 100.
func DefaultControllerRateLimiter(clock Clock) *MaxOfRateLimiter {
	return NewMaxOfRateLimiter(
		NewItemExponentialFailureRateLimiter(5*time.Millisecond, 1000*time.Second),
		NewBucketRateLimiter(clock, 10, 100),
	)
}

// DefaultItemBasedRateLimiter returns upstream's
// DefaultTypedItemBasedRateLimiter: a per-key exponential back-off from 1ms
// to 1000s.
func DefaultItemBasedRateLimiter() *ItemExponentialFailureRateLimiter {
	return NewItemExponentialFailureRateLimiter(time.Millisecond, 1000*time.Second)
}

// MaxOfRateLimiter asks every limiter it holds and returns the longest wait.
// Every limiter is asked on every When, so each records the failure, even
// those whose answer is not the longest.
//
// With a token bucket among the limiters, a key delayed for long by its own
// back-off still takes a token, so the bucket can look as if it let more than
// its burst through; upstream notes the same.
type MaxOfRateLimiter struct {
	limiters []RateLimiter
}

// NewMaxOfRateLimiter returns a limiter that answers with the longest wait of
// limiters.
func NewMaxOfRateLimiter(limiters ...RateLimiter) *MaxOfRateLimiter {
	return &MaxOfRateLimiter{limiters: slices.Clone(limiters)}
}

func (r *MaxOfRateLimiter) When(key string) time.Duration {
	var longest time.Duration
	for _, l := range r.limiters {
		longest = max(longest, l.When(key))
	}
	return longest
}

// NumRequeues returns the largest count of the limiters.
func (r *MaxOfRateLimiter) NumRequeues(key string) int {
	most := 0
	for _, l := range r.limiters {
		most = max(most, l.NumRequeues(key))
	}
	return most
}

func (r *MaxOfRateLimiter) Forget(key string) {
	for _, l := range r.limiters {
		l.Forget(key)
	}
}

// Tracked returns the keys any of the limiters remembers.
func (r *MaxOfRateLimiter) Tracked() []string {
	var all []string
	for _, l := range r.limiters {
		if t, ok := l.(Tracker); ok {
			all = append(all, t.Tracked()...)
		}
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// Snapshot captures every limiter that has state (sim.Snapshotter).
func (r *MaxOfRateLimiter) Snapshot() any {
	states := make([]any, len(r.limiters))
	for i, l := range r.limiters {
		if s, ok := l.(sim.Snapshotter); ok {
			states[i] = s.Snapshot()
		}
	}
	return states
}

// Restore brings every limiter back to a Snapshot (sim.Snapshotter).
func (r *MaxOfRateLimiter) Restore(s any) {
	states := s.([]any)
	for i, l := range r.limiters {
		if sn, ok := l.(sim.Snapshotter); ok {
			sn.Restore(states[i])
		}
	}
}

// WithMaxWaitRateLimiter caps the wait another limiter asks for, so that no
// key waits longer than maxDelay.
type WithMaxWaitRateLimiter struct {
	limiter  RateLimiter
	maxDelay time.Duration
}

// NewWithMaxWaitRateLimiter returns limiter with its waits capped at maxDelay.
func NewWithMaxWaitRateLimiter(limiter RateLimiter, maxDelay time.Duration) *WithMaxWaitRateLimiter {
	return &WithMaxWaitRateLimiter{limiter: limiter, maxDelay: maxDelay}
}

func (r *WithMaxWaitRateLimiter) When(key string) time.Duration {
	return min(r.limiter.When(key), r.maxDelay)
}

func (r *WithMaxWaitRateLimiter) Forget(key string) { r.limiter.Forget(key) }

func (r *WithMaxWaitRateLimiter) NumRequeues(key string) int { return r.limiter.NumRequeues(key) }

// Tracked returns the keys the capped limiter remembers.
func (r *WithMaxWaitRateLimiter) Tracked() []string {
	if t, ok := r.limiter.(Tracker); ok {
		return t.Tracked()
	}
	return nil
}

// Snapshot captures the capped limiter, if it has state (sim.Snapshotter).
func (r *WithMaxWaitRateLimiter) Snapshot() any {
	if s, ok := r.limiter.(sim.Snapshotter); ok {
		return s.Snapshot()
	}
	return nil
}

// Restore brings the capped limiter back to a Snapshot (sim.Snapshotter).
func (r *WithMaxWaitRateLimiter) Restore(s any) {
	if sn, ok := r.limiter.(sim.Snapshotter); ok {
		sn.Restore(s)
	}
}
