package deployment

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/informer"
	"github.com/reconcilelab/rlab/core/sim"
)

// Upstream's deployment_controller_test.go at v1.31 (spec §10.1). The
// handler tests fill the informers' caches directly and call the handlers,
// as upstream's fill the indexers of an unstarted informer factory; the sync
// tests run syncDeployment on the fake env, whose actions are upstream's fake
// clientset's.

// handlerRig is a controller whose informers were never started: the test
// fills their caches, and nothing runs in the background.
type handlerRig struct {
	c             *Controller
	ds, rss, pods *informer.Informer
}

func newHandlerRig(t *testing.T) *handlerRig {
	t.Helper()
	k := sim.New(1)
	srv := apistore.NewServer("apiserver", apistore.New(apistore.Options{Now: k.Wall, Rand: k.Rand()}), apistore.ServerConfig{})
	inf := func(kind api.Kind) *informer.Informer {
		return informer.New(informer.Config{Name: "informer/" + kind.Resource(), Kind: kind, Server: srv}, k)
	}
	r := &handlerRig{ds: inf(api.KindDeployment), rss: inf(api.KindReplicaSet), pods: inf(api.KindPod)}
	r.c = New(Config{Server: srv, Deployments: r.ds, ReplicaSets: r.rss, Pods: r.pods}, k)
	return r
}

func (r *handlerRig) add(objs ...api.Object) {
	for _, o := range objs {
		switch o.(type) {
		case *api.Deployment:
			r.ds.Indexer().Add(o)
		case *api.ReplicaSet:
			r.rss.Indexer().Add(o)
		case *api.Pod:
			r.pods.Indexer().Add(o)
		}
	}
}

// take returns the keys waiting in the queue, and empties it.
func (r *handlerRig) take() []string {
	var keys []string
	for r.c.queue.Len() > 0 {
		key, _, _ := r.c.queue.Get("test")
		r.c.queue.Done(key)
		keys = append(keys, key)
	}
	return keys
}

func podOf(rs *api.ReplicaSet) *api.Pod {
	return &api.Pod{
		Metadata: api.ObjectMeta{Name: rs.Metadata.Name + "-pod", Namespace: rs.Metadata.Namespace, UID: uid("pod"),
			Labels:          rs.Spec.Selector.MatchLabels,
			OwnerReferences: []api.OwnerReference{api.NewControllerRef(&rs.Metadata, "apps/v1", "ReplicaSet")}},
		Status: api.PodStatus{Phase: api.PodRunning},
	}
}

var fooBar = map[string]string{"foo": "bar"}

func recreate(d *api.Deployment) *api.Deployment {
	d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategy}
	return d
}

func TestSyncDeploymentCreatesReplicaSet(t *testing.T) {
	f, c := newFake()
	d := newDeployment("foo", 1, nil, nil, nil, fooBar)
	f.deployments = []*api.Deployment{d}
	require.NoError(t, c.syncDeployment("default/foo"))
	assert.Equal(t, []string{"create replicasets", "update deployments/status", "update deployments/status"}, f.verbs())
	created := f.actions[0].obj.(*api.ReplicaSet)
	hash := created.Metadata.Labels[PodTemplateHashLabel]
	require.NotEmpty(t, hash)
	assert.Equal(t, "foo-"+hash, created.Metadata.Name)
	assert.Equal(t, hash, created.Spec.Selector.MatchLabels[PodTemplateHashLabel])
	assert.Equal(t, hash, created.Spec.Template.Metadata.Labels[PodTemplateHashLabel])
	assert.Equal(t, map[string]string{"foo": "bar"}, d.Spec.Selector.MatchLabels, "the Deployment's selector is not changed")
	assert.Equal(t, "1", created.Metadata.Annotations[RevisionAnnotation])
	assert.True(t, *created.Metadata.OwnerReferences[0].BlockOwnerDeletion)
	assert.Equal(t, []string{"Normal ScalingReplicaSet Scaled up replica set foo-" + hash + " to 1"}, f.events)
}

