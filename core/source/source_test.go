package source

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/reconcilelab/rlab/core/loop"
	"github.com/reconcilelab/rlab/internal/upstream"
)

// TestEveryTraceNameHasItsSource: every function name a trace can show
// (core/loop's rules) has an upstream source or is Reconcile Lab's own, and
// every source is in the manifest of the upstream release, at its line.
func TestEveryTraceNameHasItsSource(t *testing.T) {
	for _, name := range loop.Models() {
		_, ok := Of(name)
		assert.True(t, ok != Own(name), "trace name %q: give it a source in refs or list it in own (not both)", name)
	}
	for name, r := range All() {
		found := upstream.Lookup(r.Func, r.File)
		if assert.Len(t, found, 1, "%q: %s in %s is not in the manifest (internal/upstream)", name, r.Func, r.File) {
			assert.Equal(t, found[0].Line, r.Line, "%q: %s starts at line %d of %s", name, r.Func, found[0].Line, r.File)
			assert.Equal(t, found[0].URL(), r.URL())
		}
	}
}

func TestURL(t *testing.T) {
	r, ok := Of("syncReplicaSet")
	assert.True(t, ok)
	assert.Equal(t, "https://github.com/kubernetes/kubernetes/blob/v1.31.14/pkg/controller/replicaset/replica_set.go#L"+strconv.Itoa(r.Line), r.URL())
	_, ok = Of("kubectl")
	assert.False(t, ok)
	assert.True(t, Own("kubectl"))
}
