package gc

import (
	"slices"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/cow"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/workqueue"
)

// Defaults.
const (
	// DefaultName is the component name of a collector whose Config names
	// none.
	DefaultName = "garbage-collector"
	// DefaultActor is the trace's actor column for the collector's steps.
	DefaultActor = "gc"
	// RelistBackoff is the base wait before a monitor lists again after its
	// list or watch failed (the reflector's 800ms, with up to 100% jitter).
	RelistBackoff = 800 * time.Millisecond
	// AbsentOwnerCacheSize is how many owners known to be gone the
	// collector remembers (upstream's absentOwnerCache holds 500).
	AbsentOwnerCacheSize = 500
	// conflictRetries is how many times removeFinalizer reads and patches
	// the owner when its patch meets a conflict (retry.DefaultBackoff:
	// 4 steps, 10ms growing fivefold, 10% jitter).
	conflictRetries = 4
	conflictBackoff = 10 * time.Millisecond
)

// The event kinds the collector handles, besides the API server's responses
// and watch deliveries.
const (
	eventStart = "start"
	// eventOrphan: the attemptToOrphan worker takes an owner; Data is its
	// uid.
	eventOrphan = "orphan"
	// eventRelist: a monitor's back-off is over; Data is the monitor index.
	eventRelist = "relist"
	// eventWork: the attemptToDelete worker takes the next dependent.
	eventWork = "work"
	// eventRetryDependent: a dependent's back-off is over; Data is its uid.
	eventRetryDependent = "retry-dependent"
	// eventRetryOwner: an owner's back-off is over; Data is its uid.
	eventRetryOwner = "retry-owner"
	// eventRetryFinalizer: removeFinalizer's conflict back-off is over;
	// Data is the owner's uid.
	eventRetryFinalizer = "retry-finalizer"
	// eventRetryForeground: the conflict back-off of removeFinalizer for an
	// owner deleting its dependents in the foreground is over (the
	// attemptToDelete worker holds it meanwhile); Data is its uid.
	eventRetryForeground = "retry-foreground"
	// eventFollow: the collector starts following more kinds (Follow);
	// Data is the []int of the monitors to list.
	eventFollow = "follow"
)

// Followed is a kind the collector follows, and what it follows it for.
type Followed struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Kind api.Kind
	// Owner: the collector acts on the deletion of its objects, deleting
	// their dependents (in the background or the foreground) or orphaning
	// them.
	Owner bool
	// Dependent: its objects are kept in the graph with their owner
	// references, and are collected when their owners go.
	Dependent bool
}

// DefaultKinds is the table of the kinds a collector whose Config names none
// follows, one monitor each, in this order. A kind may be both an owner and
// a dependent: a ReplicaSet a Deployment owns is deleted when the Deployment
// goes, and its pods after it. Following another kind is one line here.
var DefaultKinds = []Followed{
	{Kind: api.KindReplicaSet, Owner: true},
	{Kind: api.KindReplicationController, Owner: true},
	{Kind: api.KindPod, Dependent: true},
}

// DeploymentKinds are what the collector follows once Deployments exist
// (see Follow): Deployments as owners, and ReplicaSets, already followed as
// owners, as dependents too, so that deleting a Deployment deletes its
// ReplicaSets, and they their pods.
var DeploymentKinds = []Followed{
	{Kind: api.KindDeployment, Owner: true},
	{Kind: api.KindReplicaSet, Owner: true, Dependent: true},
}

// Config describes the collector. Zero values mean the documented defaults.
type Config struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// Name is the kernel component name (default "garbage-collector").
	Name string
	// Actor is the trace's actor column (default "gc").
	Actor string
	// Server is the API server the collector talks to.
	Server *apistore.Server
	// Kinds are the kinds the collector follows (default DefaultKinds).
	Kinds []Followed
}

func (c Config) withDefaults() Config {
	if c.Name == "" {
		c.Name = DefaultName
	}
	if c.Actor == "" {
		c.Actor = DefaultActor
	}
	if len(c.Kinds) == 0 {
		c.Kinds = DefaultKinds
	}
	return c
}

