package gc

import (
	"slices"
	"strconv"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
)

// depState says where a dependent is in the attemptToDelete queue.
type depState string

const (
	depQueued     depState = "queued"
	depProcessing depState = "processing"
	depWaiting    depState = "waiting to retry"
)

// dependent is an object whose owner is gone, in the attemptToDelete queue.
// Its slices are never changed in place once a snapshot may hold them.
type dependent struct {
	depRef
	// owners, beingDeleted and finalizers are the object as last read: as
	// the graph last saw it, or from a live GET.
	owners       []api.OwnerReference
	beingDeleted bool
	finalizers   []string
	// cause is the gone owner that made it a candidate, and reason says why
	// it is thought gone ("was seen deleted").
	cause  ownerRef
	reason string

	state depState
	// stale says the data above may be old: a retry, or a dependent queued
	// while its kind's monitor was not watching, reads the object again
	// first, as upstream's attemptToDeleteItem always does.
	stale bool
	// recheck says it was queued stale because the collector orphaned it
	// and the graph shows it naming the gone owner again: adopted again
	// while the owner was being deleted, or the graph has not seen the
	// orphaning patch yet. Only the live object tells.
	recheck bool
	// next is the index of the next owner reference to classify.
	next int
	// solid, dangling and waiting classify owners (indexes into owners):
	// alive, gone, and alive but deleting its dependents in the foreground.
	solid, dangling, waiting []int
	// conflicts counts removeFinalizer's tries in this round, for an owner
	// deleting its dependents in the foreground.
	conflicts int
	// retries counts rate-limited retries since the last success.
	retries int
	// lastErr is the error of the last failed try.
	lastErr string
}

func (d *dependent) String() string { return d.depRef.String() }

func dependentOf(n node, cause ownerRef, reason string) *dependent {
	return &dependent{
		depRef:       n.depRef,
		owners:       n.owners,
		beingDeleted: n.beingDeleted,
		finalizers:   n.finalizers,
		cause:        cause,
		reason:       reason,
		state:        depQueued,
	}
}

func (d *dependent) clone() *dependent {
	c := *d
	return &c
}

// enqueueNode adds a dependent, as the graph last saw it, to the
// attemptToDelete queue, unless it is there already (a workqueue holds a key
// once). It reports whether it was added.
func (g *GarbageCollector) enqueueNode(ctx *sim.Context, n node, cause ownerRef, reason string) bool {
	return g.enqueue(ctx, n, cause, reason, false)
}

// enqueue is enqueueNode; with recheck, the worker reads the dependent live
// before it judges it (see dependent.recheck).
func (g *GarbageCollector) enqueue(ctx *sim.Context, n node, cause ownerRef, reason string, recheck bool) bool {
	if d := g.deps[n.uid]; d != nil {
		if recheck && d.state == depQueued && !d.stale {
			// Queued already, for another owner: it too must be read live.
			d = d.clone()
			d.stale = true
			g.deps[n.uid] = d
		}
		return false
	}
	d := dependentOf(n, cause, reason)
	d.stale = recheck || !g.upToDate(n.kind)
	d.recheck = recheck
	g.deps[n.uid] = d
	g.queue = append(slices.Clip(g.queue), n.uid)
	g.scheduleWork(ctx)
	return true
}

func (g *GarbageCollector) enqueueNodes(ctx *sim.Context, ns []node, cause ownerRef, reason string) {
	for _, n := range ns {
		g.enqueueNode(ctx, n, cause, reason)
	}
}

// enqueueAfterOrphaning queues, when an owner whose dependents were orphaned
// is gone, every dependent the graph still shows naming it, as upstream's
// processGraphChanges hands all of a removed owner's dependents to
// attemptToDelete. Those that appeared since the orphaning began (late) are
// queued as any dependent of a gone owner; those the collector orphaned
// (done) but that name the owner again are read live first (recheck): a
// replication manager whose cache had not seen the deletion may have adopted
// them again, or the graph has not seen the orphaning patch yet. It returns
// the two lists.
func (g *GarbageCollector) enqueueAfterOrphaning(ctx *sim.Context, o ownerRef, done []string, reason string) (late, again []node) {
	for _, d := range g.dependentsOf(o.UID) {
		if slices.Contains(done, d.uid) {
			again = append(again, d)
		} else {
			late = append(late, d)
		}
	}
	g.enqueueNodes(ctx, late, o, reason)
	for _, d := range again {
		g.enqueue(ctx, d, o, reason, true)
	}
	return late, again
}

