package apistore

import (
	"slices"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sorting"
)

// PropagationPolicy says what happens to an object's dependents when it is
// deleted. The garbage collector carries it out; the store only records the
// choice as a finalizer.
type PropagationPolicy string

// The propagation policies. The empty policy means the kind's default:
// Background for everything but core/v1 ReplicationControllers, which default
// to Orphan for compatibility with old clients.
const (
	// DeletePropagationOrphan leaves the dependents, removing their owner
	// reference; the store adds the "orphan" finalizer, which holds the owner
	// until the garbage collector has orphaned them.
	DeletePropagationOrphan PropagationPolicy = "Orphan"
	// DeletePropagationBackground removes the owner at once; the garbage
	// collector deletes the dependents afterwards. kubectl's default.
	DeletePropagationBackground PropagationPolicy = "Background"
	// DeletePropagationForeground keeps the owner, with the "foregroundDeletion"
	// finalizer, until the garbage collector has deleted the dependents that
	// block it.
	DeletePropagationForeground PropagationPolicy = "Foreground"
)

// DeleteOptions qualify a delete, as metav1.DeleteOptions do.
type DeleteOptions struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// GracePeriodSeconds overrides a pod's spec.terminationGracePeriodSeconds.
	// 0 removes the pod at once; a negative value counts as 1. Kinds without
	// graceful deletion ignore it.
	GracePeriodSeconds *int64
	// Preconditions must hold or the delete is a Conflict.
	Preconditions Preconditions
	// PropagationPolicy is "", Orphan, Background or Foreground.
	PropagationPolicy PropagationPolicy
}

// Preconditions of a delete. An empty field checks nothing.
type Preconditions struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// UID must be the stored object's uid: the delete is meant for this object,
	// not for another that took its name since.
	UID string
	// ResourceVersion must be the stored one: nobody wrote since the client read.
	ResourceVersion string
}

// GracePeriod returns DeleteOptions with the grace period set, for the common
// case of `delete --grace-period=N`, ready for Request.DeleteOptions.
func GracePeriod(seconds int64) *DeleteOptions {
	return &DeleteOptions{GracePeriodSeconds: &seconds}
}

