package informer

import (
	"iter"
	"slices"

	"github.com/reconcilelab/rlab/core/api"
)

// DeltaType says what happened to an object.
type DeltaType string

// The delta types of client-go's DeltaFIFO.
const (
	Added   DeltaType = "Added"
	Updated DeltaType = "Updated"
	Deleted DeltaType = "Deleted"
	// Replaced is an object that was in a relist. The informer cannot tell
	// whether it changed: it compares resourceVersions when it hands the
	// update to its handlers.
	Replaced DeltaType = "Replaced"
	// Sync is a periodic resync: the object has not changed, the informer just
	// hands it to its handlers again so they can re-check the world.
	Sync DeltaType = "Sync"
)

// DeletedFinalStateUnknown is the tombstone a relist leaves for an object that
// vanished while the watch was not looking: the informer knows it is gone but
// did not see the delete, so Obj is the last state it knew, which may be stale
// (or nil). Every delete handler must be ready to unwrap one.
type DeletedFinalStateUnknown struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Key string
	Obj api.Object
}

// Delta is one change: an api.Object, or a DeletedFinalStateUnknown for a
// Deleted delta produced by a relist.
type Delta struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Type   DeltaType
	Object any
}

// Deltas are the changes pending for one key, oldest first.
type Deltas []Delta

// Newest returns the most recent delta, or nil.
func (d Deltas) Newest() *Delta {
	if n := len(d); n > 0 {
		return &d[n-1]
	}
	return nil
}

// KeyOf returns the cache key of an object or a tombstone: "namespace/name",
// as client-go's DeletionHandlingMetaNamespaceKeyFunc does.
func KeyOf(obj any) string {
	switch o := obj.(type) {
	case DeletedFinalStateUnknown:
		return o.Key
	case api.Object:
		m := o.Meta()
		return api.Key(m.Namespace, m.Name)
	}
	return ""
}

// KnownObjects is what the DeltaFIFO asks of the informer's cache: which keys
// it holds and what it holds for a key. It needs them to notice, on a relist,
// objects that vanished, and to resync.
type KnownObjects interface {
	ListKeys() []string
	GetByKey(key string) (api.Object, bool)
}

// DeltaFIFO is the queue between the reflector and the cache. For every key it
// keeps the ordered list of changes not yet processed, and it hands keys out in
// the order they first got a pending change. Processing one key applies all
// its changes at once, oldest first.
//
// It is client-go's DeltaFIFO (with EmitDeltaTypeReplaced on, as shared
// informers set it), made synchronous: Pop never blocks, it reports that
// nothing is pending.
type DeltaFIFO struct {
	// queue holds the keys with pending deltas, with their deltas, in the
	// order they first got one since they were last popped. A key appears
	// once, and its Deltas are never empty.
	queue queue[pendingKey]

	// items maps each key in queue to its place in serials, which holds
	// its entry's serial: the number of entries queued before it since the
	// queue was made (pushed counts them). A key's deltas live in its queue
	// entry, not in the map, so that adding a delta to a pending key costs
	// one lookup, not two.
	//
	// A popped key keeps its place, and its serial, which is then below
	// those of the entries still waiting (see pending): its next change
	// writes a new serial in its place, where removing the key at every
	// pop and storing it again at the next change cost two more hashings
	// of the key for every watch event. A key whose last delta popped was
	// a deletion, gone from the cache, is removed and its place freed, so
	// the map holds no more keys than the cache and the queue do.
	items   map[string]int32
	serials []uint64
	free    []int32
	pushed  uint64

	// known is the informer's cache.
	known KnownObjects

	// populated is set by the first Replace, Add, Update or Delete.
	populated bool

	// initialPopulationCount is how many keys the first Replace queued (objects
	// and tombstones) that have not been popped yet. HasSynced waits for it to
	// reach 0.
	initialPopulationCount int

	// spare holds emptied Deltas arrays handed back by Recycle, for the next
	// keys that get a first pending delta: nearly every watch event gives a
	// key one delta, popped a step later, and would otherwise cost a new
	// array each time. It is not state: a snapshot leaves it out.
	spare []Deltas
	// cells is where a key with no spare array gets one: an array of one
	// delta cut from a chunk, one allocation for many. A scale-up queues
	// more keys at once than the spares cover (thousands of pods created
	// and changed while the first are still pending), and each took an
	// allocation of its own. An array that outgrows its one delta is
	// moved out by append, so the cells of a chunk never overlap.
	cells Deltas
}

// cellChunk is how many one-delta arrays one chunk of cells holds.
const cellChunk = 32

