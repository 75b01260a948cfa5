package workqueue

import (
	"slices"

	"github.com/reconcilelab/rlab/core/sim"
)

// Event kinds the queues schedule on the kernel. Workers and drain waiters
// match on them in their Handle.
const (
	// KindWake is sent to an idle worker when a key it may take has arrived,
	// or when the queue shuts down: upstream's cond.Signal and
	// cond.Broadcast. The event's Data is the queue's name. A woken worker
	// calls Get again; it may find that another worker was quicker, and then
	// it goes idle again, as a woken goroutine does upstream.
	KindWake = "wake"

	// KindDrained is sent to each caller of ShutDownWithDrain when the drain
	// has finished: the moment upstream's ShutDownWithDrain would return.
	// The event's Data is the queue's name.
	KindDrained = "drained"

	// KindDrainAborted is sent to each caller of ShutDownWithDrain when a
	// plain ShutDown cut the drain short. Upstream's ShutDownWithDrain
	// returns in that case too; the separate kind lets a learner see why.
	KindDrainAborted = "drain-aborted"

	// KindTimer is the delaying queue's own timer, armed for the earliest
	// delayed key.
	KindTimer = "timer"
)

// Interface is the basic queue's contract, upstream's TypedInterface made
// synchronous: Get does not block, and the callers that would block name
// themselves so that the queue can wake them with a kernel event.
type Interface interface {
	Add(key string) Outcome
	Len() int
	Get(worker string) (key string, ok, shutdown bool)
	Done(key string) bool
	ShutDown()
	ShutDownWithDrain(waiter string) bool
	ShuttingDown() bool
}

var (
	_ Interface       = (*Queue)(nil)
	_ sim.Snapshotter = (*Queue)(nil)
)

// Config says how to build a queue. The zero value builds a plain Queue that
// no kernel drives: it adds, hands out and finishes keys, but it cannot wake
// an idle worker, and it cannot delay a key.
type Config struct {
	// Name is the queue's name; upstream names a controller's queue after
	// the controller ("replicaset"). The delaying and rate-limiting queues
	// are kernel components named "queue/" + Name (see ComponentName), and
	// every event a queue sends carries Name as its Data.
	Name string

	// Scheduler is the kernel the queue lives on: its clock, and where it
	// schedules wake events for idle workers, drained events for drain
	// waiters and the delaying queue's timer. NewDelaying and
	// NewRateLimiting require it; a plain Queue without one never registers
	// idle workers, because nothing could wake them.
	Scheduler sim.Scheduler

	// Kind is the kind of object the keys name ("rs", "rc"), so that a step
	// can name the object it touched for the page to highlight: a key
	// "namespace/name" names a namespaced object, a bare name a
	// cluster-scoped one. Empty leaves Report.Touched empty.
	Kind string
}

// ComponentName returns the name under which the delaying or rate-limiting
// queue built from cfg must be registered on the kernel: "queue/" + Name.
func (cfg Config) ComponentName() string { return "queue/" + cfg.Name }

// Outcome says what an Add, AddAfter or AddRateLimited did with its key, so
// that the caller's report can tell a learner ("default/web is already
// waiting; the add is merged"). Upstream's methods return nothing; ours
// return this small value for free.
type Outcome uint8

const (
	// Ignored: the queue is shutting down and takes no new keys.
	Ignored Outcome = iota
	// Queued: the key was not known; it is dirty now and waits at the back
	// of the queue.
	Queued
	// AlreadyWaiting: the key was waiting in the queue already and keeps its
	// place. Upstream calls Touch on its pluggable queue here.
	AlreadyWaiting
	// RequeueAtDone: a worker is processing the key. It is marked dirty and
	// goes back in the queue when the worker calls Done, so that no two
	// workers ever hold it at once and the add is not lost.
	RequeueAtDone
	// AlreadyRequeueAtDone: a worker is processing the key and it was marked
	// dirty already; nothing changes.
	AlreadyRequeueAtDone
	// Delayed: AddAfter put the key in the delayed heap.
	Delayed
	// DelayShortened: the key was delayed already, until later; the earlier
	// ready time replaces the later one.
	DelayShortened
	// DelayKept: the key was delayed already, until no later than asked; the
	// earlier ready time stays and this request is dropped.
	DelayKept
)

