package sim

import (
	"time"

	"github.com/reconcilelab/rlab/core/sorting"
)

// agenda holds the pending events, ordered by (At, Seq).
//
// Nearly every event is scheduled a fixed delay from now: a world of 10,000
// pods schedules a third of its events with no delay (a handler's call, a
// worker's next key) and three fifths a millisecond away (a request's or a
// watch event's trip), while its agenda holds up to 17,000 events. Events
// scheduled with one delay come due in the order they were scheduled, since
// now only moves forward and Seq only grows; so each of a few lanes, a
// first-in-first-out queue for one delay, is always in (At, Seq) order, and
// its first event is its earliest. The other events, a few percent, wait in
// a binary min-heap. The earliest event is the least of the heap's top and
// the lanes' heads: pushing onto a lane costs an append, where sifting
// through a heap of 17,000 cost fourteen comparisons and as many cache
// misses, and the order events fire in is the same, since (At, Seq) orders
// them all and no two share a Seq. A lane takes the delay of the first event
// pushed onto it while it is empty.
//
// The events themselves live in a slab (events, with free slots in free); the
// heap and the lanes hold small slots that hold only the ordering key and the
// event's slab index. Sifting then moves 24-byte values without pointers,
// which the garbage collector needs no write barriers for, instead of whole
// events. The heap is written out by hand rather than with container/heap,
// which would move slots through interface values and allocate on every
// push.
//
// Cancelled events stay where they are, marked, and are skipped when they
// come to the front (lazy deletion): removing from the middle of a heap needs
// a position index that every snapshot would have to copy too. The mark is
// on the event in the slab, which the front's check reads anyway, rather than
// in a set of cancelled Seqs that every look at the front had to hash into.
type agenda struct {
	// heap is the min-heap of the events no lane took; heap[0] is its
	// earliest. check (in the tests) verifies the heap property and the
	// lanes' order after every operation.
	heap []slot

	// lanes are the queues of events scheduled with one delay each.
	lanes [laneCount]lane

	// events is the slab the heap and the lanes point into; an index on
	// free is unused and holds the zero Event, so it keeps nothing alive.
	events []Event
	free   []int32

	// foreground counts the pending events that are neither Background nor
	// cancelled: the work that keeps Stabilize running.
	foreground int

	// peeked is where the event the last peek returned is, while nothing
	// has changed the agenda since (peekedOK): a run looks at the next
	// event before it takes it, and pop then takes that one without
	// looking for the earliest again.
	peeked   peekedSlot
	peekedOK bool
}

// peekedSlot is an event's place: its slab index and where its slot is (a
// lane's index, or -1 for the heap's top).
type peekedSlot struct {
	idx  int32
	from int
}

// laneCount is how many delays have a lane: enough for the delays a world
// schedules nearly everything with (none, a request's trip, a kubelet's
// timer) and one to spare.
const laneCount = 4

// lane is a first-in-first-out queue of the events scheduled with one
// delay: slots[head:], earliest first. An empty lane takes the next delay
// no other lane has.
type lane struct {
	delay time.Duration
	slots []slot
	head  int
}

// empty reports whether the lane holds no event.
func (l *lane) empty() bool { return l.head == len(l.slots) }

