package controller

import (
	"maps"
	"slices"
	"time"

	"github.com/reconcilelab/rlab/core/cow"
	"github.com/reconcilelab/rlab/core/sim"
)

// ExpectationsTimeout is how long a ReplicaSet waits for the pod events it
// expects before it stops waiting and syncs anyway. It models upstream's
// ExpectationsTimeout: without it, one lost watch event would put a
// ReplicaSet to sleep for good.
const ExpectationsTimeout = 5 * time.Minute

// ControllerExpectations remembers, per controller key ("namespace/name"), what
// the controller is waiting to see in its informer after creating or deleting
// pods. It is upstream's ControllerExpectations with its
// UIDTrackingControllerExpectations layer, in one type, without locks.
//
// Why it exists: a sync acts on the informer cache, and the cache lags the API
// server. Right after a sync created 3 pods, the cache still shows the old
// count; a second sync at that moment would create 3 more. So before creating
// n pods a sync records "expect n creations", each pod's Add event lowers the
// count, and SatisfiedExpectations keeps later syncs from creating or deleting
// anything until the count reaches zero, or until ExpectationsTimeout has
// passed since it was set.
//
// Creations are counted only, because the API server names a new pod and the
// controller cannot know the name beforehand. Deletions are tracked by pod key,
// because a graceful delete shows up twice (an update that sets
// deletionTimestamp, then the delete itself) and must be counted once:
// DeletionObserved lowers the count only for a key still in the set, and
// removes it.
//
// The record and the pod-key set live apart, as upstream's two stores do.
// Setting creation expectations replaces the counts (wiping outstanding
// deletions) but leaves an old pod-key set in place, whose stragglers can
// still lower the new deletion count below zero when their events arrive.
// Only DeleteExpectations removes both.
//
// Time is the kernel's logical clock: a duration since its epoch.
type ControllerExpectations struct {
	// counts holds the record of every controller key that has set
	// expectations and not deleted them. Records are never removed when they
	// are fulfilled; they stay until replaced or deleted.
	counts map[string]expectationCounts

	// deletes holds, per controller key, the set of pod keys whose deletion
	// is still expected. A key has a set from its first ExpectDeletions until
	// DeleteExpectations; the set may be empty. Every key in deletes also has
	// a record in counts.
	//
	// The sets are shared copy-on-write with snapshots (package cow), so a
	// snapshot copies only the two outer maps; DeletionObserved copies a set
	// before its first change in an epoch.
	deletes map[string]cow.Map[struct{}]

	// epoch is the copy-on-write generation: each snapshot and each restore
	// starts a new one.
	epoch cow.Epoch

	now func() time.Duration
	ttl time.Duration
}

// expectationCounts is one controller's record. add and del may go below zero:
// a pod event can arrive for a pod the controller did not expect (a creation
// observed after the counts were reset), and a negative count is fulfilled
// just as zero is.
type expectationCounts struct {
	add, del int64

	// setAt is when the record was last set, on the kernel's clock. Lowering
	// or raising the counts does not move it.
	setAt time.Duration
}

// ExpectationsConfig configures a ControllerExpectations. Its zero value is a
// valid configuration whose clock never moves. (The zero ControllerExpectations
// is usable too, and behaves as if made from the zero ExpectationsConfig.)
type ExpectationsConfig struct {
	// Now returns the current time on the kernel's logical clock. Nil means a
	// clock that stays at zero, so nothing ever expires.
	Now func() time.Duration

	// TTL is how long an unfulfilled record makes syncs wait. Zero means
	// ExpectationsTimeout.
	TTL time.Duration
}

var _ sim.Snapshotter = (*ControllerExpectations)(nil)

// NewControllerExpectations returns an empty ControllerExpectations.
func NewControllerExpectations(cfg ExpectationsConfig) *ControllerExpectations {
	return &ControllerExpectations{
		counts:  make(map[string]expectationCounts),
		deletes: make(map[string]cow.Map[struct{}]),
		now:     cfg.Now,
		ttl:     cfg.TTL,
	}
}

// TTL returns how long an unfulfilled record makes syncs wait.
func (e *ControllerExpectations) TTL() time.Duration {
	if e.ttl == 0 {
		return ExpectationsTimeout
	}
	return e.ttl
}

// clock returns the current time on the kernel's clock.
func (e *ControllerExpectations) clock() time.Duration {
	if e.now == nil {
		return 0
	}
	return e.now()
}

