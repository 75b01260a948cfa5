package deployment

import (
	"maps"
	"strconv"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/controller"
	"github.com/reconcilelab/rlab/core/informer"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/workqueue"
)

// Constants of the Deployment controller (spec §1.1).
const (
	// Name is the controller's component name and the source of its Events.
	Name = "deployment-controller"
	// DefaultWorkers is kube-controller-manager's --concurrent-deployment-syncs.
	DefaultWorkers = 5
	// MaxRetries is how often a failing key is retried with back-off before
	// it is dropped until something enqueues it again.
	MaxRetries = 15
	// handlerActor is the trace's actor of the event handlers; workers are
	// "deploy-worker-N".
	handlerActor = "deploy-controller"
	// queueName is upstream's name of the work queue.
	queueName = "deployment"
	// cacheSyncPoll is how often the controller checks whether its informers
	// have synced before it starts its workers (WaitForCacheSync's 100ms).
	cacheSyncPoll = 100 * time.Millisecond
)

// EventRecorder records Events about objects, asynchronously (core/record).
type EventRecorder interface {
	Eventf(sch sim.Scheduler, object api.Object, eventType, reason, message string)
}

// Config describes the controller. Zero values mean the documented defaults.
type Config struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// Workers is the number of logical workers (default 5).
	Workers int
	// Server is the API server the controller writes to.
	Server *apistore.Server
	// Deployments, ReplicaSets and Pods are the informers it reads; the
	// ReplicaSet and pod informers are shared with the replication manager.
	Deployments, ReplicaSets, Pods *informer.Informer
	// Recorder records the controller's Events; nil records none.
	Recorder EventRecorder
	// ResyncPeriod is the resync period of the controller's handlers
	// (default 0: never).
	ResyncPeriod time.Duration
	// RateLimiter overrides the queue's rate limiter (default: the default
	// controller rate limiter).
	RateLimiter workqueue.RateLimiter
}

// Controller is the Deployment controller: its event handlers, its
// rate-limited queue, and N workers that run syncDeployment. It is wired
// when the world is built but sleeps until Activate: its handlers are
// dormant and its informer unstarted, so a world without Deployments runs
// exactly as before it existed.
type Controller struct {
	cfg     Config
	sch     sim.Scheduler
	queue   *workqueue.RateLimitingQueue
	workers []*worker

	// dHandler, rsHandler and podHandler number its handlers on the three
	// informers, for waking them.
	dHandler, rsHandler, podHandler int

	// active is set once Activate ran; started once the caches synced and
	// the workers run.
	active, started bool

	// handoffs holds the keys the handler running now gave the queue, until
	// its report takes them; it is empty between steps.
	handoffs []sim.Handoff
	// handoffLists hands out the reports' copies of handoffs (see sim.Arena):
	// handoffs itself is kept, emptied, for the next handler.
	handoffLists sim.HandoffArena

	// last holds the last finished sync of each key; syncs counts them all.
	last  map[string]SyncRecord
	syncs int
	// lastScaled holds, of each key, the last finished sync that scaled a
	// ReplicaSet: most syncs of a rollout only write its status, and the
	// page shows the last move and its reason while they run.
	lastScaled map[string]SyncRecord
}

// SyncRecord describes one finished sync.
type SyncRecord struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Key string
	// UID is the uid of the Deployment the sync found under Key, "" when
	// it found none: a Deployment deleted and made again under its name is
	// another object, and its card must not show the syncs of the first.
	UID    string
	Worker string
	// Start and End are the simulated times the worker took the key and
	// called Done.
	Start, End time.Duration
	// Decision is what the sync did, in words.
	Decision string
	// Err is the error the sync returned ("" on success).
	Err string
	// Seq counts the controller's finished syncs, from 1; Count the key's.
	Seq, Count int
	// Scales are the changes of ReplicaSet sizes the sync made, in order.
	Scales []Scale
}

// Scale is one change of a ReplicaSet's spec.replicas that a sync made: the
// ReplicaSet, its size before and after, the function that decided it (By,
// upstream's name), and Why, that function's rule with the numbers it
// used, in words ("5 pods may be wanted in all (replicas 4 + maxSurge
// 1) and the ReplicaSets wanted 4: room for 1 more"). It is the
// controller's own account of its decision, so that no reader has to work
// the rule out again.
type Scale struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	ReplicaSet string
	From, To   int32
	By, Why    string
}

