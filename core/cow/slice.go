package cow

// Slice is a slice shared copy-on-write with snapshots. The zero Slice is
// empty and ready to use. Copying a Slice value (into a snapshot, or into a
// map) shares its array.
type Slice[E any] struct {
	s    []E
	made Epoch
}

// Read returns the slice for reading; it must not be changed.
func (s Slice[E]) Read() []E { return s.s }

// Write returns a pointer to the slice, ready to change in epoch e (append,
// insert or delete through it): if it was made in another epoch, a snapshot
// may share its array, so it is first replaced by a copy made in e. The copy
// has room for a quarter more, so that the inserts that usually follow the
// first one do not copy the array again at once.
func (s *Slice[E]) Write(e Epoch) *[]E {
	if s.made != e {
		s.s = append(make([]E, 0, len(s.s)+len(s.s)/4+1), s.s...)
		s.made = e
	}
	return &s.s
}
