package controller

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
)

// The conditions of upstream's condition tests (spec §5.1, item 27).
const imagePullBackOff = "ImagePullBackOff"

func condImagePullBackOff() api.ReplicaSetCondition {
	return api.ReplicaSetCondition{Type: imagePullBackOff, Status: api.ConditionTrue, Reason: "NonExistentImage"}
}

func condReplicaFailure() api.ReplicaSetCondition {
	return api.ReplicaSetCondition{Type: api.ReplicaFailure, Status: api.ConditionTrue, Reason: "OtherFailure"}
}

func condReplicaFailure2() api.ReplicaSetCondition {
	return api.ReplicaSetCondition{Type: api.ReplicaFailure, Status: api.ConditionTrue, Reason: "AnotherFailure"}
}

func statusWithReplicaFailure() *api.ReplicaSetStatus {
	return &api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condReplicaFailure()}}
}

// TestGetCondition reproduces upstream's test of the same name.
func TestGetCondition(t *testing.T) {
	tests := []struct {
		name     string
		status   api.ReplicaSetStatus
		condType string
		want     bool
	}{
		{name: "condition exists", status: *statusWithReplicaFailure(), condType: api.ReplicaFailure, want: true},
		{name: "condition does not exist", status: *statusWithReplicaFailure(), condType: imagePullBackOff, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, GetCondition(tt.status, tt.condType) != nil)
		})
	}

	status := statusWithReplicaFailure()
	GetCondition(*status, api.ReplicaFailure).Reason = "changed"
	assert.Equal(t, "OtherFailure", status.Conditions[0].Reason, "the result is a copy")
}

// TestSetCondition reproduces upstream's test of the same name, and adds the
// rule that the same status and reason leave the condition alone.
func TestSetCondition(t *testing.T) {
	same := condReplicaFailure()
	same.Message = "a newer message"
	same.LastTransitionTime = api.NewTime(unitNow)

	tests := []struct {
		name   string
		status *api.ReplicaSetStatus
		cond   api.ReplicaSetCondition
		want   *api.ReplicaSetStatus
	}{
		{
			name:   "set for the first time",
			status: &api.ReplicaSetStatus{},
			cond:   condReplicaFailure(),
			want:   &api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condReplicaFailure()}},
		},
		{
			name:   "simple set",
			status: &api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condImagePullBackOff()}},
			cond:   condReplicaFailure(),
			want:   &api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condImagePullBackOff(), condReplicaFailure()}},
		},
		{
			name:   "overwrite",
			status: &api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condReplicaFailure()}},
			cond:   condReplicaFailure2(),
			want:   &api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condReplicaFailure2()}},
		},
		{
			name:   "overwrite moves the condition to the end",
			status: &api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condReplicaFailure(), condImagePullBackOff()}},
			cond:   condReplicaFailure2(),
			want:   &api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condImagePullBackOff(), condReplicaFailure2()}},
		},
		{
			name:   "same status and reason change nothing",
			status: &api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condReplicaFailure()}},
			cond:   same,
			want:   &api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condReplicaFailure()}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			SetCondition(tt.status, tt.cond)
			assert.Equal(t, tt.want, tt.status)
		})
	}
}

// TestRemoveCondition reproduces upstream's test of the same name.
func TestRemoveCondition(t *testing.T) {
	tests := []struct {
		name     string
		status   *api.ReplicaSetStatus
		condType string
		want     *api.ReplicaSetStatus
	}{
		{
			name:     "remove from empty status",
			status:   &api.ReplicaSetStatus{},
			condType: api.ReplicaFailure,
			want:     &api.ReplicaSetStatus{},
		},
		{
			name:     "simple remove",
			status:   &api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condReplicaFailure()}},
			condType: api.ReplicaFailure,
			want:     &api.ReplicaSetStatus{},
		},
		{
			name:     "doesn't remove anything",
			status:   statusWithReplicaFailure(),
			condType: imagePullBackOff,
			want:     statusWithReplicaFailure(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			RemoveCondition(tt.status, tt.condType)
			assert.Equal(t, tt.want, tt.status)
		})
	}
}

