package cluster

import (
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/cow"
	"github.com/reconcilelab/rlab/core/sim"
)

// The kubelets' own event kinds, besides the API server's responses and watch
// deliveries.
const (
	eventNodeStart    = "node-start"
	eventRegister     = "register"
	eventStarted      = "containers-started"
	eventRestarted    = "container-restarted"
	eventStopped      = "containers-stopped"
	eventStatusRetry  = "status-retry"
	eventCrash        = "crash"
	eventEvict        = "evict"
	eventSetReady     = "set-ready"
	statusRetryPeriod = 10 * time.Second // the status manager's syncPeriod
)

// EvictionMessage is the message the kubelet's eviction manager writes on a
// pod it evicts (its nodeLowMessageFmt, for memory; upstream goes on with the
// threshold and the containers' usage, which this model does not have).
const EvictionMessage = "The node was low on resource: memory."

// Kubelets models the kubelet of every node as one component, so that one
// watch of pods serves them all (N kubelets with N watches would turn every
// pod change into N deliveries). Each step reports as the kubelet of the node
// concerned, "kubelet/node-1".
//
// A node's kubelet starts (Cluster.Start for the configured nodes,
// CreateNode later), registers its Node through the API, and from then on
// runs the pods bound to its node: kubelet-start after it first sees a pod it
// reports it Running and Ready through the status subresource; when it sees
// the pod being deleted it stops it and removes it (a delete with grace 0 and
// the pod's uid as precondition) kubelet-stop later, or when the grace period
// ends if that is sooner. Crash, Evict and SetReady make things happen to a
// running pod, each as a step of its own.
type Kubelets struct {
	name string
	srv  *apistore.Server
	sch  sim.Scheduler

	// refs holds the Touched lists of its reports (see sim.RefArena).
	refs sim.RefArena
	// timers holds the payloads of the timers it sets (see sim.Slab), each
	// of which was an allocation of its own: a pod's start is one.
	timers sim.Slab[timerData]

	// startDelay and stopDelay are the current kubelet-start and kubelet-stop.
	// startText is startDelay in words, which every admission says: made
	// when it is set (setStartDelay), not for every pod.
	startDelay, stopDelay time.Duration
	startText             string

	// nodes are the nodes with a kubelet, in the order their kubelets were
	// created. nodeIndex maps a name to its index in nodes.
	nodes     []knode
	nodeIndex map[string]int

	podsR reflector

	// pods holds every pod the kubelets know to be bound to a node, by key.
	// Unbound pods are not held. The map and its entries are shared
	// copy-on-write with snapshots (package cow): mut copies an entry, and the
	// map, before their first change in an epoch. Each snapshot and each
	// restore starts a new epoch.
	pods  cow.Map[*kpod]
	epoch cow.Epoch

	// waiting maps a node that has no running kubelet to the keys of the pods
	// bound to it, in the order they were seen. Every key in it is in pods in
	// state podWaiting with that node.
	waiting map[string][]string

	// keyBuf is where podAt puts a key together; it holds nothing between
	// calls.
	keyBuf []byte

	// sent remembers parts of the last status the kubelets sent, to send
	// again when a status has equal ones (see sentParts); a cache, not
	// state.
	sent sentParts
}

// sentParts holds the conditions, container statuses and start time of the
// last pod status the kubelets sent, and the lists status builds the next
// one in. The pods of one ReplicaSet, started in the same second, report
// the same conditions at the same (whole-second) times, so nearly every
// status has the last one's parts (the API server's statusMemo counts all
// but a handful of 11,000 writes in the converge scenarios): a status is
// built in the scratch lists, and sends the remembered parts wherever they
// are equal, allocating only parts that differ. Five conditions are 576
// bytes, a seventh of what 10 ReplicaSets of 1,000 pods allocated.
//
// A part sent is shared with the request, and then with the stored pod,
// which never change it (apistore.Request.Object), so it is never changed
// either; only parts equal to the status field for field are sent, so
// nothing tells a shared part from an own copy. After a restore the
// remembered parts may be a rewound run's, which is as good.
type sentParts struct {
	conditions []api.PodCondition
	containers []api.ContainerStatus
	startTime  *api.Time

	// key is what conditions were built from, when keyed: the kubelet's
	// own conditions alone, all True (see trueConds). A status whose
	// conditions have the same key sends the remembered ones without
	// building them: building five conditions and comparing them with the
	// remembered ones, field by field, was two thirds of what a status
	// cost, for the same list nearly every time.
	key   condsKey
	keyed bool

	// scratchConditions and scratchContainers are where status builds a
	// status's lists, compared with the remembered ones, and scratchStarted
	// what their Started points at; never sent.
	scratchConditions []api.PodCondition
	scratchContainers []api.ContainerStatus
	scratchStarted    bool
}

// condsKey is what the conditions a kubelet reports of a pod are built
// from when they are its own alone, all True: which of them are set, and
// the second each last changed at (the wire's precision). Such conditions
// carry no reason and no message, so two pods whose keys are equal report
// equal conditions.
type condsKey struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	secs [numConds]int64
	set  uint8
}

// conditionsLike returns the remembered conditions if they equal conds,
// else a copy of conds of its own length, remembered.
func (p *sentParts) conditionsLike(conds []api.PodCondition) []api.PodCondition {
	if !slices.EqualFunc(conds, p.conditions, api.SamePodCondition) {
		p.conditions = slices.Clip(append([]api.PodCondition(nil), conds...))
	}
	return p.conditions
}

// containersLike returns the remembered container statuses if they equal
// cs, Started compared by the value it points at, else a copy of cs,
// remembered, each Started pointing at a value of its own.
func (p *sentParts) containersLike(cs []api.ContainerStatus) []api.ContainerStatus {
	if slices.EqualFunc(cs, p.containers, api.SameContainerStatus) {
		return p.containers
	}
	out := make([]api.ContainerStatus, len(cs))
	for i, c := range cs {
		if c.Started != nil {
			started := *c.Started
			c.Started = &started
		}
		out[i] = c
	}
	p.containers = out
	return out
}

// startTimeLike returns the remembered start time if it is t, else a new
// one, remembered.
func (p *sentParts) startTimeLike(t time.Time) *api.Time {
	if p.startTime == nil || *p.startTime != api.NewTime(t) {
		p.startTime = api.NewTimePtr(t)
	}
	return p.startTime
}

// knode is one node's kubelet.
type knode struct {
	name string
	// actor is "kubelet/NAME", the actor of its steps, joined once.
	actor string
	// labels are the labels the kubelet registers its node with; never changed
	// once set, so snapshots share them.
	labels map[string]string
	// ip is the node's address, reported as each pod's hostIP.
	ip string
	// started: the kubelet runs (its node-start step ran).
	started bool
	// regID is the registration request in flight, 0 when none.
	regID uint64
}

// PodState is what a kubelet is doing with a pod.
type PodState string

// The states of a pod in its kubelet.
const (
	// PodWaiting: bound to a node that has no running kubelet; it stays
	// Pending until the node's kubelet starts.
	PodWaiting PodState = "waiting"
	// PodStarting: admitted; its containers start at At.
	PodStarting PodState = "starting"
	// PodRunning: its containers run (Ready or not).
	PodRunning PodState = "running"
	// PodCrashed: its container exited and is restarted at At.
	PodCrashed PodState = "crashed"
	// PodFinished: the pod is Failed or Succeeded; nothing runs any more.
	PodFinished PodState = "finished"
	// PodStopping: it is being deleted; its containers are stopped and the
	// pod removed at At.
	PodStopping PodState = "stopping"
	// PodRemoving: the kubelet has sent the delete that removes it.
	PodRemoving PodState = "removing"
)