// maxSpare bounds the arrays kept for reuse: enough for the bursts of
// watch events a scale-up brings (a thousand pods created in one step),
// while a relist of ten thousand keys does not leave ten thousand arrays
// behind.
const maxSpare = 1024

// pendingKey is one key in the DeltaFIFO's queue with its pending deltas.
type pendingKey struct {
	key    string
	deltas Deltas
}

// NewDeltaFIFO returns an empty queue that consults known for relists and
// resyncs.
func NewDeltaFIFO(known KnownObjects) *DeltaFIFO {
	return &DeltaFIFO{items: map[string]int32{}, known: known}
}

// Add records that obj was created.
func (f *DeltaFIFO) Add(obj api.Object) { f.add(KeyOf(obj), obj) }

// add is Add under key, the object's key, when the caller has it already.
func (f *DeltaFIFO) add(key string, obj api.Object) {
	f.populated = true
	f.queueAction(key, Added, obj)
}

// Update records that obj changed.
func (f *DeltaFIFO) Update(obj api.Object) { f.update(KeyOf(obj), obj) }

// update is Update under key, the object's key.
func (f *DeltaFIFO) update(key string, obj api.Object) {
	f.populated = true
	f.queueAction(key, Updated, obj)
}

// Delete records that obj was deleted. A delete for a key the cache does not
// hold and that has nothing pending is dropped: there is nothing to remove.
func (f *DeltaFIFO) Delete(obj any) { f.delete(KeyOf(obj), obj) }

// delete is Delete under key, the object's key.
func (f *DeltaFIFO) delete(key string, obj any) {
	f.populated = true
	_, known := f.known.GetByKey(key)
	if _, pending := f.pending(key); !known && !pending {
		return
	}
	f.queueAction(key, Deleted, obj)
}

// Replace records a relist: every listed object gets a Replaced delta, and
// every key that vanished gets a Deleted delta carrying a
// DeletedFinalStateUnknown tombstone. A key vanished when it has pending deltas
// and is not in the list, or when the cache holds it, it is not in the list
// and nothing is pending for it (that deletion was missed).
//
// Upstream visits the vanished keys in map order, which is random; here they
// are visited in key order, so a replay is exact.
func (f *DeltaFIFO) Replace(list []api.Object) {
	listed := make(map[string]struct{}, len(list))
	for _, obj := range list {
		key := KeyOf(obj)
		listed[key] = struct{}{}
		f.queueAction(key, Replaced, obj)
	}

	deletions := 0
	pending := make([]string, 0, f.queue.len())
	for _, p := range f.queue.waiting() {
		pending = append(pending, p.key)
	}
	slices.Sort(pending)
	for _, key := range pending {
		if _, ok := listed[key]; ok {
			continue
		}
		var last api.Object
		if n := f.deltas(key).Newest(); n != nil {
			last = objectOf(n.Object)
		}
		deletions++
		f.queueAction(key, Deleted, DeletedFinalStateUnknown{Key: key, Obj: last})
	}
	for _, key := range f.known.ListKeys() {
		if _, ok := listed[key]; ok {
			continue
		}
		if _, pending := f.pending(key); pending {
			continue
		}
		last, _ := f.known.GetByKey(key)
		deletions++
		f.queueAction(key, Deleted, DeletedFinalStateUnknown{Key: key, Obj: last})
	}

	if !f.populated {
		f.populated = true
		f.initialPopulationCount = len(listed) + deletions
	}
}

// Resync queues a Sync delta, with the cache's object, for every key the cache
// holds that has nothing pending. Keys with pending changes are skipped: they
// will reach the handlers anyway.
func (f *DeltaFIFO) Resync() int {
	n := 0
	for _, key := range f.known.ListKeys() {
		if _, pending := f.pending(key); pending {
			continue
		}
		obj, ok := f.known.GetByKey(key)
		if !ok {
			continue
		}
		f.queueAction(key, Sync, obj)
		n++
	}
	return n
}

// Pop removes the oldest key and returns its deltas, oldest first, and whether
// they belong to the initial list (popped before HasSynced turned true). It
// returns false when nothing is pending.
func (f *DeltaFIFO) Pop() (key string, deltas Deltas, isInInitialList bool, ok bool) {
	if f.queue.len() == 0 {
		return "", nil, false, false
	}
	isInInitialList = !f.HasSynced()
	p := f.queue.pop()
	if f.initialPopulationCount > 0 {
		f.initialPopulationCount--
	}
	if p.deltas.Newest().Type == Deleted {
		f.free = append(f.free, f.items[p.key])
		delete(f.items, p.key)
	}
	return p.key, p.deltas, isInInitialList, true
}

