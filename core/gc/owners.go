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
	// orphaning: the owner is being deleted with the orphan finalizer; its
	// dependents lose their reference to it, then the finalizer goes. (A
	// gone owner needs no task: its dependents in the graph go to
	// attemptToDelete at once.)
	orphaning taskMode = "orphan"
)

// taskPhase says where an owner task is.
type taskPhase string

const (
	phaseQueued          taskPhase = "queued for attemptToOrphan"
	phaseWaitingForGraph taskPhase = "waiting for the graph to catch up"
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

	// found are the dependents found in the graph when the orphaning
	// started.
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

// depRef names a dependent.
type depRef struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

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

// startOrphaning queues an owner for attemptToOrphan: its worker takes it
// in a step of its own.
func (g *GarbageCollector) startOrphaning(ctx *sim.Context, o ownerRef) {
	t := g.addTask(o, orphaning)
	t.phase = phaseQueued
	ctx.After(0, g.cfg.Name, eventOrphan, o.UID)
}

// orphanOwner is the attemptToOrphan worker taking an owner.
func (g *GarbageCollector) orphanOwner(ctx *sim.Context, uid string) sim.Report {
	t := g.tasks[uid]
	if t == nil || t.phase != phaseQueued {
		return g.reportText("attemptToOrphanWorker", "no owner waiting to be orphaned")
	}
	return g.orphanDependents(ctx, t, "took "+t.owner.String()+" from the attemptToOrphan queue")
}

// orphanDependents removes the owner's reference from every dependent the
// graph holds, all at once, as upstream's orphanDependents does on one
// goroutine each. While a dependent kind's monitor is not watching, the
// graph may miss dependents: the task waits until the monitor has listed
// again.
func (g *GarbageCollector) orphanDependents(ctx *sim.Context, t *ownerTask, lead string) sim.Report {
	for _, m := range g.monitors {
		if m.dependent && !g.upToDate(m.kind) {
			t.phase = phaseWaitingForGraph
			return g.reportText("attemptToOrphanWorker", lead+"; "+m.kind.Resource()+" are being listed again, so the graph may miss some of its dependents: "+
				"orphaning once the list is in", t.owner.ref())
		}
	}
	deps := g.dependentsOf(t.owner.UID)
	found := make([]depRef, len(deps))
	for i, d := range deps {
		found[i] = d.depRef
	}
	t.found = found
	touched := append([]sim.Ref{t.owner.ref()}, refsOf(found)...)
	if len(found) == 0 {
		g.readOwnerForFinalizer(ctx, t)
		return g.reportText("orphanDependents", lead+": "+t.owner.String()+" has no dependents in the graph; reading it to remove its orphan finalizer", touched...)
	}
	t.phase = phaseOrphaning
	t.patches, t.failed, t.firstErr = len(found), 0, ""
	for _, d := range found {
		g.send(ctx, apistore.Request{Verb: apistore.VerbPatch, Kind: d.kind, Namespace: d.namespace, Name: d.name,
			Patch: &apistore.MetaPatch{UID: d.uid, RemoveOwnerReferences: []string{t.owner.UID}}},
			pending{purpose: orphanPatch, uid: t.owner.UID, kind: d.kind, name: d.name})
	}
	return g.reportText("orphanDependents", lead+": orphaning "+plural(len(found), "dependent", "dependents")+" of "+t.owner.String()+
		" found in the graph ("+namesOf(found)+"): removing its ownerReference from each, "+plural(len(found), "patch", "patches in parallel"), touched...)
}

// resumeOrphaning queues again the owners that waited for the graph, and
// returns how many.
func (g *GarbageCollector) resumeOrphaning(ctx *sim.Context) int {
	n := 0
	for _, uid := range g.taskOrder {
		if t := g.tasks[uid]; t.phase == phaseWaitingForGraph {
			t.phase = phaseQueued
			ctx.After(0, g.cfg.Name, eventOrphan, uid)
			n++
		}
	}
	return n
}

// orphanPatched takes the answer to one orphaning patch.
func (g *GarbageCollector) orphanPatched(ctx *sim.Context, p pending, reply *apistore.Reply) sim.Report {
	t := g.tasks[p.uid]
	if t == nil {
		return g.reportText("", "ignored a patch answer for an owner no longer processed")
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
		return g.reportText("orphanDependents", summary+" ("+plural(t.patches, "patch", "patches")+" outstanding)", dep, t.owner.ref())
	}
	if t.failed > 0 {
		rep := g.retryTaskLater(ctx, t, summary+"; orphaning the dependents of "+t.owner.String()+" failed ("+t.firstErr+")")
		rep.Touched = []sim.Ref{dep, t.owner.ref()}
		return rep
	}
	g.readOwnerForFinalizer(ctx, t)
	return g.reportText("orphanDependents", summary+"; all dependents orphaned: reading "+t.owner.String()+" to remove its orphan finalizer", dep, t.owner.ref())
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
		return g.reportText("", "ignored a read for an owner no longer processed")
	}
	err := reply.Response.Err
	switch {
	case apistore.IsNotFound(err):
		return g.orphaningDone(ctx, t, t.owner.String()+" is already gone")
	case err != nil:
		return g.retryTaskLater(ctx, t, "reading "+t.owner.String()+" failed: "+err.Error())
	}
	m := reply.Response.Object.Meta()
	if m.UID != t.owner.UID {
		return g.orphaningDone(ctx, t, t.owner.String()+" is gone (a new object with uid "+m.UID+" took its name)")
	}
	if !hasFinalizer(m, apistore.FinalizerOrphanDependents) {
		return g.orphaningDone(ctx, t, t.owner.String()+" no longer has the orphan finalizer")
	}
	t.phase = phaseRemovingFinal
	g.send(ctx, apistore.Request{Verb: apistore.VerbPatch, Kind: t.owner.Kind, Namespace: t.owner.Namespace, Name: t.owner.Name,
		Patch: &apistore.MetaPatch{ResourceVersion: m.ResourceVersion, RemoveFinalizers: []string{apistore.FinalizerOrphanDependents}}},
		pending{purpose: removeFinalizerPatch, uid: t.owner.UID})
	return g.reportText("removeFinalizer", "read "+t.owner.String()+" at resourceVersion "+m.ResourceVersion+
		": removing its orphan finalizer (PATCH, resourceVersion as precondition)", t.owner.ref())
}

