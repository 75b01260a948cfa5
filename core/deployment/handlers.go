package deployment

import (
	"maps"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/informer"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/workqueue"
)

// The event handlers turn informer notifications into Deployment keys on the
// queue, as upstream's addDeployment, updateDeployment, deleteDeployment,
// addReplicaSet, updateReplicaSet, deleteReplicaSet and deletePod do (spec
// §1.2). Each returns a report that says which key it enqueued and why.

func report(models string, summary sim.Sentence, touched ...sim.Ref) sim.Report {
	return sim.Report{Actor: handlerActor, Models: models, Summary: summary, Touched: touched}
}

// handed moves the keys the handler gave the queue into its report.
func (c *Controller) handed(rep sim.Report) sim.Report {
	rep.Handed, c.handoffs = c.handoffLists.Of(c.handoffs...), c.handoffs[:0]
	return rep
}

func (c *Controller) toQueue(key string) sim.Handoff {
	return sim.Handoff{To: c.queue.ComponentName(), What: key}
}

// enqueue adds d's key to the queue and returns the key and what became of
// it, the choice of workqueue.AddedWords a handler's sentence says after
// the key.
func (c *Controller) enqueue(d *api.Deployment) (key string, added int64) {
	key = api.Key(d.Metadata.Namespace, d.Metadata.Name)
	c.handoffs = append(c.handoffs, c.toQueue(key))
	return key, int64(c.queue.Add(key))
}

// The handlers' sentences: which Deployment's key each enqueued, and what
// the queue did with it, or why it did nothing. They run for every event of
// a Deployment's ReplicaSets and pods, so they are said, not written.
const (
	queuedKey = "%s" + workqueue.AddedWords
	enqueued  = "enqueued " + queuedKey
)

var (
	formNotADeployment  = &sim.Form{Text: "ignored an object that is not a Deployment"}
	formNotAReplicaSet  = &sim.Form{Text: "ignored an object that is not a ReplicaSet"}
	formUnreadable      = &sim.Form{Text: "could not read the deleted object: ignored"}
	formDeployAdded     = &sim.Form{Text: "deploy/%s added: " + enqueued}
	formDeployUpdated   = &sim.Form{Text: "deploy/%s updated: " + enqueued}
	formDeployDeleted   = &sim.Form{Text: "deploy/%s deleted: " + enqueued + " (its sync will find it gone)"}
	formRSAppeared      = &sim.Form{Text: "rs/%s appeared already being deleted, so it counts as a deletion: "}
	formRSAddedNotOurs  = &sim.Form{Text: "rs/%s added; its controller %s/%s is not a Deployment we know: ignored"}
	formRSAddedOwned    = &sim.Form{Text: "rs/%s added, owned by deploy/%s: " + enqueued}
	formRSAddedUnowned  = &sim.Form{Text: "orphan rs/%s added; no Deployment selects it: ignored"}
	formRSAddedOrphan   = &sim.Form{Text: "orphan rs/%s added; enqueued every Deployment that selects it, one may adopt it:"}
	formEachDeployment  = &sim.Form{Text: " " + queuedKey}
	formRSResync        = &sim.Form{Text: "rs/%s unchanged (same resourceVersion, a resync): ignored"}
	formRSUpdated       = &sim.Form{Text: "rs/%s updated"}
	formRSRefChanged    = &sim.Form{Text: "; its controller reference changed, so its old owner is enqueued: " + queuedKey}
	formRSNotOurs       = &sim.Form{Text: "; its controller %s/%s is not a Deployment we know"}
	formRSOwned         = &sim.Form{Text: ", owned by deploy/%s: " + enqueued}
	formRSOrphanNobody  = &sim.Form{Text: "; an orphan no Deployment selects: nothing to do"}
	formRSOrphan        = &sim.Form{Text: "; an orphan: enqueued every Deployment that selects it:"}
	formRSOrphanSame    = &sim.Form{Text: "; an orphan whose labels did not change: nothing to do"}
	formRSDeletedOrphan = &sim.Form{Text: "rs/%s deleted; an orphan, nobody cares: ignored"}
	formRSDeletedNotOur = &sim.Form{Text: "rs/%s deleted; its controller %s/%s is not a Deployment we know: ignored"}
	formRSDeletedOwned  = &sim.Form{Text: "rs/%s deleted, owned by deploy/%s: " + enqueued}
	formPodNoDeployment = &sim.Form{Text: "pod/%s deleted; no Deployment controls its ReplicaSet: ignored"}
	formPodRolling      = &sim.Form{Text: "pod/%s deleted; deploy/%s rolls with %s, which does not wait for pods to be gone: ignored"}
	formPodListFailed   = &sim.Form{Text: "pod/%s deleted; %s"}
	formPodNotLast      = &sim.Form{Text: "pod/%s deleted; Recreate deploy/%s still has %d pods: it waits for the last one"}
	formPodLast         = &sim.Form{Text: "pod/%s deleted; it was the last pod of Recreate deploy/%s, which may now create its new ReplicaSet: " + enqueued}
)

