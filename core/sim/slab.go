package sim

// Slab hands out pointers to values written once and only read after: the
// payloads a component puts on the agenda (Event.Data). A payload put in an
// interface by value is an allocation of its own when it is larger than a
// word; a slab writes payloads into chunks, one allocation for many.
//
// A slot is never written again once handed out, so the agenda, its
// snapshots and the receiver share it read-only; a full chunk is left to
// whoever still holds its slots, and a new one is begun. After a restore,
// writing goes on after the last slot ever written, so no payload an agenda
// (or a snapshot of one) holds is overwritten. A slab is therefore not
// state: a snapshot neither copies nor restores it, and the zero value is
// ready to use.
//
// Chunks are small (slabChunk slots) because a snapshot that holds one
// payload keeps its whole chunk alive.
type Slab[T any] struct{ chunk []T }

// slabChunk is how many slots one chunk of a slab has.
const slabChunk = 32

// Put writes v into a free slot and returns a pointer to it.
func (s *Slab[T]) Put(v T) *T {
	if len(s.chunk) == cap(s.chunk) {
		s.chunk = make([]T, 0, slabChunk)
	}
	s.chunk = append(s.chunk, v)
	return &s.chunk[len(s.chunk)-1]
}
