package informer

import (
	"slices"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/cow"
)

// table holds the cache's objects by seq, the position each key entered the
// cache at: slot seq is chunks[seq>>slotBits].slots[seq&slotMask]. Reading a
// slot is two indexings, where a map from key to object costs a hash of the
// key and a comparison; a listing reads one slot per object, and the
// ReplicaSet controller lists its pods on every sync.
//
// It is shared copy-on-write with snapshots, as package cow describes, in
// two levels: a write copies the array of chunk pointers, and the one chunk
// it changes, if they are of an older epoch. A step that changes one object
// after a snapshot therefore copies one chunk and the pointers, not the
// whole cache.
//
// A key's slot stays where it is until the key leaves the cache; a chunk
// whose slots are all free is dropped. Seqs only grow, so a cache whose keys
// come and go would leave its chunks sparse and its pointer array long; the
// Indexer renumbers (see Indexer.compact) when the array is more than twice
// as long as the keys need.
type table struct {
	chunks []*chunk
	made   cow.Epoch
}

const (
	slotBits = 6
	chunkLen = 1 << slotBits
	slotMask = chunkLen - 1
)

type chunk struct {
	slots [chunkLen]slot
	// live counts the slots in use.
	live int
	made cow.Epoch
}

// slot is one cached key. obj is nil exactly when the slot is free.
type slot struct {
	key string
	obj api.Object
	// vals holds, by index position (Indexer.indices), the values the key is
	// indexed under now, so that an update can take the key out of the old
	// ones without recomputing them from the old object. The outer slice is
	// shared with snapshots once its chunk is: it is replaced, never changed
	// in place.
	vals [][]string
}

// read returns the slot at seq, or nil when seq has never been given out or
// its chunk was dropped. It must not be changed.
func (t *table) read(seq uint64) *slot {
	i := seq >> slotBits
	if i >= uint64(len(t.chunks)) || t.chunks[i] == nil {
		return nil
	}
	return &t.chunks[i].slots[seq&slotMask]
}

// obj returns the object at a seq that is in use.
func (t *table) obj(seq uint64) api.Object {
	return t.chunks[seq>>slotBits].slots[seq&slotMask].obj
}

// write returns the slot at seq ready to change in epoch e, making its chunk
// if there is none and copying the pointer array and the chunk first if a
// snapshot may share them.
func (t *table) write(e cow.Epoch, seq uint64) (*chunk, *slot) {
	if t.made != e {
		t.chunks = slices.Clone(t.chunks)
		t.made = e
	}
	i := seq >> slotBits
	for uint64(len(t.chunks)) <= i {
		t.chunks = append(t.chunks, nil)
	}
	c := t.chunks[i]
	switch {
	case c == nil:
		c = &chunk{made: e}
		t.chunks[i] = c
	case c.made != e:
		cp := *c
		cp.made = e
		c = &cp
		t.chunks[i] = c
	}
	return c, &c.slots[seq&slotMask]
}

// add fills the free slot at seq, in epoch e.
func (t *table) add(e cow.Epoch, seq uint64, s slot) {
	c, p := t.write(e, seq)
	*p = s
	c.live++
}

// free empties the slot at seq, in use, in epoch e, and drops its chunk
// when that was its last slot in use.
func (t *table) free(e cow.Epoch, seq uint64) {
	c, p := t.write(e, seq)
	*p = slot{}
	if c.live--; c.live == 0 {
		t.chunks[seq>>slotBits] = nil
	}
}

// each calls f with every slot in use and its seq, in seq order.
func (t *table) each(f func(seq uint64, s *slot)) {
	for i, c := range t.chunks {
		if c == nil {
			continue
		}
		for j := range c.slots {
			if s := &c.slots[j]; s.obj != nil {
				f(uint64(i)<<slotBits|uint64(j), s)
			}
		}
	}
}