// GarbageCollector is the garbage collector as one kernel component: monitors
// that follow the owner kinds and the dependent kinds, the graph of owners
// and dependents they build, the orphaning of an owner's dependents when it
// is deleted with the orphan finalizer, and the attemptToDelete worker that
// deletes (or unlinks) the dependents of an owner that is gone.
type GarbageCollector struct {
	cfg Config
	sch sim.Scheduler

	// refs holds the Touched lists of its reports (see sim.RefArena).
	refs sim.RefArena

	// monitors follow the kinds, one each, in Config order.
	monitors []monitor

	// owners maps the uid of every owner the monitors know alive to it.
	// When ownersShared is set, a snapshot shares the map, and the first
	// change after clones it (see writableOwners): the page's snapshots
	// cloned a thousand owners each, though owners seldom change.
	owners       map[string]ownerRef
	ownersShared bool
	// deleting are the uids of the owners known alive that are deleting
	// their dependents in the foreground (upstream's deletingDependents
	// nodes), in the order the collector saw them start: each stays until
	// no dependent with blockOwnerDeletion names it any more.
	deleting []string
	// nodes maps the uid of every object of a dependent kind the monitors
	// know to it, as last seen. Snapshots share it, part by part (see
	// nodeSet): cloning a thousand nodes at every snapshot and every
	// restore, whether or not the graph changes before the next, made seeks
	// slow.
	nodes nodeSet
	// dependents maps an owner's uid to the objects in nodes whose
	// ownerReferences name it (their kind, namespace, name and uid, which
	// never change), in that order. The owner need not be known: upstream
	// keeps a virtual node for it. Only link and unlink change them, in
	// depEpoch: snapshots share the lists, which copy what they share
	// before they change it (see depList).
	dependents map[string]depList
	// depEpoch is the epoch of the lists in dependents, begun anew by every
	// snapshot and restore.
	depEpoch cow.Epoch
	// deletedOwners are the uids of owners seen deleted (or gone from a
	// list), oldest first, at most AbsentOwnerCacheSize: a dependent naming
	// one that shows up later is checked at once.
	deletedOwners []string
	// orphaned maps the uid of each owner whose dependents were orphaned and
	// whose orphan finalizer was removed to the uids of the dependents
	// orphaned: when the owner goes, the dependents that still name it are
	// collected, those orphaned (adopted back, or the graph behind the
	// orphaning patch) after a live read. An entry is dropped when the
	// owner's removal is seen.
	orphaned map[string][]string

	// tasks are the owners whose dependents are being orphaned, by uid;
	// taskOrder lists their uids in the order they started.
	tasks     map[string]*ownerTask
	taskOrder []string
	// ownerLimiter spaces the retries of owner tasks (upstream's
	// attemptToOrphan queue limiter).
	ownerLimiter *workqueue.MaxOfRateLimiter

	// deps are the dependents waiting in or held by the attemptToDelete
	// queue, by uid. queue lists the uids ready for the worker, oldest
	// first; current is the uid the worker holds ("" when idle).
	deps          map[string]*dependent
	queue         []string
	current       string
	workScheduled bool
	// depLimiter spaces the retries of dependents (upstream's
	// attemptToDelete queue limiter).
	depLimiter *workqueue.MaxOfRateLimiter

	// absent is upstream's absentOwnerCache: uids of owners known to be
	// gone, least recently used first, at most AbsentOwnerCacheSize.
	absent []string

	// requests maps the ID of every request in flight to what it is for.
	requests map[uint64]pending

	stats Stats
}

// Stats count the collector's work.
type Stats struct {
	// Deleted counts dependents deleted; Unlinked, dependents that only lost
	// their reference to a gone owner; Orphaned, dependents orphaned.
	Deleted, Unlinked, Orphaned int
	// Errors counts failed requests that led to a retry.
	Errors int
}

// ownerRef names an owner.
type ownerRef struct {
	// Never compared with ==: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	// The two places that compare owners call sameOwner.
	_ [0]func()

	Kind       api.Kind
	Namespace  string
	Name       string
	UID        string
	APIVersion string
}

// sameOwner reports whether two owners are named alike in every field.
func sameOwner(a, b ownerRef) bool {
	return a.UID == b.UID && a.Name == b.Name && a.Namespace == b.Namespace && a.Kind == b.Kind && a.APIVersion == b.APIVersion
}

func ownerOf(obj api.Object) ownerRef {
	m := obj.Meta()
	return ownerRef{Kind: obj.Kind(), Namespace: m.Namespace, Name: m.Name, UID: m.UID, APIVersion: obj.Kind().APIVersion()}
}

func (o ownerRef) ref() sim.Ref {
	return sim.Ref{Kind: api.ShortName(o.Kind), Namespace: o.Namespace, Name: o.Name}
}

func (o ownerRef) String() string { return o.ref().String() }

// pending is what a request in flight is for.
type pending struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	purpose purpose
	// monitor is the monitor index, for a monitor's list and watch.
	monitor int
	// uid is the owner's or the dependent's uid.
	uid string
	// kind is the kind of the object patched.
	kind api.Kind
	// name is the dependent an orphaning patch is for.
	name string
}

type purpose uint8