// kpod is what a kubelet knows and reports of one pod. The kubelet is the
// owner of the pod's status: every status it writes is computed from these
// fields, not from what it last read, so a report still on its way cannot be
// undone by a stale read.
type kpod struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// Stamp makes it a cow.Row: the pods map shares it with snapshots, and
	// mut copies it before its first change in an epoch.
	cow.Stamp

	// node is the node the pod is bound to.
	node string
	// key is the pod's key, namespace/name, kept to name it in its timers.
	key string
	// pod is the latest version the kubelet saw (shared, read-only). It is
	// set from the row's first observation on, always of the same pod (a
	// new uid under the name is a new row), so the pod's namespace, name and
	// uid are read from it rather than kept a second time (see the methods
	// below): 48 bytes fewer a row.
	pod *api.Pod

	state PodState
	// timerSeq is the pending event of the state (start, restart, stop) when
	// hasTimer; at is when that event fires, or, for a pod stopping without
	// a timer of its own (its grace period ends first), when it ends.
	timerSeq uint64
	at       time.Duration

	// What the kubelet reports.
	phase           string
	reason, message string
	restarts        int32
	running, ready  bool
	evicted         bool
	hasTimer        bool
	// startTime is when the kubelet admitted the pod; unset before.
	startTime stamp
	// conds holds the kubelet-owned conditions with the time each last
	// changed, so lastTransitionTime only moves when the status changes.
	conds [numConds]condState

	// statusID is the latest status write in flight, 0 when none.
	statusID uint64
}

// namespace, name and uid are the pod's.
func (p *kpod) namespace() string { return p.pod.Metadata.Namespace }
func (p *kpod) name() string      { return p.pod.Metadata.Name }
func (p *kpod) uid() string       { return p.pod.Metadata.UID }

// Copy returns a copy of the pod, for cow.Mut. Its fields are values and
// shared read-only pointers, so a shallow copy is a full one.
func (p *kpod) Copy() *kpod {
	cp := *p
	return &cp
}

// condState is one of the conditions a kubelet reports of a pod: its
// status, and since when.
type condState struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// sec and nsec are a stamp's (see stamp): when status last changed,
	// unset while the kubelet does not report the condition at all. They
	// are laid out here rather than as a stamp so that status takes the
	// stamp's padding: a condition takes 16 bytes, where a stamp and the
	// status as a string took 32, and a kubelet's row of a pod 240, where
	// it took 320 (about 0.8 MiB fewer at 10,000 pods).
	sec    int64
	nsec   int32
	status condStatus
}

// condOf is a condition of status since a time.
func condOf(status string, since time.Time) condState {
	s := stampOf(since)
	return condState{sec: s.sec, nsec: s.nsec, status: condStatusOf(status)}
}

// since is when the condition's status last changed.
func (c condState) since() stamp { return stamp{sec: c.sec, nsec: c.nsec} }

// condStatus is a condition's status as a kubelet keeps it: one of the
// three a condition may have.
type condStatus uint8

const (
	condFalse condStatus = iota
	condTrue
	condUnknown
)

// condStatusOf is the condStatus of a status as the API writes it. A
// status other than the three cannot reach a kubelet (every writer of a
// pod's conditions in the model writes True or False), and would be kept
// as Unknown.
func condStatusOf(status string) condStatus {
	switch status {
	case api.ConditionTrue:
		return condTrue
	case api.ConditionFalse:
		return condFalse
	}
	return condUnknown
}

// text returns the status as the API writes it. (A function, not a
// String method: a method would give the type a descriptor and a wrapper in
// main.wasm for nothing that prints it.)
func (c condStatus) text() string {
	switch c {
	case condTrue:
		return api.ConditionTrue
	case condFalse:
		return api.ConditionFalse
	}
	return api.ConditionUnknown
}

// stamp is a time of the simulated clock kept in 16 bytes, where a
// time.Time takes 24: the seconds since the Unix epoch, and the nanoseconds
// within the second plus one, so that the zero stamp is no time at all and
// every time.Time, the zero time included, has one of its own. A kubelet
// keeps six times for each pod it runs; as stamps they take 96 bytes fewer,
// about 1 MiB at 10,000 pods.
//
// A stamp keeps the instant, not the location: every time here is UTC
// (the kernel's epoch, and the API's times, which the store keeps in UTC),
// and time() answers in UTC, so a time goes in and comes out the same.
type stamp struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	sec  int64
	nsec int32
}

// stampOf is the stamp of t.
func stampOf(t time.Time) stamp { return stamp{sec: t.Unix(), nsec: int32(t.Nanosecond()) + 1} }

// wire returns the stamp's time as the kubelet's status carries it, whole
// seconds (RFC 3339, the precision the API server stores), in UTC; the zero
// time if it holds none. The stamp itself keeps the instant.
func (s stamp) wire() time.Time {
	if !s.isSet() {
		return time.Time{}
	}
	return time.Unix(s.sec, 0).UTC()
}

// isSet reports whether the stamp holds a time.
func (s stamp) isSet() bool { return s.nsec != 0 }

// time returns the time the stamp holds, in UTC; the zero time if it holds
// none.
func (s stamp) time() time.Time {
	if !s.isSet() {
		return time.Time{}
	}
	return time.Unix(s.sec, int64(s.nsec-1)).UTC()
}

// The pod conditions the kubelet owns, in the order it writes them.
const (
	condReadyToStart = iota
	condInitialized
	condReady
	condContainersReady
	condScheduled
	numConds
)

// condTypes are the condition types, by index. The kubelet writes
// PodScheduled True too, as upstream's generateAPIPodStatus does: a pod
// created with spec.nodeName gets it from its kubelet, a scheduled pod keeps
// the one its binding wrote.
var condTypes = [numConds]string{"PodReadyToStartContainers", "Initialized", api.PodReady, "ContainersReady", api.PodScheduled}

// conditionDisruptionTarget is set on a pod the kubelet evicts.
const conditionDisruptionTarget = "DisruptionTarget"

// timerData identifies the pod a timer or action event is for.
type timerData struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	key, uid string
}

// actionData is a pod action (crash, evict, set ready) on its way.
type actionData struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	key, uid string
	ready    bool
}

func newKubelets(cfg Config, srv *apistore.Server, sch sim.Scheduler) *Kubelets {
	k := &Kubelets{
		name: cfg.KubeletName, srv: srv, sch: sch,
		stopDelay: cfg.KubeletStop,
		nodeIndex: map[string]int{}, podsR: newReflector(api.KindPod),
		epoch: 1, waiting: map[string][]string{},
	}
	k.setStartDelay(cfg.KubeletStart)
	return k
}

// Name returns the component name.
func (k *Kubelets) Name() string { return k.name }

// KubeletStart returns the current kubelet-start.
func (k *Kubelets) KubeletStart() time.Duration { return k.startDelay }

// KubeletStop returns the current kubelet-stop.
func (k *Kubelets) KubeletStop() time.Duration { return k.stopDelay }

