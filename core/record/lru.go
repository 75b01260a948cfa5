package record

import "maps"

// lru is a bounded cache that forgets its least recently used entry when a new
// one would overflow it: the github.com/golang/groupcache/lru cache that each
// of upstream's three correlator caches is (4096 entries each). Get and Add
// both count as a use, as upstream's do; Peek does not.
//
// Upstream's cache is a doubly linked list of entries. A list of pointers
// would have to be copied node by node for every snapshot, so this one keeps
// recency as numbers instead: every use stamps the entry with the next tick
// and appends (the entry's place, tick) to a log. The least recently used
// entry is the oldest log record whose tick is still its entry's tick;
// records whose key was used again since, or whose place another key took,
// are stale and are skipped.
//
// Values must be treated as immutable (a change is a new value), so a
// snapshot can share them. The correlator stores pointers to records it never
// changes in place: all pointer types share one GC shape, so its three caches
// share one compiled copy of this code in main.wasm, where three struct types
// would compile it three times, each under a long generated name.
type lru[V any] struct {
	// capacity is the most entries the cache holds.
	capacity int

	// entries maps a key to the place of its entry in slots. Every entry
	// has exactly one record in log[head:] with its tick.
	entries map[string]int32

	// slots holds the entries, each where entries says; a forgotten
	// entry's place is zero (tick 0) and listed in free, to be used again.
	// The correlator looks a key up (Peek) and then stores under it (Add):
	// with the entries in a map of their own, that was two lookups of a
	// long key for every use, three times for every event correlated. Add
	// now writes the entry Peek found in place, without a lookup.
	slots []lruEntry[V]
	free  []int32

	// peeked is the place of the entry Peek found last (see Add).
	peeked int32

	// log[head:] holds one record per use, oldest first. It is only appended
	// to (or replaced by a compacted copy), so a snapshot shares it as
	// log[head:n:n].
	log  []lruUse
	head int

	// tick counts uses; it only grows.
	tick uint64
}

type lruEntry[V any] struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	key   string
	value V
	// tick is the tick of the entry's last use, 0 while its place is free.
	tick uint64
}

// lruUse records a use of the entry at slot. Once the place is used by
// another key, the record's tick is older than the entry's, as it is once
// the key is used again: both make the record stale.
type lruUse struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	slot int32
	tick uint64
}

func newLRU[V any](capacity int) *lru[V] {
	return &lru[V]{capacity: capacity, entries: make(map[string]int32)}
}

// Len returns the number of entries.
func (c *lru[V]) Len() int { return len(c.entries) }

// Get returns the value under key and marks it as just used.
func (c *lru[V]) Get(key string) (V, bool) {
	i, ok := c.entries[key]
	if !ok {
		var zero V
		return zero, false
	}
	value := c.slots[i].value
	c.use(i, value)
	return value, true
}

// Peek returns the value under key without marking it as used. The
// correlator peeks and then always Adds under the same key, which marks it
// as just used: marking the look too would only append a log record that the
// Add makes stale at once, three for every event correlated. The order of
// uses, and so what is forgotten, is upstream's Get then Add.
func (c *lru[V]) Peek(key string) (V, bool) {
	i, ok := c.entries[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.peeked = i
	return c.slots[i].value, true
}

// Add stores value under key, marks it as just used, and forgets the least
// recently used entry if the cache is now over its capacity. A key that
// Peek found last is stored where it is, without looking it up again; the
// place is checked to hold the key still, so whatever came between the two
// calls, Add stores under the key.
func (c *lru[V]) Add(key string, value V) {
	i := c.peeked
	if int(i) >= len(c.slots) || c.slots[i].tick == 0 || c.slots[i].key != key {
		var ok bool
		if i, ok = c.entries[key]; !ok {
			// A new key takes a free place if there is one.
			if n := len(c.free); n > 0 {
				i, c.free = c.free[n-1], c.free[:n-1]
			} else {
				i = int32(len(c.slots))
				c.slots = append(c.slots, lruEntry[V]{})
			}
			c.slots[i].key = key
			c.entries[key] = i
		}
	}
	c.use(i, value)
	for len(c.entries) > c.capacity {
		c.evictOldest()
	}
}

func (c *lru[V]) use(i int32, value V) {
	c.tick++
	e := &c.slots[i]
	e.value, e.tick = value, c.tick
	c.log = append(c.log, lruUse{slot: i, tick: c.tick})
	// Stale records pile up when the same keys are used again and again;
	// once they outnumber the live ones, keep only the live ones.
	if live := len(c.entries); len(c.log)-c.head > 2*live+16 {
		c.compact()
	}
}

func (c *lru[V]) evictOldest() {
	for c.head < len(c.log) {
		u := c.log[c.head]
		c.head++
		if e := &c.slots[u.slot]; e.tick == u.tick {
			delete(c.entries, e.key)
			*e = lruEntry[V]{}
			c.free = append(c.free, u.slot)
			return
		}
	}
}

// compact copies the live records, in order, into a fresh log. The fresh
// log has room for every use until the next compaction while the number of
// entries stays the same (use compacts once the log is longer than twice
// the live records and 16), so that a cache of steady size allocates one
// log per compaction rather than also growing each one by doubling.
func (c *lru[V]) compact() {
	fresh := make([]lruUse, 0, 2*len(c.entries)+17)
	for _, u := range c.log[c.head:] {
		if c.slots[u.slot].tick == u.tick {
			fresh = append(fresh, u)
		}
	}
	c.log, c.head = fresh, 0
}

// lruSnapshot is a cache at one moment. It shares the log with the live cache
// (the live cache only appends past its end) and owns a copy of the map and
// of the entries.
type lruSnapshot[V any] struct {
	entries map[string]int32
	slots   []lruEntry[V]
	free    []int32
	log     []lruUse
	tick    uint64
}

func (c *lru[V]) snapshot() lruSnapshot[V] {
	return lruSnapshot[V]{entries: c.entries, slots: c.slots, free: c.free, log: c.log[c.head:len(c.log):len(c.log)], tick: c.tick}.copy()
}

func (c *lru[V]) restore(s lruSnapshot[V]) {
	s = s.copy()
	c.entries, c.slots, c.free, c.log, c.head, c.tick = s.entries, s.slots, s.free, s.log, 0, s.tick
}

// copy returns a copy of s that shares only the log, which nothing writes
// into (see lruSnapshot), and whose map is never nil.
func (s lruSnapshot[V]) copy() lruSnapshot[V] {
	entries := maps.Clone(s.entries)
	if entries == nil {
		entries = make(map[string]int32)
	}
	return lruSnapshot[V]{entries: entries, slots: append([]lruEntry[V](nil), s.slots...), free: append([]int32(nil), s.free...),
		log: s.log, tick: s.tick}
}
