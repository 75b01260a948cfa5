package controller

import (
	"errors"
	"strconv"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/informer"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/workqueue"
)

// Constants of the replication manager (spec §1.1).
const (
	// BurstReplicas is the most pods one sync creates or deletes.
	BurstReplicas = 500
	// DefaultWorkers is kube-controller-manager's --concurrent-replicaset-syncs.
	DefaultWorkers = 5
	// statusUpdateRetries is how often a failed status write is retried
	// after a fresh GET.
	statusUpdateRetries = 1
	// cacheSyncPoll is how often the manager checks whether its informers have
	// synced before it starts its workers (upstream's WaitForCacheSync polls
	// every 100ms).
	cacheSyncPoll = 100 * time.Millisecond
)

// PodOwnerIndex indexes pods by the UID of their controller, and orphans
// under orphanIndexValue(namespace). A sync needs the pods it owns and the
// orphans it might adopt; every other pod of the namespace it would skip.
const PodOwnerIndex = "podOwner"

func orphanIndexValue(namespace string) string { return "orphan/" + namespace }

// IndexPodByOwner is the IndexFunc of PodOwnerIndex, for the Deployment
// controller, which finds a ReplicaSet's pods through the same index on the
// shared pod informer.
var IndexPodByOwner informer.IndexFunc = indexPodByOwner

// indexPodByOwner is the IndexFunc of PodOwnerIndex.
func indexPodByOwner(obj api.Object, values []string) []string {
	m := obj.Meta()
	if ref := api.GetControllerOf(m); ref != nil {
		return append(values, ref.UID)
	}
	return append(values, orphanIndexValue(m.Namespace))
}

// indexOwnerByControllerUID is the controllerUID index for either owner kind:
// the UID of the owner's own controller, such as its Deployment.
func indexOwnerByControllerUID(obj api.Object, values []string) []string {
	if ref := api.GetControllerOf(obj.Meta()); ref != nil {
		return append(values, ref.UID)
	}
	return values
}

// EventRecorder records Events about objects, asynchronously: the caller never
// waits for the write. core/record implements it.
type EventRecorder interface {
	Eventf(sch sim.Scheduler, object api.Object, eventType, reason, message string)
}

// Config describes one replication manager. Zero values mean the documented
// defaults.
type Config struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// Kind is api.KindReplicaSet (the default) or
	// api.KindReplicationController: the same code serves both, as upstream's
	// does since v1.8.
	Kind api.Kind
	// Workers is the number of logical workers (default 5).
	Workers int
	// BurstReplicas is the most pods one sync creates or deletes (default 500).
	BurstReplicas int
	// Server is the API server the manager writes to.
	Server *apistore.Server
	// Pods and Owners are the informers for pods and for the owner kind; the
	// manager registers its handlers and its indexes on them.
	Pods, Owners *informer.Informer
	// Recorder records the manager's Events; nil records none.
	Recorder EventRecorder
	// Gates sets the feature gates of the deletion ranking (the zero value is
	// upstream's default: both on).
	Gates RankingGates
	// ResyncPeriod is the resync period of the manager's informer handlers
	// (default 0: never). Upstream's kube-controller-manager resyncs every 12
	// to 24 hours; every resync enqueues every owner again.
	ResyncPeriod time.Duration
	// RateLimiter overrides the queue's rate limiter (default: the default
	// controller rate limiter).
	RateLimiter workqueue.RateLimiter
}

// ownerKind is what differs between the ReplicaSet and the
// ReplicationController flavour of the manager: names, and the conversion of
// the owner object to the ReplicaSet the shared code works on.
type ownerKind struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	kind       api.Kind
	apiVersion string
	short      string // "rs", "rc": used in component names
	handlers   string // "rs-controller": the actor of its handlers' steps
	queueName  string // upstream's workqueue name
	source     string // the Event source component
}

var (
	replicaSetKind = ownerKind{kind: api.KindReplicaSet, apiVersion: "apps/v1", short: "rs", handlers: "rs-controller",
		queueName: "replicaset", source: "replicaset-controller"}
	replicationControllerKind = ownerKind{kind: api.KindReplicationController, apiVersion: "v1", short: "rc", handlers: "rc-controller",
		queueName: "replicationmanager", source: "replication-controller"}
)

