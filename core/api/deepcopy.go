package api

import "maps"

// The DeepCopy functions are written by hand: the types are few, and a
// generator would be one more tool for a contributor to learn. The round-trip
// tests in deepcopy_test.go fill every field through reflection and fail if a
// copy shares memory with its original, so a field added without a copy here
// does not go unnoticed.

// copyStringMap uses maps.Clone rather than a range loop: the copy does not
// depend on iteration order, and the determinism lint forbids ranging over maps.
func copyStringMap(m map[string]string) map[string]string { return maps.Clone(m) }

func copyStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append(make([]string, 0, len(s)), s...)
}

func copyBoolPtr(p *bool) *bool {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func copyInt64Ptr(p *int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func copyInt32Ptr(p *int32) *int32 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func copyTimePtr(p *Time) *Time {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// DeepCopy returns a copy of the reference that shares no memory with r.
func (r OwnerReference) DeepCopy() OwnerReference {
	r.Controller = copyBoolPtr(r.Controller)
	r.BlockOwnerDeletion = copyBoolPtr(r.BlockOwnerDeletion)
	return r
}

// DeepCopy returns a copy of the metadata that shares no memory with m.
func (m *ObjectMeta) DeepCopy() ObjectMeta {
	out := *m
	out.DeletionTimestamp = copyTimePtr(m.DeletionTimestamp)
	out.DeletionGracePeriodSeconds = copyInt64Ptr(m.DeletionGracePeriodSeconds)
	out.Labels = copyStringMap(m.Labels)
	out.Annotations = copyStringMap(m.Annotations)
	if m.OwnerReferences != nil {
		out.OwnerReferences = make([]OwnerReference, len(m.OwnerReferences))
		for i, r := range m.OwnerReferences {
			out.OwnerReferences[i] = r.DeepCopy()
		}
	}
	out.Finalizers = copyStrings(m.Finalizers)
	return out
}

// DeepCopy returns a copy of the spec that shares no memory with s.
func (s *PodSpec) DeepCopy() PodSpec {
	out := *s
	if s.Containers != nil {
		out.Containers = append(make([]Container, 0, len(s.Containers)), s.Containers...)
	}
	out.TerminationGracePeriodSeconds = copyInt64Ptr(s.TerminationGracePeriodSeconds)
	return out
}

// DeepCopy returns a copy of the status that shares no memory with s.
func (s *PodStatus) DeepCopy() PodStatus {
	out := *s
	if s.Conditions != nil {
		out.Conditions = append(make([]PodCondition, 0, len(s.Conditions)), s.Conditions...)
	}
	out.StartTime = copyTimePtr(s.StartTime)
	if s.ContainerStatuses != nil {
		out.ContainerStatuses = make([]ContainerStatus, len(s.ContainerStatuses))
		for i, c := range s.ContainerStatuses {
			c.Started = copyBoolPtr(c.Started)
			out.ContainerStatuses[i] = c
		}
	}
	return out
}

// DeepCopy returns a copy of the pod that shares no memory with p.
func (p *Pod) DeepCopy() *Pod {
	if p == nil {
		return nil
	}
	return &Pod{
		TypeMeta: p.TypeMeta,
		Metadata: p.Metadata.DeepCopy(),
		Spec:     p.Spec.DeepCopy(),
		Status:   p.Status.DeepCopy(),
	}
}

// DeepCopy returns a copy of the template that shares no memory with t.
func (t *PodTemplateSpec) DeepCopy() *PodTemplateSpec {
	if t == nil {
		return nil
	}
	return &PodTemplateSpec{Metadata: t.Metadata.DeepCopy(), Spec: t.Spec.DeepCopy()}
}

// DeepCopy returns a copy of the selector that shares no memory with s.
func (s *LabelSelector) DeepCopy() *LabelSelector {
	if s == nil {
		return nil
	}
	out := &LabelSelector{MatchLabels: copyStringMap(s.MatchLabels)}
	if s.MatchExpressions != nil {
		out.MatchExpressions = make([]LabelSelectorRequirement, len(s.MatchExpressions))
		for i, r := range s.MatchExpressions {
			r.Values = copyStrings(r.Values)
			out.MatchExpressions[i] = r
		}
	}
	return out
}

// DeepCopy returns a copy of the ReplicaSet that shares no memory with r.
func (r *ReplicaSet) DeepCopy() *ReplicaSet {
	if r == nil {
		return nil
	}
	out := &ReplicaSet{TypeMeta: r.TypeMeta, Metadata: r.Metadata.DeepCopy()}
	out.Spec = ReplicaSetSpec{
		Replicas:        copyInt32Ptr(r.Spec.Replicas),
		MinReadySeconds: r.Spec.MinReadySeconds,
		Selector:        r.Spec.Selector.DeepCopy(),
		Template:        *r.Spec.Template.DeepCopy(),
	}
	out.Status = r.Status
	if r.Status.Conditions != nil {
		out.Status.Conditions = append(make([]ReplicaSetCondition, 0, len(r.Status.Conditions)), r.Status.Conditions...)
	}
	return out
}

// DeepCopy returns a copy of the ReplicationController that shares no memory
// with r.
func (r *ReplicationController) DeepCopy() *ReplicationController {
	if r == nil {
		return nil
	}
	out := &ReplicationController{TypeMeta: r.TypeMeta, Metadata: r.Metadata.DeepCopy()}
	out.Spec = ReplicationControllerSpec{
		Replicas:        copyInt32Ptr(r.Spec.Replicas),
		MinReadySeconds: r.Spec.MinReadySeconds,
		Selector:        copyStringMap(r.Spec.Selector),
		Template:        r.Spec.Template.DeepCopy(),
	}
	out.Status = r.Status
	if r.Status.Conditions != nil {
		out.Status.Conditions = append(make([]ReplicationControllerCondition, 0, len(r.Status.Conditions)), r.Status.Conditions...)
	}
	return out
}

// DeepCopy returns a copy of the node that shares no memory with n.
func (n *Node) DeepCopy() *Node {
	if n == nil {
		return nil
	}
	out := &Node{TypeMeta: n.TypeMeta, Metadata: n.Metadata.DeepCopy(), Spec: n.Spec, Status: n.Status}
	if n.Status.Conditions != nil {
		out.Status.Conditions = append(make([]NodeCondition, 0, len(n.Status.Conditions)), n.Status.Conditions...)
	}
	return out
}

// DeepCopy returns a copy of the Event that shares no memory with e.
func (e *Event) DeepCopy() *Event {
	if e == nil {
		return nil
	}
	out := *e
	out.Metadata = e.Metadata.DeepCopy()
	return &out
}
