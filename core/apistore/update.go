package apistore

import (
	"slices"
	"strconv"

	"github.com/reconcilelab/rlab/core/api"
)

// serveUpdate replaces an object through the main resource or, with status,
// through the status subresource.
func (s *Store) serveUpdate(info *kindInfo, req *Request, status bool) Response {
	if req.Object == nil {
		return Response{Err: newBadRequest("the request has no object")}
	}
	if req.Object.Kind() != info.kind {
		return Response{Err: newBadRequest("the object is a " + string(req.Object.Kind()) + ", not a " + string(info.kind))}
	}
	var obj api.Object
	whole := false
	if status {
		obj, whole = copyForStatusUpdate(req.Object)
	} else {
		obj = req.Object.DeepCopyObject()
	}
	m := obj.Meta()
	if err := reconcileNamespace(info, m, req.Namespace); err != nil {
		return Response{Err: err}
	}
	if req.Name != "" && req.Name != m.Name {
		return Response{Err: newBadRequest("the name of the object (" + m.Name +
			") does not match the name on the URL (" + req.Name + ")")}
	}
	if m.Name == "" {
		return Response{Err: newBadRequest("resource name may not be empty")}
	}
	if resp, failed := s.fire(info, req, m.Name, m.Name); failed {
		return resp
	}
	old := s.lookupStored(info, m.Namespace, m.Name)
	if old.obj == nil {
		return Response{Err: newNotFound(info, m.Name)}
	}
	if !status {
		// A status update takes the whole spec from the stored object (see
		// prepareForStatusUpdate), so defaults filled into the sent one would
		// only be thrown away.
		setDefaults(obj)
	}
	return s.applyUpdate(info, old, obj, status, whole)
}

// applyUpdate writes obj (the store's private copy, with the client's changes)
// over old. Update, status update and patch all end here. The steps are the API
// server's update path (registry Store.Update and rest.BeforeUpdate):
//
//  1. Optimistic concurrency: a resourceVersion in obj must be the stored one,
//     or the write is a Conflict: someone else wrote since the client read. No
//     resourceVersion means an unconditional update, which these kinds allow.
//  2. The strategy: the fields this endpoint may not change are taken from old.
//  3. Validation.
//  4. An object being deleted whose last finalizer this write removes is
//     deleted now instead.
//  5. A write that changes nothing is skipped: no new resourceVersion, no event.
//
// whole tells that every time of obj is whole seconds once the strategy has
// taken from old what the endpoint may not change (see
// copyForStatusUpdate): truncating them would write nothing, and is skipped.
func (s *Store) applyUpdate(info *kindInfo, stored storedObject, obj api.Object, status, whole bool) Response {
	old := stored.obj
	m, om := obj.Meta(), old.Meta()
	if m.ResourceVersion != "" && m.ResourceVersion != om.ResourceVersion {
		return Response{Err: newOptimisticConflict(info, m.Name)}
	}
	m.ResourceVersion = om.ResourceVersion

	m.Generation = om.Generation
	if status {
		prepareForStatusUpdate(obj, old)
	} else {
		prepareForUpdate(obj, old)
	}
	if m.UID == "" {
		m.UID = om.UID
	}
	m.CreationTimestamp = om.CreationTimestamp
	if om.DeletionTimestamp != nil {
		m.DeletionTimestamp = om.DeletionTimestamp
	}
	if om.DeletionGracePeriodSeconds != nil && m.DeletionGracePeriodSeconds == nil {
		m.DeletionGracePeriodSeconds = om.DeletionGracePeriodSeconds
	}
	if !whole {
		truncateTimes(obj)
	}

	var errs fieldErrors
	if status {
		errs = validateStatusUpdate(obj, old)
	} else {
		errs = validateUpdate(obj, old)
	}
	if len(errs) > 0 {
		return Response{Err: newInvalidObject(info, m.Name, errs)}
	}

	if deletionComplete(m, om) {
		// The object last stored is what the DELETED event carries, finalizers
		// and all, as an etcd watch reports the state before the deletion.
		rv, rvs := s.nextRV()
		s.drop(info, old, rv, rvs)
		return Response{Object: old, ResourceVersion: rv, Deleted: true, Events: s.lastEvents(info, 1)}
	}
	if equalObjects(obj, old) {
		return Response{Object: old, ResourceVersion: parseRV(om.ResourceVersion)}
	}
	if pod, ok := obj.(*api.Pod); ok && status {
		s.statuses.share(&pod.Status)
	}
	rv, rvs := s.nextRV()
	m.ResourceVersion = rvs
	s.store(info, obj, Modified, rv, stored.key)
	return Response{Object: obj, ResourceVersion: rv, Events: s.lastEvents(info, 1)}
}

