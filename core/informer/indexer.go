package informer

import (
	"errors"
	"maps"
	"slices"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
)

// IndexFunc computes the values an object is indexed under. It may return
// several values, or none.
type IndexFunc func(obj api.Object) []string

// NamespaceIndex is the standard index: every namespaced object under its
// namespace. Namespaced listers use it.
const NamespaceIndex = "namespace"

// IndexByNamespace is the IndexFunc of NamespaceIndex.
func IndexByNamespace(obj api.Object) []string {
	return []string{obj.Meta().Namespace}
}

// Indexer is an informer's cache: objects by key, plus named indices from a
// computed value to the keys of the objects that have it. It is client-go's
// thread-safe store and indexer without the threads.
//
// Order. Upstream hands out lists in map order, which is random. Here every
// list comes out in the order the keys entered the cache (a key that leaves and
// comes back counts as new), so two runs of one seed see the same order, and
// the order can be rebuilt exactly from a snapshot of the items alone.
type Indexer struct {
	// items maps a key to its object and the position it entered the cache at.
	// It is shared copy-on-write with snapshots: itemsEpoch is the epoch it was
	// made in, and a write in a later epoch clones it first. Each snapshot
	// and each restore starts a new epoch.
	items      map[string]entry
	itemsEpoch uint64
	epoch      uint64

	// nextSeq is the position the next new key gets.
	nextSeq uint64

	// all holds every key, ordered by seq. Like the indices, it is shared
	// copy-on-write with snapshots (see orderedKeys.epoch).
	all orderedKeys

	// indexers are the index functions by name; names lists them sorted.
	indexers map[string]IndexFunc
	names    []string

	// indices maps an index name to its values, and each value to the keys
	// indexed under it, ordered by seq. An empty key list is removed.
	//
	// The inner maps and their key lists are shared copy-on-write with
	// snapshots, as items is, so that a restore need not rebuild every index
	// from the items: indicesEpoch holds the epoch each index's map was made
	// in, and each orderedKeys carries its own.
	indices      map[string]map[string]*orderedKeys
	indicesEpoch map[string]uint64

	// values remembers, per index name and key, the values the key is indexed
	// under now, so an update can remove the old ones without recomputing them
	// from the old object. Its inner maps are shared copy-on-write with
	// snapshots too; valuesEpoch holds the epoch each was made in. The value
	// slices themselves are never changed in place.
	values      map[string]map[string][]string
	valuesEpoch map[string]uint64
}

type entry struct {
	obj api.Object
	seq uint64
}

// NewIndexer returns an empty cache with the namespace index.
func NewIndexer() *Indexer {
	ix := &Indexer{items: map[string]entry{}, epoch: 1, itemsEpoch: 1}
	ix.indexers = map[string]IndexFunc{}
	ix.indices = map[string]map[string]*orderedKeys{}
	ix.indicesEpoch = map[string]uint64{}
	ix.values = map[string]map[string][]string{}
	ix.valuesEpoch = map[string]uint64{}
	if err := ix.AddIndexer(NamespaceIndex, IndexByNamespace); err != nil {
		panic(err) // an empty indexer cannot conflict
	}
	return ix
}

// ErrIndexerConflict is returned when an index name is registered twice.
var ErrIndexerConflict = errors.New("indexer conflict")

// AddIndexer registers an index and indexes what the cache already holds.
func (ix *Indexer) AddIndexer(name string, fn IndexFunc) error {
	if _, dup := ix.indexers[name]; dup {
		return errors.Join(ErrIndexerConflict, errors.New("an index named "+name+" already exists"))
	}
	ix.indexers[name] = fn
	ix.names = append(ix.names, name)
	slices.Sort(ix.names)
	ix.resetIndex(name)
	for _, k := range ix.all.keys {
		ix.indexKey(name, k.key, k.seq, ix.items[k.key].obj)
	}
	return nil
}

