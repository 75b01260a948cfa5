package apistore

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/cow"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sorting"
)

// DefaultWatchWindow is how many watch events per kind the store remembers when
// Options.WatchWindow is 0.
const DefaultWatchWindow = 1000

// DefaultEpoch is the time a store without a clock lives at. It is the
// simulation kernel's epoch, so that a store in a unit test and a store in a
// world print the same timestamps.
var DefaultEpoch = time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC)

// Options configures a Store. The zero value is valid and means the documented
// defaults.
type Options struct {
	// Now is the logical clock: the store reads it for creationTimestamp and
	// deletionTimestamp, and for nothing else. Nil means a clock stopped at
	// DefaultEpoch. A world passes the kernel's clock.
	Now func() time.Time

	// Rand is the seeded random source that uids and generated names are drawn
	// from. Nil means a source seeded with 1, which suits tests; a world passes
	// the kernel's source, so that one seed fixes every name in a run. The store
	// does not own the source and does not snapshot it: whoever passes it in
	// (the kernel) snapshots it.
	Rand *rand.Rand

	// WatchWindow is how many of the most recent watch events of each kind the
	// store remembers. A watch from a resourceVersion older than that window is
	// answered with Expired, as a real API server answers once etcd has
	// compacted its history. 0 means DefaultWatchWindow.
	WatchWindow int
}

// Store is a versioned, in-memory Kubernetes API server for Pods, ReplicaSets,
// ReplicationControllers, Nodes and Events. See the package documentation for
// what it models and why.
//
// A Store is not safe for concurrent use; nothing in the model is concurrent.
type Store struct {
	now    func() time.Time
	rand   *rand.Rand
	window int

	// validLabels spares creates the validation of labels just validated
	// (see labelsMemo); it is a cache, not state.
	validLabels labelsMemo
	// validNames spares creates the validation of a generateName and a
	// namespace just validated (see namesMemo); it is a cache, not state.
	validNames namesMemo
	// statuses shares equal parts of pods' statuses between the versions
	// it stores (see statusMemo); it is a cache, not state.
	statuses statusMemo
	// bindConditions is where a binding writes its pod's new condition
	// list before it knows whether the list needs a copy of its own (see
	// serveBind); it is a buffer, not state.
	bindConditions []api.PodCondition
	// written remembers, for each kind, the namespace map writableSpace
	// last returned and the epoch it was writable in (see writtenSpace);
	// it is a cache, not state.
	written [numKinds]writtenSpace

	// epoch is the copy-on-write generation (see package cow). Every map the
	// store owns records the epoch it was made in; a map from an older epoch
	// may be shared with a snapshot and is copied before its first write in
	// the current epoch. Snapshot and Restore start a new epoch.
	epoch cow.Epoch

	// rv is the global resourceVersion: the version of the last write of any
	// kind. It only grows, and every write takes the next value.
	rv uint64

	// kinds holds one slot per kind, indexed by kindInfo.index.
	kinds [numKinds]kindState

	// faults holds the injected failures; they are consulted on every request.
	faults Faults
}

// kindState is everything the store holds for one kind. Snapshots copy it by
// value: the maps are shared copy-on-write and the history's chunks are
// shared as they are (see history).
type kindState struct {
	// spaces maps a namespace ("" for cluster-scoped kinds) to the objects in
	// it, by name. Only namespaces with at least one object have an entry, so
	// listing one namespace touches nothing else. A write copies the outer map
	// and the one namespace it writes to, never the others (see writableSpace).
	spaces cow.Map[cow.Map[storedObject]]

	// count is the number of stored objects of this kind, over all namespaces.
	count int

	// hist is the watch history: the most recent events of this kind, at
	// most Store.window of them, in resourceVersion order. It is only ever
	// appended to, so a snapshot shares it (see history).
	hist history

	// compacted is the resourceVersion of the newest event forgotten from the
	// log, 0 while nothing has been forgotten. A watch must start at or after it.
	compacted uint64
}

// New returns an empty store.
func New(opts Options) *Store {
	s := &Store{now: opts.Now, rand: opts.Rand, window: opts.WatchWindow, epoch: 1}
	if s.now == nil {
		s.now = func() time.Time { return DefaultEpoch }
	}
	if s.rand == nil {
		s.rand = rand.New(rand.NewPCG(1, 0))
	}
	if s.window <= 0 {
		s.window = DefaultWatchWindow
	}
	return s
}

