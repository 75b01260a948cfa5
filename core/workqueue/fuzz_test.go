package workqueue

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/sim"
)

// model is the reference the fuzz test holds the queues to: the rules of spec
// §2, written as plainly as possible on slices, with no thought for speed.
// Where the queue keeps a key table, a ring, a heap and a timer, the model
// keeps lists and searches them.
type model struct {
	now        time.Duration
	waiting    []string // in order
	dirty      []string // in no order
	processing []Held   // in no order
	delayed    []modelDelay
	seq        int
	failures   map[string]int // the exponential limiter's counts
	idle       []string       // in order
	shutdown   bool
	drain      DrainState
	waiters    []string

	// sent is every event the queue should have scheduled, per recipient,
	// as "kind@time".
	sent map[string][]string
}

type modelDelay struct {
	key         string
	readyAt     time.Duration
	seq         int
	delay       time.Duration
	rateLimited bool
}

// The model's limiter: exponential from 1ms, capped at 40ms so that keys
// reach the cap within a run.
const (
	modelBase = time.Millisecond
	modelMax  = 40 * time.Millisecond
)

func newModel() *model {
	return &model{failures: map[string]int{}, sent: map[string][]string{}}
}

func (m *model) clone() *model {
	c := *m
	c.waiting = slices.Clone(m.waiting)
	c.dirty = slices.Clone(m.dirty)
	c.processing = slices.Clone(m.processing)
	c.delayed = slices.Clone(m.delayed)
	c.idle = slices.Clone(m.idle)
	c.waiters = slices.Clone(m.waiters)
	c.failures = map[string]int{}
	for k, v := range m.failures {
		c.failures[k] = v
	}
	c.sent = map[string][]string{}
	for k, v := range m.sent {
		c.sent[k] = slices.Clone(v)
	}
	return &c
}

func (m *model) send(to, kind string) {
	m.sent[to] = append(m.sent[to], kind+"@"+m.now.String())
}

func (m *model) isProcessing(key string) bool {
	return slices.ContainsFunc(m.processing, func(h Held) bool { return h.Key == key })
}

func (m *model) wakeOne() {
	if len(m.idle) > 0 {
		m.send(m.idle[0], KindWake)
		m.idle = m.idle[1:]
	}
}

func (m *model) wakeAll() {
	for _, w := range m.idle {
		m.send(w, KindWake)
	}
	m.idle = nil
}

func (m *model) add(key string) Outcome {
	switch {
	case m.shutdown:
		return Ignored
	case slices.Contains(m.dirty, key) && m.isProcessing(key):
		return AlreadyRequeueAtDone
	case slices.Contains(m.dirty, key):
		return AlreadyWaiting
	}
	m.dirty = append(m.dirty, key)
	if m.isProcessing(key) {
		return RequeueAtDone
	}
	m.waiting = append(m.waiting, key)
	m.wakeOne()
	return Queued
}

func (m *model) get(worker string) (string, bool, bool) {
	if len(m.waiting) == 0 {
		if m.shutdown {
			return "", false, true
		}
		if !slices.Contains(m.idle, worker) {
			m.idle = append(m.idle, worker)
		}
		return "", false, false
	}
	key := m.waiting[0]
	m.waiting = m.waiting[1:]
	m.dirty = slices.DeleteFunc(m.dirty, func(k string) bool { return k == key })
	m.processing = append(m.processing, Held{Key: key, Worker: worker})
	m.idle = slices.DeleteFunc(m.idle, func(w string) bool { return w == worker })
	return key, true, false
}

func (m *model) done(key string) bool {
	if !m.isProcessing(key) {
		return false
	}
	m.processing = slices.DeleteFunc(m.processing, func(h Held) bool { return h.Key == key })
	if slices.Contains(m.dirty, key) {
		m.waiting = append(m.waiting, key)
		m.wakeOne()
	}
	if len(m.processing) == 0 && m.drain == Draining {
		m.drain = Drained
		for _, w := range m.waiters {
			m.send(w, KindDrained)
		}
		m.waiters = nil
	}
	return true
}

func (m *model) shutDown() {
	m.shutdown = true
	m.delayed = nil
	if m.drain == Draining {
		m.drain = DrainAborted
		for _, w := range m.waiters {
			m.send(w, KindDrainAborted)
		}
		m.waiters = nil
	}
	m.wakeAll()
}

func (m *model) shutDownWithDrain(waiter string) bool {
	m.shutdown = true
	m.delayed = nil
	m.wakeAll()
	if len(m.processing) == 0 {
		m.drain = Drained
		return true
	}
	m.drain = Draining
	if !slices.Contains(m.waiters, waiter) {
		m.waiters = append(m.waiters, waiter)
	}
	return false
}

func (m *model) addAfter(key string, d time.Duration, rateLimited bool) Outcome {
	if m.shutdown {
		return Ignored
	}
	if d <= 0 {
		return m.add(key)
	}
	m.seq++
	readyAt := m.now + d
	for i := range m.delayed {
		if m.delayed[i].key != key {
			continue
		}
		if readyAt >= m.delayed[i].readyAt {
			return DelayKept
		}
		m.delayed[i] = modelDelay{key, readyAt, m.seq, d, rateLimited}
		return DelayShortened
	}
	m.delayed = append(m.delayed, modelDelay{key, readyAt, m.seq, d, rateLimited})
	return Delayed
}

