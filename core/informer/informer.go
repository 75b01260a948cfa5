package informer

import (
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sim"
)

// WatchState says what the reflector is doing.
type WatchState string

// The reflector's states.
const (
	// NotStarted: Start has not run yet.
	NotStarted WatchState = "not started"
	// Listing: a LIST is on its way; the cache will be replaced with its result.
	Listing WatchState = "listing"
	// Opening: a WATCH from the last synced resourceVersion is on its way.
	Opening WatchState = "opening watch"
	// Watching: the watch is open and events flow in.
	Watching WatchState = "watching"
	// BackingOff: the watch failed in a way that needs a fresh list; the
	// reflector waits out its back-off before listing again.
	BackingOff WatchState = "backing off"
)

// Reflector timings, as client-go's reflector uses them.
const (
	// RelistBackoff is the base wait before listing again after a watch ended
	// with an error (upstream: 800ms, with up to 100% jitter).
	RelistBackoff = 800 * time.Millisecond
)

// The event kinds an informer handles, besides the API server's responses and
// watch deliveries.
const (
	eventStart          = "start"
	eventPop            = "pop"
	eventNotify         = "notify"
	eventResync         = "resync-check"
	eventRelist         = "relist"
	eventWatchClosed    = "watch-closed"
	eventWatchExpired   = "watch-expired"
	eventDelayedWatch   = "delayed-watch"
	eventHealWithRelist = "heal-relist"
)

// Config describes one informer. Zero values mean the documented defaults.
type Config struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// Name is the kernel component name, conventionally "informer/pods".
	Name string
	// Kind is the kind it watches.
	Kind api.Kind
	// Namespace restricts it to one namespace; "" watches all.
	Namespace string
	// Server is the API server it lists and watches.
	Server *apistore.Server
}

// Informer is a shared informer for one kind: a reflector that lists and then
// watches the API server, a DeltaFIFO, the cache (an Indexer) and the handlers
// registered with it. It is one kernel component, and each of its moves is a
// step: a list or watch response arriving, one watch event queued, one key's
// deltas processed into the cache, one handler called.
type Informer struct {
	cfg  Config
	sch  sim.Scheduler
	fifo *DeltaFIFO
	ix   *Indexer

	// refs holds the Touched lists of its reports (see sim.RefArena).
	refs sim.RefArena

	listeners []*listener
	// starters are the StartStep hooks of the handlers that have one, in
	// the order the handlers were registered: StartStep, which runs before
	// every step, calls them without visiting every listener.
	starters []func()

	state WatchState
	// lw is the reflector's list-then-watch bookkeeping: the request in
	// flight, the open watch, and the resourceVersion of the last list or
	// watch event received (lastSyncRV upstream), where a re-watch starts.
	lw apistore.ListWatch

	// popScheduled is set while a pop event is on the agenda.
	popScheduled bool

	// resyncCheck is the period of the resync timer (the smallest handler
	// resync period), 0 when no handler wants resyncs; resyncSeq is the
	// pending timer event.
	resyncCheck time.Duration
	resyncSeq   uint64
	resyncArmed bool

	// relistSeq is the pending relist timer, armed while relistArmed.
	relistSeq   uint64
	relistArmed bool

	faults faults

	// lists and watches count the requests the reflector made, for the view.
	lists, watches int
}

// faults are the watch faults a scenario injected on this informer.
type faults struct {
	// drop is how many of the next watch events are lost in transit.
	drop int
	// lost counts events lost since the last list; healing relists if any.
	lost int
	// delay holds back each watch event by this much.
	delay time.Duration
	// delayedUntil is the latest time a delayed event was rescheduled to;
	// later events never overtake it, since a watch stream keeps its order.
	delayedUntil time.Duration
}

// New returns an informer that uses sch (the kernel) to schedule its own
// events. Register it with the kernel under cfg.Name, then call Start.
func New(cfg Config, sch sim.Scheduler) *Informer {
	inf := &Informer{cfg: cfg, sch: sch, ix: NewIndexer(), state: NotStarted,
		lw: apistore.NewListWatch(cfg.Kind, cfg.Namespace)}
	inf.fifo = NewDeltaFIFO(inf.ix)
	return inf
}

// Name returns the component name.
func (inf *Informer) Name() string { return inf.cfg.Name }

// Kind returns the watched kind.
func (inf *Informer) Kind() api.Kind { return inf.cfg.Kind }

