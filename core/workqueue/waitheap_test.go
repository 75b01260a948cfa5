package workqueue

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestWaitHeapOrdersRandomLoads(t *testing.T) {
	k, q := newDelayingWorld(t, Config{Name: "test"})
	rng := k.Rand()
	for i := 0; i < 2000; i++ {
		key := "k" + itoa(rng.IntN(60))
		switch rng.IntN(4) {
		case 0, 1:
			q.AddAfter(key, time.Duration(1+rng.IntN(50))*time.Millisecond)
		case 2:
			q.advance(time.Duration(rng.IntN(10)) * time.Millisecond)
		default:
			if key, ok, _ := q.Get(""); ok {
				q.Done(key)
			}
		}
	}
	q.advance(time.Second)
	assert.Empty(t, q.view().Delayed)
}
