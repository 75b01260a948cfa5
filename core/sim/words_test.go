package sim

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCountAgreesTheNounWithTheNumber(t *testing.T) {
	assert.Equal(t, "0 keys", Count(0, "key", "keys"))
	assert.Equal(t, "1 key", Count(1, "key", "keys"))
	assert.Equal(t, "2 watches", Count(2, "watch", "watches"))
}

// TestWriteCountWritesWhatCountReturns: the buffer form of Count, and of a
// number, write the same words, so a sentence built either way reads (and
// hashes) the same.
func TestWriteCountWritesWhatCountReturns(t *testing.T) {
	for _, n := range []int{0, 1, 2, 9, 10, 99, 100, 12345} {
		var b strings.Builder
		WriteCount(&b, n, "key", "keys")
		b.WriteByte('|')
		WriteUint(&b, uint64(n))
		assert.Equal(t, Count(n, "key", "keys")+"|"+strconv.Itoa(n), b.String())
	}
	var b strings.Builder
	WriteUint(&b, math.MaxUint64)
	assert.Equal(t, "18446744073709551615", b.String())
}