// SetKubeletStart changes kubelet-start from now on (`slow kubelet D`,
// `config kubelet-start=D`): pods admitted or crashed from now on take d to
// be Running and Ready; those already starting keep their time. d <= 0 means
// the default.
func (k *Kubelets) SetKubeletStart(d time.Duration) {
	if d <= 0 {
		d = DefaultKubeletStart
	}
	k.setStartDelay(d)
}

func (k *Kubelets) setStartDelay(d time.Duration) { k.startDelay, k.startText = d, d.String() }

// SetKubeletStop changes kubelet-stop from now on (`config kubelet-stop=D`);
// pods already stopping keep their time. d <= 0 means the default.
func (k *Kubelets) SetKubeletStop(d time.Duration) {
	if d <= 0 {
		d = DefaultKubeletStop
	}
	k.stopDelay = d
}

func (k *Kubelets) hasNode(name string) bool {
	_, ok := k.nodeIndex[name]
	return ok
}

// start schedules the list of pods.
func (k *Kubelets) start() { k.sch.After(0, k.name, eventStart, nil) }

// startNode adds a node's kubelet and schedules its first step.
func (k *Kubelets) startNode(name string, nodeLabels map[string]string) {
	k.nodeIndex[name] = len(k.nodes)
	k.nodes = append(k.nodes, knode{name: name, actor: k.name + "/" + name, labels: maps.Clone(nodeLabels), ip: "10.0.0." + strconv.Itoa(len(k.nodes)+1)})
	k.sch.After(0, k.name, eventNodeStart, name)
}

// actor names the kubelet of a node, "kubelet/node-1"; for a pod that is not
// bound, or bound to a node without a kubelet, it is the component's name.
func (k *Kubelets) actor(node string) string {
	if i, ok := k.nodeAt(node); ok {
		return k.nodes[i].actor
	}
	return k.name
}

// served reports whether a node's kubelet runs.
func (k *Kubelets) served(node string) bool {
	i, ok := k.nodeAt(node)
	return ok && k.nodes[i].started
}

// nodeAt returns the index in nodes of the node of that name, and whether
// it has a kubelet. A world has a few nodes (three unless it names others),
// and comparing their names is cheaper than the map lookup that each pod
// event made two or three times; a world of many nodes looks in the map.
func (k *Kubelets) nodeAt(name string) (int, bool) {
	if len(k.nodes) > 8 {
		i, ok := k.nodeIndex[name]
		return i, ok
	}
	for i := range k.nodes {
		if k.nodes[i].name == name {
			return i, true
		}
	}
	return 0, false
}

// podAt returns the pod held under the key of namespace and name, nil if
// none. It puts the key together in keyBuf rather than in a string made
// for the lookup (indexing a map with string(bytes) makes no string): the
// answer to every status write looks its pod up.
func (k *Kubelets) podAt(namespace, name string) *kpod {
	k.keyBuf = api.AppendKey(k.keyBuf[:0], namespace, name)
	return k.pods.Read()[string(k.keyBuf)]
}

// mut returns the pod's entry ready to change, copied first if a snapshot
// shares it; nil when the kubelets hold no such pod.
func (k *Kubelets) mut(key string) *kpod { return cow.Mut(&k.pods, k.epoch, key) }

// StartStep reuses the kubelets' arena: the lists of their last step are
// dead (sim.Arena).
func (k *Kubelets) StartStep() { k.refs.Reuse() }

// Handle runs one of the kubelets' steps.
func (k *Kubelets) Handle(ctx *sim.Context, ev sim.Event) sim.Report {
	switch ev.Kind {
	case eventStart:
		k.podsR.list(ctx, k.srv, k.name)
		return sim.Report{Actor: k.name, Models: "Kubelet.Run", Summary: sim.Text("the kubelets start: listing pods, to watch them from there")}
	case eventRelist:
		k.podsR.list(ctx, k.srv, k.name)
		return sim.Report{Actor: k.name, Models: "Reflector.list", Summary: sim.Text("listing pods again after a failed list or watch")}
	case eventNodeStart:
		return k.nodeStart(ctx, ev.Data.(string))
	case eventRegister:
		return k.register(ctx, ev.Data.(string), true)
	case apistore.EventResponse:
		return k.response(ctx, ev.Data.(*apistore.Reply))
	case apistore.EventWatch:
		d := *ev.Data.(*apistore.WatchDelivery)
		if !k.podsR.accept(d) {
			return sim.Report{Actor: k.name, Models: "Reflector.watch",
				Summary: sim.Say(formDiscarded, string(d.Event.Type), refOf(d.Event.Object).Kind, refOf(d.Event.Object).Name)}
		}
		if d.Event.Type == apistore.Deleted {
			return k.podDeleted(ctx, d.Event)
		}
		// A pod added or changed, nearly every step of the kubelets, is
		// handled here rather than in a function of its own, whose report
		// (176 bytes) was copied out again into this one's.
		pod := d.Event.Object.(*api.Pod)
		models, summary := k.observe(ctx, d.Event.ObjectKey(), pod)
		return sim.Report{Actor: k.actor(pod.Spec.NodeName), Models: models, Summary: summary, Touched: k.refs.Of(podRef(pod))}
	case eventStarted, eventRestarted, eventStopped, eventStatusRetry:
		return k.timer(ctx, ev.Kind, *ev.Data.(*timerData))
	case eventCrash, eventEvict, eventSetReady:
		return k.action(ctx, ev.Kind, ev.Data.(actionData))
	}
	return sim.Report{Actor: k.name, Summary: sim.Say(formIgnoredEvent, ev.Kind)}
}

