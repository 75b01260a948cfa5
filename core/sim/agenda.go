package sim

import (
	"time"

	"github.com/reconcilelab/rlab/core/sorting"
)

// agenda holds the pending events in a binary min-heap ordered by (At, Seq).
//
// The events themselves live in a slab (events, with free slots in free); the
// heap orders small slots that hold only the ordering key and the event's slab
// index. Sifting then moves 24-byte values without pointers, which the garbage
// collector needs no write barriers for, instead of whole events. The heap is
// written out by hand rather than with container/heap, which would move slots
// through interface values and allocate on every push.
//
// Cancelled events stay in the heap, marked, and are skipped when they reach
// the top (lazy deletion): removing from the middle of a heap needs a
// position index that every snapshot would have to copy too. The mark is on
// the event in the slab, which the top's check reads anyway, rather than in a
// set of cancelled Seqs that every look at the top had to hash into.
type agenda struct {
	// heap is the min-heap; heap[0] is the earliest event. check (in the
	// tests) verifies the heap property after every operation.
	heap []slot

	// events is the slab the heap points into; an index on free is unused
	// and holds the zero Event, so it keeps nothing alive.
	events []Event
	free   []int32

	// foreground counts the events in the heap that are neither Background
	// nor cancelled: the work that keeps Stabilize running.
	foreground int
}

// slot is one heap entry: the ordering key of an event and where it lives.
type slot struct {
	at  time.Duration
	seq uint64
	idx int32
}

func slotLess(a, b *slot) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}

func eventLess(a, b *Event) bool {
	if a.At != b.At {
		return a.At < b.At
	}
	return a.Seq < b.Seq
}

func (a *agenda) push(ev Event) {
	var idx int32
	if n := len(a.free); n > 0 {
		idx = a.free[n-1]
		a.free = a.free[:n-1]
		a.events[idx] = ev
	} else {
		idx = int32(len(a.events))
		a.events = append(a.events, ev)
	}
	a.heap = append(a.heap, slot{at: ev.At, seq: ev.Seq, idx: idx})
	a.up(len(a.heap) - 1)
	if !ev.Background {
		a.foreground++
	}
}

// peek returns the earliest event that has not been cancelled, discarding
// cancelled ones on the way.
func (a *agenda) peek() (Event, bool) {
	for len(a.heap) > 0 {
		ev := &a.events[a.heap[0].idx]
		if !ev.cancelled {
			return *ev, true
		}
		a.removeTop()
	}
	return Event{}, false
}

// pop removes and returns the earliest event that has not been cancelled.
func (a *agenda) pop() (Event, bool) {
	ev, ok := a.peek()
	if !ok {
		return Event{}, false
	}
	a.removeTop()
	if !ev.Background {
		a.foreground--
	}
	return ev, true
}

// removeTop drops the heap's first slot and frees its event's place in the
// slab.
func (a *agenda) removeTop() {
	idx := a.heap[0].idx
	a.events[idx] = Event{} // drop the reference to Data for the garbage collector
	a.free = append(a.free, idx)
	n := len(a.heap) - 1
	a.heap[0] = a.heap[n]
	a.heap = a.heap[:n]
	if n > 0 {
		a.down(0)
	}
}

// cancel marks the event with this Seq so it never fires. It reports whether
// such an event was waiting.
func (a *agenda) cancel(seq uint64) bool {
	for _, s := range a.heap {
		if s.seq != seq {
			continue
		}
		ev := &a.events[s.idx]
		if ev.cancelled {
			return false
		}
		ev.cancelled = true
		if !ev.Background {
			a.foreground--
		}
		return true
	}
	return false
}

func (a *agenda) up(i int) {
	h := a.heap
	for i > 0 {
		parent := (i - 1) / 2
		if !slotLess(&h[i], &h[parent]) {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func (a *agenda) down(i int) {
	h := a.heap
	n := len(h)
	for {
		least := i
		if l := 2*i + 1; l < n && slotLess(&h[l], &h[least]) {
			least = l
		}
		if r := 2*i + 2; r < n && slotLess(&h[r], &h[least]) {
			least = r
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}

// sorted returns the pending events that will fire, earliest first.
func (a *agenda) sorted() []Event {
	out := make([]Event, 0, len(a.heap))
	for _, s := range a.heap {
		if ev := a.events[s.idx]; !ev.cancelled {
			out = append(out, ev)
		}
	}
	sorting.Func(out, func(x, y Event) int {
		if eventLess(&x, &y) {
			return -1
		}
		if eventLess(&y, &x) {
			return 1
		}
		return 0
	})
	return out
}

// restoreFrom sets a to a copy of s, an agenda a snapshot holds, reusing a's own
// slices, which nothing else holds (snapshots take copies, see compacted):
// a restore then allocates nothing for the agenda, and the pushes after it
// find room in a slab as large as the run ever needed. Slots past the end of
// the slab are kept zero, so that they keep no Data alive.
func (a *agenda) restoreFrom(s *agenda) {
	clear(a.events)
	a.heap = append(a.heap[:0], s.heap...)
	a.events = append(a.events[:0], s.events...)
	a.free = append(a.free[:0], s.free...)
	a.foreground = s.foreground
}

// compacted returns a copy of a for a snapshot, one that shares nothing
// mutable with a (Data payloads are shared, which is safe because they are
// never changed after scheduling). The copy's slab holds only the pending
// events, without the free slots a busy stretch left behind (a world of a
// thousand pods often keeps more free slots than events), so the snapshot
// and every restore of it copy no more than they need. Only the slab indices
// in the heap change; the heap's shape and its keys, which alone decide the
// order events fire in, are kept.
func (a *agenda) compacted() agenda {
	c := agenda{
		heap:       make([]slot, len(a.heap)),
		events:     make([]Event, len(a.heap)),
		foreground: a.foreground,
	}
	for i, s := range a.heap {
		c.events[i] = a.events[s.idx]
		s.idx = int32(i)
		c.heap[i] = s
	}
	return c
}
