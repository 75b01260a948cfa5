package controller

import (
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
)

// This file computes what a sync writes into a ReplicaSet's status, and
// whether it needs to write at all. It models calculateStatus and the
// condition helpers of upstream's pkg/controller/replicaset/replica_set_utils.go,
// and the skip rule at the top of updateReplicaSetStatus. Everything here works
// on *api.ReplicaSet only: a ReplicationController is converted to a ReplicaSet
// before the sync and back after it, as upstream's replication manager does.

// The reasons the replication manager gives, in events and in the
// ReplicaFailure condition. They model upstream's constants of the same names.
const (
	// FailedCreatePodReason: creating a pod failed. It is also the reason of
	// the ReplicaFailure condition of a ReplicaSet with too few pods.
	FailedCreatePodReason = "FailedCreate"
	// SuccessfulCreatePodReason: a pod was created.
	SuccessfulCreatePodReason = "SuccessfulCreate"
	// FailedDeletePodReason: deleting a pod failed. It is also the reason of
	// the ReplicaFailure condition of a ReplicaSet with too many pods.
	FailedDeletePodReason = "FailedDelete"
	// SuccessfulDeletePodReason: a pod was deleted.
	SuccessfulDeletePodReason = "SuccessfulDelete"
)

// specReplicas returns spec.replicas, reading nil as 1: the API store
// defaults a missing value to 1, so nil only reaches here from a test, and
// upstream, which dereferences it, would crash instead.
func specReplicas(rs *api.ReplicaSet) int32 {
	if rs.Spec.Replicas == nil {
		return 1
	}
	return *rs.Spec.Replicas
}

// NewReplicaSetCondition returns a condition of the given type, status,
// reason and message that changed at now. It models upstream's
// NewReplicaSetCondition, which reads the wall clock where this takes now.
func NewReplicaSetCondition(condType, status, reason, message string, now time.Time) api.ReplicaSetCondition {
	return api.ReplicaSetCondition{
		Type:               condType,
		Status:             status,
		LastTransitionTime: api.NewTime(now),
		Reason:             reason,
		Message:            message,
	}
}

// GetCondition returns a copy of the status's first condition of the given
// type, or nil. It models upstream's GetCondition; the copy means writing
// through the result cannot change the status.
func GetCondition(status api.ReplicaSetStatus, condType string) *api.ReplicaSetCondition {
	// Indexed, not ranged over by value: the address of a range variable
	// that is returned puts every iteration's copy on the heap.
	for i := range status.Conditions {
		if status.Conditions[i].Type == condType {
			c := status.Conditions[i]
			return &c
		}
	}
	return nil
}

// SetCondition puts condition into the status. If a condition of its type
// already has the same status and reason, nothing changes, not even the
// message or the time: a condition records when something started, and a
// repeated failure is not a new start. Otherwise every condition of that type
// is dropped and the new one is appended at the end. It models upstream's
// SetCondition.
//
// The status's conditions are replaced by a new slice, never written in
// place, so a status copied from a cached ReplicaSet can be changed without
// changing the cache.
func SetCondition(status *api.ReplicaSetStatus, condition api.ReplicaSetCondition) {
	if current := GetCondition(*status, condition.Type); current != nil &&
		current.Status == condition.Status && current.Reason == condition.Reason {
		return
	}
	status.Conditions = append(withoutCondition(status.Conditions, condition.Type, 1), condition)
}

// RemoveCondition drops every condition of the given type from the status;
// with none there, only the slice is replaced. It models upstream's
// RemoveCondition, and like SetCondition never writes in place.
func RemoveCondition(status *api.ReplicaSetStatus, condType string) {
	status.Conditions = withoutCondition(status.Conditions, condType, 0)
}

// withoutCondition returns a new slice of the conditions not of condType,
// with room for extra more, or nil when it would be empty and extra is 0. It
// models upstream's filterOutCondition, whose nil result for "nothing left" is
// what makes a status without conditions compare equal to an empty one.
func withoutCondition(conditions []api.ReplicaSetCondition, condType string, extra int) []api.ReplicaSetCondition {
	var out []api.ReplicaSetCondition
	for _, c := range conditions {
		if c.Type == condType {
			continue
		}
		if out == nil {
			out = make([]api.ReplicaSetCondition, 0, len(conditions)+extra)
		}
		out = append(out, c)
	}
	return out
}

