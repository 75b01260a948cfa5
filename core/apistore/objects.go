package apistore

import (
	"github.com/reconcilelab/rlab/core/api"
)

// shallowCopy returns a new top-level struct with the fields of a stored
// object: it shares every map, slice and pointer with the original. A write
// that changes a few fields of a stored object starts from it instead of a
// deep copy, and must replace, never change in place, what it shares; that is
// safe only because stored objects are never changed, and the new version is
// stored and shared read-only in its turn.
func shallowCopy(obj api.Object) api.Object {
	switch o := obj.(type) {
	case *api.Pod:
		c := *o
		return &c
	case *api.ReplicaSet:
		c := *o
		return &c
	case *api.ReplicationController:
		c := *o
		return &c
	case *api.Node:
		c := *o
		return &c
	case *api.Event:
		c := *o
		return &c
	case *api.Deployment:
		c := *o
		return &c
	}
	return obj.DeepCopyObject()
}

// withResourceVersion returns a shallow copy of a stored object whose
// metadata.resourceVersion is rv: it is how a DELETED watch event carries the
// object's last state at the deletion's resourceVersion without a deep copy.
func withResourceVersion(obj api.Object, rv string) api.Object {
	c := shallowCopy(obj)
	c.Meta().ResourceVersion = rv
	return c
}

// truncTime drops sub-second precision, as the API's wire format does, and
// reads the time in UTC, as a decoded timestamp would be. A time of whole
// seconds, as nearly every time a store is sent is, is only read in UTC
// (which also drops a monotonic clock reading, as Truncate does): Truncate
// divides the time by the second, and the store truncates every time of
// every object it writes, two to six per pod status.
func truncTime(t api.Time) api.Time {
	if t.IsZero() {
		return api.Time{}
	}
	u := t.UTC()
	if u.Nanosecond() != 0 {
		u = u.Truncate(1e9)
	}
	return api.Time{Time: u}
}

// truncTimePtr returns p itself when its time is already truncated, as every
// time of a stored object is, and a truncated copy otherwise: p may be shared
// with a stored object, so it is never written through.
func truncTimePtr(p *api.Time) *api.Time {
	if p == nil {
		return nil
	}
	t := truncTime(*p)
	if t == *p {
		return p
	}
	// The copy is made here, not by taking t's address: a variable whose
	// address is returned lives on the heap from its declaration, so every
	// call allocated, the nearly every one that returns p too.
	truncated := t
	return &truncated
}

// truncIn truncates the time at t in place, writing only when that changes
// it: a condition list shared with a stored object, whose times are all
// truncated already, is then only read.
func truncIn(t *api.Time) {
	if tt := truncTime(*t); tt != *t {
		*t = tt
	}
}

// truncateTimes truncates every timestamp of obj to the second, in place. What a
// client reads back then equals what a real cluster, which stores RFC 3339
// seconds, would return. obj is the store's own new version, but it may share
// parts with the stored one it replaces (see shallowCopy): those parts are
// truncated already, and truncateTimes writes only what it changes, so it
// leaves them alone.
func truncateTimes(obj api.Object) {
	m := obj.Meta()
	truncIn(&m.CreationTimestamp)
	m.DeletionTimestamp = truncTimePtr(m.DeletionTimestamp)
	switch o := obj.(type) {
	case *api.Pod:
		o.Status.StartTime = truncTimePtr(o.Status.StartTime)
		for i := range o.Status.Conditions {
			truncIn(&o.Status.Conditions[i].LastTransitionTime)
		}
	case *api.ReplicaSet:
		truncateTemplateTimes(&o.Spec.Template)
		for i := range o.Status.Conditions {
			truncIn(&o.Status.Conditions[i].LastTransitionTime)
		}
	case *api.ReplicationController:
		if o.Spec.Template != nil {
			truncateTemplateTimes(o.Spec.Template)
		}
		for i := range o.Status.Conditions {
			truncIn(&o.Status.Conditions[i].LastTransitionTime)
		}
	case *api.Node:
		for i := range o.Status.Conditions {
			truncIn(&o.Status.Conditions[i].LastTransitionTime)
		}
	case *api.Deployment:
		truncateTemplateTimes(&o.Spec.Template)
		for i := range o.Status.Conditions {
			c := &o.Status.Conditions[i]
			truncIn(&c.LastUpdateTime)
			truncIn(&c.LastTransitionTime)
		}
	case *api.Event:
		truncIn(&o.FirstTimestamp)
		truncIn(&o.LastTimestamp)
	}
}

// podStatusTruncated reports whether every time of a pod's status that
// truncateTimes truncates is whole seconds already (or unset), so that
// truncating the status would write nothing. The two must name the same
// fields.
func podStatusTruncated(st *api.PodStatus) bool {
	if st.StartTime != nil && truncTime(*st.StartTime) != *st.StartTime {
		return false
	}
	for i := range st.Conditions {
		if t := &st.Conditions[i].LastTransitionTime; truncTime(*t) != *t {
			return false
		}
	}
	return true
}

func truncateTemplateTimes(t *api.PodTemplateSpec) {
	truncIn(&t.Metadata.CreationTimestamp)
	if p := truncTimePtr(t.Metadata.DeletionTimestamp); p != t.Metadata.DeletionTimestamp {
		t.Metadata.DeletionTimestamp = p
	}
}

// keyOf is the store key of an object's metadata.
func keyOf(m *api.ObjectMeta) string { return api.Key(m.Namespace, m.Name) }
