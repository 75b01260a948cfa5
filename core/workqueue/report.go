package workqueue

import (
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/sim"
)

// This file turns the queue's state into words for reports and views. Nothing
// here runs on the Add/Get/Done path: text is only built when the kernel asks
// a component what it did.

// touched names the object a key stands for, so that the page can highlight
// it. Only the keys of a queue with a Kind name objects.
func (q *Queue) touched(key string) []sim.Ref {
	if q.kind == "" {
		return nil
	}
	ns, name, found := strings.Cut(key, "/")
	if !found {
		// A cluster-scoped object's key is its bare name.
		ns, name = "", key
	}
	return []sim.Ref{{Kind: q.kind, Namespace: ns, Name: name}}
}

// waitText says what a delay was: "20ms back-off" when a rate limiter chose
// it, "1s delay" when the caller of AddAfter did.
func waitText(delay time.Duration, rateLimited bool) string {
	if rateLimited {
		return delay.String() + " back-off"
	}
	return delay.String() + " delay"
}

// The sentences of a delayed key falling due.
var (
	formDue             = &sim.Form{Text: "%s is due after its %D %[delay|back-off]; "}
	formDueQueued       = &sim.Form{Text: "added to the queue (now %d waiting)"}
	formDueWaking       = &sim.Form{Text: "added to the queue (now %d waiting), waking %s"}
	formDueWaiting      = &sim.Form{Text: "it is already waiting in the queue and keeps its place (%d waiting)"}
	formDueHeld         = &sim.Form{Text: "%s is still processing it, so it is marked dirty and goes back in the queue at Done"}
	formDueAlreadyDirty = &sim.Form{Text: "%s is still processing it and it is already marked dirty; nothing changes"}
	formDueDropped      = &sim.Form{Text: "the queue is shutting down, so it is dropped"}
)

func init() {
	sim.Register(
		formDue,
		formDueQueued,
		formDueWaking,
		formDueWaiting,
		formDueHeld,
		formDueAlreadyDirty,
		formDueDropped,
	)
}

// dueSummary is the sentence for the step that moves a due key into the
// queue: "default/web is due after its 20ms back-off; added to the queue (now
// 2 waiting), waking worker-1".
func (q *Queue) dueSummary(w waitFor, out Outcome, woken string) sim.Sentence {
	rateLimited := int64(0)
	if w.rateLimited {
		rateLimited = 1
	}
	lead := sim.Say(formDue, w.key).With(int64(w.delay), rateLimited)
	waiting := int64(q.queue.len())
	switch out {
	case Queued:
		if woken != "" {
			return lead.Then(sim.Say(formDueWaking, woken).With(waiting))
		}
		return lead.Then(sim.Say(formDueQueued).With(waiting))
	case AlreadyWaiting:
		return lead.Then(sim.Say(formDueWaiting).With(waiting))
	case RequeueAtDone:
		return lead.Then(sim.Say(formDueHeld, q.holderText(w.key)))
	case AlreadyRequeueAtDone:
		return lead.Then(sim.Say(formDueAlreadyDirty, q.holderText(w.key)))
	}
	return lead.Then(sim.Say(formDueDropped))
}

// holderText names the worker processing key, or says "a worker" when the
// key was taken by an anonymous Get.
func (q *Queue) holderText(key string) string {
	if r, _, ok := q.table.find(key); ok && q.table.worker[r] != "" {
		return q.table.worker[r]
	}
	return "a worker"
}

func itoa(n int) string { return strconv.Itoa(n) }
