package world

import (
	"maps"
	"slices"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/controller"
	"github.com/reconcilelab/rlab/core/deployment"
	"github.com/reconcilelab/rlab/core/informer"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/loop"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/sorting"
	"github.com/reconcilelab/rlab/core/workqueue"
)

// This file is the world's read model: one value, View, of the world as a
// learner sees it at the present step, built from the components' own
// views and decisions and from nothing else, so that no shell re-derives a
// component's rule. The page gets it as JSON (wasm/ marshals it as it is);
// every list in it is in a fixed order, so equal worlds give equal views,
// byte for byte.

// ViewOptions caps the lists of a View: at most Agenda agenda events, Pods
// pods in all, and Entries cache entries per informer (0 lists none), and,
// when PodsPerGroup is above 0, at most that many pods of each group (see
// PodGroup), the first by name. The caps keep a view of a 10,000-pod world
// cheap enough to build at every chunk of a long run; the totals and
// PodGroups say what was left out.
type ViewOptions struct {
	Agenda       int
	Pods         int
	PodsPerGroup int
	Entries      int
}

// View is the world as a learner sees it at the present step.
type View struct {
	Seed uint64 `json:"seed"`

	// Clock is the simulated time ("2.004s"); ClockNanos the same in
	// nanoseconds since the simulated epoch.
	Clock      string `json:"clock"`
	ClockNanos int64  `json:"clockNanos"`
	// Step is the present step; RecordedSteps how far the timeline goes (a
	// seek can go anywhere from 0 to it).
	Step          uint64 `json:"step"`
	RecordedSteps uint64 `json:"recordedSteps"`
	// AtRest says only periodic timers are left on the agenda.
	AtRest bool `json:"atRest"`

	Nodes  []Node  `json:"nodes,omitempty"`
	Owners []Owner `json:"owners,omitempty"`
	// Pods are the first pods by namespace and name, at most
	// ViewOptions.PodsPerGroup of each group and ViewOptions.Pods in all;
	// PodsTotal counts them all, and PodGroups counts each group's.
	Pods      []Pod      `json:"pods,omitempty"`
	PodsTotal int        `json:"podsTotal"`
	PodGroups []PodGroup `json:"podGroups,omitempty"`

	// Deployments are the Deployments, in the store's order.
	Deployments []Deployment `json:"deployments,omitempty"`

	Informers   []Informer   `json:"informers"`
	Controllers []Controller `json:"controllers"`
	// DeploymentController is the Deployment controller from inside, once
	// the first Deployment woke it.
	DeploymentController *DeploymentController `json:"deploymentController,omitempty"`
	GC                   GC                    `json:"gc"`
	Agenda               Agenda                `json:"agenda"`
	Faults               Faults                `json:"faults"`
	// InFlight are the events on their way along the edges of the loop
	// (core/loop.Waiting): requests to the API server, watch events and
	// answers from it, counted by edge, in the order of the edges' first
	// events on the agenda.
	InFlight []Flight `json:"inFlight,omitempty"`
}

// View returns the world as a learner sees it at the present step, its
// lists capped by o.
func (w *World) View(o ViewOptions) View {
	k := w.Kernel
	v := View{Seed: w.cfg.Seed, Clock: sim.FormatSeconds(k.Now()), ClockNanos: int64(k.Now()),
		Step: k.Steps(), RecordedSteps: w.RecordedSteps(), AtRest: !k.Busy()}
	v.Nodes = nodesView(w)
	v.Owners = ownersView(w)
	v.Pods, v.PodGroups, v.PodsTotal = podsView(w, o.Pods, o.PodsPerGroup)
	v.Deployments = deploymentsView(w, v.PodGroups)
	var infs []informer.View
	informers := []*informer.Informer{w.Pods, w.ReplicaSets, w.ReplicationControllers}
	if w.Deploy.Active() {
		informers = append(informers, w.Deployments)
	}
	for _, inf := range informers {
		iv := inf.View()
		infs = append(infs, iv)
		v.Informers = append(v.Informers, informerOf(w, iv, inf.Kind(), o.Entries))
	}
	for _, m := range []*controller.Manager{w.RS, w.RC} {
		v.Controllers = append(v.Controllers, controllerView(m))
	}
	v.DeploymentController = deploymentControllerView(w)
	v.GC = gcView(w)
	v.Agenda, v.InFlight = agendaView(k, o.Agenda)
	v.Faults = faultsView(w, infs)
	return v
}

