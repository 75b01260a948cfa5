package sim

// RefArena hands out the Touched lists of Reports, carved from shared
// chunks. Almost every step touches one or two objects, and a list made for
// each was the most frequent allocation of a run: a third of them in a world
// of 10,000 pods. A component now pays for one chunk per refArenaChunk refs
// instead.
//
// Each list is capped at its own length, so that appending to it copies
// rather than writing into the next list. A chunk stays alive while any step
// still holds a list from it, which costs no more than the lists did, packed.
// An arena is not state: a snapshot neither copies nor restores it, and the
// zero value is ready to use. Two holders of one arena would write into
// each other's lists, so each component that reports keeps its own, and a
// component holding one is never copied.
type RefArena struct{ chunk []Ref }

// refArenaChunk is how many refs one chunk holds (48 bytes each).
const refArenaChunk = 128

// Of returns refs as a list of the arena's, or nil for none. It keeps no
// hold on refs itself, so a caller's variadic list stays on its stack.
func (a *RefArena) Of(refs ...Ref) []Ref {
	n := len(refs)
	if n == 0 {
		return nil
	}
	if cap(a.chunk)-len(a.chunk) < n {
		a.chunk = make([]Ref, 0, max(refArenaChunk, n))
	}
	start := len(a.chunk)
	a.chunk = append(a.chunk, refs...)
	return a.chunk[start:len(a.chunk):len(a.chunk)]
}
