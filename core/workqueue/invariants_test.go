package workqueue

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/reconcilelab/rlab/core/sim"
)

// This file holds the invariant checkers, after container/heap's verify: every
// test runs them after every operation, through the checked wrapper below, so
// a broken invariant is caught at the operation that broke it rather than at
// the assertion that happens to notice.

// check returns the first broken invariant of the key table, or nil.
func (t *keyTable) check() error {
	if n := len(t.slots); n != 0 && n&(n-1) != 0 {
		return fmt.Errorf("key table: %d slots is not a power of two", n)
	}
	if 2*t.used > len(t.slots) {
		return fmt.Errorf("key table: %d of %d slots used, more than half", t.used, len(t.slots))
	}
	if len(t.state) != len(t.key) || len(t.worker) != len(t.key) {
		return fmt.Errorf("key table: %d keys, %d states, %d workers", len(t.key), len(t.state), len(t.worker))
	}
	mask := len(t.slots) - 1
	pointedTo := make(map[int32]int)
	used := 0
	for p, e := range t.slots {
		if e == 0 {
			continue
		}
		used++
		r := int32(uint32(e)) - 1
		if r < 0 || int(r) >= len(t.key) {
			return fmt.Errorf("key table: slot %d points to record %d of %d", p, r, len(t.key))
		}
		if prev, dup := pointedTo[r]; dup {
			return fmt.Errorf("key table: slots %d and %d both point to record %d", prev, p, r)
		}
		pointedTo[r] = p
		if t.state[r] == 0 {
			return fmt.Errorf("key table: slot %d points to record %d (%q), which has no state", p, r, t.key[r])
		}
		if tag := tagOf(t.key[r]); uint32(e>>32) != tag {
			return fmt.Errorf("key table: slot %d has tag %#x, key %q hashes to %#x", p, uint32(e>>32), t.key[r], tag)
		}
		for q := int(uint32(e>>32)) & mask; q != p; q = (q + 1) & mask {
			if t.slots[q] == 0 {
				return fmt.Errorf("key table: key %q in slot %d is cut off from its home slot by empty slot %d", t.key[r], p, q)
			}
		}
		if got, _, ok := t.find(t.key[r]); !ok || got != r {
			return fmt.Errorf("key table: find(%q) = %d, %v; want record %d", t.key[r], got, ok, r)
		}
	}
	if used != t.used {
		return fmt.Errorf("key table: %d slots used, count says %d", used, t.used)
	}
	isFree := make(map[int32]bool)
	for _, r := range t.free {
		if isFree[r] {
			return fmt.Errorf("key table: record %d is free twice", r)
		}
		isFree[r] = true
		if t.key[r] != "" || t.state[r] != 0 || t.worker[r] != "" {
			return fmt.Errorf("key table: free record %d holds key %q, state %d, worker %q", r, t.key[r], t.state[r], t.worker[r])
		}
	}
	for i := range t.key {
		r := int32(i)
		_, pointed := pointedTo[r]
		if pointed == isFree[r] {
			return fmt.Errorf("key table: record %d (%q) is pointed to: %v, free: %v; want exactly one", r, t.key[r], pointed, isFree[r])
		}
	}
	return nil
}