// deletionComplete reports whether a write leaves an object that is being
// deleted with nothing left to wait for: no finalizers, and no grace period
// running (upstream's ShouldDeleteDuringUpdate). A pod in its grace period keeps
// waiting for its kubelet even when its finalizers are gone.
func deletionComplete(m, old *api.ObjectMeta) bool {
	if len(m.Finalizers) > 0 || old.DeletionTimestamp == nil {
		return false
	}
	return old.DeletionGracePeriodSeconds == nil || *old.DeletionGracePeriodSeconds == 0
}

// parseRV reads a resourceVersion the store wrote.
func parseRV(rv string) uint64 {
	n, _ := strconv.ParseUint(rv, 10, 64)
	return n
}

// serveBind binds a pod to a node (create on pods/binding), as the scheduler
// does. Upstream's binding storage updates the pod directly, without the pod
// update strategy, and refuses to bind a pod twice or a pod being deleted.
func (s *Store) serveBind(info *kindInfo, req *Request) Response {
	if resp, failed := s.fire(info, req, req.Name, req.Name); failed {
		return resp
	}
	if errs := validateBinding(req.NodeName); len(errs) > 0 {
		return Response{Err: newInvalid("Binding", "", "Binding", req.Name, errs)}
	}
	stored := s.lookupStored(info, req.Namespace, req.Name)
	old, _ := stored.obj.(*api.Pod)
	if old == nil {
		return Response{Err: newNotFound(info, req.Name)}
	}
	if old.Metadata.DeletionTimestamp != nil {
		return Response{Err: newConflict("", "pods/binding", req.Name,
			"pod "+req.Name+" is being deleted, cannot be assigned to a host")}
	}
	if old.Spec.NodeName != "" {
		return Response{Err: newConflict("", "pods/binding", req.Name,
			"pod "+req.Name+" is already assigned to node "+strconv.Quote(old.Spec.NodeName))}
	}
	// A binding changes the node and one condition. The new version shares
	// everything else with the stored one (both are read-only). The
	// condition list, which setPodCondition writes in place, is written in
	// the store's buffer, and copied into a list of the pod's own only when
	// it differs from the last status stored: the pods a scheduler binds in
	// one second end with equal conditions, and statuses.share gives them
	// the remembered list in place of their own, which was then made for
	// nothing.
	pod := shallowCopy(old).(*api.Pod)
	pod.Spec.NodeName = req.NodeName
	pod.Status.Conditions = append(s.bindConditions[:0], old.Status.Conditions...)
	setPodCondition(&pod.Status, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue},
		api.NewTime(s.now()))
	truncateTimes(pod)
	s.bindConditions = pod.Status.Conditions[:0]
	if !slices.EqualFunc(pod.Status.Conditions, s.statuses.conditions, api.SamePodCondition) {
		pod.Status.Conditions = append(make([]api.PodCondition, 0, len(pod.Status.Conditions)), pod.Status.Conditions...)
	}
	s.statuses.share(&pod.Status)
	rv, rvs := s.nextRV()
	pod.Metadata.ResourceVersion = rvs
	s.store(info, pod, Modified, rv, stored.key)
	return Response{Object: pod, ResourceVersion: rv, Events: s.lastEvents(info, 1)}
}

// setPodCondition sets a condition as upstream's UpdatePodCondition does: the
// transition time moves only when the status changes.
func setPodCondition(status *api.PodStatus, c api.PodCondition, now api.Time) {
	for i := range status.Conditions {
		old := &status.Conditions[i]
		if old.Type != c.Type {
			continue
		}
		if old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		} else {
			c.LastTransitionTime = now
		}
		*old = c
		return
	}
	c.LastTransitionTime = now
	status.Conditions = append(status.Conditions, c)
}
