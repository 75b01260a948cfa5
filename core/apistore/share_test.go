package apistore

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// TestEqualPodStatusesShareTheirParts: two pods given equal statuses share
// one list of conditions, one of container statuses and one start time in
// the store; a later write that changes one pod's conditions, or binds it,
// gives it a list of its own and leaves the other's as it was. A status
// whose conditions differ in a transition time alone shares nothing.
func TestEqualPodStatusesShareTheirParts(t *testing.T) {
	h := newHarness(t)
	at := api.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	started := true
	status := func(ready string, when api.Time) api.PodStatus {
		start := when
		return api.PodStatus{
			Phase:     api.PodRunning,
			StartTime: &start,
			Conditions: []api.PodCondition{
				{Type: api.PodReady, Status: ready, LastTransitionTime: when},
				{Type: "Initialized", Status: api.ConditionTrue, LastTransitionTime: when},
			},
			ContainerStatuses: []api.ContainerStatus{{Name: "app", Image: "nginx", Ready: ready == api.ConditionTrue, Started: &started}},
		}
	}
	write := func(name string, st api.PodStatus) *api.Pod {
		t.Helper()
		got, err := h.s.Get(api.KindPod, "default", name)
		require.NoError(t, err)
		p := got.(*api.Pod).DeepCopy()
		p.Status = st
		out, err := h.s.UpdateStatus(p)
		require.NoError(t, err)
		h.check()
		return out.(*api.Pod)
	}
	for _, name := range []string{"a", "b", "c", "d"} {
		h.create(newPod("default", name, map[string]string{"app": "web"}))
	}

	a := write("a", status(api.ConditionTrue, at))
	b := write("b", status(api.ConditionTrue, at))
	assert.Same(t, &a.Status.Conditions[0], &b.Status.Conditions[0], "equal conditions are one list")
	assert.Same(t, &a.Status.ContainerStatuses[0], &b.Status.ContainerStatuses[0], "equal container statuses are one list")
	assert.Same(t, a.Status.StartTime, b.Status.StartTime, "equal start times are one")

	later := api.NewTime(at.Add(time.Second))
	c := write("c", status(api.ConditionTrue, later))
	assert.NotSame(t, &a.Status.Conditions[0], &c.Status.Conditions[0], "a later transition time is a list of its own")
	assert.Equal(t, later, c.Status.Conditions[0].LastTransitionTime)

	b = write("b", status(api.ConditionFalse, at))
	assert.Equal(t, api.ConditionFalse, b.Status.Conditions[0].Status)
	assert.False(t, b.Status.ContainerStatuses[0].Ready)
	got, err := h.s.Get(api.KindPod, "default", "a")
	require.NoError(t, err)
	assert.Equal(t, status(api.ConditionTrue, at), got.(*api.Pod).Status, "a's status is as it was written")

	d := write("d", status(api.ConditionTrue, at))
	bound, err := h.s.Bind("default", "d", "node-1")
	require.NoError(t, err)
	h.check()
	assert.Len(t, bound.Status.Conditions, 3, "the binding added PodScheduled")
	got, err = h.s.Get(api.KindPod, "default", "a")
	require.NoError(t, err)
	assert.Len(t, got.(*api.Pod).Status.Conditions, 2, "a's list did not grow with d's binding")
	assert.Len(t, d.Status.Conditions, 2)
}

// TestPodsShareTheirControllersTemplateLabels: when the creates of two
// ReplicaSets' pods interleave, so that no create repeats the last one's
// labels, each pod is still given its controller's template labels map. A
// pod whose controller reference names an owner by a uid the store does not
// hold, or whose labels differ from the template's, keeps its own map.
func TestPodsShareTheirControllersTemplateLabels(t *testing.T) {
	h := newHarness(t)
	web := h.create(newRS("default", "web", 2, map[string]string{"app": "web"})).(*api.ReplicaSet)
	db := h.create(newRS("default", "db", 2, map[string]string{"app": "db"})).(*api.ReplicaSet)
	rc := h.create(newRC("default", "old", 1, map[string]string{"app": "old"})).(*api.ReplicationController)
	owned := func(name string, owner *api.ObjectMeta, kind string, labels map[string]string) *api.Pod {
		p := newPod("default", name, labels)
		p.Metadata.OwnerReferences = []api.OwnerReference{api.NewControllerRef(owner, "apps/v1", kind)}
		return h.create(p).(*api.Pod)
	}
	same := func(a, b map[string]string) bool {
		return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
	}
	for i, name := range []string{"web-1", "db-1", "web-2", "db-2"} {
		rs := web
		if i%2 == 1 {
			rs = db
		}
		p := owned(name, &rs.Metadata, "ReplicaSet", map[string]string{"app": rs.Metadata.Name})
		assert.True(t, same(p.Metadata.Labels, rs.Spec.Template.Metadata.Labels), "%s has its template's labels map", name)
	}
	p := owned("old-1", &rc.Metadata, "ReplicationController", map[string]string{"app": "old"})
	assert.True(t, same(p.Metadata.Labels, rc.Spec.Template.Metadata.Labels), "a ReplicationController's template shares too")

	stranger := web.Metadata
	stranger.UID = "not-the-stored-one"
	p = owned("web-3", &stranger, "ReplicaSet", map[string]string{"app": "web"})
	assert.False(t, same(p.Metadata.Labels, web.Spec.Template.Metadata.Labels), "an owner of another uid is not the stored one")
	p = owned("web-4", &web.Metadata, "ReplicaSet", map[string]string{"app": "web", "extra": "yes"})
	assert.False(t, same(p.Metadata.Labels, web.Spec.Template.Metadata.Labels), "other labels keep a map of their own")
	assert.Equal(t, map[string]string{"app": "web", "extra": "yes"}, p.Metadata.Labels)
}