func TestSyncDeploymentDontDoAnythingDuringDeletion(t *testing.T) {
	f, c := newFake()
	d := newDeployment("foo", 1, nil, nil, nil, fooBar)
	d.Metadata.DeletionTimestamp = api.NewTimePtr(f.clock)
	f.deployments = []*api.Deployment{d}
	require.NoError(t, c.syncDeployment("default/foo"))
	assert.Equal(t, []string{"update deployments/status"}, f.verbs())
}

func TestSyncDeploymentDeletionRace(t *testing.T) {
	f, c := newFake()
	d := newDeployment("foo", 1, nil, nil, nil, fooBar)
	f.deployments = []*api.Deployment{d}
	// The API server says it is being deleted; the cache does not know yet.
	deleted := d.DeepCopy()
	deleted.Metadata.DeletionTimestamp = api.NewTimePtr(f.clock)
	f.live["default/foo"] = deleted
	orphan := newReplicaSet(d, "rs1", 1)
	orphan.Metadata.OwnerReferences = nil
	f.rss = []*api.ReplicaSet{orphan}
	err := c.syncDeployment("default/foo")
	require.Error(t, err, "the sync fails, to be retried once the cache catches up")
	assert.Contains(t, err.Error(), "can't adopt ReplicaSet default/rs1")
	assert.Contains(t, err.Error(), "default/foo has just been deleted at")
	assert.Equal(t, []string{"get deployments"}, f.verbs(), "only the recheck of the deletion timestamp")
}

func TestDontSyncDeploymentsWithEmptyPodSelector(t *testing.T) {
	f, c := newFake()
	d := newDeployment("foo", 1, nil, nil, nil, fooBar)
	d.Spec.Selector = &api.LabelSelector{}
	f.deployments = []*api.Deployment{d}
	require.NoError(t, c.syncDeployment("default/foo"))
	assert.Empty(t, f.actions, "generation 0 is observed already")
	assert.Equal(t, []string{"Warning SelectingAll This deployment is selecting all pods. A non-empty selector is required."}, f.events)

	d.Metadata.Generation = 2
	require.NoError(t, c.syncDeployment("default/foo"))
	require.Equal(t, []string{"update deployments/status"}, f.verbs(), "a new generation is recorded, and nothing else")
	assert.Equal(t, int64(2), f.actions[0].obj.(*api.Deployment).Status.ObservedGeneration)
}

func TestReentrantRollback(t *testing.T) {
	f, c := newFake()
	d := newDeployment("foo", 1, nil, nil, nil, fooBar)
	d.Metadata.Annotations = map[string]string{RevisionAnnotation: "2", RollbackToAnnotation: "0"}
	rs1 := newReplicaSet(d, "deploymentrs-old", 0)
	rs1.Metadata.Annotations = map[string]string{RevisionAnnotation: "1"}
	one := int64(1)
	rs1.Spec.Template.Spec.TerminationGracePeriodSeconds = &one
	rs1.Spec.Selector.MatchLabels[PodTemplateHashLabel] = "hash"
	rs2 := newReplicaSet(d, "deploymentrs-new", 1)
	rs2.Metadata.Annotations = map[string]string{RevisionAnnotation: "2"}
	rs2.Spec.Selector.MatchLabels[PodTemplateHashLabel] = "hash"
	f.deployments = []*api.Deployment{d}
	f.rss = []*api.ReplicaSet{rs1, rs2}
	require.NoError(t, c.syncDeployment("default/foo"))
	require.Equal(t, []string{"update deployments"}, f.verbs(), "the rollback, and no ReplicaSet write")
	rolled := f.actions[0].obj.(*api.Deployment)
	assert.Equal(t, &one, rolled.Spec.Template.Spec.TerminationGracePeriodSeconds, "rs1's template")
	assert.NotContains(t, rolled.Metadata.Annotations, RollbackToAnnotation)
	assert.Equal(t, []string{`Normal DeploymentRollback Rolled back deployment "foo" to revision 1`}, f.events)
}