// Node is one node, by name.
type Node struct {
	_ incomparable

	Name        string `json:"name"`
	Registered  bool   `json:"registered"`
	Ready       bool   `json:"ready"`
	Schedulable bool   `json:"schedulable"`
	Kubelet     bool   `json:"kubelet"`
}

// Owner is a ReplicaSet (kind "rs") or ReplicationController ("rc"), by
// kind, namespace and name.
type Owner struct {
	_ incomparable

	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// Selector is the selector as the console writes it ("app=web").
	Selector string `json:"selector"`
	// Replicas is spec.replicas; Status the status the controller wrote.
	Replicas    int32       `json:"replicas"`
	Status      OwnerStatus `json:"status"`
	Terminating bool        `json:"terminating,omitempty"`
	// Failure is the ReplicaFailure condition's message, when it is True.
	Failure string `json:"failure,omitempty"`
	// Owner is a ReplicaSet's controller ("deploy/web"), and Revision its
	// deployment.kubernetes.io/revision annotation; TemplateHash is its
	// pod-template-hash label, which a Deployment gives the ReplicaSets it
	// makes.
	Owner        string `json:"owner,omitempty"`
	Revision     string `json:"revision,omitempty"`
	TemplateHash string `json:"templateHash,omitempty"`
}

// OwnerStatus is an owner's status.
type OwnerStatus struct {
	Replicas             int32 `json:"replicas"`
	FullyLabeledReplicas int32 `json:"fullyLabeledReplicas"`
	ReadyReplicas        int32 `json:"readyReplicas"`
	AvailableReplicas    int32 `json:"availableReplicas"`
	ObservedGeneration   int64 `json:"observedGeneration"`
}

// Pod is one pod in the API store, by namespace and name.
type Pod struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Phase     string `json:"phase"`
	Ready     bool   `json:"ready"`
	Node      string `json:"node,omitempty"`
	// Owner is the controlling owner, "rs/web"; empty for an orphan.
	// OwnerGone says that owner is no longer in the API (nor is any other
	// of its name with its uid): the garbage collector will act on the pod.
	Owner     string            `json:"owner,omitempty"`
	OwnerGone bool              `json:"ownerGone,omitempty"`
	Labels    map[string]string `json:"labels,omitempty"`
	// Image is the images of its containers, joined by ", ": what tells a
	// rollout's old pods from its new ones.
	Image       string `json:"image,omitempty"`
	Terminating bool   `json:"terminating,omitempty"`
	Restarts    int32  `json:"restarts,omitempty"`
	// Kubelet says what its kubelet is doing with it ("starting at
	// t=2.003s"); empty when no kubelet holds it.
	Kubelet string `json:"kubelet,omitempty"`
	// Releasing says the pod's labels no longer match its controller's
	// selector: the controller's next sync releases it (claimPods), unless
	// the labels change back first.
	Releasing bool `json:"releasing,omitempty"`
	// AdoptableBy lists the owners ("rs/web") whose selector an orphan's
	// labels match: the next sync of any of them adopts it, and the first to
	// patch it wins.
	AdoptableBy []string `json:"adoptableBy,omitempty"`
}

