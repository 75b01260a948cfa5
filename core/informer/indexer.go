package informer

import (
	"errors"
	"slices"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/cow"
	"github.com/reconcilelab/rlab/core/labels"
)

// IndexFunc computes the values an object is indexed under: it appends them
// to values and returns the result, as strconv's Append functions do. It may
// append several values, or none. It must be a function of the object alone,
// and must not keep or return a slice of its own, which the next call's
// appends would change.
//
// Upstream's IndexFunc returns a new slice. Appending lets the Indexer hand
// in a buffer of its own when it only compares the values with those it
// kept: an update that moves the object in no index (a status write, nearly
// every update) then allocates nothing, where a new slice was made and
// thrown away for every update of every object.
type IndexFunc func(obj api.Object, values []string) []string

// NamespaceIndex is the standard index: every namespaced object under its
// namespace. Namespaced listers use it.
const NamespaceIndex = "namespace"

// IndexByNamespace is the IndexFunc of NamespaceIndex.
func IndexByNamespace(obj api.Object, values []string) []string {
	return append(values, obj.Meta().Namespace)
}

// Indexer is an informer's cache: objects by key, plus named indices from a
// computed value to the keys of the objects that have it. It is client-go's
// thread-safe store and indexer without the threads.
//
// Order. Upstream hands out lists in map order, which is random. Here every
// list comes out in the order the keys entered the cache (a key that leaves and
// comes back counts as new), so two runs of one seed see the same order, and
// the order can be rebuilt exactly from a snapshot of the items alone.
//
// Layout. Each key gets a seq, the position it entered the cache at, and its
// object lives in the table's slot for that seq. An index maps a value to
// the seqs indexed under it, in order, so listing an index value reads the
// objects straight from their slots: no lookup by key at all. Only a lookup
// by key (GetByKey, and a write) goes through the one map from key to seq.
type Indexer struct {
	// seqs maps a key to its seq, and table holds every key's slot. Both are
	// shared copy-on-write with snapshots (see package cow), as are the
	// indices' values: each snapshot and each restore starts a new epoch, and
	// a write in it copies what it changes first. seqs changes only when a
	// key enters or leaves the cache; an update writes its slot alone.
	seqs  cow.Map[uint64]
	table table
	epoch cow.Epoch

	// nextSeq is the seq the next new key gets.
	nextSeq uint64

	// indices are the named indices, sorted by name. A snapshot keeps its
	// own copy of the slice, sharing each index's values.
	indices []index

	// scratch is the buffer an update computes an object's index values
	// into, to compare them with those kept (see IndexFunc). It holds
	// nothing between calls and is not state.
	scratch []string
	// keyBuf is where GetNamed joins a key to look it up; like scratch, it
	// holds nothing between calls.
	keyBuf []byte

	// lastNew is the index values a new key was last given (indexNew): a
	// new key whose values are equal is given the same lists. Kept values
	// are never changed in place (an update that changes them makes new
	// lists), so keys may share them, as the pods of one owner, created
	// one after another, all can: every new pod's list of its owner's uid
	// was an allocation. It is a memo of values, not state.
	lastNew [][]string
}

// index is one named index.
type index struct {
	name string
	fn   IndexFunc
	// byKey is set for the namespace index: its one value, the object's
	// namespace, is part of the key, so an update never moves a key within
	// it, and the value is read from the object rather than computed into a
	// new slice and kept (see valuesFor).
	byKey bool
	// values maps each value to the seqs indexed under it, in order. An
	// empty list is removed.
	values cow.Map[*seqList]
}

// seqList is a set of seqs kept in order, held by pointer in an index's
// map and shared copy-on-write with snapshots one list at a time (a
// cow.Row): insertSeq and removeSeq change the seqs of a list that
// cow.Mut returned. New keys have the highest seq and are appended.
//
// A list held by value went back into the map after every change, a
// second hashing of the value for every key that entered an index; a list
// held by pointer is changed where it is.
type seqList struct {
	cow.Stamp
	seqs []uint64
}

// Copy returns a copy of the list that shares no array with it, for
// cow.Mut, with room for a quarter more, so that the inserts that usually
// follow the first do not copy it again at once.
func (l *seqList) Copy() *seqList {
	return &seqList{seqs: append(make([]uint64, 0, len(l.seqs)+len(l.seqs)/4+1), l.seqs...)}
}

// read returns the seqs of a list, none for no list.
func (l *seqList) read() []uint64 {
	if l == nil {
		return nil
	}
	return l.seqs
}

