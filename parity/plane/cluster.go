package plane

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"strconv"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// This file is the world around the controllers: the scheduler and the
// kubelets, as core/cluster models them, driving a real API server. They are
// stand-ins, not kube-scheduler and the kubelet: the point of the plane is
// to run the real controllers against a real API server, and core/cluster's
// rules are what a script's expects were written for. The rules, as
// core/cluster's doc.go states them:
//
//   - The scheduler binds every pod that is not bound and not being deleted,
//     oldest first, through pods/binding, to the schedulable node with the
//     fewest non-terminal pods (bound or being bound there), ties going to the
//     first name. A failed binding is retried after 1s, doubling to 10s.
//   - A node's kubelet starts when the node is created here (the plane's
//     nodes, and create node), registers the Node (Ready), and for each pod
//     bound to it: KubeletStart after it first sees the pod, reports it
//     Running and Ready; when it sees the pod being deleted, KubeletStop later
//     or when the grace period ends, whichever is sooner, deletes it with
//     grace period 0 and the pod's uid as precondition. A pod whose status
//     someone else already wrote (a bare pod created Running) is adopted as
//     it is.
//   - Crash, Evict and SetReady are the kubelet's too (see their methods).
//
// Everything the stand-in does runs on one goroutine (loop), fed by the
// informers' handlers and by timers, so its records need no lock but the one
// Busy and the actions take to talk to the loop.

// Bind back-off, kube-scheduler's defaults, as core/cluster has them.
const (
	bindInitialBackoff = time.Second
	bindMaxBackoff     = 10 * time.Second
)

// EvictionMessage is the kubelet's message on a pod it evicts, as core/cluster
// writes it.
const EvictionMessage = "The node was low on resource: memory."

// cluster is the scheduler and kubelets stand-in.
type cluster struct {
	client kubernetes.Interface
	ctx    context.Context

	// work carries what the loop goroutine is to do next, in order.
	work chan func()

	mu sync.Mutex
	// pending counts what is still to happen: closures in work or running,
	// timers not yet fired, bindings waiting for a node. Busy reads it.
	pending int
	// startDelay and stopDelay are kubelet-start and kubelet-stop now.
	startDelay, stopDelay time.Duration

	// Below: owned by the loop goroutine.

	// nodes are the nodes with a kubelet here, by name.
	nodes map[string]*snode
	// pods holds every pod the stand-in has seen and not seen deleted, by
	// namespace/name.
	pods map[string]*spod
	// seq numbers pods in the order the stand-in first saw them, which is the
	// API server's creation order for pods created while it watched.
	seq int
	// waitingForNode: pods not bound, waiting for a schedulable node.
	waitingForNode map[string]bool
}

type snode struct {
	name          string
	labels        map[string]string
	ip            string
	unschedulable bool
}

// podState is what the kubelet (or the scheduler) is doing with a pod.
type podState int

const (
	stateUnbound  podState = iota // waiting for the scheduler
	stateBinding                  // binding sent, or waiting for a retry
	stateWaiting                  // bound to a node without a kubelet
	stateStarting                 // admitted, containers start at a timer
	stateRunning                  // containers run
	stateCrashed                  // container exited, restarts at a timer
	stateFinished                 // Failed or Succeeded
	stateStopping                 // being deleted, removed at a timer
	stateRemoving                 // the delete with grace 0 was sent
)

type spod struct {
	key, namespace, name string
	uid                  types.UID
	seq                  int
	node                 string
	pod                  *corev1.Pod
	state                podState
	// gen changes whenever the state does, so a timer set for an older state
	// finds it stale and does nothing.
	gen int
	// failures counts failed bindings, for the back-off.
	failures int

	// What the kubelet reports.
	ready     bool
	restarts  int32
	evicted   bool
	startTime metav1.Time
	// since holds, per condition type, when its status last changed.
	since map[string]metav1.Time
	// status holds, per condition type, its last reported status.
	status map[string]corev1.ConditionStatus
}

func newCluster(ctx context.Context, client kubernetes.Interface, startDelay, stopDelay time.Duration) *cluster {
	return &cluster{
		client: client, ctx: ctx,
		work:       make(chan func(), 4096),
		startDelay: startDelay, stopDelay: stopDelay,
		nodes: map[string]*snode{}, pods: map[string]*spod{}, waitingForNode: map[string]bool{},
	}
}

