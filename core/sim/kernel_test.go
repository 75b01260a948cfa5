package sim

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// echo is a toy component: on "ping" it answers the sender with a "pong" after
// a random latency, and on "pong" it counts and, while it has rounds left,
// pings back. It draws from the kernel's random source so that tests can see
// seeds at work.
type echo struct {
	name   string
	peer   string
	rounds int
	got    int
}

type echoState struct{ rounds, got int }

var (
	formPing    = &Form{Text: "%s answers ping %s after %D"}
	formPong    = &Form{Text: "%s got pong %s (%d so far)"}
	formIgnored = &Form{Text: "ignored %s"}
	formTick    = &Form{Text: "tick %d"}
)

func init() {
	Register(
		formPing,
		formPong,
		formIgnored,
		formTick,
	)
}

func (e *echo) Handle(ctx *Context, ev Event) Report {
	latency := time.Duration(1+ctx.Rand().IntN(9)) * time.Millisecond
	switch ev.Kind {
	case "ping":
		ctx.After(latency, e.peer, "pong", ev.Data)
		return Report{Models: "echo", Summary: Say(formPing, e.name, fmt.Sprint(ev.Data)).With(int64(latency))}
	case "pong":
		e.got++
		if e.rounds > 0 {
			e.rounds--
			ctx.After(latency, e.peer, "ping", e.got)
		}
		return Report{Summary: Say(formPong, e.name, fmt.Sprint(ev.Data)).With(int64(e.got))}
	}
	return Report{Summary: Say(formIgnored, ev.Kind)}
}

func (e *echo) Snapshot() any { return echoState{e.rounds, e.got} }
func (e *echo) Restore(s any) {
	st := s.(echoState)
	e.rounds, e.got = st.rounds, st.got
}

// ticker is a periodic background timer, like an informer's resync.
type ticker struct{ ticks int }

func (t *ticker) Handle(ctx *Context, ev Event) Report {
	t.ticks++
	ctx.Background(time.Second, "ticker", "tick", nil)
	return Report{Summary: Say(formTick).With(int64(t.ticks))}
}
func (t *ticker) Snapshot() any { return t.ticks }
func (t *ticker) Restore(s any) { t.ticks = s.(int) }
func newWorld(seed uint64, rounds int) *Kernel {
	k := New(seed)
	mustRegister(k, "a", &echo{name: "a", peer: "b", rounds: rounds})
	mustRegister(k, "b", &echo{name: "b", peer: "a"})
	mustRegister(k, "ticker", &ticker{})
	k.Background(time.Second, "ticker", "tick", nil)
	k.After(0, "b", "ping", 0)
	return k
}

func mustRegister(k *Kernel, name string, c Component) {
	if err := k.Register(name, c); err != nil {
		panic(err)
	}
}

func runAll(t *testing.T, k *Kernel) []string {
	t.Helper()
	var lines []string
	for k.Busy() {
		res, ok := k.Step()
		require.True(t, ok)
		lines = append(lines, res.TraceLine())
	}
	return lines
}

func TestSameSeedSameTrace(t *testing.T) {
	a, b := newWorld(7, 20), newWorld(7, 20)
	la, lb := runAll(t, a), runAll(t, b)
	assert.Equal(t, la, lb)
	assert.Equal(t, a.Hash(), b.Hash())
	assert.Equal(t, a.Now(), b.Now())
}

func TestDifferentSeedsDiffer(t *testing.T) {
	a, b := newWorld(7, 20), newWorld(8, 20)
	runAll(t, a)
	runAll(t, b)
	assert.NotEqual(t, a.Hash(), b.Hash(), "different seeds draw different latencies")
}

func TestEventsRunInTimeThenSchedulingOrder(t *testing.T) {
	k := New(1)
	rec := &recorder{}
	mustRegister(k, "r", rec)
	k.After(2*time.Second, "r", "late", nil)
	k.After(time.Second, "r", "first-at-1s", nil)
	k.After(time.Second, "r", "second-at-1s", nil)
	k.After(0, "r", "now", nil)
	for {
		if _, ok := k.Step(); !ok {
			break
		}
		require.NoError(t, k.agenda.check())
	}
	assert.Equal(t, []string{"now@0.000s", "first-at-1s@1.000s", "second-at-1s@1.000s", "late@2.000s"}, rec.seen)
}

