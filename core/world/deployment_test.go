package world

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/deployment"
	"github.com/reconcilelab/rlab/core/sim"
)

// The Deployment controller in a whole world: a Deployment rolls out through
// ReplicaSets that the replication manager fills with pods, within its
// budget at every step.

func webDeployment(replicas int32, image string) *api.Deployment {
	sel := map[string]string{"app": "web"}
	return &api.Deployment{
		Metadata: api.ObjectMeta{Namespace: "default", Name: "web"},
		Spec: api.DeploymentSpec{Replicas: &replicas, Selector: &api.LabelSelector{MatchLabels: sel},
			Template: api.PodTemplateSpec{Metadata: api.ObjectMeta{Labels: maps.Clone(sel)},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: image}}}}},
	}
}

func createDeployment(t testing.TB, w *World, d *api.Deployment) {
	t.Helper()
	send(t, w, "create deploy/"+d.Metadata.Name, apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindDeployment, Object: d})
}

func getDeployment(t testing.TB, w *World, name string) *api.Deployment {
	t.Helper()
	o, ok := w.Store.Object(api.KindDeployment, "default", name)
	require.True(t, ok, "no deploy/%s", name)
	return o.(*api.Deployment)
}

// editDeployment updates the Deployment as kubectl does, without a
// resourceVersion: edit changes the stored object's copy.
func editDeployment(t testing.TB, w *World, name, what string, edit func(d *api.Deployment)) {
	t.Helper()
	input(t, w, what+" deploy/"+name, func(w *World) error {
		o, ok := w.Store.Object(api.KindDeployment, "default", name)
		if !ok {
			return &notFound{kind: api.KindDeployment, name: name}
		}
		d := o.(*api.Deployment).DeepCopy()
		edit(d)
		d.Metadata.ResourceVersion = ""
		w.Send(apistore.Request{Verb: apistore.VerbUpdate, Kind: api.KindDeployment, Object: d})
		return nil
	})
}

// scalingEvents returns the messages of the Deployment controller's
// ScalingReplicaSet events, oldest first, each ReplicaSet named by its
// revision ("rev2") instead of its hash, so that they compare with the
// oracle's, whose hashes differ.
func scalingEvents(w *World) []string {
	names := map[string]string{}
	for _, o := range w.Store.Objects(api.KindReplicaSet, "default") {
		rs := o.(*api.ReplicaSet)
		names[rs.Metadata.Name] = "rev" + rs.Metadata.Annotations[deployment.RevisionAnnotation]
	}
	evs := events(w, deployment.Name, deployment.ScalingReplicaSetReason)
	slices.SortStableFunc(evs, func(a, b *api.Event) int { return a.FirstTimestamp.Compare(b.FirstTimestamp.Time) })
	var out []string
	for _, e := range evs {
		msg := e.Message
		for name, rev := range names {
			msg = strings.ReplaceAll(msg, " "+name+" ", " "+rev+" ")
		}
		out = append(out, msg)
	}
	return out
}

// setImage updates the Deployment's template image, as kubectl set image
// does (an update that sends no resourceVersion, so it cannot conflict).
func setImage(t testing.TB, w *World, name, image string) {
	t.Helper()
	input(t, w, "set image deploy/"+name, func(w *World) error {
		o, ok := w.Store.Object(api.KindDeployment, "default", name)
		if !ok {
			return &notFound{kind: api.KindDeployment, name: name}
		}
		d := o.(*api.Deployment).DeepCopy()
		d.Spec.Template.Spec.Containers[0].Image = image
		d.Metadata.ResourceVersion = ""
		w.Send(apistore.Request{Verb: apistore.VerbUpdate, Kind: api.KindDeployment, Object: d})
		return nil
	})
}

// replicaSetsOf returns the ReplicaSets d controls, by name.
func replicaSetsOf(w *World, d *api.Deployment) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, o := range w.Store.Objects(api.KindReplicaSet, "default") {
		rs := o.(*api.ReplicaSet)
		if ref := api.GetControllerOf(&rs.Metadata); ref != nil && ref.UID == d.Metadata.UID {
			out = append(out, rs)
		}
	}
	return out
}

// budget counts, in the store, the Deployment's pods by image: active ones
// (not being deleted) and available ones (ready, not being deleted).
type budget struct {
	active, available map[string]int
}