func TestPodDeletionEnqueuesRecreateDeployment(t *testing.T) {
	r := newHandlerRig(t)
	foo := recreate(newDeployment("foo", 1, nil, nil, nil, fooBar))
	rs := newReplicaSet(foo, "foo-1", 1)
	r.add(foo, rs)
	r.c.deletePod(podOf(rs))
	assert.Equal(t, []string{"default/foo"}, r.take())
}

func TestPodDeletionDoesntEnqueueRecreateDeployment(t *testing.T) {
	r := newHandlerRig(t)
	foo := recreate(newDeployment("foo", 1, nil, nil, nil, fooBar))
	rs1, rs2 := newReplicaSet(foo, "foo-1", 1), newReplicaSet(foo, "foo-1", 1)
	pod1, pod2 := podOf(rs1), podOf(rs2)
	pod2.Metadata.Name = "other"
	r.add(foo, pod1, pod2)
	r.c.deletePod(pod1)
	assert.Empty(t, r.take(), "the pod's ReplicaSet is not in the cache, so no Deployment is found")
}

func TestPodDeletionPartialReplicaSetOwnershipEnqueueRecreateDeployment(t *testing.T) {
	r := newHandlerRig(t)
	foo := recreate(newDeployment("foo", 1, nil, nil, nil, fooBar))
	rs1, rs2 := newReplicaSet(foo, "foo-1", 1), newReplicaSet(foo, "foo-2", 2)
	rs2.Metadata.OwnerReferences = nil
	r.add(foo, rs1, rs2)
	r.c.deletePod(podOf(rs1))
	assert.Equal(t, []string{"default/foo"}, r.take())
}

func TestPodDeletionPartialReplicaSetOwnershipDoesntEnqueueRecreateDeployment(t *testing.T) {
	r := newHandlerRig(t)
	foo := recreate(newDeployment("foo", 1, nil, nil, nil, fooBar))
	rs1, rs2 := newReplicaSet(foo, "foo-1", 1), newReplicaSet(foo, "foo-2", 2)
	rs2.Metadata.OwnerReferences = nil
	pod := podOf(rs1)
	r.add(foo, rs1, rs2, pod)
	r.c.deletePod(pod)
	assert.Empty(t, r.take(), "a pod of the Deployment is still in the cache")
}

// TestPodDeletionIgnoresRollingUpdateDeployments: only a Recreate rollout
// waits for pods to be gone.
func TestPodDeletionIgnoresRollingUpdateDeployments(t *testing.T) {
	r := newHandlerRig(t)
	foo := newDeployment("foo", 1, nil, nil, nil, fooBar)
	rs := newReplicaSet(foo, "foo-1", 1)
	r.add(foo, rs)
	r.c.deletePod(informer.DeletedFinalStateUnknown{Key: "default/foo-1-pod", Obj: podOf(rs)})
	assert.Empty(t, r.take())
}

func TestGetReplicaSetsForDeployment(t *testing.T) {
	f, c := newFake()
	d1, d2 := newDeployment("foo", 1, nil, nil, nil, fooBar), newDeployment("bar", 1, nil, nil, nil, fooBar)
	rs1, rs2 := newReplicaSet(d1, "rs1", 1), newReplicaSet(d2, "rs2", 1)
	f.rss = []*api.ReplicaSet{rs1, rs2}
	got, err := c.getReplicaSetsForDeployment(d1)
	require.NoError(t, err)
	assert.Equal(t, []*api.ReplicaSet{rs1}, got)
	got, err = c.getReplicaSetsForDeployment(d2)
	require.NoError(t, err)
	assert.Equal(t, []*api.ReplicaSet{rs2}, got)
	assert.Empty(t, f.actions, "both are owned: no patch")
}

