package workqueue

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/sim"
)

// The first tests reproduce client-go's queue_test.go (spec §5.4, items
// 42–50) on the kernel. Where upstream starts goroutines that block in Get,
// these register logical workers; "blocks" means the worker sits idle until
// the queue wakes it with an event.

// newPlainWorld returns a kernel with a plain queue on it, and a recorder
// registered as "main" to stand for the caller of ShutDownWithDrain.
func newPlainWorld(t *testing.T) (*sim.Kernel, *checked, *recorder) {
	t.Helper()
	k := sim.New(1)
	main := &recorder{}
	mustRegister(t, k, "main", main)
	return k, checkPlain(t, k, New(Config{Name: "test", Scheduler: k})), main
}

// startWorkers registers n workers named worker-0… that take work to process
// each key, and starts them at the current time.
func startWorkers(t *testing.T, k *sim.Kernel, q *checked, n int, work time.Duration) []*worker {
	t.Helper()
	workers := make([]*worker, n)
	for i := range workers {
		w := &worker{name: "worker-" + strconv.Itoa(i), q: q, work: work}
		mustRegister(t, k, w.name, w)
		k.After(0, w.name, "start", nil)
		workers[i] = w
	}
	return workers
}

func allExited(workers []*worker) func() bool {
	return func() bool {
		for _, w := range workers {
			if !w.exited {
				return false
			}
		}
		return true
	}
}

// producer adds its key every millisecond, rounds times.
type producer struct {
	key    string
	q      *checked
	rounds int
	added  int
}

func (p *producer) Handle(ctx *sim.Context, ev sim.Event) sim.Report {
	p.q.Add(p.key)
	p.added++
	if p.added < p.rounds {
		ctx.After(time.Millisecond, "producer-"+p.key, "produce", nil)
	}
	return sim.Report{Summary: sim.Text("added " + p.key)}
}

func (p *producer) Snapshot() any { return p.added }
func (p *producer) Restore(s any) { p.added = s.(int) }

func startProducers(t *testing.T, k *sim.Kernel, q *checked, n, rounds int) []*producer {
	t.Helper()
	producers := make([]*producer, n)
	for i := range producers {
		p := &producer{key: strconv.Itoa(i), q: q, rounds: rounds}
		mustRegister(t, k, "producer-"+p.key, p)
		k.After(0, "producer-"+p.key, "produce", nil)
		producers[i] = p
	}
	return producers
}

func producersDone(producers []*producer) func() bool {
	return func() bool {
		for _, p := range producers {
			if p.added < p.rounds {
				return false
			}
		}
		return true
	}
}

// shutDowns are the two ways upstream's TestBasic and TestAddWhileProcessing
// shut the queue down.
var shutDowns = []struct {
	name string
	stop func(q *checked) bool // reports whether the queue is drained already
}{
	{"ShutDown", func(q *checked) bool { q.ShutDown(); return true }},
	{"ShutDownWithDrain", func(q *checked) bool { return q.ShutDownWithDrain("main") }},
}

// TestBasic: 50 producers add their key 50 times a millisecond apart while 10
// workers process keys for 3ms each. After the producers finish the queue is
// shut down; an Add after that is never handed out, every worker exits, and
// the queue ends empty.
func TestBasic(t *testing.T) {
	for _, sd := range shutDowns {
		t.Run(sd.name, func(t *testing.T) {
			k, q, main := newPlainWorld(t)
			producers := startProducers(t, k, q, 50, 50)
			workers := startWorkers(t, k, q, 10, 3*time.Millisecond)

			q.runUntil("producers", producersDone(producers))
			drained := sd.stop(q)
			assert.Equal(t, Ignored, q.Add("added after shutdown!"))
			q.runUntil("workers exit", allExited(workers))
			q.settle()

			assert.Zero(t, q.Len())
			processed := map[string]int{}
			for _, w := range workers {
				for _, key := range w.got {
					assert.NotEqual(t, "added after shutdown!", key, "%s got a key added after shutdown", w.name)
					processed[key]++
				}
			}
			for _, p := range producers {
				assert.Contains(t, processed, p.key, "every key is processed at least once")
				assert.LessOrEqual(t, processed[p.key], 50, "no key is processed more often than it was added")
			}
			if sd.name == "ShutDownWithDrain" {
				assert.Equal(t, Drained, q.q.Drain())
				if !drained {
					assert.Len(t, main.seen, 1, "the drain waiter is told once")
				}
			}
		})
	}
}