// NewIndexer returns an empty cache with the namespace index.
func NewIndexer() *Indexer {
	ix := &Indexer{epoch: 1}
	ix.seqs.Write(ix.epoch)
	if err := ix.AddIndexer(NamespaceIndex, IndexByNamespace); err != nil {
		panic(err) // an empty indexer cannot conflict
	}
	return ix
}

// ErrIndexerConflict is returned when an index name is registered twice.
var ErrIndexerConflict = errors.New("indexer conflict")

// AddIndexer registers an index and indexes what the cache already holds.
func (ix *Indexer) AddIndexer(name string, fn IndexFunc) error {
	at, dup := ix.find(name)
	if dup {
		return errors.Join(ErrIndexerConflict, errors.New("an index named "+name+" already exists"))
	}
	ix.indices = slices.Insert(ix.indices, at,
		index{name: name, fn: fn, byKey: name == NamespaceIndex})
	ix.reindex()
	return nil
}

// find returns the position of the named index, or where it would go. There
// are only ever a few indices: a scan for the name beats a map, and a binary
// search too, whose ordered comparisons cost more than tests for equality,
// which mostly end at the lengths. A controller looks an index up at every
// sync.
func (ix *Indexer) find(name string) (int, bool) {
	for i := range ix.indices {
		if ix.indices[i].name == name {
			return i, true
		}
	}
	for i := range ix.indices {
		if ix.indices[i].name > name {
			return i, false
		}
	}
	return len(ix.indices), false
}

// reindex rebuilds every index, and every slot's values, from the cached
// objects in the order they entered the cache: after an index is added, or
// when a snapshot restored was taken with other indices.
func (ix *Indexer) reindex() {
	for i := range ix.indices {
		ix.indices[i].values = cow.Map[*seqList]{}
	}
	var seqs []uint64
	ix.table.each(func(seq uint64, _ *slot) { seqs = append(seqs, seq) })
	for _, seq := range seqs {
		_, s := ix.table.write(ix.epoch, seq)
		s.vals = ix.indexNew(seq, s.obj)
	}
}

// indexNew indexes the object at seq, new to the cache, in every index,
// and returns the values to keep in its slot. The namespace index, always
// there, keeps none: with no other index there is nothing to keep.
func (ix *Indexer) indexNew(seq uint64, obj api.Object) [][]string {
	if len(ix.lastNew) != len(ix.indices) {
		ix.lastNew = make([][]string, len(ix.indices))
	}
	vals := ix.lastNew
	for i := range ix.indices {
		v := ix.valuesFor(i, obj)
		if last := ix.lastNew[i]; len(v)+len(last) > 0 && !api.SameList(v, last) {
			if api.SameList(vals, ix.lastNew) {
				vals = slices.Clone(ix.lastNew)
			}
			vals[i] = v
		}
		ix.indexSlot(i, seq, obj, v)
	}
	ix.lastNew = vals
	if len(vals) < 2 {
		// A cache of one index keeps no values: it is the namespace index.
		return nil
	}
	return vals
}

// valuesFor returns the values index i puts obj under, to keep in its
// slot: nil for the namespace index, whose value is read from the object.
// Values equal to those a new key was last given are those same values
// (see Indexer.lastNew).
func (ix *Indexer) valuesFor(i int, obj api.Object) []string {
	if ix.indices[i].byKey {
		return nil
	}
	v := ix.indices[i].fn(obj, ix.scratch[:0])
	ix.scratch = v[:0]
	switch last := ix.lastNew[i]; {
	case len(v) == 0:
		return nil
	case slices.Equal(v, last):
		return last
	}
	return slices.Clone(v)
}

// indexSlot adds seq, holding obj, to index i under vals, its kept values.
func (ix *Indexer) indexSlot(i int, seq uint64, obj api.Object, vals []string) {
	if ix.indices[i].byKey {
		ix.indexValue(i, seq, obj.Meta().Namespace)
		return
	}
	for _, v := range vals {
		ix.indexValue(i, seq, v)
	}
}

// unindexSlot removes seq, holding obj, from index i, where it is under
// vals, its kept values.
func (ix *Indexer) unindexSlot(i int, seq uint64, obj api.Object, vals []string) {
	if ix.indices[i].byKey {
		ix.unindexValue(i, seq, obj.Meta().Namespace)
		return
	}
	for _, v := range vals {
		ix.unindexValue(i, seq, v)
	}
}

// slotValues returns the values kept in s for index i.
func slotValues(s *slot, i int) []string {
	if s.vals == nil {
		return nil
	}
	return s.vals[i]
}

// Add puts obj into the cache under its key, replacing what was there.
func (ix *Indexer) Add(obj api.Object) { ix.put(KeyOf(obj), obj) }

