package loop

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sim"
)

// Place names one part of the loop, as the page's picture names it.
type Place string

// The places that stand alone.
const (
	Kubectl   Place = "kubectl"
	APIServer Place = "apiserver"
	Scheduler Place = "scheduler"
	Kubelet   Place = "kubelet"
	GC        Place = "gc"
	Events    Place = "events"
)

// The parts of an informer and of a controller. Their places are the
// informer's component name ("informer/pods") or the controller's short name
// ("rs"), a slash, and the part: "informer/pods/reflector", "rs/queue". A
// controller's sync (claim, manage, status) is named as upstream names the
// function its workers call, the controller's syncHandler
// (syncReplicaSet for both flavours).
const (
	Reflector   = "reflector"
	FIFO        = "fifo"
	Indexer     = "indexer"
	Handlers    = "handlers"
	Queue       = "queue"
	Workers     = "workers"
	SyncHandler = "syncHandler"
)

// InformerPlace is the place of one part of the informer named informer.
func InformerPlace(informer, part string) Place { return Place(informer + "/" + part) }

// ControllerPlace is the place of one part of the controller whose short
// name is short ("rs", "rc").
func ControllerPlace(short, part string) Place { return Place(short + "/" + part) }

// How a token's way went wrong.
const (
	// Dropped: a watch event lost on its way (drop watch).
	Dropped = "dropped"
	// Delayed: a watch event held back on its way (delay watch).
	Delayed = "delayed"
	// Failed: a request the API server refused; its answer bounces back.
	Failed = "failed"
)

// Move is one step on the picture of the loop.
type Move struct {
	// Lit are the places the step happens in, the main one first.
	Lit []Place
	// From and To are the edge the step's data travelled along; both are
	// empty when nothing travelled (a timer fired, a worker found the
	// queue empty).
	From, To Place
	// Token is what travelled, in a few words: "DELETED pod/web-x",
	// "default/web", "create pods".
	Token string
	// Fault is Dropped, Delayed or Failed when the way went wrong, "" when
	// it did not.
	Fault string
}

// Of places step on the loop. ok is false when its actor or the function
// it models has no rule, or when it names a sender the loop does not know:
// the page then lights nothing, and the tests of this package fail.
func Of(step sim.StepResult) (m Move, ok bool) {
	who, ok := roleOf(step.Actor)
	if !ok {
		return Move{}, false
	}
	r, ok := rules[ruleKey{who.role, step.Models}]
	if !ok {
		return Move{}, false
	}
	return r(&step, who)
}

// controllerNames are the names one replication manager's parts run under,
// as core/controller names them.
type controllerNames struct {
	short   string // the places' prefix, and of the handler and worker actors
	manager string // the manager's component, which starts the workers
	queue   string // the delaying queue's component
	events  string // its event recorder's component
}

var controllers = []controllerNames{
	{short: "rs", manager: "replicaset-controller", queue: "queue/replicaset", events: "events/replicaset-controller"},
	{short: "rc", manager: "replication-controller", queue: "queue/replicationmanager", events: "events/replication-controller"},
	{short: "deploy", manager: "deployment-controller", queue: "queue/deployment", events: "events/deployment-controller"},
}

// role is what kind of part an actor is.
type role int

const (
	roleAPIServer role = iota
	roleKubectl
	roleInformer
	roleHandler
	roleWorker
	roleManager
	roleQueue
	roleScheduler
	roleKubelet
	roleGC
	roleEvents
)

// actor is a step's actor, understood: its role, and the informer's
// component name or the controller's short name it belongs to.
type actor struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	role role
	of   string
}

// Models lists, sorted and once each, the function names that steps give
// as what they model (sim.Report.Models) and that the loop has a rule for:
// every such name a trace can show. core/source gives each its upstream
// source.
func Models() []string {
	var names []string
	for _, k := range slices.SortedFunc(maps.Keys(rules), func(a, b ruleKey) int { return strings.Compare(a.models, b.models) }) {
		names = append(names, k.models)
	}
	return slices.Compact(names)
}

// roleOf understands an actor's name.
func roleOf(name string) (actor, bool) {
	switch {
	case name == "apiserver":
		return actor{role: roleAPIServer}, true
	case name == "kubectl":
		return actor{role: roleKubectl}, true
	case name == "scheduler":
		return actor{role: roleScheduler}, true
	case name == "kubelet" || strings.HasPrefix(name, "kubelet/"):
		return actor{role: roleKubelet}, true
	case name == "gc":
		return actor{role: roleGC}, true
	case name == "events":
		return actor{role: roleEvents}, true
	case strings.HasPrefix(name, "informer/"):
		return actor{role: roleInformer, of: name}, true
	}
	for _, c := range controllers {
		switch {
		case name == c.short+"-controller":
			return actor{role: roleHandler, of: c.short}, true
		case strings.HasPrefix(name, c.short+"-worker-"):
			return actor{role: roleWorker, of: c.short}, true
		case name == c.manager:
			return actor{role: roleManager, of: c.short}, true
		case name == c.queue:
			return actor{role: roleQueue, of: c.short}, true
		}
	}
	return actor{}, false
}