func budgetOf(w *World) budget {
	b := budget{active: map[string]int{}, available: map[string]int{}}
	for _, p := range pods(w) {
		if p.Metadata.Labels["app"] != "web" || !isActive(p) {
			continue
		}
		img := p.Spec.Containers[0].Image
		b.active[img]++
		if isReady(p) {
			b.available[img]++
		}
	}
	return b
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func condition(d *api.Deployment, typ string) *api.DeploymentCondition {
	return deployment.GetDeploymentCondition(d.Status, typ)
}

// TestDeploymentConvergesThroughReplicaSets: a Deployment in the store makes
// a ReplicaSet named after its pod-template-hash, the replication manager
// fills it, and the Deployment's status says Available and complete.
func TestDeploymentConvergesThroughReplicaSets(t *testing.T) {
	w := newWorld(t, Config{})
	createDeployment(t, w, webDeployment(3, "nginx:1.0"))
	settle(t, w)

	d := getDeployment(t, w, "web")
	rss := replicaSetsOf(w, d)
	require.Len(t, rss, 1)
	rs := rss[0]
	hash := rs.Metadata.Labels[deployment.PodTemplateHashLabel]
	assert.Equal(t, "web-"+hash, rs.Metadata.Name)
	assert.Equal(t, "1", rs.Metadata.Annotations[deployment.RevisionAnnotation])
	assert.Equal(t, "1", d.Metadata.Annotations[deployment.RevisionAnnotation])
	assert.Equal(t, int32(3), rs.Status.AvailableReplicas)
	assert.Equal(t, 3, budgetOf(w).available["nginx:1.0"])
	assert.Equal(t, api.DeploymentStatus{ObservedGeneration: 1, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3},
		api.DeploymentStatus{ObservedGeneration: d.Status.ObservedGeneration, Replicas: d.Status.Replicas, UpdatedReplicas: d.Status.UpdatedReplicas,
			ReadyReplicas: d.Status.ReadyReplicas, AvailableReplicas: d.Status.AvailableReplicas})
	assert.Equal(t, api.ConditionTrue, condition(d, api.DeploymentAvailable).Status)
	assert.Equal(t, deployment.NewRSAvailableReason, condition(d, api.DeploymentProgressing).Reason)
	assert.Len(t, events(w, deployment.Name, deployment.ScalingReplicaSetReason), 1)
	assert.False(t, w.Kernel.Busy(), "a finished rollout leaves the world at rest, its progress check quiet")
}

// TestRollingUpdateStaysWithinItsBudget: a new image rolls over; at every
// step the ReplicaSets want at most replicas + maxSurge pods (what the
// controller bounds), no more pods than that are active, and at least
// replicas − maxUnavailable are available; at the end the new ReplicaSet
// has every replica, the old none, and the revision is 2. The first case is
// 4 replicas at the default 25%/25%: surge 1, unavailable 1.
func TestRollingUpdateStaysWithinItsBudget(t *testing.T) {
	for _, tt := range []struct {
		name                string
		replicas            int32
		surge, unavailable  *api.IntOrString
		wantSurge, wantUnav int32
	}{
		{"4 replicas at 25%/25%", 4, nil, nil, 1, 1},
		{"10 replicas at 25%/25%", 10, nil, nil, 3, 2},
		{"5 replicas, maxSurge 0", 5, intOrString(0), intOrString(1), 0, 1},
		{"3 replicas, maxUnavailable 0", 3, intOrString(1), intOrString(0), 1, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, Config{})
			d := webDeployment(tt.replicas, "nginx:1.0")
			if tt.surge != nil {
				d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: tt.surge, MaxUnavailable: tt.unavailable}
			}
			createDeployment(t, w, d)
			settle(t, w)
			d = getDeployment(t, w, "web")
			surge, unavailable, err := deployment.ResolveFenceposts(d.Spec.Strategy.RollingUpdate.MaxSurge,
				d.Spec.Strategy.RollingUpdate.MaxUnavailable, tt.replicas)
			require.NoError(t, err)
			require.Equal(t, [2]int32{tt.wantSurge, tt.wantUnav}, [2]int32{surge, unavailable})
			most, fewest := int(tt.replicas+surge), int(tt.replicas-unavailable)

			setImage(t, w, "web", "nginx:2.0")
			steps, maxWanted, maxActive, minAvailable := 0, 0, 0, int(tt.replicas)
			sawBoth := false
			for w.Kernel.Busy() {
				_, ok := w.Step()
				require.True(t, ok)
				steps++
				require.Less(t, steps, 50000)
				wanted := 0
				for _, rs := range replicaSetsOf(w, d) {
					wanted += int(*rs.Spec.Replicas)
				}
				b := budgetOf(w)
				maxWanted, maxActive = max(maxWanted, wanted), max(maxActive, sum(b.active))
				minAvailable = min(minAvailable, sum(b.available))
				sawBoth = sawBoth || (b.active["nginx:1.0"] > 0 && b.active["nginx:2.0"] > 0)
				at := w.Kernel.Steps()
				require.LessOrEqual(t, wanted, most, "step %d: the ReplicaSets want more than replicas + maxSurge", at)
				require.LessOrEqual(t, sum(b.active), most, "step %d: more pods than replicas + maxSurge", at)
				require.GreaterOrEqual(t, sum(b.available), fewest, "step %d: fewer than replicas − maxUnavailable available", at)
			}
			t.Logf("rollout: %d steps, at most %d pods wanted, %d active, at least %d available", steps, maxWanted, maxActive, minAvailable)
			assert.True(t, sawBoth, "a rolling update runs old and new pods side by side")
			if surge > 0 {
				assert.Equal(t, most, maxWanted, "the surge is used")
			}

			d = getDeployment(t, w, "web")
			rss := replicaSetsOf(w, d)
			require.Len(t, rss, 2)
			slices.SortFunc(rss, func(a, b *api.ReplicaSet) int { return int(*b.Spec.Replicas) - int(*a.Spec.Replicas) })
			newRS, oldRS := rss[0], rss[1]
			assert.Equal(t, "nginx:2.0", newRS.Spec.Template.Spec.Containers[0].Image)
			assert.Equal(t, tt.replicas, *newRS.Spec.Replicas)
			assert.Equal(t, int32(0), *oldRS.Spec.Replicas)
			assert.Equal(t, "2", newRS.Metadata.Annotations[deployment.RevisionAnnotation])
			assert.Equal(t, "2", d.Metadata.Annotations[deployment.RevisionAnnotation])
			assert.Equal(t, int(tt.replicas), budgetOf(w).available["nginx:2.0"])
			assert.Zero(t, budgetOf(w).active["nginx:1.0"])
			assert.Equal(t, int64(2), d.Status.ObservedGeneration)
			assert.Equal(t, deployment.NewRSAvailableReason, condition(d, api.DeploymentProgressing).Reason)
		})
	}
}

