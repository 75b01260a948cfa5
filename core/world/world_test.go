package world

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
)

func newWorld(t testing.TB, cfg Config) *World {
	t.Helper()
	w, err := New(cfg)
	require.NoError(t, err)
	_, err = w.Stabilize(sim.Limits{})
	require.NoError(t, err)
	return w
}

func replicaSet(name string, replicas int32, labels map[string]string) *api.ReplicaSet {
	return &api.ReplicaSet{
		Metadata: api.ObjectMeta{Namespace: "default", Name: name},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: labels},
				Spec:     api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
			},
		},
	}
}

func createRS(t testing.TB, w *World, rs *api.ReplicaSet) {
	t.Helper()
	require.NoError(t, w.Do("create rs "+rs.Metadata.Name, func(w *World) error {
		w.Send(apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindReplicaSet, Object: rs})
		return nil
	}))
}

// owned returns the active pods whose controller is the named owner, from
// the API store.
func owned(w *World, kind api.Kind, name string) []*api.Pod {
	var out []*api.Pod
	for _, o := range w.Store.Objects(api.KindPod, "default") {
		p := o.(*api.Pod)
		ref := api.GetControllerOf(&p.Metadata)
		if ref != nil && ref.Kind == string(kind) && ref.Name == name &&
			p.Metadata.DeletionTimestamp == nil && p.Status.Phase != api.PodFailed && p.Status.Phase != api.PodSucceeded {
			out = append(out, p)
		}
	}
	return out
}

// killHalfway makes a world of 300 pods with only the start's snapshot,
// runs its first 3,000 steps and kills a pod there, so that an input has a
// boundary a seek can land on; it returns the world and that boundary.
func killHalfway(t *testing.T) (*World, uint64) {
	w := newWorld(t, Config{Seed: 5, SnapshotEvery: -1})
	createRS(t, w, replicaSet("web", 300, map[string]string{"app": "web"}))
	steps := 0
	_, err := w.RunUntil("the first 3000 steps", func(sim.StepResult) bool { steps++; return steps == 3000 }, sim.Limits{}, false)
	require.NoError(t, err)
	pods := owned(w, api.KindReplicaSet, "web")
	require.NotEmpty(t, pods)
	kill, zero := w.Kernel.Steps(), int64(0)
	require.NoError(t, w.Do("kill pod/"+pods[0].Metadata.Name, func(w *World) error {
		w.Send(apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindPod, Namespace: "default", Name: pods[0].Metadata.Name,
			DeleteOptions: &apistore.DeleteOptions{GracePeriodSeconds: &zero}})
		return nil
	}))
	return w, kill
}

func ready(pods []*api.Pod) int {
	n := 0
	for _, p := range pods {
		for _, c := range p.Status.Conditions {
			if c.Type == api.PodReady && c.Status == api.ConditionTrue {
				n++
			}
		}
	}
	return n
}

func rsStatus(t testing.TB, w *World, name string) api.ReplicaSetStatus {
	t.Helper()
	o, ok := w.Store.Object(api.KindReplicaSet, "default", name)
	require.True(t, ok)
	return o.(*api.ReplicaSet).Status
}

func TestScaleUpFromZeroToReady(t *testing.T) {
	w := newWorld(t, Config{})
	createRS(t, w, replicaSet("web", 3, map[string]string{"app": "web"}))
	_, err := w.Stabilize(sim.Limits{})
	require.NoError(t, err)
	pods := owned(w, api.KindReplicaSet, "web")
	require.Len(t, pods, 3)
	assert.Equal(t, 3, ready(pods))
	st := rsStatus(t, w, "web")
	assert.Equal(t, int32(3), st.Replicas)
	assert.Equal(t, int32(3), st.ReadyReplicas)
	assert.Equal(t, int32(3), st.AvailableReplicas)
	assert.Zero(t, w.RS.Queue().Len())
	nodes := map[string]int{}
	for _, p := range pods {
		nodes[p.Spec.NodeName]++
	}
	assert.Equal(t, map[string]int{"node-1": 1, "node-2": 1, "node-3": 1}, nodes, "the scheduler spreads pods over the fewest-loaded nodes")
}