// placeOf is the place of a component that sends requests or receives
// handoffs, by its component name: a request comes from where it was
// written (a worker's request from its sync), a handoff goes to a queue.
func placeOf(component string) (Place, bool) {
	switch {
	case component == "kubectl":
		return Kubectl, true
	case component == "scheduler":
		return Scheduler, true
	case component == "kubelet" || strings.HasPrefix(component, "kubelet/"):
		return Kubelet, true
	case component == "garbage-collector" || component == "gc":
		return GC, true
	case strings.HasPrefix(component, "informer/"):
		return InformerPlace(component, Reflector), true
	}
	for _, c := range controllers {
		switch {
		case strings.HasPrefix(component, c.short+"-worker-"):
			return ControllerPlace(c.short, SyncHandler), true
		case component == c.queue:
			return ControllerPlace(c.short, Queue), true
		case component == c.events:
			return Events, true
		}
	}
	return "", false
}

// home is where an actor's own steps happen: the place an answer or a watch
// event for it arrives at.
func home(a actor) Place {
	switch a.role {
	case roleAPIServer:
		return APIServer
	case roleKubectl:
		return Kubectl
	case roleInformer:
		return InformerPlace(a.of, Reflector)
	case roleHandler:
		return "" // an event handler's place depends on its informer (notify)
	case roleWorker:
		return ControllerPlace(a.of, SyncHandler)
	case roleManager:
		return ControllerPlace(a.of, Workers)
	case roleQueue:
		return ControllerPlace(a.of, Queue)
	case roleScheduler:
		return Scheduler
	case roleKubelet:
		return Kubelet
	case roleGC:
		return GC
	}
	return Events
}

// --- The rules ----------------------------------------------------------------

// A rule places one step of an actor.
type rule func(step *sim.StepResult, a actor) (Move, bool)

type ruleKey struct {
	role   role
	models string
}

// rules is the one table that places every step: by the actor's role and the
// upstream function the step models (sim.Report.Models; "" where the step
// models none, such as an ignored event).
var rules = func() map[ruleKey]rule {
	m := make(map[ruleKey]rule, len(ruleTable))
	for _, r := range ruleTable {
		m[r.key] = r.place
	}
	return m
}()