// recorder notes each event's kind and time.
type recorder struct{ seen []string }

func (r *recorder) Handle(ctx *Context, ev Event) Report {
	r.seen = append(r.seen, ev.Kind+"@"+FormatSeconds(ctx.Now()))
	return Report{Summary: Text(ev.Kind)}
}
func (r *recorder) Snapshot() any { return append([]string(nil), r.seen...) }
func (r *recorder) Restore(s any) { r.seen = append([]string(nil), s.([]string)...) }

func TestCancel(t *testing.T) {
	k := New(1)
	rec := &recorder{}
	mustRegister(k, "r", rec)
	keep := k.After(time.Second, "r", "keep", nil)
	drop := k.After(time.Second, "r", "drop", nil)
	assert.True(t, k.Cancel(drop))
	assert.False(t, k.Cancel(drop), "a cancelled event cannot be cancelled twice")
	assert.False(t, k.Cancel(999), "unknown events are not pending")
	assert.Len(t, k.Agenda(), 1)
	assert.Equal(t, keep, k.Agenda()[0].Seq)
	_, err := k.Stabilize(Limits{})
	require.NoError(t, err)
	assert.Equal(t, []string{"keep@1.000s"}, rec.seen)
	assert.False(t, k.Busy())
}

func TestStabilizeIgnoresBackgroundTimers(t *testing.T) {
	k := newWorld(3, 5)
	n, err := k.Stabilize(Limits{})
	require.NoError(t, err)
	assert.Positive(t, n)
	assert.False(t, k.Busy(), "only background work may remain")
	assert.True(t, k.Pending(), "the ticker keeps ticking")
	ev, _ := k.Next()
	assert.True(t, ev.Background)
}

func TestStabilizeRunsBackgroundEventsThatFallDueFirst(t *testing.T) {
	k := New(1)
	tk := &ticker{}
	mustRegister(k, "ticker", tk)
	mustRegister(k, "r", &recorder{})
	k.Background(time.Second, "ticker", "tick", nil)
	k.After(3500*time.Millisecond, "r", "work", nil)
	_, err := k.Stabilize(Limits{})
	require.NoError(t, err)
	assert.Equal(t, 3, tk.ticks, "ticks at 1s, 2s and 3s come before the work at 3.5s")
	assert.Equal(t, 3500*time.Millisecond, k.Now())
}

func TestStabilizeLimits(t *testing.T) {
	k := newWorld(1, 1000)
	_, err := k.Stabilize(Limits{MaxSteps: 10})
	var le *LimitError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, 10, le.Steps)
	assert.Contains(t, err.Error(), "stabilize: stopped after 10 steps")
	assert.Contains(t, err.Error(), "--max-steps=10")
	assert.Contains(t, err.Error(), "next on the agenda:")

	k = newWorld(1, 1000)
	_, err = k.Stabilize(Limits{MaxTime: 50 * time.Millisecond})
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "--max-time=50ms", le.Limit)
	assert.LessOrEqual(t, le.Elapsed, 50*time.Millisecond)
}

func TestRunUntil(t *testing.T) {
	k := newWorld(1, 10)
	res, err := k.RunUntil("until pong", func(r StepResult) bool { return strings.Contains(r.Summary.String(), "got pong 3") }, Limits{})
	require.NoError(t, err)
	assert.Contains(t, res.Summary.String(), "got pong 3")

	k = New(1)
	_, err = k.RunUntil("until never", func(StepResult) bool { return false }, Limits{})
	assert.ErrorIs(t, err, ErrIdle)
}

