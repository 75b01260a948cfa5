// Package api holds the object types of the model: Pod, ReplicaSet,
// ReplicationController, Node and Event, with the field names and JSON tags of
// the Kubernetes API, so that what the page prints can be applied to a real
// cluster and what a learner reads matches the Kubernetes documentation.
//
// Only the fields the replication manager, the scheduler, the kubelet and the
// garbage collector read or write are modelled. Everything else a real object
// carries (resources, volumes, probes, managed fields) is left out on purpose:
// it would be noise on the page.
//
// Three conventions hold across the model:
//
//   - Objects handed out by the API store and by informer caches are shared and
//     read-only. Anyone who wants to change one calls DeepCopy first, as client-go
//     asks of every cache reader. Sharing is what lets snapshots of a whole world
//     cost little memory.
//   - Keys are "namespace/name" (Key, SplitKey), the same strings client-go's
//     MetaNamespaceKeyFunc produces and the work queue carries.
//   - An object's controller is the one owner reference with controller=true
//     (GetControllerOf); an object without one is an orphan that a matching
//     controller may adopt.
//
// A pod is ready when its first condition of type Ready is True
// (PodReadyCondition, IsPodReady). The replication manager and the kubelets
// ask these two functions, so the rule is written once.
package api