func TestKilledPodIsReplaced(t *testing.T) {
	w := newWorld(t, Config{})
	createRS(t, w, replicaSet("web", 3, map[string]string{"app": "web"}))
	_, err := w.Stabilize(sim.Limits{})
	require.NoError(t, err)
	victim := owned(w, api.KindReplicaSet, "web")[0].Metadata.Name
	zero := int64(0)
	require.NoError(t, w.Do("kill pod/"+victim, func(w *World) error {
		w.Send(apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindPod, Namespace: "default", Name: victim,
			DeleteOptions: &apistore.DeleteOptions{GracePeriodSeconds: &zero}})
		return nil
	}))
	_, err = w.Stabilize(sim.Limits{})
	require.NoError(t, err)
	pods := owned(w, api.KindReplicaSet, "web")
	require.Len(t, pods, 3)
	assert.Equal(t, 3, ready(pods))
	for _, p := range pods {
		assert.NotEqual(t, victim, p.Metadata.Name)
	}
}

func TestSameSeedSameTraceAndSeekReplaysExactly(t *testing.T) {
	run := func() (*World, uint64) {
		w := newWorld(t, Config{Seed: 7, SnapshotEvery: 16})
		createRS(t, w, replicaSet("web", 5, map[string]string{"app": "web"}))
		_, err := w.Stabilize(sim.Limits{})
		require.NoError(t, err)
		return w, w.Kernel.Hash()
	}
	w, hash := run()
	_, again := run()
	require.Equal(t, hash, again, "one seed, one trace")

	end := w.Kernel.Steps()
	require.Greater(t, end, uint64(100))
	names := func() []string {
		var out []string
		for _, p := range owned(w, api.KindReplicaSet, "web") {
			out = append(out, p.Metadata.Name+"/"+p.Status.Phase)
		}
		return out
	}
	final := names()
	for _, n := range []uint64{end / 2, 3, end - 1, 0, end} {
		require.NoError(t, w.Seek(n), "seek %d", n)
		assert.Equal(t, n, w.Kernel.Steps())
	}
	assert.Equal(t, hash, w.Kernel.Hash())
	assert.Equal(t, final, names())
}

func TestSnapshotsStayWithinTheirBudget(t *testing.T) {
	// A budget of 400 objects holds only a few snapshots of a world of 3
	// nodes and 20 pods (and their Events): the timeline must thin them out
	// and still seek exactly.
	w := newWorld(t, Config{Seed: 3, SnapshotEvery: 8, SnapshotBudget: 400})
	createRS(t, w, replicaSet("web", 20, map[string]string{"app": "web"}))
	_, err := w.Stabilize(sim.Limits{})
	require.NoError(t, err)
	end, hash := w.Kernel.Steps(), w.Kernel.Hash()
	require.Greater(t, end, uint64(400), "the run is long enough to outgrow the budget many times")

	tl := &w.timeline
	assert.LessOrEqual(t, tl.weight, 400, "the snapshots fit their budget")
	assert.Greater(t, tl.every, 8, "the spacing doubled")
	sum := 0
	for i, s := range tl.snaps {
		sum += s.weight
		if i > 0 {
			assert.Zero(t, s.step%uint64(tl.every), "snapshot %d at step %d is on the spacing %d", i, s.step, tl.every)
			assert.Greater(t, s.step, tl.snaps[i-1].step)
		}
	}
	assert.Equal(t, sum, tl.weight, "the weight is the sum of the snapshots kept")

	for _, n := range []uint64{end / 3, 5, end - 1, end / 2, end} {
		require.NoError(t, w.Seek(n), "seek %d replays exactly from a thinned timeline", n)
		assert.Equal(t, n, w.Kernel.Steps())
	}
	assert.Equal(t, hash, w.Kernel.Hash())

	// Forking drops the snapshots after the fork, and their weight.
	require.NoError(t, w.Seek(end/2))
	createRS(t, w, replicaSet("db", 1, map[string]string{"app": "db"}))
	sum = 0
	for _, s := range tl.snaps {
		assert.LessOrEqual(t, s.step, end/2)
		sum += s.weight
	}
	assert.Equal(t, sum, tl.weight)
}