func TestAdvance(t *testing.T) {
	k := New(1)
	rec := &recorder{}
	mustRegister(k, "r", rec)
	k.After(time.Second, "r", "a", nil)
	k.After(3*time.Second, "r", "b", nil)
	res := k.Advance(2 * time.Second)
	require.Len(t, res, 1)
	assert.Equal(t, "a", res[0].Event.Kind)
	assert.Equal(t, 2*time.Second, k.Now(), "the clock moves the whole way even past the last event")
	res = k.Advance(time.Second)
	require.Len(t, res, 1, "an event exactly at the end of the window runs")
	assert.Equal(t, 3*time.Second, k.Now())
}

func TestUnknownComponentIsVisibleNotFatal(t *testing.T) {
	k := New(1)
	k.After(0, "nobody", "hello", nil)
	res, ok := k.Step()
	require.True(t, ok)
	assert.Equal(t, "kernel", res.Actor)
	assert.Contains(t, res.Summary.String(), `unknown component "nobody"`)
}

func TestRegisterRejectsDuplicatesAndEmptyNames(t *testing.T) {
	k := New(1)
	require.NoError(t, k.Register("a", &recorder{}))
	assert.ErrorContains(t, k.Register("a", &recorder{}), `"a" is already registered`)
	assert.Error(t, k.Register("", &recorder{}))
}

// TestSnapshotRestoreReplay is the property step-back and seek rely on: restore a
// snapshot, replay the same inputs, and the trace hash is the uninterrupted
// run's, step for step.
func TestSnapshotRestoreReplay(t *testing.T) {
	const total = 200
	reference := newWorld(42, 1000)
	var hashes []uint64
	for i := 0; i < total; i++ {
		// An input from outside in the middle of the run must be replayed too.
		if i == 120 {
			reference.After(5*time.Millisecond, "a", "ping", "input")
		}
		res, ok := reference.Step()
		require.True(t, ok)
		hashes = append(hashes, res.Hash)
	}

	k := newWorld(42, 1000)
	snaps := map[int]*Snapshot{}
	for i := 0; i < total; i++ {
		if i%50 == 0 {
			s, err := k.Snapshot()
			require.NoError(t, err)
			snaps[i] = s
		}
		if i == 120 {
			k.After(5*time.Millisecond, "a", "ping", "input")
		}
		res, _ := k.Step()
		require.Equal(t, hashes[i], res.Hash, "step %d", i+1)
	}
	// Seek back to every snapshot, twice each, and replay to the end.
	for _, at := range []int{100, 0, 150, 50, 100} {
		require.NoError(t, k.Restore(snaps[at]))
		assert.Equal(t, uint64(at), k.Steps())
		for i := at; i < total; i++ {
			if i == 120 {
				k.After(5*time.Millisecond, "a", "ping", "input")
			}
			res, _ := k.Step()
			require.Equal(t, hashes[i], res.Hash, "replay from %d, step %d", at, i+1)
		}
	}
}

type stateless struct{}

func (stateless) Handle(*Context, Event) Report { return Report{} }

func TestSnapshotRequiresEverySnapshotter(t *testing.T) {
	k := New(1)
	mustRegister(k, "plain", stateless{})
	_, err := k.Snapshot()
	assert.ErrorContains(t, err, `component "plain" has state the kernel cannot snapshot`)
}

func TestRestoreRejectsOtherWorlds(t *testing.T) {
	k := newWorld(1, 1)
	s, err := k.Snapshot()
	require.NoError(t, err)
	other := New(1)
	mustRegister(other, "a", &recorder{})
	assert.Error(t, other.Restore(s))
}

func TestTraceLineFormat(t *testing.T) {
	r := StepResult{N: 57, At: 2004 * time.Millisecond, Report: Report{Actor: "worker-1", Models: "claimPods",
		Summary: Text("release pod/web-7xk2p (labels no longer match app=web)")}}
	assert.Equal(t, "#57   t=2.004s  worker-1        claimPods          release pod/web-7xk2p (labels no longer match app=web)", r.TraceLine())
	r = StepResult{N: 1, Report: Report{Actor: "a-very-long-actor-name", Summary: Text("x")}}
	assert.Equal(t, "#1    t=0.000s  a-very-long-actor-name -                  x", r.TraceLine(), "long columns shift, never truncate")
}