// serveDelete deletes an object, following the API server's delete path
// (registry Store.Delete, rest.BeforeDelete and the pod strategy's
// CheckGracefulDelete):
//
//   - A pod is deleted gracefully: the first delete only sets deletionTimestamp
//     (now + grace period) and deletionGracePeriodSeconds, so the kubelet can
//     stop its containers; a later delete with grace 0 (or with a shorter grace
//     period, which moves the deadline closer) finishes it. A pod that was never
//     scheduled, or that has finished (Succeeded, Failed), has nothing to stop
//     and is removed at once; so is one deleted with grace 0.
//   - Other kinds are removed at once.
//   - An object with finalizers is never removed by a delete: it gets a
//     deletionTimestamp and stays until the last finalizer is removed by an
//     update or patch. Orphan and Foreground propagation add such a finalizer.
//   - Deleting an object already being deleted changes nothing and returns it,
//     unless it shortens a pod's grace period.
//
// As upstream, a pod removed at once (grace 0, unscheduled or finished) is
// first written with its deletionTimestamp and deletionGracePeriodSeconds 0 (a
// MODIFIED event) and then removed (DELETED): watchers see both, and the
// controllers count the first as the pod's deletion. Kinds without graceful
// deletion are removed in one step (DELETED only).
func (s *Store) serveDelete(info *kindInfo, req *Request) Response {
	opts := req.Delete()
	if resp, failed := s.fire(info, req, req.Name, req.Name); failed {
		return resp
	}
	switch opts.PropagationPolicy {
	case "", DeletePropagationOrphan, DeletePropagationBackground, DeletePropagationForeground:
	default:
		return Response{Err: newInvalid("DeleteOptions.meta.k8s.io", "meta.k8s.io", "DeleteOptions", "", fieldErrors{
			notSupported("propagationPolicy", string(opts.PropagationPolicy),
				string(DeletePropagationForeground), string(DeletePropagationBackground), string(DeletePropagationOrphan)),
		})}
	}
	stored := s.lookupStored(info, req.Namespace, req.Name)
	old := stored.obj
	if old == nil {
		return Response{Err: newNotFound(info, req.Name)}
	}
	om := old.Meta()
	if uid := opts.Preconditions.UID; uid != "" && uid != om.UID {
		return Response{Err: newConflict(info.group, string(info.kind), req.Name,
			"the UID in the precondition ("+uid+") does not match the UID in record ("+om.UID+
				"). The object might have been deleted and then recreated")}
	}
	if rv := opts.Preconditions.ResourceVersion; rv != "" && rv != om.ResourceVersion {
		return Response{Err: newConflict(info.group, string(info.kind), req.Name,
			"the ResourceVersion in the precondition ("+rv+") does not match the ResourceVersion in record ("+
				om.ResourceVersion+"). The object might have been modified")}
	}

	grace := opts.GracePeriodSeconds
	if grace != nil && *grace < 0 {
		one := int64(1)
		grace = &one
	}
	plan := s.beforeDelete(info, old, grace)
	if plan.pending {
		// A graceful deletion is already under way and this delete does not
		// shorten it. Finalizers cannot be changed through DeleteOptions now.
		return Response{Object: old, ResourceVersion: parseRV(om.ResourceVersion)}
	}

	changeFinalizers, finalizers := finalizersForGC(info, om.Finalizers, opts.PropagationPolicy)
	if plan.graceful || len(om.Finalizers) > 0 || changeFinalizers {
		// The write replaces the finalizers, the deletion fields and the
		// generation, and shares the rest with the stored version (see
		// shallowCopy).
		obj := shallowCopy(old)
		m := obj.Meta()
		if changeFinalizers {
			m.Finalizers = finalizers
		}
		pendingFinalizers := len(m.Finalizers) > 0
		switch {
		case plan.graceful:
			m.DeletionTimestamp = plan.deletionTimestamp
			m.DeletionGracePeriodSeconds = plan.grace
			if m.Generation > 0 {
				m.Generation++
			}
		case pendingFinalizers:
			// markAsDeleting: a kind without graceful deletion is marked with a
			// deletionTimestamp of now (or earlier) and grace 0, so that removing the
			// last finalizer removes it.
			if m.DeletionTimestamp == nil && m.Generation > 0 {
				m.Generation++
			}
			now := api.NewTime(s.now())
			if m.DeletionTimestamp == nil || now.Before(m.DeletionTimestamp) {
				m.DeletionTimestamp = &now
			}
			zero := int64(0)
			m.DeletionGracePeriodSeconds = &zero
		}
		if plan.graceful || pendingFinalizers {
			truncateTimes(obj)
			written := old
			var rv uint64
			if equalObjects(obj, old) {
				rv = parseRV(om.ResourceVersion)
			} else {
				var rvs string
				rv, rvs = s.nextRV()
				m.ResourceVersion = rvs
				s.store(info, obj, Modified, rv, stored.key)
				written = obj
			}
			if pendingFinalizers || *plan.grace > 0 {
				return Response{Object: written, ResourceVersion: rv, Events: s.lastEvents(info, countIf(written != old))}
			}
			// A graceful deletion with grace 0: the deletionTimestamp is written
			// (above), then the pod is removed, as upstream's registry does.
			rv, rvs := s.nextRV()
			s.drop(info, written, rv, rvs)
			return Response{Object: written, ResourceVersion: rv, Deleted: true,
				Events: s.lastEvents(info, 1+countIf(written != old))}
		}
		// No graceful deletion and no finalizers left: remove at once.
	}
	rv, rvs := s.nextRV()
	s.drop(info, old, rv, rvs)
	return Response{Object: old, ResourceVersion: rv, Deleted: true, Events: s.lastEvents(info, 1)}
}

// deletePlan is what rest.BeforeDelete decides for one delete.
type deletePlan struct {
	// graceful: write deletionTimestamp and grace before (maybe) removing.
	graceful bool
	// pending: a graceful deletion is under way and stays as it is.
	pending bool
	// deletionTimestamp and grace are the values to write when graceful.
	deletionTimestamp *api.Time
	grace             *int64
}

