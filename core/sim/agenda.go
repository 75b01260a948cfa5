package sim

import (
	"cmp"
	"slices"
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
// A lane holds its events themselves, one after the other: the next one to
// fire is beside the last one fired, so taking the earliest reads memory in
// order, which the processor fetches ahead of the reads. (When the lanes held
// only indices into one slab of events, freed places were reused last freed
// first, so consecutive events lay anywhere in the slab, and reading each one
// was likely to wait for memory: holding the events in the lanes took 2.8%
// off a large world's CPU time.) The heap's events live in a slab (events,
// with free slots in free), and the heap holds small slots of the ordering
// key and the event's slab index. Sifting then moves 24-byte values without
// pointers, which the garbage collector needs no write barriers for,
// instead of whole events. The heap is written out by hand rather than with
// container/heap, which would move slots through interface values and
// allocate on every push.
//
// A lane keeps its events in chunks of laneChunk, and the agenda keeps the
// chunks its lanes emptied for the next lane that needs one. In a burst of
// creates a world of 10,000 pods holds 15,000 events in one lane; one slice
// grown by doubling allocated twice that, and again in the next burst, since
// an emptied lane may next take another delay: a seventh of all the bytes a
// 10x1000 run allocated. Chunks are allocated once, for the most events the
// lanes ever held together, and nothing is copied when a lane grows. A lane
// of fewer events than a chunk, as nearly every lane is, runs as one slice.
//
// Cancelled events stay where they are, marked, and are skipped when they
// come to the front (lazy deletion): removing from the middle of a heap needs
// a position index that every snapshot would have to copy too. The mark is
// on the event, which the front's check reads anyway, rather than in a set of
// cancelled Seqs that every look at the front had to hash into.
type agenda struct {
	// heap is the min-heap of the events no lane took; heap[0] is its
	// earliest. check (in the tests) verifies the heap property and the
	// lanes' order after every operation.
	heap []slot

	// lanes are the queues of events scheduled with one delay each.
	lanes [laneCount]lane

	// events is the slab the heap points into; an index on free is unused
	// and holds the zero Event, so it keeps nothing alive.
	events []Event
	free   []int32

	// spare holds the chunks the lanes emptied, each of length 0 and
	// capacity laneChunk or more, all zero. Snapshots do not share them.
	spare [][]Event

	// foreground counts the pending events that are neither Background nor
	// cancelled: the work that keeps Stabilize running.
	foreground int

	// peeked is where the event the last peek returned is (a lane's index,
	// or fromHeap), while nothing has changed the agenda since (peekedOK): a
	// run looks at the next event before it takes it, and pop then takes
	// that one without looking for the earliest again.
	peeked   int
	peekedOK bool
}

// fromHeap is the place of the heap's top among the agenda's fronts; a lane's
// is its index, and noEvent says the agenda is empty.
const (
	fromHeap = -1
	noEvent  = -2
)

// laneCount is how many delays have a lane: enough for the delays a world
// schedules nearly everything with (none, a request's trip, a kubelet's
// timer) and one to spare.
const laneCount = 4

// lane is a first-in-first-out queue of the events scheduled with one
// delay, earliest first: events[head:], then the chunks in more, in order.
// events is the lane's first chunk and more its later ones, each holding
// laneChunk events but the last, which takes the pushes; a lane of fewer
// events (nearly always) is events alone, and runs as one slice would. An
// empty lane keeps its first chunk, emptied, for its next events, so that a
// lane of a few events (every small world's) allocates nothing once it has
// grown. An empty lane takes the next delay no other lane has.
type lane struct {
	delay  time.Duration
	events []Event
	head   int
	more   [][]Event
}

// laneChunk is how many events a chunk of a lane holds: 256 events of 72
// bytes are 18,432 bytes, one of the allocator's size classes, so a chunk
// wastes nothing. A lane's first chunk starts small and grows to it.
const laneChunk = 256

// empty reports whether the lane holds no event. When the first chunk has
// fired, the next one takes its place (see nextChunk), so the lane is empty
// when its first chunk is.
func (l *lane) empty() bool { return l.head == len(l.events) }

// pushLane appends ev to the lane: to its first chunk while that has room
// and no other chunk follows it (nearly always), else to its last chunk.
func (a *agenda) pushLane(l *lane, ev Event) {
	if len(l.more) == 0 && len(l.events) < laneChunk {
		l.events = append(l.events, ev)
		return
	}
	*a.moreSlot(l) = ev
}

// moreSlot adds a place at the end of the last of the lane's later chunks,
// starting a new one when it is full, and returns it for the event to be
// written in. A chunk has room for laneChunk events, so the place is there
// already, and zero (see spare).
func (a *agenda) moreSlot(l *lane) *Event {
	n := len(l.more)
	if n == 0 || len(l.more[n-1]) >= laneChunk {
		l.more = append(l.more, a.chunk())
		n++
	}
	c := l.more[n-1]
	c = c[:len(c)+1]
	l.more[n-1] = c
	return &c[len(c)-1]
}

// chunk returns an empty chunk of laneChunk events: a spare one if there is
// one, else a new one.
func (a *agenda) chunk() []Event {
	if n := len(a.spare); n > 0 {
		c := a.spare[n-1]
		a.spare[n-1] = nil
		a.spare = a.spare[:n-1]
		return c
	}
	return make([]Event, 0, laneChunk)
}

// dropLane removes the lane's first event, leaving the zero Event in its
// place so that it keeps no Data alive.
func (a *agenda) dropLane(l *lane) {
	l.events[l.head] = Event{}
	l.head++
	if l.head == len(l.events) {
		a.nextChunk(l)
	}
}

// nextChunk starts the lane again from the beginning of its first chunk,
// which has fired: the lane's next chunk takes its place, and it goes to
// spare; if there is no next chunk, the lane is empty and keeps it.
func (a *agenda) nextChunk(l *lane) {
	l.head = 0
	if len(l.more) == 0 {
		l.events = l.events[:0]
		return
	}
	a.spare = append(a.spare, l.events[:0])
	l.events = l.more[0]
	n := copy(l.more, l.more[1:])
	l.more[n] = nil
	l.more = l.more[:n]
}

// emptyLane removes every event from the lane, keeping its first chunk,
// zeroed, and giving the others to spare.
func (a *agenda) emptyLane(l *lane) {
	clear(l.events)
	l.events, l.head = l.events[:0], 0
	for i, c := range l.more {
		clear(c)
		a.spare = append(a.spare, c[:0])
		l.more[i] = nil
	}
	l.more = l.more[:0]
}

// held returns the number of events in the lane.
func (l *lane) held() int {
	n := len(l.events) - l.head
	for _, c := range l.more {
		n += len(c)
	}
	return n
}

// chunks calls f with each chunk's events that the lane holds, earliest
// first.
func (l *lane) chunks(f func([]Event)) {
	f(l.events[l.head:])
	for _, c := range l.more {
		f(c)
	}
}

// find returns the lane's pending event with this Seq, or nil. A lane's
// events are in Seq order too (see agenda), so it searches by halves: the
// chunk whose last event is the first at or after seq, then in it.
func (l *lane) find(seq uint64) *Event {
	held := l.events[l.head:]
	if n := len(held); n > 0 && held[n-1].Seq < seq {
		i, _ := slices.BinarySearchFunc(l.more, seq, func(c []Event, seq uint64) int { return cmp.Compare(c[len(c)-1].Seq, seq) })
		if i == len(l.more) {
			return nil
		}
		held = l.more[i]
	}
	j, ok := slices.BinarySearchFunc(held, seq, func(ev Event, seq uint64) int { return cmp.Compare(ev.Seq, seq) })
	if !ok {
		return nil
	}
	return &held[j]
}

// slot is one heap entry: the ordering key of an event and where it lives.
type slot struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

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
	*a.place(ev.At, ev.Seq, delay, ev.Background) = ev
}