// PodGroup counts the pods of one group, as the world draws them: the pods
// one controller controls (by namespace and Owner, "rs/web"), those whose
// controller is gone from the API (OwnerGone), kept apart from a new owner
// of the same name, or a namespace's orphans (no Owner). Groups are in the
// order of their first pods. Active counts the pods the controller counts
// as replicas (upstream's FilterActivePods: neither finished nor being
// deleted), which its status catches up with.
type PodGroup struct {
	Namespace string `json:"namespace"`
	Owner     string `json:"owner,omitempty"`
	OwnerGone bool   `json:"ownerGone,omitempty"`
	Pods      int    `json:"pods"`
	Active    int    `json:"active"`
}

// Informer is one of the controllers' informers, with its cache compared to
// the API store.
type Informer struct {
	Name       string `json:"name"`
	Kind       string `json:"kind"`
	State      string `json:"state"`
	LastSyncRV uint64 `json:"lastSyncRV"`
	Synced     bool   `json:"synced"`
	Lists      int    `json:"lists"`
	Watches    int    `json:"watches"`
	// Cached and InAPI count the objects in the cache and in the API store.
	Cached int `json:"cached"`
	InAPI  int `json:"inAPI"`
	// Entries lists the keys in the cache or the API, by key: those whose
	// cache differs from the API first, then the others, at most
	// ViewOptions.Entries in all; EntriesTotal counts every key and Differ
	// those that differ.
	Entries      []CacheEntry `json:"entries,omitempty"`
	EntriesTotal int          `json:"entriesTotal"`
	Differ       int          `json:"differ"`
	// Pending are the keys with deltas not yet processed, in order.
	Pending []PendingKey `json:"pending,omitempty"`
}

// CacheEntry is one key: the resourceVersion the cache and the API hold
// ("" for none) and Diff: "" (equal), "stale", "not in the cache" or "gone
// from the API".
type CacheEntry struct {
	_ incomparable

	Key   string `json:"key"`
	Cache string `json:"cache,omitempty"`
	API   string `json:"api,omitempty"`
	Diff  string `json:"diff,omitempty"`
}

// PendingKey is a key in the DeltaFIFO with its deltas, oldest first.
type PendingKey struct {
	Key    string   `json:"key"`
	Deltas []string `json:"deltas"`
}

// Controller is one replication manager: kind "rs" or "rc".
type Controller struct {
	Kind         string        `json:"kind"`
	Name         string        `json:"name"`
	Started      bool          `json:"started"`
	Queue        Queue         `json:"queue"`
	Workers      []Worker      `json:"workers,omitempty"`
	Expectations []Expectation `json:"expectations,omitempty"`
	LastSyncs    []Sync        `json:"lastSyncs,omitempty"`
}

// Queue is a work queue: Waiting in the order Get hands keys out, Dirty
// sorted, Processing by key, Delayed in the order they come due, Requeues
// (the rate limiter's failure counts) by key, IdleWorkers longest waiting
// first.
type Queue struct {
	Name        string    `json:"name"`
	Waiting     []string  `json:"waiting,omitempty"`
	Dirty       []string  `json:"dirty,omitempty"`
	Processing  []Held    `json:"processing,omitempty"`
	Delayed     []Delayed `json:"delayed,omitempty"`
	Requeues    []Requeue `json:"requeues,omitempty"`
	IdleWorkers []string  `json:"idleWorkers,omitempty"`
}

// Held is a key a worker processes.
type Held struct {
	_ incomparable

	Key    string `json:"key"`
	Worker string `json:"worker,omitempty"`
}

// Delayed is a key waiting out a delay until ReadyAt.
type Delayed struct {
	_ incomparable

	Key         string `json:"key"`
	ReadyAt     string `json:"readyAt"`
	Delay       string `json:"delay"`
	RateLimited bool   `json:"rateLimited,omitempty"`
}

// Requeue is a key's failure count.
type Requeue struct {
	_ incomparable

	Key   string `json:"key"`
	Count int    `json:"count"`
}

