package sim

import (
	"strconv"
	"strings"
	"time"
)

// Count writes a number with its noun, for the sentences a step's Report
// tells a learner: "1 key", "3 keys", "2 watches". Every component words its
// counts through it, so none writes "1 keys".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// WriteCount writes Count(n, one, many) to b, for a sentence built in one
// buffer rather than joined from strings made for it.
func WriteCount(b *strings.Builder, n int, one, many string) {
	if n == 1 {
		b.WriteString("1 ")
		b.WriteString(one)
		return
	}
	WriteUint(b, uint64(n))
	b.WriteByte(' ')
	b.WriteString(many)
}

// WriteUint writes v in decimal to b, without a string of its own.
func WriteUint(b *strings.Builder, v uint64) {
	var digits [20]byte
	b.Write(strconv.AppendUint(digits[:0], v, 10))
}

// WriteSeconds writes FormatSeconds(d) to b: "2.004s".
func WriteSeconds(b *strings.Builder, d time.Duration) {
	if d < 0 {
		b.WriteByte('-')
		d = -d
	}
	ms := uint64(d / time.Millisecond)
	frac := ms % 1000
	WriteUint(b, ms/1000)
	b.Write([]byte{'.', byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10), 's'})
}
