package cow

import (
	"iter"
	"math/bits"
	"slices"
)

// Trie is a map from strings shared copy-on-write with snapshots, like Map,
// but one whose copies cost only what changed: a hash array mapped trie. A
// write copies the few small nodes on the path from the root to its key
// (about three for ten thousand keys) instead of the whole map, so a
// snapshot of a world of ten thousand pods, taken every few hundred steps,
// keeps what those steps changed and shares the rest with the live state and
// with every other snapshot.
//
// Map copies its whole table on the first write after a snapshot. That is
// the right trade for small maps, whose lookups then cost one Go map access;
// Trie is for the maps that grow with the world (the API store's objects, an
// informer's cache, the kubelets' pods), where those copies, made once per
// snapshot for each map, were most of what a long run in the page allocated,
// and each snapshot kept a whole copy of the world alive.
//
// The zero Trie is empty and ready to use. Copying a Trie value (into a
// snapshot) shares its contents; a write in a later epoch leaves the copy as
// it was. Get, Len and All read without copying. Like Map's, the values
// should be pointer-shaped where they can (every pointer type shares one
// compiled copy of the code).
//
// The trie's shape depends only on its keys, not on the order they came in
// (the one exception is in collisionNode's comment), so All walks a given
// set of keys in the same order on every run and on every platform: the
// order of their hashes, which is not meaningful but is deterministic.
type Trie[V any] struct {
	root trieNode[V]
	n    int
}

// A trieNode is one node of the trie. Each of its up to 32 slots is picked by
// five bits of a key's hash, the root's by the lowest five; bitmap says which
// slots are used, and slots holds only those, in bit order. A slot holds
// either one entry or, when two keys' hashes agree on this node's bits, a
// node one level down.
//
// A node is kept by value in its parent's slot (the root in the Trie), not
// behind a pointer of its own, so that going down a level follows one
// pointer, to the slots, instead of two: lookups are what the trie must do
// nearly as fast as a Go map.
//
// Below the last level the 64-bit hash reaches, a node is a collision node:
// its bitmap is 0 and its slots list the entries whose whole hashes are
// equal, in the order they were added.
type trieNode[V any] struct {
	slots  []trieSlot[V]
	bitmap uint32
	made   Epoch
}

type trieSlot[V any] struct {
	// node is the node one level down; an entry has none (no slots).
	node trieNode[V]
	// hash is hashKey(key), kept so that pushing an entry down a level does
	// not hash its key again.
	hash uint64
	key  string
	val  V
}

func (s *trieSlot[V]) isNode() bool { return s.node.slots != nil }

// trieBits is how many bits of the hash each level uses: 32 slots a node.
const trieBits = 5

// collisionNode reports whether a node at shift is past the last level the
// hash reaches. 64 bits make twelve levels of five and a thirteenth of four;
// two keys share a collision node only if all 64 bits of their hashes are
// equal.
func collisionNode(shift uint) bool { return shift >= 64 }

// Len returns the number of keys.
func (t Trie[V]) Len() int { return t.n }

// Get returns the value under k, and whether there is one.
func (t *Trie[V]) Get(k string) (V, bool) {
	return t.getHashed(hashKey(k), k)
}

func (t *Trie[V]) getHashed(h uint64, k string) (V, bool) {
	var zero V
	n := &t.root
	for shift := uint(0); ; shift += trieBits {
		if collisionNode(shift) {
			for i := range n.slots {
				if n.slots[i].key == k {
					return n.slots[i].val, true
				}
			}
			return zero, false
		}
		bit := uint32(1) << ((h >> shift) & 31)
		if n.bitmap&bit == 0 {
			return zero, false
		}
		s := &n.slots[bits.OnesCount32(n.bitmap&(bit-1))]
		if s.isNode() {
			n = &s.node
			continue
		}
		if s.hash == h && s.key == k {
			return s.val, true
		}
		return zero, false
	}
}

// Set puts v under k in epoch e, replacing any value there.
func (t *Trie[V]) Set(e Epoch, k string, v V) {
	t.setHashed(e, hashKey(k), k, v)
}

func (t *Trie[V]) setHashed(e Epoch, h uint64, k string, v V) {
	t.root.own(e)
	if t.root.set(e, 0, h, k, v) {
		t.n++
	}
}

// Delete removes k in epoch e, and reports whether it was there.
func (t *Trie[V]) Delete(e Epoch, k string) bool {
	return t.deleteHashed(e, hashKey(k), k)
}

func (t *Trie[V]) deleteHashed(e Epoch, h uint64, k string) bool {
	// Looking first keeps a delete of a missing key from copying the path
	// to where it would have been.
	if _, ok := t.getHashed(h, k); !ok {
		return false
	}
	t.root.own(e)
	t.root.remove(e, 0, h, k)
	t.n--
	return true
}

