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
	var b [16]byte
	hi, lo := r.Uint64(), r.Uint64()
	for i := 0; i < 8; i++ {
		b[i] = byte(hi >> (56 - 8*i))
		b[8+i] = byte(lo >> (56 - 8*i))
	}
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	const hexDigits = "0123456789abcdef"
	out := make([]byte, 36)
	j := 0
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out[j] = '-'
			j++
		}
		out[j] = hexDigits[c>>4]
		out[j+1] = hexDigits[c&0x0f]
		j += 2
	}
	return string(out)
}
