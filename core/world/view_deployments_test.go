package world

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
)

// TestViewFollowsARollingUpdate steps a rolling update of web (4 replicas,
// 25%/25%) from nginx:1.0 to nginx:2.0 and reads the Deployment's view at
// every step: its ReplicaSets newest revision first, with the new one named;
// its budget, 5 pods at most and 3 available at least, which the counts it
// shows never break; and its last scaling, whose reasons are the
// controller's: up within maxSurge, down within maxUnavailable, the two
// alternating. At the end the history lists both revisions with their
// images, the rollout is over, and every pod shows the new image.
func TestViewFollowsARollingUpdate(t *testing.T) {
	w := newWorld(t, Config{})
	createDeployment(t, w, webDeployment(4, "nginx:1.0"))
	settle(t, w)
	at := w.View(ViewOptions{Pods: 100})
	require.Len(t, at.Deployments, 1)
	first := at.Deployments[0]
	assert.False(t, first.Rolling, "revision 1 has rolled out")
	require.Len(t, first.ReplicaSets, 1)
	assert.Equal(t, first.ReplicaSets[0], first.NewReplicaSet)
	assert.Equal(t, "nginx:1.0", first.Image)
	require.NotNil(t, first.LastScaling)
	require.Len(t, first.LastScaling.Scales, 1)
	assert.Equal(t, Scale{ReplicaSet: first.NewReplicaSet, From: 0, To: 4, By: "getNewReplicaSet",
		Why: "created for the new template: 5 pods may be wanted in all (replicas 4 + maxSurge 1) and the ReplicaSets wanted 0: " +
			"room for 5 more, of which the new ReplicaSet needs 4 to reach 4"}, first.LastScaling.Scales[0])
	for _, o := range at.Owners {
		assert.Equal(t, o.Name, "web-"+o.TemplateHash, "a Deployment names its ReplicaSet after the template's hash")
	}

	setImage(t, w, "web", "nginx:2.0")
	var moves []string // "up" or "down", once per sync that scaled
	lastSeq := first.LastScaling.Seq
	sawBudget := false
	for steps := 0; w.Kernel.Busy(); steps++ {
		require.Less(t, steps, 5000)
		_, ok := w.Step()
		require.True(t, ok)
		d := w.View(ViewOptions{Pods: 100}).Deployments[0]
		require.NotNil(t, d.Budget)
		b := *d.Budget
		assert.Equal(t, [2]int32{5, 3}, [2]int32{b.MaxPods, b.MinAvailable}, "replicas 4 + maxSurge 1, replicas 4 − maxUnavailable 1")
		assert.LessOrEqual(t, b.Wanted, b.MaxPods, "step %d", w.Kernel.Steps())
		assert.GreaterOrEqual(t, b.Available, b.MinAvailable, "step %d: fewer available than maxUnavailable allows", w.Kernel.Steps())
		if len(d.ReplicaSets) == 2 {
			sawBudget = sawBudget || d.Rolling
			assert.Equal(t, d.NewReplicaSet, d.ReplicaSets[0], "the new ReplicaSet, revision 2, comes first")
		}
		if s := d.LastScaling; s != nil && s.Seq != lastSeq {
			lastSeq = s.Seq
			sc := s.Scales[0]
			switch {
			case sc.To > sc.From:
				moves = append(moves, "up")
				assert.Equal(t, d.NewReplicaSet, sc.ReplicaSet, "the new ReplicaSet grows")
				assert.Contains(t, sc.Why, "maxSurge 1")
			default:
				moves = append(moves, "down")
				assert.NotEqual(t, d.NewReplicaSet, sc.ReplicaSet, "an old ReplicaSet shrinks")
				assert.Equal(t, "scaleDownOldReplicaSetsForRollingUpdate", sc.By)
				assert.Contains(t, sc.Why, "maxUnavailable 1")
			}
		}
	}
	assert.True(t, sawBudget, "the view showed the rollout under way with both ReplicaSets")
	// The new ReplicaSet is created at 1 and the old one scaled to 3 in the
	// same sync; then up and down alternate, one move per sync.
	assert.Equal(t, []string{"up", "up", "down", "up", "down", "up", "down"}, moves)

	end := w.View(ViewOptions{Pods: 100})
	d := end.Deployments[0]
	assert.False(t, d.Rolling)
	assert.Equal(t, "2", d.Revision)
	assert.Equal(t, Budget{MaxPods: 5, MinAvailable: 3, Wanted: 4, Pods: 4, Available: 4}, *d.Budget)
	require.Len(t, d.History, 2)
	assert.Equal(t, []int64{1, 2}, []int64{d.History[0].Revision, d.History[1].Revision}, "oldest first, as rollout history lists them")
	assert.Equal(t, []string{"nginx:1.0", "nginx:2.0"}, []string{d.History[0].Image, d.History[1].Image})
	assert.Equal(t, []string{d.History[1].ReplicaSet, d.History[0].ReplicaSet}, d.ReplicaSets)
	for _, p := range end.Pods {
		assert.Equal(t, "nginx:2.0", p.Image)
		assert.Equal(t, "rs/"+d.NewReplicaSet, p.Owner)
	}
	assert.Len(t, end.Pods, 4)
}