// AddedWords says, after a key in a handler's sentence, what Add did with
// it: a choice hole of sim.Form, given the Outcome as its number. A key that
// joined the queue needs no words; "default/web (already waiting in the
// queue)" says that the add merged with one waiting.
const AddedWords = "%[ (the queue is shutting down: ignored)|" + // Ignored
	"|" + // Queued
	" (already waiting in the queue)|" + // AlreadyWaiting
	" (a worker holds it: it goes back in the queue at Done)|" + // RequeueAtDone
	" (already marked to go back in the queue at Done)]" // AlreadyRequeueAtDone

var outcomeNames = [...]string{
	Ignored:              "ignored (shutting down)",
	Queued:               "queued",
	AlreadyWaiting:       "already waiting",
	RequeueAtDone:        "marked dirty; requeued at Done",
	AlreadyRequeueAtDone: "already marked dirty; requeued at Done",
	Delayed:              "delayed",
	DelayShortened:       "delay shortened",
	DelayKept:            "earlier delay kept",
}

func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "Outcome(" + itoa(int(o)) + ")"
}

// DrainState is where a ShutDownWithDrain stands.
type DrainState uint8

const (
	// NotDraining: no ShutDownWithDrain has been called.
	NotDraining DrainState = iota
	// Draining: ShutDownWithDrain is waiting for the keys being processed
	// to be Done. Upstream's caller is blocked all this time.
	Draining
	// Drained: processing became empty while draining (or was empty when
	// ShutDownWithDrain was called); upstream's ShutDownWithDrain returned.
	Drained
	// DrainAborted: a plain ShutDown ended the drain before processing
	// became empty; upstream's ShutDownWithDrain returned early.
	DrainAborted
)

var drainNames = [...]string{
	NotDraining:  "not draining",
	Draining:     "draining",
	Drained:      "drained",
	DrainAborted: "drain aborted",
}

func (d DrainState) String() string {
	if int(d) < len(drainNames) {
		return drainNames[d]
	}
	return "DrainState(" + itoa(int(d)) + ")"
}

// Queue is client-go's work queue as a synchronous state machine: keys wait
// in the order they were first added, a key is held once however often it is
// added, and a key a worker holds is not handed to another until Done.
//
// Queue is not a kernel component: it only acts when called. It implements
// sim.Snapshotter so that its owner can capture it; the delaying and
// rate-limiting queues, which are components, do so for theirs.
type Queue struct {
	// name, kind and sched come from Config and never change.
	name  string
	kind  string
	sched sim.Scheduler

	// nameData is name as an interface value, boxed once, so that sending a
	// wake event does not allocate.
	nameData any

	// table holds a record for every key that is dirty, processing or both
	// (upstream's dirty and processing sets, merged). A key that is neither
	// has no record: Done forgets a finished key entirely, which keeps the
	// table no larger than the work outstanding.
	table keyTable

	// queue is the FIFO of keys ready to hand out, as record numbers. Every
	// key in it is dirty and not processing, and every such key is in it
	// exactly once.
	queue fifo

	// processing counts the keys that are processing, so that Done can tell
	// in constant time that a drain has finished.
	processing int

	// idle lists the workers that found nothing to Get, longest waiting
	// first: the goroutines that would be blocked in upstream's Get. A
	// worker appears at most once, and never while the queue is shutting
	// down (ShutDown wakes them all, and Get then reports shutdown instead
	// of registering).
	idle []string

	// shuttingDown is upstream's flag of the same name: set by ShutDown and
	// ShutDownWithDrain, never cleared. Adds are ignored from then on.
	shuttingDown bool

	// drain is where a ShutDownWithDrain stands; it is NotDraining until
	// one is called, and Draining only while processing is not empty.
	drain DrainState

	// drainWaiters are the callers of ShutDownWithDrain waiting for the
	// drain to end, in the order they called. It is empty unless drain is
	// Draining.
	drainWaiters []string
}

// New returns an empty queue.
func New(cfg Config) *Queue {
	return &Queue{
		name:     cfg.Name,
		kind:     cfg.Kind,
		sched:    cfg.Scheduler,
		nameData: cfg.Name,
	}
}

// Name returns the queue's name.
func (q *Queue) Name() string { return q.name }

