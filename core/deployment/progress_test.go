package deployment

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// Upstream's progress_test.go at v1.31 (spec §10.5).

// currentDeployment is upstream's helper: a Recreate Deployment with that
// deadline, spec and status counts and conditions, observed.
func currentDeployment(pds *int32, replicas, statusReplicas, updated, available int32, conds []api.DeploymentCondition) *api.Deployment {
	return &api.Deployment{
		Metadata: api.ObjectMeta{Name: "progress-test"},
		Spec: api.DeploymentSpec{ProgressDeadlineSeconds: pds, Replicas: ptr32(replicas),
			Strategy: api.DeploymentStrategy{Type: api.RecreateDeploymentStrategy}},
		Status: api.DeploymentStatus{Replicas: statusReplicas, UpdatedReplicas: updated, AvailableReplicas: available, Conditions: conds},
	}
}

func statusOf(replicas, updated, available int32) api.DeploymentStatus {
	return api.DeploymentStatus{Replicas: replicas, UpdatedReplicas: updated, AvailableReplicas: available}
}

func TestRequeueStuckDeployment(t *testing.T) {
	pds, infinite := ptr32(60), ptr32(math.MaxInt32)
	failed := []api.DeploymentCondition{{Type: api.DeploymentProgressing, Status: api.ConditionFalse, Reason: TimedOutReason}}
	stuck := []api.DeploymentCondition{{Type: api.DeploymentProgressing, Status: api.ConditionTrue,
		LastUpdateTime: api.NewTime(time.Date(2017, 2, 15, 18, 49, 0, 0, time.UTC))}}
	at := func(min, sec, nsec int) time.Time { return time.Date(2017, 2, 15, 18, min, sec, nsec, time.UTC) }
	tests := []struct {
		name     string
		d        *api.Deployment
		status   api.DeploymentStatus
		now      time.Time
		want     time.Duration
		requeued string // "after", "rate-limited" or ""
	}{
		{"nil progressDeadlineSeconds specified", currentDeployment(nil, 4, 3, 3, 2, nil), statusOf(3, 3, 2), at(49, 0, 0), -1, ""},
		{"infinite progressDeadlineSeconds specified", currentDeployment(infinite, 4, 3, 3, 2, nil), statusOf(3, 3, 2), at(49, 0, 0), -1, ""},
		{"no progressing condition found", currentDeployment(pds, 4, 3, 3, 2, nil), statusOf(3, 3, 2), at(49, 0, 0), -1, ""},
		{"complete deployment does not need to be requeued", currentDeployment(pds, 3, 3, 3, 3, nil), statusOf(3, 3, 3), at(49, 0, 0), -1, ""},
		{"already failed deployment does not need to be requeued", currentDeployment(pds, 3, 3, 3, 0, failed), statusOf(3, 3, 0), at(49, 0, 0), -1, ""},
		{"stuck deployment - 30s", currentDeployment(pds, 3, 3, 3, 1, stuck), statusOf(3, 3, 1), at(49, 30, 0), 30 * time.Second, "after"},
		{"stuck deployment - 1s", currentDeployment(pds, 3, 3, 3, 1, stuck), statusOf(3, 3, 1), at(49, 59, 0), time.Second, "after"},
		{"failed deployment - less than a second => now", currentDeployment(pds, 3, 3, 3, 1, stuck), statusOf(3, 3, 1), at(49, 59, 1), 0, "rate-limited"},
		{"failed deployment - now", currentDeployment(pds, 3, 3, 3, 1, stuck), statusOf(3, 3, 1), at(50, 0, 0), 0, "rate-limited"},
		{"failed deployment - 1s after deadline", currentDeployment(pds, 3, 3, 3, 1, stuck), statusOf(3, 3, 1), at(50, 1, 0), 0, "rate-limited"},
		{"failed deployment - 60s after deadline", currentDeployment(pds, 3, 3, 3, 1, stuck), statusOf(3, 3, 1), at(51, 0, 0), 0, "rate-limited"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, c := newFake()
			f.clock = tt.now
			assert.Equal(t, tt.want, c.requeueStuckDeployment(tt.d, tt.status))
			switch tt.requeued {
			case "after":
				assert.Equal(t, []time.Duration{tt.want + time.Second}, f.after, "queued a second after the deadline")
				assert.Empty(t, f.rateLimited)
			case "rate-limited":
				assert.Len(t, f.rateLimited, 1)
				assert.Empty(t, f.after)
			default:
				assert.Empty(t, f.after)
				assert.Empty(t, f.rateLimited)
			}
		})
	}
}

