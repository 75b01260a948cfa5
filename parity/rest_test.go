package parity

import (
	"strings"
	"testing"

	"github.com/reconcilelab/rlab/core/script"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A script that acts at a moment only simulated time pins down, and ends
// after stepping, is still compared at rest at its end: the runner
// stabilizes both sides, and what the two pasts may count differently
// (Events, deletions, generations) is excused as history, while the state
// itself must agree.
func TestTheEndOfAScriptIsComparedAtRestAfterTheRunnersStabilize(t *testing.T) {
	src := `create rs web --replicas=2 --selector=app=web
stabilize
scale rs/web --replicas=4
advance 500ms
scale rs/web --replicas=1
step 3
`
	s, err := script.Parse(src, "t")
	require.NoError(t, err)
	res, err := Compare("t", s, Options{})
	require.NoError(t, err)

	require.Len(t, res.Checkpoints, 2)
	stepped, settled := res.Checkpoints[0], res.Checkpoints[1]
	assert.Equal(t, Tainted, stepped.Comparable, "the script's own end comes after step")
	assert.Equal(t, "(the end of the script, after a stabilize the runner adds)", settled.Text)
	assert.Equal(t, AtRest, settled.Comparable)
	assert.True(t, res.Agrees(), "differences: %v", settled.Diff)
	for _, l := range settled.Known {
		assert.True(t, strings.HasPrefix(l.Key, "events: ") || strings.HasPrefix(l.Key, "deletions: ") || pathOnly(l),
			"only history may be excused: %v", l)
		assert.Contains(t, settled.Excuses[l.Key], "5:1 scale rs/web --replicas=1 (after t:4:1 advance 500ms)")
	}
}
