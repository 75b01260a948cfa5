package deployment

import (
	"errors"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/labels"
)

// This file holds the Deployment controller's helpers: the annotations it
// keeps on ReplicaSets, revisions, the conditions it writes, the fenceposts
// of a rolling update, proportions for scaling, and the sort orders. They
// model upstream's pkg/controller/deployment/util/deployment_util.go (and the
// ReplicaSet sort helpers of pkg/controller/controller_utils.go) at
// Kubernetes v1.31, rule for rule; where a rule differs, its comment says so.

// Annotations the controller reads and writes.
const (
	// RevisionAnnotation is a ReplicaSet's place in the rollout sequence; on
	// the Deployment it copies the current ReplicaSet's.
	RevisionAnnotation = "deployment.kubernetes.io/revision"
	// RevisionHistoryAnnotation lists, comma-separated, the older revisions
	// a ReplicaSet has served (a rollback makes an old ReplicaSet new again).
	RevisionHistoryAnnotation = "deployment.kubernetes.io/revision-history"
	// DesiredReplicasAnnotation is the Deployment's spec.replicas when the
	// controller last sized the ReplicaSet: a different value now means the
	// Deployment was scaled.
	DesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"
	// MaxReplicasAnnotation is spec.replicas + maxSurge at that time: the
	// denominator of proportional scaling.
	MaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas"
	// RollbackToAnnotation is where apps/v1 keeps the deprecated
	// spec.rollbackTo of the beta APIs: a revision to roll back to.
	RollbackToAnnotation = "deprecated.deployment.rollback.to"
	// lastAppliedAnnotation is kubectl apply's record, never copied to a
	// ReplicaSet.
	lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
	// PodTemplateHashLabel is the label that tells one ReplicaSet's pods
	// from another's.
	PodTemplateHashLabel = "pod-template-hash"
	// maxRevHistoryLengthInChars bounds the revision-history annotation.
	maxRevHistoryLengthInChars = 2000
)

// The reasons of the controller's conditions and events.
const (
	RollbackRevisionNotFound   = "DeploymentRollbackRevisionNotFound"
	RollbackTemplateUnchanged  = "DeploymentRollbackTemplateUnchanged"
	RollbackDone               = "DeploymentRollback"
	ReplicaSetUpdatedReason    = "ReplicaSetUpdated"
	FailedRSCreateReason       = "ReplicaSetCreateError"
	NewReplicaSetReason        = "NewReplicaSetCreated"
	FoundNewRSReason           = "FoundNewReplicaSet"
	NewRSAvailableReason       = "NewReplicaSetAvailable"
	TimedOutReason             = "ProgressDeadlineExceeded"
	PausedDeployReason         = "DeploymentPaused"
	ResumedDeployReason        = "DeploymentResumed"
	MinimumReplicasAvailable   = "MinimumReplicasAvailable"
	MinimumReplicasUnavailable = "MinimumReplicasUnavailable"
	ScalingReplicaSetReason    = "ScalingReplicaSet"
	SelectingAllReason         = "SelectingAll"
)

// Conditions.

// NewDeploymentCondition returns a condition whose two times are now.
func NewDeploymentCondition(condType, status, reason, message string, now time.Time) api.DeploymentCondition {
	return api.DeploymentCondition{Type: condType, Status: status, LastUpdateTime: api.NewTime(now),
		LastTransitionTime: api.NewTime(now), Reason: reason, Message: message}
}