// Add marks key as needing processing. A key that is not known goes to the
// back of the queue, and the longest-idle worker is woken to take it. A key
// that is waiting already keeps its place. A key that a worker is processing
// is marked dirty, and Done puts it back in the queue. After ShutDown, Add
// does nothing. The Outcome says which of these happened.
func (q *Queue) Add(key string) Outcome {
	out, _ := q.add(key)
	return out
}

// add is Add, also returning the worker it woke ("" for none), for the
// delaying queue's report.
func (q *Queue) add(key string) (Outcome, string) {
	if q.shuttingDown {
		return Ignored, ""
	}
	r, inserted := q.table.findOrInsert(key)
	if inserted {
		q.table.state[r] = stateDirty
		q.queue.push(r)
		return Queued, q.wakeOne()
	}
	// A known key is dirty, processing, or both.
	switch st := q.table.state[r]; {
	case !st.processing():
		return AlreadyWaiting, ""
	case st.dirty():
		return AlreadyRequeueAtDone, ""
	}
	q.table.state[r] |= stateDirty
	return RequeueAtDone, ""
}

// Len returns the number of keys waiting in the queue, not counting those
// being processed or delayed, as upstream's Len does.
func (q *Queue) Len() int { return q.queue.len() }

// Get hands the key at the front of the queue to worker, which must call
// Done with it when finished.
//
// It never blocks. When a key is waiting, Get returns it with ok set. When
// none is and the queue is shutting down, it returns shutdown set: the
// worker should stop, as upstream's worker goroutines return. Otherwise the
// worker is registered as idle, and the queue will send it a KindWake event
// when a key arrives or the queue shuts down; the worker then calls Get
// again. Keys still waiting at shutdown are handed out as usual: shutdown is
// only reported once the queue is empty.
//
// worker is the kernel component name of the caller. An empty name polls
// without registering, as does every Get on a queue without a Scheduler.
func (q *Queue) Get(worker string) (key string, ok, shutdown bool) {
	if q.queue.len() == 0 {
		if q.shuttingDown {
			return "", false, true
		}
		if worker != "" && q.sched != nil && !slices.Contains(q.idle, worker) {
			q.idle = append(q.idle, worker)
		}
		return "", false, false
	}
	// Every key in the queue is dirty and not processing; it becomes
	// processing and not dirty.
	r := q.queue.pop()
	q.table.state[r] = stateProcessing
	q.table.worker[r] = worker
	q.processing++
	if len(q.idle) > 0 {
		// A worker that registered as idle and then found a key by another
		// way (a Get of its own) is not idle any more.
		q.idle = removeName(q.idle, worker)
	}
	return q.table.key[r], true, false
}

// Done marks key as processed. If it was added again meanwhile, it goes to
// the back of the queue, and an idle worker is woken to take it. Done reports
// whether key was being processed; for any other key it does nothing.
//
// Upstream's Done trusts its caller: for a key that is waiting rather than
// being processed, it would put a second copy of the key in the queue, and
// two workers could then hold it at once. Refusing keeps the guarantee.
func (q *Queue) Done(key string) bool {
	r, slot, known := q.table.find(key)
	if !known || !q.table.state[r].processing() {
		return false
	}
	q.processing--
	if q.table.state[r].dirty() {
		q.table.state[r], q.table.worker[r] = stateDirty, ""
		q.queue.push(r)
		q.wakeOne()
	} else {
		q.table.removeAt(slot)
	}
	if q.processing == 0 && q.drain == Draining {
		// Upstream's Done signals the condition variable when processing
		// becomes empty, and the blocked ShutDownWithDrain returns. It does
		// so even when this Done has just put a dirty key back in the queue:
		// a drain waits for the keys being processed, not for the queue to
		// empty.
		q.endDrain(Drained, KindDrained)
	}
	return true
}

// ShutDown makes the queue ignore new keys and wakes every idle worker, so
// that each finds out with Get. Keys still waiting are handed out; keys being
// processed are not waited for. A ShutDownWithDrain still waiting is cut
// short: its callers get a KindDrainAborted event.
func (q *Queue) ShutDown() {
	q.shuttingDown = true
	if q.drain == Draining {
		q.endDrain(DrainAborted, KindDrainAborted)
	}
	q.wakeAll()
}

