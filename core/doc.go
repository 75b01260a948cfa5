// Package core is the engine of Reconcile Lab: the Kubernetes control loop
// (an API store with watches, informers, a rate-limited work queue, the
// replication manager and the cluster around it) rebuilt as a simulation that
// a learner can step through, step back in, and replay. This package holds no
// code; it draws the loop, documents the rule every package below it keeps,
// and its test enforces that rule.
//
// # The loop
//
// Every box is an actor of the trace, named as the trace names it, and
// every arrow is an event on the kernel's agenda (sim), so each crossing is
// a step a learner can see. The words under a box are the upstream
// functions its steps model.
//
//	kubectl (the learner)            scheduler, kubelet/NODE, gc
//	   |  requests                        ^  watch events (they watch too)
//	   v                                  |
//	apiserver ----------------------------+------------------------+
//	registry.Create/Update/Delete: the store, resourceVersions,     |
//	and a watch per informer                                        | watch events
//	   ^                                                            v
//	   | creates, deletes,            informer/pods (and /replicasets, ...)
//	   | status writes                  watchHandler: the reflector queues each
//	   |                                event in the DeltaFIFO;
//	   |                                processDeltas: the indexer (the cache)
//	   |                                is updated, then the handlers run
//	   |                                    |
//	   |                                    v
//	   |                              rs-controller (and rc-controller)
//	   |                                addPod/updatePod/deletePod: adjust the
//	   |                                expectations, enqueue the owner's key
//	   |                                    |
//	   |                                    v
//	   |                              the workqueue: waiting, dirty,
//	   |                                processing, delayed (rate limits)
//	   |                                    |  processNextWorkItem
//	   |                                    v
//	   +------------------------------ rs-worker-N
//	                                    syncReplicaSet: claimPods (adopt and
//	                                    release), manageReplicas
//	                                    (slowStartBatch creates, ranked
//	                                    deletes), updateReplicaSetStatus
//
// One pod killed goes round it once (world's ExampleWorld prints these
// steps): the apiserver removes the pod (registry.Delete) and sends
// MODIFIED (the deletionTimestamp) and DELETED on its watches;
// informer/pods' watchHandler queues both in the DeltaFIFO under the pod's
// key; processDeltas updates and then removes it in the cache, calling
// rs-controller's updatePod and deletePod, which find no expected deletion
// and enqueue default/web, once; a worker (rs-worker-2) takes the key,
// syncReplicaSet counts no active pod against one wanted, and
// slowStartBatch sends one create;
// the apiserver stores the new pod (registry.Create), and its ADDED event
// starts the next round: the informer caches it, the expectation it
// satisfies is counted down, and a last sync writes the status.
//
// Where each part lives: sim (the kernel), apistore (the API server),
// informer, workqueue, controller (the replication manager), cluster
// (scheduler and kubelets), gc, world (all of them on one kernel, and the
// read model the page draws), script (the console's language) and lesson.
//
// # The one rule: a synchronous, deterministic kernel
//
// Every component under core/ is a plain state machine. Inputs are method
// calls; outputs are values. Nothing blocks, sleeps, starts a goroutine or
// waits on a channel: the browser runs the engine on one thread, where a
// blocked callback freezes the page. What runs concurrently in a real cluster
// (a watch event reaching each informer, a worker popping a key, a kubelet
// starting a pod) is an event on the kernel's agenda, and N workers are N
// logical workers that interleave at event boundaries.
//
// Everything that depends on time or chance comes from the kernel in
// core/sim: a logical clock that starts at a fixed epoch and a seeded
// math/rand/v2 PCG. So a run is fully determined by its seed, its scenario
// and its inputs. That is what makes replay, time travel (snapshots plus
// re-execution) and the per-step trace hash possible: the same seed must give
// the same steps, byte for byte, natively and in WebAssembly.
//
// # Dependency direction
//
// Dependencies point one way, from the bottom up:
//
//   - sim (the kernel: clock, PRNG, agenda; it knows nothing of Kubernetes),
//     minijson (JSON as encoding/json writes it, without that package),
//     cow (the copy-on-write containers that make snapshots cheap; see
//     below) and api (the object types, which minijson writes) are at the
//     bottom.
//   - labels (selectors and validation) uses api.
//   - apistore (the versioned API with watches), informer (reflector, cache,
//     handlers) and workqueue (queue, delays, rate limits) use those.
//   - controller (the replication manager) and cluster (nodes, scheduler,
//     kubelet), with gc beside them, use that machinery.
//   - world wires one of each onto one kernel.
//   - script and lesson drive a world.
//   - wasm and cmd, outside core/, are the two shells: the browser page and
//     the native headless runner. Nothing in core/ imports them.
//
// # Snapshots share state copy-on-write
//
// Stepping back restores a snapshot, so every component can be captured
// and restored, and the page captures often. A snapshot copies almost
// nothing: the API store, the informers' caches and indexes, the scheduler,
// the kubelets and the replication manager's expectations keep their state
// in package cow's containers, which a snapshot shares with the live
// component. Each snapshot and each restore starts a new epoch, and the
// first write in an epoch to a container made in an older one copies that
// container (only that one) first. Package cow's documentation explains the
// scheme; a component that adds state it changes in place either keeps it
// in a cow container or copies it whole in its Snapshot.
//
// # What the determinism lint forbids, and why
//
// TestDeterminismLint runs internal/detlint, which type-checks the non-test
// files of every package under core/, and fails on each of the following. It resolves names with go/types,
// so a renamed import, a dot import or a function stored in a variable is
// caught as surely as the plain spelling.
//
//   - go statements: a goroutine runs when the Go scheduler decides, not when
//     the agenda does, so its effects land in a different order on different
//     runs, and the wasm build has only one thread.
//   - select statements: select picks at random among the cases that are
//     ready, and blocks when none is, which deadlocks the single thread.
//   - channels (a chan type, make(chan), send, receive, close, or another
//     package's API that hands one out): they exist to pass values between
//     goroutines and to block, and the kernel has neither.
//   - importing sync or sync/atomic: locks and atomics only matter between
//     goroutines, and the kernel has none.
//   - importing syscall/js or github.com/hack-pad/safejs: only wasm/main_js.go
//     touches JavaScript, so core builds and behaves the same everywhere.
//   - importing os or net (or their subpackages): files, environment,
//     processes and the network differ from machine to machine, change at
//     moments no seed controls, and do not exist in the browser.
//   - importing math/rand, or calling a top-level function of math/rand/v2
//     (rand.IntN, rand.Shuffle, rand.N, ...): they draw from a generator
//     seeded at random when the process starts, so no seed reproduces them.
//     Constructors of seeded generators (rand.New, rand.NewPCG,
//     rand.NewChaCha8, rand.NewZipf) and the methods of a *rand.Rand handed
//     in by the kernel are allowed.
//   - importing crypto/rand: it reads the operating system's entropy, which
//     no seed can reproduce.
//   - importing hash/maphash: every process gets a random hash seed, so
//     hashes, and anything ordered by them, differ from run to run.
//   - time.Now, time.Since and time.Until: they read the wall clock, which
//     differs on every run; use the kernel's logical clock. The rest of
//     package time (Duration arithmetic, time.Date, Time's methods) is plain
//     arithmetic and allowed.
//   - time.Sleep, time.After, time.AfterFunc, time.NewTimer, time.NewTicker
//     and time.Tick: they wait for real time or fire from outside the
//     agenda; schedule an agenda event at a logical time instead.
//   - ranging over a map (a map type, a named map type, or a type parameter
//     whose core type is a map), or using maps.Keys, maps.Values or maps.All:
//     the Go runtime randomizes map iteration order, so two runs with one
//     seed would differ. Range over slices.Sorted(maps.Keys(m)) (or
//     slices.SortedFunc(maps.Keys(m), cmp) with a cmp that orders every pair
//     of keys) instead. maps.Clone and maps.Copy are fine: their result does
//     not depend on the order they walk in.
//
// Tests are exempt: a test may use goroutines, the wall clock or a random
// seed to look for trouble, as long as it prints the seed that reproduces a
// failure.
package core