// Recycle hands back the deltas a Pop returned, once the caller is done with
// them and keeps no reference to them, so that their array can hold the
// deltas of a later key.
func (f *DeltaFIFO) Recycle(d Deltas) {
	if len(f.spare) < maxSpare && cap(d) > 0 {
		// Nearly every array holds one delta, which a store clears for
		// less than clear's call into the runtime (which a loop over the
		// deltas compiles to as well).
		if len(d) == 1 {
			d[0] = Delta{}
		} else {
			clear(d)
		}
		f.spare = append(f.spare, d[:0])
	}
}

// HasSynced reports whether the first relist has been fully popped: the cache
// then holds everything the first list returned. Once true it stays true.
func (f *DeltaFIFO) HasSynced() bool {
	return f.populated && f.initialPopulationCount == 0
}

// Len returns how many keys have pending deltas.
func (f *DeltaFIFO) Len() int { return f.queue.len() }

// Pending yields the keys with pending deltas in the order they will pop,
// with their deltas. The deltas are shared and read-only.
func (f *DeltaFIFO) Pending() iter.Seq2[string, Deltas] {
	return func(yield func(string, Deltas) bool) {
		for _, p := range f.queue.waiting() {
			if !yield(p.key, p.deltas) {
				return
			}
		}
	}
}

// entry returns the queue entry of a pending key.
func (f *DeltaFIFO) entry(serial uint64) *pendingKey {
	w := f.queue.waiting()
	return &w[serial-(f.pushed-uint64(len(w)))]
}

// pending returns the serial of key's queue entry, and whether it has one:
// a serial below the first waiting entry's is that of an entry popped.
func (f *DeltaFIFO) pending(key string) (uint64, bool) {
	at, ok := f.items[key]
	if !ok {
		return 0, false
	}
	serial := f.serials[at]
	return serial, serial >= f.pushed-uint64(f.queue.len())
}

// deltas returns the pending deltas of key, nil when it has none.
func (f *DeltaFIFO) deltas(key string) Deltas {
	if serial, pending := f.pending(key); pending {
		return f.entry(serial).deltas
	}
	return nil
}

// queueAction appends a delta for key, the object's key, collapsing a repeated
// deletion, and queues the key if it had nothing pending.
func (f *DeltaFIFO) queueAction(key string, t DeltaType, obj any) {
	at, ok := f.items[key]
	switch {
	case !ok:
		// A key new to the FIFO takes a freed place, or a new one.
		if n := len(f.free); n > 0 {
			at = f.free[n-1]
			f.free = f.free[:n-1]
		} else {
			at = int32(len(f.serials))
			f.serials = append(f.serials, 0)
		}
		f.items[key] = at
	case f.serials[at] >= f.pushed-uint64(f.queue.len()):
		p := f.entry(f.serials[at])
		p.deltas = dedupDeltas(append(p.deltas, Delta{Type: t, Object: obj}))
		return
	}
	var d Deltas
	if n := len(f.spare); n > 0 {
		d = f.spare[n-1]
		f.spare[n-1] = nil
		f.spare = f.spare[:n-1]
	} else {
		if len(f.cells) == 0 {
			f.cells = make(Deltas, cellChunk)
		}
		d, f.cells = f.cells[:0:1], f.cells[1:]
	}
	f.queue.push(pendingKey{key: key, deltas: append(d, Delta{Type: t, Object: obj})})
	f.serials[at] = f.pushed
	f.pushed++
}

// dedupDeltas collapses two trailing Deleted deltas into one, the only merge
// DeltaFIFO makes: a delete seen both by the watch and by a relist is one
// delete. When the older of the two is a tombstone the newer, real object wins;
// otherwise the older one is kept.
func dedupDeltas(d Deltas) Deltas {
	n := len(d)
	if n < 2 {
		return d
	}
	newer, older := &d[n-1], &d[n-2]
	if newer.Type != Deleted || older.Type != Deleted {
		return d
	}
	keep := *older
	if _, tomb := older.Object.(DeletedFinalStateUnknown); tomb {
		keep = *newer
	}
	d[n-2] = keep
	d[n-1] = Delta{}
	return d[:n-1]
}

// objectOf unwraps a tombstone.
func objectOf(obj any) api.Object {
	switch o := obj.(type) {
	case DeletedFinalStateUnknown:
		return o.Obj
	case api.Object:
		return o
	}
	return nil
}