func TestGetReplicaSetsForDeploymentAdoptRelease(t *testing.T) {
	f, c := newFake()
	d := newDeployment("foo", 1, nil, nil, nil, fooBar)
	f.live["default/foo"] = d
	rsAdopt := newReplicaSet(d, "rsAdopt", 1)
	rsAdopt.Metadata.OwnerReferences = nil
	rsRelease := newReplicaSet(d, "rsRelease", 1)
	rsRelease.Metadata.Labels = map[string]string{"foo": "notbar"}
	f.rss = []*api.ReplicaSet{rsAdopt, rsRelease}
	got, err := c.getReplicaSetsForDeployment(d)
	require.NoError(t, err)
	assert.Equal(t, []*api.ReplicaSet{rsAdopt}, got)
	assert.Equal(t, []string{"get deployments", "patch replicasets", "patch replicasets"}, f.verbs())
	assert.Equal(t, []string{"rsAdopt", "rsRelease"}, []string{f.actions[1].name, f.actions[2].name})
}

// TestClaimErrorsAreJoinedAndEndTheSync: a failed adoption is reported, the
// claim goes on with the next ReplicaSet, and the sync ends with the error.
func TestClaimErrorsAreJoinedAndEndTheSync(t *testing.T) {
	f, c := newFake()
	d := newDeployment("foo", 1, nil, nil, nil, fooBar)
	f.deployments = []*api.Deployment{d}
	f.live["default/foo"] = d
	orphan := newReplicaSet(d, "rs1", 1)
	orphan.Metadata.OwnerReferences = nil
	f.rss = []*api.ReplicaSet{orphan}
	f.fail["patch replicasets"] = errors.New("injected")
	err := c.syncDeployment("default/foo")
	assert.EqualError(t, err, "injected")
	assert.Equal(t, []string{"get deployments", "patch replicasets"}, f.verbs())
}

func TestGetPodMapForReplicaSets(t *testing.T) {
	f, c := newFake()
	d := newDeployment("foo", 1, nil, nil, nil, fooBar)
	rs1, rs2 := newReplicaSet(d, "rs1", 1), newReplicaSet(d, "rs2", 1)
	pod1, pod2 := podOf(rs1), podOf(rs2)
	pod3 := podOf(rs1)
	pod3.Metadata.Name, pod3.Metadata.OwnerReferences = "pod3", nil
	pod4 := podOf(rs1)
	pod4.Metadata.Name, pod4.Status.Phase = "pod4", api.PodFailed
	f.pods = []*api.Pod{pod1, pod2, pod3, pod4}
	m, err := c.getPodMapForDeployment(d, []*api.ReplicaSet{rs1, rs2})
	require.NoError(t, err)
	assert.Equal(t, 3, m.count())
	assert.Len(t, m.uids, 2)
	names := func(pods []*api.Pod) []string {
		var out []string
		for _, p := range pods {
			out = append(out, p.Metadata.Name)
		}
		return out
	}
	assert.Equal(t, []string{"rs1-pod", "pod4"}, names(m.pods[rs1.Metadata.UID]))
	assert.Equal(t, []string{"rs2-pod"}, names(m.pods[rs2.Metadata.UID]))
}

func TestAddReplicaSet(t *testing.T) {
	r := newHandlerRig(t)
	d1, d2 := newDeployment("d1", 1, nil, nil, nil, fooBar), newDeployment("d2", 1, nil, nil, nil, fooBar)
	rs1, rs2 := newReplicaSet(d1, "rs1", 1), newReplicaSet(d2, "rs2", 1)
	r.add(d1, d2)
	r.c.addReplicaSet(rs1, false)
	assert.Equal(t, []string{"default/d1"}, r.take())
	r.c.addReplicaSet(rs2, false)
	assert.Equal(t, []string{"default/d2"}, r.take())
}

