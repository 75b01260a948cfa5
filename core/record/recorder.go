package record

import (
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
)

// Upstream's recorder constants (client-go tools/record event.go).
const (
	// DefaultMaxTries is how many times the recorder tries to write one
	// event before it gives up on it.
	DefaultMaxTries = 12
	// DefaultRetryInterval is the wait between tries. The first wait is
	// drawn between 0 and this, so that recorders that failed together do
	// not retry together.
	DefaultRetryInterval = 10 * time.Second
	// DefaultQueueLength is how many events may wait for the recorder;
	// events generated while it is full are dropped.
	DefaultQueueLength = 1000
	// DefaultName is the component name of a recorder whose Config names
	// none.
	DefaultName = "event-recorder"
	// DefaultActor is the trace's actor column for the recorder's steps.
	DefaultActor = "events"
	// recentLength is how many written events the view keeps.
	recentLength = 20
)

// The event kinds the recorder handles, besides the API server's responses.
const (
	// eventProcess is one turn of the broadcaster's loop: correlate the
	// oldest waiting event and send its write.
	eventProcess = "process"
	// eventRetry is the end of the wait before the next try of a write.
	eventRetry = "retry"
)

// Config describes one recorder. Zero values mean the documented defaults.
type Config struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// Name is the kernel component name (default "event-recorder"). Two
	// recorders on one kernel need two names.
	Name string
	// Actor is the trace's actor column (default "events").
	Actor string
	// Component is source.component of every Event: who reports,
	// "replicaset-controller" or "replication-controller".
	Component string
	// Host is source.host; controllers leave it empty.
	Host string
	// Server is the API server the Events are written to.
	Server *apistore.Server
	// Correlator tunes the correlator; the zero value is upstream's.
	Correlator CorrelatorOptions
	// MaxTries bounds the tries of one write (default 12).
	MaxTries int
	// RetryInterval is the wait between tries (default 10s).
	RetryInterval time.Duration
	// QueueLength bounds the events waiting to be written (default 1000).
	QueueLength int
}

func (c Config) withDefaults() Config {
	if c.Name == "" {
		c.Name = DefaultName
	}
	if c.Actor == "" {
		c.Actor = DefaultActor
	}
	if c.MaxTries <= 0 {
		c.MaxTries = DefaultMaxTries
	}
	if c.RetryInterval <= 0 {
		c.RetryInterval = DefaultRetryInterval
	}
	if c.QueueLength <= 0 {
		c.QueueLength = DefaultQueueLength
	}
	return c
}

// Recorder is client-go's event recorder, broadcaster and sink in one kernel
// component: Event and Eventf queue an event and return at once, and the
// recorder's own steps correlate each event and write it to the API server,
// one at a time, retrying failed writes on kernel timers.
type Recorder struct {
	cfg   Config
	corr  *Correlator
	names Namer

	// queue holds the generated events not yet correlated, oldest first. The
	// events are never changed once queued.
	queue []*api.Event
	// scheduled is set while a process event is on the agenda. It is never
	// set while a write is under way.
	scheduled bool
	// write is the event being written, nil when none is. While a write is
	// under way the queue waits, as upstream's single broadcaster goroutine
	// does.
	write *write
	// writing holds the write under way, to which write then points: a
	// write is under way for every event recorded, and one made on the
	// heap for each was a fiftieth of the allocations of 100 ReplicaSets
	// of 10 pods converging. Snapshots copy it.
	writing write

	// recent are the last events written, refused or given up on, never
	// more than recentLength. Until it is full it is in order, oldest
	// first; from then on it is a ring whose oldest is at recentNext, the
	// place the next outcome takes (see remember and eachRecent).
	recent     []Outcome
	recentNext int

	stats Stats

	// refs holds the Touched lists of its steps (see sim.RefArena).
	refs sim.RefArena

	// events is the rest of a chunk of Events that makeEvent cuts the
	// events it makes from, each handed out once and never reused, so that
	// an event costs no allocation of its own. It holds no state: a
	// snapshot neither needs nor restores it.
	events []api.Event
}

// eventChunk is how many events one allocation makes: a chunk stays alive
// while any of its events is held, queued, remembered or stored, so it is
// kept small.
const eventChunk = 16

