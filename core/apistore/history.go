package apistore

import "sort"

// history is a kind's watch history: its most recent events, oldest first,
// in chunks of historyChunk. chunks[0][first:] holds the oldest remembered
// events, and every chunk but the last is full; the last takes the new
// events. A kind's first chunk starts small and grows to a whole one, so a
// world of a few objects keeps a few events.
//
// The history was one slice, appended to, and moved to a fresh array of
// twice the window whenever the forgotten events at its start were as many
// as the window: every event was stored twice over, and the remembered ones
// copied, about one byte in sixteen of what a run allocated. A chunk is
// allocated once and never copied; a forgotten chunk is let go whole.
//
// Snapshots share the chunks. The history is only ever appended to, and a
// snapshot's copy (shared) has a list of chunks of its own, its last chunk
// capped at its length: the store goes on appending past the end the
// snapshot sees, and a store restored from the snapshot, taking a copy
// likewise, appends into a fresh array rather than into the one the snapshot
// shares. An event
// once added is never written again, so a pointer to it stays good (see
// WatchDelivery).
type history struct {
	chunks [][]WatchEvent
	first  int
	// n is the number of events remembered.
	n int
}

// historyChunk is how many events a chunk holds: 256 events of 56 bytes are
// 14,336 bytes, one of the allocator's size classes.
const historyChunk = 256

// len returns the number of events remembered.
func (h *history) len() int { return h.n }

// add appends ev as the newest event.
func (h *history) add(ev WatchEvent) {
	last := len(h.chunks) - 1
	if last < 0 || len(h.chunks[last]) == historyChunk {
		var c []WatchEvent
		if last >= 0 {
			c = make([]WatchEvent, 0, historyChunk)
		}
		h.chunks = append(h.chunks, c)
		last++
	}
	h.chunks[last] = append(h.chunks[last], ev)
	h.n++
}

// forget forgets the oldest event and returns it. The history must not be
// empty. The event stays where it was, unchanged, for snapshots that see it;
// a chunk whose events are all forgotten is dropped from the list, unless it
// is the last.
func (h *history) forget() WatchEvent {
	ev := h.chunks[0][h.first]
	h.first++
	h.n--
	if h.first == len(h.chunks[0]) && len(h.chunks) > 1 {
		h.chunks = h.chunks[1:]
		h.first = 0
	}
	return ev
}

// at returns the i-th remembered event, 0 being the oldest.
func (h *history) at(i int) *WatchEvent {
	c0 := len(h.chunks[0]) - h.first
	if i < c0 {
		return &h.chunks[0][h.first+i]
	}
	i -= c0
	return &h.chunks[1+i/historyChunk][i%historyChunk]
}

// firstAfter returns the index of the oldest remembered event newer than
// from, by halves (since looks back from the end first).
func (h *history) firstAfter(from uint64) int {
	return sort.Search(h.n, func(j int) bool { return h.at(j).ResourceVersion > from })
}

// since returns the remembered events newer than from, oldest first, read
// only: h.slice(h.firstAfter(from)), with the case of every write first. A
// watcher asks after every write of its kind, so its cursor is nearly
// always a step or two from the end of the last chunk, where looking back
// finds it, and a binary search over the whole window took ten (about 1%
// of a run's instructions, over four watchers of pods).
func (h *history) since(from uint64) []WatchEvent {
	if h.n == 0 {
		return nil
	}
	last := h.chunks[len(h.chunks)-1]
	lo := 0
	if len(h.chunks) == 1 {
		lo = h.first
	}
	for k, back := len(last), 0; k > lo && back < 4; k, back = k-1, back+1 {
		if last[k-1].ResourceVersion <= from {
			return last[k:len(last):len(last)]
		}
	}
	return h.slice(h.firstAfter(from))
}

// slice returns the remembered events from the i-th on, oldest first, read
// only. When they lie in one chunk, as the events one write caused nearly
// always do, it is that chunk's, capped at its length; otherwise a copy.
func (h *history) slice(i int) []WatchEvent {
	if i >= h.n {
		return nil
	}
	last := h.chunks[len(h.chunks)-1]
	if k := len(last) - (h.n - i); k >= 0 {
		return last[k:len(last):len(last)]
	}
	out := make([]WatchEvent, 0, h.n-i)
	for ; i < h.n; i++ {
		out = append(out, *h.at(i))
	}
	return out
}

// shared returns the history as a snapshot keeps it, and as a store
// restored from a snapshot takes it: the same chunks, in a list of its own,
// with the last chunk capped at its length (see history).
func (h history) shared() history {
	n := len(h.chunks)
	if n == 0 {
		return history{}
	}
	h.chunks = append(h.chunks[:n-1:n-1], h.chunks[n-1][:len(h.chunks[n-1]):len(h.chunks[n-1])])
	return h
}
