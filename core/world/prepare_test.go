package world

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sim"
)

// presentOf is what a learner could see of a world at its present: the
// step, the clock, the trace hash, the pending events and the page's view
// of every object; and how many of the recorded inputs the world has had,
// which the next input's fork and every later seek go by.
type presentOf struct {
	step, hash uint64
	agenda     []sim.Event
	view       View
	applied    int
}

func present(w *World) presentOf {
	return presentOf{step: w.Kernel.Steps(), hash: w.Kernel.Hash(), agenda: w.Kernel.Agenda(),
		view:    w.View(ViewOptions{Agenda: 50, Pods: 1000, PodsPerGroup: 1000, Entries: 1000}),
		applied: w.timeline.applied}
}

// preparedWorld is killHalfway's world run to rest, with an input at its
// present (a second ReplicaSet created, not yet run): a step back from
// there replays from step 0, far more than twice landingMargin.
func preparedWorld(t *testing.T) *World {
	w, _ := killHalfway(t)
	_, err := w.Stabilize(sim.Limits{})
	require.NoError(t, err)
	createRS(t, w, replicaSet("db", 2, map[string]string{"app": "db"}))
	return w
}

// TestPreparingAStepBackComesBackToTheSamePresent: a preparation, in
// slices, replays to landingMargin steps before the present, takes the
// landing snapshot there and comes back to the very present it left,
// inputs at the present's boundary included; a step back then starts from
// that snapshot, and the world goes on exactly as one that never prepared.
func TestPreparingAStepBackComesBackToTheSamePresent(t *testing.T) {
	w, twin := preparedWorld(t), preparedWorld(t)
	before := present(w)
	n := before.step
	tl := &w.timeline
	from := tl.base(n - 1).step
	require.Greater(t, n-1-from, uint64(2*landingMargin), "a step back would replay a long way")

	slices, replayed := 0, 0
	for {
		ran, done, err := w.PrepareStepBack(700)
		require.NoError(t, err)
		assert.LessOrEqual(t, ran, 700)
		slices++
		replayed += ran
		if done {
			break
		}
		require.True(t, w.Preparing())
		assert.Less(t, w.Kernel.Steps(), n, "between slices the world is in the past")
		require.Less(t, slices, 100, "the preparation ends")
	}
	assert.Greater(t, slices, 2, "it came in slices")
	assert.Equal(t, int(n-landingMargin-from), replayed, "it replayed from the snapshot to the landing's step")
	assert.False(t, w.Preparing())
	assert.Equal(t, before, present(w), "back at the same present")
	require.NotNil(t, tl.landing.snap)
	assert.Equal(t, n-landingMargin, tl.landing.step)
	assert.Equal(t, tl.landing.step, tl.base(n-1).step, "a step back starts from the landing snapshot")

	ran, done, err := w.PrepareStepBack(700)
	require.NoError(t, err)
	assert.True(t, done, "prepared already: nothing more to do")
	assert.Zero(t, ran)
	assert.False(t, w.Preparing())

	require.NoError(t, w.Seek(n-1))
	require.NoError(t, w.Seek(n))
	assert.Equal(t, before.hash, w.Kernel.Hash())

	// The world goes on as its twin, which never prepared: the input at
	// the present's boundary is applied once.
	for _, x := range []*World{w, twin} {
		_, err := x.Stabilize(sim.Limits{})
		require.NoError(t, err)
	}
	assert.Equal(t, twin.Kernel.Steps(), w.Kernel.Steps())
	assert.Equal(t, twin.Kernel.Hash(), w.Kernel.Hash())
	assert.Len(t, owned(w, api.KindReplicaSet, "db"), 2)
}

// TestAnAbandonedPreparationLeavesNoTrace: cut short after a slice, a
// preparation comes back to the present at once and keeps no landing
// snapshot; the next one starts afresh and finishes.
func TestAnAbandonedPreparationLeavesNoTrace(t *testing.T) {
	w := preparedWorld(t)
	before := present(w)
	_, done, err := w.PrepareStepBack(500)
	require.NoError(t, err)
	require.False(t, done)
	require.True(t, w.Preparing())
	w.AbandonPreparation()
	assert.False(t, w.Preparing())
	assert.Equal(t, before, present(w))
	assert.Nil(t, w.timeline.landing.snap, "no landing snapshot from a preparation cut short")
	w.AbandonPreparation() // nothing under way: nothing happens
	assert.Equal(t, before, present(w))

	for done = false; !done; {
		_, done, err = w.PrepareStepBack(100_000)
		require.NoError(t, err)
	}
	assert.Equal(t, before, present(w))
	assert.Equal(t, before.step-landingMargin, w.timeline.landing.step)
}

// TestAStepBackNearASnapshotNeedsNoPreparation: when the snapshot a step
// back would start from is close (a small world's, or a landing snapshot a
// seek took), there is nothing to prepare, and no snapshot is taken.
func TestAStepBackNearASnapshotNeedsNoPreparation(t *testing.T) {
	w := newWorld(t, Config{})
	createRS(t, w, replicaSet("web", 3, map[string]string{"app": "web"}))
	_, err := w.Stabilize(sim.Limits{})
	require.NoError(t, err)
	snaps := len(w.timeline.snaps)
	ran, done, err := w.PrepareStepBack(10)
	require.NoError(t, err)
	assert.True(t, done)
	assert.Zero(t, ran, "nothing replayed")
	assert.False(t, w.Preparing())
	assert.Nil(t, w.timeline.landing.snap)
	assert.Len(t, w.timeline.snaps, snaps)

	fresh := newWorld(t, Config{})
	_, done, err = fresh.PrepareStepBack(10)
	require.NoError(t, err)
	assert.True(t, done, "a world at step 0 has nowhere to step back to")
}

// TestAPreparationLandsBeforeTheInputsOfItsBoundary: when the learner
// acted exactly landingMargin steps before the present, the landing
// snapshot is of the world before that input, as every snapshot is, so a
// seek from it applies the input once (twice would send a second delete,
// and the replay would diverge).
func TestAPreparationLandsBeforeTheInputsOfItsBoundary(t *testing.T) {
	w, kill := killHalfway(t)
	steps := 0
	_, err := w.RunUntil("landingMargin steps", func(sim.StepResult) bool { steps++; return steps == landingMargin }, sim.Limits{}, false)
	require.NoError(t, err)
	before := present(w)

	for done := false; !done; {
		_, done, err = w.PrepareStepBack(1000)
		require.NoError(t, err)
	}
	require.Equal(t, kill, w.timeline.landing.step, "the landing snapshot is on the input's boundary")
	assert.Equal(t, before, present(w))
	for _, n := range []uint64{kill, kill + 1, before.step - 1} {
		require.NoError(t, w.Seek(n), "seek %d from the landing snapshot", n)
	}
	require.NoError(t, w.Seek(before.step))
	assert.Equal(t, before.hash, w.Kernel.Hash())
}
