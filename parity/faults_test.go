package parity

import (
	"testing"

	"github.com/reconcilelab/rlab/core/script"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A fault is in force from the command that makes it until it is healed or
// spent; a watch delay never counts.
func TestFaultsInForceUntilHealedOrSpent(t *testing.T) {
	sess := script.NewSession(script.Options{SnapshotEvery: -1})
	run := func(src string) string {
		t.Helper()
		s, err := script.Parse(src, "t")
		require.NoError(t, err)
		for _, c := range s.Commands {
			require.NoError(t, sess.Run(c), src)
		}
		return FaultsInForce(sess.World())
	}
	assert.Empty(t, run("create rs web --replicas=1 --selector=app=web\nstabilize\n"))
	assert.Contains(t, run("fail create pods --count=1\n"), "create pods", "a counted rule not yet spent")
	assert.Empty(t, run("scale rs/web --replicas=2\nstabilize\n"), "the one create it was to fail has failed")

	assert.Contains(t, run("drop watch pods --count=1\n"), "next 1 events are to be lost")
	assert.Contains(t, run("kill pods -l app=web --pick=oldest\nstabilize\n"), "lost 1 events and has not listed since")
	assert.Empty(t, run("expire watch pods\nstabilize\n"), "a list brings the cache back")

	assert.Empty(t, run("delay watch pods 2s\n"), "a delay changes when, not what")
	assert.Contains(t, run("fail create pods --always\n"), "create pods")
	assert.Empty(t, run("heal\n"))
}