// ruleTable holds the rules as data: the compiler lays a table of constants
// out in main.wasm's data, where a map literal of this size compiles to
// 29 KB of code that fills the map one entry at a time.
var ruleTable = [...]struct {
	key   ruleKey
	place rule
}{
	// The API server handles a request: it travelled from its sender.
	{ruleKey{roleAPIServer, "registry.Create"}, request},
	{ruleKey{roleAPIServer, "registry.Delete"}, request},
	{ruleKey{roleAPIServer, "registry.Get"}, request},
	{ruleKey{roleAPIServer, "registry.List"}, request},
	{ruleKey{roleAPIServer, "registry.Patch"}, request},
	{ruleKey{roleAPIServer, "registry.Update"}, request},
	{ruleKey{roleAPIServer, "registry.Watch"}, request},
	{ruleKey{roleAPIServer, "graceful deletion"}, arrive},

	{ruleKey{roleKubectl, "kubectl"}, arrive},
	{ruleKey{roleKubectl, "kubectl cordon"}, arrive},
	{ruleKey{roleKubectl, "kubectl uncordon"}, arrive},

	// An informer: its reflector lists and watches, its DeltaFIFO is
	// popped into the indexer and the handlers.
	{ruleKey{roleInformer, "Reflector.list"}, list},
	{ruleKey{roleInformer, "Reflector.ListAndWatch"}, arrive},
	{ruleKey{roleInformer, "Reflector.syncWith"}, arrive},
	{ruleKey{roleInformer, "Reflector.watch"}, arrive},
	{ruleKey{roleInformer, "watchHandler"}, arrive},
	{ruleKey{roleInformer, "fault: drop watch"}, arrive},
	{ruleKey{roleInformer, "fault: delay watch"}, arrive},
	{ruleKey{roleInformer, "processDeltas"}, deltas},
	{ruleKey{roleInformer, "DeltaFIFO.Resync"}, resync},
	{ruleKey{roleInformer, "sharedProcessor.shouldResync"}, resync},
	{ruleKey{roleInformer, ""}, arrive},

	// A controller: its event handlers fill the queue, its workers take
	// keys and sync them, and its manager starts the workers.
	{ruleKey{roleHandler, "addPod"}, notify},
	{ruleKey{roleHandler, "updatePod"}, notify},
	{ruleKey{roleHandler, "deletePod"}, notify},
	{ruleKey{roleHandler, "addRS"}, notify},
	{ruleKey{roleHandler, "updateRS"}, notify},
	{ruleKey{roleHandler, "deleteRS"}, notify},
	{ruleKey{roleHandler, "FilteringResourceEventHandler"}, notify},
	{ruleKey{roleHandler, ""}, notify},
	{ruleKey{roleWorker, "processNextWorkItem"}, work},
	{ruleKey{roleWorker, "syncReplicaSet"}, work},
	{ruleKey{roleWorker, "claimPods"}, work},
	{ruleKey{roleWorker, "manageReplicas"}, work},
	{ruleKey{roleWorker, "slowStartBatch"}, work},
	{ruleKey{roleWorker, "updateReplicaSetStatus"}, work},
	{ruleKey{roleWorker, ""}, work},
	{ruleKey{roleManager, "Run"}, arrive},

	// The Deployment controller's handlers and sync: the same parts as the
	// replication manager's, with upstream's names for its steps.
	{ruleKey{roleHandler, "addDeployment"}, notify},
	{ruleKey{roleHandler, "updateDeployment"}, notify},
	{ruleKey{roleHandler, "deleteDeployment"}, notify},
	{ruleKey{roleHandler, "addReplicaSet"}, notify},
	{ruleKey{roleHandler, "updateReplicaSet"}, notify},
	{ruleKey{roleHandler, "deleteReplicaSet"}, notify},
	{ruleKey{roleHandler, "dc.deletePod"}, notify},
	{ruleKey{roleWorker, "dc.processNextWorkItem"}, work},
	{ruleKey{roleWorker, "syncDeployment"}, work},
	{ruleKey{roleWorker, "ClaimReplicaSets"}, work},
	{ruleKey{roleWorker, "checkPausedConditions"}, work},
	{ruleKey{roleWorker, "isScalingEvent"}, work},
	{ruleKey{roleWorker, "scale"}, work},
	{ruleKey{roleWorker, "getNewReplicaSet"}, work},
	{ruleKey{roleWorker, "reconcileNewReplicaSet"}, work},
	{ruleKey{roleWorker, "reconcileOldReplicaSets"}, work},
	{ruleKey{roleWorker, "cleanupUnhealthyReplicas"}, work},
	{ruleKey{roleWorker, "scaleDownOldReplicaSetsForRollingUpdate"}, work},
	{ruleKey{roleWorker, "scaleReplicaSet"}, work},
	{ruleKey{roleWorker, "oldPodsRunning"}, work},
	{ruleKey{roleWorker, "cleanupDeployment"}, work},
	{ruleKey{roleWorker, "rollback"}, work},
	{ruleKey{roleWorker, "syncDeploymentStatus"}, work},
	{ruleKey{roleWorker, "syncRolloutStatus"}, work},
	{ruleKey{roleWorker, "requeueStuckDeployment"}, work},
	{ruleKey{roleManager, "dc.Run"}, arrive},
	{ruleKey{roleManager, "WaitForNamedCacheSync"}, arrive},
	{ruleKey{roleQueue, "waitingLoop"}, arrive},

	// The world around the controller.
	{ruleKey{roleScheduler, "Scheduler.Run"}, list},
	{ruleKey{roleScheduler, "Reflector.syncWith"}, arrive},
	{ruleKey{roleScheduler, "Reflector.watch"}, arrive},
	{ruleKey{roleScheduler, "addPodToSchedulingQueue"}, arrive},
	{ruleKey{roleScheduler, "updatePodInCache"}, arrive},
	{ruleKey{roleScheduler, "deletePodFromCache"}, arrive},
	{ruleKey{roleScheduler, "schedulePod"}, arrive},
	{ruleKey{roleScheduler, "bind"}, arrive},
	{ruleKey{roleScheduler, "scheduleOne"}, arrive},
	{ruleKey{roleScheduler, "addNodeToCache"}, arrive},
	{ruleKey{roleScheduler, "updateNodeInCache"}, arrive},
	{ruleKey{roleScheduler, "deleteNodeFromCache"}, arrive},
	{ruleKey{roleScheduler, "addPodToCache"}, arrive},
	{ruleKey{roleScheduler, "updatePodInSchedulingQueue"}, arrive},
	{ruleKey{roleScheduler, "flushBackoffQCompleted"}, arrive},
	{ruleKey{roleScheduler, "handleBindingCycleError"}, arrive},

	{ruleKey{roleKubelet, "Kubelet.Run"}, list},
	{ruleKey{roleKubelet, "Reflector.list"}, list},
	{ruleKey{roleKubelet, "Reflector.ListAndWatch"}, arrive},
	{ruleKey{roleKubelet, "Reflector.syncWith"}, arrive},
	{ruleKey{roleKubelet, "Reflector.watch"}, arrive},
	{ruleKey{roleKubelet, "registerWithAPIServer"}, arrive},
	{ruleKey{roleKubelet, "HandlePodAdditions"}, arrive},
	{ruleKey{roleKubelet, "HandlePodUpdates"}, arrive},
	{ruleKey{roleKubelet, "HandlePodRemoves"}, arrive},
	{ruleKey{roleKubelet, "syncPod"}, arrive},
	{ruleKey{roleKubelet, "killPod"}, arrive},
	{ruleKey{roleKubelet, "statusManager.syncPod"}, arrive},
	{ruleKey{roleKubelet, "statusManager.syncBatch"}, arrive},
	{ruleKey{roleKubelet, "PLEG"}, arrive},
	{ruleKey{roleKubelet, "evictionManager"}, arrive},
	{ruleKey{roleKubelet, "prober"}, arrive},

	{ruleKey{roleGC, "GraphBuilder.startMonitors"}, list},
	{ruleKey{roleGC, "Reflector.syncWith"}, arrive},
	{ruleKey{roleGC, "Reflector.watch"}, arrive},
	{ruleKey{roleGC, "processGraphChanges"}, arrive},
	{ruleKey{roleGC, "attemptToDeleteItem"}, arrive},
	{ruleKey{roleGC, "attemptToOrphanWorker"}, arrive},
	{ruleKey{roleGC, "isDangling"}, arrive},
	{ruleKey{roleGC, "orphanDependents"}, arrive},
	{ruleKey{roleGC, "removeFinalizer"}, arrive},
	{ruleKey{roleGC, "processDeletingDependentsItem"}, arrive},
	{ruleKey{roleGC, "processAttemptToDeleteWorker"}, arrive},

	{ruleKey{roleEvents, "EventCorrelate"}, record},
	{ruleKey{roleEvents, "recordToSink"}, arrive},
	{ruleKey{roleEvents, "recordEvent"}, arrive},
}

