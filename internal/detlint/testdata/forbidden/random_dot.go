package forbidden

import . "math/rand/v2"

// A dot import of math/rand/v2: the constructors stay allowed, the global
// functions stay forbidden.
func dotRandom() int {
	rng := New(NewPCG(1, 2))
	return rng.IntN(5) + IntN(5) // want "rand.IntN"
}
