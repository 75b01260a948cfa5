package apistore

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

func TestUpdateConflictsOnStaleResourceVersion(t *testing.T) {
	h := newHarness(t)
	stored := h.create(newRS("default", "web", 1, map[string]string{"app": "web"})).(*api.ReplicaSet)

	first := stored.DeepCopy()
	first.Spec.Replicas = ptr(int32(2))
	_, err := h.s.Update(first)
	require.NoError(t, err)
	h.check()

	// A second writer that read the same version loses.
	second := stored.DeepCopy()
	second.Spec.Replicas = ptr(int32(5))
	rv := h.s.ResourceVersion()
	_, err = h.s.Update(second)
	se := statusErr(t, err)
	assert.True(t, IsConflict(err))
	assert.Equal(t, int32(409), se.Code)
	assert.Equal(t, `Operation cannot be fulfilled on replicasets.apps "web": the object has been modified; `+
		`please apply your changes to the latest version and try again`, se.Message)
	assert.Equal(t, rv, h.s.ResourceVersion())
	got, _ := h.s.Object(api.KindReplicaSet, "default", "web")
	assert.Equal(t, int32(2), *got.(*api.ReplicaSet).Spec.Replicas)
	h.check()
}

func TestUpdateWithoutResourceVersionIsUnconditional(t *testing.T) {
	h := newHarness(t)
	stored := h.create(newRS("default", "web", 1, map[string]string{"app": "web"})).(*api.ReplicaSet)
	h.create(newPod("default", "other", nil)) // moves the counter on

	in := stored.DeepCopy()
	in.Metadata.ResourceVersion = ""
	in.Spec.Replicas = ptr(int32(4))
	out, err := h.s.Update(in)
	require.NoError(t, err)
	assert.Equal(t, "3", out.Meta().ResourceVersion)
	assert.Equal(t, stored.Metadata.UID, out.Meta().UID, "an update without uid keeps the stored one")
	h.check()
}

func TestUpdateIgnoresStatus(t *testing.T) {
	h := newHarness(t)
	stored := h.create(newRS("default", "web", 1, map[string]string{"app": "web"})).(*api.ReplicaSet)
	in := stored.DeepCopy()
	in.Status.Replicas = 7
	in.Metadata.Labels = map[string]string{"team": "a"}
	out, err := h.s.Update(in)
	require.NoError(t, err)
	rs := out.(*api.ReplicaSet)
	assert.Zero(t, rs.Status.Replicas, "the main resource does not write status")
	assert.Equal(t, map[string]string{"team": "a"}, rs.Metadata.Labels)

	pod := h.create(newPod("default", "web", nil)).(*api.Pod)
	podIn := pod.DeepCopy()
	podIn.Status.Phase = api.PodRunning
	out, err = h.s.Update(podIn)
	require.NoError(t, err)
	assert.Equal(t, api.PodPending, out.(*api.Pod).Status.Phase)
	h.check()
}

func TestGenerationCountsSpecChanges(t *testing.T) {
	h := newHarness(t)
	rs := h.create(newRS("default", "web", 1, map[string]string{"app": "web"})).(*api.ReplicaSet)
	require.Equal(t, int64(1), rs.Metadata.Generation)

	steps := []struct {
		name   string
		change func(*api.ReplicaSet)
		want   int64
	}{
		{"labels are not spec", func(r *api.ReplicaSet) { r.Metadata.Labels = map[string]string{"x": "y"} }, 1},
		{"replicas are", func(r *api.ReplicaSet) { r.Spec.Replicas = ptr(int32(3)) }, 2},
		{"so is the template", func(r *api.ReplicaSet) { r.Spec.Template.Spec.Containers[0].Image = "nginx:2" }, 3},
		{"a client cannot set generation", func(r *api.ReplicaSet) { r.Metadata.Generation = 100 }, 3},
		{"nor through status", func(r *api.ReplicaSet) { r.Status.ObservedGeneration = 3 }, 3},
	}
	for _, step := range steps {
		in := rs.DeepCopy()
		step.change(in)
		out, err := h.s.Update(in)
		require.NoError(t, err, step.name)
		rs = out.(*api.ReplicaSet)
		assert.Equal(t, step.want, rs.Metadata.Generation, step.name)
		h.check()
	}

	in := rs.DeepCopy()
	in.Status.ObservedGeneration = 3
	out, err := h.s.UpdateStatus(in)
	require.NoError(t, err)
	assert.Equal(t, int64(3), out.Meta().Generation, "status writes never bump generation")
	assert.Equal(t, int64(3), out.(*api.ReplicaSet).Status.ObservedGeneration)
	h.check()

	rc := h.create(newRC("default", "web", 1, map[string]string{"app": "web"})).(*api.ReplicationController)
	rcIn := rc.DeepCopy()
	rcIn.Spec.Replicas = ptr(int32(0))
	out, err = h.s.Update(rcIn)
	require.NoError(t, err)
	assert.Equal(t, int64(2), out.Meta().Generation, "ReplicationControllers count too")
}

