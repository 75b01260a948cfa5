// Package parity holds rlab against a real control plane: it runs a
// scenario script (a lesson's setup, solution and goal, or a golden script)
// command by command on rlab (core/world through core/script) and on a
// plane (package plane: etcd, kube-apiserver and the real controllers of
// Kubernetes v1.31.14, in this process), and compares the two worlds at
// every expect and at the end.
//
//	s, _ := parity.Load("../lessons/05-orphans.txtar")
//	res, _ := parity.Compare("05", s, parity.Options{})
//	res.Report(os.Stdout, false)
//	ok := res.Agrees()
//
// # Carrying a script out on a real cluster
//
// Real sends what a command means on a cluster through client-go: create,
// scale (the scale subresource), label and annotate (merge patches),
// delete (the grace period, or the cascade as propagation policy), cordon,
// set image, rollout undo, pause, resume and restart as kubectl does them;
// kill is a delete with grace period 0; crash, evict and set ready go to the
// stand-in kubelet; slow kubelet and config kubelet-start/kubelet-stop set
// its delays, and config workers, burst-replicas and resync the plane's
// controllers; advance waits that long in wall-clock time (times Scale);
// stabilize waits until the plane is at rest (SettleRules says when). The
// refusals kubectl makes on its own side (pausing a paused Deployment,
// undoing to a revision that is not there) are made here too. The
// simulator-only commands are reported as not comparable, with why: step,
// until sync, fail, drop/break/expire/delay watch, heal, the config keys
// of latencies, and the views and expects of the simulator's insides
// (queue, cache, expectations, syncs, requests, agenda, trace). Until sync
// still waits, on the plane, until the object's controller has observed
// its latest spec (status.observedGeneration), so that what the script does
// next comes after that sync there too, as it does in the simulator.
//
// # What is compared
//
// Both worlds are read as core/api objects (a real object goes there through
// its JSON) and written as a State: one line per key. Named objects are
// keyed by kind and name; a Deployment's ReplicaSets by the Deployment and
// their revision; a controller's pods are counted by owner and by what they
// look like (phase, readiness, image, restarts, labels but
// pod-template-hash, terminating); Events by involved object, type and
// reason, with the number of Event objects and the sum of their counts.
// Each line holds the fields a learner reads: spec.replicas, the status
// counters, observedGeneration and generation, conditions (type, status,
// reason), owner, the Deployment annotations, deletion and finalizers.
// Expects are evaluated on both sides with core/script's own checks
// (script.CheckObjects).
//
// A state says what is left, not how: so both sides' watch events are
// recorded too (Trails), and each deletion's path, from its first event with
// a deletionTimestamp to DELETED, is a line of state as well. A store that
// sent only DELETED for a pod deleted with grace period 0, where a real API
// server sends MODIFIED first, leaves the same state and a different path;
// a test plants exactly that in rlab's side (plantedSimFault, set only by
// tests) and sees the runner disagree.
//
// # Which differences count
//
// A checkpoint is at rest when both worlds were stabilized after the last
// command that changed them: only then are their states comparable, and a
// difference there disagrees unless the table of known divergences
// (KnownDivergences, also in README.md) explains it. A checkpoint in flight
// (after a change, before a stabilize) depends on timing, simulated on one
// side, real on the other; one after stepping or a watch delay, until the
// next stabilize, or after a simulator-only fault, until a stabilize finds
// nothing of it in force (FaultsInForce), has no real counterpart. These are
// shown, not counted; so are the Events a fault caused, after it ended. A
// command that changes the world after advance, step or until sync and
// before a stabilize acts at a moment that only simulated time pins down:
// the two worlds then reach their rest by different paths, so at rest their
// Events, deletions, generation counters and a ReplicaSet's size
// annotations are shown, not counted, and the rest of their states must
// agree. A script that ends in flight is
// stabilized by the runner on both sides and compared at rest once more. A
// command refused by one side only always counts.
//
// The table of known divergences is guarded both ways: a difference no row
// explains disagrees, and Result.KnownRowsUsed says which rows a run needed,
// so that the command's -check-table fails on a row no script needs, unless
// the row depends on the real run's timing (Known.Timing): such a row shows
// in some runs and not in others, and one run without it proves nothing.
//
// # Applying an export
//
// CheckExport takes rlab export of a lesson (core/export) and applies it to
// a plane with an Applier, which reads the script as bash would and sends,
// for each kubectl line, what kubectl sends; a line it was not taught is an
// error. Then the lesson's goal is evaluated on the plane: the export of
// lesson 5 must reach it.
package parity