// GetDeploymentCondition returns a copy of the status's condition of that
// type, or nil.
func GetDeploymentCondition(status api.DeploymentStatus, condType string) *api.DeploymentCondition {
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

// SetDeploymentCondition puts c into the status. A condition of its type
// with the same status and reason is left alone, times and message
// included: it records when something started. One with the same status and
// another reason gives c its lastTransitionTime, since the status did not
// transition. Either way the old condition goes and c is appended last.
func SetDeploymentCondition(status *api.DeploymentStatus, c api.DeploymentCondition) {
	cur := GetDeploymentCondition(*status, c.Type)
	if cur != nil && cur.Status == c.Status && cur.Reason == c.Reason {
		return
	}
	if cur != nil && cur.Status == c.Status {
		c.LastTransitionTime = cur.LastTransitionTime
	}
	status.Conditions = append(filterOutCondition(status.Conditions, c.Type), c)
}

// RemoveDeploymentCondition drops the status's conditions of that type.
func RemoveDeploymentCondition(status *api.DeploymentStatus, condType string) {
	status.Conditions = filterOutCondition(status.Conditions, condType)
}

// filterOutCondition returns a new slice without the conditions of condType,
// nil when none is left, so that a status is never written through a slice
// it shares with the cache.
func filterOutCondition(conds []api.DeploymentCondition, condType string) []api.DeploymentCondition {
	var out []api.DeploymentCondition
	for _, c := range conds {
		if c.Type != condType {
			out = append(out, c)
		}
	}
	return out
}

// ReplicaSetToDeploymentCondition turns a ReplicaSet's condition into the
// Deployment's, both times being the ReplicaSet's transition time.
func ReplicaSetToDeploymentCondition(c api.ReplicaSetCondition) api.DeploymentCondition {
	return api.DeploymentCondition{Type: c.Type, Status: c.Status, LastTransitionTime: c.LastTransitionTime,
		LastUpdateTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message}
}

// Revisions.

// SetDeploymentRevision writes the Deployment's revision annotation and says
// whether it changed.
func SetDeploymentRevision(d *api.Deployment, revision string) bool {
	if d.Metadata.Annotations == nil {
		d.Metadata.Annotations = map[string]string{}
	}
	if d.Metadata.Annotations[RevisionAnnotation] == revision {
		return false
	}
	d.Metadata.Annotations[RevisionAnnotation] = revision
	return true
}

// Revision parses an object's revision annotation; a missing one is 0.
func Revision(m *api.ObjectMeta) (int64, error) {
	v, ok := m.Annotations[RevisionAnnotation]
	if !ok {
		return 0, nil
	}
	return strconv.ParseInt(v, 10, 64)
}

// MaxRevision is the highest parsable revision among rss (0 for none).
func MaxRevision(rss []*api.ReplicaSet) int64 {
	var top int64
	for _, rs := range rss {
		if v, err := Revision(&rs.Metadata); err == nil && v > top {
			top = v
		}
	}
	return top
}

// LastRevision is the second-highest parsable revision among rss: the one a
// rollback to "the previous revision" goes to.
func LastRevision(rss []*api.ReplicaSet) int64 {
	var top, second int64
	for _, rs := range rss {
		v, err := Revision(&rs.Metadata)
		switch {
		case err != nil:
		case v >= top:
			second, top = top, v
		case v > second:
			second = v
		}
	}
	return second
}

// annotationsToSkip are never copied from a Deployment to its ReplicaSets,
// and survive a rollback on the Deployment.
func skipCopyAnnotation(key string) bool {
	switch key {
	case lastAppliedAnnotation, RevisionAnnotation, RevisionHistoryAnnotation, DesiredReplicasAnnotation,
		MaxReplicasAnnotation, RollbackToAnnotation:
		return true
	}
	return false
}

// SetNewReplicaSetAnnotations brings the annotations of rs, the new
// ReplicaSet of d, up to date and says whether they changed: d's own
// annotations are copied, the revision is raised to newRevision (the old one
// joins the revision history, within limit characters), and a ReplicaSet
// about to be created (!exists) gets the desired- and max-replicas
// annotations. An unparsable revision on rs, or an unparsable newRevision,
// stops it with only the copied annotations changed, reporting no change, as
// upstream does.
func SetNewReplicaSetAnnotations(d *api.Deployment, rs *api.ReplicaSet, newRevision string, exists bool, limit int) bool {
	changed := copyDeploymentAnnotationsToReplicaSet(d, rs)
	if rs.Metadata.Annotations == nil {
		rs.Metadata.Annotations = map[string]string{}
	}
	old, had := rs.Metadata.Annotations[RevisionAnnotation]
	oldRev, err := strconv.ParseInt(old, 10, 64)
	if err != nil {
		if old != "" {
			return false
		}
		oldRev = 0
	}
	newRev, err := strconv.ParseInt(newRevision, 10, 64)
	if err != nil {
		return false
	}
	if oldRev < newRev {
		rs.Metadata.Annotations[RevisionAnnotation] = newRevision
		changed = true
		if had {
			appendRevisionHistory(rs.Metadata.Annotations, old, limit)
		}
	}
	if !exists && SetReplicasAnnotations(rs, replicasOf(d.Spec.Replicas), replicasOf(d.Spec.Replicas)+MaxSurge(d)) {
		changed = true
	}
	return changed
}

// appendRevisionHistory adds old to the revision-history annotation,
// dropping the oldest entries until the whole fits in limit characters; if
// even old alone cannot fit, nothing is added.
func appendRevisionHistory(ann map[string]string, old string, limit int) {
	history := ann[RevisionHistoryAnnotation]
	entries := strings.Split(history, ",")
	if entries[0] == "" {
		ann[RevisionHistoryAnnotation] = old
		return
	}
	total := len(history) + len(old) + 1
	start := 0
	for total > limit && start < len(entries) {
		total -= len(entries[start]) + 1
		start++
	}
	if total <= limit {
		ann[RevisionHistoryAnnotation] = strings.Join(append(entries[start:], old), ",")
	}
}

// copyDeploymentAnnotationsToReplicaSet copies every annotation of d that is
// not skipped and that rs lacks or holds with another value. Keys are
// visited in sorted order, which changes nothing but makes the walk
// deterministic.
func copyDeploymentAnnotationsToReplicaSet(d *api.Deployment, rs *api.ReplicaSet) bool {
	changed := false
	if rs.Metadata.Annotations == nil {
		rs.Metadata.Annotations = map[string]string{}
	}
	for _, k := range sortedKeys(d.Metadata.Annotations) {
		v := d.Metadata.Annotations[k]
		if cur, ok := rs.Metadata.Annotations[k]; skipCopyAnnotation(k) || (ok && cur == v) {
			continue
		}
		rs.Metadata.Annotations[k] = v
		changed = true
	}
	return changed
}

// SetDeploymentAnnotationsTo gives d the annotations of the ReplicaSet it
// rolls back to, keeping its own skipped ones.
func SetDeploymentAnnotationsTo(d *api.Deployment, rs *api.ReplicaSet) {
	kept := map[string]string{}
	for _, k := range sortedKeys(d.Metadata.Annotations) {
		if skipCopyAnnotation(k) {
			kept[k] = d.Metadata.Annotations[k]
		}
	}
	for _, k := range sortedKeys(rs.Metadata.Annotations) {
		if !skipCopyAnnotation(k) {
			kept[k] = rs.Metadata.Annotations[k]
		}
	}
	d.Metadata.Annotations = kept
}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}

