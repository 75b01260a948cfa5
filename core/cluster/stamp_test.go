package cluster

import (
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sim"
)

// TestStampsKeepTheirTimes: a time goes into a stamp and comes out equal by
// ==, not only by Equal, so that a status built from the kubelet's stamps is
// the one it built from time.Times: the zero time (a condition the API gave
// without a time), the kernel's times with their nanoseconds, and times
// before 1970 and after 2262, which nanoseconds since 1970 cannot hold.
func TestStampsKeepTheirTimes(t *testing.T) {
	for _, tm := range []time.Time{
		{},
		sim.Epoch,
		sim.Epoch.Add(1500*time.Millisecond + 7),
		time.Date(1969, time.December, 31, 23, 59, 59, 999_999_999, time.UTC),
		time.Unix(0, 0).UTC(),
		time.Date(9999, time.December, 31, 23, 59, 59, 0, time.UTC),
	} {
		s := stampOf(tm)
		assert.True(t, s.isSet(), "%v has a stamp", tm)
		assert.True(t, s.time() == tm, "%v came back as %v", tm, s.time())
	}
	assert.False(t, stamp{}.isSet(), "the zero stamp holds no time")
	assert.True(t, stamp{}.time().IsZero(), "and reads as the zero time")
}

// TestStampsGoOnTheWireInWholeSeconds: the times a kubelet's status
// carries are its stamps truncated to the second, equal by == to what the
// API server would store, so that the server finds nothing to truncate and
// keeps the status it was sent (apistore's copyForStatusUpdate).
func TestStampsGoOnTheWireInWholeSeconds(t *testing.T) {
	for _, tm := range []time.Time{
		sim.Epoch,
		sim.Epoch.Add(1500*time.Millisecond + 7),
		time.Date(1969, time.December, 31, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(9999, time.December, 31, 23, 59, 59, 5, time.UTC),
	} {
		want := tm.UTC().Truncate(time.Second)
		assert.True(t, stampOf(tm).wire() == want, "%v went on the wire as %v, not %v", tm, stampOf(tm).wire(), want)
	}
	assert.True(t, stamp{}.wire().IsZero(), "the zero stamp carries the zero time")
}

// TestConditionsKeepTheirStatusAndTime: a condition the kubelet keeps gives
// back the status and the time it was given, for each of the three
// statuses and for times a stamp must keep exactly; and the zero condition
// reports nothing. The row that holds five of them stays within the size
// class of 240 bytes the compact layout bought (a kubelet keeps one row per
// pod it runs, and every snapshot's first change copies rows).
func TestConditionsKeepTheirStatusAndTime(t *testing.T) {
	for _, status := range []string{api.ConditionTrue, api.ConditionFalse, api.ConditionUnknown} {
		for _, tm := range []time.Time{{}, sim.Epoch.Add(1500*time.Millisecond + 7), time.Date(1969, time.December, 31, 23, 59, 59, 999_999_999, time.UTC)} {
			c := condOf(status, tm)
			assert.Equal(t, status, c.status.text())
			assert.True(t, c.since().isSet(), "a condition given a time reports it, the zero time included")
			assert.True(t, c.since().time() == tm, "%v came back as %v", tm, c.since().time())
		}
	}
	assert.False(t, condState{}.since().isSet(), "the zero condition is not reported")
	assert.Equal(t, api.ConditionUnknown, condStatusOf("Maybe").text(), "a status no writer in the model writes is kept as Unknown")
	assert.Equal(t, uintptr(16), unsafe.Sizeof(condState{}))
	assert.LessOrEqual(t, unsafe.Sizeof(kpod{}), uintptr(240))
}