// resetIndex empties the named index, with maps of the current epoch.
func (ix *Indexer) resetIndex(name string) {
	ix.indices[name] = map[string]*orderedKeys{}
	ix.indicesEpoch[name] = ix.epoch
	ix.values[name] = map[string][]string{}
	ix.valuesEpoch[name] = ix.epoch
}

// Add puts obj into the cache under its key, replacing what was there.
func (ix *Indexer) Add(obj api.Object) { ix.put(KeyOf(obj), obj) }

// Update is Add: the cache does not care whether it had the key.
func (ix *Indexer) Update(obj api.Object) { ix.put(KeyOf(obj), obj) }

// Delete removes the object's key (obj may be a tombstone).
func (ix *Indexer) Delete(obj any) { ix.DeleteKey(KeyOf(obj)) }

func (ix *Indexer) put(key string, obj api.Object) {
	ix.writable()
	old, exists := ix.items[key]
	seq := old.seq
	if !exists {
		seq = ix.nextSeq
		ix.nextSeq++
		ix.all.writable(ix.epoch)
		ix.all.insert(key, seq)
	}
	ix.items[key] = entry{obj: obj, seq: seq}
	for _, name := range ix.names {
		vals := ix.indexers[name](obj)
		if exists && slices.Equal(vals, ix.values[name][key]) {
			// Most updates (a status change) leave every index value alone;
			// moving the key out of a large set and back would cost a copy
			// of the set for nothing.
			continue
		}
		ix.unindexKey(name, key, seq)
		ix.indexValues(name, key, seq, vals)
	}
}

// DeleteKey removes a key and its index entries.
func (ix *Indexer) DeleteKey(key string) {
	old, exists := ix.items[key]
	if !exists {
		return
	}
	ix.writable()
	delete(ix.items, key)
	ix.all.writable(ix.epoch)
	ix.all.remove(key, old.seq)
	for _, name := range ix.names {
		ix.unindexKey(name, key, old.seq)
	}
}

func (ix *Indexer) indexKey(name, key string, seq uint64, obj api.Object) {
	ix.indexValues(name, key, seq, ix.indexers[name](obj))
}

func (ix *Indexer) indexValues(name, key string, seq uint64, vals []string) {
	if len(vals) == 0 {
		return
	}
	ix.writableValues(name)[key] = vals
	idx := ix.writableIndex(name)
	for _, v := range vals {
		ix.writableSet(idx, v).insert(key, seq)
	}
}

func (ix *Indexer) unindexKey(name, key string, seq uint64) {
	vals, ok := ix.values[name][key]
	if !ok {
		return
	}
	delete(ix.writableValues(name), key)
	idx := ix.writableIndex(name)
	for _, v := range vals {
		if idx[v] != nil {
			set := ix.writableSet(idx, v)
			set.remove(key, seq)
			if len(set.keys) == 0 {
				delete(idx, v)
			}
		}
	}
}

// writableValues returns the named index's values map, cloned first if a
// snapshot may share it.
func (ix *Indexer) writableValues(name string) map[string][]string {
	m := ix.values[name]
	if ix.valuesEpoch[name] != ix.epoch {
		m = maps.Clone(m)
		if m == nil {
			m = map[string][]string{}
		}
		ix.values[name] = m
		ix.valuesEpoch[name] = ix.epoch
	}
	return m
}

// writableIndex returns the named index's map from values to key sets,
// cloned first if a snapshot may share it. The sets in it may still be
// shared: see writableSet.
func (ix *Indexer) writableIndex(name string) map[string]*orderedKeys {
	m := ix.indices[name]
	if ix.indicesEpoch[name] != ix.epoch {
		m = maps.Clone(m)
		if m == nil {
			m = map[string]*orderedKeys{}
		}
		ix.indices[name] = m
		ix.indicesEpoch[name] = ix.epoch
	}
	return m
}

