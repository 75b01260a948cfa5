package gc

import (
	"maps"
	"slices"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
)

// monitorState says what a monitor is doing.
type monitorState string

const (
	monitorNotStarted monitorState = "not started"
	monitorListing    monitorState = "listing"
	monitorOpening    monitorState = "opening watch"
	monitorWatching   monitorState = "watching"
	monitorBackingOff monitorState = "backing off"
)

// monitor follows one kind: list, then watch from the list's
// resourceVersion, as a reflector does; after an error (an expired watch
// among them) it lists again after a back-off. Upstream's GraphBuilder runs
// one shared informer per deletable resource; the model follows the kinds
// of its table (DefaultKinds), and keeps no cache of objects: the collector
// keeps each owner's uid and name, and each dependent's owner references
// (the graph).
type monitor struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	kind api.Kind
	// owner and dependent say what the kind is followed for (Followed); a
	// kind may be both.
	owner, dependent bool
	state            monitorState
	// lw is the list-then-watch bookkeeping: the request in flight, the open
	// watch and the resourceVersion of the last list or watch event seen.
	lw apistore.ListWatch
	// relist asks for a new list as soon as the watch being opened is open:
	// Follow changed what the kind is followed for meanwhile.
	relist bool
}

// newMonitor returns the monitor of a kind, not started.
func newMonitor(k Followed) monitor {
	return monitor{kind: k.Kind, owner: k.Owner, dependent: k.Dependent,
		state: monitorNotStarted, lw: apistore.NewListWatch(k.Kind, "")}
}

func (g *GarbageCollector) start(ctx *sim.Context) sim.Report {
	owners, deps, both := "", "", ""
	for i := range g.monitors {
		g.list(ctx, i)
		switch m := &g.monitors[i]; {
		case m.owner:
			owners = and(owners, m.kind.Resource())
			if m.dependent {
				both = and(both, m.kind.Resource())
			}
		case m.dependent:
			deps = and(deps, m.kind.Resource())
		}
	}
	summary := "start: listing " + owners + ", the owners whose deletion the collector follows"
	if deps != "" {
		summary += ", and " + deps + ", the dependents it keeps in its graph"
	}
	if both != "" {
		summary += "; " + both + " are kept in the graph as dependents too"
	}
	return g.reportText("GraphBuilder.startMonitors", summary)
}

func and(list, s string) string {
	if list == "" {
		return s
	}
	return list + " and " + s
}

func (g *GarbageCollector) list(ctx *sim.Context, i int) {
	m := &g.monitors[i]
	m.state = monitorListing
	m.lw.List(ctx, g.cfg.Server, g.cfg.Name)
	g.requests[m.lw.Request()] = pending{purpose: listMonitor, monitor: i}
}

func (g *GarbageCollector) watch(ctx *sim.Context, i int) {
	m := &g.monitors[i]
	m.state = monitorOpening
	m.lw.Watch(ctx, g.cfg.Server, g.cfg.Name)
	g.requests[m.lw.Request()] = pending{purpose: watchMonitor, monitor: i}
}

// backOff closes the monitor's watch and lists again after the reflector's
// back-off.
func (g *GarbageCollector) backOff(ctx *sim.Context, i int, why string) sim.Report {
	m := &g.monitors[i]
	m.lw.CloseWatch(g.cfg.Server)
	m.state = monitorBackingOff
	m.lw.Answered()
	wait := RelistBackoff + time.Duration(ctx.Rand().Int64N(int64(RelistBackoff)))
	ctx.After(wait, g.cfg.Name, eventRelist, i)
	return g.report("Reflector.ListAndWatch", sim.Say(formBackOff, why, m.kind.Resource()).With(int64(wait.Round(time.Millisecond))))
}

// listed takes the answer to a monitor's list.
func (g *GarbageCollector) listed(ctx *sim.Context, i int, reply *apistore.Reply) sim.Report {
	m := &g.monitors[i]
	m.lw.Answered()
	if err := reply.Response.Err; err != nil {
		return g.backOff(ctx, i, "list of "+m.kind.Resource()+" failed: "+err.Error())
	}
	var notes []string
	if m.owner {
		notes = g.ownersListed(ctx, i, reply)
	}
	// The monitor is current from here on: what the list says is the truth
	// as of its resourceVersion.
	m.lw.Observed(reply.Response.ResourceVersion)
	g.watch(ctx, i)
	into := ""
	if m.dependent {
		notes = append(notes, g.dependentsListed(ctx, i, reply)...)
		into = " into the graph"
		// Orphaning tasks that waited for the graph go on.
		if resumed := g.resumeOrphaning(ctx); resumed > 0 {
			notes = append(notes, plural(resumed, "owner", "owners")+" waiting for the graph to orphan "+pick(resumed == 1, "its", "their")+" dependents go on")
		}
	}
	if m.owner {
		if n := g.sweep(ctx, m.kind); n > 0 {
			notes = append(notes, plural(n, "dependent names", "dependents name")+" a "+string(m.kind)+
				" that was not in the list: queued for attemptToDeleteItem")
		}
	}
	noun := m.kind.Resource()
	if len(reply.Response.Items) == 1 {
		noun = string(m.kind)
	}
	summary := sim.Say(formListed, noun, into).With(int64(len(reply.Response.Items)), int64(m.lw.RV()))
	for _, n := range notes {
		summary = summary.Then(sim.Say(formNote, n))
	}
	return g.report("Reflector.syncWith", summary)
}

