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
// and appends (key, tick) to a log. The least recently used entry is the
// oldest log record whose tick is still its entry's tick; records whose key
// was used again since are stale and are skipped.
//
// Values must be treated as immutable (a change is a new value), so a
// snapshot can share them. The correlator stores pointers to records it never
// changes in place: all pointer types share one GC shape, so its three caches
// share one compiled copy of this code in main.wasm, where three struct types
// would compile it three times, each under a long generated name.
type lru[V any] struct {
	// capacity is the most entries the cache holds.
	capacity int

	// entries maps a key to its value and the tick of its last use. Every
	// entry has exactly one record in log[head:] with its tick.
	entries map[string]lruEntry[V]

	// log[head:] holds one record per use, oldest first. It is only appended
	// to (or replaced by a compacted copy), so a snapshot shares it as
	// log[head:n:n].
	log  []lruUse
	head int

	// tick counts uses; it only grows.
	tick uint64
}

type lruEntry[V any] struct {
	value V
	tick  uint64
}

type lruUse struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	key  string
	tick uint64
}

func newLRU[V any](capacity int) *lru[V] {
	return &lru[V]{capacity: capacity, entries: make(map[string]lruEntry[V])}
}

// Len returns the number of entries.
func (c *lru[V]) Len() int { return len(c.entries) }

// Get returns the value under key and marks it as just used.
func (c *lru[V]) Get(key string) (V, bool) {
	e, ok := c.entries[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.use(key, e.value)
	return e.value, true
}

// Peek returns the value under key without marking it as used. The
// correlator peeks and then always Adds under the same key, which marks it
// as just used: marking the look too would only append a log record that the
// Add makes stale at once, three for every event correlated. The order of
// uses, and so what is forgotten, is upstream's Get then Add.
func (c *lru[V]) Peek(key string) (V, bool) {
	e, ok := c.entries[key]
	return e.value, ok
}

// Add stores value under key, marks it as just used, and forgets the least
// recently used entry if the cache is now over its capacity.
func (c *lru[V]) Add(key string, value V) {
	c.use(key, value)
	for len(c.entries) > c.capacity {
		c.evictOldest()
	}
}

func (c *lru[V]) use(key string, value V) {
	c.tick++
	c.entries[key] = lruEntry[V]{value: value, tick: c.tick}
	c.log = append(c.log, lruUse{key: key, tick: c.tick})
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
		if e, ok := c.entries[u.key]; ok && e.tick == u.tick {
			delete(c.entries, u.key)
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
		if e, ok := c.entries[u.key]; ok && e.tick == u.tick {
			fresh = append(fresh, u)
		}
	}
	c.log, c.head = fresh, 0
}

// lruSnapshot is a cache at one moment. It shares the log with the live cache
// (the live cache only appends past its end) and owns a copy of the map.
type lruSnapshot[V any] struct {
	entries map[string]lruEntry[V]
	log     []lruUse
	tick    uint64
}

func (c *lru[V]) snapshot() lruSnapshot[V] {
	return lruSnapshot[V]{
		entries: maps.Clone(c.entries),
		log:     c.log[c.head:len(c.log):len(c.log)],
		tick:    c.tick,
	}
}

func (c *lru[V]) restore(s lruSnapshot[V]) {
	c.entries = maps.Clone(s.entries)
	if c.entries == nil {
		c.entries = make(map[string]lruEntry[V])
	}
	c.log, c.head, c.tick = s.log, 0, s.tick
}
