package deployment

import (
	"errors"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/controller"
	"github.com/reconcilelab/rlab/core/labels"
)

// This file is upstream's syncDeployment and pkg/controller/deployment/sync.go:
// the order of a sync, claiming, the pod map, finding or creating the new
// ReplicaSet, scaling, cleanup and status. rolling.go, recreate.go,
// progress.go and rollback.go hold the rest.

// syncDeployment is one sync of the Deployment with key (spec §1.4). The
// order is upstream's: gone → nothing; an empty selector → only
// observedGeneration; claim the ReplicaSets; map their pods; being deleted →
// status only; the paused condition; paused → scale only; a pending rollback;
// a scaling event → scale only; otherwise a rollout of the strategy.
func (c *dc) syncDeployment(key string) error {
	ns, name, err := api.SplitKey(key)
	if err != nil {
		return err
	}
	cached, ok := c.cachedDeployment(ns, name)
	if !ok {
		c.say("syncDeployment", "deploy/"+name+" is not in the cache: it was deleted, so there is nothing to do "+
			"(the garbage collector removes its ReplicaSets)")
		return nil
	}
	d := cached.DeepCopy()
	c.d = d

	if sel := d.Spec.Selector; sel != nil && sel.MatchLabels == nil && sel.MatchExpressions == nil {
		c.event(d, api.EventWarning, SelectingAllReason, "This deployment is selecting all pods. A non-empty selector is required.")
		c.say("syncDeployment", "its selector is empty, which would select every pod: it does nothing but record observedGeneration", deployRef(d))
		if d.Status.ObservedGeneration < d.Metadata.Generation {
			d.Status.ObservedGeneration = d.Metadata.Generation
			// Upstream ignores this write's error.
			if err := c.updateDeploymentStatus(d); suspended(err) {
				return err
			}
		}
		return nil
	}

	rsList, err := c.getReplicaSetsForDeployment(d)
	if err != nil {
		return err
	}
	podMap, err := c.getPodMapForDeployment(d, rsList)
	if err != nil {
		return err
	}
	if d.Metadata.DeletionTimestamp != nil {
		c.say("syncDeployment", "it is being deleted: only its status is brought up to date", deployRef(d))
		return c.syncStatusOnly(d, rsList)
	}
	if err := c.checkPausedConditions(d); err != nil {
		return err
	}
	if d.Spec.Paused {
		c.say("syncDeployment", "it is paused: no rollout, but its size is kept (sync)", deployRef(d))
		return c.sync(d, rsList)
	}
	if getRollbackTo(d) != nil {
		return c.rollback(d, rsList)
	}
	scaling, err := c.isScalingEvent(d, rsList)
	if err != nil {
		return err
	}
	if scaling {
		c.say("isScalingEvent", "spec.replicas changed since its ReplicaSets were sized: a scaling event, not a rollout", deployRef(d))
		return c.sync(d, rsList)
	}
	switch d.Spec.Strategy.Type {
	case api.RecreateDeploymentStrategy:
		return c.rolloutRecreate(d, rsList, podMap)
	case api.RollingUpdateDeploymentStrategy:
		return c.rolloutRolling(d, rsList)
	}
	return errors.New("unexpected deployment strategy type: " + d.Spec.Strategy.Type)
}

