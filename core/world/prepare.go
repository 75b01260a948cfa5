package world

import "github.com/reconcilelab/rlab/core/sim"

// Preparing a step back.
//
// A large world's snapshots end up far apart (the page's 10,000-pod world
// keeps them 131,072 steps apart, see thin), so the first step back at the
// end of a long run replays from a snapshot tens of thousands of steps
// behind: 39,000 steps, 208 ms in Chromium, after that world's 301,473.
// Once a learner has stepped back once, the landing snapshot that seek took
// makes the next steps back fast; the first is the slow one, and it is the
// step a learner most often takes after a run.
//
// A world at rest is idle while the learner reads what the run did.
// PrepareStepBack spends that time, a slice at a time, taking the landing
// snapshot that a seek to the step before the present would take on its
// way, landingMargin steps before the present. It replays there from the
// nearest snapshot, takes the landing snapshot, and comes back to the
// present by restoring a snapshot of it taken before it left, so coming
// back costs nothing, however far the replay went. A preparation that is cut
// short (AbandonPreparation, before anything else is done to the world)
// comes back the same way and leaves no landing snapshot.
//
// The replay checks every step's hash against the recorded one, as a seek
// does; the world it comes back to is the very state it left, so a
// preparation changes nothing a learner can see, only how soon a step back
// answers.
type preparation struct {
	// present is the world as it was when the preparation began; nil when
	// no preparation is under way.
	present *sim.Snapshot
	// applied is the timeline's count of applied inputs at the present.
	applied int
	// target is the step at which the landing snapshot is taken.
	target uint64
}

// PrepareStepBack runs at most maxSteps steps (at least one) of the
// preparation for a step back from the present, starting one if none is
// under way. It returns how many steps it replayed, and whether it is done:
// true when the landing snapshot is taken and the world is back at the
// present, or when a step back needs no preparation (its seek would replay
// at most twice landingMargin steps), which replays nothing.
// While it reports false the world is in the past: the caller must call it
// again, or AbandonPreparation, before anything else reads or changes the
// world. A replay that diverges from the recorded run comes back to the
// present and fails with ErrReplayDiverged.
func (w *World) PrepareStepBack(maxSteps int) (replayed int, done bool, err error) {
	t := &w.timeline
	p := &t.prep
	if p.present == nil {
		n := w.Kernel.Steps()
		if n == 0 || n-1-t.base(n-1).step <= 2*landingMargin {
			return 0, true, nil
		}
		p.present, p.applied, p.target = mustSnapshot(w), t.applied, n-landingMargin
		t.replaying = true
		if err := t.restore(w, t.base(n-1)); err != nil {
			w.AbandonPreparation()
			return 0, false, err
		}
	}
	for replayed < max(maxSteps, 1) {
		step, err := t.replayStep(w, "prepare")
		replayed++
		if err != nil {
			w.AbandonPreparation()
			return replayed, false, err
		}
		if step == p.target {
			// Like every snapshot, right after its step ran and before
			// the inputs of its boundary.
			t.landing = timelineSnap{step: step, snap: mustSnapshot(w)}
			w.AbandonPreparation()
			return replayed, true, nil
		}
		t.applyRecorded(w, step)
	}
	return replayed, false, nil
}

// AbandonPreparation brings a world whose preparation for a step back is
// under way back to the present at once, keeping no landing snapshot from
// it; it does nothing when none is under way.
func (w *World) AbandonPreparation() {
	t := &w.timeline
	p := &t.prep
	if p.present == nil {
		return
	}
	if err := w.Kernel.Restore(p.present); err != nil {
		// The snapshot was taken of this very kernel a moment ago; a
		// restore that fails is a wiring bug that tests catch.
		panic(err)
	}
	t.applied = p.applied
	t.replaying = false
	*p = preparation{}
}

// Preparing reports whether a preparation for a step back is under way,
// which leaves the world in the past until it is done or abandoned.
func (w *World) Preparing() bool { return w.timeline.prep.present != nil }
