package informer

import (
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sim"
)

// Handler receives an informer's notifications, as client-go's
// ResourceEventHandlerFuncs do. Each function returns a sim.Report saying what
// it did (which key it enqueued and why), because every handler call is a step
// a learner can see; a nil function ignores its notifications.
type Handler struct {
	// Name identifies the handler in traces ("rs-controller"); it is the step's
	// actor unless the function's Report names another.
	Name string

	// OnAdd is called for an object the cache did not hold. isInInitialList is
	// true for objects of the informer's first list, and for everything a
	// handler added late is told about.
	OnAdd func(obj api.Object, isInInitialList bool) sim.Report

	// OnUpdate is called for an object the cache held. old and cur may have the
	// same resourceVersion: that is a resync, or a relist that found nothing new.
	OnUpdate func(old, cur api.Object) sim.Report

	// OnDelete is called with the last state of a deleted object: an api.Object,
	// or a DeletedFinalStateUnknown tombstone when the deletion was only noticed
	// by a relist.
	OnDelete func(obj any) sim.Report

	// SkipUnhandled drops the notifications the handler has no function for
	// before they are delivered, so that they cost no step. Upstream
	// delivers them to a handler that does nothing with them; a handler that
	// only cares about deletions (the Deployment controller's pod handler)
	// would otherwise show the learner a step for every pod added or
	// changed. The handler's "handlers notified" counts leave it out too.
	SkipUnhandled bool

	// ResyncPeriod asks for every cached object to be handed over again, as an
	// update with an unchanged resourceVersion, this often. 0 means never; a
	// period below one second is raised to one second, as upstream does.
	ResyncPeriod time.Duration

	// StartStep, when set, is called when a step of the informer's starts,
	// before the step runs: the hook of sim.StepStarter for a handler, whose
	// calls run in the informer's steps rather than in its own component's.
	// A handler that reports lists from a sim.Arena reuses the arena there.
	// Its own component's steps come seldom while an informer delivers a
	// burst of changes (a controller's workers wait for the burst to end),
	// and without the hook the handler's lists took fresh chunks all along:
	// 6% of the bytes a world of 10 ReplicaSets of 1,000 pods allocated.
	StartStep func()
}

// MinimumResyncPeriod is the shortest resync period a handler can have.
const MinimumResyncPeriod = time.Second

type notificationKind uint8

const (
	notifyAdd notificationKind = iota + 1
	notifyUpdate
	notifyDelete
)

// notification is one handler call waiting in a listener's buffer.
type notification struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	kind    notificationKind
	old     api.Object
	obj     any // api.Object, or a tombstone for a delete
	initial bool
}

// listener is client-go's processorListener: one handler with its own buffer
// of notifications, delivered one kernel event at a time and in order. A slow
// handler delays only its own buffer.
type listener struct {
	handler Handler

	// id is the listener's number, the data of its delivery events, put in
	// an interface once rather than at every event scheduled.
	id any

	// buffer holds the notifications not yet delivered, oldest first.
	buffer queue[notification]

	// scheduled is set while a delivery event for this listener is on the
	// agenda; only one is ever pending.
	scheduled bool

	// syncing says whether resync-style updates (same resourceVersion) reach
	// this handler. It starts true and is recomputed at every resync check, as
	// upstream's sharedProcessor does; with resync off it therefore stays true,
	// so a relist's unchanged objects reach every handler.
	syncing bool

	// dormant is set while the handler sleeps (see
	// Informer.AddDormantEventHandler): it hears nothing.
	dormant bool

	// resyncPeriod is the handler's effective period (0 = never), and
	// nextResync when it is next due.
	resyncPeriod time.Duration
	nextResync   time.Duration
}

// wants says whether the listener is to hear a notification of this kind:
// it is awake, and it either handles the kind or does not ask for unhandled
// notifications to be skipped.
func (l *listener) wants(kind notificationKind) bool {
	if l.dormant {
		return false
	}
	if !l.handler.SkipUnhandled {
		return true
	}
	switch kind {
	case notifyAdd:
		return l.handler.OnAdd != nil
	case notifyUpdate:
		return l.handler.OnUpdate != nil
	}
	return l.handler.OnDelete != nil
}

func (l *listener) shouldResync(now time.Duration) bool {
	if l.resyncPeriod == 0 {
		return false
	}
	return now >= l.nextResync
}

func (l *listener) cloneState() listener {
	c := *l
	c.buffer = l.buffer.clone()
	return c
}

// deliver calls the handler for one notification and returns its report.
// The report is a named result, so that the handler's is copied straight
// into it: a report of its own was zeroed, filled and copied out again, 176
// bytes each time, at every handler call.
func (l *listener) deliver(n notification) (rep sim.Report) {
	switch n.kind {
	case notifyAdd:
		if l.handler.OnAdd != nil {
			rep = l.handler.OnAdd(n.obj.(api.Object), n.initial)
		} else {
			rep.Summary = sim.Say(formIgnoredNotification, "add", KeyOf(n.obj))
		}
	case notifyUpdate:
		if l.handler.OnUpdate != nil {
			rep = l.handler.OnUpdate(n.old, n.obj.(api.Object))
		} else {
			rep.Summary = sim.Say(formIgnoredNotification, "update", KeyOf(n.obj))
		}
	case notifyDelete:
		if l.handler.OnDelete != nil {
			rep = l.handler.OnDelete(n.obj)
		} else {
			rep.Summary = sim.Say(formIgnoredNotification, "delete", KeyOf(n.obj))
		}
	}
	if rep.Actor == "" {
		rep.Actor = l.handler.Name
	}
	return rep
}

// The sentences of a notification no handler function takes.
var (
	formIgnoredNotification = &sim.Form{Text: "ignored %s of %s"}
	formFilteredOut         = &sim.Form{Text: "filtered out %s of %s"}
)

func init() { sim.Register(formIgnoredNotification, formFilteredOut) }

// FilteringHandler wraps h so that it only hears about objects filter
// accepts, as client-go's FilteringResourceEventHandler does. An update whose
// object enters the filter becomes an add, and one whose object leaves it
// becomes a delete (of the old object); an update outside the filter both
// before and after is dropped.
func FilteringHandler(filter func(obj api.Object) bool, h Handler) Handler {
	skipped := func(what string, obj any) sim.Report {
		return sim.Report{Actor: h.Name, Models: "FilteringResourceEventHandler", Summary: sim.Say(formFilteredOut, what, KeyOf(obj))}
	}
	out := h
	out.OnAdd = func(obj api.Object, initial bool) sim.Report {
		if !filter(obj) || h.OnAdd == nil {
			return skipped("add", obj)
		}
		return h.OnAdd(obj, initial)
	}
	out.OnUpdate = func(old, cur api.Object) sim.Report {
		was, is := filter(old), filter(cur)
		switch {
		case was && is && h.OnUpdate != nil:
			return h.OnUpdate(old, cur)
		case !was && is && h.OnAdd != nil:
			return h.OnAdd(cur, false)
		case was && !is && h.OnDelete != nil:
			return h.OnDelete(old)
		}
		return skipped("update", cur)
	}
	out.OnDelete = func(obj any) sim.Report {
		if o := objectOf(obj); o == nil || !filter(o) || h.OnDelete == nil {
			return skipped("delete", obj)
		}
		return h.OnDelete(obj)
	}
	return out
}