func TestNoOpUpdateWritesNothing(t *testing.T) {
	h := newHarness(t)
	stored := h.create(newRS("default", "web", 1, map[string]string{"app": "web"})).(*api.ReplicaSet)
	rv := h.s.ResourceVersion()

	in := stored.DeepCopy()
	in.Metadata.Labels = map[string]string{} // empty is the same as absent
	in.Status.Replicas = 9                   // ignored by the main resource
	resp := h.s.Serve(Request{Verb: VerbUpdate, Kind: api.KindReplicaSet, Object: in})
	require.NoError(t, resp.Err)
	assert.Same(t, stored, resp.Object, "a no-op returns the stored object")
	assert.Equal(t, rv, h.s.ResourceVersion(), "a no-op takes no resourceVersion")
	assert.Empty(t, resp.Events, "and causes no event")
	assert.Equal(t, rv, resp.ResourceVersion)
	events, err := h.s.EventsSince(api.KindReplicaSet, "", 0)
	require.NoError(t, err)
	assert.Len(t, events, 1)

	statusIn := stored.DeepCopy()
	resp = h.s.Serve(Request{Verb: VerbUpdate, Kind: api.KindReplicaSet, Subresource: SubresourceStatus, Object: statusIn})
	require.NoError(t, resp.Err)
	assert.Equal(t, rv, h.s.ResourceVersion(), "a no-op status write is skipped too")
	h.check()
}

func TestUpdateNotFoundAndBadRequests(t *testing.T) {
	h := newHarness(t)
	_, err := h.s.Update(newPod("default", "ghost", nil))
	assert.Equal(t, `pods "ghost" not found`, statusErr(t, err).Message)

	pod := h.create(newPod("default", "web", nil))
	resp := h.s.Serve(Request{Verb: VerbUpdate, Kind: api.KindPod, Name: "other", Object: pod})
	assert.True(t, IsBadRequest(resp.Err))
	assert.Equal(t, "the name of the object (web) does not match the name on the URL (other)", resp.Err.Error())

	_, err = h.s.Update(nil)
	assert.True(t, IsBadRequest(err))
	_, err = h.s.Update(newPod("default", "", nil))
	assert.True(t, IsBadRequest(err))
	h.check()
}

