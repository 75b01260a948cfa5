package cluster

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

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
