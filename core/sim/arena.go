package sim

// Arena hands out the short lists of Reports (Touched, Handed), carved from
// shared chunks. Almost every step touches one or two objects, and a list
// made for each was the most frequent allocation of a run: a third of them
// in a world of 10,000 pods. A component now pays for one chunk per
// arenaChunk items instead, and not even that once its arenas are reused.
//
// A list is the step's: it is good until the next step starts, and whoever
// keeps a step longer keeps a copy of its lists (StepLog.Push does, and
// Kernel.Advance). So a component may Reuse its arenas when a step it
// handles starts (StepStarter), and write the new step's lists over the old
// ones: a world that keeps no steps, as BenchmarkConverge's, then makes its
// lists in the chunks it has, but for the lists a component makes in
// another's steps (a controller's event handlers, in its informer's), which
// wait for its own next step. An arena is not state: a snapshot neither
// copies nor restores it, and the zero value is ready to use.
//
// Each list is capped at its own length, so that appending to it copies
// rather than writing into the next list. Two holders of one arena would
// write into each other's lists, so each component that reports keeps its
// own, and a component holding one is never copied.
type Arena[T any] struct{ chunk []T }

// RefArena hands out Touched lists; HandoffArena, Handed lists.
type (
	RefArena     = Arena[Ref]
	HandoffArena = Arena[Handoff]
)

// arenaChunk is how many items one chunk holds (a Ref is 48 bytes, a
// Handoff 32).
const arenaChunk = 128

// Of returns items as a list of the arena's, or nil for none. It keeps no
// hold on items itself, so a caller's variadic list stays on its stack.
func (a *Arena[T]) Of(items ...T) []T {
	n := len(items)
	if n == 0 {
		return nil
	}
	if cap(a.chunk)-len(a.chunk) < n {
		a.chunk = make([]T, 0, max(arenaChunk, n))
	}
	start := len(a.chunk)
	// The items are appended one by one: a list is one or two items, and
	// appending them as a slice copied them through the runtime's
	// typedslicecopy, whose call and bulk barrier cost more than the
	// items' own stores.
	//lint:ignore S1011 a loop, not append(items...): see above.
	for i := range items {
		a.chunk = append(a.chunk, items[i])
	}
	return a.chunk[start:len(a.chunk):len(a.chunk)]
}

// Reuse hands the arena's chunk out again from its start: the lists it has
// handed out so far must be dead, which they are once the step that
// reported them is over (see Arena).
func (a *Arena[T]) Reuse() { a.chunk = a.chunk[:0] }

// StepStarter is a component that has something to do when a step it
// handles starts, before its Handle: Reuse its arenas.
type StepStarter interface {
	StartStep()
}
