package workqueue

import (
	"time"

	"github.com/reconcilelab/rlab/core/sim"
)

// RateLimitingInterface is a delaying queue whose retries wait as long as a
// rate limiter says: upstream's TypedRateLimitingInterface, the queue every
// controller uses.
type RateLimitingInterface interface {
	DelayingInterface
	AddRateLimited(key string) (time.Duration, Outcome)
	Forget(key string)
	NumRequeues(key string) int
}

var (
	_ RateLimitingInterface = (*RateLimitingQueue)(nil)
	_ sim.Component         = (*RateLimitingQueue)(nil)
	_ sim.Snapshotter       = (*RateLimitingQueue)(nil)
)

// RateLimitingQueue is a DelayingQueue with a RateLimiter. A worker whose
// sync fails calls AddRateLimited, and the key comes back after the
// limiter's back-off; a worker whose sync succeeds calls Forget, so the next
// failure starts the back-off afresh. Either way it calls Done.
type RateLimitingQueue struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	*DelayingQueue

	// limiter decides every AddRateLimited's wait. If it has state it
	// should implement sim.Snapshotter, or stepping back will not rewind
	// it; every limiter in this package does.
	limiter RateLimiter
}

// NewRateLimiting returns an empty rate-limiting queue. A nil limiter means
// DefaultControllerRateLimiter on the queue's clock. cfg.Scheduler is
// required, as for NewDelaying.
func NewRateLimiting(cfg Config, limiter RateLimiter) *RateLimitingQueue {
	q := &RateLimitingQueue{DelayingQueue: NewDelaying(cfg), limiter: limiter}
	if limiter == nil {
		q.limiter = DefaultControllerRateLimiter(cfg.Scheduler)
	}
	return q
}

// RateLimiter returns the queue's limiter.
func (q *RateLimitingQueue) RateLimiter() RateLimiter { return q.limiter }

// AddRateLimited adds key after the wait the limiter chooses for it, and
// returns that wait with what AddAfter did. The limiter is asked even when
// the queue is shutting down, as upstream asks it before AddAfter checks, so
// the failure is counted either way.
func (q *RateLimitingQueue) AddRateLimited(key string) (time.Duration, Outcome) {
	d := q.limiter.When(key)
	return d, q.addAfter(key, d, true)
}

// Forget tells the limiter that key is finished with, whether it succeeded
// or was given up on, so that its back-off starts again from the beginning.
// It does not touch the queue: Done is still required.
func (q *RateLimitingQueue) Forget(key string) { q.limiter.Forget(key) }

// NumRequeues returns how many times key has been added rate-limited since
// it was last forgotten, as the limiter counts.
func (q *RateLimitingQueue) NumRequeues(key string) int { return q.limiter.NumRequeues(key) }

// rateLimitingState is a RateLimitingQueue's snapshot.
type rateLimitingState struct {
	delaying delayingState
	limiter  any
}

// Snapshot captures the queue, its delayed keys and its limiter
// (sim.Snapshotter).
func (q *RateLimitingQueue) Snapshot() any {
	s := rateLimitingState{delaying: q.delayingState()}
	if l, ok := q.limiter.(sim.Snapshotter); ok {
		s.limiter = l.Snapshot()
	}
	return s
}

// Restore brings the queue and its limiter back to a Snapshot
// (sim.Snapshotter).
func (q *RateLimitingQueue) Restore(s any) {
	st := s.(rateLimitingState)
	q.setDelayingState(st.delaying)
	if l, ok := q.limiter.(sim.Snapshotter); ok {
		l.Restore(st.limiter)
	}
}
