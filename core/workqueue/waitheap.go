package workqueue

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"github.com/reconcilelab/rlab/core/sorting"
)

// waitFor is one delayed key: the key and the moment it becomes due.
type waitFor struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	key string

	// readyAt is when the key becomes due, in kernel time since the epoch.
	readyAt time.Duration

	// seq orders keys due at the same instant: the request that set the
	// earlier readyAt fires first. Upstream leaves such ties to its heap's
	// whims; a deterministic model has to pick, and first-asked,
	// first-served is the order a learner expects.
	seq uint64

	// delay is the wait that was asked for, and rateLimited says whether a
	// rate limiter chose it; both only make the due step's summary readable
	// ("after its 20ms back-off").
	delay       time.Duration
	rateLimited bool

	// quiet says the wait does not keep the world busy (see
	// DelayingQueue.Quiet).
	quiet bool

	// pos is the entry's index in waitHeap.order, or -1 while its slot is
	// free.
	pos int
}

// waitHeap is the delayed keys, a binary min-heap on (readyAt, seq) with an
// index from key to entry: upstream's waitForPriorityQueue together with its
// waitingEntryByData map.
//
// It is written out rather than built on container/heap, whose Push and Pop
// pass every element through an interface value and so allocate. Entries live
// in a slab (slots) and the heap orders slot numbers, so a swap moves two ints
// and updates two positions without touching the map, and a freed slot is
// reused by the next key instead of allocating a new entry.
type waitHeap struct {
	// order is the heap: slot numbers, ordered so that the entry of order[i]
	// is never later, by (readyAt, seq), than those of order[2i+1] and
	// order[2i+2]. slots[order[i]].pos == i for every i.
	order []int

	// slots holds the entries. A slot is either in order or in free, never
	// both; a free slot holds the zero key and pos -1.
	slots []waitFor
	free  []int

	// index maps each delayed key to its slot. It has exactly the keys of
	// the entries in order: a key is delayed at most once.
	index map[string]int
}

func newWaitHeap() waitHeap {
	return waitHeap{index: make(map[string]int)}
}

func (h *waitHeap) len() int { return len(h.order) }

// head returns the entry that is due first. The heap must not be empty.
func (h *waitHeap) head() waitFor { return h.slots[h.order[0]] }

// lookup returns the slot of key's entry.
func (h *waitHeap) lookup(key string) (int, bool) {
	slot, ok := h.index[key]
	return slot, ok
}

// push adds an entry for a key that is not delayed yet.
func (h *waitHeap) push(w waitFor) {
	var slot int
	if n := len(h.free); n > 0 {
		slot = h.free[n-1]
		h.free = h.free[:n-1]
	} else {
		slot = len(h.slots)
		h.slots = append(h.slots, waitFor{})
	}
	w.pos = len(h.order)
	h.slots[slot] = w
	h.order = append(h.order, slot)
	h.index[w.key] = slot
	h.up(w.pos)
}

// advance moves the entry in slot to an earlier readyAt, with the seq, delay
// and cause of the request that asked for it.
func (h *waitHeap) advance(slot int, readyAt time.Duration, seq uint64, delay time.Duration, rateLimited bool) {
	w := &h.slots[slot]
	w.readyAt, w.seq, w.delay, w.rateLimited = readyAt, seq, delay, rateLimited
	h.up(w.pos)
}

// pop removes and returns the entry that is due first. The heap must not be
// empty.
func (h *waitHeap) pop() waitFor {
	slot := h.order[0]
	w := h.slots[slot]
	last := len(h.order) - 1
	h.swap(0, last)
	h.order = h.order[:last]
	if last > 0 {
		h.down(0)
	}
	delete(h.index, w.key)
	h.slots[slot] = waitFor{pos: -1}
	h.free = append(h.free, slot)
	return w
}

// reset drops every entry, keeping the arrays for reuse.
func (h *waitHeap) reset() {
	h.order = h.order[:0]
	h.slots = h.slots[:0]
	h.free = h.free[:0]
	clear(h.index)
}

func (h *waitHeap) less(i, j int) bool {
	a, b := &h.slots[h.order[i]], &h.slots[h.order[j]]
	if a.readyAt != b.readyAt {
		return a.readyAt < b.readyAt
	}
	return a.seq < b.seq
}

func (h *waitHeap) swap(i, j int) {
	h.order[i], h.order[j] = h.order[j], h.order[i]
	h.slots[h.order[i]].pos = i
	h.slots[h.order[j]].pos = j
}

func (h *waitHeap) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !h.less(i, parent) {
			return
		}
		h.swap(i, parent)
		i = parent
	}
}

func (h *waitHeap) down(i int) {
	n := len(h.order)
	for {
		least := i
		if l := 2*i + 1; l < n && h.less(l, least) {
			least = l
		}
		if r := 2*i + 2; r < n && h.less(r, least) {
			least = r
		}
		if least == i {
			return
		}
		h.swap(i, least)
		i = least
	}
}

// inOrder returns the entries in the order they will fire.
func (h *waitHeap) inOrder() []waitFor {
	out := make([]waitFor, 0, len(h.order))
	for _, slot := range h.order {
		out = append(out, h.slots[slot])
	}
	sorting.Func(out, func(a, b waitFor) int {
		if c := cmp.Compare(a.readyAt, b.readyAt); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	return out
}

// clone returns a heap equal to h that shares nothing mutable with it.
//
// Snapshots copy the heap whole rather than share it copy-on-write as the
// caches do (package cow). It is not a map but four arrays that every push
// and pop changes together: a swap moves slots, order and positions at once,
// so the first write after a snapshot would copy all of them anyway, and
// nearly every step that touches a queue pushes or pops. It holds only the
// keys waiting out a delay (controller keys, not pods), so the copy is
// small; and a cow.Map index beside arrays copied whole would add a check on
// every lookup for no saving.
func (h *waitHeap) clone() waitHeap {
	c := waitHeap{
		order: slices.Clone(h.order),
		slots: slices.Clone(h.slots),
		free:  slices.Clone(h.free),
		index: maps.Clone(h.index),
	}
	if c.index == nil {
		c.index = make(map[string]int)
	}
	return c
}