// TestVouchedLabelsExcuseOnlyTheirOwnCreate: labels shareLabels replaced with
// a map known valid (the last valid set, or the owner's template labels) are
// not validated again, but that excuse belongs to the one create it was
// made for. A create that fails for another reason reports that reason
// alone, and the creates after it must still have their own labels checked,
// whoever owns them.
func TestVouchedLabelsExcuseOnlyTheirOwnCreate(t *testing.T) {
	h := newHarness(t)
	web := h.create(newRS("default", "web", 2, map[string]string{"app": "web"})).(*api.ReplicaSet)
	owned := func(name string, labels map[string]string) *api.Pod {
		p := newPod("default", name, labels)
		p.Metadata.OwnerReferences = []api.OwnerReference{api.NewControllerRef(&web.Metadata, "apps/v1", "ReplicaSet")}
		return p
	}
	h.create(newPod("default", "other", map[string]string{"tier": "front"}))
	h.create(owned("web-1", map[string]string{"app": "web"}))

	// A bad name fails the create whose template labels are vouched for.
	_, err := h.s.Create(owned("Not_A_Name", map[string]string{"app": "web"}))
	se := statusErr(t, err)
	require.Len(t, se.Details.Causes, 1)
	assert.Equal(t, "metadata.name", se.Details.Causes[0].Field)
	_, err = h.s.Create(owned("web-2", map[string]string{"app": "-bad-"}))
	se = statusErr(t, err)
	require.Len(t, se.Details.Causes, 1)
	assert.Equal(t, "metadata.labels", se.Details.Causes[0].Field)

	_, err = h.s.Create(newPod("default", "web-3", map[string]string{"app": "web", "x": "-bad-"}))
	assert.True(t, IsInvalid(err), "a superset of the vouched labels is checked")
	h.create(owned("web-4", map[string]string{"app": "web"}))
	h.check()
}

// TestNamesMemoExcusesOnlyNamesFoundValid: a create whose generateName or
// namespace the last create of its kind had is not checked again, but only
// a valid one is remembered, and each kind remembers its own generateName:
// Events may be named what pods may not.
func TestNamesMemoExcusesOnlyNamesFoundValid(t *testing.T) {
	h := newHarness(t)
	generated := func(ns, prefix string) *api.Pod {
		p := newPod(ns, "", map[string]string{"app": "web"})
		p.Metadata.GenerateName = prefix
		return p
	}
	// invalidField is the first field a failed create names (a bad
	// generateName makes a bad name too, which is the second).
	invalidField := func(err error) string {
		t.Helper()
		se := statusErr(t, err)
		require.NotEmpty(t, se.Details.Causes)
		return se.Details.Causes[0].Field
	}
	h.create(generated("default", "web-"))
	h.create(generated("default", "web-"))

	// An invalid generateName is reported every time it comes.
	for range 2 {
		_, err := h.s.Create(generated("default", "Web_"))
		assert.Equal(t, "metadata.generateName", invalidField(err))
	}
	h.create(generated("default", "web-"))

	// An Event may be named with an underscore; the pods' memo is not the
	// Events', so a pod still may not.
	ev := newEvent("default", "")
	ev.Metadata.GenerateName = "Web_"
	h.create(ev)
	_, err := h.s.Create(generated("default", "Web_"))
	assert.Equal(t, "metadata.generateName", invalidField(err))

	// The namespace is remembered only once found valid.
	for range 2 {
		_, err = h.s.Create(generated("Not_A_Namespace", "web-"))
		assert.Equal(t, "metadata.namespace", invalidField(err))
	}
	h.create(generated("default", "web-"))
	h.check()
}
