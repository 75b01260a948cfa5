package cow

import (
	"cmp"
	"maps"
	"slices"
)

// Rows is a map from keys to rows (structs) held by pointer, where both the
// map and each row are shared copy-on-write with snapshots: Mut copies the one
// row it is asked for, and the map, before their first change in an epoch. It
// suits a component that keeps a record per object and changes a few fields
// of a few records per step (the kubelets' and the scheduler's pods). A row is
// copied field by field, so a row must not hold maps or slices it changes in
// place. The zero Rows is empty and ready to use.
type Rows[K comparable, R any] struct {
	m Map[K, *row[R]]
}

// row is one record and the epoch it was made or copied in.
type row[R any] struct {
	made Epoch
	val  R
}

// Get returns the row under k for reading, or nil. It must not be changed:
// use Mut for that.
func (t Rows[K, R]) Get(k K) *R {
	if r := t.m.m[k]; r != nil {
		return &r.val
	}
	return nil
}

// Has reports whether k has a row.
func (t Rows[K, R]) Has(k K) bool {
	_, ok := t.m.m[k]
	return ok
}

// Len returns the number of rows.
func (t Rows[K, R]) Len() int { return len(t.m.m) }

// Mut returns the row under k ready to change in epoch e, or nil when there is
// none: a row made in another epoch is first replaced by a copy.
func (t *Rows[K, R]) Mut(e Epoch, k K) *R {
	r := t.m.m[k]
	if r == nil {
		return nil
	}
	if r.made != e {
		cp := *r
		cp.made = e
		r = &cp
		t.m.Write(e)[k] = r
	}
	return &r.val
}

// Add puts a new row v under k, replacing any, and returns it ready to change
// in epoch e.
func (t *Rows[K, R]) Add(e Epoch, k K, v R) *R {
	r := &row[R]{made: e, val: v}
	t.m.Write(e)[k] = r
	return &r.val
}

// Delete removes k's row, in epoch e. It copies a frozen map even when k is
// absent.
func (t *Rows[K, R]) Delete(e Epoch, k K) { t.m.Delete(e, k) }

// SortedRowKeys returns t's keys in order.
func SortedRowKeys[K cmp.Ordered, R any](t Rows[K, R]) []K {
	return slices.Sorted(maps.Keys(t.m.m))
}
