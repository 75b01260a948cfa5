package world

import (
	"errors"
	"strconv"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sim"
)

// The timeline is how a world travels in time. A run is fully determined by
// its seed and its inputs, so the timeline keeps the inputs (each with the
// step boundary it was applied at), a snapshot every few hundred steps, and
// the trace hash of every step. Seeking to a step restores the nearest
// snapshot at or before it and replays: the recorded inputs at each boundary,
// then a step, until the target. The replayed hashes must equal the recorded
// ones; a difference means something nondeterministic crept in, and the seek
// fails loudly instead of showing a world that never was.
//
// Step numbers count kernel steps; "the world at step n" is the world right
// after step n ran and after every input recorded at boundary n was applied.
// An input applied after seeking back forks the timeline: the inputs recorded
// after it and the snapshots after its step are dropped.
type timeline struct {
	// every is how many steps apart snapshots are taken; it doubles each
	// time the snapshots outgrow their budget (see thin).
	every int

	// budget bounds weight, the summed weight of the snapshots kept (see
	// snapWeight); 0 leaves it unbounded.
	budget, weight int

	// snaps are the snapshots, ascending by step; each was taken right after
	// its step ran, before the inputs of that boundary.
	snaps []timelineSnap

	// landing is the snapshot the last long seek took on its way,
	// landingMargin steps before the step it landed on (see Seek), taken
	// the same way as snaps; its snap is nil when there is none. It is not
	// one of snaps: there is only ever one, which the next long seek
	// replaces, so it counts against no budget.
	landing timelineSnap
	// landAt is the step at which the seek under way takes the landing
	// snapshot, 0 when it takes none.
	landAt uint64

	// inputs are the recorded inputs, ascending by step (several may share a
	// boundary, in the order they were applied); applied counts those applied
	// to the current state.
	inputs  []Input
	applied int

	// hashes holds the trace hash after every step, to check replays with:
	// hashes.matches(i, h) reports whether h is the hash after step i+1.
	hashes hashLog

	// replaying is set while a seek replays, so that nothing is recorded.
	replaying bool

	// prep is the preparation for a step back under way (see
	// PrepareStepBack).
	prep preparation
}

type timelineSnap struct {
	step   uint64
	snap   *sim.Snapshot
	weight int
}

// Input is one thing done to the world from outside, at a step boundary: a
// learner's command. Apply must be deterministic given the world's state, so
// that replaying it after a restore has the same effect; it must not step the
// kernel (a command that waits for an answer is an input followed by steps).
type Input struct {
	// Step is the boundary the input was applied at: after this many steps.
	Step uint64
	// Name describes the input, as the learner typed it.
	Name string
	// Apply carries it out.
	Apply func(w *World) error
}

func (t *timeline) init(w *World) {
	t.every, t.budget = w.cfg.SnapshotEvery, w.cfg.SnapshotBudget
	t.snapshot(w)
}

// snapWeight estimates what a snapshot of w costs in memory, in objects: every
// object in the API store, which the informers' caches, the controllers'
// indexes and the kubelets mirror, plus one for the world's fixed parts. It
// is what makes a snapshot of a 10,000-pod world count a thousand times one
// of ten pods.
func snapWeight(w *World) int {
	n := 1
	for _, k := range []api.Kind{api.KindPod, api.KindReplicaSet, api.KindReplicationController, api.KindNode, api.KindEvent, api.KindDeployment} {
		n += w.Store.Len(k)
	}
	return n
}

// thin halves the snapshots, keeping the start's and those on a multiple
// of twice the spacing, and doubles the spacing, until the snapshots fit
// their budget again. Seeks then replay up to twice as many steps, but a
// long run of a large world keeps a bounded number of snapshots instead of
// one every few hundred steps for ever; the ones kept stay evenly spread,
// so the worst seek is still a bounded replay.
func (t *timeline) thin() {
	for t.budget > 0 && t.weight > t.budget && len(t.snaps) > 2 {
		t.every *= 2
		kept := t.snaps[:1]
		t.weight = t.snaps[0].weight
		for _, s := range t.snaps[1:] {
			if s.step%uint64(t.every) == 0 {
				kept = append(kept, s)
				t.weight += s.weight
			}
		}
		clear(t.snaps[len(kept):])
		t.snaps = kept
	}
}

// mustSnapshot snapshots the world's kernel. Every component of a world
// implements Snapshotter, so a failure is a wiring bug that tests catch.
func mustSnapshot(w *World) *sim.Snapshot {
	s, err := w.Kernel.Snapshot()
	if err != nil {
		panic(err)
	}
	return s
}

func (t *timeline) snapshot(w *World) {
	s := mustSnapshot(w)
	weight := snapWeight(w)
	t.snaps = append(t.snaps, timelineSnap{step: w.Kernel.Steps(), snap: s, weight: weight})
	t.weight += weight
	t.thin()
}

