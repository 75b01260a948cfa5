package apistore

import (
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHistoryIsASlidingWindow holds the chunked history to a plain slice of
// the same events, over more than a few chunks and every window size the
// chunks make a difference to: the events remembered, each one's place, the
// first newer than any cursor (by the look back and by halves), and the
// events since it (by since's look back into the last chunk too), shared
// when they lie in one chunk.
func TestHistoryIsASlidingWindow(t *testing.T) {
	for _, window := range []int{1, 3, historyChunk - 1, historyChunk, historyChunk + 1, 3*historyChunk + 7} {
		var h history
		var model []WatchEvent
		rv := uint64(0)
		for step := range 5*historyChunk + 11 {
			rv += uint64(1 + step%3) // other kinds' writes take versions too
			h.add(WatchEvent{ResourceVersion: rv})
			model = append(model, WatchEvent{ResourceVersion: rv})
			for h.len() > window {
				require.Equal(t, model[0], h.forget(), "window %d, step %d", window, step)
				model = model[1:]
			}
			require.Equal(t, len(model), h.len())
			if step%37 != 0 && step < 5*historyChunk {
				continue
			}
			require.Equal(t, model, h.slice(0), "window %d, step %d", window, step)
			for i := range model {
				require.Equal(t, model[i], *h.at(i))
			}
			for from := model[0].ResourceVersion - 1; from <= rv+1; from++ {
				want := sort.Search(len(model), func(i int) bool { return model[i].ResourceVersion > from })
				got := h.firstAfter(from)
				require.Equal(t, want, got, "window %d, step %d, from %d", window, step, from)
				require.Equal(t, len(model[want:]), len(h.slice(got)))
				require.Equal(t, len(model[want:]), len(h.since(from)))
				if want < len(model) {
					require.Equal(t, model[want:], h.slice(got))
					require.Equal(t, model[want:], h.since(from))
				}
			}
		}
		// The newest events are the last chunk's own, not a copy.
		last := h.slice(h.len() - 1)
		require.Same(t, h.at(h.len()-1), &last[0], "window %d", window)
	}
}

// TestHistorySharedWithASnapshotStaysAsItWas appends to a history after
// sharing it, as a store goes on after a snapshot, and to a history restored
// from the shared one, twice: neither what the shared one holds nor what a
// later snapshot of the first history holds may change.
func TestHistorySharedWithASnapshotStaysAsItWas(t *testing.T) {
	var h history
	for i := range historyChunk + 10 {
		h.add(WatchEvent{ResourceVersion: uint64(i + 1)})
	}
	sn := h.shared()
	want := slices.Clone(sn.slice(0))
	for i := range historyChunk {
		h.add(WatchEvent{ResourceVersion: uint64(historyChunk + 11 + i)})
	}
	require.Equal(t, want, sn.slice(0), "the store appended past the snapshot's end")
	later := h.shared()
	wantLater := slices.Clone(later.slice(0))
	for round := range 2 {
		restored := sn.shared()
		for i := range 3 {
			restored.add(WatchEvent{ResourceVersion: uint64(10_000 + round*10 + i)})
		}
		require.Equal(t, want, sn.slice(0), "a restored store appended, round %d", round)
		require.Equal(t, wantLater, later.slice(0), "a store restored from an earlier snapshot wrote into a later one's events, round %d", round)
		require.Equal(t, wantLater, h.slice(0), "a store restored from a snapshot wrote into the first store's events, round %d", round)
		require.Len(t, restored.slice(0), len(want)+3)
	}
	require.Equal(t, 2*historyChunk+10, h.len())
}
