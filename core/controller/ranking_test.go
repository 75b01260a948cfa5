package controller

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// TestSortingActivePods reproduces upstream's test of the same name (spec
// §5.2, item 37): whatever order they come in, sort.Sort(ActivePods) puts the
// pods in the one expected order.
func TestSortingActivePods(t *testing.T) {
	now := api.NewTime(unitNow)
	then := api.NewTime(unitNow.AddDate(0, -1, 0))
	ready := func(at api.Time) []api.PodCondition {
		return []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: at}}
	}
	pods := []*api.Pod{
		{Metadata: api.ObjectMeta{Name: "unscheduled"}, Status: api.PodStatus{Phase: api.PodPending}},
		{Metadata: api.ObjectMeta{Name: "scheduledButPending"}, Spec: api.PodSpec{NodeName: "bar"}, Status: api.PodStatus{Phase: api.PodPending}},
		{Metadata: api.ObjectMeta{Name: "unknownPhase"}, Spec: api.PodSpec{NodeName: "foo"}, Status: api.PodStatus{Phase: api.PodUnknown}},
		{Metadata: api.ObjectMeta{Name: "runningButNotReady"}, Spec: api.PodSpec{NodeName: "foo"}, Status: api.PodStatus{Phase: api.PodRunning}},
		{
			Metadata: api.ObjectMeta{Name: "runningNoLastTransitionTime"}, Spec: api.PodSpec{NodeName: "foo"},
			Status: api.PodStatus{Phase: api.PodRunning, Conditions: ready(api.Time{}),
				ContainerStatuses: []api.ContainerStatus{{RestartCount: 3}, {RestartCount: 0}}},
		},
		{
			Metadata: api.ObjectMeta{Name: "runningWithLastTransitionTime"}, Spec: api.PodSpec{NodeName: "foo"},
			Status: api.PodStatus{Phase: api.PodRunning, Conditions: ready(now),
				ContainerStatuses: []api.ContainerStatus{{RestartCount: 3}, {RestartCount: 0}}},
		},
		{
			Metadata: api.ObjectMeta{Name: "runningLongerTime"}, Spec: api.PodSpec{NodeName: "foo"},
			Status: api.PodStatus{Phase: api.PodRunning, Conditions: ready(then),
				ContainerStatuses: []api.ContainerStatus{{RestartCount: 3}, {RestartCount: 0}}},
		},
		{
			Metadata: api.ObjectMeta{Name: "lowerContainerRestartCount", CreationTimestamp: now}, Spec: api.PodSpec{NodeName: "foo"},
			Status: api.PodStatus{Phase: api.PodRunning, Conditions: ready(then),
				ContainerStatuses: []api.ContainerStatus{{RestartCount: 2}, {RestartCount: 1}}},
		},
		{
			Metadata: api.ObjectMeta{Name: "oldest", CreationTimestamp: then}, Spec: api.PodSpec{NodeName: "foo"},
			Status: api.PodStatus{Phase: api.PodRunning, Conditions: ready(then),
				ContainerStatuses: []api.ContainerStatus{{RestartCount: 2}, {RestartCount: 1}}},
		},
	}
	want := unitNames(pods)

	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		shuffled := make([]*api.Pod, len(pods))
		for i, j := range r.Perm(len(pods)) {
			shuffled[i] = pods[j]
		}
		sort.Sort(ActivePods(shuffled))
		assert.Equal(t, want, unitNames(shuffled))
	}
}

