package forbidden

import "context"

// mailbox declares a channel in a struct field: the type alone is forbidden.
type mailbox struct {
	in chan int // want "channel type chan int"
}

// signal is an alias of a channel type; later uses of the alias need no
// report of their own, because the channel was reported where it was spelled.
type signal = <-chan struct{} // want "channel type <-chan struct{}"

func concurrency(m mailbox, ctx context.Context) {
	go func() {}() // want "go statement"

	select { // want "select statement"
	default:
	}

	out := make(chan int, 1) // want "make(chan int, 1)"
	out <- 1                 // want "channel send"
	_ = <-m.in               // want "channel receive"

	for range m.in { // want "range over a channel"
	}

	close(m.in) // want "close of a channel"

	// A channel that arrives from another package's API, with no chan keyword
	// in this file, is caught through its type.
	var done signal = ctx.Done() // want "use of context.Context.Done"
	_ = done
}
