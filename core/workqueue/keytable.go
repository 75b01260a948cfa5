package workqueue

import (
	"slices"
	"strings"

	"github.com/reconcilelab/rlab/core/sorting"
)

// keyState is what the queue knows of a key besides its name: upstream's
// dirty and processing sets, merged into two bits. A key is in the table
// exactly while at least one is set.
type keyState uint8

const (
	// stateDirty: the key needs processing. A dirty key that is not
	// processing waits in the queue.
	stateDirty keyState = 1 << iota

	// stateProcessing: a worker has the key and has not called Done. A key
	// may be processing and dirty at once: it was added again while a
	// worker held it.
	stateProcessing
)

func (s keyState) dirty() bool      { return s&stateDirty != 0 }
func (s keyState) processing() bool { return s&stateProcessing != 0 }

// keyTable holds a record for every key the queue knows, and finds it by key.
//
// It is a hash table of its own rather than a Go map because finding a key is
// nearly all an Add of a waiting key does, and the map's lookup is the larger
// part of upstream's Add too: to be well under half of upstream's cost, the
// lookup has to be cheaper than the map's. This one takes a third to a half
// less time, natively and in WebAssembly (where the runtime's map hash lacks
// the AES instructions it uses natively). It keeps the table in one flat
// array of 8-byte slots, at most half full, so that a lookup usually reads
// one slot and one key header; it hashes keys with a few multiplies instead of
// calling through the runtime's hasher; and growing or deleting never hashes
// a key again, because the slot keeps enough of the hash to place it. What is
// left is the two memory reads, which no lookup can avoid. Hashing is
// deterministic, as the kernel requires; the inputs are keys, not an
// adversary.
type keyTable struct {
	// slots is the table, with linear probing; its length is zero or a
	// power of two. A slot is zero when empty. Otherwise its high 32 bits
	// are the key's tag (the high half of its hash) and its low 32 bits the
	// key's record number plus one. The key's home slot is tag & mask:
	// every key sits at its home slot or after it, with no empty slot in
	// between, and at most half the slots are used.
	slots []uint64

	// used counts the non-empty slots, which is the number of keys.
	used int

	// The records, one index each, laid out as parallel arrays so that a
	// lookup touches only the dense array of key headers and the tiny one
	// of states, and never the worker names. Records never move, so their
	// numbers are what the queue's FIFO holds. A free record has the empty
	// key, no state and no worker, and is listed in free, to be reused
	// before the arrays grow.
	key    []string
	state  []keyState
	worker []string // who Got the key, while it is processing; for the page
	free   []int32
}

// hashKey hashes a key. Each 16-byte block is folded in with two multiplies
// that do not wait on each other, and the last block overlaps the one
// before when the length is not a multiple of 16, so that the common keys of
// 8 to 16 bytes cost two multiplies in parallel and one to finish. The final
// multiply spreads every input bit over the high half, which is all the
// table uses.
func hashKey(s string) uint64 {
	const (
		k1 = 0x9e3779b97f4a7c15
		k2 = 0xbf58476d1ce4e5b9
		k3 = 0x94d049bb133111eb
	)
	n := len(s)
	h := uint64(n) * k1
	for t := s; len(t) > 16; t = t[16:] {
		h = h*k3 ^ (le64(t)*k1 + le64(t[8:])*k2)
	}
	switch {
	case n >= 16:
		h = h*k3 ^ (le64(s[n-16:])*k1 + le64(s[n-8:])*k2)
	case n >= 8:
		h = h*k3 ^ (le64(s)*k1 + le64(s[n-8:])*k2)
	default:
		var w uint64
		for i := 0; i < n; i++ {
			w |= uint64(s[i]) << (8 * i)
		}
		h = h*k3 ^ w*k1
	}
	h ^= h >> 32
	h *= k2
	return h ^ h>>29
}

