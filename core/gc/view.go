package gc

import (
	"maps"
	"slices"
)

// View is a read-only picture of the collector for the page: plain values,
// built on demand.
type View struct {
	Name string

	// Monitors are the watches on the owner kinds, then on the dependent
	// kinds.
	Monitors []MonitorView

	// KnownOwners is the number of owners the monitors know alive.
	KnownOwners int
	// KnownDependents is the number of objects of the dependent kinds in
	// the graph, and OwnersWithDependents the number of owner uids (alive
	// or not) that some of them name.
	KnownDependents, OwnersWithDependents int

	// Owners are the owners whose dependents are being orphaned, then those
	// deleting their dependents in the foreground, each in the order they
	// started.
	Owners []OwnerView

	// Dependents are the dependents in the attemptToDelete queue: the one the
	// worker holds first, then the waiting ones in queue order, then those
	// backing off. An owner deleting its dependents in the foreground is in
	// that queue too, but is shown among the Owners.
	Dependents []DependentView

	// AbsentOwners are the uids of the owners known to be gone, least
	// recently used first (upstream's absentOwnerCache).
	AbsentOwners []string

	Stats Stats
}

// MonitorView is one monitor.
type MonitorView struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Kind   string
	State  string
	LastRV uint64
}

// OwnerView is one owner being processed.
type OwnerView struct {
	// Owner is "rs/web"; Namespace and UID complete it.
	Owner     string
	Namespace string
	UID       string
	// Mode is "orphan": its dependents are being orphaned; or "foreground":
	// they are being deleted before it. (A gone owner's dependents go to the
	// attemptToDelete queue at once, with no task.)
	Mode string
	// Phase says where the task is: "queued for attemptToOrphan", "waiting
	// for the graph to catch up", "orphaning dependents", "reading the
	// owner", "removing the orphan finalizer", "waiting to retry"; for a
	// foreground deletion, "waiting for its blocking dependents to go",
	// "queued for attemptToDeleteItem", "removing the foregroundDeletion
	// finalizer", "waiting to retry".
	Phase string
	// Dependents are the dependents found in the graph, "pod/web-x"; for a
	// foreground deletion, those that still block the owner.
	Dependents []string
	// Retries counts the task's retries after errors.
	Retries int
}

// DependentView is one dependent in the attemptToDelete queue.
type DependentView struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// Object is "pod/web-x"; Namespace completes it.
	Object    string
	Namespace string
	// Owner is the gone owner that made it a candidate, "rs/web".
	Owner string
	// State is "processing", "queued" or "waiting to retry".
	State string
	// Retries counts retries after errors; LastError is the last one.
	Retries   int
	LastError string
}

// View returns the collector's current picture.
func (g *GarbageCollector) View() View {
	v := View{Name: g.cfg.Name, KnownOwners: len(g.owners), KnownDependents: g.nodes.len(),
		OwnersWithDependents: len(g.dependents), AbsentOwners: slices.Clone(g.absent), Stats: g.stats}
	for _, m := range g.monitors {
		v.Monitors = append(v.Monitors, MonitorView{Kind: string(m.kind), State: string(m.state), LastRV: m.lw.RV()})
	}
	for _, uid := range g.taskOrder {
		t := g.tasks[uid]
		ov := OwnerView{Owner: t.owner.String(), Namespace: t.owner.Namespace, UID: uid,
			Mode: string(t.mode), Phase: string(t.phase), Retries: t.retries}
		for _, d := range t.found {
			ov.Dependents = append(ov.Dependents, d.String())
		}
		v.Owners = append(v.Owners, ov)
	}
	for _, uid := range g.deleting {
		o := g.owners[uid]
		ov := OwnerView{Owner: o.String(), Namespace: o.Namespace, UID: uid, Mode: "foreground",
			Phase: "waiting for its blocking dependents to go"}
		if d := g.deps[uid]; d != nil {
			ov.Retries = d.retries
			switch d.state {
			case depQueued:
				ov.Phase = "queued for attemptToDeleteItem"
			case depProcessing:
				ov.Phase = "removing the foregroundDeletion finalizer"
			case depWaiting:
				ov.Phase = string(depWaiting)
			}
		}
		for _, n := range g.blockingDependents(uid) {
			ov.Dependents = append(ov.Dependents, n.String())
		}
		v.Owners = append(v.Owners, ov)
	}
	add := func(d *dependent) {
		if g.isDeletingDependents(d.uid) {
			return
		}
		v.Dependents = append(v.Dependents, DependentView{Object: d.String(), Namespace: d.namespace,
			Owner: d.cause.String(), State: string(d.state), Retries: d.retries, LastError: d.lastErr})
	}
	if d := g.deps[g.current]; d != nil {
		add(d)
	}
	for _, uid := range g.queue {
		add(g.deps[uid])
	}
	for _, uid := range slices.Sorted(maps.Keys(g.deps)) {
		if d := g.deps[uid]; d.state == depWaiting {
			add(d)
		}
	}
	return v
}