// place adds a place for an event scheduled delay from now, which falls due
// at at and has this Seq and Background, and returns it for the caller to
// write the event in; it is zero until then, and the caller must write it
// before the agenda is used again. The kernel's schedule writes the event's
// fields there one by one: built as a value and handed to push, the event,
// 72 bytes, was copied twice more on its way into the lane, a fifth of
// every event's scheduling.
func (a *agenda) place(at time.Duration, seq uint64, delay time.Duration, background bool) *Event {
	a.peekedOK = false
	if !background {
		a.foreground++
	}
	if l := a.laneFor(delay); l != nil {
		// pushLane, written out: the compiler does not inline it, and this
		// is every step's push. A place past the first chunk's length is
		// zero: dropLane, emptyLane and the allocator leave it so.
		if n := len(l.events); len(l.more) == 0 && n < laneChunk {
			if n < cap(l.events) {
				l.events = l.events[:n+1]
			} else {
				l.events = append(l.events, Event{})
			}
			return &l.events[n]
		}
		return a.moreSlot(l)
	}
	var idx int32
	if n := len(a.free); n > 0 {
		idx = a.free[n-1]
		a.free = a.free[:n-1]
	} else {
		idx = int32(len(a.events))
		a.events = append(a.events, Event{})
	}
	a.heap = append(a.heap, slot{at: at, seq: seq, idx: idx})
	a.up(len(a.heap) - 1)
	return &a.events[idx]
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

// front returns where the earliest event is: a lane's index, fromHeap, or
// noEvent when the agenda is empty. Cancelled events count too (see peek).
// It compares the heap's top by its slot, so that it reads no event but the
// lanes' first ones. The lanes are looked at one by one, written out rather
// than in a loop: this is every step's search, and the loop's own work was
// a third of it.
func (a *agenda) front() int {
	c := candidate{from: noEvent}
	if len(a.heap) > 0 {
		c = candidate{from: fromHeap, at: a.heap[0].at, seq: a.heap[0].seq}
	}
	c = c.against(&a.lanes[0], 0)
	c = c.against(&a.lanes[1], 1)
	c = c.against(&a.lanes[2], 2)
	c = c.against(&a.lanes[3], 3)
	return c.from
}

// front looks at laneCount lanes, four: this fails to compile when
// laneCount is another number, and front must then be written again.
var _ = [1]struct{}{}[laneCount-4]

// candidate is the earliest event front has found so far, and where.
type candidate struct {
	from int
	at   time.Duration
	seq  uint64
}

// against returns the earlier of c and the first event of lane l, the lane
// at index i; c if the lane is empty.
func (c candidate) against(l *lane, i int) candidate {
	if l.head == len(l.events) {
		return c
	}
	if ev := &l.events[l.head]; c.from == noEvent || ev.At < c.at || ev.At == c.at && ev.Seq < c.seq {
		return candidate{from: i, at: ev.At, seq: ev.Seq}
	}
	return c
}

// at returns the first event of the place front returned.
func (a *agenda) at(from int) *Event {
	if from == fromHeap {
		return &a.events[a.heap[0].idx]
	}
	l := &a.lanes[from]
	return &l.events[l.head]
}

// peek returns the earliest event that has not been cancelled, discarding
// cancelled ones on the way.
func (a *agenda) peek() (Event, bool) {
	if ev := a.first(); ev != nil {
		return *ev, true
	}
	return Event{}, false
}

// first is peek without the copy: the earliest event that has not been
// cancelled, or nil. The pointer is good until the agenda next changes.
func (a *agenda) first() *Event {
	for {
		from := a.front()
		if from == noEvent {
			return nil
		}
		if ev := a.at(from); !ev.cancelled {
			a.peeked, a.peekedOK = from, true
			return ev
		}
		a.remove(from)
	}
}

// popInto removes the earliest event that has not been cancelled and
// writes it into dst, which it leaves alone when the agenda is empty. The
// kernel's step takes the event straight into its result this way, where
// an event returned by value was copied out and then in again.
func (a *agenda) popInto(dst *Event) bool {
	for {
		from := a.peeked
		if !a.peekedOK {
			if from = a.front(); from == noEvent {
				return false
			}
		}
		ev := a.at(from)
		if ev.cancelled {
			a.remove(from)
			continue
		}
		*dst = *ev
		// remove, written out for a lane, where nearly every event is: the
		// compiler does not inline remove, and this is every step's. ev is
		// the lane's first event, which dropLane would clear.
		a.peekedOK = false
		if from >= 0 {
			*ev = Event{}
			l := &a.lanes[from]
			l.head++
			if l.head == len(l.events) {
				a.nextChunk(l)
			}
		} else {
			a.remove(from)
		}
		if !dst.Background {
			a.foreground--
		}
		return true
	}
}

// remove drops the first event of the heap (fromHeap) or of lane from, and
// frees its place.
func (a *agenda) remove(from int) {
	a.peekedOK = false
	if from >= 0 {
		a.dropLane(&a.lanes[from])
		return
	}
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

// pending calls f with every pending event, cancelled or not: the heap's in
// its order, then each lane's, earliest first.
func (a *agenda) pending(f func(*Event)) {
	for _, s := range a.heap {
		f(&a.events[s.idx])
	}
	for i := range a.lanes {
		a.lanes[i].chunks(func(evs []Event) {
			for j := range evs {
				f(&evs[j])
			}
		})
	}
}

// cancel marks the event with this Seq so it never fires. It reports whether
// such an event was waiting.
func (a *agenda) cancel(seq uint64) bool {
	ev := a.lookup(seq)
	if ev == nil || ev.cancelled {
		return false
	}
	ev.cancelled = true
	if !ev.Background {
		a.foreground--
	}
	return true
}

// lookup returns the pending event with this Seq, cancelled or not, or nil.
func (a *agenda) lookup(seq uint64) *Event {
	for _, s := range a.heap {
		if s.seq == seq {
			return &a.events[s.idx]
		}
	}
	for i := range a.lanes {
		if ev := a.lanes[i].find(seq); ev != nil {
			return ev
		}
	}
	return nil
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
	var out []Event
	a.pending(func(ev *Event) {
		if !ev.cancelled {
			out = append(out, *ev)
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
// find room as large as the run ever needed. Places past the end of the slab
// and of each lane are kept zero, so that they keep no Data alive.
func (a *agenda) restoreFrom(s *agenda) {
	a.peekedOK = false
	clear(a.events)
	a.heap = append(a.heap[:0], s.heap...)
	for i := range a.lanes {
		l, from := &a.lanes[i], &s.lanes[i]
		a.emptyLane(l)
		l.delay = from.delay
		from.chunks(func(evs []Event) {
			for i := range evs {
				a.pushLane(l, evs[i])
			}
		})
	}
	a.events = append(a.events[:0], s.events...)
	a.free = append(a.free[:0], s.free...)
	a.foreground = s.foreground
}

// compacted returns a copy of a for a snapshot, one that shares nothing
// mutable with a (Data payloads are shared, which is safe because they are
// never changed after scheduling). The copy holds only the pending events,
// without the free places a busy stretch left behind in the slab (a world of
// a thousand pods often keeps more free places than events) or the dropped
// ones at the start of a lane, so the snapshot and every restore of it copy
// no more than they need. Only the slab indices in the heap change; the
// heap's shape, the lanes' delays and every event, whose keys alone decide
// the order events fire in, are kept.
func (a *agenda) compacted() agenda {
	held := len(a.heap)
	for i := range a.lanes {
		held += a.lanes[i].held()
	}
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
	// One array holds every lane's events, so a snapshot allocates three
	// times, however many lanes there are. A snapshot's lane is one chunk,
	// as long as the lane is: a snapshot is never pushed onto, only
	// restored from, and restoreFrom copies its events into the live lanes'
	// chunks.
	events := make([]Event, held-len(a.heap))
	for i := range a.lanes {
		l, to := &a.lanes[i], &c.lanes[i]
		to.delay = l.delay
		n := 0
		l.chunks(func(evs []Event) { n += copy(events[n:], evs) })
		to.events = events[:n:n]
		events = events[n:]
	}
	return c
}
