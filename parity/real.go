package parity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/printers"
	"github.com/reconcilelab/rlab/core/script"
	"github.com/reconcilelab/rlab/parity/plane"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// Real carries a script through a real control plane: the commands that
// have a meaning on a cluster go to the API server through client-go, as
// kubectl (or a chaos tool, or the kubelet) would send them; the rest are
// refused with ErrNotComparable and the reason.
type Real struct {
	p      *plane.Plane
	c      kubernetes.Interface
	ctx    context.Context
	scale  float64
	rand   *rand.Rand
	settle SettleRules
	// kubeletStart is kubelet-start as configured, what heal kubelet
	// restores after slow kubelet.
	kubeletStart time.Duration

	// namespaces are those the script has used; default is always one.
	namespaces map[string]bool

	mu sync.Mutex
	// podSeq numbers pods by uid in the order their creation reached the
	// executor's watch, which is the API server's (etcd's) order: what
	// --pick=oldest means.
	podSeq map[types.UID]int
	seq    int
	stop   chan struct{}
	// baseline is what the controllers' queue metrics said when the
	// executor started, at rest: the metrics are the process's, and a plane
	// stopped before this one may have left its counts behind.
	baseline map[string]plane.QueueActivity
	// trails records the deletions the API server's watches show.
	trails *realTrails
	// moment is the time, to the second, of the script's current moment,
	// "" until a command needs it (restartStamp) and again after each
	// command that lets time pass.
	moment string
}

// restartStamp is the time kubectl rollout restart writes, to the second.
// On rlab's clock, the commands between two that let time pass (advance,
// stabilize, step, until sync) happen at one moment, so a restart given
// twice among them is refused there ("already been triggered within the
// past second"); on the plane the wall clock can cross a second between
// the two. So the runner keeps one moment until time is let pass, and takes
// the wall clock's time for the next.
func (r *Real) restartStamp() string {
	if r.moment == "" {
		r.moment = time.Now().UTC().Format(time.RFC3339)
	}
	return r.moment
}

// NotComparable is a command that has no meaning on a real cluster: a
// simulator-only fault, stepping, a view of the simulator's insides.
type NotComparable struct {
	Reason string
}

func (e *NotComparable) Error() string { return "not comparable: " + e.Reason }

// ErrNotComparable matches every *NotComparable with errors.Is.
var ErrNotComparable = errors.New("not comparable")

// Is makes errors.Is(err, ErrNotComparable) true for a *NotComparable.
func (e *NotComparable) Is(target error) bool { return target == ErrNotComparable }

func notComparable(reason string) error { return &NotComparable{Reason: reason} }

// NewReal returns an executor on a running plane. scale multiplies every
// time the script gives (advance, kubelet-start, kubelet-stop); the
// controllers' own timers are the real ones and are not scaled.
func NewReal(ctx context.Context, p *plane.Plane, seed uint64, scale float64, rules SettleRules) (*Real, error) {
	r := &Real{p: p, c: p.Client, ctx: ctx, scale: scale, rand: rand.New(rand.NewPCG(seed, seed)),
		settle: rules, namespaces: map[string]bool{"default": true}, podSeq: map[types.UID]int{}, stop: make(chan struct{})}
	r.kubeletStart, _ = p.KubeletDelays()
	f := informers.NewSharedInformerFactory(p.Client, 0)
	inf := f.Core().V1().Pods().Informer()
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: func(o any) {
		pod, ok := o.(*corev1.Pod)
		if !ok {
			return
		}
		r.mu.Lock()
		if _, seen := r.podSeq[pod.UID]; !seen {
			r.seq++
			r.podSeq[pod.UID] = r.seq
		}
		r.mu.Unlock()
	}}); err != nil {
		return nil, err
	}
	f.Start(r.stop)
	f.WaitForCacheSync(r.stop)
	base, err := plane.Queues()
	if err != nil {
		return nil, err
	}
	r.baseline = base
	if r.trails, err = watchTrails(ctx, p.Client); err != nil {
		return nil, err
	}
	return r, nil
}

// Close stops the executor's watches.
func (r *Real) Close() {
	close(r.stop)
	r.trails.close()
}

func (r *Real) scaled(d time.Duration) time.Duration { return time.Duration(float64(d) * r.scale) }