// The kubelets' sentences. They see every pod event and run every pod's
// containers, so the sentences of their pod steps are said, with the pod's
// and node's names, its phase and the times as facts.
var (
	formTakesOverOne   = &sim.Form{Text: "; it takes over pod/%s, bound here before the node existed"}
	formTakesOver      = &sim.Form{Text: "; it takes over %d pods bound here before the node existed"}
	formRegistering    = &sim.Form{Text: "the kubelet of node %s starts and registers its node with the API server (Ready)"}
	formRegisterAgain  = &sim.Form{Text: "the kubelet of node %s tries again to register its node with the API server"}
	formStaleRegister  = &sim.Form{Text: "ignored the answer to an earlier registration of node %s"}
	formRegistered     = &sim.Form{Text: "node %s is registered (resourceVersion %u); the scheduler can place pods there once it hears of it"}
	formWasRegistered  = &sim.Form{Text: "node %s was already registered; the kubelet goes on with it"}
	formRegisterLost   = &sim.Form{Text: "registering node %s failed for good: %s"}
	formRegisterRetry  = &sim.Form{Text: "registering node %s failed (%s); trying again in %D"}
	formKubeletListed  = &sim.Form{Text: "listed %{pod|pods} at resourceVersion %u: %d on nodes with a kubelet"}
	formKubeletWaiting = &sim.Form{Text: ", %d waiting for their node's kubelet; watching pods from there"}
	formWatchingPods   = &sim.Form{Text: "; watching pods from there"}

	formUnknownGone = &sim.Form{Text: "saw pod/%s deleted; no kubelet was running it"}
	formGone        = &sim.Form{Text: "pod/%s is gone from the API server: %s"}

	formUnbound         = &sim.Form{Text: "saw pod/%s, which is not bound to a node yet: no kubelet runs it until the scheduler binds it"}
	formNoKubelet       = &sim.Form{Text: "saw pod/%s bound to %s, which has no running kubelet: it stays Pending until a kubelet starts there"}
	formBeingRemoved    = &sim.Form{Text: "saw pod/%s change while it is being removed: nothing to do"}
	formFinishedAsIs    = &sim.Form{Text: "saw pod/%s as reported: %s; nothing runs any more"}
	formMarkedFinished  = &sim.Form{Text: "saw pod/%s marked %s by another writer: its containers are stopped for good"}
	formWhileStopping   = &sim.Form{Text: "saw pod/%s change while its containers stop: nothing more to do"}
	formAdmittedRunning = &sim.Form{Text: "admitted pod/%s, which another writer already reports Running" + readyWords + ": it runs as reported"}
	formAdmitted        = &sim.Form{Text: "admitted pod/%s: pulling the image and starting its containers; it will be Running and Ready in %s (t=%T)"}
	formOvertaken       = &sim.Form{Text: "saw another writer report pod/%s Running" + readyWords + " before its containers started: it runs as reported"}
	formWhileStarting   = &sim.Form{Text: "saw pod/%s change while its containers start (Running at t=%T): nothing to do yet"}
	formWhileRestarting = &sim.Form{Text: "saw pod/%s change while its container restarts (back at t=%T): nothing to do yet"}
	formAsReported      = &sim.Form{Text: "saw pod/%s as its kubelet reported it: %s; nothing to do"}
	formRunsAsBefore    = &sim.Form{Text: "saw pod/%s change; it runs" + readyWords + " as before, nothing to do"}

	formKilledAtOnce  = &sim.Form{Text: "saw pod/%s deleted with no grace period: the API server removes it at once and its containers are killed"}
	formKilledAtEnd   = &sim.Form{Text: "saw pod/%s being deleted" + graceWords + ": the grace period ends before its containers would have stopped (kubelet-stop %D), so they are killed then, and the API server removes the pod"}
	formKilledInGrace = &sim.Form{Text: "saw pod/%s being deleted" + graceWords + ": its containers are killed and the pod removed as the grace period ends"}
	formStopping      = &sim.Form{Text: "saw pod/%s being deleted" + graceWords + ": stopping its containers; the pod will be removed at t=%T"}

	formTimerGone     = &sim.Form{Text: "a timer of pod/%s fired, but the pod is gone"}
	formStarted       = &sim.Form{Text: "started the containers of pod/%s: reporting it Running and Ready"}
	formRestarted     = &sim.Form{Text: "restarted the container of pod/%s (restart %d): reporting it Running and Ready again"}
	formStopped       = &sim.Form{Text: "stopped the containers of pod/%s: removing the pod from the API server (delete with grace period 0, uid precondition)"}
	formStatusAgain   = &sim.Form{Text: "writing the status of pod/%s again (%s) after the last write failed"}
	formTimerMovedOn  = &sim.Form{Text: "a timer of pod/%s fired, but the pod has moved on (%s): nothing to do"}
	formStatusStored  = &sim.Form{Text: "the API server stored the status of pod/%s (%s, %[not Ready|Ready], resourceVersion %u)"}
	formStatusSame    = &sim.Form{Text: "the API server stored the status of pod/%s (unchanged, resourceVersion %u)"}
	formStatusLetBe   = &sim.Form{Text: "writing the status of pod/%s failed (%s); the pod is gone or was replaced, so the kubelet lets it be"}
	formStatusRetry   = &sim.Form{Text: "writing the status of pod/%s failed (%s); the status manager tries again in %D"}
	formStatusEarlier = &sim.Form{Text: "an earlier status write of pod/%s failed (%s); a later one is on its way"}
	formRemoved       = &sim.Form{Text: "the API server removed pod/%s (resourceVersion %u)"}
	formAlreadyGone   = &sim.Form{Text: "pod/%s was already gone when its kubelet removed it"}
	formNameTaken     = &sim.Form{Text: "removing pod/%s failed: another pod has taken its name (%s)"}
	formRemoveRetry   = &sim.Form{Text: "removing pod/%s failed (%s); trying again in %D"}
	formRemoveFailed  = &sim.Form{Text: "removing pod/%s failed (%s)"}
)

func init() {
	sim.Register(
		formTakesOverOne,
		formTakesOver,
		formRegistering,
		formRegisterAgain,
		formStaleRegister,
		formRegistered,
		formWasRegistered,
		formRegisterLost,
		formRegisterRetry,
		formKubeletListed,
		formKubeletWaiting,
		formWatchingPods,
		formUnknownGone,
		formGone,
		formUnbound,
		formNoKubelet,
		formBeingRemoved,
		formFinishedAsIs,
		formMarkedFinished,
		formWhileStopping,
		formAdmittedRunning,
		formAdmitted,
		formOvertaken,
		formWhileStarting,
		formWhileRestarting,
		formAsReported,
		formRunsAsBefore,
		formKilledAtOnce,
		formKilledAtEnd,
		formKilledInGrace,
		formStopping,
		formTimerGone,
		formStarted,
		formRestarted,
		formStopped,
		formStatusAgain,
		formTimerMovedOn,
		formStatusStored,
		formStatusSame,
		formStatusLetBe,
		formStatusRetry,
		formStatusEarlier,
		formRemoved,
		formAlreadyGone,
		formNameTaken,
		formRemoveRetry,
		formRemoveFailed,
	)
}

const (
	// readyWords says whether a Running pod is Ready, from a choice
	// (readyChoice).
	readyWords = "%[, not Ready| and Ready]"
	// graceWords says a deletion's grace period and when it ends.
	graceWords = " (grace period %ds, until t=%T)"
)

func readyChoice(ready bool) int64 {
	if ready {
		return 1
	}
	return 0
}

// nodeStart starts a node's kubelet: it registers the node and takes over
// the pods already bound there.
func (k *Kubelets) nodeStart(ctx *sim.Context, name string) sim.Report {
	i := k.nodeIndex[name]
	k.nodes[i].started = true
	rep := k.register(ctx, name, false)
	keys := k.waiting[name]
	delete(k.waiting, name)
	var taken []string
	for _, key := range keys {
		p := k.mut(key)
		if p == nil || p.state != PodWaiting || p.node != name {
			continue
		}
		k.sync(ctx, p)
		taken = append(taken, p.name())
		rep.Touched = append(rep.Touched, sim.Ref{Kind: "pod", Namespace: p.namespace(), Name: p.name()})
	}
	switch len(taken) {
	case 0:
	case 1:
		rep.Summary = rep.Summary.Then(sim.Say(formTakesOverOne, taken[0]))
	default:
		rep.Summary = rep.Summary.Then(sim.Say(formTakesOver).With(int64(len(taken))))
	}
	return rep
}

// register sends the node's registration.
func (k *Kubelets) register(ctx *sim.Context, name string, again bool) sim.Report {
	i := k.nodeIndex[name]
	n := &k.nodes[i]
	nodeLabels := map[string]string{
		"kubernetes.io/arch":     "amd64",
		"kubernetes.io/hostname": name,
		"kubernetes.io/os":       "linux",
	}
	maps.Copy(nodeLabels, n.labels)
	node := &api.Node{
		Metadata: api.ObjectMeta{Name: name, Labels: nodeLabels},
		Status: api.NodeStatus{Conditions: []api.NodeCondition{{
			Type: api.NodeReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(ctx.Wall()),
			Reason: "KubeletReady", Message: "kubelet is posting ready status",
		}}},
	}
	n.regID = k.srv.Send(ctx, k.name, apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindNode, Object: node})
	summary := sim.Say(formRegistering, name)
	if again {
		summary = sim.Say(formRegisterAgain, name)
	}
	return sim.Report{Actor: k.actor(name), Models: "registerWithAPIServer", Summary: summary,
		Touched: []sim.Ref{{Kind: "node", Name: name}}}
}

