package apistore

import (
	"maps"
	"slices"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sim"
)

// Server puts a Store on the kernel's agenda: it is the API server as a
// simulation component. Every API call becomes two events, the request reaching
// the server and the response reaching the client, and every change a write
// causes becomes one more event per open watch, delivered to the watching
// component. A learner stepping through a world therefore sees a create arrive,
// the pod stored, the client told, and each informer hear of it, as separate
// steps, in the order a real cluster would most often show them.
//
// Clients are components. A client sends with Send and receives a "response"
// event carrying a *Reply; a watcher opens a watch with a watch request and
// receives "watch" events carrying a *WatchDelivery, in resourceVersion order.
type Server struct {
	name  string
	store *Store
	cfg   ServerConfig

	// nextID numbers requests and watches; IDs are never reused.
	nextID uint64

	// watches are the open watches, in the order they were opened.
	watches []openWatch
	// watchesOf lists, for each kind (kindInfo.index), the places in
	// watches of the kind's open watches, in order. A write's fan-out reads
	// only its kind's, where it asked every open watch, a dozen or more,
	// whether it watched the written kind. It is made again from watches
	// whenever they change (indexWatches), which is rare; it is not state.
	watchesOf [numKinds][]int

	// log is every request received, oldest first, in chunks of logChunk
	// records; every chunk but the last is full. Chunks are append-only, so a
	// snapshot shares them, the last as last[:n:n], and copies only the list
	// of chunks. One flat slice shared as log[:n:n] instead made the first
	// request after every restore copy the whole log, thousands of records.
	log [][]logEntry
	// shapes is the table logEntry.shape indexes: every distinct sender,
	// verb, resource, outcome and fault the log has seen, each once. It only
	// grows, and an index once given names the same shape for ever, so it is
	// not state: a snapshot's entries read the same through it after a
	// restore, and a restore leaves it as it is.
	shapes     []requestShape
	shapeIndex map[requestShape]uint32
	// shapeCache remembers, by a cheap hash of a shape (shapeSlot), the
	// index of the last shape looked up in its slot. Nearly every request
	// repeats the shape of one the same sender sent before, and hashing
	// every field for the map was 1% of a run's instructions. Like shapes,
	// it is not state: an index in it names its shape for ever, and a hit
	// is checked against the table.
	shapeCache [shapeSlots]uint32

	// hooks are the functions WhenWritten registered; code, not state.
	hooks []writeHook

	// grace maps the uid of a pod in its grace period to the agenda event that
	// removes it when the period ends, so the event can be cancelled when the
	// pod goes earlier.
	grace map[string]uint64

	// requests, replies and deliveries hold the payloads Send, serve and
	// fanOut put on the agenda (see sim.Slab). They are not state: they
	// hold only what was already handed to the agenda.
	requests   sim.Slab[inFlight]
	replies    sim.Slab[Reply]
	deliveries sim.Slab[WatchDelivery]

	// refs holds the Touched lists of its reports (see sim.RefArena).
	refs sim.RefArena
}

// ServerConfig holds the simulated latencies. The zero value means the
// defaults.
type ServerConfig struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// Latency is how long a request takes to reach the server, and again how
	// long its response takes to reach the client (default 1ms).
	Latency time.Duration
	// WatchLatency is how long a change takes to reach each watcher after the
	// write that caused it (default 1ms). With the defaults, a client hears the
	// response to its own write just before its informer hears of the change,
	// which is the order a learner expects; the controller's expectations exist
	// because in a real cluster it can be the other way round.
	WatchLatency time.Duration
	// NoGraceEnforcement turns off the removal of pods whose grace period has
	// ended. With it on (the default), the server models the kubelet's final
	// forced kill: a pod in its grace period is removed at its
	// deletionTimestamp at the latest, even if no kubelet removed it earlier;
	// a removal that fails (an injected fault) is tried again after
	// GraceRetryPeriod.
	NoGraceEnforcement bool
}

// Default latencies.
const (
	DefaultLatency      = time.Millisecond
	DefaultWatchLatency = time.Millisecond
)

func (c ServerConfig) withDefaults() ServerConfig {
	if c.Latency <= 0 {
		c.Latency = DefaultLatency
	}
	if c.WatchLatency <= 0 {
		c.WatchLatency = DefaultWatchLatency
	}
	return c
}

