package deployment

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// Upstream's rolling_test.go at v1.31 (spec §10.2).

func TestDeploymentController_reconcileNewReplicaSet(t *testing.T) {
	tests := []struct {
		name                            string
		dReplicas, maxSurge, old, newRS int32
		scaled                          bool
		want                            int32
	}{
		{"should not scale up", 10, 0, 10, 0, false, 0},
		{"scales up within the surge", 10, 2, 10, 0, true, 2},
		{"scales up to the surge over fewer old pods", 10, 2, 5, 0, true, 7},
		{"surge used up", 10, 2, 10, 2, false, 0},
		{"should scale down", 10, 2, 2, 11, true, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newRS := rs("foo-v2", tt.newRS, nil, noTimestamp)
			oldRS := rs("foo-v2", tt.old, nil, noTimestamp)
			d := newDeployment("foo", tt.dReplicas, nil, intstr(tt.maxSurge), intstr(0), map[string]string{"foo": "bar"})
			f, c := newFake()
			scaled, err := c.reconcileNewReplicaSet([]*api.ReplicaSet{newRS, oldRS}, newRS, d)
			require.NoError(t, err)
			assert.Equal(t, tt.scaled, scaled)
			if !tt.scaled {
				assert.Empty(t, f.actions)
				return
			}
			require.Len(t, f.actions, 1)
			assert.Equal(t, tt.want, *f.actions[0].obj.(*api.ReplicaSet).Spec.Replicas)
		})
	}
}

func TestDeploymentController_reconcileOldReplicaSets(t *testing.T) {
	tests := []struct {
		name                                string
		dReplicas, maxUnavailable, old, new int32
		oldAvailable, newAvailable          int32
		scaled                              bool
		oldAfter                            int32
	}{
		{"scales down by the one unavailable allowed", 10, 0, 10, 0, 10, 0, true, 9},
		{"scales down by maxUnavailable", 10, 2, 10, 0, 10, 0, true, 8},
		{"expect unhealthy replicas from old replica sets been cleaned up", 10, 2, 10, 0, 8, 0, true, 8},
		{"expect 1 unhealthy replica from old replica sets been cleaned up, and 1 ready pod been scaled down", 10, 2, 10, 0, 9, 0, true, 8},
		{"the unavailable pods from the newRS would not make us scale down old RSs in a further step", 10, 2, 8, 2, 8, 0, false, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newRS := withAvailable(rs("foo-new", tt.new, map[string]string{"foo": "new"}, noTimestamp), 0, tt.newAvailable)
			oldRS := withAvailable(rs("foo-old", tt.old, map[string]string{"foo": "old"}, noTimestamp), 0, tt.oldAvailable)
			d := newDeployment("foo", tt.dReplicas, nil, intstr(0), intstr(tt.maxUnavailable), map[string]string{"foo": "new"})
			f, c := newFake()
			scaled, err := c.reconcileOldReplicaSets([]*api.ReplicaSet{oldRS, newRS}, []*api.ReplicaSet{oldRS}, newRS, d)
			require.NoError(t, err)
			assert.Equal(t, tt.scaled, scaled)
			if tt.scaled {
				assert.Equal(t, tt.oldAfter, f.updatedSizes()["foo-old"])
			}
		})
	}
}

// TestReconcileOldReplicaSetsSwallowsErrors pins v1.31's behaviour that
// later releases changed (spec §10.2, the [newer] cases): a failed scale-down
// is not reported; the sync goes on to write the status.
func TestReconcileOldReplicaSetsSwallowsErrors(t *testing.T) {
	for _, available := range []int32{10, 8} {
		newRS := rs("foo-new", 0, map[string]string{"foo": "new"}, noTimestamp)
		oldRS := withAvailable(rs("foo-old", 10, map[string]string{"foo": "old"}, noTimestamp), 0, available)
		d := newDeployment("foo", 10, nil, intstr(0), intstr(2), map[string]string{"foo": "new"})
		f, c := newFake()
		f.fail["update replicasets"] = errors.New("injected")
		scaled, err := c.reconcileOldReplicaSets([]*api.ReplicaSet{oldRS, newRS}, []*api.ReplicaSet{oldRS}, newRS, d)
		assert.NoError(t, err, "available %d", available)
		assert.False(t, scaled)
		assert.Len(t, f.actions, 1, "the failed update was tried once")
	}
}

func TestDeploymentController_cleanupUnhealthyReplicas(t *testing.T) {
	tests := []struct {
		available, maxCleanup, want int32
	}{
		{8, 1, 1},
		{8, 3, 2},
		{8, 0, 0},
		{10, 3, 0},
	}
	for _, tt := range tests {
		oldRS := withAvailable(rs("foo-v2", 10, nil, noTimestamp), 0, tt.available)
		d := newDeployment("foo", 10, nil, intstr(2), intstr(2), nil)
		_, c := newFake()
		_, n, err := c.cleanupUnhealthyReplicas([]*api.ReplicaSet{oldRS}, d, tt.maxCleanup)
		require.NoError(t, err)
		assert.Equal(t, tt.want, n, "available %d, maxCleanup %d", tt.available, tt.maxCleanup)
	}
}

func TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate(t *testing.T) {
	tests := []struct {
		name                                   string
		dReplicas, maxUnavailable, avail, spec int32
		scaled                                 bool
		want                                   int32
	}{
		{"scales down by the one unavailable allowed", 10, 0, 10, 10, true, 9},
		{"scales down by maxUnavailable", 10, 2, 10, 10, true, 8},
		{"not enough available", 10, 2, 8, 10, false, 0},
		{"nothing to scale down, and no error", 10, 2, 10, 0, false, 0},
		{"few available", 10, 2, 1, 10, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldRS := withAvailable(rs("foo-v2", tt.spec, nil, noTimestamp), 0, tt.avail)
			d := newDeployment("foo", tt.dReplicas, nil, intstr(0), intstr(tt.maxUnavailable), map[string]string{"foo": "bar"})
			f, c := newFake()
			n, err := c.scaleDownOldReplicaSetsForRollingUpdate([]*api.ReplicaSet{oldRS}, []*api.ReplicaSet{oldRS}, d)
			require.NoError(t, err)
			if !tt.scaled {
				assert.Zero(t, n, "actions: %v", f.verbs())
				return
			}
			assert.NotZero(t, n)
			require.Equal(t, []string{"update replicasets"}, f.verbs())
			assert.Equal(t, tt.want, *f.actions[0].obj.(*api.ReplicaSet).Spec.Replicas)
		})
	}
}

// TestScaleReplicaSetEvents pins the events of scaleReplicaSet: "from N"
// on a change of size, none for an annotation-only update, and the created
// ReplicaSet's event without "from".
func TestScaleReplicaSetEvents(t *testing.T) {
	d := newDeployment("foo", 3, nil, intstr(1), intstr(0), map[string]string{"foo": "bar"})
	r := rs("foo-1", 1, nil, noTimestamp)
	f, c := newFake()
	scaled, updated, err := c.scaleReplicaSet(r, 3, d, "up", reason{"test", "because"})
	require.NoError(t, err)
	assert.True(t, scaled)
	assert.Equal(t, []string{"Normal ScalingReplicaSet Scaled up replica set foo-1 to 3 from 1"}, f.events)
	assert.Equal(t, map[string]string{DesiredReplicasAnnotation: "3", MaxReplicasAnnotation: "4"}, updated.Metadata.Annotations)

	d.Spec.Replicas = ptr32(5)
	scaled, _, err = c.scaleReplicaSet(updated, 3, d, "", reason{"test", "because"})
	require.NoError(t, err)
	assert.False(t, scaled, "only the annotations changed")
	assert.Len(t, f.events, 1)
	assert.Len(t, f.actions, 2)

	scaled, _, err = c.scaleReplicaSetAndRecordEvent(updated, 3, d, reason{"test", "because"})
	require.NoError(t, err)
	assert.False(t, scaled)
	assert.Len(t, f.actions, 2, "already at the size: no write at all, annotations untouched")
}

// TestRollingUpdateRecordsWhyItScaled pins the sync's own account of each
// move of a rolling update (Scale, which the page shows beside the
// rollout's budget): the function that decided it, and its rule with the
// numbers it used, for a scale-up within the surge, a clean-up of
// unavailable old replicas, and a scale-down within maxUnavailable.
func TestRollingUpdateRecordsWhyItScaled(t *testing.T) {
	d := newDeployment("foo", 10, nil, intstr(2), intstr(2), map[string]string{"foo": "new"})

	newRS := rs("foo-new", 0, map[string]string{"foo": "new"}, noTimestamp)
	oldRS := withAvailable(rs("foo-old", 10, map[string]string{"foo": "old"}, noTimestamp), 0, 10)
	f, c := newFake()
	_, err := c.reconcileNewReplicaSet([]*api.ReplicaSet{newRS, oldRS}, newRS, d)
	require.NoError(t, err)
	assert.Equal(t, []Scale{{ReplicaSet: "foo-new", From: 0, To: 2, By: "reconcileNewReplicaSet",
		Why: "12 pods may be wanted in all (replicas 10 + maxSurge 2) and the ReplicaSets wanted 10: room for 2 more"}}, f.scales)

	f, c = newFake()
	_, err = c.reconcileOldReplicaSets([]*api.ReplicaSet{oldRS, newRS}, []*api.ReplicaSet{oldRS}, newRS, d)
	require.NoError(t, err)
	assert.Equal(t, []Scale{{ReplicaSet: "foo-old", From: 10, To: 8, By: "scaleDownOldReplicaSetsForRollingUpdate",
		Why: "10 pods available and at least 8 must stay so (replicas 10 − maxUnavailable 2): 2 may go, oldest ReplicaSet first"}}, f.scales)

	unhealthy := withAvailable(rs("foo-old", 10, map[string]string{"foo": "old"}, noTimestamp), 0, 9)
	f, c = newFake()
	_, err = c.reconcileOldReplicaSets([]*api.ReplicaSet{unhealthy, newRS}, []*api.ReplicaSet{unhealthy}, newRS, d)
	require.NoError(t, err)
	require.Len(t, f.scales, 2, "one unavailable replica cleaned up, then one available scaled down")
	assert.Equal(t, Scale{ReplicaSet: "foo-old", From: 10, To: 9, By: "cleanupUnhealthyReplicas",
		Why: "it wanted 10 replicas, of which 9 available: its unavailable replica goes first, since that costs no availability; " +
			"2 replicas of old ReplicaSets may go in this sync (pods wanted − pods that must stay available − new pods not yet available)"}, f.scales[0])
	assert.Equal(t, "scaleDownOldReplicaSetsForRollingUpdate", f.scales[1].By)
	assert.Equal(t, [2]int32{9, 8}, [2]int32{f.scales[1].From, f.scales[1].To})
}
