package apistore

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// scheduledPod is a pod bound to a node: the only kind of pod a delete leaves
// in its grace period.
func scheduledPod(ns, name string) *api.Pod {
	p := newPod(ns, name, map[string]string{"app": "web"})
	p.Spec.NodeName = "node-1"
	return p
}

func deletePod(h *harness, name string, opts *DeleteOptions) Response {
	h.t.Helper()
	resp := h.s.Serve(Request{Verb: VerbDelete, Kind: api.KindPod, Namespace: "default", Name: name, DeleteOptions: opts})
	h.check()
	return resp
}

func TestGracefulPodDeletion(t *testing.T) {
	h := newHarness(t)
	h.create(scheduledPod("default", "web-x"))
	h.clock.Advance(10 * time.Second) // epoch + 10.5s

	resp := deletePod(h, "web-x", nil)
	require.NoError(t, resp.Err)
	assert.False(t, resp.Deleted, "a running pod is only marked")
	m := resp.Object.Meta()
	require.NotNil(t, m.DeletionTimestamp)
	assert.Equal(t, DefaultEpoch.Add(40*time.Second), m.DeletionTimestamp.Time,
		"deletionTimestamp = now + terminationGracePeriodSeconds (30), in whole seconds")
	assert.Equal(t, int64(30), *m.DeletionGracePeriodSeconds)
	assert.Equal(t, []string{"MODIFIED web-x"}, eventTypes(resp.Events))
	stored, ok := h.s.Object(api.KindPod, "default", "web-x")
	require.True(t, ok, "the pod stays for its grace period")
	assert.Same(t, resp.Object, stored)

	deadline, ok := DeletionDeadline(stored)
	assert.True(t, ok)
	assert.Equal(t, m.DeletionTimestamp.Time, deadline)
	assert.Equal(t, []PendingDeletion{{Namespace: "default", Name: "web-x", UID: m.UID, Deadline: deadline}},
		h.s.PendingDeletions())

	// Deleting again without a shorter grace period changes nothing.
	rv := h.s.ResourceVersion()
	again := deletePod(h, "web-x", nil)
	require.NoError(t, again.Err)
	assert.Same(t, stored, again.Object, "deleting a pod being deleted returns it")
	assert.Equal(t, rv, h.s.ResourceVersion())
	again = deletePod(h, "web-x", GracePeriod(60))
	require.NoError(t, again.Err)
	assert.Equal(t, rv, h.s.ResourceVersion(), "a longer grace period does not extend the deadline")

	// The kubelet has stopped the containers: delete with grace 0 removes it.
	final := deletePod(h, "web-x", &DeleteOptions{GracePeriodSeconds: ptr(int64(0)), Preconditions: Preconditions{UID: m.UID}})
	require.NoError(t, final.Err)
	assert.True(t, final.Deleted)
	_, ok = h.s.Object(api.KindPod, "default", "web-x")
	assert.False(t, ok)
	assert.Equal(t, []string{"MODIFIED web-x", "DELETED web-x"}, eventTypes(final.Events),
		"the API server writes the zero grace period, then removes the pod")
	assert.Equal(t, int64(0), *final.Events[0].Object.Meta().DeletionGracePeriodSeconds)
	assert.Equal(t, int64(0), *final.Events[1].Object.Meta().DeletionGracePeriodSeconds,
		"the DELETED event carries the state last stored")
	assert.Empty(t, h.s.PendingDeletions())
}

func TestShorterGracePeriodMovesTheDeadline(t *testing.T) {
	h := newHarness(t)
	h.create(scheduledPod("default", "web-x"))
	first := deletePod(h, "web-x", GracePeriod(30))
	require.NoError(t, first.Err)
	h.clock.Advance(5 * time.Second)

	resp := deletePod(h, "web-x", GracePeriod(10))
	require.NoError(t, resp.Err)
	assert.False(t, resp.Deleted)
	m := resp.Object.Meta()
	assert.Equal(t, DefaultEpoch.Add(10*time.Second), m.DeletionTimestamp.Time,
		"the new deadline counts from when the deletion was requested")
	assert.Equal(t, int64(10), *m.DeletionGracePeriodSeconds)
}