// Worker is one worker: State "idle", "starting" or "syncing" (then Key,
// Phase and how many API answers it waits for).
type Worker struct {
	_ incomparable

	Name    string `json:"name"`
	State   string `json:"state"`
	Key     string `json:"key,omitempty"`
	Phase   string `json:"phase,omitempty"`
	Waiting int    `json:"waiting,omitempty"`
	Syncs   int    `json:"syncs"`
}

// Expectation is one key's expectations: the creations and deletions still
// awaited, and whether a sync may act (Satisfied: fulfilled or Expired).
type Expectation struct {
	Key            string   `json:"key"`
	Add            int64    `json:"add"`
	Del            int64    `json:"del"`
	PendingDeletes []string `json:"pendingDeletes,omitempty"`
	Age            string   `json:"age"`
	Satisfied      bool     `json:"satisfied"`
	Expired        bool     `json:"expired,omitempty"`
}

// GC is the garbage collector's work in progress: owners whose dependents
// are being orphaned, and dependents in its attemptToDelete queue.
type GC struct {
	Owners     []GCOwner     `json:"owners,omitempty"`
	Dependents []GCDependent `json:"dependents,omitempty"`
}

// GCOwner is an owner being processed.
type GCOwner struct {
	Owner      string   `json:"owner"`
	Namespace  string   `json:"namespace,omitempty"`
	Mode       string   `json:"mode"`
	Phase      string   `json:"phase"`
	Dependents []string `json:"dependents,omitempty"`
}

// GCDependent is a dependent the collector considers deleting.
type GCDependent struct {
	_ incomparable

	Object    string `json:"object"`
	Namespace string `json:"namespace,omitempty"`
	Owner     string `json:"owner"`
	State     string `json:"state"`
}

// Agenda is what happens next: Pending events in all (Background of them
// periodic), and the first ones, soonest first.
type Agenda struct {
	Pending    int           `json:"pending"`
	Background int           `json:"background"`
	Next       []AgendaEvent `json:"next,omitempty"`
}

// AgendaEvent is one pending event, described in words.
type AgendaEvent struct {
	_ incomparable

	At         string `json:"at"`
	Seq        uint64 `json:"seq"`
	To         string `json:"to"`
	What       string `json:"what"`
	Background bool   `json:"background,omitempty"`
}

// Flight is Count events on their way from From to To; Next is what the one
// that arrives first carries, in a few words.
type Flight struct {
	_ incomparable

	From  string `json:"from"`
	To    string `json:"to"`
	Count int    `json:"count"`
	Next  string `json:"next,omitempty"`
}

// Faults are the faults in force: the API server's fault rules and the
// informers' watch faults.
type Faults struct {
	API   []APIFault   `json:"api,omitempty"`
	Watch []WatchFault `json:"watch,omitempty"`
}

// APIFault is one fault rule; Text describes it as the faults panel shows
// it ("create pods: quota ×3 after 2 (fired 1)").
type APIFault struct {
	_ incomparable

	ID       int    `json:"id"`
	Text     string `json:"text"`
	Verb     string `json:"verb,omitempty"`
	Resource string `json:"resource,omitempty"`
	Error    string `json:"error"`
	Fired    int    `json:"fired"`
}

// WatchFault is one informer's watch faults: the next DropNext events will
// be lost, Lost were lost since the last list, events arrive Delay late.
type WatchFault struct {
	_ incomparable

	Informer string `json:"informer"`
	DropNext int    `json:"dropNext,omitempty"`
	Lost     int    `json:"lost,omitempty"`
	Delay    string `json:"delay,omitempty"`
}

// shortKind is the console's name of a kind ("rs", "pod").
func shortKind(k api.Kind) string { return api.ShortName(k) }

// nodesView lists the nodes the cluster was built with, each with its
// Ready condition as the API holds it.
func nodesView(w *World) []Node {
	var out []Node
	for _, n := range w.Cluster.NodesWithoutPods() {
		node := Node{Name: n.Name, Registered: n.Registered, Schedulable: n.Schedulable, Kubelet: n.Kubelet}
		if obj, ok := w.Store.Object(api.KindNode, "", n.Name); ok {
			for _, c := range obj.(*api.Node).Status.Conditions {
				if c.Type == api.NodeReady {
					node.Ready = c.Status == api.ConditionTrue
				}
			}
		}
		out = append(out, node)
	}
	return out
}

