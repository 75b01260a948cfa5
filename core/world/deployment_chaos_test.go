package world

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/deployment"
	"github.com/reconcilelab/rlab/core/informer"
)

// TestDeploymentChaos rolls a Deployment over and over under random faults
// drawn from a PCG seeded with the seed: failing pod creates (quota),
// ReplicaSet creates and updates, Deployment status writes (conflicts),
// dropped and broken watches of all three informers, killed pods, new
// images and new sizes. Then every fault is healed, and the world must come
// to rest with the rollout complete: the newest ReplicaSet has every
// replica, available, every other ReplicaSet none, and the Deployment's
// status says so. A second run of the same seed takes the same steps.
//
//	go test ./core/world -run 'TestDeploymentChaos$' -chaos.seed=N -v   # one seed
func TestDeploymentChaos(t *testing.T) {
	for _, seed := range chaosSeedList() {
		t.Run("seed="+strconv.FormatUint(seed, 10), func(t *testing.T) {
			first, steps, _ := runDeploymentChaos(t, seed)
			if t.Failed() {
				t.Logf("reproduce with: go test ./core/world -run 'TestDeploymentChaos$' -chaos.seed=%d -v", seed)
				return
			}
			second, _, _ := runDeploymentChaos(t, seed)
			require.Equal(t, first, second, "one seed, one trace")
			if testing.Verbose() {
				t.Logf("seed %d: %d steps", seed, steps)
			}
		})
	}
}

// TestAStaleDesiredReplicasAnnotationStallsUntilScaledAwayAndBack builds,
// in a whole world, v1.31's stale desired-replicas dead end that chaos runs
// can meet (see TestStaleDesiredAnnotationStallsTheRollout in
// core/deployment): the only active ReplicaSet has spec.replicas replicas,
// but its desired-replicas annotation is from another size, so every sync
// is a scaling event that changes nothing and a new template never rolls
// out. runDeploymentChaos gets out of it as a user would, by scaling to
// another size and back, and this test proves that way out works.
func TestAStaleDesiredReplicasAnnotationStallsUntilScaledAwayAndBack(t *testing.T) {
	w := newWorld(t, Config{Seed: 1, SnapshotEvery: -1})
	createDeployment(t, w, webDeployment(3, "nginx:1"))
	settle(t, w)
	d := getDeployment(t, w, "web")
	rss := replicaSetsOf(w, d)
	require.Len(t, rss, 1)
	input(t, w, "annotate rs stale", func(w *World) error {
		rs := rss[0].DeepCopy()
		rs.Metadata.Annotations[deployment.DesiredReplicasAnnotation] = "4"
		rs.Metadata.ResourceVersion = ""
		w.Send(apistore.Request{Verb: apistore.VerbUpdate, Kind: api.KindReplicaSet, Object: rs})
		return nil
	})
	settle(t, w)
	editDeployment(t, w, "web", "set image", func(d *api.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "nginx:2" })
	settle(t, w)
	d = getDeployment(t, w, "web")
	require.True(t, stalledOnStaleAnnotation(w, d), "the rollout never starts")
	assert.Len(t, replicaSetsOf(w, d), 1, "no ReplicaSet for the new template")

	for _, size := range []int32{4, 3} {
		editDeployment(t, w, "web", "scale", func(d *api.Deployment) { d.Spec.Replicas = &size })
		settle(t, w)
	}
	d = getDeployment(t, w, "web")
	assert.False(t, stalledOnStaleAnnotation(w, d))
	b := budgetOf(w)
	assert.Equal(t, map[string]int{"nginx:2": 3}, b.available, "scaled away and back, the rollout ran")
}

