package api

import (
	"testing"

	"github.com/reconcilelab/rlab/internal/jsontest"
)

// TestKindsMarshalAsEncodingJSONDoes holds core/minijson, which the printers
// write manifests with, to what encoding/json writes for every kind, on
// objects with every field filled: a field of a kind minijson cannot write,
// or a Time written differently from MarshalJSON, fails here.
func TestKindsMarshalAsEncodingJSONDoes(t *testing.T) {
	t.Run("Pod", func(t *testing.T) { jsontest.Check[Pod](t) })
	t.Run("ReplicaSet", func(t *testing.T) { jsontest.Check[ReplicaSet](t) })
	t.Run("ReplicationController", func(t *testing.T) { jsontest.Check[ReplicationController](t) })
	t.Run("Node", func(t *testing.T) { jsontest.Check[Node](t) })
	t.Run("Event", func(t *testing.T) { jsontest.Check[Event](t) })
}