func TestPodDeletionWithExplicitGrace(t *testing.T) {
	h := newHarness(t)
	pod := scheduledPod("default", "web-x")
	pod.Spec.TerminationGracePeriodSeconds = ptr(int64(120))
	h.create(pod)
	resp := deletePod(h, "web-x", GracePeriod(5))
	require.NoError(t, resp.Err)
	assert.Equal(t, int64(5), *resp.Object.Meta().DeletionGracePeriodSeconds, "the delete's grace period wins")

	h.create(scheduledPod("default", "web-y"))
	resp = deletePod(h, "web-y", GracePeriod(-3))
	require.NoError(t, resp.Err)
	assert.Equal(t, int64(1), *resp.Object.Meta().DeletionGracePeriodSeconds, "a negative grace period counts as 1")
}

func TestPodsWithNothingToStopAreRemovedAtOnce(t *testing.T) {
	tests := []struct {
		name string
		pod  func() *api.Pod
		opts *DeleteOptions
	}{
		{"unscheduled", func() *api.Pod { return newPod("default", "web-x", nil) }, nil},
		{"grace 0", func() *api.Pod { return scheduledPod("default", "web-x") }, GracePeriod(0)},
		{"succeeded", func() *api.Pod { return scheduledPod("default", "web-x") }, nil},
		{"failed", func() *api.Pod { return scheduledPod("default", "web-x") }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			pod := h.create(tt.pod()).(*api.Pod)
			if tt.name == "succeeded" || tt.name == "failed" {
				in := pod.DeepCopy()
				in.Status.Phase = map[string]string{"succeeded": api.PodSucceeded, "failed": api.PodFailed}[tt.name]
				_, err := h.s.UpdateStatus(in)
				require.NoError(t, err)
			}
			resp := deletePod(h, "web-x", tt.opts)
			require.NoError(t, resp.Err)
			assert.True(t, resp.Deleted)
			assert.Equal(t, []string{"MODIFIED web-x", "DELETED web-x"}, eventTypes(resp.Events),
				"marked with a deletionTimestamp, then removed, in one request")
			assert.Equal(t, 0, h.s.Len(api.KindPod))
		})
	}
}

func TestDeletedEventCarriesLastStateAtDeletionVersion(t *testing.T) {
	h := newHarness(t)
	rs := h.create(newRS("default", "web", 1, map[string]string{"app": "web"}))
	resp := h.s.Serve(Request{Verb: VerbDelete, Kind: api.KindReplicaSet, Namespace: "default", Name: "web"})
	require.NoError(t, resp.Err)
	h.check()
	assert.True(t, resp.Deleted)
	assert.Same(t, rs, resp.Object, "the response carries the object as it last was")
	require.Len(t, resp.Events, 1, "kinds without graceful deletion go in one step")
	ev := resp.Events[0]
	assert.Equal(t, Deleted, ev.Type)
	assert.Equal(t, uint64(2), ev.ResourceVersion)
	assert.Equal(t, uint64(2), resp.ResourceVersion)
	assert.Equal(t, "2", ev.Object.Meta().ResourceVersion, "stamped with the deletion's resourceVersion")
	assert.Equal(t, rs.Meta().UID, ev.Object.Meta().UID)
	assert.Equal(t, "1", rs.Meta().ResourceVersion, "the stored object itself is unchanged")
}

