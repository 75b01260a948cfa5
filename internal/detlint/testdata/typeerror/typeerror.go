// Package typeerror does not compile. The lint must say so as a type error,
// distinct from a determinism violation, and still check what it can.
package typeerror

import "time"

var count int = "three"

func wait() time.Time { return time.Now() }
