package api

import (
	"testing"
	"time"

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

// TestSamePodConditionComparesEveryField: two conditions are the same only
// when every field is, the time to the nanosecond, as == compared them
// before PodCondition was made incomparable.
func TestSamePodConditionComparesEveryField(t *testing.T) {
	at := NewTime(time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC))
	base := PodCondition{Type: PodReady, Status: ConditionTrue, LastTransitionTime: at, Reason: "r", Message: "m"}
	assert.True(t, SamePodCondition(base, base))
	for name, change := range map[string]func(*PodCondition){
		"type":    func(c *PodCondition) { c.Type = PodScheduled },
		"status":  func(c *PodCondition) { c.Status = ConditionFalse },
		"time":    func(c *PodCondition) { c.LastTransitionTime = NewTime(at.Add(time.Nanosecond)) },
		"reason":  func(c *PodCondition) { c.Reason = "other" },
		"message": func(c *PodCondition) { c.Message = "other" },
	} {
		other := base
		change(&other)
		assert.False(t, SamePodCondition(base, other), "a different %s", name)
		assert.False(t, SamePodCondition(other, base), "a different %s", name)
	}
}
