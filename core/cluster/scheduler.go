package cluster

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/cow"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/sorting"
)

// The scheduler's own event kinds, besides the API server's responses and
// watch deliveries.
const (
	eventStart    = "start"
	eventRelist   = "relist"
	eventSchedule = "schedule"
	eventRetry    = "backoff-over"
)

// Bind back-off, as kube-scheduler's defaults: a pod whose binding failed
// waits 1s before its next attempt, doubling with each failure up to 10s
// (podInitialBackoffSeconds, podMaxBackoffSeconds).
const (
	BindInitialBackoff = time.Second
	BindMaxBackoff     = 10 * time.Second
)

// Scheduler is kube-scheduler reduced to what a ReplicaSet lesson needs: it
// follows nodes and pods (list, then watch), keeps a queue of the pods that
// are not bound to a node, and binds them one at a time to the schedulable
// node with the fewest pods (ties: the first name in order), through the
// pods/binding subresource.
//
// Each scheduling attempt is one step (scheduleOne: pick a node, assume the
// pod there, send the binding), and the answer to the binding another. The
// pod is "assumed" on its node from the attempt on, as upstream's cache
// assumes it, so the next pod already sees it counted; a failed binding takes
// it back and retries after a back-off.
type Scheduler struct {
	name string
	srv  *apistore.Server

	// refs holds the Touched lists of its reports (see sim.RefArena).
	refs sim.RefArena

	nodesR, podsR reflector

	// nodes are the nodes the scheduler knows from its watch, sorted by name.
	nodes []schedNode

	// bound counts, per node name, the pods in pods with counted set whose node
	// it is: the non-terminal pods bound or being bound there. Nodes the
	// scheduler does not know (a bare pod created with --node) have counts too.
	// Entries that fall to 0 are deleted.
	bound map[string]int

	// pods holds every pod the scheduler follows: live pods waiting for a node
	// or being bound, and non-terminal bound pods (to count them). Finished
	// pods, and unbound pods being deleted, are not held. The map and its
	// entries are shared copy-on-write with snapshots (package cow): mut
	// copies an entry, and the map, before their first change in an epoch.
	// Each snapshot and each restore starts a new epoch.
	pods  cow.Map[*spod]
	epoch cow.Epoch

	// active is the scheduling queue, oldest first, from index head on. An
	// entry is live only while its pod is in qActive with the same gen; the
	// others are skipped when they come up. activeLen counts the live entries.
	active    []queueEntry
	head      int
	activeLen int

	// unschedulable holds, in order, the pods that found no schedulable node.
	// They go back to active when a node is added or becomes schedulable
	// (upstream's MoveAllToActiveOrBackoffQueue). Same liveness rule as active.
	unschedulable []queueEntry

	// gen numbers queue entries; it only grows.
	gen uint64

	// scheduling is set while a schedule event is on the agenda.
	scheduling bool

	// Counters for the view.
	attempts, binds, bindFailures int
}

type schedNode struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	name          string
	unschedulable bool
}

// queueState says where a pod waits in the scheduler.
type queueState uint8

const (
	qNone          queueState = iota // not waiting: bound, or being bound
	qActive                          // in active, waiting for an attempt
	qUnschedulable                   // in unschedulable, waiting for a node
	qBackoff                         // its binding failed; a retry timer is set
)

type queueEntry struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	key string
	gen uint64
}

// spod is what the scheduler knows of one pod.
type spod struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// Stamp makes it a cow.Row: the pods map shares it with snapshots, and
	// mut copies it before its first change in an epoch.
	cow.Stamp

	namespace, name, uid string

	// node is the node the pod is bound to or being bound to; "" when unbound.
	node string
	// assumed: a binding to node is in flight (bindID).
	assumed bool
	// counted: the pod counts in bound[node].
	counted bool
	// queue is where the pod waits; the three small fields share a word,
	// which makes the row 112 bytes where it was 128.
	queue  queueState
	bindID uint64

	gen uint64
	// failures counts failed bindings, for the back-off; retrySeq is the retry
	// timer while queue is qBackoff.
	failures int
	retrySeq uint64
}