func TestDeletePreconditions(t *testing.T) {
	h := newHarness(t)
	pod := h.create(newPod("default", "web-x", nil))
	rs := h.create(newRS("default", "web", 1, map[string]string{"app": "web"}))

	resp := deletePod(h, "web-x", &DeleteOptions{Preconditions: Preconditions{UID: "other"}})
	assert.True(t, IsConflict(resp.Err))
	assert.Equal(t, `Operation cannot be fulfilled on Pod "web-x": the UID in the precondition (other) does not match `+
		`the UID in record (`+pod.Meta().UID+`). The object might have been deleted and then recreated`, resp.Err.Error())

	_, err := h.s.Delete(api.KindReplicaSet, "default", "web", &DeleteOptions{Preconditions: Preconditions{ResourceVersion: "1"}})
	assert.Equal(t, `Operation cannot be fulfilled on ReplicaSet.apps "web": the ResourceVersion in the precondition (1) `+
		`does not match the ResourceVersion in record (2). The object might have been modified`, statusErr(t, err).Message)

	_, err = h.s.Delete(api.KindReplicaSet, "default", "web", &DeleteOptions{
		Preconditions: Preconditions{UID: rs.Meta().UID, ResourceVersion: "2"}})
	require.NoError(t, err)
	h.check()

	_, err = h.s.Delete(api.KindReplicaSet, "default", "web", nil)
	assert.Equal(t, `replicasets.apps "web" not found`, statusErr(t, err).Message)
}

func TestOrphanPropagationHoldsTheOwner(t *testing.T) {
	h := newHarness(t)
	h.create(newRS("default", "web", 1, map[string]string{"app": "web"}))
	h.clock.Advance(2 * time.Second)

	resp := h.s.Serve(Request{Verb: VerbDelete, Kind: api.KindReplicaSet, Namespace: "default", Name: "web",
		DeleteOptions: &DeleteOptions{PropagationPolicy: DeletePropagationOrphan}})
	require.NoError(t, resp.Err)
	h.check()
	assert.False(t, resp.Deleted)
	m := resp.Object.Meta()
	assert.Equal(t, []string{FinalizerOrphanDependents}, m.Finalizers)
	assert.Equal(t, DefaultEpoch.Add(2*time.Second), m.DeletionTimestamp.Time, "marked as deleting now")
	assert.Equal(t, int64(0), *m.DeletionGracePeriodSeconds)
	assert.Equal(t, int64(2), m.Generation, "starting a deletion bumps generation once")
	_, ok := DeletionDeadline(resp.Object)
	assert.False(t, ok, "no grace period runs: only the finalizer holds it")

	// Deleting it again changes nothing.
	rv := h.s.ResourceVersion()
	_, err := h.s.Delete(api.KindReplicaSet, "default", "web", nil)
	require.NoError(t, err)
	assert.Equal(t, rv, h.s.ResourceVersion())
	h.check()

	// The garbage collector has orphaned the pods and removes its finalizer:
	// that removes the ReplicaSet.
	resp = h.s.Serve(Request{Verb: VerbPatch, Kind: api.KindReplicaSet, Namespace: "default", Name: "web",
		Patch: &MetaPatch{RemoveFinalizers: []string{FinalizerOrphanDependents}}})
	require.NoError(t, resp.Err)
	h.check()
	assert.True(t, resp.Deleted)
	assert.Equal(t, 0, h.s.Len(api.KindReplicaSet))
	require.Len(t, resp.Events, 1)
	assert.Equal(t, Deleted, resp.Events[0].Type)
	assert.Equal(t, []string{FinalizerOrphanDependents}, resp.Events[0].Object.Meta().Finalizers,
		"the DELETED event carries the state last stored")
}

func TestForegroundPropagation(t *testing.T) {
	h := newHarness(t)
	h.create(newRS("default", "web", 1, map[string]string{"app": "web"}))
	out, err := h.s.Delete(api.KindReplicaSet, "default", "web", &DeleteOptions{PropagationPolicy: DeletePropagationForeground})
	require.NoError(t, err)
	assert.Equal(t, []string{FinalizerDeleteDependents}, out.Meta().Finalizers)
	h.check()

	// Removing the finalizer with an update also completes the deletion.
	in := out.(*api.ReplicaSet).DeepCopy()
	in.Metadata.Finalizers = nil
	resp := h.s.Serve(Request{Verb: VerbUpdate, Kind: api.KindReplicaSet, Object: in})
	require.NoError(t, resp.Err)
	assert.True(t, resp.Deleted)
	h.check()
}