func (g *GarbageCollector) scheduleWork(ctx *sim.Context) {
	if g.workScheduled || g.current != "" || len(g.queue) == 0 {
		return
	}
	g.workScheduled = true
	ctx.After(0, g.cfg.Name, eventWork, nil)
}

// work is the attemptToDelete worker taking the next dependent: upstream's
// processAttemptToDeleteWorker and the start of attemptToDeleteItem.
func (g *GarbageCollector) work(ctx *sim.Context) sim.Report {
	g.workScheduled = false
	if g.current != "" || len(g.queue) == 0 {
		return g.reportText("processAttemptToDeleteWorker", "nothing to do")
	}
	uid := g.queue[0]
	g.queue = slices.Clone(g.queue[1:])
	d := g.deps[uid].clone()
	g.deps[uid] = d
	g.current = uid
	d.state = depProcessing
	d.next, d.solid, d.dangling, d.waiting, d.conflicts = 0, nil, nil, nil, 0
	if d.stale {
		g.send(ctx, apistore.Request{Verb: apistore.VerbGet, Kind: d.kind, Namespace: d.namespace, Name: d.name},
			pending{purpose: getDependent, uid: uid})
		if d.retries > 0 {
			return g.reportText("attemptToDeleteItem", "retrying "+d.String()+": reading it first, since it may have changed", d.ref())
		}
		if d.recheck {
			return g.reportText("attemptToDeleteItem", "took "+d.String()+" from the queue ("+d.cause.String()+" "+d.reason+
				"); it was orphaned, yet the graph shows it naming "+d.cause.String()+" again (adopted again, or the graph has not seen the orphaning yet), so reading it first", d.ref())
		}
		return g.reportText("attemptToDeleteItem", "took "+d.String()+" from the queue ("+d.cause.String()+" "+d.reason+
			"); it was queued while the graph of "+d.kind.Resource()+" was behind, so reading it first", d.ref())
	}
	if g.isDeletingDependents(uid) {
		return g.processDeletingDependents(ctx, d, "took "+d.String()+" from the queue")
	}
	return g.classify(ctx, d, "took "+d.String()+" from the queue ("+d.cause.String()+" "+d.reason+")")
}

// attemptToDelete goes on with attemptToDeleteItem once the worker has the
// object as the graph saw it or as just read: an owner deleting its
// dependents in the foreground goes to processDeletingDependentsItem, any
// other object has its owners classified.
func (g *GarbageCollector) attemptToDelete(ctx *sim.Context, d *dependent, lead string) sim.Report {
	if g.isDeletingDependents(d.uid) {
		return g.processDeletingDependents(ctx, d, lead)
	}
	return g.classify(ctx, d, lead)
}

// dependentRead takes the live GET of a dependent being retried.
func (g *GarbageCollector) dependentRead(ctx *sim.Context, p pending, reply *apistore.Reply) sim.Report {
	d := g.deps[p.uid]
	if d == nil || g.current != p.uid {
		return g.reportText("", "ignored a read for a dependent no longer processed")
	}
	err := reply.Response.Err
	switch {
	case apistore.IsNotFound(err):
		return g.finishDependent(ctx, d, d.String()+" is gone already; nothing to do")
	case err != nil:
		return g.retryDependentLater(ctx, d, "reading "+d.String()+" failed: "+err.Error())
	}
	obj := reply.Response.Object
	if obj.Meta().UID != d.uid {
		return g.finishDependent(ctx, d, d.String()+" is gone (a new object with uid "+obj.Meta().UID+" took its name); nothing to do")
	}
	fresh := dependentOf(nodeOf(obj), d.cause, d.reason)
	fresh.state, fresh.retries, fresh.lastErr = depProcessing, d.retries, d.lastErr
	g.deps[p.uid] = fresh
	return g.attemptToDelete(ctx, fresh, "read "+d.String())
}

