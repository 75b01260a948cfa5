//go:build !js

// This file uses the upstream modules (k8s.io, gopkg.in/yaml.v2) as oracles,
// so it runs natively only: the js/wasm run of make test runs the package's
// other tests under node, and neither it nor the js/wasm lint compiles the
// oracles for WebAssembly, where they never run.

// This file compares the package with upstream k8s.io/client-go/util/workqueue
// and golang.org/x/time/rate, the judges of fidelity (see DESIGN.md,
// "Fidelity oracles"). Upstream is imported by tests only; it never reaches
// the WebAssembly build.

package workqueue

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
	upstream "k8s.io/client-go/util/workqueue"

	"github.com/reconcilelab/rlab/core/sim"
)

// TestUpstreamQueueAgrees runs random Adds, Gets, Dones and a shutdown on
// this queue and on upstream's, and requires the same answers. Upstream's Get
// blocks on an empty queue that is not shutting down, so Get is only called
// when upstream would return at once.
func TestUpstreamQueueAgrees(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		rng := rand.New(rand.NewPCG(seed, 3))
		ours, theirs := New(Config{}), upstream.NewTyped[string]()
		var held []string
		for i := 0; i < 500; i++ {
			key := "default/k" + strconv.Itoa(rng.IntN(8))
			switch op := rng.IntN(20); {
			case op < 8:
				ours.Add(key)
				theirs.Add(key)
			case op < 13:
				if theirs.Len() == 0 && !theirs.ShuttingDown() {
					continue
				}
				got, ok, shutdown := ours.Get("w")
				want, wantShutdown := theirs.Get()
				require.Equal(t, wantShutdown, shutdown, "seed %d op %d: Get", seed, i)
				require.Equal(t, !wantShutdown, ok)
				require.Equal(t, want, got, "seed %d op %d: Get", seed, i)
				if ok {
					held = append(held, got)
				}
			case op < 19:
				if len(held) == 0 {
					continue
				}
				j := rng.IntN(len(held))
				ours.Done(held[j])
				theirs.Done(held[j])
				held = append(held[:j], held[j+1:]...)
			default:
				if rng.IntN(10) == 0 {
					ours.ShutDown()
					theirs.ShutDown()
				}
			}
			require.Equal(t, theirs.Len(), ours.Len(), "seed %d op %d: Len", seed, i)
			require.Equal(t, theirs.ShuttingDown(), ours.ShuttingDown())
		}
		theirs.ShutDown()
	}
}

// TestUpstreamRateLimitersAgree asks this package's limiters and upstream's
// the same questions, including counts far past any overflow.
func TestUpstreamRateLimitersAgree(t *testing.T) {
	type pair struct {
		name   string
		ours   RateLimiter
		theirs upstream.TypedRateLimiter[string]
	}
	pairs := []pair{
		{"exponential 1ms..1000s", NewItemExponentialFailureRateLimiter(time.Millisecond, 1000*time.Second),
			upstream.NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, 1000*time.Second)},
		{"exponential 1min..1000h", NewItemExponentialFailureRateLimiter(time.Minute, 1000*time.Hour),
			upstream.NewTypedItemExponentialFailureRateLimiter[string](time.Minute, 1000*time.Hour)},
		{"exponential 3ns..max", NewItemExponentialFailureRateLimiter(3, 1<<62),
			upstream.NewTypedItemExponentialFailureRateLimiter[string](3, 1<<62)},
		{"fast/slow", NewItemFastSlowRateLimiter(5*time.Millisecond, 10*time.Second, 3),
			upstream.NewTypedItemFastSlowRateLimiter[string](5*time.Millisecond, 10*time.Second, 3)},
		{"max of", NewMaxOfRateLimiter(NewItemFastSlowRateLimiter(5*time.Millisecond, 3*time.Second, 3), NewItemExponentialFailureRateLimiter(time.Millisecond, time.Second)),
			upstream.NewTypedMaxOfRateLimiter(upstream.NewTypedItemFastSlowRateLimiter[string](5*time.Millisecond, 3*time.Second, 3), upstream.NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second))},
		{"with max wait", NewWithMaxWaitRateLimiter(NewItemExponentialFailureRateLimiter(time.Millisecond, time.Hour), time.Minute),
			upstream.NewTypedWithMaxWaitRateLimiter(upstream.NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Hour), time.Minute)},
	}
	for _, p := range pairs {
		rng := rand.New(rand.NewPCG(1, 1))
		for i := 0; i < 3000; i++ {
			key := "k" + strconv.Itoa(rng.IntN(3))
			if rng.IntN(100) == 0 {
				p.ours.Forget(key)
				p.theirs.Forget(key)
			}
			require.Equal(t, p.theirs.When(key), p.ours.When(key), "%s: When %d of %s", p.name, i, key)
			require.Equal(t, p.theirs.NumRequeues(key), p.ours.NumRequeues(key), "%s: NumRequeues", p.name)
		}
	}
}

// TestBucketMatchesXTimeRate moves a kernel clock and x/time/rate's explicit
// time together and requires the same wait, to the nanosecond, from every
// reservation.
func TestBucketMatchesXTimeRate(t *testing.T) {
	for _, c := range []struct {
		qps   float64
		burst int
	}{{10, 100}, {10, 1}, {0.5, 3}, {3.7, 5}, {1000, 10}, {0, 2}, {10, 0}, {InfiniteQPS, 0}, {-1, 1}} {
		k := sim.New(1)
		ours := NewBucketRateLimiter(k, c.qps, c.burst)
		theirs := rate.NewLimiter(rate.Limit(c.qps), c.burst)
		rng := rand.New(rand.NewPCG(uint64(c.burst), 9))
		for i := 0; i < 2000; i++ {
			if rng.IntN(3) == 0 {
				k.Advance(time.Duration(rng.IntN(300_000_000)))
			}
			now := sim.Epoch.Add(k.Now())
			want := theirs.ReserveN(now, 1).DelayFrom(now)
			require.Equal(t, want, ours.When("any"), "qps %v burst %d: reservation %d at %v", c.qps, c.burst, i, k.Now())
			require.Equal(t, theirs.TokensAt(now), ours.Tokens(), "qps %v burst %d: tokens after reservation %d", c.qps, c.burst, i)
		}
	}
}
