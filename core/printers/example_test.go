package printers_test

import (
	"fmt"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/printers"
)

func Example() {
	start := time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC)
	replicas := int32(2)
	rs := &api.ReplicaSet{
		Metadata: api.ObjectMeta{Name: "web", Namespace: "default", CreationTimestamp: api.NewTime(start)},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:     api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx"}}},
			},
		},
		Status: api.ReplicaSetStatus{Replicas: 2, ReadyReplicas: 1},
	}
	now := start.Add(2*time.Minute + 3*time.Second)

	fmt.Print(printers.Table(api.KindReplicaSet, "default", []api.Object{rs}, now, true))
	fmt.Println()
	y, _ := printers.YAML(rs)
	fmt.Print(string(y))
	// Output:
	// NAME   DESIRED   CURRENT   READY   AGE    CONTAINERS   IMAGES   SELECTOR
	// web    2         2         1       2m3s   web          nginx    app=web
	//
	// apiVersion: apps/v1
	// kind: ReplicaSet
	// metadata:
	//   creationTimestamp: "2025-01-01T00:00:00Z"
	//   name: web
	//   namespace: default
	// spec:
	//   replicas: 2
	//   selector:
	//     matchLabels:
	//       app: web
	//   template:
	//     metadata:
	//       creationTimestamp: null
	//       labels:
	//         app: web
	//     spec:
	//       containers:
	//       - image: nginx
	//         name: web
	// status:
	//   readyReplicas: 1
	//   replicas: 2
}

func ExampleHumanDuration() {
	for _, d := range []time.Duration{45 * time.Second, 125 * time.Second, 3 * time.Hour, 50 * time.Hour} {
		fmt.Println(printers.HumanDuration(d))
	}
	// Output:
	// 45s
	// 2m5s
	// 3h
	// 2d2h
}