// TestConditionHelpersDoNotWriteInPlace checks that a status copied from a
// cached ReplicaSet can be changed without changing the cache: the helpers
// replace the conditions slice instead of writing into it.
func TestConditionHelpersDoNotWriteInPlace(t *testing.T) {
	cached := api.ReplicaSetStatus{Conditions: make([]api.ReplicaSetCondition, 2, 4)}
	cached.Conditions[0] = condReplicaFailure()
	cached.Conditions[1] = condImagePullBackOff()
	want := []api.ReplicaSetCondition{condReplicaFailure(), condImagePullBackOff()}

	copied := cached
	SetCondition(&copied, condReplicaFailure2())
	assert.Equal(t, want, cached.Conditions)
	assert.Equal(t, api.ReplicaSetCondition{}, cached.Conditions[:3][2], "nothing appended into the spare capacity")

	copied = cached
	RemoveCondition(&copied, imagePullBackOff)
	assert.Equal(t, want, cached.Conditions)
}

// unitStatusPod is an owned pod for the status tests: its labels, whether it
// is ready, and since when.
func unitStatusPod(labels map[string]string, ready bool, readySince time.Time) *api.Pod {
	p := &api.Pod{Metadata: api.ObjectMeta{Namespace: "default", Labels: labels}, Status: api.PodStatus{Phase: api.PodRunning}}
	status := api.ConditionFalse
	if ready {
		status = api.ConditionTrue
	}
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: status, LastTransitionTime: api.NewTime(readySince)}}
	return p
}

// TestCalculateStatus checks the four counts of calculateStatus, with the
// rules they hide: the template-label superset rule of fullyLabeledReplicas
// (spec §5.1, item 7 counts 2 of 4 pods), and availability after
// minReadySeconds, never for a pod without a ready time.
func TestCalculateStatus(t *testing.T) {
	fooBar := map[string]string{"foo": "bar"}
	full := map[string]string{"foo": "bar", "type": "production"}
	more := map[string]string{"foo": "bar", "type": "production", "extra": "yes"}
	longAgo := unitNow.Add(-time.Hour)
	justNow := unitNow.Add(-2 * time.Second)

	tests := []struct {
		name            string
		templateLabels  map[string]string
		minReadySeconds int32
		pods            []*api.Pod
		want            api.ReplicaSetStatus
	}{
		{
			name:           "no pods",
			templateLabels: full,
			want:           api.ReplicaSetStatus{},
		},
		{
			name:           "fully labeled means a superset of the template's labels",
			templateLabels: full,
			pods: []*api.Pod{
				unitStatusPod(fooBar, true, longAgo),
				unitStatusPod(fooBar, true, longAgo),
				unitStatusPod(full, true, longAgo),
				unitStatusPod(more, true, longAgo),
			},
			want: api.ReplicaSetStatus{Replicas: 4, FullyLabeledReplicas: 2, ReadyReplicas: 4, AvailableReplicas: 4},
		},
		{
			name:           "an empty template labels every pod fully",
			templateLabels: nil,
			pods:           []*api.Pod{unitStatusPod(nil, false, longAgo), unitStatusPod(fooBar, false, longAgo)},
			want:           api.ReplicaSetStatus{Replicas: 2, FullyLabeledReplicas: 2},
		},
		{
			name:            "available once ready for minReadySeconds",
			templateLabels:  fooBar,
			minReadySeconds: 10,
			pods: []*api.Pod{
				unitStatusPod(fooBar, true, longAgo),
				unitStatusPod(fooBar, true, justNow),
				unitStatusPod(fooBar, true, time.Time{}),
				unitStatusPod(fooBar, false, longAgo),
			},
			want: api.ReplicaSetStatus{Replicas: 4, FullyLabeledReplicas: 4, ReadyReplicas: 3, AvailableReplicas: 1},
		},
		{
			name:           "minReadySeconds 0: every ready pod is available, even without a ready time",
			templateLabels: fooBar,
			pods:           []*api.Pod{unitStatusPod(fooBar, true, justNow), unitStatusPod(fooBar, true, time.Time{})},
			want:           api.ReplicaSetStatus{Replicas: 2, FullyLabeledReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := unitReplicaSet(int32(len(tt.pods)), fooBar)
			rs.Spec.Template.Metadata.Labels = tt.templateLabels
			rs.Spec.MinReadySeconds = tt.minReadySeconds
			assert.Equal(t, tt.want, calculateStatus(rs, tt.pods, nil, unitNow))
		})
	}
}