// getReplicaSetsForDeployment lists every ReplicaSet of d's namespace from
// the cache and claims them, as upstream's ClaimReplicaSets does, by the
// replication manager's rule (controller.DecideClaimObject): matching ones
// it controls are kept; ones it controls that stopped matching are released
// with a patch; matching orphans are adopted with a patch, after one fresh
// GET of d (RecheckDeletionTimestamp) before the first adoption. The claim
// errors are joined and returned with the claimed ReplicaSets.
func (c *dc) getReplicaSetsForDeployment(d *api.Deployment) ([]*api.ReplicaSet, error) {
	ns := d.Metadata.Namespace
	rsList := c.cachedReplicaSets(ns)
	sel, err := labels.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, errors.New("deployment " + ns + "/" + d.Metadata.Name + " has invalid label selector: " + err.Error())
	}
	var claimed []*api.ReplicaSet
	var errs []error
	checked := false
	var adoptErr error
	for _, rs := range rsList {
		decision, _ := controller.DecideClaimObject(&rs.Metadata, &d.Metadata, sel)
		switch decision {
		case controller.ClaimClaimed:
			claimed = append(claimed, rs)
		case controller.ClaimNeedsRelease:
			c.say("ClaimReplicaSets", "rs/"+rs.Metadata.Name+" no longer matches "+sel.String()+
				": releasing it (patch removing our controller reference)", rsRef(rs))
			err := c.patchReplicaSet(ns, rs.Metadata.Name, controller.ReleasePatch(rs.Metadata.UID, d.Metadata.UID))
			if suspended(err) {
				return nil, err
			}
			if err := controller.ReleaseResult(err); err != nil {
				errs = append(errs, err)
			}
		case controller.ClaimNeedsAdoption:
			if !checked {
				checked = true
				c.say("ClaimReplicaSets", "orphan rs/"+rs.Metadata.Name+" matches: a fresh GET of deploy/"+d.Metadata.Name+
					" checks it is not being deleted before adopting", rsRef(rs))
				fresh, err := c.getDeployment(ns, d.Metadata.Name)
				if suspended(err) {
					return nil, err
				}
				var fm *api.ObjectMeta
				if fresh != nil {
					fm = &fresh.Metadata
				}
				adoptErr = controller.RecheckDeletionTimestamp(string(api.KindDeployment), &d.Metadata, fm, err)
			}
			if adoptErr != nil {
				errs = append(errs, errors.New("can't adopt ReplicaSet "+ns+"/"+rs.Metadata.Name+" ("+rs.Metadata.UID+"): "+adoptErr.Error()))
				continue
			}
			c.say("ClaimReplicaSets", "adopting orphan rs/"+rs.Metadata.Name+" (patch adding our controller reference)", rsRef(rs))
			err := c.patchReplicaSet(ns, rs.Metadata.Name, controller.AdoptionPatch(rs.Metadata.UID, &d.Metadata, "apps/v1", string(api.KindDeployment)))
			if suspended(err) {
				return nil, err
			}
			if ok, reported := controller.AdoptResult(err); ok {
				claimed = append(claimed, rs)
			} else if reported != nil {
				errs = append(errs, reported)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		c.say("ClaimReplicaSets", "claiming failed, so the sync ends here: "+err.Error(), deployRef(d))
		return claimed, err
	}
	return claimed, nil
}

// podMap is upstream's map from a ReplicaSet's UID to its pods, with its
// keys kept in the order of the ReplicaSets, so that walking it is
// deterministic.
type podMap struct {
	uids []string
	pods map[string][]*api.Pod
}

// count is the number of pods in the map.
func (m podMap) count() int {
	n := 0
	for _, uid := range m.uids {
		n += len(m.pods[uid])
	}
	return n
}

// getPodMapForDeployment maps each of rsList to the pods of d's namespace
// that d's selector matches and that ReplicaSet controls; every ReplicaSet
// has an entry, empty or not. Pods that are finished or being deleted stay
// in: Recreate waits for them. v1.31 lists every pod d's selector matches
// and keeps those of rsList; here the pods are looked up by their
// controller's UID, through the pod informer's owner index (as later
// releases do), which finds the same pods in the same order without
// visiting the namespace's others.
func (c *dc) getPodMapForDeployment(d *api.Deployment, rsList []*api.ReplicaSet) (podMap, error) {
	return buildPodMap(d, rsList, c.cachedPods)
}

// buildPodMap is getPodMapForDeployment over the pods lister pods.
func buildPodMap(d *api.Deployment, rsList []*api.ReplicaSet, pods func(string, labels.Selector, []string) []*api.Pod) (podMap, error) {
	sel, err := labels.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return podMap{}, err
	}
	m := podMap{pods: make(map[string][]*api.Pod, len(rsList))}
	for _, rs := range rsList {
		if _, dup := m.pods[rs.Metadata.UID]; !dup {
			m.uids = append(m.uids, rs.Metadata.UID)
		}
		m.pods[rs.Metadata.UID] = []*api.Pod{}
	}
	for _, pod := range pods(d.Metadata.Namespace, sel, m.uids) {
		ref := api.GetControllerOf(&pod.Metadata)
		if ref == nil {
			continue
		}
		if list, ok := m.pods[ref.UID]; ok {
			m.pods[ref.UID] = append(list, pod)
		}
	}
	return m, nil
}