// ownersView lists the ReplicaSets, then the ReplicationControllers, in the
// store's order, with their selectors as the console writes them and the
// status their controllers last wrote.
func ownersView(w *World) []Owner {
	var out []Owner
	for _, obj := range w.Store.Objects(api.KindReplicaSet, "") {
		rs := obj.(*api.ReplicaSet)
		o := Owner{Kind: shortKind(api.KindReplicaSet), Namespace: rs.Metadata.Namespace, Name: rs.Metadata.Name,
			Replicas: replicas(rs.Spec.Replicas), Terminating: rs.Metadata.DeletionTimestamp != nil,
			Status: OwnerStatus{rs.Status.Replicas, rs.Status.FullyLabeledReplicas, rs.Status.ReadyReplicas,
				rs.Status.AvailableReplicas, rs.Status.ObservedGeneration}}
		if sel, err := labels.LabelSelectorAsSelector(rs.Spec.Selector); err == nil {
			o.Selector = sel.String()
		}
		for _, c := range rs.Status.Conditions {
			if c.Type == api.ReplicaFailure && c.Status == api.ConditionTrue {
				o.Failure = c.Message
			}
		}
		o.Owner, o.Revision = controllerOfRS(rs)
		o.TemplateHash = rs.Metadata.Labels[deployment.PodTemplateHashLabel]
		out = append(out, o)
	}
	for _, obj := range w.Store.Objects(api.KindReplicationController, "") {
		rc := obj.(*api.ReplicationController)
		o := Owner{Kind: shortKind(api.KindReplicationController), Namespace: rc.Metadata.Namespace, Name: rc.Metadata.Name,
			Replicas: replicas(rc.Spec.Replicas), Terminating: rc.Metadata.DeletionTimestamp != nil,
			Selector: labels.SelectorFromSet(rc.Spec.Selector).String(),
			Status: OwnerStatus{rc.Status.Replicas, rc.Status.FullyLabeledReplicas, rc.Status.ReadyReplicas,
				rc.Status.AvailableReplicas, rc.Status.ObservedGeneration}}
		for _, c := range rc.Status.Conditions {
			if c.Type == api.ReplicaFailure && c.Status == api.ConditionTrue {
				o.Failure = c.Message
			}
		}
		out = append(out, o)
	}
	return out
}

// images is the images of a pod spec's containers, joined by ", ".
func images(spec *api.PodSpec) string {
	var out []string
	for _, c := range spec.Containers {
		if c.Image != "" {
			out = append(out, c.Image)
		}
	}
	return strings.Join(out, ", ")
}

