package apistore

import (
	"github.com/reconcilelab/rlab/core/api"
)

// withResourceVersion returns a shallow copy of a stored object whose
// metadata.resourceVersion is rv. The copy shares every map and slice with the
// original, which is safe only because stored objects are never changed: it is
// how a DELETED watch event carries the object's last state at the deletion's
// resourceVersion without a deep copy.
func withResourceVersion(obj api.Object, rv string) api.Object {
	switch o := obj.(type) {
	case *api.Pod:
		c := *o
		c.Metadata.ResourceVersion = rv
		return &c
	case *api.ReplicaSet:
		c := *o
		c.Metadata.ResourceVersion = rv
		return &c
	case *api.ReplicationController:
		c := *o
		c.Metadata.ResourceVersion = rv
		return &c
	case *api.Node:
		c := *o
		c.Metadata.ResourceVersion = rv
		return &c
	case *api.Event:
		c := *o
		c.Metadata.ResourceVersion = rv
		return &c
	case *api.Deployment:
		c := *o
		c.Metadata.ResourceVersion = rv
		return &c
	}
	return obj
}

// truncTime drops sub-second precision, as the API's wire format does, and
// reads the time in UTC, as a decoded timestamp would be.
func truncTime(t api.Time) api.Time {
	if t.IsZero() {
		return api.Time{}
	}
	return api.Time{Time: t.UTC().Truncate(1e9)}
}

func truncTimePtr(p *api.Time) *api.Time {
	if p == nil {
		return nil
	}
	t := truncTime(*p)
	return &t
}

// truncateTimes truncates every timestamp of obj to the second, in place. obj
// must be the store's private copy. What a client reads back then equals what a
// real cluster, which stores RFC 3339 seconds, would return.
func truncateTimes(obj api.Object) {
	m := obj.Meta()
	m.CreationTimestamp = truncTime(m.CreationTimestamp)
	m.DeletionTimestamp = truncTimePtr(m.DeletionTimestamp)
	switch o := obj.(type) {
	case *api.Pod:
		o.Status.StartTime = truncTimePtr(o.Status.StartTime)
		for i := range o.Status.Conditions {
			c := &o.Status.Conditions[i]
			c.LastTransitionTime = truncTime(c.LastTransitionTime)
		}
	case *api.ReplicaSet:
		truncateTemplateTimes(&o.Spec.Template)
		for i := range o.Status.Conditions {
			c := &o.Status.Conditions[i]
			c.LastTransitionTime = truncTime(c.LastTransitionTime)
		}
	case *api.ReplicationController:
		if o.Spec.Template != nil {
			truncateTemplateTimes(o.Spec.Template)
		}
		for i := range o.Status.Conditions {
			c := &o.Status.Conditions[i]
			c.LastTransitionTime = truncTime(c.LastTransitionTime)
		}
	case *api.Node:
		for i := range o.Status.Conditions {
			c := &o.Status.Conditions[i]
			c.LastTransitionTime = truncTime(c.LastTransitionTime)
		}
	case *api.Deployment:
		truncateTemplateTimes(&o.Spec.Template)
		for i := range o.Status.Conditions {
			c := &o.Status.Conditions[i]
			c.LastUpdateTime = truncTime(c.LastUpdateTime)
			c.LastTransitionTime = truncTime(c.LastTransitionTime)
		}
	case *api.Event:
		o.FirstTimestamp = truncTime(o.FirstTimestamp)
		o.LastTimestamp = truncTime(o.LastTimestamp)
	}
}

func truncateTemplateTimes(t *api.PodTemplateSpec) {
	t.Metadata.CreationTimestamp = truncTime(t.Metadata.CreationTimestamp)
	t.Metadata.DeletionTimestamp = truncTimePtr(t.Metadata.DeletionTimestamp)
}

// keyOf is the store key of an object's metadata.
func keyOf(m *api.ObjectMeta) string { return api.Key(m.Namespace, m.Name) }
