package workqueue

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/sim"
)

// newDelayingWorld returns a kernel with a delaying queue registered on it.
// Upstream's delaying tests run on a fake clock that the test steps; here the
// kernel's clock is stepped, and the queue's timer fires as an event on the
// way.
func newDelayingWorld(t *testing.T, cfg Config) (*sim.Kernel, *checked) {
	t.Helper()
	k := sim.New(1)
	cfg.Scheduler = k
	dq := NewDelaying(cfg)
	mustRegister(t, k, dq.ComponentName(), dq)
	return k, checkDelayingQueue(t, k, dq)
}

// TestSimpleQueue: a key added after 50ms is not there before, is there at
// 60ms, and does not come back after it is done, however long one waits.
func TestSimpleQueue(t *testing.T) {
	_, q := newDelayingWorld(t, Config{Name: "test"})
	assert.Equal(t, Delayed, q.AddAfter("foo", 50*time.Millisecond))
	assert.Zero(t, q.Len(), "should not have added")

	q.advance(60 * time.Millisecond)
	require.Equal(t, 1, q.Len(), "should have added")
	key, _, _ := q.Get("worker-1")
	q.Done(key)

	q.advance(10 * time.Second) // past upstream's heartbeat
	assert.Zero(t, q.Len(), "should not have added")
}

// TestDeduping: a later ready time for a delayed key is ignored, an earlier
// one replaces it; either way the key fires once.
func TestDeduping(t *testing.T) {
	_, q := newDelayingWorld(t, Config{Name: "test"})
	assert.Equal(t, Delayed, q.AddAfter("foo", 50*time.Millisecond))
	assert.Equal(t, DelayKept, q.AddAfter("foo", 70*time.Millisecond))
	assert.Zero(t, q.Len())

	q.advance(60 * time.Millisecond)
	require.Equal(t, 1, q.Len(), "fires at the first ready time")
	key, _, _ := q.Get("worker-1")
	q.Done(key)
	q.advance(20 * time.Millisecond)
	assert.Zero(t, q.Len(), "the later ready time was dropped")

	assert.Equal(t, Delayed, q.AddAfter("foo", 50*time.Millisecond))
	assert.Equal(t, DelayShortened, q.AddAfter("foo", 30*time.Millisecond))
	assert.Zero(t, q.Len())
	q.advance(40 * time.Millisecond)
	require.Equal(t, 1, q.Len(), "the earlier ready time wins")
	key, _, _ = q.Get("worker-1")
	q.Done(key)
	q.advance(20 * time.Millisecond)
	assert.Zero(t, q.Len(), "and the key fires once")
}

// TestAddTwoFireEarly: keys come out in ready-time order, whatever order they
// were added in, including one added while another waits.
func TestAddTwoFireEarly(t *testing.T) {
	_, q := newDelayingWorld(t, Config{Name: "test"})
	q.AddAfter("foo", time.Second)
	q.AddAfter("bar", 50*time.Millisecond)
	assert.Zero(t, q.Len())

	q.advance(60 * time.Millisecond)
	require.Equal(t, 1, q.Len())
	key, _, _ := q.Get("worker-1")
	assert.Equal(t, "bar", key)

	q.AddAfter("baz", 2*time.Second)
	q.advance(time.Second)
	require.Equal(t, 1, q.Len())
	key, _, _ = q.Get("worker-1")
	assert.Equal(t, "foo", key)

	q.advance(2 * time.Second)
	require.Equal(t, 1, q.Len())
	key, _, _ = q.Get("worker-1")
	assert.Equal(t, "baz", key)
}

// TestCopyShifting: three keys all due by the time the clock gets there come
// out in ready-time order.
func TestCopyShifting(t *testing.T) {
	_, q := newDelayingWorld(t, Config{Name: "test"})
	q.AddAfter("foo", time.Second)
	q.AddAfter("bar", 500*time.Millisecond)
	q.AddAfter("baz", 250*time.Millisecond)
	assert.Zero(t, q.Len())

	q.advance(2 * time.Second)
	require.Equal(t, 3, q.Len())
	for _, want := range []string{"baz", "bar", "foo"} {
		key, _, _ := q.Get("worker-1")
		assert.Equal(t, want, key)
	}
}

func TestKeysDueAtTheSameInstantMoveInRequestOrder(t *testing.T) {
	_, q := newDelayingWorld(t, Config{Name: "test"})
	q.AddAfter("c", 20*time.Millisecond)
	q.AddAfter("a", 10*time.Millisecond)
	q.AddAfter("b", 10*time.Millisecond)
	q.AddAfter("c", 10*time.Millisecond) // moves up: its request for 10ms came last

	steps := q.advance(10 * time.Millisecond)
	require.Len(t, steps, 3, "one step per due key")
	for _, s := range steps {
		assert.Equal(t, 10*time.Millisecond, s.At)
		assert.Equal(t, "queue/test", s.Actor)
		assert.Equal(t, "waitingLoop", s.Models)
	}
	assert.Equal(t, []string{"a", "b", "c"}, q.view().Waiting)
}

