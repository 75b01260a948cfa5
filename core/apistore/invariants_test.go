package apistore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// TestCheckInvariantsCatchesCorruption corrupts a healthy store in the ways
// the invariants forbid and checks that each is reported: a checker that
// never fails proves nothing.
func TestCheckInvariantsCatchesCorruption(t *testing.T) {
	build := func(t *testing.T) *harness {
		h := newHarnessWith(t, Options{WatchWindow: 4})
		h.create(newPod("default", "a", nil))
		h.create(newPod("default", "b", nil))
		h.create(newRS("default", "web", 1, map[string]string{"app": "web"}))
		for i := 0; i < 4; i++ {
			_, err := h.s.Patch(api.KindPod, "default", "a", MetaPatch{SetLabels: map[string]string{"i": u(uint64(i))}})
			require.NoError(t, err)
		}
		require.NoError(t, h.s.CheckInvariants())
		return h
	}
	pods := func(h *harness) *kindState { return &h.s.kinds[infoFor(api.KindPod).index] }
	tests := []struct {
		name    string
		corrupt func(h *harness)
		want    string
	}{
		{"an object replaced behind the log's back", func(h *harness) {
			objects := h.s.writableSpace(infoFor(api.KindPod), "default", false)
			objects["a"] = storedObject{obj: objects["a"].obj.DeepCopyObject(), key: objects["a"].key}
		}, "replaying the watch history gives a different default/a"},
		{"an object written after the forgotten history without an event", func(h *harness) {
			// b's ADDED was forgotten (the window holds a's four patches);
			// a b written since must be in the remembered history.
			objects := h.s.writableSpace(infoFor(api.KindPod), "default", false)
			b := objects["b"].obj.DeepCopyObject()
			b.Meta().ResourceVersion = u(h.s.rv)
			objects["b"] = storedObject{obj: b, key: objects["b"].key}
		}, "yet the remembered history does not name it"},
		{"an object stored under another key", func(h *harness) {
			objects := h.s.writableSpace(infoFor(api.KindPod), "default", false)
			objects["a"] = storedObject{obj: objects["a"].obj, key: "default/b"}
		}, `default/a is stored under the key "default/b"`},
		{"an object dropped without an event", func(h *harness) {
			objects := h.s.writableSpace(infoFor(api.KindPod), "default", false)
			delete(objects, "b")
		}, "counted 2 objects, holds 1"},
		{"two objects with one uid", func(h *harness) {
			rs, _ := h.s.Object(api.KindReplicaSet, "default", "web")
			p, _ := h.s.Object(api.KindPod, "default", "b")
			rs.(*api.ReplicaSet).Metadata.UID = p.Meta().UID
		}, "shares uid"},
		{"a log out of order", func(h *harness) {
			ks := pods(h)
			a, b := ks.hist.at(0), ks.hist.at(1)
			*a, *b = *b, *a
		}, "not after"},
		{"a resourceVersion from the future", func(h *harness) {
			h.s.rv = 2
		}, "newer than the global resourceVersion"},
		{"a finished deletion still stored", func(h *harness) {
			p, _ := h.s.Object(api.KindPod, "default", "b")
			zero := int64(0)
			p.Meta().DeletionTimestamp = &api.Time{Time: DefaultEpoch}
			p.Meta().DeletionGracePeriodSeconds = &zero
		}, "has finished its deletion"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := build(t)
			tt.corrupt(h)
			err := h.s.CheckInvariants()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestEqualityDecidesNoOps checks, for every kind, that a copy is equal to
// its original, that nil and empty collections are equal, and that a change
// to any one field is seen: a missed field would make the store skip a write.
func TestEqualityDecidesNoOps(t *testing.T) {
	tm := api.NewTime(DefaultEpoch)
	base := map[string]api.Object{
		"pod": func() api.Object {
			p := newPod("default", "p", map[string]string{"a": "b"})
			p.Status = api.PodStatus{Phase: api.PodRunning, StartTime: &tm,
				Conditions:        []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: tm}},
				ContainerStatuses: []api.ContainerStatus{{Name: "app", Ready: true, Started: ptr(true)}}}
			return p
		}(),
		"rs": func() api.Object {
			r := newRS("default", "r", 1, map[string]string{"a": "b"})
			r.Spec.Selector.MatchExpressions = []api.LabelSelectorRequirement{{Key: "k", Operator: "In", Values: []string{"v"}}}
			r.Status.Conditions = []api.ReplicaSetCondition{{Type: api.ReplicaFailure, Status: api.ConditionTrue}}
			return r
		}(),
		"rc": func() api.Object {
			r := newRC("default", "r", 1, map[string]string{"a": "b"})
			r.Status.Conditions = []api.ReplicationControllerCondition{{Type: api.ReplicaFailure, Status: api.ConditionTrue}}
			return r
		}(),
		"node": func() api.Object {
			n := newNode("n")
			n.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}
			return n
		}(),
		"event": newEvent("default", "e"),
	}
	changes := map[string][]func(api.Object){
		"pod": {
			func(o api.Object) { o.(*api.Pod).Status.Phase = api.PodFailed },
			func(o api.Object) { o.(*api.Pod).Status.Conditions[0].Status = api.ConditionFalse },
			func(o api.Object) { o.(*api.Pod).Status.ContainerStatuses[0].RestartCount++ },
			func(o api.Object) { o.(*api.Pod).Status.ContainerStatuses[0].Started = ptr(false) },
			func(o api.Object) { o.(*api.Pod).Status.StartTime = nil },
			func(o api.Object) { o.(*api.Pod).Spec.Containers[0].Image = "x" },
			func(o api.Object) { o.(*api.Pod).Spec.TerminationGracePeriodSeconds = ptr(int64(1)) },
			func(o api.Object) { o.Meta().Labels["a"] = "c" },
			func(o api.Object) { o.Meta().Annotations = map[string]string{"x": ""} },
			func(o api.Object) { o.Meta().Finalizers = []string{"f"} },
			func(o api.Object) {
				o.Meta().OwnerReferences = []api.OwnerReference{{UID: "u", Controller: ptr(false)}}
			},
			func(o api.Object) { o.Meta().DeletionGracePeriodSeconds = ptr(int64(3)) },
		},
		"rs": {
			func(o api.Object) { o.(*api.ReplicaSet).Spec.Replicas = ptr(int32(2)) },
			func(o api.Object) { o.(*api.ReplicaSet).Spec.Selector.MatchExpressions[0].Values = []string{"w"} },
			func(o api.Object) { o.(*api.ReplicaSet).Spec.Template.Metadata.Labels = nil },
			func(o api.Object) { o.(*api.ReplicaSet).Status.Conditions[0].Reason = "FailedCreate" },
			func(o api.Object) { o.(*api.ReplicaSet).Status.ObservedGeneration = 4 },
		},
		"rc": {
			func(o api.Object) { o.(*api.ReplicationController).Spec.Selector = map[string]string{"a": "c"} },
			func(o api.Object) { o.(*api.ReplicationController).Spec.Template = nil },
			func(o api.Object) { o.(*api.ReplicationController).Status.Conditions[0].Message = "m" },
			func(o api.Object) { o.(*api.ReplicationController).Status.AvailableReplicas = 1 },
		},
		"node": {
			func(o api.Object) { o.(*api.Node).Spec.Unschedulable = true },
			func(o api.Object) { o.(*api.Node).Status.Conditions[0].LastTransitionTime = tm },
		},
		"event": {
			func(o api.Object) { o.(*api.Event).Count = 2 },
			func(o api.Object) { o.(*api.Event).LastTimestamp = tm },
			func(o api.Object) { o.(*api.Event).InvolvedObject.Name = "other" },
		},
	}
	for _, name := range []string{"pod", "rs", "rc", "node", "event"} {
		obj := base[name]
		assert.True(t, equalObjects(obj, obj.DeepCopyObject()), "%s: a copy is equal", name)
		for i, change := range changes[name] {
			c := obj.DeepCopyObject()
			change(c)
			assert.False(t, equalObjects(obj, c), "%s: change %d is seen", name, i)
		}
	}
	a, b := newPod("default", "p", nil), newPod("default", "p", map[string]string{})
	b.Metadata.Finalizers = []string{}
	assert.True(t, equalObjects(a, b), "nil and empty are the same on the wire")
	assert.False(t, equalObjects(a, newNode("p")), "different kinds are never equal")
}