// syncStatusOnly brings the status of a Deployment being deleted up to date,
// without creating anything.
func (c *dc) syncStatusOnly(d *api.Deployment, rsList []*api.ReplicaSet) error {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	allRSs := append(oldRSs, newRS)
	return c.syncDeploymentStatus(allRSs, newRS, d)
}

// sync is what a paused Deployment, or a scaling event, gets: its size is
// spread over its ReplicaSets (scale), a paused one's history is cleaned
// up, and its status is written, without a new ReplicaSet and without
// judging progress.
func (c *dc) sync(d *api.Deployment, rsList []*api.ReplicaSet) error {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	if err := c.scale(d, newRS, oldRSs); err != nil {
		return err
	}
	if d.Spec.Paused && getRollbackTo(d) == nil {
		if err := c.cleanupDeployment(oldRSs, d); err != nil {
			return err
		}
	}
	allRSs := append(oldRSs, newRS)
	return c.syncDeploymentStatus(allRSs, newRS, d)
}

// checkPausedConditions sets the Progressing condition to DeploymentPaused
// when d was paused, and to DeploymentResumed when it was resumed, unless d
// has no deadline or has already timed out.
func (c *dc) checkPausedConditions(d *api.Deployment) error {
	if !HasProgressDeadline(d) {
		return nil
	}
	cond := GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	if cond != nil && cond.Reason == TimedOutReason {
		return nil
	}
	pausedCond := cond != nil && cond.Reason == PausedDeployReason
	switch {
	case d.Spec.Paused && !pausedCond:
		c.setProgressing(&d.Status, api.ConditionUnknown, PausedDeployReason, "Deployment is paused")
		c.say("checkPausedConditions", "it was paused: Progressing becomes Unknown (DeploymentPaused); writing status", deployRef(d))
	case !d.Spec.Paused && pausedCond:
		c.setProgressing(&d.Status, api.ConditionUnknown, ResumedDeployReason, "Deployment is resumed")
		c.say("checkPausedConditions", "it was resumed: Progressing becomes Unknown (DeploymentResumed); writing status", deployRef(d))
	default:
		return nil
	}
	return c.updateDeploymentStatus(d)
}

// setProgressing sets the Progressing condition of status, as of now.
func (c *dc) setProgressing(status *api.DeploymentStatus, condStatus, reason, message string) {
	SetDeploymentCondition(status, NewDeploymentCondition(api.DeploymentProgressing, condStatus, reason, message, c.now()))
}

// getAllReplicaSetsAndSyncRevision returns d's new ReplicaSet (created if
// asked and missing) and all its old ones.
func (c *dc) getAllReplicaSetsAndSyncRevision(d *api.Deployment, rsList []*api.ReplicaSet, create bool) (*api.ReplicaSet, []*api.ReplicaSet, error) {
	_, allOld := FindOldReplicaSets(d, rsList)
	newRS, err := c.getNewReplicaSet(d, rsList, allOld, create)
	if err != nil {
		return nil, nil, err
	}
	return newRS, allOld, nil
}

