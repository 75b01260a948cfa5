package apistore

import (
	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sim"
)

// ListWatch is a client's list-then-watch bookkeeping for one kind, as a
// reflector keeps it: the list or watch request in flight, the open watch,
// and the resourceVersion the next watch starts from. It sends the two
// requests and matches answers and watch deliveries to them; the client
// keeps its own states, back-off and trace lines around it. The informers'
// reflectors, the scheduler's and the kubelets' reflectors and the garbage
// collector's monitors each hold one.
//
// It lives here, beside Server, because it is the client half of the
// server's own protocol (request IDs, watch IDs, a watch that starts at a
// resourceVersion, a delivery that can overtake the answer that opened its
// watch), and because apistore is the lowest package that informer, cluster
// and gc all import: none of the three is below another.
//
// It is a plain value: snapshots copy it.
type ListWatch struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	kind      api.Kind
	namespace string

	// request is the ID of the list or watch request in flight, 0 when none.
	request uint64
	// watchID is the ID of the open watch, 0 when none. A delivery for any
	// other watch is stale.
	watchID uint64
	// rv is the resourceVersion of the last list or event received: where
	// the next watch starts.
	rv uint64
}

// NewListWatch returns the bookkeeping for listing and watching kind in
// namespace ("" for all namespaces).
func NewListWatch(kind api.Kind, namespace string) ListWatch {
	return ListWatch{kind: kind, namespace: namespace}
}

// Kind returns the kind listed and watched.
func (lw *ListWatch) Kind() api.Kind { return lw.kind }

// Request returns the ID of the request in flight, 0 when none.
func (lw *ListWatch) Request() uint64 { return lw.request }

// WatchID returns the ID of the open watch, 0 when none.
func (lw *ListWatch) WatchID() uint64 { return lw.watchID }

// RV returns the resourceVersion of the last list or event received.
func (lw *ListWatch) RV() uint64 { return lw.rv }

// List closes the open watch, if any, and sends a list from the component
// named from. The list's answer is the request in flight.
func (lw *ListWatch) List(sch sim.Scheduler, srv *Server, from string) {
	lw.CloseWatch(srv)
	lw.request = srv.Send(sch, from, Request{Verb: VerbList, Kind: lw.kind, Namespace: lw.namespace})
}

// Watch sends a watch from the last resourceVersion received. Its answer is
// the request in flight.
func (lw *ListWatch) Watch(sch sim.Scheduler, srv *Server, from string) {
	lw.request = srv.Send(sch, from, Request{Verb: VerbWatch, Kind: lw.kind, Namespace: lw.namespace,
		ListOptions: &ListOptions{ResourceVersion: lw.rv}})
}

// CloseWatch closes the open watch, if any: its deliveries still in flight
// are stale from now on.
func (lw *ListWatch) CloseWatch(srv *Server) {
	if lw.watchID != 0 {
		srv.CloseWatch(lw.watchID)
		lw.watchID = 0
	}
}

// Owns reports whether a reply answers the request in flight.
func (lw *ListWatch) Owns(rep *Reply) bool {
	return rep.ID != 0 && rep.ID == lw.request && rep.Request.Kind == lw.kind
}

// Answered records that the request in flight was answered (or abandoned):
// nothing is in flight any more.
func (lw *ListWatch) Answered() { lw.request = 0 }

// Opened records the watch a successful watch answer opened.
func (lw *ListWatch) Opened(watchID uint64) { lw.watchID = watchID }

// Observed records the resourceVersion of a list or an event received: the
// next watch starts there.
func (lw *ListWatch) Observed(rv uint64) { lw.rv = rv }

// Delivers reports whether a watch delivery belongs to this client's watch:
// the open one, or, while opening (the client's watch request is in
// flight), the one that request opens.
func (lw *ListWatch) Delivers(d WatchDelivery, opening bool) bool {
	return d.WatchID == lw.watchID || (opening && d.WatchID == lw.request)
}

// Accept takes a watch delivery. While opening, a delivery for the watch
// the request in flight opens makes that watch the open one: a delivery can
// overtake the answer that opened its watch when the watch latency is
// shorter than the request latency, and it belongs to the watch all the
// same. It reports whether the delivery belongs to the open watch, and
// whether it opened it; the caller records the delivery's resourceVersion
// (Observed) once it has taken it in.
func (lw *ListWatch) Accept(d WatchDelivery, opening bool) (ok, opened bool) {
	if opening && d.WatchID == lw.request {
		lw.watchID, lw.request = d.WatchID, 0
		opened = true
	}
	return d.WatchID == lw.watchID, opened
}