func TestFormatSeconds(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                       "0.000s",
		time.Millisecond:        "0.001s",
		1500 * time.Millisecond: "1.500s",
		-2 * time.Second:        "-2.000s",
		10 * time.Minute:        "600.000s",
		999 * time.Microsecond:  "0.000s",
	} {
		assert.Equal(t, want, FormatSeconds(d), "%v", d)
	}
}

func TestAgendaHeapUnderRandomLoad(t *testing.T) {
	k := New(9)
	mustRegister(k, "r", &recorder{})
	r := k.Rand()
	var last Event
	for i := 0; i < 2000; i++ {
		switch r.IntN(4) {
		case 0, 1:
			k.After(time.Duration(r.IntN(1000))*time.Millisecond, "r", "x", nil)
		case 2:
			k.Cancel(uint64(r.IntN(i + 1)))
		case 3:
			if res, ok := k.Step(); ok {
				require.False(t, eventLess(&res.Event, &last), "events must come out in (At, Seq) order")
				last = res.Event
			}
		}
		require.NoError(t, k.agenda.check())
	}
}

// TestLanesAndHeapFireAsOneHeapWould drives the agenda with delays as a
// world's are, most of a few values and some of many, more distinct ones at
// once than there are lanes, and with cancellations, snapshots and restores
// among them. Every step must fire the event a plain sort by (At, Seq) of
// the pending ones puts first, which is the order the agenda promises.
func TestLanesAndHeapFireAsOneHeapWould(t *testing.T) {
	k := New(3)
	mustRegister(k, "r", &recorder{})
	r := rand.New(rand.NewPCG(5, 8))
	common := []time.Duration{0, 0, 0, time.Millisecond, time.Millisecond, time.Millisecond, 100 * time.Millisecond, 5 * time.Second}
	delay := func() time.Duration {
		if r.IntN(4) > 0 {
			return common[r.IntN(len(common))]
		}
		return time.Duration(r.IntN(50)) * time.Millisecond
	}
	want := map[uint64]Event{} // the pending events, by Seq
	var saved *Snapshot
	var savedWant map[uint64]Event
	var seqs []uint64
	for i := range 20_000 {
		switch op := r.IntN(100); {
		case op < 45:
			d := delay()
			seq := k.After(d, "r", "x", nil)
			want[seq] = Event{At: k.Now() + d, Seq: seq}
			seqs = append(seqs, seq)
		case op < 50 && len(seqs) > 0:
			seq := seqs[r.IntN(len(seqs))]
			_, pending := want[seq]
			require.Equal(t, pending, k.Cancel(seq), "cancelling event %d at op %d", seq, i)
			delete(want, seq)
		case op < 51:
			var err error
			saved, err = k.Snapshot()
			require.NoError(t, err)
			savedWant = maps.Clone(want)
		case op < 52 && saved != nil:
			require.NoError(t, k.Restore(saved))
			want = maps.Clone(savedWant)
		case op < 62:
			// A look at the next event, as a run takes before each step;
			// the step, push, cancel or restore after it must not be
			// misled by what it remembers.
			next, ok := k.Next()
			require.Equal(t, len(want) > 0, ok, "a peek at op %d", i)
			if ok {
				first := slices.MinFunc(slices.Collect(maps.Values(want)), func(x, y Event) int {
					return cmp.Or(cmp.Compare(x.At, y.At), cmp.Compare(x.Seq, y.Seq))
				})
				require.Equal(t, first.Seq, next.Seq, "op %d peeked at event %d; the earliest pending is %d", i, next.Seq, first.Seq)
			}
		default:
			res, ok := k.Step()
			require.Equal(t, len(want) > 0, ok, "a step at op %d", i)
			if !ok {
				continue
			}
			first := slices.MinFunc(slices.Collect(maps.Values(want)), func(x, y Event) int {
				return cmp.Or(cmp.Compare(x.At, y.At), cmp.Compare(x.Seq, y.Seq))
			})
			require.Equal(t, first.Seq, res.Event.Seq, "op %d fired event %d at %v; the earliest pending is %d at %v", i, res.Event.Seq, res.Event.At, first.Seq, first.At)
			delete(want, first.Seq)
		}
		require.NoError(t, k.agenda.check(), "after op %d", i)
	}
	assert.Len(t, k.Agenda(), len(want))
}

