package parity

import (
	"testing"

	"github.com/reconcilelab/rlab/core/script"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// End to end: one script on rlab and on a real plane. The ReplicaSet
// converges on both, its expects hold on both, and the checkpoints are at
// rest with nothing to tell them apart; the step is reported as not
// comparable and the expect after it is not counted.
func TestCompareRunsAScriptOnBothSidesAndAgrees(t *testing.T) {
	src := `create rs web --replicas=3 --selector=app=web
stabilize
expect pods -l app=web count=3 ready=true owner=rs/web
scale rs/web --replicas=2
step 3
expect rs/web spec.replicas=2
stabilize
expect rs/web status.replicas=2 status.readyReplicas=2
`
	s, err := script.Parse(src, "t")
	require.NoError(t, err)
	res, err := Compare("t", s, Options{Scale: 0.25})
	require.NoError(t, err)

	require.Len(t, res.Checkpoints, 4)
	first, stepped, last, end := res.Checkpoints[0], res.Checkpoints[1], res.Checkpoints[2], res.Checkpoints[3]
	assert.Equal(t, AtRest, first.Comparable)
	assert.NoError(t, first.SimErr)
	assert.NoError(t, first.RealErr, "the real ReplicaSet controller makes three Ready pods too")
	assert.Empty(t, first.Diff)

	assert.Equal(t, Tainted, stepped.Comparable, "after step, the real plane has no counterpart")
	require.Len(t, res.Skipped, 1)
	assert.Contains(t, res.Skipped[0].Reason, "one event at a time")

	assert.Equal(t, AtRest, last.Comparable, "stabilize makes both sides comparable again")
	assert.NoError(t, last.RealErr)
	assert.Empty(t, last.Diff)
	assert.Equal(t, AtRest, end.Comparable)
	assert.True(t, res.Agrees(), "diffs: %v", end.Diff)
}