// GraceRetryPeriod is how long the server waits before it tries again to
// remove a pod whose grace period ended but whose removal failed (an injected
// fault): the kubelet status manager's sync period, after which the kubelet
// sends its final delete again.
const GraceRetryPeriod = 10 * time.Second

// The event kinds the server sends and receives.
const (
	// EventRequest is a request reaching the server; Data is a *inFlight.
	EventRequest = "request"
	// EventResponse is a response reaching a client; Data is a *Reply.
	EventResponse = "response"
	// EventWatch is a change reaching a watcher; Data is a *WatchDelivery,
	// shared and read-only.
	EventWatch = "watch"
	// eventGraceEnd is the end of a pod's grace period; Data is a graceEnd.
	eventGraceEnd = "grace-ended"
)

// Reply is what a client receives: the request it sent, under the ID Send
// returned, and the server's response.
//
// Request points at the server's own record of the request in flight, which
// is never written again once sent (see sim.Slab): a reply is made for every
// request, and holding a copy of the request, 240 bytes, made a reply 352
// bytes where it is now 120. Nobody may write through it.
type Reply struct {
	ID       uint64
	Request  *Request
	Response Response
}

// WatchDelivery is one watch event reaching the watcher that opened WatchID.
// The server hands it out by pointer, shared with the agenda and its
// snapshots: nobody writes to it after it is scheduled.
//
// Event points into the store's history of the kind, which every watcher
// of the kind is delivered from: one change reaches each of them through
// the same WatchEvent, never written again (the history is only appended
// to, see Store), where each delivery held a copy of it before, 64 bytes
// for every watcher of every change.
type WatchDelivery struct {
	WatchID uint64
	Event   *WatchEvent
}

// RequestRecord is one line of the requests view.
type RequestRecord struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	ID uint64
	// At is when the request reached the server.
	At time.Duration
	// From is the component that sent it.
	From     string
	Verb     Verb
	Resource string
	// Key is the namespace/name the request addressed, as far as known: for a
	// create, the name the server gave the object.
	Key string
	// Outcome is "ok" or the failure's reason ("NotFound", "Conflict", ...).
	Outcome string
	// Fault is the injected rule that failed the request, if one did.
	Fault *FaultRule
}

// logEntry is one request as the log keeps it: what differs from request
// to request, and the index in the server's table of shapes of what many
// requests share. A RequestRecord is 104 bytes, and a 10,000-pod world
// receives about 45,000 requests; an entry is 40 bytes, which keeps 2.9 MiB
// less live in that world.
type logEntry struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	id    uint64
	at    time.Duration
	key   string
	shape uint32
}

// requestShape is the part of a RequestRecord that repeats: who sent what
// kind of request, and how it ended.
type requestShape struct {
	from     string
	verb     Verb
	resource string
	outcome  string
	fault    *FaultRule
}

// shapeOf returns the index of a shape in the table, adding it the first
// time it is seen.
func (s *Server) shapeOf(sh requestShape) uint32 {
	slot := &s.shapeCache[sh.slot()]
	if i := *slot; int(i) < len(s.shapes) && s.shapes[i] == sh {
		return i
	}
	i, ok := s.shapeIndex[sh]
	if !ok {
		i = uint32(len(s.shapes))
		s.shapes = append(s.shapes, sh)
		s.shapeIndex[sh] = i
	}
	*slot = i
	return i
}

// shapeSlots is how many slots Server.shapeCache has.
const shapeSlots = 32

// slot picks a shape's slot in Server.shapeCache from what tells apart the
// shapes a world sends most: senders differ in their last character
// (rs-worker-1, kubelet/node-2) or their length, resources in their length
// and their last character (pods, pods/status, pods/binding), verbs in
// their first. Shapes that share a slot only take turns in it.
func (sh requestShape) slot() int {
	h := uint(len(sh.from))*7 + uint(len(sh.resource))*3 + uint(len(sh.outcome))
	if n := len(sh.from); n > 0 {
		h += uint(sh.from[n-1]) * 5
	}
	if n := len(sh.resource); n > 0 {
		h += uint(sh.resource[n-1])
	}
	if len(sh.verb) > 0 {
		h += uint(sh.verb[0]) * 11
	}
	return int(h % shapeSlots)
}