// write is the event being written and how far its tries have got.
type write struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// event is the correlated event, as the correlator returned it.
	event *api.Event
	// previous is the Event as last stored under its key, the base of an
	// update; nil if not known.
	previous *api.Event
	// update says the write in flight is an update (else a create).
	update bool
	// combined says the event stands for several similar ones.
	combined bool
	// failures counts the failed tries so far.
	failures int
	// request is the ID of the request in flight, 0 while waiting to retry.
	request uint64
	// timer is the agenda Seq of the retry timer while waiting to retry.
	timer uint64
	// wait is how long the pending retry waits.
	wait time.Duration
}

// Stats count what happened to the events generated so far.
type Stats struct {
	// Generated counts Event and Eventf calls.
	Generated int
	// Created and Updated count successful writes.
	Created, Updated int
	// Combined counts events the aggregator folded into a combined Event.
	Combined int
	// RateLimited counts events the spam filter refused.
	RateLimited int
	// Dropped counts events never queued: the queue was full, or the event
	// was malformed (no object, an unknown type).
	Dropped int
	// Retries counts tries after a failure.
	Retries int
	// Abandoned counts events given up on: refused by the server, or out of
	// tries.
	Abandoned int
}

// New returns a recorder. Register it with the kernel under Name().
func New(cfg Config) *Recorder {
	cfg = cfg.withDefaults()
	return &Recorder{cfg: cfg, corr: NewCorrelator(cfg.Correlator)}
}

// Name returns the component name.
func (r *Recorder) Name() string { return r.cfg.Name }

// Config returns the recorder's configuration, defaults filled in.
func (r *Recorder) Config() Config { return r.cfg }

// Correlator returns the recorder's correlator, for views and tests.
func (r *Recorder) Correlator() *Correlator { return r.corr }

// Stats returns the counters.
func (r *Recorder) Stats() Stats { return r.stats }

// Eventf records an event about object, as upstream's recorder.Eventf does:
// it builds the Event now, queues it and returns; the recorder's next step
// writes it. Upstream's Eventf takes a format and arguments; here the caller
// passes the finished message (built with strconv, not fmt, since events are
// recorded on hot paths), so Eventf and Event are the same call.
//
// eventType must be api.EventNormal or api.EventWarning; other types, a nil
// object and events arriving while the queue is full are dropped (counted in
// Stats.Dropped), as upstream logs and drops them.
func (r *Recorder) Eventf(sch sim.Scheduler, object api.Object, eventType, reason, message string) {
	r.Event(sch, object, eventType, reason, message)
}

// Event records an event about object; see Eventf.
func (r *Recorder) Event(sch sim.Scheduler, object api.Object, eventType, reason, message string) {
	r.stats.Generated++
	if object == nil || (eventType != api.EventNormal && eventType != api.EventWarning) {
		r.stats.Dropped++
		return
	}
	if len(r.queue) >= r.cfg.QueueLength {
		r.stats.Dropped++
		return
	}
	r.queue = append(r.queue, r.makeEvent(sch.Now(), object, eventType, reason, message))
	r.schedule(sch)
}

// makeEvent is upstream's generateEvent and makeEvent: a reference to the
// object, and an Event named after it and the time, with count 1.
func (r *Recorder) makeEvent(now time.Duration, object api.Object, eventType, reason, message string) *api.Event {
	m := object.Meta()
	kind := object.Kind()
	namespace := m.Namespace
	if namespace == "" {
		namespace = "default"
	}
	wall := api.NewTime(sim.Epoch.Add(now))
	if len(r.events) == 0 {
		r.events = make([]api.Event, eventChunk)
	}
	ev := &r.events[0]
	r.events = r.events[1:]
	*ev = api.Event{
		Metadata: api.ObjectMeta{Name: r.names.Next(m.Name, now), Namespace: namespace},
		InvolvedObject: api.ObjectReference{
			Kind: string(kind), Namespace: m.Namespace, Name: m.Name, UID: m.UID,
			APIVersion: kind.APIVersion(), ResourceVersion: m.ResourceVersion,
		},
		Reason:         reason,
		Message:        message,
		Source:         api.EventSource{Component: r.cfg.Component, Host: r.cfg.Host},
		FirstTimestamp: wall,
		LastTimestamp:  wall,
		Count:          1,
		Type:           eventType,
	}
	return ev
}

// schedule puts a process step on the agenda if the recorder is idle and
// something waits.
func (r *Recorder) schedule(sch sim.Scheduler) {
	if r.scheduled || r.write != nil || len(r.queue) == 0 {
		return
	}
	r.scheduled = true
	sch.After(0, r.cfg.Name, eventProcess, nil)
}