// SetExpectations replaces the key's record with add creations and del
// deletions, set now. It models upstream's SetExpectations. It does not touch
// the key's pod-key set.
func (e *ControllerExpectations) SetExpectations(key string, add, del int) {
	if e.counts == nil {
		e.counts = make(map[string]expectationCounts)
	}
	e.counts[key] = expectationCounts{add: int64(add), del: int64(del), setAt: e.clock()}
}

// ExpectCreations is SetExpectations(key, adds, 0): it also wipes any
// outstanding deletions. manageReplicas calls it before the first create.
func (e *ControllerExpectations) ExpectCreations(key string, adds int) {
	e.SetExpectations(key, adds, 0)
}

// ExpectDeletions records that the controller is about to delete the pods
// with these keys (see PodKey): the key's pod-key set becomes exactly these
// keys, and its record becomes zero creations and one deletion per distinct
// key. manageReplicas calls it before issuing the deletes. It models the
// UID-tracking layer's ExpectDeletions.
//
// A set that still held keys is overwritten; upstream logs that as an error
// ("clobbering existing delete keys"). The overwritten keys are returned,
// sorted, so the caller can say so; nil means nothing was clobbered.
func (e *ControllerExpectations) ExpectDeletions(key string, podKeys []string) (clobbered []string) {
	if old := e.deletes[key]; len(old.Read()) > 0 {
		clobbered = cow.SortedKeys(old)
	}
	set := make(map[string]struct{}, len(podKeys))
	for _, k := range podKeys {
		set[k] = struct{}{}
	}
	if e.deletes == nil {
		e.deletes = make(map[string]cow.Map[struct{}])
	}
	e.deletes[key] = cow.Own(e.epoch, set)
	e.SetExpectations(key, 0, len(set))
	return clobbered
}

// CreationObserved lowers the key's expected creations by one, if the key has
// a record. The pod Add handler calls it for a pod whose controller is the
// key, and manageReplicas calls it once for every create it skipped or that
// failed, so the record waits only for pods that exist.
func (e *ControllerExpectations) CreationObserved(key string) {
	e.LowerExpectations(key, 1, 0)
}

// DeletionObserved records that the pod with podKey was seen deleted (or
// being deleted). Only a pod key still in the key's set counts: it lowers the
// expected deletions by one and leaves the set, so the second sighting of the
// same pod changes nothing. It reports whether it counted. It models the
// UID-tracking layer's DeletionObserved.
func (e *ControllerExpectations) DeletionObserved(key, podKey string) bool {
	if _, ok := e.deletes[key].Read()[podKey]; !ok {
		return false
	}
	e.LowerExpectations(key, 0, 1)
	delete(cow.WriteIn(e.deletes, key, e.epoch), podKey)
	return true
}

// LowerExpectations subtracts add and del from the key's counts, if the key
// has a record; without one it does nothing. The record's time is not
// refreshed, so lowering never postpones expiry. It models upstream's
// LowerExpectations.
func (e *ControllerExpectations) LowerExpectations(key string, add, del int) {
	e.RaiseExpectations(key, -add, -del)
}

// RaiseExpectations adds add and del to the key's counts, if the key has a
// record; without one it does nothing. It models upstream's
// RaiseExpectations.
func (e *ControllerExpectations) RaiseExpectations(key string, add, del int) {
	rec, ok := e.counts[key]
	if !ok {
		return
	}
	rec.add += int64(add)
	rec.del += int64(del)
	e.counts[key] = rec
}

// DeleteExpectations forgets the key entirely: its record and its pod-key set.
// The ReplicaSet delete handler calls it, and so does a sync that finds its
// ReplicaSet gone from the cache.
func (e *ControllerExpectations) DeleteExpectations(key string) {
	delete(e.counts, key)
	delete(e.deletes, key)
}

// SatisfiedExpectations reports whether a sync of the key may create or delete
// pods. It may when the key has no record (never set, or deleted), when the
// record is fulfilled (nothing more awaited: both counts at or below zero), or
// when the record has expired (older than the TTL). It models upstream's
// SatisfiedExpectations; its third case, a failed store read, cannot happen
// here.
func (e *ControllerExpectations) SatisfiedExpectations(key string) bool {
	rec, ok := e.counts[key]
	if !ok {
		return true
	}
	return rec.fulfilled() || e.expired(rec)
}