// TestAddWhileProcessing: every worker adds each key it gets once more while
// processing it, the dirty-while-processing case. Everything still drains.
func TestAddWhileProcessing(t *testing.T) {
	for _, sd := range shutDowns {
		t.Run(sd.name, func(t *testing.T) {
			k, q, _ := newPlainWorld(t)
			producers := startProducers(t, k, q, 50, 1)
			workers := startWorkers(t, k, q, 10, 0)
			for _, w := range workers {
				counters := map[string]int{}
				w.onGet = func(w *worker, key string) {
					counters[key]++
					if counters[key] < 2 {
						out := w.q.Add(key)
						if !w.q.q.ShuttingDown() {
							assert.Equal(t, RequeueAtDone, out, "a key added while processed is marked dirty")
						}
					}
				}
			}

			q.runUntil("producers", producersDone(producers))
			sd.stop(q)
			q.runUntil("workers exit", allExited(workers))
			q.settle()
			assert.Zero(t, q.Len())
		})
	}
}

// TestLen: Len counts waiting keys, once each.
func TestLen(t *testing.T) {
	q := checkPlain(t, nil, New(Config{}))
	assert.Equal(t, Queued, q.Add("foo"))
	assert.Equal(t, 1, q.Len())
	assert.Equal(t, Queued, q.Add("bar"))
	assert.Equal(t, 2, q.Len())
	assert.Equal(t, AlreadyWaiting, q.Add("foo"))
	assert.Equal(t, 2, q.Len(), "adding a waiting key again must not lengthen the queue")
}

// TestReinsert: a key added while being processed comes back at Done.
func TestReinsert(t *testing.T) {
	q := checkPlain(t, nil, New(Config{}))
	q.Add("foo")
	key, ok, _ := q.Get("worker-1")
	require.True(t, ok)
	require.Equal(t, "foo", key)

	assert.Equal(t, RequeueAtDone, q.Add(key))
	assert.Zero(t, q.Len(), "a key being processed does not wait in the queue")
	assert.True(t, q.Done(key))

	key, ok, _ = q.Get("worker-1")
	require.True(t, ok, "Done puts a dirty key back")
	assert.Equal(t, "foo", key)
	assert.True(t, q.Done(key))
	assert.Zero(t, q.Len())
}

// TestCollapse: two Adds of a new key give one Get. Upstream checks that the
// second Add touched the waiting key; here that is its Outcome.
func TestCollapse(t *testing.T) {
	q := checkPlain(t, nil, New(Config{}))
	assert.Equal(t, Queued, q.Add("bar"))
	assert.Equal(t, AlreadyWaiting, q.Add("bar"), "the second Add touches the waiting key")

	key, ok, _ := q.Get("worker-1")
	require.True(t, ok)
	assert.Equal(t, "bar", key)
	q.Done(key)
	assert.Zero(t, q.Len())
	_, ok, _ = q.Get("")
	assert.False(t, ok, "bar came out once")
}

// TestCollapseWhileProcessing: foo is being processed and is added twice. A
// second worker's Get blocks (the worker goes idle) until the first calls
// Done, then gets foo exactly once. Neither Add touched a waiting key.
func TestCollapseWhileProcessing(t *testing.T) {
	k, q, _ := newPlainWorld(t)
	q.Add("foo")
	key, ok, _ := q.Get("worker-1")
	require.True(t, ok)
	require.Equal(t, "foo", key)

	assert.Equal(t, RequeueAtDone, q.Add("foo"), "no touch: foo is not waiting")
	assert.Equal(t, AlreadyRequeueAtDone, q.Add("foo"), "no touch: foo is not waiting")

	second := &worker{name: "worker-2", q: q, work: time.Millisecond}
	mustRegister(t, k, second.name, second)
	k.After(0, second.name, "start", nil)
	q.settle()
	assert.Empty(t, second.got, "the second worker must block until the first is done")
	assert.Equal(t, []string{"worker-2"}, q.q.IdleWorkers())

	q.Done("foo")
	q.settle()
	assert.Equal(t, []string{"foo"}, second.got, "the second worker gets foo once Done puts it back")
	assert.Equal(t, 1, second.wakes)
	assert.Zero(t, q.Len())
}

// TestQueueDrainageUsingShutDownWithDrain: with two keys being processed,
// ShutDownWithDrain waits (Draining) until both are Done; Get reports
// shutdown meanwhile. The drain ends at the Done of the last key.
func TestQueueDrainageUsingShutDownWithDrain(t *testing.T) {
	k, q, main := newPlainWorld(t)
	q.Add("foo")
	q.Add("bar")
	first, _, _ := q.Get("worker-1")
	second, _, _ := q.Get("worker-2")

	assert.False(t, q.ShutDownWithDrain("main"), "ShutDownWithDrain must wait for keys being processed")
	assert.True(t, q.q.Draining())
	_, ok, shutdown := q.Get("worker-3")
	assert.False(t, ok)
	assert.True(t, shutdown, "Get reports shutdown while draining an empty queue")

	k.Advance(time.Second)
	q.Done(first)
	assert.True(t, q.q.Draining(), "one key is still being processed")
	q.settle()
	assert.Empty(t, main.seen)

	q.Done(second)
	assert.True(t, q.q.Drained(), "the drain finishes at the Done of the last key")
	q.settle()
	assert.Equal(t, []string{KindDrained + "@1s"}, main.seen)
}