const (
	listMonitor purpose = iota + 1
	watchMonitor
	orphanPatch
	getOwnerForFinalizer
	removeFinalizerPatch
	getDependent
	getOwner
	deleteDependent
	unlinkDependent
	// getForegroundOwner and removeForegroundFinalizer are removeFinalizer's
	// read and patch for an owner deleting its dependents in the
	// foreground, sent by the attemptToDelete worker.
	getForegroundOwner
	removeForegroundFinalizer
)

// New returns a collector that uses sch (the kernel) for its rate limiters'
// clock. Register it with the kernel under Name(), then call Start.
func New(cfg Config, sch sim.Scheduler) *GarbageCollector {
	cfg = cfg.withDefaults()
	g := &GarbageCollector{
		cfg:          cfg,
		sch:          sch,
		owners:       map[string]ownerRef{},
		dependents:   map[string]depList{},
		orphaned:     map[string][]string{},
		tasks:        map[string]*ownerTask{},
		deps:         map[string]*dependent{},
		requests:     map[uint64]pending{},
		ownerLimiter: workqueue.DefaultControllerRateLimiter(sch),
		depLimiter:   workqueue.DefaultControllerRateLimiter(sch),
	}
	for _, k := range cfg.Kinds {
		g.monitors = append(g.monitors, newMonitor(k))
	}
	return g
}

// Name returns the component name.
func (g *GarbageCollector) Name() string { return g.cfg.Name }

// Stats returns the counters.
func (g *GarbageCollector) Stats() Stats { return g.stats }

// Start schedules the monitors' first lists.
func (g *GarbageCollector) Start() {
	g.sch.After(0, g.cfg.Name, eventStart, nil)
}

// StartStep reuses the collector's arena: the lists of its last step are
// dead (sim.Arena).
func (g *GarbageCollector) StartStep() { g.refs.Reuse() }

// Handle runs one of the collector's steps.
func (g *GarbageCollector) Handle(ctx *sim.Context, ev sim.Event) sim.Report {
	switch ev.Kind {
	case eventStart:
		return g.start(ctx)
	case apistore.EventResponse:
		return g.response(ctx, ev.Data.(*apistore.Reply))
	case apistore.EventWatch:
		return g.watchEvent(ctx, *ev.Data.(*apistore.WatchDelivery))
	case eventFollow:
		return g.follow(ctx, ev.Data.([]int))
	case eventRelist:
		i := ev.Data.(int)
		g.list(ctx, i)
		return g.report("Reflector.list", sim.Say(formListAgain, g.monitors[i].kind.Resource()))
	case eventOrphan:
		return g.orphanOwner(ctx, ev.Data.(string))
	case eventWork:
		return g.work(ctx)
	case eventRetryDependent:
		return g.retryDependent(ctx, ev.Data.(string))
	case eventRetryOwner:
		return g.retryOwner(ctx, ev.Data.(string))
	case eventRetryFinalizer:
		return g.retryFinalizer(ctx, ev.Data.(string))
	case eventRetryForeground:
		return g.retryForegroundFinalizer(ctx, ev.Data.(string))
	}
	return g.report("", sim.Say(formIgnoredEvent, ev.Kind))
}

// The sentences of the collector's own steps that are not about one object.
var (
	formListAgain    = &sim.Form{Text: "back-off over: listing %s again"}
	formIgnoredEvent = &sim.Form{Text: "ignored unknown event %q"}
	formAbandoned    = &sim.Form{Text: "ignored the answer to an abandoned %s request"}
	formUnexpected   = &sim.Form{Text: "ignored an answer it did not expect: %s"}
	formBackOff      = &sim.Form{Text: "%s; listing %s again after a back-off of %D"}
	formWatchOpen    = &sim.Form{Text: "watch of %s open from resourceVersion %u"}
	formWatchRelist  = &sim.Form{Text: "; closed it to list %s again, now that they are followed as %s"}
	formListed       = &sim.Form{Text: "listed %d %s at resourceVersion %u%s; watching from there"}
	formNote         = &sim.Form{Text: "; %s"}
)

func init() {
	sim.Register(
		formListAgain,
		formIgnoredEvent,
		formAbandoned,
		formUnexpected,
		formBackOff,
		formWatchOpen,
		formWatchRelist,
		formListed,
		formNote,
	)
}

