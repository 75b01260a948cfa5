package record

import (
	"time"

	"github.com/reconcilelab/rlab/core/api"
)

// Outcome is what became of one event the recorder took from its queue.
type Outcome struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// At is when it happened, on the kernel clock.
	At time.Duration
	// Event is the event as generated (before correlation).
	Event *api.Event
	// Stored is the Event as the server returned it, when it was written.
	Stored *api.Event
	// Result is "created", "updated", "rate-limited", "refused: <reason>" or
	// "gave up after N tries".
	Result string
}

// View is a read-only picture of a recorder for the page: plain values,
// built on demand.
type View struct {
	Name      string
	Component string

	// Waiting is the number of events queued behind the current write.
	Waiting int
	// Writing describes the write under way ("create default/web.1812…",
	// "retry 2 of 12 in 10s"), empty when idle.
	Writing string

	// Recent lists the last outcomes, newest last.
	Recent []RecentEvent

	// AggregatorCache, LoggerCache and SpamCache are the sizes of the
	// correlator's caches: groups of similar events, Events counted, and
	// source+object token buckets.
	AggregatorCache, LoggerCache, SpamCache int

	Stats Stats
}

// RecentEvent is one line of the recent list.
type RecentEvent struct {
	At      time.Duration
	Object  string // "rs/web"
	Type    string
	Reason  string
	Message string
	// Event is the namespace/name of the Event written, empty if none was.
	Event string
	// Count is the Event's count as written, 0 if none was.
	Count  int32
	Result string
}

// View returns the recorder's current picture.
func (r *Recorder) View() View {
	v := View{Name: r.cfg.Name, Component: r.cfg.Component, Waiting: len(r.queue), Stats: r.stats}
	v.AggregatorCache, v.LoggerCache, v.SpamCache = r.corr.CacheSizes()
	if w := r.write; w != nil {
		verb := "create "
		if w.update {
			verb = "update "
		}
		v.Writing = verb + w.event.Metadata.Namespace + "/" + w.event.Metadata.Name
		if w.timer != 0 {
			v.Writing += " (try " + itoa(w.failures+1) + " of " + itoa(r.cfg.MaxTries) + " after " + roundDuration(w.wait) + ")"
		}
	}
	r.eachRecent(func(o Outcome) {
		line := RecentEvent{
			At: o.At, Object: involvedRef(o.Event).String(), Type: o.Event.Type, Reason: o.Event.Reason,
			Message: o.Event.Message, Result: o.Result,
		}
		if o.Stored != nil {
			line.Event = o.Stored.Metadata.Namespace + "/" + o.Stored.Metadata.Name
			line.Count = o.Stored.Count
			line.Message = o.Stored.Message
		}
		v.Recent = append(v.Recent, line)
	})
	return v
}