// Replica annotations.

// GetDesiredReplicasAnnotation reads the desired-replicas annotation.
func GetDesiredReplicasAnnotation(rs *api.ReplicaSet) (int32, bool) {
	return intFromAnnotation(rs, DesiredReplicasAnnotation)
}

func getMaxReplicasAnnotation(rs *api.ReplicaSet) (int32, bool) {
	return intFromAnnotation(rs, MaxReplicasAnnotation)
}

// intFromAnnotation parses an annotation as v1.31 does, with Atoi and a
// plain conversion to int32.
func intFromAnnotation(rs *api.ReplicaSet, key string) (int32, bool) {
	v, ok := rs.Metadata.Annotations[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, false
	}
	return int32(n), true
}

// SetReplicasAnnotations writes the desired- and max-replicas annotations
// and says whether either changed.
func SetReplicasAnnotations(rs *api.ReplicaSet, desired, maxReplicas int32) bool {
	if rs.Metadata.Annotations == nil {
		rs.Metadata.Annotations = map[string]string{}
	}
	changed := false
	for _, kv := range [2][2]string{{DesiredReplicasAnnotation, itoa(desired)}, {MaxReplicasAnnotation, itoa(maxReplicas)}} {
		if rs.Metadata.Annotations[kv[0]] != kv[1] {
			rs.Metadata.Annotations[kv[0]] = kv[1]
			changed = true
		}
	}
	return changed
}

// ReplicasAnnotationsNeedUpdate says whether SetReplicasAnnotations would
// change anything (a ReplicaSet without annotations always needs them).
func ReplicasAnnotationsNeedUpdate(rs *api.ReplicaSet, desired, maxReplicas int32) bool {
	a := rs.Metadata.Annotations
	return a == nil || a[DesiredReplicasAnnotation] != itoa(desired) || a[MaxReplicasAnnotation] != itoa(maxReplicas)
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }

// Fenceposts.

// IsRollingUpdate says whether d rolls gradually.
func IsRollingUpdate(d *api.Deployment) bool {
	return d.Spec.Strategy.Type == api.RollingUpdateDeploymentStrategy
}