func (g *GarbageCollector) response(ctx *sim.Context, reply *apistore.Reply) sim.Report {
	p, ok := g.requests[reply.ID]
	if !ok {
		return g.report("", sim.Say(formAbandoned, string(reply.Request.Verb)))
	}
	delete(g.requests, reply.ID)
	switch p.purpose {
	case listMonitor:
		return g.listed(ctx, p.monitor, reply)
	case watchMonitor:
		return g.watchOpened(ctx, p.monitor, reply)
	case orphanPatch:
		return g.orphanPatched(ctx, p, reply)
	case getOwnerForFinalizer:
		return g.ownerReadForFinalizer(ctx, p, reply)
	case removeFinalizerPatch:
		return g.finalizerRemoved(ctx, p, reply)
	case getDependent:
		return g.dependentRead(ctx, p, reply)
	case getOwner:
		return g.ownerRead(ctx, p, reply)
	case deleteDependent, unlinkDependent:
		return g.dependentWritten(ctx, p, reply)
	case getForegroundOwner:
		return g.foregroundOwnerRead(ctx, p, reply)
	case removeForegroundFinalizer:
		return g.foregroundFinalizerRemoved(ctx, p, reply)
	}
	return g.report("", sim.Say(formUnexpected, reply.Request.String()))
}

// send issues a request and remembers what it is for.
func (g *GarbageCollector) send(ctx *sim.Context, req apistore.Request, p pending) {
	id := g.cfg.Server.Send(ctx, g.cfg.Name, req)
	g.requests[id] = p
}

// report is the collector's step. The steps that handle a change of an
// object in the graph, one per change of every object, say their sentences
// (graph.go, monitor.go); the collector's work on one dependent or owner
// (attemptToDelete, orphaning, deletion in the foreground) names two or
// three objects and lists of them in each sentence, more facts than a
// sentence holds, and writes its sentences as it always did (reportText).
func (g *GarbageCollector) report(models string, summary sim.Sentence, touched ...sim.Ref) sim.Report {
	return sim.Report{Actor: g.cfg.Actor, Models: models, Summary: summary, Touched: g.refs.Of(touched...)}
}

// reportText is report for a sentence written out already.
func (g *GarbageCollector) reportText(models, summary string, touched ...sim.Ref) sim.Report {
	return g.report(models, sim.Text(summary), touched...)
}

// Describe says what a pending collector event will do, for the agenda view.
func (g *GarbageCollector) Describe(ev sim.Event) string {
	switch ev.Kind {
	case eventStart:
		return g.cfg.Name + " starts its monitors"
	case apistore.EventResponse:
		return "answer to " + ev.Data.(*apistore.Reply).Request.String() + " reaches " + g.cfg.Name
	case apistore.EventWatch:
		d := *ev.Data.(*apistore.WatchDelivery)
		m := d.Event.Object.Meta()
		return string(d.Event.Type) + " " + api.ShortName(d.Event.Object.Kind()) + "/" + m.Name + " reaches " + g.cfg.Name
	case eventRelist:
		return g.cfg.Name + " lists " + g.monitors[ev.Data.(int)].kind.Resource() + " again"
	case eventOrphan:
		if t := g.tasks[ev.Data.(string)]; t != nil {
			return g.cfg.Name + " takes " + t.owner.String() + " to orphan its dependents"
		}
	case eventWork:
		return g.cfg.Name + " takes the next dependent to attemptToDeleteItem"
	case eventRetryForeground:
		if d := g.deps[ev.Data.(string)]; d != nil {
			return g.cfg.Name + " reads " + d.String() + " again to remove its foregroundDeletion finalizer"
		}
	case eventRetryDependent:
		if d := g.deps[ev.Data.(string)]; d != nil {
			return g.cfg.Name + " retries " + d.String()
		}
	case eventRetryOwner, eventRetryFinalizer:
		if t := g.tasks[ev.Data.(string)]; t != nil {
			return g.cfg.Name + " retries " + t.owner.String()
		}
	}
	return g.cfg.Name + ": " + ev.Kind
}

// absentHas reports whether uid is in the absentOwnerCache, and marks it as
// just used.
func (g *GarbageCollector) absentHas(uid string) bool {
	i := slices.Index(g.absent, uid)
	if i < 0 {
		return false
	}
	g.absent = append(slices.Delete(slices.Clone(g.absent), i, i+1), uid)
	return true
}

// absentAdd records that the owner with uid is gone.
func (g *GarbageCollector) absentAdd(uid string) {
	if g.absentHas(uid) {
		return
	}
	next := append(slices.Clip(g.absent), uid)
	if len(next) > AbsentOwnerCacheSize {
		next = next[len(next)-AbsentOwnerCacheSize:]
	}
	g.absent = next
}

func hasFinalizer(m *api.ObjectMeta, f string) bool { return slices.Contains(m.Finalizers, f) }

func plural(n int, one, many string) string { return sim.Count(n, one, many) }

var (
	_ sim.Component   = (*GarbageCollector)(nil)
	_ sim.Snapshotter = (*GarbageCollector)(nil)
	_ sim.Describer   = (*GarbageCollector)(nil)
)
