package workqueue

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFIFOWrapsGrowsAndKeepsOrder(t *testing.T) {
	var f fifo
	var want []int32
	next := int32(0)
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 5000; i++ {
		if rng.IntN(5) < 3 || len(want) == 0 {
			f.push(next)
			want = append(want, next)
			next++
		} else {
			require.Equal(t, want[0], f.pop())
			want = want[1:]
		}
		require.Equal(t, len(want), f.len())
		if i%97 == 0 {
			require.Equal(t, append([]int32{}, want...), f.items())
			c := f.clone()
			require.Equal(t, f.items(), c.items())
			require.Equal(t, len(f.buf), len(c.buf), "a clone keeps the capacity the ring earned")
		}
	}
	n := len(f.buf)
	for f.len() > 0 {
		f.pop()
	}
	for i := 0; i < 10*n; i++ {
		f.push(int32(i))
		f.pop()
	}
	assert.Equal(t, n, len(f.buf), "a ring that never holds more does not grow")
}
