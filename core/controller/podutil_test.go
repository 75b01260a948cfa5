package controller

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/reconcilelab/rlab/core/api"
)

// TestCountTerminatingPods reproduces upstream's test of the same name (spec
// §5.2, item 35): of seven pods, the two that are being deleted and have not
// finished are terminating; finished pods are not, whatever else holds.
func TestCountTerminatingPods(t *testing.T) {
	now := api.NewTimePtr(unitNow)
	pods := unitPodList(7, api.PodRunning)
	pods[0].Status.Phase = api.PodSucceeded
	pods[1].Status.Phase = api.PodFailed
	pods[2].Status.Phase = api.PodPending
	pods[2].Metadata.DeletionTimestamp = now
	pods[3].Status.Phase = api.PodRunning
	pods[3].Metadata.DeletionTimestamp = now

	assert.Equal(t, int32(2), CountTerminatingPods(pods))
	assert.Equal(t, []string{"pod2", "pod3"}, unitNames(FilterTerminatingPods(pods)))

	pods[0].Metadata.DeletionTimestamp = now
	assert.Equal(t, int32(2), CountTerminatingPods(pods), "a finished pod being deleted is not terminating")
}

// TestActivePodFiltering reproduces upstream's test of the same name (spec
// §5.2, item 36): finished pods are dropped, the rest kept in order. It adds
// the case upstream's filter shares with IsPodActive: a pod being deleted is
// not active.
func TestActivePodFiltering(t *testing.T) {
	tests := []struct {
		name   string
		phases []string
		delete []bool
		want   []string
	}{
		{
			name:   "filters active pods",
			phases: []string{api.PodSucceeded, api.PodFailed, "", "", ""},
			want:   []string{"pod2", "pod3", "pod4"},
		},
		{
			name:   "drops pods being deleted",
			phases: []string{api.PodRunning, api.PodRunning, api.PodPending},
			delete: []bool{false, true, false},
			want:   []string{"pod0", "pod2"},
		},
		{
			name:   "keeps every active pod",
			phases: []string{api.PodRunning, api.PodPending, api.PodUnknown},
			want:   []string{"pod0", "pod1", "pod2"},
		},
		{
			name:   "nothing active",
			phases: []string{api.PodFailed},
			want:   []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pods := unitPodList(len(tt.phases), "")
			for i, phase := range tt.phases {
				pods[i].Status.Phase = phase
				if tt.delete != nil && tt.delete[i] {
					pods[i].Metadata.DeletionTimestamp = api.NewTimePtr(unitNow)
				}
			}
			assert.Equal(t, tt.want, unitNames(FilterActivePods(pods)))
		})
	}
}

// TestFilterActivePodsDoesNotCopyWhenAllActive pins the allocation-free common
// case, and that appending to the result cannot write into the argument.
func TestFilterActivePodsDoesNotCopyWhenAllActive(t *testing.T) {
	backing := unitPodList(4, api.PodRunning)
	pods := backing[:3]
	got := FilterActivePods(pods)
	assert.Same(t, pods[0], got[0])
	assert.Equal(t, 3, cap(got))

	_ = append(got, &api.Pod{})
	assert.Equal(t, "pod3", backing[3].Metadata.Name, "append must not clobber the argument's backing array")
	assert.Zero(t, testing.AllocsPerRun(100, func() { FilterActivePods(pods) }))
}

// TestIsPodReadyAndAvailable checks readiness and availability, including
// upstream's edges: the first Ready condition decides, minReadySeconds must
// have passed strictly, and a ready pod without a transition time is not
// available while minReadySeconds > 0.
func TestIsPodReadyAndAvailable(t *testing.T) {
	readySince := func(at time.Time, status string) *api.Pod {
		return &api.Pod{Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{
			{Type: api.PodScheduled, Status: api.ConditionTrue},
			{Type: api.PodReady, Status: status, LastTransitionTime: api.NewTime(at)},
		}}}
	}
	tests := []struct {
		name            string
		pod             *api.Pod
		minReadySeconds int32
		ready, avail    bool
	}{
		{"no conditions", &api.Pod{}, 0, false, false},
		{"not ready", readySince(unitNow, api.ConditionFalse), 0, false, false},
		{"ready, minReadySeconds 0", readySince(unitNow, api.ConditionTrue), 0, true, true},
		{"ready 10s, min 5", readySince(unitNow.Add(-10*time.Second), api.ConditionTrue), 5, true, true},
		{"ready exactly 5s, min 5", readySince(unitNow.Add(-5*time.Second), api.ConditionTrue), 5, true, false},
		{"ready 4s, min 5", readySince(unitNow.Add(-4*time.Second), api.ConditionTrue), 5, true, false},
		{"ready, zero transition time, min 5", readySince(time.Time{}, api.ConditionTrue), 5, true, false},
		{"ready, zero transition time, min 0", readySince(time.Time{}, api.ConditionTrue), 0, true, true},
		{"first Ready condition decides", &api.Pod{Status: api.PodStatus{Conditions: []api.PodCondition{
			{Type: api.PodReady, Status: api.ConditionFalse},
			{Type: api.PodReady, Status: api.ConditionTrue},
		}}}, 0, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.ready, IsPodReady(tt.pod))
			assert.Equal(t, tt.avail, IsPodAvailable(tt.pod, tt.minReadySeconds, unitNow))
		})
	}
}

// TestPodReadyTimeAndRestarts checks the two inputs of the deletion order
// that read the pod's status.
func TestPodReadyTimeAndRestarts(t *testing.T) {
	at := unitNow.Add(-time.Hour)
	pod := &api.Pod{Status: api.PodStatus{
		Conditions:        []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(at)}},
		ContainerStatuses: []api.ContainerStatus{{RestartCount: 3}, {RestartCount: 7}, {RestartCount: 1}},
	}}
	assert.True(t, podReadyTime(pod).Equal(at))
	assert.Equal(t, 7, maxContainerRestarts(pod))

	pod.Status.Conditions[0].Status = api.ConditionFalse
	assert.True(t, podReadyTime(pod).IsZero(), "a pod that is not ready has no ready time")
	assert.Equal(t, 0, maxContainerRestarts(&api.Pod{}))
}

// TestGetDeletionCost checks upstream's parsing of the pod-deletion-cost
// annotation: int32, and 0 for anything missing or invalid.
func TestGetDeletionCost(t *testing.T) {
	tests := map[string]int32{
		"10":          10,
		"0":           0,
		"-5":          -5,
		"-007":        -7,
		"2147483647":  2147483647,
		"-2147483648": -2147483648,
		"2147483648":  0,
		"+10":         0,
		"007":         0,
		"00":          0,
		"":            0,
		"ten":         0,
		"1.5":         0,
	}
	for value, want := range tests {
		pod := &api.Pod{Metadata: api.ObjectMeta{Annotations: map[string]string{api.PodDeletionCostAnnotation: value}}}
		assert.Equal(t, want, getDeletionCost(pod), "value %q", value)
	}
	assert.Equal(t, int32(0), getDeletionCost(&api.Pod{}), "missing annotation")
}

// TestPodKey checks the key deletions are expected under.
func TestPodKey(t *testing.T) {
	assert.Equal(t, "default/web-1", PodKey(&api.Pod{Metadata: api.ObjectMeta{Namespace: "default", Name: "web-1"}}))
	assert.Equal(t, "/web-1", PodKey(&api.Pod{Metadata: api.ObjectMeta{Name: "web-1"}}), "upstream always writes the slash")
}