func TestAddAfterWithNoDelayAddsAtOnce(t *testing.T) {
	k, q := newDelayingWorld(t, Config{Name: "test"})
	assert.Equal(t, Queued, q.AddAfter("a", 0))
	assert.Equal(t, AlreadyWaiting, q.AddAfter("a", -time.Second))
	assert.Equal(t, 1, q.Len())
	assert.False(t, k.Pending(), "no timer for a key added at once")
}

func TestTimerFollowsTheEarliestKey(t *testing.T) {
	k, q := newDelayingWorld(t, Config{Name: "test"})
	q.AddAfter("a", time.Second)
	q.AddAfter("b", 2*time.Second) // the timer stays on a
	q.AddAfter("c", 500*time.Millisecond)
	q.AddAfter("a", 100*time.Millisecond)
	next, ok := k.Next()
	require.True(t, ok)
	assert.Equal(t, 100*time.Millisecond, next.At, "one timer, at the head's ready time")
	assert.Len(t, k.Agenda(), 1, "re-arming cancels the timer it replaces")

	q.advance(100 * time.Millisecond)
	next, _ = k.Next()
	assert.Equal(t, 500*time.Millisecond, next.At, "popping the head re-arms for the next")
}

func TestShutDownDropsDelayedKeys(t *testing.T) {
	for _, sd := range shutDowns {
		t.Run(sd.name, func(t *testing.T) {
			k, q := newDelayingWorld(t, Config{Name: "test"})
			q.AddAfter("a", time.Second)
			q.AddAfter("b", 2*time.Second)
			sd.stop(q)
			assert.Empty(t, q.view().Delayed)
			assert.False(t, k.Pending(), "the timer is cancelled")
			assert.Equal(t, Ignored, q.AddAfter("c", time.Second))
			q.advance(time.Minute)
			assert.Zero(t, q.Len())
		})
	}
}

func TestAddAfterTheLongestDurationDoesNotWrapRound(t *testing.T) {
	k, q := newDelayingWorld(t, Config{Name: "test"})
	k.Advance(time.Second)
	assert.Equal(t, Delayed, q.AddAfter("forever", math.MaxInt64))
	assert.Equal(t, []DelayedKey{{Key: "forever", ReadyAt: math.MaxInt64, Delay: math.MaxInt64}}, q.view().Delayed)
	q.advance(time.Hour)
	assert.Zero(t, q.Len())
}

func TestStrayEventsAreReportedNotActedOn(t *testing.T) {
	k, q := newDelayingWorld(t, Config{Name: "test"})
	q.AddAfter("a", time.Second)
	k.After(0, "queue/test", KindTimer, nil) // not the queue's own timer
	res, ok := q.step()
	require.True(t, ok)
	assert.Equal(t, "ignored a timer event that is not the queue's pending timer", res.Summary.String())
	assert.Equal(t, []DelayedKey{{Key: "a", ReadyAt: time.Second, Delay: time.Second}}, q.view().Delayed)
}

func TestNewDelayingNeedsAScheduler(t *testing.T) {
	assert.PanicsWithValue(t,
		"workqueue: NewDelaying needs Config.Scheduler: the kernel is the delaying queue's clock and runs its timer",
		func() { NewDelaying(Config{Name: "test"}) })
}

// TestQuietWaitDoesNotKeepTheWorldBusy: a delayed key marked quiet leaves
// the kernel at rest (its timer is a background event) but still comes
// back when the clock gets there; a later add makes its wait busy again,
// and a busy key waiting behind a quiet one keeps the timer busy.
func TestQuietWaitDoesNotKeepTheWorldBusy(t *testing.T) {
	k, q := newDelayingWorld(t, Config{Name: "test"})
	q.AddAfter("foo", time.Minute)
	assert.True(t, k.Busy())
	assert.True(t, q.Quiet("foo"))
	assert.False(t, q.Quiet("foo"), "quiet already")
	assert.False(t, q.Quiet("bar"), "not waiting")
	assert.False(t, k.Busy(), "only a quiet wait is left")

	q.AddAfter("bar", 2*time.Minute)
	assert.True(t, k.Busy(), "bar's wait is busy, so the timer is")
	q.advance(time.Minute + time.Second)
	assert.Equal(t, 1, q.Len(), "the quiet key came back in its turn")
	assert.True(t, k.Busy(), "bar still waits")
	q.advance(time.Minute)

	q.AddAfter("baz", time.Minute)
	q.Quiet("baz")
	q.AddAfter("baz", 2*time.Minute)
	assert.True(t, k.Busy(), "another add of baz makes its wait busy again, even one that keeps the earlier time")
}
