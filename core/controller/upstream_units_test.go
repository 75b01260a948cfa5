package controller

import (
	"strconv"
	"time"

	"github.com/reconcilelab/rlab/core/api"
)

// The tests of the pure building blocks (expectations, pod helpers, ranking,
// status, slow start, claiming, the pod template and the cache lookups)
// reproduce the upstream unit tests catalogued in the spec's §5.1–§5.3 under
// their upstream names, in our own words. The fixtures below follow upstream's
// newReplicaSet, newPod and newPodList; they carry a "unit" prefix so they
// cannot clash with the fixtures of the sync tests in this package.

// unitNow is the reference time of the tests: the kernel's epoch.
var unitNow = time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC)

// unitTrue returns a pointer to true, for owner references.
func unitTrue() *bool {
	t := true
	return &t
}

// unitReplicaSet is upstream's newReplicaSet: a ReplicaSet named "foobar" in
// "default", wanting replicas pods, selecting selector, with template labels
// {name: foo, type: production}, and controlled by an owner with UID "123"
// (so that every unitReplicaSet is related to every other).
func unitReplicaSet(replicas int32, selector map[string]string) *api.ReplicaSet {
	return &api.ReplicaSet{
		Metadata: api.ObjectMeta{
			Name:            "foobar",
			Namespace:       "default",
			UID:             "rs-uid-foobar",
			ResourceVersion: "18",
			OwnerReferences: []api.OwnerReference{{UID: "123", Controller: unitTrue()}},
		},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: selector},
			Template: api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: map[string]string{"name": "foo", "type": "production"}},
				Spec: api.PodSpec{
					Containers:    []api.Container{{Name: "foo", Image: "foo/bar"}},
					RestartPolicy: api.RestartAlways,
				},
			},
		},
	}
}

// unitPodSeq numbers the pods unitPod makes, for their UIDs.
var unitPodSeq int

// unitPod is upstream's replicaset newPod: a pod of rs's namespace carrying
// rs's selector labels, in the given phase; a Running pod is Ready (since
// lastTransitionTime, when given). properlyOwned gives it rs as controller;
// otherwise its one owner reference is empty, as upstream's is.
func unitPod(name string, rs *api.ReplicaSet, phase string, lastTransitionTime *api.Time, properlyOwned bool) *api.Pod {
	var conditions []api.PodCondition
	if phase == api.PodRunning {
		c := api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue}
		if lastTransitionTime != nil {
			c.LastTransitionTime = *lastTransitionTime
		}
		conditions = append(conditions, c)
	}
	var ref api.OwnerReference
	if properlyOwned {
		ref = api.OwnerReference{UID: rs.Metadata.UID, APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Metadata.Name, Controller: unitTrue()}
	}
	unitPodSeq++
	return &api.Pod{
		Metadata: api.ObjectMeta{
			UID:             "pod-uid-" + strconv.Itoa(unitPodSeq),
			Name:            name,
			Namespace:       rs.Metadata.Namespace,
			Labels:          rs.Spec.Selector.MatchLabels,
			OwnerReferences: []api.OwnerReference{ref},
		},
		Status: api.PodStatus{Phase: phase, Conditions: conditions},
	}
}

// unitPodList is controller_utils_test's newPodList: count pods named pod0,
// pod1, … in namespace "default" with labels {foo: bar}, in the given phase.
func unitPodList(count int, phase string) []*api.Pod {
	pods := make([]*api.Pod, count)
	for i := range pods {
		pods[i] = &api.Pod{
			Metadata: api.ObjectMeta{
				Name:      "pod" + strconv.Itoa(i),
				Namespace: "default",
				Labels:    map[string]string{"foo": "bar"},
			},
			Status: api.PodStatus{Phase: phase},
		}
	}
	return pods
}

// unitNames returns the pods' names, in order.
func unitNames(pods []*api.Pod) []string {
	names := make([]string, len(pods))
	for i, p := range pods {
		names[i] = p.Metadata.Name
	}
	return names
}