func intOrString(n int32) *api.IntOrString {
	v := api.FromInt(n)
	return &v
}

// TestRecreateNeverRunsOldAndNewPodsTogether: a Recreate rollout scales the
// old ReplicaSet to zero and creates the new one only once every old pod is
// gone from the API.
func TestRecreateNeverRunsOldAndNewPodsTogether(t *testing.T) {
	w := newWorld(t, Config{})
	d := webDeployment(3, "nginx:1.0")
	d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategy}
	createDeployment(t, w, d)
	settle(t, w)
	setImage(t, w, "web", "nginx:2.0")
	sawNone := false
	for n := 0; w.Kernel.Busy(); n++ {
		require.Less(t, n, 20000)
		w.Step()
		images := map[string]bool{}
		for _, p := range pods(w) {
			images[p.Spec.Containers[0].Image] = true
		}
		require.False(t, images["nginx:1.0"] && images["nginx:2.0"], "step %d: old and new pods exist at once", w.Kernel.Steps())
		if len(images) == 0 {
			sawNone = true
		}
	}
	assert.True(t, sawNone, "there is a moment with no pod at all")
	b := budgetOf(w)
	assert.Equal(t, map[string]int{"nginx:2.0": 3}, b.available)
	d = getDeployment(t, w, "web")
	assert.Equal(t, "2", d.Metadata.Annotations[deployment.RevisionAnnotation])
	assert.Equal(t, deployment.NewRSAvailableReason, condition(d, api.DeploymentProgressing).Reason)
}