// TestSortingActivePodsWithRanks reproduces upstream's test of the same name
// (spec §5.2, item 38): every equality and inequality it lists, including the
// one with the pod-deletion-cost gate off.
func TestSortingActivePodsWithRanks(t *testing.T) {
	now := unitNow
	then1Month := now.AddDate(0, -1, 0)
	then2Hours := now.Add(-2 * time.Hour)
	then5Hours := now.Add(-5 * time.Hour)
	then8Hours := now.Add(-8 * time.Hour)
	var zeroTime time.Time
	pod := func(name, node, phase string, ready bool, restarts int32, readySince, created time.Time, annotations map[string]string) *api.Pod {
		p := &api.Pod{
			Metadata: api.ObjectMeta{Name: name, CreationTimestamp: api.NewTime(created), Annotations: annotations},
			Spec:     api.PodSpec{NodeName: node},
			Status:   api.PodStatus{Phase: phase},
		}
		if ready {
			p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(readySince)}}
			p.Status.ContainerStatuses = []api.ContainerStatus{{RestartCount: restarts}}
		}
		return p
	}
	cost := func(c string) map[string]string { return map[string]string{api.PodDeletionCostAnnotation: c} }
	var (
		unscheduledPod                      = pod("unscheduled", "", api.PodPending, false, 0, zeroTime, zeroTime, nil)
		scheduledPendingPod                 = pod("pending", "node", api.PodPending, false, 0, zeroTime, zeroTime, nil)
		unknownPhasePod                     = pod("unknown-phase", "node", api.PodUnknown, false, 0, zeroTime, zeroTime, nil)
		runningNotReadyPod                  = pod("not-ready", "node", api.PodRunning, false, 0, zeroTime, zeroTime, nil)
		runningReadyNoLastTransitionTimePod = pod("ready-no-last-transition-time", "node", api.PodRunning, true, 0, zeroTime, zeroTime, nil)
		runningReadyNow                     = pod("ready-now", "node", api.PodRunning, true, 0, now, now, nil)
		runningReadyThen                    = pod("ready-then", "node", api.PodRunning, true, 0, then1Month, then1Month, nil)
		runningReadyNowHighRestarts         = pod("ready-high-restarts", "node", api.PodRunning, true, 9001, now, now, nil)
		runningReadyNowCreatedThen          = pod("ready-now-created-then", "node", api.PodRunning, true, 0, now, then1Month, nil)
		lowPodDeletionCost                  = pod("low-deletion-cost", "node", api.PodRunning, true, 0, now, then1Month, cost("10"))
		highPodDeletionCost                 = pod("high-deletion-cost", "node", api.PodRunning, true, 0, now, then1Month, cost("100"))
		unscheduled5Hours                   = pod("unscheduled-5-hours", "", api.PodPending, false, 0, then5Hours, then5Hours, nil)
		unscheduled8Hours                   = pod("unscheduled-10-hours", "", api.PodPending, false, 0, then8Hours, then8Hours, nil)
		ready2Hours                         = pod("ready-2-hours", "", api.PodRunning, true, 0, then2Hours, then1Month, nil)
		ready5Hours                         = pod("ready-5-hours", "", api.PodRunning, true, 0, then5Hours, then1Month, nil)
		ready10Hours                        = pod("ready-10-hours", "", api.PodRunning, true, 0, then8Hours, then1Month, nil)
	)

	equalityTests := []struct{ p1, p2 *api.Pod }{
		{p1: unscheduledPod},
		{p1: scheduledPendingPod},
		{p1: unknownPhasePod},
		{p1: runningNotReadyPod},
		{p1: runningReadyNowCreatedThen},
		{p1: runningReadyNow},
		{p1: runningReadyThen},
		{p1: runningReadyNowHighRestarts},
		{p1: runningReadyNowCreatedThen},
		{p1: unscheduled5Hours, p2: unscheduled8Hours},
		{p1: ready5Hours, p2: ready10Hours},
	}
	for i, tt := range equalityTests {
		t.Run("equality "+strconv.Itoa(i), func(t *testing.T) {
			p2 := tt.p2
			if p2 == nil {
				p2 = tt.p1
			}
			s := ActivePodsWithRanks{Pods: []*api.Pod{tt.p1, p2}, Rank: []int{1, 1}, Now: now}
			assert.False(t, s.Less(0, 1), "%s < %s", tt.p1.Metadata.Name, p2.Metadata.Name)
			assert.False(t, s.Less(1, 0), "%s < %s", p2.Metadata.Name, tt.p1.Metadata.Name)
		})
	}

	type podWithRank struct {
		pod  *api.Pod
		rank int
	}
	inequalityTests := []struct {
		lesser, greater podWithRank
		gates           RankingGates
	}{
		{lesser: podWithRank{unscheduledPod, 1}, greater: podWithRank{scheduledPendingPod, 2}},
		{lesser: podWithRank{unscheduledPod, 2}, greater: podWithRank{scheduledPendingPod, 1}},
		{lesser: podWithRank{scheduledPendingPod, 1}, greater: podWithRank{unknownPhasePod, 2}},
		{lesser: podWithRank{unknownPhasePod, 1}, greater: podWithRank{runningNotReadyPod, 2}},
		{lesser: podWithRank{runningNotReadyPod, 1}, greater: podWithRank{runningReadyNoLastTransitionTimePod, 1}},
		{lesser: podWithRank{runningReadyNoLastTransitionTimePod, 1}, greater: podWithRank{runningReadyNow, 1}},
		{lesser: podWithRank{runningReadyNow, 2}, greater: podWithRank{runningReadyNoLastTransitionTimePod, 1}},
		{lesser: podWithRank{runningReadyNow, 1}, greater: podWithRank{runningReadyThen, 1}},
		{lesser: podWithRank{runningReadyNow, 2}, greater: podWithRank{runningReadyThen, 1}},
		{lesser: podWithRank{runningReadyNowHighRestarts, 1}, greater: podWithRank{runningReadyNow, 1}},
		{lesser: podWithRank{runningReadyNow, 2}, greater: podWithRank{runningReadyNowHighRestarts, 1}},
		{lesser: podWithRank{runningReadyNow, 1}, greater: podWithRank{runningReadyNowCreatedThen, 1}},
		{lesser: podWithRank{runningReadyNowCreatedThen, 2}, greater: podWithRank{runningReadyNow, 1}},
		{lesser: podWithRank{lowPodDeletionCost, 2}, greater: podWithRank{highPodDeletionCost, 1}},
		{lesser: podWithRank{highPodDeletionCost, 2}, greater: podWithRank{lowPodDeletionCost, 1}, gates: RankingGates{DisablePodDeletionCost: true}},
		{lesser: podWithRank{ready2Hours, 1}, greater: podWithRank{ready5Hours, 1}},
	}
	for i, tt := range inequalityTests {
		t.Run("inequality "+strconv.Itoa(i), func(t *testing.T) {
			s := ActivePodsWithRanks{
				Pods:  []*api.Pod{tt.lesser.pod, tt.greater.pod},
				Rank:  []int{tt.lesser.rank, tt.greater.rank},
				Now:   now,
				Gates: tt.gates,
			}
			assert.True(t, s.Less(0, 1), "%s (rank %d) should be less than %s (rank %d)",
				tt.lesser.pod.Metadata.Name, tt.lesser.rank, tt.greater.pod.Metadata.Name, tt.greater.rank)
			assert.False(t, s.Less(1, 0), "%s (rank %d) should not be less than %s (rank %d)",
				tt.greater.pod.Metadata.Name, tt.greater.rank, tt.lesser.pod.Metadata.Name, tt.lesser.rank)

			// SortStable must agree with Less, whichever order the pair comes in.
			s.Swap(0, 1)
			s.SortStable()
			assert.Same(t, tt.lesser.pod, s.Pods[0])
			assert.Equal(t, tt.lesser.rank, s.Rank[0])
		})
	}
}

