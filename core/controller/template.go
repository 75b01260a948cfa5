package controller

import (
	"errors"
	"maps"
	"slices"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
)

// This file builds the pod a ReplicaSet creates, and answers the lookups the
// replication manager makes over its caches: which ReplicaSets select a pod,
// which ReplicaSets share a controller, which pods those select. The lookups
// take the cache's lists as arguments and keep their order, so they are pure
// and their answers are as deterministic as the cache's lists. They model
// GetPodFromTemplate and its helpers in upstream's
// pkg/controller/controller_utils.go, and getPodReplicaSets,
// getReplicaSetsWithSameController and getIndirectlyRelatedPods in
// pkg/controller/replicaset/replica_set.go with the lister's
// GetPodReplicaSets.

// errNoLabels is upstream's refusal to create a pod without labels: no
// selector could ever find it again, so it would be an orphan from birth.
var errNoLabels = errors.New("unable to create pods, no labels")

// validateControllerRef checks the controller reference a created pod will
// carry, with upstream's messages: it must exist, name an apiVersion and a
// kind, and set both controller and blockOwnerDeletion to true (the latter so
// that a foreground deletion of the ReplicaSet waits for its pods).
func validateControllerRef(ref *api.OwnerReference) error {
	switch {
	case ref == nil:
		return errors.New("controllerRef is nil")
	case ref.APIVersion == "":
		return errors.New("controllerRef has empty APIVersion")
	case ref.Kind == "":
		return errors.New("controllerRef has empty Kind")
	case ref.Controller == nil || !*ref.Controller:
		return errors.New("controllerRef.Controller is not set to true")
	case ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion:
		return errors.New("controllerRef.BlockOwnerDeletion is not set")
	}
	return nil
}

// getPodsPrefix returns the generateName of the pods of a controller named
// controllerName: the name and a dash ("web-"), to which the API server
// appends five random characters ("web-7xk2p"). If the dashed prefix would not
// be a valid pod name prefix, which only happens when the name is at the
// length limit, the name alone is used. It models upstream's getPodsPrefix.
func getPodsPrefix(controllerName string) string {
	prefix := controllerName + "-"
	if len(labels.NameIsDNSSubdomain(prefix, true)) != 0 {
		prefix = controllerName
	}
	return prefix
}

// podFromTemplate builds the pod a controller with metadata parent creates from
// template, carrying controllerRef as its only owner reference. It models
// upstream's CreatePods up to the POST: validateControllerRef, then
// GetPodFromTemplate, then the no-labels check.
//
// The pod gets copies of the template's labels, annotations and finalizers,
// a deep copy of its spec, generateName from getPodsPrefix(parent's name),
// and the parent's namespace (upstream leaves that to the request's URL;
// here the request carries the object). Everything else, name and UID
// included, is the API server's to fill in.
//
// It fails with upstream's messages when the controller reference is invalid
// (see validateControllerRef) or the template has no labels ("unable to
// create pods, no labels"); nothing is sent then.
func podFromTemplate(template *api.PodTemplateSpec, parent *api.ObjectMeta, controllerRef *api.OwnerReference) (*api.Pod, error) {
	if err := validateControllerRef(controllerRef); err != nil {
		return nil, err
	}
	pod := &api.Pod{
		Metadata: api.ObjectMeta{
			GenerateName:    getPodsPrefix(parent.Name),
			Namespace:       parent.Namespace,
			Labels:          maps.Clone(template.Metadata.Labels),
			Annotations:     maps.Clone(template.Metadata.Annotations),
			Finalizers:      slices.Clone(template.Metadata.Finalizers),
			OwnerReferences: []api.OwnerReference{controllerRef.DeepCopy()},
		},
		Spec: template.Spec.DeepCopy(),
	}
	if len(pod.Metadata.Labels) == 0 {
		return nil, errNoLabels
	}
	return pod, nil
}

