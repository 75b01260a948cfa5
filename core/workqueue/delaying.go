package workqueue

import (
	"math"
	"time"

	"github.com/reconcilelab/rlab/core/sim"
)

// DelayingInterface is a queue that can also add a key later, upstream's
// TypedDelayingInterface: a failing key waits a while before it is retried,
// instead of spinning in a hot loop.
type DelayingInterface interface {
	Interface
	AddAfter(key string, d time.Duration) Outcome
}

var (
	_ DelayingInterface = (*DelayingQueue)(nil)
	_ sim.Component     = (*DelayingQueue)(nil)
	_ sim.Snapshotter   = (*DelayingQueue)(nil)
	_ sim.Describer     = (*DelayingQueue)(nil)
)

// DelayingQueue is a Queue whose AddAfter holds a key back until a moment on
// the kernel's clock. It is a kernel component: register it under
// Config.ComponentName. It keeps one kernel timer, armed for the earliest
// delayed key; when the timer fires, that key moves into the queue, where the
// usual rules apply (a key already waiting keeps its place, a key being
// processed is marked dirty).
//
// Upstream runs a goroutine, waitingLoop, that sleeps until the earliest
// ready time, a new delayed key, or a 10-second heartbeat. The heartbeat is
// insurance against a timer that fires late; the kernel's timers fire exactly
// when due, so a heartbeat would never find a due key left behind, and it is
// not modelled.
type DelayingQueue struct {
	*Queue

	// component is the queue's kernel component name, "queue/" + name: its
	// timer events are addressed to it, and its reports are signed with it.
	component string

	// waiting holds the delayed keys. It is empty once the queue is
	// shutting down: upstream's waitingLoop exits then, and what it held is
	// dropped.
	waiting waitHeap

	// seq numbers AddAfter requests, to break ties between keys due at the
	// same instant (see waitFor.seq).
	seq uint64

	// armed says a kernel timer is pending for this queue, with Seq timer,
	// at timerAt. It is armed exactly when waiting is not empty, and then
	// timerAt is the head's readyAt.
	armed   bool
	timer   uint64
	timerAt time.Duration

	// quiet counts the delayed keys marked quiet; timerQuiet says the
	// armed timer is a background event, which it is exactly when every
	// delayed key is quiet.
	quiet      int
	timerQuiet bool
}

// NewDelaying returns an empty delaying queue. cfg.Scheduler is required: the
// kernel is the queue's clock and runs its timer, and a queue without one is
// a wiring mistake that NewDelaying reports by panicking.
func NewDelaying(cfg Config) *DelayingQueue {
	if cfg.Scheduler == nil {
		panic("workqueue: NewDelaying needs Config.Scheduler: the kernel is the delaying queue's clock and runs its timer")
	}
	return &DelayingQueue{
		Queue:     New(cfg),
		component: cfg.ComponentName(),
		waiting:   newWaitHeap(),
	}
}

// ComponentName returns the name the queue must be registered under.
func (q *DelayingQueue) ComponentName() string { return q.component }

// AddAfter adds key to the queue once d has passed on the kernel's clock. A
// d of zero or less adds it at once, as Add. If key is delayed already, the
// earlier of the two ready times wins: an earlier one replaces the later, a
// later one is dropped. After ShutDown, AddAfter does nothing.
func (q *DelayingQueue) AddAfter(key string, d time.Duration) Outcome {
	return q.addAfter(key, d, false)
}

func (q *DelayingQueue) addAfter(key string, d time.Duration, rateLimited bool) Outcome {
	if q.shuttingDown {
		return Ignored
	}
	if d <= 0 {
		return q.Queue.Add(key)
	}
	now := q.sched.Now()
	readyAt := now + d
	if readyAt < now {
		// A limiter that cannot grant a token answers with the longest
		// duration there is; the sum must not wrap round to the past.
		readyAt = math.MaxInt64
	}
	q.seq++
	if slot, ok := q.waiting.lookup(key); ok {
		// Whatever wait is kept, this add wants the key back, so the
		// wait keeps the world busy again.
		if w := &q.waiting.slots[slot]; w.quiet {
			w.quiet = false
			q.quiet--
			q.rearm()
		}
		if readyAt >= q.waiting.slots[slot].readyAt {
			return DelayKept
		}
		q.waiting.advance(slot, readyAt, q.seq, d, rateLimited)
		q.rearm()
		return DelayShortened
	}
	q.waiting.push(waitFor{key: key, readyAt: readyAt, seq: q.seq, delay: d, rateLimited: rateLimited})
	q.rearm()
	return Delayed
}

// ShutDown shuts the queue down (see Queue.ShutDown) and drops every delayed
// key, as upstream's waitingLoop does when it stops.
func (q *DelayingQueue) ShutDown() {
	q.dropDelayed()
	q.Queue.ShutDown()
}

// ShutDownWithDrain shuts the queue down with a drain (see
// Queue.ShutDownWithDrain) and drops every delayed key. Upstream's
// waitingLoop notices the shutdown the next time it wakes and exits without
// adding anything, so its delayed keys are lost as well.
func (q *DelayingQueue) ShutDownWithDrain(waiter string) bool {
	q.dropDelayed()
	return q.Queue.ShutDownWithDrain(waiter)
}