// Indexer returns the cache. Read it; never write it: only the informer does.
func (inf *Informer) Indexer() *Indexer { return inf.ix }

// Lister returns a lister over the cache.
func (inf *Informer) Lister() Lister { return Lister{ix: inf.ix} }

// HasSynced reports whether the cache holds everything the first list
// returned. Controllers wait for it before their workers start.
func (inf *Informer) HasSynced() bool { return inf.fifo.HasSynced() }

// AddIndexer adds an index to the cache.
func (inf *Informer) AddIndexer(name string, fn IndexFunc) error { return inf.ix.AddIndexer(name, fn) }

// AddEventHandler registers a handler. A handler added after the informer has
// started is first told about everything in the cache, as adds with
// isInInitialList set.
func (inf *Informer) AddEventHandler(h Handler) {
	inf.WakeEventHandler(inf.AddDormantEventHandler(h))
}

// AddDormantEventHandler registers a handler that hears nothing, and costs
// no step, until WakeEventHandler wakes it; it returns the handler's number
// for that. It lets a component whose work may never be needed, such as the
// Deployment controller in a world without Deployments, be wired when the
// world is built without changing a single step of a world that never
// needs it. Whether a handler is awake is state: a snapshot taken before
// the wake restores it dormant.
func (inf *Informer) AddDormantEventHandler(h Handler) int {
	inf.listeners = append(inf.listeners, &listener{handler: h, id: len(inf.listeners), syncing: true, dormant: true})
	if h.StartStep != nil {
		inf.starters = append(inf.starters, h.StartStep)
	}
	return len(inf.listeners) - 1
}

// WakeEventHandler wakes the dormant handler number i. From now on it hears
// every notification, and, as a handler added late, it is first told about
// everything in the cache, as adds with isInInitialList set. Waking an
// awake handler does nothing.
func (inf *Informer) WakeEventHandler(i int) {
	l := inf.listeners[i]
	if !l.dormant {
		return
	}
	l.dormant = false
	if h := l.handler; h.ResyncPeriod > 0 {
		l.resyncPeriod = max(h.ResyncPeriod, MinimumResyncPeriod)
		l.nextResync = inf.sch.Now() + l.resyncPeriod
	}
	if inf.state != NotStarted && l.wants(notifyAdd) {
		for _, obj := range inf.ix.List() {
			inf.notifyOne(i, notification{kind: notifyAdd, obj: obj, initial: true})
		}
	}
	inf.armResync()
}

// Start schedules the first list.
func (inf *Informer) Start() {
	inf.sch.After(0, inf.cfg.Name, eventStart, nil)
}

// DropNextEvents makes the next n watch events get lost in transit: the
// watch goes on, and the cache misses them until a relist.
func (inf *Informer) DropNextEvents(n int) { inf.faults.drop += n }

// DelayEvents holds back every watch event by d from now on (0 ends it).
func (inf *Informer) DelayEvents(d time.Duration) { inf.faults.delay = d }

// BreakWatch closes the watch, as a dropped connection does. The reflector
// notices and re-watches from its last resourceVersion, so nothing is lost.
func (inf *Informer) BreakWatch() {
	inf.closeWatch()
	inf.sch.After(0, inf.cfg.Name, eventWatchClosed, nil)
}

// ExpireWatch ends the watch with 410 Expired: its resourceVersion is too old.
// The reflector backs off and lists again, and the relist's tombstones cover
// any deletion it missed.
func (inf *Informer) ExpireWatch() {
	inf.closeWatch()
	inf.sch.After(0, inf.cfg.Name, eventWatchExpired, nil)
}

// Heal ends the drop and delay faults. If events were lost, the informer
// lists again so that the cache is whole.
func (inf *Informer) Heal() {
	inf.faults.drop = 0
	inf.faults.delay = 0
	if inf.faults.lost > 0 {
		inf.closeWatch()
		inf.sch.After(0, inf.cfg.Name, eventHealWithRelist, nil)
	}
}

// cancelRelist cancels a relist still waiting out its back-off: only one
// may be pending, or a stale one would list again over a healthy watch.
func (inf *Informer) cancelRelist(sch sim.Scheduler) {
	if inf.relistArmed {
		sch.Cancel(inf.relistSeq)
		inf.relistArmed = false
	}
}

