package deployment

import (
	"maps"
	"slices"

	"github.com/reconcilelab/rlab/core/workqueue"
)

// View is a read-only picture of the controller for the page and the
// console: plain values, built on demand.
type View struct {
	// Name is the controller's name; Active says the first Deployment woke
	// it, Started that its caches synced and its workers run.
	Name            string
	Active, Started bool
	// Queue is the work queue.
	Queue workqueue.View
	// Workers lists each worker, in order.
	Workers []WorkerView
	// LastSyncs lists the last finished sync of each key, sorted by key.
	LastSyncs []SyncRecord
}

// WorkerView is one worker.
type WorkerView struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Name string
	// State is "idle", "starting" (not yet asked the queue) or "syncing".
	State string
	// Key is the key being synced; Phase what it waits for ("waiting for:
	// update replicasets default/web-5d8f"), with Waiting 1 then.
	Key     string
	Phase   string
	Waiting int
	// Syncs counts the syncs the worker finished.
	Syncs int
}

// View returns the controller's current picture.
func (c *Controller) View() View {
	v := View{Name: Name, Active: c.active, Started: c.started, Queue: c.queue.View()}
	for _, w := range c.workers {
		wv := WorkerView{Name: w.name, State: "starting", Syncs: w.syncs}
		switch {
		case w.run != nil:
			wv.State, wv.Key, wv.Phase, wv.Waiting = "syncing", w.run.key, "waiting for: "+w.run.request, 1
		case w.idle:
			wv.State = "idle"
		}
		v.Workers = append(v.Workers, wv)
	}
	for _, key := range slices.Sorted(maps.Keys(c.last)) {
		v.LastSyncs = append(v.LastSyncs, c.last[key])
	}
	return v
}