// getNewReplicaSet returns the ReplicaSet whose template is d's (spec §3.3,
// §3.4). An existing one gets its revision (max old + 1), annotations and
// minReadySeconds brought up to date; if that changed it, the update is the
// whole of this call. Otherwise d's revision annotation and, the first time,
// its Progressing condition (FoundNewReplicaSet) follow it. A missing one is
// created when create is set: named d.name-hash, labelled and selected by
// the hash, at NewRSNewReplicas. A create that meets a ReplicaSet of that
// name which is not d's new one is a hash collision: collisionCount goes up
// and the next sync hashes again.
func (c *dc) getNewReplicaSet(d *api.Deployment, rsList, oldRSs []*api.ReplicaSet, create bool) (*api.ReplicaSet, error) {
	existing := FindNewReplicaSet(d, rsList)
	newRevision := strconv.FormatInt(MaxRevision(oldRSs)+1, 10)

	if existing != nil {
		rsCopy := existing.DeepCopy()
		annotationsUpdated := SetNewReplicaSetAnnotations(d, rsCopy, newRevision, true, maxRevHistoryLengthInChars)
		if annotationsUpdated || rsCopy.Spec.MinReadySeconds != d.Spec.MinReadySeconds {
			rsCopy.Spec.MinReadySeconds = d.Spec.MinReadySeconds
			c.say("getNewReplicaSet", "new ReplicaSet rs/"+rsCopy.Metadata.Name+" found; its revision ("+
				rsCopy.Metadata.Annotations[RevisionAnnotation]+"), annotations or minReadySeconds are behind: updating it", rsRef(rsCopy))
			return c.updateReplicaSet(rsCopy)
		}
		needsUpdate := SetDeploymentRevision(d, rsCopy.Metadata.Annotations[RevisionAnnotation])
		if HasProgressDeadline(d) && GetDeploymentCondition(d.Status, api.DeploymentProgressing) == nil {
			c.setProgressing(&d.Status, api.ConditionTrue, FoundNewRSReason, `Found new replica set "`+rsCopy.Metadata.Name+`"`)
			needsUpdate = true
		}
		if needsUpdate {
			c.say("getNewReplicaSet", "new ReplicaSet rs/"+rsCopy.Metadata.Name+" is at revision "+
				rsCopy.Metadata.Annotations[RevisionAnnotation]+": writing the Deployment's revision and Progressing condition", deployRef(d))
			if err := c.updateDeploymentStatus(d); err != nil {
				return nil, err
			}
		}
		return rsCopy, nil
	}
	if !create {
		return nil, nil
	}

	newRS := newReplicaSetFor(d)
	allRSs := append(oldRSs, newRS)
	count, why, err := newRSNewReplicas(d, allRSs, newRS)
	if err != nil {
		return nil, err
	}
	newRS.Spec.Replicas = &count
	SetNewReplicaSetAnnotations(d, newRS, newRevision, false, maxRevHistoryLengthInChars)

	c.say("getNewReplicaSet", "no ReplicaSet has the Deployment's template: creating rs/"+newRS.Metadata.Name+
		" (revision "+newRevision+") with "+itoa(count)+" replicas", rsRef(newRS), deployRef(d))
	created, err := c.createReplicaSet(newRS)
	alreadyExists := false
	switch {
	case suspended(err):
		return nil, err
	case apistore.IsAlreadyExists(err):
		alreadyExists = true
		rs, ok := c.cachedReplicaSet(newRS.Metadata.Namespace, newRS.Metadata.Name)
		if !ok {
			return nil, notFound("replicaset.apps", newRS.Metadata.Name)
		}
		if ref := api.GetControllerOf(&rs.Metadata); ref != nil && ref.UID == d.Metadata.UID && EqualIgnoreHash(&d.Spec.Template, &rs.Spec.Template) {
			c.say("getNewReplicaSet", "rs/"+rs.Metadata.Name+" already exists and is ours, with our template: it is the new ReplicaSet", rsRef(rs))
			created, err = rs, nil
			break
		}
		if d.Status.CollisionCount == nil {
			d.Status.CollisionCount = new(int32)
		}
		*d.Status.CollisionCount++
		c.say("getNewReplicaSet", "rs/"+rs.Metadata.Name+" already exists but is not ours: a hash collision; collisionCount becomes "+
			itoa(*d.Status.CollisionCount)+" so the next sync hashes to another name", deployRef(d))
		// Upstream only logs whether this write worked.
		if dErr := c.updateDeploymentStatus(d); suspended(dErr) {
			return nil, dErr
		}
		return nil, err
	case apistore.HasStatusCause(err, apistore.CauseTypeNamespaceTerminating):
		return nil, err
	case err != nil:
		msg := `Failed to create new replica set "` + newRS.Metadata.Name + `": ` + err.Error()
		if HasProgressDeadline(d) {
			c.setProgressing(&d.Status, api.ConditionFalse, FailedRSCreateReason, msg)
			c.say("getNewReplicaSet", "the create failed: Progressing becomes False (ReplicaSetCreateError)", deployRef(d))
			// Upstream ignores this write's error.
			if dErr := c.updateDeploymentStatus(d); suspended(dErr) {
				return nil, dErr
			}
		}
		c.event(d, api.EventWarning, FailedRSCreateReason, msg)
		return nil, err
	}
	if !alreadyExists && count > 0 {
		c.event(d, api.EventNormal, ScalingReplicaSetReason, "Scaled up replica set "+created.Metadata.Name+" to "+itoa(count))
		c.scaled(Scale{ReplicaSet: created.Metadata.Name, From: 0, To: count, By: "getNewReplicaSet",
			Why: "created for the new template: " + why})
	}
	needsUpdate := SetDeploymentRevision(d, newRevision)
	if !alreadyExists && HasProgressDeadline(d) {
		c.setProgressing(&d.Status, api.ConditionTrue, NewReplicaSetReason, `Created new replica set "`+created.Metadata.Name+`"`)
		needsUpdate = true
	}
	if needsUpdate {
		c.say("getNewReplicaSet", "writing the Deployment's revision ("+newRevision+") and Progressing condition", deployRef(d))
		err = c.updateDeploymentStatus(d)
	}
	return created, err
}

