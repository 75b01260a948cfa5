package world_test

import (
	"fmt"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/world"
)

// ExampleWorld kills the one pod of a ReplicaSet and prints the trace from
// the kill to the API server's acceptance of the replacement: the way of
// one change around the control loop (core/doc.go draws it). The API
// server announces the deletion on its watch; the pod informer's reflector
// queues it in the DeltaFIFO, processDeltas updates the cache and calls the
// ReplicaSet controller's handler, which enqueues the owner's key; a
// worker takes it, syncReplicaSet finds one pod too few and creates one.
func ExampleWorld() {
	w, err := world.New(world.Config{Seed: 1})
	if err != nil {
		panic(err)
	}
	one := int32(1)
	app := map[string]string{"app": "web"}
	web := &api.ReplicaSet{
		Metadata: api.ObjectMeta{Namespace: "default", Name: "web"},
		Spec: api.ReplicaSetSpec{Replicas: &one, Selector: &api.LabelSelector{MatchLabels: app},
			Template: api.PodTemplateSpec{Metadata: api.ObjectMeta{Labels: app},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}}}},
	}
	// Each change is an input at a step boundary, sent as kubectl sends it.
	send := func(what string, req apistore.Request) {
		if err := w.Do(what, func(w *world.World) error { w.Send(req); return nil }); err != nil {
			panic(err)
		}
	}
	send("create rs web", apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindReplicaSet, Object: web})
	if _, err := w.Stabilize(sim.Limits{}); err != nil {
		panic(err)
	}
	pod := w.Store.Objects(api.KindPod, "default")[0].Meta().Name
	send("kill pod/"+pod, apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindPod, Namespace: "default", Name: pod,
		DeleteOptions: apistore.GracePeriod(0)})

	// Step until the API server accepts the replacement, printing each step
	// as the trace writes it, its number and time left out.
	for {
		s, ok := w.Step()
		if !ok {
			panic("the world came to rest without replacing the pod")
		}
		fmt.Printf("%-20s %-22s %s\n", s.Actor, s.Models, s.Summary)
		if s.Models == "registry.Create" && strings.HasPrefix(s.Summary.String(), "create pods") {
			break
		}
	}
	// Output:
	// apiserver            registry.Delete        delete pods default/web-5nl64 from kubectl: removed (resourceVersion 13)
	// kubectl              kubectl                the API server accepted delete pods default/web-5nl64 (resourceVersion 13)
	// kubelet/node-1       HandlePodUpdates       saw pod/web-5nl64 deleted with no grace period: the API server removes it at once and its containers are killed
	// kubelet/node-1       HandlePodRemoves       pod/web-5nl64 is gone from the API server: it was deleted with no grace period, so its containers are killed at once; the kubelet forgets the pod
	// scheduler            updatePodInCache       saw pod/web-5nl64 being deleted on node-1: it counts there until it is gone
	// scheduler            deletePodFromCache     saw pod/web-5nl64 deleted: it no longer counts on node-1 (0 pods left there)
	// informer/pods        watchHandler           received MODIFIED pod/web-5nl64 (resourceVersion 12); queued in the DeltaFIFO (1 key pending)
	// informer/pods        watchHandler           received DELETED pod/web-5nl64 (resourceVersion 13); queued in the DeltaFIFO (1 key pending)
	// gc                   processGraphChanges    saw MODIFIED pod/web-5nl64 (resourceVersion 12): its owners are unchanged; nothing to do
	// gc                   processGraphChanges    saw DELETED pod/web-5nl64 (resourceVersion 13): removed from the graph
	// informer/pods        processDeltas          default/web-5nl64: Updated → cache updated, 2 handlers notified Deleted → cache removed, 2 handlers notified
	// rs-controller        updatePod              pod/web-5nl64 is being deleted (deletionTimestamp set): pod/web-5nl64 deleted, owned by rs/web: not an expected deletion (expecting 0 more creates, 0 more deletes); enqueued default/web
	// rc-controller        updatePod              pod/web-5nl64 is being deleted (deletionTimestamp set): pod/web-5nl64 deleted; its controller ReplicaSet/web is not one of ours: ignored
	// rs-controller        deletePod              pod/web-5nl64 deleted, owned by rs/web: not an expected deletion (expecting 0 more creates, 0 more deletes); enqueued default/web (already waiting in the queue)
	// rs-worker-2          slowStartBatch         took default/web: expectations satisfied; 0 active pods to consider (its own and the namespace's orphans); 0 pods owned, want 1: creating 1 (one batch of 1); sending a batch of 1 creates
	// rc-controller        deletePod              pod/web-5nl64 deleted; its controller ReplicaSet/web is not one of ours: ignored
	// apiserver            registry.Create        create pods default/web-2qbk4 from rs-worker-2: ok (resourceVersion 14)
}