// StartStep reuses the lists of the recorder's last step, which is over
// (sim.StepStarter).
func (r *Recorder) StartStep() { r.refs.Reuse() }

// Handle runs one of the recorder's steps.
func (r *Recorder) Handle(ctx *sim.Context, ev sim.Event) sim.Report {
	switch ev.Kind {
	case eventProcess:
		return r.process(ctx)
	case apistore.EventResponse:
		return r.response(ctx, ev.Data.(*apistore.Reply))
	case eventRetry:
		return r.retry(ctx)
	}
	return sim.Report{Actor: r.cfg.Actor, Summary: sim.Say(formIgnoredEvent, ev.Kind)}
}

var (
	formIgnoredEvent = &sim.Form{Text: "ignored unknown event %q"}
	// formWritten is the step that hears an Event was written, the one
	// step of every event written; formMoreWaiting follows it while events
	// wait behind it (Recorder.waiting).
	formWritten     = &sim.Form{Text: "Event %s/%s %[created|updated] (%s %s, count %d)"}
	formMoreWaiting = &sim.Form{Text: "; %d more waiting"}
)

func init() { sim.Register(formIgnoredEvent, formWritten, formMoreWaiting) }

// process correlates the oldest waiting event and sends its write: one turn
// of upstream's recordToSink.
func (r *Recorder) process(ctx *sim.Context) sim.Report {
	r.scheduled = false
	if r.write != nil || len(r.queue) == 0 {
		return sim.Report{Actor: r.cfg.Actor, Models: "recordToSink", Summary: sim.Text("nothing to record")}
	}
	ev := r.queue[0]
	r.queue[0] = nil
	r.queue = r.queue[1:]
	if len(r.queue) == 0 {
		r.queue = nil
	}

	res := r.corr.Correlate(ev, ctx.Now(), &r.names)
	// The sentence starts with the event as a learner reads it and is
	// written in one buffer: every event of a busy controller is a step.
	// It names the event's type, reason, object, message and the Event it
	// becomes, more strings than a lazy sentence holds (sim.Sentence), so
	// it is written when the step runs, as the sentences of the writes
	// below are.
	involved := involvedRef(ev)
	var b strings.Builder
	b.Grow(len(ev.Type) + len(ev.Reason) + len(involved.Kind) + len(involved.Name) + len(ev.Message) + sentenceRoom(res))
	writeEvent(&b, ev, involved)
	if res.Combined {
		r.stats.Combined++
	}
	if res.Skip {
		r.stats.RateLimited++
		r.remember(ctx, Outcome{Event: ev, Result: "rate-limited"})
		r.schedule(ctx)
		if res.Combined {
			b.WriteString(": would have been combined with ")
			sim.WriteUint(&b, uint64(res.Similar-1))
			b.WriteString(" similar events, but was dropped by the spam filter: ")
		} else {
			b.WriteString(": dropped by the spam filter: ")
		}
		b.WriteString(involved.Kind)
		b.WriteByte('/')
		b.WriteString(involved.Name)
		b.WriteString(" has used its burst of ")
		sim.WriteUint(&b, uint64(r.corr.opts.Burst))
		b.WriteString(" events; the next token comes in ")
		b.WriteString(roundDuration(res.Wait))
		return sim.Report{Actor: r.cfg.Actor, Models: "EventCorrelate", Summary: sim.Text(b.String()), Touched: r.refs.Of(involved)}
	}

	out := res.Event
	r.writing = write{event: out, previous: res.Previous, update: res.Update, combined: res.Combined}
	r.write = &r.writing
	r.send(ctx)
	touched := r.refs.Of(involved, eventRef(out))

	switch {
	case res.Combined && res.Update:
		b.WriteString(": another similar event (")
		sim.WriteUint(&b, uint64(res.Similar))
		b.WriteString(" different messages within ")
		b.WriteString(r.corr.opts.MaxInterval.String())
		b.WriteString("): updating the combined Event ")
		b.WriteString(out.Metadata.Name)
		b.WriteString(" to count ")
		b.WriteString(itoa32(out.Count))
	case res.Combined:
		b.WriteString(": the ")
		b.WriteString(ordinal(res.Similar))
		b.WriteString(" similar event within ")
		b.WriteString(r.corr.opts.MaxInterval.String())
		b.WriteString(" (same object, type and reason, a different message): creating the combined Event ")
		b.WriteString(out.Metadata.Name)
	case res.Update:
		b.WriteString(": same as Event ")
		b.WriteString(out.Metadata.Name)
		b.WriteString(": updating it to count ")
		b.WriteString(itoa32(out.Count))
		b.WriteString(" instead of creating another")
	default:
		b.WriteString(": new; creating Event ")
		b.WriteString(out.Metadata.Name)
	}
	if n := len(r.queue); n > 0 {
		b.WriteString(" (")
		sim.WriteUint(&b, uint64(n))
		b.WriteString(" more waiting)")
	}
	return sim.Report{Actor: r.cfg.Actor, Models: "EventCorrelate", Summary: sim.Text(b.String()), Touched: touched}
}

