package gc

import (
	"slices"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
)

// Foreground cascading deletion: an owner deleted with propagationPolicy
// Foreground keeps a deletionTimestamp and the "foregroundDeletion"
// finalizer, and the collector removes the finalizer only once no dependent
// with blockOwnerDeletion names it any more. Upstream marks such an owner's
// node deletingDependents (processTransitions) and puts it in the
// attemptToDelete queue with its dependents; attemptToDeleteItem sends it to
// processDeletingDependentsItem, which removes the finalizer when no
// blocking dependent is left in the graph, and otherwise waits to be queued
// again: by a dependent's removal from the graph, or by a dependent that no
// longer blocks it.

// reasonForeground is why a dependent of an owner deleting its dependents in
// the foreground is in the attemptToDelete queue, after the owner's name.
const reasonForeground = "is deleting its dependents in the foreground"

// isOwnerKind reports whether the collector follows a kind as an owner.
func (g *GarbageCollector) isOwnerKind(kind api.Kind) bool {
	return slices.ContainsFunc(g.monitors, func(m monitor) bool { return m.kind == kind && m.owner })
}

// isDeletingDependents reports whether the owner with uid is deleting its
// dependents in the foreground (upstream's node.isDeletingDependents).
func (g *GarbageCollector) isDeletingDependents(uid string) bool {
	return slices.Contains(g.deleting, uid)
}

// startDeletingDependents marks an owner seen with a deletionTimestamp and
// the foregroundDeletion finalizer as deleting its dependents, and queues
// its dependents in the graph, then itself, for attemptToDeleteItem, as
// upstream's processTransitions does. It says so, or returns "" if the
// owner was marked already.
func (g *GarbageCollector) startDeletingDependents(ctx *sim.Context, o ownerRef) string {
	if g.isDeletingDependents(o.UID) {
		return ""
	}
	g.deleting = append(slices.Clip(g.deleting), o.UID)
	deps := g.dependentsOf(o.UID)
	g.enqueueNodes(ctx, deps, o, reasonForeground)
	g.enqueueOwner(ctx, o)
	lead := o.String() + " is being deleted in the foreground (foregroundDeletion finalizer): it stays until no dependent with blockOwnerDeletion is left"
	if len(deps) == 0 {
		return lead + "; it has no dependents in the graph: queued for attemptToDeleteItem"
	}
	return lead + "; queued its " + plural(len(deps), "dependent", "dependents") + " in the graph (" + nodeNames(deps) +
		"), then itself, for attemptToDeleteItem"
}

// stopDeletingDependents forgets that an owner deletes its dependents in the
// foreground: it is gone, or no longer has the finalizer. It reports
// whether it was marked.
func (g *GarbageCollector) stopDeletingDependents(uid string) bool {
	i := slices.Index(g.deleting, uid)
	if i < 0 {
		return false
	}
	g.deleting = slices.Delete(slices.Clone(g.deleting), i, i+1)
	return true
}

// enqueueOwner puts an owner deleting its dependents in the attemptToDelete
// queue (once, as a workqueue holds a key once): the worker sees whether
// it may go.
func (g *GarbageCollector) enqueueOwner(ctx *sim.Context, o ownerRef) bool {
	n, ok := g.nodes.get(o.UID)
	if !ok {
		// The owner's kind is not a dependent kind: the item needs only its
		// name, and is being deleted.
		n = node{depRef: depRef{kind: o.Kind, namespace: o.Namespace, name: o.Name, uid: o.UID}, beingDeleted: true}
	}
	return g.enqueueNode(ctx, n, o, reasonForeground)
}

// wakeOwners queues, for attemptToDeleteItem, the owners named in refs that
// are deleting their dependents in the foreground: a dependent of theirs
// left the graph or stopped blocking them, so they may be free to go. It
// returns those it queued.
func (g *GarbageCollector) wakeOwners(ctx *sim.Context, refs []api.OwnerReference) []ownerRef {
	var woken []ownerRef
next:
	for _, r := range refs {
		o, alive := g.owners[r.UID]
		if !alive || !g.isDeletingDependents(r.UID) {
			continue
		}
		for _, w := range woken {
			if sameOwner(w, o) {
				continue next
			}
		}
		if g.enqueueOwner(ctx, o) {
			woken = append(woken, o)
		}
	}
	return woken
}

