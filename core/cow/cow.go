package cow

import (
	"cmp"
	"maps"
	"slices"
)

// Epoch is a component's copy-on-write generation: see the package
// documentation. The zero Epoch is a valid first epoch.
type Epoch uint64

// Next starts a new epoch, freezing every container made before it. A
// component calls it when it takes a snapshot and when it restores one.
func (e *Epoch) Next() { *e++ }

// Map is a map shared copy-on-write with snapshots. The zero Map is empty and
// ready to use. Copying a Map value (into a snapshot) shares its contents.
type Map[K comparable, V any] struct {
	m    map[K]V
	made Epoch
}

// Own returns a Map holding m, made in epoch e. The caller hands m over: it
// must not keep it.
func Own[K comparable, V any](e Epoch, m map[K]V) Map[K, V] {
	return Map[K, V]{m: m, made: e}
}

// Read returns the map for reading. It may be nil, and it must not be changed.
func (m Map[K, V]) Read() map[K]V { return m.m }

// Get returns the value under k.
func (m Map[K, V]) Get(k K) (V, bool) {
	v, ok := m.m[k]
	return v, ok
}

// Len returns the number of entries.
func (m Map[K, V]) Len() int { return len(m.m) }

// Write returns the map ready to change in epoch e: if it was made in
// another epoch, a snapshot may share it, so it is first replaced by a copy
// made in e. The result is never nil.
func (m *Map[K, V]) Write(e Epoch) map[K]V {
	if m.made != e || m.m == nil {
		if c := maps.Clone(m.m); c != nil {
			m.m = c
		} else {
			m.m = map[K]V{}
		}
		m.made = e
	}
	return m.m
}

// Set puts v under k, in epoch e.
func (m *Map[K, V]) Set(e Epoch, k K, v V) { m.Write(e)[k] = v }

// Delete removes k, in epoch e. It copies a frozen map even when k is absent.
func (m *Map[K, V]) Delete(e Epoch, k K) { delete(m.Write(e), k) }

// SortedKeys returns m's keys in order, the one deterministic way to walk it.
func SortedKeys[K cmp.Ordered, V any](m Map[K, V]) []K {
	return slices.Sorted(maps.Keys(m.m))
}

// WriteIn returns the inner map under k of outer, ready to change in epoch e.
// outer must itself be writable in e (the result of a Write, or a plain map
// the component owns): a missing inner map is made, and a frozen one is
// replaced by its copy. Only the inner map under k is copied, never its
// siblings.
func WriteIn[K, K2 comparable, V any](outer map[K]Map[K2, V], k K, e Epoch) map[K2]V {
	in := outer[k]
	if in.made == e && in.m != nil {
		return in.m
	}
	w := in.Write(e)
	outer[k] = in
	return w
}
