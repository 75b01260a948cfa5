package parity

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A row of the table is needed only where it excuses a difference at a
// checkpoint that counts; -check-table fails on the rows no script needed.
func TestKnownRowsUsedCountsOnlyCheckpointsAtRest(t *testing.T) {
	scaling := Line{Key: "events: rs[deploy/web revision 2] Normal ScalingReplicaSet", Sim: "objects=13 total=13", Real: "objects=12 total=12"}
	generations := Line{Key: "rs[deploy/web revision 2]", Sim: "spec.replicas=0 observedGeneration=8 generation=8", Real: "spec.replicas=0 observedGeneration=7 generation=7"}
	a := assert.New(t)
	a.Equal(0, knownRow(scaling))
	a.Equal(1, knownRow(generations))
	a.Equal(-1, knownRow(Line{Key: "rs/web", Sim: "spec.replicas=3", Real: "spec.replicas=2"}))

	res := &Result{}
	res.addCheckpoint(Checkpoint{Comparable: InFlight, Diff: []Line{generations}, Known: []Line{generations}})
	res.addCheckpoint(Checkpoint{Comparable: AtRest, Diff: []Line{scaling}, Known: []Line{scaling}})
	assert.Equal(t, []int{0}, res.KnownRowsUsed(), "the generations row excused a difference in flight only")
	assert.Equal(t, []int{1}, UnusedKnownDivergences(res.KnownRowsUsed()))
	assert.Empty(t, UnusedKnownDivergences([]int{0, 1}))
}