func (q *DelayingQueue) dropDelayed() {
	q.waiting.reset()
	q.quiet = 0
	q.disarm()
}

// Quiet marks key's delayed add, if it has one, as a wait that does not keep
// the world busy: the kernel's Stabilize may stop before it is due, as it
// stops before a periodic timer (the key still comes back in its turn, if
// the clock gets there). A later AddAfter or AddRateLimited of the key makes
// its wait busy again. It reports whether it quieted a busy wait: false
// when key is not waiting, or its wait is quiet already.
//
// The Deployment controller uses it for its progress checks: a rollout that
// completes leaves behind a check queued for when its deadline would have
// passed, minutes later, and a world whose rollouts are done is at rest, not
// waiting for checks that can change nothing.
func (q *DelayingQueue) Quiet(key string) bool {
	slot, ok := q.waiting.lookup(key)
	if !ok {
		return false
	}
	w := &q.waiting.slots[slot]
	if w.quiet {
		return false
	}
	w.quiet = true
	q.quiet++
	q.rearm()
	return true
}

// Handle runs the queue's timer: the earliest delayed key is due, and moves
// into the queue. Keys due at the same instant move one per step, in order,
// so that each step says what became of one key.
func (q *DelayingQueue) Handle(ctx *sim.Context, ev sim.Event) sim.Report {
	rep := sim.Report{Actor: q.component, Models: "waitingLoop"}
	if ev.Kind != KindTimer || !q.armed || ev.Seq != q.timer {
		// The queue cancels a timer whenever it re-arms, so this is an
		// event it never asked for; say so rather than act on it.
		rep.Summary = sim.Say(formNotOurTimer, ev.Kind)
		return rep
	}
	q.armed = false
	if q.waiting.len() == 0 || q.waiting.head().readyAt > ctx.Now() {
		q.rearm()
		rep.Summary = sim.Text("the timer fired with no delayed key due")
		return rep
	}
	w := q.waiting.pop()
	if w.quiet {
		q.quiet--
	}
	out, woken := q.Queue.add(w.key)
	q.rearm()
	rep.Summary = q.dueSummary(w, out, woken)
	rep.Touched = q.touched(w.key)
	return rep
}

var formNotOurTimer = &sim.Form{Text: "ignored a %s event that is not the queue's pending timer"}

func init() { sim.Register(formNotOurTimer) }

// Describe says what the queue's pending timer will do, for the agenda view.
func (q *DelayingQueue) Describe(ev sim.Event) string {
	if ev.Kind == KindTimer && q.armed && ev.Seq == q.timer && q.waiting.len() > 0 {
		w := q.waiting.head()
		return w.key + " becomes due after its " + waitText(w.delay, w.rateLimited)
	}
	return q.component + ": " + ev.Kind
}

// rearm keeps the timer on the head of the heap: it cancels a timer set for
// another instant and sets one for the head's readyAt.
func (q *DelayingQueue) rearm() {
	if q.waiting.len() == 0 {
		q.disarm()
		return
	}
	at := q.waiting.head().readyAt
	quiet := q.quiet == q.waiting.len()
	if q.armed && q.timerAt == at && q.timerQuiet == quiet {
		return
	}
	q.disarm()
	if quiet {
		q.timer = q.sched.Background(at-q.sched.Now(), q.component, KindTimer, nil)
	} else {
		q.timer = q.sched.After(at-q.sched.Now(), q.component, KindTimer, nil)
	}
	q.timerAt, q.armed, q.timerQuiet = at, true, quiet
}

func (q *DelayingQueue) disarm() {
	if q.armed {
		q.sched.Cancel(q.timer)
		q.armed = false
	}
}

// delayingState is a DelayingQueue's snapshot.
type delayingState struct {
	queue   queueState
	waiting waitHeap
	seq     uint64
	armed   bool
	timer   uint64
	timerAt time.Duration

	quiet      int
	timerQuiet bool
}

func (q *DelayingQueue) delayingState() delayingState {
	return delayingState{
		queue:      q.Queue.state(),
		waiting:    q.waiting.clone(),
		seq:        q.seq,
		armed:      q.armed,
		timer:      q.timer,
		timerAt:    q.timerAt,
		quiet:      q.quiet,
		timerQuiet: q.timerQuiet,
	}
}

func (q *DelayingQueue) setDelayingState(s delayingState) {
	q.Queue.setState(s.queue)
	q.waiting = s.waiting.clone()
	q.seq, q.armed, q.timer, q.timerAt = s.seq, s.armed, s.timer, s.timerAt
	q.quiet, q.timerQuiet = s.quiet, s.timerQuiet
}

// Snapshot captures the queue and its delayed keys (sim.Snapshotter). The
// pending timer is the kernel's to capture: it is an event on the agenda.
func (q *DelayingQueue) Snapshot() any { return q.delayingState() }

// Restore brings the queue back to a Snapshot of it (sim.Snapshotter).
func (q *DelayingQueue) Restore(s any) { q.setDelayingState(s.(delayingState)) }
