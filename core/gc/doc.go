// Package gc is the garbage collector: what makes `kubectl delete rs/web`
// take the ReplicaSet's pods with it, after it (--cascade=background) or
// before it (--cascade=foreground), or, with --cascade=orphan, leave them
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
//   - Foreground (--cascade=foreground): the API server marks the owner
//     and gives it the "foregroundDeletion" finalizer; the DELETE returns at
//     once. The collector deletes the owner's dependents, and removes the
//     finalizer only when no dependent whose reference has
//     blockOwnerDeletion=true is left. A pod still terminating is left: the
//     owner stays, with its deletionTimestamp, until its last such pod is
//     gone. Dependents whose reference does not block are deleted too, but
//     the owner does not wait for them. A dependent that has dependents of
//     its own (a Deployment's ReplicaSet) is deleted in the foreground too,
//     so the cascade goes down level by level and the owners go up in
//     order: pods, then the ReplicaSet, then the Deployment.
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
// Its monitors list, then watch from the list's resourceVersion, the kinds
// of one table, DefaultKinds: the owner kinds (ReplicaSets,
// ReplicationControllers) and the dependent kinds (Pods). A kind may be
// both, as a ReplicaSet is under a Deployment: each of its events updates
// the owner's side and the graph in one step. A watch that fails or
// expires is replaced by a new list after the reflector's back-off. From the events it keeps every dependent's owner
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
// Foreground, an owner with two pods that take a second to stop (the
// golden script core/script/testdata/foreground.txt):
//
//	apiserver  registry.Delete               delete replicasets default/web: marked for deletion
//	gc         processGraphChanges           saw MODIFIED rs/web …: rs/web is being deleted in the foreground (foregroundDeletion finalizer): it stays until no dependent with blockOwnerDeletion is left; queued its 2 dependents in the graph (…), then itself, for attemptToDeleteItem
//	gc         isDangling                    took pod/web-a from the queue (rs/web is deleting its dependents in the foreground); is its owner rs/web still there? reading it (GET)
//	gc         attemptToDeleteItem           pod/web-a: rs/web is deleting its dependents in the foreground; pod/web-a has no live owner: deleting it (DELETE, propagationPolicy Background, uid precondition)
//	…                                        (the same for pod/web-b)
//	gc         processDeletingDependentsItem took rs/web from the queue: it is deleting its dependents in the foreground, and 2 dependents with blockOwnerDeletion still block it (…; 2 being deleted): it waits for them to go
//	kubelet    killPod                       stopped the containers of pod/web-a: removing the pod from the API server …
//	gc         processGraphChanges           saw DELETED pod/web-a …: removed from the graph; rs/web, deleting its dependents in the foreground, queued for attemptToDeleteItem to see whether it may go now
//	gc         processDeletingDependentsItem took rs/web from the queue: … 1 dependent with blockOwnerDeletion still blocks it (pod/web-b; 1 being deleted): it waits for it to go
//	…                                        (pod/web-b stops and goes)
//	gc         processDeletingDependentsItem took rs/web from the queue: it is deleting its dependents in the foreground, and no dependent with blockOwnerDeletion is left in the graph: removing its foregroundDeletion finalizer, reading it first (GET)
//	gc         removeFinalizer               read rs/web at resourceVersion 22: removing its foregroundDeletion finalizer (PATCH, resourceVersion as precondition)
//	gc         removeFinalizer               removed the foregroundDeletion finalizer from rs/web; with no finalizer left, the API server removed it
//	gc         processGraphChanges           saw DELETED rs/web …: rs/web is deleted after its blocking dependents (foreground cascading deletion): found 0 dependents of rs/web left in the graph; nothing to collect
//
// Two levels (a ReplicaSet a Deployment owns, whose pods it owns): the
// ReplicaSet, a dependent with dependents of its own, is deleted "in the
// foreground too (DELETE, propagationPolicy Foreground …)"; its MODIFIED
// event marks it as deleting its dependents in turn; the Deployment waits
// while the ReplicaSet "deleting its own dependents in the foreground"
// blocks it; and the ReplicaSet's DELETED event, "as a dependent, removed
// from the graph", queues the Deployment, whose finalizer goes last.
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
// otherwise a delete with the dependent's uid as a precondition, with
// propagationPolicy Foreground when an owner is deleting its dependents in
// the foreground and the dependent has dependents of its own in the graph,
// else taken from its own finalizers, Background by default); foreground
// deletion as garbagecollector.go and graph_builder.go do it: the owner
// marked deletingDependents when its event first shows the deletionTimestamp
// and the foregroundDeletion finalizer, its dependents and then itself
// queued for attemptToDelete (processTransitions); an owner in that state
// sent to processDeletingDependentsItem, which removes the finalizer when
// blockingDependents (the dependents in the graph whose reference to it has
// blockOwnerDeletion=true, being deleted or not) is empty, and otherwise
// queues those that are not deleting their own dependents; the owner
// queued again when a dependent leaves the graph (processGraphChanges on a
// delete queues the node's owners that are deleting their dependents) or
// stops blocking it (addUnblockedOwnersToDeleteQueue: a blocking reference
// removed, or set to blockOwnerDeletion=false); the worker holding the
// owner through removeFinalizer's read, patch and conflict back-off, and a
// failure putting it back rate-limited; the absentOwnerCache (500 entries,
// least recently used goes first);
// orphanDependents (all patches at once; NotFound counts as done; any other
// failure retries the whole owner) and removeFinalizer (read, then patch
// with a resourceVersion precondition; a conflict reads again after 10ms,
// 50ms and 250ms, with 10% jitter, 4 tries); the rate-limited retries of
// both queues (upstream's default controller limiter: 5ms doubling to
// 1000s per item, and 10 per second with bursts of 100 overall); a retried
// dependent is read live first, as attemptToDeleteItem always does.
//
// No oracle checks the foreground cascade: the shared oracle runs the real
// controllers but does the collector's work at once. The functions named
// above were read in the v1.31.14 source instead, and the tests in
// foreground_test.go pin what they do.
//
// Different, and why:
//
//   - The graph. Upstream's GraphBuilder watches every deletable resource in
//     the cluster from the start; here only the kinds of DefaultKinds,
//     and, from the step that stores the first Deployment (Follow, with
//     DeploymentKinds), Deployments as owners and ReplicaSets as dependents
//     too: the ReplicaSet monitor lists again so that the graph holds their
//     owner references. A world without Deployments so runs, step for step,
//     as it did before they existed, as the Deployment controller sleeps
//     until then too. The graph holds only the dependents' side (owner uid
//     to dependents), the owners being kept apart by uid (a kind that is
//     both is kept on both sides). A reference to an owner of another
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
//   - The periodic resync of monitors with discovery is not modelled.
//   - processDeletingDependentsItem queues again every blocking dependent
//     that is not deleting its own dependents; attemptToDeleteItem then
//     returns at once for those being deleted. The model queues only those
//     the graph does not show being deleted: the same requests, without a
//     step per terminating pod each time the owner looks.
//   - addUnblockedOwnersToDeleteQueue queues the owner of a reference
//     removed or unblocked whatever its state; for an owner not deleting
//     its dependents, attemptToDeleteItem then reads it or returns at once,
//     and changes nothing. The model queues only owners deleting their
//     dependents, so a pod released by its ReplicaSet costs no read.
//   - Before deleting a dependent in the foreground, attemptToDeleteItem
//     makes its own references non-blocking if one of its dependents is
//     deleting its dependents too, to break a possible cycle. That cannot
//     happen with the kinds followed here, whose deepest dependents are
//     pods, never owners: it is not modelled.
//   - Only owner kinds are watched for the foregroundDeletion finalizer. A
//     pod deleted through the API with propagationPolicy Foreground would
//     keep it; upstream's collector follows pods as owners too and removes
//     it at once, since a pod has no dependents. The script's delete sends
//     no policy for pods.
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
//   - An owner deleting its dependents in the foreground is marked once,
//     and is alive in the collector's picture: the mark goes when the owner
//     goes, or is seen without the finalizer. It shares the attemptToDelete
//     queue, and its rule of at most once, with the dependents.
//   - The graph's edges match its nodes: an object is among an owner uid's
//     dependents exactly when its ownerReferences, as last seen, name that
//     uid.
//   - Every request in flight is remembered with what it is for; an answer
//     nobody waits for is reported and ignored.
//
// # Snapshots
//
// The page snapshots the world every few hundred steps (further apart as a
// run grows), so the collector's snapshot shares what is large and seldom
// changes rather than copying it: the owners known alive (one map, cloned
// at its first change after a snapshot), the graph's nodes (kept in 256
// parts by a hash of the uid, so that a change copies its part only: the
// pods of a converging world keep arriving between snapshots, a few dozen
// at a time) and the dependents lists (copied, one owner's at a time,
// before their first change). A pod's status updates, most of the events,
// change none of them.
package gc