// sentenceRoom is about what process writes besides the event's own words
// and its name, for the outcome res: room enough for the usual sentence, so
// that its buffer is made once and not much larger than it.
func sentenceRoom(res Result) int {
	const pending = len(" (1000 more waiting)")
	room := len(" on /: \"\"") + pending
	switch {
	case res.Skip:
		room += len(": would have been combined with 10 similar events, but was dropped by the spam filter:  has used its burst of 25 events; the next token comes in 4m59.999999s")
	case res.Combined:
		room += len(": the 10th similar event within 10m0s (same object, type and reason, a different message): creating the combined Event ") + len(res.Event.Metadata.Name)
	case res.Update:
		room += len(": same as Event : updating it to count 1000 instead of creating another") + len(res.Event.Metadata.Name)
	default:
		room += len(": new; creating Event ") + len(res.Event.Metadata.Name)
	}
	return room
}

// send issues the write's request: an update of the Event when it exists
// already, else a create.
func (r *Recorder) send(ctx *sim.Context) {
	w := r.write
	ns := w.event.Metadata.Namespace
	if w.update {
		r.write.request = r.cfg.Server.Send(ctx, r.cfg.Name, apistore.Request{
			Verb: apistore.VerbUpdate, Kind: api.KindEvent, Namespace: ns, Object: updateBody(w.event, w.previous),
		})
		return
	}
	// upstream: "Making sure that ResourceVersion is empty on creation".
	// The recorder never changes an Event it has made once it is being
	// written (a sent object is the server's, apistore.Request.Object), so
	// an Event with no resourceVersion (every one created for the first
	// time) is sent as it is; one being created again after its update
	// found it gone gets a copy without it.
	body := w.event
	if body.Metadata.ResourceVersion != "" {
		body = body.DeepCopy()
		body.Metadata.ResourceVersion = ""
	}
	r.write.request = r.cfg.Server.Send(ctx, r.cfg.Name, apistore.Request{
		Verb: apistore.VerbCreate, Kind: api.KindEvent, Namespace: ns, Object: body,
	})
}

// updateBody is what an update sends. Upstream sends a strategic-merge patch
// of count, lastTimestamp and message; the model's patches only reach
// metadata, so it sends the whole Event instead: the Event as last stored with
// those three fields changed, which is what the patch would have produced. If
// the recorder has not stored the Event itself (a combined Event, or one whose
// create was never seen to succeed), the correlated event is sent whole. No
// resourceVersion is sent: upstream's patch carries none either.
func updateBody(ev, previous *api.Event) *api.Event {
	var body *api.Event
	if previous != nil {
		body = previous.DeepCopy()
		body.Count = ev.Count
		body.LastTimestamp = ev.LastTimestamp
		body.Message = ev.Message
	} else {
		body = ev.DeepCopy()
	}
	body.Metadata.ResourceVersion = ""
	return body
}

