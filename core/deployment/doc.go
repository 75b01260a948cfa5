// Package deployment is the Deployment controller: it rolls a Deployment's
// pods from one template to the next through ReplicaSets, one per template,
// which the replication manager (core/controller) fills with pods. It
// reproduces upstream's pkg/controller/deployment (Kubernetes v1.31) rule for
// rule, on the same kernel as the replication manager: every API call is a
// request and an answer on the agenda, so a learner can stop inside a sync.
//
// # The loop
//
// The handlers (handlers.go; upstream's addDeployment, updateDeployment,
// deleteDeployment, addReplicaSet, updateReplicaSet, deleteReplicaSet and
// deletePod) put a Deployment's key ("default/web") on the queue: when the
// Deployment is added or changed, and when one of its ReplicaSets is added,
// changed or deleted. That last is how pods reach it: it has no pod handler
// for adds or changes; a pod that becomes ready changes its ReplicaSet's
// status, and that update enqueues the Deployment. The pod handler only
// wakes a Recreate Deployment when its last old pod is gone.
//
// A worker takes the key and runs syncDeployment (sync.go), in upstream's
// order:
//
//  1. The Deployment is looked up in the cache; gone, the sync ends (the
//     garbage collector removes its ReplicaSets).
//  2. An empty selector selects every pod: a Warning SelectingAll event, and
//     only observedGeneration is written.
//  3. getReplicaSetsForDeployment lists every ReplicaSet of the namespace
//     and claims them by the replication manager's rule
//     (controller.DecideClaimObject): its own that still match are kept,
//     its own that stopped matching are released, matching orphans are
//     adopted, after one fresh GET of the Deployment.
//  4. getPodMapForDeployment maps each ReplicaSet to its pods (Recreate
//     needs them).
//  5. Being deleted: the status only. Then the Progressing condition follows
//     a pause or a resume (checkPausedConditions).
//  6. Paused, or a scaling event (spec.replicas differs from a ReplicaSet's
//     desired-replicas annotation): sync, which spreads spec.replicas over
//     the ReplicaSets in proportion to their sizes (scale), and writes the
//     status.
//  7. Otherwise a rollout: rolloutRolling or rolloutRecreate.
//
// The worker then calls Forget on success, AddRateLimited on error (5ms,
// 10ms, 20ms, …; after 15 retries the key is dropped until something
// enqueues it again), and Done.
//
// # A rolling update, as the trace shows it
//
// Take web at 4 replicas, maxSurge 25% (ceil: 1 pod) and maxUnavailable 25%
// (floor: 1 pod), its ReplicaSet web-A at 4 of 4 available, and a new
// image (core/world's TestRollingUpdateScalesAsTheOracleDoes; the real
// controller, run by ../shared/oracle, records the same events):
//
//  1. The first sync finds no ReplicaSet with the new template:
//     getNewReplicaSet creates web-B, named after its pod-template-hash,
//     with revision 2 and NewRSNewReplicas = min(4+1 − 4, 4 − 0) = 1 pod
//     ("Scaled up replica set web-B to 1"), and writes the Deployment's
//     revision and Progressing condition (NewReplicaSetCreated).
//     reconcileNewReplicaSet: 5 wanted, 5 allowed, web-B stays.
//     reconcileOldReplicaSets: 5 wanted − 3 that must stay available − 1
//     new not yet available leaves 1, and 4 are available: web-A 4 → 3
//     ("Scaled down replica set web-A to 3 from 4"). syncRolloutStatus then
//     writes the status with the resourceVersion the sync started with:
//     the API server refuses it (Conflict), and the key is retried in 5ms.
//  2. The retry: 4 wanted, 5 allowed: web-B 1 → 2.
//  3. Nothing more until pods become available: 5 − 3 − 2 unavailable new
//     ones leaves none to remove. Each status write of the replication
//     manager wakes the Deployment, whose sync records the progress
//     (Progressing ReplicaSetUpdated, its deadline clock restarted).
//  4. As web-B's pods become available, web-A goes 3 → 2 → 1 → 0 and web-B
//     2 → 3 → 4, one move per sync, until a sync sees the status complete:
//     Progressing becomes NewReplicaSetAvailable, and old ReplicaSets
//     beyond revisionHistoryLimit are deleted.
//
// At no step do the ReplicaSets want more than 4+1 pods, nor are fewer than
// 4−1 available (TestRollingUpdateStaysWithinItsBudget).
//
// # How a sync waits for the API server
//
// Upstream's sync blocks its worker on every call. Here a sync runs until
// its next call, which is sent as a request, and the worker's step ends;
// when the answer arrives, the sync runs again from the top with every
// answer so far, and with the cache reads and clock readings it made before
// (worker.go). Calls already made are answered from that record, so the
// sync retraces its path to the new call, or to its end. Only the part after
// the last answer is live: it alone sends, records events, queues keys and
// writes the trace. The sync's functions therefore read like upstream's, and
// a sync in progress is a value a snapshot copies.
//
// # What differs from upstream, and why
//
//   - The controller is wired when the world is built but sleeps until the
//     API server first stores a Deployment (Controller.Activate): its
//     handlers on the shared ReplicaSet and pod informers are dormant and
//     its Deployment informer unstarted, so that a world without
//     Deployments runs, step for step, as before the controller existed. A
//     real kube-controller-manager starts it at boot.
//   - The pod handler hears deletions only: upstream delivers adds and
//     updates to a function that does nothing, which would cost the learner
//     a step for every pod change.
//   - deletePod lists the Deployment's ReplicaSets from the cache, where
//     upstream sends a live LIST: a handler here cannot wait for an answer.
//   - The pod map is built from the pod informer's index by controller UID,
//     as releases after v1.31 build it, rather than from every pod the
//     selector matches: the same pods, in the same order, without visiting
//     the namespace's others.
//   - A progress check queued for a rollout (requeueStuckDeployment) keeps
//     the world busy only while the rollout waits for its deadline; once it
//     completes, the check is made quiet (workqueue.DelayingQueue.Quiet), so
//     that stabilize stops at rest instead of running to a deadline that
//     can change nothing. The oracle's stabilize waits on the same rule.
//   - pod-template-hash is upstream's algorithm (FNV-1a over the template,
//     the collision count, SafeEncodeString) over our own canonical text of
//     the template, its JSON (hash.go), so the strings differ from
//     upstream's for the same template.
//   - getReplicaSetFraction guards against a zero denominator, as later
//     releases do: v1.31 would convert an infinite or undefined float to
//     int32, which Go leaves to the platform.
//   - Lists come out of the caches in a deterministic order (the order keys
//     entered them), and every sort is total, so a seed reproduces a run.
//
// What is not changed, though upstream has it wrong: when the only active
// ReplicaSet has spec.replicas pods but a desired-replicas annotation from
// another size, every sync is a scaling event and scale returns before
// refreshing the annotation, so the rollout never starts
// (kubernetes/kubernetes pull requests 138036 and 138840, open). The chaos
// test meets it (TestDeploymentChaosMeetsUpstreamStall), and gets out as a
// user would, by scaling away and back.
//
// # Compared with the real controller
//
// ../shared/oracle runs the real v1.31.14 controllers on scenario scripts.
// For a rolling update at 25%/25%, a Recreate, a rollout with maxSurge 0,
// and a paused template change resumed and scaled from 10 to 20 mid-rollout,
// it records the same ScalingReplicaSet events in the same order as the
// model (core/world's *AsTheOracleDoes tests), and it shows the same
// conflict on the first sync of a new template, and an orphan of the same
// template adopted without a new revision. What still differs:
//
//   - ReplicaSet names: the hashes differ (see above).
//   - Timing: the oracle runs in real time, scaled; the model's clock is
//     logical, so which of two racing writes lands first is fixed by the
//     seed here and varies there. Where the oracle's README calls a result
//     nondeterministic (the Progressing condition while a Recreate's old
//     pods terminate), the model gives one answer per seed.
//   - The oracle's stabilize waits in real time for a rollout stuck before
//     its deadline; the model's advances its clock to the progress check.
//
// # What a sync tells the read model
//
// Besides its sentences in the trace (say), a sync records each change of a
// ReplicaSet's size it makes, as a Scale: the ReplicaSet, from and to, the
// function that decided it, and that function's rule with the numbers it
// used, in words ("5 pods may be wanted in all (replicas 4 + maxSurge 1)
// and the ReplicaSets wanted 4: room for 1 more"). They go in the sync's
// record (SyncRecord.Scales), and the controller keeps each key's last sync
// that scaled (LastScaling), which core/world's view shows beside the
// rollout's budget: the page says why a ReplicaSet moved without working
// the rule out again. None of it reaches the trace.
//
// # Writes and conflicts
//
// The controller sends every update with the resourceVersion of the object
// it read from the cache, and never refreshes its copy after a write, as
// upstream's client does. The API store enforces the precondition, so a
// sync that writes the same Deployment twice (the revision in
// getNewReplicaSet, then the status in syncRolloutStatus) has its second
// write refused with a Conflict, returns the error and is retried with
// back-off: the "object has been modified" retries a real cluster shows,
// which upstream's unit tests, on a fake client, do not.
package deployment