// All walks the entries in the order of their keys' hashes: deterministic,
// but not meaningful. Sort what a learner can see the order of.
func (t *Trie[V]) All() iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		t.root.walk(yield)
	}
}

// SortedKeys returns the keys in order.
func (t *Trie[V]) SortedKeys() []string {
	keys := make([]string, 0, t.n)
	for k := range t.All() {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (n *trieNode[V]) walk(yield func(string, V) bool) bool {
	for i := range n.slots {
		s := &n.slots[i]
		if s.isNode() {
			if !s.node.walk(yield) {
				return false
			}
		} else if !yield(s.key, s.val) {
			return false
		}
	}
	return true
}

// own makes n's slots ready to change in epoch e: if they were made in
// another epoch, a snapshot may share them, so n takes a copy made in e.
// The copy has room for one more slot, which an insert, the most common
// write after a lookup found nothing, then takes without growing it again.
// n itself must be writable: the Trie's root, or a slot of a node owned in e.
func (n *trieNode[V]) own(e Epoch) {
	if n.made == e && n.slots != nil {
		return
	}
	c := make([]trieSlot[V], len(n.slots), len(n.slots)+1)
	copy(c, n.slots)
	n.slots, n.made = c, e
}

// set puts v under k in n, which is owned in e and sits at shift, and
// reports whether k is new. The nodes below n on k's path are owned on the
// way down.
func (n *trieNode[V]) set(e Epoch, shift uint, h uint64, k string, v V) bool {
	if collisionNode(shift) {
		for i := range n.slots {
			if n.slots[i].key == k {
				n.slots[i].val = v
				return false
			}
		}
		n.slots = append(n.slots, trieSlot[V]{hash: h, key: k, val: v})
		return true
	}
	bit := uint32(1) << ((h >> shift) & 31)
	pos := bits.OnesCount32(n.bitmap & (bit - 1))
	if n.bitmap&bit == 0 {
		n.slots = slices.Insert(n.slots, pos, trieSlot[V]{hash: h, key: k, val: v})
		n.bitmap |= bit
		return true
	}
	s := &n.slots[pos]
	if s.isNode() {
		s.node.own(e)
		return s.node.set(e, shift+trieBits, h, k, v)
	}
	if s.hash == h && s.key == k {
		s.val = v
		return false
	}
	// Two keys agree on this level's bits: both go one level down, where
	// they part (or, if every bit agrees, into a collision node).
	var down trieNode[V]
	down.own(e)
	down.set(e, shift+trieBits, s.hash, s.key, s.val)
	down.set(e, shift+trieBits, h, k, v)
	*s = trieSlot[V]{node: down}
	return true
}

// remove takes k, which is there, out of n, which is owned in e and sits at
// shift. A node left with a single entry is replaced by that entry in its
// parent, and an empty one is removed, so that the trie keeps the shape its
// keys alone decide.
func (n *trieNode[V]) remove(e Epoch, shift uint, h uint64, k string) {
	if collisionNode(shift) {
		for i := range n.slots {
			if n.slots[i].key == k {
				n.slots = slices.Delete(n.slots, i, i+1)
				return
			}
		}
		return
	}
	bit := uint32(1) << ((h >> shift) & 31)
	pos := bits.OnesCount32(n.bitmap & (bit - 1))
	s := &n.slots[pos]
	if !s.isNode() {
		n.slots = slices.Delete(n.slots, pos, pos+1)
		n.bitmap &^= bit
		return
	}
	s.node.own(e)
	s.node.remove(e, shift+trieBits, h, k)
	switch down := s.node.slots; {
	case len(down) == 0:
		n.slots = slices.Delete(n.slots, pos, pos+1)
		n.bitmap &^= bit
	case len(down) == 1 && !down[0].isNode():
		*s = down[0]
	}
}

// hashKey hashes a key for the trie: eight bytes at a time, with a final
// mix so that keys differing only in their last characters (web-7xk2p,
// web-7xk2q) spread over every level's bits. It must not depend on the
// process (as hash/maphash's seeds do): All's order, which follows it, has
// to be the same on every run and under WebAssembly.
func hashKey(s string) uint64 {
	const m = 0x9e3779b97f4a7c15
	h := uint64(len(s)) * m
	for len(s) >= 8 {
		v := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		h = (h ^ v) * m
		h ^= h >> 31
		s = s[8:]
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		v |= uint64(s[i]) << (8 * i)
	}
	h = (h ^ v) * m
	// The finalizer of MurmurHash3: every input bit reaches every output bit.
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}
