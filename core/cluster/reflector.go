package cluster

import (
	"strconv"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
)

// relistDelay is how long the scheduler and the kubelets wait before listing
// again after a list or watch failed. They are helpers that scenarios do not
// fault, so this only matters if someone injects a fault on lists or watches;
// client-go's reflector waits about as long (800ms plus jitter).
const relistDelay = time.Second

// reflector is the list-then-watch bookkeeping the scheduler and the kubelets
// keep for each kind they follow. It is a plain value: snapshots copy it.
//
// It is much smaller than core/informer's reflector because these components
// keep no cache of their own beyond the few facts they need, and nothing
// faults their watches.
type reflector struct {
	kind api.Kind

	// request is the ID of the list or watch request in flight, 0 when none.
	request uint64
	// listing tells whether request is a list (else a watch).
	listing bool
	// watchID is the ID of the open watch, 0 when none. A delivery for any
	// other watch is stale and is ignored.
	watchID uint64
	// rv is the resourceVersion of the last list or event received: where the
	// next watch starts.
	rv uint64
}

// list sends a list request from the component named from.
func (r *reflector) list(sch sim.Scheduler, srv *apistore.Server, from string) {
	r.watchID = 0
	r.listing = true
	r.request = srv.Send(sch, from, apistore.Request{Verb: apistore.VerbList, Kind: r.kind})
}

// watch sends a watch request from the last resourceVersion seen.
func (r *reflector) watch(sch sim.Scheduler, srv *apistore.Server, from string) {
	r.listing = false
	r.request = srv.Send(sch, from, apistore.Request{Verb: apistore.VerbWatch, Kind: r.kind,
		ListOptions: apistore.ListOptions{ResourceVersion: r.rv}})
}

// owns reports whether a reply answers this reflector's request in flight.
func (r *reflector) owns(rep *apistore.Reply) bool {
	return rep.ID != 0 && rep.ID == r.request && rep.Request.Kind == r.kind
}

// accept reports whether a watch delivery belongs to this reflector's watch,
// and if so moves rv forward. A delivery may overtake the answer that opened
// its watch when the watch latency is shorter than the request latency; it
// belongs to the watch all the same.
func (r *reflector) accept(d apistore.WatchDelivery) bool {
	if d.Event.Object == nil || d.Event.Object.Kind() != r.kind {
		return false
	}
	if r.watchID == 0 && !r.listing && d.WatchID == r.request {
		r.watchID, r.request = d.WatchID, 0
	}
	if d.WatchID != r.watchID {
		return false
	}
	r.rv = d.Event.ResourceVersion
	return true
}

// answered handles the reply to a list or watch. For a successful list it
// returns the items and opens the watch; for a successful watch it records
// the open watch; on failure it schedules a relist (as event kind relist to
// from) and returns the error.
func (r *reflector) answered(ctx *sim.Context, srv *apistore.Server, from, relist string, rep *apistore.Reply) ([]api.Object, error) {
	r.request = 0
	if err := rep.Response.Err; err != nil {
		if r.watchID != 0 {
			srv.CloseWatch(r.watchID)
		}
		r.watchID = 0
		ctx.After(relistDelay, from, relist, r.kind)
		return nil, err
	}
	if rep.Request.Verb == apistore.VerbList {
		r.rv = rep.Response.ResourceVersion
		r.watch(ctx, srv, from)
		return rep.Response.Items, nil
	}
	if r.watchID == 0 {
		r.watchID = rep.ID
	}
	return nil, nil
}

// rvText is a resourceVersion for a summary.
func rvText(rv uint64) string { return strconv.FormatUint(rv, 10) }
