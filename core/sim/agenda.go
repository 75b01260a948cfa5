package sim

import (
	"maps"
	"slices"
)

// agenda is a binary min-heap of events ordered by (At, Seq).
//
// It is written out by hand rather than with container/heap because
// container/heap moves elements through interface values, which would allocate
// on every Push of an Event struct; the kernel pushes and pops once per event.
//
// Cancelled events stay in the heap and are skipped when they reach the top
// (lazy deletion): removing from the middle of a heap needs a position index
// that every snapshot would have to copy too.
type agenda struct {
	// events is the heap; events[0] is the earliest. heapOK in the tests
	// checks the heap property after every operation.
	events []Event

	// cancelled holds the Seq of events that must not fire. Every Seq in it
	// belongs to an event still in events.
	cancelled map[uint64]struct{}

	// foreground counts the events in events that are neither Background nor
	// cancelled: the work that keeps Stabilize running.
	foreground int
}

func eventLess(a, b *Event) bool {
	if a.At != b.At {
		return a.At < b.At
	}
	return a.Seq < b.Seq
}

func (a *agenda) push(ev Event) {
	a.events = append(a.events, ev)
	a.up(len(a.events) - 1)
	if !ev.Background {
		a.foreground++
	}
}

// peek returns the earliest event that has not been cancelled, discarding
// cancelled ones on the way.
func (a *agenda) peek() (Event, bool) {
	for len(a.events) > 0 {
		top := a.events[0]
		if _, gone := a.cancelled[top.Seq]; !gone {
			return top, true
		}
		delete(a.cancelled, top.Seq)
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

func (a *agenda) removeTop() {
	n := len(a.events) - 1
	a.events[0] = a.events[n]
	a.events[n] = Event{} // drop the reference to Data for the garbage collector
	a.events = a.events[:n]
	if n > 0 {
		a.down(0)
	}
}

// cancel marks the event with this Seq so it never fires. It reports whether
// such an event was waiting.
func (a *agenda) cancel(seq uint64) bool {
	if _, gone := a.cancelled[seq]; gone {
		return false
	}
	for i := range a.events {
		if a.events[i].Seq != seq {
			continue
		}
		if a.cancelled == nil {
			a.cancelled = make(map[uint64]struct{})
		}
		a.cancelled[seq] = struct{}{}
		if !a.events[i].Background {
			a.foreground--
		}
		return true
	}
	return false
}

func (a *agenda) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !eventLess(&a.events[i], &a.events[parent]) {
			return
		}
		a.events[i], a.events[parent] = a.events[parent], a.events[i]
		i = parent
	}
}

func (a *agenda) down(i int) {
	n := len(a.events)
	for {
		least := i
		if l := 2*i + 1; l < n && eventLess(&a.events[l], &a.events[least]) {
			least = l
		}
		if r := 2*i + 2; r < n && eventLess(&a.events[r], &a.events[least]) {
			least = r
		}
		if least == i {
			return
		}
		a.events[i], a.events[least] = a.events[least], a.events[i]
		i = least
	}
}

// sorted returns the pending events that will fire, earliest first.
func (a *agenda) sorted() []Event {
	out := make([]Event, 0, len(a.events))
	for _, ev := range a.events {
		if _, gone := a.cancelled[ev.Seq]; !gone {
			out = append(out, ev)
		}
	}
	slices.SortFunc(out, func(x, y Event) int {
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

// clone returns an agenda that shares nothing mutable with a. Data payloads
// are shared, which is safe because they are never changed after scheduling.
func (a *agenda) clone() agenda {
	return agenda{
		events:     slices.Clone(a.events),
		cancelled:  maps.Clone(a.cancelled),
		foreground: a.foreground,
	}
}
