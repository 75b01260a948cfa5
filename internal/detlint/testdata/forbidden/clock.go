package forbidden

import "time"

// wallClock calls every function of package time that reads the wall clock or
// starts a real timer.
func wallClock() {
	start := time.Now()                    // want "time.Now"
	_ = time.Since(start)                  // want "time.Since"
	_ = time.Until(start)                  // want "time.Until"
	time.Sleep(time.Second)                // want "time.Sleep"
	_ = time.After(time.Second)            // want "time.After"
	time.AfterFunc(time.Second, func() {}) // want "time.AfterFunc"
	_ = time.NewTimer(time.Second)         // want "time.NewTimer"
	_ = time.NewTicker(time.Second)        // want "time.NewTicker"
	_ = time.Tick(time.Second)             // want "time.Tick"

	// Taking the function as a value is as bad as calling it: the reference is
	// what is reported, so the later call through now needs no second report.
	now := time.Now // want "time.Now"
	_ = now()

	// A Timer carries a channel even when it was not made by this file.
	var t *time.Timer // want "use of time.Timer"
	_ = t
}

// logicalClock does what the kernel does instead: it computes with durations
// and fixed dates, which come out the same on every run.
func logicalClock(now time.Time) time.Time {
	epoch := time.Date(2024, time.January, 1, 0, 0, 0, 0, time.UTC)
	step := 250 * time.Millisecond
	backoff := min(step*8, 5*time.Second)
	if now.Sub(epoch) > backoff {
		return now.Add(step).Truncate(time.Millisecond)
	}
	return epoch.Add(backoff)
}
