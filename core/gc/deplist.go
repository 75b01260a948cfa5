package gc

import (
	"slices"

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
// there. An empty list answers chunk 0, place 0.
func (l depList) find(dep depRef) (chunk, at int, found bool) {
	if len(l.chunks) == 0 {
		return 0, 0, false
	}
	chunk, _ = slices.BinarySearchFunc(l.chunks, dep, func(c depChunk, d depRef) int {
		return cmpDeps(c.refs[len(c.refs)-1], d)
	})
	chunk = min(chunk, len(l.chunks)-1)
	at, found = slices.BinarySearchFunc(l.chunks[chunk].refs, dep, cmpDeps)
	return chunk, at, found
}

// own makes the list's index, and chunk i of it, this epoch's to change in
// place, copying whichever a snapshot may share.
func (l *depList) own(e cow.Epoch, i int) *depChunk {
	if l.epoch != e {
		l.chunks = slices.Clone(l.chunks)
		l.epoch = e
	}
	c := &l.chunks[i]
	if c.epoch != e {
		c.refs = append(make([]depRef, 0, depChunkMax+1), c.refs...)
		c.epoch = e
	}
	return c
}

// add puts dep in its place; it reports false if dep was there already.
func (l *depList) add(e cow.Epoch, dep depRef) bool {
	i, at, found := l.find(dep)
	if found {
		return false
	}
	if len(l.chunks) == 0 {
		l.chunks, l.epoch = []depChunk{{refs: []depRef{dep}, epoch: e}}, e
		l.n = 1
		return true
	}
	c := l.own(e, i)
	c.refs = slices.Insert(c.refs, at, dep)
	l.n++
	if len(c.refs) > depChunkMax {
		half := len(c.refs) / 2
		upper := depChunk{refs: append(make([]depRef, 0, depChunkMax+1), c.refs[half:]...), epoch: e}
		clear(c.refs[half:])
		c.refs = c.refs[:half]
		l.chunks = slices.Insert(l.chunks, i+1, upper)
	}
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
		if l.epoch != e {
			l.chunks, l.epoch = slices.Clone(l.chunks), e
		}
		l.chunks = slices.Delete(l.chunks, i, i+1)
		return true
	}
	c := l.own(e, i)
	c.refs = slices.Delete(c.refs, at, at+1)
	return true
}
