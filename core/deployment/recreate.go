package deployment

import "github.com/reconcilelab/rlab/core/api"

// This file is upstream's recreate.go: a Recreate rollout scales every old
// ReplicaSet to zero, waits until none of their pods is left running, and
// only then creates the new ReplicaSet at full size (spec §5).

// rolloutRecreate is one sync of a Recreate Deployment.
func (c *dc) rolloutRecreate(d *api.Deployment, rsList []*api.ReplicaSet, pods podMap) error {
	// The new ReplicaSet is never created before the old pods are gone.
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	allRSs := append(oldRSs, newRS)
	activeOld := FilterActiveReplicaSets(oldRSs)

	scaledDown, err := c.scaleDownOldReplicaSetsForRecreate(activeOld, d)
	if err != nil {
		return err
	}
	if scaledDown {
		return c.syncRolloutStatus(allRSs, newRS, d)
	}
	if oldPodsRunning(newRS, oldRSs, pods) {
		c.say("oldPodsRunning", "old pods are still there: the new ReplicaSet waits until they are gone", deployRef(d))
		return c.syncRolloutStatus(allRSs, newRS, d)
	}
	if newRS == nil {
		newRS, oldRSs, err = c.getAllReplicaSetsAndSyncRevision(d, rsList, true)
		if err != nil {
			return err
		}
		allRSs = append(oldRSs, newRS)
	}
	if _, _, err := c.scaleReplicaSetAndRecordEvent(newRS, replicasOf(d.Spec.Replicas), d, reason{"rolloutRecreate",
		"Recreate: the old pods are gone, so the new ReplicaSet gets all " + itoa(replicasOf(d.Spec.Replicas)) + " replicas"}); err != nil {
		return err
	}
	if DeploymentComplete(d, &d.Status) {
		if err := c.cleanupDeployment(oldRSs, d); err != nil {
			return err
		}
	}
	return c.syncRolloutStatus(allRSs, newRS, d)
}

// scaleDownOldReplicaSetsForRecreate scales every active old ReplicaSet to
// zero, and says whether it scaled any.
func (c *dc) scaleDownOldReplicaSetsForRecreate(oldRSs []*api.ReplicaSet, d *api.Deployment) (bool, error) {
	scaled := false
	for i, rs := range oldRSs {
		if replicasOf(rs.Spec.Replicas) == 0 {
			continue
		}
		ok, updated, err := c.scaleReplicaSetAndRecordEvent(rs, 0, d, reason{"scaleDownOldReplicaSetsForRecreate",
			"Recreate: every old pod goes before any new one is made"})
		if err != nil {
			return false, err
		}
		if ok {
			oldRSs[i] = updated
			scaled = true
		}
	}
	return scaled, nil
}

// oldPodsRunning says whether an old ReplicaSet still counts pods in its
// status, or the pod map holds a pod of one that has not finished (Pending,
// Running and Unknown count, being deleted or not).
func oldPodsRunning(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet, pods podMap) bool {
	if GetActualReplicaCountForReplicaSets(oldRSs) > 0 {
		return true
	}
	for _, uid := range pods.uids {
		if newRS != nil && newRS.Metadata.UID == uid {
			continue
		}
		for _, pod := range pods.pods[uid] {
			switch pod.Status.Phase {
			case api.PodFailed, api.PodSucceeded:
				continue
			}
			return true
		}
	}
	return false
}
