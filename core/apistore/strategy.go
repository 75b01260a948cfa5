package apistore

import (
	"maps"
	"slices"

	"github.com/reconcilelab/rlab/core/api"
)

// This file holds what upstream calls the defaulting functions and the
// registry strategies: the per-kind rules the API server applies to an object
// between decoding a request and validating it. They run on the store's
// private copy of the request's object.

// defaultTerminationGracePeriodSeconds is what a pod gets when it names no grace
// period, as in Kubernetes.
const defaultTerminationGracePeriodSeconds int64 = 30

// setDefaults fills the fields the API server defaults when it decodes an
// object (SetDefaults_* in k8s.io/kubernetes/pkg/apis/*/v1). It runs on create
// and on update, as decoding does.
func setDefaults(obj api.Object) {
	switch o := obj.(type) {
	case *api.Pod:
		defaultPodSpec(&o.Spec)
	case *api.ReplicaSet:
		if o.Spec.Replicas == nil {
			one := int32(1)
			o.Spec.Replicas = &one
		}
		defaultPodSpec(&o.Spec.Template.Spec)
	case *api.ReplicationController:
		// A ReplicationController without a selector selects its template's labels,
		// and one without labels wears them too: the v1 API has always filled both
		// in, which is why `create rc` needs only a template.
		if o.Spec.Template != nil {
			if tl := o.Spec.Template.Metadata.Labels; tl != nil {
				if len(o.Spec.Selector) == 0 {
					o.Spec.Selector = maps.Clone(tl)
				}
				if len(o.Metadata.Labels) == 0 {
					o.Metadata.Labels = maps.Clone(tl)
				}
			}
			defaultPodSpec(&o.Spec.Template.Spec)
		}
		if o.Spec.Replicas == nil {
			one := int32(1)
			o.Spec.Replicas = &one
		}
	case *api.Deployment:
		defaultDeployment(o)
	}
}

// defaultPodSpec applies SetDefaults_PodSpec to the fields this model keeps.
func defaultPodSpec(spec *api.PodSpec) {
	if spec.RestartPolicy == "" {
		spec.RestartPolicy = api.RestartAlways
	}
	if spec.TerminationGracePeriodSeconds == nil {
		grace := defaultTerminationGracePeriodSeconds
		spec.TerminationGracePeriodSeconds = &grace
	}
}

// prepareForCreate resets what a client may not choose on create (the
// strategies' PrepareForCreate): a new pod is Pending whatever status it was
// sent with; a new ReplicaSet or ReplicationController starts with an empty
// status at generation 1. Nodes keep their status: a kubelet registers its node
// with one. The store owns generation; kinds without one get 0.
func prepareForCreate(info *kindInfo, obj api.Object) {
	m := obj.Meta()
	m.Generation = 0
	if info.hasGeneration {
		m.Generation = 1
	}
	switch o := obj.(type) {
	case *api.Pod:
		o.Status = api.PodStatus{Phase: api.PodPending}
	case *api.ReplicaSet:
		o.Status = api.ReplicaSetStatus{}
	case *api.ReplicationController:
		o.Status = api.ReplicationControllerStatus{}
	case *api.Deployment:
		o.Status = api.DeploymentStatus{}
	}
}

// prepareForUpdate applies the main resource's update strategy: status cannot
// be written through the main resource (it is taken from the stored object), and
// a change of spec bumps metadata.generation, which is how a controller learns
// that there is new desired state to observe.
func prepareForUpdate(obj, old api.Object) {
	m, om := obj.Meta(), old.Meta()
	switch o := obj.(type) {
	case *api.Pod:
		o.Status = old.(*api.Pod).Status
	case *api.ReplicaSet:
		prev := old.(*api.ReplicaSet)
		o.Status = prev.Status
		if !eqRSSpec(&o.Spec, &prev.Spec) {
			m.Generation = om.Generation + 1
		}
	case *api.ReplicationController:
		prev := old.(*api.ReplicationController)
		o.Status = prev.Status
		if !eqRCSpec(&o.Spec, &prev.Spec) {
			m.Generation = om.Generation + 1
		}
	case *api.Deployment:
		prepareDeploymentUpdate(o, old.(*api.Deployment))
	case *api.Node:
		o.Status = old.(*api.Node).Status
	}
}