// run starts the loop and the informers the stand-in follows.
func (c *cluster) run(factory informers.SharedInformerFactory) error {
	go c.loop()
	podInf := factory.Core().V1().Pods().Informer()
	_, err := podInf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(o any) { c.post(func() { c.podChanged(o.(*corev1.Pod)) }) },
		UpdateFunc: func(_, o any) { c.post(func() { c.podChanged(o.(*corev1.Pod)) }) },
		DeleteFunc: func(o any) {
			if t, ok := o.(cache.DeletedFinalStateUnknown); ok {
				o = t.Obj
			}
			if p, ok := o.(*corev1.Pod); ok {
				c.post(func() { c.podDeleted(p) })
			}
		},
	})
	if err != nil {
		return err
	}
	nodeInf := factory.Core().V1().Nodes().Informer()
	_, err = nodeInf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(o any) { c.post(func() { c.nodeChanged(o.(*corev1.Node)) }) },
		UpdateFunc: func(_, o any) { c.post(func() { c.nodeChanged(o.(*corev1.Node)) }) },
	})
	return err
}

// post hands f to the loop, counting it as pending until it has run.
func (c *cluster) post(f func()) {
	c.mu.Lock()
	c.pending++
	c.mu.Unlock()
	c.work <- f
}

// after posts f to the loop d from now; it is pending from now.
func (c *cluster) after(d time.Duration, f func()) {
	c.mu.Lock()
	c.pending++
	c.mu.Unlock()
	time.AfterFunc(d, func() {
		c.work <- f // still counted: the loop uncounts it when it has run
	})
}

func (c *cluster) loop() {
	for {
		select {
		case <-c.ctx.Done():
			return
		case f := <-c.work:
			f()
			c.mu.Lock()
			c.pending--
			c.mu.Unlock()
		}
	}
}

// call runs f on the loop and waits for its answer.
func (c *cluster) call(f func() error) error {
	done := make(chan error, 1)
	c.post(func() { done <- f() })
	select {
	case err := <-done:
		return err
	case <-c.ctx.Done():
		return c.ctx.Err()
	}
}

// Busy reports whether the stand-in has anything left to do: work queued or
// running, a timer set (a pod starting, stopping or restarting, a binding
// backing off), or a pod waiting for a node while a schedulable node exists.
func (c *cluster) busy() bool {
	var waiting bool
	_ = c.call(func() error {
		waiting = len(c.waitingForNode) > 0 && c.schedulableNode() != ""
		return nil
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pending > 0 || waiting
}

func (c *cluster) setDelays(start, stop time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if start >= 0 {
		c.startDelay = start
	}
	if stop >= 0 {
		c.stopDelay = stop
	}
}

func (c *cluster) delays() (time.Duration, time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.startDelay, c.stopDelay
}

// --- Nodes -------------------------------------------------------------------

// createNode starts the kubelet of a new node: it registers the Node, Ready,
// and from then on runs the pods bound to it.
func (c *cluster) createNode(name string, extra map[string]string) error {
	return c.call(func() error {
		if _, ok := c.nodes[name]; ok {
			return fmt.Errorf("nodes %q already exists", name)
		}
		lbl := map[string]string{"kubernetes.io/arch": "amd64", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux"}
		maps.Copy(lbl, extra)
		n := &snode{name: name, labels: lbl, ip: "10.0.0." + strconv.Itoa(len(c.nodes)+1)}
		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: lbl}}
		created, err := c.client.CoreV1().Nodes().Create(c.ctx, node, metav1.CreateOptions{})
		if err != nil {
			return err
		}
		// The API server clears a Node's status on create; the kubelet reports
		// it next, as registerWithAPIServer and then the status loop do.
		created.Status.Conditions = []corev1.NodeCondition{{
			Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady",
			Message: "kubelet is posting ready status", LastTransitionTime: metav1.Now(), LastHeartbeatTime: metav1.Now(),
		}}
		created.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: n.ip}}
		if _, err := c.client.CoreV1().Nodes().UpdateStatus(c.ctx, created, metav1.UpdateOptions{}); err != nil {
			return err
		}
		c.nodes[name] = n
		// Pods bound here before the node existed are taken over.
		for _, p := range c.sortedPods() {
			if p.state == stateWaiting && p.node == name {
				c.admit(p)
			}
		}
		c.tryScheduling()
		return nil
	})
}

