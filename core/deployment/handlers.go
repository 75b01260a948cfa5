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

func report(models, summary string, touched ...sim.Ref) sim.Report {
	return sim.Report{Actor: handlerActor, Models: models, Summary: sim.Text(summary), Touched: touched}
}

// handed moves the keys the handler gave the queue into its report.
func (c *Controller) handed(rep sim.Report) sim.Report {
	rep.Handed, c.handoffs = c.handoffs, nil
	return rep
}

func (c *Controller) toQueue(key string) sim.Handoff {
	return sim.Handoff{To: c.queue.ComponentName(), What: key}
}

// enqueue adds d's key to the queue and says what became of it.
func (c *Controller) enqueue(d *api.Deployment) string {
	key := api.Key(d.Metadata.Namespace, d.Metadata.Name)
	c.handoffs = append(c.handoffs, c.toQueue(key))
	switch c.queue.Add(key) {
	case workqueue.AlreadyWaiting:
		return key + " (already waiting in the queue)"
	case workqueue.RequeueAtDone:
		return key + " (a worker holds it: it goes back in the queue at Done)"
	case workqueue.AlreadyRequeueAtDone:
		return key + " (already marked to go back in the queue at Done)"
	case workqueue.Ignored:
		return key + " (the queue is shutting down: ignored)"
	}
	return key
}

func (c *Controller) addDeployment(obj api.Object, _ bool) sim.Report {
	d, ok := obj.(*api.Deployment)
	if !ok {
		return report("addDeployment", "ignored an object that is not a Deployment")
	}
	return report("addDeployment", "deploy/"+d.Metadata.Name+" added: enqueued "+c.enqueue(d), deployRef(d))
}

// updateDeployment enqueues every update, resyncs and the controller's own
// status writes included.
func (c *Controller) updateDeployment(_, cur api.Object) sim.Report {
	d, ok := cur.(*api.Deployment)
	if !ok {
		return report("updateDeployment", "ignored an object that is not a Deployment")
	}
	return report("updateDeployment", "deploy/"+d.Metadata.Name+" updated: enqueued "+c.enqueue(d), deployRef(d))
}