// ownersListed takes the list of an owner kind: every owner listed is
// observed, and every owner of the kind known before but not listed any
// more was deleted while the monitor was not watching. (So was any owner of
// the kind that dependents in the graph name and that was not listed: sweep
// finds those once the monitor watches.) It returns what the step says.
func (g *GarbageCollector) ownersListed(ctx *sim.Context, i int, reply *apistore.Reply) []string {
	m := &g.monitors[i]
	listed := map[string]bool{}
	var notes []string
	for _, obj := range reply.Response.Items {
		listed[obj.Meta().UID] = true
		if note := g.observe(ctx, obj); note != "" {
			notes = append(notes, note)
		}
	}
	for _, uid := range slices.Sorted(maps.Keys(g.owners)) {
		if o := g.owners[uid]; o.Kind == m.kind && !listed[uid] {
			notes = append(notes, g.ownerGone(ctx, o, "gone from the list"))
		}
	}
	return notes
}

func (g *GarbageCollector) watchOpened(ctx *sim.Context, i int, reply *apistore.Reply) sim.Report {
	m := &g.monitors[i]
	m.lw.Answered()
	if err := reply.Response.Err; err != nil {
		return g.backOff(ctx, i, "watch of "+m.kind.Resource()+" failed: "+err.Error())
	}
	m.state = monitorWatching
	m.lw.Opened(reply.ID)
	opened := sim.Say(formWatchOpen, m.kind.Resource()).With(int64(reply.Request.List().ResourceVersion))
	if m.relist {
		m.relist = false
		m.lw.CloseWatch(g.cfg.Server)
		g.list(ctx, i)
		return g.report("Reflector.watch", opened.Then(sim.Say(formWatchRelist, m.kind.Resource(), roles(m))))
	}
	return g.report("Reflector.watch", opened)
}

// watchEvent is GraphBuilder.processGraphChanges. For an owner, a deletion
// hands its dependents in the graph to attemptToDelete, a deletionTimestamp
// with the orphan finalizer starts their orphaning, and one with the
// foregroundDeletion finalizer their deletion in the foreground; for a
// dependent, the graph is updated (see dependentChange). An object of a
// kind that is both is handled as both, in one step.
func (g *GarbageCollector) watchEvent(ctx *sim.Context, d apistore.WatchDelivery) sim.Report {
	i := -1
	for j := range g.monitors {
		m := &g.monitors[j]
		if m.lw.Delivers(d, m.state == monitorOpening) {
			i = j
			break
		}
	}
	ev := d.Event
	obj := ev.Object
	if i < 0 {
		return g.report("Reflector.watch", sim.Say(formDiscarded, api.ShortName(obj.Kind()), obj.Meta().Name).
			With(ev.Type.Choice(), int64(ev.ResourceVersion)), ownerOf(obj).ref())
	}
	m := &g.monitors[i]
	if _, opened := m.lw.Accept(d, m.state == monitorOpening); opened {
		// An event can overtake the answer that opened its watch.
		delete(g.requests, d.WatchID)
		m.state = monitorWatching
	}
	m.lw.Observed(ev.ResourceVersion)
	if !m.owner {
		// processGraphChanges for an object of a dependent kind. Every
		// delivery is a step, one per change of every pod: its sentence is
		// said, with the event's and the owners' names as facts, never
		// written when the step runs. (It is written out here, not in a
		// function of its own: the step's report, 176 bytes, was copied
		// out of that function's result into this one's for every pod
		// change.)
		n := nodeOf(obj)
		change, _ := g.dependentChange(ctx, ev.Type, n)
		return g.report("processGraphChanges", sawEvent(ev).Then(change), n.ref())
	}
	o := ownerOf(obj)
	if ev.Type == apistore.Deleted {
		touched := []sim.Ref{o.ref()}
		for _, d := range g.dependentsOf(o.UID) {
			touched = append(touched, d.ref())
		}
		summary := sawEvent(ev).Then(sim.Text(g.ownerGone(ctx, o, "deleted")))
		if m.dependent {
			change, _ := g.dependentChange(ctx, ev.Type, nodeOf(obj))
			summary = summary.Then(sim.Say(formAsDependent)).Then(change)
		}
		return g.report("processGraphChanges", summary, touched...)
	}
	// As upstream, the graph changes first, then the owner's transitions
	// (processTransitions) are seen. Every owner event, a ReplicaSet's
	// status among them, is such a step, and says its sentence.
	var graph sim.Sentence
	unchanged := false
	if m.dependent {
		graph, unchanged = g.dependentChange(ctx, ev.Type, nodeOf(obj))
	}
	note := g.observe(ctx, obj)
	if unchanged && note != "" {
		graph = sim.Sentence{}
	}
	var what sim.Sentence
	switch {
	case !graph.IsZero() && note != "":
		what = graph.Then(sim.Say(formAndThen, note))
	case !graph.IsZero():
		what = graph
	case note == "":
		what = sim.Say(formNothingToDo)
	default:
		what = sim.Text(note)
	}
	return g.report("processGraphChanges", sawEvent(ev).Then(what), o.ref())
}