// Copy returns a copy of the pod, for cow.Mut. Its fields are values and
// shared read-only pointers, so a shallow copy is a full one.
func (p *spod) Copy() *spod {
	cp := *p
	return &cp
}

type retry struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	key string
	gen uint64
}

func newScheduler(name string, srv *apistore.Server) *Scheduler {
	return &Scheduler{
		name: name, srv: srv, epoch: 1,
		nodesR: newReflector(api.KindNode), podsR: newReflector(api.KindPod),
		bound: map[string]int{},
	}
}

// Name returns the component name.
func (s *Scheduler) Name() string { return s.name }

func (s *Scheduler) start(sch sim.Scheduler) { sch.After(0, s.name, eventStart, nil) }

// StartStep reuses the scheduler's arena: the lists of its last step are
// dead (sim.Arena).
func (s *Scheduler) StartStep() { s.refs.Reuse() }

// Handle runs one of the scheduler's steps.
func (s *Scheduler) Handle(ctx *sim.Context, ev sim.Event) sim.Report {
	switch ev.Kind {
	case eventStart:
		s.nodesR.list(ctx, s.srv, s.name)
		s.podsR.list(ctx, s.srv, s.name)
		return s.report("Scheduler.Run", sim.Text("the scheduler starts: listing nodes and pods, to watch them from there"))
	case eventRelist:
		kind := ev.Data.(api.Kind)
		if kind == api.KindNode {
			s.nodesR.list(ctx, s.srv, s.name)
		} else {
			s.podsR.list(ctx, s.srv, s.name)
		}
		return s.report("Reflector.list", sim.Say(formRelisting, kind.Resource()))
	case apistore.EventResponse:
		return s.response(ctx, ev.Data.(*apistore.Reply))
	case apistore.EventWatch:
		d := *ev.Data.(*apistore.WatchDelivery)
		switch {
		case s.nodesR.accept(d):
			return s.nodeEvent(ctx, *d.Event)
		case !s.podsR.accept(d):
			ref := refOf(d.Event.Object)
			return s.report("Reflector.watch", sim.Say(formDiscarded, string(d.Event.Type), ref.Kind, ref.Name))
		case d.Event.Type == apistore.Deleted:
			return s.podDeleted(ctx, d.Event)
		}
		// A pod added or changed, nearly every step of the scheduler, is
		// handled here rather than in a function of its own, whose report
		// (176 bytes) was copied out again into this one's.
		pod := d.Event.Object.(*api.Pod)
		models, summary := s.observe(ctx, d.Event.ObjectKey(), pod)
		return s.report(models, summary, podRef(pod))
	case eventSchedule:
		return s.scheduleOne(ctx)
	case eventRetry:
		return s.retry(ctx, ev.Data.(retry))
	}
	return s.report("", sim.Say(formIgnoredEvent, ev.Kind))
}

func (s *Scheduler) report(models string, summary sim.Sentence, touched ...sim.Ref) sim.Report {
	return sim.Report{Actor: s.name, Models: models, Summary: summary, Touched: s.refs.Of(touched...)}
}

