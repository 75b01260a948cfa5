package apistore

import "github.com/reconcilelab/rlab/core/api"

// EventType is the type of a watch event, spelled as on the wire.
type EventType string

// The watch event types. The API server also sends BOOKMARK and ERROR events;
// this model has no need of them (an expired watch is an error returned by
// EventsSince instead).
const (
	Added    EventType = "ADDED"
	Modified EventType = "MODIFIED"
	Deleted  EventType = "DELETED"
)

// TypeWords is a choice hole of sim.Form that says an event's type, given
// the number EventType.Choice returns: a sentence that names an event then
// keeps its type among its small choices rather than its strings.
const TypeWords = "%[ADDED|MODIFIED|DELETED]"

// Choice is the type's number for TypeWords; 255, which TypeWords does
// not name, for a type it does not know.
func (t EventType) Choice() int64 {
	switch t {
	case Added:
		return 0
	case Modified:
		return 1
	case Deleted:
		return 2
	}
	return 255
}

// WatchEvent is one change to one object, as a watch delivers it.
type WatchEvent struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Type EventType
	// Object is the object after the change: the stored, shared object for ADDED
	// and MODIFIED (read-only, like everything the store hands out), and for
	// DELETED the object's last state with metadata.resourceVersion set to the
	// deletion's resourceVersion.
	Object api.Object
	// ResourceVersion is the resourceVersion of the write, the same number as
	// Object's metadata.resourceVersion.
	ResourceVersion uint64
	// Key is Object's namespace/name, joined once by the store for every
	// watcher, which would otherwise each join it again. Read it with
	// ObjectKey: an event made by hand may leave it empty.
	Key string
}

// ObjectKey returns the namespace/name of the event's object. It is small
// enough to be inlined, the join being a call of its own: a call of it
// took a copy of the whole event, 64 bytes, to read the key the store set.
func (e WatchEvent) ObjectKey() string {
	if e.Key != "" {
		return e.Key
	}
	return objectKey(e.Object)
}

// objectKey is the key of an object's namespace/name.
func objectKey(obj api.Object) string { return keyOf(obj.Meta()) }

// Watch returns, in order, every event of the kind (in the namespace, or in all
// namespaces for "") with a resourceVersion greater than fromRV. It is an API
// request: faults for verb "watch" apply.
//
// The rule is strict: fromRV is "what I have already seen". A client lists,
// notes the list's resourceVersion, and watches from it; later it watches again
// from the resourceVersion of the last event it received. fromRV 0 asks for the
// whole remembered history, which works until the window first forgets an
// event and is Expired after. (A real API server reads "0" as "any recent
// state"; the list-then-watch protocol never needs that, so this model does
// not offer it.)
func (s *Store) Watch(kind api.Kind, namespace string, fromRV uint64) ([]WatchEvent, error) {
	resp := s.Serve(Request{Verb: VerbWatch, Kind: kind, Namespace: namespace,
		ListOptions: &ListOptions{ResourceVersion: fromRV}})
	return resp.Events, resp.Err
}

// EventsSince is Watch without the request: no faults, nothing recorded. It is
// how a watch's deliverer (the kernel adapter) pulls what happened after its
// cursor, cheaply, after each write: a look back from the end of the kind's
// history (history.since), and for all namespaces no copying at all
// unless the events span two of its chunks. The returned slice is shared and
// read-only (appending to it reallocates).
//
// Errors: Expired when fromRV is older than the remembered window (the watcher
// has missed events and must list again); Timeout when fromRV is newer than the
// store's resourceVersion.
func (s *Store) EventsSince(kind api.Kind, namespace string, fromRV uint64) ([]WatchEvent, error) {
	info := infoFor(kind)
	if info == nil {
		return nil, errUnknownKind(kind)
	}
	return s.eventsSince(info, namespace, fromRV)
}

func (s *Store) eventsSince(info *kindInfo, namespace string, from uint64) ([]WatchEvent, error) {
	if from > s.rv {
		return nil, newTooLargeResourceVersion(from, s.rv)
	}
	ks := &s.kinds[info.index]
	if from < ks.compacted {
		return nil, newExpired(from, ks.compacted)
	}
	events := ks.hist.since(from)
	if namespace == "" || !info.namespaced {
		return events, nil
	}
	var out []WatchEvent
	for _, ev := range events {
		if ev.Object.Meta().Namespace == namespace {
			out = append(out, ev)
		}
	}
	return out, nil
}

// WatchWindowStart returns the resourceVersion a watch of the kind must start
// at or after: the newest event the store has forgotten, 0 while it has
// forgotten none.
func (s *Store) WatchWindowStart(kind api.Kind) uint64 {
	info := infoFor(kind)
	if info == nil {
		return 0
	}
	return s.kinds[info.index].compacted
}
