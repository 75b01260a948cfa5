package apistore

import (
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
)

// kindInfo is what the store knows about how the API server serves one kind:
// its names in messages and the strategy choices upstream's registry makes for
// it.
type kindInfo struct {
	kind api.Kind
	// index is the kind's slot in Store.kinds.
	index int
	// group is the API group: "apps" for ReplicaSet, "" for the core kinds.
	group string
	// resource is the plural the API serves the kind under ("replicasets").
	resource string
	// statusResource and bindingResource are resource/status and
	// resource/binding, joined once (see Request.Resource).
	statusResource, bindingResource string
	// qualifiedResource is resource.group ("replicasets.apps"), as messages
	// name it; just the resource for the core group.
	qualifiedResource string
	// qualifiedKind is Kind.group ("ReplicaSet.apps"), as Invalid names it.
	qualifiedKind string
	namespaced    bool
	// hasStatus tells whether the kind has a status subresource. Events do not.
	hasStatus bool
	// gracefulDelete tells whether a delete first marks the object with a
	// deletionTimestamp and leaves it for its grace period (pods only).
	gracefulDelete bool
	// hasGeneration tells whether the store keeps metadata.generation (the
	// workload kinds, whose status reports observedGeneration).
	hasGeneration bool
	// orphanByDefault says a delete without a propagationPolicy orphans the
	// dependents. core/v1 ReplicationControllers keep this old default for
	// compatibility; everything else defaults to background deletion.
	orphanByDefault bool
	// validateName checks metadata.name (prefix=false) and generateName
	// (prefix=true).
	validateName labels.NameValidator
}

// numKinds is the number of kinds the store holds; Store.kinds has one slot each.
const numKinds = 6

var kindInfos = [numKinds]kindInfo{
	{
		kind: api.KindPod, index: 0, resource: "pods", qualifiedResource: "pods", qualifiedKind: "Pod",
		namespaced: true, hasStatus: true, gracefulDelete: true,
		validateName: labels.NameIsDNSSubdomain,
	},
	{
		kind: api.KindReplicaSet, index: 1, group: "apps", resource: "replicasets",
		qualifiedResource: "replicasets.apps", qualifiedKind: "ReplicaSet.apps",
		namespaced: true, hasStatus: true, hasGeneration: true,
		validateName: labels.NameIsDNSSubdomain,
	},
	{
		kind: api.KindReplicationController, index: 2, resource: "replicationcontrollers",
		qualifiedResource: "replicationcontrollers", qualifiedKind: "ReplicationController",
		namespaced: true, hasStatus: true, hasGeneration: true, orphanByDefault: true,
		validateName: labels.NameIsDNSSubdomain,
	},
	{
		kind: api.KindNode, index: 3, resource: "nodes", qualifiedResource: "nodes", qualifiedKind: "Node",
		hasStatus:    true,
		validateName: labels.NameIsDNSSubdomain,
	},
	{
		kind: api.KindEvent, index: 4, resource: "events", qualifiedResource: "events", qualifiedKind: "Event",
		namespaced: true,
		// Events only need a name that is a valid path segment, as upstream's
		// legacy event validation asks.
		validateName: validatePathSegmentName,
	},
	{
		kind: api.KindDeployment, index: 5, group: "apps", resource: "deployments",
		qualifiedResource: "deployments.apps", qualifiedKind: "Deployment.apps",
		namespaced: true, hasStatus: true, hasGeneration: true,
		validateName: labels.NameIsDNSSubdomain,
	},
}

func init() {
	for i := range kindInfos {
		kindInfos[i].statusResource = kindInfos[i].resource + "/" + SubresourceStatus
		kindInfos[i].bindingResource = kindInfos[i].resource + "/" + SubresourceBinding
	}
}

// infoFor returns the kindInfo of k, or nil for a kind the store does not hold.
func infoFor(k api.Kind) *kindInfo {
	switch k {
	case api.KindPod:
		return &kindInfos[0]
	case api.KindReplicaSet:
		return &kindInfos[1]
	case api.KindReplicationController:
		return &kindInfos[2]
	case api.KindNode:
		return &kindInfos[3]
	case api.KindEvent:
		return &kindInfos[4]
	case api.KindDeployment:
		return &kindInfos[5]
	}
	return nil
}

// validatePathSegmentName is upstream's path.ValidatePathSegmentName: the least
// any name must satisfy to be usable in a URL.
func validatePathSegmentName(name string, prefix bool) []string {
	if !prefix && (name == "." || name == "..") {
		return []string{"may not be '" + name + "'"}
	}
	// strings.IndexByte scans many bytes at a time: events have names of
	// a hundred characters, which a loop over the bytes for each of the two
	// characters read one by one.
	var msgs []string
	if strings.IndexByte(name, '/') >= 0 {
		msgs = append(msgs, "may not contain '/'")
	}
	if strings.IndexByte(name, '%') >= 0 {
		msgs = append(msgs, "may not contain '%'")
	}
	return msgs
}