func (k *Kubelets) response(ctx *sim.Context, rep *apistore.Reply) sim.Report {
	req := rep.Request
	switch {
	case k.podsR.owns(rep):
		items, err := k.podsR.answered(ctx, k.srv, k.name, eventRelist, rep)
		if err != nil {
			return sim.Report{Actor: k.name, Models: "Reflector.ListAndWatch",
				Summary: sim.Say(formRelistIn, req.String(), err.Error(), "pods").With(int64(relistDelay))}
		}
		if req.Verb == apistore.VerbWatch {
			return sim.Report{Actor: k.name, Models: "Reflector.watch",
				Summary: sim.Say(formWatchOpen, "pods").With(int64(req.List().ResourceVersion))}
		}
		return k.listed(ctx, items, rep.Response.ResourceVersion)
	case req.Kind == api.KindNode && req.Verb == apistore.VerbCreate:
		return k.registered(ctx, rep)
	case req.Kind == api.KindPod && req.Subresource == apistore.SubresourceStatus:
		return k.statusAnswered(ctx, rep)
	case req.Kind == api.KindPod && req.Verb == apistore.VerbDelete:
		return k.deleteAnswered(ctx, rep)
	}
	return sim.Report{Actor: k.name, Summary: sim.Say(formIgnoredReply, req.String())}
}

func (k *Kubelets) registered(ctx *sim.Context, rep *apistore.Reply) sim.Report {
	name := rep.Request.Object.Meta().Name
	i, ok := k.nodeIndex[name]
	stale := !ok || k.nodes[i].regID != rep.ID
	if !stale {
		k.nodes[i].regID = 0
	}
	// Every outcome makes the same report but for its summary, picked
	// here: a report written out for each made main.wasm bigger.
	var summary sim.Sentence
	switch err := rep.Response.Err; {
	case stale:
		summary = sim.Say(formStaleRegister, name)
	case err == nil:
		summary = sim.Say(formRegistered, name).With(int64(rep.Response.ResourceVersion))
	case apistore.IsAlreadyExists(err):
		summary = sim.Say(formWasRegistered, name)
	case apistore.IsInvalid(err):
		summary = sim.Say(formRegisterLost, name, err.Error())
	default:
		ctx.After(relistDelay, k.name, eventRegister, name)
		summary = sim.Say(formRegisterRetry, name, err.Error()).With(int64(relistDelay))
	}
	return sim.Report{Actor: k.actor(name), Models: "registerWithAPIServer", Touched: k.refs.Of(sim.Ref{Kind: "node", Name: name}),
		Summary: summary}
}

// listed takes in a list of pods: every pod is observed, and the pods held
// that the list lacks are forgotten.
func (k *Kubelets) listed(ctx *sim.Context, items []api.Object, rv uint64) sim.Report {
	seen := make(map[string]bool, len(items))
	admitted, waiting := 0, 0
	for _, obj := range items {
		pod := obj.(*api.Pod)
		key := api.Key(pod.Metadata.Namespace, pod.Metadata.Name)
		seen[key] = true
		k.observe(ctx, key, pod)
		if p := k.pods.Read()[key]; p != nil {
			if p.state == PodWaiting {
				waiting++
			} else {
				admitted++
			}
		}
	}
	for _, key := range cow.SortedKeys(k.pods) {
		if !seen[key] {
			k.forget(ctx, key)
		}
	}
	summary := sim.Say(formKubeletListed).With(int64(len(items)), int64(rv), int64(admitted))
	if waiting > 0 {
		summary = summary.Then(sim.Say(formKubeletWaiting).With(int64(waiting)))
	} else {
		summary = summary.Then(sim.Say(formWatchingPods))
	}
	return sim.Report{Actor: k.name, Models: "Reflector.syncWith", Summary: summary}
}

// podDeleted handles the deletion of a pod.
func (k *Kubelets) podDeleted(ctx *sim.Context, ev *apistore.WatchEvent) sim.Report {
	pod := ev.Object.(*api.Pod)
	key := ev.ObjectKey()
	ref := podRef(pod)
	p := k.pods.Read()[key]
	if p == nil || p.uid() != pod.Metadata.UID {
		return sim.Report{Actor: k.actor(pod.Spec.NodeName), Models: "HandlePodRemoves", Touched: k.refs.Of(ref),
			Summary: sim.Say(formUnknownGone, pod.Metadata.Name)}
	}
	node, state, at := p.node, p.state, p.at
	k.forget(ctx, key)
	var why string
	switch state {
	case PodRemoving:
		why = "its kubelet had stopped it and removed it; it forgets the pod"
	case PodStopping:
		if g := pod.Metadata.DeletionGracePeriodSeconds; g != nil && *g == 0 && at == ctx.Now() {
			why = "it was deleted with no grace period, so its containers are killed at once; the kubelet forgets the pod"
		} else if at <= ctx.Now() {
			why = "its grace period ended, so its containers were killed; the kubelet forgets the pod"
		} else {
			why = "its containers are killed at once and the kubelet forgets the pod"
		}
	case PodStarting:
		why = "it was deleted before its containers started; the kubelet forgets it"
	case PodWaiting:
		why = "it never ran: its node had no kubelet"
	case PodFinished:
		why = "it had finished; the kubelet forgets it"
	default:
		why = "its containers are killed at once and the kubelet forgets the pod"
	}
	return sim.Report{Actor: k.actor(node), Models: "HandlePodRemoves", Touched: k.refs.Of(ref),
		Summary: sim.Say(formGone, pod.Metadata.Name, why)}
}

// observe takes in the current state of a pod and acts on it.
func (k *Kubelets) observe(ctx *sim.Context, key string, pod *api.Pod) (models string, summary sim.Sentence) {
	p := k.pods.Read()[key]
	if p != nil && p.uid() != pod.Metadata.UID {
		k.forget(ctx, key) // the name now belongs to a new pod
		p = nil
	}
	node := pod.Spec.NodeName
	if node == "" {
		return "HandlePodAdditions", sim.Say(formUnbound, pod.Metadata.Name)
	}
	if p == nil {
		p = cow.Add(&k.pods, k.epoch, key, &kpod{node: node, key: key, pod: pod})
	} else {
		p = cow.MutRead(&k.pods, k.epoch, key, p)
	}
	p.pod = pod
	if !k.served(node) {
		if p.state == "" {
			p.state = PodWaiting
			// Clip: the list may be shared with a snapshot.
			k.waiting[node] = append(slices.Clip(k.waiting[node]), key)
		}
		return "HandlePodAdditions", sim.Say(formNoKubelet, p.name(), node)
	}
	return k.sync(ctx, p)
}