// classify walks the dependent's owner references from d.next, classifying
// each as upstream's classifyReferences does. An owner in the
// absentOwnerCache is gone without asking; any other owner is read from the
// API server (isDangling), one GET at a time. When all are classified, it
// decides.
func (g *GarbageCollector) classify(ctx *sim.Context, d *dependent, lead string) sim.Report {
	if d.beingDeleted {
		return g.finishDependent(ctx, d, lead+": it is being deleted already; nothing to do")
	}
	if len(d.owners) == 0 {
		return g.finishDependent(ctx, d, lead+": it has no owner any more; nothing to do")
	}
	known := ""
	for d.next < len(d.owners) {
		ref := d.owners[d.next]
		if g.absentHas(ref.UID) {
			d.dangling = append(slices.Clip(d.dangling), d.next)
			known += "; " + refString(ref) + " is known to be gone (absentOwnerCache)"
			d.next++
			continue
		}
		kind := api.Kind(ref.Kind)
		if kind.Resource() == "" {
			// Upstream cannot map the kind to a resource and retries until
			// discovery knows it; the model serves a fixed set of kinds, so it
			// keeps such a reference, as if the owner were alive.
			d.solid = append(slices.Clip(d.solid), d.next)
			known += "; " + refString(ref) + " is of a kind the API server does not serve: kept"
			d.next++
			continue
		}
		g.send(ctx, apistore.Request{Verb: apistore.VerbGet, Kind: kind, Namespace: d.namespace, Name: ref.Name},
			pending{purpose: getOwner, uid: d.uid})
		return g.reportText("isDangling", lead+known+"; is its owner "+refString(ref)+" still there? reading it (GET)", d.ref(), refRef(ref, d.namespace))
	}
	return g.decide(ctx, d, lead+known)
}

// ownerRead takes the live GET of one owner of a dependent: NotFound, or an
// object of that name with another uid, means the owner is gone.
func (g *GarbageCollector) ownerRead(ctx *sim.Context, p pending, reply *apistore.Reply) sim.Report {
	d := g.deps[p.uid]
	if d == nil || g.current != p.uid || d.next >= len(d.owners) {
		return g.reportText("", "ignored an owner read for a dependent no longer processed")
	}
	ref := d.owners[d.next]
	err := reply.Response.Err
	var note string
	switch {
	case apistore.IsNotFound(err):
		g.absentAdd(ref.UID)
		d.dangling = append(slices.Clip(d.dangling), d.next)
		note = refString(ref) + " is gone (NotFound)"
	case err != nil:
		return g.retryDependentLater(ctx, d, "reading the owner "+refString(ref)+" of "+d.String()+" failed: "+err.Error())
	default:
		m := reply.Response.Object.Meta()
		switch {
		case m.UID != ref.UID:
			g.absentAdd(ref.UID)
			d.dangling = append(slices.Clip(d.dangling), d.next)
			note = refString(ref) + " is gone (the " + ref.Kind + " now called " + ref.Name + " has another uid, " + m.UID + ")"
		case m.DeletionTimestamp != nil && hasFinalizer(m, apistore.FinalizerDeleteDependents):
			d.waiting = append(slices.Clip(d.waiting), d.next)
			note = refString(ref) + " is deleting its dependents in the foreground"
		default:
			d.solid = append(slices.Clip(d.solid), d.next)
			note = refString(ref) + " is alive"
		}
	}
	d.next++
	return g.classify(ctx, d, d.String()+": "+note)
}

// decide is the end of attemptToDeleteItem: keep the dependent if an owner is
// alive (removing its references to the gone ones), else delete it.
func (g *GarbageCollector) decide(ctx *sim.Context, d *dependent, lead string) sim.Report {
	touched := []sim.Ref{d.ref()}
	if len(d.solid) > 0 {
		alive := d.owners[d.solid[0]]
		gone := append(slices.Clone(d.dangling), d.waiting...)
		if len(gone) == 0 {
			return g.finishDependent(ctx, d, lead+"; "+d.String()+" still has a live owner, "+refString(alive)+"; nothing to do")
		}
		uids := make([]string, len(gone))
		names := ""
		for i, j := range gone {
			uids[i] = d.owners[j].UID
			if i > 0 {
				names += ", "
			}
			names += refString(d.owners[j])
		}
		g.send(ctx, apistore.Request{Verb: apistore.VerbPatch, Kind: d.kind, Namespace: d.namespace, Name: d.name,
			Patch: &apistore.MetaPatch{UID: d.uid, RemoveOwnerReferences: uids}},
			pending{purpose: unlinkDependent, uid: d.uid})
		return g.reportText("attemptToDeleteItem", lead+"; "+d.String()+" still has a live owner, "+refString(alive)+
			", so it stays: removing only its reference to "+names+" (PATCH, uid precondition)", touched...)
	}
	policy := apistore.DeletePropagationBackground
	why := "no owner of " + d.String() + " is left"
	if len(d.waiting) > 0 {
		why = d.String() + " has no live owner"
	}
	switch deps := g.dependents[d.uid].len(); {
	case len(d.waiting) > 0 && deps > 0:
		// An owner deletes its dependents in the foreground and this one has
		// dependents of its own: they go first, and it waits for them as
		// its owner waits for it.
		policy = apistore.DeletePropagationForeground
		why = d.String() + " has no live owner, and " + plural(deps, "dependent", "dependents") + " of its own in the graph, so it is deleted in the foreground too"
	case slices.Contains(d.finalizers, apistore.FinalizerOrphanDependents):
		policy = apistore.DeletePropagationOrphan
	case slices.Contains(d.finalizers, apistore.FinalizerDeleteDependents):
		policy = apistore.DeletePropagationForeground
	}
	g.send(ctx, apistore.Request{Verb: apistore.VerbDelete, Kind: d.kind, Namespace: d.namespace, Name: d.name,
		DeleteOptions: &apistore.DeleteOptions{PropagationPolicy: policy, Preconditions: apistore.Preconditions{UID: d.uid}}},
		pending{purpose: deleteDependent, uid: d.uid})
	return g.reportText("attemptToDeleteItem", lead+"; "+why+": deleting it (DELETE, propagationPolicy "+
		string(policy)+", uid precondition)", touched...)
}