func rollingParams(d *api.Deployment) (surge, unavailable *api.IntOrString) {
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		return ru.MaxSurge, ru.MaxUnavailable
	}
	return nil, nil
}

// MaxUnavailable is how many of d's replicas may be unavailable during a
// rolling update: 0 for Recreate or zero replicas, else the resolved value,
// at most spec.replicas.
func MaxUnavailable(d *api.Deployment) int32 {
	want := replicasOf(d.Spec.Replicas)
	if !IsRollingUpdate(d) || want == 0 {
		return 0
	}
	surge, unavailable := rollingParams(d)
	_, u, _ := ResolveFenceposts(surge, unavailable, want)
	return min(u, want)
}

// MinAvailable is how many of d's replicas must stay available: 0 for
// Recreate.
func MinAvailable(d *api.Deployment) int32 {
	if !IsRollingUpdate(d) {
		return 0
	}
	return replicasOf(d.Spec.Replicas) - MaxUnavailable(d)
}

// MaxSurge is how many pods above spec.replicas d may have: 0 for Recreate.
func MaxSurge(d *api.Deployment) int32 {
	if !IsRollingUpdate(d) {
		return 0
	}
	surge, unavailable := rollingParams(d)
	s, _, _ := ResolveFenceposts(surge, unavailable, replicasOf(d.Spec.Replicas))
	return s
}

// ResolveFenceposts turns maxSurge and maxUnavailable into numbers of pods
// for desired replicas: a percentage of surge rounds up, one of
// unavailability down, a nil value is 0, and when both come out 0
// unavailability is 1, so that a rollout whose surge is blocked (by a quota)
// still moves.
func ResolveFenceposts(maxSurge, maxUnavailable *api.IntOrString, desired int32) (int32, int32, error) {
	zero := api.FromInt(0)
	if maxSurge == nil {
		maxSurge = &zero
	}
	if maxUnavailable == nil {
		maxUnavailable = &zero
	}
	surge, err := GetScaledValueFromIntOrPercent(maxSurge, int(desired), true)
	if err != nil {
		return 0, 0, err
	}
	unavailable, err := GetScaledValueFromIntOrPercent(maxUnavailable, int(desired), false)
	if err != nil {
		return 0, 0, err
	}
	if surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return int32(surge), int32(unavailable), nil
}

// GetScaledValueFromIntOrPercent is apimachinery's function of that name: an
// integer is itself; a string must be a percentage ("25%") of total, rounded
// up or down. Its errors read as upstream's.
func GetScaledValueFromIntOrPercent(v *api.IntOrString, total int, roundUp bool) (int, error) {
	if v == nil {
		return 0, errors.New("nil value for IntOrString")
	}
	if !v.IsString {
		return int(v.IntVal), nil
	}
	s, ok := strings.CutSuffix(v.StrVal, "%")
	if !ok {
		return 0, errors.New("invalid value for IntOrString: invalid type: string is not a percentage")
	}
	p, err := strconv.Atoi(s)
	if err != nil {
		return 0, errors.New("invalid value for IntOrString: invalid value " + strconv.Quote(v.StrVal) + ": " + err.Error())
	}
	f := float64(p) * float64(total) / 100
	if roundUp {
		return int(math.Ceil(f)), nil
	}
	return int(math.Floor(f)), nil
}

// NewRSNewReplicas is the size the new ReplicaSet of d may have now, among
// allRSs. RollingUpdate: as close to spec.replicas as the surge allows, the
// pods of every ReplicaSet counted; Recreate: spec.replicas.
func NewRSNewReplicas(d *api.Deployment, allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) (int32, error) {
	n, _, err := newRSNewReplicas(d, allRSs, newRS)
	return n, err
}