// request: the API server handles a request, which travelled from its
// sender.
func request(step *sim.StepResult, _ actor) (Move, bool) {
	g := sim.GistOf(step.Event)
	if g.Carried != sim.CarriedRequest {
		return Move{Lit: []Place{APIServer}}, true
	}
	sender, ok := placeOf(g.From)
	if !ok {
		return Move{}, false
	}
	return Move{Lit: []Place{APIServer}, From: sender, To: APIServer, Token: requestToken(g)}, true
}

// arrive: a step at the actor's own place, with what arrived from the API
// server, if anything did: a watch event, or the answer to a request.
func arrive(step *sim.StepResult, a actor) (Move, bool) {
	here := home(a)
	m := Move{Lit: []Place{here}}
	switch g := sim.GistOf(step.Event); g.Carried {
	case sim.CarriedWatch:
		m.From, m.To, m.Token = APIServer, here, watchToken(g)
		switch step.Models {
		case "fault: drop watch":
			m.Fault = Dropped
		case "fault: delay watch":
			m.Fault = Delayed
		}
	case sim.CarriedReply:
		m.From, m.To, m.Token = APIServer, here, requestToken(g)
		if g.Failed != "" {
			m.Fault = Failed
			m.Token += ": " + g.Failed
		}
	}
	return m, true
}

// list: the actor starts (or starts again) by listing: a request on its
// way to the API server, unless an answer arrived instead.
func list(step *sim.StepResult, a actor) (Move, bool) {
	if m, _ := arrive(step, a); m.From != "" {
		return m, true
	}
	here := home(a)
	return Move{Lit: []Place{here}, From: here, To: APIServer, Token: "list"}, true
}

// deltas: an informer pops its DeltaFIFO: the indexer stores the change and
// the handlers are told.
func deltas(step *sim.StepResult, a actor) (Move, bool) {
	fifo, handlers := InformerPlace(a.of, FIFO), InformerPlace(a.of, Handlers)
	m := Move{Lit: []Place{fifo, InformerPlace(a.of, Indexer), handlers}}
	if len(step.Touched) > 0 {
		m.From, m.To, m.Token = fifo, handlers, step.Touched[0].String()
	}
	return m, true
}

