package apistore_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/labels"
)

// Example shows the store as a controller and an informer use it: create with
// generateName, list then watch, a conflicting update, and a graceful delete.
func Example() {
	store := apistore.New(apistore.Options{Rand: rand.New(rand.NewPCG(1, 2))})

	// A ReplicaSet's pods are named by the server from generateName.
	for i := 0; i < 2; i++ {
		pod, err := store.Create(&api.Pod{
			Metadata: api.ObjectMeta{Namespace: "default", GenerateName: "web-", Labels: map[string]string{"app": "web"}},
			Spec:     api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("created", pod.Meta().Name, "at resourceVersion", pod.Meta().ResourceVersion)
	}

	// An informer lists, then watches from the list's resourceVersion.
	pods, rv, _ := store.List(api.KindPod, "default", labels.Everything())
	fmt.Println("listed", len(pods), "pods at", rv)

	// Someone else changes the first pod...
	first := pods[0].(*api.Pod)
	if _, err := store.Patch(api.KindPod, "default", first.Metadata.Name,
		apistore.MetaPatch{SetLabels: map[string]string{"tier": "front"}}); err != nil {
		fmt.Println(err)
	}
	// ...so an update based on what we read is refused: read again and retry.
	stale := first.DeepCopy()
	stale.Metadata.Labels["app"] = "db"
	_, err := store.Update(stale)
	fmt.Println("conflict:", apistore.IsConflict(err))

	// A bound pod is deleted gracefully: it is only marked, for 30 seconds.
	if _, err := store.Bind("default", first.Metadata.Name, "node-1"); err != nil {
		fmt.Println(err)
	}
	marked, _ := store.Delete(api.KindPod, "default", first.Metadata.Name, nil)
	fmt.Println("deletionTimestamp:", marked.Meta().DeletionTimestamp.UTC().Format("15:04:05"))

	// The watch tells the informer everything after its list.
	events, _ := store.Watch(api.KindPod, "default", rv)
	for _, ev := range events {
		fmt.Println(ev.ResourceVersion, ev.Type, ev.Object.Meta().Name)
	}
	// Output:
	// created web-2v44j at resourceVersion 1
	// created web-qfgwq at resourceVersion 2
	// listed 2 pods at 2
	// conflict: true
	// deletionTimestamp: 00:00:30
	// 3 MODIFIED web-2v44j
	// 4 MODIFIED web-2v44j
	// 5 MODIFIED web-2v44j
}
