package printers

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/minijson"
	"github.com/reconcilelab/rlab/core/sorting"
)

// This file is what kubectl prints, and reads, for Deployments: describe
// deploy (DeploymentDescriber), rollout status (DeploymentStatusViewer),
// rollout history (DeploymentHistoryViewer), and the client-side helpers of
// k8s.io/kubectl's util/deployment they share with rollout undo: which
// ReplicaSets belong to a Deployment, which of them is its new one, and a
// ReplicaSet's revision. kubectl reads these through the API, not through
// the Deployment controller, so they work whether a controller runs or not.

// Annotation and label keys kubectl reads on Deployments and their ReplicaSets.
const (
	// RevisionAnnotation is a ReplicaSet's rollout number, which the
	// Deployment controller writes (and copies onto the Deployment).
	RevisionAnnotation = "deployment.kubernetes.io/revision"
	// ChangeCauseAnnotation is what rollout history prints in CHANGE-CAUSE.
	// The Deployment controller copies a Deployment's annotations onto the
	// ReplicaSet it makes, so annotating the Deployment before a rollout
	// names the cause of that revision.
	ChangeCauseAnnotation = "kubernetes.io/change-cause"
	// PodTemplateHashLabel is the label the Deployment controller adds to a
	// ReplicaSet's selector and template, so that ReplicaSets of one
	// Deployment never share pods.
	PodTemplateHashLabel = "pod-template-hash"
	// timedOutReason is the Progressing condition's reason once the
	// progress deadline has passed.
	timedOutReason = "ProgressDeadlineExceeded"
)

// Revision is deploymentutil.Revision: an object's revision annotation as a
// number, 0 when it has none, and an error when it is not a number.
func Revision(m *api.ObjectMeta) (int64, error) {
	v, ok := m.Annotations[RevisionAnnotation]
	if !ok {
		return 0, nil
	}
	return strconv.ParseInt(v, 10, 64)
}

// DeploymentReplicaSets is deploymentutil.GetAllReplicaSets: of rss, the
// ReplicaSets in d's namespace whose labels d's selector matches and whose
// controller is d (by uid), split into d's new ReplicaSet (the oldest whose
// template equals d's, ignoring the pod-template-hash label; nil when there
// is none) and all the others, oldest first (by creation time, then name).
// rss may hold any ReplicaSets: the whole store, say.
func DeploymentReplicaSets(d *api.Deployment, rss []*api.ReplicaSet) (old []*api.ReplicaSet, newRS *api.ReplicaSet) {
	selector, err := labels.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, nil
	}
	var owned []*api.ReplicaSet
	for _, rs := range rss {
		if rs.Metadata.Namespace != d.Metadata.Namespace || !selector.Matches(labels.Set(rs.Metadata.Labels)) {
			continue
		}
		if ref := api.GetControllerOf(&rs.Metadata); ref != nil && ref.UID == d.Metadata.UID {
			owned = append(owned, rs)
		}
	}
	sorting.Func(owned, func(a, b *api.ReplicaSet) int {
		if c := a.Metadata.CreationTimestamp.Compare(b.Metadata.CreationTimestamp.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Metadata.Name, b.Metadata.Name)
	})
	for _, rs := range owned {
		if newRS == nil && EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			newRS = rs
			continue
		}
		old = append(old, rs)
	}
	return old, newRS
}

// EqualIgnoreHash is deploymentutil's equalIgnoreHash: whether two pod
// templates are semantically equal (an empty map or list equals a missing
// one) once the pod-template-hash label is taken out of both. A
// Deployment's template has no hash label; its ReplicaSets' templates do.
func EqualIgnoreHash(a, b *api.PodTemplateSpec) bool {
	x, errX := minijson.Marshal(withoutHash(a))
	y, errY := minijson.Marshal(withoutHash(b))
	return errX == nil && errY == nil && bytes.Equal(x, y)
}

// withoutHash returns a copy of t without the pod-template-hash label.
func withoutHash(t *api.PodTemplateSpec) *api.PodTemplateSpec {
	c := t.DeepCopy()
	delete(c.Metadata.Labels, PodTemplateHashLabel)
	return c
}