// newRSNewReplicas is NewRSNewReplicas, and why the new ReplicaSet gets
// that size: its rule, with the numbers it used, in words.
func newRSNewReplicas(d *api.Deployment, allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) (int32, string, error) {
	want := replicasOf(d.Spec.Replicas)
	switch d.Spec.Strategy.Type {
	case api.RollingUpdateDeploymentStrategy:
		surge, _ := rollingParams(d)
		maxSurge, err := GetScaledValueFromIntOrPercent(surge, int(want), true)
		if err != nil {
			return 0, "", err
		}
		current := GetReplicaCountForReplicaSets(allRSs)
		maxTotal := want + int32(maxSurge)
		have := replicasOf(newRS.Spec.Replicas)
		allowed := itoa(maxTotal) + " pods may be wanted in all (replicas " + itoa(want) + " + maxSurge " + strconv.Itoa(maxSurge) +
			") and the ReplicaSets wanted " + itoa(current)
		if current >= maxTotal {
			return have, allowed + ": no room for more", nil
		}
		up := min(maxTotal-current, want-have)
		why := allowed + ": room for " + itoa(maxTotal-current) + " more"
		if up < maxTotal-current {
			why += ", of which the new ReplicaSet needs " + itoa(up) + " to reach " + itoa(want)
		}
		return have + up, why, nil
	case api.RecreateDeploymentStrategy:
		return want, "Recreate: the new ReplicaSet gets all " + itoa(want) + " replicas at once", nil
	}
	return 0, "", errors.New("deployment type " + d.Spec.Strategy.Type + " isn't supported")
}

// IsSaturated says whether rs, the new ReplicaSet, has all of d's replicas,
// sized for d's present spec.replicas and all available.
func IsSaturated(d *api.Deployment, rs *api.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	desired, err := strconv.Atoi(rs.Metadata.Annotations[DesiredReplicasAnnotation])
	if err != nil {
		return false
	}
	want := replicasOf(d.Spec.Replicas)
	return replicasOf(rs.Spec.Replicas) == want && int32(desired) == want && rs.Status.AvailableReplicas == want
}

// Proportions.

// GetProportion is how many replicas rs gains (or loses) when a scaling of d
// adds toAdd replicas in all, added of them handed out already: its
// fraction, within what is left.
func GetProportion(rs *api.ReplicaSet, d *api.Deployment, toAdd, added int32) int32 {
	if rs == nil || replicasOf(rs.Spec.Replicas) == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	f := getReplicaSetFraction(rs, d)
	allowed := toAdd - added
	if toAdd > 0 {
		return min(f, allowed)
	}
	return max(f, allowed)
}

// getReplicaSetFraction is rs's share of a scaling of d:
// round(spec · (replicas+maxSurge) / maxReplicasBefore) − spec, the
// denominator being rs's max-replicas annotation, or d's status.replicas
// without one; all of it when d goes to zero.
//
// v1.31 divides by the denominator even when it is 0, and then converts an
// infinite or undefined float to int32, which Go leaves to the platform
// (natively and in WebAssembly the answers differ). Like later releases, a
// 0 annotation falls back to status.replicas here, and a 0 there means no
// share.
func getReplicaSetFraction(rs *api.ReplicaSet, d *api.Deployment) int32 {
	spec := replicasOf(rs.Spec.Replicas)
	if replicasOf(d.Spec.Replicas) == 0 {
		return -spec
	}
	target := replicasOf(d.Spec.Replicas) + MaxSurge(d)
	before, ok := getMaxReplicasAnnotation(rs)
	if !ok || before == 0 {
		before = d.Status.Replicas
	}
	if before == 0 {
		return 0
	}
	return int32(math.Round(float64(spec*target)/float64(before))) - spec
}

// Finding ReplicaSets.

// EqualIgnoreHash compares two pod templates as the API's semantic equality
// does, ignoring the pod-template-hash label. Neither is changed.
func EqualIgnoreHash(t1, t2 *api.PodTemplateSpec) bool {
	a, b := *t1, *t2
	a.Metadata.Labels = withoutKey(t1.Metadata.Labels, PodTemplateHashLabel)
	b.Metadata.Labels = withoutKey(t2.Metadata.Labels, PodTemplateHashLabel)
	return apistore.EqualPodTemplates(&a, &b)
}

// withoutKey returns m without key, copying only when key is there.
func withoutKey(m map[string]string, key string) map[string]string {
	if _, ok := m[key]; !ok {
		return m
	}
	out := maps.Clone(m)
	delete(out, key)
	return out
}

// FindNewReplicaSet sorts rsList in place, oldest first, and returns the
// first whose template is d's: with duplicates, the oldest wins.
func FindNewReplicaSet(d *api.Deployment, rsList []*api.ReplicaSet) *api.ReplicaSet {
	slices.SortFunc(rsList, byCreationTimestamp)
	for _, rs := range rsList {
		if EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			return rs
		}
	}
	return nil
}