// Update is Add: the cache does not care whether it had the key.
func (ix *Indexer) Update(obj api.Object) { ix.put(KeyOf(obj), obj) }

// Delete removes the object's key (obj may be a tombstone).
func (ix *Indexer) Delete(obj any) { ix.DeleteKey(KeyOf(obj)) }

// put puts obj under key and returns what the cache held there before, if
// anything: the informer needs it for the update notification, and this
// spares it a lookup of its own.
func (ix *Indexer) put(key string, obj api.Object) (old api.Object, existed bool) {
	seq, exists := ix.seqs.Read()[key]
	if !exists {
		seq = ix.nextSeq
		ix.nextSeq++
		ix.seqs.Write(ix.epoch)[key] = seq
		ix.table.add(ix.epoch, seq, slot{key: key, obj: obj, vals: ix.indexNew(seq, obj)})
		ix.compact()
		return nil, false
	}
	_, s := ix.table.write(ix.epoch, seq)
	old = s.obj
	s.obj = obj
	for i := range ix.indices {
		if ix.indices[i].byKey {
			continue
		}
		vals := ix.indices[i].fn(obj, ix.scratch[:0])
		ix.scratch = vals[:0]
		if slices.Equal(vals, s.vals[i]) {
			// Most updates (a status change) leave every index value alone;
			// moving the key out of a large set and back would cost a copy
			// of the set for nothing.
			continue
		}
		vals = slices.Clone(vals) // the buffer is the next update's
		ix.unindexSlot(i, seq, old, s.vals[i])
		ix.indexSlot(i, seq, obj, vals)
		// The values are shared with any snapshot of the slot's chunk.
		s.vals = slices.Clone(s.vals)
		s.vals[i] = vals
	}
	return old, true
}

// DeleteKey removes a key and its index entries.
func (ix *Indexer) DeleteKey(key string) {
	seq, exists := ix.seqs.Read()[key]
	if !exists {
		return
	}
	delete(ix.seqs.Write(ix.epoch), key)
	s := ix.table.read(seq)
	for i := range ix.indices {
		ix.unindexSlot(i, seq, s.obj, slotValues(s, i))
	}
	ix.table.free(ix.epoch, seq)
	ix.compact()
}

// compact renumbers the keys from 0, in the same order, when the table's
// pointer array is more than twice as long as the keys need: keys that
// came and went leave their chunks sparse, or dropped. A cache that only
// grows never renumbers; one whose keys churn does so after about as many
// changes as it holds keys, so the work is spread thin. Nothing outside the
// Indexer sees a seq, only the order, which renumbering keeps.
func (ix *Indexer) compact() {
	need := len(ix.seqs.Read())>>slotBits + 1
	if len(ix.table.chunks) <= 8 || len(ix.table.chunks) <= 2*need {
		return
	}
	old := ix.table
	ix.table = table{}
	ix.seqs = cow.Own(ix.epoch, make(map[string]uint64, len(ix.seqs.Read())))
	seqs := ix.seqs.Read()
	for i := range ix.indices {
		ix.indices[i].values = cow.Map[*seqList]{}
	}
	ix.nextSeq = 0
	old.each(func(_ uint64, s *slot) {
		seq := ix.nextSeq
		ix.nextSeq++
		seqs[s.key] = seq
		for i := range ix.indices {
			ix.indexSlot(i, seq, s.obj, slotValues(s, i))
		}
		ix.table.add(ix.epoch, seq, *s)
	})
}

// indexValue adds seq under value v in index i.
func (ix *Indexer) indexValue(i int, seq uint64, v string) {
	// A missing value gets a new list; a list shared with a snapshot is
	// copied, and the copy put in its place, by Mut.
	values := &ix.indices[i].values
	set := cow.Mut(values, ix.epoch, v)
	if set == nil {
		set = cow.Add(values, ix.epoch, v, &seqList{})
	}
	insertSeq(&set.seqs, seq)
}

// unindexValue removes seq from under value v in index i.
func (ix *Indexer) unindexValue(i int, seq uint64, v string) {
	values := &ix.indices[i].values
	set := cow.Mut(values, ix.epoch, v)
	if set == nil {
		return
	}
	removeSeq(&set.seqs, seq)
	if len(set.seqs) == 0 {
		delete(values.Write(ix.epoch), v)
	}
}

// GetByKey returns the cached object for a key.
func (ix *Indexer) GetByKey(key string) (api.Object, bool) {
	seq, ok := ix.seqs.Read()[key]
	if !ok {
		return nil, false
	}
	return ix.table.obj(seq), true
}

