package deployment

import (
	"hash/fnv"
	"strconv"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/minijson"
)

// ComputeHash returns the pod-template-hash of a template: the name suffix
// and the label value of the ReplicaSet that runs it. It is upstream's
// controller.ComputeHash over our types:
//
//  1. A 32-bit FNV-1a hash is fed a canonical text of the template. Upstream
//     feeds go-spew's dump of its Go struct; ours is the template's JSON as
//     core/minijson writes it: fields in the order the types declare them,
//     map keys sorted, empty optional fields left out. It is deterministic
//     and covers every field, so two templates hash alike exactly when they
//     are equal (but for the rare FNV collision, which collisionCount
//     resolves).
//  2. With a collisionCount, 8 more bytes: the count as a little-endian
//     uint32, then four zero bytes.
//  3. The sum is written in decimal and each digit mapped through
//     SafeEncodeString, so hashes are 1 to 10 characters of "456789bcdf".
//
// The strings differ from upstream's for the same template, since the text
// hashed differs; nothing depends on their values, only on their being
// stable.
func ComputeHash(t *api.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	// A template always marshals: it holds only strings, numbers, maps of
	// strings, slices and times.
	b, _ := minijson.Marshal(t)
	_, _ = h.Write(b)
	if collisionCount != nil {
		c := uint32(*collisionCount)
		_, _ = h.Write([]byte{byte(c), byte(c >> 8), byte(c >> 16), byte(c >> 24), 0, 0, 0, 0})
	}
	return SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// safeAlphanums is apimachinery's alphabet of characters that never spell a
// word: no vowels, no 0, 1 or 3.
const safeAlphanums = "bcdfghjklmnpqrstvwxz2456789"

// SafeEncodeString maps each character to safeAlphanums[c mod 27], as
// apimachinery's rand.SafeEncodeString does. On decimal digits that is
// 0→4, 1→5, 2→6, 3→7, 4→8, 5→9, 6→b, 7→c, 8→d, 9→f.
func SafeEncodeString(s string) string {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		out = append(out, safeAlphanums[int(r)%len(safeAlphanums)])
	}
	return string(out)
}
