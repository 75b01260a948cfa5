package labels

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSameSetIsReflectsIdentity: SameSet reads a map's identity as reflect
// does (Value.UnsafePointer), for one map, equal maps, empty and nil ones.
func TestSameSetIsReflectsIdentity(t *testing.T) {
	a, b := Set{"app": "web"}, Set{"app": "web"}
	var none Set
	sets := []Set{a, a, b, {}, {}, none, nil}
	for i, x := range sets {
		for j, y := range sets {
			want := reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer()
			assert.Equal(t, want, SameSet(x, y), "sets %d and %d", i, j)
		}
	}
	assert.True(t, SameSet(a, a))
	assert.False(t, SameSet(a, b))
	assert.True(t, SameSet(nil, none))
	plain := map[string]string{"tier": "front"}
	assert.True(t, SameSet(plain, plain), "a plain map is a Set")
}