func TestUpdateCannotChangeWhatIsImmutable(t *testing.T) {
	h := newHarness(t)
	rs := h.create(newRS("default", "web", 1, map[string]string{"app": "web"})).(*api.ReplicaSet)
	pod := h.create(newPod("default", "web", map[string]string{"app": "web"})).(*api.Pod)

	tests := []struct {
		name    string
		obj     func() api.Object
		message string
	}{
		{
			name: "uid",
			obj: func() api.Object {
				in := pod.DeepCopy()
				in.Metadata.UID = "other-uid"
				return in
			},
			message: `Pod "web" is invalid: metadata.uid: Invalid value: "other-uid": field is immutable`,
		},
		{
			name: "a ReplicaSet's selector",
			obj: func() api.Object {
				in := rs.DeepCopy()
				in.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web", "v": "2"}}
				in.Spec.Template.Metadata.Labels = map[string]string{"app": "web", "v": "2"}
				return in
			},
			message: `ReplicaSet.apps "web" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "v":"2"}, ` +
				`MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable`,
		},
		{
			name: "a pod's node (binding does that)",
			obj: func() api.Object {
				in := pod.DeepCopy()
				in.Spec.NodeName = "node-1"
				return in
			},
			message: `Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than ` +
				"`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`," +
				"`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` " +
				"(allow it to be set to 1 if it was previously negative)",
		},
		{
			name: "a pod's containers",
			obj: func() api.Object {
				in := pod.DeepCopy()
				in.Spec.Containers = append(in.Spec.Containers, api.Container{Name: "sidecar", Image: "x"})
				return in
			},
			message: `Pod "web" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rv := h.s.ResourceVersion()
			_, err := h.s.Update(tt.obj())
			se := statusErr(t, err)
			assert.True(t, IsInvalid(err))
			assert.Equal(t, tt.message, se.Message)
			assert.Equal(t, rv, h.s.ResourceVersion())
			h.check()
		})
	}

	in := pod.DeepCopy()
	in.Spec.Containers[0].Image = "nginx:2"
	out, err := h.s.Update(in)
	require.NoError(t, err, "a pod's image may change")
	assert.Equal(t, "nginx:2", out.(*api.Pod).Spec.Containers[0].Image)
	h.check()
}

func TestUpdateKeepsDeletionState(t *testing.T) {
	h := newHarness(t)
	pod := newPod("default", "web", nil)
	pod.Spec.NodeName = "node-1"
	pod.Metadata.Finalizers = []string{"example.com/hold"}
	h.create(pod)
	resp := h.s.Serve(Request{Verb: VerbDelete, Kind: api.KindPod, Namespace: "default", Name: "web"})
	require.NoError(t, resp.Err)
	deleting := resp.Object.(*api.Pod)
	require.NotNil(t, deleting.Metadata.DeletionTimestamp)

	in := deleting.DeepCopy()
	in.Metadata.DeletionTimestamp = nil
	in.Metadata.DeletionGracePeriodSeconds = nil
	in.Metadata.Labels = map[string]string{"x": "y"}
	out, err := h.s.Update(in)
	require.NoError(t, err)
	assert.Equal(t, deleting.Metadata.DeletionTimestamp, out.Meta().DeletionTimestamp, "an update cannot undo a deletion")
	assert.Equal(t, deleting.Metadata.DeletionGracePeriodSeconds, out.Meta().DeletionGracePeriodSeconds)
	h.check()

	in = out.(*api.Pod).DeepCopy()
	in.Metadata.Finalizers = append(in.Metadata.Finalizers, "example.com/more", "example.com/another")
	_, err = h.s.Update(in)
	se := statusErr(t, err)
	assert.Equal(t, `Pod "web" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, `+
		`found new finalizers []string{"example.com/another", "example.com/more"}`, se.Message)
	h.check()
}

func TestUpdateStatusWritesOnlyStatus(t *testing.T) {
	h := newHarness(t)
	rs := h.create(newRS("default", "web", 1, map[string]string{"app": "web"})).(*api.ReplicaSet)

	in := rs.DeepCopy()
	in.Status = api.ReplicaSetStatus{Replicas: 1, ReadyReplicas: 1, AvailableReplicas: 1, ObservedGeneration: 1,
		Conditions: []api.ReplicaSetCondition{{Type: api.ReplicaFailure, Status: api.ConditionTrue,
			LastTransitionTime: api.NewTime(h.clock.Now())}}}
	in.Spec.Replicas = ptr(int32(10))
	in.Metadata.Labels = map[string]string{"sneaky": "yes"}
	in.Metadata.Finalizers = []string{"example.com/sneaky"}
	in.Metadata.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "X", Name: "x", UID: "u"}}
	out, err := h.s.UpdateStatus(in)
	require.NoError(t, err)
	got := out.(*api.ReplicaSet)
	assert.Equal(t, int32(1), got.Status.ReadyReplicas)
	assert.Equal(t, int32(1), *got.Spec.Replicas, "spec is not written through status")
	assert.Nil(t, got.Metadata.Labels, "nor are labels")
	assert.Nil(t, got.Metadata.Finalizers, "nor finalizers")
	assert.Nil(t, got.Metadata.OwnerReferences, "nor owner references")
	assert.Equal(t, int64(1), got.Metadata.Generation)
	assert.True(t, got.Status.Conditions[0].LastTransitionTime.Equal(DefaultEpoch),
		"a condition's time is truncated to the second")
	h.check()

	stale := rs.DeepCopy()
	stale.Status.Replicas = 2
	_, err = h.s.UpdateStatus(stale)
	assert.True(t, IsConflict(err), "status writes use optimistic concurrency too")

	bad := got.DeepCopy()
	bad.Status.ReadyReplicas = 3
	_, err = h.s.UpdateStatus(bad)
	assert.Equal(t, `ReplicaSet.apps "web" is invalid: status.readyReplicas: Invalid value: 3: cannot be greater than status.replicas`,
		statusErr(t, err).Message)

	pod := h.create(newPod("default", "web", nil)).(*api.Pod)
	podIn := pod.DeepCopy()
	podIn.Status.Phase = api.PodRunning
	podIn.Spec.NodeName = "node-1"
	out, err = h.s.UpdateStatus(podIn)
	require.NoError(t, err)
	assert.Equal(t, api.PodRunning, out.(*api.Pod).Status.Phase)
	assert.Empty(t, out.(*api.Pod).Spec.NodeName)

	_, err = h.s.UpdateStatus(h.create(newEvent("default", "e")))
	assert.True(t, IsNotFound(err), "events have no status subresource")
	h.check()
}

func TestBindAssignsANode(t *testing.T) {
	h := newHarness(t)
	h.create(newPod("default", "web-x", nil))
	h.clock.Advance(3 * time.Second)

	pod, err := h.s.Bind("default", "web-x", "node-1")
	require.NoError(t, err)
	assert.Equal(t, "node-1", pod.Spec.NodeName)
	require.Len(t, pod.Status.Conditions, 1)
	assert.Equal(t, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue,
		LastTransitionTime: api.NewTime(DefaultEpoch.Add(3 * time.Second))}, pod.Status.Conditions[0])
	h.check()

	_, err = h.s.Bind("default", "web-x", "node-2")
	se := statusErr(t, err)
	assert.True(t, IsConflict(err))
	assert.Equal(t, `Operation cannot be fulfilled on pods/binding "web-x": pod web-x is already assigned to node "node-1"`, se.Message)

	_, err = h.s.Bind("default", "ghost", "node-1")
	assert.Equal(t, `pods "ghost" not found`, statusErr(t, err).Message)

	h.create(newPod("default", "web-y", nil))
	_, err = h.s.Bind("default", "web-y", "")
	assert.Equal(t, `Binding "web-y" is invalid: target.name: Required value`, statusErr(t, err).Message)

	held := newPod("default", "held", nil)
	held.Metadata.Finalizers = []string{"example.com/hold"}
	h.create(held)
	_, err = h.s.Delete(api.KindPod, "default", "held", nil)
	require.NoError(t, err)
	_, err = h.s.Bind("default", "held", "node-1")
	assert.Equal(t, `Operation cannot be fulfilled on pods/binding "held": pod held is being deleted, cannot be assigned to a host`,
		statusErr(t, err).Message)
	h.check()
}

// The bound version shares what the binding did not change with the version it
// replaces; the condition it sets must not be written into the old version's
// list, which informers and snapshots still hold.
func TestBindLeavesThePodItReplacesUnchanged(t *testing.T) {
	h := newHarness(t)
	h.create(newPod("default", "web-x", nil))
	pending := newPod("default", "web-x", nil)
	pending.Status.Conditions = []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionFalse}}
	before, err := h.s.UpdateStatus(pending)
	require.NoError(t, err)
	h.check()
	h.clock.Advance(2 * time.Second)

	pod, err := h.s.Bind("default", "web-x", "node-1")
	require.NoError(t, err)
	h.check()
	assert.Equal(t, api.ConditionTrue, pod.Status.Conditions[0].Status)
	assert.Equal(t, api.ConditionFalse, before.(*api.Pod).Status.Conditions[0].Status)
	assert.Empty(t, before.(*api.Pod).Spec.NodeName)
}

// TestPodStatusUpdateLeavesTheSentObjectAlone: a pod's status update is
// stored with its times truncated to the second, and the store never writes
// into the pod it was sent, whether it copies the status (a time to
// truncate) or shares it (every time whole seconds already, as a kubelet
// sends them).
func TestPodStatusUpdateLeavesTheSentObjectAlone(t *testing.T) {
	h := newHarness(t)
	stored := h.create(newPod("default", "web", map[string]string{"app": "web"})).(*api.Pod)
	for _, tc := range []struct {
		name   string
		offset time.Duration
		shared bool
	}{
		{"whole seconds", 0, true},
		{"a fraction of a second", 250 * time.Millisecond, false},
	} {
		at := time.Unix(1_700_000_000, 0).UTC()
		sent := &api.Pod{
			Metadata: api.ObjectMeta{Namespace: "default", Name: "web", UID: stored.Metadata.UID},
			Status: api.PodStatus{
				Phase:     api.PodRunning,
				StartTime: api.NewTimePtr(at.Add(tc.offset)),
				Conditions: []api.PodCondition{
					{Type: api.PodReady, Status: "True", LastTransitionTime: api.NewTime(at.Add(2*time.Second + tc.offset))},
				},
			},
		}
		before := sent.DeepCopy()
		resp := h.s.Serve(Request{Verb: VerbUpdate, Kind: api.KindPod, Subresource: SubresourceStatus, Object: sent})
		require.NoError(t, resp.Err, tc.name)
		h.check()
		assert.Equal(t, before, sent, "%s: the store wrote into the pod it was sent", tc.name)

		got := resp.Object.(*api.Pod)
		assert.Equal(t, at, got.Status.StartTime.Time, tc.name)
		assert.Equal(t, at.Add(2*time.Second), got.Status.Conditions[0].LastTransitionTime.Time, tc.name)
		assert.Equal(t, tc.shared, &got.Status.Conditions[0] == &sent.Status.Conditions[0],
			"%s: the stored status shares the sent one's conditions only when nothing is left to truncate", tc.name)
		assert.Equal(t, map[string]string{"app": "web"}, got.Metadata.Labels, "%s: the labels are the stored pod's", tc.name)
	}
}

// TestBindingsShareOnlyEqualConditions: pods bound in one second share one
// condition list, a binding whose conditions differ gets a list of its own,
// and no stored list is the buffer the next binding writes in.
func TestBindingsShareOnlyEqualConditions(t *testing.T) {
	h := newHarness(t)
	for _, name := range []string{"a", "b", "c"} {
		h.create(newPod("default", name, nil))
	}
	a, err := h.s.Bind("default", "a", "node-1")
	require.NoError(t, err)
	b, err := h.s.Bind("default", "b", "node-1")
	require.NoError(t, err)
	assert.True(t, api.SameList(a.Status.Conditions, b.Status.Conditions))
	h.clock.Advance(time.Second)
	c, err := h.s.Bind("default", "c", "node-2")
	require.NoError(t, err)
	h.check()

	assert.False(t, api.SameList(b.Status.Conditions, c.Status.Conditions))
	scheduled := func(at time.Duration) []api.PodCondition {
		return []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionTrue,
			LastTransitionTime: api.NewTime(DefaultEpoch.Add(at))}}
	}
	assert.Equal(t, scheduled(0), a.Status.Conditions)
	assert.Equal(t, scheduled(time.Second), c.Status.Conditions)
	assert.Equal(t, len(c.Status.Conditions), cap(c.Status.Conditions))
}
