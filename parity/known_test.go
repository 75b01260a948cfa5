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
	assert.Empty(t, UnusedKnownDivergences(res.KnownRowsUsed()), "both rows depend on the real run's timing: a run without them says nothing against them")
	assert.Empty(t, UnusedKnownDivergences([]int{0, 1}))
}

// A row that does not depend on timing must be needed in every full run:
// -check-table fails on one that no script needed, and not on a timing
// row that this run happened not to need.
func TestCheckTableAsksOnlyRowsThatMustShow(t *testing.T) {
	saved := KnownDivergences
	t.Cleanup(func() { KnownDivergences = saved })
	KnownDivergences = []Known{
		{Match: keyHas("a"), Why: "a choice rlab made"},
		{Match: keyHas("b"), Why: "timing", Timing: true},
		{Match: keyHas("c"), Why: "another choice rlab made"},
	}
	assert.Equal(t, []int{0, 2}, UnusedKnownDivergences(nil))
	assert.Equal(t, []int{2}, UnusedKnownDivergences([]int{0}))
	assert.Empty(t, UnusedKnownDivergences([]int{0, 2}), "the timing row need not show")
}
