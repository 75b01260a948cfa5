package controller

import "github.com/reconcilelab/rlab/core/api"

// The ReplicationController is served by the ReplicaSet code, as upstream has
// done since v1.8 (pkg/controller/replication/conversion.go): an RC is
// converted to a ReplicaSet when it leaves the cache, its selector map
// becoming matchLabels, and the status the sync computes is converted back
// before it is written. Only names differ: the kind in owner references, the
// queue's name and the Events' source.

// rcToRS converts a ReplicationController to the ReplicaSet the sync works on.
// The result shares maps and slices with rc; like everything read from a
// cache it is read-only.
func rcToRS(rc *api.ReplicationController) *api.ReplicaSet {
	rs := &api.ReplicaSet{
		Metadata: rc.Metadata,
		Spec: api.ReplicaSetSpec{
			Replicas:        rc.Spec.Replicas,
			MinReadySeconds: rc.Spec.MinReadySeconds,
			Selector:        &api.LabelSelector{MatchLabels: rc.Spec.Selector},
		},
		// The two statuses have one shape (see api.ReplicationControllerCondition).
		Status: api.ReplicaSetStatus(rc.Status),
	}
	if rc.Spec.Template != nil {
		rs.Spec.Template = *rc.Spec.Template
	}
	rs.Status.Conditions = cloneConditions(rc.Status.Conditions)
	return rs
}

// rsStatusToRC converts a computed status back for a ReplicationController.
func rsStatusToRC(s api.ReplicaSetStatus) api.ReplicationControllerStatus {
	out := api.ReplicationControllerStatus(s)
	out.Conditions = cloneConditions(s.Conditions)
	return out
}

// cloneConditions copies a list of conditions for the other kind's status,
// nil when there are none, so that neither status shares the other's array.
func cloneConditions(conds []api.ReplicaSetCondition) []api.ReplicaSetCondition {
	return append([]api.ReplicaSetCondition(nil), conds...)
}