// TestViewOfARecreateHasNoBudget: a Recreate Deployment has no maxSurge or
// maxUnavailable, so its view has no budget, and its scalings say they are
// a Recreate's.
func TestViewOfARecreateHasNoBudget(t *testing.T) {
	w := newWorld(t, Config{})
	d := webDeployment(3, "nginx:1.0")
	d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategy}
	createDeployment(t, w, d)
	settle(t, w)
	setImage(t, w, "web", "nginx:2.0")
	settle(t, w)
	v := w.View(ViewOptions{}).Deployments[0]
	assert.Nil(t, v.Budget)
	require.NotNil(t, v.LastScaling)
	assert.Contains(t, v.LastScaling.Scales[0].Why, "Recreate")
	assert.Equal(t, api.RecreateDeploymentStrategy, v.Strategy)
	assert.Equal(t, Scale{ReplicaSet: v.NewReplicaSet, From: 0, To: 3, By: "getNewReplicaSet",
		Why: "created for the new template: Recreate: the new ReplicaSet gets all 3 replicas at once"}, v.LastScaling.Scales[0],
		"the last move of a Recreate makes the new ReplicaSet, at full size, once the old pods are gone")
}

// TestAnotherDeploymentOfTheSameNameHasNoLastScaling: a Deployment deleted
// and made again under its name is another object. Its card shows no
// scaling until one of its own syncs scales: the controller's last scaling
// of that key was the first object's.
func TestAnotherDeploymentOfTheSameNameHasNoLastScaling(t *testing.T) {
	w := newWorld(t, Config{})
	createDeployment(t, w, webDeployment(3, "nginx:1.0"))
	settle(t, w)
	require.NotNil(t, w.View(ViewOptions{}).Deployments[0].LastScaling, "the first Deployment's sync made its ReplicaSet")
	send(t, w, "delete deploy/web", apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindDeployment, Namespace: "default", Name: "web"})
	settle(t, w)

	// Paused, the second one gets no ReplicaSet, so no sync of it scales.
	again := webDeployment(3, "nginx:1.0")
	again.Spec.Paused = true
	createDeployment(t, w, again)
	settle(t, w)
	v := w.View(ViewOptions{}).Deployments
	require.Len(t, v, 1)
	assert.Nil(t, v[0].LastScaling, "the card shows a scaling of the deleted Deployment")
	rec, ok := w.Deploy.LastSync("default/web")
	require.True(t, ok)
	assert.Equal(t, getDeployment(t, w, "web").Metadata.UID, rec.UID, "a sync records the uid of the Deployment it found")
}