// replicas is spec.replicas, 1 when unset (the API's default).
func replicas(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

// claimant is an owner as its controller's claimPods sees it: its
// metadata, its selector, and whether its selector converts (when it does
// not, its sync stops before claiming, as upstream's does).
type claimant struct {
	ref      string // "rs/web"
	meta     *api.ObjectMeta
	selector labels.Selector
	valid    bool
}

// claimants are the world's ReplicaSets and ReplicationControllers: in a
// list, in the store's order, and by "namespace/kind/name". Every owner is
// there, so that a pod's owner is known to exist even when it claims
// nothing.
type claimants struct {
	list  []claimant
	byKey map[string]claimant
}

// claimantsOf gathers the owners whose syncs claim pods.
func claimantsOf(w *World) claimants {
	out := claimants{byKey: map[string]claimant{}}
	add := func(m *api.ObjectMeta, kind api.Kind, sel labels.Selector, valid bool) {
		c := claimant{ref: shortKind(kind) + "/" + m.Name, meta: m, selector: sel, valid: valid}
		out.list = append(out.list, c)
		out.byKey[m.Namespace+"/"+c.ref] = c
	}
	for _, obj := range w.Store.Objects(api.KindReplicaSet, "") {
		rs := obj.(*api.ReplicaSet)
		sel, err := labels.LabelSelectorAsSelector(rs.Spec.Selector)
		add(&rs.Metadata, api.KindReplicaSet, sel, err == nil)
	}
	for _, obj := range w.Store.Objects(api.KindReplicationController, "") {
		rc := obj.(*api.ReplicationController)
		add(&rc.Metadata, api.KindReplicationController, labels.SelectorFromSet(rc.Spec.Selector), true)
	}
	return out
}

// podController names a pod's controller ("rs/web"; empty for an orphan),
// and says whether it is gone: no live owner of that name has the uid the
// reference names.
func podController(p *api.Pod, owners claimants) (owner string, gone bool) {
	ref := api.GetControllerOf(&p.Metadata)
	if ref == nil {
		return "", false
	}
	owner = shortKind(api.Kind(ref.Kind)) + "/" + ref.Name
	c, ok := owners.byKey[p.Metadata.Namespace+"/"+owner]
	return owner, !ok || c.meta.UID != ref.UID
}

// claimHints fills in what the pod's ownership means for the next syncs:
// what the claim loop of each owner's next sync will do with it, decided
// by the controller's own rule (controller.DecideClaim, upstream's
// ClaimObject; spec §1.7). A pod whose controller reference names no live
// owner with that uid is OwnerGone: the garbage collector, not a sync, acts
// on it. Only active pods are claimed at all (claimPods is given the
// active pods): one terminating, Failed or Succeeded is neither released
// nor adopted. A pod its live owner's next sync releases is Releasing; an
// orphan is AdoptableBy every owner whose next sync adopts it (an empty
// selector matches nothing here, as the API refuses one).
func claimHints(pod *Pod, p *api.Pod, owners claimants) {
	active := controller.IsPodActive(p)
	if owner, gone := podController(p, owners); owner != "" {
		pod.OwnerGone = gone
		if c := owners.byKey[p.Metadata.Namespace+"/"+owner]; active && !gone && c.valid {
			d, _ := controller.DecideClaim(p, c.meta, c.selector)
			pod.Releasing = d == controller.ClaimNeedsRelease
		}
		return
	}
	if !active {
		return
	}
	for _, c := range owners.list {
		if !c.valid || c.selector.Empty() {
			continue
		}
		if d, _ := controller.DecideClaim(p, c.meta, c.selector); d == controller.ClaimNeedsAdoption {
			pod.AdoptableBy = append(pod.AdoptableBy, c.ref)
		}
	}
	slices.Sort(pod.AdoptableBy)
}

// podsView lists the pods, at most perGroup of each group (when above 0)
// and limit in all, and counts every group's pods, and all of them.
func podsView(w *World, limit, perGroup int) ([]Pod, []PodGroup, int) {
	var out []Pod
	var groups []PodGroup
	owners := claimantsOf(w)
	index := map[PodGroup]int{} // a group, its counts zero, → its place in groups
	objs := w.Store.Objects(api.KindPod, "")
	for _, obj := range objs {
		p := obj.(*api.Pod)
		pod := Pod{Namespace: p.Metadata.Namespace, Name: p.Metadata.Name}
		pod.Owner, pod.OwnerGone = podController(p, owners)
		key := PodGroup{Namespace: pod.Namespace, Owner: pod.Owner, OwnerGone: pod.OwnerGone}
		at, ok := index[key]
		if !ok {
			at = len(groups)
			index[key] = at
			groups = append(groups, key)
		}
		g := &groups[at]
		g.Pods++
		if controller.IsPodActive(p) {
			g.Active++
		}
		if len(out) >= limit || (perGroup > 0 && g.Pods > perGroup) {
			continue
		}
		pod.Phase, pod.Ready, pod.Node = p.Status.Phase, controller.IsPodReady(p), p.Spec.NodeName
		pod.Labels, pod.Terminating = maps.Clone(p.Metadata.Labels), p.Metadata.DeletionTimestamp != nil
		pod.Image = images(&p.Spec)
		if pod.Phase == "" {
			pod.Phase = api.PodPending
		}
		for _, cs := range p.Status.ContainerStatuses {
			pod.Restarts += cs.RestartCount
		}
		if kp, ok := w.Cluster.Kubelets.Pod(p.Metadata.Namespace, p.Metadata.Name); ok {
			pod.Kubelet = kp.String()
		}
		claimHints(&pod, p, owners)
		out = append(out, pod)
	}
	return out, groups, len(objs)
}

// informerOf compares an informer's cache with the API store, listing at most
// limit of its keys, those that differ first.
func informerOf(w *World, v informer.View, kind api.Kind, limit int) Informer {
	out := Informer{Name: v.Name, Kind: v.Kind, State: string(v.State), LastSyncRV: v.LastSyncRV, Synced: v.HasSynced,
		Lists: v.Lists, Watches: v.Watches}
	// The cache and the store, each sorted by key, are merged in one pass:
	// every key of either is an entry, in order. In a world of 10,000 pods
	// two maps of them and three sorts took two fifths of a view.
	cached := slices.Clone(v.Cache)
	sorting.Func(cached, func(a, b informer.CachedObject) int { return strings.Compare(a.Key, b.Key) })
	// The store lists in the order of keys, as the API server does.
	objects := w.Store.Objects(kind, "")
	inAPI := make([]informer.CachedObject, len(objects))
	for i, o := range objects {
		m := o.Meta()
		inAPI[i] = informer.CachedObject{Key: api.Key(m.Namespace, m.Name), ResourceVersion: m.ResourceVersion}
	}
	out.Cached, out.InAPI = len(cached), len(inAPI)
	var same []CacheEntry
	total := 0
	for i, j := 0, 0; i < len(cached) || j < len(inAPI); total++ {
		var entry CacheEntry
		switch {
		case j == len(inAPI) || i < len(cached) && cached[i].Key < inAPI[j].Key:
			entry = CacheEntry{Key: cached[i].Key, Cache: cached[i].ResourceVersion, Diff: "gone from the API"}
			i++
		case i == len(cached) || inAPI[j].Key < cached[i].Key:
			entry = CacheEntry{Key: inAPI[j].Key, API: inAPI[j].ResourceVersion, Diff: "not in the cache"}
			j++
		default:
			entry = CacheEntry{Key: cached[i].Key, Cache: cached[i].ResourceVersion, API: inAPI[j].ResourceVersion}
			if entry.Cache != entry.API {
				entry.Diff = "stale"
			}
			i++
			j++
		}
		if entry.Diff == "" {
			if len(same) < limit {
				same = append(same, entry)
			}
			continue
		}
		out.Differ++
		if len(out.Entries) < limit {
			out.Entries = append(out.Entries, entry)
		}
	}
	out.Entries = append(out.Entries, same[:min(len(same), limit-len(out.Entries))]...)
	out.EntriesTotal = total
	for _, p := range v.Pending {
		out.Pending = append(out.Pending, PendingKey{Key: p.Key, Deltas: slices.Clone(p.Deltas)})
	}
	return out
}

// controllerView shows a replication manager from inside: its queue, its
// workers, its expectations and its last syncs.
func controllerView(m *controller.Manager) Controller {
	v := m.View()
	out := Controller{Kind: shortKind(m.Kind()), Name: v.Name, Started: v.Started, Queue: queueView(v.Queue)}
	for _, wk := range v.Workers {
		out.Workers = append(out.Workers, Worker{Name: wk.Name, State: wk.State, Key: wk.Key, Phase: wk.Phase,
			Waiting: wk.Waiting, Syncs: wk.Syncs})
	}
	for _, x := range v.Expectations {
		out.Expectations = append(out.Expectations, Expectation{Key: x.Key, Add: x.Add, Del: x.Del,
			PendingDeletes: slices.Clone(x.PendingDeletes), Age: sim.FormatSeconds(x.Age), Satisfied: x.Satisfied,
			Expired: x.Expired})
	}
	for _, rec := range v.LastSyncs {
		out.LastSyncs = append(out.LastSyncs, *syncJSON(m, rec))
	}
	return out
}

// queueView copies a work queue's view, its times written as the trace
// writes them.
func queueView(v workqueue.View) Queue {
	q := Queue{Name: v.Name, Waiting: slices.Clone(v.Waiting), Dirty: slices.Clone(v.Dirty),
		IdleWorkers: slices.Clone(v.IdleWorkers)}
	for _, h := range v.Processing {
		q.Processing = append(q.Processing, Held{Key: h.Key, Worker: h.Worker})
	}
	for _, d := range v.Delayed {
		q.Delayed = append(q.Delayed, Delayed{Key: d.Key, ReadyAt: sim.FormatSeconds(d.ReadyAt), Delay: d.Delay.String(),
			RateLimited: d.RateLimited})
	}
	for _, r := range v.Requeues {
		q.Requeues = append(q.Requeues, Requeue{Key: r.Key, Count: r.Count})
	}
	return q
}

// gcView shows the garbage collector's work in progress.
func gcView(w *World) GC {
	v := w.GC.View()
	var out GC
	for _, o := range v.Owners {
		out.Owners = append(out.Owners, GCOwner{Owner: o.Owner, Namespace: o.Namespace, Mode: o.Mode, Phase: o.Phase,
			Dependents: slices.Clone(o.Dependents)})
	}
	for _, d := range v.Dependents {
		out.Dependents = append(out.Dependents, GCDependent{Object: d.Object, Namespace: d.Namespace, Owner: d.Owner, State: d.State})
	}
	return out
}

// agendaView lists the first n events of the agenda, and counts the events
// on their way along each edge of the loop.
func agendaView(k *sim.Kernel, n int) (Agenda, []Flight) {
	evs := k.Agenda()
	a := Agenda{Pending: len(evs)}
	var flights []Flight
	edge := map[[2]loop.Place]int{} // index in flights
	for i, ev := range evs {
		if ev.Background {
			a.Background++
		}
		if i < n {
			a.Next = append(a.Next, AgendaEvent{At: sim.FormatSeconds(ev.At), Seq: ev.Seq, To: ev.To,
				What: k.Describe(ev), Background: ev.Background})
		}
		from, to, ok := loop.Waiting(ev)
		if !ok {
			continue
		}
		if j, seen := edge[[2]loop.Place{from, to}]; seen {
			flights[j].Count++
			continue
		}
		edge[[2]loop.Place{from, to}] = len(flights)
		flights = append(flights, Flight{From: string(from), To: string(to), Count: 1, Next: k.Describe(ev)})
	}
	return a, flights
}

// faultsView lists the faults in force: the API server's rules, and the
// watch faults of the informers (infs, their views) that have any.
func faultsView(w *World, infs []informer.View) Faults {
	var f Faults
	for _, r := range w.Store.Faults().Rules() {
		kind := r.Error
		if kind == "" {
			kind = "server"
		}
		f.API = append(f.API, APIFault{ID: r.ID, Text: r.String(), Verb: string(r.Verb), Resource: r.Resource,
			Error: string(kind), Fired: r.Fired})
	}
	for _, iv := range infs {
		fv := iv.Faults
		if fv.DropNext == 0 && fv.Lost == 0 && fv.Delay == 0 {
			continue
		}
		wf := WatchFault{Informer: iv.Name, DropNext: fv.DropNext, Lost: fv.Lost}
		if fv.Delay > 0 {
			wf.Delay = fv.Delay.String()
		}
		f.Watch = append(f.Watch, wf)
	}
	return f
}
