package api

// PodReadyCondition returns the pod's first condition of type Ready, or nil
// when it has none. Upstream's podutil.GetPodReadyCondition also looks only at
// the first one, so a pod whose status somehow lists two Ready conditions is
// judged by the first.
func PodReadyCondition(p *Pod) *PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == PodReady {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// IsPodReady reports whether the pod's Ready condition is True: the kubelet
// says every container passes its readiness probe. It models upstream's
// podutil.IsPodReady.
func IsPodReady(p *Pod) bool {
	c := PodReadyCondition(p)
	return c != nil && c.Status == ConditionTrue
}