func (inf *Informer) closeWatch() { inf.lw.CloseWatch(inf.cfg.Server) }

// StartStep reuses the informer's arena, and lets each handler with a
// StartStep of its own reuse its: the lists of the last step are dead
// (sim.Arena).
func (inf *Informer) StartStep() {
	inf.refs.Reuse()
	for _, start := range inf.starters {
		start()
	}
}

// Handle runs one of the informer's steps. Its report is a named result,
// which each case's is copied into once: "return inf.pop(ctx)" copied the
// report, 176 bytes, into a temporary and from there into the result, at
// every step.
func (inf *Informer) Handle(ctx *sim.Context, ev sim.Event) (rep sim.Report) {
	switch ev.Kind {
	case eventStart:
		rep = inf.list(ctx, sim.Say(formListStart, inf.resource()))
	case apistore.EventResponse:
		rep = inf.response(ctx, ev.Data.(*apistore.Reply))
	case apistore.EventWatch:
		rep = inf.watchEvent(ctx, ev.Data.(*apistore.WatchDelivery), false)
	case eventDelayedWatch:
		rep = inf.watchEvent(ctx, ev.Data.(*apistore.WatchDelivery), true)
	case eventPop:
		rep = inf.pop(ctx)
	case eventNotify:
		rep = inf.notify(ctx, ev.Data.(int))
	case eventResync:
		rep = inf.resync(ctx)
	case eventRelist:
		inf.relistArmed = false
		rep = inf.list(ctx, sim.Say(formListAgain, inf.resource()))
	case eventWatchClosed:
		rep = inf.rewatch(ctx)
	case eventWatchExpired:
		rep = inf.expired(ctx)
	case eventHealWithRelist:
		rep = inf.list(ctx, sim.Say(formListHealed, inf.resource()).With(int64(inf.faults.lost)))
	default:
		rep = sim.Report{Actor: inf.actor(), Summary: sim.Say(formIgnoredEvent, ev.Kind)}
	}
	return rep
}

// The sentences of the reflector: listing, watching, backing off.
var (
	formListStart    = &sim.Form{Text: "start: listing %s"}
	formListAgain    = &sim.Form{Text: "back-off over: listing %s again"}
	formListHealed   = &sim.Form{Text: "watch healed after %d lost events: listing %s again so the cache is whole"}
	formIgnoredEvent = &sim.Form{Text: "ignored unknown event %q"}
	formAbandoned    = &sim.Form{Text: "ignored the answer to an abandoned %s request"}
	formListed       = &sim.Form{Text: "listed %d %s at resourceVersion %u: replacing the cache (%d keys queued); watching from there"}
	formWatchOpen    = &sim.Form{Text: "watch of %s open from resourceVersion %u"}
	formUnexpected   = &sim.Form{Text: "ignored unexpected answer to %s"}
	formListFailed   = &sim.Form{Text: "list failed: %s"}
	formWatchRefused = &sim.Form{Text: "watch refused: %s"}
	formWatchFailed  = &sim.Form{Text: "watch failed: %s"}
	formBackOff      = &sim.Form{Text: "; listing again after a back-off of %D"}
	formRewatch      = &sim.Form{Text: "watch of %s closed: watching again from resourceVersion %u, so nothing is missed"}
	formExpired      = &sim.Form{Text: "watch of %s ended with 410 Expired: resourceVersion %u is too old to watch from"}
)

func init() {
	sim.Register(
		formListStart,
		formListAgain,
		formListHealed,
		formIgnoredEvent,
		formAbandoned,
		formListed,
		formWatchOpen,
		formUnexpected,
		formListFailed,
		formWatchRefused,
		formWatchFailed,
		formBackOff,
		formRewatch,
		formExpired,
	)
}

func (inf *Informer) actor() string { return inf.cfg.Name }

func (inf *Informer) resource() string { return inf.cfg.Kind.Resource() }

func (inf *Informer) list(ctx *sim.Context, why sim.Sentence) sim.Report {
	// A list supersedes whatever the reflector was doing: the open watch (its
	// events still in flight must not land on top of the new list) and any
	// relist still waiting out a back-off.
	inf.closeWatch()
	inf.cancelRelist(ctx)
	inf.state = Listing
	inf.lists++
	inf.lw.List(ctx, inf.cfg.Server, inf.cfg.Name)
	return sim.Report{Actor: inf.actor(), Models: "Reflector.list", Summary: why}
}