// TestDeploymentRolloutIsDeterministic: the same seed and inputs give the
// same trace, step for step, and seeking back into the rollout replays it
// bit for bit.
func TestDeploymentRolloutIsDeterministic(t *testing.T) {
	run := func() (*World, []uint64) {
		w := newWorld(t, Config{Seed: 7, SnapshotEvery: 64})
		createDeployment(t, w, webDeployment(4, "nginx:1.0"))
		settle(t, w)
		setImage(t, w, "web", "nginx:2.0")
		settle(t, w)
		return w, []uint64{w.Kernel.Hash(), w.Kernel.Steps()}
	}
	w1, h1 := run()
	_, h2 := run()
	assert.Equal(t, h1, h2, "same seed, same trace")

	end := w1.Kernel.Steps()
	mid := end / 2
	require.NoError(t, w1.Seek(mid))
	require.NoError(t, w1.Seek(end), "replaying the rollout reproduces every recorded hash")
	assert.Equal(t, h1[0], w1.Kernel.Hash())
	require.NoError(t, w1.Seek(3), "back before the first Deployment: the controller sleeps again")
	assert.False(t, w1.Deploy.Active())
	require.NoError(t, w1.Seek(end))
	assert.True(t, w1.Deploy.Active())
	assert.Equal(t, h1[0], w1.Kernel.Hash())
}

// TestNoDeploymentNoDeploymentSteps: a world without Deployments never
// wakes the controller: none of its components takes a step.
func TestNoDeploymentNoDeploymentSteps(t *testing.T) {
	w := newWorld(t, Config{})
	createRS(t, w, replicaSet("web", 3, map[string]string{"app": "web"}))
	for _, s := range runRecording(t, w, sim.Limits{}) {
		assert.NotContains(t, []string{"deploy-controller", deployment.Name, "informer/deployments", "queue/deployment"}, s.Actor)
		assert.NotContains(t, s.Actor, "deploy-worker")
	}
	assert.False(t, w.Deploy.Active())
}

// TestViewShowsDeploymentsOnlyOnceThereAreAny: a world without Deployments
// has neither Deployments, nor the controller, nor its informer in its
// view; once one exists, the view shows it with its conditions, its
// ReplicaSet's owner and revision, and the controller's queue, workers and
// last sync.
func TestViewShowsDeploymentsOnlyOnceThereAreAny(t *testing.T) {
	w := newWorld(t, Config{})
	v := w.View(ViewOptions{Entries: 5})
	assert.Empty(t, v.Deployments)
	assert.Nil(t, v.DeploymentController)
	assert.Len(t, v.Informers, 3)

	createDeployment(t, w, webDeployment(2, "nginx:1.0"))
	settle(t, w)
	v = w.View(ViewOptions{Entries: 5})
	require.Len(t, v.Deployments, 1)
	dv := v.Deployments[0]
	assert.Equal(t, "web", dv.Name)
	assert.Equal(t, "app=web", dv.Selector)
	assert.Equal(t, api.RollingUpdateDeploymentStrategy, dv.Strategy)
	assert.Equal(t, [2]int32{1, 0}, [2]int32{dv.MaxSurge, dv.MaxUnavailable}, "25%/25% of 2")
	assert.Equal(t, "1", dv.Revision)
	assert.Equal(t, int32(2), dv.Status.AvailableReplicas)
	require.Len(t, dv.Conditions, 2)
	assert.Equal(t, deployment.NewRSAvailableReason, dv.Conditions[1].Reason)
	require.Len(t, v.Owners, 1)
	assert.Equal(t, "deploy/web", v.Owners[0].Owner)
	assert.Equal(t, "1", v.Owners[0].Revision)
	require.Len(t, v.Informers, 4)
	assert.Equal(t, "informer/deployments", v.Informers[3].Name)
	dc := v.DeploymentController
	require.NotNil(t, dc)
	assert.True(t, dc.Started)
	assert.Equal(t, "deployment", dc.Queue.Name)
	assert.Len(t, dc.Workers, 5)
	require.Len(t, dc.LastSyncs, 1)
	assert.Equal(t, "deploy/web", dc.LastSyncs[0].Owner)
	assert.Contains(t, dc.LastSyncs[0].Decision, "status unchanged")
	last, ok := w.LatestSync(api.KindDeployment)
	require.True(t, ok)
	assert.Equal(t, dc.LastSyncs[0], last)
	bySync, ok := w.LastSyncOf(api.KindDeployment, "default/web")
	require.True(t, ok)
	assert.Equal(t, last, bySync)
}

