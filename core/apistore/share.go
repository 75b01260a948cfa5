package apistore

import (
	"maps"
	"slices"

	"github.com/reconcilelab/rlab/core/api"
)

// shareLabels gives an object about to be created a labels map the store
// already holds in place of its own copy, when one is equal: the last one
// labelsMemo found valid, or else, for a pod, the pod template's of the
// controller that owns it. It runs before validation. Both maps are known
// valid (a template's labels were validated by the same rules when its
// owner was stored), so it vouches for them to the memo, which then skips
// them, and remembers the template's as the last valid set.
//
// The pods of one ReplicaSet then share one labels map, where each had its
// own: a map of two labels is 288 bytes, 2.8 MiB at 10,000 pods. The
// template's map is what they share when the creates of many ReplicaSets
// interleave, as a thousand ReplicaSets' slow starts do.
//
// That is safe for the reason shallowCopy is: nothing changes a stored
// object, or any map it holds, once it is stored; every write stores a new
// version, and a change of labels gives that version a new map.
func (s *Store) shareLabels(info *kindInfo, obj api.Object) {
	m := obj.Meta()
	if len(m.Labels) == 0 {
		return
	}
	if last := s.validLabels.last; maps.Equal(m.Labels, last) {
		m.Labels = last
		s.validLabels.vouch(m)
		return
	}
	if tmpl := s.controllerTemplateLabels(info, m); tmpl != nil && maps.Equal(m.Labels, tmpl) {
		m.Labels = tmpl
		s.validLabels.vouch(m)
	}
}

// controllerTemplateLabels returns the labels of the pod template of the
// stored ReplicaSet or ReplicationController that is m's controller, or nil.
func (s *Store) controllerTemplateLabels(info *kindInfo, m *api.ObjectMeta) map[string]string {
	ref := api.GetControllerOf(m)
	if info.kind != api.KindPod || ref == nil {
		return nil
	}
	owner := infoFor(api.Kind(ref.Kind))
	if owner == nil {
		return nil
	}
	switch o := s.lookup(owner, m.Namespace, ref.Name).(type) {
	case *api.ReplicaSet:
		if o.Metadata.UID == ref.UID {
			return o.Spec.Template.Metadata.Labels
		}
	case *api.ReplicationController:
		if o.Metadata.UID == ref.UID && o.Spec.Template != nil {
			return o.Spec.Template.Metadata.Labels
		}
	}
	return nil
}

// statusMemo remembers the conditions, container statuses and start time of
// the last pod status the store stored, and gives a pod status stored after
// it the remembered ones wherever they are equal. Kubelets write a pod's
// status at least once, and the pods of one ReplicaSet, started in the same
// second, report the same conditions at the same (truncated) times: in the
// converge scenarios all but a handful of 11,000 status writes had the last
// one's conditions. Shared, the five conditions of a pod are 448 bytes
// fewer, about 4.5 MiB at 10,000 pods.
//
// Only parts equal to the last field for field are shared, so no reader can
// tell a shared part from an own copy. Sharing is safe for the reason
// shallowCopy is: nothing changes a stored object, or what it holds, once it
// is stored, and a write that changes a condition builds a new list (a
// binding copies the list before it sets PodScheduled). The remembered parts
// are clipped to their length, so an append to one makes a new array. The
// memo changes no answer and needs no place in snapshots: after a restore it
// shares with a version that may since have been rewound, which is as safe
// as sharing with any other stored version.
type statusMemo struct {
	conditions []api.PodCondition
	containers []api.ContainerStatus
	startTime  *api.Time
}

// share gives st the remembered parts that equal its own, and remembers
// those it does not have yet. st belongs to a pod the store is about to
// store, a version of its own that nothing else holds yet.
func (v *statusMemo) share(st *api.PodStatus) {
	// A kubelet sends the parts of the last status it sent wherever they
	// are equal (cluster's sentParts), so the parts are often the very
	// ones remembered, and need no comparing.
	if len(st.Conditions) > 0 {
		if !api.SameList(st.Conditions, v.conditions) && !slices.EqualFunc(st.Conditions, v.conditions, api.SamePodCondition) {
			v.conditions = slices.Clip(st.Conditions)
		}
		st.Conditions = v.conditions
	}
	if len(st.ContainerStatuses) > 0 {
		if !api.SameList(st.ContainerStatuses, v.containers) && !slices.EqualFunc(st.ContainerStatuses, v.containers, api.SameContainerStatus) {
			v.containers = slices.Clip(st.ContainerStatuses)
		}
		st.ContainerStatuses = v.containers
	}
	if st.StartTime != nil {
		if st.StartTime != v.startTime && (v.startTime == nil || *st.StartTime != *v.startTime) {
			v.startTime = st.StartTime
		}
		st.StartTime = v.startTime
	}
}