// record returns the RequestRecord an entry stands for.
func (s *Server) record(e logEntry) RequestRecord {
	sh := s.shapes[e.shape]
	return RequestRecord{ID: e.id, At: e.at, From: sh.from, Verb: sh.verb, Resource: sh.resource,
		Key: e.key, Outcome: sh.outcome, Fault: sh.fault}
}

type inFlight struct {
	id   uint64
	from string
	req  Request
}

// writeHook is a function to run after a successful write of kind.
type writeHook struct {
	kind api.Kind
	fn   func(sch sim.Scheduler)
}

// WhenWritten registers fn to run after every write of an object of kind
// that changed something, inside the step that served it, with that step's
// scheduler. The world uses it to start the Deployment controller when the
// first Deployment is stored, so that a world without Deployments has no
// step of it. A hook is code: it is registered when the world is built and
// is not part of a snapshot; whatever it changes must be.
func (s *Server) WhenWritten(kind api.Kind, fn func(sch sim.Scheduler)) {
	s.hooks = append(s.hooks, writeHook{kind: kind, fn: fn})
}

// runHooks runs the hooks of a write's kind.
func (s *Server) runHooks(ctx *sim.Context, req *Request, resp *Response) {
	switch req.Verb {
	case VerbGet, VerbList, VerbWatch:
		return
	}
	if len(resp.Events) == 0 {
		return
	}
	for _, h := range s.hooks {
		if h.kind == req.Kind {
			h.fn(ctx)
		}
	}
}

type graceEnd struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	namespace, name, uid string
	// retry: an earlier removal at the end of the grace period failed.
	retry bool
}

// openWatch is one watch the server is feeding. cursor is the resourceVersion
// of the last event scheduled for delivery to it.
type openWatch struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	id         uint64
	subscriber string
	// info is the watched kind's entry in the table of kinds: every write
	// asks every open watch whether it watches the written kind, and the
	// entry is compared as a pointer, where the kind was compared as a
	// string and then looked up again in the table to read its history.
	info      *kindInfo
	namespace string
	cursor    uint64
}

// NewServer wraps store as the kernel component named name (conventionally
// "apiserver").
func NewServer(name string, store *Store, cfg ServerConfig) *Server {
	return &Server{name: name, store: store, cfg: cfg.withDefaults(), nextID: 1, grace: map[string]uint64{},
		shapeIndex: map[requestShape]uint32{}}
}

// Name returns the component name the server is registered under.
func (s *Server) Name() string { return s.name }

// Store returns the store the server serves. Reading it directly is how
// assertions and views see the truth without sending requests.
func (s *Server) Store() *Store { return s.store }

// Config returns the server's latencies.
func (s *Server) Config() ServerConfig { return s.cfg }

// SetConfig changes the latencies from now on; requests already in flight keep
// theirs.
func (s *Server) SetConfig(cfg ServerConfig) { s.cfg = cfg.withDefaults() }

// Send issues a request from the component named from and returns its ID. The
// request reaches the server Latency from now; the Reply reaches from Latency
// after that, as a "response" event.
//
// A watch request opens a watch for from: the response says whether it opened,
// and every event after the requested resourceVersion is then delivered to
// from as a "watch" event, starting with those already in the history.
func (s *Server) Send(sch sim.Scheduler, from string, req Request) uint64 {
	id := s.nextID
	s.nextID++
	sch.After(s.cfg.Latency, s.name, EventRequest, s.requests.Put(inFlight{id: id, from: from, req: req}))
	return id
}

// CloseWatch stops feeding a watch, as when its connection breaks. Events
// already on their way are still delivered; the watcher tells stale ones apart
// by their WatchID.
func (s *Server) CloseWatch(id uint64) {
	s.watches = slices.DeleteFunc(s.watches, func(w openWatch) bool { return w.id == id })
	s.indexWatches()
}

// indexWatches makes watchesOf again from watches, in the lists it had:
// made anew, they were some forty allocations of a run.
func (s *Server) indexWatches() {
	for k := range s.watchesOf {
		s.watchesOf[k] = s.watchesOf[k][:0]
	}
	for i := range s.watches {
		k := s.watches[i].info.index
		s.watchesOf[k] = append(s.watchesOf[k], i)
	}
}