// finalizerRemoved takes the answer to the finalizer patch.
func (g *GarbageCollector) finalizerRemoved(ctx *sim.Context, p pending, reply *apistore.Reply) sim.Report {
	t := g.tasks[p.uid]
	if t == nil {
		return g.reportText("", "ignored a patch answer for an owner no longer processed")
	}
	err := reply.Response.Err
	switch {
	case err == nil && reply.Response.Deleted:
		return g.orphaningDone(ctx, t, "removed the orphan finalizer from "+t.owner.String()+
			"; with no finalizer left, the API server removed it")
	case err == nil:
		return g.orphaningDone(ctx, t, "removed the orphan finalizer from "+t.owner.String()+"; other finalizers still hold it")
	case apistore.IsNotFound(err):
		return g.orphaningDone(ctx, t, t.owner.String()+" is already gone")
	case apistore.IsConflict(err):
		t.conflicts++
		if t.conflicts < conflictRetries {
			// retry.RetryOnConflict: read again after 10ms, 50ms, 250ms,
			// each with up to 10% jitter.
			wait := conflictWait(ctx, t.conflicts)
			t.phase = phaseConflictBackoff
			ctx.After(wait, g.cfg.Name, eventRetryFinalizer, t.owner.UID)
			return g.reportText("removeFinalizer", "removing the orphan finalizer from "+t.owner.String()+" met a conflict ("+
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
		return g.reportText("removeFinalizer", "no owner waiting to be read again")
	}
	g.readOwnerForFinalizer(ctx, t)
	return g.reportText("removeFinalizer", "reading "+t.owner.String()+" again to remove its orphan finalizer", t.owner.ref())
}

// orphaningDone ends an orphaning task. If the owner is still there, its
// removal (which the finalizer's removal lets happen) only collects the
// dependents that named it after the orphaning began. If it went while
// being orphaned, those are collected now.
func (g *GarbageCollector) orphaningDone(ctx *sim.Context, t *ownerTask, summary string) sim.Report {
	done := make([]string, len(t.found))
	for i, d := range t.found {
		done[i] = d.uid
	}
	g.endTask(t.owner.UID)
	if !t.gone {
		g.orphaned[t.owner.UID] = done
		return g.reportText("attemptToOrphanWorker", summary, t.owner.ref())
	}
	late, again := g.enqueueAfterOrphaning(ctx, t.owner, done, "was deleted while its dependents were being orphaned")
	if len(late) > 0 || len(again) > 0 {
		summary += ";" + stillNaming(late, again, "during the orphaning") + ": queued for attemptToDeleteItem"
	}
	return g.reportText("attemptToOrphanWorker", summary, t.owner.ref())
}

// stillNaming says which dependents of an owner whose dependents were
// orphaned still name it: late appeared after the orphaning began (when
// says so), again were orphaned and name it again.
func stillNaming(late, again []node, when string) string {
	s := ""
	if len(late) > 0 {
		s += " " + plural(len(late), "dependent", "dependents") + " that appeared " + when + " still " +
			pick(len(late) == 1, "names", "name") + " it (" + nodeNames(late) + ")"
	}
	if len(again) > 0 {
		if s != "" {
			s += ", and"
		}
		s += " " + plural(len(again), "dependent", "dependents") + " it orphaned " + pick(len(again) == 1, "names", "name") +
			" it again (" + nodeNames(again) + "; read live first)"
	}
	return s
}

// retryTaskLater puts a failed owner task back after the rate limiter's
// wait, as AddRateLimited does on upstream's queues. The retry starts over.
func (g *GarbageCollector) retryTaskLater(ctx *sim.Context, t *ownerTask, why string) sim.Report {
	g.stats.Errors++
	t.retries++
	t.phase = phaseBackingOff
	wait := g.ownerLimiter.When(t.owner.UID)
	ctx.After(wait, g.cfg.Name, eventRetryOwner, t.owner.UID)
	return g.reportText("attemptToOrphanWorker", why+"; trying again in "+wait.String(), t.owner.ref())
}

func (g *GarbageCollector) retryOwner(ctx *sim.Context, uid string) sim.Report {
	t := g.tasks[uid]
	if t == nil || t.phase != phaseBackingOff {
		return g.reportText("", "no owner waiting to be retried")
	}
	t.failed, t.firstErr, t.conflicts = 0, "", 0
	return g.orphanDependents(ctx, t, "back-off over: orphaning the dependents of "+t.owner.String()+" again")
}

// maxNames is how many objects a summary names before it only counts.
const maxNames = 10

func namesOf(ds []depRef) string {
	s := ""
	for i, d := range ds {
		if i == maxNames {
			return s + " and " + strconv.Itoa(len(ds)-i) + " more"
		}
		if i > 0 {
			s += ", "
		}
		s += d.String()
	}
	return s
}

func nodeNames(ns []node) string {
	ds := make([]depRef, len(ns))
	for i, n := range ns {
		ds[i] = n.depRef
	}
	return namesOf(ds)
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
