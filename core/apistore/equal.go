package apistore

import (
	"maps"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
)

// The functions in this file compare objects the way upstream's
// apiequality.Semantic.DeepEqual does: field by field, with an empty map or
// slice equal to a nil one (both are absent on the wire). The store uses them
// to skip no-op writes, as etcd-backed storage skips writing bytes that did not
// change, and to decide whether a spec changed, which bumps
// metadata.generation. They are written out by hand, not with reflect, because
// they run on every update.

// eqStringMap uses maps.Equal, whose answer does not depend on iteration
// order, for two maps that are not one. A new version shares its maps with
// the one it replaces unless they changed (a status write or a bind keeps
// the stored labels and annotations), so most comparisons are of a map with
// itself, which reading key by key only confirmed.
func eqStringMap(a, b map[string]string) bool { return labels.SameSet(a, b) || maps.Equal(a, b) }

func eqStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func eqTime(a, b api.Time) bool { return a.Equal(b.Time) }

func eqTimePtr(a, b *api.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(b.Time)
}

func eqInt64Ptr(a, b *int64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func eqInt32Ptr(a, b *int32) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func eqBoolPtr(a, b *bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func eqOwnerRef(a, b api.OwnerReference) bool {
	return a.APIVersion == b.APIVersion && a.Kind == b.Kind && a.Name == b.Name && a.UID == b.UID &&
		eqBoolPtr(a.Controller, b.Controller) && eqBoolPtr(a.BlockOwnerDeletion, b.BlockOwnerDeletion)
}

func eqOwnerRefs(a, b []api.OwnerReference) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true // one list, as a version shares it with the one before
	}
	for i := range a {
		if !eqOwnerRef(a[i], b[i]) {
			return false
		}
	}
	return true
}

// eqMeta compares two ObjectMetas in full, resourceVersion included.
func eqMeta(a, b *api.ObjectMeta) bool {
	return a.Name == b.Name && a.GenerateName == b.GenerateName && a.Namespace == b.Namespace &&
		a.UID == b.UID && a.ResourceVersion == b.ResourceVersion && a.Generation == b.Generation &&
		eqTime(a.CreationTimestamp, b.CreationTimestamp) &&
		eqTimePtr(a.DeletionTimestamp, b.DeletionTimestamp) &&
		eqInt64Ptr(a.DeletionGracePeriodSeconds, b.DeletionGracePeriodSeconds) &&
		eqStringMap(a.Labels, b.Labels) && eqStringMap(a.Annotations, b.Annotations) &&
		eqOwnerRefs(a.OwnerReferences, b.OwnerReferences) && eqStrings(a.Finalizers, b.Finalizers)
}

func eqContainers(a, b []api.Container) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Image != b[i].Image {
			return false
		}
	}
	return true
}

func eqPodSpec(a, b *api.PodSpec) bool {
	return eqContainers(a.Containers, b.Containers) && a.RestartPolicy == b.RestartPolicy &&
		eqInt64Ptr(a.TerminationGracePeriodSeconds, b.TerminationGracePeriodSeconds) &&
		a.NodeName == b.NodeName
}

func eqPodStatus(a, b *api.PodStatus) bool {
	if a.Phase != b.Phase || a.Message != b.Message || a.Reason != b.Reason || a.HostIP != b.HostIP ||
		!eqTimePtr(a.StartTime, b.StartTime) ||
		len(a.Conditions) != len(b.Conditions) || len(a.ContainerStatuses) != len(b.ContainerStatuses) {
		return false
	}
	for i := range a.Conditions {
		x, y := &a.Conditions[i], &b.Conditions[i]
		if x.Type != y.Type || x.Status != y.Status || x.Reason != y.Reason || x.Message != y.Message ||
			!eqTime(x.LastTransitionTime, y.LastTransitionTime) {
			return false
		}
	}
	for i := range a.ContainerStatuses {
		x, y := &a.ContainerStatuses[i], &b.ContainerStatuses[i]
		if x.Name != y.Name || x.Image != y.Image || x.Ready != y.Ready || x.RestartCount != y.RestartCount ||
			!eqBoolPtr(x.Started, y.Started) {
			return false
		}
	}
	return true
}

func eqTemplate(a, b *api.PodTemplateSpec) bool {
	if a == nil || b == nil {
		return a == b
	}
	return eqMeta(&a.Metadata, &b.Metadata) && eqPodSpec(&a.Spec, &b.Spec)
}

func eqSelector(a, b *api.LabelSelector) bool {
	if a == nil || b == nil {
		return a == b
	}
	if !eqStringMap(a.MatchLabels, b.MatchLabels) || len(a.MatchExpressions) != len(b.MatchExpressions) {
		return false
	}
	for i := range a.MatchExpressions {
		x, y := &a.MatchExpressions[i], &b.MatchExpressions[i]
		if x.Key != y.Key || x.Operator != y.Operator || !eqStrings(x.Values, y.Values) {
			return false
		}
	}
	return true
}