// Watches returns the IDs of the open watches of a subscriber.
func (s *Server) Watches(subscriber string) []uint64 {
	var ids []uint64
	for _, w := range s.watches {
		if w.subscriber == subscriber {
			ids = append(ids, w.id)
		}
	}
	return ids
}

// Requests returns the log of every request received, oldest first, in a
// new slice.
func (s *Server) Requests() []RequestRecord {
	n := 0
	for _, c := range s.log {
		n += len(c)
	}
	out := make([]RequestRecord, 0, n)
	for _, c := range s.log {
		for _, e := range c {
			out = append(out, s.record(e))
		}
	}
	return out
}

// logChunk is how many request records one chunk of the log holds.
const logChunk = 64

// appendLog adds a record to the log. A last chunk whose capacity ends at
// its length is shared with a snapshot (a chunk of its own has room for
// logChunk records), so it is copied before it grows.
func (s *Server) appendLog(rec logEntry) {
	n := len(s.log)
	if n == 0 || len(s.log[n-1]) == logChunk {
		s.log = append(s.log, make([]logEntry, 0, logChunk))
		n++
	}
	last := s.log[n-1]
	if len(last) == cap(last) {
		last = append(make([]logEntry, 0, logChunk), last...)
	}
	s.log[n-1] = append(last, rec)
}

// snapshotLog returns the log's chunks for a snapshot to share: a new list,
// with the last chunk's capacity ending at its length, so that neither the
// list nor a chunk the snapshot sees is ever written again.
func (s *Server) snapshotLog() [][]logEntry {
	out := slices.Clone(s.log)
	if n := len(out); n > 0 {
		out[n-1] = slices.Clip(out[n-1])
	}
	return out
}

// StartStep reuses the server's arena: the lists of its last step are dead
// (sim.Arena).
func (s *Server) StartStep() { s.refs.Reuse() }

// Handle serves a request or ends a grace period.
func (s *Server) Handle(ctx *sim.Context, ev sim.Event) sim.Report {
	switch ev.Kind {
	case EventRequest:
		return s.serve(ctx, ev.Data.(*inFlight))
	case eventGraceEnd:
		return s.endGrace(ctx, ev.Data.(graceEnd))
	}
	return sim.Report{Actor: s.name, Summary: sim.Say(formIgnoredEvent, ev.Kind)}
}

// serve answers a request. The request and its response go to the
// functions below by pointer: they are 136 and 104 bytes, and passing them
// by value copied them again into every one.
func (s *Server) serve(ctx *sim.Context, in *inFlight) sim.Report {
	req := &in.req
	resp := s.store.serve(req)
	key := requestKey(req, &resp)
	// The resource is named for the log and again for the sentence.
	resource := req.Resource()
	s.appendLog(logEntry{id: in.id, at: ctx.Now(), key: key, shape: s.shapeOf(requestShape{
		from: in.from, verb: req.Verb, resource: resource, outcome: resp.Outcome(), fault: resp.Fault,
	})})

	if req.Verb == VerbWatch && resp.Err == nil {
		w := openWatch{id: in.id, subscriber: in.from, info: infoFor(req.Kind), namespace: req.Namespace, cursor: req.List().ResourceVersion}
		s.watches = append(s.watches, w)
		s.indexWatches()
	}
	// The response is scheduled before the watch events, so that with equal
	// latencies the client hears its answer first.
	ctx.After(s.cfg.Latency, in.from, EventResponse, s.replies.Put(Reply{ID: in.id, Request: &in.req, Response: resp}))
	if resp.Err == nil {
		// A request the store served has a kind it holds.
		s.fanOut(ctx, infoFor(req.Kind))
		s.trackGrace(ctx, req, &resp)
		s.runHooks(ctx, req, &resp)
	}
	return sim.Report{
		Actor:   s.name,
		Models:  verbModel(req.Verb),
		Summary: describe(req, &resp, resource, key, in.from),
		Touched: s.touched(req, &resp, key),
	}
}