// Manager is the replication manager: the event handlers that turn informer
// notifications into keys, the rate-limited queue, N workers that run
// syncReplicaSet, and the expectations they share.
type Manager struct {
	cfg   Config
	owner ownerKind
	sch   sim.Scheduler
	name  string // component name of the manager itself

	// refs holds the Touched lists of its reports (see sim.RefArena).
	refs sim.RefArena

	queue        *workqueue.RateLimitingQueue
	expectations *ControllerExpectations
	workers      []*worker
	gates        RankingGates

	// started is set once the informers have synced and the workers run.
	started bool

	// handoffs holds the keys the handler running now gave the queue,
	// until its report takes them (handlers); it is empty between steps.
	handoffs []sim.Handoff
	// handoffLists hands out the reports' copies of handoffs (see sim.Arena):
	// handoffs itself is kept, emptied, for the next handler.
	handoffLists sim.HandoffArena

	// lastKey is the owner key keyOf returned last, and keys the keys it
	// joined, by owner name.
	lastKey ownerKey
	keys    map[string]string
	// lastDecision is the sync decision decisionText made last.
	lastDecision string
	// lastWords is the status words statusWordsOf joined last.
	lastWords lastStatusWords

	// last holds the last finished sync of each key, for the page and for
	// "until sync"; syncs counts every finished sync.
	last  map[string]SyncRecord
	syncs int

	// selectors remembers, by owner key, the selector each owner's sync
	// last parsed and what it was parsed from (see selectorOf).
	selectors map[string]parsedSelector
}

// parsedSelector is an owner's spec.selector and the selector parsed from
// it.
type parsedSelector struct {
	from *api.LabelSelector
	sel  labels.Selector
}

// selectorOf returns the selector of ls, the spec.selector of the owner
// under key, as labels.LabelSelectorAsSelector parses it. Every sync needs
// it, and an owner's selector rarely changes: parsing it anew each time was
// a fiftieth of 100 ReplicaSets of 10 pods converging. A stored object is
// never changed, so a sync that reads the same spec.selector as the last
// one (the same pointer) gets the same selector back; any other is parsed.
// The memo is no state of the world: what it answers is what parsing would,
// so snapshots neither keep nor restore it.
func (m *Manager) selectorOf(key string, ls *api.LabelSelector) (labels.Selector, error) {
	if p, ok := m.selectors[key]; ok && ls != nil && p.from == ls {
		return p.sel, nil
	}
	sel, err := labels.LabelSelectorAsSelector(ls)
	if err != nil || ls == nil {
		delete(m.selectors, key)
		return sel, err
	}
	if m.selectors == nil {
		m.selectors = make(map[string]parsedSelector)
	}
	m.selectors[key] = parsedSelector{from: ls, sel: sel}
	return sel, nil
}

// SyncRecord describes one finished sync.
type SyncRecord struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Key    string
	Worker string
	// Start and End are the simulated times the worker took the key and
	// called Done.
	Start, End time.Duration
	// Decision is the sync's decision in words: "3 pods owned, want 5:
	// creating 2 (slow-start batches of 1, 1)".
	Decision string
	// Err is the error the sync returned ("" on success); the key was then
	// requeued with back-off.
	Err string
	// Seq counts the manager's finished syncs, from 1; Count the key's.
	Seq, Count int
}

// New builds a manager on the kernel sch. Register every component of
// Components with the kernel, then call Start.
func New(cfg Config, sch sim.Scheduler) *Manager {
	if cfg.Kind == "" {
		cfg.Kind = api.KindReplicaSet
	}
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultWorkers
	}
	if cfg.BurstReplicas <= 0 {
		cfg.BurstReplicas = BurstReplicas
	}
	owner := replicaSetKind
	if cfg.Kind == api.KindReplicationController {
		owner = replicationControllerKind
	}
	m := &Manager{
		cfg: cfg, owner: owner, sch: sch, name: owner.source,
		expectations: NewControllerExpectations(ExpectationsConfig{Now: sch.Now}),
		last:         map[string]SyncRecord{},
	}
	m.gates = cfg.Gates
	limiter := cfg.RateLimiter
	if limiter == nil {
		limiter = workqueue.DefaultControllerRateLimiter(sch)
	}
	m.queue = workqueue.NewRateLimiting(workqueue.Config{Name: owner.queueName, Scheduler: sch, Kind: string(cfg.Kind)}, limiter)
	for i := 1; i <= cfg.Workers; i++ {
		m.workers = append(m.workers, &worker{m: m, name: owner.short + "-worker-" + strconv.Itoa(i)})
	}
	return m
}