func eqRSSpec(a, b *api.ReplicaSetSpec) bool {
	return eqInt32Ptr(a.Replicas, b.Replicas) && a.MinReadySeconds == b.MinReadySeconds &&
		eqSelector(a.Selector, b.Selector) && eqTemplate(&a.Template, &b.Template)
}

func eqRCSpec(a, b *api.ReplicationControllerSpec) bool {
	return eqInt32Ptr(a.Replicas, b.Replicas) && a.MinReadySeconds == b.MinReadySeconds &&
		eqStringMap(a.Selector, b.Selector) && eqTemplate(a.Template, b.Template)
}

// eqCondition compares the fields every condition type shares.
func eqCondition(aType, aStatus, aReason, aMessage string, aTime api.Time,
	bType, bStatus, bReason, bMessage string, bTime api.Time) bool {
	return aType == bType && aStatus == bStatus && aReason == bReason && aMessage == bMessage && eqTime(aTime, bTime)
}

// eqRSStatus compares two ReplicaSet statuses, or two ReplicationController
// statuses converted to ReplicaSetStatus: they have the same shape.
func eqRSStatus(a, b *api.ReplicaSetStatus) bool {
	if a.Replicas != b.Replicas || a.FullyLabeledReplicas != b.FullyLabeledReplicas ||
		a.ReadyReplicas != b.ReadyReplicas || a.AvailableReplicas != b.AvailableReplicas ||
		a.ObservedGeneration != b.ObservedGeneration || len(a.Conditions) != len(b.Conditions) {
		return false
	}
	for i := range a.Conditions {
		x, y := &a.Conditions[i], &b.Conditions[i]
		if !eqCondition(x.Type, x.Status, x.Reason, x.Message, x.LastTransitionTime,
			y.Type, y.Status, y.Reason, y.Message, y.LastTransitionTime) {
			return false
		}
	}
	return true
}

func eqNodeStatus(a, b *api.NodeStatus) bool {
	if len(a.Conditions) != len(b.Conditions) {
		return false
	}
	for i := range a.Conditions {
		x, y := &a.Conditions[i], &b.Conditions[i]
		if !eqCondition(x.Type, x.Status, x.Reason, x.Message, x.LastTransitionTime,
			y.Type, y.Status, y.Reason, y.Message, y.LastTransitionTime) {
			return false
		}
	}
	return true
}

func eqEventBody(a, b *api.Event) bool {
	x, y := &a.InvolvedObject, &b.InvolvedObject
	return x.Kind == y.Kind && x.Namespace == y.Namespace && x.Name == y.Name && x.UID == y.UID &&
		x.APIVersion == y.APIVersion && x.ResourceVersion == y.ResourceVersion && a.Reason == b.Reason && a.Message == b.Message &&
		a.Source.Component == b.Source.Component && a.Source.Host == b.Source.Host && eqTime(a.FirstTimestamp, b.FirstTimestamp) &&
		eqTime(a.LastTimestamp, b.LastTimestamp) && a.Count == b.Count && a.Type == b.Type
}

// equalObjects reports whether two objects of the same kind are semantically
// equal in every field, metadata included. TypeMeta is ignored: the store does
// not keep it meaningful.
func equalObjects(a, b api.Object) bool {
	// The kind's own fields first, status before spec: nearly every update
	// is a status write, and comparing the metadata first, labels and owner
	// references in full, then a ReplicaSet's whole pod template, was most
	// of what telling two versions apart cost.
	return equalBodies(a, b) && eqMeta(a.Meta(), b.Meta())
}

// equalBodies compares everything but the metadata of two objects of the
// same kind.
func equalBodies(a, b api.Object) bool {
	switch x := a.(type) {
	case *api.Pod:
		y, ok := b.(*api.Pod)
		return ok && eqPodStatus(&x.Status, &y.Status) && eqPodSpec(&x.Spec, &y.Spec)
	case *api.ReplicaSet:
		y, ok := b.(*api.ReplicaSet)
		return ok && eqRSStatus(&x.Status, &y.Status) && eqRSSpec(&x.Spec, &y.Spec)
	case *api.ReplicationController:
		y, ok := b.(*api.ReplicationController)
		return ok && eqRSStatus((*api.ReplicaSetStatus)(&x.Status), (*api.ReplicaSetStatus)(&y.Status)) && eqRCSpec(&x.Spec, &y.Spec)
	case *api.Node:
		y, ok := b.(*api.Node)
		return ok && eqNodeStatus(&x.Status, &y.Status) && x.Spec == y.Spec
	case *api.Event:
		y, ok := b.(*api.Event)
		return ok && eqEventBody(x, y)
	case *api.Deployment:
		y, ok := b.(*api.Deployment)
		return ok && eqDeploymentStatus(&x.Status, &y.Status) && eqDeploymentSpec(&x.Spec, &y.Spec)
	}
	return false
}

// EqualPodTemplates compares two pod templates as upstream's
// apiequality.Semantic.DeepEqual does: every field, with an empty map or
// slice equal to a nil one. The Deployment controller uses it to tell a
// Deployment's template from its ReplicaSets'.
func EqualPodTemplates(a, b *api.PodTemplateSpec) bool { return eqTemplate(a, b) }