// The scheduler's sentences. It sees every pod event, so the sentences of
// its pod steps are said, with the pod's and node's names and the counts as
// facts, never written when the step runs.
var (
	formRelisting    = &sim.Form{Text: "listing %s again after a failed list or watch"}
	formDiscarded    = &sim.Form{Text: "discarded %s %s/%s: it belongs to a watch that is closed"}
	formIgnoredEvent = &sim.Form{Text: "ignored unknown event %q"}
	formRelistIn     = &sim.Form{Text: "%s failed (%s); listing %s again in %D"}
	formWatchOpen    = &sim.Form{Text: "watch of %s open from resourceVersion %u"}
	formIgnoredReply = &sim.Form{Text: "ignored the answer to %s"}
	formListedNodes  = &sim.Form{Text: "listed %{node|nodes} at resourceVersion %u (%d schedulable); watching nodes from there"}
	formRequeued     = &sim.Form{Text: "; %{pod|pods} that found no node go back to the scheduling queue"}
	formListedPods   = &sim.Form{Text: "listed %{pod|pods} at resourceVersion %u: %d wait in the scheduling queue; watching pods from there"}

	formNodeDeleted    = &sim.Form{Text: "node %s was deleted: no more pods will be placed there"}
	formNodeCordoned   = &sim.Form{Text: "node %s was cordoned: no new pods will be placed there; the %{pod|pods} already there stay"}
	formNodeNewCordon  = &sim.Form{Text: "learned of node %s, which is cordoned: no pods will be placed there"}
	formNodeSame       = &sim.Form{Text: "node %s changed, but it stays schedulable: nothing to do"}
	formNodeUncordoned = &sim.Form{Text: "node %s was uncordoned: it can take pods again"}
	formNodeNew        = &sim.Form{Text: "learned of node %s: it can take pods"}

	formPodGoneUnknown   = &sim.Form{Text: "saw pod/%s deleted; it was not waiting for a node and was not counted on one"}
	formPodGoneWaiting   = &sim.Form{Text: "saw pod/%s deleted: it no longer waits for a node"}
	formPodGoneCounted   = &sim.Form{Text: "saw pod/%s deleted: it no longer counts on %s (%{pod|pods} left there)"}
	formPodDying         = &sim.Form{Text: "saw pod/%s, unbound and being deleted: it will not be scheduled"}
	formPodFinishedNew   = &sim.Form{Text: "saw pod/%s, which has finished (%s): it takes no room on a node"}
	formPodFinished      = &sim.Form{Text: "pod/%s on %s has finished (%s): it no longer counts there (%{pod|pods} left)"}
	formPodCounted       = &sim.Form{Text: "saw pod/%s bound to %s: it counts there (%{pod|pods})"}
	formPodConfirmed     = &sim.Form{Text: "saw the binding of pod/%s to %s stored: the assumed pod is confirmed"}
	formPodDeletingThere = &sim.Form{Text: "saw pod/%s being deleted on %s: it counts there until it is gone"}
	formPodChangedThere  = &sim.Form{Text: "saw pod/%s change on %s: nothing to schedule"}
	formPodBinding       = &sim.Form{Text: "saw pod/%s change while its binding to %s is on its way: nothing to do"}
	formPodDyingUnplaced = &sim.Form{Text: "saw pod/%s being deleted before it was scheduled: it leaves the scheduling queue"}
	formPodQueued        = &sim.Form{Text: "saw pod/%s, not bound to a node: it joins the scheduling queue (%{pod|pods} waiting)"}
	formPodStillWaits    = &sim.Form{Text: "saw pod/%s change; it still waits for a schedulable node"}
	formPodBackingOff    = &sim.Form{Text: "saw pod/%s change; it waits out its back-off before the next try"}
	formPodInQueue       = &sim.Form{Text: "saw pod/%s change; it is already in the scheduling queue"}

	formQueueEmpty = &sim.Form{Text: "the scheduling queue is empty: the pods that were waiting were bound or deleted meanwhile"}
	// formNoNodes and formNoFit explain, as kube-scheduler's
	// FailedScheduling event does, why no node fits.
	formNoNodes        = &sim.Form{Text: "pod/%s is unschedulable: no nodes available to schedule pods; it waits until a node is added or uncordoned"}
	formNoFit          = &sim.Form{Text: "pod/%s is unschedulable: 0/%d nodes are available: %d node(s) were unschedulable; it waits until a node is added or uncordoned"}
	formAssignedTied   = &sim.Form{Text: "assigned pod/%s to %s (%s has the fewest pods (%d) of the %d schedulable nodes, tied with %{other|others}; ties go to the first name); sending the binding"}
	formAssignedFewest = &sim.Form{Text: "assigned pod/%s to %s (%s has the fewest pods (%d) of the %d schedulable nodes); sending the binding"}
	formAssignedOnly   = &sim.Form{Text: "assigned pod/%s to %s (%s is the only schedulable node); sending the binding"}
	formBound          = &sim.Form{Text: "bound pod/%s to %s (resourceVersion %u); its kubelet takes it from here"}
	formBindFailed     = &sim.Form{Text: "binding pod/%s to %s failed (%s: %s)"}
	formMovedOn        = &sim.Form{Text: "; the scheduler has already moved on from that pod"}
	formForgottenOn    = &sim.Form{Text: "; the pod is forgotten on %s and tried again in %D"}
	formBackoffStale   = &sim.Form{Text: "the back-off of a pod ended, but the pod no longer waits for it"}
	formBackoffOver    = &sim.Form{Text: "the back-off of pod/%s is over: it goes back to the scheduling queue"}
)

