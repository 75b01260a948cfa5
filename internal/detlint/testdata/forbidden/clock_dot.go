package forbidden

import . "time"

// A dot import hides the package name; type information still knows whose
// Now this is.
func dotClock() Time {
	return Now() // want "time.Now"
}