// New builds the controller on the kernel sch and registers its handlers,
// dormant. Register every component of Components with the kernel; call
// Activate when the first Deployment appears.
func New(cfg Config, sch sim.Scheduler) *Controller {
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultWorkers
	}
	c := &Controller{cfg: cfg, sch: sch, last: map[string]SyncRecord{}, lastScaled: map[string]SyncRecord{}}
	limiter := cfg.RateLimiter
	if limiter == nil {
		limiter = workqueue.DefaultControllerRateLimiter(sch)
	}
	c.queue = workqueue.NewRateLimiting(workqueue.Config{Name: queueName, Scheduler: sch, Kind: string(api.KindDeployment)}, limiter)
	for i := 1; i <= cfg.Workers; i++ {
		c.workers = append(c.workers, &worker{c: c, name: "deploy-worker-" + strconv.Itoa(i)})
	}
	h := func(add func(api.Object, bool) sim.Report, update func(old, cur api.Object) sim.Report, del func(any) sim.Report) informer.Handler {
		out := informer.Handler{Name: handlerActor, ResyncPeriod: cfg.ResyncPeriod, StartStep: c.StartStep}
		if add != nil {
			out.OnAdd = func(obj api.Object, initial bool) sim.Report { return c.handed(add(obj, initial)) }
		}
		if update != nil {
			out.OnUpdate = func(old, cur api.Object) sim.Report { return c.handed(update(old, cur)) }
		}
		out.OnDelete = func(obj any) sim.Report { return c.handed(del(obj)) }
		return out
	}
	// The replication manager indexes the shared pod informer by controller
	// UID too; whichever comes first adds the index, with the same function.
	_ = cfg.Pods.AddIndexer(controller.PodOwnerIndex, controller.IndexPodByOwner)
	c.dHandler = cfg.Deployments.AddDormantEventHandler(h(c.addDeployment, c.updateDeployment, c.deleteDeployment))
	c.rsHandler = cfg.ReplicaSets.AddDormantEventHandler(h(c.addReplicaSet, c.updateReplicaSet, c.deleteReplicaSet))
	// Upstream registers only a delete function for pods: a Recreate rollout
	// waits for its old pods to be gone. Adds and updates would reach a
	// function that does nothing; here they are not delivered at all.
	podHandler := h(nil, nil, c.deletePod)
	podHandler.SkipUnhandled = true
	c.podHandler = cfg.Pods.AddDormantEventHandler(podHandler)
	return c
}

// NamedComponent is a component with the name to register it under.
type NamedComponent struct {
	Name      string
	Component sim.Component
}

// Components lists the controller's kernel components: itself, its queue
// and its workers.
func (c *Controller) Components() []NamedComponent {
	out := []NamedComponent{{Name, c}, {c.queue.ComponentName(), c.queue}}
	for _, w := range c.workers {
		out = append(out, NamedComponent{w.name, w})
	}
	return out
}

// Activate wakes the controller, once: its handlers start hearing their
// informers (the ReplicaSet and pod informers tell them about everything
// they hold), the Deployment informer lists, and the controller waits for
// the three caches to sync before starting its workers, as
// kube-controller-manager does at boot. The world calls it in the step
// that stores the first Deployment.
func (c *Controller) Activate(sch sim.Scheduler) {
	if c.active {
		return
	}
	c.active = true
	c.cfg.Deployments.WakeEventHandler(c.dHandler)
	c.cfg.ReplicaSets.WakeEventHandler(c.rsHandler)
	c.cfg.Pods.WakeEventHandler(c.podHandler)
	c.cfg.Deployments.Start()
	sch.After(0, Name, eventCacheSync, nil)
}

// Active reports whether Activate has run.
func (c *Controller) Active() bool { return c.active }

// Queue returns the work queue.
func (c *Controller) Queue() *workqueue.RateLimitingQueue { return c.queue }

// LastSync returns the last finished sync of a key.
func (c *Controller) LastSync(key string) (SyncRecord, bool) {
	r, ok := c.last[key]
	return r, ok
}

// LastScaling returns the last finished sync of a key that scaled one of
// its ReplicaSets. It may be a sync of an earlier Deployment of that name:
// compare its UID.
func (c *Controller) LastScaling(key string) (SyncRecord, bool) {
	r, ok := c.lastScaled[key]
	return r, ok
}

// Syncs returns how many syncs have finished.
func (c *Controller) Syncs() int { return c.syncs }

const (
	eventCacheSync = "wait-for-cache-sync"
	eventWorkerRun = "run"
)