// The oracle (../shared/oracle: the real v1.31.14 controllers, run by
// cmd/scenarios with -trace) gives these ScalingReplicaSet events for the
// same scenarios; ours must give the same decisions, in the same order.

func TestRollingUpdateScalesAsTheOracleDoes(t *testing.T) {
	w := newWorld(t, Config{})
	createDeployment(t, w, webDeployment(4, "nginx:1.0"))
	settle(t, w)
	setImage(t, w, "web", "nginx:2.0")
	settle(t, w)
	assert.Equal(t, []string{
		"Scaled up replica set rev1 to 4",
		"Scaled up replica set rev2 to 1",
		"Scaled down replica set rev1 to 3 from 4",
		"Scaled up replica set rev2 to 2 from 1",
		"Scaled down replica set rev1 to 2 from 3",
		"Scaled up replica set rev2 to 3 from 2",
		"Scaled down replica set rev1 to 1 from 2",
		"Scaled up replica set rev2 to 4 from 3",
		"Scaled down replica set rev1 to 0 from 1",
	}, scalingEvents(w))
}

func TestRecreateScalesAsTheOracleDoes(t *testing.T) {
	w := newWorld(t, Config{})
	d := webDeployment(3, "nginx:1.0")
	d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategy}
	createDeployment(t, w, d)
	settle(t, w)
	setImage(t, w, "web", "nginx:2.0")
	settle(t, w)
	assert.Equal(t, []string{
		"Scaled up replica set rev1 to 3",
		"Scaled down replica set rev1 to 0 from 3",
		"Scaled up replica set rev2 to 3",
	}, scalingEvents(w))
}

// TestMaxSurgeZeroScalesAsTheOracleDoes: with no surge the new ReplicaSet
// is created at 0, with no event, and an old pod goes first.
func TestMaxSurgeZeroScalesAsTheOracleDoes(t *testing.T) {
	w := newWorld(t, Config{})
	d := webDeployment(3, "nginx:1.0")
	d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: intOrString(0), MaxUnavailable: intOrString(1)}
	createDeployment(t, w, d)
	settle(t, w)
	setImage(t, w, "web", "nginx:2.0")
	settle(t, w)
	assert.Equal(t, []string{
		"Scaled up replica set rev1 to 3",
		"Scaled down replica set rev1 to 2 from 3",
		"Scaled up replica set rev2 to 1 from 0",
		"Scaled down replica set rev1 to 1 from 2",
		"Scaled up replica set rev2 to 2 from 1",
		"Scaled down replica set rev1 to 0 from 1",
		"Scaled up replica set rev2 to 3 from 2",
	}, scalingEvents(w))
}

// TestPausedTemplateChangeWaitsAndScalingIsProportional: a paused
// Deployment stores a new template without a new ReplicaSet (updated
// replicas 0); resumed, it starts the rollout; scaled from 10 to 20 in the
// middle of it, the 10 more replicas (plus the surge) are shared in
// proportion: 10 → 18 and 3 → 5, as the oracle shares them.
func TestPausedTemplateChangeWaitsAndScalingIsProportional(t *testing.T) {
	w := newWorld(t, Config{})
	d := webDeployment(10, "nginx:1.0")
	d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: intOrString(3), MaxUnavailable: intOrString(2)}
	createDeployment(t, w, d)
	settle(t, w)
	editDeployment(t, w, "web", "rollout pause", func(d *api.Deployment) { d.Spec.Paused = true })
	settle(t, w)
	setImage(t, w, "web", "nginx:2.0")
	settle(t, w)
	d = getDeployment(t, w, "web")
	assert.Len(t, replicaSetsOf(w, d), 1, "paused: no new ReplicaSet")
	assert.Equal(t, int32(0), d.Status.UpdatedReplicas)
	assert.Equal(t, deployment.PausedDeployReason, condition(d, api.DeploymentProgressing).Reason)

	editDeployment(t, w, "web", "rollout resume", func(d *api.Deployment) { d.Spec.Paused = false })
	_, err := w.UntilDeploymentSync("default", "web", sim.Limits{})
	require.NoError(t, err)
	editDeployment(t, w, "web", "scale", func(d *api.Deployment) { d.Spec.Replicas = ptrInt32(20) })
	settle(t, w)
	assert.Equal(t, []string{
		"Scaled up replica set rev1 to 10",
		"Scaled up replica set rev2 to 3",
		"Scaled up replica set rev1 to 18 from 10",
		"Scaled up replica set rev2 to 5 from 3",
	}, scalingEvents(w)[:4])
	d = getDeployment(t, w, "web")
	assert.Equal(t, int32(20), d.Status.UpdatedReplicas)
	assert.Equal(t, int32(20), d.Status.AvailableReplicas)
}