// TestCalculateStatusReplicaFailure checks the ReplicaFailure condition: added
// once with a reason chosen by the pod count and the error as message, left
// frozen while errors go on, removed by the first success.
func TestCalculateStatusReplicaFailure(t *testing.T) {
	fooBar := map[string]string{"foo": "bar"}
	pod := func() *api.Pod { return unitStatusPod(fooBar, true, unitNow.Add(-time.Hour)) }
	quota := errors.New(`pods "foobar-x" is forbidden: exceeded quota`)

	tests := []struct {
		name       string
		replicas   int32
		pods       int
		wantReason string
	}{
		{"too few pods: FailedCreate", 3, 1, FailedCreatePodReason},
		{"too many pods: FailedDelete", 1, 3, FailedDeletePodReason},
		{"as many as wanted: no reason", 2, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := unitReplicaSet(tt.replicas, fooBar)
			var pods []*api.Pod
			for range tt.pods {
				pods = append(pods, pod())
			}
			status := calculateStatus(rs, pods, quota, unitNow)
			require.Len(t, status.Conditions, 1)
			assert.Equal(t, NewReplicaSetCondition(api.ReplicaFailure, api.ConditionTrue, tt.wantReason, quota.Error(), unitNow), status.Conditions[0])
			assert.Nil(t, rs.Status.Conditions, "calculateStatus must not change the ReplicaSet")
		})
	}

	t.Run("added once, then frozen, then removed", func(t *testing.T) {
		rs := unitReplicaSet(3, fooBar)
		rs.Status.Conditions = []api.ReplicaSetCondition{condImagePullBackOff()}
		first := calculateStatus(rs, []*api.Pod{pod()}, quota, unitNow)
		require.Len(t, first.Conditions, 2)
		assert.Equal(t, condImagePullBackOff(), first.Conditions[0], "other conditions stay in front")

		rs.Status = first
		later := calculateStatus(rs, []*api.Pod{pod(), pod()}, errors.New("another error entirely"), unitNow.Add(time.Minute))
		assert.Equal(t, first.Conditions, later.Conditions, "while errors go on the condition is not refreshed")

		rs.Status = later
		healed := calculateStatus(rs, []*api.Pod{pod(), pod()}, nil, unitNow.Add(2*time.Minute))
		assert.Equal(t, []api.ReplicaSetCondition{condImagePullBackOff()}, healed.Conditions)
		assert.Equal(t, first.Conditions, rs.Status.Conditions, "removing must not change the ReplicaSet")

		rs.Status.Conditions = nil
		assert.Nil(t, calculateStatus(rs, nil, nil, unitNow).Conditions, "success without a condition changes nothing")
	})

	t.Run("other fields are the ReplicaSet's own", func(t *testing.T) {
		rs := unitReplicaSet(1, fooBar)
		rs.Status.ObservedGeneration = 7
		assert.Equal(t, int64(7), calculateStatus(rs, []*api.Pod{pod()}, nil, unitNow).ObservedGeneration)
	})
}

