package informer

import (
	"slices"
	"time"

	"github.com/reconcilelab/rlab/core/apistore"
)

// informerSnapshot is everything an informer needs to come back to one step.
// Handlers are code, not state: a restore keeps the registered handlers and
// restores their buffers and resync bookkeeping, so the set of handlers must
// be the same as when the snapshot was taken.
type informerSnapshot struct {
	fifo      fifoSnapshot
	ix        indexerSnapshot
	listeners []listener

	state        WatchState
	lw           apistore.ListWatch
	popScheduled bool
	resyncCheck  time.Duration
	resyncSeq    uint64
	resyncArmed  bool
	faults       faults
	relistSeq    uint64
	relistArmed  bool
	lists        int
	watches      int
}

type fifoSnapshot struct {
	queue                  []pendingKey
	populated              bool
	initialPopulationCount int
}

func (f *DeltaFIFO) snapshot() fifoSnapshot {
	q := slices.Clone(f.queue.waiting())
	for i := range q {
		q[i].deltas = slices.Clone(q[i].deltas)
	}
	return fifoSnapshot{queue: q, populated: f.populated, initialPopulationCount: f.initialPopulationCount}
}

func (f *DeltaFIFO) restore(s fifoSnapshot) {
	f.queue = queue[pendingKey]{}
	f.items = make(map[string]uint64, len(s.queue))
	f.pushed = 0
	for _, p := range s.queue {
		f.queue.push(pendingKey{key: p.key, deltas: slices.Clone(p.deltas)})
		f.items[p.key] = f.pushed
		f.pushed++
	}
	f.populated = s.populated
	f.initialPopulationCount = s.initialPopulationCount
}

// Snapshot captures the informer's state: the cache (shared copy-on-write),
// the pending deltas, the handlers' buffers and the reflector's position.
func (inf *Informer) Snapshot() any {
	s := &informerSnapshot{
		fifo: inf.fifo.snapshot(), ix: inf.ix.snapshot(),
		state: inf.state, lw: inf.lw,
		popScheduled: inf.popScheduled, resyncCheck: inf.resyncCheck, resyncSeq: inf.resyncSeq,
		resyncArmed: inf.resyncArmed, faults: inf.faults, lists: inf.lists, watches: inf.watches,
		relistSeq: inf.relistSeq, relistArmed: inf.relistArmed,
	}
	for _, l := range inf.listeners {
		s.listeners = append(s.listeners, l.cloneState())
	}
	return s
}

// Restore returns the informer to a snapshot.
func (inf *Informer) Restore(v any) {
	s := v.(*informerSnapshot)
	inf.fifo.restore(s.fifo)
	inf.ix.restore(s.ix)
	for i, l := range s.listeners {
		if i < len(inf.listeners) {
			handler := inf.listeners[i].handler
			*inf.listeners[i] = l.cloneState()
			inf.listeners[i].handler = handler
		}
	}
	inf.state, inf.lw = s.state, s.lw
	inf.popScheduled, inf.resyncCheck, inf.resyncSeq, inf.resyncArmed = s.popScheduled, s.resyncCheck, s.resyncSeq, s.resyncArmed
	inf.faults, inf.lists, inf.watches = s.faults, s.lists, s.watches
	inf.relistSeq, inf.relistArmed = s.relistSeq, s.relistArmed
}
