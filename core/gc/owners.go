package gc

import (
	"slices"
	"strconv"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
)

// taskMode says what is done for an owner.
type taskMode string

const (
	// collecting: the owner is gone; its dependents are being found, to be
	// handed to attemptToDelete.
	collecting taskMode = "background"
	// orphaning: the owner is being deleted with the orphan finalizer; its
	// dependents lose their reference to it, then the finalizer goes.
	orphaning taskMode = "orphan"
)

// taskPhase says where an owner task is.
type taskPhase string

const (
	phaseListing         taskPhase = "listing dependents"
	phaseOrphaning       taskPhase = "orphaning dependents"
	phaseReadingOwner    taskPhase = "reading the owner"
	phaseRemovingFinal   taskPhase = "removing the orphan finalizer"
	phaseBackingOff      taskPhase = "waiting to retry"
	phaseConflictBackoff taskPhase = "waiting to read the owner again after a conflict"
)

// ownerTask is one owner being processed. Its slices are never changed in
// place once a snapshot may hold them.
type ownerTask struct {
	owner ownerRef
	mode  taskMode
	phase taskPhase

	// lists is the number of dependent LISTs not yet answered.
	lists int
	// found are the dependents found so far.
	found []depRef
	// patches is the number of orphaning patches not yet answered; failed
	// counts those that failed, and firstErr is the first failure.
	patches  int
	failed   int
	firstErr string
	// conflicts counts removeFinalizer's tries in this round.
	conflicts int
	// retries counts the task's rate-limited retries.
	retries int
	// gone records that the owner was removed while being orphaned.
	gone bool
}

// depRef names a dependent found by a LIST.
type depRef struct {
	kind      api.Kind
	namespace string
	name      string
	uid       string
}

func (d depRef) ref() sim.Ref {
	return sim.Ref{Kind: api.ShortName(d.kind), Namespace: d.namespace, Name: d.name}
}

func (d depRef) String() string { return d.ref().String() }

func (g *GarbageCollector) addTask(o ownerRef, mode taskMode) *ownerTask {
	t := &ownerTask{owner: o, mode: mode}
	g.tasks[o.UID] = t
	g.taskOrder = append(slices.Clip(g.taskOrder), o.UID)
	return t
}

func (g *GarbageCollector) endTask(uid string) {
	delete(g.tasks, uid)
	g.taskOrder = slices.DeleteFunc(slices.Clone(g.taskOrder), func(u string) bool { return u == uid })
	g.ownerLimiter.Forget(uid)
}

func (g *GarbageCollector) startCollecting(ctx *sim.Context, o ownerRef) {
	g.listDependents(ctx, g.addTask(o, collecting))
}

func (g *GarbageCollector) startOrphaning(ctx *sim.Context, o ownerRef) {
	g.listDependents(ctx, g.addTask(o, orphaning))
}

// listDependents sends one LIST per dependent kind in the owner's namespace.
// Upstream knows every owner's dependents from the graph its GraphBuilder
// builds from informers; the model asks the API server instead (see doc.go).
func (g *GarbageCollector) listDependents(ctx *sim.Context, t *ownerTask) {
	t.phase = phaseListing
	t.lists = len(g.cfg.DependentKinds)
	t.found = nil
	for _, k := range g.cfg.DependentKinds {
		g.send(ctx, apistore.Request{Verb: apistore.VerbList, Kind: k, Namespace: t.owner.Namespace},
			pending{purpose: listDependents, uid: t.owner.UID, kind: k})
	}
}