// StartStep reuses the controller's arena, which its workers and event
// handlers report with too: the lists of the last step are dead
// (sim.Arena).
func (c *Controller) StartStep() { c.handoffLists.Reuse() }

// Handle is the controller's own step: waiting for the caches to sync, then
// starting the workers.
func (c *Controller) Handle(ctx *sim.Context, ev sim.Event) sim.Report {
	if ev.Kind != eventCacheSync {
		return sim.Report{Actor: Name, Summary: sim.Say(formIgnoredEvent, ev.Kind)}
	}
	if !c.cfg.Deployments.HasSynced() || !c.cfg.ReplicaSets.HasSynced() || !c.cfg.Pods.HasSynced() {
		ctx.After(cacheSyncPoll, Name, eventCacheSync, nil)
		return sim.Report{Actor: Name, Models: "WaitForNamedCacheSync",
			Summary: sim.Text("informers not synced yet; checking again in 100ms before starting the workers")}
	}
	c.started = true
	for _, w := range c.workers {
		ctx.After(0, w.name, eventWorkerRun, nil)
	}
	return sim.Report{Actor: Name, Models: "dc.Run", Summary: sim.Say(formStarting).With(int64(len(c.workers)))}
}

var (
	formIgnoredEvent = &sim.Form{Text: "ignored unknown event %q"}
	formStarting     = &sim.Form{Text: "deployment, replicaset and pod caches synced: starting %d workers"}
)

func init() { sim.Register(formIgnoredEvent, formStarting) }

// Describe says what a pending controller event will do.
func (c *Controller) Describe(sim.Event) string {
	return Name + " checks whether its caches have synced"
}

type controllerSnapshot struct {
	active, started  bool
	last, lastScaled map[string]SyncRecord
	syncs            int
}

// Snapshot captures the controller's own state; its queue and workers are
// components of their own.
func (c *Controller) Snapshot() any {
	return &controllerSnapshot{active: c.active, started: c.started, last: maps.Clone(c.last), lastScaled: maps.Clone(c.lastScaled),
		syncs: c.syncs}
}

// Restore returns the controller to a snapshot.
func (c *Controller) Restore(v any) {
	s := v.(*controllerSnapshot)
	c.active, c.started, c.syncs = s.active, s.started, s.syncs
	c.last = maps.Clone(s.last)
	if c.last == nil {
		c.last = map[string]SyncRecord{}
	}
	c.lastScaled = maps.Clone(s.lastScaled)
	if c.lastScaled == nil {
		c.lastScaled = map[string]SyncRecord{}
	}
}

// The informers' caches, as listers read them.

var everything = labels.Everything()

func (c *Controller) cachedDeployment(namespace, name string) (*api.Deployment, bool) {
	o, ok := c.cfg.Deployments.Lister().Get(namespace, name)
	if !ok {
		return nil, false
	}
	d, ok := o.(*api.Deployment)
	return d, ok
}

func (c *Controller) cachedDeployments(namespace string) []*api.Deployment {
	var out []*api.Deployment
	for _, o := range c.cfg.Deployments.Lister().Namespace(namespace).List(everything) {
		if d, ok := o.(*api.Deployment); ok {
			out = append(out, d)
		}
	}
	return out
}

func (c *Controller) cachedReplicaSets(namespace string) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, o := range c.cfg.ReplicaSets.Lister().Namespace(namespace).List(everything) {
		if rs, ok := o.(*api.ReplicaSet); ok {
			out = append(out, rs)
		}
	}
	return out
}

func (c *Controller) cachedReplicaSet(namespace, name string) (*api.ReplicaSet, bool) {
	o, ok := c.cfg.ReplicaSets.Lister().Get(namespace, name)
	if !ok {
		return nil, false
	}
	rs, ok := o.(*api.ReplicaSet)
	return rs, ok
}

func (c *Controller) cachedPods(namespace string, sel labels.Selector, owners []string) []*api.Pod {
	if len(owners) == 0 {
		return nil
	}
	objs, _ := c.cfg.Pods.Indexer().ByIndexValues(controller.PodOwnerIndex, owners...)
	var out []*api.Pod
	for _, o := range objs {
		if p, ok := o.(*api.Pod); ok && p.Metadata.Namespace == namespace && sel.Matches(p.Metadata.Labels) {
			out = append(out, p)
		}
	}
	return out
}

var (
	_ sim.Component   = (*Controller)(nil)
	_ sim.Describer   = (*Controller)(nil)
	_ sim.Snapshotter = (*Controller)(nil)
)
