package forbidden

import (
	"math/rand/v2"
	r2 "math/rand/v2"
)

// globalRandom uses the top-level functions of math/rand/v2, which draw from
// a generator seeded at random when the process starts.
func globalRandom(xs []int) {
	_ = rand.IntN(10)                                                     // want "rand.IntN"
	_ = rand.Int()                                                        // want "rand.Int"
	_ = rand.Float64()                                                    // want "rand.Float64"
	_ = rand.Perm(3)                                                      // want "rand.Perm"
	rand.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] }) // want "rand.Shuffle"
	_ = rand.N(10)                                                        // want "rand.N"
	_ = r2.Uint64()                                                       // want "rand.Uint64"
	draw := rand.Uint32                                                   // want "rand.Uint32"
	_ = draw()
}

// seededRandom does what the kernel does instead: one generator built from a
// seed, whose every draw follows from that seed.
func seededRandom(seed uint64, xs []int) int {
	rng := rand.New(rand.NewPCG(seed, 2))
	rng.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	zipf := rand.NewZipf(rng, 1.5, 2, 100)
	chacha := r2.New(r2.NewChaCha8([32]byte{1}))
	intN := rng.IntN // a method value of a seeded generator is fine
	return intN(10) + int(zipf.Uint64()) + chacha.IntN(3) + int(rng.Float64())
}