// getPodReplicaSets returns the ReplicaSets of rss that select pod, in the
// order of rss, or nil when none does. It models upstream's
// GetPodReplicaSets (the lister's) as getPodReplicaSets uses it: a pod without
// labels is selected by nothing; a ReplicaSet must be in the pod's namespace;
// and a ReplicaSet whose selector is invalid, missing or empty selects
// nothing, because a ReplicaSet with an empty selector that matched every pod
// would be a disaster. More than one result is a user error the caller
// reports ("more than one ReplicaSet is selecting pods with labels …").
//
// The pod's orphan handlers use it to find who might adopt a pod.
func getPodReplicaSets(pod *api.Pod, rss []*api.ReplicaSet) []*api.ReplicaSet {
	if len(pod.Metadata.Labels) == 0 {
		return nil
	}
	var out []*api.ReplicaSet
	for _, rs := range rss {
		if rs.Metadata.Namespace != pod.Metadata.Namespace {
			continue
		}
		selector, err := labels.LabelSelectorAsSelector(rs.Spec.Selector)
		if err != nil || selector.Empty() || !selector.Matches(pod.Metadata.Labels) {
			continue
		}
		out = append(out, rs)
	}
	return out
}

// controllerUIDIndex is the name of the extra index of the ReplicaSet
// informer: each ReplicaSet under the UID of its own controller, such as the
// Deployment that owns it.
const controllerUIDIndex = "controllerUID"

// indexByControllerUID is the index function of controllerUIDIndex (an
// informer.IndexFunc). A ReplicaSet without a controller is not indexed. It
// models the index function upstream's NewBaseController registers.
func indexByControllerUID(obj api.Object, values []string) []string {
	rs, ok := obj.(*api.ReplicaSet)
	if !ok {
		return values
	}
	ref := api.GetControllerOf(&rs.Metadata)
	if ref == nil {
		return values
	}
	return append(values, ref.UID)
}

// getReplicaSetsWithSameController returns the ReplicaSets of rss whose
// controller has the UID of rs's controller, in the order of rss: rs itself
// (when it is in rss, even while being deleted) and its siblings, such as the
// old and new ReplicaSets of one Deployment. A ReplicaSet without a
// controller has no siblings and the result is nil; upstream logs that as an
// error. rss is the informer's answer for controllerUIDIndex, or any list
// that contains it. It models upstream's getReplicaSetsWithSameController.
func getReplicaSetsWithSameController(rs *api.ReplicaSet, rss []*api.ReplicaSet) []*api.ReplicaSet {
	ref := api.GetControllerOf(&rs.Metadata)
	if ref == nil {
		return nil
	}
	var out []*api.ReplicaSet
	for _, other := range rss {
		if r := api.GetControllerOf(&other.Metadata); r != nil && r.UID == ref.UID {
			out = append(out, other)
		}
	}
	return out
}

// getIndirectlyRelatedPods returns the pods that the related ReplicaSets
// select (see getReplicaSetsWithSameController), each once: for each
// ReplicaSet in order, the pods of its namespace in pods that its selector
// matches, in the order of pods, skipping pods an earlier ReplicaSet already
// contributed (by UID). Unlike claiming, it does not look at owner references
// or at whether a pod is active; a ReplicaSet with an invalid selector
// contributes nothing, and one with an empty selector contributes every pod
// of its namespace, exactly as upstream's lister-based version does.
// getPodsToDelete ranks pods by these to spread a scale-down across nodes.
func getIndirectlyRelatedPods(relatedRSs []*api.ReplicaSet, pods []*api.Pod) []*api.Pod {
	var out []*api.Pod
	seen := make(map[string]struct{})
	for _, rs := range relatedRSs {
		selector, err := labels.LabelSelectorAsSelector(rs.Spec.Selector)
		if err != nil {
			continue
		}
		for _, pod := range pods {
			if pod.Metadata.Namespace != rs.Metadata.Namespace || !selector.Matches(pod.Metadata.Labels) {
				continue
			}
			if _, dup := seen[pod.Metadata.UID]; dup {
				continue
			}
			seen[pod.Metadata.UID] = struct{}{}
			out = append(out, pod)
		}
	}
	return out
}

// FilterActiveReplicaSets returns the ReplicaSets of rss that are not nil and
// want at least one pod, in order. It models upstream's
// FilterActiveReplicaSets, used by the Deployment controller; a nil
// spec.replicas counts as the store's default of 1.
func FilterActiveReplicaSets(rss []*api.ReplicaSet) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, rs := range rss {
		if rs != nil && specReplicas(rs) > 0 {
			out = append(out, rs)
		}
	}
	return out
}
