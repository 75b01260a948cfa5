package parity

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The acceptance: rlab export of lesson 5, applied to a real plane
// line by line as bash and kubectl would, reaches the lesson's goal.
func TestExportOfLessonFiveReachesItsGoalOnARealPlane(t *testing.T) {
	res, err := CheckExport("../lessons/05-orphans.txtar", Options{})
	require.NoError(t, err)

	require.Len(t, res.Goal, 2)
	for _, g := range res.Goal {
		assert.NoError(t, g.Err, g.Expect)
	}
	assert.True(t, res.Reached())
	assert.Contains(t, res.Script, "targets=$(pick pods app=web oldest 1)", "the pick is the cluster's, not a simulator's name")
}

// An export line the interpreter was not taught is an error that names the
// line, never skipped.
func TestApplierRefusesLinesItDoesNotKnow(t *testing.T) {
	a := &Applier{Namespace: "default"}
	for _, tc := range []struct{ line, want string }{
		{"echo hi", `line 2: echo hi: the interpreter knows no command "echo"`},
		{`kubectl -n "$NAMESPACE" edit rs/web`, "the interpreter knows no kubectl edit"},
		{`kubectl -n "$NAMESPACE" scale rs/web --replicas=2 --dry-run=client`, "knows no flag --dry-run here"},
		{`kubectl scale rs/web --replicas=2`, "names its namespace with -n"},
		{`kubectl -n "$NAMESPACE" label $(kubectl get pods -o name) a=b`, `does not read '$' outside quotes`},
		{`kubectl -n "$NAMESPACE" delete rs/web`, "do not wait (--wait=false)"},
	} {
		err := a.Apply("# an export\n" + tc.line + "\n")
		require.Error(t, err, tc.line)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestApplierSplitsWordsAsBashDoes(t *testing.T) {
	a := &Applier{Namespace: "web-ns", targets: []string{"pods/a", "pods/b"}}
	words, err := a.words(`kubectl -n "$NAMESPACE" label $targets 'note=a b' 'it'\''s' --overwrite`)
	require.NoError(t, err)
	assert.Equal(t, []string{"kubectl", "-n", "web-ns", "label", "pods/a", "pods/b", "note=a b", "it's", "--overwrite"}, words)
}