// writableSet returns the set of keys under value v in idx, which must be
// writable (see writableIndex): a new set if there is none, a copy if a
// snapshot may share it (the copy replaces it in idx), else the set itself.
func (ix *Indexer) writableSet(idx map[string]*orderedKeys, v string) *orderedKeys {
	set := idx[v]
	switch {
	case set == nil:
		set = &orderedKeys{epoch: ix.epoch}
		idx[v] = set
	case set.epoch != ix.epoch:
		set = &orderedKeys{keys: set.cloneKeys(), epoch: ix.epoch}
		idx[v] = set
	}
	return set
}

// writable makes items safe to write: if a snapshot may share it, it is
// cloned first.
func (ix *Indexer) writable() {
	if ix.itemsEpoch != ix.epoch {
		ix.items = maps.Clone(ix.items)
		ix.itemsEpoch = ix.epoch
	}
}

// GetByKey returns the cached object for a key.
func (ix *Indexer) GetByKey(key string) (api.Object, bool) {
	e, ok := ix.items[key]
	return e.obj, ok
}

// Get returns the cached object with obj's key.
func (ix *Indexer) Get(obj any) (api.Object, bool) { return ix.GetByKey(KeyOf(obj)) }

// ListKeys returns every key, sorted. The DeltaFIFO uses it to detect missed
// deletions and to resync, in a reproducible order.
func (ix *Indexer) ListKeys() []string {
	keys := make([]string, 0, len(ix.all.keys))
	for _, k := range ix.all.keys {
		keys = append(keys, k.key)
	}
	slices.Sort(keys)
	return keys
}

// List returns every cached object, in the order their keys entered the cache.
func (ix *Indexer) List() []api.Object {
	out := make([]api.Object, 0, len(ix.all.keys))
	for _, k := range ix.all.keys {
		out = append(out, ix.items[k.key].obj)
	}
	return out
}

// Len returns the number of cached objects.
func (ix *Indexer) Len() int { return len(ix.items) }

// ByIndex returns the objects indexed under value in the named index, in the
// order their keys entered the cache.
func (ix *Indexer) ByIndex(name, value string) ([]api.Object, error) {
	idx, ok := ix.indices[name]
	if !ok {
		return nil, errors.New("index with name " + name + " does not exist")
	}
	set := idx[value]
	if set == nil {
		return nil, nil
	}
	out := make([]api.Object, 0, len(set.keys))
	for _, k := range set.keys {
		out = append(out, ix.items[k.key].obj)
	}
	return out, nil
}