func (r expectationCounts) fulfilled() bool { return r.add <= 0 && r.del <= 0 }

// expired reports whether the record is older than the TTL. Upstream compares
// with ">", so a record is still waited for at exactly the TTL.
func (e *ControllerExpectations) expired(r expectationCounts) bool {
	return e.clock()-r.setAt > e.TTL()
}

// GetExpectations returns the key's counts of creations and deletions still
// expected, and whether the key has a record at all. It models upstream's
// GetExpectations followed by ControlleeExpectations.GetExpectations.
func (e *ControllerExpectations) GetExpectations(key string) (add, del int64, exists bool) {
	rec, ok := e.counts[key]
	return rec.add, rec.del, ok
}

// GetUIDs returns the pod keys whose deletion the key still expects, sorted.
// It returns nil when the key has no set, and an empty, non-nil slice when the
// set exists but every deletion has been seen, as upstream's GetUIDs tells an
// absent set from an empty one.
func (e *ControllerExpectations) GetUIDs(key string) []string {
	set, ok := e.deletes[key]
	if !ok {
		return nil
	}
	keys := cow.SortedKeys(set)
	if keys == nil {
		keys = []string{}
	}
	return keys
}

// Keys returns every controller key with a record, sorted.
func (e *ControllerExpectations) Keys() []string {
	return slices.Sorted(maps.Keys(e.counts))
}

// ExpectationsView is what the page shows of one controller's expectations. It
// is plain data that shares nothing with the expectations.
type ExpectationsView struct {
	// Key is the controller key, "namespace/name".
	Key string

	// Add and Del are the creations and deletions still expected. Either may
	// be negative: more events came than were expected.
	Add, Del int64

	// PendingDeletes are the keys of the pods whose deletion is still
	// expected, sorted; nil when there are none.
	PendingDeletes []string

	// SetAt is when the record was set, on the kernel's clock, and Age is how
	// long ago that is. Once Age exceeds the TTL the record has expired.
	SetAt, Age time.Duration

	// Fulfilled says both counts are at or below zero: every expected event
	// has been seen.
	Fulfilled bool

	// Expired says the record is older than the TTL, so syncs no longer wait
	// for it.
	Expired bool

	// Satisfied says a sync may create or delete pods: the record is
	// fulfilled or expired.
	Satisfied bool
}

// View returns the key's expectations, and whether the key has a record.
func (e *ControllerExpectations) View(key string) (ExpectationsView, bool) {
	rec, ok := e.counts[key]
	if !ok {
		return ExpectationsView{}, false
	}
	v := ExpectationsView{
		Key:       key,
		Add:       rec.add,
		Del:       rec.del,
		SetAt:     rec.setAt,
		Age:       e.clock() - rec.setAt,
		Fulfilled: rec.fulfilled(),
		Expired:   e.expired(rec),
	}
	v.Satisfied = v.Fulfilled || v.Expired
	if set := e.deletes[key]; len(set.Read()) > 0 {
		v.PendingDeletes = cow.SortedKeys(set)
	}
	return v, true
}

// Views returns the View of every key with a record, in key order, or nil
// when there is none.
func (e *ControllerExpectations) Views() []ExpectationsView {
	keys := e.Keys()
	if len(keys) == 0 {
		return nil
	}
	views := make([]ExpectationsView, 0, len(keys))
	for _, k := range keys {
		v, _ := e.View(k)
		views = append(views, v)
	}
	return views
}

// expectationsSnapshot is the state Snapshot captures. Its sets are shared
// with the live expectations and never changed: a live set is copied before
// its first change after a snapshot.
type expectationsSnapshot struct {
	counts  map[string]expectationCounts
	deletes map[string]cow.Map[struct{}]
}

// Snapshot captures the expectations (sim.Snapshotter). It copies the two
// outer maps and shares the pod-key sets.
func (e *ControllerExpectations) Snapshot() any {
	s := expectationsSnapshot{counts: maps.Clone(e.counts), deletes: maps.Clone(e.deletes)}
	e.epoch.Next()
	return s
}

// Restore brings the expectations back to a Snapshot (sim.Snapshotter). The
// same snapshot can be restored any number of times. The clock and TTL are
// configuration, not state, and are kept.
func (e *ControllerExpectations) Restore(s any) {
	snap := s.(expectationsSnapshot)
	e.counts = maps.Clone(snap.counts)
	e.deletes = maps.Clone(snap.deletes)
	e.epoch.Next()
}
