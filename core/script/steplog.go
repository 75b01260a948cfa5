package script

import (
	"sort"

	"github.com/reconcilelab/rlab/core/sim"
)

// StepLog is the steps a session keeps, oldest first, numbered one after
// the other: at least the last keptSteps the session ran (see
// Session.Steps).
//
// The steps are held in chunks. A new step goes at the end of the last
// chunk; once the steps after the oldest chunk are enough to keep, that
// chunk is dropped whole. Keeping the steps so costs what they hold and at
// most a chunk more, and no step is ever copied. (A single slice that kept
// room for twice keptSteps, and copied the newest half to a new one when
// full, held twice the steps' room for ever, half of it empty; a step's
// summary is a sim.Sentence held inside the step, so that room is most of
// what the steps cost.)
type StepLog struct {
	// chunks hold the steps; every chunk but the last is full, and each
	// has room for chunkSteps().
	chunks [][]sim.StepResult
	// n counts the steps kept.
	n int
}

// chunkSteps is how many steps a chunk holds: an eighth of what is kept,
// so that what is kept beyond keptSteps stays small, and at most 4096
// (about a megabyte of steps).
func chunkSteps() int { return max(1, min(4096, keptSteps/8)) }

// Len returns how many steps are kept.
func (l *StepLog) Len() int {
	if l == nil {
		return 0
	}
	return l.n
}

// At returns the i-th step kept, from 0, oldest first. The caller must not
// modify it.
func (l *StepLog) At(i int) *sim.StepResult {
	size := chunkSteps()
	return &l.chunks[i/size][i%size]
}

// Index returns the index of the first step kept numbered n or more, or
// Len if there is none.
func (l *StepLog) Index(n uint64) int {
	return sort.Search(l.Len(), func(i int) bool { return l.At(i).N >= n })
}

// push keeps a new step, and drops the oldest chunk once the steps after
// it are enough to keep.
func (l *StepLog) push(res sim.StepResult) {
	size := chunkSteps()
	if l.n == len(l.chunks)*size {
		l.chunks = append(l.chunks, make([]sim.StepResult, 0, size))
	}
	last := len(l.chunks) - 1
	l.chunks[last] = append(l.chunks[last], res)
	l.n++
	for len(l.chunks) > 1 && l.n-size >= keptSteps {
		l.chunks[0] = nil
		l.chunks = l.chunks[1:]
		l.n -= size
	}
}

// truncate keeps the first n steps and drops the others, the newest.
func (l *StepLog) truncate(n int) {
	if n >= l.n {
		return
	}
	// The chunks that hold the first n steps stay; in the last of them the
	// steps after the n-th are cleared, so that they hold nothing alive.
	size := chunkSteps()
	keep := (n + size - 1) / size
	clear(l.chunks[keep:])
	l.chunks = l.chunks[:keep]
	if keep > 0 {
		last := l.chunks[keep-1]
		used := n - (keep-1)*size
		clear(last[used:])
		l.chunks[keep-1] = last[:used]
	}
	l.n = n
}
