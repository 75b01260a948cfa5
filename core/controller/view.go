package controller

import (
	"maps"
	"slices"

	"github.com/reconcilelab/rlab/core/workqueue"
)

// View is a read-only picture of the manager for the page and the
// `expectations` and `queue` commands: plain values, built on demand.
type View struct {
	// Kind is the owner kind, Name the manager's name.
	Kind, Name string
	// Started is set once the caches synced and the workers run.
	Started bool
	// Queue is the work queue.
	Queue workqueue.View
	// Expectations lists the expectations per key, sorted by key.
	Expectations []ExpectationsView
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
	// State is "idle", "starting" (not yet asked the queue), or "syncing".
	State string
	// Key is the key being synced; Phase what the sync is doing ("claiming",
	// "creating", "deleting", "writing status", …), and Waiting how many
	// API answers it waits for.
	Key     string
	Phase   string
	Waiting int
	// Syncs counts the syncs the worker finished.
	Syncs int
}

// View returns the manager's current picture.
func (m *Manager) View() View {
	v := View{Kind: string(m.owner.kind), Name: m.name, Started: m.started,
		Queue: m.queue.View(), Expectations: m.expectations.Views()}
	for _, w := range m.workers {
		wv := WorkerView{Name: w.name, State: "starting", Syncs: w.syncs}
		switch {
		case w.run != nil:
			wv.State, wv.Key, wv.Phase, wv.Waiting = "syncing", w.run.key, w.run.phase.String(), len(w.run.waiting)
		case w.idle:
			wv.State = "idle"
		}
		v.Workers = append(v.Workers, wv)
	}
	for _, key := range slices.Sorted(maps.Keys(m.last)) {
		v.LastSyncs = append(v.LastSyncs, m.last[key])
	}
	return v
}

// String names a sync phase as the worker view shows it.
func (p syncPhase) String() string {
	switch p {
	case phaseStart:
		return "claiming"
	case phaseCanAdopt:
		return "checking it may adopt (fresh GET)"
	case phaseAdopt:
		return "adopting a pod"
	case phaseRelease:
		return "releasing a pod"
	case phaseCreate:
		return "creating pods"
	case phaseDelete:
		return "deleting pods"
	case phaseStatusPut:
		return "writing status"
	case phaseStatusGet:
		return "fetching the owner to retry the status write"
	case phaseDone:
		return "done"
	}
	return "?"
}

type managerSnapshot struct {
	started      bool
	last         map[string]SyncRecord
	syncs        int
	expectations any
}

// Snapshot captures the manager's own state and its expectations. The queue
// and the workers are components of their own and snapshot themselves.
func (m *Manager) Snapshot() any {
	return &managerSnapshot{started: m.started, last: maps.Clone(m.last), syncs: m.syncs,
		expectations: m.expectations.Snapshot()}
}

// Restore returns the manager to a snapshot.
func (m *Manager) Restore(v any) {
	s := v.(*managerSnapshot)
	m.started, m.syncs = s.started, s.syncs
	m.last = maps.Clone(s.last)
	if m.last == nil {
		m.last = map[string]SyncRecord{}
	}
	m.expectations.Restore(s.expectations)
}