// checkQueue returns the first broken invariant of q, or nil.
func checkQueue(q *Queue) error {
	t := &q.table
	if err := t.check(); err != nil {
		return err
	}
	inQueue := make(map[int32]bool)
	for _, r := range q.queue.items() {
		if inQueue[r] {
			return fmt.Errorf("key %q is in the queue twice", t.key[r])
		}
		inQueue[r] = true
		if st := t.state[r]; !st.dirty() || st.processing() {
			return fmt.Errorf("key %q is in the queue but dirty=%v processing=%v; want dirty and not processing", t.key[r], st.dirty(), st.processing())
		}
	}
	processing := 0
	holders := make(map[string]bool)
	for i, st := range t.state {
		if st.processing() {
			processing++
			holders[t.worker[i]] = true
		} else if t.worker[i] != "" {
			return fmt.Errorf("key %q is not processing but names worker %q", t.key[i], t.worker[i])
		}
		if st.dirty() && !st.processing() && !inQueue[int32(i)] {
			return fmt.Errorf("key %q is dirty and not processing, but not in the queue", t.key[i])
		}
	}
	if processing != q.processing {
		return fmt.Errorf("%d keys are processing, count says %d", processing, q.processing)
	}
	for i, w := range q.idle {
		if slices.Index(q.idle, w) != i {
			return fmt.Errorf("worker %q is idle twice: %v", w, q.idle)
		}
		// Upstream lets a goroutine that holds a key block in Get for
		// another, so this is not the queue's invariant but the worker
		// protocol's: processNextWorkItem calls Done before it calls Get
		// again, and every worker in these tests does the same.
		if holders[w] {
			return fmt.Errorf("idle worker %q is holding a key", w)
		}
	}
	if len(q.idle) > 0 && (q.shuttingDown || q.sched == nil) {
		return fmt.Errorf("workers %v are idle on a queue that is shutting down (%v) or has no scheduler", q.idle, q.shuttingDown)
	}
	switch {
	case !q.shuttingDown && q.drain != NotDraining:
		return fmt.Errorf("drain is %v on a queue that is not shutting down", q.drain)
	case q.drain == Draining && q.processing == 0:
		return fmt.Errorf("still draining with nothing processing")
	case q.drain != Draining && len(q.drainWaiters) > 0:
		return fmt.Errorf("drain is %v but %v still wait for it", q.drain, q.drainWaiters)
	}
	return nil
}

// checkDelaying returns the first broken invariant of q, or nil. With a
// kernel, it also checks that the queue's timer is on the agenda, alone.
func checkDelaying(q *DelayingQueue, k *sim.Kernel) error {
	if err := checkQueue(q.Queue); err != nil {
		return err
	}
	h := &q.waiting
	for i := 1; i < len(h.order); i++ {
		if h.less(i, (i-1)/2) {
			return fmt.Errorf("delayed heap: entry %d (%q) fires before its parent (%q)", i, h.slots[h.order[i]].key, h.slots[h.order[(i-1)/2]].key)
		}
	}
	for i, slot := range h.order {
		w := h.slots[slot]
		if w.pos != i {
			return fmt.Errorf("delayed heap: %q is at %d but says %d", w.key, i, w.pos)
		}
		if got, ok := h.index[w.key]; !ok || got != slot {
			return fmt.Errorf("delayed heap: index[%q] = %d, %v; want slot %d", w.key, got, ok, slot)
		}
		if w.readyAt < q.sched.Now() {
			return fmt.Errorf("delayed heap: %q was due at %v and is still waiting at %v", w.key, w.readyAt, q.sched.Now())
		}
		if w.delay <= 0 {
			return fmt.Errorf("delayed heap: %q has delay %v; non-positive delays are added at once", w.key, w.delay)
		}
	}
	if len(h.index) != len(h.order) {
		return fmt.Errorf("delayed heap: %d keys indexed, %d in the heap", len(h.index), len(h.order))
	}
	if len(h.order)+len(h.free) != len(h.slots) {
		return fmt.Errorf("delayed heap: %d in the heap + %d free != %d slots", len(h.order), len(h.free), len(h.slots))
	}
	for _, slot := range h.free {
		if w := h.slots[slot]; w.key != "" || w.readyAt != 0 || w.seq != 0 || w.delay != 0 || w.rateLimited || w.quiet || w.pos != -1 {
			return fmt.Errorf("delayed heap: free slot %d holds %+v", slot, w)
		}
	}
	if q.shuttingDown && h.len() > 0 {
		return fmt.Errorf("delayed heap: %d keys still delayed after shutdown", h.len())
	}
	if q.armed != (h.len() > 0) {
		return fmt.Errorf("timer armed=%v with %d delayed keys", q.armed, h.len())
	}
	if q.armed && q.timerAt != h.head().readyAt {
		return fmt.Errorf("timer set for %v, head %q is due at %v", q.timerAt, h.head().key, h.head().readyAt)
	}
	quiet := 0
	for _, slot := range h.order {
		if h.slots[slot].quiet {
			quiet++
		}
	}
	if quiet != q.quiet {
		return fmt.Errorf("%d delayed keys are quiet, but the queue counts %d", quiet, q.quiet)
	}
	if q.armed && q.timerQuiet != (quiet == h.len()) {
		return fmt.Errorf("timer quiet=%v with %d of %d delayed keys quiet", q.timerQuiet, quiet, h.len())
	}
	if k == nil {
		return nil
	}
	var timers []sim.Event
	for _, ev := range k.Agenda() {
		if ev.To == q.component {
			timers = append(timers, ev)
		}
	}
	switch {
	case !q.armed && len(timers) > 0:
		return fmt.Errorf("timer not armed, but the agenda holds %+v", timers)
	case q.armed && (len(timers) != 1 || timers[0].Seq != q.timer || timers[0].At != q.timerAt || timers[0].Kind != KindTimer ||
		timers[0].Background != q.timerQuiet):
		return fmt.Errorf("timer armed as #%d at %v, but the agenda holds %+v", q.timer, q.timerAt, timers)
	}
	return nil
}