// drop removes the lane's first slot. Once the lane is empty its slice
// starts again from the beginning; a lane that never empties is moved down
// once its dropped slots are at least half of it, so it stays within twice
// what it holds.
func (l *lane) drop() {
	l.slots[l.head] = slot{}
	l.head++
	switch {
	case l.empty():
		l.slots, l.head = l.slots[:0], 0
	case l.head >= 1024 && 2*l.head >= len(l.slots):
		n := copy(l.slots, l.slots[l.head:])
		l.slots, l.head = l.slots[:n], 0
	}
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

// push adds an event scheduled delay from now.
func (a *agenda) push(ev Event, delay time.Duration) {
	a.peekedOK = false
	var idx int32
	if n := len(a.free); n > 0 {
		idx = a.free[n-1]
		a.free = a.free[:n-1]
		a.events[idx] = ev
	} else {
		idx = int32(len(a.events))
		a.events = append(a.events, ev)
	}
	if !ev.Background {
		a.foreground++
	}
	s := slot{at: ev.At, seq: ev.Seq, idx: idx}
	if l := a.laneFor(delay); l != nil {
		l.slots = append(l.slots, s)
		return
	}
	a.heap = append(a.heap, s)
	a.up(len(a.heap) - 1)
}

// laneFor returns the lane of events scheduled delay from now: the one with
// that delay, or else an empty one, which takes it; nil when every lane
// holds events of other delays.
func (a *agenda) laneFor(delay time.Duration) *lane {
	var spare *lane
	for i := range a.lanes {
		l := &a.lanes[i]
		if l.empty() {
			if spare == nil {
				spare = l
			}
			continue
		}
		if l.delay == delay {
			return l
		}
	}
	if spare != nil {
		spare.delay = delay
	}
	return spare
}

// front returns the earliest event's slot and where it is: a lane's index,
// or -1 for the heap's top; nil when the agenda is empty. Cancelled events
// count too (see peek).
func (a *agenda) front() (*slot, int) {
	var first *slot
	from := -1
	if len(a.heap) > 0 {
		first = &a.heap[0]
	}
	for i := range a.lanes {
		l := &a.lanes[i]
		if l.empty() {
			continue
		}
		if s := &l.slots[l.head]; first == nil || slotLess(s, first) {
			first, from = s, i
		}
	}
	return first, from
}

// peek returns the earliest event that has not been cancelled, discarding
// cancelled ones on the way.
func (a *agenda) peek() (Event, bool) {
	for {
		s, from := a.front()
		if s == nil {
			return Event{}, false
		}
		if ev := &a.events[s.idx]; !ev.cancelled {
			a.peeked, a.peekedOK = peekedSlot{s.idx, from}, true
			return *ev, true
		}
		a.remove(s.idx, from)
	}
}

// pop removes and returns the earliest event that has not been cancelled.
func (a *agenda) pop() (Event, bool) {
	for {
		var idx int32
		var from int
		if a.peekedOK {
			idx, from = a.peeked.idx, a.peeked.from
		} else {
			s, f := a.front()
			if s == nil {
				return Event{}, false
			}
			idx, from = s.idx, f
		}
		ev := a.events[idx]
		a.remove(idx, from)
		if ev.cancelled {
			continue
		}
		if !ev.Background {
			a.foreground--
		}
		return ev, true
	}
}

// remove drops the earliest slot of the heap (from -1) or of lane from, and
// frees its event's place in the slab.
func (a *agenda) remove(idx int32, from int) {
	a.peekedOK = false
	a.events[idx] = Event{} // drop the reference to Data for the garbage collector
	a.free = append(a.free, idx)
	if from >= 0 {
		a.lanes[from].drop()
		return
	}
	n := len(a.heap) - 1
	a.heap[0] = a.heap[n]
	a.heap = a.heap[:n]
	if n > 0 {
		a.down(0)
	}
}

// pending calls f with every slot that holds a pending event, cancelled or
// not: the heap's in its order, then each lane's, earliest first.
func (a *agenda) pending(f func(*slot)) {
	for i := range a.heap {
		f(&a.heap[i])
	}
	for i := range a.lanes {
		l := &a.lanes[i]
		for j := l.head; j < len(l.slots); j++ {
			f(&l.slots[j])
		}
	}
}

// cancel marks the event with this Seq so it never fires. It reports whether
// such an event was waiting.
func (a *agenda) cancel(seq uint64) bool {
	found, was := false, false
	a.pending(func(s *slot) {
		if found || s.seq != seq {
			return
		}
		found = true
		ev := &a.events[s.idx]
		if ev.cancelled {
			return
		}
		ev.cancelled, was = true, true
		if !ev.Background {
			a.foreground--
		}
	})
	return was
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
	out := make([]Event, 0, len(a.events)-len(a.free))
	a.pending(func(s *slot) {
		if ev := a.events[s.idx]; !ev.cancelled {
			out = append(out, ev)
		}
	})
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
	a.peekedOK = false
	clear(a.events)
	a.heap = append(a.heap[:0], s.heap...)
	for i := range a.lanes {
		l, from := &a.lanes[i], &s.lanes[i]
		l.delay, l.head = from.delay, 0
		l.slots = append(l.slots[:0], from.slots[from.head:]...)
	}
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
// in the heap and the lanes change; the heap's shape, the lanes' delays and
// every slot's keys, which alone decide the order events fire in, are kept.
func (a *agenda) compacted() agenda {
	n := len(a.heap)
	for i := range a.lanes {
		n += len(a.lanes[i].slots) - a.lanes[i].head
	}
	c := agenda{
		heap:       make([]slot, len(a.heap)),
		events:     make([]Event, n),
		foreground: a.foreground,
	}
	// One array holds the heap's slots and the lanes' after them, as
	// events holds their events, so a snapshot allocates twice, however
	// many lanes there are.
	slots := make([]slot, n-len(a.heap))
	at := 0
	for i, s := range a.heap {
		c.events[at] = a.events[s.idx]
		s.idx = int32(at)
		c.heap[i] = s
		at++
	}
	for i := range a.lanes {
		l, to := &a.lanes[i], &c.lanes[i]
		to.delay = l.delay
		held := l.slots[l.head:]
		to.slots = slots[:len(held):len(held)]
		slots = slots[len(held):]
		for j, s := range held {
			c.events[at] = a.events[s.idx]
			s.idx = int32(at)
			to.slots[j] = s
			at++
		}
	}
	return c
}
