package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The agenda and its snapshots hold pointers to the slots a slab hands out, so
// a slot must keep its value while later values fill that chunk and the next.
func TestSlabNeverRewritesASlotItHandedOut(t *testing.T) {
	type payload struct{ id int }
	var s Slab[payload]
	var held []*payload
	for i := range 3*slabChunk + 1 {
		held = append(held, s.Put(payload{id: i}))
	}
	for i, p := range held {
		assert.Equal(t, i, p.id)
	}
}
