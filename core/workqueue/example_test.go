package workqueue_test

import (
	"fmt"
	"time"

	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/workqueue"
)

// syncWorker is a controller worker cut down to the queue protocol: it Gets a
// key, syncs it (a kernel timer standing in for the work), and on failure
// re-adds the key rate-limited, on success Forgets it; either way it calls
// Done and asks for the next key.
type syncWorker struct {
	name     string
	q        *workqueue.RateLimitingQueue
	failures int // how many syncs fail before one succeeds
	key      string
}

func (w *syncWorker) Handle(ctx *sim.Context, ev sim.Event) sim.Report {
	if ev.Kind != "synced" {
		return w.next(ctx, "")
	}
	var said string
	if w.failures > 0 {
		w.failures--
		wait, _ := w.q.AddRateLimited(w.key)
		said = "sync of " + w.key + " failed; requeued with a " + wait.String() + " back-off; "
	} else {
		w.q.Forget(w.key)
		said = "synced " + w.key + "; its failures are forgotten; "
	}
	w.q.Done(w.key)
	return w.next(ctx, said)
}

func (w *syncWorker) next(ctx *sim.Context, said string) sim.Report {
	key, ok, shutdown := w.q.Get(w.name)
	switch {
	case shutdown:
		return sim.Report{Models: "processNextWorkItem", Summary: sim.Text(said + "the queue is shut down; exiting")}
	case !ok:
		return sim.Report{Models: "processNextWorkItem", Summary: sim.Text(said + "nothing to do; idle")}
	}
	w.key = key
	ctx.After(10*time.Millisecond, w.name, "synced", nil)
	return sim.Report{Models: "processNextWorkItem", Summary: sim.Text(said + "got " + key + "; syncing")}
}

func (w *syncWorker) Snapshot() any { return *w }
func (w *syncWorker) Restore(s any) { *w = s.(syncWorker) }

// Example shows the order of events a learner steps through when a sync
// fails once: the failure's AddRateLimited arms the queue's timer, the timer
// moves the key into the queue at its ready time and wakes the idle worker,
// and the worker Gets the key again, syncs it and calls Done.
func Example() {
	k := sim.New(1)
	q := workqueue.NewRateLimiting(workqueue.Config{Name: "replicaset", Scheduler: k, Kind: "rs"}, nil)
	w := &syncWorker{name: "worker-1", q: q, failures: 1}
	if err := k.Register(q.ComponentName(), q); err != nil {
		panic(err)
	}
	if err := k.Register(w.name, w); err != nil {
		panic(err)
	}

	k.After(0, w.name, "start", nil)
	k.Step() // the worker starts, finds nothing, and goes idle
	q.Add("default/web")
	for {
		res, ok := k.Step()
		if !ok {
			break
		}
		fmt.Println(res.TraceLine())
	}
	fmt.Printf("%+v\n", q.View())
	// Output:
	// #2    t=0.000s  worker-1        processNextWorkItem got default/web; syncing
	// #3    t=0.010s  worker-1        processNextWorkItem sync of default/web failed; requeued with a 5ms back-off; nothing to do; idle
	// #4    t=0.015s  queue/replicaset waitingLoop        default/web is due after its 5ms back-off; added to the queue (now 1 waiting), waking worker-1
	// #5    t=0.015s  worker-1        processNextWorkItem got default/web; syncing
	// #6    t=0.025s  worker-1        processNextWorkItem synced default/web; its failures are forgotten; nothing to do; idle
	// {Name:replicaset Waiting:[] Dirty:[] Processing:[] Delayed:[] Requeues:[] IdleWorkers:[worker-1] ShuttingDown:false Drain:not draining}
}