func ptrInt32(n int32) *int32 { return &n }

// TestMatchingOrphanReplicaSetIsAdoptedAsTheNewOne: a Deployment whose
// template an orphan ReplicaSet already runs adopts it (a patch adding its
// controller reference, after a fresh GET of the Deployment) and makes no
// ReplicaSet of its own: no pod is replaced, the revision stays 1, and no
// ScalingReplicaSet event is recorded, as the oracle shows after
// delete deploy --cascade=orphan and a new Deployment of the same template.
func TestMatchingOrphanReplicaSetIsAdoptedAsTheNewOne(t *testing.T) {
	w := newWorld(t, Config{})
	d := webDeployment(3, "nginx:1.0")
	hash := deployment.ComputeHash(&d.Spec.Template, nil)
	labels := map[string]string{"app": "web", deployment.PodTemplateHashLabel: hash}
	orphan := replicaSet("web-"+hash, 3, labels)
	orphan.Spec.Template = *d.Spec.Template.DeepCopy()
	orphan.Spec.Template.Metadata.Labels = maps.Clone(labels)
	orphan.Metadata.Labels = maps.Clone(labels)
	orphan.Metadata.Annotations = map[string]string{deployment.RevisionAnnotation: "1",
		deployment.DesiredReplicasAnnotation: "3", deployment.MaxReplicasAnnotation: "4"}
	createRS(t, w, orphan)
	settle(t, w)
	before := names(pods(w))
	since := len(w.Server.Requests())

	createDeployment(t, w, d)
	settle(t, w)
	d = getDeployment(t, w, "web")
	rss := replicaSetsOf(w, d)
	require.Len(t, rss, 1, "the orphan was adopted, and no other ReplicaSet made")
	assert.Equal(t, "web-"+hash, rss[0].Metadata.Name)
	assert.True(t, *api.GetControllerOf(&rss[0].Metadata).BlockOwnerDeletion)
	assert.Equal(t, "1", rss[0].Metadata.Annotations[deployment.RevisionAnnotation])
	assert.Equal(t, before, names(pods(w)), "no pod replaced")
	assert.Empty(t, scalingEvents(w))
	assert.Equal(t, 1, requests(w, since, "deploy-worker", apistore.VerbGet, "deployments"), "one fresh GET before adopting")
	assert.Equal(t, 1, requests(w, since, "deploy-worker", apistore.VerbPatch, "replicasets"), "one adoption patch")
	assert.Equal(t, deployment.NewRSAvailableReason, condition(d, api.DeploymentProgressing).Reason)
}

// TestFirstSyncOfANewTemplateConflictsOnItsSecondWrite: the sync that
// creates the new ReplicaSet writes the Deployment twice from the copy it
// read (the revision, then the status); the second write carries a stale
// resourceVersion and is refused, so right after that sync
// observedGeneration still lags, and the key is retried, as the oracle
// shows.
func TestFirstSyncOfANewTemplateConflictsOnItsSecondWrite(t *testing.T) {
	w := newWorld(t, Config{})
	createDeployment(t, w, webDeployment(2, "nginx:1.0"))
	settle(t, w)
	setImage(t, w, "web", "nginx:2.0")
	rec, err := w.UntilDeploymentSync("default", "web", sim.Limits{})
	require.NoError(t, err)
	assert.Contains(t, rec.Err, "the object has been modified")
	assert.Contains(t, rec.Decision, "creating rs/web-")
	d := getDeployment(t, w, "web")
	assert.Equal(t, "2", d.Metadata.Annotations[deployment.RevisionAnnotation], "the first write got through")
	assert.Equal(t, int64(1), d.Status.ObservedGeneration, "the second did not")
	assert.Equal(t, int64(2), d.Metadata.Generation)
	assert.Equal(t, 1, w.Deploy.Queue().NumRequeues("default/web"))
}