// forget drops a pod the API no longer holds.
func (k *Kubelets) forget(ctx *sim.Context, key string) {
	p := k.mut(key)
	if p == nil {
		return
	}
	k.cancelTimer(ctx, p)
	if p.state == PodWaiting {
		keys := slices.DeleteFunc(slices.Clone(k.waiting[p.node]), func(x string) bool { return x == key })
		if len(keys) == 0 {
			delete(k.waiting, p.node)
		} else {
			k.waiting[p.node] = keys
		}
	}
	delete(k.pods.Write(k.epoch), key)
}

func (k *Kubelets) cancelTimer(ctx *sim.Context, p *kpod) {
	if p.hasTimer {
		ctx.Cancel(p.timerSeq)
		p.hasTimer = false
	}
}

func (k *Kubelets) setTimer(ctx *sim.Context, p *kpod, d time.Duration, kind string) {
	k.cancelTimer(ctx, p)
	p.timerSeq = ctx.After(d, k.name, kind, k.timers.Put(timerData{key: p.key, uid: p.uid()}))
	p.hasTimer = true
	p.at = ctx.Now() + d
}

// sync is the kubelet's syncPod: it compares the pod as the API has it with
// what the kubelet is doing, and acts.
func (k *Kubelets) sync(ctx *sim.Context, p *kpod) (models string, summary sim.Sentence) {
	pod := p.pod
	switch p.state {
	case PodRemoving:
		return "HandlePodUpdates", sim.Say(formBeingRemoved, p.name())
	case PodFinished:
		return "HandlePodUpdates", sim.Say(formFinishedAsIs, p.name(), p.phaseText())
	}
	if isTerminal(pod) {
		k.cancelTimer(ctx, p)
		p.state, p.phase, p.running, p.ready = PodFinished, pod.Status.Phase, false, false
		return "HandlePodUpdates", sim.Say(formMarkedFinished, p.name(), pod.Status.Phase)
	}
	if pod.Metadata.DeletionTimestamp != nil {
		if p.state == PodStopping {
			return "HandlePodUpdates", sim.Say(formWhileStopping, p.name())
		}
		return k.beginStop(ctx, p)
	}
	switch p.state {
	case "", PodWaiting:
		if pod.Status.Phase == api.PodRunning {
			k.adopt(p, ctx.Wall())
			return "HandlePodAdditions", sim.Say(formAdmittedRunning, p.name()).With(readyChoice(p.ready))
		}
		now := ctx.Wall()
		p.startTime = stampOf(now)
		p.phase = api.PodPending
		p.setCond(condReadyToStart, api.ConditionTrue, now)
		p.setCond(condInitialized, api.ConditionTrue, now)
		p.setCond(condReady, api.ConditionFalse, now)
		p.setCond(condContainersReady, api.ConditionFalse, now)
		p.takeScheduled(now)
		p.state = PodStarting
		k.setTimer(ctx, p, k.startDelay, eventStarted)
		return "HandlePodAdditions", sim.Say(formAdmitted, p.name(), k.startText).With(int64(p.at))
	case PodStarting:
		if pod.Status.Phase == api.PodRunning {
			k.cancelTimer(ctx, p)
			k.adopt(p, ctx.Wall())
			return "HandlePodUpdates", sim.Say(formOvertaken, p.name()).With(readyChoice(p.ready))
		}
		return "HandlePodUpdates", sim.Say(formWhileStarting, p.name()).With(int64(p.at))
	case PodCrashed:
		return "HandlePodUpdates", sim.Say(formWhileRestarting, p.name()).With(int64(p.at))
	}
	if p.reportedAs(pod) {
		return "HandlePodUpdates", sim.Say(formAsReported, p.name(), p.phaseText())
	}
	return "HandlePodUpdates", sim.Say(formRunsAsBefore, p.name()).With(readyChoice(p.ready))
}

// adopt takes over the status another writer gave a pod (a bare pod created
// Running, or marked Running before its kubelet started it).
func (k *Kubelets) adopt(p *kpod, now time.Time) {
	st := &p.pod.Status
	p.state, p.phase, p.running = PodRunning, api.PodRunning, true
	p.ready = false
	for _, c := range st.Conditions {
		for i, t := range condTypes {
			if c.Type == t {
				p.conds[i] = condOf(c.Status, c.LastTransitionTime.Time)
			}
		}
		if c.Type == api.PodReady {
			p.ready = c.Status == api.ConditionTrue
		}
	}
	if st.StartTime != nil {
		// A zero start time is none, as the kubelet reports it.
		p.startTime = stamp{}
		if !st.StartTime.IsZero() {
			p.startTime = stampOf(st.StartTime.Time)
		}
	}
	if len(st.ContainerStatuses) > 0 {
		p.restarts = st.ContainerStatuses[0].RestartCount
	}
	p.takeScheduled(now)
}

// takeScheduled takes over the PodScheduled condition as the pod carries it
// (the binding's), or, when it has none, sets it True from now.
func (p *kpod) takeScheduled(now time.Time) {
	for _, c := range p.pod.Status.Conditions {
		if c.Type == api.PodScheduled {
			p.conds[condScheduled] = condOf(c.Status, c.LastTransitionTime.Time)
			return
		}
	}
	p.setCond(condScheduled, api.ConditionTrue, now)
}

// beginStop starts stopping a pod whose deletion the kubelet just saw.
func (k *Kubelets) beginStop(ctx *sim.Context, p *kpod) (models string, summary sim.Sentence) {
	m := &p.pod.Metadata
	k.cancelTimer(ctx, p)
	p.state = PodStopping
	grace := int64(0)
	if m.DeletionGracePeriodSeconds != nil {
		grace = *m.DeletionGracePeriodSeconds
	}
	if grace == 0 {
		p.at = ctx.Now()
		return "HandlePodUpdates", sim.Say(formKilledAtOnce, p.name())
	}
	left := max(m.DeletionTimestamp.Sub(ctx.Wall()), 0)
	deadline := ctx.Now() + left
	if left <= k.stopDelay {
		if !k.srv.Config().NoGraceEnforcement {
			// The API server models the kubelet's forced kill at the end of
			// the grace period; the kubelet leaves it to that.
			p.at = deadline
			return "killPod", sim.Say(formKilledAtEnd, p.name()).With(grace, int64(deadline), int64(k.stopDelay))
		}
		// The removal is sent one request latency early, so that it reaches
		// the API server when the grace period ends, not after.
		k.setTimer(ctx, p, max(left-k.srv.Config().Latency, 0), eventStopped)
		return "killPod", sim.Say(formKilledInGrace, p.name()).With(grace, int64(deadline))
	}
	k.setTimer(ctx, p, k.stopDelay, eventStopped)
	return "killPod", sim.Say(formStopping, p.name()).With(grace, int64(deadline), int64(p.at))
}

