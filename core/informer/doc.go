// Package informer keeps a controller's view of the cluster: a cache of every
// object of one kind, kept current by listing and then watching the API
// server, with handlers told of every change.
//
// It is client-go's shared informer (tools/cache) made steppable. The pieces
// are the upstream ones:
//
//   - the reflector lists the kind, remembers the list's resourceVersion, and
//     watches from there; a watch that closes is re-opened from the last
//     resourceVersion seen, and a watch that ends with 410 Expired (the server
//     no longer remembers that far back) is followed, after a back-off, by a
//     fresh list (the request and watch bookkeeping is apistore.ListWatch,
//     shared with the scheduler, the kubelets and the garbage collector);
//   - the DeltaFIFO holds, per key, the changes not yet processed, and hands
//     keys out in the order they first changed;
//   - processDeltas applies one key's changes to the cache (the Indexer) and
//     then notifies every handler: the cache is always updated first, so a
//     handler that reads the lister sees the new state;
//   - each handler has its own buffer and is called one notification at a
//     time, in order.
//
// # What a learner sees when stepping
//
// One change to an object becomes these steps, in this order:
//
//  1. apiserver      registry.Update   the write is stored; watch events are scheduled
//  2. informer/pods  watchHandler      the event arrives; a delta is queued for its key
//  3. informer/pods  processDeltas     the key's deltas go into the cache; handlers notified
//  4. <handler>      addPod/updatePod  each handler runs (e.g. it enqueues a key)
//
// A relist is one list response step (Reflector.syncWith) that replaces the
// cache's contents through the DeltaFIFO, followed by one processDeltas step
// per key.
//
// # Invariants
//
// The tests check these after every step (checkFIFO, checkIndexer):
//
//   - Every key in the DeltaFIFO's queue has pending deltas, appears once, and
//     every key with pending deltas is queued.
//   - Every index agrees with recomputing it from the cached objects, holds
//     no value without keys, and lists keys in the order they entered the
//     cache.
//   - The cache's key map and its table of slots agree: each key's slot holds
//     that key, and no chunk of the table is kept without a slot in use.
//   - The cache is updated before any handler hears of the change.
//   - Each handler receives its notifications in the order they were
//     distributed, one per step.
//   - lastSyncRV only moves forward while a watch is open; a list resets it to
//     the list's resourceVersion.
//   - Handlers get the very objects the cache holds, which are the API
//     store's, as upstream's do: nothing is copied on delivery, so nobody may
//     change a cached object (a controller deep-copies before it edits).
//     TestNoHandlerChangesASharedObject runs a whole world and checks it.
//
// # The rules, as tests pin them down
//
//   - Deltas are never merged, except two consecutive Deleted deltas, which
//     collapse into one (a real object wins over a tombstone).
//   - A relist (Replace) queues Replaced for every listed object, and a Deleted
//     delta carrying a DeletedFinalStateUnknown tombstone for every key that
//     vanished: pending but not listed, or cached, not listed and not pending.
//     The tombstone holds the last known state, which may be stale, so every
//     delete handler unwraps it.
//   - Resync queues a Sync delta for every cached key with nothing pending.
//   - HasSynced turns true once the first list's keys have all been processed,
//     and never turns back.
//   - An update whose old and new resourceVersions are equal (a resync, or a
//     relist that found nothing new) reaches only the handlers that are
//     "syncing": those whose resync period was due at the last resync check.
//     Every handler starts out syncing, so with resync off a relist's unchanged
//     objects reach all of them, as upstream.
//   - A handler added after start first receives an add, with isInInitialList
//     set, for everything in the cache.
//
// # Faults
//
// The scenario language can drop the next N watch events (they are lost; the
// watch goes on, and only a relist recovers them), break the watch (the
// reflector re-watches from its last resourceVersion and misses nothing),
// expire it (the reflector backs off and relists; missed deletions come back
// as tombstones), and delay events (each arrives late, never out of order).
// Healing after lost events relists, so the cache is whole again.
//
// # What differs from upstream, and why
//
//   - Nothing runs on its own goroutine: each of the moves above is an event on
//     the kernel's agenda, so a learner can stop between any two.
//   - Lists come out in the order keys entered the cache, not in map order, and
//     a relist visits vanished keys in key order, so that one seed gives one
//     run. Upstream's order is random; no correct controller depends on it.
//   - The DeltaFIFO is the classic one (client-go's default before v1.33, when
//     RealFIFO, which does not merge per key, took over); the handler-level
//     contract is the same, and the classic one is the better one to teach.
//   - Snapshots share the whole cache copy-on-write: its key map, its table of
//     objects and its indices (see package cow). An index added after a
//     snapshot was taken makes its restore rebuild the indices from the items.
//   - The cache keeps each object in a table slot numbered by the order its
//     key entered the cache, and an index lists slot numbers: listing a
//     namespace or an owner's pods reads the objects without looking a single
//     key up. Upstream's store is a map from key to object, and its indices
//     sets of keys.
package informer
