package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSameListIsOneNonEmptyList: two lists are one when they hold the same
// elements in the same memory; equal lists apart, a list and a part of it
// of another length, and empty lists are not (an empty list has no memory
// to share, and its comparison costs nothing anyway).
func TestSameListIsOneNonEmptyList(t *testing.T) {
	a := []string{"x", "y"}
	b := []string{"x", "y"}
	assert.True(t, SameList(a, a))
	assert.True(t, SameList(a, a[:2:2]))
	assert.False(t, SameList(a, b))
	assert.False(t, SameList(a, a[:1]))
	assert.False(t, SameList(a[1:], a[:1]))
	assert.False(t, SameList([]string{}, []string{}))
	assert.False(t, SameList[string](nil, nil))
}
