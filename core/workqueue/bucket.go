package workqueue

import (
	"math"
	"time"

	"github.com/reconcilelab/rlab/core/sim"
)

var (
	_ RateLimiter     = (*BucketRateLimiter)(nil)
	_ sim.Snapshotter = (*BucketRateLimiter)(nil)
)

// InfiniteQPS is the rate that never limits, golang.org/x/time/rate's Inf:
// every When answers 0 and takes no token.
const InfiniteQPS = math.MaxFloat64

// BucketRateLimiter is a token bucket shared by all keys: upstream's
// TypedBucketRateLimiter around a golang.org/x/time/rate Limiter, on the
// kernel's clock. The bucket holds up to burst tokens and refills at qps
// tokens a second; it starts full. Every When takes one token, whichever key
// asks, and answers how long until that token exists: 0 while the bucket has
// tokens, and then, as the bucket runs dry, one refill interval more for each
// further When. Tokens may go negative; that debt is what spaces the waits.
//
// The arithmetic is x/time/rate's reservation arithmetic, step for step in
// float64, so that the waits match it to the nanosecond: tokens accrue as
// elapsed.Seconds() × qps, capped at burst, and a debt of d tokens is a wait
// of time.Duration(1e9 × d/qps). Its edge cases are kept too: a qps of zero
// lets exactly burst Whens through, ever, and answers the longest Duration
// after that; a burst of zero with a finite qps answers the longest Duration
// every time, without taking a token.
type BucketRateLimiter struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	clock Clock

	// qps is the refill rate in tokens per second; InfiniteQPS or more
	// means no limit.
	qps float64

	// burst is the bucket's size. With a qps of zero it is also the number
	// of Whens still allowed, and each one lowers it (x/time/rate does the
	// same).
	burst int

	// tokens is what the bucket held at last; below zero it is a debt that
	// later Whens wait out. Until started it means nothing: the bucket is
	// full.
	tokens float64

	// last is when tokens was last brought up to date, on the kernel's
	// clock.
	last time.Duration

	// started says a token has been taken. x/time/rate leaves its last
	// update at the zero time until then, so that the first When sees
	// centuries of refill and a full bucket; started says the same without
	// a sentinel time.
	started bool
}

// NewBucketRateLimiter returns a full bucket of burst tokens that refills at
// qps tokens a second on clock.
func NewBucketRateLimiter(clock Clock, qps float64, burst int) *BucketRateLimiter {
	return &BucketRateLimiter{clock: clock, qps: qps, burst: burst}
}

// When takes a token and returns how long until it is there. The key does not
// matter: the bucket is shared.
func (r *BucketRateLimiter) When(string) time.Duration {
	return r.reserve(r.clock.Now())
}

// reserve takes one token at now and returns the wait: x/time/rate's
// reserveN for one token with no limit on the wait, followed by DelayFrom
// at the same instant.
func (r *BucketRateLimiter) reserve(now time.Duration) time.Duration {
	switch {
	case r.qps >= InfiniteQPS:
		return 0
	case r.qps == 0:
		if r.burst >= 1 {
			r.burst--
			return 0
		}
		return math.MaxInt64
	}
	now, tokens := r.advance(now)
	tokens--
	var wait time.Duration
	if tokens < 0 {
		wait = r.durationFromTokens(-tokens)
	}
	if r.burst < 1 {
		// The reservation is refused: nothing is taken, and the caller is
		// told to wait forever.
		return math.MaxInt64
	}
	r.last, r.tokens, r.started = now, tokens, true
	return wait
}

// advance returns the bucket's tokens at now, without changing it.
func (r *BucketRateLimiter) advance(now time.Duration) (time.Duration, float64) {
	elapsed := time.Duration(math.MaxInt64)
	if r.started {
		last := min(r.last, now)
		elapsed = now - last
	}
	tokens := r.tokens + r.tokensFromDuration(elapsed)
	return now, min(tokens, float64(r.burst))
}

func (r *BucketRateLimiter) tokensFromDuration(d time.Duration) float64 {
	if r.qps <= 0 {
		return 0
	}
	return d.Seconds() * r.qps
}

func (r *BucketRateLimiter) durationFromTokens(tokens float64) time.Duration {
	if r.qps <= 0 {
		return math.MaxInt64
	}
	return time.Duration(float64(time.Second) * (tokens / r.qps))
}

// Tokens returns the tokens in the bucket now; below zero, the debt that the
// next When will wait out.
func (r *BucketRateLimiter) Tokens() float64 {
	_, tokens := r.advance(r.clock.Now())
	return tokens
}

// NumRequeues is always 0: the bucket counts tokens, not keys.
func (r *BucketRateLimiter) NumRequeues(string) int { return 0 }

// Forget does nothing: the bucket keeps no history per key.
func (r *BucketRateLimiter) Forget(string) {}

// bucketState is a BucketRateLimiter's snapshot.
type bucketState struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	burst   int
	tokens  float64
	last    time.Duration
	started bool
}

// Snapshot captures the bucket (sim.Snapshotter).
func (r *BucketRateLimiter) Snapshot() any {
	return bucketState{burst: r.burst, tokens: r.tokens, last: r.last, started: r.started}
}

// Restore brings the bucket back to a Snapshot (sim.Snapshotter).
func (r *BucketRateLimiter) Restore(s any) {
	st := s.(bucketState)
	r.burst, r.tokens, r.last, r.started = st.burst, st.tokens, st.last, st.started
}