func init() {
	sim.Register(
		formRelisting,
		formDiscarded,
		formIgnoredEvent,
		formRelistIn,
		formWatchOpen,
		formIgnoredReply,
		formListedNodes,
		formRequeued,
		formListedPods,
		formNodeDeleted,
		formNodeCordoned,
		formNodeNewCordon,
		formNodeSame,
		formNodeUncordoned,
		formNodeNew,
		formPodGoneUnknown,
		formPodGoneWaiting,
		formPodGoneCounted,
		formPodDying,
		formPodFinishedNew,
		formPodFinished,
		formPodCounted,
		formPodConfirmed,
		formPodDeletingThere,
		formPodChangedThere,
		formPodBinding,
		formPodDyingUnplaced,
		formPodQueued,
		formPodStillWaits,
		formPodBackingOff,
		formPodInQueue,
		formQueueEmpty,
		formNoNodes,
		formNoFit,
		formAssignedTied,
		formAssignedFewest,
		formAssignedOnly,
		formBound,
		formBindFailed,
		formMovedOn,
		formForgottenOn,
		formBackoffStale,
		formBackoffOver,
	)
}

// mut returns the pod's entry ready to change, copied first if a snapshot
// shares it; nil when the scheduler follows no such pod.
func (s *Scheduler) mut(key string) *spod { return cow.Mut(&s.pods, s.epoch, key) }

func (s *Scheduler) response(ctx *sim.Context, rep *apistore.Reply) sim.Report {
	// The answers to the two reflectors' requests are read by one piece of
	// code, told apart by what they list: written out for each, it was
	// twice as much of main.wasm.
	r, what := &s.nodesR, "nodes"
	switch {
	case s.nodesR.owns(rep):
	case s.podsR.owns(rep):
		r, what = &s.podsR, "pods"
	case rep.Request.Subresource == apistore.SubresourceBinding:
		return s.bindAnswered(ctx, rep)
	default:
		return s.report("", sim.Say(formIgnoredReply, rep.Request.String()))
	}
	items, err := r.answered(ctx, s.srv, s.name, eventRelist, rep)
	if err != nil {
		return s.report("Reflector.ListAndWatch", sim.Say(formRelistIn, rep.Request.String(), err.Error(), what).With(int64(relistDelay)))
	}
	if rep.Request.Verb == apistore.VerbWatch {
		return s.report("Reflector.watch", sim.Say(formWatchOpen, what).With(int64(rep.Request.List().ResourceVersion)))
	}
	if r == &s.nodesR {
		return s.listedNodes(ctx, items, rep.Response.ResourceVersion)
	}
	return s.listedPods(ctx, items, rep.Response.ResourceVersion)
}

// listedNodes replaces the scheduler's nodes with a list's.
func (s *Scheduler) listedNodes(ctx *sim.Context, items []api.Object, rv uint64) sim.Report {
	before := s.schedulableCount()
	s.nodes = s.nodes[:0:0]
	for _, obj := range items {
		n := obj.(*api.Node)
		s.nodes = append(s.nodes, schedNode{name: n.Metadata.Name, unschedulable: n.Spec.Unschedulable})
	}
	sorting.Func(s.nodes, func(a, b schedNode) int { return strings.Compare(a.name, b.name) })
	summary := sim.Say(formListedNodes).With(int64(len(items)), int64(rv), int64(s.schedulableCount()))
	if s.schedulableCount() > before {
		if moved := s.moveAllToActive(ctx); moved > 0 {
			summary = summary.Then(sim.Say(formRequeued).With(int64(moved)))
		}
	}
	return s.report("Reflector.syncWith", summary)
}