// ensureNamespace creates a namespace the script names, as rlab's API
// store holds objects in any namespace without one.
func (r *Real) ensureNamespace(ns string) error {
	if ns == "" || r.namespaces[ns] {
		return nil
	}
	_, err := r.c.CoreV1().Namespaces().Create(r.ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	r.namespaces[ns] = true
	return nil
}

// Run carries out one command. It returns a *NotComparable for what has no
// meaning on a cluster, and the API's error for a refused request.
func (r *Real) Run(cmd script.Command) error {
	switch cmd.(type) {
	case *script.Advance, *script.Stabilize, *script.Step, *script.UntilSync:
		r.moment = ""
	}
	switch c := cmd.(type) {
	case *script.Seed:
		r.rand = rand.New(rand.NewPCG(c.Value, c.Value))
		return nil
	case *script.Config:
		return r.config(c)
	case *script.CreateNode:
		return r.p.CreateNode(c.Name, c.Labels)
	case *script.CreateRS:
		return r.createRS(c)
	case *script.CreateRC:
		return r.createRC(c)
	case *script.CreateDeploy:
		return r.createDeploy(c)
	case *script.CreatePod:
		return r.createPod(c)
	case *script.Scale:
		return r.scaleObject(c)
	case *script.Label:
		return r.label(c)
	case *script.Delete:
		return r.delete(c)
	case *script.Cordon:
		patch := fmt.Sprintf(`{"spec":{"unschedulable":%v}}`, c.Unschedulable)
		_, err := r.c.CoreV1().Nodes().Patch(r.ctx, c.Node, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		return err
	case *script.PodAction:
		return r.podAction(c)
	case *script.SetReady:
		keys, err := r.podKeys(c.Target)
		if err != nil {
			return err
		}
		action := plane.ActionNotReady
		if c.Ready {
			action = plane.ActionReady
		}
		return r.p.Act(action, keys)
	case *script.SetImage:
		return r.updateDeployment(c.Object, func(d *appsv1.Deployment) error {
			for i := range d.Spec.Template.Spec.Containers {
				ct := &d.Spec.Template.Spec.Containers[i]
				for _, kv := range c.Images {
					if kv.Key == "*" || kv.Key == ct.Name {
						ct.Image = kv.Value
					}
				}
			}
			return nil
		})
	case *script.RolloutPause:
		// kubectl refuses, before sending anything, to pause a paused
		// Deployment or resume one that is not (its ObjectPauser and
		// ObjectResumer return "is already paused", "is not paused").
		return r.updateDeployment(c.Object, func(d *appsv1.Deployment) error {
			if d.Spec.Paused == c.Pause {
				if c.Pause {
					return fmt.Errorf("deployments.apps %q is already paused", d.Name)
				}
				return fmt.Errorf("deployments.apps %q is not paused", d.Name)
			}
			d.Spec.Paused = c.Pause
			return nil
		})
	case *script.RolloutRestart:
		// kubectl's ObjectRestarter refuses a paused Deployment, and a
		// restart whose timestamp (to the second) is the one already there.
		return r.updateDeployment(c.Object, func(d *appsv1.Deployment) error {
			if d.Spec.Paused {
				return fmt.Errorf("deployments.apps %q can't restart paused deployment (run rollout resume first)", d.Name)
			}
			now := r.restartStamp()
			if d.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"] == now {
				return fmt.Errorf("failed to create patch for %s: if restart has already been triggered within the past second, please wait before attempting to trigger another", d.Name)
			}
			if d.Spec.Template.Annotations == nil {
				d.Spec.Template.Annotations = map[string]string{}
			}
			d.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"] = now
			return nil
		})
	case *script.RolloutUndo:
		return r.undo(c)
	case *script.RolloutStatus, *script.RolloutHistory, *script.Get, *script.Describe, *script.Help:
		return nil // reading: nothing to do on the cluster
	case *script.Show:
		return notComparable(c.What + " shows the simulator's insides")
	case *script.Advance:
		time.Sleep(r.scaled(c.D))
		return nil
	case *script.Stabilize:
		return r.Settle(c.Limits.MaxTime)
	case *script.Step:
		return notComparable("step runs the simulator's kernel one event at a time; a real cluster does not stop between events")
	case *script.UntilSync:
		if err := r.untilObserved(c.Object); err != nil {
			return err
		}
		return notComparable("until sync stops the simulator after one sync; a real controller cannot be paused there, so the runner waits until it has observed the object's latest spec")
	case *script.Fail:
		return notComparable("fail injects API errors into the simulator's store")
	case *script.WatchFault:
		return notComparable(string(c.Action) + " watch is a fault of the simulator's watches")
	case *script.Heal:
		if c.Scope == script.HealKubelet || c.Scope == script.HealAll {
			r.p.SetKubeletDelays(r.kubeletStart, -1)
		}
		if c.Scope == script.HealKubelet {
			return nil
		}
		return notComparable("heal ends the simulator's faults")
	case *script.SlowKubelet:
		r.p.SetKubeletDelays(r.scaled(c.Start), -1)
		return nil
	}
	return notComparable(fmt.Sprintf("the runner has no real-cluster meaning for %q", cmd.Src().Name))
}

func (r *Real) config(c *script.Config) error {
	var skipped []string
	for _, st := range c.Settings {
		switch st.Key {
		case script.ConfigKubeletStart:
			r.kubeletStart = r.scaled(st.Duration)
			r.p.SetKubeletDelays(r.kubeletStart, -1)
		case script.ConfigKubeletStop:
			r.p.SetKubeletDelays(-1, r.scaled(st.Duration))
		case script.ConfigWorkers, script.ConfigBurstReplicas, script.ConfigResync:
			// Read before the plane starts (PlaneConfig).
		default:
			skipped = append(skipped, st.Key)
		}
	}
	if len(skipped) > 0 {
		return notComparable("config " + fmt.Sprint(skipped) + " tunes the simulator's latencies or resync; the real ones are what they are")
	}
	return nil
}

// --- Creating ----------------------------------------------------------------

// The objects are the ones core/script's create commands build (Object),
// in core/api's types, sent through their JSON.

func (r *Real) createRS(c *script.CreateRS) error {
	if err := r.ensureNamespace(c.Namespace); err != nil {
		return err
	}
	rs, err := c.Object()
	if err != nil {
		return err
	}
	obj, err := fromAPI[appsv1.ReplicaSet](rs)
	if err != nil {
		return err
	}
	_, err = r.c.AppsV1().ReplicaSets(c.Namespace).Create(r.ctx, obj, metav1.CreateOptions{})
	return err
}

func (r *Real) createRC(c *script.CreateRC) error {
	if err := r.ensureNamespace(c.Namespace); err != nil {
		return err
	}
	obj, err := fromAPI[corev1.ReplicationController](c.Object())
	if err != nil {
		return err
	}
	_, err = r.c.CoreV1().ReplicationControllers(c.Namespace).Create(r.ctx, obj, metav1.CreateOptions{})
	return err
}

func (r *Real) createDeploy(c *script.CreateDeploy) error {
	if err := r.ensureNamespace(c.Namespace); err != nil {
		return err
	}
	d, err := c.Object()
	if err != nil {
		return err
	}
	obj, err := fromAPI[appsv1.Deployment](d)
	if err != nil {
		return err
	}
	_, err = r.c.AppsV1().Deployments(c.Namespace).Create(r.ctx, obj, metav1.CreateOptions{})
	return err
}

// createPod creates a bare pod; with --phase (and --ready) a second
// request writes the status it starts with, as core/script does, since the
// API server ignores a status sent with a create.
func (r *Real) createPod(c *script.CreatePod) error {
	if err := r.ensureNamespace(c.Namespace); err != nil {
		return err
	}
	phase := c.Phase
	if c.Ready && phase == "" {
		phase = api.PodRunning
	}
	if c.Ready && phase != api.PodRunning {
		return errors.New("--ready needs --phase=Running: only a running pod can be Ready")
	}
	obj, err := fromAPI[corev1.Pod](c.Object())
	if err != nil {
		return err
	}
	created, err := r.c.CoreV1().Pods(c.Namespace).Create(r.ctx, obj, metav1.CreateOptions{})
	if err != nil || phase == "" {
		return err
	}
	now := metav1.Now()
	st := corev1.PodStatus{Phase: corev1.PodPhase(phase)}
	if phase == api.PodRunning {
		ready := corev1.ConditionFalse
		if c.Ready {
			ready = corev1.ConditionTrue
		}
		started := true
		st.StartTime = &now
		st.Conditions = []corev1.PodCondition{
			{Type: "PodReadyToStartContainers", Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: corev1.PodReady, Status: ready, LastTransitionTime: now},
			{Type: corev1.ContainersReady, Status: ready, LastTransitionTime: now},
		}
		if c.Node != "" {
			st.Conditions = append(st.Conditions, corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: now})
		}
		for _, ct := range created.Spec.Containers {
			st.ContainerStatuses = append(st.ContainerStatuses, corev1.ContainerStatus{Name: ct.Name, Image: ct.Image, Ready: c.Ready, Started: &started,
				State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}}})
		}
	}
	patch, err := json.Marshal(map[string]any{"status": st})
	if err != nil {
		return err
	}
	_, err = r.c.CoreV1().Pods(c.Namespace).Patch(r.ctx, c.Name, types.MergePatchType, patch, metav1.PatchOptions{}, "status")
	return err
}

