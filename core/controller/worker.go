package controller

import (
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/workqueue"
)

// worker is one logical worker: a component that takes a key from the queue,
// runs syncReplicaSet for it, and asks for the next key. While its sync waits
// for the API it is busy; the queue guarantees that no other worker holds the
// same key meanwhile.
type worker struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	m    *Manager
	name string

	// run is the sync in progress, nil while idle.
	run *syncRun

	// idle is set while the worker waits for the queue to wake it.
	idle bool

	// syncs counts the syncs the worker finished.
	syncs int

	// spare is the worker's last finished sync, emptied, for the next sync
	// to reuse (newSyncRun). A worker runs one sync at a time and nothing
	// else keeps a finished one: a snapshot holds a clone of the sync in
	// progress, never the sync itself.
	spare *syncRun
}

// StartStep reuses its manager's arenas (Manager.StartStep).
func (w *worker) StartStep() { w.m.StartStep() }

// Handle runs one step of the worker: asking the queue for a key, or
// continuing its sync with an API response.
func (w *worker) Handle(ctx *sim.Context, ev sim.Event) sim.Report {
	switch ev.Kind {
	case eventWorkerRun, workqueue.KindWake:
		return w.processNextWorkItem(ctx)
	case apistore.EventResponse:
		reply := ev.Data.(*apistore.Reply)
		if w.run == nil || !w.run.expects(reply.ID) {
			return sim.Report{Actor: w.name, Summary: sim.Text("ignored an answer to a request of a sync that is over")}
		}
		rep := w.run.onReply(ctx, reply)
		return w.afterStep(ctx, rep)
	}
	return sim.Report{Actor: w.name, Summary: sim.Say(formIgnoredEvent, ev.Kind)}
}

// syncDone is how a sync's last sentence ends when the sync succeeded.
const syncDone = "; sync of %s done"

// The sentences of a worker's own steps, and the ends of a sync's last.
var (
	formBusy       = &sim.Form{Text: "woken while busy syncing %s: keeps working"}
	formSyncDone   = &sim.Form{Text: syncDone}
	formSyncFailed = &sim.Form{Text: "; sync of %s failed (%s): retry in %D (requeue %d)"}
	formRequeued   = &sim.Form{Text: "; requeued in %D to check availability after minReadySeconds"}
)

func init() {
	sim.Register(
		formBusy,
		formSyncDone,
		formSyncFailed,
		formRequeued,
	)
}

// processNextWorkItem is upstream's worker loop body: Get a key and sync it.
func (w *worker) processNextWorkItem(ctx *sim.Context) sim.Report {
	if w.run != nil {
		return sim.Report{Actor: w.name, Summary: sim.Say(formBusy, w.run.key)}
	}
	key, ok, shutdown := w.m.queue.Get(w.name)
	if shutdown {
		w.idle = false
		return sim.Report{Actor: w.name, Models: "processNextWorkItem", Summary: sim.Text("the queue is shutting down: the worker stops")}
	}
	if !ok {
		w.idle = true
		return sim.Report{Actor: w.name, Models: "processNextWorkItem", Summary: sim.Text("the queue is empty: idle until a key arrives")}
	}
	w.idle = false
	w.run = newSyncRun(w, key, ctx)
	rep := w.run.start(ctx)
	return w.afterStep(ctx, rep)
}

// afterStep finishes the worker's step: when the sync is over, it tells the
// queue (Forget on success, AddRateLimited on error, then Done) and schedules
// the worker's next Get as a step of its own.
func (w *worker) afterStep(ctx *sim.Context, rep sim.Report) sim.Report {
	rep.Actor = w.name
	r := w.run
	if r == nil || !r.finished {
		return rep
	}
	key := r.key
	if r.err == nil {
		w.m.queue.Forget(key)
		if !r.saidDone {
			rep.Summary = rep.Summary.Then(sim.Say(formSyncDone, key))
		}
	} else {
		wait, _ := w.m.queue.AddRateLimited(key)
		rep.Handed = append(rep.Handed, w.m.toQueue(key))
		rep.Summary = rep.Summary.Then(sim.Say(formSyncFailed, key, r.err.Error()).With(int64(wait), int64(w.m.queue.NumRequeues(key))))
	}
	if r.requeueAfter > 0 {
		w.m.queue.AddAfter(key, r.requeueAfter)
		rep.Handed = append(rep.Handed, w.m.toQueue(key))
		rep.Summary = rep.Summary.Then(sim.Say(formRequeued).With(int64(r.requeueAfter)))
	}
	w.m.queue.Done(key)
	w.m.syncs++
	rec := SyncRecord{Key: key, Worker: w.name, Start: r.started, End: ctx.Now(), Decision: r.decision, Seq: w.m.syncs,
		Count: w.m.last[key].Count + 1}
	if r.err != nil {
		rec.Err = r.err.Error()
	}
	w.m.last[key] = rec
	r.release()
	w.run, w.spare = nil, r
	w.syncs++
	ctx.After(0, w.name, eventWorkerRun, nil)
	return rep
}

// Describe says what a pending worker event will do.
func (w *worker) Describe(ev sim.Event) string {
	switch ev.Kind {
	case apistore.EventResponse:
		return "answer to " + ev.Data.(*apistore.Reply).Request.String() + " reaches " + w.name
	case workqueue.KindWake:
		return w.name + " is woken: a key is waiting"
	}
	return w.name + " asks the queue for a key"
}

type workerSnapshot struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	run   *syncRun
	idle  bool
	syncs int
}

// Snapshot captures the worker and its sync in progress.
func (w *worker) Snapshot() any {
	s := workerSnapshot{idle: w.idle, syncs: w.syncs}
	if w.run != nil {
		s.run = w.run.clone()
	}
	return s
}

// Restore returns the worker to a snapshot.
func (w *worker) Restore(v any) {
	s := v.(workerSnapshot)
	w.idle, w.syncs = s.idle, s.syncs
	w.run = nil
	if s.run != nil {
		w.run = s.run.clone()
		w.run.w = w
	}
}

var (
	_ sim.Component   = (*worker)(nil)
	_ sim.Snapshotter = (*worker)(nil)
	_ sim.Describer   = (*worker)(nil)
)
