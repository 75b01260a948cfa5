package api

// Object is any stored kind. Objects handed out by the API store and the
// informer caches are shared, not copied: treat them as read-only and call
// DeepCopyObject before changing one, exactly as client-go asks of cache readers.
type Object interface {
	// Meta returns the object's metadata. Writing through it is only allowed on an
	// object the caller owns (a fresh copy).
	Meta() *ObjectMeta
	// DeepCopyObject returns a copy that shares no memory with the original.
	DeepCopyObject() Object
	// Kind returns the object's kind, such as "Pod".
	Kind() Kind
}

// Kind is an object kind, spelled as in Kubernetes manifests.
type Kind string

// The kinds this model stores.
const (
	KindPod                   Kind = "Pod"
	KindReplicaSet            Kind = "ReplicaSet"
	KindReplicationController Kind = "ReplicationController"
	KindNode                  Kind = "Node"
	KindEvent                 Kind = "Event"
	KindDeployment            Kind = "Deployment"
)

// Kinds lists every kind in a fixed order, for help texts and iteration.
var Kinds = []Kind{KindPod, KindReplicaSet, KindReplicationController, KindNode, KindEvent, KindDeployment}

// Resource is the plural, lower-case name the API serves a kind under.
func (k Kind) Resource() string {
	switch k {
	case KindPod:
		return "pods"
	case KindReplicaSet:
		return "replicasets"
	case KindReplicationController:
		return "replicationcontrollers"
	case KindNode:
		return "nodes"
	case KindEvent:
		return "events"
	case KindDeployment:
		return "deployments"
	}
	return ""
}

// APIVersion is the group/version a manifest of this kind declares.
func (k Kind) APIVersion() string {
	if k == KindReplicaSet || k == KindDeployment {
		return "apps/v1"
	}
	return "v1"
}

// Namespaced reports whether objects of this kind live in a namespace.
func (k Kind) Namespaced() bool { return k != KindNode }

// KindForResource maps a resource name ("pods") back to its kind.
func KindForResource(resource string) (Kind, bool) {
	for _, k := range Kinds {
		if k.Resource() == resource {
			return k, true
		}
	}
	return "", false
}

// ShortName is the short resource name kubectl and our scripts use for a kind.
func ShortName(k Kind) string {
	switch k {
	case KindPod:
		return "pod"
	case KindReplicaSet:
		return "rs"
	case KindReplicationController:
		return "rc"
	case KindNode:
		return "node"
	case KindEvent:
		return "event"
	case KindDeployment:
		return "deploy"
	}
	return string(k)
}

func (p *Pod) Meta() *ObjectMeta                   { return &p.Metadata }
func (p *Pod) Kind() Kind                          { return KindPod }
func (p *Pod) DeepCopyObject() Object              { return p.DeepCopy() }
func (r *ReplicaSet) Meta() *ObjectMeta            { return &r.Metadata }
func (r *ReplicaSet) Kind() Kind                   { return KindReplicaSet }
func (r *ReplicaSet) DeepCopyObject() Object       { return r.DeepCopy() }
func (r *ReplicationController) Meta() *ObjectMeta { return &r.Metadata }
func (r *ReplicationController) Kind() Kind        { return KindReplicationController }
func (r *ReplicationController) DeepCopyObject() Object {
	return r.DeepCopy()
}
func (n *Node) Meta() *ObjectMeta       { return &n.Metadata }
func (n *Node) Kind() Kind              { return KindNode }
func (n *Node) DeepCopyObject() Object  { return n.DeepCopy() }
func (e *Event) Meta() *ObjectMeta      { return &e.Metadata }
func (e *Event) Kind() Kind             { return KindEvent }
func (e *Event) DeepCopyObject() Object { return e.DeepCopy() }

var (
	_ Object = (*Pod)(nil)
	_ Object = (*ReplicaSet)(nil)
	_ Object = (*ReplicationController)(nil)
	_ Object = (*Node)(nil)
	_ Object = (*Event)(nil)
)

// NewObject returns an empty object of the kind, for decoders.
func NewObject(k Kind) (Object, bool) {
	switch k {
	case KindPod:
		return &Pod{}, true
	case KindReplicaSet:
		return &ReplicaSet{}, true
	case KindReplicationController:
		return &ReplicationController{}, true
	case KindNode:
		return &Node{}, true
	case KindEvent:
		return &Event{}, true
	case KindDeployment:
		return &Deployment{}, true
	}
	return nil, false
}