// GetNamed returns the cached object of a namespace and name, and its key
// as the cache holds it. The key is joined in a buffer for the lookup, not
// made anew: the replication manager looks up a pod's owner, and enqueues
// the owner's key, on every pod event.
func (ix *Indexer) GetNamed(namespace, name string) (obj api.Object, key string, ok bool) {
	ix.keyBuf = api.AppendKey(ix.keyBuf[:0], namespace, name)
	seq, ok := ix.seqs.Read()[string(ix.keyBuf)]
	if !ok {
		return nil, "", false
	}
	s := ix.table.read(seq)
	return s.obj, s.key, true
}

// Get returns the cached object with obj's key.
func (ix *Indexer) Get(obj any) (api.Object, bool) { return ix.GetByKey(KeyOf(obj)) }

// ListKeys returns every key, sorted. The DeltaFIFO uses it to detect missed
// deletions and to resync, in a reproducible order.
func (ix *Indexer) ListKeys() []string {
	keys := make([]string, 0, ix.Len())
	ix.table.each(func(_ uint64, s *slot) { keys = append(keys, s.key) })
	slices.Sort(keys)
	return keys
}

// List returns every cached object, in the order their keys entered the cache.
func (ix *Indexer) List() []api.Object {
	out := make([]api.Object, 0, ix.Len())
	ix.table.each(func(_ uint64, s *slot) { out = append(out, s.obj) })
	return out
}

// objects returns the cached objects at seqs, in order.
func (ix *Indexer) objects(seqs []uint64) []api.Object {
	out := make([]api.Object, len(seqs))
	for i, seq := range seqs {
		out[i] = ix.table.obj(seq)
	}
	return out
}

// Len returns the number of cached objects.
func (ix *Indexer) Len() int { return len(ix.seqs.Read()) }

// lookup returns the seqs indexed under value in the named index.
func (ix *Indexer) lookup(name, value string) ([]uint64, error) {
	i, ok := ix.find(name)
	if !ok {
		return nil, errors.New("index with name " + name + " does not exist")
	}
	return ix.indices[i].values.Read()[value].read(), nil
}

// ByIndex returns the objects indexed under value in the named index, in the
// order their keys entered the cache.
func (ix *Indexer) ByIndex(name, value string) ([]api.Object, error) {
	seqs, err := ix.lookup(name, value)
	if err != nil || len(seqs) == 0 {
		return nil, err
	}
	return ix.objects(seqs), nil
}

// IndexKeys returns the keys indexed under value in the named index.
func (ix *Indexer) IndexKeys(name, value string) ([]string, error) {
	seqs, err := ix.lookup(name, value)
	if err != nil || len(seqs) == 0 {
		return nil, err
	}
	out := make([]string, len(seqs))
	for i, seq := range seqs {
		out[i] = ix.table.read(seq).key
	}
	return out, nil
}

// Replace empties the cache and fills it with list.
func (ix *Indexer) Replace(list []api.Object) {
	for _, key := range ix.ListKeys() {
		ix.DeleteKey(key)
	}
	for _, obj := range list {
		ix.Add(obj)
	}
}

// ListSelected returns the cached objects in namespace ("" for all
// namespaces) that the selector matches, as client-go's listers do.
func (ix *Indexer) ListSelected(namespace string, sel labels.Selector) []api.Object {
	if sel.Empty() {
		// Everything matches: the list is known before it is made, and is
		// made at its size at once instead of growing by appends.
		if ix.Len() == 0 {
			return nil
		}
		if namespace == "" {
			return ix.List()
		}
		seqs, _ := ix.lookup(NamespaceIndex, namespace)
		if len(seqs) == 0 {
			return nil
		}
		return ix.objects(seqs)
	}
	var out []api.Object
	if namespace == "" {
		ix.table.each(func(_ uint64, s *slot) {
			if sel.Matches(labels.Set(s.obj.Meta().Labels)) {
				out = append(out, s.obj)
			}
		})
		return out
	}
	seqs, _ := ix.lookup(NamespaceIndex, namespace)
	for _, seq := range seqs {
		if obj := ix.table.obj(seq); sel.Matches(labels.Set(obj.Meta().Labels)) {
			out = append(out, obj)
		}
	}
	return out
}

// indexerSnapshot is what a snapshot of the cache keeps: the keys' seqs,
// the table, the seq counter and the indices, all shared with the cache,
// which copies each of them before it next changes it.
type indexerSnapshot struct {
	seqs    cow.Map[uint64]
	table   table
	nextSeq uint64
	indices []index
}

// snapshot freezes the current items, order and indices: starting a new
// epoch makes the next write to each copy it first.
func (ix *Indexer) snapshot() indexerSnapshot {
	ix.epoch.Next()
	return indexerSnapshot{seqs: ix.seqs, table: ix.table, nextSeq: ix.nextSeq, indices: slices.Clone(ix.indices)}
}