// FindOldReplicaSets returns the ReplicaSets of rsList that are not d's new
// one: those with replicas, and all of them.
func FindOldReplicaSets(d *api.Deployment, rsList []*api.ReplicaSet) (required, all []*api.ReplicaSet) {
	newRS := FindNewReplicaSet(d, rsList)
	for _, rs := range rsList {
		if newRS != nil && rs.Metadata.UID == newRS.Metadata.UID {
			continue
		}
		all = append(all, rs)
		if replicasOf(rs.Spec.Replicas) != 0 {
			required = append(required, rs)
		}
	}
	return required, all
}

// FindActiveOrLatest returns the one ReplicaSet with replicas among newRS
// and oldRSs; with none, newRS or else the newest old one; with several,
// nil. It sorts oldRSs in place, newest first.
func FindActiveOrLatest(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) *api.ReplicaSet {
	if newRS == nil && len(oldRSs) == 0 {
		return nil
	}
	slices.SortFunc(oldRSs, func(a, b *api.ReplicaSet) int { return byCreationTimestamp(b, a) })
	active := FilterActiveReplicaSets(append(slices.Clip(oldRSs), newRS))
	switch len(active) {
	case 0:
		if newRS != nil {
			return newRS
		}
		return oldRSs[0]
	case 1:
		return active[0]
	}
	return nil
}

// SetFromReplicaSetTemplate copies a ReplicaSet's template into d, without
// its pod-template-hash label.
func SetFromReplicaSetTemplate(d *api.Deployment, t api.PodTemplateSpec) {
	d.Spec.Template = *t.DeepCopy()
	if d.Spec.Template.Metadata.Labels != nil {
		delete(d.Spec.Template.Metadata.Labels, PodTemplateHashLabel)
	}
}

// FilterActiveReplicaSets keeps the ReplicaSets that are not nil and have
// replicas.
func FilterActiveReplicaSets(rss []*api.ReplicaSet) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, rs := range rss {
		if rs != nil && replicasOf(rs.Spec.Replicas) > 0 {
			out = append(out, rs)
		}
	}
	return out
}

// ListReplicaSets returns the ReplicaSets among all that d's selector
// matches and d controls.
func ListReplicaSets(d *api.Deployment, all []*api.ReplicaSet) ([]*api.ReplicaSet, error) {
	sel, err := labels.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, err
	}
	var owned []*api.ReplicaSet
	for _, rs := range all {
		if ref := api.GetControllerOf(&rs.Metadata); ref != nil && ref.UID == d.Metadata.UID && sel.Matches(rs.Metadata.Labels) {
			owned = append(owned, rs)
		}
	}
	return owned, nil
}

// GetDeploymentsForReplicaSet returns the Deployments among ds (those of
// rs's namespace) whose non-empty selectors match rs's labels.
func GetDeploymentsForReplicaSet(ds []*api.Deployment, rs *api.ReplicaSet) ([]*api.Deployment, error) {
	if len(rs.Metadata.Labels) == 0 {
		return nil, errors.New("no deployments found for ReplicaSet " + rs.Metadata.Name + " because it has no labels")
	}
	var out []*api.Deployment
	for _, d := range ds {
		sel, err := labels.LabelSelectorAsSelector(d.Spec.Selector)
		if err != nil || sel.Empty() || !sel.Matches(rs.Metadata.Labels) {
			continue
		}
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, errors.New("could not find deployments set for ReplicaSet " + rs.Metadata.Name + " in namespace " +
			rs.Metadata.Namespace + " with labels: " + labels.Set(rs.Metadata.Labels).String())
	}
	return out, nil
}

// Counting.

// replicasOf reads spec.replicas; nil reads as 1, the API's default, which
// only a test can leave unset.
func replicasOf(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

// GetReplicaCountForReplicaSets sums spec.replicas.
func GetReplicaCountForReplicaSets(rss []*api.ReplicaSet) int32 {
	return sum(rss, func(rs *api.ReplicaSet) int32 { return replicasOf(rs.Spec.Replicas) })
}

// GetActualReplicaCountForReplicaSets sums status.replicas: the pods there are.
func GetActualReplicaCountForReplicaSets(rss []*api.ReplicaSet) int32 {
	return sum(rss, func(rs *api.ReplicaSet) int32 { return rs.Status.Replicas })
}

// GetReadyReplicaCountForReplicaSets sums status.readyReplicas.
func GetReadyReplicaCountForReplicaSets(rss []*api.ReplicaSet) int32 {
	return sum(rss, func(rs *api.ReplicaSet) int32 { return rs.Status.ReadyReplicas })
}

// GetAvailableReplicaCountForReplicaSets sums status.availableReplicas.
func GetAvailableReplicaCountForReplicaSets(rss []*api.ReplicaSet) int32 {
	return sum(rss, func(rs *api.ReplicaSet) int32 { return rs.Status.AvailableReplicas })
}

func sum(rss []*api.ReplicaSet, f func(*api.ReplicaSet) int32) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += f(rs)
		}
	}
	return n
}

