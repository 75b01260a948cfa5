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
// # The graph
//
// The collector follows GraphBuilder: it builds its graph from watch events.
// Its monitors list, then watch from the list's resourceVersion, the owner
// kinds (ReplicaSets, ReplicationControllers) and the dependent kinds
// (Pods); a watch that fails or expires is replaced by a new list after the
// reflector's back-off. From the events it keeps every dependent's owner
// references and, for every owner uid, the dependents that name it, updated
// on each ADDED, MODIFIED and DELETED. So when an owner goes, its dependents
// are known at once, with no request; and a dependent that shows up (or
// gains a reference) naming an owner the graph does not hold alive (seen
// deleted, in the absentOwnerCache, or never seen: upstream's virtual node)
// goes to attemptToDeleteItem, which reads the owner live. That is how a pod
// created for an owner after the owner's deletion (by a replication manager
// whose cache had not yet seen it) is collected too.
//
// Every watch delivery is a step. A pod event that changes nothing for the
// collector says so briefly ("its owners are unchanged; nothing to do").
//
// # The steps a learner sees
//
// Background, an owner with three pods:
//
//	apiserver  registry.Delete      delete replicasets default/web: removed
//	gc         processGraphChanges  saw DELETED rs/web: … found 3 dependents of rs/web in the graph (…); queued for attemptToDeleteItem
//	gc         isDangling           took pod/web-a from the queue …; is its owner rs/web still there? reading it (GET)
//	apiserver  registry.Get         get replicasets default/web: NotFound
//	gc         attemptToDeleteItem  pod/web-a: rs/web is gone (NotFound); … deleting it (DELETE, …)
//	apiserver  registry.Delete      delete pods default/web-a from garbage-collector: removed
//	gc         attemptToDeleteItem  deleted pod/web-a: removed (2 dependents waiting)
//	gc         processGraphChanges  saw MODIFIED pod/web-a …: its owners are unchanged; nothing to do
//	gc         processGraphChanges  saw DELETED pod/web-a …: removed from the graph
//	gc         attemptToDeleteItem  took pod/web-b …; rs/web is known to be gone (absentOwnerCache); … deleting it
//	…
//
// The first dependent's read of the owner fills the absentOwnerCache, so the
// others are deleted without asking again.
//
// Orphan: the owner's MODIFIED event (deletionTimestamp, orphan finalizer)
// queues it for attemptToOrphan; its worker sends one patch per dependent in
// the graph at once (upstream sends them from parallel goroutines); then
// their answers and the dependents' MODIFIED events (each leaves the owner's
// dependents), a read of the owner, a patch that removes the finalizer with
// the resourceVersion just read as a precondition, and finally the owner's
// DELETED event, which needs nothing more. A dependent that appeared after
// the orphaning began still names the owner when it goes, and is collected
// like the dependent of any gone owner, as upstream does; so is one the
// collector orphaned that names the owner again by then (a replication
// manager whose cache had not seen the deletion adopted it back), after a
// live read, since the graph cannot tell that from an orphaning patch it has
// not seen yet.
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
//   - The graph. Upstream's GraphBuilder watches every deletable resource in
//     the cluster; here only the owner kinds and the dependent kinds, and the
//     graph holds only the dependents' side (owner uid to dependents), the
//     owners being kept apart by uid. A reference to an owner of another
//     kind (a Widget, a Node) is kept in the graph, but does not by itself
//     make its dependent a candidate, as upstream's virtual node would.
//     Upstream's monitors keep an informer cache; the model keeps no
//     objects, only what the graph needs.
//   - The absentOwnerCache. Upstream also adds an owner it sees deleted
//     with dependents in the graph to the cache at once; here the first
//     dependent's live read of the owner does, so the trace shows that
//     read (isDangling).
//   - Virtual nodes. Upstream puts an owner it has only heard of through a
//     reference in the graph as a virtual node and checks it with a lookup;
//     here the dependent itself is queued for attemptToDeleteItem, whose
//     live read of the owner is the same lookup. While the owner kind's
//     monitor is listing again the check waits for the list, which then
//     queues the dependents of every owner it does not show.
//   - The first attempt on a dependent uses the object as the graph last saw
//     it, instead of reading it live; the delete's uid precondition still
//     guarantees that only that very object is deleted. Retries, and
//     dependents queued while their kind's monitor was not watching (the
//     graph may be behind), read it live first.
//   - Orphaning waits while a dependent kind's monitor is listing again, so
//     that it does not miss dependents the graph has not seen yet; upstream
//     relies on its informers resuming their watches.
//   - One attemptToDelete worker, so dependents are processed one after the
//     other. Upstream runs 20 (--concurrent-gc-syncs) whose requests
//     interleave; the order shown is one of the orders upstream can take.
//   - The periodic resync of monitors with discovery, and foreground
//     deletion, are not modelled.
//   - An owner removed while its dependents are being orphaned (someone took
//     its finalizer away by hand) finishes the orphaning; then only the
//     dependents that still name it are collected: those that appeared
//     meanwhile, and those orphaned that a live read shows adopted back.
//     (Upstream hands every dependent still in the graph to
//     attemptToDelete at once, racing the orphaning patches.)
//
// # Invariants
//
//   - A dependent is in the attemptToDelete queue at most once; it is
//     queued, held by the worker (at most one at a time), or waiting out its
//     back-off, and is forgotten when processed.
//   - Every owner whose dependents are being orphaned has one task, and is
//     forgotten when done. A gone owner needs no task: its dependents go to
//     the attemptToDelete queue in the step that sees it go.
//   - The graph's edges match its nodes: an object is among an owner uid's
//     dependents exactly when its ownerReferences, as last seen, name that
//     uid.
//   - Every request in flight is remembered with what it is for; an answer
//     nobody waits for is reported and ignored.
package gc