// prepareForStatusUpdate applies the status subresource's strategy: only
// status changes. Spec is taken from the stored object, and so is the metadata
// that other writers own (labels, annotations, owner references, finalizers,
// deletionTimestamp, generation), as upstream's ResetObjectMetaForStatus does.
// A status write therefore never bumps generation and cannot undo an adoption
// or a label change that raced with it.
func prepareForStatusUpdate(obj, old api.Object) {
	m, om := obj.Meta(), old.Meta()
	if d, ok := obj.(*api.Deployment); ok {
		prepareDeploymentStatusUpdate(d, old.(*api.Deployment))
		m.DeletionTimestamp = om.DeletionTimestamp
		m.Generation = om.Generation
		return
	}
	m.Labels = om.Labels
	m.Annotations = om.Annotations
	m.OwnerReferences = om.OwnerReferences
	m.Finalizers = om.Finalizers
	m.DeletionTimestamp = om.DeletionTimestamp
	m.Generation = om.Generation
	switch o := obj.(type) {
	case *api.Pod:
		o.Spec = old.(*api.Pod).Spec
	case *api.ReplicaSet:
		o.Spec = old.(*api.ReplicaSet).Spec
	case *api.ReplicationController:
		o.Spec = old.(*api.ReplicationController).Spec
	case *api.Node:
		o.Spec = old.(*api.Node).Spec
	}
}

// copyForStatusUpdate copies the object a client sent to the status
// subresource, as the store's private copy. For a Pod, a ReplicaSet and a
// ReplicationController it copies only what the write keeps: the status,
// and the metadata but for the labels, annotations, owner references and
// finalizers, which prepareForStatusUpdate takes from the stored object
// together with the spec. Kubelets write a pod's status several times in its
// life, and a ReplicaSet controller writes its owner's status after most
// syncs; cloning labels, owner references and a whole pod template only to
// drop them was most of the cost. Other kinds are copied whole: a
// Deployment's status update keeps the annotations it was sent.
//
// The bool reports that every time the copy will hold, once applyUpdate has
// taken the rest of it from the stored object, is whole seconds already, so
// that truncating its times would write nothing: it is true for a pod whose
// status times all are, as a kubelet sends them.
func copyForStatusUpdate(obj api.Object) (api.Object, bool) {
	switch o := obj.(type) {
	case *api.Pod:
		c := &api.Pod{TypeMeta: o.TypeMeta, Metadata: o.Metadata, Status: o.Status}
		dropOthersMeta(&c.Metadata)
		if podStatusTruncated(&c.Status) {
			// Every time is whole seconds already, as a kubelet sends them,
			// so truncateTimes will write nothing: the stored pod shares
			// the sent status's lists and start time, which the sender
			// never changes (see Request.Object). A pod's status is
			// written several times in its life, and its deep copy was 6%
			// of the bytes a world of 10,000 pods allocated.
			return c, true
		}
		c.Status = o.Status.DeepCopy()
		// The start time is the copy's own: truncated here, in place,
		// truncateTimes keeps it instead of allocating a truncated copy.
		if st := c.Status.StartTime; st != nil {
			*st = truncTime(*st)
		}
		return c, false
	case *api.ReplicaSet:
		c := &api.ReplicaSet{TypeMeta: o.TypeMeta, Metadata: o.Metadata, Status: o.Status}
		dropOthersMeta(&c.Metadata)
		c.Status.Conditions = slices.Clone(o.Status.Conditions)
		return c, false
	case *api.ReplicationController:
		c := &api.ReplicationController{TypeMeta: o.TypeMeta, Metadata: o.Metadata, Status: o.Status}
		dropOthersMeta(&c.Metadata)
		c.Status.Conditions = slices.Clone(o.Status.Conditions)
		return c, false
	}
	return obj.DeepCopyObject(), false
}

// dropOthersMeta clears, in a status update's copy of the metadata it was
// sent, the four fields prepareForStatusUpdate replaces with the stored
// object's. The copy shares the rest's two pointers with the sent object,
// for the reason copyForCreate may: the store never writes through them,
// and prepareForStatusUpdate replaces the deletionTimestamp anyway. The
// metadata was deep copied instead, and passed in and out by value, for
// every status update.
func dropOthersMeta(m *api.ObjectMeta) {
	m.Labels, m.Annotations, m.OwnerReferences, m.Finalizers = nil, nil, nil, nil
}

// isTerminal reports whether a pod has finished for good.
func isTerminal(p *api.Pod) bool {
	return p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
}