// wokenNote says that owners deleting their dependents were queued.
func wokenNote(woken []ownerRef) string {
	names := ""
	for i, o := range woken {
		if i > 0 {
			names += ", "
		}
		names += o.String()
	}
	return names + ", deleting " + pick(len(woken) == 1, "its", "their") +
		" dependents in the foreground, queued for attemptToDeleteItem to see whether " +
		pick(len(woken) == 1, "it", "they") + " may go now"
}

// blockingDependents returns the dependents in the graph whose reference to
// the owner with uid has blockOwnerDeletion set (upstream's
// node.blockingDependents). A dependent being deleted counts until it is
// gone from the graph: a terminating pod holds its owner.
func (g *GarbageCollector) blockingDependents(uid string) []node {
	var out []node
	for _, n := range g.dependentsOf(uid) {
		if slices.ContainsFunc(n.owners, func(r api.OwnerReference) bool { return r.UID == uid && blocks(r) }) {
			out = append(out, n)
		}
	}
	return out
}

// ownerOfItem names the owner a queue item stands for.
func (g *GarbageCollector) ownerOfItem(d *dependent) ownerRef {
	if o, ok := g.owners[d.uid]; ok {
		return o
	}
	return ownerRef{Kind: d.kind, Namespace: d.namespace, Name: d.name, UID: d.uid, APIVersion: d.kind.APIVersion()}
}

// processDeletingDependents is upstream's processDeletingDependentsItem for
// the owner the worker holds: with no blocking dependent left in the graph,
// it removes the owner's foregroundDeletion finalizer (read, then patch);
// otherwise it queues each blocking dependent that is neither being deleted
// nor deleting its own dependents, and lets the owner wait until a
// dependent's change queues it again.
func (g *GarbageCollector) processDeletingDependents(ctx *sim.Context, d *dependent, lead string) sim.Report {
	blockers := g.blockingDependents(d.uid)
	if len(blockers) == 0 {
		g.readForegroundOwner(ctx, d)
		return g.reportText("processDeletingDependentsItem", lead+": it is deleting its dependents in the foreground, and no dependent "+
			"with blockOwnerDeletion is left in the graph: removing its foregroundDeletion finalizer, reading it first (GET)", d.ref())
	}
	owner := g.ownerOfItem(d)
	var queued []node
	terminating, nested := 0, 0
	for _, b := range blockers {
		switch {
		case g.isDeletingDependents(b.uid):
			nested++
		case b.beingDeleted:
			// Upstream queues it too, and attemptToDeleteItem returns at once
			// for an object being deleted: the model spares that step.
			terminating++
		default:
			if g.enqueueNode(ctx, b, owner, reasonForeground) {
				queued = append(queued, b)
			}
		}
	}
	var how []string
	if terminating > 0 {
		how = append(how, sim.Count(terminating, "being deleted", "being deleted"))
	}
	if nested > 0 {
		how = append(how, sim.Count(nested, "deleting its own dependents in the foreground", "deleting their own dependents in the foreground"))
	}
	summary := lead + ": it is deleting its dependents in the foreground, and " +
		plural(len(blockers), "dependent", "dependents") + " with blockOwnerDeletion still " + pick(len(blockers) == 1, "blocks", "block") +
		" it (" + nodeNames(blockers)
	for i, h := range how {
		summary += pick(i == 0, "; ", ", ") + h
	}
	summary += "): it waits for " + pick(len(blockers) == 1, "it", "them") + " to go"
	if len(queued) > 0 {
		summary += "; queued " + nodeNames(queued) + " for attemptToDeleteItem"
	}
	rep := g.finishDependent(ctx, d, summary)
	rep.Models = "processDeletingDependentsItem"
	return rep
}

// readForegroundOwner starts removeFinalizer for the owner the worker
// holds: a live GET.
func (g *GarbageCollector) readForegroundOwner(ctx *sim.Context, d *dependent) {
	g.send(ctx, apistore.Request{Verb: apistore.VerbGet, Kind: d.kind, Namespace: d.namespace, Name: d.name},
		pending{purpose: getForegroundOwner, uid: d.uid})
}