// TestNoQueueDrainageUsingShutDown: ShutDown returns at once, with keys still
// being processed.
func TestNoQueueDrainageUsingShutDown(t *testing.T) {
	_, q, main := newPlainWorld(t)
	q.Add("foo")
	q.Add("bar")
	q.Get("worker-1")
	q.Get("worker-2")

	q.ShutDown()
	assert.True(t, q.q.ShuttingDown())
	assert.Equal(t, NotDraining, q.q.Drain(), "ShutDown does not wait for anything")
	assert.Len(t, q.view().Processing, 2, "the keys being processed are still held")
	q.settle()
	assert.Empty(t, main.seen)
}

// TestForceQueueShutdownUsingShutDown: a ShutDown after ShutDownWithDrain
// ends the drain without waiting for the keys being processed.
func TestForceQueueShutdownUsingShutDown(t *testing.T) {
	_, q, main := newPlainWorld(t)
	q.Add("foo")
	q.Add("bar")
	q.Get("worker-1")
	q.Get("worker-2")

	require.False(t, q.ShutDownWithDrain("main"))
	_, _, shutdown := q.Get("worker-3")
	require.True(t, shutdown)

	q.ShutDown()
	assert.Equal(t, DrainAborted, q.q.Drain())
	q.settle()
	assert.Equal(t, []string{KindDrainAborted + "@0s"}, main.seen, "the drain waiter is released")
}

// TestQueueDrainageUsingShutDownWithDrainWithDirtyItem: a key added again
// while processed is handed out again after Done, even while draining; only
// once it is done too does Get report shutdown.
//
// Upstream's drain returns at the first Done, when processing is empty for a
// moment although the key is back in the queue; the model follows it, and
// the test pins that down.
func TestQueueDrainageUsingShutDownWithDrainWithDirtyItem(t *testing.T) {
	_, q, main := newPlainWorld(t)
	q.Add("foo")
	gotten, _, _ := q.Get("worker-1")
	q.Add("foo")

	require.False(t, q.ShutDownWithDrain("main"))
	_, _, shutdown := q.Get("worker-2")
	require.True(t, shutdown, "the queue is empty: foo is being processed, not waiting")

	q.Done(gotten)
	assert.True(t, q.q.Drained(), "processing is empty, so the drain is over")
	again, ok, shutdown := q.Get("worker-2")
	require.True(t, ok, "Done put foo back, so Get hands it out rather than report shutdown")
	assert.False(t, shutdown)
	assert.Equal(t, "foo", again)
	q.Done(again)

	_, ok, shutdown = q.Get("worker-2")
	assert.False(t, ok)
	assert.True(t, shutdown, "now we are really done")
	q.settle()
	assert.Equal(t, []string{KindDrained + "@0s"}, main.seen)
}

// The tests below pin down what the synchronous model adds: idle workers and
// the events that wake them.

func TestIdleWorkersAreWokenLongestWaitingFirst(t *testing.T) {
	k, q, _ := newPlainWorld(t)
	a, b := &recorder{}, &recorder{}
	mustRegister(t, k, "worker-a", a)
	mustRegister(t, k, "worker-b", b)

	_, ok, shutdown := q.Get("worker-a")
	require.False(t, ok)
	require.False(t, shutdown)
	q.Get("worker-b")
	q.Get("worker-a") // asking again keeps its place in line
	assert.Equal(t, []string{"worker-a", "worker-b"}, q.q.IdleWorkers())

	q.Add("default/web")
	assert.Equal(t, []string{"worker-b"}, q.q.IdleWorkers(), "one key wakes one worker, as cond.Signal")
	next, ok := k.Next()
	require.True(t, ok)
	assert.Equal(t, sim.Event{At: 0, Seq: next.Seq, To: "worker-a", Kind: KindWake, Data: "test"}, next)

	q.Add("default/db")
	assert.Empty(t, q.q.IdleWorkers())
	q.settle()
	assert.Equal(t, []string{KindWake + "@0s"}, a.seen)
	assert.Equal(t, []string{KindWake + "@0s"}, b.seen)
}

