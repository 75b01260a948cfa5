package sim

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

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

// TestWriteSecondsWritesWhatFormatSecondsReturns: a sentence that writes a
// time in its buffer reads as one that joins FormatSeconds' string.
func TestWriteSecondsWritesWhatFormatSecondsReturns(t *testing.T) {
	for _, d := range []time.Duration{0, time.Millisecond, 999 * time.Microsecond, 1500 * time.Millisecond,
		-2 * time.Second, 10 * time.Minute, 123456789 * time.Millisecond} {
		var b strings.Builder
		WriteSeconds(&b, d)
		assert.Equal(t, FormatSeconds(d), b.String(), "%v", d)
	}
}
