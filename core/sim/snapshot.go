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

// FNV-1a, 64 bit. It is written out rather than taken from hash/fnv so that
// hashing a step does not allocate a hash.Hash.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hashStep folds one step into the running hash: its number, its simulated
// time, its actor, the function it models and its summary, the fields of its
// trace line. Hashing the fields, instead of the formatted line, spares every
// step the line's allocation while covering the same content.
func hashStep(h uint64, r *StepResult) uint64 {
	h = hashUint(h, r.N)
	h = hashUint(h, uint64(r.At))
	h = hashString(h, r.Actor)
	h = hashString(h, r.Models)
	return hashString(h, r.Summary)
}

func hashUint(h, v uint64) uint64 {
	for i := 0; i < 8; i++ {
		h ^= v & 0xff
		h *= fnvPrime
		v >>= 8
	}
	return h
}

// hashString hashes s and a terminating separator, so that ("ab", "c") and
// ("a", "bc") hash differently.
func hashString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	h ^= 0xff
	h *= fnvPrime
	return h
}

func itoa(n int) string { return strconv.Itoa(n) }

func quote(s string) string { return strconv.Quote(s) }