// ResourceVersion returns the current global resourceVersion: the version of
// the last write, 0 before the first.
func (s *Store) ResourceVersion() uint64 { return s.rv }

// Faults returns the store's fault rules, to add and heal them.
func (s *Store) Faults() *Faults { return &s.faults }

// Len returns how many objects of the kind the store holds.
func (s *Store) Len(kind api.Kind) int {
	info := infoFor(kind)
	if info == nil {
		return 0
	}
	return s.kinds[info.index].count
}

// Object returns the stored object, or false. It is a direct read for
// observers (the page, expectations, invariant checks): it is not an API
// request, so faults do not apply and nothing records it. The object is shared
// and read-only: DeepCopyObject it before changing anything.
func (s *Store) Object(kind api.Kind, namespace, name string) (api.Object, bool) {
	info := infoFor(kind)
	if info == nil {
		return nil, false
	}
	obj := s.lookup(info, namespace, name)
	return obj, obj != nil
}

// Objects returns the stored objects of a kind in one namespace ("" for all),
// sorted by key. Like Object it is a direct read, not a request; the objects are
// shared and read-only.
func (s *Store) Objects(kind api.Kind, namespace string) []api.Object {
	info := infoFor(kind)
	if info == nil {
		return nil
	}
	return s.collect(info, namespace, nil)
}

// storedObject is an object as the store holds it, with its key, joined once when
// the object was created: each later version is stored under the same key
// string, which its watch events carry (WatchEvent.Key). Joining the key
// for every write was the most frequent allocation of a run.
type storedObject struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	obj api.Object
	key string
}

// lookup returns the stored object or nil.
func (s *Store) lookup(info *kindInfo, namespace, name string) api.Object {
	return s.lookupStored(info, namespace, name).obj
}

// lookupStored returns the stored object with its key, or the zero
// storedObject. A write that replaces the object hands the key on to store,
// which then need not look the name up again to find it.
func (s *Store) lookupStored(info *kindInfo, namespace, name string) storedObject {
	if !info.namespaced {
		namespace = ""
	}
	sp := s.kinds[info.index].spaces.Read()[namespace]
	return sp.Read()[name]
}

// collect returns the objects in a namespace ("" for all) that the selector
// matches (nil for all), sorted by key.
func (s *Store) collect(info *kindInfo, namespace string, sel *labels.Selector) []api.Object {
	ks := &s.kinds[info.index]
	if !info.namespaced {
		namespace = ""
	}
	if namespace != "" || !info.namespaced {
		sp, ok := ks.spaces.Read()[namespace]
		if !ok {
			return []api.Object{}
		}
		objects := sp.Read()
		out := make([]api.Object, 0, len(objects))
		for _, name := range cow.SortedKeys(sp) {
			obj := objects[name].obj
			if sel == nil || sel.Matches(obj.Meta().Labels) {
				out = append(out, obj)
			}
		}
		return out
	}
	out := make([]api.Object, 0, ks.count)
	spaces := ks.spaces.Read()
	for _, ns := range cow.SortedKeys(ks.spaces) {
		sp := spaces[ns]
		objects := sp.Read()
		for _, name := range cow.SortedKeys(sp) {
			obj := objects[name].obj
			if sel == nil || sel.Matches(obj.Meta().Labels) {
				out = append(out, obj)
			}
		}
	}
	// Namespaces in order are not keys in order: "a-b/x" sorts before "a/y"
	// because '-' < '/'. Sort by the key itself, as the API server lists,
	// when the namespaces' names make that a different order: a world
	// with one namespace, or with none that is another's prefix, is
	// already in it, and a view of 10,000 pods lists them all.
	for i := 1; i < len(out); i++ {
		if compareKeys(out[i-1].Meta(), out[i].Meta()) > 0 {
			sorting.Stable(out, func(a, b api.Object) int {
				return compareKeys(a.Meta(), b.Meta())
			})
			break
		}
	}
	return out
}