// calculateStatus returns the status a sync writes for rs, which owns the
// active pods filteredPods, after manageReplicas returned manageReplicasErr.
// It models upstream's calculateStatus:
//
//   - replicas counts the owned active pods;
//   - fullyLabeledReplicas counts those whose labels include every label of
//     the pod template (a superset is fine), which can be fewer than replicas
//     when the template gained a label the older pods lack;
//   - readyReplicas counts the ready ones;
//   - availableReplicas counts the ready ones that have been ready for
//     spec.minReadySeconds at now (see IsPodAvailable).
//
// The ReplicaFailure condition records a failed create or delete. It is
// added when manageReplicas failed and there is none yet: status True, reason
// FailedCreate when there are fewer pods than wanted, FailedDelete when more
// (empty when equal), the error's text as the message, now as its time. While
// failures go on, an existing ReplicaFailure condition is left exactly as it
// is, message included, however the error changes; it is removed by the first
// sync whose manageReplicas succeeds. Every other field of the status,
// observedGeneration included, is rs's own.
//
// rs is not changed: the result shares nothing with rs that a caller could
// write through by changing the result's conditions with SetCondition or
// RemoveCondition.
func calculateStatus(rs *api.ReplicaSet, filteredPods []*api.Pod, manageReplicasErr error, now time.Time) api.ReplicaSetStatus {
	return calculateClaimedStatus(rs, filteredPods, labels.Everything(), manageReplicasErr, now)
}

// calculateClaimedStatus is calculateStatus for pods that all match
// selected, as the pods a sync claimed all match the owner's selector. When
// that selector pins every label of the template (it usually requires
// exactly the template's labels), every such pod is fully labeled, and the
// pods' labels need not be looked up again, once per pod and label, on every
// sync.
func calculateClaimedStatus(rs *api.ReplicaSet, filteredPods []*api.Pod, selected labels.Selector, manageReplicasErr error,
	now time.Time) api.ReplicaSetStatus {
	newStatus := rs.Status

	// The template's labels, as a selector, match exactly the label sets that
	// contain all of them. An empty template matches every pod, as upstream's
	// selector from an empty set does.
	template := rs.Spec.Template.Metadata.Labels
	allFullyLabeled := selected.ImpliesSet(template)
	var templateLabels labels.Selector
	if !allFullyLabeled {
		templateLabels = labels.SelectorFromSet(template)
	}
	var fullyLabeled, ready, available int32
	// Pods that report the same conditions at the same times share one list
	// of them (the API server keeps one where a status repeats the last),
	// so the answer for the last list is kept for the next pod: the pods of
	// a ReplicaSet started together are found ready and available once,
	// not one by one.
	var conds []api.PodCondition
	var isReady, isAvailable bool
	for _, pod := range filteredPods {
		if allFullyLabeled || templateLabels.Matches(pod.Metadata.Labels) {
			fullyLabeled++
		}
		if !api.SameList(pod.Status.Conditions, conds) {
			conds, isReady, isAvailable = pod.Status.Conditions, false, false
			if c := api.PodReadyCondition(pod); c != nil && c.Status == api.ConditionTrue {
				isReady, isAvailable = true, availableCondition(c, rs.Spec.MinReadySeconds, now)
			}
		}
		if isReady {
			ready++
			if isAvailable {
				available++
			}
		}
	}

	failure := GetCondition(rs.Status, api.ReplicaFailure)
	switch {
	case manageReplicasErr != nil && failure == nil:
		var reason string
		switch diff := len(filteredPods) - int(specReplicas(rs)); {
		case diff < 0:
			reason = FailedCreatePodReason
		case diff > 0:
			reason = FailedDeletePodReason
		}
		SetCondition(&newStatus, NewReplicaSetCondition(api.ReplicaFailure, api.ConditionTrue, reason, manageReplicasErr.Error(), now))
	case manageReplicasErr == nil && failure != nil:
		RemoveCondition(&newStatus, api.ReplicaFailure)
	}

	newStatus.Replicas = int32(len(filteredPods))
	newStatus.FullyLabeledReplicas = fullyLabeled
	newStatus.ReadyReplicas = ready
	newStatus.AvailableReplicas = available
	return newStatus
}

// statusNeedsUpdate reports whether a sync must write newStatus, computed by
// calculateStatus for rs. It models the skip rule of upstream's
// updateReplicaSetStatus: the write is skipped when the four counts are
// unchanged, the ReplicaSet's generation has already been observed
// (metadata.generation == status.observedGeneration) and the conditions are
// equal, element by element. So a spec change that leaves every count alone
// (a new generation) still writes once, to record observedGeneration; the
// caller sets newStatus.ObservedGeneration = rs's generation before writing.
func statusNeedsUpdate(rs *api.ReplicaSet, newStatus api.ReplicaSetStatus) bool {
	old := &rs.Status
	return old.Replicas != newStatus.Replicas ||
		old.FullyLabeledReplicas != newStatus.FullyLabeledReplicas ||
		old.ReadyReplicas != newStatus.ReadyReplicas ||
		old.AvailableReplicas != newStatus.AvailableReplicas ||
		rs.Metadata.Generation != old.ObservedGeneration ||
		!conditionsEqual(old.Conditions, newStatus.Conditions)
}

// conditionsEqual compares two condition lists as upstream's reflect.DeepEqual
// does: a nil list differs from an empty non-nil one, and conditions are
// compared field by field, times by their exact representation (time.Time's
// ==, which DeepEqual amounts to) rather than by the instant they name.
func conditionsEqual(a, b []api.ReplicaSetCondition) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Type != y.Type || x.Status != y.Status || x.LastTransitionTime != y.LastTransitionTime ||
			x.Reason != y.Reason || x.Message != y.Message {
			return false
		}
	}
	return true
}
