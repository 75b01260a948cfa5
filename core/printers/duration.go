package printers

import (
	"strconv"
	"time"

	"github.com/reconcilelab/rlab/core/api"
)

// HumanDuration writes d as kubectl's AGE columns do, with two or three
// significant figures: "45s", "119s", "2m3s", "10m", "179m", "3h", "7h59m",
// "47h", "2d", "7d23h", "729d", "2y", "7y364d", "8y". It reproduces
// k8s.io/apimachinery/pkg/util/duration.HumanDuration: a duration up to two
// seconds in the future counts as "0s" (clocks disagree a little), and
// anything later is "<invalid>".
func HumanDuration(d time.Duration) string {
	seconds := int(d.Seconds())
	switch {
	case seconds < -1:
		return "<invalid>"
	case seconds < 0:
		return "0s"
	case seconds < 60*2:
		return itoa(seconds) + "s"
	}
	minutes := int(d / time.Minute)
	if minutes < 10 {
		if s := int(d/time.Second) % 60; s != 0 {
			return itoa(minutes) + "m" + itoa(s) + "s"
		}
		return itoa(minutes) + "m"
	}
	if minutes < 60*3 {
		return itoa(minutes) + "m"
	}
	hours := int(d / time.Hour)
	switch {
	case hours < 8:
		if m := int(d/time.Minute) % 60; m != 0 {
			return itoa(hours) + "h" + itoa(m) + "m"
		}
		return itoa(hours) + "h"
	case hours < 48:
		return itoa(hours) + "h"
	case hours < 24*8:
		if h := hours % 24; h != 0 {
			return itoa(hours/24) + "d" + itoa(h) + "h"
		}
		return itoa(hours/24) + "d"
	case hours < 24*365*2:
		return itoa(hours/24) + "d"
	case hours < 24*365*8:
		if dy := hours / 24 % 365; dy != 0 {
			return itoa(hours/24/365) + "y" + itoa(dy) + "d"
		}
		return itoa(hours/24/365) + "y"
	}
	return itoa(hours/24/365) + "y"
}

// age is kubectl's translateTimestampSince with the simulated clock:
// "<unknown>" for a zero time, else how long before now t was.
func age(t api.Time, now time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return HumanDuration(now.Sub(t.Time))
}

func itoa(i int) string { return strconv.Itoa(i) }