// timer runs a pod's pending step: containers started or restarted, or
// stopped, or a status write to retry.
func (k *Kubelets) timer(ctx *sim.Context, kind string, d timerData) sim.Report {
	p := k.pods.Read()[d.key]
	if p == nil || p.uid() != d.uid {
		return sim.Report{Actor: k.name, Models: "syncPod", Summary: sim.Say(formTimerGone, keyName(d.key))}
	}
	p = cow.MutRead(&k.pods, k.epoch, d.key, p)
	ref := sim.Ref{Kind: "pod", Namespace: p.namespace(), Name: p.name()}
	rep := sim.Report{Actor: k.actor(p.node), Touched: k.refs.Of(ref)}
	if kind != eventStatusRetry {
		p.hasTimer = false
	}
	now := ctx.Wall()
	switch {
	case kind == eventStarted && p.state == PodStarting:
		p.state, p.phase, p.running, p.ready = PodRunning, api.PodRunning, true, true
		p.setCond(condReady, api.ConditionTrue, now)
		p.setCond(condContainersReady, api.ConditionTrue, now)
		k.writeStatus(ctx, p)
		rep.Models = "syncPod"
		rep.Summary = sim.Say(formStarted, p.name())
	case kind == eventRestarted && p.state == PodCrashed:
		p.state, p.running, p.ready = PodRunning, true, true
		p.setCond(condReady, api.ConditionTrue, now)
		p.setCond(condContainersReady, api.ConditionTrue, now)
		k.writeStatus(ctx, p)
		rep.Models = "syncPod"
		rep.Summary = sim.Say(formRestarted, p.name()).With(int64(p.restarts))
	case kind == eventStopped && p.state == PodStopping:
		p.state = PodRemoving
		zero := int64(0)
		k.srv.Send(ctx, k.name, apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindPod, Namespace: p.namespace(), Name: p.name(),
			DeleteOptions: &apistore.DeleteOptions{GracePeriodSeconds: &zero, Preconditions: apistore.Preconditions{UID: p.uid()}}})
		rep.Models = "killPod"
		rep.Summary = sim.Say(formStopped, p.name())
	case kind == eventStatusRetry && (p.state == PodRunning || p.state == PodCrashed || p.state == PodFinished):
		k.writeStatus(ctx, p)
		rep.Models = "statusManager.syncBatch"
		rep.Summary = sim.Say(formStatusAgain, p.name(), p.phaseText())
	default:
		rep.Models = "syncPod"
		rep.Summary = sim.Say(formTimerMovedOn, p.name(), string(p.state))
	}
	return rep
}

// writeStatus sends the status the kubelet reports for a pod through the
// status subresource. Only the status and the pod's identity are sent; the
// uid makes the write fail if another pod has taken the name since.
func (k *Kubelets) writeStatus(ctx *sim.Context, p *kpod) {
	// The real kubelet writes status with a patch (PatchPodStatus), which
	// leaves metadata alone. This write is a PUT of the status subresource,
	// which keeps labels, annotations, owners and finalizers from the stored
	// pod but not generateName (upstream's ResetObjectMetaForStatus does not
	// reset it either), so the pod's generateName is sent along: without it,
	// every pod a ReplicaSet created lost its generateName ("web-") the
	// moment its kubelet first reported it.
	obj := &api.Pod{
		Metadata: api.ObjectMeta{Namespace: p.namespace(), Name: p.name(), UID: p.uid(), GenerateName: p.pod.Metadata.GenerateName},
		Status:   k.status(p),
	}
	p.statusID = k.srv.Send(ctx, k.name, apistore.Request{Verb: apistore.VerbUpdate, Kind: api.KindPod,
		Subresource: apistore.SubresourceStatus, Namespace: p.namespace(), Name: p.name(), Object: obj})
}

// status computes the pod status the kubelet reports, as its
// generateAPIPodStatus does: the phase, the kubelet's conditions (with the
// times they last changed), the conditions others own (PodScheduled) as last
// read, and one status per container.
func (k *Kubelets) status(p *kpod) api.PodStatus {
	pod := p.pod
	st := api.PodStatus{Phase: p.phase, Reason: p.reason, Message: p.message}
	if i, ok := k.nodeAt(p.node); ok {
		st.HostIP = k.nodes[i].ip
	}
	if p.startTime.isSet() {
		st.StartTime = k.sent.startTimeLike(p.startTime.wire())
	}
	// The lists are built in scratch lists and sent as the last status's
	// where they are equal (see sentParts); conditions that the remembered
	// ones were built from are not built again (see trueConds).
	if key, keyed := trueConds(p); keyed && k.sent.keyed && key.set == k.sent.key.set && key.secs == k.sent.key.secs {
		st.Conditions = k.sent.conditions
	} else {
		k.sent.key, k.sent.keyed = key, keyed
		conds := k.sent.scratchConditions[:0]
		if p.evicted {
			conds = append(conds, api.PodCondition{Type: conditionDisruptionTarget, Status: api.ConditionTrue,
				Reason: "TerminationByKubelet", Message: p.message, LastTransitionTime: api.NewTime(p.conds[condReady].since().wire())})
		}
		unready := "" // the message of a condition the containers are not ready for, made once
		for i, t := range condTypes {
			c := p.conds[i]
			if !c.since().isSet() {
				continue
			}
			pc := api.PodCondition{Type: t, Status: c.status.text(), LastTransitionTime: api.NewTime(c.since().wire())}
			if (i == condReady || i == condContainersReady) && c.status != condTrue {
				switch p.phase {
				case api.PodFailed:
					pc.Reason = "PodFailed"
				case api.PodSucceeded:
					pc.Reason = "PodCompleted"
				default:
					if unready == "" {
						unready = unreadyMessage(p)
					}
					pc.Reason = "ContainersNotReady"
					pc.Message = unready
				}
			}
			conds = append(conds, pc)
		}
		for _, c := range pod.Status.Conditions {
			if othersCondition(c.Type) {
				conds = append(conds, c)
			}
		}
		k.sent.scratchConditions = conds
		if len(conds) > 0 {
			st.Conditions = k.sent.conditionsLike(conds)
		}
	}
	containers := k.sent.scratchContainers[:0]
	k.sent.scratchStarted = p.running
	for _, c := range pod.Spec.Containers {
		containers = append(containers, api.ContainerStatus{
			Name: c.Name, Image: c.Image, Ready: p.running && p.ready, RestartCount: p.restarts, Started: &k.sent.scratchStarted,
		})
	}
	k.sent.scratchContainers = containers
	if len(containers) > 0 {
		st.ContainerStatuses = k.sent.containersLike(containers)
	}
	return st
}

// trueConds returns the key of the conditions the kubelet reports of a
// pod, and false when they cannot be keyed: the pod is evicted, it has no
// condition set, one of them is not True, or the pod holds a condition
// others own.
func trueConds(p *kpod) (key condsKey, ok bool) {
	if p.evicted {
		return key, false
	}
	for i := range p.conds {
		c := &p.conds[i]
		if !c.since().isSet() {
			continue
		}
		if c.status != condTrue {
			return key, false
		}
		key.secs[i] = c.sec
		key.set |= 1 << i
	}
	if key.set == 0 {
		return key, false
	}
	for i := range p.pod.Status.Conditions {
		if othersCondition(p.pod.Status.Conditions[i].Type) {
			return key, false
		}
	}
	return key, true
}

// othersCondition reports whether a pod condition is one the kubelet does
// not own, and so writes back as it last read it.
func othersCondition(t string) bool {
	return !slices.Contains(condTypes[:], t) && t != conditionDisruptionTarget
}

// unreadyMessage is the message of the Ready and ContainersReady conditions
// of a pod whose containers are not all ready: which are not, by name.
func unreadyMessage(p *kpod) string {
	var unready []string
	if !p.running || !p.ready {
		for _, c := range p.pod.Spec.Containers {
			unready = append(unready, c.Name)
		}
	}
	return "containers with unready status: [" + joinNames(unready) + "]"
}

func joinNames(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += " "
		}
		s += n
	}
	return s
}

