// Package workqueue holds the keys that need work, in the order they asked for
// it, and hands them to workers one at a time.
//
// It is client-go's util/workqueue made steppable: nothing here blocks, sleeps
// or starts a goroutine, and time is the kernel's logical clock. A worker asks
// with Get and receives a key, or, when nothing waits, is noted as idle and
// later woken by a kernel event; a delayed key arrives when the queue's own
// kernel timer fires. Every one of those moments is a step a learner can see.
//
// There are three queues, each built on the one before, as upstream's are:
//
//   - Queue: Add, Get, Done, Len, ShutDown, ShutDownWithDrain (queue.go).
//   - DelayingQueue: AddAfter, a key added once a delay has passed
//     (delaying.go). It is a kernel component, with one timer.
//   - RateLimitingQueue: AddRateLimited, Forget and NumRequeues, the retry
//     loop of every controller; the wait comes from a RateLimiter
//     (ratelimiting.go, ratelimiter.go, itemlimiters.go, bucket.go).
//
// # What a learner can watch it guarantee
//
//   - Fair: keys come out in the order they were first added.
//   - Stingy: a key waiting in the queue is held once, however often it is
//     added; the extra adds merge into the one waiting (Outcome
//     AlreadyWaiting).
//   - One at a time: a key a worker holds is not handed to another until
//     Done. Adding it meanwhile marks it dirty (RequeueAtDone), and Done puts
//     it at the back of the queue, so the add is not lost either.
//   - Earliest wins: a key delayed twice fires once, at the earlier of its
//     two ready times.
//
// # Invariants
//
// Every operation keeps these; the tests check them after every operation
// (invariants_test.go), as container/heap's tests run verify:
//
//   - Every key in the queue is dirty and not processing, and appears in it
//     once; every key that is dirty and not processing is in the queue.
//   - A key is known (has a record) exactly while it is dirty or processing;
//     Done of a clean key forgets it.
//   - The processing count is the number of keys processing; a drain is
//     Draining only while it is above zero, and only after a shutdown.
//   - Idle workers are listed once each, and none while the queue is shutting
//     down. (That an idle worker holds no key is the worker's side of the
//     bargain: processNextWorkItem calls Done before its next Get.)
//   - The delayed keys form a heap on (readyAt, seq), indexed by key, each key
//     at most once, none due in the past, and none after shutdown.
//   - The queue's timer is armed exactly when a key is delayed, for the
//     heap's head, and it is the only event on the agenda addressed to the
//     queue.
//
// # The steps of a retry
//
// A worker's sync fails and it calls AddRateLimited(key) then Done(key). A
// learner stepping through sees:
//
//  1. the worker's step: the limiter chose a wait (5ms, 10ms, 20ms… for the
//     default controller limiter), and the key went into the delayed heap;
//     if it is now the earliest, the queue's timer was set for it;
//  2. at the key's ready time, a step of the queue itself (actor
//     "queue/<name>", modelling waitingLoop): "default/web is due after its
//     20ms back-off; added to the queue (now 1 waiting), waking worker-1";
//  3. at the same instant, the wake step of the idle worker it names, whose
//     Get hands it the key (or, if another worker was quicker, nothing, and
//     it goes idle again);
//  4. the worker's sync, and its Done; on success it calls Forget, so the
//     next failure backs off from the start.
//
// Keys due at the same instant move one per step, in the order their delays
// were asked for, so that each step tells what became of one key.
//
// # Driving it
//
// The world registers the delaying or rate-limiting queue as a component
// under cfg.ComponentName() and gives it the kernel as Config.Scheduler.
// Workers are components too; each handles KindWake (and its own start and
// work-finished events) by looping:
//
//	key, ok, shutdown := q.Get(w.name)
//	switch {
//	case shutdown: // stop, as upstream's worker goroutine returns
//	case !ok:      // idle: the queue sends KindWake when a key arrives
//	default:       // work on key; then AddRateLimited or Forget, and Done
//	}
//
// A caller of ShutDownWithDrain that must know when the drain ends names
// itself, and gets KindDrained (or KindDrainAborted) as an event.
//
// # How it differs from upstream, and why
//
//   - Get never blocks. The browser gives Go one thread, and the kernel runs
//     one event at a time, so a blocked Get would stop the world. A worker
//     that finds nothing is put on an idle list under its component name;
//     where upstream's Add and Done call cond.Signal, the queue schedules a
//     KindWake event for the longest-idle worker, and where ShutDown calls
//     cond.Broadcast, one for every idle worker. Like a woken goroutine, a
//     woken worker calls Get again and may find the key taken. Upstream's
//     Done also signals when processing empties, for ShutDownWithDrain; a Get
//     waiter woken by that finds nothing, so no event models it.
//   - ShutDownWithDrain does not block either: it reports whether the drain
//     is over, and otherwise the queue stays Draining until the Done that
//     empties processing. As upstream, that is the end of the drain even
//     when that Done has just put a dirty key back in the queue: a drain
//     waits for the keys being processed, not for the queue to empty. A
//     later ShutDown aborts it.
//   - The methods say what they did: Add and AddAfter return an Outcome,
//     AddRateLimited the wait it asked for, Done whether the key was being
//     processed, so a worker's step can explain itself. Upstream's pluggable
//     Queue and its Touch hook are not modelled; Outcome AlreadyWaiting is the
//     moment upstream would Touch.
//   - Done refuses a key that is not being processed. Upstream would push a
//     second copy of a waiting key, and two workers could then hold it.
//   - The queue records which worker holds each key, for the page.
//   - The delaying queue has no heartbeat. Upstream's waitingLoop also wakes
//     every 10s as insurance against a late timer; the kernel's timers fire
//     exactly on time, so the heartbeat would never find a due key left
//     behind, and modelling it would only add steps that do nothing.
//   - Ties are broken: keys due at the same instant move in the order their
//     ready time was asked for, where upstream's heap leaves it to chance.
//   - ShutDownWithDrain drops the delayed keys, as ShutDown does. Upstream's
//     waitingLoop notices the shutdown at its next wake-up and exits without
//     adding them, which comes to the same.
//   - Metrics are not modelled: they change nothing a learner can see.
//   - Keys are strings ("namespace/name"), not a type parameter. That is what
//     controllers put on their queues, and it lets the queue find a key in a
//     hash table of its own (keytable.go) that hashes and probes faster than
//     a Go map: finding a key is nearly all an Add of a waiting key does, and
//     the budget is half of upstream's time. Measured side by side
//     (bench_test.go), an Add+Get+Done costs about a tenth of upstream's and
//     allocates nothing, and an Add of a waiting key about two fifths.
//
// The rate limiters follow upstream's arithmetic exactly, including the token
// bucket of golang.org/x/time/rate on the kernel's clock (oracle_test.go holds
// them, and the basic queue, to upstream's own code); the one deliberate
// difference is that the exponential back-off caps a wait of exactly 2^63ns,
// which upstream would turn into a negative Duration (see expBackoff).
//
// # Snapshots
//
// Every queue and every limiter in this package implements sim.Snapshotter; a
// rate-limiting queue's snapshot includes its limiter's. The queue's pending timer is an
// event on the kernel's agenda, which the kernel snapshots itself.
package workqueue