func (inf *Informer) watch(ctx *sim.Context) {
	inf.state = Opening
	inf.watches++
	inf.lw.Watch(ctx, inf.cfg.Server, inf.cfg.Name)
}

func (inf *Informer) response(ctx *sim.Context, r *apistore.Reply) sim.Report {
	if !inf.lw.Owns(r) {
		return sim.Report{Actor: inf.actor(), Summary: sim.Say(formAbandoned, string(r.Request.Verb))}
	}
	inf.lw.Answered()
	switch r.Request.Verb {
	case apistore.VerbList:
		if r.Response.Err != nil {
			return inf.backOff(ctx, sim.Say(formListFailed, r.Response.Err.Error()))
		}
		items := r.Response.Items
		inf.fifo.Replace(items)
		inf.faults.lost = 0
		inf.lw.Observed(r.Response.ResourceVersion)
		inf.schedulePop(ctx)
		inf.watch(ctx)
		return sim.Report{Actor: inf.actor(), Models: "Reflector.syncWith",
			Summary: sim.Say(formListed, inf.resource()).With(int64(len(items)), int64(inf.lw.RV()), int64(inf.fifo.Len()))}
	case apistore.VerbWatch:
		if err := r.Response.Err; err != nil {
			if apistore.IsExpired(err) {
				return inf.backOff(ctx, sim.Say(formWatchRefused, err.Error()))
			}
			return inf.backOff(ctx, sim.Say(formWatchFailed, err.Error()))
		}
		inf.state = Watching
		inf.lw.Opened(r.ID)
		return sim.Report{Actor: inf.actor(), Models: "Reflector.watch",
			Summary: sim.Say(formWatchOpen, inf.resource()).With(int64(r.Request.List().ResourceVersion))}
	}
	return sim.Report{Actor: inf.actor(), Summary: sim.Say(formUnexpected, r.Request.String())}
}

// backOff waits out the reflector's back-off, with jitter from the kernel's
// seeded source, and lists again.
func (inf *Informer) backOff(ctx *sim.Context, why sim.Sentence) sim.Report {
	inf.closeWatch()
	inf.state = BackingOff
	wait := RelistBackoff + time.Duration(ctx.Rand().Int64N(int64(RelistBackoff)))
	inf.cancelRelist(ctx)
	inf.relistSeq, inf.relistArmed = ctx.After(wait, inf.cfg.Name, eventRelist, nil), true
	return sim.Report{Actor: inf.actor(), Models: "Reflector.ListAndWatch",
		Summary: why.Then(sim.Say(formBackOff).With(int64(wait.Round(time.Millisecond))))}
}

func (inf *Informer) rewatch(ctx *sim.Context) sim.Report {
	inf.watch(ctx)
	return sim.Report{Actor: inf.actor(), Models: "Reflector.watch",
		Summary: sim.Say(formRewatch, inf.resource()).With(int64(inf.lw.RV()))}
}

func (inf *Informer) expired(ctx *sim.Context) sim.Report {
	return inf.backOff(ctx, sim.Say(formExpired, inf.resource()).With(int64(inf.lw.RV())))
}

func (inf *Informer) watchEvent(ctx *sim.Context, d *apistore.WatchDelivery, delayed bool) sim.Report {
	ev := d.Event
	ref := refOf(ev.Object)
	// say says a sentence of the event, whose first facts name it.
	say := func(f *sim.Form, nums ...int64) sim.Sentence {
		var all [3]int64
		all[0] = int64(ev.ResourceVersion)
		return sim.Say(f, string(ev.Type), ref.Kind, ref.Name).With(all[:1+copy(all[1:], nums)]...)
	}
	// An event can overtake the answer that opened its watch when the watch
	// latency is shorter than the API latency; it belongs to the watch all
	// the same.
	ok, opened := inf.lw.Accept(*d, inf.state == Opening)
	if opened {
		inf.state = Watching
	}
	if !ok {
		return sim.Report{Actor: inf.actor(), Models: "Reflector.watch",
			Summary: say(formDiscarded)}
	}
	if !delayed {
		if inf.faults.drop > 0 {
			inf.faults.drop--
			inf.faults.lost++
			return sim.Report{Actor: inf.actor(), Models: "fault: drop watch", Touched: inf.refs.Of(ref),
				Summary: say(formLost, int64(inf.faults.drop))}
		}
		if inf.faults.delay > 0 || inf.faults.delayedUntil > ctx.Now() {
			at := max(ctx.Now()+inf.faults.delay, inf.faults.delayedUntil)
			inf.faults.delayedUntil = at
			ctx.After(at-ctx.Now(), inf.cfg.Name, eventDelayedWatch, d)
			return sim.Report{Actor: inf.actor(), Models: "fault: delay watch", Touched: inf.refs.Of(ref),
				Summary: say(formHeldBack, int64(at))}
		}
	}
	switch key := ev.ObjectKey(); ev.Type {
	case apistore.Added:
		inf.fifo.add(key, ev.Object)
	case apistore.Modified:
		inf.fifo.update(key, ev.Object)
	case apistore.Deleted:
		inf.fifo.delete(key, ev.Object)
	}
	inf.lw.Observed(ev.ResourceVersion)
	inf.schedulePop(ctx)
	return sim.Report{Actor: inf.actor(), Models: "watchHandler", Touched: inf.refs.Of(ref), Summary: say(formReceived, int64(inf.fifo.Len()))}
}