// compareKeys orders two objects by "namespace/name" without building the keys.
func compareKeys(a, b *api.ObjectMeta) int {
	if a.Namespace == b.Namespace {
		return strings.Compare(a.Name, b.Name)
	}
	return strings.Compare(api.Key(a.Namespace, a.Name), api.Key(b.Namespace, b.Name))
}

// nextRV advances the global resourceVersion for one write and returns it, with
// its decimal form for metadata.resourceVersion.
func (s *Store) nextRV() (uint64, string) {
	s.rv++
	return s.rv, strconv.FormatUint(s.rv, 10)
}

// writtenSpace is the namespace map of a kind that writableSpace last
// returned. In the epoch it was returned in, the map stays the one stored
// under its namespace, writable, for as long as it holds objects: only drop
// empties one, and it then removes the namespace, so an empty map is never
// taken for it. A new epoch (a snapshot or a restore) makes it stale.
// Nearly every write goes to the namespace of the one before, and looking
// the namespace up again was a sixth of what storing an object cost.
type writtenSpace struct {
	namespace string
	objects   map[string]storedObject
	epoch     cow.Epoch
}

// writableSpace returns the objects of the namespace, by name, ready to be
// written in the current epoch: the kind's namespace map and the namespace's
// own map are copied first if a snapshot may share them. With create, a
// missing namespace is made; without, it is nil.
func (s *Store) writableSpace(info *kindInfo, namespace string, create bool) map[string]storedObject {
	w := &s.written[info.index]
	if len(w.objects) > 0 && w.epoch == s.epoch && w.namespace == namespace {
		return w.objects
	}
	spaces := s.kinds[info.index].spaces.Write(s.epoch)
	// Only a write that may not create the namespace asks whether it is
	// there: WriteIn makes a missing one, and every write that stores an
	// object, one step in seven, looked the namespace up for nothing.
	if !create {
		if _, ok := spaces[namespace]; !ok {
			return nil
		}
	}
	objects := cow.WriteIn(spaces, namespace, s.epoch)
	*w = writtenSpace{namespace: namespace, objects: objects, epoch: s.epoch}
	return objects
}

// store puts a new version of an object into the store at resourceVersion rv
// and records the watch event. obj must be the store's own copy, with
// metadata.resourceVersion already set to rv; it is never changed again.
//
// An Added object is new, a Modified one replaces its stored version: the
// callers looked it up first. The count follows the event's type, which
// spares looking the name up a second time in a map of 10,000 pods. key is
// the key of the version a Modified object replaces, which its caller found
// with it (lookupStored), or "" to have store look it up.
func (s *Store) store(info *kindInfo, obj api.Object, typ EventType, rv uint64, key string) {
	ks := &s.kinds[info.index]
	m := obj.Meta()
	objects := s.writableSpace(info, m.Namespace, true)
	switch {
	case typ == Added:
		ks.count++
		key = api.Key(m.Namespace, m.Name)
	case key == "":
		if key = objects[m.Name].key; key == "" {
			// Not stored before: a caller's mistake, which CheckInvariants
			// would report; the version still gets its key.
			key = api.Key(m.Namespace, m.Name)
		}
	}
	objects[m.Name] = storedObject{obj: obj, key: key}
	s.record(info, WatchEvent{Type: typ, Object: obj, ResourceVersion: rv, Key: key})
}

// drop removes an object at resourceVersion rv and records the DELETED event,
// which carries the object's last state stamped with rv, as an etcd watch
// reports a deletion.
func (s *Store) drop(info *kindInfo, last api.Object, rv uint64, rvs string) {
	ks := &s.kinds[info.index]
	m := last.Meta()
	objects := s.writableSpace(info, m.Namespace, false)
	key := objects[m.Name].key
	delete(objects, m.Name)
	if len(objects) == 0 {
		delete(ks.spaces.Write(s.epoch), m.Namespace)
	}
	ks.count--
	s.record(info, WatchEvent{Type: Deleted, Object: withResourceVersion(last, rvs), ResourceVersion: rv, Key: key})
}

// record appends a watch event to the kind's history and forgets the oldest
// events beyond the window.
func (s *Store) record(info *kindInfo, ev WatchEvent) {
	ks := &s.kinds[info.index]
	ks.hist.add(ev)
	for ks.hist.len() > s.window {
		ks.compacted = ks.hist.forget().ResourceVersion
	}
}