// dependentsListed takes one LIST answer. When all are in, a gone owner's
// dependents go to attemptToDelete, and an orphaning owner's dependents are
// patched.
func (g *GarbageCollector) dependentsListed(ctx *sim.Context, p pending, reply *apistore.Reply) sim.Report {
	t := g.tasks[p.uid]
	if t == nil {
		return g.report("", "ignored a list for an owner no longer processed")
	}
	if err := reply.Response.Err; err != nil {
		t.lists--
		if t.lists > 0 {
			t.failed++
			t.firstErr = err.Error()
			return g.report("processGraphChanges", "listing "+p.kind.Resource()+" for "+t.owner.String()+" failed: "+err.Error(), t.owner.ref())
		}
		return g.retryTaskLater(ctx, t, "listing "+p.kind.Resource()+" to find the dependents of "+t.owner.String()+" failed: "+err.Error())
	}
	others := 0
	found := slices.Clone(t.found)
	for _, obj := range reply.Response.Items {
		m := obj.Meta()
		if !slices.ContainsFunc(m.OwnerReferences, func(r api.OwnerReference) bool { return r.UID == t.owner.UID }) {
			if len(m.OwnerReferences) > 0 {
				others++
			}
			continue
		}
		found = append(found, depRef{kind: obj.Kind(), namespace: m.Namespace, name: m.Name, uid: m.UID})
		if t.mode == collecting {
			g.enqueue(ctx, obj, t.owner)
		}
	}
	t.found = found
	t.lists--
	if t.lists > 0 {
		return g.report("processGraphChanges", "listed "+p.kind.Resource()+" for "+t.owner.String()+": "+
			plural(len(found), "dependent", "dependents")+" so far", t.owner.ref())
	}
	if t.failed > 0 {
		return g.retryTaskLater(ctx, t, "listing dependents of "+t.owner.String()+" failed: "+t.firstErr)
	}
	names := namesOf(found)
	touched := append([]sim.Ref{t.owner.ref()}, refsOf(found)...)
	if t.mode == collecting {
		g.endTask(t.owner.UID)
		summary := "found " + plural(len(found), "dependent", "dependents") + " of " + t.owner.String()
		if len(found) > 0 {
			summary += " (" + names + "); queued for attemptToDeleteItem"
		}
		if others > 0 {
			summary += "; " + plural(others, "other object", "other objects") + " in " + t.owner.Namespace + " " +
				pick(others == 1, "has other owners and stays", "have other owners and stay")
		}
		return g.report("processGraphChanges", summary, touched...)
	}

	// Orphaning: remove the owner's reference from every dependent, all at
	// once, as upstream's orphanDependents does on one goroutine each.
	if len(found) == 0 {
		g.readOwnerForFinalizer(ctx, t)
		return g.report("orphanDependents", t.owner.String()+" has no dependents to orphan; reading it to remove its orphan finalizer", touched...)
	}
	t.phase = phaseOrphaning
	t.patches, t.failed, t.firstErr = len(found), 0, ""
	for _, d := range found {
		g.send(ctx, apistore.Request{Verb: apistore.VerbPatch, Kind: d.kind, Namespace: d.namespace, Name: d.name,
			Patch: &apistore.MetaPatch{UID: d.uid, RemoveOwnerReferences: []string{t.owner.UID}}},
			pending{purpose: orphanPatch, uid: t.owner.UID, kind: d.kind, name: d.name})
	}
	return g.report("orphanDependents", "orphaning "+plural(len(found), "dependent", "dependents")+" of "+t.owner.String()+
		" ("+names+"): removing its ownerReference from each, "+plural(len(found), "patch", "patches in parallel"), touched...)
}

