package record

import (
	"slices"
	"strconv"

	"github.com/reconcilelab/rlab/core/api"
)

// recorderSnapshot is everything a recorder needs to come back to one step.
// Events are immutable once made, so the queue and the recent list share
// them with the live recorder.
type recorderSnapshot struct {
	corr       correlatorSnapshot
	names      Namer
	queue      []*api.Event
	scheduled  bool
	write      *write
	recent     []Outcome
	recentNext int
	stats      Stats
}

// Snapshot captures the recorder: its queue, the write under way, the
// correlator's caches and the counters.
func (r *Recorder) Snapshot() any {
	s := &recorderSnapshot{
		corr: r.corr.snapshot(), names: r.names, queue: slices.Clone(r.queue),
		scheduled: r.scheduled, recent: slices.Clone(r.recent), recentNext: r.recentNext, stats: r.stats,
	}
	if r.write != nil {
		w := *r.write
		s.write = &w
	}
	return s
}

// Restore returns the recorder to a snapshot.
func (r *Recorder) Restore(v any) {
	s := v.(*recorderSnapshot)
	r.corr.restore(s.corr)
	r.names = s.names
	r.queue = slices.Clone(s.queue)
	r.scheduled = s.scheduled
	r.write, r.writing = nil, write{}
	if s.write != nil {
		r.writing = *s.write
		r.write = &r.writing
	}
	r.recent, r.recentNext = slices.Clone(s.recent), s.recentNext
	r.stats = s.stats
}

func itoa(n int) string { return strconv.Itoa(n) }