func rsWithAvailable(name string, spec, status, available int32) *api.ReplicaSet {
	return withAvailable(rs(name, spec, nil, noTimestamp), status, available)
}

func TestSyncRolloutStatus(t *testing.T) {
	pds := ptr32(60)
	testTime := api.NewTime(time.Date(2017, 2, 15, 18, 49, 0, 0, time.UTC))
	failedTimedOut := api.DeploymentCondition{Type: api.DeploymentProgressing, Status: api.ConditionFalse, Reason: TimedOutReason}
	newRSAvailable := api.DeploymentCondition{Type: api.DeploymentProgressing, Status: api.ConditionTrue, Reason: NewRSAvailableReason,
		LastUpdateTime: testTime, LastTransitionTime: testTime}
	replicaSetUpdated := api.DeploymentCondition{Type: api.DeploymentProgressing, Status: api.ConditionTrue, Reason: ReplicaSetUpdatedReason,
		LastUpdateTime: testTime, LastTransitionTime: testTime}
	conds := func(c ...api.DeploymentCondition) []api.DeploymentCondition { return c }
	tests := []struct {
		name               string
		d                  *api.Deployment
		allRSs             []*api.ReplicaSet
		newRS              *api.ReplicaSet
		status, reason     string // "" status: no Progressing condition
		keepUpdate, keepTr bool   // the condition's times are testTime
	}{
		{name: "General: remove Progressing condition and do not estimate progress if deployment has no Progress Deadline",
			d: currentDeployment(nil, 3, 2, 2, 2, conds(replicaSetUpdated)), allRSs: []*api.ReplicaSet{rsWithAvailable("bar", 0, 1, 1)},
			newRS: rsWithAvailable("foo", 3, 2, 2)},
		{name: "General: do not estimate progress of deployment with only one active ReplicaSet",
			d: currentDeployment(pds, 3, 3, 3, 3, conds(newRSAvailable)), allRSs: []*api.ReplicaSet{rsWithAvailable("bar", 3, 3, 3)},
			status: api.ConditionTrue, reason: NewRSAvailableReason, keepUpdate: true, keepTr: true},
		{name: "DeploymentProgressing: dont update lastTransitionTime if deployment already has Progressing=True",
			d: currentDeployment(pds, 3, 2, 2, 2, conds(replicaSetUpdated)), allRSs: []*api.ReplicaSet{rsWithAvailable("bar", 0, 1, 1)},
			newRS: rsWithAvailable("foo", 3, 2, 2), status: api.ConditionTrue, reason: ReplicaSetUpdatedReason, keepTr: true},
		{name: "DeploymentProgressing: update everything if deployment has Progressing=False",
			d: currentDeployment(pds, 3, 2, 2, 2, conds(failedTimedOut)), allRSs: []*api.ReplicaSet{rsWithAvailable("bar", 0, 1, 1)},
			newRS: rsWithAvailable("foo", 3, 2, 2), status: api.ConditionTrue, reason: ReplicaSetUpdatedReason},
		{name: "DeploymentProgressing: create Progressing condition if it does not exist",
			d: currentDeployment(pds, 3, 2, 2, 2, conds()), allRSs: []*api.ReplicaSet{rsWithAvailable("bar", 0, 1, 1)},
			newRS: rsWithAvailable("foo", 3, 2, 2), status: api.ConditionTrue, reason: ReplicaSetUpdatedReason},
		{name: "DeploymentComplete: dont update lastTransitionTime if deployment already has Progressing=True",
			d: currentDeployment(pds, 3, 3, 3, 3, conds(replicaSetUpdated)), newRS: rsWithAvailable("foo", 3, 3, 3),
			status: api.ConditionTrue, reason: NewRSAvailableReason, keepTr: true},
		{name: "DeploymentComplete: update everything if deployment has Progressing=False",
			d: currentDeployment(pds, 3, 3, 3, 3, conds(failedTimedOut)), newRS: rsWithAvailable("foo", 3, 3, 3),
			status: api.ConditionTrue, reason: NewRSAvailableReason},
		{name: "DeploymentComplete: create Progressing condition if it does not exist",
			d: currentDeployment(pds, 3, 3, 3, 3, conds()), newRS: rsWithAvailable("foo", 3, 3, 3),
			status: api.ConditionTrue, reason: NewRSAvailableReason},
		{name: "DeploymentComplete: defend against NPE when newRS=nil",
			d: currentDeployment(pds, 0, 3, 3, 3, conds(replicaSetUpdated)), allRSs: []*api.ReplicaSet{rsWithAvailable("foo", 0, 0, 0)},
			status: api.ConditionTrue, reason: NewRSAvailableReason},
		{name: "DeploymentTimedOut: update status if rollout exceeds Progress Deadline",
			d: currentDeployment(pds, 3, 2, 2, 2, conds(replicaSetUpdated)), newRS: rsWithAvailable("foo", 3, 2, 2),
			status: api.ConditionFalse, reason: TimedOutReason},
		{name: "DeploymentTimedOut: do not update status if deployment has existing timedOut condition",
			d: currentDeployment(pds, 3, 2, 2, 2, conds(failedTimedOut)), newRS: rsWithAvailable("foo", 3, 2, 2),
			status: api.ConditionFalse, reason: TimedOutReason},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, c := newFake()
			allRSs := tt.allRSs
			if tt.newRS != nil {
				allRSs = append(allRSs, tt.newRS)
			}
			require.NoError(t, c.syncRolloutStatus(allRSs, tt.newRS, tt.d))
			cond := GetDeploymentCondition(tt.d.Status, api.DeploymentProgressing)
			if tt.status == "" {
				assert.Nil(t, cond)
				return
			}
			require.NotNil(t, cond)
			assert.Equal(t, tt.status, cond.Status)
			assert.Equal(t, tt.reason, cond.Reason)
			if tt.keepUpdate {
				assert.Equal(t, testTime, cond.LastUpdateTime)
			}
			if tt.keepTr {
				assert.Equal(t, testTime, cond.LastTransitionTime)
			}
		})
	}
}