// response handles the answer to a write: upstream's recordEvent.
func (r *Recorder) response(ctx *sim.Context, reply *apistore.Reply) sim.Report {
	w := r.write
	if w == nil || reply.ID != w.request {
		return sim.Report{Actor: r.cfg.Actor, Summary: sim.Text("ignored the answer to an abandoned request")}
	}
	w.request = 0
	ev := w.event
	touched := r.refs.Of(involvedRef(ev), eventRef(ev))
	err := reply.Response.Err

	if err == nil {
		stored, _ := reply.Response.Object.(*api.Event)
		if stored != nil {
			r.corr.UpdateState(stored)
		}
		verb, updated := "created", int64(0)
		if w.update {
			verb, updated = "updated", 1
			r.stats.Updated++
		} else {
			r.stats.Created++
		}
		r.remember(ctx, Outcome{Event: ev, Stored: stored, Result: verb})
		r.finish(ctx)
		// Said, not written: every Event written is one of these steps.
		summary := sim.Say(formWritten, ev.Metadata.Namespace, ev.Metadata.Name, ev.Type, ev.Reason).With(updated, int64(ev.Count))
		if n := len(r.queue); n > 0 {
			summary = summary.Then(sim.Say(formMoreWaiting).With(int64(n)))
		}
		return sim.Report{Actor: r.cfg.Actor, Models: "recordEvent", Touched: touched, Summary: summary}
	}
	name := ev.Metadata.Namespace + "/" + ev.Metadata.Name

	if w.update && apistore.IsNotFound(err) {
		// The Event is gone (deleted, or never written): create it, count and
		// all, within the same try, as upstream's recordEvent does.
		w.update = false
		r.send(ctx)
		return sim.Report{Actor: r.cfg.Actor, Models: "recordEvent", Touched: touched,
			Summary: sim.Text("Event " + name + " no longer exists (NotFound): creating it again with count " + itoa32(ev.Count))}
	}

	if !retryable(err) {
		r.stats.Abandoned++
		r.remember(ctx, Outcome{Event: ev, Result: "refused: " + reply.Response.Outcome()})
		r.finish(ctx)
		return sim.Report{Actor: r.cfg.Actor, Models: "recordEvent", Touched: touched,
			Summary: sim.Text("the server refused Event " + name + " (" + reply.Response.Outcome() + ": " + err.Error() +
				"); given up, as upstream gives up on any event the server answers with an error status" + r.nextPhrase())}
	}

	w.failures++
	if w.failures >= r.cfg.MaxTries {
		r.stats.Abandoned++
		r.remember(ctx, Outcome{Event: ev, Result: "gave up after " + strconv.Itoa(w.failures) + " tries"})
		r.finish(ctx)
		return sim.Report{Actor: r.cfg.Actor, Models: "recordToSink", Touched: touched,
			Summary: sim.Text("writing Event " + name + " failed again (" + reply.Response.Outcome() + "): that was try " +
				strconv.Itoa(w.failures) + " of " + strconv.Itoa(r.cfg.MaxTries) + "; giving up on it" + r.nextPhrase())}
	}
	wait := r.cfg.RetryInterval
	if w.failures == 1 {
		// Upstream randomizes the first sleep so that clients that failed
		// together do not retry together.
		wait = time.Duration(float64(wait) * ctx.Rand().Float64())
	}
	w.wait = wait
	w.timer = ctx.After(wait, r.cfg.Name, eventRetry, nil)
	return sim.Report{Actor: r.cfg.Actor, Models: "recordToSink", Touched: touched,
		Summary: sim.Text("writing Event " + name + " failed (" + reply.Response.Outcome() + ": " + err.Error() + "); try " +
			strconv.Itoa(w.failures+1) + " of " + strconv.Itoa(r.cfg.MaxTries) + " in " + roundDuration(wait) +
			"; the events behind it wait")}
}

// retry sends the next try of the write, as a fresh recordEvent call: an
// update again if the Event should exist.
func (r *Recorder) retry(ctx *sim.Context) sim.Report {
	w := r.write
	if w == nil || w.timer == 0 {
		return sim.Report{Actor: r.cfg.Actor, Models: "recordToSink", Summary: sim.Text("no write waiting to be retried")}
	}
	w.timer = 0
	w.update = w.event.Count > 1
	r.stats.Retries++
	r.send(ctx)
	verb := "creating"
	if w.update {
		verb = "updating"
	}
	return sim.Report{Actor: r.cfg.Actor, Models: "recordToSink", Touched: []sim.Ref{involvedRef(w.event), eventRef(w.event)},
		Summary: sim.Text("try " + strconv.Itoa(w.failures+1) + " of " + strconv.Itoa(r.cfg.MaxTries) + ": " + verb + " Event " +
			w.event.Metadata.Namespace + "/" + w.event.Metadata.Name + " again")}
}

// finish ends the current write and lets the next event through.
//
// It leaves writing as it was: the callers go on to read the write they
// finished through their pointer to it, and the next write overwrites it.
func (r *Recorder) finish(ctx *sim.Context) {
	r.write = nil
	r.schedule(ctx)
}