// TestStatusUpdatesWithoutReplicasChange reproduces the skip logic of
// upstream's test of the same name (spec §5.1, item 6): with 5 ready pods and
// a status that already says so, the sync writes nothing; once the
// generation moves, it writes once, and the written status records the
// generation.
func TestStatusUpdatesWithoutReplicasChange(t *testing.T) {
	fooBar := map[string]string{"foo": "bar"}
	rs := unitReplicaSet(5, fooBar)
	rs.Spec.Template.Metadata.Labels = fooBar
	rs.Metadata.Generation = 1
	rs.Status = api.ReplicaSetStatus{Replicas: 5, FullyLabeledReplicas: 5, ReadyReplicas: 5, AvailableReplicas: 5, ObservedGeneration: 1}
	var pods []*api.Pod
	for range 5 {
		pods = append(pods, unitStatusPod(fooBar, true, unitNow.Add(-time.Hour)))
	}

	status := calculateStatus(rs, pods, nil, unitNow)
	assert.False(t, statusNeedsUpdate(rs, status), "nothing changed: no request at all")

	rs.Metadata.Generation = 2
	status = calculateStatus(rs, pods, nil, unitNow)
	assert.True(t, statusNeedsUpdate(rs, status), "a new generation must be recorded")
	status.ObservedGeneration = rs.Metadata.Generation
	rs.Status = status
	assert.False(t, statusNeedsUpdate(rs, calculateStatus(rs, pods, nil, unitNow)), "once recorded, quiet again")
}

// TestStatusNeedsUpdate checks every field of the skip rule.
func TestStatusNeedsUpdate(t *testing.T) {
	base := func() *api.ReplicaSet {
		rs := unitReplicaSet(2, map[string]string{"foo": "bar"})
		rs.Metadata.Generation = 3
		rs.Status = api.ReplicaSetStatus{
			Replicas: 2, FullyLabeledReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 1, ObservedGeneration: 3,
			Conditions: []api.ReplicaSetCondition{condReplicaFailure()},
		}
		return rs
	}
	tests := []struct {
		name   string
		change func(s *api.ReplicaSetStatus)
		want   bool
	}{
		{"identical", func(*api.ReplicaSetStatus) {}, false},
		{"replicas", func(s *api.ReplicaSetStatus) { s.Replicas = 3 }, true},
		{"fullyLabeledReplicas", func(s *api.ReplicaSetStatus) { s.FullyLabeledReplicas = 1 }, true},
		{"readyReplicas", func(s *api.ReplicaSetStatus) { s.ReadyReplicas = 1 }, true},
		{"availableReplicas", func(s *api.ReplicaSetStatus) { s.AvailableReplicas = 2 }, true},
		{"observedGeneration alone is not compared", func(s *api.ReplicaSetStatus) { s.ObservedGeneration = 9 }, false},
		{"condition removed", func(s *api.ReplicaSetStatus) { s.Conditions = nil }, true},
		{"condition message", func(s *api.ReplicaSetStatus) { s.Conditions[0].Message = "new" }, true},
		{"condition time", func(s *api.ReplicaSetStatus) { s.Conditions[0].LastTransitionTime = api.NewTime(unitNow) }, true},
		{"empty versus nil conditions", func(s *api.ReplicaSetStatus) { s.Conditions = s.Conditions[:0] }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := base()
			status := rs.Status
			status.Conditions = append([]api.ReplicaSetCondition(nil), rs.Status.Conditions...)
			tt.change(&status)
			assert.Equal(t, tt.want, statusNeedsUpdate(rs, status))
		})
	}

	rs := base()
	rs.Status.Conditions = nil
	assert.True(t, statusNeedsUpdate(rs, api.ReplicaSetStatus{
		Replicas: 2, FullyLabeledReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 1,
		Conditions: []api.ReplicaSetCondition{},
	}), "nil versus empty conditions differ, as under reflect.DeepEqual")

	rs = base()
	rs.Metadata.Generation = 4
	assert.True(t, statusNeedsUpdate(rs, rs.Status), "an unobserved generation forces a write")
}

// BenchmarkCalculateStatus measures the status of a ReplicaSet of 10,000
// pods, the work of every sync of a large ReplicaSet.
func BenchmarkCalculateStatus(b *testing.B) {
	fooBar := map[string]string{"foo": "bar", "type": "production"}
	rs := unitReplicaSet(10000, fooBar)
	rs.Spec.MinReadySeconds = 5
	var pods []*api.Pod
	for range 10000 {
		pods = append(pods, unitStatusPod(fooBar, true, unitNow.Add(-time.Minute)))
	}
	b.ReportAllocs()
	for b.Loop() {
		calculateStatus(rs, pods, nil, unitNow)
	}
}

