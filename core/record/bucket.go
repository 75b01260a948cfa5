package record

import "time"

// tokenBucket is the spam filter's budget for one source and object:
// client-go's flowcontrol token-bucket passive rate limiter, which wraps a
// golang.org/x/time/rate Limiter and only ever asks it TryAccept (AllowN of
// one token, now). The bucket holds up to burst tokens and refills at qps
// tokens a second; it starts full. A token is taken only when one is there: a
// refused event takes nothing and leaves the bucket exactly as it was.
//
// The arithmetic is x/time/rate's, in float64, so that refusals fall on the
// same nanosecond: tokens accrue as elapsed.Seconds() × qps, capped at burst.
// A value is immutable; tryAccept returns the bucket after the attempt.
type tokenBucket struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// tokens is what the bucket held at last.
	tokens float64
	// last is when tokens was last brought up to date, on the kernel clock.
	last time.Duration
}

// tryAccept tries to take one token at now. It returns the bucket after the
// attempt, whether a token was taken and, if not, how long until one will be
// there.
func (b tokenBucket) tryAccept(now time.Duration, qps float64, burst int, started bool) (tokenBucket, bool, time.Duration) {
	tokens := float64(burst)
	if started {
		// x/time/rate's advance: a clock that went backwards counts as no
		// time passing.
		elapsed := now - b.last
		if elapsed < 0 {
			elapsed = 0
		}
		tokens = b.tokens + elapsed.Seconds()*qps
		if full := float64(burst); tokens > full {
			tokens = full
		}
	}
	tokens--
	if tokens < 0 || burst < 1 {
		// A refusal changes nothing (reserveN only writes its state when
		// the reservation is ok).
		return b, false, durationFromTokens(-tokens, qps)
	}
	return tokenBucket{tokens: tokens, last: now}, true, 0
}

// durationFromTokens is x/time/rate's Limit.durationFromTokens.
func durationFromTokens(tokens, qps float64) time.Duration {
	if qps <= 0 {
		return time.Duration(1<<63 - 1)
	}
	return time.Duration(1e9 * tokens / qps)
}

// spamRecord is the spam filter's cache value: a bucket, and whether it has
// been used (an unused bucket is full, as a new rate.Limiter whose last update
// is the zero time is).
type spamRecord struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	bucket  tokenBucket
	started bool
}