// checked wraps a queue so that every operation on it is followed by the
// invariant checkers; a broken invariant fails the test at once, with the
// queue's view. Kernel steps taken through it are checked too.
type checked struct {
	t testing.TB
	k *sim.Kernel // nil for a queue without a kernel
	q *Queue
	d *DelayingQueue     // nil for a plain queue
	r *RateLimitingQueue // nil unless rate-limiting
}

func checkPlain(t testing.TB, k *sim.Kernel, q *Queue) *checked {
	c := &checked{t: t, k: k, q: q}
	c.verify()
	return c
}

func checkDelayingQueue(t testing.TB, k *sim.Kernel, d *DelayingQueue) *checked {
	c := &checked{t: t, k: k, q: d.Queue, d: d}
	c.verify()
	return c
}

func checkRateLimiting(t testing.TB, k *sim.Kernel, r *RateLimitingQueue) *checked {
	c := &checked{t: t, k: k, q: r.Queue, d: r.DelayingQueue, r: r}
	c.verify()
	return c
}

// iface is the most derived queue, whose ShutDown drops delayed keys too.
func (c *checked) iface() Interface {
	switch {
	case c.r != nil:
		return c.r
	case c.d != nil:
		return c.d
	}
	return c.q
}

func (c *checked) view() View {
	switch {
	case c.r != nil:
		return c.r.View()
	case c.d != nil:
		return c.d.View()
	}
	return c.q.View()
}

func (c *checked) verify() {
	c.t.Helper()
	var err error
	if c.d != nil {
		err = checkDelaying(c.d, c.k)
	} else {
		err = checkQueue(c.q)
	}
	if err != nil {
		c.t.Fatalf("invariant broken: %v\nqueue: %+v", err, c.view())
	}
}

func (c *checked) Add(key string) Outcome {
	c.t.Helper()
	out := c.iface().Add(key)
	c.verify()
	return out
}

func (c *checked) Get(worker string) (string, bool, bool) {
	c.t.Helper()
	key, ok, shutdown := c.iface().Get(worker)
	c.verify()
	return key, ok, shutdown
}

func (c *checked) Done(key string) bool {
	c.t.Helper()
	ok := c.iface().Done(key)
	c.verify()
	return ok
}

func (c *checked) Len() int { return c.iface().Len() }

func (c *checked) ShutDown() {
	c.t.Helper()
	c.iface().ShutDown()
	c.verify()
}

func (c *checked) ShutDownWithDrain(waiter string) bool {
	c.t.Helper()
	done := c.iface().ShutDownWithDrain(waiter)
	c.verify()
	return done
}

func (c *checked) Quiet(key string) bool {
	c.t.Helper()
	out := c.d.Quiet(key)
	c.verify()
	return out
}

func (c *checked) AddAfter(key string, d time.Duration) Outcome {
	c.t.Helper()
	out := c.d.AddAfter(key, d)
	c.verify()
	return out
}

// addBackOff delays key as AddRateLimited would with a wait of d, without
// asking a limiter: for tests that want a back-off of a chosen length.
func (c *checked) addBackOff(key string, d time.Duration) Outcome {
	c.t.Helper()
	out := c.d.addAfter(key, d, true)
	c.verify()
	return out
}

func (c *checked) AddRateLimited(key string) (time.Duration, Outcome) {
	c.t.Helper()
	d, out := c.r.AddRateLimited(key)
	c.verify()
	return d, out
}

func (c *checked) Forget(key string) {
	c.t.Helper()
	c.r.Forget(key)
	c.verify()
}

// step runs one kernel event and checks the queue after it.
func (c *checked) step() (sim.StepResult, bool) {
	c.t.Helper()
	res, ok := c.k.Step()
	c.verify()
	return res, ok
}