// newReplicaSetFor builds the ReplicaSet for d's template, at 0 replicas:
// named d.name-hash, controlled by d, its labels, selector and template
// labels d's with pod-template-hash added (d's own are not changed).
func newReplicaSetFor(d *api.Deployment) *api.ReplicaSet {
	template := *d.Spec.Template.DeepCopy()
	hash := ComputeHash(&template, d.Status.CollisionCount)
	template.Metadata.Labels = withLabel(d.Spec.Template.Metadata.Labels, hash)
	selector := d.Spec.Selector.DeepCopy()
	selector.MatchLabels = withLabel(selector.MatchLabels, hash)
	rs := &api.ReplicaSet{Spec: api.ReplicaSetSpec{Replicas: new(int32), MinReadySeconds: d.Spec.MinReadySeconds,
		Selector: selector, Template: template}}
	rs.Metadata.Name, rs.Metadata.Namespace, rs.Metadata.Labels = d.Metadata.Name+"-"+hash, d.Metadata.Namespace, template.Metadata.Labels
	rs.Metadata.OwnerReferences = []api.OwnerReference{api.NewControllerRef(&d.Metadata, "apps/v1", string(api.KindDeployment))}
	return rs
}

// withLabel returns a copy of labels with pod-template-hash set to hash.
func withLabel(labels map[string]string, hash string) map[string]string {
	out := maps.Clone(labels)
	if out == nil {
		out = map[string]string{}
	}
	out[PodTemplateHashLabel] = hash
	return out
}

