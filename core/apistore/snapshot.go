package apistore

// Snapshot is the whole state of a store at one moment: every object, the
// watch history, the resourceVersion counter and the fault rules with their
// counters. It is immutable and can be restored any number of times.
//
// Taking one is cheap: it copies a handful of small structs and shares
// everything else with the live store.
//   - Stored objects are immutable, so the snapshot holds the same pointers.
//   - The per-kind and per-namespace maps are shared copy-on-write (package
//     cow): taking a snapshot starts a new epoch, and the first write to a map
//     from an older epoch copies that one map (only the namespace written to,
//     not the others).
//   - The watch histories are only ever appended to; the snapshot keeps
//     each with its last chunk capped at its length, so a later append by
//     the store can never write into the part the snapshot sees (see
//     history).
//
// The random source is not part of it: the store does not own it (see
// Options.Rand).
type Snapshot struct {
	rv     uint64
	kinds  [numKinds]kindState
	faults Faults
}

// ResourceVersion returns the global resourceVersion the snapshot was taken at.
func (sn *Snapshot) ResourceVersion() uint64 { return sn.rv }

// Snapshot captures the store's state.
func (s *Store) Snapshot() *Snapshot {
	sn := &Snapshot{rv: s.rv, kinds: s.kinds, faults: s.faults.clone()}
	shareHistories(&sn.kinds)
	// Everything the store holds is now shared with the snapshot.
	s.epoch.Next()
	return sn
}

// Restore brings the store back to the snapshot. The snapshot stays valid and
// can be restored again later.
func (s *Store) Restore(sn *Snapshot) {
	s.rv = sn.rv
	s.kinds = sn.kinds
	// The store appends to its histories: it takes lists of chunks of its
	// own, with their last chunks capped, so that it never writes into what
	// the snapshot holds.
	shareHistories(&s.kinds)
	s.faults = sn.faults.clone()
	// The maps now held are the snapshot's: a new epoch makes the next write to
	// each copy it, leaving the snapshot as it was.
	s.epoch.Next()
}

// shareHistories gives each kind's history in kinds the list of chunks of
// its own that a snapshot, or a store restored from one, holds (see
// history.shared).
func shareHistories(kinds *[numKinds]kindState) {
	for i := range kinds {
		kinds[i].hist = kinds[i].hist.shared()
	}
}