// restore brings the cache back to a snapshot. Everything is shared with the
// snapshot and stays frozen: a new epoch starts, so the cache copies what it
// changes. If indices were added since the snapshot was taken, every index
// is rebuilt from the items, in the order they entered the cache.
func (ix *Indexer) restore(s indexerSnapshot) {
	ix.epoch.Next()
	ix.seqs = s.seqs
	ix.table = s.table
	ix.nextSeq = s.nextSeq
	if slices.EqualFunc(ix.indices, s.indices, func(a, b index) bool { return a.name == b.name }) {
		for i := range ix.indices {
			ix.indices[i].values = s.indices[i].values
		}
		return
	}
	ix.reindex()
}

// insertSeq adds seq to a writable seq list.
func insertSeq(seqs *[]uint64, seq uint64) {
	if n := len(*seqs); n == 0 || (*seqs)[n-1] < seq {
		*seqs = append(*seqs, seq)
		return
	}
	if i, found := slices.BinarySearch(*seqs, seq); !found {
		*seqs = slices.Insert(*seqs, i, seq)
	}
}

// removeSeq removes seq from a writable seq list.
func removeSeq(seqs *[]uint64, seq uint64) {
	if i, found := slices.BinarySearch(*seqs, seq); found {
		*seqs = slices.Delete(*seqs, i, i+1)
	}
}

// ByIndexValues returns the objects indexed under any of values in the named
// index, each once, in the order their keys entered the cache: what a scan
// of the whole cache would find, in the order it would find them, without
// the scan. The Deployment controller uses it to visit only the pods its
// ReplicaSets could own.
func (ix *Indexer) ByIndexValues(name string, values ...string) ([]api.Object, error) {
	sets, total, err := ix.seqSets(name, values, nil)
	if err != nil {
		return nil, err
	}
	out := make([]api.Object, 0, total)
	eachSeq(sets, func(seq uint64) { out = append(out, ix.table.obj(seq)) })
	return out, nil
}

// EachByIndexValues calls fn with each object ByIndexValues would return, in
// the same order, without building the list. The replication manager walks
// its own pods and the orphans this way at every sync, and keeps only the
// active ones: for a ReplicaSet of 10,000 pods the list was 160 KB, made
// and dropped at each of its hundred syncs, a tenth of what the page's
// 10,000-pod world allocated.
func (ix *Indexer) EachByIndexValues(name string, values []string, fn func(api.Object)) error {
	// The lists are read here and dropped: they are gathered on the stack,
	// where a new slice of them was allocated at every sync.
	var buf [4][]uint64
	sets, _, err := ix.seqSets(name, values, buf[:0])
	if err != nil {
		return err
	}
	if len(sets) == 1 {
		// One list, the usual case (a ReplicaSet's own pods, no orphans):
		// fn is called from here, not from a function literal that
		// eachSeq calls for every object.
		for _, seq := range sets[0] {
			fn(ix.table.obj(seq))
		}
		return nil
	}
	eachSeq(sets, func(seq uint64) { fn(ix.table.obj(seq)) })
	return nil
}

// seqSets appends to sets the non-empty seq lists indexed under values in
// the named index, and returns them with how many seqs they hold in all (a
// key under two values counts twice: it is an upper bound).
func (ix *Indexer) seqSets(name string, values []string, sets [][]uint64) (_ [][]uint64, total int, err error) {
	at, ok := ix.find(name)
	if !ok {
		return nil, 0, errors.New("index with name " + name + " does not exist")
	}
	idx := ix.indices[at].values.Read()
	for _, v := range values {
		if set := idx[v].read(); len(set) > 0 {
			sets = append(sets, set)
			total += len(set)
		}
	}
	return sets, total, nil
}

// eachSeq calls fn with every seq of the ordered lists, in order, each once.
func eachSeq(sets [][]uint64, fn func(seq uint64)) {
	if len(sets) == 1 {
		for _, seq := range sets[0] {
			fn(seq)
		}
		return
	}
	// Merge the ordered seq lists; a key under two of the values appears
	// once.
	pos := make([]int, len(sets))
	last := uint64(0)
	first := true
	for {
		best := -1
		for i, set := range sets {
			if pos[i] < len(set) && (best < 0 || set[pos[i]] < sets[best][pos[best]]) {
				best = i
			}
		}
		if best < 0 {
			return
		}
		seq := sets[best][pos[best]]
		pos[best]++
		if first || seq != last {
			fn(seq)
			last, first = seq, false
		}
	}
}