// orphanPatched takes the answer to one orphaning patch.
func (g *GarbageCollector) orphanPatched(ctx *sim.Context, p pending, reply *apistore.Reply) sim.Report {
	t := g.tasks[p.uid]
	if t == nil {
		return g.report("", "ignored a patch answer for an owner no longer processed")
	}
	dep := sim.Ref{Kind: api.ShortName(p.kind), Namespace: t.owner.Namespace, Name: p.name}
	t.patches--
	err := reply.Response.Err
	var summary string
	switch {
	case err == nil:
		g.stats.Orphaned++
		summary = dep.String() + " no longer names " + t.owner.String() + " as an owner"
	case apistore.IsNotFound(err):
		// The dependent is gone: nothing to orphan (upstream ignores NotFound).
		summary = dep.String() + " is already gone"
	default:
		t.failed++
		if t.firstErr == "" {
			t.firstErr = dep.String() + ": " + err.Error()
		}
		summary = "orphaning " + dep.String() + " failed: " + err.Error()
	}
	if t.patches > 0 {
		return g.report("orphanDependents", summary+" ("+plural(t.patches, "patch", "patches")+" outstanding)", dep, t.owner.ref())
	}
	if t.failed > 0 {
		rep := g.retryTaskLater(ctx, t, summary+"; orphaning the dependents of "+t.owner.String()+" failed ("+t.firstErr+")")
		rep.Touched = []sim.Ref{dep, t.owner.ref()}
		return rep
	}
	g.readOwnerForFinalizer(ctx, t)
	return g.report("orphanDependents", summary+"; all dependents orphaned: reading "+t.owner.String()+" to remove its orphan finalizer", dep, t.owner.ref())
}

// readOwnerForFinalizer starts removeFinalizer: a live GET of the owner.
func (g *GarbageCollector) readOwnerForFinalizer(ctx *sim.Context, t *ownerTask) {
	t.phase = phaseReadingOwner
	g.send(ctx, apistore.Request{Verb: apistore.VerbGet, Kind: t.owner.Kind, Namespace: t.owner.Namespace, Name: t.owner.Name},
		pending{purpose: getOwnerForFinalizer, uid: t.owner.UID})
}

// ownerReadForFinalizer patches the orphan finalizer away, with the
// resourceVersion just read as a precondition.
func (g *GarbageCollector) ownerReadForFinalizer(ctx *sim.Context, p pending, reply *apistore.Reply) sim.Report {
	t := g.tasks[p.uid]
	if t == nil {
		return g.report("", "ignored a read for an owner no longer processed")
	}
	err := reply.Response.Err
	switch {
	case apistore.IsNotFound(err):
		return g.orphaningDone(t, t.owner.String()+" is already gone")
	case err != nil:
		return g.retryTaskLater(ctx, t, "reading "+t.owner.String()+" failed: "+err.Error())
	}
	m := reply.Response.Object.Meta()
	if m.UID != t.owner.UID {
		return g.orphaningDone(t, t.owner.String()+" is gone (a new object with uid "+m.UID+" took its name)")
	}
	if !hasFinalizer(m, apistore.FinalizerOrphanDependents) {
		return g.orphaningDone(t, t.owner.String()+" no longer has the orphan finalizer")
	}
	t.phase = phaseRemovingFinal
	g.send(ctx, apistore.Request{Verb: apistore.VerbPatch, Kind: t.owner.Kind, Namespace: t.owner.Namespace, Name: t.owner.Name,
		Patch: &apistore.MetaPatch{ResourceVersion: m.ResourceVersion, RemoveFinalizers: []string{apistore.FinalizerOrphanDependents}}},
		pending{purpose: removeFinalizerPatch, uid: t.owner.UID})
	return g.report("removeFinalizer", "read "+t.owner.String()+" at resourceVersion "+m.ResourceVersion+
		": removing its orphan finalizer (PATCH, resourceVersion as precondition)", t.owner.ref())
}

