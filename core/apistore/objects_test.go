package apistore

import (
	"testing"
	"time"

	"github.com/reconcilelab/rlab/core/api"
)

// TestTruncTimeIsTruncate: truncTime gives the very Time that reading in
// UTC and Truncate to the second gave, bit for bit, for times before year
// 1, with a monotonic clock reading, and in other zones; and whole says
// exactly when that Time is the one it was given.
func TestTruncTimeIsTruncate(t *testing.T) {
	zone := time.FixedZone("x", 3600+1800)
	times := []time.Time{
		{},
		time.Time{}.In(zone),
		DefaultEpoch,
		DefaultEpoch.Add(1),
		DefaultEpoch.Add(999_999_999),
		DefaultEpoch.Add(1500 * time.Millisecond).In(zone),
		time.Date(-3, time.March, 1, 2, 3, 4, 5, time.UTC),
		time.Date(0, time.December, 31, 23, 59, 59, 999_999_999, zone),
		time.Date(1, time.January, 1, 0, 0, 0, 1, time.UTC),
		time.Now(),
		time.Now().Truncate(time.Second).Add(time.Second),
	}
	for _, tm := range times {
		want := api.Time{}
		if !tm.IsZero() {
			want = api.Time{Time: tm.UTC().Truncate(time.Second)}
		}
		got := truncTime(api.Time{Time: tm})
		if got != want {
			t.Errorf("truncTime(%v) = %#v, want %#v", tm, got.Time, want.Time)
		}
		if w := whole(tm); w != (want.Time == tm) {
			t.Errorf("whole(%v) = %v, want %v", tm, w, !w)
		}
	}
}
