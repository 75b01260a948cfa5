package workqueue

// fifo is the queue's line of waiting keys, held as the indexes of their
// records in the key table: a ring buffer that reuses its array as keys come
// and go.
//
// Upstream keeps its line in a slice and drops the front by re-slicing it, so
// the live part of the array creeps forward and append has to reallocate
// whenever it reaches the end, even when the line is short. A ring allocates
// only when the line outgrows every earlier length, which is what lets
// Add+Get+Done run without allocating once the queue has warmed up.
type fifo struct {
	// buf holds the line. Its length is zero or a power of two, so that an
	// index wraps with a mask instead of a division.
	buf []int32

	// head is the index in buf of the front key; the line occupies
	// buf[head], buf[head+1], … for n keys, wrapping at the end of buf.
	head int

	// n is how many keys are in the line.
	n int
}

// len returns the number of keys in the line.
func (f *fifo) len() int { return f.n }

// push appends x to the back of the line.
func (f *fifo) push(x int32) {
	if f.n == len(f.buf) {
		f.grow()
	}
	f.buf[(f.head+f.n)&(len(f.buf)-1)] = x
	f.n++
}

// pop removes and returns the front of the line. The line must not be empty.
func (f *fifo) pop() int32 {
	x := f.buf[f.head]
	f.head = (f.head + 1) & (len(f.buf) - 1)
	f.n--
	return x
}

// grow doubles the ring, laying the line out from index 0 of the new array.
func (f *fifo) grow() {
	size := 2 * len(f.buf)
	if size == 0 {
		size = 8
	}
	buf := make([]int32, size)
	f.copyTo(buf)
	f.buf, f.head = buf, 0
}

// copyTo copies the line, front first, to the start of dst, which must have
// room for it.
func (f *fifo) copyTo(dst []int32) {
	if f.n == 0 {
		return
	}
	end := f.head + f.n
	if end <= len(f.buf) {
		copy(dst, f.buf[f.head:end])
		return
	}
	k := copy(dst, f.buf[f.head:])
	copy(dst[k:], f.buf[:end-len(f.buf)])
}

// items returns the line, front first, as a new slice.
func (f *fifo) items() []int32 {
	out := make([]int32, f.n)
	f.copyTo(out)
	return out
}

// clone returns a ring with the same line that shares no array with f, for
// snapshots. The copy is as large as f's ring, so that a restored queue keeps
// the capacity it had earned instead of growing again.
func (f *fifo) clone() fifo {
	if f.buf == nil {
		return fifo{}
	}
	buf := make([]int32, len(f.buf))
	f.copyTo(buf)
	return fifo{buf: buf, n: f.n}
}
