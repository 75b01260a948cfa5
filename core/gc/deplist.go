package gc

import (
	"github.com/reconcilelab/rlab/core/cow"
)

// depChunkMax is the most dependents one chunk of a depList holds; a chunk
// that grows past it is split in two halves.
const depChunkMax = 32

// depList is one owner's dependents in cmpDeps order, kept in sorted chunks
// of at most depChunkMax. One sorted slice made every new pod of a
// ReplicaSet of 10,000 move half of the list, 5,000 dependents with their
// strings, to open a place for it: a tenth of the time the page took to
// create them all. In chunks, a new dependent moves at most a chunk.
//
// Snapshots share lists, so a list is copy-on-write by epoch (see package
// cow): a write in a newer epoch than the list's first copies the list's
// index of chunks, and a write to a chunk older than the epoch copies that
// chunk alone. The first new pod after a snapshot therefore copies a few
// hundred slice headers and one chunk, not every dependent.
type depList struct {
	chunks []depChunk
	n      int
	epoch  cow.Epoch
}

// depChunk is a sorted run of a depList, with the epoch it was copied in.
type depChunk struct {
	refs  []depRef
	epoch cow.Epoch
}

// len returns how many dependents the list holds.
func (l depList) len() int { return l.n }

// all returns the dependents, in order, in a new slice.
func (l depList) all() []depRef {
	out := make([]depRef, 0, l.n)
	for _, c := range l.chunks {
		out = append(out, c.refs...)
	}
	return out
}

// find returns the chunk dep belongs in (the first whose last dependent is
// not before it, or the last chunk), dep's place in it, and whether it is
// there. An empty list answers chunk 0, place 0. The searches are written
// out rather than slices.BinarySearchFunc's, as are the moves in add and
// remove rather than slices.Insert's and Delete's: each of those is
// compiled anew for every element type, and for depRef and depChunk they
// made main.wasm 15 KB larger.
func (l depList) find(dep depRef) (chunk, at int, found bool) {
	if len(l.chunks) == 0 {
		return 0, 0, false
	}
	lo, hi := 0, len(l.chunks)-1
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if refs := l.chunks[mid].refs; cmpDepsAt(&refs[len(refs)-1], &dep) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	refs := l.chunks[lo].refs
	i, j := 0, len(refs)
	for i < j {
		mid := int(uint(i+j) >> 1)
		if cmpDepsAt(&refs[mid], &dep) < 0 {
			i = mid + 1
		} else {
			j = mid
		}
	}
	return lo, i, i < len(refs) && cmpDepsAt(&refs[i], &dep) == 0
}

// ownIndex makes the list's index of chunks this epoch's to change.
func (l *depList) ownIndex(e cow.Epoch) {
	if l.epoch != e {
		l.chunks = append(make([]depChunk, 0, len(l.chunks)+1), l.chunks...)
		l.epoch = e
	}
}

// own makes the list's index, and chunk i of it, this epoch's to change in
// place, copying whichever a snapshot may share. The copy has room for one
// more dependent, the one the caller is about to add.
func (l *depList) own(e cow.Epoch, i int) *depChunk {
	l.ownIndex(e)
	c := &l.chunks[i]
	if c.epoch != e {
		c.refs = append(make([]depRef, 0, chunkRoom(len(c.refs))), c.refs...)
		c.epoch = e
	}
	return c
}

// chunkRoom is the capacity a chunk of n dependents grows to when it has
// no room for one more: twice n, at least 4, and at most one more than
// depChunkMax, where it splits. Most owners have a few dependents (a
// thousand ReplicaSets of 10 replicas hold 10 each); a chunk made with room
// for 33 from the start, 2 KiB, kept 1.1 MiB of empty room in that world.
func chunkRoom(n int) int {
	return min(max(2*n, 4), depChunkMax+1)
}

// add puts dep in its place; it reports false if dep was there already.
func (l *depList) add(e cow.Epoch, dep depRef) bool {
	i, at, found := l.find(dep)
	if found {
		return false
	}
	l.n++
	if len(l.chunks) == 0 {
		l.chunks, l.epoch = []depChunk{{refs: append(make([]depRef, 0, chunkRoom(1)), dep), epoch: e}}, e
		return true
	}
	c := l.own(e, i)
	if len(c.refs) == cap(c.refs) {
		c.refs = append(make([]depRef, 0, chunkRoom(len(c.refs))), c.refs...)
	}
	c.refs = append(c.refs, depRef{})
	copy(c.refs[at+1:], c.refs[at:])
	c.refs[at] = dep
	if len(c.refs) <= depChunkMax {
		return true
	}
	// Split: the upper half moves to a new chunk after this one.
	half := len(c.refs) / 2
	upper := depChunk{refs: append(make([]depRef, 0, depChunkMax+1), c.refs[half:]...), epoch: e}
	clear(c.refs[half:])
	c.refs = c.refs[:half]
	l.chunks = append(l.chunks, depChunk{})
	copy(l.chunks[i+2:], l.chunks[i+1:])
	l.chunks[i+1] = upper
	return true
}

// remove takes dep out; it reports false if dep was not there.
func (l *depList) remove(e cow.Epoch, dep depRef) bool {
	i, at, found := l.find(dep)
	if !found {
		return false
	}
	l.n--
	if len(l.chunks[i].refs) == 1 {
		l.ownIndex(e)
		copy(l.chunks[i:], l.chunks[i+1:])
		l.chunks[len(l.chunks)-1] = depChunk{}
		l.chunks = l.chunks[:len(l.chunks)-1]
		return true
	}
	c := l.own(e, i)
	copy(c.refs[at:], c.refs[at+1:])
	c.refs[len(c.refs)-1] = depRef{}
	c.refs = c.refs[:len(c.refs)-1]
	return true
}