func init() {
	sim.Register(
		formNotADeployment,
		formNotAReplicaSet,
		formUnreadable,
		formDeployAdded,
		formDeployUpdated,
		formDeployDeleted,
		formRSAppeared,
		formRSAddedNotOurs,
		formRSAddedOwned,
		formRSAddedUnowned,
		formRSAddedOrphan,
		formEachDeployment,
		formRSResync,
		formRSUpdated,
		formRSRefChanged,
		formRSNotOurs,
		formRSOwned,
		formRSOrphanNobody,
		formRSOrphan,
		formRSOrphanSame,
		formRSDeletedOrphan,
		formRSDeletedNotOur,
		formRSDeletedOwned,
		formPodNoDeployment,
		formPodRolling,
		formPodListFailed,
		formPodNotLast,
		formPodLast,
	)
}

func (c *Controller) addDeployment(obj api.Object, _ bool) sim.Report {
	d, ok := obj.(*api.Deployment)
	if !ok {
		return report("addDeployment", sim.Say(formNotADeployment))
	}
	key, added := c.enqueue(d)
	return report("addDeployment", sim.Say(formDeployAdded, d.Metadata.Name, key).With(added), deployRef(d))
}

// updateDeployment enqueues every update, resyncs and the controller's own
// status writes included.
func (c *Controller) updateDeployment(_, cur api.Object) sim.Report {
	d, ok := cur.(*api.Deployment)
	if !ok {
		return report("updateDeployment", sim.Say(formNotADeployment))
	}
	key, added := c.enqueue(d)
	return report("updateDeployment", sim.Say(formDeployUpdated, d.Metadata.Name, key).With(added), deployRef(d))
}

func (c *Controller) deleteDeployment(obj any) sim.Report {
	if t, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	d, ok := obj.(*api.Deployment)
	if !ok {
		return report("deleteDeployment", sim.Say(formUnreadable))
	}
	key, added := c.enqueue(d)
	return report("deleteDeployment", sim.Say(formDeployDeleted, d.Metadata.Name, key).With(added), deployRef(d))
}

// resolveControllerRef returns the Deployment a controller reference names,
// if it is a Deployment in the cache with that UID.
func (c *Controller) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.Deployment {
	if ref == nil || ref.Kind != string(api.KindDeployment) {
		return nil
	}
	d, ok := c.cachedDeployment(namespace, ref.Name)
	if !ok || d.Metadata.UID != ref.UID {
		return nil
	}
	return d
}

// deploymentsForReplicaSet returns the Deployments that might adopt an
// orphan ReplicaSet: those whose selectors match its labels. More than one
// is a user error, which upstream only logs.
func (c *Controller) deploymentsForReplicaSet(rs *api.ReplicaSet) []*api.Deployment {
	ds, err := GetDeploymentsForReplicaSet(c.cachedDeployments(rs.Metadata.Namespace), rs)
	if err != nil {
		return nil
	}
	return ds
}

