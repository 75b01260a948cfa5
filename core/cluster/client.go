package cluster

import (
	"maps"

	"github.com/reconcilelab/rlab/core/api"

	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
)

// Client is a person at a terminal with kubectl: it sends requests to the API
// server and reads the answers, one step each. The cluster uses it for the
// node commands (cordon, uncordon); anything else that acts for the learner
// may use it too.
type Client struct {
	name string
	srv  *apistore.Server
	sch  sim.Scheduler

	// replies maps the ID of every request sent to its reply, nil while it is
	// on its way. Entries are only added.
	replies map[uint64]*apistore.Reply
}

// NewClient returns a client registered (by the caller) under name.
func NewClient(name string, srv *apistore.Server, sch sim.Scheduler) *Client {
	return &Client{name: name, srv: srv, sch: sch, replies: map[uint64]*apistore.Reply{}}
}

// Name returns the component name.
func (c *Client) Name() string { return c.name }

// Send sends a request and returns its ID; the answer arrives as a step of
// its own, after which Reply returns it.
func (c *Client) Send(req apistore.Request) uint64 {
	id := c.srv.Send(c.sch, c.name, req)
	c.replies[id] = nil
	return id
}

// Reply returns the answer to request id, and false while it has not arrived
// (or id was not sent by this client).
func (c *Client) Reply(id uint64) (*apistore.Reply, bool) {
	r := c.replies[id]
	return r, r != nil
}

// Handle reads an answer.
func (c *Client) Handle(_ *sim.Context, ev sim.Event) sim.Report {
	rep, ok := ev.Data.(*apistore.Reply)
	if ev.Kind != apistore.EventResponse || !ok {
		return sim.Report{Actor: c.name, Summary: sim.Say(formUnexpectedEvent, ev.Kind)}
	}
	if _, sent := c.replies[rep.ID]; sent {
		c.replies[rep.ID] = rep
	}
	if node, ok := rep.Request.Object.(*api.Node); ok && rep.Request.Verb == apistore.VerbUpdate && rep.Response.Err == nil {
		if node.Spec.Unschedulable {
			return sim.Report{Actor: c.name, Models: "kubectl cordon", Touched: []sim.Ref{{Kind: "node", Name: node.Metadata.Name}},
				Summary: sim.Say(formCordoned, node.Metadata.Name).With(int64(rep.Response.ResourceVersion))}
		}
		return sim.Report{Actor: c.name, Models: "kubectl uncordon", Touched: []sim.Ref{{Kind: "node", Name: node.Metadata.Name}},
			Summary: sim.Say(formUncordoned, node.Metadata.Name).With(int64(rep.Response.ResourceVersion))}
	}
	// The request's words are written for kubectl's answers only, a
	// learner's commands, never for a controller's requests.
	what := rep.Request.String()
	if rep.Response.Err != nil {
		return sim.Report{Actor: c.name, Models: "kubectl", Summary: sim.Say(formRefused, what, rep.Response.Err.Error())}
	}
	return sim.Report{Actor: c.name, Models: "kubectl", Summary: sim.Say(formAccepted, what).With(int64(rep.Response.ResourceVersion))}
}

// The sentences of the answers a client (kubectl) reads.
var (
	formUnexpectedEvent = &sim.Form{Text: "ignored unexpected event %q"}
	formCordoned        = &sim.Form{Text: "node/%s is cordoned (spec.unschedulable=true, resourceVersion %u): the scheduler places no new pods there; pods already there stay"}
	formUncordoned      = &sim.Form{Text: "node/%s is uncordoned (spec.unschedulable=false, resourceVersion %u): the scheduler may place pods there again"}
	formRefused         = &sim.Form{Text: "the API server refused %s: %s"}
	formAccepted        = &sim.Form{Text: "the API server accepted %s (resourceVersion %u)"}
)

func init() {
	sim.Register(
		formUnexpectedEvent,
		formCordoned,
		formUncordoned,
		formRefused,
		formAccepted,
	)
}

// Describe says what a pending answer is, for the agenda view.
func (c *Client) Describe(ev sim.Event) string {
	if rep, ok := ev.Data.(*apistore.Reply); ok {
		return "answer to " + rep.Request.String() + " reaches " + c.name
	}
	return c.name + ": " + ev.Kind
}

// Snapshot captures the replies received so far. Replies are immutable, so
// the snapshot shares them.
func (c *Client) Snapshot() any { return cloneReplies(c.replies) }

// Restore returns the client to a snapshot.
func (c *Client) Restore(v any) { c.replies = cloneReplies(v.(map[uint64]*apistore.Reply)) }

func cloneReplies(m map[uint64]*apistore.Reply) map[uint64]*apistore.Reply {
	if out := maps.Clone(m); out != nil {
		return out
	}
	return map[uint64]*apistore.Reply{}
}

var (
	_ sim.Component   = (*Client)(nil)
	_ sim.Snapshotter = (*Client)(nil)
	_ sim.Describer   = (*Client)(nil)
)
