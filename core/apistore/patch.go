package apistore

import (
	"maps"
	"slices"

	"github.com/reconcilelab/rlab/core/api"
)

// MetaPatch is a strategic-merge patch of an object's metadata, written as a
// typed value instead of JSON. It covers what the controllers in this model
// patch: labels and annotations (kubectl label/annotate), owner references
// (the replication manager adopting and releasing pods) and finalizers (the
// garbage collector).
//
// The controllers' adopt and release patches look like this on the wire:
//
//	{"metadata":{"uid":"<pod uid>","ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet",
//	  "name":"web","uid":"<rs uid>","controller":true,"blockOwnerDeletion":true}]}}
//	{"metadata":{"uid":"<pod uid>","ownerReferences":[{"$patch":"delete","uid":"<rs uid>"}]}}
//
// which is MetaPatch{UID: podUID, SetOwnerReferences: [ref]} and
// MetaPatch{UID: podUID, RemoveOwnerReferences: [rsUID]}.
type MetaPatch struct {
	// UID, when set, is written into metadata.uid. uid cannot change, so a patch
	// naming another uid than the stored object's fails with Invalid
	// ("metadata.uid: ... field is immutable"). Controllers use this as a
	// precondition: if the pod they read was deleted and a new one took its name,
	// the patch fails instead of changing the wrong pod.
	UID string
	// ResourceVersion, when set, must be the stored one, or the patch is a
	// Conflict.
	ResourceVersion string

	// SetLabels adds labels or changes their values; RemoveLabels removes keys
	// (removals apply first).
	SetLabels    map[string]string
	RemoveLabels []string
	// SetAnnotations and RemoveAnnotations do the same for annotations.
	SetAnnotations    map[string]string
	RemoveAnnotations []string

	// SetOwnerReferences merges references by uid, as the strategic merge of
	// ownerReferences does: a reference replaces the one with the same uid, or is
	// appended. RemoveOwnerReferences removes the references with these uids
	// ("$patch": "delete"); removals apply first.
	SetOwnerReferences    []api.OwnerReference
	RemoveOwnerReferences []string

	// AddFinalizers appends finalizers not yet present; RemoveFinalizers removes
	// finalizers ("$deleteFromPrimitiveList"); removals apply first.
	AddFinalizers    []string
	RemoveFinalizers []string
}

// servePatch applies a MetaPatch. The patched object then goes through the same
// path as an update (see applyUpdate): preconditions, strategy, validation, the
// end of a deletion when the last finalizer goes, and no-op detection.
func (s *Store) servePatch(info *kindInfo, req *Request) Response {
	if req.Patch == nil {
		return Response{Err: newBadRequest("the request has no patch")}
	}
	if resp, failed := s.fire(info, req, req.Name, req.Name); failed {
		return resp
	}
	old := s.lookupStored(info, req.Namespace, req.Name)
	if old.obj == nil {
		return Response{Err: newNotFound(info, req.Name)}
	}
	obj := old.obj.DeepCopyObject()
	req.Patch.applyTo(obj.Meta())
	return s.applyUpdate(info, old, obj, false, false)
}

// applyTo changes m, the store's private copy of the stored metadata.
func (p *MetaPatch) applyTo(m *api.ObjectMeta) {
	if p.UID != "" {
		m.UID = p.UID
	}
	if p.ResourceVersion != "" {
		m.ResourceVersion = p.ResourceVersion
	}
	m.Labels = patchMap(m.Labels, p.SetLabels, p.RemoveLabels)
	m.Annotations = patchMap(m.Annotations, p.SetAnnotations, p.RemoveAnnotations)

	if len(p.RemoveOwnerReferences) > 0 {
		m.OwnerReferences = slices.DeleteFunc(m.OwnerReferences, func(r api.OwnerReference) bool {
			return slices.Contains(p.RemoveOwnerReferences, r.UID)
		})
	}
	for _, ref := range p.SetOwnerReferences {
		ref = ref.DeepCopy()
		i := slices.IndexFunc(m.OwnerReferences, func(r api.OwnerReference) bool { return r.UID == ref.UID })
		if i >= 0 {
			m.OwnerReferences[i] = ref
		} else {
			m.OwnerReferences = append(m.OwnerReferences, ref)
		}
	}
	if len(m.OwnerReferences) == 0 {
		m.OwnerReferences = nil
	}

	if len(p.RemoveFinalizers) > 0 {
		m.Finalizers = slices.DeleteFunc(m.Finalizers, func(f string) bool {
			return slices.Contains(p.RemoveFinalizers, f)
		})
	}
	for _, f := range p.AddFinalizers {
		if !slices.Contains(m.Finalizers, f) {
			m.Finalizers = append(m.Finalizers, f)
		}
	}
	if len(m.Finalizers) == 0 {
		m.Finalizers = nil
	}
}

// patchMap removes and sets keys of m (a private copy) and returns the
// result, nil when empty.
func patchMap(m, set map[string]string, remove []string) map[string]string {
	if len(set) == 0 && len(remove) == 0 {
		return m
	}
	for _, k := range remove {
		delete(m, k)
	}
	if len(set) > 0 {
		if m == nil {
			m = make(map[string]string, len(set))
		}
		maps.Copy(m, set)
	}
	if len(m) == 0 {
		return nil
	}
	return m
}
