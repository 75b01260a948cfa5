package gc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
)

// deployment stores a Deployment directly, as the store would hold one.
func (r *rig) deployment(name string) *api.Deployment {
	r.t.Helper()
	one := int32(1)
	labels := map[string]string{"app": name}
	obj, err := r.store.Create(&api.Deployment{
		Metadata: api.ObjectMeta{Namespace: "default", Name: name},
		Spec: api.DeploymentSpec{
			Replicas: &one,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: labels},
				Spec:     api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1.0"}}},
			},
		},
	})
	require.NoError(r.t, err)
	return obj.(*api.Deployment)
}

func TestFollowingDeploymentsCascadesThroughReplicaSetsKnownBefore(t *testing.T) {
	r := newRig(t)
	// A ReplicaSet and its pod exist before the collector follows
	// Deployments: while ReplicaSets are owners only, the graph does not
	// keep the ReplicaSet's own owner reference.
	d := r.deployment("web")
	rs := r.rsOwned("web-1", controllerRef(d))
	r.createPod("web-1-a", controllerRef(rs))
	r.start()
	require.Equal(t, -1, r.gc.monitorOf(Followed{Kind: api.KindDeployment}))

	r.gc.Follow(r.k, DeploymentKinds)
	r.gc.Follow(r.k, DeploymentKinds) // nothing new: no second step
	r.settle()
	assert.Equal(t, 1, r.count("Deployments exist: following deployments as owners, and replicasets as owners and dependents; "+
		"listing replicasets again, so that the graph holds the owner references it did not keep"))
	for _, m := range r.gc.monitors {
		assert.Equal(t, monitorWatching, m.state, m.kind)
	}

	r.delete(api.KindDeployment, "web", apistore.DeletePropagationBackground)
	r.settle()
	assert.False(t, r.exists(api.KindDeployment, "web"))
	assert.False(t, r.exists(api.KindReplicaSet, "web-1"), "the Deployment's ReplicaSet is collected")
	assert.False(t, r.exists(api.KindPod, "web-1-a"), "and then its pod")
}

func TestFollowWhileAWatchIsBeingOpenedListsAgainOnceItIsOpen(t *testing.T) {
	r := newRig(t)
	d := r.deployment("web")
	rs := r.rsOwned("web-1", controllerRef(d))
	r.createPod("web-1-a", controllerRef(rs))
	r.gc.Start()
	// Run until the ReplicaSet monitor has sent its watch request and waits
	// for the answer.
	i := r.gc.monitorOf(Followed{Kind: api.KindReplicaSet})
	for r.gc.monitors[i].state != monitorOpening {
		r.step()
	}
	r.gc.Follow(r.k, DeploymentKinds)
	r.settle()
	assert.Equal(t, 1, r.count("closed it to list replicasets again, now that they are followed as owners and dependents"))
	assert.False(t, r.gc.monitors[i].relist)

	r.delete(api.KindDeployment, "web", apistore.DeletePropagationForeground)
	r.settle()
	assert.False(t, r.exists(api.KindDeployment, "web"))
	assert.False(t, r.exists(api.KindReplicaSet, "web-1"))
	assert.False(t, r.exists(api.KindPod, "web-1-a"))
}