// advance moves the kernel's clock by d one event at a time, checking the
// queue after each, and returns what ran.
func (c *checked) advance(d time.Duration) []sim.StepResult {
	c.t.Helper()
	until := c.k.Now() + d
	var out []sim.StepResult
	for {
		next, ok := c.k.Next()
		if !ok || next.At > until {
			break
		}
		res, _ := c.step()
		out = append(out, res.Kept())
	}
	c.k.Advance(until - c.k.Now())
	return out
}

// runUntil steps until done holds, checking the queue after every step, and
// fails the test if the agenda runs dry or 100,000 steps pass first.
func (c *checked) runUntil(what string, done func() bool) {
	c.t.Helper()
	for n := 0; !done(); n++ {
		if n == 100_000 {
			c.t.Fatalf("%s: still not done after %d steps", what, n)
		}
		if _, ok := c.step(); !ok {
			c.t.Fatalf("%s: the agenda ran dry first; queue: %+v", what, c.view())
		}
	}
}

// settle steps until no foreground event is left, checking after each step.
func (c *checked) settle() {
	c.t.Helper()
	c.runUntil("settle", func() bool { return !c.k.Busy() })
}

// worker is a logical worker: a kernel component that loops as a
// controller's processNextWorkItem does. It Gets a key, "processes" it for
// work (a kernel timer), Dones it and Gets again; finding nothing, it goes
// idle until the queue wakes it; told the queue is shut down, it exits. Where
// an upstream test runs a goroutine that blocks in Get, ours registers one of
// these.
type worker struct {
	name string
	q    *checked
	work time.Duration

	// onGet, if set, runs with each key the worker gets, while it holds it.
	onGet func(w *worker, key string)

	// What the worker did, for assertions.
	holding string
	busy    bool
	got     []string
	wakes   int
	exited  bool
}

type workerState struct {
	holding      string
	busy, exited bool
	got          []string
	wakes        int
}

func (w *worker) Handle(ctx *sim.Context, ev sim.Event) sim.Report {
	switch ev.Kind {
	case "start":
	case KindWake:
		w.wakes++
	case "finish":
		w.q.Done(w.holding)
		w.holding, w.busy = "", false
	default:
		return sim.Report{Summary: sim.Text("ignored " + ev.Kind)}
	}
	return w.next(ctx)
}

func (w *worker) next(ctx *sim.Context) sim.Report {
	if w.exited {
		return sim.Report{Summary: sim.Text("has exited")}
	}
	if w.busy {
		return sim.Report{Summary: sim.Text("is still processing " + w.holding)}
	}
	key, ok, shutdown := w.q.Get(w.name)
	switch {
	case shutdown:
		w.exited = true
		return sim.Report{Models: "processNextWorkItem", Summary: sim.Text("the queue is shut down; exiting")}
	case !ok:
		return sim.Report{Models: "processNextWorkItem", Summary: sim.Text("nothing to do; idle")}
	}
	w.holding, w.busy = key, true
	w.got = append(w.got, key)
	if w.onGet != nil {
		w.onGet(w, key)
	}
	ctx.After(w.work, w.name, "finish", nil)
	return sim.Report{Models: "processNextWorkItem", Summary: sim.Text("got " + key)}
}

func (w *worker) Snapshot() any {
	return workerState{holding: w.holding, busy: w.busy, exited: w.exited, got: slices.Clone(w.got), wakes: w.wakes}
}

func (w *worker) Restore(s any) {
	st := s.(workerState)
	w.holding, w.busy, w.exited, w.got, w.wakes = st.holding, st.busy, st.exited, slices.Clone(st.got), st.wakes
}

// recorder is a component that only notes the events it receives, as
// "kind@time": a drain waiter, or a worker whose wakes a test counts.
type recorder struct{ seen []string }

func (r *recorder) Handle(ctx *sim.Context, ev sim.Event) sim.Report {
	r.seen = append(r.seen, ev.Kind+"@"+ctx.Now().String())
	return sim.Report{Summary: sim.Text("noted " + ev.Kind)}
}

func (r *recorder) Snapshot() any { return slices.Clone(r.seen) }
func (r *recorder) Restore(s any) { r.seen = slices.Clone(s.([]string)) }

func mustRegister(t testing.TB, k *sim.Kernel, name string, c sim.Component) {
	t.Helper()
	if err := k.Register(name, c); err != nil {
		t.Fatal(err)
	}
}
