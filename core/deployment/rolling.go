package deployment

import (
	"errors"
	"slices"

	"github.com/reconcilelab/rlab/core/api"
)

// This file is upstream's rolling.go: a RollingUpdate moves replicas from
// the old ReplicaSets to the new one within maxSurge and maxUnavailable, one
// phase per sync (spec §4).

// rolloutRolling is one sync of a RollingUpdate: find or create the new
// ReplicaSet, then do the first of these that does anything: scale the new
// ReplicaSet (reconcileNewReplicaSet), scale old ones down
// (reconcileOldReplicaSets), or, if the status read at the start of the sync
// says the rollout is complete, clean up old ReplicaSets. Then the status,
// with progress judged.
func (c *dc) rolloutRolling(d *api.Deployment, rsList []*api.ReplicaSet) error {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(d, rsList, true)
	if err != nil {
		return err
	}
	allRSs := append(oldRSs, newRS)

	scaledUp, err := c.reconcileNewReplicaSet(allRSs, newRS, d)
	if err != nil {
		return err
	}
	if scaledUp {
		return c.syncRolloutStatus(allRSs, newRS, d)
	}
	scaledDown, err := c.reconcileOldReplicaSets(allRSs, FilterActiveReplicaSets(oldRSs), newRS, d)
	if err != nil {
		return err
	}
	if scaledDown {
		return c.syncRolloutStatus(allRSs, newRS, d)
	}
	if DeploymentComplete(d, &d.Status) {
		if err := c.cleanupDeployment(oldRSs, d); err != nil {
			return err
		}
	}
	return c.syncRolloutStatus(allRSs, newRS, d)
}

// reconcileNewReplicaSet scales the new ReplicaSet down to spec.replicas if
// it is above, or up as far as NewRSNewReplicas allows, and says whether it
// scaled.
func (c *dc) reconcileNewReplicaSet(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) (bool, error) {
	want, have := replicasOf(d.Spec.Replicas), replicasOf(newRS.Spec.Replicas)
	if have == want {
		return false, nil
	}
	if have > want {
		scaled, _, err := c.scaleReplicaSetAndRecordEvent(newRS, want, d, reason{"reconcileNewReplicaSet",
			"the new ReplicaSet wanted " + itoa(have) + " replicas, more than the Deployment's " + itoa(want)})
		return scaled, err
	}
	n, why, err := newRSNewReplicas(d, allRSs, newRS)
	if err != nil {
		return false, err
	}
	if n == have {
		c.say("reconcileNewReplicaSet", "new rs/"+newRS.Metadata.Name+" stays at "+itoa(have)+": "+
			itoa(GetReplicaCountForReplicaSets(allRSs))+" pods wanted in all, and maxSurge allows "+
			itoa(want+MaxSurge(d)), rsRef(newRS))
	}
	scaled, _, err := c.scaleReplicaSetAndRecordEvent(newRS, n, d, reason{"reconcileNewReplicaSet", why})
	return scaled, err
}

// reconcileOldReplicaSets scales old ReplicaSets down as far as
// maxUnavailable allows: first their unhealthy replicas, then available
// ones while more than minAvailable stay available. Unavailable pods of the
// new ReplicaSet are never paid for by removing old ones. Errors of the
// scaling are dropped, as v1.31 drops them: the sync then only writes the
// status.
func (c *dc) reconcileOldReplicaSets(allRSs, oldRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) (bool, error) {
	if GetReplicaCountForReplicaSets(oldRSs) == 0 {
		return false, nil
	}
	allPods := GetReplicaCountForReplicaSets(allRSs)
	minAvailable := replicasOf(d.Spec.Replicas) - MaxUnavailable(d)
	newUnavailable := replicasOf(newRS.Spec.Replicas) - newRS.Status.AvailableReplicas
	maxScaledDown := allPods - minAvailable - newUnavailable
	if maxScaledDown <= 0 {
		c.say("reconcileOldReplicaSets", "old ReplicaSets stay: "+itoa(allPods)+" pods wanted − "+itoa(minAvailable)+
			" that must stay available − "+itoa(newUnavailable)+" new ones not yet available leaves none to remove", rsRef(newRS))
		return false, nil
	}
	oldRSs, cleaned, err := c.cleanupUnhealthyReplicas(oldRSs, d, maxScaledDown)
	if err != nil {
		if suspended(err) {
			return false, err
		}
		return false, nil
	}
	allRSs = append(oldRSs, newRS)
	scaledDown, err := c.scaleDownOldReplicaSetsForRollingUpdate(allRSs, oldRSs, d)
	if err != nil {
		if suspended(err) {
			return false, err
		}
		return false, nil
	}
	return cleaned+scaledDown > 0, nil
}