// listedPods takes in a list of pods: every pod is observed as if added, and
// the pods the scheduler held that the list lacks are forgotten.
func (s *Scheduler) listedPods(ctx *sim.Context, items []api.Object, rv uint64) sim.Report {
	seen := make(map[string]bool, len(items))
	for _, obj := range items {
		pod := obj.(*api.Pod)
		key := api.Key(pod.Metadata.Namespace, pod.Metadata.Name)
		seen[key] = true
		s.observe(ctx, key, pod)
	}
	for _, key := range cow.SortedKeys(s.pods) {
		if !seen[key] {
			s.forget(ctx, key)
		}
	}
	return s.report("Reflector.syncWith", sim.Say(formListedPods).With(int64(len(items)), int64(rv), int64(s.activeLen)))
}

func (s *Scheduler) nodeEvent(ctx *sim.Context, ev apistore.WatchEvent) sim.Report {
	n := ev.Object.(*api.Node)
	name := n.Metadata.Name
	ref := sim.Ref{Kind: "node", Name: name}
	i, found := slices.BinarySearchFunc(s.nodes, name, func(x schedNode, name string) int { return strings.Compare(x.name, name) })
	if ev.Type == apistore.Deleted {
		if found {
			s.nodes = slices.Delete(s.nodes, i, i+1)
		}
		return s.report("deleteNodeFromCache", sim.Say(formNodeDeleted, name), ref)
	}
	wasSchedulable := found && !s.nodes[i].unschedulable
	if found {
		s.nodes[i].unschedulable = n.Spec.Unschedulable
	} else {
		s.nodes = slices.Insert(s.nodes, i, schedNode{name: name, unschedulable: n.Spec.Unschedulable})
	}
	models := "updateNodeInCache"
	if !found {
		models = "addNodeToCache"
	}
	// One report for every case, its summary picked here: a report written
	// out for each made main.wasm bigger. A node that can take pods now
	// sends back to the queue the pods that found none.
	var summary sim.Sentence
	requeue := false
	switch {
	case n.Spec.Unschedulable && wasSchedulable:
		summary = sim.Say(formNodeCordoned, name).With(int64(s.bound[name]))
	case n.Spec.Unschedulable:
		summary = sim.Say(formNodeNewCordon, name)
	case wasSchedulable:
		summary = sim.Say(formNodeSame, name)
	case found:
		summary, requeue = sim.Say(formNodeUncordoned, name), true
	default:
		summary, requeue = sim.Say(formNodeNew, name), true
	}
	if requeue {
		if moved := s.moveAllToActive(ctx); moved > 0 {
			summary = summary.Then(sim.Say(formRequeued).With(int64(moved)))
		}
	}
	return s.report(models, summary, ref)
}

// podDeleted handles the deletion of a pod.
func (s *Scheduler) podDeleted(ctx *sim.Context, ev *apistore.WatchEvent) sim.Report {
	pod := ev.Object.(*api.Pod)
	ref := podRef(pod)
	key := ev.ObjectKey()
	p := s.pods.Read()[key]
	if p == nil || p.uid != pod.Metadata.UID {
		return s.report("deletePodFromCache", sim.Say(formPodGoneUnknown, pod.Metadata.Name), ref)
	}
	if !p.counted {
		s.forget(ctx, key)
		return s.report("deletePodFromCache", sim.Say(formPodGoneWaiting, pod.Metadata.Name), ref)
	}
	summary := sim.Say(formPodGoneCounted, pod.Metadata.Name, p.node).With(int64(s.bound[p.node] - 1))
	s.forget(ctx, key)
	return s.report("deletePodFromCache", summary, ref)
}