// NamedComponent is a component with the name to register it under.
type NamedComponent struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Name      string
	Component sim.Component
}

// Components lists the manager's kernel components: the manager itself, its
// queue and its workers.
func (m *Manager) Components() []NamedComponent {
	out := []NamedComponent{{Name: m.name, Component: m}, {Name: m.queue.ComponentName(), Component: m.queue}}
	for _, w := range m.workers {
		out = append(out, NamedComponent{Name: w.name, Component: w})
	}
	return out
}

// LastSync returns the last finished sync of a key.
func (m *Manager) LastSync(key string) (SyncRecord, bool) {
	r, ok := m.last[key]
	return r, ok
}

// Syncs returns how many syncs have finished, over all keys.
func (m *Manager) Syncs() int { return m.syncs }

// Queue returns the manager's work queue.
func (m *Manager) Queue() *workqueue.RateLimitingQueue { return m.queue }

// Expectations returns the manager's expectations.
func (m *Manager) Expectations() *ControllerExpectations { return m.expectations }

// Kind returns the owner kind the manager serves.
func (m *Manager) Kind() api.Kind { return m.owner.kind }

// Name returns the manager's component name, which is also the source of its
// Events ("replicaset-controller").
func (m *Manager) Name() string { return m.name }

// handlers registers the manager's event handlers for the pod informer
// (pods set) or the owner informer. Each report lists the keys its handler
// handed to the queue (sim.Handoff), taken here, after the handler is done,
// because one handler may call another (updatePod counts a pod being deleted
// through deletePod) and the keys belong to the notification, not to the
// inner call. The handlers are called directly, not passed in as method
// values: a pod handler runs for every pod event, and a call through a
// method value went through a wrapper that copied its report once more.
func (m *Manager) handlers(pods bool) informer.Handler {
	return informer.Handler{
		Name: m.handlerActor(),
		OnAdd: func(obj api.Object, initial bool) (rep sim.Report) {
			if pods {
				rep = m.addPod(obj, initial)
			} else {
				rep = m.addRS(obj, initial)
			}
			m.hand(&rep)
			return rep
		},
		OnUpdate: func(old, cur api.Object) (rep sim.Report) {
			if pods {
				rep = m.updatePod(old, cur)
			} else {
				rep = m.updateRS(old, cur)
			}
			m.hand(&rep)
			return rep
		},
		OnDelete: func(obj any) (rep sim.Report) {
			if pods {
				rep = m.deletePod(obj)
			} else {
				rep = m.deleteRS(obj)
			}
			m.hand(&rep)
			return rep
		},
		ResyncPeriod: m.cfg.ResyncPeriod,
		StartStep:    m.StartStep,
	}
}

// Start registers the handlers and indexes on the informers and schedules the
// wait for their caches to sync, after which the workers start.
func (m *Manager) Start() error {
	// The pod informer is shared with the other flavour of the manager, which
	// may have added the same index already.
	if err := m.cfg.Pods.AddIndexer(PodOwnerIndex, indexPodByOwner); err != nil && !errors.Is(err, informer.ErrIndexerConflict) {
		return err
	}
	if err := m.cfg.Owners.AddIndexer(controllerUIDIndex, indexOwnerByControllerUID); err != nil && !errors.Is(err, informer.ErrIndexerConflict) {
		return err
	}
	m.cfg.Owners.AddEventHandler(m.handlers(false))
	m.cfg.Pods.AddEventHandler(m.handlers(true))
	m.sch.After(0, m.name, eventCacheSync, nil)
	return nil
}