// beforeDelete reproduces rest.BeforeDelete with the pod strategy's
// CheckGracefulDelete. Only pods are deleted gracefully; for other kinds it
// decides nothing.
func (s *Store) beforeDelete(info *kindInfo, old api.Object, grace *int64) deletePlan {
	if !info.gracefulDelete {
		return deletePlan{}
	}
	pod := old.(*api.Pod)
	m := &pod.Metadata
	if m.DeletionTimestamp != nil {
		current := m.DeletionGracePeriodSeconds
		if current == nil || *current == 0 {
			// Marked with grace 0 but not removed (finalizers hold it): a delete
			// goes through to the removal path.
			return deletePlan{}
		}
		if grace == nil || *grace >= *current {
			return deletePlan{pending: true}
		}
		// A shorter grace period moves the deadline closer: from the time the
		// deletion was requested, by the new grace period.
		requested := m.DeletionTimestamp.Add(-time.Duration(*current) * time.Second)
		deadline := api.NewTime(requested.Add(time.Duration(*grace) * time.Second))
		period := *grace
		return deletePlan{graceful: true, deletionTimestamp: &deadline, grace: &period}
	}
	period := int64(0)
	switch {
	case grace != nil:
		period = *grace
	case pod.Spec.TerminationGracePeriodSeconds != nil:
		period = *pod.Spec.TerminationGracePeriodSeconds
	}
	// Nothing runs that would need stopping: remove at once.
	if pod.Spec.NodeName == "" || isTerminal(pod) {
		period = 0
	}
	if period < 0 {
		period = 1
	}
	deadline := api.NewTime(s.now().Add(time.Duration(period) * time.Second))
	return deletePlan{graceful: true, deletionTimestamp: &deadline, grace: &period}
}

// finalizersForGC reproduces deletionFinalizersForGarbageCollection: the
// finalizers an object should carry for the delete's propagation policy, and
// whether that differs from what it carries.
func finalizersForGC(info *kindInfo, current []string, policy PropagationPolicy) (bool, []string) {
	orphan, foreground := false, false
	switch policy {
	case DeletePropagationOrphan:
		orphan = true
	case DeletePropagationForeground:
		foreground = true
	case DeletePropagationBackground:
	default:
		// No policy: an existing finalizer decides, else the kind's default.
		switch {
		case slices.Contains(current, FinalizerOrphanDependents):
			orphan = true
		case slices.Contains(current, FinalizerDeleteDependents):
		default:
			orphan = info.orphanByDefault
		}
	}
	var out []string
	for _, f := range current {
		if f != FinalizerOrphanDependents && f != FinalizerDeleteDependents {
			out = append(out, f)
		}
	}
	if orphan {
		out = append(out, FinalizerOrphanDependents)
	}
	if foreground {
		out = append(out, FinalizerDeleteDependents)
	}
	if sameSet(current, out) {
		return false, current
	}
	return true, out
}

// sameSet reports whether two finalizer lists hold the same names.
func sameSet(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}

func countIf(b bool) int {
	if b {
		return 1
	}
	return 0
}

// PendingDeletion is a pod whose graceful deletion is under way.
type PendingDeletion struct {
	Namespace, Name, UID string
	// Deadline is the pod's deletionTimestamp: when its grace period ends and it
	// should be removed (by a delete with grace 0) if its kubelet has not yet
	// removed it.
	Deadline time.Time
}

// DeletionDeadline returns when an object's graceful deletion ends (its
// deletionTimestamp) and true, or false when no graceful deletion with time
// left is under way. A kernel component schedules a forced removal (a delete
// with grace 0 and the object's uid as precondition) at that time.
func DeletionDeadline(obj api.Object) (time.Time, bool) {
	m := obj.Meta()
	if m.DeletionTimestamp == nil || m.DeletionGracePeriodSeconds == nil || *m.DeletionGracePeriodSeconds == 0 {
		return time.Time{}, false
	}
	return m.DeletionTimestamp.Time, true
}

// PendingDeletions lists the pods in their grace period, earliest deadline
// first (ties by key). After a restore, this is how a kernel component finds
// the deadlines it must schedule again. It is a direct read, not a request.
func (s *Store) PendingDeletions() []PendingDeletion {
	var out []PendingDeletion
	for _, obj := range s.Objects(api.KindPod, "") {
		if deadline, ok := DeletionDeadline(obj); ok {
			m := obj.Meta()
			out = append(out, PendingDeletion{Namespace: m.Namespace, Name: m.Name, UID: m.UID, Deadline: deadline})
		}
	}
	sorting.Stable(out, func(a, b PendingDeletion) int { return a.Deadline.Compare(b.Deadline) })
	return out
}