// finalizerRemoved takes the answer to the finalizer patch.
func (g *GarbageCollector) finalizerRemoved(ctx *sim.Context, p pending, reply *apistore.Reply) sim.Report {
	t := g.tasks[p.uid]
	if t == nil {
		return g.report("", "ignored a patch answer for an owner no longer processed")
	}
	err := reply.Response.Err
	switch {
	case err == nil && reply.Response.Deleted:
		return g.orphaningDone(t, "removed the orphan finalizer from "+t.owner.String()+
			"; with no finalizer left, the API server removed it")
	case err == nil:
		return g.orphaningDone(t, "removed the orphan finalizer from "+t.owner.String()+"; other finalizers still hold it")
	case apistore.IsNotFound(err):
		return g.orphaningDone(t, t.owner.String()+" is already gone")
	case apistore.IsConflict(err):
		t.conflicts++
		if t.conflicts < conflictRetries {
			// retry.RetryOnConflict: read again after 10ms, 50ms, 250ms,
			// each with up to 10% jitter.
			wait := conflictBackoff
			for i := 1; i < t.conflicts; i++ {
				wait *= 5
			}
			wait += time.Duration(ctx.Rand().Float64() * 0.1 * float64(wait))
			t.phase = phaseConflictBackoff
			ctx.After(wait, g.cfg.Name, eventRetryFinalizer, t.owner.UID)
			return g.report("removeFinalizer", "removing the orphan finalizer from "+t.owner.String()+" met a conflict ("+
				err.Error()+"); reading it again in "+wait.Round(time.Microsecond).String(), t.owner.ref())
		}
		return g.retryTaskLater(ctx, t, "removing the orphan finalizer from "+t.owner.String()+" met "+
			strconv.Itoa(t.conflicts)+" conflicts in a row")
	}
	return g.retryTaskLater(ctx, t, "removing the orphan finalizer from "+t.owner.String()+" failed: "+err.Error())
}

func (g *GarbageCollector) retryFinalizer(ctx *sim.Context, uid string) sim.Report {
	t := g.tasks[uid]
	if t == nil || t.phase != phaseConflictBackoff {
		return g.report("removeFinalizer", "no owner waiting to be read again")
	}
	g.readOwnerForFinalizer(ctx, t)
	return g.report("removeFinalizer", "reading "+t.owner.String()+" again to remove its orphan finalizer", t.owner.ref())
}

// orphaningDone ends an orphaning task. If the owner is still there, its
// removal (which the finalizer's removal lets happen) needs nothing more.
func (g *GarbageCollector) orphaningDone(t *ownerTask, summary string) sim.Report {
	if !t.gone {
		g.orphaned[t.owner.UID] = true
	}
	g.endTask(t.owner.UID)
	return g.report("attemptToOrphanWorker", summary, t.owner.ref())
}

// retryTaskLater puts a failed owner task back after the rate limiter's
// wait, as AddRateLimited does on upstream's queues. The retry starts over.
func (g *GarbageCollector) retryTaskLater(ctx *sim.Context, t *ownerTask, why string) sim.Report {
	g.stats.Errors++
	t.retries++
	t.phase = phaseBackingOff
	wait := g.ownerLimiter.When(t.owner.UID)
	ctx.After(wait, g.cfg.Name, eventRetryOwner, t.owner.UID)
	models := "attemptToOrphanWorker"
	if t.mode == collecting {
		models = "processGraphChanges"
	}
	return g.report(models, why+"; trying again in "+wait.String(), t.owner.ref())
}

func (g *GarbageCollector) retryOwner(ctx *sim.Context, uid string) sim.Report {
	t := g.tasks[uid]
	if t == nil || t.phase != phaseBackingOff {
		return g.report("", "no owner waiting to be retried")
	}
	t.failed, t.firstErr, t.conflicts = 0, "", 0
	g.listDependents(ctx, t)
	verb := "collecting"
	if t.mode == orphaning {
		verb = "orphaning"
	}
	return g.report("processNextWorkItem", "back-off over: "+verb+" the dependents of "+t.owner.String()+
		" again; listing "+g.dependentResources()+" in "+t.owner.Namespace, t.owner.ref())
}

func namesOf(ds []depRef) string {
	s := ""
	for i, d := range ds {
		if i > 0 {
			s += ", "
		}
		s += d.String()
	}
	return s
}

func refsOf(ds []depRef) []sim.Ref {
	out := make([]sim.Ref, len(ds))
	for i, d := range ds {
		out[i] = d.ref()
	}
	return out
}

func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}