// stepped records a step that just ran: its hash, a snapshot if one is due,
// and the recorded inputs of this boundary, if the world is moving forward
// along a timeline it had already been through.
func (t *timeline) stepped(w *World) {
	if t.replaying {
		return
	}
	step := w.Kernel.Steps()
	if uint64(t.hashes.len()) >= step {
		// Re-walking recorded steps after a seek back: check, don't record.
		if !t.hashes.matches(int(step-1), w.Kernel.Hash()) {
			t.truncateAfter(step - 1)
			t.hashes.truncate(int(step - 1))
			t.hashes.push(w.Kernel.Hash())
		}
	} else {
		t.hashes.push(w.Kernel.Hash())
	}
	if t.every > 0 && step%uint64(t.every) == 0 && t.lastSnapStep() < step {
		t.snapshot(w)
	}
	// Nearly every step has no landing to take and no recorded input to
	// apply: the tests are made here, and the calls only when one is due.
	if t.landAt != 0 {
		t.land(w, step)
	}
	if t.applied < len(t.inputs) && t.inputs[t.applied].Step == step {
		t.applyRecorded(w, step)
	}
}

func (t *timeline) lastSnapStep() uint64 {
	return t.snaps[len(t.snaps)-1].step
}

// applyRecorded applies the not yet applied inputs recorded at boundary step.
func (t *timeline) applyRecorded(w *World, step uint64) {
	for t.applied < len(t.inputs) && t.inputs[t.applied].Step == step {
		in := t.inputs[t.applied]
		t.applied++
		// An input that failed when first applied fails the same way again;
		// its error was reported then.
		_ = in.Apply(w)
	}
}

// truncateAfter forks the timeline at boundary step: recorded inputs not yet
// applied, and snapshots and hashes after step, are dropped.
func (t *timeline) truncateAfter(step uint64) {
	t.inputs = t.inputs[:t.applied:t.applied]
	for len(t.snaps) > 1 && t.snaps[len(t.snaps)-1].step > step {
		t.weight -= t.snaps[len(t.snaps)-1].weight
		t.snaps[len(t.snaps)-1] = timelineSnap{}
		t.snaps = t.snaps[:len(t.snaps)-1]
	}
	if t.landing.step > step {
		t.landing = timelineSnap{}
	}
	if uint64(t.hashes.len()) > step {
		t.hashes.truncate(int(step))
	}
}

// Do applies an input now and records it, so that seeks replay it. Applying
// an input after seeking back forks the timeline.
func (w *World) Do(name string, apply func(w *World) error) error {
	t := &w.timeline
	step := w.Kernel.Steps()
	t.truncateAfter(step)
	t.inputs = append(t.inputs, Input{Step: step, Name: name, Apply: apply})
	t.applied = len(t.inputs)
	return apply(w)
}

// Inputs returns the recorded inputs, oldest first, including any not applied
// yet because the world was sought back before them.
func (w *World) Inputs() []Input { return append([]Input(nil), w.timeline.inputs...) }

// RecordedSteps returns how many steps the timeline has hashes for: how far
// Seek can go without running new steps.
func (w *World) RecordedSteps() uint64 { return uint64(w.timeline.hashes.len()) }

// ErrReplayDiverged is returned by Seek when a replayed step's trace hash
// differs from the recorded one.
var ErrReplayDiverged = errors.New("replay diverged from the recorded run")

// Seek brings the world to step n: after step n ran and the inputs of
// boundary n were applied. Going back restores the nearest snapshot and
// replays; going forward steps, replaying recorded inputs on the way, but
// first restores the nearest snapshot at or before n when there is one past
// the current step, so that a long jump forward replays at most a snapshot
// spacing of steps, as a jump back does, instead of every step in between.
// A seek that steps a long way either way takes a landing snapshot shortly
// before n (see landingMargin), so that the seeks around n that a learner
// makes next start from there.
func (w *World) Seek(n uint64) error {
	t := &w.timeline
	cur := w.Kernel.Steps()
	defer func() { t.landAt = 0 }()
	if n >= cur {
		// A snapshot holds exactly the state that stepping from here would
		// reach at its step (a run is deterministic, and every replay checks
		// that against the recorded hashes), so restoring it only skips work.
		if base := t.base(n); base.step > cur {
			if err := t.restore(w, base); err != nil {
				return err
			}
		}
		t.landBefore(w.Kernel.Steps(), n)
		for w.Kernel.Steps() < n {
			if _, ok := w.Step(); !ok {
				return errors.New("seek: the world has nothing left to do after step " + strconv.FormatUint(w.Kernel.Steps(), 10))
			}
		}
		t.applyRecorded(w, n)
		return nil
	}
	t.replaying = true
	defer func() { t.replaying = false }()
	base := t.base(n)
	if err := t.restore(w, base); err != nil {
		return err
	}
	t.landBefore(base.step, n)
	for w.Kernel.Steps() < n {
		step, err := t.replayStep(w, "seek")
		if err != nil {
			return err
		}
		t.land(w, step)
		t.applyRecorded(w, step)
	}
	return nil
}