// runDeploymentChaos runs one seed and checks convergence; it returns the
// trace hash and step count at the end, and whether the Deployment met
// upstream's stale-annotation stall on the way.
func runDeploymentChaos(t *testing.T, seed uint64) (hash, steps uint64, stalled bool) {
	w := newWorld(t, Config{Seed: seed, SnapshotEvery: -1, Resync: chaosResync})
	rng := rand.New(rand.NewPCG(seed, 0xdeb107))
	createDeployment(t, w, webDeployment(6, "nginx:1"))
	settle(t, w)

	informers := []*informer.Informer{w.Deployments, w.ReplicaSets, w.Pods}
	fault := func(verb apistore.Verb, resource string, kind apistore.FaultKind) {
		input(t, w, "fail "+string(verb)+" "+resource, func(w *World) error {
			_, err := w.Store.Faults().Add(apistore.FaultRule{Verb: verb, Resource: resource, Error: kind, Count: 1 + rng.IntN(3)})
			return err
		})
	}
	version := 1
	for round := 0; round < 60; round++ {
		switch rng.IntN(9) {
		case 0:
			fault(apistore.VerbCreate, "pods", apistore.FaultQuota)
		case 1:
			fault(apistore.VerbUpdate, "replicasets", apistore.FaultServer)
		case 2:
			fault(apistore.VerbCreate, "replicasets", apistore.FaultServer)
		case 3:
			fault(apistore.VerbUpdate, "deployments/status", apistore.FaultConflict)
		case 4:
			inf := informers[rng.IntN(len(informers))]
			n := 1 + rng.IntN(3)
			input(t, w, "drop watch "+inf.Name(), func(*World) error { inf.DropNextEvents(n); return nil })
		case 5:
			inf := informers[rng.IntN(len(informers))]
			input(t, w, "break watch "+inf.Name(), func(*World) error { inf.BreakWatch(); return nil })
		case 6:
			if ps := pods(w); len(ps) > 0 {
				killPod(t, w, ps[rng.IntN(len(ps))].Metadata.Name)
			}
		case 7:
			version++
			setImage(t, w, "web", "nginx:"+strconv.Itoa(version))
		case 8:
			n := int32(3 + rng.IntN(6))
			editDeployment(t, w, "web", "scale", func(d *api.Deployment) { d.Spec.Replicas = &n })
		}
		for gap := rng.IntN(60); gap > 0 && w.Kernel.Busy(); gap-- {
			w.Step()
		}
	}
	input(t, w, "heal all", func(w *World) error {
		w.Store.Faults().HealAll()
		for _, inf := range informers {
			inf.Heal()
		}
		return nil
	})
	_, err := w.Stabilize(chaosLimits)
	require.NoError(t, err, "seed %d: the world must come to rest after healing", seed)

	d := getDeployment(t, w, "web")
	if stalled = stalledOnStaleAnnotation(w, d); stalled {
		// v1.31's own dead end (see TestStaleDesiredAnnotationStallsTheRollout
		// in core/deployment), reproduced faithfully: the way out is a user's
		// scaling to another size and back.
		t.Logf("seed %d: upstream's stale desired-replicas stall; scaling away and back", seed)
		n := *d.Spec.Replicas
		for _, size := range []int32{n + 1, n} {
			editDeployment(t, w, "web", "scale", func(d *api.Deployment) { d.Spec.Replicas = &size })
			_, err = w.Stabilize(chaosLimits)
			require.NoError(t, err)
		}
		d = getDeployment(t, w, "web")
	}
	want := *d.Spec.Replicas
	image := d.Spec.Template.Spec.Containers[0].Image
	var newest *api.ReplicaSet
	for _, rs := range replicaSetsOf(w, d) {
		if deployment.EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			require.Nil(t, newest, "seed %d: one ReplicaSet per template", seed)
			newest = rs
			continue
		}
		assert.Equal(t, int32(0), *rs.Spec.Replicas, "seed %d: old rs/%s", seed, rs.Metadata.Name)
	}
	require.NotNil(t, newest, "seed %d: the current template has its ReplicaSet", seed)
	assert.Equal(t, want, *newest.Spec.Replicas, "seed %d", seed)
	assert.Equal(t, strconv.Itoa(int(deployment.MaxRevision(replicaSetsOf(w, d)))), newest.Metadata.Annotations[deployment.RevisionAnnotation],
		"seed %d: the current ReplicaSet has the highest revision", seed)
	b := budgetOf(w)
	assert.Equal(t, map[string]int{image: int(want)}, b.available, "seed %d: every replica runs the current image", seed)
	assert.Equal(t, map[string]int{image: int(want)}, b.active, "seed %d: and no other pod is left", seed)
	assert.Equal(t, d.Metadata.Generation, d.Status.ObservedGeneration, "seed %d", seed)
	assert.Equal(t, [3]int32{want, want, want}, [3]int32{d.Status.Replicas, d.Status.UpdatedReplicas, d.Status.AvailableReplicas}, "seed %d", seed)
	if c := condition(d, api.DeploymentProgressing); assert.NotNil(t, c) {
		assert.Equal(t, deployment.NewRSAvailableReason, c.Reason, "seed %d: %s", seed, c.Message)
	}
	return w.Kernel.Hash(), w.Kernel.Steps(), stalled
}

// stalledOnStaleAnnotation says whether d is stuck as upstream's v1.31 gets
// stuck: its only active ReplicaSet has spec.replicas replicas but a
// desired-replicas annotation from another size, so every sync is a scaling
// event that changes nothing.
func stalledOnStaleAnnotation(w *World, d *api.Deployment) bool {
	var active []*api.ReplicaSet
	for _, rs := range replicaSetsOf(w, d) {
		if *rs.Spec.Replicas > 0 {
			active = append(active, rs)
		}
	}
	if len(active) != 1 || *active[0].Spec.Replicas != *d.Spec.Replicas {
		return false
	}
	desired, ok := deployment.GetDesiredReplicasAnnotation(active[0])
	return ok && desired != *d.Spec.Replicas
}