func (c *cluster) nodeChanged(node *corev1.Node) {
	n, ok := c.nodes[node.Name]
	if !ok {
		return
	}
	was := n.unschedulable
	n.unschedulable = node.Spec.Unschedulable
	if was && !n.unschedulable {
		c.tryScheduling()
	}
}

// schedulableNode picks the node a pod goes to: schedulable, with the fewest
// non-terminal pods bound or being bound there, ties to the first name; ""
// when there is none.
func (c *cluster) schedulableNode() string {
	counts := map[string]int{}
	for _, p := range c.pods {
		if p.node != "" && p.state != stateFinished {
			counts[p.node]++
		}
	}
	names := make([]string, 0, len(c.nodes))
	for name, n := range c.nodes {
		if !n.unschedulable {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	best := ""
	for _, name := range names {
		if best == "" || counts[name] < counts[best] {
			best = name
		}
	}
	return best
}

// --- Pods --------------------------------------------------------------------

func podKey(p *corev1.Pod) string { return p.Namespace + "/" + p.Name }

func (c *cluster) sortedPods() []*spod {
	out := make([]*spod, 0, len(c.pods))
	for _, p := range c.pods {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

func (c *cluster) setState(p *spod, s podState) {
	p.state = s
	p.gen++
}

func (c *cluster) podChanged(pod *corev1.Pod) {
	key := podKey(pod)
	p, ok := c.pods[key]
	if ok && p.uid != pod.UID {
		// The name was reused by a new pod: forget the old one.
		delete(c.pods, key)
		delete(c.waitingForNode, key)
		ok = false
	}
	if !ok {
		c.seq++
		p = &spod{key: key, namespace: pod.Namespace, name: pod.Name, uid: pod.UID, seq: c.seq,
			since: map[string]metav1.Time{}, status: map[string]corev1.ConditionStatus{}}
		c.pods[key] = p
		p.pod = pod
		c.firstSeen(p)
	}
	p.pod = pod
	if pod.DeletionTimestamp != nil {
		c.deleting(p)
		return
	}
	if p.state == stateBinding && pod.Spec.NodeName != "" {
		c.bound(p)
	}
}

// firstSeen decides what happens to a pod the stand-in has just heard of.
func (c *cluster) firstSeen(p *spod) {
	pod := p.pod
	switch {
	case pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed:
		p.node = pod.Spec.NodeName
		c.setState(p, stateFinished)
	case pod.Spec.NodeName == "":
		c.setState(p, stateUnbound)
		if pod.DeletionTimestamp == nil {
			c.waitingForNode[p.key] = true
			c.tryScheduling()
		}
	default:
		p.node = pod.Spec.NodeName
		c.bound(p)
	}
}

// tryScheduling binds the waiting pods, oldest first, while a node takes
// them.
func (c *cluster) tryScheduling() {
	var waiting []*spod
	for key := range c.waitingForNode {
		waiting = append(waiting, c.pods[key])
	}
	sort.Slice(waiting, func(i, j int) bool { return waiting[i].seq < waiting[j].seq })
	for _, p := range waiting {
		node := c.schedulableNode()
		if node == "" {
			return
		}
		delete(c.waitingForNode, p.key)
		c.bind(p, node)
	}
}

// bind assumes the pod on node and sends the binding, as scheduleOne does.
func (c *cluster) bind(p *spod, node string) {
	p.node = node
	c.setState(p, stateBinding)
	b := &corev1.Binding{
		ObjectMeta: metav1.ObjectMeta{Namespace: p.namespace, Name: p.name, UID: p.uid},
		Target:     corev1.ObjectReference{Kind: "Node", Name: node},
	}
	err := c.client.CoreV1().Pods(p.namespace).Bind(c.ctx, b, metav1.CreateOptions{})
	if err == nil {
		return // the watch event of the bound pod moves it on (podChanged)
	}
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		// Gone, or already bound: the watch tells what became of it.
		if p.pod.Spec.NodeName == "" {
			p.node = ""
		}
		return
	}
	p.node = ""
	p.failures++
	backoff := bindInitialBackoff << (p.failures - 1)
	if backoff > bindMaxBackoff || backoff <= 0 {
		backoff = bindMaxBackoff
	}
	gen := p.gen
	c.after(backoff, func() {
		if cur, ok := c.pods[p.key]; ok && cur == p && p.gen == gen && p.pod.DeletionTimestamp == nil && p.pod.Spec.NodeName == "" {
			c.setState(p, stateUnbound)
			c.waitingForNode[p.key] = true
			c.tryScheduling()
		}
	})
}

// bound hands a pod bound to a node to that node's kubelet.
func (c *cluster) bound(p *spod) {
	p.node = p.pod.Spec.NodeName
	if _, ok := c.nodes[p.node]; !ok {
		c.setState(p, stateWaiting)
		return
	}
	c.admit(p)
}

// admit is HandlePodAdditions: the kubelet takes the pod. A pod whose status
// someone else wrote Running is adopted as it is; any other starts its
// containers, KubeletStart from now.
func (c *cluster) admit(p *spod) {
	if p.pod.Status.Phase == corev1.PodRunning {
		c.setState(p, stateRunning)
		p.ready = podReady(p.pod)
		if p.pod.Status.StartTime != nil {
			p.startTime = *p.pod.Status.StartTime
		}
		for _, cond := range p.pod.Status.Conditions {
			p.status[string(cond.Type)] = cond.Status
			p.since[string(cond.Type)] = cond.LastTransitionTime
		}
		return
	}
	c.setState(p, stateStarting)
	p.startTime = metav1.Now()
	start, _ := c.delays()
	gen := p.gen
	c.after(start, func() {
		if cur, ok := c.pods[p.key]; ok && cur == p && p.gen == gen {
			c.setState(p, stateRunning)
			p.ready = true
			c.writeStatus(p)
		}
	})
}

func podReady(pod *corev1.Pod) bool {
	for _, cond := range pod.Status.Conditions {
		if cond.Type == corev1.PodReady {
			return cond.Status == corev1.ConditionTrue
		}
	}
	return false
}

// deleting is what the kubelet does when it sees its pod being deleted:
// stop the containers, then remove the pod, KubeletStop from now or when the
// grace period ends, whichever is sooner. A pod that is not bound never gets
// here alive: the API server deletes it at once.
func (c *cluster) deleting(p *spod) {
	delete(c.waitingForNode, p.key)
	if p.state == stateStopping || p.state == stateRemoving {
		return
	}
	if p.pod.Spec.NodeName == "" || c.nodes[p.pod.Spec.NodeName] == nil {
		c.setState(p, stateStopping)
		return // nobody runs it: nothing to stop, the API server removes it or it stays
	}
	_, stop := c.delays()
	if dt := p.pod.DeletionTimestamp; dt != nil {
		if left := time.Until(dt.Time); left < stop {
			stop = max(left, 0)
		}
	}
	c.setState(p, stateStopping)
	gen := p.gen
	c.after(stop, func() {
		if cur, ok := c.pods[p.key]; !ok || cur != p || p.gen != gen {
			return
		}
		c.setState(p, stateRemoving)
		zero := int64(0)
		uid := p.uid
		err := c.client.CoreV1().Pods(p.namespace).Delete(c.ctx, p.name,
			metav1.DeleteOptions{GracePeriodSeconds: &zero, Preconditions: &metav1.Preconditions{UID: &uid}})
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
			c.setState(p, stateStopping) // seen again on the next update; nothing else to do
		}
	})
}

func (c *cluster) podDeleted(pod *corev1.Pod) {
	key := podKey(pod)
	if p, ok := c.pods[key]; ok && p.uid == pod.UID {
		delete(c.pods, key)
		delete(c.waitingForNode, key)
		p.gen++
		c.tryScheduling() // its node has room again
	}
}

// --- Status ------------------------------------------------------------------

// condTypes are the conditions the kubelet writes, in its order.
var condTypes = []corev1.PodConditionType{"PodReadyToStartContainers", corev1.PodInitialized, corev1.PodReady, corev1.ContainersReady, corev1.PodScheduled}

// writeStatus reports the pod's status as the kubelet's status manager
// does, computed from the kubelet's own record. It is a merge patch of the
// whole status with the uid as precondition, so it needs no resourceVersion
// and cannot be undone by a stale read.
func (c *cluster) writeStatus(p *spod) {
	now := metav1.Now()
	want := map[corev1.PodConditionType]corev1.ConditionStatus{}
	for _, t := range condTypes {
		want[t] = corev1.ConditionTrue
	}
	if !p.ready {
		want[corev1.PodReady] = corev1.ConditionFalse
		want[corev1.ContainersReady] = corev1.ConditionFalse
	}
	phase := corev1.PodRunning
	reason, message := "", ""
	if p.evicted {
		phase, reason, message = corev1.PodFailed, "Evicted", EvictionMessage
		want["PodReadyToStartContainers"] = corev1.ConditionFalse
	}
	var conds []corev1.PodCondition
	for _, t := range condTypes {
		st := want[t]
		if t == corev1.PodScheduled {
			if sched := findCond(p.pod, corev1.PodScheduled); sched != nil {
				conds = append(conds, *sched)
				continue
			}
		}
		if old, ok := p.status[string(t)]; !ok || old != st {
			p.status[string(t)] = st
			p.since[string(t)] = now
		}
		conds = append(conds, corev1.PodCondition{Type: t, Status: st, LastTransitionTime: p.since[string(t)]})
	}
	if p.evicted {
		conds = append(conds, corev1.PodCondition{Type: "DisruptionTarget", Status: corev1.ConditionTrue,
			Reason: "TerminationByKubelet", Message: EvictionMessage, LastTransitionTime: now})
	}
	started := !p.evicted
	var statuses []corev1.ContainerStatus
	for _, ct := range p.pod.Spec.Containers {
		cs := corev1.ContainerStatus{Name: ct.Name, Image: ct.Image, Ready: p.ready && !p.evicted, RestartCount: p.restarts, Started: &started}
		if p.evicted {
			cs.State.Terminated = &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "Error"}
		} else {
			cs.State.Running = &corev1.ContainerStateRunning{StartedAt: p.startTime}
		}
		statuses = append(statuses, cs)
	}
	ip := ""
	if n := c.nodes[p.node]; n != nil {
		ip = n.ip
	}
	st := corev1.PodStatus{Phase: phase, Reason: reason, Message: message, Conditions: conds, ContainerStatuses: statuses,
		HostIP: ip, StartTime: &p.startTime}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"uid": p.uid}, "status": st})
	if err != nil {
		return
	}
	_, _ = c.client.CoreV1().Pods(p.namespace).Patch(c.ctx, p.name, types.MergePatchType, patch, metav1.PatchOptions{}, "status")
}