// The sentences of a watch event reaching the informer. Each names the
// event first: "ADDED pod/web-x (resourceVersion 12)".
var (
	formReceived  = &sim.Form{Text: "received %s %s/%s (resourceVersion %u); queued in the DeltaFIFO (%{key|keys} pending)"}
	formDiscarded = &sim.Form{Text: "discarded %s %s/%s (resourceVersion %u): it belongs to a watch that is closed"}
	formLost      = &sim.Form{Text: "lost %s %s/%s (resourceVersion %u) in transit; the informer never sees it (%d more to drop)"}
	formHeldBack  = &sim.Form{Text: "held back %s %s/%s (resourceVersion %u) until t=%T"}
)

func init() {
	sim.Register(
		formReceived,
		formDiscarded,
		formLost,
		formHeldBack,
	)
}

func (inf *Informer) schedulePop(ctx *sim.Context) {
	if !inf.popScheduled && inf.fifo.Len() > 0 {
		inf.popScheduled = true
		ctx.After(0, inf.cfg.Name, eventPop, nil)
	}
}

// pop processes one key's deltas, as the informer's processLoop does with
// HandleDeltas: the cache is updated first, then every handler is notified.
func (inf *Informer) pop(ctx *sim.Context) sim.Report {
	inf.popScheduled = false
	key, deltas, initial, ok := inf.fifo.Pop()
	if !ok {
		return sim.Report{Actor: inf.actor(), Models: "processDeltas", Summary: sim.Text("nothing to process")}
	}
	// This step runs for every change of every object, so its sentence is
	// said, not written: the first delta's form names the key, and a key
	// with one delta, the usual case, and the keys still pending fit in one
	// sentence. The first delta's sentence is the summary itself, not
	// joined to an empty one. The newest delta's object is the one the
	// step touched; applyDelta has it at hand, unwrapped from its
	// interface.
	summary, obj := inf.applyDelta(true, key, deltas[0], initial)
	for _, d := range deltas[1:] {
		var said sim.Sentence
		said, obj = inf.applyDelta(false, key, d, initial)
		summary = summary.Then(said)
	}
	var touched []sim.Ref
	if obj != nil {
		touched = inf.refs.Of(refOf(obj))
	}
	// The deltas are applied and the notifications hold their objects, not
	// the array: it can take the next key's deltas.
	inf.fifo.Recycle(deltas)
	inf.schedulePop(ctx)
	if n := inf.fifo.Len(); n > 0 {
		summary = summary.Then(sim.Say(formMorePending).With(int64(n)))
	}
	return sim.Report{Actor: inf.actor(), Models: "processDeltas", Summary: summary, Touched: touched}
}

// The sentences of what processing one delta did. The first delta of a key
// names the key ("default/web: Added → cache added, 2 handlers notified");
// the others follow it, their first string empty and their choice 0.
const (
	deltaLead = "%s%[|:] "
	notified  = "%{handler notified|handlers notified}"
)

