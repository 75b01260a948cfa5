package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPodReadyConditionIsTheFirstReadyCondition(t *testing.T) {
	p := &Pod{Status: PodStatus{Conditions: []PodCondition{
		{Type: PodScheduled, Status: ConditionTrue},
		{Type: PodReady, Status: ConditionFalse, Reason: "first"},
		{Type: PodReady, Status: ConditionTrue, Reason: "second"},
	}}}
	c := PodReadyCondition(p)
	if assert.NotNil(t, c) {
		assert.Equal(t, "first", c.Reason)
		assert.Same(t, &p.Status.Conditions[1], c, "the condition itself, not a copy")
	}
	assert.False(t, IsPodReady(p), "the first Ready condition decides")
}

func TestIsPodReadyNeedsAReadyConditionThatIsTrue(t *testing.T) {
	tests := []struct {
		name  string
		conds []PodCondition
		ready bool
	}{
		{"no conditions", nil, false},
		{"scheduled only", []PodCondition{{Type: PodScheduled, Status: ConditionTrue}}, false},
		{"ready unknown", []PodCondition{{Type: PodReady, Status: ConditionUnknown}}, false},
		{"ready true", []PodCondition{{Type: PodScheduled, Status: ConditionFalse}, {Type: PodReady, Status: ConditionTrue}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &Pod{Status: PodStatus{Conditions: tt.conds}}
			assert.Equal(t, tt.ready, IsPodReady(p))
		})
	}
}
