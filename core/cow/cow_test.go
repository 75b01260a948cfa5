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
	var live Map[int]
	live.Write(e)["a"] = 1

	snap := live // what a component's Snapshot keeps
	e.Next()
	live.Write(e)["a"] = 2
	live.Write(e)["b"] = 3
	delete(live.Write(e), "a")

	assert.Equal(t, map[string]int{"a": 1}, snap.Read(), "the snapshot sees neither the new value nor the new key")
	assert.Equal(t, map[string]int{"b": 3}, live.Read())
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
	assert.Equal(t, map[string]int{"a": 1}, first, "the copy holds what the map held")
}

func TestMapRestoreTwiceGivesTheSameState(t *testing.T) {
	var e Epoch = 1
	var live Map[int]
	live.Write(e)["a"] = 1
	snap := live
	e.Next()
	for range 2 {
		live = snap // Restore
		e.Next()
		live.Write(e)["a"] = 9
		require.Equal(t, 1, snap.Read()["a"], "a restored map is copied before it is written")
	}
}

func TestZeroMapIsWritableInTheZeroEpoch(t *testing.T) {
	var e Epoch
	var m Map[int]
	m.Write(e)["a"] = 1
	assert.Len(t, m.Read(), 1)
}

func TestWriteInCopiesOnlyTheInnerMapWritten(t *testing.T) {
	var e Epoch = 1
	var outer Map[Map[int]]
	WriteIn(outer.Write(e), "a", e)["x"] = 1
	WriteIn(outer.Write(e), "b", e)["y"] = 2

	snap := outer
	e.Next()
	WriteIn(outer.Write(e), "a", e)["x"] = 10

	snapA, liveA := snap.Read()["a"], outer.Read()["a"]
	snapB, liveB := snap.Read()["b"], outer.Read()["b"]
	assert.Equal(t, 1, snapA.Read()["x"], "the snapshot keeps the inner map's old value")
	assert.Equal(t, 10, liveA.Read()["x"])
	assert.False(t, sameTable(snapA.Read(), liveA.Read()), "the inner map written to was copied")
	assert.True(t, sameTable(snapB.Read(), liveB.Read()), "its sibling was not")
	assert.Equal(t, []string{"a", "b"}, SortedKeys(outer))
}

// pod is a row as the kubelets keep one.
type pod struct {
	Stamp
	phase string
}

func (p *pod) Copy() *pod {
	cp := *p
	return &cp
}

func TestMutCopiesTheRowOncePerEpoch(t *testing.T) {
	var e Epoch = 1
	var rows Map[*pod]
	added := Add(&rows, e, "p", &pod{phase: "Pending"})
	assert.Same(t, added, Mut(&rows, e, "p"), "a row made in this epoch is changed in place")

	snap := rows
	e.Next()
	mut := Mut(&rows, e, "p")
	mut.phase = "Running"
	assert.Same(t, mut, Mut(&rows, e, "p"), "a row is copied once per epoch")
	assert.Equal(t, "Pending", snap.Read()["p"].phase, "the snapshot keeps the old row")
	assert.Equal(t, "Running", rows.Read()["p"].phase)

	delete(rows.Write(e), "p")
	assert.NotContains(t, rows.Read(), "p")
	assert.Contains(t, snap.Read(), "p", "a delete does not reach the snapshot")
	assert.Nil(t, Mut(&rows, e, "p"), "a missing row is nil")
	assert.Equal(t, []string{"p"}, SortedKeys(snap))
}

func TestMutReadCopiesARowReadInAnEarlierEpoch(t *testing.T) {
	var e Epoch = 1
	var rows Map[*pod]
	Add(&rows, e, "p", &pod{phase: "Pending"})
	read := rows.Read()["p"]
	assert.Same(t, read, MutRead(&rows, e, "p", read), "a row made in this epoch is changed in place")

	snap := rows
	e.Next()
	read = rows.Read()["p"]
	mut := MutRead(&rows, e, "p", read)
	require.NotSame(t, read, mut, "a row a snapshot may share is copied")
	mut.phase = "Running"
	assert.Same(t, mut, rows.Read()["p"], "the copy takes the row's place")
	assert.Equal(t, "Pending", snap.Read()["p"].phase, "the snapshot keeps the old row")
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
}
