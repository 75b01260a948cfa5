package cluster_test

import (
	"fmt"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/cluster"
	"github.com/reconcilelab/rlab/core/sim"
)

// Example assembles a world with the default nodes, creates one pod, and
// prints what the scheduler and the kubelet do with it.
func Example() {
	k := sim.New(1)
	store := apistore.New(apistore.Options{Now: k.Wall, Rand: k.Rand()})
	srv := apistore.NewServer("apiserver", store, apistore.ServerConfig{})
	_ = k.Register("apiserver", srv)
	c, err := cluster.New(cluster.Config{}, srv, k)
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = c.Register(k)
	c.Start()
	_, _ = k.Stabilize(sim.Limits{})

	c.Kubectl.Send(apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindPod, Object: &api.Pod{
		Metadata: api.ObjectMeta{Namespace: "default", Name: "web-1"},
		Spec:     api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
	}})
	for {
		res, ok := k.Step()
		if !ok {
			break
		}
		if res.Actor == "scheduler" && res.Models == "schedulePod" || strings.HasPrefix(res.Actor, "kubelet/") {
			fmt.Printf("%s %s: %s\n", sim.FormatSeconds(res.At), res.Actor, res.Models)
		}
	}
	pod, _ := c.Kubelets.Pod("default", "web-1")
	fmt.Println(pod.Node, pod.String())
	// Output:
	// 0.006s scheduler: schedulePod
	// 0.008s kubelet/node-1: HandlePodAdditions
	// 2.008s kubelet/node-1: syncPod
	// 2.010s kubelet/node-1: statusManager.syncPod
	// 2.010s kubelet/node-1: HandlePodUpdates
	// node-1 running, Ready
}
