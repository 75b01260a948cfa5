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
		Status: api.ReplicaSetStatus{
			Replicas:             rc.Status.Replicas,
			FullyLabeledReplicas: rc.Status.FullyLabeledReplicas,
			ReadyReplicas:        rc.Status.ReadyReplicas,
			AvailableReplicas:    rc.Status.AvailableReplicas,
			ObservedGeneration:   rc.Status.ObservedGeneration,
		},
	}
	if rc.Spec.Template != nil {
		rs.Spec.Template = *rc.Spec.Template
	}
	for _, c := range rc.Status.Conditions {
		rs.Status.Conditions = append(rs.Status.Conditions, api.ReplicaSetCondition(c))
	}
	return rs
}

// rsStatusToRC converts a computed status back for a ReplicationController.
func rsStatusToRC(s api.ReplicaSetStatus) api.ReplicationControllerStatus {
	out := api.ReplicationControllerStatus{
		Replicas:             s.Replicas,
		FullyLabeledReplicas: s.FullyLabeledReplicas,
		ReadyReplicas:        s.ReadyReplicas,
		AvailableReplicas:    s.AvailableReplicas,
		ObservedGeneration:   s.ObservedGeneration,
	}
	for _, c := range s.Conditions {
		out.Conditions = append(out.Conditions, api.ReplicationControllerCondition(c))
	}
	return out
}