// fanOut schedules, for every open watch of the kind, the events after its
// cursor. A watch whose cursor fell out of the history is closed instead: in
// a real cluster it would get a 410 and its reflector would relist, which a
// watcher here notices when it re-watches.
//
// The watches are moved forward in place: copying every open watch back
// into the list, as a filter would, was most of what a write's fan-out
// cost, for a dozen watches of which a few are of the written kind.
func (s *Server) fanOut(ctx *sim.Context, info *kindInfo) {
	var gone []uint64
	// all are the events after cursor from in every namespace, once looked
	// up (from is then not 0): the watches of a kind nearly all watch every
	// namespace and stand at one cursor, the kind's write before this one.
	var all []WatchEvent
	from := uint64(0)
	for _, i := range s.watchesOf[info.index] {
		w := &s.watches[i]
		events := all
		if w.cursor != from || w.namespace != "" || from == 0 {
			var err error
			events, err = s.store.eventsSince(info, w.namespace, w.cursor)
			if err == nil && w.namespace == "" {
				all, from = events, w.cursor
			}
			if err != nil {
				// Unreachable while the watch window holds at least the events of
				// one write (a store's window is never smaller): fanOut runs after
				// every write, so a cursor is never more than one write behind.
				// Should it happen, the watch is dropped, as a real server ends a
				// watch with 410 Gone.
				gone = append(gone, w.id)
				continue
			}
		}
		for i := range events {
			e := &events[i]
			ctx.After(s.cfg.WatchLatency, w.subscriber, EventWatch, s.deliveries.Put(WatchDelivery{WatchID: w.id, Event: e}))
			w.cursor = e.ResourceVersion
		}
	}
	for _, id := range gone {
		s.CloseWatch(id)
	}
}

// trackGrace schedules the end of a pod's grace period when a delete started
// one, and cancels it when the pod went earlier.
func (s *Server) trackGrace(ctx *sim.Context, req *Request, resp *Response) {
	if req.Kind != api.KindPod || resp.Object == nil {
		return
	}
	uid := resp.Object.Meta().UID
	if resp.Deleted {
		if seq, ok := s.grace[uid]; ok {
			ctx.Cancel(seq)
			delete(s.grace, uid)
		}
		return
	}
	if req.Verb != VerbDelete || s.cfg.NoGraceEnforcement {
		return
	}
	deadline, ok := DeletionDeadline(resp.Object)
	if !ok {
		return
	}
	if seq, ok := s.grace[uid]; ok {
		ctx.Cancel(seq) // a second delete shortened the grace period
	}
	m := resp.Object.Meta()
	s.grace[uid] = ctx.After(deadline.Sub(ctx.Wall()), s.name, eventGraceEnd, graceEnd{namespace: m.Namespace, name: m.Name, uid: uid})
}

func (s *Server) endGrace(ctx *sim.Context, g graceEnd) sim.Report {
	delete(s.grace, g.uid)
	zero := int64(0)
	req := Request{Verb: VerbDelete, Kind: api.KindPod, Namespace: g.namespace, Name: g.name,
		DeleteOptions: &DeleteOptions{GracePeriodSeconds: &zero, Preconditions: Preconditions{UID: g.uid}}}
	resp := s.store.Serve(req)
	ref := sim.Ref{Kind: "pod", Namespace: g.namespace, Name: g.name}
	lead := sim.Say(formGraceEnded, g.name)
	if g.retry {
		lead = sim.Say(formGraceEndedAgain, g.name)
	}
	switch err := resp.Err; {
	case err == nil:
	case IsNotFound(err) || (IsConflict(err) && resp.Fault == nil):
		// NotFound, or the uid precondition failed: another pod took the name.
		return sim.Report{Actor: s.name, Models: "graceful deletion",
			Summary: lead.Then(sim.Say(formGraceGone, resp.Outcome()))}
	default:
		// The removal models the kubelet's final delete, which can fail like
		// any request; the kubelet's status manager tries again on its next
		// sync. Without the retry the pod stayed Terminating for ever.
		g.retry = true
		s.grace[g.uid] = ctx.After(GraceRetryPeriod, s.name, eventGraceEnd, g)
		return sim.Report{Actor: s.name, Models: "graceful deletion", Touched: s.refs.Of(ref),
			Summary: lead.Then(sim.Say(formGraceFailed, err.Error()).With(int64(GraceRetryPeriod)))}
	}
	s.fanOut(ctx, infoFor(api.KindPod))
	return sim.Report{Actor: s.name, Models: "graceful deletion", Touched: s.refs.Of(ref),
		Summary: lead.Then(sim.Say(formGraceRemoved).With(int64(resp.ResourceVersion)))}
}