func (m *model) addRateLimited(key string) (time.Duration, Outcome) {
	d := modelBase
	for i := 0; i < m.failures[key] && d < modelMax; i++ {
		d *= 2
	}
	d = min(d, modelMax)
	m.failures[key]++
	return d, m.addAfter(key, d, true)
}

func (m *model) firingOrder() []modelDelay {
	out := slices.Clone(m.delayed)
	slices.SortFunc(out, func(a, b modelDelay) int {
		if c := cmp.Compare(a.readyAt, b.readyAt); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	return out
}

// advance moves time on by d, adding each delayed key at its ready time, in
// firing order.
func (m *model) advance(d time.Duration) {
	until := m.now + d
	for {
		order := m.firingOrder()
		if len(order) == 0 || order[0].readyAt > until {
			break
		}
		next := order[0]
		m.delayed = slices.DeleteFunc(m.delayed, func(w modelDelay) bool { return w.key == next.key })
		m.now = next.readyAt
		m.add(next.key)
	}
	m.now = until
}

// view is what the queue's View should be.
func (m *model) view() View {
	v := View{
		Name:         "fuzz",
		ShuttingDown: m.shutdown,
		Drain:        m.drain,
	}
	if len(m.waiting) > 0 {
		v.Waiting = slices.Clone(m.waiting)
	}
	if len(m.dirty) > 0 {
		v.Dirty = slices.Sorted(slices.Values(m.dirty))
	}
	if len(m.processing) > 0 {
		v.Processing = slices.SortedFunc(slices.Values(m.processing), func(a, b Held) int { return cmp.Compare(a.Key, b.Key) })
	}
	for _, w := range m.firingOrder() {
		v.Delayed = append(v.Delayed, DelayedKey{Key: w.key, ReadyAt: w.readyAt, Delay: w.delay, RateLimited: w.rateLimited})
	}
	keys := make([]string, 0, len(m.failures))
	for k, n := range m.failures {
		if n > 0 {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		v.Requeues = append(v.Requeues, Requeues{Key: k, Count: m.failures[k]})
	}
	if len(m.idle) > 0 {
		v.IdleWorkers = slices.Clone(m.idle)
	}
	return v
}

var (
	fuzzKeys    = []string{"default/a", "default/b", "default/c", "kube-system/d", "e"}
	fuzzWorkers = []string{"worker-0", "worker-1", "worker-2"}
)

// maxFuzzOps caps the operations taken from one input. Longer inputs reach no
// state that a shorter one cannot, and they make the fuzzer's minimizer crawl.
const maxFuzzOps = 200

// sameView is View equality without reflection (see runAgainstModel).
func sameView(a, b View) bool {
	return a.Name == b.Name && slices.Equal(a.Waiting, b.Waiting) && slices.Equal(a.Dirty, b.Dirty) &&
		slices.EqualFunc(a.Processing, b.Processing, sameHeld) && slices.EqualFunc(a.Delayed, b.Delayed, sameDelayed) &&
		slices.EqualFunc(a.Requeues, b.Requeues, sameRequeues) && slices.Equal(a.IdleWorkers, b.IdleWorkers) &&
		a.ShuttingDown == b.ShuttingDown && a.Drain == b.Drain
}

// sameHeld, sameDelayed and sameRequeues compare the view's entries field
// by field: the types cannot be compared with ==, so that main.wasm has no
// equality functions for them.
func sameHeld(a, b Held) bool { return a.Key == b.Key && a.Worker == b.Worker }

func sameDelayed(a, b DelayedKey) bool {
	return a.Key == b.Key && a.ReadyAt == b.ReadyAt && a.Delay == b.Delay && a.RateLimited == b.RateLimited
}

func sameRequeues(a, b Requeues) bool { return a.Key == b.Key && a.Count == b.Count }

type getResult struct {
	key          string
	ok, shutdown bool
}

type rateLimitedResult struct {
	wait time.Duration
	out  Outcome
}

// runAgainstModel decodes data as a sequence of operations, two bytes each,
// applies each to a rate-limiting queue on a kernel and to the model, and
// requires equal answers and equal views after every one; the checked
// wrapper checks the invariants too. At the end it runs out the clock and
// requires that every worker and the drain waiter received exactly the
// events the model says were sent.
//
// Answers are compared with == and testify is only called once they differ,
// to print them: the fuzzer steers by the coverage of everything it runs, and
// reflection over values of every shape would look like new behaviour at
// every turn.
func runAgainstModel(t *testing.T, data []byte) {
	data = data[:min(len(data), 2*maxFuzzOps)]
	k := sim.New(1)
	rq := NewRateLimiting(Config{Name: "fuzz", Scheduler: k}, NewItemExponentialFailureRateLimiter(modelBase, modelMax))
	mustRegister(t, k, rq.ComponentName(), rq)
	recorders := map[string]*recorder{}
	for _, name := range append(slices.Clone(fuzzWorkers), "main") {
		recorders[name] = &recorder{}
		mustRegister(t, k, name, recorders[name])
	}
	q := checkRateLimiting(t, k, rq)
	m := newModel()

	var saved struct {
		snap  *sim.Snapshot
		model *model
	}
	n, what := 0, ""
	same := func(want, got any) {
		t.Helper()
		if want != got {
			require.Equal(t, want, got, "op %d: %s", n, what)
		}
	}
	for i := 0; i+1 < len(data); i += 2 {
		op, arg := data[i]%14, int(data[i+1])
		key := fuzzKeys[arg%len(fuzzKeys)]
		worker := fuzzWorkers[arg/len(fuzzKeys)%len(fuzzWorkers)]
		d := time.Duration(arg/15%10-2) * time.Millisecond
		n, what = i/2, ""
		switch op {
		case 0, 1:
			what = "Add(" + key + ")"
			same(m.add(key), q.Add(key))
		case 2, 3:
			// Workers follow processNextWorkItem: one that holds a key
			// finishes it before it asks for another.
			if i := slices.IndexFunc(m.processing, func(h Held) bool { return h.Worker == worker }); i >= 0 {
				held := m.processing[i].Key
				what = "Done(" + held + ") by " + worker
				same(m.done(held), q.Done(held))
				break
			}
			what = "Get(" + worker + ")"
			wk, wok, wsd := m.get(worker)
			gk, gok, gsd := q.Get(worker)
			same(getResult{wk, wok, wsd}, getResult{gk, gok, gsd})
		case 4:
			what = "Done(" + key + ")"
			same(m.done(key), q.Done(key))
		case 5:
			if len(m.processing) > 0 {
				held := m.processing[arg%len(m.processing)].Key
				what = "Done(" + held + ")"
				same(m.done(held), q.Done(held))
			}
		case 6:
			what = "AddAfter(" + key + ", " + d.String() + ")"
			same(m.addAfter(key, d, false), q.AddAfter(key, d))
		case 7:
			what = "AddRateLimited(" + key + ")"
			wd, wout := m.addRateLimited(key)
			gd, gout := q.AddRateLimited(key)
			same(rateLimitedResult{wd, wout}, rateLimitedResult{gd, gout})
		case 8:
			what = "Forget(" + key + ")"
			delete(m.failures, key)
			q.Forget(key)
		case 9:
			d := time.Duration(arg%20) * time.Millisecond
			what = "advance(" + d.String() + ")"
			m.advance(d)
			q.advance(d)
		case 10:
			if arg%8 == 0 {
				what = "ShutDown()"
				m.shutDown()
				q.ShutDown()
			}
		case 11:
			if arg%8 == 0 {
				what = "ShutDownWithDrain(main)"
				same(m.shutDownWithDrain("main"), q.ShutDownWithDrain("main"))
			}
		case 12:
			what = "snapshot"
			snap, err := k.Snapshot()
			require.NoError(t, err)
			saved.snap, saved.model = snap, m.clone()
		case 13:
			if saved.snap != nil {
				what = "restore"
				require.NoError(t, k.Restore(saved.snap))
				m = saved.model.clone()
				q.verify()
			}
		}
		same(m.now, k.Now())
		same(len(m.waiting), q.Len())
		if want, got := m.view(), q.view(); !sameView(want, got) {
			require.Equal(t, want, got, "op %d: %s", n, what)
		}
	}

	m.advance(time.Second)
	q.advance(time.Second)
	require.Equal(t, m.view(), q.view(), "after running out the clock")
	for name, r := range recorders {
		require.Equal(t, m.sent[name], r.seen, "events received by %s", name)
	}
}

// FuzzQueue holds the queue to the model on operation sequences the fuzzer
// makes up. Run it with
//
//	go test ./core/workqueue -run '^$' -fuzz FuzzQueue -fuzztime 60s
func FuzzQueue(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 2, 0, 2, 5, 0, 0, 5, 0, 4, 1})
	f.Add([]byte{7, 0, 7, 0, 7, 1, 9, 10, 2, 0, 9, 19, 5, 0, 8, 0})
	f.Add([]byte{2, 0, 2, 5, 0, 0, 0, 1, 12, 0, 11, 0, 5, 0, 13, 0, 10, 0})
	f.Add([]byte{6, 40, 6, 100, 6, 41, 9, 30, 2, 3, 0, 3, 5, 1, 9, 19})
	f.Fuzz(runAgainstModel)
}

// TestQueueAgainstModel is FuzzQueue on sequences from fixed seeds, so that
// every go test holds the queue to the model.
func TestQueueAgainstModel(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		name := "seed=" + strconv.FormatUint(seed, 10)
		t.Run(name, func(t *testing.T) {
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("reproduce with: go test ./core/workqueue -run 'TestQueueAgainstModel/%s$'", name)
				}
			})
			rng := rand.New(rand.NewPCG(seed, 0x5eed))
			data := make([]byte, 400)
			for i := range data {
				data[i] = byte(rng.UintN(256))
			}
			runAgainstModel(t, data)
		})
	}
}
