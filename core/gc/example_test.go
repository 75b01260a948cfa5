package gc_test

import (
	"fmt"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/gc"
	"github.com/reconcilelab/rlab/core/sim"
)

// Deleting a ReplicaSet in the background: the API server removes it at once,
// and the collector then deletes its pod.
func Example() {
	k := sim.New(1)
	store := apistore.New(apistore.Options{Now: k.Wall, Rand: k.Rand()})
	srv := apistore.NewServer("apiserver", store, apistore.ServerConfig{})
	collector := gc.New(gc.Config{Server: srv}, k)
	_ = k.Register("apiserver", srv)
	_ = k.Register(collector.Name(), collector)

	one := int32(1)
	rs, _ := store.Create(&api.ReplicaSet{
		Metadata: api.ObjectMeta{Namespace: "default", Name: "web"},
		Spec: api.ReplicaSetSpec{Replicas: &one,
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{Metadata: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}},
	})
	ref := api.NewControllerRef(rs.Meta(), "apps/v1", "ReplicaSet")
	_, _ = store.Create(&api.Pod{
		Metadata: api.ObjectMeta{Namespace: "default", Name: "web-a", OwnerReferences: []api.OwnerReference{ref}},
		Spec:     api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
	})
	collector.Start()
	_, _ = k.Stabilize(sim.Limits{})

	// kubectl delete rs/web (--cascade=background). The example registers no
	// kubectl, so the kernel reports the answer as dropped.
	srv.Send(k, "nobody", apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindReplicaSet,
		Namespace: "default", Name: "web", DeleteOptions: &apistore.DeleteOptions{PropagationPolicy: apistore.DeletePropagationBackground}})
	for k.Busy() {
		res, _ := k.Step()
		if res.Actor == "gc" {
			fmt.Println(res.Models)
		}
	}
	fmt.Println("pods left:", store.Len(api.KindPod))
	// The owner's DELETED event finds the pod in the graph; the pod's own
	// events (its deletionTimestamp, then its removal) update the graph.

	// Output:
	// processGraphChanges
	// isDangling
	// attemptToDeleteItem
	// attemptToDeleteItem
	// processGraphChanges
	// processGraphChanges
	// pods left: 0
}