// foregroundOwnerRead patches the foregroundDeletion finalizer away, with
// the resourceVersion just read as a precondition.
func (g *GarbageCollector) foregroundOwnerRead(ctx *sim.Context, p pending, reply *apistore.Reply) sim.Report {
	d := g.deps[p.uid]
	if d == nil || g.current != p.uid {
		return g.reportText("", "ignored a read for an owner no longer processed")
	}
	err := reply.Response.Err
	switch {
	case apistore.IsNotFound(err):
		return g.foregroundDone(ctx, d, d.String()+" is already gone")
	case err != nil:
		return g.retryDependentLater(ctx, d, "reading "+d.String()+" to remove its foregroundDeletion finalizer failed: "+err.Error())
	}
	m := reply.Response.Object.Meta()
	if m.UID != d.uid {
		return g.foregroundDone(ctx, d, d.String()+" is gone (a new object with uid "+m.UID+" took its name)")
	}
	if !hasFinalizer(m, apistore.FinalizerDeleteDependents) {
		return g.foregroundDone(ctx, d, d.String()+" no longer has the foregroundDeletion finalizer; nothing to do")
	}
	g.send(ctx, apistore.Request{Verb: apistore.VerbPatch, Kind: d.kind, Namespace: d.namespace, Name: d.name,
		Patch: &apistore.MetaPatch{ResourceVersion: m.ResourceVersion, RemoveFinalizers: []string{apistore.FinalizerDeleteDependents}}},
		pending{purpose: removeForegroundFinalizer, uid: d.uid})
	return g.reportText("removeFinalizer", "read "+d.String()+" at resourceVersion "+m.ResourceVersion+
		": removing its foregroundDeletion finalizer (PATCH, resourceVersion as precondition)", d.ref())
}

// foregroundFinalizerRemoved takes the answer to the finalizer patch. A
// conflict reads the owner again after RetryOnConflict's back-off, the
// worker holding it meanwhile, as upstream's worker does.
func (g *GarbageCollector) foregroundFinalizerRemoved(ctx *sim.Context, p pending, reply *apistore.Reply) sim.Report {
	d := g.deps[p.uid]
	if d == nil || g.current != p.uid {
		return g.reportText("", "ignored a patch answer for an owner no longer processed")
	}
	err := reply.Response.Err
	switch {
	case err == nil && reply.Response.Deleted:
		return g.foregroundDone(ctx, d, "removed the foregroundDeletion finalizer from "+d.String()+
			"; with no finalizer left, the API server removed it")
	case err == nil:
		return g.foregroundDone(ctx, d, "removed the foregroundDeletion finalizer from "+d.String()+"; other finalizers still hold it")
	case apistore.IsNotFound(err):
		return g.foregroundDone(ctx, d, d.String()+" is already gone")
	case apistore.IsConflict(err):
		d.conflicts++
		if d.conflicts < conflictRetries {
			wait := conflictWait(ctx, d.conflicts)
			ctx.After(wait, g.cfg.Name, eventRetryForeground, d.uid)
			return g.reportText("removeFinalizer", "removing the foregroundDeletion finalizer from "+d.String()+" met a conflict ("+
				err.Error()+"); reading it again in "+wait.Round(time.Microsecond).String(), d.ref())
		}
		return g.retryDependentLater(ctx, d, "removing the foregroundDeletion finalizer from "+d.String()+" met "+
			plural(d.conflicts, "conflict", "conflicts")+" in a row")
	}
	return g.retryDependentLater(ctx, d, "removing the foregroundDeletion finalizer from "+d.String()+" failed: "+err.Error())
}

// retryForegroundFinalizer reads the owner again after a conflict.
func (g *GarbageCollector) retryForegroundFinalizer(ctx *sim.Context, uid string) sim.Report {
	d := g.deps[uid]
	if d == nil || g.current != uid {
		return g.reportText("removeFinalizer", "no owner waiting to be read again")
	}
	g.readForegroundOwner(ctx, d)
	return g.reportText("removeFinalizer", "reading "+d.String()+" again to remove its foregroundDeletion finalizer", d.ref())
}

// foregroundDone ends the worker's hold on an owner whose finalizer is
// dealt with.
func (g *GarbageCollector) foregroundDone(ctx *sim.Context, d *dependent, summary string) sim.Report {
	rep := g.finishDependent(ctx, d, summary)
	rep.Models = "removeFinalizer"
	return rep
}

// conflictWait is retry.DefaultBackoff's wait before try n+1 of
// RetryOnConflict: 10ms, 50ms, 250ms, each with up to 10% jitter.
func conflictWait(ctx *sim.Context, n int) time.Duration {
	wait := conflictBackoff
	for i := 1; i < n; i++ {
		wait *= 5
	}
	return wait + time.Duration(ctx.Rand().Float64()*0.1*float64(wait))
}