// TestLogarithmicScaleDown checks the age buckets and their UID tie-break
// with pods whose UIDs differ, which upstream's table does not: within one
// bucket the smaller UID goes first whatever the exact times, and with the
// gate off the exact times decide again.
func TestLogarithmicScaleDown(t *testing.T) {
	readyPod := func(uid string, readySince time.Time) *api.Pod {
		return &api.Pod{
			Metadata: api.ObjectMeta{Name: uid, UID: uid},
			Spec:     api.PodSpec{NodeName: "node"},
			Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{
				{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(readySince)},
			}},
		}
	}
	younger := readyPod("b", unitNow.Add(-5*time.Hour)) // same bucket as 8 h: 2^44 ns ≈ 4.9 h
	older := readyPod("a", unitNow.Add(-8*time.Hour))

	s := ActivePodsWithRanks{Pods: []*api.Pod{older, younger}, Rank: []int{0, 0}, Now: unitNow}
	assert.True(t, s.Less(0, 1), "same bucket: the smaller UID goes first, though it is older")
	assert.False(t, s.Less(1, 0))

	s.Gates.DisableLogarithmicScaleDown = true
	assert.True(t, s.Less(1, 0), "gate off: the more recently ready goes first")
	assert.False(t, s.Less(0, 1))

	s = ActivePodsWithRanks{Pods: []*api.Pod{older, younger}, Rank: []int{0, 0}}
	assert.True(t, s.Less(1, 0), "a zero Now compares exactly")
}