// --- Changing ----------------------------------------------------------------

// scaleObject patches the scale subresource, as kubectl scale does.
func (r *Real) scaleObject(c *script.Scale) error {
	patch := []byte(`{"spec":{"replicas":` + strconv.Itoa(int(c.Replicas)) + `}}`)
	ns, name := c.Object.Namespace, c.Object.Name
	var err error
	switch c.Object.Kind {
	case api.KindReplicaSet:
		_, err = r.c.AppsV1().ReplicaSets(ns).Patch(r.ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}, "scale")
	case api.KindReplicationController:
		_, err = r.c.CoreV1().ReplicationControllers(ns).Patch(r.ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}, "scale")
	case api.KindDeployment:
		_, err = r.c.AppsV1().Deployments(ns).Patch(r.ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}, "scale")
	default:
		return notComparable("scale of " + string(c.Object.Kind))
	}
	return err
}

// chosen lists the objects a target acts on, in creation order narrowed by
// its pick, as core/script's targets do.
func (r *Real) chosen(t script.Target) ([]api.Object, error) {
	if err := r.ensureNamespace(t.Namespace); err != nil {
		return nil, err
	}
	all, _, err := listAPI(r.ctx, r.c, t.Kind)
	if err != nil {
		return nil, err
	}
	var objs []api.Object
	for _, o := range all {
		m := o.Meta()
		if t.Kind.Namespaced() && m.Namespace != t.Namespace {
			continue
		}
		if t.ByName() {
			if m.Name == t.Name {
				return []api.Object{o}, nil
			}
			continue
		}
		if t.Selector.Matches(m.Labels) {
			objs = append(objs, o)
		}
	}
	if t.ByName() {
		return nil, fmt.Errorf("%s %q not found", t.Kind.Resource(), t.Name)
	}
	r.creationOrder(objs)
	idx, ok := t.Pick.Choose(len(objs), r.rand.IntN)
	if !ok {
		return nil, fmt.Errorf("only %d %s match -l %s; %s needs more", len(objs), t.Kind.Resource(), t.SelectorText, t.Pick.String())
	}
	out := make([]api.Object, len(idx))
	for i, j := range idx {
		out[i] = objs[j]
	}
	return out, nil
}

