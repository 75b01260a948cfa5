package deployment

import (
	"time"

	"github.com/reconcilelab/rlab/core/api"
)

// This file is upstream's progress.go: the status of a rollout, with the
// Progressing condition judged against the progress deadline (spec §7.3,
// §7.5).

// syncRolloutStatus writes d's status with progress judged: Progressing is
// True NewReplicaSetAvailable once complete, True ReplicaSetUpdated (its
// clock restarted) whenever the counts moved forward, False
// ProgressDeadlineExceeded once lastUpdateTime + progressDeadlineSeconds has
// passed; a ReplicaFailure of a ReplicaSet is copied. If nothing changed, a
// rollout still under way is queued again for when its deadline would
// pass.
func (c *dc) syncRolloutStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) error {
	newStatus := calculateStatus(allRSs, newRS, d, c.now())
	if !HasProgressDeadline(d) {
		RemoveDeploymentCondition(&newStatus, api.DeploymentProgressing)
	}
	cur := GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	isComplete := newStatus.Replicas == newStatus.UpdatedReplicas && cur != nil && cur.Reason == NewRSAvailableReason
	if HasProgressDeadline(d) && !isComplete {
		subject := `Deployment "` + d.Metadata.Name + `"`
		if newRS != nil {
			subject = `ReplicaSet "` + newRS.Metadata.Name + `"`
		}
		switch {
		case DeploymentComplete(d, &newStatus):
			c.setProgressing(&newStatus, api.ConditionTrue, NewRSAvailableReason, subject+" has successfully progressed.")
		case DeploymentProgressing(d, &newStatus):
			cond := NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, ReplicaSetUpdatedReason,
				subject+" is progressing.", c.now())
			if cur != nil {
				if cur.Status == api.ConditionTrue {
					cond.LastTransitionTime = cur.LastTransitionTime
				}
				RemoveDeploymentCondition(&newStatus, api.DeploymentProgressing)
			}
			SetDeploymentCondition(&newStatus, cond)
		case DeploymentTimedOut(d, &newStatus, c.now()):
			c.setProgressing(&newStatus, api.ConditionFalse, TimedOutReason, subject+" has timed out progressing.")
		}
	}
	if failures := getReplicaFailures(allRSs, newRS); len(failures) > 0 {
		SetDeploymentCondition(&newStatus, failures[0])
	} else {
		RemoveDeploymentCondition(&newStatus, api.DeploymentReplicaFailure)
	}
	if statusEqual(d.Status, newStatus) {
		c.requeueStuckDeployment(d, newStatus)
		return nil
	}
	d.Status = newStatus
	c.say("syncRolloutStatus", "writing status "+statusWords(newStatus), deployRef(d))
	return c.updateDeploymentStatus(d)
}

// getReplicaFailures returns the new ReplicaSet's ReplicaFailure conditions,
// or, if it has none, those of every ReplicaSet, as Deployment conditions.
func getReplicaFailures(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) []api.DeploymentCondition {
	var out []api.DeploymentCondition
	if newRS != nil {
		for _, c := range newRS.Status.Conditions {
			if c.Type == api.ReplicaFailure {
				out = append(out, ReplicaSetToDeploymentCondition(c))
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, rs := range allRSs {
		if rs == nil {
			continue
		}
		for _, c := range rs.Status.Conditions {
			if c.Type == api.ReplicaFailure {
				out = append(out, ReplicaSetToDeploymentCondition(c))
			}
		}
	}
	return out
}

// requeueStuckDeployment queues d again for when its progress deadline
// would pass, if its rollout is still under way, and returns how long that
// is: −1 for no requeue; 0 when less than a second is left (queued
// rate-limited); otherwise the time left, d being queued a second after it.
func (c *dc) requeueStuckDeployment(d *api.Deployment, newStatus api.DeploymentStatus) time.Duration {
	cur := GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	if !HasProgressDeadline(d) || cur == nil {
		c.say("syncRolloutStatus", "status unchanged, not written", deployRef(d))
		return -1
	}
	if DeploymentComplete(d, &newStatus) || cur.Reason == TimedOutReason {
		c.say("syncRolloutStatus", "status unchanged, not written", deployRef(d))
		return -1
	}
	key := api.Key(d.Metadata.Namespace, d.Metadata.Name)
	after := cur.LastUpdateTime.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second).Sub(c.now())
	if after < time.Second {
		c.say("requeueStuckDeployment", "status unchanged; the progress deadline is due: queued again rate-limited to check it", deployRef(d))
		c.enqueueRateLimited(key)
		return 0
	}
	c.say("requeueStuckDeployment", "status unchanged; the rollout is under way: queued again in "+(after+time.Second).String()+
		", when its progress deadline would pass", deployRef(d))
	c.enqueueAfter(key, after+time.Second)
	return after
}