// replayStep runs the next step of a replay (what names it: "seek") and
// returns its number. It fails when the agenda has run dry, or when the
// step's trace hash is not the one recorded when it first ran.
func (t *timeline) replayStep(w *World, what string) (uint64, error) {
	if _, ok := w.Kernel.Step(); !ok {
		return 0, errors.New(what + ": replay ran out of events at step " + strconv.FormatUint(w.Kernel.Steps(), 10))
	}
	step := w.Kernel.Steps()
	yieldNowAndThen(step)
	if step <= uint64(t.hashes.len()) && !t.hashes.matches(int(step-1), w.Kernel.Hash()) {
		return 0, errors.Join(ErrReplayDiverged, errors.New("step "+strconv.FormatUint(step, 10)+" has another trace hash than when it first ran"))
	}
	return step, nil
}

// landBefore arranges for a seek that goes from step from to step n to
// take a landing snapshot on its way, if the way is long: a learner who
// lands somewhere mostly looks around there next, a step or a few back,
// and each of those seeks would otherwise replay the whole way again from
// the same snapshot.
func (t *timeline) landBefore(from, n uint64) {
	if n-from > 2*landingMargin {
		t.landAt = n - landingMargin
	}
}

// land takes the landing snapshot if the seek under way arranged for one at
// step, which has just run; like every snapshot, before the inputs of its
// boundary.
func (t *timeline) land(w *World, step uint64) {
	if t.landAt != 0 && step == t.landAt {
		t.landing = timelineSnap{step: step, snap: mustSnapshot(w)}
		t.landAt = 0
	}
}

// landingMargin is how many steps before its target a long seek takes its
// landing snapshot; a seek that steps more than twice that takes one. Seeks
// to the thousand steps before the target, and every seek past them, then
// replay at most that far. In the page's 10,000-pod world, whose
// snapshots end up 131,072 steps apart, stepping back from a seek into its
// run replayed as far as the seek itself, up to 0.7 s in Chromium, however
// many times the learner stepped, and now takes 6 to 11 ms. A world whose
// snapshots are closer than twice the margin (the 1,000-pod world's are
// 2,048 apart) never takes one.
const landingMargin = 1024

// base returns the snapshot a seek to step n starts from: the last taken at
// or before n, the landing snapshot included.
func (t *timeline) base(n uint64) timelineSnap {
	b := t.snaps[t.nearest(n)]
	if l := t.landing; l.snap != nil && l.step <= n && l.step > b.step {
		return l
	}
	return b
}

// nearest returns the index of the last snapshot taken at or before step n
// (the start's, if none is later).
func (t *timeline) nearest(n uint64) int {
	i := len(t.snaps) - 1
	for i > 0 && t.snaps[i].step > n {
		i--
	}
	return i
}

// restore brings the world back to a snapshot: its components' state, and the
// inputs recorded at its boundary, which it was taken before.
func (t *timeline) restore(w *World, base timelineSnap) error {
	if err := w.Kernel.Restore(base.snap); err != nil {
		return err
	}
	t.applied = 0
	for t.applied < len(t.inputs) && t.inputs[t.applied].Step < base.step {
		t.applied++
	}
	t.applyRecorded(w, base.step)
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }

// hashChunk is how many hashes one chunk of a hashLog holds: 32 KB.
const hashChunk = 8192

// hashLog is the trace hash after every step, kept in chunks of hashChunk.
// A run appends a hash each step, for ever; one slice grown by append
// copied everything it held at each growth, a quarter more each time once
// large, which made the log about five times its size in allocations (6% of
// the bytes a converge scenario allocated). Chunks are never copied.
//
// The log only checks replays: no hash it holds is shown or shared. So it
// keeps each hash folded to 32 bits, half the memory (1.6 MiB of a 1000x10
// world's 400,000 steps). A replay that went another way would have to
// fold to the recorded value at its first step off the path, and at every
// step after, to go unnoticed: one chance in four billion a step.
type hashLog struct {
	chunks [][]uint32
	n      int
}

// fold is the 32 bits of a trace hash the log keeps.
func fold(h uint64) uint32 { return uint32(h ^ h>>32) }

func (l *hashLog) len() int { return l.n }

// matches reports whether h is (as far as 32 bits tell) the hash recorded
// after step i+1.
func (l *hashLog) matches(i int, h uint64) bool { return l.chunks[i/hashChunk][i%hashChunk] == fold(h) }

// push appends h. The log holds exactly the chunks its hashes need (push
// adds one when the last is full, truncate drops the ones past its end), so
// the hash goes into the last chunk, which a new one is made for when n is
// a multiple of hashChunk. Every step pushes: the place is worked out
// unsigned, which spares the signed division's fix-ups, and without
// dividing n to find the chunk.
func (l *hashLog) push(h uint64) {
	i := uint(l.n) % hashChunk
	if i == 0 {
		l.chunks = append(l.chunks, make([]uint32, hashChunk))
	}
	l.chunks[len(l.chunks)-1][i] = fold(h)
	l.n++
}

// truncate keeps the first n hashes, and the chunks they need.
func (l *hashLog) truncate(n int) {
	if n >= l.n {
		return
	}
	l.n = n
	keep := (n + hashChunk - 1) / hashChunk
	clear(l.chunks[keep:])
	l.chunks = l.chunks[:keep]
}
