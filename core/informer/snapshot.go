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
	return fifoSnapshot{queue: copyPending(f.queue.waiting()), populated: f.populated, initialPopulationCount: f.initialPopulationCount}
}

func (f *DeltaFIFO) restore(s fifoSnapshot) {
	f.queue = queue[pendingKey]{items: copyPending(s.queue)}
	f.items = make(map[string]int32, len(s.queue))
	f.serials = make([]uint64, len(s.queue))
	f.free = nil
	for i, p := range s.queue {
		f.items[p.key] = int32(i)
		f.serials[i] = uint64(i)
	}
	f.pushed = uint64(len(s.queue))
	f.populated = s.populated
	f.initialPopulationCount = s.initialPopulationCount
}

// copyPending copies queue entries and their deltas, sharing nothing with
// them: the live FIFO changes its deltas arrays in place (a collapsed
// delete, a recycled array). The deltas of all the keys go into one array,
// each key's capped to its own part, so that a snapshot taken while a
// thousand keys are pending costs two allocations, not a thousand.
func copyPending(q []pendingKey) []pendingKey {
	out := slices.Clone(q)
	total := 0
	for _, p := range q {
		total += len(p.deltas)
	}
	all := make(Deltas, 0, total)
	for i, p := range q {
		start := len(all)
		all = append(all, p.deltas...)
		out[i].deltas = all[start:len(all):len(all)]
	}
	return out
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
