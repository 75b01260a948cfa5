package cow

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sameTable reports whether two maps are one map: a copy has a table of its own.
func sameTable[K comparable, V any](a, b map[K]V) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

func TestMapWriteAfterSnapshotLeavesTheSnapshotAsItWas(t *testing.T) {
	var e Epoch = 1
	var live Map[string, int]
	live.Set(e, "a", 1)

	snap := live // what a component's Snapshot keeps
	e.Next()
	live.Set(e, "a", 2)
	live.Set(e, "b", 3)
	live.Delete(e, "a")

	v, _ := snap.Get("a")
	assert.Equal(t, 1, v, "the snapshot still sees the old value")
	assert.Equal(t, 1, snap.Len(), "the snapshot does not see the new key")
	_, ok := live.Get("a")
	assert.False(t, ok)
	assert.Equal(t, 1, live.Len())
}

func TestMapCopiesOncePerEpoch(t *testing.T) {
	var e Epoch = 1
	m := Own(e, map[string]int{"a": 1})
	before := m.Read()
	assert.True(t, sameTable(before, m.Write(e)), "a map made in this epoch is written in place")

	e.Next()
	first := m.Write(e)
	assert.False(t, sameTable(before, first), "the first write of a new epoch copies")
	assert.True(t, sameTable(first, m.Write(e)), "later writes of the same epoch do not copy again")
}

func TestMapRestoreTwiceGivesTheSameState(t *testing.T) {
	var e Epoch = 1
	var live Map[string, int]
	live.Set(e, "a", 1)
	snap := live
	e.Next()
	for range 2 {
		live = snap // Restore
		e.Next()
		live.Set(e, "a", 9)
		v, _ := snap.Get("a")
		require.Equal(t, 1, v, "a restored map is copied before it is written")
	}
}

func TestZeroMapIsWritableInTheZeroEpoch(t *testing.T) {
	var e Epoch
	var m Map[string, int]
	m.Set(e, "a", 1)
	assert.Equal(t, 1, m.Len())
}

func TestWriteInCopiesOnlyTheInnerMapWritten(t *testing.T) {
	var e Epoch = 1
	var outer Map[string, Map[string, int]]
	WriteIn(outer.Write(e), "a", e)["x"] = 1
	WriteIn(outer.Write(e), "b", e)["y"] = 2

	snap := outer
	e.Next()
	WriteIn(outer.Write(e), "a", e)["x"] = 10

	snapA, _ := snap.Get("a")
	liveA, _ := outer.Get("a")
	snapB, _ := snap.Get("b")
	liveB, _ := outer.Get("b")
	assert.Equal(t, 1, snapA.Read()["x"], "the snapshot keeps the inner map's old value")
	assert.Equal(t, 10, liveA.Read()["x"])
	assert.False(t, sameTable(snapA.Read(), liveA.Read()), "the inner map written to was copied")
	assert.True(t, sameTable(snapB.Read(), liveB.Read()), "its sibling was not")
	assert.Equal(t, []string{"a", "b"}, SortedKeys(outer))
}

func TestRowsMutCopiesTheRowOncePerEpoch(t *testing.T) {
	type pod struct{ phase string }
	var e Epoch = 1
	var rows Rows[string, pod]
	added := rows.Add(e, "p", pod{phase: "Pending"})
	assert.Same(t, added, rows.Mut(e, "p"), "a row made in this epoch is changed in place")

	snap := rows
	e.Next()
	mut := rows.Mut(e, "p")
	mut.phase = "Running"
	assert.Same(t, mut, rows.Mut(e, "p"), "a row is copied once per epoch")
	assert.Equal(t, "Pending", snap.Get("p").phase, "the snapshot keeps the old row")
	assert.Equal(t, "Running", rows.Get("p").phase)

	rows.Delete(e, "p")
	assert.False(t, rows.Has("p"))
	assert.True(t, snap.Has("p"), "a delete does not reach the snapshot")
	assert.Nil(t, rows.Mut(e, "p"), "a missing row is nil")
	assert.Nil(t, rows.Get("p"))
	assert.Equal(t, []string{"p"}, SortedRowKeys(snap))
	assert.Equal(t, 0, rows.Len())
}

func TestSliceWriteAfterSnapshotLeavesTheSnapshotAsItWas(t *testing.T) {
	var e Epoch = 1
	var live Slice[int]
	w := live.Write(e)
	*w = append(*w, 1, 2, 3)
	snap := live
	e.Next()
	w = live.Write(e)
	(*w)[0] = 10
	*w = append(*w, 4)
	assert.Equal(t, []int{1, 2, 3}, snap.Read())
	assert.Equal(t, []int{10, 2, 3, 4}, live.Read())
	assert.GreaterOrEqual(t, cap(live.Read()), 4, "a copy keeps room for more: 3 elements and a quarter, rounded up")
	assert.Equal(t, 4, live.Len())
}
