package controller

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestOwnerKindsNameTheirHandlers: the actor of a kind's handler steps is
// its short name and "-controller", written out once rather than joined at
// every step.
func TestOwnerKindsNameTheirHandlers(t *testing.T) {
	for _, k := range []ownerKind{replicaSetKind, replicationControllerKind} {
		assert.Equal(t, k.short+"-controller", k.handlers)
	}
}