// observe takes in the current state of a pod and says what it made of it.
func (s *Scheduler) observe(ctx *sim.Context, key string, pod *api.Pod) (models string, summary sim.Sentence) {
	m := &pod.Metadata
	p := s.pods.Read()[key]
	if p != nil && p.uid != m.UID {
		s.forget(ctx, key) // the name now belongs to a new pod
		p = nil
	}
	terminal := isTerminal(pod)
	node := pod.Spec.NodeName
	if p == nil {
		switch {
		case node == "" && m.DeletionTimestamp != nil:
			return "addPodToSchedulingQueue", sim.Say(formPodDying, m.Name)
		case terminal:
			return "addPodToCache", sim.Say(formPodFinishedNew, m.Name, pod.Status.Phase)
		}
		p = cow.Add(&s.pods, s.epoch, key, &spod{namespace: m.Namespace, name: m.Name, uid: m.UID})
	} else {
		p = cow.MutRead(&s.pods, s.epoch, key, p)
	}

	if node != "" {
		s.dequeue(ctx, p)
		if p.counted && p.node != node {
			s.uncount(p)
		}
		confirmed := p.assumed && p.node == node
		p.node, p.assumed = node, false
		if terminal {
			s.uncount(p)
			delete(s.pods.Write(s.epoch), key)
			return "updatePodInCache", sim.Say(formPodFinished, m.Name, node, pod.Status.Phase).With(int64(s.bound[node]))
		}
		if !p.counted {
			p.counted = true
			s.bound[node]++
			return "addPodToCache", sim.Say(formPodCounted, m.Name, node).With(int64(s.bound[node]))
		}
		if confirmed {
			return "updatePodInCache", sim.Say(formPodConfirmed, m.Name, node)
		}
		if m.DeletionTimestamp != nil {
			return "updatePodInCache", sim.Say(formPodDeletingThere, m.Name, node)
		}
		return "updatePodInCache", sim.Say(formPodChangedThere, m.Name, node)
	}

	if p.assumed {
		return "updatePodInCache", sim.Say(formPodBinding, m.Name, p.node)
	}
	if terminal || m.DeletionTimestamp != nil {
		s.forget(ctx, key)
		return "updatePodInSchedulingQueue", sim.Say(formPodDyingUnplaced, m.Name)
	}
	switch p.queue {
	case qNone:
		s.enqueue(ctx, key, p)
		return "addPodToSchedulingQueue", sim.Say(formPodQueued, m.Name).With(int64(s.activeLen))
	case qUnschedulable:
		return "updatePodInSchedulingQueue", sim.Say(formPodStillWaits, m.Name)
	case qBackoff:
		return "updatePodInSchedulingQueue", sim.Say(formPodBackingOff, m.Name)
	}
	return "updatePodInSchedulingQueue", sim.Say(formPodInQueue, m.Name)
}

// forget drops a pod: out of every queue and no longer counted.
func (s *Scheduler) forget(ctx *sim.Context, key string) {
	p := s.mut(key)
	if p == nil {
		return
	}
	s.dequeue(ctx, p)
	s.uncount(p)
	delete(s.pods.Write(s.epoch), key)
}

func (s *Scheduler) uncount(p *spod) {
	if !p.counted {
		return
	}
	p.counted = false
	if n := s.bound[p.node] - 1; n > 0 {
		s.bound[p.node] = n
	} else {
		delete(s.bound, p.node)
	}
}

// enqueue puts a pod at the end of the active queue.
func (s *Scheduler) enqueue(ctx *sim.Context, key string, p *spod) {
	s.gen++
	p.queue, p.gen = qActive, s.gen
	s.active = append(s.active, queueEntry{key: key, gen: p.gen})
	s.activeLen++
	s.ensureScheduling(ctx)
}

// dequeue takes a pod out of whatever queue holds it; its entry there becomes
// dead and is skipped later.
func (s *Scheduler) dequeue(ctx *sim.Context, p *spod) {
	switch p.queue {
	case qActive:
		s.activeLen--
	case qBackoff:
		ctx.Cancel(p.retrySeq)
	}
	p.queue = qNone
}

func (s *Scheduler) ensureScheduling(ctx *sim.Context) {
	if !s.scheduling && s.activeLen > 0 {
		s.scheduling = true
		ctx.After(0, s.name, eventSchedule, nil)
	}
}

// moveAllToActive moves the pods that found no node back to the active
// queue, in the order they failed, and says how many moved.
func (s *Scheduler) moveAllToActive(ctx *sim.Context) int {
	moved := 0
	for _, e := range s.unschedulable {
		p := s.pods.Read()[e.key]
		if p == nil || p.queue != qUnschedulable || p.gen != e.gen {
			continue
		}
		s.enqueue(ctx, e.key, cow.MutRead(&s.pods, s.epoch, e.key, p))
		moved++
	}
	s.unschedulable = nil
	return moved
}

