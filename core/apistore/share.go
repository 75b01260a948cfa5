package apistore

import (
	"slices"

	"github.com/reconcilelab/rlab/core/api"
)

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
	if len(st.Conditions) > 0 {
		if !slices.Equal(st.Conditions, v.conditions) {
			v.conditions = slices.Clip(st.Conditions)
		}
		st.Conditions = v.conditions
	}
	if len(st.ContainerStatuses) > 0 {
		if !slices.EqualFunc(st.ContainerStatuses, v.containers, sameContainerStatus) {
			v.containers = slices.Clip(st.ContainerStatuses)
		}
		st.ContainerStatuses = v.containers
	}
	if st.StartTime != nil {
		if v.startTime == nil || *st.StartTime != *v.startTime {
			v.startTime = st.StartTime
		}
		st.StartTime = v.startTime
	}
}

// sameContainerStatus reports whether two container statuses are equal
// field for field, Started by the value it points at.
func sameContainerStatus(a, b api.ContainerStatus) bool {
	if (a.Started == nil) != (b.Started == nil) || (a.Started != nil && *a.Started != *b.Started) {
		return false
	}
	a.Started, b.Started = nil, nil
	return a == b
}