// scale spreads d's spec.replicas over its ReplicaSets (spec §6.1): all of
// them to the one active ReplicaSet if there is one; old ones to zero when
// the new one is saturated; otherwise, for a RollingUpdate, the difference
// to replicas + maxSurge is shared in proportion to each active
// ReplicaSet's size, the leftover going to the largest.
func (c *dc) scale(d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) error {
	want := replicasOf(d.Spec.Replicas)
	if rs := FindActiveOrLatest(newRS, oldRSs); rs != nil {
		if replicasOf(rs.Spec.Replicas) == want {
			return nil
		}
		_, _, err := c.scaleReplicaSetAndRecordEvent(rs, want, d, reason{"scale",
			"a scaling event: the one active ReplicaSet takes all " + itoa(want) + " replicas"})
		return err
	}
	if IsSaturated(d, newRS) {
		why := reason{"scale", "a scaling event: the new ReplicaSet has all " + itoa(want) + " replicas available, so the old ones go to 0"}
		for _, old := range FilterActiveReplicaSets(oldRSs) {
			if _, _, err := c.scaleReplicaSetAndRecordEvent(old, 0, d, why); err != nil {
				return err
			}
		}
		return nil
	}
	if !IsRollingUpdate(d) {
		return nil
	}
	allRSs := FilterActiveReplicaSets(append(oldRSs, newRS))
	total := GetReplicaCountForReplicaSets(allRSs)
	allowed := int32(0)
	if want > 0 {
		allowed = want + MaxSurge(d)
	}
	toAdd := allowed - total
	op := ""
	switch {
	case toAdd > 0:
		slices.SortFunc(allRSs, bySizeNewer)
		op = "up"
	case toAdd < 0:
		slices.SortFunc(allRSs, bySizeOlder)
		op = "down"
	}
	sizes := make(map[string]int32, len(allRSs))
	added := int32(0)
	for _, rs := range allRSs {
		if toAdd != 0 {
			p := GetProportion(rs, d, toAdd, added)
			sizes[rs.Metadata.Name] = replicasOf(rs.Spec.Replicas) + p
			added += p
		} else {
			sizes[rs.Metadata.Name] = replicasOf(rs.Spec.Replicas)
		}
	}
	// The words say added or removed, not a signed number: "-6 replicas
	// shared among" reads as nonsense.
	change, bound, rest := "added, shared among", "up to", "the rest to the largest"
	if toAdd < 0 {
		change, bound, rest = "removed, taken from", "down to", "the rest from the largest"
	}
	n := itoa(max(toAdd, -toAdd))
	if toAdd != 0 {
		c.say("scale", "proportional scaling: "+n+" replicas "+change+" the "+strconv.Itoa(len(allRSs))+
			" active ReplicaSets, "+bound+" "+itoa(allowed)+" (replicas + maxSurge)", deployRef(d))
	}
	why := reason{"scale", "a scaling event: " + n + " replicas " + change + " the " + strconv.Itoa(len(allRSs)) +
		" active ReplicaSets in proportion to their sizes, " + bound + " " + itoa(allowed) + " (replicas + maxSurge), " + rest}
	for i, rs := range allRSs {
		if i == 0 && toAdd != 0 {
			sizes[rs.Metadata.Name] = max(sizes[rs.Metadata.Name]+toAdd-added, 0)
		}
		if _, _, err := c.scaleReplicaSet(rs, sizes[rs.Metadata.Name], d, op, why); err != nil {
			return err
		}
	}
	return nil
}

// scaleReplicaSetAndRecordEvent scales rs to n unless it is there already;
// why is the caller's reason, for the sync's record.
func (c *dc) scaleReplicaSetAndRecordEvent(rs *api.ReplicaSet, n int32, d *api.Deployment, why reason) (bool, *api.ReplicaSet, error) {
	if replicasOf(rs.Spec.Replicas) == n {
		return false, rs, nil
	}
	op := "down"
	if replicasOf(rs.Spec.Replicas) < n {
		op = "up"
	}
	return c.scaleReplicaSet(rs, n, d, op, why)
}