// ShutDownWithDrain shuts the queue down like ShutDown and then waits until
// no key is being processed. Upstream blocks its caller meanwhile; here the
// wait is the Draining state. If nothing is being processed, the drain is
// over at once and ShutDownWithDrain returns true. Otherwise it returns
// false, and waiter (a kernel component name; empty for none) gets a
// KindDrained event at the Done that empties processing, or a
// KindDrainAborted event if a plain ShutDown comes first.
//
// As upstream, workers must go on calling Done for the keys they hold, or
// the drain never ends.
func (q *Queue) ShutDownWithDrain(waiter string) bool {
	q.shuttingDown = true
	q.wakeAll()
	if q.processing == 0 {
		q.drain = Drained
		return true
	}
	q.drain = Draining
	if waiter != "" && !slices.Contains(q.drainWaiters, waiter) {
		q.drainWaiters = append(q.drainWaiters, waiter)
	}
	return false
}

// ShuttingDown reports whether ShutDown or ShutDownWithDrain has been called.
func (q *Queue) ShuttingDown() bool { return q.shuttingDown }

// Drain reports where a ShutDownWithDrain stands.
func (q *Queue) Drain() DrainState { return q.drain }

// Draining reports whether a ShutDownWithDrain is waiting for keys being
// processed.
func (q *Queue) Draining() bool { return q.drain == Draining }

// Drained reports whether the last ShutDownWithDrain has finished because
// processing became empty.
func (q *Queue) Drained() bool { return q.drain == Drained }

// IdleWorkers returns the workers waiting for a key, longest waiting first,
// or nil when none is.
func (q *Queue) IdleWorkers() []string {
	if len(q.idle) == 0 {
		return nil
	}
	return slices.Clone(q.idle)
}

// wakeOne sends KindWake to the longest-idle worker, as cond.Signal wakes
// one blocked goroutine, and returns its name ("" if no worker is idle).
func (q *Queue) wakeOne() string {
	if len(q.idle) == 0 {
		return ""
	}
	w := q.idle[0]
	q.idle = removeName(q.idle, w)
	q.sched.After(0, w, KindWake, q.nameData)
	return w
}

// wakeAll sends KindWake to every idle worker, as cond.Broadcast does.
func (q *Queue) wakeAll() {
	for _, w := range q.idle {
		q.sched.After(0, w, KindWake, q.nameData)
	}
	q.idle = q.idle[:0]
}

// endDrain moves a waiting drain to its final state and tells its waiters.
func (q *Queue) endDrain(state DrainState, kind string) {
	q.drain = state
	if q.sched != nil {
		for _, w := range q.drainWaiters {
			q.sched.After(0, w, kind, q.nameData)
		}
	}
	q.drainWaiters = nil
}

// removeName deletes name from names, keeping the order of the rest.
func removeName(names []string, name string) []string {
	i := slices.Index(names, name)
	if i < 0 {
		return names
	}
	return slices.Delete(names, i, i+1)
}

// queueState is a Queue's snapshot. It shares no array with the queue, so
// it can be restored any number of times.
type queueState struct {
	table        keyTable
	queue        fifo
	processing   int
	idle         []string
	shuttingDown bool
	drain        DrainState
	drainWaiters []string
}

func (q *Queue) state() queueState {
	return queueState{
		table:        q.table.clone(),
		queue:        q.queue.clone(),
		processing:   q.processing,
		idle:         slices.Clone(q.idle),
		shuttingDown: q.shuttingDown,
		drain:        q.drain,
		drainWaiters: slices.Clone(q.drainWaiters),
	}
}

func (q *Queue) setState(s queueState) {
	q.table = s.table.clone()
	q.queue = s.queue.clone()
	q.processing = s.processing
	q.idle = slices.Clone(s.idle)
	q.shuttingDown = s.shuttingDown
	q.drain = s.drain
	q.drainWaiters = slices.Clone(s.drainWaiters)
}

// Snapshot captures the queue (sim.Snapshotter).
func (q *Queue) Snapshot() any { return q.state() }

// Restore brings the queue back to a Snapshot of it (sim.Snapshotter).
func (q *Queue) Restore(s any) { q.setState(s.(queueState)) }
