package informer

import (
	"errors"
	"maps"
	"slices"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/cow"
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
	// It is shared copy-on-write with snapshots (see package cow), as are all,
	// indices and values: each snapshot and each restore starts a new epoch,
	// and a write in it copies what it changes first.
	items cow.Map[entry]
	epoch cow.Epoch

	// nextSeq is the position the next new key gets.
	nextSeq uint64

	// all holds every key, ordered by seq (see keyList).
	all keyList

	// indexers are the index functions by name; names lists them sorted.
	indexers map[string]IndexFunc
	names    []string

	// indices maps an index name to its values, and each value to the keys
	// indexed under it, ordered by seq. An empty key list is removed.
	//
	// The inner maps and their key lists are shared copy-on-write with
	// snapshots, as items is, so that a restore need not rebuild every index
	// from the items. The outer map is the indexer's own: a snapshot copies it.
	indices map[string]cow.Map[keyList]

	// values remembers, per index name and key, the values the key is indexed
	// under now, so an update can remove the old ones without recomputing them
	// from the old object. Its inner maps are shared copy-on-write with
	// snapshots too. The value slices themselves are never changed in place.
	values map[string]cow.Map[[]string]
}

type entry struct {
	obj api.Object
	seq uint64
}

// NewIndexer returns an empty cache with the namespace index.
func NewIndexer() *Indexer {
	ix := &Indexer{epoch: 1}
	ix.items.Write(ix.epoch)
	ix.indexers = map[string]IndexFunc{}
	ix.indices = map[string]cow.Map[keyList]{}
	ix.values = map[string]cow.Map[[]string]{}
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
	ix.indexAll(name)
	return nil
}

// resetIndex empties the named index: an empty Map is made on its first write.
func (ix *Indexer) resetIndex(name string) {
	ix.indices[name] = cow.Map[keyList]{}
	ix.values[name] = cow.Map[[]string]{}
}

// indexAll indexes every cached object in the named index, in the order
// their keys entered the cache.
func (ix *Indexer) indexAll(name string) {
	items := ix.items.Read()
	for _, k := range ix.all.Read() {
		ix.indexKey(name, k.key, k.seq, items[k.key].obj)
	}
}

// Add puts obj into the cache under its key, replacing what was there.
func (ix *Indexer) Add(obj api.Object) { ix.put(KeyOf(obj), obj) }

// Update is Add: the cache does not care whether it had the key.
func (ix *Indexer) Update(obj api.Object) { ix.put(KeyOf(obj), obj) }

// Delete removes the object's key (obj may be a tombstone).
func (ix *Indexer) Delete(obj any) { ix.DeleteKey(KeyOf(obj)) }

