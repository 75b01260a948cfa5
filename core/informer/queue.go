package informer

// queue is a first-in, first-out buffer that reuses its array: a handler's
// notifications (listener) and the DeltaFIFO's keys wait in one. Taking the
// oldest by reslicing (buffer[1:]) would leave an array of capacity zero
// once it empties, and the next push would allocate a new one: nearly one
// allocation per item, when items usually come and go one at a time.
//
// items[head:] are waiting, oldest first; the taken ones before head are
// cleared, so they hold no object alive. Once the queue empties it starts
// again at the front of its array, and a full array whose front was taken
// is shifted down rather than grown.
type queue[T any] struct {
	items []T
	head  int
}

// len returns how many items wait.
func (q *queue[T]) len() int { return len(q.items) - q.head }

// waiting returns the waiting items, oldest first. It is shared: read it
// only, and only until the queue next changes.
func (q *queue[T]) waiting() []T { return q.items[q.head:] }

// push puts x behind the others.
func (q *queue[T]) push(x T) {
	if q.head > 0 && len(q.items) == cap(q.items) {
		k := copy(q.items, q.items[q.head:])
		clear(q.items[k:])
		q.items, q.head = q.items[:k], 0
	}
	q.items = append(q.items, x)
}

// pop takes the oldest item; there must be one.
func (q *queue[T]) pop() T {
	var zero T
	x := q.items[q.head]
	q.items[q.head] = zero
	if q.head++; q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	}
	return x
}

// clone returns a copy that shares nothing with q, for a snapshot.
func (q *queue[T]) clone() queue[T] {
	return queue[T]{items: append([]T(nil), q.waiting()...)}
}
