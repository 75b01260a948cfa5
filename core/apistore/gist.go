package apistore

import "github.com/reconcilelab/rlab/core/sim"

// The server's event data says its gist (sim.Gister), so that a step kept
// for a learner to read later can drop the data, which holds whole objects,
// and keep the few words the picture of the loop draws.

// Gist is a request on its way: its sender, verb and resource.
func (f *inFlight) Gist() sim.Gist {
	return sim.Gist{Carried: sim.CarriedRequest, From: f.from, Verb: string(f.req.Verb), What: f.req.Resource()}
}

// Gist is an answer on its way back: its request's verb and resource, and
// the outcome if it failed.
func (r *Reply) Gist() sim.Gist {
	g := sim.Gist{Carried: sim.CarriedReply, Verb: string(r.Request.Verb), What: r.Request.Resource()}
	if r.Response.Err != nil {
		g.Failed = r.Response.Outcome()
	}
	return g
}

// Gist is a watch event on its way: its type, and its object's kind and
// name.
func (d *WatchDelivery) Gist() sim.Gist {
	g := sim.Gist{Carried: sim.CarriedWatch, Verb: string(d.Event.Type)}
	if o := d.Event.Object; o != nil {
		g.What, g.Name = string(o.Kind()), o.Meta().Name
	}
	return g
}