// creationOrder sorts objects as created: pods by the order the executor's
// watch saw them created, the others by creation time, then name.
func (r *Real) creationOrder(objs []api.Object) {
	r.mu.Lock()
	defer r.mu.Unlock()
	seqOf := func(o api.Object) int {
		if s, ok := r.podSeq[types.UID(o.Meta().UID)]; ok {
			return s
		}
		return int(^uint(0) >> 1)
	}
	sort.SliceStable(objs, func(i, j int) bool {
		a, b := objs[i].Meta(), objs[j].Meta()
		if sa, sb := seqOf(objs[i]), seqOf(objs[j]); sa != sb {
			return sa < sb
		}
		if !a.CreationTimestamp.Time.Equal(b.CreationTimestamp.Time) {
			return a.CreationTimestamp.Time.Before(b.CreationTimestamp.Time)
		}
		return a.Name < b.Name
	})
}

func (r *Real) podKeys(t script.Target) ([]string, error) {
	objs, err := r.chosen(t)
	if err != nil {
		return nil, err
	}
	if len(objs) == 0 {
		return nil, fmt.Errorf("no pods match -l %s", t.SelectorText)
	}
	keys := make([]string, len(objs))
	for i, o := range objs {
		keys[i] = o.Meta().Namespace + "/" + o.Meta().Name
	}
	return keys, nil
}

// label sets and removes labels or annotations with one merge patch per
// object, as kubectl label does, after checking --overwrite for all.
func (r *Real) label(c *script.Label) error {
	objs, err := r.chosen(c.Target)
	if err != nil {
		return err
	}
	for _, o := range objs {
		have := o.Meta().Labels
		if c.Annotate {
			have = o.Meta().Annotations
		}
		for _, kv := range c.Set {
			if v, ok := have[kv.Key]; ok && v != kv.Value && !c.Overwrite {
				return fmt.Errorf("'%s' already has a value (%s), and --overwrite is false", kv.Key, v)
			}
		}
	}
	field := "labels"
	if c.Annotate {
		field = "annotations"
	}
	change := map[string]any{}
	for _, kv := range c.Set {
		change[kv.Key] = kv.Value
	}
	for _, k := range c.Remove {
		change[k] = nil
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{field: change}})
	if err != nil {
		return err
	}
	for _, o := range objs {
		if err := r.patch(c.Target.Kind, o.Meta().Namespace, o.Meta().Name, patch); err != nil {
			return err
		}
	}
	return nil
}