// popActive returns the next live pod of the active queue.
func (s *Scheduler) popActive() (string, *spod) {
	for s.head < len(s.active) {
		e := s.active[s.head]
		s.active[s.head] = queueEntry{}
		s.head++
		if p := s.pods.Read()[e.key]; p != nil && p.queue == qActive && p.gen == e.gen {
			if s.head == len(s.active) {
				s.active, s.head = s.active[:0], 0
			} else if s.head > 1024 && s.head*2 > len(s.active) {
				s.active, s.head = slices.Clone(s.active[s.head:]), 0
			}
			return e.key, cow.MutRead(&s.pods, s.epoch, e.key, p)
		}
	}
	s.active, s.head = s.active[:0], 0
	return "", nil
}

// scheduleOne takes the next pod from the queue and tries to place it:
// upstream's scheduleOne, with the filter (schedulable nodes) and the score
// (fewest pods, then name) of this model.
func (s *Scheduler) scheduleOne(ctx *sim.Context) sim.Report {
	s.scheduling = false
	key, p := s.popActive()
	if p == nil {
		return s.report("scheduleOne", sim.Say(formQueueEmpty))
	}
	s.activeLen--
	p.queue = qNone
	s.attempts++
	ref := sim.Ref{Kind: "pod", Namespace: p.namespace, Name: p.name}
	node, pods, fit, tied := s.pickNode()
	if node == "" {
		s.gen++
		p.queue, p.gen = qUnschedulable, s.gen
		s.unschedulable = append(s.unschedulable, queueEntry{key: key, gen: p.gen})
		s.ensureScheduling(ctx)
		if len(s.nodes) == 0 {
			return s.report("schedulePod", sim.Say(formNoNodes, p.name), ref)
		}
		return s.report("schedulePod", sim.Say(formNoFit, p.name).With(int64(len(s.nodes)), int64(len(s.nodes))), ref)
	}
	p.node, p.assumed, p.counted = node, true, true
	s.bound[node]++
	p.bindID = s.srv.Send(ctx, s.name, apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindPod,
		Subresource: apistore.SubresourceBinding, Namespace: p.namespace, Name: p.name, NodeName: node})
	s.ensureScheduling(ctx)
	var summary sim.Sentence
	switch {
	case fit > 1 && tied > 1:
		summary = sim.Say(formAssignedTied, p.name, node, node).With(int64(pods), int64(fit), int64(tied-1))
	case fit > 1:
		summary = sim.Say(formAssignedFewest, p.name, node, node).With(int64(pods), int64(fit))
	default:
		summary = sim.Say(formAssignedOnly, p.name, node, node)
	}
	return s.report("schedulePod", summary, ref, sim.Ref{Kind: "node", Name: node})
}

// pickNode returns the schedulable node with the fewest pods (ties: the first
// name), its pods, how many nodes were schedulable, and how many of them had
// as few pods as the one picked; "" when none is. Each node's count is looked
// up once.
func (s *Scheduler) pickNode() (best string, pods, fit, tied int) {
	for _, n := range s.nodes {
		if n.unschedulable {
			continue
		}
		fit++
		switch c := s.bound[n.name]; {
		case best == "" || c < pods:
			best, pods, tied = n.name, c, 1
		case c == pods:
			tied++
		}
	}
	return best, pods, fit, tied
}

func (s *Scheduler) schedulableCount() int {
	_, _, fit, _ := s.pickNode()
	return fit
}

// bindAnswered handles the answer to a binding.
func (s *Scheduler) bindAnswered(ctx *sim.Context, rep *apistore.Reply) sim.Report {
	req := rep.Request
	ref := sim.Ref{Kind: "pod", Namespace: req.Namespace, Name: req.Name}
	err := rep.Response.Err
	if err == nil {
		s.binds++
		return s.report("bind", sim.Say(formBound, req.Name, req.NodeName).With(int64(rep.Response.ResourceVersion)),
			ref, sim.Ref{Kind: "node", Name: req.NodeName})
	}
	s.bindFailures++
	key := api.Key(req.Namespace, req.Name)
	p := s.pods.Read()[key]
	if p == nil || !p.assumed || p.bindID != rep.ID {
		return s.report("bind", sim.Say(formBindFailed, req.Name, req.NodeName, rep.Response.Outcome(), err.Error()).
			Then(sim.Say(formMovedOn)), ref)
	}
	p = cow.MutRead(&s.pods, s.epoch, key, p)
	s.uncount(p)
	p.node, p.assumed = "", false
	p.failures++
	wait := BindInitialBackoff << min(p.failures-1, 8)
	wait = min(wait, BindMaxBackoff)
	s.gen++
	p.queue, p.gen = qBackoff, s.gen
	p.retrySeq = ctx.After(wait, s.name, eventRetry, retry{key: key, gen: p.gen})
	return s.report("handleBindingCycleError", sim.Say(formBindFailed, req.Name, req.NodeName, rep.Response.Outcome(), err.Error()).
		Then(sim.Say(formForgottenOn, req.NodeName).With(int64(wait))), ref)
}

