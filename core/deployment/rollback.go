package deployment

import (
	"strconv"

	"github.com/reconcilelab/rlab/core/api"
)

// This file is upstream's rollback.go: the deprecated server-side rollback.
// The beta APIs' spec.rollbackTo is kept in apps/v1 as the annotation
// deprecated.deployment.rollback.to; when it is set, the controller copies
// that revision's template into the Deployment itself. kubectl rollout undo
// does not use it: it patches the template from the client (spec §9.3, §9.4).

// rollback rolls d back to the revision its annotation names (0: the one
// before the current), or explains in an event why it cannot, and clears
// the annotation with a normal update either way.
func (c *dc) rollback(d *api.Deployment, rsList []*api.ReplicaSet) error {
	newRS, allOld, err := c.getAllReplicaSetsAndSyncRevision(d, rsList, true)
	if err != nil {
		return err
	}
	allRSs := append(allOld, newRS)
	to := *getRollbackTo(d)
	if to == 0 {
		if to = LastRevision(allRSs); to == 0 {
			c.event(d, api.EventWarning, RollbackRevisionNotFound, "Unable to find last revision.")
			return c.updateDeploymentAndClearRollbackTo(d)
		}
	}
	for _, rs := range allRSs {
		v, err := Revision(&rs.Metadata)
		if err != nil {
			continue
		}
		if v == to {
			performed, err := c.rollbackToTemplate(d, rs)
			if performed && err == nil {
				c.event(d, api.EventNormal, RollbackDone, `Rolled back deployment "`+d.Metadata.Name+`" to revision `+strconv.FormatInt(to, 10))
			}
			return err
		}
	}
	c.event(d, api.EventWarning, RollbackRevisionNotFound, "Unable to find the revision to rollback to.")
	return c.updateDeploymentAndClearRollbackTo(d)
}

// rollbackToTemplate copies rs's template and annotations into d unless they
// are d's already, and clears the rollback annotation.
func (c *dc) rollbackToTemplate(d *api.Deployment, rs *api.ReplicaSet) (bool, error) {
	performed := false
	if !EqualIgnoreHash(&d.Spec.Template, &rs.Spec.Template) {
		SetFromReplicaSetTemplate(d, rs.Spec.Template)
		SetDeploymentAnnotationsTo(d, rs)
		performed = true
		c.say("rollback", "rolling back to the template of rs/"+rs.Metadata.Name, rsRef(rs), deployRef(d))
	} else {
		c.event(d, api.EventWarning, RollbackTemplateUnchanged,
			`The rollback revision contains the same template as current deployment "`+d.Metadata.Name+`"`)
	}
	return performed, c.updateDeploymentAndClearRollbackTo(d)
}

// updateDeploymentAndClearRollbackTo removes the rollback annotation and
// updates d (the main resource, so generation goes up if the template
// changed).
func (c *dc) updateDeploymentAndClearRollbackTo(d *api.Deployment) error {
	delete(d.Metadata.Annotations, RollbackToAnnotation)
	c.say("rollback", "clearing "+RollbackToAnnotation+" (update of the Deployment)", deployRef(d))
	return c.updateDeployment(d)
}

// getRollbackTo reads the rollback annotation; absent, empty or unparsable
// means none.
func getRollbackTo(d *api.Deployment) *int64 {
	v := d.Metadata.Annotations[RollbackToAnnotation]
	if v == "" {
		return nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil
	}
	return &n
}
