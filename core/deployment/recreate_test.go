package deployment

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// Upstream's recreate_test.go at v1.31 (spec §10.4).

func TestScaleDownOldReplicaSets(t *testing.T) {
	d := newDeployment("foo", 3, nil, nil, nil, map[string]string{"foo": "bar"})
	d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategy}
	old := []*api.ReplicaSet{newReplicaSet(d, "foo-1", 3)}
	_, c := newFake()
	scaled, err := c.scaleDownOldReplicaSetsForRecreate(old, d)
	require.NoError(t, err)
	assert.True(t, scaled)
	assert.Equal(t, int32(0), *old[0].Spec.Replicas, "the slice entry is the updated ReplicaSet")
}

func TestOldPodsRunning(t *testing.T) {
	pod := func(phase string) *api.Pod { return &api.Pod{Status: api.PodStatus{Phase: phase}} }
	oldRS := func(spec, status int32) *api.ReplicaSet {
		r := rs("old", spec, nil, noTimestamp)
		r.Metadata.UID = "uid-old"
		r.Status.Replicas = status
		return r
	}
	newRS := rs("new", 1, nil, noTimestamp)
	newRS.Metadata.UID = "uid-new"
	mapOf := func(entries ...any) podMap {
		m := podMap{pods: map[string][]*api.Pod{}}
		for i := 0; i < len(entries); i += 2 {
			uid := entries[i].(string)
			m.uids = append(m.uids, uid)
			m.pods[uid] = entries[i+1].([]*api.Pod)
		}
		return m
	}
	tests := []struct {
		name   string
		newRS  *api.ReplicaSet
		oldRSs []*api.ReplicaSet
		pods   podMap
		want   bool
	}{
		{"no old RSs", nil, nil, podMap{}, false},
		{"old RSs with running pods", nil, []*api.ReplicaSet{oldRS(2, 2), oldRS(2, 2)},
			mapOf("uid-1", []*api.Pod{pod(api.PodRunning), pod(api.PodRunning)}, "uid-2", []*api.Pod{pod(api.PodRunning), pod(api.PodRunning)}), true},
		{"old RSs without pods but with non-zero status replicas", newRS, []*api.ReplicaSet{oldRS(0, 1)}, podMap{}, true},
		{"old RSs without pods or non-zero status replicas", newRS, []*api.ReplicaSet{oldRS(0, 0)}, podMap{}, false},
		{"old RSs with zero status replicas but pods in terminal state are present", newRS, []*api.ReplicaSet{oldRS(0, 0)},
			mapOf("uid-old", []*api.Pod{pod(api.PodFailed), pod(api.PodSucceeded)}), false},
		{"old RSs with zero status replicas but pod in unknown phase present", newRS, []*api.ReplicaSet{oldRS(0, 0)},
			mapOf("uid-old", []*api.Pod{pod(api.PodUnknown)}), true},
		{"old RSs with zero status replicas with pending pod present", newRS, []*api.ReplicaSet{oldRS(0, 0)},
			mapOf("uid-old", []*api.Pod{pod(api.PodPending)}), true},
		{"old RSs with zero status replicas with running pod present", newRS, []*api.ReplicaSet{oldRS(0, 0)},
			mapOf("uid-old", []*api.Pod{pod(api.PodRunning)}), true},
		{"old RSs with zero status replicas but pods in terminal state and pending are present", newRS, []*api.ReplicaSet{oldRS(0, 0)},
			mapOf("uid-1", []*api.Pod{pod(api.PodFailed), pod(api.PodSucceeded)}, "uid-2", []*api.Pod{}, "uid-3", []*api.Pod{pod(api.PodPending)}), true},
		{"the new ReplicaSet's pods do not count", newRS, []*api.ReplicaSet{oldRS(0, 0)},
			mapOf("uid-new", []*api.Pod{pod(api.PodRunning)}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, oldPodsRunning(tt.newRS, tt.oldRSs, tt.pods))
		})
	}
}