// Progress.

// DeploymentComplete says whether status shows d fully rolled out: every
// replica updated, no other, all available, the latest generation observed.
func DeploymentComplete(d *api.Deployment, status *api.DeploymentStatus) bool {
	want := replicasOf(d.Spec.Replicas)
	return status.UpdatedReplicas == want && status.Replicas == want && status.AvailableReplicas == want &&
		status.ObservedGeneration >= d.Metadata.Generation
}

// DeploymentProgressing says whether status moved forward from d's current
// one: more updated replicas, fewer old ones, more ready or more available.
func DeploymentProgressing(d *api.Deployment, status *api.DeploymentStatus) bool {
	old := d.Status
	return status.UpdatedReplicas > old.UpdatedReplicas ||
		status.Replicas-status.UpdatedReplicas < old.Replicas-old.UpdatedReplicas ||
		status.ReadyReplicas > old.ReadyReplicas || status.AvailableReplicas > old.AvailableReplicas
}

// DeploymentTimedOut says whether d's rollout, as status shows it, has gone
// longer than its progress deadline without progress at now.
func DeploymentTimedOut(d *api.Deployment, status *api.DeploymentStatus, now time.Time) bool {
	if !HasProgressDeadline(d) {
		return false
	}
	c := GetDeploymentCondition(*status, api.DeploymentProgressing)
	if c == nil {
		return false
	}
	switch c.Reason {
	case NewRSAvailableReason:
		return false
	case TimedOutReason:
		return true
	}
	return c.LastUpdateTime.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second).Before(now)
}

// HasProgressDeadline says whether d has a deadline; MaxInt32 means none.
func HasProgressDeadline(d *api.Deployment) bool {
	return d.Spec.ProgressDeadlineSeconds != nil && *d.Spec.ProgressDeadlineSeconds != math.MaxInt32
}

// HasRevisionHistoryLimit says whether d limits its old ReplicaSets;
// MaxInt32 means no limit.
func HasRevisionHistoryLimit(d *api.Deployment) bool {
	return d.Spec.RevisionHistoryLimit != nil && *d.Spec.RevisionHistoryLimit != math.MaxInt32
}

// Sort orders. Each is total, so the sorts are deterministic whatever the
// order they start from.

// byCreationTimestamp: oldest first, then by name.
func byCreationTimestamp(a, b *api.ReplicaSet) int {
	if ta, tb := a.Metadata.CreationTimestamp.Time, b.Metadata.CreationTimestamp.Time; !ta.Equal(tb) {
		if ta.Before(tb) {
			return -1
		}
		return 1
	}
	return strings.Compare(a.Metadata.Name, b.Metadata.Name)
}

// bySizeOlder: larger first; equal sizes oldest first.
func bySizeOlder(a, b *api.ReplicaSet) int {
	if sa, sb := replicasOf(a.Spec.Replicas), replicasOf(b.Spec.Replicas); sa != sb {
		return int(sb) - int(sa)
	}
	return byCreationTimestamp(a, b)
}

// bySizeNewer: larger first; equal sizes newest first, and equal times by
// reversed name, since upstream inverts the whole timestamp order.
func bySizeNewer(a, b *api.ReplicaSet) int {
	if sa, sb := replicasOf(a.Spec.Replicas), replicasOf(b.Spec.Replicas); sa != sb {
		return int(sb) - int(sa)
	}
	return byCreationTimestamp(b, a)
}

// byRevision: revision ascending; when either fails to parse or both are
// equal, by creation time.
func byRevision(a, b *api.ReplicaSet) int {
	ra, ea := Revision(&a.Metadata)
	rb, eb := Revision(&b.Metadata)
	if ea != nil || eb != nil || ra == rb {
		return byCreationTimestamp(a, b)
	}
	if ra < rb {
		return -1
	}
	return 1
}
