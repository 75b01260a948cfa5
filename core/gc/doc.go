// Package gc is the garbage collector: what makes `kubectl delete rs/web`
// take the ReplicaSet's pods with it, or, with --cascade=orphan, leave them
// behind.
//
// # Owners and dependents
//
// A pod a ReplicaSet created carries an ownerReference naming the
// ReplicaSet's kind, name and uid. The pod is a dependent; the ReplicaSet is
// its owner. Nothing in the API server follows these references: deleting an
// owner deletes only the owner. The garbage collector, a controller in
// kube-controller-manager, watches for owners that go away and finishes the
// job. How it does so depends on the delete's propagationPolicy, which the
// API server records before it answers:
//
//   - Background (kubectl's default, and the apps/v1 default): the owner is
//     removed at once. The collector sees it gone and deletes each dependent
//     whose owners are all gone, one delete per dependent, after the owner.
//   - Orphan (--cascade=orphan, and the default of a core/v1
//     ReplicationController deleted with no policy, kept for old clients):
//     the API server only marks the owner (deletionTimestamp) and gives it
//     the "orphan" finalizer, which holds it. The collector removes the
//     owner's reference from every dependent, then removes the finalizer; an
//     object being deleted whose last finalizer goes is removed. The
//     dependents stay, as orphans a new owner may adopt.
//   - Foreground (the owner waits, with the "foregroundDeletion" finalizer,
//     until its blocking dependents are gone) comes with Deployments; the
//     store already records it, and this collector does not act on it yet.
//
// A dependent may have more than one owner. When one of them is deleted in
// the background, the collector reads each of the dependent's other owners
// from the API server: if any is alive, the dependent stays and only loses
// its references to the gone owners (a patch); only a dependent with no live
// owner left is deleted. An owner counts as gone when reading it answers
// NotFound, or when the object now under its name has another uid (it was
// deleted and a new one took the name).
//
// # The steps a learner sees
//
// Background, an owner with three pods:
//
//	apiserver  registry.Delete      delete replicasets default/web: removed
//	gc         processGraphChanges  saw DELETED rs/web: … listing pods in default to find …
//	apiserver  registry.List        list pods default from garbage-collector: 4 items
//	gc         processGraphChanges  found 3 dependents of rs/web (…); queued for attemptToDeleteItem
//	gc         isDangling           took pod/web-a from the queue …; is its owner rs/web still there? reading it (GET)
//	apiserver  registry.Get         get replicasets default/web: NotFound
//	gc         attemptToDeleteItem  pod/web-a: rs/web is gone (NotFound); … deleting it (DELETE, …)
//	apiserver  registry.Delete      delete pods default/web-a from garbage-collector: removed
//	gc         attemptToDeleteItem  deleted pod/web-a: removed (2 dependents waiting)
//	gc         attemptToDeleteItem  took pod/web-b …; rs/web is known to be gone (absentOwnerCache); … deleting it
//	…
//
// The first dependent's read of the owner fills the absentOwnerCache, so the
// others are deleted without asking again.
//
// Orphan: the owner's MODIFIED event (deletionTimestamp, orphan finalizer),
// a list of pods, one patch per dependent sent at once (upstream sends them
// from parallel goroutines), their answers, a read of the owner, a patch that
// removes the finalizer with the resourceVersion just read as a precondition,
// and finally the owner's DELETED event, which needs nothing more.
//
// # What the model keeps, and what it leaves out
//
// Kept: attemptToDeleteItem's rules (a dependent being deleted is left
// alone; owners are classified as alive, gone, or deleting their dependents
// in the foreground; a live owner saves the dependent, whose references to
// the others are removed by a patch carrying its uid as a precondition;
// otherwise a delete with the dependent's uid as a precondition and a
// propagationPolicy taken from its own finalizers, Background by default);
// the absentOwnerCache (500 entries, least recently used goes first);
// orphanDependents (all patches at once; NotFound counts as done; any other
// failure retries the whole owner) and removeFinalizer (read, then patch
// with a resourceVersion precondition; a conflict reads again after 10ms,
// 50ms and 250ms, with 10% jitter, 4 tries); the rate-limited retries of
// both queues (upstream's default controller limiter: 5ms doubling to
// 1000s per item, and 10 per second with bursts of 100 overall); a retried
// dependent is read live first, as attemptToDeleteItem always does.
//
// Different, and why:
//
//   - Finding dependents. Upstream's GraphBuilder watches every resource in
//     the cluster through informers and keeps a graph of every object and its
//     owners, so it knows an owner's dependents the moment the owner goes.
//     Here, to keep the trace readable, the collector watches only the owner
//     kinds; when an owner goes (or starts being orphaned) it lists the pods
//     of the owner's namespace with one request and keeps those whose
//     ownerReferences name the owner's uid. It is a documented
//     simplification: one LIST step stands for the graph lookup.
//   - The first attempt on a dependent uses the object as listed a moment
//     before, instead of reading it live; the delete's uid precondition
//     still guarantees that only that very object is deleted. Retries read
//     it live.
//   - One attemptToDelete worker, so dependents are processed one after the
//     other. Upstream runs 20 (--concurrent-gc-syncs) whose requests
//     interleave; the order shown is one of the orders upstream can take.
//   - Virtual nodes (owners the graph has heard of only through a
//     reference), the periodic resync of monitors with discovery, and
//     foreground deletion are not modelled.
//   - An owner removed while its dependents are being orphaned (someone took
//     its finalizer away by hand) finishes the orphaning; nothing is
//     collected for it.
//
// # Invariants
//
//   - A dependent is in the attemptToDelete queue at most once; it is
//     queued, held by the worker (at most one at a time), or waiting out its
//     back-off, and is forgotten when processed.
//   - Every owner being processed has one task, in mode background (finding
//     dependents) or orphan, and is forgotten when done.
//   - Every request in flight is remembered with what it is for; an answer
//     nobody waits for is reported and ignored.
package gc
