package apistore

import (
	"math/rand/v2"
)

// The name generator is upstream's SimpleNameGenerator (apiserver's
// storage/names) with k8s.io/apimachinery/pkg/util/rand's alphabet: names are at
// most 63 characters, so the base is cut to 58 and 5 random characters follow.
const (
	// generatedSuffixLength is how many random characters follow the base.
	generatedSuffixLength = 5
	// maxGeneratedBaseLength is how much of generateName is kept: 63 - 5.
	maxGeneratedBaseLength = 63 - generatedSuffixLength
	// generatedNameAlphabet has no vowels and no look-alike characters (0/o, 1/l,
	// 3/e) so that a generated suffix never spells a word and reads unambiguously.
	generatedNameAlphabet = "bcdfghjklmnpqrstvwxz2456789"
	// maxNameGenerationAttempts is how many names a create with generateName
	// tries before it gives up with AlreadyExists, as upstream's RetryGenerateName
	// does.
	maxNameGenerationAttempts = 8
)

// generateName returns base (cut to 58 characters) followed by 5 characters
// drawn from the alphabet with r.
func generateName(r *rand.Rand, base string) string {
	if len(base) > maxGeneratedBaseLength {
		base = base[:maxGeneratedBaseLength]
	}
	buf := make([]byte, len(base)+generatedSuffixLength)
	copy(buf, base)
	for i := len(base); i < len(buf); i++ {
		buf[i] = generatedNameAlphabet[r.IntN(len(generatedNameAlphabet))]
	}
	return string(buf)
}

// newUID returns a random (version 4) UUID drawn from r, written as
// 8-4-4-4-12 lower-case hex digits like every Kubernetes uid. Drawing it from
// the seeded source, rather than from crypto/rand, makes uids reproducible:
// two runs with one seed name the same objects with the same uids.
func newUID(r *rand.Rand) string {
	hi, lo := r.Uint64(), r.Uint64()
	hi = hi&^(0xf<<12) | 0x4<<12 // version 4: the high digit of the third group
	lo = lo&^(0x3<<62) | 0x2<<62 // RFC 4122 variant: the top bits of the fourth
	// Each word's 16 digits are written from its low end back, in the
	// groups around the dashes. Loops over constant places need no bounds
	// checks, where a table of places (a load and a check for every digit)
	// was most of the instructions of naming a create.
	// hi fills the first three groups (out[0:8], [9:13], [14:18]) and lo
	// the last two ([19:23], [24:36]).
	var out [36]byte
	for i := 17; i >= 14; i-- {
		out[i] = hexDigits[hi&0xf]
		hi >>= 4
	}
	for i := 12; i >= 9; i-- {
		out[i] = hexDigits[hi&0xf]
		hi >>= 4
	}
	for i := 7; i >= 0; i-- {
		out[i] = hexDigits[hi&0xf]
		hi >>= 4
	}
	for i := 35; i >= 24; i-- {
		out[i] = hexDigits[lo&0xf]
		lo >>= 4
	}
	for i := 22; i >= 19; i-- {
		out[i] = hexDigits[lo&0xf]
		lo >>= 4
	}
	out[8], out[13], out[18], out[23] = '-', '-', '-', '-'
	return string(out[:])
}

// hexDigits are the digits of a uid, by value.
const hexDigits = "0123456789abcdef"