func (r *Real) patch(kind api.Kind, ns, name string, patch []byte) error {
	var err error
	po := metav1.PatchOptions{}
	switch kind {
	case api.KindPod:
		_, err = r.c.CoreV1().Pods(ns).Patch(r.ctx, name, types.MergePatchType, patch, po)
	case api.KindReplicaSet:
		_, err = r.c.AppsV1().ReplicaSets(ns).Patch(r.ctx, name, types.MergePatchType, patch, po)
	case api.KindReplicationController:
		_, err = r.c.CoreV1().ReplicationControllers(ns).Patch(r.ctx, name, types.MergePatchType, patch, po)
	case api.KindDeployment:
		_, err = r.c.AppsV1().Deployments(ns).Patch(r.ctx, name, types.MergePatchType, patch, po)
	case api.KindNode:
		_, err = r.c.CoreV1().Nodes().Patch(r.ctx, name, types.MergePatchType, patch, po)
	default:
		return notComparable("changing a " + string(kind))
	}
	return err
}

// delete deletes as kubectl delete does: pods with their grace period or
// --grace-period, the others with the cascade as propagation policy
// (kubectl's default, background).
func (r *Real) delete(c *script.Delete) error {
	objs, err := r.chosen(c.Target)
	if err != nil {
		return err
	}
	opts := metav1.DeleteOptions{GracePeriodSeconds: c.GracePeriod}
	if c.Target.Kind != api.KindPod {
		policy := metav1.DeletePropagationBackground
		switch c.Cascade {
		case script.CascadeForeground:
			policy = metav1.DeletePropagationForeground
		case script.CascadeOrphan:
			policy = metav1.DeletePropagationOrphan
		}
		opts = metav1.DeleteOptions{PropagationPolicy: &policy}
	}
	for _, o := range objs {
		if err := r.deleteOne(c.Target.Kind, o.Meta().Namespace, o.Meta().Name, opts); err != nil {
			return err
		}
	}
	return nil
}

func (r *Real) deleteOne(kind api.Kind, ns, name string, opts metav1.DeleteOptions) error {
	switch kind {
	case api.KindPod:
		return r.c.CoreV1().Pods(ns).Delete(r.ctx, name, opts)
	case api.KindReplicaSet:
		return r.c.AppsV1().ReplicaSets(ns).Delete(r.ctx, name, opts)
	case api.KindReplicationController:
		return r.c.CoreV1().ReplicationControllers(ns).Delete(r.ctx, name, opts)
	case api.KindDeployment:
		return r.c.AppsV1().Deployments(ns).Delete(r.ctx, name, opts)
	case api.KindNode:
		return r.c.CoreV1().Nodes().Delete(r.ctx, name, opts)
	case api.KindEvent:
		return r.c.CoreV1().Events(ns).Delete(r.ctx, name, opts)
	}
	return notComparable("deleting a " + string(kind))
}

// podAction: kill is a delete with grace period 0, as chaos tools do; crash
// and evict go to the pods' kubelets.
func (r *Real) podAction(c *script.PodAction) error {
	if c.Action == "kill" {
		objs, err := r.chosen(c.Target)
		if err != nil {
			return err
		}
		if len(objs) == 0 {
			return fmt.Errorf("no pods match -l %s", c.Target.SelectorText)
		}
		zero := int64(0)
		for _, o := range objs {
			if err := r.c.CoreV1().Pods(o.Meta().Namespace).Delete(r.ctx, o.Meta().Name, metav1.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
				return err
			}
		}
		return nil
	}
	keys, err := r.podKeys(c.Target)
	if err != nil {
		return err
	}
	action := plane.ActionCrash
	if c.Action == "evict" {
		action = plane.ActionEvict
	}
	return r.p.Act(action, keys)
}