var (
	formDeltaAdded     = &sim.Form{Text: deltaLead + "%s → cache added, " + notified}
	formDeltaUpdated   = &sim.Form{Text: deltaLead + "%s → cache updated, " + notified}
	formDeltaUnchanged = &sim.Form{Text: deltaLead + "%s → cache unchanged (resourceVersion %s), " + notified}
	formDeltaRemoved   = &sim.Form{Text: deltaLead + "Deleted → cache removed, " + notified}
	formDeltaTombstone = &sim.Form{Text: deltaLead + "Deleted (tombstone: the delete itself was never seen) → cache removed, " + notified}
	formDeltaIgnored   = &sim.Form{Text: deltaLead + "%s ignored"}
	formMorePending    = &sim.Form{Text: " (%{more key|more keys} pending)"}
)

func init() {
	sim.Register(
		formDeltaAdded,
		formDeltaUpdated,
		formDeltaUnchanged,
		formDeltaRemoved,
		formDeltaTombstone,
		formDeltaIgnored,
		formMorePending,
	)
}

// applyDelta updates the cache for one delta of key and queues the handler
// notifications, and says what it did; the first delta's sentence names the
// key. The key is the one the DeltaFIFO queued the delta under, so the cache
// is not asked to work it out from the object again (a new string each
// time). It also returns the delta's object, a tombstone's unwrapped.
func (inf *Informer) applyDelta(first bool, key string, d Delta, initial bool) (sim.Sentence, api.Object) {
	lead, colon := "", int64(0)
	if first {
		lead, colon = key, 1
	}
	switch d.Type {
	case Added, Updated, Replaced, Sync:
		obj := d.Object.(api.Object)
		old, exists := inf.ix.put(key, obj)
		if exists {
			rv := obj.Meta().ResourceVersion
			sync := old.Meta().ResourceVersion == rv
			n := int64(inf.distribute(notification{kind: notifyUpdate, old: old, obj: obj}, sync))
			if sync {
				return sim.Say(formDeltaUnchanged, lead, string(d.Type), rv).With(colon, n), obj
			}
			return sim.Say(formDeltaUpdated, lead, string(d.Type)).With(colon, n), obj
		}
		n := int64(inf.distribute(notification{kind: notifyAdd, obj: obj, initial: initial}, false))
		return sim.Say(formDeltaAdded, lead, string(d.Type)).With(colon, n), obj
	case Deleted:
		inf.ix.DeleteKey(key)
		n := int64(inf.distribute(notification{kind: notifyDelete, obj: d.Object}, false))
		if tomb, ok := d.Object.(DeletedFinalStateUnknown); ok {
			return sim.Say(formDeltaTombstone, lead).With(colon, n), tomb.Obj
		}
		return sim.Say(formDeltaRemoved, lead).With(colon, n), objectOf(d.Object)
	}
	return sim.Say(formDeltaIgnored, lead, string(d.Type)).With(colon), objectOf(d.Object)
}

// distribute hands a notification to every listener, or, for a resync-style
// update (same resourceVersion), only to those currently syncing. It returns
// how many got it.
func (inf *Informer) distribute(n notification, sync bool) int {
	count := 0
	for i, l := range inf.listeners {
		if (sync && !l.syncing) || !l.wants(n.kind) {
			continue
		}
		inf.notifyOne(i, n)
		count++
	}
	return count
}

func (inf *Informer) notifyOne(i int, n notification) {
	l := inf.listeners[i]
	l.buffer.push(n)
	if !l.scheduled {
		l.scheduled = true
		inf.sch.After(0, inf.cfg.Name, eventNotify, l.id)
	}
}

// notify delivers one buffered notification to one handler. Its report is
// a named result, as deliver's is, so that it is not copied once more.
func (inf *Informer) notify(ctx *sim.Context, i int) (rep sim.Report) {
	l := inf.listeners[i]
	l.scheduled = false
	if l.buffer.len() == 0 {
		return sim.Report{Actor: l.handler.Name, Summary: sim.Text("no notification waiting")}
	}
	n := l.buffer.pop()
	if l.buffer.len() > 0 {
		l.scheduled = true
		ctx.After(0, inf.cfg.Name, eventNotify, l.id)
	}
	rep = l.deliver(n)
	if rep.Models == "" {
		rep.Models = "processorListener.run"
	}
	return rep
}