// TestLogBucket checks that the buckets are floor(log2(age in ns)), computed
// as upstream computes them (with math.Log2 on a float64), and -1 for a time
// that is not in the past.
func TestLogBucket(t *testing.T) {
	assert.Equal(t, int64(-1), logBucket(unitNow, unitNow))
	assert.Equal(t, int64(-1), logBucket(unitNow.Add(time.Second), unitNow))
	assert.Equal(t, int64(0), logBucket(unitNow.Add(-1), unitNow))
	assert.Equal(t, int64(44), logBucket(unitNow.Add(-5*time.Hour), unitNow))
	assert.Equal(t, int64(44), logBucket(unitNow.Add(-8*time.Hour), unitNow))
	assert.Equal(t, int64(42), logBucket(unitNow.Add(-2*time.Hour), unitNow))

	r := rand.New(rand.NewPCG(3, 4))
	for range 10000 {
		d := time.Duration(r.Int64N(int64(40 * 24 * time.Hour)))
		if d == 0 {
			continue
		}
		upstream := int64(math.Log2(float64(d)))
		assert.Equal(t, upstream, logBucket(unitNow.Add(-d), unitNow), "age %v", d)
		if d < 1<<40 {
			// Below about 18 minutes float rounding cannot move an age
			// across a power of two.
			assert.Equal(t, int64(bits.Len64(uint64(d))-1), upstream, "age %v", d)
		}
	}
}

