// Package cluster is the world around the replication controller: the nodes,
// the scheduler that places pods on them, and the kubelets that run the pods.
//
// A ReplicaSet only creates and deletes pods. Whether a pod ever runs, and
// when it becomes Ready, is decided by two other programs, and a learner who
// watches a ReplicaSet converge watches them too:
//
//   - kube-scheduler watches for pods that are not bound to a node, picks a
//     node for each (filtering out nodes that cannot take it, scoring the
//     rest) and binds the pod there by creating a pods/binding subresource,
//     which sets the pod's spec.nodeName and its PodScheduled condition.
//   - The kubelet runs on every node. It registers its Node with the API
//     server, watches the pods bound to its node, starts their containers,
//     probes their readiness and reports all that in the pod's status
//     (phase, conditions, container statuses) through the status
//     subresource. When a pod is deleted with a grace period, the API server
//     only marks it (deletionTimestamp); the kubelet stops its containers and
//     then deletes the pod for good with grace period 0.
//
// Both are kernel components here, and every one of their moves is a step: a
// watch event reaching them, a scheduling attempt, a timer firing, an answer
// from the API server. They talk to the API server only with requests
// (apistore.Server.Send), so the request log shows all they write. Like the
// controller's informers, they list and then watch; unlike them they keep no
// cache, only the few facts they need, and nothing faults their watches.
//
// # What a learner sees for one pod
//
// With the default latencies (1ms per request, 1ms per watch event) and
// kubelet-start 2s, a pod created at t=0.005s goes through these steps (the
// API server's own steps and the other watchers' are left out):
//
//	t=0.006s  scheduler       addPodToSchedulingQueue saw pod/web-1, not bound to a node: it joins the scheduling queue
//	t=0.006s  scheduler       schedulePod         assigned pod/web-1 to node-1 (node-1 has the fewest pods ...); sending the binding
//	t=0.008s  scheduler       bind                bound pod/web-1 to node-1 (resourceVersion 5); its kubelet takes it from here
//	t=0.008s  kubelet/node-1  HandlePodAdditions  admitted pod/web-1: pulling the image and starting its containers; ...
//	t=2.008s  kubelet/node-1  syncPod             started the containers of pod/web-1: reporting it Running and Ready
//	t=2.010s  kubelet/node-1  statusManager.syncPod the API server stored the status of pod/web-1 (Running, Ready, ...)
//
// So a pod is Running and Ready in the API kubelet-start after its kubelet
// heard of its binding, plus one request latency. Deleting it with a grace
// period continues:
//
//	t=2.012s  kubelet/node-1  killPod             saw pod/web-1 being deleted (grace period 30s, ...): stopping its containers; ...
//	t=3.012s  kubelet/node-1  killPod             stopped the containers of pod/web-1: removing the pod from the API server ...
//	t=3.014s  kubelet/node-1  HandlePodRemoves    pod/web-1 is gone from the API server: ...
//
// # The model
//
// The scheduler keeps a queue of unbound pods and tries them one per step,
// oldest first. Its only filter is spec.unschedulable (cordon), its only score
// "fewest pods": it binds to the schedulable node with the fewest
// non-terminal pods bound or being bound, and among equals the first by name,
// so every run places pods the same way. Like kube-scheduler it "assumes" a
// pod on its node as soon as it sends the binding, so the next pod already
// counts it. A pod that finds no schedulable node waits until a node is added
// or uncordoned; a pod whose binding fails is tried again after a back-off of
// 1s, doubling up to 10s, as kube-scheduler's defaults. Pods being deleted are
// never bound, and a pod created with spec.nodeName (a bare pod with --node)
// never goes through the scheduler at all.
//
// Kubelets is one component that plays the kubelet of every node (one watch
// instead of one per node), and reports each step as "kubelet/<node>". A
// node's kubelet starts when the world starts (Config.Nodes, default node-1,
// node-2, node-3) or when a node is created later (CreateNode), registers its
// Node, and takes over any pod already bound to that node. For each pod bound
// to its node it:
//
//   - admits it and, kubelet-start later (default 2s; `slow kubelet D` and
//     `config kubelet-start=D` change it for pods admitted from then on),
//     writes its status: phase Running; conditions PodReadyToStartContainers,
//     Initialized, Ready, ContainersReady and PodScheduled True, each with
//     the time it last changed (PodScheduled keeps its binding's time; a pod
//     created with spec.nodeName gets it from its kubelet, as upstream); one
//     container status per container (ready, started, restartCount); hostIP
//     and startTime (when the pod was admitted);
//   - on Crash: the containers exit; restartCount goes up by one, Ready and
//     ContainersReady become False, and kubelet-start later (the same delay
//     as a first start; there is no CrashLoopBackOff) the containers are back
//     and the pod is Ready again. With restartPolicy Never the pod is Failed;
//   - on Evict: phase Failed, reason Evicted, message "The node was low on
//     resource: memory.", Ready False, and a DisruptionTarget condition. The
//     pod stays in the API (a ReplicaSet replaces it, since a Failed pod is
//     not active; deleting it removes it at once);
//   - on SetReady: the readiness probe passes or fails; Ready and
//     ContainersReady follow, and their lastTransitionTime moves only when
//     they change;
//   - when it sees the pod being deleted: kubelet-stop later (default 1s) it
//     deletes it with grace period 0 and the pod's uid as precondition. If the
//     grace period ends sooner, the containers are killed when it ends: the
//     API server's grace-period enforcement removes the pod then (with that
//     enforcement off, the kubelet sends its delete so that it arrives then).
//
// Crash, Evict and SetReady refuse at once, with an error saying why, a pod
// that cannot take them now (not bound, on a node without a kubelet, still
// starting, being deleted, finished). Check(action, namespace, name) asks
// the same question without acting and returns the same error, so a caller
// can vet many pods before it acts on any.
//
// A pod that is not bound is never started. A pod bound to a node that has no
// kubelet stays Pending until the node is created.
//
// The kubelet owns the pod's status: every status it writes is computed from
// its own record of the pod, not from the last version it read, so a write
// still on its way cannot be undone by a stale read. When someone else writes
// a status (a bare pod created Running), the kubelet adopts it.
//
// # What is left out
//
// Resources, affinity, taints and every other scheduling filter and score;
// preemption; FailedScheduling Events. Image pulls, container creation and
// readiness probes as separate steps (their sum is kubelet-start), the
// intermediate Pending status with ContainerCreating, CrashLoopBackOff's
// growing delays, container states and exit codes in the status, pod IPs.
// Node heartbeats, leases and NotReady nodes; the node lifecycle controller;
// the pod garbage collector that deletes old Failed pods. A graceful deletion
// is one removal after kubelet-stop, without the status write a kubelet makes
// first.
//
// # Snapshots and determinism
//
// Every component implements sim.Snapshotter. Per-pod records are shared
// between the live state and its snapshots and copied before a change (a
// record older than the last snapshot is never written in place), so a
// snapshot of 10,000 pods copies one map of pointers, not the records. Every
// walk over a map is in sorted order; nothing here draws on chance. Per event,
// the work is constant except for the scheduler's scan of the nodes.
package cluster
