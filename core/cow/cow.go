package cow

import (
	"maps"
	"slices"
)

// Epoch is a component's copy-on-write generation: see the package
// documentation. The zero Epoch is a valid first epoch.
type Epoch uint64

// Next starts a new epoch, freezing every container made before it. A
// component calls it when it takes a snapshot and when it restores one.
func (e *Epoch) Next() { *e++ }

// Map is a map from strings (every component keys its state by name or by
// namespace/name) shared copy-on-write with snapshots. The zero Map is empty and
// ready to use. Copying a Map value (into a snapshot) shares its contents.
//
// Map has only the two methods that hold the copy-on-write rule, Read and
// Write; a caller gets, counts and deletes with Go's own map operations on
// what they return. Every method of a generic type is compiled once per
// shape of its type arguments, and each copy weighs on the page's download,
// so thin accessors are left out, and a component keeps the values of its
// maps pointer-shaped where it can (all pointers share one shape).
type Map[V any] struct {
	m    map[string]V
	made Epoch
}

// Own returns a Map holding m, made in epoch e. The caller hands m over: it
// must not keep it.
func Own[V any](e Epoch, m map[string]V) Map[V] {
	return Map[V]{m: m, made: e}
}

// Read returns the map for reading. It may be nil, and it must not be changed.
func (m Map[V]) Read() map[string]V { return m.m }

// Write returns the map ready to change in epoch e: if it was made in
// another epoch, a snapshot may share it, so it is first replaced by a copy
// made in e. The result is never nil.
func (m *Map[V]) Write(e Epoch) map[string]V {
	if m.made != e || m.m == nil {
		if c := maps.Clone(m.m); c != nil {
			m.m = c
		} else {
			m.m = map[string]V{}
		}
		m.made = e
	}
	return m.m
}

// SortedKeys returns m's keys in order, the one deterministic way to walk it.
func SortedKeys[V any](m Map[V]) []string {
	return slices.Sorted(maps.Keys(m.m))
}

// WriteIn returns the inner map under k of outer, ready to change in epoch e.
// outer must itself be writable in e (the result of a Write, or a plain map
// the component owns): a missing inner map is made, and a frozen one is
// replaced by its copy. Only the inner map under k is copied, never its
// siblings.
func WriteIn[V any](outer map[string]Map[V], k string, e Epoch) map[string]V {
	in := outer[k]
	if in.made == e && in.m != nil {
		return in.m
	}
	w := in.Write(e)
	outer[k] = in
	return w
}

// Stamp records the epoch a row was made or copied in. A record kept by
// pointer in a Map embeds it to be a Row.
type Stamp struct{ made Epoch }

func (s *Stamp) stamp() *Stamp { return s }

// Row is a record held by pointer in a Map and copied one at a time: it
// embeds a Stamp, and Copy returns a new record equal to it (a copy field by
// field, so a row must not hold maps or slices it changes in place). P is the
// pointer type itself, so Mut and Add, which take it, are compiled once for
// every kind of row.
type Row[P any] interface {
	stamp() *Stamp
	Copy() P
}

// Mut returns the row under k ready to change in epoch e, or nil when there
// is none: a row made in another epoch is first replaced, in a writable m, by
// its copy. It suits a component that keeps a record per object and changes a
// few fields of a few records per step (the kubelets' and the scheduler's
// pods): only the rows changed are copied, and the map once.
func Mut[P Row[P]](m *Map[P], e Epoch, k string) P {
	r, ok := m.m[k]
	if ok {
		r = MutRead(m, e, k, r)
	}
	return r
}

// MutRead is Mut for the row r the caller has just read under k
// (m.Read()[k], not nil): a component that reads a row to decide whether to
// change it then gets it ready to change without looking it up again.
func MutRead[P Row[P]](m *Map[P], e Epoch, k string, r P) P {
	if r.stamp().made != e {
		r = r.Copy()
		r.stamp().made = e
		m.Write(e)[k] = r
	}
	return r
}

// Add puts the new row r under k, replacing any, made in epoch e, and
// returns it.
func Add[P Row[P]](m *Map[P], e Epoch, k string, r P) P {
	r.stamp().made = e
	m.Write(e)[k] = r
	return r
}