// scaleReplicaSet writes rs's spec.replicas and its desired- and
// max-replicas annotations when either is behind; a change of size is
// recorded as a ScalingReplicaSet event, and in the sync's record with why
// it was made. The answer of the update replaces rs.
func (c *dc) scaleReplicaSet(rs *api.ReplicaSet, n int32, d *api.Deployment, op string, why reason) (bool, *api.ReplicaSet, error) {
	old := replicasOf(rs.Spec.Replicas)
	want := replicasOf(d.Spec.Replicas)
	sizeNeedsUpdate := old != n
	annotationsNeedUpdate := ReplicasAnnotationsNeedUpdate(rs, want, want+MaxSurge(d))
	if !sizeNeedsUpdate && !annotationsNeedUpdate {
		return false, rs, nil
	}
	rsCopy := rs.DeepCopy()
	rsCopy.Spec.Replicas = &n
	SetReplicasAnnotations(rsCopy, want, want+MaxSurge(d))
	if sizeNeedsUpdate {
		c.say("scaleReplicaSet", "scaling "+op+" rs/"+rs.Metadata.Name+" from "+itoa(old)+" to "+itoa(n), rsRef(rs))
	} else {
		c.say("scaleReplicaSet", "rs/"+rs.Metadata.Name+" keeps "+itoa(n)+" replicas; updating its desired- and max-replicas annotations", rsRef(rs))
	}
	updated, err := c.updateReplicaSet(rsCopy)
	if err != nil {
		return false, updated, err
	}
	if sizeNeedsUpdate {
		c.event(d, api.EventNormal, ScalingReplicaSetReason, "Scaled "+op+" replica set "+updated.Metadata.Name+" to "+itoa(n)+" from "+itoa(old))
		c.scaled(Scale{ReplicaSet: updated.Metadata.Name, From: old, To: n, By: why.by, Why: why.why})
	}
	return sizeNeedsUpdate, updated, nil
}

// cleanupDeployment deletes the oldest old ReplicaSets beyond
// revisionHistoryLimit, skipping any that still has or wants pods, whose
// latest spec its controller has not seen, or that is being deleted. A
// skipped one is not made up for by looking further.
func (c *dc) cleanupDeployment(oldRSs []*api.ReplicaSet, d *api.Deployment) error {
	if !HasRevisionHistoryLimit(d) {
		return nil
	}
	var cleanable []*api.ReplicaSet
	for _, rs := range oldRSs {
		if rs != nil && rs.Metadata.DeletionTimestamp == nil {
			cleanable = append(cleanable, rs)
		}
	}
	diff := int32(len(cleanable)) - *d.Spec.RevisionHistoryLimit
	if diff <= 0 {
		return nil
	}
	slices.SortFunc(cleanable, byRevision)
	for _, rs := range cleanable[:diff] {
		if rs.Status.Replicas != 0 || replicasOf(rs.Spec.Replicas) != 0 || rs.Metadata.Generation > rs.Status.ObservedGeneration ||
			rs.Metadata.DeletionTimestamp != nil {
			continue
		}
		c.say("cleanupDeployment", "more old ReplicaSets than revisionHistoryLimit ("+itoa(*d.Spec.RevisionHistoryLimit)+
			"): deleting rs/"+rs.Metadata.Name+", the oldest", rsRef(rs))
		if err := c.deleteReplicaSet(rs.Metadata.Namespace, rs.Metadata.Name); err != nil && !apistore.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// syncDeploymentStatus writes d's status as its ReplicaSets show it, unless
// nothing changed. It leaves the Progressing condition as it is.
func (c *dc) syncDeploymentStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) error {
	newStatus := calculateStatus(allRSs, newRS, d, c.now())
	if statusEqual(d.Status, newStatus) {
		c.say("syncDeploymentStatus", "status unchanged, not written", deployRef(d))
		return nil
	}
	d.Status = newStatus
	c.say("syncDeploymentStatus", "writing status "+statusWords(newStatus), deployRef(d))
	return c.updateDeploymentStatus(d)
}

// calculateStatus sums d's ReplicaSets into its status (spec §7.1) and sets
// the Available condition: True when at least replicas − maxUnavailable
// pods are available. The other conditions are d's, copied.
func calculateStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment, now time.Time) api.DeploymentStatus {
	available := GetAvailableReplicaCountForReplicaSets(allRSs)
	total := GetReplicaCountForReplicaSets(allRSs)
	status := api.DeploymentStatus{
		ObservedGeneration:  d.Metadata.Generation,
		Replicas:            GetActualReplicaCountForReplicaSets(allRSs),
		UpdatedReplicas:     GetActualReplicaCountForReplicaSets([]*api.ReplicaSet{newRS}),
		ReadyReplicas:       GetReadyReplicaCountForReplicaSets(allRSs),
		AvailableReplicas:   available,
		UnavailableReplicas: max(total-available, 0),
		CollisionCount:      d.Status.CollisionCount,
	}
	status.Conditions = append(status.Conditions, d.Status.Conditions...)
	if available >= replicasOf(d.Spec.Replicas)-MaxUnavailable(d) {
		SetDeploymentCondition(&status, NewDeploymentCondition(api.DeploymentAvailable, api.ConditionTrue,
			MinimumReplicasAvailable, "Deployment has minimum availability.", now))
	} else {
		SetDeploymentCondition(&status, NewDeploymentCondition(api.DeploymentAvailable, api.ConditionFalse,
			MinimumReplicasUnavailable, "Deployment does not have minimum availability.", now))
	}
	return status
}

