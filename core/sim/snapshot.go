package sim

import (
	"errors"
	"strconv"
	"time"
)

// Snapshot is the whole state of a kernel and its components at one step. It
// is immutable once taken and can be restored any number of times.
type Snapshot struct {
	now    time.Duration
	seq    uint64
	steps  uint64
	hash   uint64
	rng    []byte
	agenda agenda

	// components holds each component's own snapshot, in registration order.
	components []componentSnapshot
}

type componentSnapshot struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	name  string
	state any
}

// Steps returns the step count at which the snapshot was taken.
func (s *Snapshot) Steps() uint64 { return s.steps }

// Hash returns the trace hash at which the snapshot was taken.
func (s *Snapshot) Hash() uint64 { return s.hash }

// Now returns the simulated time at which the snapshot was taken.
func (s *Snapshot) Now() time.Duration { return s.now }

// Snapshot captures the kernel and every registered component. Every component
// must implement Snapshotter: one that did not would silently keep its current
// state across a restore, and replays would diverge.
func (k *Kernel) Snapshot() (*Snapshot, error) {
	rng, err := k.pcg.MarshalBinary()
	if err != nil {
		return nil, err
	}
	s := &Snapshot{
		now:        k.now,
		seq:        k.seq,
		steps:      k.steps,
		hash:       k.hash,
		rng:        rng,
		agenda:     k.agenda.compacted(),
		components: make([]componentSnapshot, 0, len(k.names)),
	}
	for _, name := range k.names {
		sn, ok := k.components[name].(Snapshotter)
		if !ok {
			return nil, errors.New("sim: component " + quote(name) + " has state the kernel cannot snapshot (it does not implement Snapshotter)")
		}
		s.components = append(s.components, componentSnapshot{name: name, state: sn.Snapshot()})
	}
	return s, nil
}

// Restore brings the kernel and its components back to the snapshot. The
// kernel must have the same components registered, under the same names, as
// when the snapshot was taken.
func (k *Kernel) Restore(s *Snapshot) error {
	if len(s.components) != len(k.names) {
		return errors.New("sim: snapshot has " + itoa(len(s.components)) + " components, kernel has " + itoa(len(k.names)))
	}
	for i, cs := range s.components {
		if k.names[i] != cs.name {
			return errors.New("sim: snapshot component " + quote(cs.name) + " does not match registered component " + quote(k.names[i]))
		}
	}
	if err := k.pcg.UnmarshalBinary(s.rng); err != nil {
		return err
	}
	k.now, k.seq, k.steps, k.hash = s.now, s.seq, s.steps, s.hash
	k.agenda.restoreFrom(&s.agenda)
	for _, cs := range s.components {
		k.components[cs.name].(Snapshotter).Restore(cs.state)
	}
	return nil
}

// The trace hash folds each step into a running 64-bit value eight bytes at
// a time: xor a word in, multiply by an odd constant, fold the high half
// down. Each of the three is a bijection of the running value, so two runs
// whose steps differ in any byte end with different hashes as long as the
// rest agrees, which is what a replay check needs. It was FNV-1a, a byte at
// a time, until issue 18: a summary is about a hundred bytes, and hashing
// them one by one, each waiting on the last multiply, was 5% of a run.
const (
	hashSeed = 14695981039346656037
	hashMul  = 0x9e3779b97f4a7c15
)

// hashStep folds one step into the running hash: its number, its simulated
// time, its actor, the function it models and its summary, the fields of its
// trace line. Hashing the fields, instead of the formatted line, spares every
// step the line's allocation while covering the same content; the summary
// goes in as its form and facts (hashSentence), so it is never written out
// for the hash either.
func hashStep(h uint64, r *StepResult) uint64 {
	h = hashUint(h, r.N)
	h = hashUint(h, uint64(r.At))
	h = hashString(h, r.Actor)
	h = hashString(h, r.Models)
	return hashSentence(h, &r.Summary)
}

func hashUint(h, v uint64) uint64 {
	h = (h ^ v) * hashMul
	return h ^ h>>32
}

// hashString hashes s and then its length, so that ("ab", "c") and ("a",
// "bc") hash differently: each whole word of eight bytes, then the tail of
// fewer than eight bytes as one word, with the tail's length in its top
// byte. The tail is read as at most three loads rather than byte by byte
// (that loop was a third of hashString's instructions): a string of eight
// bytes or more ends with eight bytes whose top ones are the tail; a
// shorter one has its tail read as two words of four, or as its first,
// middle and last bytes, which overlap where they share bytes and so put
// every byte once in its place. hashStringBytewise, in the tests, is the
// byte-by-byte definition it must agree with.
func hashString(h uint64, s string) uint64 {
	n := len(s)
	// The words are read at i, not by slicing s forward: a slice taken at
	// the string's end must not point past it, and guarding that cost
	// every word four more instructions.
	i := 0
	for ; i <= n-8; i += 8 {
		h = hashUint(h, load64At(s, i))
	}
	// r is 0 to 7; the shifts are masked to say so, which spares the
	// compiler's checks for shifts of 64 bits or more.
	var tail uint64
	switch r := n - i; {
	case r == 0:
	case n >= 8:
		tail = load64At(s, n-8) >> (8 * (8 - r) & 63)
	case r >= 4:
		tail = uint64(load32(s)) | uint64(load32(s[r-4:]))<<(8*(r-4)&63)
	default:
		tail = uint64(s[0]) | uint64(s[r/2])<<(8*(r/2)&63) | uint64(s[r-1])<<(8*(r-1)&63)
	}
	// The tail's length goes in with it: "a" and "a\x00" must differ.
	return hashUint(h, tail^uint64(n-i)<<56)
}

// load64At reads the eight bytes of s at i as a little-endian word. The
// compiler makes the eight loads one.
func load64At(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// load32 reads the first four bytes of s as a little-endian word.
func load32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

func itoa(n int) string { return strconv.Itoa(n) }

func quote(s string) string { return strconv.Quote(s) }