// RolloutStatus is DeploymentStatusViewer.Status, what `kubectl rollout
// status` prints for the Deployment as it is now, and whether the rollout
// is done. A Deployment whose Progressing condition says the deadline
// passed is an error, which kubectl prints instead (and exits 1).
func RolloutStatus(d *api.Deployment) (string, bool, error) {
	name := strconv.Quote(d.Metadata.Name)
	s := &d.Status
	if d.Metadata.Generation > s.ObservedGeneration {
		return "Waiting for deployment spec update to be observed...\n", false, nil
	}
	for _, c := range s.Conditions {
		if c.Type == api.DeploymentProgressing && c.Reason == timedOutReason {
			return "", false, errors.New("deployment " + name + " exceeded its progress deadline")
		}
	}
	itoa := func(n int32) string { return strconv.Itoa(int(n)) }
	if d.Spec.Replicas != nil && s.UpdatedReplicas < *d.Spec.Replicas {
		return "Waiting for deployment " + name + " rollout to finish: " + itoa(s.UpdatedReplicas) + " out of " +
			itoa(*d.Spec.Replicas) + " new replicas have been updated...\n", false, nil
	}
	if s.Replicas > s.UpdatedReplicas {
		return "Waiting for deployment " + name + " rollout to finish: " + itoa(s.Replicas-s.UpdatedReplicas) +
			" old replicas are pending termination...\n", false, nil
	}
	if s.AvailableReplicas < s.UpdatedReplicas {
		return "Waiting for deployment " + name + " rollout to finish: " + itoa(s.AvailableReplicas) + " of " +
			itoa(s.UpdatedReplicas) + " updated replicas are available...\n", false, nil
	}
	return "deployment " + name + " successfully rolled out\n", true, nil
}

// RolloutHistory is what `kubectl rollout history deployment/NAME` prints,
// from the Deployment's ReplicaSets among rss: kubectl's name line, then
// DeploymentHistoryViewer's table of revisions and their change causes
// (the ReplicaSets' kubernetes.io/change-cause annotations), or, for one
// revision, that revision's pod template as describe prints it (but
// without the tabwriter, so its columns are raw tabs, as kubectl's are).
// A revision no ReplicaSet has is an error, in kubectl's words.
func RolloutHistory(d *api.Deployment, rss []*api.ReplicaSet, revision int64) (string, error) {
	old, newRS := DeploymentReplicaSets(d, rss)
	all := old
	if newRS != nil {
		all = append(slices.Clone(old), newRS)
	}
	templates := map[int64]*api.PodTemplateSpec{}
	// The revisions, as ints, not int64s: the page's binary already holds
	// the sort for ints (a revision fits either).
	var revisions []int
	for _, rs := range all {
		v, err := Revision(&rs.Metadata)
		if err != nil {
			// kubectl logs a warning and leaves the ReplicaSet out.
			continue
		}
		if _, seen := templates[v]; !seen {
			revisions = append(revisions, int(v))
		}
		t := rs.Spec.Template.DeepCopy()
		if cause := rs.Metadata.Annotations[ChangeCauseAnnotation]; cause != "" {
			if t.Metadata.Annotations == nil {
				t.Metadata.Annotations = map[string]string{}
			}
			t.Metadata.Annotations[ChangeCauseAnnotation] = cause
		}
		templates[v] = t
	}
	var info string
	switch {
	case len(templates) == 0:
		info = "No rollout history found."
	case revision > 0:
		t, ok := templates[revision]
		if !ok {
			return "", errors.New("unable to find the specified revision")
		}
		w := newPlainPrefixWriter()
		describePodTemplate(w, t)
		info = w.String()
	default:
		var buf bytes.Buffer
		tw := newAligner(&buf, 0, 2)
		tw.Write([]byte("REVISION\tCHANGE-CAUSE\n"))
		slices.Sort(revisions)
		for _, r := range revisions {
			cause := templates[int64(r)].Metadata.Annotations[ChangeCauseAnnotation]
			if cause == "" {
				cause = "<none>"
			}
			tw.Write([]byte(strconv.Itoa(r) + "\t" + cause + "\n"))
		}
		tw.Flush()
		info = buf.String()
	}
	// kubectl prints the history as the "operation" of its name printer:
	// the object's name, a space, then the text.
	with := ""
	if revision > 0 {
		with = "with revision #" + strconv.FormatInt(revision, 10)
	}
	return "deployment.apps/" + d.Metadata.Name + " " + with + "\n" + info + "\n", nil
}

