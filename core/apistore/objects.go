package apistore

import (
	"time"

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
// reads the time in UTC, as a decoded timestamp would be. Reading it in UTC
// also drops a monotonic clock reading, as Truncate does. The nanoseconds
// past the second are subtracted rather than divided out by Truncate: a
// time's nanosecond is its distance from the whole second below it, for
// times before year 1 too, so the result is the same Time, and the store
// truncates the times of every object it writes, two to six per pod status.
// The zero time needs no case of its own: it is whole, and in UTC already.
func truncTime(t api.Time) api.Time {
	u := t.UTC()
	if ns := u.Nanosecond(); ns != 0 {
		u = u.Add(-time.Duration(ns))
	}
	return api.Time{Time: u}
}

// whole reports whether truncTime would return t unchanged: whole seconds,
// in UTC, without a monotonic clock reading. Nearly every time the store is
// sent, and every time it stores, is, and the test is cheap enough to be
// inlined where truncTime is a call.
func whole(t time.Time) bool {
	return t.Nanosecond() == 0 && t == t.UTC()
}

// truncTimePtr returns p itself when its time is already truncated, as every
// time of a stored object is, and a truncated copy otherwise: p may be shared
// with a stored object, so it is never written through.
func truncTimePtr(p *api.Time) *api.Time {
	if p == nil || whole(p.Time) {
		return p
	}
	// The copy is declared here, past the return of p: a variable whose
	// address is returned lives on the heap from its declaration, so, were
	// it declared before the check, every call would allocate, the nearly
	// every one that returns p too.
	truncated := truncTime(*p)
	return &truncated
}

// truncIn truncates the time at t in place, writing only when that changes
// it: a condition list shared with a stored object, whose times are all
// truncated already, is then only read.
func truncIn(t *api.Time) {
	if !whole(t.Time) {
		*t = truncTime(*t)
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
	if st.StartTime != nil && !whole(st.StartTime.Time) {
		return false
	}
	for i := range st.Conditions {
		if !whole(st.Conditions[i].LastTransitionTime.Time) {
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
