package workqueue

import "time"

// View is what the page shows of a queue at one step. It is plain data that
// shares nothing with the queue: building it copies, and the queue can change
// afterwards without changing it. An empty list is always nil, so that two
// views of equal queues are equal.
type View struct {
	// Name is the queue's name.
	Name string

	// Waiting is the queue itself: the keys Get will hand out, in that
	// order.
	Waiting []string

	// Dirty is every key that needs processing, sorted: the waiting keys
	// and the keys added again while a worker held them.
	Dirty []string

	// Processing is every key a worker holds, sorted by key.
	Processing []Held

	// Delayed is every key waiting out a delay, in the order they will
	// move into the queue. Only delaying queues have any.
	Delayed []DelayedKey

	// Requeues lists, sorted by key, the keys the rate limiter remembers
	// failures of, with their counts. Only rate-limiting queues whose
	// limiter is a Tracker have any.
	Requeues []Requeues

	// IdleWorkers are the workers waiting for a key, longest waiting first.
	IdleWorkers []string

	// ShuttingDown says the queue takes no new keys.
	ShuttingDown bool

	// Drain says where a ShutDownWithDrain stands.
	Drain DrainState
}

// Held is a key being processed and the worker processing it ("" when it was
// taken by an anonymous Get).
type Held struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Key    string
	Worker string
}

// DelayedKey is a key waiting out a delay.
type DelayedKey struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Key string

	// ReadyAt is when the key moves into the queue, on the kernel's clock.
	ReadyAt time.Duration

	// Delay is the wait that was asked for, and RateLimited says whether a
	// rate limiter chose it (AddRateLimited) rather than the caller
	// (AddAfter).
	Delay       time.Duration
	RateLimited bool
}

// Requeues is a key's failure count as the rate limiter keeps it.
type Requeues struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Key   string
	Count int
}

// View returns the queue's state for the page.
func (q *Queue) View() View {
	v := View{
		Name:         q.name,
		IdleWorkers:  q.IdleWorkers(),
		ShuttingDown: q.shuttingDown,
		Drain:        q.drain,
	}
	t := &q.table
	for _, r := range q.queue.items() {
		v.Waiting = append(v.Waiting, t.key[r])
	}
	for _, r := range t.sorted() {
		if t.state[r].dirty() {
			v.Dirty = append(v.Dirty, t.key[r])
		}
		if t.state[r].processing() {
			v.Processing = append(v.Processing, Held{Key: t.key[r], Worker: t.worker[r]})
		}
	}
	return v
}

// View returns the queue's state for the page, with its delayed keys.
func (q *DelayingQueue) View() View {
	v := q.Queue.View()
	for _, w := range q.waiting.inOrder() {
		v.Delayed = append(v.Delayed, DelayedKey{Key: w.key, ReadyAt: w.readyAt, Delay: w.delay, RateLimited: w.rateLimited})
	}
	return v
}

// View returns the queue's state for the page, with its delayed keys and the
// failure counts its limiter keeps.
func (q *RateLimitingQueue) View() View {
	v := q.DelayingQueue.View()
	if t, ok := q.limiter.(Tracker); ok {
		for _, k := range t.Tracked() {
			v.Requeues = append(v.Requeues, Requeues{Key: k, Count: q.limiter.NumRequeues(k)})
		}
	}
	return v
}