// TestALaneThatNeverEmptiesReusesItsChunks keeps one lane busy for good: two
// events pushed for every one fired, so it never empties. It must hold no
// more chunks than its events need, with one to spare, leaving nothing
// behind that would keep a Data alive, and reuse the chunks it emptied
// rather than allocate new ones; and still fire in order.
func TestALaneThatNeverEmptiesReusesItsChunks(t *testing.T) {
	k := New(1)
	mustRegister(k, "r", &recorder{})
	var last Event
	for i := range 3000 {
		k.After(time.Millisecond, "r", "x", i)
		k.After(time.Millisecond, "r", "x", i)
		res, ok := k.Step()
		require.True(t, ok)
		require.False(t, eventLess(&res.Event, &last), "events must come out in (At, Seq) order")
		last = res.Event
		require.NoError(t, k.agenda.check(), "after round %d", i)
	}
	l := &k.agenda.lanes[0]
	require.Equal(t, time.Millisecond, l.delay)
	assert.Equal(t, 3000, l.held(), "one event left pending for each round")
	assert.LessOrEqual(t, 1+len(l.more), 3000/laneChunk+2, "the chunks of the fired events were let go")

	// A lane that fires as many events as it takes reuses its chunks.
	a := &k.agenda
	seq := uint64(1 << 40)
	var popped Event
	allocs := testing.AllocsPerRun(10, func() {
		for range 2 * laneChunk {
			seq++
			a.push(Event{At: time.Hour, Seq: seq}, time.Millisecond)
			if !a.popInto(&popped) {
				panic("the agenda ran dry")
			}
		}
	})
	assert.Zero(t, allocs, "a lane in a steady state takes its chunks from the spare ones")
	require.NoError(t, a.check())
}

// TestASnapshotsLanesAreItsOwn takes a snapshot of lanes that span several
// chunks, some of their events cancelled, runs on, and restores it twice:
// each restore must give back the events pending at the snapshot, in order,
// whatever ran in between.
func TestASnapshotsLanesAreItsOwn(t *testing.T) {
	k := New(1)
	mustRegister(k, "r", &recorder{})
	var seqs []uint64
	for i := range 3 * laneChunk {
		seqs = append(seqs, k.After(time.Millisecond, "r", "x", i), k.After(time.Second, "r", "x", i))
	}
	for range laneChunk / 2 {
		_, ok := k.Step()
		require.True(t, ok)
	}
	// Cancelling finds an event in any chunk of its lane, and only once.
	for _, i := range []int{laneChunk + 1, 2*laneChunk - 1, 2 * laneChunk, 5*laneChunk + 3, len(seqs) - 1} {
		require.True(t, k.Cancel(seqs[i]), "cancel event %d", i)
		require.False(t, k.Cancel(seqs[i]), "cancel event %d again", i)
	}
	require.False(t, k.Cancel(seqs[0]), "the first event has fired")
	require.False(t, k.Cancel(seqs[len(seqs)-1]+1), "no such event")
	want := k.Agenda()
	require.Len(t, want, len(seqs)-laneChunk/2-5)
	sn, err := k.Snapshot()
	require.NoError(t, err)
	for round := range 2 {
		for i := range 2 * laneChunk {
			k.After(time.Millisecond, "r", "x", i)
			_, ok := k.Step()
			require.True(t, ok)
		}
		require.NoError(t, k.Restore(sn))
		require.NoError(t, k.agenda.check(), "after restore %d", round)
		require.Equal(t, want, k.Agenda(), "the pending events after restore %d", round)
	}
}

