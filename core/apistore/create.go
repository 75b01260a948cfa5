package apistore

import (
	"github.com/reconcilelab/rlab/core/api"
)

// serveCreate stores a new object. The steps follow the API server's create
// path (registry Store.Create and rest.BeforeCreate): copy, default, reset what
// the client may not set, generate the name, admission (here: the fault rules),
// validate, and only then check that the name is free and write.
func (s *Store) serveCreate(info *kindInfo, req *Request) Response {
	if req.Object == nil {
		return Response{Err: newBadRequest("the request has no object")}
	}
	if req.Object.Kind() != info.kind {
		return Response{Err: newBadRequest("the object is a " + string(req.Object.Kind()) + ", not a " + string(info.kind))}
	}
	obj := copyForCreate(req.Object)
	m := obj.Meta()
	if err := reconcileNamespace(info, m, req.Namespace); err != nil {
		return Response{Err: err}
	}
	if m.ResourceVersion != "" {
		// A resourceVersion on a new object means the client confused create with
		// update. Upstream's storage refuses it with this plain server error.
		return Response{Err: &StatusError{Code: 500, Reason: ReasonUnknown,
			Message: "resourceVersion should not be set on objects to be created"}}
	}

	setDefaults(obj)
	m.DeletionTimestamp = nil
	m.DeletionGracePeriodSeconds = nil
	prepareForCreate(info, obj)

	// generateName: draw names until one is free, at most
	// maxNameGenerationAttempts times. When every draw is taken, the last one is
	// kept, and the create fails below with AlreadyExists.
	generated := false
	if m.Name == "" && m.GenerateName != "" {
		generated = true
		for attempt := 0; attempt < maxNameGenerationAttempts; attempt++ {
			m.Name = generateName(s.rand, m.GenerateName)
			if s.lookup(info, m.Namespace, m.Name) == nil {
				break
			}
		}
	}

	// Admission. Quota admission runs after the name is generated, so its
	// refusal names the pod; the NamespaceLifecycle plugin runs before, so its
	// refusal names the generateName.
	shown := m.Name
	if generated {
		shown = m.GenerateName
	}
	if resp, failed := s.fire(info, req, m.Name, shown); failed {
		return resp
	}

	s.shareLabels(info, obj)
	if errs := validateCreate(info, obj, &s.validLabels, &s.validNames); len(errs) > 0 {
		return Response{Err: newInvalidObject(info, m.Name, errs)}
	}
	if s.lookup(info, m.Namespace, m.Name) != nil {
		if generated {
			return Response{Err: newGenerateNameConflict(info, m.Name)}
		}
		return Response{Err: newAlreadyExists(info, m.Name)}
	}

	// The system fields: a uid drawn from the seeded source, and the creation
	// time from the logical clock.
	m.UID = newUID(s.rand)
	m.CreationTimestamp = api.NewTime(s.now())
	truncateTimes(obj)

	rv, rvs := s.nextRV()
	m.ResourceVersion = rvs
	s.store(info, obj, Added, rv, "")
	return Response{Object: obj, ResourceVersion: rv, Events: s.lastEvents(info, 1)}
}

// copyForCreate copies the object a client sent to create, as the store's
// own. Pods and Events, which worlds create by the thousand, are copied
// shallowly: the copy shares the sent object's labels, annotations, owner
// references, finalizers and containers. That is safe because the create
// path above only sets the copy's own fields (metadata's values, the spec's
// defaults, a fresh status) or points them elsewhere (labels shared with a
// stored template's), and never writes into what it shares; and because a
// client never changes an object it has sent (see Request.Object), which a
// request in flight, held by the agenda and its snapshots, could not allow
// anyway. A deep copy of every new pod was a tenth of the bytes a world of
// 10 ReplicaSets of 1,000 pods allocated. Other kinds are copied whole: a
// ReplicationController's template is a pointer its defaults write through.
func copyForCreate(obj api.Object) api.Object {
	switch obj.(type) {
	case *api.Pod, *api.Event:
		return shallowCopy(obj)
	}
	return obj.DeepCopyObject()
}