func TestWokenWorkerMayFindTheKeyTaken(t *testing.T) {
	k, q, _ := newPlainWorld(t)
	slow := &recorder{}
	mustRegister(t, k, "worker-slow", slow)
	q.Get("worker-slow")
	q.Add("default/web") // wakes worker-slow…
	key, ok, _ := q.Get("worker-fast")
	require.True(t, ok, "…but another worker asks first")
	assert.Equal(t, "default/web", key)

	q.settle()
	_, ok, _ = q.Get("worker-slow")
	assert.False(t, ok, "the woken worker finds nothing and goes idle again, as a woken goroutine does")
	assert.Equal(t, []string{"worker-slow"}, q.q.IdleWorkers())
}

func TestDoneRequeueWakesAnIdleWorker(t *testing.T) {
	k, q, _ := newPlainWorld(t)
	idle := &recorder{}
	mustRegister(t, k, "worker-2", idle)
	q.Add("default/web")
	q.Get("worker-1")
	q.Get("worker-2")
	q.Add("default/web")
	assert.Equal(t, []string{"worker-2"}, q.q.IdleWorkers(), "a key marked dirty while processed wakes nobody yet")
	q.Done("default/web")
	assert.Empty(t, q.q.IdleWorkers(), "Done put the key back and woke worker-2")
	q.settle()
	assert.Equal(t, []string{KindWake + "@0s"}, idle.seen)
}

func TestShutDownWakesEveryIdleWorker(t *testing.T) {
	for _, sd := range shutDowns {
		t.Run(sd.name, func(t *testing.T) {
			k, q, _ := newPlainWorld(t)
			workers := startWorkers(t, k, q, 3, time.Millisecond)
			q.settle()
			require.Len(t, q.q.IdleWorkers(), 3)

			sd.stop(q)
			assert.Empty(t, q.q.IdleWorkers())
			q.settle()
			assert.True(t, allExited(workers)(), "each woken worker finds the queue shut down and exits")
			_, _, shutdown := q.Get("worker-0")
			assert.True(t, shutdown)
			assert.Empty(t, q.q.IdleWorkers(), "Get never registers an idle worker after shutdown")
		})
	}
}

func TestKeysWaitingAtShutDownAreStillHandedOut(t *testing.T) {
	q := checkPlain(t, nil, New(Config{}))
	q.Add("default/a")
	q.Add("default/b")
	q.ShutDown()
	assert.Equal(t, Ignored, q.Add("default/c"))
	for _, want := range []string{"default/a", "default/b"} {
		key, ok, shutdown := q.Get("worker-1")
		assert.True(t, ok)
		assert.False(t, shutdown)
		assert.Equal(t, want, key)
	}
	_, ok, shutdown := q.Get("worker-1")
	assert.False(t, ok)
	assert.True(t, shutdown)
}

func TestDoneOfAKeyNotBeingProcessedIsRefused(t *testing.T) {
	q := checkPlain(t, nil, New(Config{}))
	assert.False(t, q.Done("default/unknown"))
	q.Add("default/web")
	assert.False(t, q.Done("default/web"), "upstream would queue a second copy of a waiting key here")
	assert.Equal(t, []string{"default/web"}, q.view().Waiting)
	key, _, _ := q.Get("worker-1")
	assert.True(t, q.Done(key))
	assert.False(t, q.Done(key), "a second Done is refused")
}

func TestGetWithoutASchedulerOrANameOnlyPolls(t *testing.T) {
	q := checkPlain(t, nil, New(Config{}))
	_, ok, shutdown := q.Get("worker-1")
	assert.False(t, ok)
	assert.False(t, shutdown)
	assert.Empty(t, q.q.IdleWorkers(), "nobody could wake a worker on a queue without a kernel")

	k, kq, _ := newPlainWorld(t)
	kq.Get("")
	assert.Empty(t, kq.q.IdleWorkers(), "an anonymous Get is a poll")
	assert.False(t, k.Pending())
}

func TestShutDownWithDrainWithNothingProcessingIsDrainedAtOnce(t *testing.T) {
	_, q, main := newPlainWorld(t)
	q.Add("default/web") // waiting keys are not waited for: only processing ones
	assert.True(t, q.ShutDownWithDrain("main"))
	assert.True(t, q.q.Drained())
	q.settle()
	assert.Empty(t, main.seen, "a drain that never waited sends no event: the caller knows from the result")
}

func TestOutcomeAndDrainStateNames(t *testing.T) {
	assert.Equal(t, "already waiting", AlreadyWaiting.String())
	assert.Equal(t, "Outcome(99)", Outcome(99).String())
	assert.Equal(t, "draining", Draining.String())
	assert.Equal(t, "DrainState(9)", DrainState(9).String())
	assert.Equal(t, "queue/replicaset", Config{Name: "replicaset"}.ComponentName())
	assert.Equal(t, "replicaset", New(Config{Name: "replicaset"}).Name())
}