// TestCalculateClaimedStatusAgreesWithCalculateStatus checks the sync's form
// of calculateStatus, for pods that all match the owner's selector: whether
// the selector pins every template label (then every pod is counted fully
// labeled without looking) or not (then each pod is checked), the counts are
// calculateStatus's.
func TestCalculateClaimedStatusAgreesWithCalculateStatus(t *testing.T) {
	fooBar := map[string]string{"foo": "bar"}
	full := map[string]string{"foo": "bar", "type": "production"}
	more := map[string]string{"foo": "bar", "type": "production", "extra": "yes"}
	longAgo := unitNow.Add(-time.Hour)
	pods := []*api.Pod{
		unitStatusPod(fooBar, true, longAgo),
		unitStatusPod(full, false, longAgo),
		unitStatusPod(more, true, longAgo),
	}
	tests := []struct {
		name                 string
		selector, template   map[string]string
		wantFullyLabeled     int32
		wantSelectorImpliesT bool
	}{
		{"the selector is the template's labels", fooBar, fooBar, 3, true},
		{"the selector pins more than the template", full, fooBar, 2, true},
		{"the template has a label the selector leaves free", fooBar, full, 2, false},
		{"an empty template", fooBar, nil, 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := unitReplicaSet(int32(len(pods)), tt.selector)
			rs.Spec.Template.Metadata.Labels = tt.template
			selector, err := labels.LabelSelectorAsSelector(rs.Spec.Selector)
			require.NoError(t, err)
			var matching []*api.Pod
			for _, p := range pods {
				if selector.Matches(p.Metadata.Labels) {
					matching = append(matching, p)
				}
			}
			require.Equal(t, tt.wantSelectorImpliesT, selector.ImpliesSet(tt.template))
			got := calculateClaimedStatus(rs, matching, selector, nil, unitNow)
			assert.Equal(t, calculateStatus(rs, matching, nil, unitNow), got)
			assert.Equal(t, tt.wantFullyLabeled, got.FullyLabeledReplicas)
		})
	}
}

// TestCalculateClaimedStatusOfPodsSharingConditions: pods whose conditions
// are one list, as the API server stores the statuses of pods that report
// the same conditions, are counted as calculateStatus counts them one by
// one, in runs and interleaved with pods of other lists: ready and
// available, ready but not yet available (minReadySeconds), not ready, and
// without conditions.
func TestCalculateClaimedStatusOfPodsSharingConditions(t *testing.T) {
	web := map[string]string{"foo": "bar"}
	lists := [][]api.PodCondition{
		unitStatusPod(web, true, unitNow.Add(-time.Hour)).Status.Conditions,
		unitStatusPod(web, true, unitNow.Add(-2*time.Second)).Status.Conditions,
		unitStatusPod(web, false, unitNow.Add(-time.Hour)).Status.Conditions,
		nil,
	}
	var pods []*api.Pod
	for _, i := range []int{0, 0, 0, 1, 1, 0, 2, 2, 3, 3, 0, 1, 2, 0} {
		p := unitStatusPod(web, false, unitNow)
		p.Status.Conditions = lists[i]
		pods = append(pods, p)
	}
	rs := unitReplicaSet(int32(len(pods)), web)
	rs.Spec.MinReadySeconds = 10
	selector, err := labels.LabelSelectorAsSelector(rs.Spec.Selector)
	require.NoError(t, err)
	got := calculateClaimedStatus(rs, pods, selector, nil, unitNow)
	assert.Equal(t, calculateStatus(rs, pods, nil, unitNow), got)
	assert.Equal(t, int32(9), got.ReadyReplicas)
	assert.Equal(t, int32(6), got.AvailableReplicas)
}