// TestSyncRolloutStatusMessagesAndReplicaFailure pins the condition
// messages, that the progress clock restarts on every observed progress,
// and that a ReplicaSet's ReplicaFailure becomes the Deployment's, the new
// ReplicaSet's first.
func TestSyncRolloutStatusMessagesAndReplicaFailure(t *testing.T) {
	f, c := newFake()
	d := newDeployment("web", 3, nil, intstr(1), intstr(0), map[string]string{"app": "web"})
	d.Spec.ProgressDeadlineSeconds = ptr32(600)
	newRS := rsWithAvailable("web-2", 3, 2, 1)
	oldRS := rsWithAvailable("web-1", 1, 1, 1)
	oldRS.Status.Conditions = []api.ReplicaSetCondition{{Type: api.ReplicaFailure, Status: api.ConditionTrue, Reason: "FailedCreate", Message: "old"}}
	require.NoError(t, c.syncRolloutStatus([]*api.ReplicaSet{oldRS, newRS}, newRS, d))
	progressing := GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	require.NotNil(t, progressing)
	assert.Equal(t, `ReplicaSet "web-2" is progressing.`, progressing.Message)
	assert.Equal(t, f.clock, progressing.LastUpdateTime.Time)
	failure := GetDeploymentCondition(d.Status, api.DeploymentReplicaFailure)
	require.NotNil(t, failure)
	assert.Equal(t, "old", failure.Message)
	assert.Equal(t, []string{"update deployments/status"}, f.verbs())

	newRS.Status.Conditions = []api.ReplicaSetCondition{{Type: api.ReplicaFailure, Status: api.ConditionTrue, Reason: "FailedCreate", Message: "new"}}
	oldRS.Status.Conditions = nil
	d.Status.Conditions = nil
	require.NoError(t, c.syncRolloutStatus([]*api.ReplicaSet{oldRS, newRS}, newRS, d))
	assert.Equal(t, "new", GetDeploymentCondition(d.Status, api.DeploymentReplicaFailure).Message)
	available := GetDeploymentCondition(d.Status, api.DeploymentAvailable)
	require.NotNil(t, available)
	assert.Equal(t, api.ConditionFalse, available.Status, "2 available of 3 with maxUnavailable 0")
	assert.Equal(t, MinimumReplicasUnavailable, available.Reason)
}
