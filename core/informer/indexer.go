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
	// made in, and a write in a later epoch clones it first.
	items      map[string]entry
	itemsEpoch uint64
	epoch      uint64

	// nextSeq is the position the next new key gets.
	nextSeq uint64

	// all holds every key, ordered by seq.
	all orderedKeys

	// indexers are the index functions by name; names lists them sorted.
	indexers map[string]IndexFunc
	names    []string

	// indices maps an index name to its values, and each value to the keys
	// indexed under it, ordered by seq. An empty key list is removed.
	indices map[string]map[string]*orderedKeys

	// values remembers, per index name and key, the values the key is indexed
	// under now, so an update can remove the old ones without recomputing them
	// from the old object.
	values map[string]map[string][]string
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
	ix.values = map[string]map[string][]string{}
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
	ix.indices[name] = map[string]*orderedKeys{}
	ix.values[name] = map[string][]string{}
	for _, k := range ix.all.keys {
		ix.indexKey(name, k.key, k.seq, ix.items[k.key].obj)
	}
	return nil
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
	ix.values[name][key] = vals
	idx := ix.indices[name]
	for _, v := range vals {
		set := idx[v]
		if set == nil {
			set = &orderedKeys{}
			idx[v] = set
		}
		set.insert(key, seq)
	}
}

func (ix *Indexer) unindexKey(name, key string, seq uint64) {
	vals, ok := ix.values[name][key]
	if !ok {
		return
	}
	delete(ix.values[name], key)
	idx := ix.indices[name]
	for _, v := range vals {
		if set := idx[v]; set != nil {
			set.remove(key, seq)
			if len(set.keys) == 0 {
				delete(idx, v)
			}
		}
	}
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

// indexerSnapshot is what a snapshot of the cache keeps: the items and the
// sequence counter. The indices are derived from them and rebuilt on restore.
type indexerSnapshot struct {
	items   map[string]entry
	nextSeq uint64
}

// snapshot freezes the current items; the next write clones them.
func (ix *Indexer) snapshot() indexerSnapshot {
	ix.epoch++
	return indexerSnapshot{items: ix.items, nextSeq: ix.nextSeq}
}

// restore rebuilds the cache from a snapshot: the items are shared (and frozen),
// the orders and indices recomputed from each key's position.
func (ix *Indexer) restore(s indexerSnapshot) {
	ix.epoch++
	ix.items = s.items
	ix.nextSeq = s.nextSeq
	ix.all = orderedKeys{}
	for _, name := range ix.names {
		ix.indices[name] = map[string]*orderedKeys{}
		ix.values[name] = map[string][]string{}
	}
	ordered := make([]seqKey, 0, len(s.items))
	for _, key := range slices.Sorted(maps.Keys(s.items)) {
		ordered = append(ordered, seqKey{key: key, seq: s.items[key].seq})
	}
	slices.SortFunc(ordered, func(a, b seqKey) int { return compareSeq(a.seq, b.seq) })
	ix.all.keys = ordered
	for _, name := range ix.names {
		for _, k := range ordered {
			ix.indexKey(name, k.key, k.seq, s.items[k.key].obj)
		}
	}
}

// orderedKeys is a set of keys kept in seq order. New keys usually have the
// highest seq and are appended; removal finds the key by binary search on seq.
type orderedKeys struct {
	keys []seqKey
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
