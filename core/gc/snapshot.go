package gc

import (
	"maps"
	"slices"

	"github.com/reconcilelab/rlab/core/cow"
)

// gcSnapshot is everything the collector needs to come back to one step.
// Owner tasks and dependents are copied; their slices are shared, since they
// are never changed in place. The graph's maps are cloned, but for owners
// (shared, and cloned by the collector before its next change: see
// ownersShared) and nodes, whose parts are shared and copied by the
// collector before their next change (see nodeSet); their values are plain
// values or slices that are replaced, never changed in place, and so are
// shared too.
type gcSnapshot struct {
	monitors      []monitor
	owners        map[string]ownerRef
	deleting      []string
	nodes         [nodeParts]cow.Map[*node]
	dependents    map[string]depList
	deletedOwners []string
	orphaned      map[string][]string
	tasks         map[string]ownerTask
	taskOrder     []string
	ownerLimiter  any
	deps          map[string]dependent
	queue         []string
	current       string
	workScheduled bool
	depLimiter    any
	absent        []string
	requests      map[uint64]pending
	stats         Stats
}

// Snapshot captures the collector.
func (g *GarbageCollector) Snapshot() any {
	s := &gcSnapshot{
		monitors:      slices.Clone(g.monitors),
		owners:        g.owners,
		deleting:      g.deleting[:len(g.deleting):len(g.deleting)],
		nodes:         g.nodes.share(),
		dependents:    maps.Clone(g.dependents),
		deletedOwners: g.deletedOwners[:len(g.deletedOwners):len(g.deletedOwners)],
		orphaned:      maps.Clone(g.orphaned),
		tasks:         make(map[string]ownerTask, len(g.tasks)),
		taskOrder:     slices.Clone(g.taskOrder),
		ownerLimiter:  g.ownerLimiter.Snapshot(),
		deps:          make(map[string]dependent, len(g.deps)),
		queue:         slices.Clone(g.queue),
		current:       g.current,
		workScheduled: g.workScheduled,
		depLimiter:    g.depLimiter.Snapshot(),
		absent:        g.absent[:len(g.absent):len(g.absent)],
		requests:      maps.Clone(g.requests),
		stats:         g.stats,
	}
	// The snapshot shares the owners map and every dependents list: none
	// is this collector's to change in place any more.
	g.ownersShared = true
	g.depEpoch.Next()
	for _, uid := range g.taskOrder {
		s.tasks[uid] = *g.tasks[uid]
	}
	for _, uid := range slices.Sorted(maps.Keys(g.deps)) {
		s.deps[uid] = *g.deps[uid]
	}
	return s
}

// Restore returns the collector to a snapshot.
func (g *GarbageCollector) Restore(v any) {
	s := v.(*gcSnapshot)
	g.monitors = slices.Clone(s.monitors)
	g.owners, g.ownersShared = orEmpty(s.owners), true
	g.deleting = s.deleting
	g.nodes.restore(s.nodes)
	g.dependents = orEmpty(maps.Clone(s.dependents))
	g.depEpoch.Next()
	g.deletedOwners = s.deletedOwners
	g.orphaned = orEmpty(maps.Clone(s.orphaned))
	g.tasks = make(map[string]*ownerTask, len(s.tasks))
	for _, uid := range s.taskOrder {
		t := s.tasks[uid]
		g.tasks[uid] = &t
	}
	g.taskOrder = slices.Clone(s.taskOrder)
	g.ownerLimiter.Restore(s.ownerLimiter)
	g.deps = make(map[string]*dependent, len(s.deps))
	for _, uid := range slices.Sorted(maps.Keys(s.deps)) {
		d := s.deps[uid]
		g.deps[uid] = &d
	}
	g.queue = slices.Clone(s.queue)
	g.current = s.current
	g.workScheduled = s.workScheduled
	g.depLimiter.Restore(s.depLimiter)
	g.absent = s.absent
	g.requests = orEmpty(maps.Clone(s.requests))
	g.stats = s.stats
}

// orEmpty returns m, or an empty map if m is nil, so that a restored map can
// be written to.
func orEmpty[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return map[K]V{}
	}
	return m
}