// check verifies the agenda's invariants, as container/heap's tests verify
// theirs: the heap property, each lane in (At, Seq) order, every heap slot
// pointing at its own event, and foreground counting the events that will
// run and keep the world busy.
func (a *agenda) check() error {
	for i := 1; i < len(a.heap); i++ {
		if slotLess(&a.heap[i], &a.heap[(i-1)/2]) {
			return fmt.Errorf("heap property broken at %d", i)
		}
	}
	for i := range a.lanes {
		l := &a.lanes[i]
		if err := l.check(); err != nil {
			return fmt.Errorf("lane %d (delay %v): %w", i, l.delay, err)
		}
		for j := range a.lanes[:i] {
			if !l.empty() && !a.lanes[j].empty() && a.lanes[j].delay == l.delay {
				return fmt.Errorf("lanes %d and %d both hold delay %v", j, i, l.delay)
			}
		}
	}
	for i, c := range a.spare {
		if len(c) != 0 || cap(c) < laneChunk {
			return fmt.Errorf("spare chunk %d has length %d and capacity %d", i, len(c), cap(c))
		}
		for _, ev := range c[:cap(c)] {
			if !zeroEvent(ev) {
				return fmt.Errorf("spare chunk %d keeps event %d", i, ev.Seq)
			}
		}
	}
	used := map[int32]bool{}
	for _, s := range a.heap {
		ev := a.events[s.idx]
		switch {
		case ev.Seq != s.seq || ev.At != s.at:
			return fmt.Errorf("slot %d points at the wrong event", s.seq)
		case used[s.idx]:
			return fmt.Errorf("slab index %d used twice", s.idx)
		}
		used[s.idx] = true
	}
	for _, idx := range a.free {
		if used[idx] {
			return fmt.Errorf("slab index %d both free and used", idx)
		}
		if !zeroEvent(a.events[idx]) {
			return fmt.Errorf("free slab index %d keeps event %d", idx, a.events[idx].Seq)
		}
	}
	if len(used)+len(a.free) != len(a.events) {
		return fmt.Errorf("slab has %d events, %d used and %d free", len(a.events), len(used), len(a.free))
	}
	fg := 0
	a.pending(func(ev *Event) {
		if !ev.cancelled && !ev.Background {
			fg++
		}
	})
	if fg != a.foreground {
		return fmt.Errorf("foreground = %d, want %d", a.foreground, fg)
	}
	if a.peekedOK {
		// The remembered place must be the earliest event's, as front
		// finds it now: pop takes it without looking again.
		if from := a.front(); from != a.peeked {
			return fmt.Errorf("the peeked event (from %d) is no longer the earliest (from %d)", a.peeked, from)
		}
	}
	return nil
}

func BenchmarkKernelStep(b *testing.B) {
	k := New(1)
	mustRegister(k, "a", &echo{name: "a", peer: "b", rounds: b.N})
	mustRegister(k, "b", &echo{name: "b", peer: "a"})
	k.After(0, "b", "ping", 0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k.Step()
	}
}

// TestStepIntoOverwritesAReusedResult: a result written over one that held
// another step's says what a fresh one does, as a run that reuses one
// StepResult for every step relies on.
//
// StepInto writes the result field by field (the report whole), so the
// result starts with a stale value in every field, the report's too: a
// field added to StepResult and not written keeps it, and the first step
// shows the difference. The check that every field starts stale makes
// whoever adds a field give it one here.
func TestStepIntoOverwritesAReusedResult(t *testing.T) {
	a, b := newWorld(7, 3), newWorld(7, 3)
	reused := StepResult{N: 99, At: 99, Event: Event{At: 99, To: "stale", Kind: "stale"}, Report: Report{Actor: "stale", Models: "stale",
		Summary: Text("stale"), Touched: []Ref{{Name: "stale"}}, Handed: []Handoff{{To: "stale"}}}, Hash: 99}
	for _, fields := range []reflect.Value{reflect.ValueOf(reused), reflect.ValueOf(reused.Report)} {
		for i := range fields.NumField() {
			require.False(t, fields.Field(i).IsZero(), "%s.%s starts stale", fields.Type().Name(), fields.Type().Field(i).Name)
		}
	}
	for b.Busy() {
		fresh, ok := b.Step()
		require.True(t, ok)
		require.True(t, a.StepInto(&reused))
		require.Equal(t, fresh.Kept(), reused.Kept())
	}
	assert.Greater(t, b.Steps(), uint64(6))
	assert.False(t, a.Busy())
}