func (c *Controller) deleteDeployment(obj any) sim.Report {
	if t, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	d, ok := obj.(*api.Deployment)
	if !ok {
		return report("deleteDeployment", "could not read the deleted object: ignored")
	}
	return report("deleteDeployment", "deploy/"+d.Metadata.Name+" deleted: enqueued "+c.enqueue(d)+
		" (its sync will find it gone)", deployRef(d))
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

// enqueueAll enqueues every one of ds, for a report.
func (c *Controller) enqueueAll(ds []*api.Deployment, touched []sim.Ref) (string, []sim.Ref) {
	s := ""
	for _, d := range ds {
		s += " " + c.enqueue(d)
		touched = append(touched, deployRef(d))
	}
	return s, touched
}

func (c *Controller) addReplicaSet(obj api.Object, _ bool) sim.Report {
	rs, ok := obj.(*api.ReplicaSet)
	if !ok {
		return report("addReplicaSet", "ignored an object that is not a ReplicaSet")
	}
	if rs.Metadata.DeletionTimestamp != nil {
		rep := c.deleteReplicaSet(rs)
		rep.Models = "addReplicaSet"
		rep.Summary = sim.Text("rs/" + rs.Metadata.Name + " appeared already being deleted, so it counts as a deletion: ").Then(rep.Summary)
		return rep
	}
	name := "rs/" + rs.Metadata.Name
	if ref := api.GetControllerOf(&rs.Metadata); ref != nil {
		d := c.resolveControllerRef(rs.Metadata.Namespace, ref)
		if d == nil {
			return report("addReplicaSet", name+" added; its controller "+ref.Kind+"/"+ref.Name+" is not a Deployment we know: ignored", rsRef(rs))
		}
		return report("addReplicaSet", name+" added, owned by deploy/"+d.Metadata.Name+": enqueued "+c.enqueue(d), rsRef(rs), deployRef(d))
	}
	ds := c.deploymentsForReplicaSet(rs)
	if len(ds) == 0 {
		return report("addReplicaSet", "orphan "+name+" added; no Deployment selects it: ignored", rsRef(rs))
	}
	s, touched := c.enqueueAll(ds, []sim.Ref{rsRef(rs)})
	return report("addReplicaSet", "orphan "+name+" added; enqueued every Deployment that selects it, one may adopt it:"+s, touched...)
}

func (c *Controller) updateReplicaSet(oldObj, curObj api.Object) sim.Report {
	old, ok1 := oldObj.(*api.ReplicaSet)
	cur, ok2 := curObj.(*api.ReplicaSet)
	if !ok1 || !ok2 {
		return report("updateReplicaSet", "ignored an object that is not a ReplicaSet")
	}
	name := "rs/" + cur.Metadata.Name
	if old.Metadata.ResourceVersion == cur.Metadata.ResourceVersion {
		return report("updateReplicaSet", name+" unchanged (same resourceVersion, a resync): ignored", rsRef(cur))
	}
	curRef, oldRef := api.GetControllerOf(&cur.Metadata), api.GetControllerOf(&old.Metadata)
	refChanged := !sameOwnerRef(curRef, oldRef)
	summary := name + " updated"
	touched := []sim.Ref{rsRef(cur)}
	if refChanged && oldRef != nil {
		if d := c.resolveControllerRef(old.Metadata.Namespace, oldRef); d != nil {
			summary += "; its controller reference changed, so its old owner is enqueued: " + c.enqueue(d)
			touched = append(touched, deployRef(d))
		}
	}
	if curRef != nil {
		d := c.resolveControllerRef(cur.Metadata.Namespace, curRef)
		if d == nil {
			return report("updateReplicaSet", summary+"; its controller "+curRef.Kind+"/"+curRef.Name+" is not a Deployment we know", touched...)
		}
		return report("updateReplicaSet", summary+", owned by deploy/"+d.Metadata.Name+": enqueued "+c.enqueue(d), append(touched, deployRef(d))...)
	}
	if !sameLabels(old.Metadata.Labels, cur.Metadata.Labels) || refChanged {
		ds := c.deploymentsForReplicaSet(cur)
		if len(ds) == 0 {
			return report("updateReplicaSet", summary+"; an orphan no Deployment selects: nothing to do", touched...)
		}
		s, touched := c.enqueueAll(ds, touched)
		return report("updateReplicaSet", summary+"; an orphan: enqueued every Deployment that selects it:"+s, touched...)
	}
	return report("updateReplicaSet", summary+"; an orphan whose labels did not change: nothing to do", touched...)
}

func (c *Controller) deleteReplicaSet(obj any) sim.Report {
	if t, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	rs, ok := obj.(*api.ReplicaSet)
	if !ok {
		return report("deleteReplicaSet", "could not read the deleted object: ignored")
	}
	name := "rs/" + rs.Metadata.Name
	ref := api.GetControllerOf(&rs.Metadata)
	if ref == nil {
		return report("deleteReplicaSet", name+" deleted; an orphan, nobody cares: ignored", rsRef(rs))
	}
	d := c.resolveControllerRef(rs.Metadata.Namespace, ref)
	if d == nil {
		return report("deleteReplicaSet", name+" deleted; its controller "+ref.Kind+"/"+ref.Name+" is not a Deployment we know: ignored", rsRef(rs))
	}
	return report("deleteReplicaSet", name+" deleted, owned by deploy/"+d.Metadata.Name+": enqueued "+c.enqueue(d), rsRef(rs), deployRef(d))
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
		return report("dc.deletePod", "could not read the deleted object: ignored")
	}
	ref := sim.Ref{Kind: "pod", Namespace: pod.Metadata.Namespace, Name: pod.Metadata.Name}
	name := "pod/" + pod.Metadata.Name + " deleted"
	d := c.deploymentForPod(pod)
	if d == nil {
		return report("dc.deletePod", name+"; no Deployment controls its ReplicaSet: ignored", ref)
	}
	if d.Spec.Strategy.Type != api.RecreateDeploymentStrategy {
		return report("dc.deletePod", name+"; deploy/"+d.Metadata.Name+" rolls with "+d.Spec.Strategy.Type+
			", which does not wait for pods to be gone: ignored", ref, deployRef(d))
	}
	rsList, err := ListReplicaSets(d, c.cachedReplicaSets(d.Metadata.Namespace))
	if err != nil {
		return report("dc.deletePod", name+"; "+err.Error(), ref)
	}
	pods, err := buildPodMap(d, rsList, c.cachedPods)
	if err != nil {
		return report("dc.deletePod", name+"; "+err.Error(), ref)
	}
	if n := pods.count(); n > 0 {
		return report("dc.deletePod", name+"; Recreate deploy/"+d.Metadata.Name+" still has "+itoa(int32(n))+
			" pods: it waits for the last one", ref, deployRef(d))
	}
	return report("dc.deletePod", name+"; it was the last pod of Recreate deploy/"+d.Metadata.Name+
		", which may now create its new ReplicaSet: enqueued "+c.enqueue(d), ref, deployRef(d))
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