// cleanupWhy says why cleanupUnhealthyReplicas took k replicas from an old
// ReplicaSet that wanted spec and had available: unavailable replicas cost
// nothing to remove, within the maxCleanup old replicas this sync may take
// (reconcileOldReplicaSets' maxScaledDown).
func cleanupWhy(spec, available, k, maxCleanup int32) string {
	unavailable := spec - available
	var what string
	switch {
	case k < unavailable:
		what = itoa(k) + " of its " + itoa(unavailable) + " unavailable replicas go"
	case unavailable == 1:
		what = "its unavailable replica goes"
	default:
		what = "its " + itoa(unavailable) + " unavailable replicas go"
	}
	return "it wanted " + replicas(spec) + ", of which " + itoa(available) + " available: " + what +
		" first, since that costs no availability; " + replicas(maxCleanup) + " of old ReplicaSets may go in this sync" +
		" (pods wanted − pods that must stay available − new pods not yet available)"
}

// replicas is n replicas in words: "1 replica", "2 replicas".
func replicas(n int32) string {
	if n == 1 {
		return "1 replica"
	}
	return itoa(n) + " replicas"
}

// cleanupUnhealthyReplicas scales the old ReplicaSets, oldest first, down by
// their unavailable replicas, at most maxCleanup in all. The ReplicaSet
// controller deletes not-ready pods first, so these are the ones that go.
func (c *dc) cleanupUnhealthyReplicas(oldRSs []*api.ReplicaSet, d *api.Deployment, maxCleanup int32) ([]*api.ReplicaSet, int32, error) {
	slices.SortFunc(oldRSs, byCreationTimestamp)
	total := int32(0)
	for i, rs := range oldRSs {
		if total >= maxCleanup {
			break
		}
		spec := replicasOf(rs.Spec.Replicas)
		if spec == 0 || spec == rs.Status.AvailableReplicas {
			continue
		}
		k := min(maxCleanup-total, spec-rs.Status.AvailableReplicas)
		n := spec - k
		if n > spec {
			return nil, 0, errors.New("when cleaning up unhealthy replicas, got invalid request to scale down " +
				rs.Metadata.Namespace + "/" + rs.Metadata.Name + " " + itoa(spec) + " -> " + itoa(n))
		}
		c.say("cleanupUnhealthyReplicas", "old rs/"+rs.Metadata.Name+" has "+itoa(spec-rs.Status.AvailableReplicas)+
			" unavailable replicas: removing "+itoa(k)+" of them first", rsRef(rs))
		_, updated, err := c.scaleReplicaSetAndRecordEvent(rs, n, d, reason{"cleanupUnhealthyReplicas",
			cleanupWhy(spec, rs.Status.AvailableReplicas, k, maxCleanup)})
		if err != nil {
			return nil, total, err
		}
		total += k
		oldRSs[i] = updated
	}
	return oldRSs, total, nil
}

// scaleDownOldReplicaSetsForRollingUpdate scales old ReplicaSets down,
// oldest first, by as many as are available above minAvailable.
func (c *dc) scaleDownOldReplicaSetsForRollingUpdate(allRSs, oldRSs []*api.ReplicaSet, d *api.Deployment) (int32, error) {
	minAvailable := replicasOf(d.Spec.Replicas) - MaxUnavailable(d)
	available := GetAvailableReplicaCountForReplicaSets(allRSs)
	if available <= minAvailable {
		c.say("scaleDownOldReplicaSetsForRollingUpdate", itoa(available)+" pods available, and "+itoa(minAvailable)+
			" must stay so: no old replica may go yet")
		return 0, nil
	}
	slices.SortFunc(oldRSs, byCreationTimestamp)
	budget := available - minAvailable
	why := reason{"scaleDownOldReplicaSetsForRollingUpdate", itoa(available) + " pods available and at least " + itoa(minAvailable) +
		" must stay so (replicas " + itoa(replicasOf(d.Spec.Replicas)) + " − maxUnavailable " + itoa(MaxUnavailable(d)) + "): " +
		itoa(budget) + " may go, oldest ReplicaSet first"}
	done := int32(0)
	for _, rs := range oldRSs {
		if done >= budget {
			break
		}
		spec := replicasOf(rs.Spec.Replicas)
		if spec == 0 {
			continue
		}
		k := min(spec, budget-done)
		n := spec - k
		if n > spec {
			return 0, errors.New("when scaling down old RS, got invalid request to scale down " +
				rs.Metadata.Namespace + "/" + rs.Metadata.Name + " " + itoa(spec) + " -> " + itoa(n))
		}
		if _, _, err := c.scaleReplicaSetAndRecordEvent(rs, n, d, why); err != nil {
			return done, err
		}
		done += k
	}
	return done, nil
}