// The sentences of the grace period's end.
var (
	formGraceEnded      = &sim.Form{Text: "grace period of pod/%s ended"}
	formGraceEndedAgain = &sim.Form{Text: "removing pod/%s again after its grace period ended"}
	formGraceGone       = &sim.Form{Text: "; it was already gone (%s)"}
	formGraceFailed     = &sim.Form{Text: ", but removing it failed (%s); trying again in %D"}
	formGraceRemoved    = &sim.Form{Text: ": removed (resourceVersion %u)"}
)

func init() {
	sim.Register(
		formGraceEnded,
		formGraceEndedAgain,
		formGraceGone,
		formGraceFailed,
		formGraceRemoved,
	)
}

// Describe says what a pending server event will do, for the agenda view.
func (s *Server) Describe(ev sim.Event) string {
	switch d := ev.Data.(type) {
	case *inFlight:
		return d.req.String() + " from " + d.from + " reaches " + s.name
	case graceEnd:
		if d.retry {
			return "pod/" + d.name + ", past its grace period, is removed again"
		}
		return "grace period of pod/" + d.name + " ends"
	}
	return s.name + ": " + ev.Kind
}

type serverSnapshot struct {
	store   *Snapshot
	cfg     ServerConfig
	nextID  uint64
	watches []openWatch
	log     [][]logEntry
	grace   map[string]uint64
}

// Snapshot captures the server and its store.
func (s *Server) Snapshot() any {
	return &serverSnapshot{
		store:   s.store.Snapshot(),
		cfg:     s.cfg,
		nextID:  s.nextID,
		watches: slices.Clone(s.watches),
		log:     s.snapshotLog(),
		grace:   cloneGrace(s.grace),
	}
}

// Restore returns the server and its store to a snapshot.
func (s *Server) Restore(v any) {
	sn := v.(*serverSnapshot)
	s.store.Restore(sn.store)
	// The latencies are state too: a learner may change them mid-run, and a
	// replay from before the change must run with the old ones.
	s.cfg = sn.cfg
	s.nextID = sn.nextID
	s.watches = slices.Clone(sn.watches)
	s.indexWatches()
	// The list of chunks is the server's to append to; the chunks are
	// shared, and the last one is copied before it grows (see appendLog).
	s.log = slices.Clone(sn.log)
	s.grace = cloneGrace(sn.grace)
}

// cloneGrace copies the grace map; maps.Clone keeps it free of iteration order.
func cloneGrace(m map[string]uint64) map[string]uint64 {
	if out := maps.Clone(m); out != nil {
		return out
	}
	return map[string]uint64{}
}

var _ sim.Component = (*Server)(nil)
var _ sim.Snapshotter = (*Server)(nil)
var _ sim.Describer = (*Server)(nil)

// requestKey is the namespace/name a request addressed, using the response for
// names the server chose.
func requestKey(req *Request, resp *Response) string {
	if resp.Object != nil {
		// A write's events are all of the object it wrote, and the store
		// joined their key once already.
		if n := len(resp.Events); n > 0 {
			return resp.Events[n-1].ObjectKey()
		}
		m := resp.Object.Meta()
		return api.Key(m.Namespace, m.Name)
	}
	name := req.Name
	ns := req.Namespace
	if req.Object != nil {
		m := req.Object.Meta()
		if name == "" {
			name = m.Name
			if name == "" {
				name = m.GenerateName
			}
		}
		if ns == "" {
			ns = m.Namespace
		}
	}
	if name == "" {
		return ns
	}
	return api.Key(ns, name)
}