// enqueueAll enqueues every one of ds, each said after summary, and adds
// them to touched.
func (c *Controller) enqueueAll(summary sim.Sentence, ds []*api.Deployment, touched []sim.Ref) (sim.Sentence, []sim.Ref) {
	for _, d := range ds {
		key, added := c.enqueue(d)
		summary = summary.Then(sim.Say(formEachDeployment, key).With(added))
		touched = append(touched, deployRef(d))
	}
	return summary, touched
}

func (c *Controller) addReplicaSet(obj api.Object, _ bool) sim.Report {
	rs, ok := obj.(*api.ReplicaSet)
	if !ok {
		return report("addReplicaSet", sim.Say(formNotAReplicaSet))
	}
	if rs.Metadata.DeletionTimestamp != nil {
		rep := c.deleteReplicaSet(rs)
		rep.Models = "addReplicaSet"
		rep.Summary = sim.Say(formRSAppeared, rs.Metadata.Name).Then(rep.Summary)
		return rep
	}
	name := rs.Metadata.Name
	if ref := api.GetControllerOf(&rs.Metadata); ref != nil {
		d := c.resolveControllerRef(rs.Metadata.Namespace, ref)
		if d == nil {
			return report("addReplicaSet", sim.Say(formRSAddedNotOurs, name, ref.Kind, ref.Name), rsRef(rs))
		}
		key, added := c.enqueue(d)
		return report("addReplicaSet", sim.Say(formRSAddedOwned, name, d.Metadata.Name, key).With(added), rsRef(rs), deployRef(d))
	}
	ds := c.deploymentsForReplicaSet(rs)
	if len(ds) == 0 {
		return report("addReplicaSet", sim.Say(formRSAddedUnowned, name), rsRef(rs))
	}
	summary, touched := c.enqueueAll(sim.Say(formRSAddedOrphan, name), ds, []sim.Ref{rsRef(rs)})
	return report("addReplicaSet", summary, touched...)
}

func (c *Controller) updateReplicaSet(oldObj, curObj api.Object) sim.Report {
	old, ok1 := oldObj.(*api.ReplicaSet)
	cur, ok2 := curObj.(*api.ReplicaSet)
	if !ok1 || !ok2 {
		return report("updateReplicaSet", sim.Say(formNotAReplicaSet))
	}
	if old.Metadata.ResourceVersion == cur.Metadata.ResourceVersion {
		return report("updateReplicaSet", sim.Say(formRSResync, cur.Metadata.Name), rsRef(cur))
	}
	curRef, oldRef := api.GetControllerOf(&cur.Metadata), api.GetControllerOf(&old.Metadata)
	refChanged := !sameOwnerRef(curRef, oldRef)
	summary := sim.Say(formRSUpdated, cur.Metadata.Name)
	touched := []sim.Ref{rsRef(cur)}
	if refChanged && oldRef != nil {
		if d := c.resolveControllerRef(old.Metadata.Namespace, oldRef); d != nil {
			key, added := c.enqueue(d)
			summary = summary.Then(sim.Say(formRSRefChanged, key).With(added))
			touched = append(touched, deployRef(d))
		}
	}
	if curRef != nil {
		d := c.resolveControllerRef(cur.Metadata.Namespace, curRef)
		if d == nil {
			return report("updateReplicaSet", summary.Then(sim.Say(formRSNotOurs, curRef.Kind, curRef.Name)), touched...)
		}
		key, added := c.enqueue(d)
		return report("updateReplicaSet", summary.Then(sim.Say(formRSOwned, d.Metadata.Name, key).With(added)), append(touched, deployRef(d))...)
	}
	if !sameLabels(old.Metadata.Labels, cur.Metadata.Labels) || refChanged {
		ds := c.deploymentsForReplicaSet(cur)
		if len(ds) == 0 {
			return report("updateReplicaSet", summary.Then(sim.Say(formRSOrphanNobody)), touched...)
		}
		summary, touched = c.enqueueAll(summary.Then(sim.Say(formRSOrphan)), ds, touched)
		return report("updateReplicaSet", summary, touched...)
	}
	return report("updateReplicaSet", summary.Then(sim.Say(formRSOrphanSame)), touched...)
}