// updateDeployment reads the Deployment, changes it and writes it back,
// again on a conflict, as kubectl's set image and rollout commands do.
func (r *Real) updateDeployment(ref script.Ref, change func(d *appsv1.Deployment) error) error {
	for range 5 {
		d, err := r.c.AppsV1().Deployments(ref.Namespace).Get(r.ctx, ref.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if err := change(d); err != nil {
			return err
		}
		_, err = r.c.AppsV1().Deployments(ref.Namespace).Update(r.ctx, d, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
	}
	return fmt.Errorf("deploy/%s kept changing under the update", ref.Name)
}

// undo is kubectl rollout undo (its rollback.go): pick the ReplicaSet of the
// revision (the one before the newest by default), refuse a paused
// Deployment, and write that ReplicaSet's template (without its
// pod-template-hash) and annotations back into the Deployment.
func (r *Real) undo(c *script.RolloutUndo) error {
	return r.updateDeployment(c.Object, func(d *appsv1.Deployment) error {
		if d.Spec.Paused {
			return fmt.Errorf("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again")
		}
		list, err := r.c.AppsV1().ReplicaSets(d.Namespace).List(r.ctx, metav1.ListOptions{})
		if err != nil {
			return err
		}
		type rev struct {
			n  int64
			rs *appsv1.ReplicaSet
		}
		var revs []rev
		for i := range list.Items {
			rs := &list.Items[i]
			if ref := metav1.GetControllerOf(rs); ref == nil || ref.UID != d.UID {
				continue
			}
			n, err := strconv.ParseInt(rs.Annotations[printers.RevisionAnnotation], 10, 64)
			if err != nil {
				continue
			}
			revs = append(revs, rev{n, rs})
		}
		slices.SortFunc(revs, func(a, b rev) int { return int(a.n - b.n) })
		var target *appsv1.ReplicaSet
		if c.ToRevision == 0 {
			if len(revs) < 2 {
				return fmt.Errorf("no rollout history found for deployment %q", d.Name)
			}
			target = revs[len(revs)-2].rs
		} else {
			for _, rv := range revs {
				if rv.n == c.ToRevision {
					target = rv.rs
				}
			}
			if target == nil {
				return fmt.Errorf("unable to find specified revision %d in history", c.ToRevision)
			}
		}
		tmpl := *target.Spec.Template.DeepCopy()
		delete(tmpl.Labels, appsv1.DefaultDeploymentUniqueLabelKey)
		d.Spec.Template = tmpl
		skip := map[string]bool{"kubectl.kubernetes.io/last-applied-configuration": true, printers.RevisionAnnotation: true,
			"deployment.kubernetes.io/revision-history": true, "deployment.kubernetes.io/desired-replicas": true,
			"deployment.kubernetes.io/max-replicas": true, "deprecated.deployment.rollback.to": true}
		for k, v := range target.Annotations {
			if !skip[k] {
				if d.Annotations == nil {
					d.Annotations = map[string]string{}
				}
				d.Annotations[k] = v
			}
		}
		return nil
	})
}

// untilObserved is the nearest a real cluster comes to until sync: it waits
// until the owner's controller has observed the owner's latest spec
// (status.observedGeneration reaches metadata.generation), which the sync
// that acts on a new spec writes at its end. Without it, a command the
// script gives after until sync (lesson 18 pauses a Deployment right after
// a new image) raced the controller on the real cluster: on a loaded machine
// the pause came first and the new ReplicaSet was never made, where the
// simulator, stopped after that sync, always had it.
func (r *Real) untilObserved(ref script.Ref) error {
	observed := func() (bool, error) {
		switch ref.Kind {
		case api.KindDeployment:
			d, err := r.c.AppsV1().Deployments(ref.Namespace).Get(r.ctx, ref.Name, metav1.GetOptions{})
			return err == nil && d.Status.ObservedGeneration >= d.Generation, err
		case api.KindReplicaSet:
			rs, err := r.c.AppsV1().ReplicaSets(ref.Namespace).Get(r.ctx, ref.Name, metav1.GetOptions{})
			return err == nil && rs.Status.ObservedGeneration >= rs.Generation, err
		case api.KindReplicationController:
			rc, err := r.c.CoreV1().ReplicationControllers(ref.Namespace).Get(r.ctx, ref.Name, metav1.GetOptions{})
			return err == nil && rc.Status.ObservedGeneration >= rc.Generation, err
		}
		return true, nil
	}
	deadline := time.Now().Add(time.Minute)
	for {
		ok, err := observed()
		if apierrors.IsNotFound(err) {
			return nil // until sync of an object that is gone: nothing to wait for
		}
		if err != nil || ok {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("until sync %s: its controller had not observed its latest spec after a minute", ref)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