// armResync (re)computes the resync check period, the smallest handler period,
// and arms the timer if one is needed and none is armed.
func (inf *Informer) armResync() {
	inf.resyncCheck = 0
	for _, l := range inf.listeners {
		if l.resyncPeriod > 0 && (inf.resyncCheck == 0 || l.resyncPeriod < inf.resyncCheck) {
			inf.resyncCheck = l.resyncPeriod
		}
	}
	if inf.resyncCheck > 0 && !inf.resyncArmed {
		inf.resyncArmed = true
		inf.resyncSeq = inf.sch.Background(inf.resyncCheck, inf.cfg.Name, eventResync, nil)
	}
}

// resync is the reflector's resync timer: every listener whose period is due
// becomes syncing, and if any is, every cached key without pending deltas is
// queued again as a Sync.
func (inf *Informer) resync(ctx *sim.Context) sim.Report {
	inf.resyncArmed = false
	due := 0
	now := ctx.Now()
	for _, l := range inf.listeners {
		l.syncing = l.shouldResync(now)
		if l.syncing {
			due++
			l.nextResync = now + l.resyncPeriod
		}
	}
	inf.armResync()
	if due == 0 {
		return sim.Report{Actor: inf.actor(), Models: "sharedProcessor.shouldResync", Summary: sim.Text("resync check: no handler is due")}
	}
	n := inf.fifo.Resync()
	inf.schedulePop(ctx)
	return sim.Report{Actor: inf.actor(), Models: "DeltaFIFO.Resync",
		Summary: sim.Say(formResync).With(int64(due), int64(n))}
}

var formResync = &sim.Form{Text: "resync: %d handlers due; %d cached objects queued again as Sync"}

func init() { sim.Register(formResync) }

// Describe says what a pending informer event will do, for the agenda view.
func (inf *Informer) Describe(ev sim.Event) string {
	switch ev.Kind {
	case apistore.EventResponse:
		return "answer to " + ev.Data.(*apistore.Reply).Request.String() + " reaches " + inf.cfg.Name
	case apistore.EventWatch, eventDelayedWatch:
		d := ev.Data.(*apistore.WatchDelivery)
		return string(d.Event.Type) + " " + refOf(d.Event.Object).String() + " reaches " + inf.cfg.Name
	case eventPop:
		return inf.cfg.Name + " processes the next key's deltas"
	case eventNotify:
		return inf.cfg.Name + " calls handler " + inf.listeners[ev.Data.(int)].handler.Name
	case eventResync:
		return inf.cfg.Name + " checks for due resyncs"
	case eventRelist, eventHealWithRelist:
		return inf.cfg.Name + " lists " + inf.resource() + " again"
	case eventWatchClosed:
		return inf.cfg.Name + " notices its watch closed"
	case eventWatchExpired:
		return inf.cfg.Name + " notices its watch expired"
	}
	return inf.cfg.Name + ": " + ev.Kind
}

func refOf(obj api.Object) sim.Ref {
	if obj == nil {
		return sim.Ref{}
	}
	m := obj.Meta()
	return sim.Ref{Kind: api.ShortName(obj.Kind()), Namespace: m.Namespace, Name: m.Name}
}

// Lister reads an informer's cache, as client-go's generated listers do.
type Lister struct{ ix *Indexer }

// List returns the cached objects in namespace ("" for all) that sel matches.
func (l Lister) List(namespace string, sel labels.Selector) []api.Object {
	return l.ix.ListSelected(namespace, sel)
}

// Get returns the cached object namespace/name.
func (l Lister) Get(namespace, name string) (api.Object, bool) {
	obj, _, ok := l.ix.GetNamed(namespace, name)
	return obj, ok
}

// Namespace narrows the lister to one namespace, as a generated lister's
// Pods(ns) does: lister.Namespace("default").List(sel).
func (l Lister) Namespace(namespace string) NamespaceLister {
	return NamespaceLister{ix: l.ix, namespace: namespace}
}

// NamespaceLister reads one namespace of an informer's cache.
type NamespaceLister struct {
	ix        *Indexer
	namespace string
}

// List returns the cached objects of the namespace that sel matches.
func (l NamespaceLister) List(sel labels.Selector) []api.Object {
	return l.ix.ListSelected(l.namespace, sel)
}

// Get returns the cached object of the namespace with this name.
func (l NamespaceLister) Get(name string) (api.Object, bool) {
	obj, _, ok := l.ix.GetNamed(l.namespace, name)
	return obj, ok
}

var (
	_ sim.Component   = (*Informer)(nil)
	_ sim.Describer   = (*Informer)(nil)
	_ sim.Snapshotter = (*Informer)(nil)
)