var (
	formAsDependent = &sim.Form{Text: "; as a dependent, "}
	formNothingToDo = &sim.Form{Text: "nothing for the garbage collector to do"}
)

func init() { sim.Register(formAsDependent, formNothingToDo) }

// observe records an owner as it now is. If it is being deleted with the
// orphan finalizer, its dependents must be orphaned: it starts that task and
// says so; with the foregroundDeletion finalizer, its dependents must be
// deleted first: it marks the owner and queues them, and says so; otherwise
// it returns "".
func (g *GarbageCollector) observe(ctx *sim.Context, obj api.Object) string {
	o := ownerOf(obj)
	if known, ok := g.owners[o.UID]; !ok || !sameOwner(known, o) {
		// Most events of an owner (its status) change nothing kept here;
		// writing them anyway would copy owners after every snapshot.
		g.writableOwners()[o.UID] = o
	}
	m := obj.Meta()
	if m.DeletionTimestamp != nil && hasFinalizer(m, apistore.FinalizerDeleteDependents) {
		return g.startDeletingDependents(ctx, o)
	}
	if len(g.deleting) > 0 {
		// The finalizer went, but something else holds the owner: a new
		// foreground delete would start over.
		g.stopDeletingDependents(o.UID)
	}
	if _, done := g.orphaned[o.UID]; done || m.DeletionTimestamp == nil ||
		!hasFinalizer(m, apistore.FinalizerOrphanDependents) || g.tasks[o.UID] != nil {
		return ""
	}
	g.startOrphaning(ctx, o)
	return o.String() + " is being deleted with the orphan finalizer: its dependents must be orphaned before it goes; queued for attemptToOrphan"
}

// writableOwners returns owners, cloned first if a snapshot shares it.
func (g *GarbageCollector) writableOwners() map[string]ownerRef {
	if g.ownersShared {
		g.owners = maps.Clone(g.owners)
		g.ownersShared = false
	}
	return g.owners
}

// ownerGone handles an owner that no longer exists, and says what follows:
// its dependents in the graph go to attemptToDelete, as upstream's
// processGraphChanges hands them over when it removes the owner's node.
func (g *GarbageCollector) ownerGone(ctx *sim.Context, o ownerRef, how string) string {
	if _, ok := g.owners[o.UID]; ok {
		delete(g.writableOwners(), o.UID)
	}
	g.noteDeleted(o.UID)
	foreground := g.stopDeletingDependents(o.UID)
	if done, ok := g.orphaned[o.UID]; ok {
		delete(g.orphaned, o.UID)
		late, again := g.enqueueAfterOrphaning(ctx, o, done, "was deleted after its dependents were orphaned")
		if len(late) == 0 && len(again) == 0 {
			return o.String() + " is " + how + "; its dependents were orphaned before, so there is nothing to collect"
		}
		return o.String() + " is " + how + "; its dependents were orphaned before, but" + stillNaming(late, again, "since") + ": queued for attemptToDeleteItem"
	}
	if t := g.tasks[o.UID]; t != nil {
		t.gone = true
		return o.String() + " is " + how + " while its dependents are being orphaned; the orphaning goes on"
	}
	deps := g.dependentsOf(o.UID)
	lead := o.String() + " is " + how + ", so its dependents must go too (background cascading deletion): found " +
		plural(len(deps), "dependent", "dependents") + " of " + o.String() + " in the graph"
	if foreground {
		// Its blocking dependents went first; what is left (dependents
		// that did not block it, or that came late) goes as after a
		// background deletion.
		lead = o.String() + " is " + how + " after its blocking dependents (foreground cascading deletion): found " +
			plural(len(deps), "dependent", "dependents") + " of " + o.String() + " left in the graph"
	}
	if len(deps) == 0 {
		return lead + "; nothing to collect"
	}
	reason := "was seen deleted"
	if how != "deleted" {
		reason = "is " + how
	}
	g.enqueueNodes(ctx, deps, o, reason)
	return lead + " (" + nodeNames(deps) + "); queued for attemptToDeleteItem"
}
