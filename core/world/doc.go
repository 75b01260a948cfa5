// Package world assembles a whole simulated cluster on one kernel, from one
// Config: the API server, the controllers' informers (pods, ReplicaSets,
// ReplicationControllers), the ReplicaSet and ReplicationController managers
// with their event recorders, the garbage collector, and the cluster around
// them (a scheduler, a kubelet per node, and kubectl for the learner).
//
// A world is driven from outside by inputs and steps. An input (World.Do) is
// something a learner does at a step boundary: send a request as kubectl,
// inject a fault, crash a pod. A step (World.Step) runs one event of the
// kernel's agenda. Stabilize, RunUntil, UntilSync and Call step until
// something holds.
//
// # Time travel
//
// Because a run is fully determined by its seed and its inputs, the world
// keeps a timeline: every input with the step boundary it was applied at, a
// snapshot every Config.SnapshotEvery steps, and the trace hash of every step.
// Seek(n) restores the nearest snapshot at or before step n and replays the
// recorded inputs and steps up to n, going back or forward alike (a jump
// forward past a snapshot starts from it, rather than stepping through
// everything in between); every replayed step must reproduce its recorded
// hash, or the seek fails (ErrReplayDiverged). A seek that replays a long
// way keeps one more snapshot, a thousand steps before where it landed, so
// that stepping back from there, or looking around, does not replay the
// whole way again. An input applied after seeking back forks the timeline:
// the old future is dropped.
//
// The first step back after a long run would still replay from the last
// snapshot, which in a large world is far behind. PrepareStepBack takes
// that seek's landing snapshot ahead of time, in slices a caller runs while
// the world is idle (the page's worker, while the learner reads the
// result): it replays there, then comes back to the present by restoring a
// snapshot of it, so the world is exactly as it was and a step back
// replays a thousand steps at most. AbandonPreparation cuts one short.
//
// Snapshots stay small because objects are immutable once stored: every
// component's snapshot shares the objects with the live state, and the API
// store, the informers' caches and indexes, the garbage collector's graph,
// the scheduler and the kubelets share their maps too, copying one only
// before its first change after a snapshot (copy-on-write). What is copied
// still grows with the world, so the snapshots are bounded by
// Config.SnapshotBudget, counted in objects snapshotted: past it, every other
// snapshot is dropped and the spacing doubles, so a long run of a large world
// keeps a bounded number of evenly spread snapshots. Headless runs that never
// seek can turn snapshots off (SnapshotEvery < 0).
//
// A running world yields the thread every few thousand steps, forward and in
// a seek's replay (yieldNowAndThen): it has no goroutines of its own, but
// under js/wasm the garbage collector's mark workers run only when the one
// thread yields, and a long call that never did let the heap grow to twice
// what the collector aims for.
//
// # The read model
//
// View is the world as a learner sees it at the present step, as one value
// tree: the nodes, the owners with the status their controllers wrote, the
// pods with what their owners' next syncs will do with them (asked of the
// controller's own claim rule, controller.DecideClaim), each informer's
// cache against the API store, each manager's queue, workers, expectations
// and last syncs, the garbage collector's work, the agenda and the events
// on their way along the loop, and the faults in force. Once there is a
// Deployment, it also holds each Deployment with its ReplicaSets newest
// revision first, its rollout history, a RollingUpdate's budget (bounds
// from the controller's own MaxSurge and MaxUnavailable, and the
// ReplicaSets' counts against them) and its last scaling with the
// controller's reasons (deployment.Scale, recorded by the sync that
// decided it), and the Deployment controller's queue, workers and last
// syncs; a world that never had one has none of it. StepOf describes a
// step, with its place on the picture of the loop; LatestSync and
// LastSyncOf describe syncs. The shells only present it: wasm/ marshals it
// for the page and may import nothing from core/ that would let it derive a
// component's rule itself (wasm's TestTheBridgeImportsOnlyTheReadModel).
//
// # Startup
//
// New registers every component and schedules its start: the kubelets
// register their nodes, the informers list and then watch, and the managers
// poll until their informers have synced before starting their workers, as
// kube-controller-manager does. A fresh world therefore runs a few dozen steps
// before it is ready; Stabilize runs them.
package world