func (c *Controller) deleteReplicaSet(obj any) sim.Report {
	if t, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	rs, ok := obj.(*api.ReplicaSet)
	if !ok {
		return report("deleteReplicaSet", sim.Say(formUnreadable))
	}
	name := rs.Metadata.Name
	ref := api.GetControllerOf(&rs.Metadata)
	if ref == nil {
		return report("deleteReplicaSet", sim.Say(formRSDeletedOrphan, name), rsRef(rs))
	}
	d := c.resolveControllerRef(rs.Metadata.Namespace, ref)
	if d == nil {
		return report("deleteReplicaSet", sim.Say(formRSDeletedNotOur, name, ref.Kind, ref.Name), rsRef(rs))
	}
	key, added := c.enqueue(d)
	return report("deleteReplicaSet", sim.Say(formRSDeletedOwned, name, d.Metadata.Name, key).With(added), rsRef(rs), deployRef(d))
}

// deletePod enqueues a Recreate Deployment once the last pod of its
// ReplicaSets is gone: that is when it may create its new ReplicaSet.
// Upstream lists the Deployment's ReplicaSets with a live LIST here; a
// handler here cannot wait for an answer, so it reads the ReplicaSet cache,
// which in a quiet world holds the same.
func (c *Controller) deletePod(obj any) sim.Report {
	if t, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	pod, ok := obj.(*api.Pod)
	if !ok {
		return report("dc.deletePod", sim.Say(formUnreadable))
	}
	ref := sim.Ref{Kind: "pod", Namespace: pod.Metadata.Namespace, Name: pod.Metadata.Name}
	name := pod.Metadata.Name
	d := c.deploymentForPod(pod)
	if d == nil {
		return report("dc.deletePod", sim.Say(formPodNoDeployment, name), ref)
	}
	if d.Spec.Strategy.Type != api.RecreateDeploymentStrategy {
		return report("dc.deletePod", sim.Say(formPodRolling, name, d.Metadata.Name, d.Spec.Strategy.Type), ref, deployRef(d))
	}
	rsList, err := ListReplicaSets(d, c.cachedReplicaSets(d.Metadata.Namespace))
	if err != nil {
		return report("dc.deletePod", sim.Say(formPodListFailed, name, err.Error()), ref)
	}
	pods, err := buildPodMap(d, rsList, c.cachedPods)
	if err != nil {
		return report("dc.deletePod", sim.Say(formPodListFailed, name, err.Error()), ref)
	}
	if n := pods.count(); n > 0 {
		return report("dc.deletePod", sim.Say(formPodNotLast, name, d.Metadata.Name).With(int64(n)), ref, deployRef(d))
	}
	key, added := c.enqueue(d)
	return report("dc.deletePod", sim.Say(formPodLast, name, d.Metadata.Name, key).With(added), ref, deployRef(d))
}

// deploymentForPod returns the Deployment that controls the ReplicaSet that
// controls pod, as the caches know them.
func (c *Controller) deploymentForPod(pod *api.Pod) *api.Deployment {
	ref := api.GetControllerOf(&pod.Metadata)
	if ref == nil || ref.Kind != string(api.KindReplicaSet) {
		return nil
	}
	rs, ok := c.cachedReplicaSet(pod.Metadata.Namespace, ref.Name)
	if !ok || rs.Metadata.UID != ref.UID {
		return nil
	}
	return c.resolveControllerRef(rs.Metadata.Namespace, api.GetControllerOf(&rs.Metadata))
}

// sameOwnerRef compares two controller references field by field, as
// upstream's reflect.DeepEqual does.
func sameOwnerRef(a, b *api.OwnerReference) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.APIVersion == b.APIVersion && a.Kind == b.Kind && a.Name == b.Name && a.UID == b.UID &&
		sameBoolPtr(a.Controller, b.Controller) && sameBoolPtr(a.BlockOwnerDeletion, b.BlockOwnerDeletion)
}

func sameBoolPtr(a, b *bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// sameLabels compares label maps as reflect.DeepEqual does: a nil map
// differs from an empty one.
func sameLabels(a, b map[string]string) bool {
	return (a == nil) == (b == nil) && maps.Equal(a, b)
}