func (r *Recorder) nextPhrase() string {
	if n := len(r.queue); n > 0 {
		return "; " + strconv.Itoa(n) + " more waiting"
	}
	return ""
}

// retryable reports whether a failed write is tried again. Upstream retries
// only when no answer came back (a transport error); any error status from
// the server gives the event up. The model has no transport errors, so the
// answers that stand for a server that could not be reached or could not
// answer in time, 500 InternalError, 503 ServiceUnavailable and 504 Timeout,
// are treated as one; every other status gives up, as upstream.
func retryable(err error) bool {
	return apistore.IsInternalError(err) || apistore.IsServiceUnavailable(err) || apistore.IsTimeout(err)
}

// remember adds an outcome to the recent list. A full list takes it in
// place of its oldest, in place (snapshots keep copies of their own): it
// used to shift the other nineteen down, pointers and all, for every event
// a busy controller recorded.
func (r *Recorder) remember(ctx *sim.Context, o Outcome) {
	o.At = ctx.Now()
	if len(r.recent) < recentLength {
		r.recent = append(r.recent, o)
		return
	}
	r.recent[r.recentNext] = o
	r.recentNext = (r.recentNext + 1) % len(r.recent)
}

// eachRecent calls f with the recent outcomes, oldest first.
func (r *Recorder) eachRecent(f func(Outcome)) {
	for i := range r.recent {
		f(r.recent[(r.recentNext+i)%len(r.recent)])
	}
}

// Describe says what a pending recorder event will do, for the agenda view.
func (r *Recorder) Describe(ev sim.Event) string {
	switch ev.Kind {
	case eventProcess:
		return r.cfg.Name + " correlates the next of " + strconv.Itoa(len(r.queue)) + " waiting events"
	case eventRetry:
		if r.write != nil {
			return r.cfg.Name + " tries again to write Event " + r.write.event.Metadata.Name
		}
		return r.cfg.Name + " retries a write"
	case apistore.EventResponse:
		return "answer to " + ev.Data.(*apistore.Reply).Request.String() + " reaches " + r.cfg.Name
	}
	return r.cfg.Name + ": " + ev.Kind
}

// writeEvent names an event as a learner reads it, `Warning FailedCreate on
// rs/web: "Error creating: …"`, in b; involved is ev's involvedRef.
func writeEvent(b *strings.Builder, ev *api.Event, involved sim.Ref) {
	b.WriteString(ev.Type)
	b.WriteByte(' ')
	b.WriteString(ev.Reason)
	b.WriteString(" on ")
	b.WriteString(involved.Kind)
	b.WriteByte('/')
	b.WriteString(involved.Name)
	b.WriteString(": ")
	writeQuoted(b, ev.Message)
}

// writeQuoted writes s quoted as strconv.Quote quotes it. A message of
// printable ASCII without a quote or a backslash, as nearly every event's
// is ("Created pod: web-7xk2p"), quotes as itself between quotes; only
// another is read rune by rune by strconv, which was a fifth of what
// correlating an event cost.
func writeQuoted(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			var quoted [128]byte
			b.Write(strconv.AppendQuote(quoted[:0], s))
			return
		}
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}

func involvedRef(ev *api.Event) sim.Ref {
	o := &ev.InvolvedObject
	return sim.Ref{Kind: api.ShortName(api.Kind(o.Kind)), Namespace: o.Namespace, Name: o.Name}
}

func eventRef(ev *api.Event) sim.Ref {
	return sim.Ref{Kind: "event", Namespace: ev.Metadata.Namespace, Name: ev.Metadata.Name}
}

func itoa32(n int32) string { return strconv.FormatInt(int64(n), 10) }

func roundDuration(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond).String()
	default:
		return d.Round(time.Microsecond).String()
	}
}

// ordinal writes 10 as "10th", 21 as "21st".
func ordinal(n int) string {
	s := strconv.Itoa(n)
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return s + "th"
	case n%10 == 1:
		return s + "st"
	case n%10 == 2:
		return s + "nd"
	case n%10 == 3:
		return s + "rd"
	}
	return s + "th"
}

var (
	_ sim.Component   = (*Recorder)(nil)
	_ sim.Snapshotter = (*Recorder)(nil)
	_ sim.Describer   = (*Recorder)(nil)
)