func (ix *Indexer) put(key string, obj api.Object) {
	items := ix.items.Write(ix.epoch)
	old, exists := items[key]
	seq := old.seq
	if !exists {
		seq = ix.nextSeq
		ix.nextSeq++
		insertKey(ix.all.Write(ix.epoch), key, seq)
	}
	items[key] = entry{obj: obj, seq: seq}
	for _, name := range ix.names {
		vals := ix.indexers[name](obj)
		if exists && slices.Equal(vals, ix.values[name].Read()[key]) {
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
	old, exists := ix.items.Read()[key]
	if !exists {
		return
	}
	delete(ix.items.Write(ix.epoch), key)
	removeKey(ix.all.Write(ix.epoch), key, old.seq)
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
	cow.WriteIn(ix.values, name, ix.epoch)[key] = vals
	idx := cow.WriteIn(ix.indices, name, ix.epoch)
	for _, v := range vals {
		// A missing value gets a new list; a list shared with a snapshot is
		// copied by Write. The list is a value in the map, so it goes back.
		set := idx[v]
		insertKey(set.Write(ix.epoch), key, seq)
		idx[v] = set
	}
}

func (ix *Indexer) unindexKey(name, key string, seq uint64) {
	vals, ok := ix.values[name].Read()[key]
	if !ok {
		return
	}
	delete(cow.WriteIn(ix.values, name, ix.epoch), key)
	idx := cow.WriteIn(ix.indices, name, ix.epoch)
	for _, v := range vals {
		set, ok := idx[v]
		if !ok {
			continue
		}
		removeKey(set.Write(ix.epoch), key, seq)
		if len(set.Read()) == 0 {
			delete(idx, v)
		} else {
			idx[v] = set
		}
	}
}

// GetByKey returns the cached object for a key.
func (ix *Indexer) GetByKey(key string) (api.Object, bool) {
	e, ok := ix.items.Read()[key]
	return e.obj, ok
}

// Get returns the cached object with obj's key.
func (ix *Indexer) Get(obj any) (api.Object, bool) { return ix.GetByKey(KeyOf(obj)) }

// ListKeys returns every key, sorted. The DeltaFIFO uses it to detect missed
// deletions and to resync, in a reproducible order.
func (ix *Indexer) ListKeys() []string {
	all := ix.all.Read()
	keys := make([]string, 0, len(all))
	for _, k := range all {
		keys = append(keys, k.key)
	}
	slices.Sort(keys)
	return keys
}

// List returns every cached object, in the order their keys entered the cache.
func (ix *Indexer) List() []api.Object {
	return ix.objects(ix.all.Read())
}

// objects returns the cached objects of keys, in order.
func (ix *Indexer) objects(keys []seqKey) []api.Object {
	items := ix.items.Read()
	out := make([]api.Object, 0, len(keys))
	for _, k := range keys {
		out = append(out, items[k.key].obj)
	}
	return out
}

// Len returns the number of cached objects.
func (ix *Indexer) Len() int { return len(ix.items.Read()) }

// ByIndex returns the objects indexed under value in the named index, in the
// order their keys entered the cache.
func (ix *Indexer) ByIndex(name, value string) ([]api.Object, error) {
	idx, ok := ix.indices[name]
	if !ok {
		return nil, errors.New("index with name " + name + " does not exist")
	}
	set, ok := idx.Read()[value]
	if !ok {
		return nil, nil
	}
	return ix.objects(set.Read()), nil
}

// IndexKeys returns the keys indexed under value in the named index.
func (ix *Indexer) IndexKeys(name, value string) ([]string, error) {
	idx, ok := ix.indices[name]
	if !ok {
		return nil, errors.New("index with name " + name + " does not exist")
	}
	set, ok := idx.Read()[value]
	if !ok {
		return nil, nil
	}
	out := make([]string, len(set.Read()))
	for i, k := range set.Read() {
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
	items := ix.items.Read()
	if namespace == "" {
		for _, k := range ix.all.Read() {
			visit(items[k.key].obj)
		}
		return out
	}
	if set, ok := ix.indices[NamespaceIndex].Read()[namespace]; ok {
		for _, k := range set.Read() {
			visit(items[k.key].obj)
		}
	}
	return out
}

// indexerSnapshot is what a snapshot of the cache keeps: the items, the
// sequence counter, the order of the keys and the indices, all shared with
// the cache, which copies each of them before it next changes it.
type indexerSnapshot struct {
	items   cow.Map[entry]
	nextSeq uint64
	all     keyList
	indices map[string]cow.Map[keyList]
	values  map[string]cow.Map[[]string]
}

// snapshot freezes the current items, order and indices: starting a new
// epoch makes the next write to each copy it first.
func (ix *Indexer) snapshot() indexerSnapshot {
	ix.epoch.Next()
	return indexerSnapshot{items: ix.items, nextSeq: ix.nextSeq, all: ix.all,
		indices: maps.Clone(ix.indices), values: maps.Clone(ix.values)}
}

// restore brings the cache back to a snapshot. Everything is shared with the
// snapshot and stays frozen: a new epoch starts, so the cache copies what it
// changes. An index added since the snapshot was taken is rebuilt from the
// items, in the order they entered the cache.
func (ix *Indexer) restore(s indexerSnapshot) {
	ix.epoch.Next()
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
		ix.indexAll(name)
	}
}

// keyList is a set of keys kept in seq order, shared copy-on-write with
// snapshots: insertKey and removeKey change what its Write returned. New keys
// usually have the highest seq and are appended; removal finds the key by
// binary search on seq.
type keyList = cow.Slice[seqKey]

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

func findSeq(keys []seqKey, seq uint64) (int, bool) {
	return slices.BinarySearchFunc(keys, seq, func(k seqKey, s uint64) int { return compareSeq(k.seq, s) })
}

// insertKey adds key at its seq to a writable key list.
func insertKey(keys *[]seqKey, key string, seq uint64) {
	if n := len(*keys); n == 0 || (*keys)[n-1].seq < seq {
		*keys = append(*keys, seqKey{key: key, seq: seq})
		return
	}
	i, found := findSeq(*keys, seq)
	if found {
		return
	}
	*keys = slices.Insert(*keys, i, seqKey{key: key, seq: seq})
}

// removeKey removes key at its seq from a writable key list.
func removeKey(keys *[]seqKey, key string, seq uint64) {
	if i, found := findSeq(*keys, seq); found && (*keys)[i].key == key {
		*keys = slices.Delete(*keys, i, i+1)
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
		if set := idx.Read()[v]; len(set.Read()) > 0 {
			sets = append(sets, set.Read())
			total += len(set.Read())
		}
	}
	if len(sets) == 1 {
		return ix.objects(sets[0]), nil
	}
	items := ix.items.Read()
	out := make([]api.Object, 0, total)
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
			out = append(out, items[k.key].obj)
			last, first = k.seq, false
		}
	}
}