// setCond sets one of the kubelet's conditions; its time moves only when its
// status changes.
func (p *kpod) setCond(i int, status string, now time.Time) {
	if p.conds[i].since().isSet() && p.conds[i].status == condStatusOf(status) {
		return
	}
	p.conds[i] = condOf(status, now)
}

// reportedAs reports whether the pod as read is what the kubelet last
// reported: its phase and its readiness.
func (p *kpod) reportedAs(pod *api.Pod) bool {
	if pod.Status.Phase != p.phase {
		return false
	}
	c := api.PodReadyCondition(pod)
	return c != nil && (c.Status == api.ConditionTrue) == (p.running && p.ready)
}

func (p *kpod) phaseText() string {
	switch {
	case p.phase == api.PodFailed && p.reason != "":
		return "Failed (" + p.reason + ")"
	case p.phase == api.PodRunning && p.running && p.ready:
		return "Running and Ready"
	case p.phase == api.PodRunning:
		return "Running, not Ready"
	}
	return p.phase
}

func (k *Kubelets) statusAnswered(ctx *sim.Context, rep *apistore.Reply) sim.Report {
	req := rep.Request
	ref := sim.Ref{Kind: "pod", Namespace: req.Namespace, Name: req.Name}
	p := k.podAt(req.Namespace, req.Name)
	node := ""
	if p != nil {
		node = p.node
	}
	out := sim.Report{Actor: k.actor(node), Models: "statusManager.syncPod", Touched: k.refs.Of(ref)}
	err := rep.Response.Err
	if err == nil {
		rv := int64(rep.Response.ResourceVersion)
		if pod, ok := rep.Response.Object.(*api.Pod); ok {
			out.Summary = sim.Say(formStatusStored, req.Name, pod.Status.Phase).With(readyChoice(api.IsPodReady(pod)), rv)
		} else {
			out.Summary = sim.Say(formStatusSame, req.Name).With(rv)
		}
		return out
	}
	if p == nil || p.uid() != req.Object.Meta().UID || apistore.IsNotFound(err) || apistore.IsInvalid(err) {
		out.Summary = sim.Say(formStatusLetBe, req.Name, rep.Response.Outcome())
		return out
	}
	if p.statusID == rep.ID {
		p = cow.MutRead(&k.pods, k.epoch, p.key, p)
		p.statusID = 0
		ctx.After(statusRetryPeriod, k.name, eventStatusRetry, k.timers.Put(timerData{key: p.key, uid: p.uid()}))
		out.Summary = sim.Say(formStatusRetry, req.Name, err.Error()).With(int64(statusRetryPeriod))
		return out
	}
	out.Summary = sim.Say(formStatusEarlier, req.Name, rep.Response.Outcome())
	return out
}

func (k *Kubelets) deleteAnswered(ctx *sim.Context, rep *apistore.Reply) sim.Report {
	req := rep.Request
	ref := sim.Ref{Kind: "pod", Namespace: req.Namespace, Name: req.Name}
	p := k.podAt(req.Namespace, req.Name)
	node := ""
	if p != nil {
		node = p.node
	}
	out := sim.Report{Actor: k.actor(node), Models: "statusManager.syncPod", Touched: k.refs.Of(ref)}
	switch err := rep.Response.Err; {
	case err == nil:
		out.Summary = sim.Say(formRemoved, req.Name).With(int64(rep.Response.ResourceVersion))
	case apistore.IsNotFound(err):
		out.Summary = sim.Say(formAlreadyGone, req.Name)
	case apistore.IsConflict(err):
		out.Summary = sim.Say(formNameTaken, req.Name, err.Error())
	default:
		// The kubelet's status manager keeps trying to remove a pod whose
		// containers it has stopped (its syncBatch runs every 10s); without
		// the retry, a removal that failed after the grace period's end left
		// the pod Terminating for ever.
		if p != nil && p.state == PodRemoving && p.uid() == req.Delete().Preconditions.UID {
			// A snapshot may share the row read: it is copied first.
			p = cow.MutRead(&k.pods, k.epoch, p.key, p)
			p.state = PodStopping
			k.setTimer(ctx, p, statusRetryPeriod, eventStopped)
			out.Summary = sim.Say(formRemoveRetry, req.Name, err.Error()).With(int64(statusRetryPeriod))
			break
		}
		out.Summary = sim.Say(formRemoveFailed, req.Name, err.Error())
	}
	return out
}

// Describe says what a pending kubelet event will do, for the agenda view.
func (k *Kubelets) Describe(ev sim.Event) string {
	switch d := ev.Data.(type) {
	case *timerData:
		p := k.pods.Read()[d.key]
		node := ""
		if p != nil {
			node = p.node
		}
		what := map[string]string{
			eventStarted:     "starts the containers of",
			eventRestarted:   "restarts the container of",
			eventStopped:     "stops and removes",
			eventStatusRetry: "writes again the status of",
		}[ev.Kind]
		return k.actor(node) + " " + what + " pod/" + keyName(d.key)
	case actionData:
		switch ev.Kind {
		case eventCrash:
			return "the container of pod/" + keyName(d.key) + " crashes"
		case eventEvict:
			return "the kubelet evicts pod/" + keyName(d.key)
		}
		return "the readiness of pod/" + keyName(d.key) + " becomes " + strconv.FormatBool(d.ready)
	case string:
		if ev.Kind == eventNodeStart {
			return "the kubelet of node " + d + " starts"
		}
		return "the kubelet of node " + d + " registers its node again"
	case *apistore.Reply:
		return "answer to " + d.Request.String() + " reaches " + k.name
	case *apistore.WatchDelivery:
		return string(d.Event.Type) + " " + refOf(d.Event.Object).String() + " reaches " + k.name
	}
	if ev.Kind == eventStart {
		return "the kubelets start"
	}
	return k.name + ": " + ev.Kind
}

type kubeletsSnapshot struct {
	startDelay, stopDelay time.Duration
	nodes                 []knode
	podsR                 reflector
	pods                  cow.Map[*kpod]
	waiting               map[string][]string
}

// Snapshot captures the kubelets. The pods map and its entries are shared
// with the live state, which copies them before changing them.
func (k *Kubelets) Snapshot() any {
	s := &kubeletsSnapshot{
		startDelay: k.startDelay, stopDelay: k.stopDelay,
		nodes: slices.Clone(k.nodes), podsR: k.podsR,
		pods: k.pods, waiting: cloneWaiting(k.waiting),
	}
	k.epoch.Next()
	return s
}

// Restore returns the kubelets to a snapshot.
func (k *Kubelets) Restore(v any) {
	s := v.(*kubeletsSnapshot)
	k.setStartDelay(s.startDelay)
	k.stopDelay = s.stopDelay
	k.nodes = slices.Clone(s.nodes)
	k.nodeIndex = make(map[string]int, len(k.nodes))
	for i, n := range k.nodes {
		k.nodeIndex[n.name] = i
	}
	k.podsR = s.podsR
	k.pods = s.pods
	k.waiting = cloneWaiting(s.waiting)
	k.epoch.Next()
}

// cloneWaiting copies the waiting lists; a list is replaced, never changed
// in place, so the lists themselves are shared.
func cloneWaiting(m map[string][]string) map[string][]string { return cloneMap(m) }

var (
	_ sim.Component   = (*Kubelets)(nil)
	_ sim.Snapshotter = (*Kubelets)(nil)
	_ sim.Describer   = (*Kubelets)(nil)
)
