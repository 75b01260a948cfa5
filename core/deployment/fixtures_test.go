package deployment

import (
	"maps"
	"strconv"
	"time"

	"github.com/reconcilelab/rlab/core/api"
)

// Fixtures shared by the tests, after upstream's test helpers (spec §10):
// every object lives in namespace "default".

var (
	noTimestamp    = time.Time{}
	testUIDCounter int
)

func ptr32(n int32) *int32 { return &n }

func intstr(n int32) *api.IntOrString {
	v := api.FromInt(n)
	return &v
}

func percent(s string) *api.IntOrString {
	v := api.FromString(s)
	return &v
}

func uid(prefix string) string {
	testUIDCounter++
	return prefix + "-uid-" + strconv.Itoa(testUIDCounter)
}

// newDeployment is upstream's newDeployment: a RollingUpdate with maxSurge
// and maxUnavailable 0 unless given (so it resolves to surge 0,
// unavailable 1), a template labelled with the selector and one container
// foo/bar, no progress deadline, generation 0.
func newDeployment(name string, replicas int32, historyLimit *int32, maxSurge, maxUnavailable *api.IntOrString, selector map[string]string) *api.Deployment {
	if maxSurge == nil {
		maxSurge = intstr(0)
	}
	if maxUnavailable == nil {
		maxUnavailable = intstr(0)
	}
	return &api.Deployment{
		Metadata: api.ObjectMeta{Name: name, Namespace: "default", UID: uid(name), Annotations: map[string]string{}},
		Spec: api.DeploymentSpec{
			Replicas: ptr32(replicas),
			Strategy: api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategy,
				RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: maxSurge, MaxUnavailable: maxUnavailable}},
			Selector: &api.LabelSelector{MatchLabels: maps.Clone(selector)},
			Template: api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: maps.Clone(selector)},
				Spec:     api.PodSpec{Containers: []api.Container{{Name: "foo", Image: "foo/bar"}}},
			},
			RevisionHistoryLimit: historyLimit,
		},
	}
}

// rs is upstream's rs(): a ReplicaSet of that size, selector and creation
// time, not owned.
func rs(name string, replicas int32, selector map[string]string, created time.Time) *api.ReplicaSet {
	return &api.ReplicaSet{
		Metadata: api.ObjectMeta{Name: name, Namespace: "default", UID: uid(name), CreationTimestamp: api.NewTime(created),
			Labels: maps.Clone(selector)},
		Spec: api.ReplicaSetSpec{
			Replicas: ptr32(replicas),
			Selector: &api.LabelSelector{MatchLabels: maps.Clone(selector)},
			Template: api.PodTemplateSpec{Metadata: api.ObjectMeta{Labels: maps.Clone(selector)}},
		},
	}
}

// newRSWithStatus is rs() with status.replicas.
func newRSWithStatus(name string, specReplicas, statusReplicas int32, selector map[string]string) *api.ReplicaSet {
	r := rs(name, specReplicas, selector, noTimestamp)
	r.Status.Replicas = statusReplicas
	return r
}

// newReplicaSet is upstream's newReplicaSet(d, name, replicas): owned by d,
// with d's labels, selector and template.
func newReplicaSet(d *api.Deployment, name string, replicas int32) *api.ReplicaSet {
	return &api.ReplicaSet{
		Metadata: api.ObjectMeta{Name: name, Namespace: d.Metadata.Namespace, UID: uid(name),
			Labels:          maps.Clone(d.Spec.Selector.MatchLabels),
			OwnerReferences: []api.OwnerReference{api.NewControllerRef(&d.Metadata, "apps/v1", "Deployment")}},
		Spec: api.ReplicaSetSpec{
			Replicas: ptr32(replicas),
			Selector: d.Spec.Selector.DeepCopy(),
			Template: *d.Spec.Template.DeepCopy(),
		},
	}
}

// withAvailable gives rs status replicas and available replicas.
func withAvailable(r *api.ReplicaSet, statusReplicas, available int32) *api.ReplicaSet {
	r.Status.Replicas, r.Status.AvailableReplicas = statusReplicas, available
	return r
}
