// Package controller is the replication manager: the controller that keeps
// the right number of pods running for every ReplicaSet and, through the same
// code, every ReplicationController. It reproduces upstream's
// pkg/controller/replicaset (Kubernetes v1.31) rule for rule; what differs is
// only that nothing blocks: every API call is a request and a response on the
// kernel's agenda, so a learner can stop inside a sync.
//
// # One sync, step by step
//
// A sync starts when something puts the owner's key ("default/web") on the
// work queue. The handlers do that (handlers.go; upstream's addRS, updateRS,
// deleteRS, addPod, updatePod, deletePod): an owner added or changed, a pod
// created, changed or deleted. A pod event also settles expectations: a pod
// seen created lowers the count of creates its owner waits for
// (CreationObserved), a pod seen deleted, or marked for deletion, lowers the
// deletes (DeletionObserved).
//
// A worker that is idle is woken, takes the key (processNextWorkItem) and runs
// syncReplicaSet (sync.go):
//
//  1. It looks the owner up in the informer's cache. If it is gone, its
//     expectations are dropped and the sync ends.
//  2. It checks the expectations (SatisfiedExpectations) before it lists any
//     pod. If earlier creates or deletes have not all been seen yet, the
//     cache is behind the world, and acting on it would create or delete
//     twice: the sync will only report status.
//  3. It lists the pods of the namespace it could own from the cache, keeps
//     the active ones (FilterActivePods: not Succeeded, not Failed, not being
//     deleted) and claims them (claimPods, ClaimObject): pods it controls that
//     still match its selector are kept; pods it controls that no longer
//     match are released with a patch; matching orphans are adopted with a
//     patch, after one fresh GET of the owner from the API server
//     (RecheckDeletionTimestamp) to be sure it is not being deleted. Each
//     patch is one API call, in turn. Any claim error ends the sync; it is
//     retried.
//  4. If the expectations were satisfied and the owner is not being deleted,
//     manageReplicas compares the owned pods with spec.replicas. Too few: it
//     expects the creates (ExpectCreations), then creates in slow-start
//     batches of 1, 2, 4, … (slowStartBatch), each batch all at once, and
//     stops at the first batch with a failure, so a quota that allows 10 pods
//     costs at most 15 requests, not 100; every create that was skipped or
//     failed lowers the expectations again. Too many: it ranks the pods
//     (getPodsToDelete, ActivePodsWithRanks: unscheduled, pending, not ready,
//     low pod-deletion-cost, doubled up on a node, recently ready, many
//     restarts, young go first), expects exactly those deletions by pod key
//     (ExpectDeletions) and deletes them all at once. At most burstReplicas
//     (500) pods either way.
//  5. calculateStatus counts the owned pods (replicas, fullyLabeledReplicas,
//     readyReplicas, availableReplicas) and sets or removes the
//     ReplicaFailure condition; updateReplicaSetStatus writes it through the
//     status subresource unless nothing changed, and retries once after a
//     fresh GET if the write fails.
//  6. If pods are ready but not yet available (minReadySeconds), the key is
//     queued again for later; then the worker calls Forget on success or
//     AddRateLimited on error (5ms, 10ms, 20ms, … back-off), and Done.
//
// The writes of step 4 come back through the pod informer as watch events,
// whose handlers observe them against the expectations and enqueue the key
// again; the next sync then sees the new pods and, with nothing left to do,
// writes the status.
//
// # Workers and the queue
//
// N workers (default 5) run syncs side by side, interleaved at event
// boundaries. A worker that took a key is busy until its sync's last API call
// has answered; the queue never hands the same key to two workers (a key
// added while being synced goes back in the queue at Done).
//
// # What differs from upstream, and why
//
//   - Nothing blocks and nothing runs on its own goroutine; the parallel
//     creates of a batch, and the parallel deletes, are sent in one step and
//     answered in as many steps.
//   - Upstream lists every pod of the namespace on each sync and discards the
//     ones another controller owns, which makes a namespace with 1,000
//     ReplicaSets cost a million pod visits per round of syncs. Here the pod
//     informer keeps an index from controller UID to pods (with orphans under
//     their namespace), and a sync visits only its own pods and the orphans,
//     in the order a scan would meet them. The set of pods considered, and
//     every decision, are the same.
//   - Lists come out in a deterministic order (the order keys entered the
//     cache) instead of map order, and sorts that upstream leaves unstable
//     break ties deterministically, so that a seed reproduces a run.
//   - Events are written by an asynchronous recorder component, as upstream's
//     broadcaster does: the sync never waits for them.
//   - The ReplicationController is served by converting it to a ReplicaSet at
//     the cache boundary and its status back before writing, as upstream's
//     conversion informer does.
package controller