func TestInputAfterSeekForksTheTimeline(t *testing.T) {
	w := newWorld(t, Config{SnapshotEvery: 16})
	start := w.Kernel.Steps()
	createRS(t, w, replicaSet("web", 2, map[string]string{"app": "web"}))
	_, err := w.Stabilize(sim.Limits{})
	require.NoError(t, err)
	// The world at step n includes the inputs applied at boundary n, so the
	// world before the create is the one at the step before.
	require.NoError(t, w.Seek(start-1))
	assert.Empty(t, owned(w, api.KindReplicaSet, "web"), "before the create")
	createRS(t, w, replicaSet("db", 1, map[string]string{"app": "db"}))
	_, err = w.Stabilize(sim.Limits{})
	require.NoError(t, err)
	assert.Len(t, owned(w, api.KindReplicaSet, "db"), 1)
	assert.Empty(t, owned(w, api.KindReplicaSet, "web"), "the old future is gone")
	require.Len(t, w.Inputs(), 1)
	assert.True(t, strings.HasPrefix(w.Inputs()[0].Name, "create rs db"))
}

// TestALongSeekLandsBesideASnapshot: a seek that steps more than twice
// landingMargin steps, back or forward, takes a snapshot landingMargin steps
// before its target, on the recorded path and, like every snapshot, before
// the inputs of its boundary; the seeks after it (a step back, a few
// hundred back, forward again) start from there and replay exactly. A fork
// before it drops it; a short seek takes none.
func TestALongSeekLandsBesideASnapshot(t *testing.T) {
	// Only the start's snapshot: every seek back replays from step 0. A pod
	// is killed halfway through, so that an input has a boundary to land on.
	w, kill := killHalfway(t)
	_, err := w.Stabilize(sim.Limits{})
	require.NoError(t, err)
	end, hash := w.Kernel.Steps(), w.Kernel.Hash()
	require.Greater(t, end, kill+4*landingMargin, "the run is long enough for long seeks both ways")
	tl := &w.timeline
	require.True(t, tl.landing.snap == nil, "running forward takes no landing snapshot")

	// Landing on the kill's boundary: a seek from there applies the kill
	// once (twice would send a second delete, and the replay would diverge).
	require.NoError(t, w.Seek(kill+landingMargin))
	require.True(t, tl.landing.snap != nil)
	require.Equal(t, kill, tl.landing.step)
	for _, n := range []uint64{kill, kill + 1, kill + 700} {
		assert.Equal(t, kill, tl.base(n).step)
		require.NoError(t, w.Seek(n), "seek %d from the snapshot on the input's boundary", n)
	}

	// Forward a long way, to the end: a landing snapshot too.
	require.NoError(t, w.Seek(end))
	assert.Equal(t, hash, w.Kernel.Hash())
	assert.Equal(t, end-landingMargin, tl.landing.step, "a long seek forward lands beside a snapshot")

	// Back a long way, to before that one.
	target := end - 1500
	require.NoError(t, w.Seek(target))
	assert.Equal(t, target-landingMargin, tl.landing.step)
	landed := tl.landing
	for _, n := range []uint64{target - 1, target - 500, landed.step, target + 5} {
		assert.Equal(t, landed.step, tl.base(n).step, "a seek to %d starts from the landing snapshot", n)
		require.NoError(t, w.Seek(n), "seek %d", n)
		assert.Equal(t, n, w.Kernel.Steps())
		assert.Same(t, landed.snap, tl.landing.snap, "a short seek leaves the landing snapshot as it was")
	}
	assert.Zero(t, tl.base(landed.step-1).step, "before it, seeks start from the start's snapshot again")
	require.NoError(t, w.Seek(end))
	assert.Equal(t, hash, w.Kernel.Hash(), "the run replays to the same end")
	assert.Same(t, landed.snap, tl.landing.snap, "stepping 1,495 steps forward is not long")

	// A seek back that replays 2*landingMargin steps is not long either.
	early := uint64(2 * landingMargin)
	require.NoError(t, w.Seek(early))
	assert.Same(t, landed.snap, tl.landing.snap)

	// A fork before the landing snapshot leaves it on a future that is gone:
	// the seek to the fork is short (it replays from the start), so the
	// landing snapshot is still the one after it until the input.
	require.NoError(t, w.Seek(early))
	require.Greater(t, tl.landing.step, early)
	createRS(t, w, replicaSet("db", 1, map[string]string{"app": "db"}))
	assert.True(t, tl.landing.snap == nil, "a fork before it drops it")
	_, err = w.Stabilize(sim.Limits{})
	require.NoError(t, err)
	assert.Len(t, owned(w, api.KindReplicaSet, "db"), 1)
}