// le64 reads the first 8 bytes of s as a little-endian word; the compiler
// turns it into one load.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// tagOf returns the part of key's hash the table keeps.
func tagOf(key string) uint32 { return uint32(hashKey(key) >> 32) }

// find returns the number of key's record and the slot that points to it.
func (t *keyTable) find(key string) (rec int32, slot int, ok bool) {
	if len(t.slots) == 0 {
		return 0, 0, false
	}
	tag := tagOf(key)
	mask := len(t.slots) - 1
	for p := int(tag) & mask; ; p = (p + 1) & mask {
		e := t.slots[p]
		if e == 0 {
			return 0, 0, false
		}
		if uint32(e>>32) == tag {
			if r := int32(uint32(e)) - 1; t.key[r] == key {
				return r, p, true
			}
		}
	}
}

// findOrInsert returns the number of key's record, taking a free record for
// it if the key is new; inserted says which. A new record has no state yet:
// the caller must give it one before the next call.
func (t *keyTable) findOrInsert(key string) (rec int32, inserted bool) {
	if 2*(t.used+1) > len(t.slots) {
		t.grow()
	}
	tag := tagOf(key)
	mask := len(t.slots) - 1
	for p := int(tag) & mask; ; p = (p + 1) & mask {
		e := t.slots[p]
		if e == 0 {
			r := t.newRecord(key)
			t.slots[p] = uint64(tag)<<32 | uint64(r+1)
			t.used++
			return r, true
		}
		if uint32(e>>32) == tag {
			if r := int32(uint32(e)) - 1; t.key[r] == key {
				return r, false
			}
		}
	}
}

func (t *keyTable) newRecord(key string) int32 {
	var r int32
	if n := len(t.free); n > 0 {
		r = t.free[n-1]
		t.free = t.free[:n-1]
	} else {
		r = int32(len(t.key))
		t.key = append(t.key, "")
		t.state = append(t.state, 0)
		t.worker = append(t.worker, "")
	}
	t.key[r] = key
	return r
}

// removeAt forgets the key in slot and frees its record. The keys after it
// in its run of slots move back to close the gap (backward-shift deletion),
// so lookups never need tombstones.
func (t *keyTable) removeAt(slot int) {
	r := int32(uint32(t.slots[slot])) - 1
	t.key[r], t.state[r], t.worker[r] = "", 0, ""
	t.free = append(t.free, r)
	mask := len(t.slots) - 1
	hole := slot
	for p := (slot + 1) & mask; t.slots[p] != 0; p = (p + 1) & mask {
		home := int(uint32(t.slots[p]>>32)) & mask
		// The key in p may fill the hole if the hole lies between its home
		// and p: it then stays reachable from its home without a gap.
		if (p-home)&mask >= (p-hole)&mask {
			t.slots[hole] = t.slots[p]
			hole = p
		}
	}
	t.slots[hole] = 0
	t.used--
}

// grow doubles the table. Keys are placed from their tags; none is hashed
// again.
func (t *keyTable) grow() {
	old := t.slots
	t.slots = make([]uint64, max(2*len(old), 16))
	mask := len(t.slots) - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		p := int(uint32(e>>32)) & mask
		for t.slots[p] != 0 {
			p = (p + 1) & mask
		}
		t.slots[p] = e
	}
}

// sorted returns the numbers of the records in use, ordered by key.
func (t *keyTable) sorted() []int32 {
	out := make([]int32, 0, t.used)
	for r, st := range t.state {
		if st != 0 {
			out = append(out, int32(r))
		}
	}
	sorting.Func(out, func(a, b int32) int { return strings.Compare(t.key[a], t.key[b]) })
	return out
}

// clone returns a table equal to t that shares no array with it.
func (t *keyTable) clone() keyTable {
	return keyTable{
		slots:  slices.Clone(t.slots),
		used:   t.used,
		key:    slices.Clone(t.key),
		state:  slices.Clone(t.state),
		worker: slices.Clone(t.worker),
		free:   slices.Clone(t.free),
	}
}