// IndexKeys returns the keys indexed under value in the named index.
func (ix *Indexer) IndexKeys(name, value string) ([]string, error) {
	idx, ok := ix.indices[name]
	if !ok {
		return nil, errors.New("index with name " + name + " does not exist")
	}
	set := idx[value]
	if set == nil {
		return nil, nil
	}
	out := make([]string, len(set.keys))
	for i, k := range set.keys {
		out[i] = k.key
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
	var out []api.Object
	visit := func(obj api.Object) {
		if sel.Matches(labels.Set(obj.Meta().Labels)) {
			out = append(out, obj)
		}
	}
	if namespace == "" {
		for _, k := range ix.all.keys {
			visit(ix.items[k.key].obj)
		}
		return out
	}
	if set := ix.indices[NamespaceIndex][namespace]; set != nil {
		for _, k := range set.keys {
			visit(ix.items[k.key].obj)
		}
	}
	return out
}

// indexerSnapshot is what a snapshot of the cache keeps: the items, the
// sequence counter, the order of the keys and the indices, all shared with
// the cache, which copies each of them before it next changes it.
type indexerSnapshot struct {
	items   map[string]entry
	nextSeq uint64
	all     orderedKeys
	indices map[string]map[string]*orderedKeys
	values  map[string]map[string][]string
}

// snapshot freezes the current items, order and indices: starting a new
// epoch makes the next write to each clone it first.
func (ix *Indexer) snapshot() indexerSnapshot {
	ix.epoch++
	return indexerSnapshot{items: ix.items, nextSeq: ix.nextSeq, all: ix.all,
		indices: maps.Clone(ix.indices), values: maps.Clone(ix.values)}
}

// restore brings the cache back to a snapshot. Everything is shared with the
// snapshot and stays frozen: a new epoch starts, so the cache copies what it
// changes. An index added since the snapshot was taken is rebuilt from the
// items, in the order they entered the cache.
func (ix *Indexer) restore(s indexerSnapshot) {
	ix.epoch++
	ix.items = s.items
	ix.nextSeq = s.nextSeq
	ix.all = s.all
	for _, name := range ix.names {
		sets, ok := s.indices[name]
		if ok {
			ix.indices[name], ix.values[name] = sets, s.values[name]
			continue
		}
		ix.resetIndex(name)
		for _, k := range ix.all.keys {
			ix.indexKey(name, k.key, k.seq, ix.items[k.key].obj)
		}
	}
}

// orderedKeys is a set of keys kept in seq order. New keys usually have the
// highest seq and are appended; removal finds the key by binary search on seq.
//
// epoch is the indexer epoch the set was made in. A set of an earlier epoch
// may be shared with a snapshot and must be copied before it is changed.
type orderedKeys struct {
	keys  []seqKey
	epoch uint64
}

// writable makes o safe to change in the indexer epoch epoch: if it was made
// in an earlier one, a snapshot may share its keys, so it takes a copy.
func (o *orderedKeys) writable(epoch uint64) {
	if o.epoch != epoch {
		o.keys = o.cloneKeys()
		o.epoch = epoch
	}
}

// cloneKeys copies the keys, with room for a few more so that the next
// inserts do not have to copy them again at once.
func (o *orderedKeys) cloneKeys() []seqKey {
	return append(make([]seqKey, 0, len(o.keys)+len(o.keys)/4+1), o.keys...)
}

type seqKey struct {
	key string
	seq uint64
}

func compareSeq(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (o *orderedKeys) find(seq uint64) (int, bool) {
	return slices.BinarySearchFunc(o.keys, seq, func(k seqKey, s uint64) int { return compareSeq(k.seq, s) })
}

func (o *orderedKeys) insert(key string, seq uint64) {
	if n := len(o.keys); n == 0 || o.keys[n-1].seq < seq {
		o.keys = append(o.keys, seqKey{key: key, seq: seq})
		return
	}
	i, found := o.find(seq)
	if found {
		return
	}
	o.keys = slices.Insert(o.keys, i, seqKey{key: key, seq: seq})
}

func (o *orderedKeys) remove(key string, seq uint64) {
	if i, found := o.find(seq); found && o.keys[i].key == key {
		o.keys = slices.Delete(o.keys, i, i+1)
	}
}

// ByIndexValues returns the objects indexed under any of values in the named
// index, each once, in the order their keys entered the cache: what a scan
// of the whole cache would find, in the order it would find them, without
// the scan. The replication manager uses it to visit only the pods it could
// own (its own and the orphans) instead of every pod of the namespace.
func (ix *Indexer) ByIndexValues(name string, values ...string) ([]api.Object, error) {
	idx, ok := ix.indices[name]
	if !ok {
		return nil, errors.New("index with name " + name + " does not exist")
	}
	var sets [][]seqKey
	total := 0
	for _, v := range values {
		if set := idx[v]; set != nil && len(set.keys) > 0 {
			sets = append(sets, set.keys)
			total += len(set.keys)
		}
	}
	out := make([]api.Object, 0, total)
	if len(sets) == 1 {
		for _, k := range sets[0] {
			out = append(out, ix.items[k.key].obj)
		}
		return out, nil
	}
	// Merge the ordered key lists by seq; a key under two of the values
	// appears once.
	pos := make([]int, len(sets))
	last := uint64(0)
	first := true
	for {
		best := -1
		for i, set := range sets {
			if pos[i] < len(set) && (best < 0 || set[pos[i]].seq < sets[best][pos[best]].seq) {
				best = i
			}
		}
		if best < 0 {
			return out, nil
		}
		k := sets[best][pos[best]]
		pos[best]++
		if first || k.seq != last {
			out = append(out, ix.items[k.key].obj)
			last, first = k.seq, false
		}
	}
}