// TestGetPodsToDelete reproduces upstream's test of the same name (spec §5.1,
// item 29), every case.
func TestGetPodsToDelete(t *testing.T) {
	rs := unitReplicaSet(1, map[string]string{"name": "foo"})
	// an unscheduled, pending pod
	unscheduledPendingPod := unitPod("unscheduled-pending-pod", rs, api.PodPending, nil, true)
	// a scheduled, pending pod
	scheduledPendingPod := unitPod("scheduled-pending-pod", rs, api.PodPending, nil, true)
	scheduledPendingPod.Spec.NodeName = "fake-node"
	// a scheduled, running, not-ready pod
	scheduledRunningNotReadyPod := unitPod("scheduled-running-not-ready-pod", rs, api.PodRunning, nil, true)
	scheduledRunningNotReadyPod.Spec.NodeName = "fake-node"
	scheduledRunningNotReadyPod.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse}}
	// a scheduled, running, ready pod on fake-node-1
	scheduledRunningReadyPodOnNode1 := unitPod("scheduled-running-ready-pod-on-node-1", rs, api.PodRunning, nil, true)
	scheduledRunningReadyPodOnNode1.Spec.NodeName = "fake-node-1"
	// a scheduled, running, ready pod on fake-node-2
	scheduledRunningReadyPodOnNode2 := unitPod("scheduled-running-ready-pod-on-node-2", rs, api.PodRunning, nil, true)
	scheduledRunningReadyPodOnNode2.Spec.NodeName = "fake-node-2"

	tests := []struct {
		name string
		pods []*api.Pod
		// related defaults to pods if nil.
		related []*api.Pod
		diff    int
		want    []*api.Pod
	}{
		{
			name: "len(pods) = 0 (i.e., diff = 0 too)",
			pods: []*api.Pod{},
			diff: 0,
			want: []*api.Pod{},
		},
		{
			name: "diff = len(pods)",
			pods: []*api.Pod{scheduledRunningNotReadyPod, scheduledRunningReadyPodOnNode1},
			diff: 2,
			want: []*api.Pod{scheduledRunningNotReadyPod, scheduledRunningReadyPodOnNode1},
		},
		{
			name: "diff < len(pods)",
			pods: []*api.Pod{scheduledRunningReadyPodOnNode1, scheduledRunningNotReadyPod},
			diff: 1,
			want: []*api.Pod{scheduledRunningNotReadyPod},
		},
		{
			name: "various pod phases and conditions, diff = len(pods)",
			pods: []*api.Pod{
				scheduledRunningReadyPodOnNode1, scheduledRunningReadyPodOnNode1, scheduledRunningReadyPodOnNode2,
				scheduledRunningNotReadyPod, scheduledPendingPod, unscheduledPendingPod,
			},
			diff: 6,
			want: []*api.Pod{
				scheduledRunningReadyPodOnNode1, scheduledRunningReadyPodOnNode1, scheduledRunningReadyPodOnNode2,
				scheduledRunningNotReadyPod, scheduledPendingPod, unscheduledPendingPod,
			},
		},
		{
			name: "various pod phases and conditions, diff = len(pods), relatedPods empty",
			pods: []*api.Pod{
				scheduledRunningReadyPodOnNode1, scheduledRunningReadyPodOnNode1, scheduledRunningReadyPodOnNode2,
				scheduledRunningNotReadyPod, scheduledPendingPod, unscheduledPendingPod,
			},
			related: []*api.Pod{},
			diff:    6,
			want: []*api.Pod{
				scheduledRunningReadyPodOnNode1, scheduledRunningReadyPodOnNode1, scheduledRunningReadyPodOnNode2,
				scheduledRunningNotReadyPod, scheduledPendingPod, unscheduledPendingPod,
			},
		},
		{
			name: "scheduled vs unscheduled, diff < len(pods)",
			pods: []*api.Pod{scheduledPendingPod, unscheduledPendingPod},
			diff: 1,
			want: []*api.Pod{unscheduledPendingPod},
		},
		{
			name: "ready vs not-ready, diff < len(pods)",
			pods: []*api.Pod{scheduledRunningReadyPodOnNode1, scheduledRunningNotReadyPod, scheduledRunningNotReadyPod},
			diff: 2,
			want: []*api.Pod{scheduledRunningNotReadyPod, scheduledRunningNotReadyPod},
		},
		{
			name:    "ready and colocated with another ready pod vs not colocated, diff < len(pods)",
			pods:    []*api.Pod{scheduledRunningReadyPodOnNode1, scheduledRunningReadyPodOnNode2},
			related: []*api.Pod{scheduledRunningReadyPodOnNode1, scheduledRunningReadyPodOnNode2, scheduledRunningReadyPodOnNode2},
			diff:    1,
			want:    []*api.Pod{scheduledRunningReadyPodOnNode2},
		},
		{
			name: "pending vs running, diff < len(pods)",
			pods: []*api.Pod{scheduledPendingPod, scheduledRunningNotReadyPod},
			diff: 1,
			want: []*api.Pod{scheduledPendingPod},
		},
		{
			name: "various pod phases and conditions, diff < len(pods)",
			pods: []*api.Pod{
				scheduledRunningReadyPodOnNode1, scheduledRunningReadyPodOnNode2, scheduledRunningNotReadyPod,
				scheduledPendingPod, unscheduledPendingPod,
			},
			diff: 3,
			want: []*api.Pod{unscheduledPendingPod, scheduledPendingPod, scheduledRunningNotReadyPod},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			related := tt.related
			if related == nil {
				related = tt.pods
			}
			input := slices.Clone(tt.pods)
			got := getPodsToDelete(tt.pods, related, tt.diff, unitNow, RankingGates{})
			assert.Equal(t, tt.want, got)
			assert.Equal(t, input, tt.pods, "getPodsToDelete must not reorder its argument")
		})
	}
}

// TestGetPodsToDeleteClampsAndKeepsTies checks what upstream leaves to its
// caller: a diff out of range is clamped rather than a crash, and pods the
// order cannot tell apart keep their input order, so the choice is the same
// on every run.
func TestGetPodsToDeleteClampsAndKeepsTies(t *testing.T) {
	rs := unitReplicaSet(1, map[string]string{"name": "foo"})
	var pods []*api.Pod
	for i := range 6 {
		p := unitPod("pod"+strconv.Itoa(i), rs, api.PodRunning, nil, true)
		p.Spec.NodeName = "node"
		pods = append(pods, p)
	}
	assert.Equal(t, pods, getPodsToDelete(pods, pods, 99, unitNow, RankingGates{}))
	assert.Empty(t, getPodsToDelete(pods, pods, -1, unitNow, RankingGates{}))
	assert.Equal(t, []string{"pod0", "pod1", "pod2"}, unitNames(getPodsToDelete(pods, pods, 3, unitNow, RankingGates{})))

	got := getPodsToDelete(pods, pods, 2, unitNow, RankingGates{})
	got = append(got, &api.Pod{})
	assert.Equal(t, "pod2", pods[2].Metadata.Name, "appending to the result must not write into the argument")
	assert.Len(t, got, 3)
}