// retry ends a pod's back-off after a failed binding.
func (s *Scheduler) retry(ctx *sim.Context, r retry) sim.Report {
	p := s.pods.Read()[r.key]
	if p == nil || p.queue != qBackoff || p.gen != r.gen {
		return s.report("flushBackoffQCompleted", sim.Say(formBackoffStale))
	}
	p = cow.MutRead(&s.pods, s.epoch, r.key, p)
	p.queue = qNone
	s.enqueue(ctx, r.key, p)
	ref := sim.Ref{Kind: "pod", Namespace: p.namespace, Name: p.name}
	return s.report("flushBackoffQCompleted", sim.Say(formBackoffOver, p.name), ref)
}

// Describe says what a pending scheduler event will do, for the agenda view.
func (s *Scheduler) Describe(ev sim.Event) string {
	switch ev.Kind {
	case eventStart:
		return s.name + " starts"
	case eventRelist:
		return s.name + " lists " + ev.Data.(api.Kind).Resource() + " again"
	case eventSchedule:
		return s.name + " schedules the next pod in its queue"
	case eventRetry:
		return s.name + " ends the back-off of pod/" + keyName(ev.Data.(retry).key)
	case apistore.EventResponse:
		return "answer to " + ev.Data.(*apistore.Reply).Request.String() + " reaches " + s.name
	case apistore.EventWatch:
		d := *ev.Data.(*apistore.WatchDelivery)
		return string(d.Event.Type) + " " + refOf(d.Event.Object).String() + " reaches " + s.name
	}
	return s.name + ": " + ev.Kind
}

type schedulerSnapshot struct {
	nodesR, podsR reflector
	nodes         []schedNode
	bound         map[string]int
	pods          cow.Map[*spod]
	active        []queueEntry
	activeLen     int
	unschedulable []queueEntry
	gen           uint64
	scheduling    bool

	attempts, binds, bindFailures int
}

// Snapshot captures the scheduler. The pods map and its entries are shared
// with the live state, which copies them before changing them.
func (s *Scheduler) Snapshot() any {
	snap := &schedulerSnapshot{
		nodesR: s.nodesR, podsR: s.podsR,
		nodes: slices.Clone(s.nodes), bound: maps.Clone(s.bound), pods: s.pods,
		active: slices.Clone(s.active[s.head:]), activeLen: s.activeLen,
		unschedulable: slices.Clone(s.unschedulable), gen: s.gen, scheduling: s.scheduling,
		attempts: s.attempts, binds: s.binds, bindFailures: s.bindFailures,
	}
	s.epoch.Next()
	return snap
}

// Restore returns the scheduler to a snapshot.
func (s *Scheduler) Restore(v any) {
	snap := v.(*schedulerSnapshot)
	s.nodesR, s.podsR = snap.nodesR, snap.podsR
	s.nodes = slices.Clone(snap.nodes)
	s.bound = cloneMap(snap.bound)
	s.pods = snap.pods
	s.active, s.head, s.activeLen = slices.Clone(snap.active), 0, snap.activeLen
	s.unschedulable = slices.Clone(snap.unschedulable)
	s.gen, s.scheduling = snap.gen, snap.scheduling
	s.attempts, s.binds, s.bindFailures = snap.attempts, snap.binds, snap.bindFailures
	s.epoch.Next()
}

var (
	_ sim.Component   = (*Scheduler)(nil)
	_ sim.Snapshotter = (*Scheduler)(nil)
	_ sim.Describer   = (*Scheduler)(nil)
)