// dependentWritten takes the answer to the delete or the unlinking patch.
func (g *GarbageCollector) dependentWritten(ctx *sim.Context, p pending, reply *apistore.Reply) sim.Report {
	d := g.deps[p.uid]
	if d == nil || g.current != p.uid {
		return g.reportText("", "ignored a write answer for a dependent no longer processed")
	}
	err := reply.Response.Err
	switch {
	case err == nil && p.purpose == unlinkDependent:
		g.stats.Unlinked++
		return g.finishDependent(ctx, d, d.String()+" no longer names its gone owners; it stays with its live owner")
	case err == nil:
		g.stats.Deleted++
		how := "removed"
		switch {
		case reply.Response.Deleted:
		case reply.Response.Object != nil && hasFinalizer(reply.Response.Object.Meta(), apistore.FinalizerDeleteDependents):
			how = "marked for deletion; it goes once its own blocking dependents are gone (foregroundDeletion finalizer)"
		default:
			how = "marked for deletion; it goes when its grace period ends"
		}
		return g.finishDependent(ctx, d, "deleted "+d.String()+": "+how)
	case apistore.IsNotFound(err):
		// Upstream enqueues a virtual delete event and forgets the item.
		return g.finishDependent(ctx, d, d.String()+" is gone already (NotFound); nothing to do")
	}
	verb := "deleting"
	if p.purpose == unlinkDependent {
		verb = "patching"
	}
	return g.retryDependentLater(ctx, d, verb+" "+d.String()+" failed: "+err.Error())
}

// finishDependent ends the worker's item for good (Forget and Done).
func (g *GarbageCollector) finishDependent(ctx *sim.Context, d *dependent, summary string) sim.Report {
	delete(g.deps, d.uid)
	g.depLimiter.Forget(d.uid)
	g.current = ""
	g.scheduleWork(ctx)
	if n := len(g.queue); n > 0 {
		summary += " (" + plural(n, "dependent", "dependents") + " waiting)"
	}
	return g.reportText("attemptToDeleteItem", summary, d.ref())
}

// retryDependentLater puts a failed dependent back after the rate limiter's
// wait (AddRateLimited and Done); the retry reads it afresh.
func (g *GarbageCollector) retryDependentLater(ctx *sim.Context, d *dependent, why string) sim.Report {
	g.stats.Errors++
	d.state = depWaiting
	d.stale = true
	d.retries++
	d.lastErr = why
	g.current = ""
	wait := g.depLimiter.When(d.uid)
	ctx.After(wait, g.cfg.Name, eventRetryDependent, d.uid)
	g.scheduleWork(ctx)
	return g.reportText("processAttemptToDeleteWorker", why+"; "+d.String()+" goes back in the queue in "+wait.String()+
		" (retry "+strconv.Itoa(d.retries)+")", d.ref())
}

func (g *GarbageCollector) retryDependent(ctx *sim.Context, uid string) sim.Report {
	d := g.deps[uid]
	if d == nil || d.state != depWaiting {
		return g.reportText("", "no dependent waiting to be retried")
	}
	d = d.clone()
	g.deps[uid] = d
	d.state = depQueued
	g.queue = append(slices.Clip(g.queue), uid)
	g.scheduleWork(ctx)
	return g.reportText("waitingLoop", d.String()+"'s back-off is over: back in the attemptToDelete queue ("+
		plural(len(g.queue), "dependent", "dependents")+" waiting)", d.ref())
}

func refString(r api.OwnerReference) string {
	return api.ShortName(api.Kind(r.Kind)) + "/" + r.Name
}

func refRef(r api.OwnerReference, namespace string) sim.Ref {
	return sim.Ref{Kind: api.ShortName(api.Kind(r.Kind)), Namespace: namespace, Name: r.Name}
}
