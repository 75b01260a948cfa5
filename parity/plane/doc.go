// Package plane starts a real Kubernetes control plane inside the calling
// process, for the parity runner to hold rlab against.
//
// A Plane is, all in one process and on loopback only:
//
//   - etcd 3.5.13, embedded (go.etcd.io/etcd/server/v3/embed), on two free
//     ports, its data in a temporary directory, without fsync;
//   - kube-apiserver v1.31.14, started as Kubernetes' own integration tests
//     start it (cmd/kube-apiserver/app/testing.StartTestServer), every API
//     enabled, with the ServiceAccount admission plugin off (no controller
//     here makes service accounts, and the scripts' pods need none);
//   - the ReplicaSet, ReplicationController, Deployment and garbage-collector
//     controllers of k8s.io/kubernetes v1.31.14, wired as
//     kube-controller-manager wires them: one shared informer factory with
//     resync off, 5 workers each (20 for the garbage collector), burst 500,
//     the garbage collector's graph fed by the shared factory and a metadata
//     informer factory, its discovery resynced every 30s;
//   - a stand-in for kube-scheduler and the kubelets that follows
//     core/cluster's rules (cluster.go states them): bind to the schedulable
//     node with the fewest pods, Running and Ready kubelet-start after the
//     kubelet saw the pod, removal kubelet-stop after it saw the deletion or
//     at the end of the grace period, crash, evict and readiness on demand.
//
// The driving loop:
//
//	p, err := plane.Start(plane.Config{})   // ~3-5 s, ~140 MB of heap
//	defer p.Stop()
//	p.Client.AppsV1().ReplicaSets("default").Create(ctx, rs, metav1.CreateOptions{})
//	p.Act(plane.ActionCrash, []string{"default/web-abcde"})
//	q, _ := plane.Queues()                   // the controllers' workqueues, from their metrics
//	busy := p.StandInBusy()                  // the stand-in's timers and queue
//
// StartTestServer takes a ktesting.TB, the interface of testing.T; a
// program is not a test, so processTB (tb.go) is one for a process: its
// clean-ups run at Stop and a fatal report becomes Start's error.
//
// Nothing here is deterministic the way rlab is: the controllers run on
// goroutines and real time. What parity compares is what both worlds look
// like once they are at rest (see the parity package).
package plane