// describeDeployment is DeploymentDescriber: the Deployment's spec, its pod
// template, its conditions, its ReplicaSets (kubectl lists every old one,
// scaled to zero or not) and its Events.
func describeDeployment(w *prefixWriter, d *api.Deployment, related Related, now time.Time) {
	m := &d.Metadata
	w.write(level0, "Name:\t"+m.Name+"\n")
	w.write(level0, "Namespace:\t"+m.Namespace+"\n")
	w.write(level0, "CreationTimestamp:\t"+rfc1123z(m.CreationTimestamp.Time)+"\n")
	printLabels(w, "Labels", m.Labels)
	printAnnotations(w, "Annotations", m.Annotations)
	selector := ""
	if sel, err := labels.LabelSelectorAsSelector(d.Spec.Selector); err == nil {
		selector = sel.String()
	}
	w.write(level0, "Selector:\t"+selector+"\n")
	s := &d.Status
	n := func(v int32) string { return strconv.Itoa(int(v)) }
	w.write(level0, "Replicas:\t"+desired(d.Spec.Replicas)+" desired | "+n(s.UpdatedReplicas)+" updated | "+
		n(s.Replicas)+" total | "+n(s.AvailableReplicas)+" available | "+n(s.UnavailableReplicas)+" unavailable\n")
	w.write(level0, "StrategyType:\t"+d.Spec.Strategy.Type+"\n")
	w.write(level0, "MinReadySeconds:\t"+n(d.Spec.MinReadySeconds)+"\n")
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		w.write(level0, "RollingUpdateStrategy:\t"+intOrStringText(ru.MaxUnavailable)+" max unavailable, "+
			intOrStringText(ru.MaxSurge)+" max surge\n")
	}
	describePodTemplate(w, &d.Spec.Template)
	var types, statuses, reasons []string
	for _, c := range s.Conditions {
		types, statuses, reasons = append(types, c.Type), append(statuses, c.Status), append(reasons, c.Reason)
	}
	writeConditions(w, types, statuses, reasons)
	old, newRS := DeploymentReplicaSets(d, related.ReplicaSets)
	if len(old) > 0 || newRS != nil {
		var news []*api.ReplicaSet
		if newRS != nil {
			news = append(news, newRS)
		}
		w.write(level0, "OldReplicaSets:\t"+replicaSetsByLabels(old)+"\n")
		w.write(level0, "NewReplicaSet:\t"+replicaSetsByLabels(news)+"\n")
	}
	describeEvents(w, eventsFor(related.Events, string(api.KindDeployment), m), now)
}

// intOrStringText is intstr.IntOrString's String, through a pointer that
// the API store's defaults never leave nil on a RollingUpdate Deployment.
func intOrStringText(v *api.IntOrString) string {
	if v == nil {
		return "0"
	}
	return v.String()
}

// replicaSetsByLabels is printReplicaSetsByLabels: "NAME (CURRENT/DESIRED
// replicas created)" for each, comma-separated, or <none>.
func replicaSetsByLabels(rss []*api.ReplicaSet) string {
	if len(rss) == 0 {
		return "<none>"
	}
	parts := make([]string, len(rss))
	for i, rs := range rss {
		parts[i] = rs.Metadata.Name + " (" + strconv.Itoa(int(rs.Status.Replicas)) + "/" + desired(rs.Spec.Replicas) +
			" replicas created)"
	}
	return strings.Join(parts, ", ")
}
