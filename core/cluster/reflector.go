package cluster

import (
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

// reflector is the list-then-watch the scheduler and the kubelets keep for
// each kind they follow: apistore.ListWatch's bookkeeping, plus whether the
// request in flight is a list. It is a plain value: snapshots copy it.
//
// It is much smaller than core/informer's reflector because these components
// keep no cache of their own beyond the few facts they need, and nothing
// faults their watches.
type reflector struct {
	lw apistore.ListWatch
	// listing tells whether the request in flight is a list (else a watch).
	listing bool
}

func newReflector(kind api.Kind) reflector {
	return reflector{lw: apistore.NewListWatch(kind, "")}
}

// list sends a list request from the component named from.
func (r *reflector) list(sch sim.Scheduler, srv *apistore.Server, from string) {
	r.listing = true
	r.lw.List(sch, srv, from)
}

// watch sends a watch request from the last resourceVersion seen.
func (r *reflector) watch(sch sim.Scheduler, srv *apistore.Server, from string) {
	r.listing = false
	r.lw.Watch(sch, srv, from)
}

// owns reports whether a reply answers this reflector's request in flight.
func (r *reflector) owns(rep *apistore.Reply) bool { return r.lw.Owns(rep) }

// accept reports whether a watch delivery belongs to this reflector's watch,
// and if so moves the resourceVersion forward. A delivery may overtake the
// answer that opened its watch; it belongs to the watch all the same.
func (r *reflector) accept(d apistore.WatchDelivery) bool {
	if d.Event.Object == nil || d.Event.Object.Kind() != r.lw.Kind() {
		return false
	}
	if ok, _ := r.lw.Accept(d, !r.listing && r.lw.WatchID() == 0); !ok {
		return false
	}
	r.lw.Observed(d.Event.ResourceVersion)
	return true
}

// answered handles the reply to a list or watch. For a successful list it
// returns the items and opens the watch; for a successful watch it records
// the open watch; on failure it schedules a relist (as event kind relist to
// from) and returns the error.
func (r *reflector) answered(ctx *sim.Context, srv *apistore.Server, from, relist string, rep *apistore.Reply) ([]api.Object, error) {
	r.lw.Answered()
	if err := rep.Response.Err; err != nil {
		r.lw.CloseWatch(srv)
		ctx.After(relistDelay, from, relist, r.lw.Kind())
		return nil, err
	}
	if rep.Request.Verb == apistore.VerbList {
		r.lw.Observed(rep.Response.ResourceVersion)
		r.watch(ctx, srv, from)
		return rep.Response.Items, nil
	}
	if r.lw.WatchID() == 0 {
		r.lw.Opened(rep.ID)
	}
	return nil, nil
}