func TestReplicationControllersOrphanByDefault(t *testing.T) {
	h := newHarness(t)
	h.create(newRC("default", "web", 1, map[string]string{"app": "web"}))
	h.create(newRC("default", "api", 1, map[string]string{"app": "api"}))

	out, err := h.s.Delete(api.KindReplicationController, "default", "web", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{FinalizerOrphanDependents}, out.Meta().Finalizers,
		"core/v1 keeps its old default: dependents are orphaned")

	resp := h.s.Serve(Request{Verb: VerbDelete, Kind: api.KindReplicationController, Namespace: "default", Name: "api",
		DeleteOptions: &DeleteOptions{PropagationPolicy: DeletePropagationBackground}})
	require.NoError(t, resp.Err)
	assert.True(t, resp.Deleted, "Background, kubectl's default, removes it at once")
	h.check()
}

func TestPodFinalizersHoldARemovedPod(t *testing.T) {
	h := newHarness(t)
	pod := scheduledPod("default", "web-x")
	pod.Metadata.Finalizers = []string{"example.com/hold"}
	h.create(pod)

	resp := deletePod(h, "web-x", nil)
	require.NoError(t, resp.Err)
	require.False(t, resp.Deleted)

	// Removing the finalizer during the grace period does not end it: the
	// kubelet still has to stop the pod.
	out, err := h.s.Patch(api.KindPod, "default", "web-x", MetaPatch{RemoveFinalizers: []string{"example.com/hold"}})
	require.NoError(t, err)
	assert.NotNil(t, out.Meta().DeletionTimestamp)
	h.check()
	_, err = h.s.Patch(api.KindPod, "default", "web-x", MetaPatch{AddFinalizers: []string{"example.com/hold"}})
	assert.True(t, IsInvalid(err), "no finalizer may be added to an object being deleted")

	h.create(func() *api.Pod {
		p := scheduledPod("default", "web-y")
		p.Metadata.Finalizers = []string{"example.com/hold"}
		return p
	}())
	resp = deletePod(h, "web-y", GracePeriod(0))
	require.NoError(t, resp.Err)
	assert.False(t, resp.Deleted, "grace 0 with a finalizer: marked, held")
	assert.Equal(t, int64(0), *resp.Object.Meta().DeletionGracePeriodSeconds)
	resp = deletePod(h, "web-y", GracePeriod(0))
	require.NoError(t, resp.Err)
	assert.False(t, resp.Deleted, "still held")
	out, err = h.s.Patch(api.KindPod, "default", "web-y", MetaPatch{RemoveFinalizers: []string{"example.com/hold"}})
	require.NoError(t, err)
	_, ok := h.s.Object(api.KindPod, "default", "web-y")
	assert.False(t, ok, "the last finalizer gone, the pod is removed")
	assert.Equal(t, "web-y", out.Meta().Name)
	h.check()
}

func TestDeleteRejectsUnknownPropagationPolicy(t *testing.T) {
	h := newHarness(t)
	h.create(newPod("default", "web", nil))
	resp := deletePod(h, "web", &DeleteOptions{PropagationPolicy: "Sideways"})
	assert.True(t, IsInvalid(resp.Err))
	assert.Equal(t, `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": `+
		`supported values: "Foreground", "Background", "Orphan"`, resp.Err.Error())
	assert.Equal(t, 1, h.s.Len(api.KindPod))
}

func TestDeleteNodesAndEvents(t *testing.T) {
	h := newHarness(t)
	h.create(newNode("node-1"))
	h.create(newEvent("default", "e1"))
	_, err := h.s.Delete(api.KindNode, "", "node-1", nil)
	require.NoError(t, err)
	_, err = h.s.Delete(api.KindEvent, "default", "e1", GracePeriod(30))
	require.NoError(t, err)
	assert.Equal(t, 0, h.s.Len(api.KindNode))
	assert.Equal(t, 0, h.s.Len(api.KindEvent), "only pods have a grace period")
	h.check()
}