func TestAddReplicaSetOrphan(t *testing.T) {
	r := newHandlerRig(t)
	d1, d2, d3 := newDeployment("d1", 1, nil, nil, nil, fooBar), newDeployment("d2", 1, nil, nil, nil, fooBar),
		newDeployment("d3", 1, nil, nil, nil, fooBar)
	d3.Spec.Selector.MatchLabels = map[string]string{"foo": "notbar"}
	rs := newReplicaSet(d1, "rs1", 1)
	rs.Metadata.OwnerReferences = nil
	r.add(d1, d2, d3)
	r.c.addReplicaSet(rs, false)
	assert.Equal(t, []string{"default/d1", "default/d2"}, r.take())
}

// TestAddReplicaSetBeingDeleted: a ReplicaSet first seen with a
// deletionTimestamp counts as deleted.
func TestAddReplicaSetBeingDeleted(t *testing.T) {
	r := newHandlerRig(t)
	d1 := newDeployment("d1", 1, nil, nil, nil, fooBar)
	rs := newReplicaSet(d1, "rs1", 1)
	rs.Metadata.DeletionTimestamp = api.NewTimePtr(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	r.add(d1)
	rep := r.c.addReplicaSet(rs, false)
	assert.Equal(t, "addReplicaSet", rep.Models)
	assert.Contains(t, rep.Summary.String(), "counts as a deletion")
	assert.Equal(t, []string{"default/d1"}, r.take())
}

func bumped(rs *api.ReplicaSet) *api.ReplicaSet {
	next := rs.DeepCopy()
	next.Metadata.ResourceVersion = rs.Metadata.ResourceVersion + "1"
	return next
}

func TestUpdateReplicaSet(t *testing.T) {
	r := newHandlerRig(t)
	d1, d2 := newDeployment("d1", 1, nil, nil, nil, fooBar), newDeployment("d2", 1, nil, nil, nil, fooBar)
	rs1, rs2 := newReplicaSet(d1, "rs1", 1), newReplicaSet(d2, "rs2", 1)
	r.add(d1, d2, rs1, rs2)
	r.c.updateReplicaSet(rs1, bumped(rs1))
	assert.Equal(t, []string{"default/d1"}, r.take())
	r.c.updateReplicaSet(rs2, bumped(rs2))
	assert.Equal(t, []string{"default/d2"}, r.take())
	r.c.updateReplicaSet(rs2, rs2.DeepCopy())
	assert.Empty(t, r.take(), "the same resourceVersion: a resync, ignored")
}

func TestUpdateReplicaSetOrphanWithNewLabels(t *testing.T) {
	r := newHandlerRig(t)
	d1, d2 := newDeployment("d1", 1, nil, nil, nil, fooBar), newDeployment("d2", 1, nil, nil, nil, fooBar)
	rs := newReplicaSet(d1, "rs1", 1)
	rs.Metadata.OwnerReferences = nil
	r.add(d1, d2, rs)
	prev := rs.DeepCopy()
	prev.Metadata.Labels = map[string]string{"foo": "notbar"}
	r.c.updateReplicaSet(prev, bumped(rs))
	assert.Len(t, r.take(), 2)
	r.c.updateReplicaSet(rs, bumped(rs))
	assert.Empty(t, r.take(), "an orphan whose labels did not change")
}

func TestUpdateReplicaSetChangeControllerRef(t *testing.T) {
	r := newHandlerRig(t)
	d1, d2 := newDeployment("d1", 1, nil, nil, nil, fooBar), newDeployment("d2", 1, nil, nil, nil, fooBar)
	rs := newReplicaSet(d1, "rs1", 1)
	r.add(d1, d2, rs)
	prev := rs.DeepCopy()
	prev.Metadata.OwnerReferences = []api.OwnerReference{api.NewControllerRef(&d2.Metadata, "apps/v1", "Deployment")}
	r.c.updateReplicaSet(prev, bumped(rs))
	assert.Len(t, r.take(), 2)
}

func TestUpdateReplicaSetRelease(t *testing.T) {
	r := newHandlerRig(t)
	d1, d2 := newDeployment("d1", 1, nil, nil, nil, fooBar), newDeployment("d2", 1, nil, nil, nil, fooBar)
	rs := newReplicaSet(d1, "rs1", 1)
	r.add(d1, d2, rs)
	next := bumped(rs)
	next.Metadata.OwnerReferences = nil
	r.c.updateReplicaSet(rs, next)
	assert.Len(t, r.take(), 2, "the old owner, and both that may adopt it")
}

func TestDeleteReplicaSet(t *testing.T) {
	r := newHandlerRig(t)
	d1, d2 := newDeployment("d1", 1, nil, nil, nil, fooBar), newDeployment("d2", 1, nil, nil, nil, fooBar)
	rs1, rs2 := newReplicaSet(d1, "rs1", 1), newReplicaSet(d2, "rs2", 1)
	r.add(d1, d2, rs1, rs2)
	r.c.deleteReplicaSet(rs1)
	assert.Equal(t, []string{"default/d1"}, r.take())
	r.c.deleteReplicaSet(informer.DeletedFinalStateUnknown{Key: "default/rs2", Obj: rs2})
	assert.Equal(t, []string{"default/d2"}, r.take())
}

func TestDeleteReplicaSetOrphan(t *testing.T) {
	r := newHandlerRig(t)
	d1, d2 := newDeployment("d1", 1, nil, nil, nil, fooBar), newDeployment("d2", 1, nil, nil, nil, fooBar)
	rs := newReplicaSet(d1, "rs1", 1)
	rs.Metadata.OwnerReferences = nil
	r.add(d1, d2, rs)
	r.c.deleteReplicaSet(rs)
	assert.Empty(t, r.take())
}

// TestDeploymentHandlersEnqueueEveryChange: add, every update (a resync
// too) and delete enqueue the Deployment.
func TestDeploymentHandlersEnqueueEveryChange(t *testing.T) {
	r := newHandlerRig(t)
	d := newDeployment("d1", 1, nil, nil, nil, fooBar)
	r.c.addDeployment(d, false)
	assert.Equal(t, []string{"default/d1"}, r.take())
	r.c.updateDeployment(d, d)
	assert.Equal(t, []string{"default/d1"}, r.take())
	r.c.deleteDeployment(informer.DeletedFinalStateUnknown{Key: "default/d1", Obj: d})
	assert.Equal(t, []string{"default/d1"}, r.take())
}

// TestStaleDesiredAnnotationStallsTheRollout pins a v1.31 behaviour that is
// an upstream bug (kubernetes/kubernetes pull requests 138036 and 138840,
// open): when the only active ReplicaSet already has spec.replicas replicas
// but a stale desired-replicas annotation, every sync is a scaling event,
// and scale returns early without refreshing the annotation, so the
// rollout to the new template never starts. Scaling the Deployment to
// another size and back is the way out.
func TestStaleDesiredAnnotationStallsTheRollout(t *testing.T) {
	d := newDeployment("foo", 3, nil, intstr(1), intstr(1), fooBar)
	old := newReplicaSet(d, "foo-old", 3)
	old.Spec.Template.Spec.Containers[0].Image = "foo/old"
	old.Metadata.Annotations = map[string]string{RevisionAnnotation: "1"}
	SetReplicasAnnotations(old, 4, 5)
	current := newReplicaSet(d, "foo-new", 0)
	current.Metadata.Annotations = map[string]string{RevisionAnnotation: "2"}
	SetReplicasAnnotations(current, 3, 4)
	d.Metadata.Annotations[RevisionAnnotation] = "2"
	for range 2 {
		f, c := newFake()
		f.deployments, f.rss = []*api.Deployment{d}, []*api.ReplicaSet{old, current}
		require.NoError(t, c.syncDeployment("default/foo"))
		assert.Contains(t, f.said, "spec.replicas changed since its ReplicaSets were sized: a scaling event, not a rollout")
		for _, a := range f.actions {
			assert.NotEqual(t, "replicasets", a.resource, "no ReplicaSet is scaled or annotated: %v", f.verbs())
		}
	}
}