// verbModel names the generic registry function of upstream's API server that
// serves a verb (k8s.io/apiserver/pkg/registry/generic/registry.Store), as a
// step's Models field shows it. The names are whole constants: every request
// is a step, and joining "registry." to each was an allocation.
func verbModel(v Verb) string {
	switch v {
	case VerbCreate:
		return "registry.Create"
	case VerbGet:
		return "registry.Get"
	case VerbList:
		return "registry.List"
	case VerbWatch:
		return "registry.Watch"
	case VerbUpdate:
		return "registry.Update"
	case VerbPatch:
		return "registry.Patch"
	case VerbDelete:
		return "registry.Delete"
	}
	return "registry." + string(v)
}

// The sentences of a request's step: who asked what, then how it went.
var (
	formRequest          = &sim.Form{Text: "%s %s %s from %s: "}
	formRequestOfMany    = &sim.Form{Text: "%s %s from %s: "} // a list or watch names no object
	formRequestFailed    = &sim.Form{Text: "%s%[| (injected fault)]: %s"}
	formRequestListed    = &sim.Form{Text: "%d items at resourceVersion %u"}
	formRequestWatching  = &sim.Form{Text: "watch opened from resourceVersion %u (%d events to catch up)"}
	formRequestRemoved   = &sim.Form{Text: "removed (resourceVersion %u)"}
	formRequestMarked    = &sim.Form{Text: "marked for deletion (resourceVersion %u)"}
	formRequestRead      = &sim.Form{Text: "ok"}
	formRequestUnchanged = &sim.Form{Text: "ok, nothing changed"}
	formRequestWritten   = &sim.Form{Text: "ok (resourceVersion %u)"}
	formIgnoredEvent     = &sim.Form{Text: "ignored unknown event %q"}
)

func init() {
	sim.Register(
		formRequest,
		formRequestOfMany,
		formRequestFailed,
		formRequestListed,
		formRequestWatching,
		formRequestRemoved,
		formRequestMarked,
		formRequestRead,
		formRequestUnchanged,
		formRequestWritten,
		formIgnoredEvent,
	)
}

// describe is the sentence of a request's step. Every request is a step, so
// it is said, not written: its facts are the request's verb, resource
// (req.Resource()), key and client, strings the request and the log
// already hold, and numbers.
func describe(req *Request, resp *Response, resource, key, from string) sim.Sentence {
	var lead sim.Sentence
	if key != "" {
		lead = sim.Say(formRequest, string(req.Verb), resource, key, from)
	} else {
		lead = sim.Say(formRequestOfMany, string(req.Verb), resource, from)
	}
	var outcome sim.Sentence
	switch {
	case resp.Err != nil:
		fault := int64(0)
		if resp.Fault != nil {
			fault = 1
		}
		outcome = sim.Say(formRequestFailed, resp.Outcome(), resp.Err.Error()).With(fault)
	case req.Verb == VerbList:
		outcome = sim.Say(formRequestListed).With(int64(len(resp.Items)), int64(resp.ResourceVersion))
	case req.Verb == VerbWatch:
		outcome = sim.Say(formRequestWatching).With(int64(req.List().ResourceVersion), int64(len(resp.Events)))
	case req.Verb == VerbGet:
		outcome = sim.Say(formRequestRead)
	case req.Verb == VerbDelete && resp.Deleted:
		outcome = sim.Say(formRequestRemoved).With(int64(resp.ResourceVersion))
	case req.Verb == VerbDelete:
		outcome = sim.Say(formRequestMarked).With(int64(resp.ResourceVersion))
	case len(resp.Events) == 0:
		outcome = sim.Say(formRequestUnchanged)
	default:
		outcome = sim.Say(formRequestWritten).With(int64(resp.ResourceVersion))
	}
	return lead.Then(outcome)
}

// touched names the object a request addressed, whose key is key
// (requestKey). The object answered, if any, is that object, and names
// it without cutting its key apart again.
func (s *Server) touched(req *Request, resp *Response, key string) []sim.Ref {
	if req.Verb == VerbList || req.Verb == VerbWatch || key == "" {
		return nil
	}
	var ns, name string
	if resp.Object != nil {
		m := resp.Object.Meta()
		ns, name = m.Namespace, m.Name
	} else {
		var err error
		if ns, name, err = api.SplitKey(key); err != nil {
			return nil
		}
	}
	return s.refs.Of(sim.Ref{Kind: api.ShortName(req.Kind), Namespace: ns, Name: name})
}