func findCond(pod *corev1.Pod, t corev1.PodConditionType) *corev1.PodCondition {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == t {
			return &pod.Status.Conditions[i]
		}
	}
	return nil
}

// --- Things that happen to pods ------------------------------------------------

// PodAction is what a kubelet can be told to do to a running pod.
type PodAction string

// The pod actions of the scripts' crash, evict and set ready.
const (
	ActionCrash    PodAction = "crash"
	ActionEvict    PodAction = "evict"
	ActionReady    PodAction = "ready"
	ActionNotReady PodAction = "not-ready"
)

// act makes something happen to running pods, as core/cluster's
// Kubelets.Crash, Evict and SetReady do: every pod is checked first, and
// none is touched unless all can take it.
func (c *cluster) act(action PodAction, keys []string) error {
	return c.call(func() error {
		var ps []*spod
		for _, key := range keys {
			p, ok := c.pods[key]
			if !ok {
				return fmt.Errorf("pod/%s: the kubelet does not know it", key)
			}
			if p.state != stateRunning {
				return fmt.Errorf("pod/%s: not running on a kubelet now", p.name)
			}
			ps = append(ps, p)
		}
		for _, p := range ps {
			switch action {
			case ActionCrash:
				p.restarts++
				p.ready = false
				c.setState(p, stateCrashed)
				c.writeStatus(p)
				start, _ := c.delays()
				gen := p.gen
				c.after(start, func() {
					if cur, ok := c.pods[p.key]; ok && cur == p && p.gen == gen {
						c.setState(p, stateRunning)
						p.ready = true
						c.writeStatus(p)
					}
				})
			case ActionEvict:
				p.evicted, p.ready = true, false
				c.setState(p, stateFinished)
				c.writeStatus(p)
			case ActionReady, ActionNotReady:
				p.ready = action == ActionReady
				c.writeStatus(p)
			}
		}
		return nil
	})
}