// TestEveryDeploymentStepNamesItsUpstreamSource: each step the Deployment
// controller takes in a rollout, a Recreate and a scaling names an upstream
// function the page can link to.
func TestEveryDeploymentStepNamesItsUpstreamSource(t *testing.T) {
	w := newWorld(t, Config{})
	createDeployment(t, w, webDeployment(3, "nginx:1.0"))
	d := webDeployment(2, "nginx:1.0")
	d.Metadata.Name = "db"
	d.Spec.Selector.MatchLabels = map[string]string{"app": "db"}
	d.Spec.Template.Metadata.Labels = map[string]string{"app": "db"}
	d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategy}
	createDeployment(t, w, d)
	seen := map[string]bool{}
	record := func() {
		for _, s := range runRecording(t, w, sim.Limits{}) {
			if s.Actor == "deploy-controller" || s.Actor == deployment.Name || strings.HasPrefix(s.Actor, "deploy-worker-") {
				seen[s.Models] = true
			}
		}
	}
	record()
	setImage(t, w, "web", "nginx:2.0")
	setImage(t, w, "db", "nginx:2.0")
	record()
	editDeployment(t, w, "web", "scale", func(d *api.Deployment) { d.Spec.Replicas = ptrInt32(5) })
	record()
	for _, models := range slices.Sorted(maps.Keys(seen)) {
		_, ok := SourceOf(models)
		assert.True(t, ok, "step function %q has no upstream source", models)
	}
	assert.Contains(t, seen, "scaleReplicaSet")
	assert.Contains(t, seen, "dc.deletePod")
}

// TestFailingDeploymentIsDroppedAfterFifteenRetries: a sync that keeps
// failing is retried with back-off 15 times (5ms, 10ms, … 82s in all) and
// then dropped until something enqueues it again; a namespace being
// deleted is not a failure to retry.
func TestFailingDeploymentIsDroppedAfterFifteenRetries(t *testing.T) {
	w := newWorld(t, Config{})
	_, err := w.Store.Faults().Add(apistore.FaultRule{Verb: apistore.VerbCreate, Resource: "replicasets", Always: true})
	require.NoError(t, err)
	createDeployment(t, w, webDeployment(2, "nginx:1.0"))
	settle(t, w)
	rec, ok := w.Deploy.LastSync("default/web")
	require.True(t, ok)
	assert.Equal(t, 16, rec.Count, "the first sync and its 15 retries")
	assert.Contains(t, rec.Err, "Internal error occurred")
	assert.Zero(t, w.Deploy.Queue().NumRequeues("default/web"), "forgotten when dropped")
	d := getDeployment(t, w, "web")
	assert.Equal(t, deployment.FailedRSCreateReason, condition(d, api.DeploymentProgressing).Reason)
	assert.Len(t, events(w, deployment.Name, deployment.FailedRSCreateReason), 1, "folded into one event by the correlator")
	assert.Greater(t, events(w, deployment.Name, deployment.FailedRSCreateReason)[0].Count, int32(1))
	assert.Len(t, replicaSetsOf(w, d), 0)

	w.Store.Faults().HealAll()
	editDeployment(t, w, "web", "scale", func(d *api.Deployment) { d.Spec.Replicas = ptrInt32(3) })
	settle(t, w)
	assert.Equal(t, int32(3), getDeployment(t, w, "web").Status.AvailableReplicas, "a change enqueues it again")

	_, err = w.Store.Faults().Add(apistore.FaultRule{Verb: apistore.VerbUpdate, Resource: "replicasets", Error: apistore.FaultNamespaceTerminating, Count: 1})
	require.NoError(t, err)
	editDeployment(t, w, "web", "scale", func(d *api.Deployment) { d.Spec.Replicas = ptrInt32(4) })
	rec, err = w.UntilDeploymentSync("default", "web", sim.Limits{})
	require.NoError(t, err)
	assert.Contains(t, rec.Err, "terminat")
	assert.Zero(t, w.Deploy.Queue().NumRequeues("default/web"), "NamespaceTerminating is forgotten, not retried")
}
