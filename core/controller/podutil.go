package controller

import (
	"strconv"
	"time"

	"github.com/reconcilelab/rlab/core/api"
)

// This file holds the small facts about one pod that the replication manager
// asks again and again: is it active, is it terminating, is it ready, is it
// available, how often did it restart, what does it cost to delete. They model
// the helpers of upstream's pkg/controller/controller_utils.go and
// pkg/api/v1/pod/util.go. Every one of them runs for every pod of a namespace
// on every sync, so none of them allocates.

// PodKey returns the key the expectations record a pod deletion under:
// "namespace/name". It models upstream's PodKey, which always writes the slash,
// so it differs from api.Key only for a pod without a namespace, which the API
// store never holds. Use it, and only it, on both sides of ExpectDeletions and
// DeletionObserved.
func PodKey(pod *api.Pod) string {
	return pod.Metadata.Namespace + "/" + pod.Metadata.Name
}

// isPodTerminal reports whether the pod's containers have all stopped for
// good: phase Succeeded or Failed. Upstream calls this IsPodTerminal.
func isPodTerminal(p *api.Pod) bool {
	return p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
}

// IsPodActive reports whether a pod still counts toward a ReplicaSet's
// replicas: it has not finished (phase is neither Succeeded nor Failed) and no
// one has asked to delete it (no deletionTimestamp). It models upstream's
// IsPodActive. A pod being gracefully deleted is no longer active even though
// its containers may run for its whole grace period, which is why a scale-down
// is seen at once and a replacement is created before the old pod is gone.
func IsPodActive(p *api.Pod) bool {
	return !isPodTerminal(p) && p.Metadata.DeletionTimestamp == nil
}

// IsPodTerminating reports whether a pod is on its way out but not finished:
// it has a deletionTimestamp and its phase is neither Succeeded nor Failed. It
// models upstream's IsPodTerminating (v1.33), which counts such pods into
// status.terminatingReplicas; v1.31 has no such field, so here the count is
// only something to show.
func IsPodTerminating(p *api.Pod) bool {
	return !isPodTerminal(p) && p.Metadata.DeletionTimestamp != nil
}

// FilterActivePods returns the active pods, in their order. It models
// upstream's FilterActivePods.
//
// When every pod is active, which is the usual case, it returns pods itself
// with its capacity cut to its length, so a sync of a large namespace does
// not copy the whole list: the result shares memory with the argument, and
// appending to it cannot write into the argument. Neither is ever changed in
// place by this package; a caller that sorts one in place must copy first.
func FilterActivePods(pods []*api.Pod) []*api.Pod {
	for i, p := range pods {
		if IsPodActive(p) {
			continue
		}
		// The first inactive pod: copy the active prefix and filter the rest.
		result := make([]*api.Pod, i, len(pods)-1)
		copy(result, pods[:i])
		for _, q := range pods[i+1:] {
			if IsPodActive(q) {
				result = append(result, q)
			}
		}
		return result
	}
	return pods[:len(pods):len(pods)]
}

// FilterTerminatingPods returns the terminating pods (see IsPodTerminating),
// in their order, or nil when there are none. It models upstream's
// FilterTerminatingPods.
func FilterTerminatingPods(pods []*api.Pod) []*api.Pod {
	var result []*api.Pod
	for _, p := range pods {
		if IsPodTerminating(p) {
			result = append(result, p)
		}
	}
	return result
}

// CountTerminatingPods returns how many pods are terminating, without
// building a list. It models upstream's CountTerminatingPods.
func CountTerminatingPods(pods []*api.Pod) int32 {
	var n int32
	for _, p := range pods {
		if IsPodTerminating(p) {
			n++
		}
	}
	return n
}

// IsPodReady reports whether the pod's Ready condition is True. It is
// api.IsPodReady, which holds the rule, under the name upstream's controller
// code calls it by (podutil.IsPodReady).
func IsPodReady(p *api.Pod) bool { return api.IsPodReady(p) }

// IsPodAvailable reports whether a pod is ready and has stayed ready for
// minReadySeconds by now. It models upstream's podutil.IsPodAvailable, with its
// two sharp edges: the time must have passed strictly (ready at 10:00:00 with
// minReadySeconds 5 is available from just after 10:00:05, not at it), and a
// ready pod whose Ready condition carries no lastTransitionTime is never
// available while minReadySeconds > 0, because there is nothing to measure
// from.
func IsPodAvailable(p *api.Pod, minReadySeconds int32, now time.Time) bool {
	return availableCondition(api.PodReadyCondition(p), minReadySeconds, now)
}

// availableCondition is IsPodAvailable given the pod's Ready condition (nil
// when it has none), so that a caller that has it already need not look again.
func availableCondition(c *api.PodCondition, minReadySeconds int32, now time.Time) bool {
	if c == nil || c.Status != api.ConditionTrue {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	if c.LastTransitionTime.IsZero() {
		return false
	}
	return c.LastTransitionTime.Add(time.Duration(minReadySeconds) * time.Second).Before(now)
}

// podReadyTime returns when the pod last became ready, or the zero time when
// it is not ready or the condition carries no time. It models upstream's
// podReadyTime, which looks for the first Ready condition whose status is
// True: once the pod is ready, that is its first Ready condition.
func podReadyTime(p *api.Pod) time.Time {
	c := api.PodReadyCondition(p)
	if c == nil || c.Status != api.ConditionTrue {
		return time.Time{}
	}
	return c.LastTransitionTime.Time
}

// maxContainerRestarts returns the highest restart count of any container of
// the pod, 0 when it reports none. It models upstream's maxContainerRestarts:
// a pod with one crash-looping container counts as restarted that often.
func maxContainerRestarts(p *api.Pod) int {
	most := 0
	for i := range p.Status.ContainerStatuses {
		most = max(most, int(p.Status.ContainerStatuses[i].RestartCount))
	}
	return most
}

// getDeletionCost returns the pod's controller.kubernetes.io/pod-deletion-cost
// annotation as an int32, or 0 when it is missing or invalid. It models
// upstream's GetDeletionCostFromPodAnnotations, whose rules for "invalid" are
// stricter than strconv's: a leading '+' ("+10") and leading zeros ("007")
// are refused, so those pods cost 0, while "-007" is read as -7 because a
// value starting with '-' goes straight to the parser. Values outside the
// int32 range are invalid too.
func getDeletionCost(p *api.Pod) int32 {
	value, ok := p.Metadata.Annotations[api.PodDeletionCostAnnotation]
	if !ok || !validFirstDigit(value) {
		return 0
	}
	n, err := strconv.ParseInt(value, 10, 32)
	if err != nil {
		return 0
	}
	return int32(n)
}

// validFirstDigit is upstream's check that a deletion cost does not start
// with '+' or a superfluous '0'.
func validFirstDigit(s string) bool {
	if s == "" {
		return false
	}
	return s[0] == '-' || s == "0" || (s[0] >= '1' && s[0] <= '9')
}
