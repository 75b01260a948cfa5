// Package cow holds the copy-on-write containers that make a snapshot of a
// component cheap: Map (whose values may be rows, records copied one by one
// by Mut) and Slice, all stamped with an Epoch.
//
// # Why snapshots must be cheap
//
// Stepping back in the simulator restores the last snapshot before the
// wanted step and runs forward from there, and the page takes a snapshot
// every few steps. A component that copied all its state on every snapshot
// would pay for thousands of pods each time, although between two snapshots
// a step changes only a handful of them. So a snapshot copies nothing: it
// keeps the very maps and slices the live component holds, and the live
// component copies a container only when it is about to change it, and only
// once.
//
// # What an epoch is
//
// An Epoch is a counter that each component owns. Every container records the
// epoch it was made (or last copied) in. Taking a snapshot, and restoring
// one, starts a new epoch (Epoch.Next): from then on every container the
// component holds is older than the current epoch, which means a snapshot may
// share it, which means it is frozen.
//
// # When a write copies
//
// Every change goes through a write method that is given the component's
// current epoch (Map.Write, Mut, Slice.Write). If the container is of an
// older epoch, the method first replaces it by a copy stamped with the current
// one, and changes the copy; the snapshot keeps the original, untouched. The
// next writes in the same epoch find the copy current and change it in place,
// so a burst of writes between two snapshots copies each container at most
// once. Reads never copy.
//
// Restore is the mirror image: the component takes the snapshot's containers
// back and starts a new epoch, so that its first write copies again and the
// snapshot can be restored any number of times.
//
// Nesting keeps copies small: a map of namespaces whose values are maps of
// objects (apistore), or a map of index values whose values are key lists
// (informer), copies only the outer map and the one inner container written
// to. WriteIn, and Mut for rows held by pointer, do that bookkeeping.
//
// # Why a whole map is copied
//
// A write after a snapshot copies its whole map, not just the part it
// changes. A hash array mapped trie, whose write copies only the few nodes
// on its key's path, was measured in its place for the API store's objects
// and taken out again: between two snapshots of a growing world of 10,000
// pods nearly every key is written, so the copied paths cost as much as a
// copy of the map, a trie entry takes about twice a map entry's bytes, and
// every lookup was slower. What bounds the copying is instead how many
// snapshots the timeline takes and keeps (see core/world's SnapshotBudget).
//
// # The rule a caller keeps
//
// A map or slice returned by Read, and a row read from it, belongs to
// whatever snapshots share it: never change it. Change only what Write,
// WriteIn or Mut returned, in the epoch it was returned for. Nothing here
// iterates a map in an order that could leak out: SortedKeys sorts, and
// copying a map does not depend on its order.
//
// # Why the API is small
//
// Every function and method of a generic type is compiled once for each
// shape of its type arguments (all pointer types share one shape; each struct
// and interface type has its own), and every copy, with its long name, is
// downloaded with the page. So Map's only methods are Read and Write, leaving gets,
// counts and deletes to Go's map operations on what they return; keys are
// always strings; and rows are held by pointer, so that Mut and Add are
// compiled once for every kind of row.
package cow