const (
	eventCacheSync = "wait-for-cache-sync"
	eventWorkerRun = "run"
)

// StartStep reuses the manager's arenas, which its workers and event
// handlers report with too: the lists of the last step are dead
// (sim.Arena).
func (m *Manager) StartStep() {
	m.refs.Reuse()
	m.handoffLists.Reuse()
}

// Handle is the manager's own step: waiting for the caches to sync, then
// starting the workers.
func (m *Manager) Handle(ctx *sim.Context, ev sim.Event) sim.Report {
	if ev.Kind != eventCacheSync {
		return sim.Report{Actor: m.name, Summary: sim.Say(formIgnoredEvent, ev.Kind)}
	}
	if !m.cfg.Pods.HasSynced() || !m.cfg.Owners.HasSynced() {
		ctx.After(cacheSyncPoll, m.name, eventCacheSync, nil)
		return sim.Report{Actor: m.name, Models: "WaitForNamedCacheSync",
			Summary: sim.Text("informers not synced yet; checking again in 100ms before starting the workers")}
	}
	m.started = true
	for _, w := range m.workers {
		ctx.After(0, w.name, eventWorkerRun, nil)
	}
	return sim.Report{Actor: m.name, Models: "Run", Summary: sim.Say(formStarting, m.owner.kind.Resource()).With(int64(len(m.workers)))}
}

var (
	formIgnoredEvent = &sim.Form{Text: "ignored unknown event %q"}
	formStarting     = &sim.Form{Text: "pod and %s caches synced: starting %d workers"}
)

func init() { sim.Register(formIgnoredEvent, formStarting) }

// Describe says what a pending manager event will do.
func (m *Manager) Describe(ev sim.Event) string {
	return m.name + " checks whether its caches have synced"
}

// ownerLister reads the owner informer's cache.
func (m *Manager) ownerLister() informer.Lister { return m.cfg.Owners.Lister() }

// asReplicaSet returns the ReplicaSet the shared code works on for an owner
// object: a ReplicaSet as it is, a ReplicationController converted, as
// upstream's conversion informer does. The result is read-only.
func (m *Manager) asReplicaSet(obj api.Object) (*api.ReplicaSet, bool) {
	switch o := obj.(type) {
	case *api.ReplicaSet:
		return o, m.owner.kind == api.KindReplicaSet
	case *api.ReplicationController:
		return rcToRS(o), m.owner.kind == api.KindReplicationController
	}
	return nil, false
}

// ownerObject returns the owner object of the manager's kind with the given
// ReplicaSet's status, ready to be written through the status subresource.
// It is a shallow copy: its metadata and spec share orig's maps and
// slices, which are a stored object's and never change, and the API server
// copies what a status update keeps. A deep copy of the whole owner after
// every sync that changed its status was a twentieth of the allocations of
// 100 ReplicaSets of 10 pods converging.
func (m *Manager) ownerObject(orig api.Object, status api.ReplicaSetStatus) api.Object {
	switch o := orig.(type) {
	case *api.ReplicaSet:
		out := *o
		out.Status = status
		return &out
	case *api.ReplicationController:
		out := *o
		out.Status = rsStatusToRC(status)
		return &out
	}
	return nil
}

// controllerRef is the owner reference the manager puts on pods it creates
// or adopts.
func (m *Manager) controllerRef(rs *api.ReplicaSet) api.OwnerReference {
	return api.NewControllerRef(&rs.Metadata, m.owner.apiVersion, string(m.owner.kind))
}

func (m *Manager) ownerRef(rs *api.ReplicaSet) sim.Ref {
	return sim.Ref{Kind: m.owner.short, Namespace: rs.Metadata.Namespace, Name: rs.Metadata.Name}
}

func (m *Manager) recordEvent(sch sim.Scheduler, obj api.Object, eventType, reason, message string) {
	if m.cfg.Recorder != nil {
		m.cfg.Recorder.Eventf(sch, obj, eventType, reason, message)
	}
}

var (
	_ sim.Component = (*Manager)(nil)
	_ sim.Describer = (*Manager)(nil)
)