// TestSortStableAgreesWithSortSort checks, on random pods, that SortStable
// orders exactly as sort.Stable with Less does: precomputing the keys changes
// nothing but the cost.
func TestSortStableAgreesWithSortSort(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	phases := []string{api.PodPending, api.PodUnknown, api.PodRunning, ""}
	nodes := []string{"", "n1", "n2", "n3"}
	for round := range 200 {
		n := 1 + r.IntN(30)
		pods := make([]*api.Pod, n)
		ranks := make([]int, n)
		for i := range pods {
			p := &api.Pod{
				Metadata: api.ObjectMeta{
					Name:              "p" + strconv.Itoa(i),
					UID:               strconv.Itoa(r.IntN(5)),
					CreationTimestamp: api.NewTime(unitNow.Add(-time.Duration(r.IntN(4)) * time.Hour)),
				},
				Spec:   api.PodSpec{NodeName: nodes[r.IntN(len(nodes))]},
				Status: api.PodStatus{Phase: phases[r.IntN(len(phases))]},
			}
			if r.IntN(2) == 0 {
				p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue,
					LastTransitionTime: api.NewTime(unitNow.Add(-time.Duration(r.IntN(3)) * time.Hour))}}
			}
			if r.IntN(3) == 0 {
				p.Metadata.Annotations = map[string]string{api.PodDeletionCostAnnotation: strconv.Itoa(r.IntN(3))}
			}
			p.Status.ContainerStatuses = []api.ContainerStatus{{RestartCount: int32(r.IntN(2))}}
			pods[i] = p
			ranks[i] = r.IntN(3)
		}
		gates := RankingGates{DisablePodDeletionCost: round%3 == 0, DisableLogarithmicScaleDown: round%2 == 0}
		a := ActivePodsWithRanks{Pods: slices.Clone(pods), Rank: slices.Clone(ranks), Now: unitNow, Gates: gates}
		b := ActivePodsWithRanks{Pods: slices.Clone(pods), Rank: slices.Clone(ranks), Now: unitNow, Gates: gates}
		sort.Stable(a)
		b.SortStable()
		require.Equal(t, unitNames(a.Pods), unitNames(b.Pods), "round %d", round)
		require.Equal(t, a.Rank, b.Rank, "round %d", round)
	}
}

// TestGetPodKeys reproduces upstream's test of the same name (spec §5.1,
// item 30).
func TestGetPodKeys(t *testing.T) {
	rs := unitReplicaSet(1, map[string]string{"name": "foo"})
	pod1 := unitPod("pod1", rs, api.PodRunning, nil, true)
	pod2 := unitPod("pod2", rs, api.PodRunning, nil, true)

	assert.Equal(t, []string{}, getPodKeys([]*api.Pod{}))
	assert.Equal(t, []string{"default/pod1", "default/pod2"}, getPodKeys([]*api.Pod{pod1, pod2}))
}

// BenchmarkGetPodsToDelete measures ranking a large ReplicaSet for a
// scale-down by half.
func BenchmarkGetPodsToDelete(b *testing.B) {
	rs := unitReplicaSet(1, map[string]string{"name": "foo"})
	var pods []*api.Pod
	for i := range 10000 {
		ready := api.NewTime(unitNow.Add(-time.Duration(i) * time.Second))
		p := unitPod("pod"+strconv.Itoa(i), rs, api.PodRunning, &ready, true)
		p.Spec.NodeName = "node" + strconv.Itoa(i%50)
		pods = append(pods, p)
	}
	b.ReportAllocs()
	for b.Loop() {
		getPodsToDelete(pods, pods, 5000, unitNow, RankingGates{})
	}
}