// resync: an informer's resync check, or its DeltaFIFO queueing every cached
// object again: nothing travels.
func resync(step *sim.StepResult, a actor) (Move, bool) {
	if step.Models == "DeltaFIFO.Resync" {
		return Move{Lit: []Place{InformerPlace(a.of, FIFO)}}, true
	}
	return Move{Lit: []Place{InformerPlace(a.of, Handlers)}}, true
}

// notify: a controller's event handler, told by an informer, hands keys to
// the controller's queue, or ignores the notification.
func notify(step *sim.StepResult, a actor) (Move, bool) {
	if !strings.HasPrefix(step.Event.To, "informer/") {
		return Move{}, false
	}
	handlers := InformerPlace(step.Event.To, Handlers)
	if len(step.Handed) == 0 {
		return Move{Lit: []Place{handlers}}, true
	}
	queue, ok := placeOf(step.Handed[0].To)
	if !ok {
		return Move{}, false
	}
	return Move{Lit: []Place{queue, handlers}, From: handlers, To: queue, Token: handedToken(step.Handed)}, true
}

// work: a worker takes a key from the queue and syncs it, or finds the
// queue empty, or goes on with its sync when an answer arrives.
func work(step *sim.StepResult, a actor) (Move, bool) {
	workers, sync := ControllerPlace(a.of, Workers), ControllerPlace(a.of, SyncHandler)
	if sim.GistOf(step.Event).Carried == sim.CarriedReply {
		return arrive(step, a)
	}
	// A worker that finds its queue empty takes nothing: the replication
	// manager's and the Deployment controller's loop bodies are named
	// apart in the trace, as upstream's are.
	if step.Models == "processNextWorkItem" || step.Models == "dc.processNextWorkItem" || step.Models == "" {
		return Move{Lit: []Place{workers}}, true
	}
	return Move{Lit: []Place{workers, sync}, From: ControllerPlace(a.of, Queue), To: workers, Token: ownerKey(step.Touched, a.of)}, true
}

// record: an event recorder takes an Event a controller's sync recorded.
func record(step *sim.StepResult, _ actor) (Move, bool) {
	for _, c := range controllers {
		if step.Event.To == c.events {
			return Move{Lit: []Place{Events}, From: ControllerPlace(c.short, SyncHandler), To: Events, Token: "Event"}, true
		}
	}
	return Move{Lit: []Place{Events}}, true
}

// --- Events on their way ------------------------------------------------------

// Waiting says on which edge of the loop an event on the agenda is
// travelling: a request from its sender to the API server, a watch event or
// an answer from the API server to its receiver. ok is false for an event
// that travels no edge (a timer, a worker's next turn).
func Waiting(ev sim.Event) (from, to Place, ok bool) {
	switch g := sim.GistOf(ev); g.Carried {
	case sim.CarriedWatch, sim.CarriedReply:
		to, ok = receiver(ev.To)
		return APIServer, to, ok
	case sim.CarriedRequest:
		from, ok = placeOf(g.From)
		return from, APIServer, ok
	}
	return "", "", false
}

// receiver is where an event for the component named component arrives.
func receiver(component string) (Place, bool) {
	if a, ok := roleOf(component); ok && a.role != roleHandler {
		return home(a), true
	}
	switch {
	case component == "garbage-collector":
		return GC, true
	case strings.HasPrefix(component, "events/"):
		return Events, true
	}
	return "", false
}

// --- Tokens ---------------------------------------------------------------

// requestToken names a request, or the request an answer answers, by its
// verb and resource: "create pods".
func requestToken(g sim.Gist) string {
	return g.Verb + " " + g.What
}

// watchToken names a watch event: "DELETED pod/web-x".
func watchToken(g sim.Gist) string {
	if g.What == "" {
		return g.Verb
	}
	return g.Verb + " " + api.ShortName(api.Kind(g.What)) + "/" + g.Name
}

// handedToken names the keys handed to a queue: the key, or how many.
func handedToken(h []sim.Handoff) string {
	if len(h) == 1 {
		return h[0].What
	}
	return "×" + strconv.Itoa(len(h)) + " keys"
}

// ownerKey is the queue key of the first object of the controller's own kind
// (its short name: "rs", "rc", "deploy") a step touched: the key a worker
// took. A Deployment's worker touches ReplicaSets too, so the kind matters.
func ownerKey(refs []sim.Ref, kind string) string {
	for _, r := range refs {
		if r.Kind == kind {
			return api.Key(r.Namespace, r.Name)
		}
	}
	return ""
}