// statusEqual compares two statuses as upstream's reflect.DeepEqual does: a
// nil condition list differs from an empty one, collisionCount by value,
// times by their exact representation.
func statusEqual(a, b api.DeploymentStatus) bool {
	if a.ObservedGeneration != b.ObservedGeneration || a.Replicas != b.Replicas || a.UpdatedReplicas != b.UpdatedReplicas ||
		a.ReadyReplicas != b.ReadyReplicas || a.AvailableReplicas != b.AvailableReplicas ||
		a.UnavailableReplicas != b.UnavailableReplicas {
		return false
	}
	if (a.CollisionCount == nil) != (b.CollisionCount == nil) || (a.CollisionCount != nil && *a.CollisionCount != *b.CollisionCount) {
		return false
	}
	if (a.Conditions == nil) != (b.Conditions == nil) || len(a.Conditions) != len(b.Conditions) {
		return false
	}
	for i := range a.Conditions {
		x, y := &a.Conditions[i], &b.Conditions[i]
		if x.Type != y.Type || x.Status != y.Status || x.LastUpdateTime != y.LastUpdateTime ||
			x.LastTransitionTime != y.LastTransitionTime || x.Reason != y.Reason || x.Message != y.Message {
			return false
		}
	}
	return true
}

// statusWords says what a status counts, for the trace.
func statusWords(s api.DeploymentStatus) string {
	out := "replicas=" + itoa(s.Replicas) + " updated=" + itoa(s.UpdatedReplicas) + " ready=" + itoa(s.ReadyReplicas) +
		" available=" + itoa(s.AvailableReplicas)
	for _, c := range s.Conditions {
		out += " " + c.Type + "=" + c.Status
		if c.Reason != "" {
			out += " (" + c.Reason + ")"
		}
	}
	return out
}

// isScalingEvent says whether d's spec.replicas differs from the
// desired-replicas annotation of one of its active ReplicaSets: it was
// scaled, which a sync handles without a rollout. Finding the ReplicaSets
// may already write the new one's annotations or d's revision.
func (c *dc) isScalingEvent(d *api.Deployment, rsList []*api.ReplicaSet) (bool, error) {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return false, err
	}
	allRSs := append(oldRSs, newRS)
	for _, rs := range FilterActiveReplicaSets(allRSs) {
		desired, ok := GetDesiredReplicasAnnotation(rs)
		if !ok {
			continue
		}
		if desired != replicasOf(d.Spec.Replicas) {
			return true, nil
		}
	}
	return false, nil
}
