package record

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/reconcilelab/rlab/core/sim"
)

// TestBucketMatchesXTimeRate drives the spam filter's bucket and a
// golang.org/x/time/rate Limiter (what client-go's passive token bucket
// wraps) with the same TryAccept calls and requires the same answers.
func TestBucketMatchesXTimeRate(t *testing.T) {
	for _, tc := range []struct {
		qps   float64
		burst int
	}{
		{DefaultQPS, DefaultBurst},
		{float64(float32(0.5)), 3},
		{10, 1},
	} {
		oracle := rate.NewLimiter(rate.Limit(tc.qps), tc.burst)
		var rec spamRecord
		rng := rand.New(rand.NewPCG(7, uint64(tc.burst)))
		now := time.Duration(0)
		for i := 0; i < 5000; i++ {
			now += time.Duration(rng.Int64N(int64(30 * time.Second / time.Duration(tc.burst))))
			want := oracle.AllowN(sim.Epoch.Add(now), 1)
			bucket, got, wait := rec.bucket.tryAccept(now, tc.qps, tc.burst, rec.started)
			require.Equal(t, want, got, "call %d at %v (qps %v, burst %d)", i, now, tc.qps, tc.burst)
			if !got {
				assert.Greater(t, wait, time.Duration(0))
			}
			rec = spamRecord{bucket: bucket, started: rec.started || got}
			require.LessOrEqual(t, rec.bucket.tokens, float64(tc.burst))
		}
	}
}

func TestBucketRefusalChangesNothing(t *testing.T) {
	b := tokenBucket{tokens: 0.5, last: time.Second}
	after, ok, wait := b.tryAccept(time.Second, 1, 2, true)
	assert.False(t, ok)
	assert.Equal(t, b, after)
	assert.Equal(t, 500*time.Millisecond, wait)
}