// hashStringBytewise is hashString as first written, a byte at a time: the
// definition hashString's word loads must keep, since traces, share links
// and golden files hold its values.
func hashStringBytewise(h uint64, s string) uint64 {
	for len(s) >= 8 {
		var w uint64
		for i := range 8 {
			w |= uint64(s[i]) << (8 * i)
		}
		h = hashUint(h, w)
		s = s[8:]
	}
	var tail uint64
	for i := 0; i < len(s); i++ {
		tail |= uint64(s[i]) << (8 * i)
	}
	return hashUint(h, tail^uint64(len(s))<<56)
}

// TestHashStringReadsWordsAsBytes holds hashString to its byte-by-byte
// definition for every length up to five words, each tail length after
// each number of whole words, with bytes that differ from one place to the
// next so that a byte read twice, missed or misplaced shows.
func TestHashStringReadsWordsAsBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 41 {
		for range 20 {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.IntN(256))
			}
			require.Equal(t, hashStringBytewise(hashSeed, string(b)), hashString(hashSeed, string(b)), "%d bytes: %x", n, b)
		}
	}
}

// TestTraceHashTellsApartWhatATraceLineTellsApart: the step hash must change
// whenever a field of the trace line does, however the text is cut.
func TestTraceHashTellsApartWhatATraceLineTellsApart(t *testing.T) {
	assert.NotEqual(t, hashString(hashString(hashSeed, "ab"), "c"), hashString(hashString(hashSeed, "a"), "bc"), "where one field ends counts")
	assert.NotEqual(t, hashString(hashSeed, "a"), hashString(hashSeed, "a\x00"), "a trailing zero byte counts")
	assert.NotEqual(t, hashString(hashSeed, ""), hashString(hashSeed, "\x00"))
	line := "pod/web-7xk2p deleted; its controller ReplicaSet/web is one of ours"
	want := hashString(hashSeed, line)
	for i := range len(line) {
		for bit := range 8 {
			b := []byte(line)
			b[i] ^= 1 << bit
			require.NotEqual(t, want, hashString(hashSeed, string(b)), "byte %d, bit %d", i, bit)
		}
	}
}

// check verifies a live lane's invariants: its events in (At, Seq) order
// across its chunks, every chunk but the last full, no empty chunk after the
// first, and nothing kept outside the events it holds.
func (l *lane) check() error {
	if l.head > len(l.events) {
		return fmt.Errorf("begins at %d of %d events", l.head, len(l.events))
	}
	if l.empty() && len(l.more) > 0 {
		return fmt.Errorf("its first chunk has fired, and %d more wait behind it", len(l.more))
	}
	chunks := append([][]Event{l.events}, l.more...)
	var prev *Event
	for i, c := range chunks {
		from := 0
		if i == 0 {
			from = l.head
		}
		if i < len(chunks)-1 && len(c) != laneChunk {
			return fmt.Errorf("chunk %d of %d holds %d events, not %d", i, len(chunks), len(c), laneChunk)
		}
		if i > 0 && cap(c) < laneChunk {
			return fmt.Errorf("chunk %d has room for %d events, fewer than %d", i, cap(c), laneChunk)
		}
		for j := from; j < len(c); j++ {
			if prev != nil && !eventLess(prev, &c[j]) {
				return fmt.Errorf("out of order at chunk %d, %d", i, j)
			}
			prev = &c[j]
		}
		for j, ev := range c[:cap(c)] {
			if (j < from || j >= len(c)) && !zeroEvent(ev) {
				return fmt.Errorf("chunk %d keeps event %d at %d, outside what it holds", i, ev.Seq, j)
			}
		}
	}
	return nil
}

// zeroEvent reports whether ev is the zero Event, field by field: Events
// cannot be compared with ==, which only tests would use.
func zeroEvent(ev Event) bool {
	return ev.At == 0 && ev.Seq == 0 && ev.To == "" && ev.Kind == "" && ev.Data == nil && !ev.Background && !ev.cancelled
}
