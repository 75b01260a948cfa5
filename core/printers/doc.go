// Package printers writes what kubectl's reading commands write: the tables
// of `kubectl get`, the manifests of `get -o json` and `get -o yaml`, and the
// reports of `kubectl describe`. The scenario language's get and describe
// commands print through it, so a learner reads the same text here as in a
// terminal next to a real cluster, and can apply a printed manifest there.
//
// The printers are pure functions of api objects and, for ages, of the
// simulated clock's now. They know nothing of worlds or stores: the caller
// lists the objects and hands them over.
//
//	out := printers.Table(api.KindPod, "default", pods, now, false)  // get pods
//	out := printers.Table(api.KindPod, "default", pods, now, true)   // get pods -o wide
//	b, err := printers.YAML(rs)                                       // get rs web -o yaml
//	b, err := printers.JSONList(api.KindPod, pods)                    // get pods -o json
//	out := printers.Describe(rs, printers.Related{Events: evs, Pods: ps}, now)
//
// # Manifests
//
// JSON and YAML print one object the way `kubectl get KIND NAME -o json|yaml`
// does; JSONList and YAMLList print what `kubectl get KIND -o json|yaml`
// prints when no single object is named: a v1 List (apiVersion v1, kind List,
// metadata.resourceVersion ""), even for one object or none. Objects in the
// store leave apiVersion and kind empty, as client-go's typed objects do; the
// manifests carry them (apps/v1 for ReplicaSets, v1 for the rest).
//
// kubectl prints from unstructured maps, so its manifests have their keys in
// sorted order, not in the Go types' field order, and so do these. JSON is
// indented by four spaces, with HTML characters escaped as encoding/json
// escapes them. YAML is what kubectl's YAML printer gets from
// sigs.k8s.io/yaml, that is from gopkg.in/yaml.v2: keys in yaml.v2's natural
// order (digits compared as numbers), two-space indentation, list items at
// their parent key's indentation, empty maps and lists as {} and [], strings
// quoted only when they would read back as something else (true, null, 123,
// a timestamp, "" or a leading "- ") or cannot be written plain, multi-line
// strings as literal blocks (|, |-, |+), characters outside the Basic
// Multilingual Plane escaped, and long lines folded at 80 columns. The
// emitter in yaml.go is a small port of yaml.v2's; its tests compare the
// two byte for byte on many thousands of generated documents, and decode the
// manifests with k8s.io/api's types with unknown fields disallowed.
//
// Two corners follow kubectl rather than the data. A raw NEL (U+0085) in a
// string is folded into a space in YAML, because kubectl's YAML goes through
// JSON, which leaves NEL unescaped, and YAML reads it as a line break. And
// where kubectl cannot print YAML at all (a DEL or C1 control character, or
// U+FFFE, in a string), YAML still writes a valid document.
//
// # Tables
//
// Table prints the columns the API server's table printers define for each
// kind, upper-cased, with the -o wide ones on request, aligned by a
// tabwriter set up as kubectl sets up its own (minimum width 6, padding 3).
// Rows come in the API server's list order, by namespace and name. With no
// objects it returns "No resources found in NAMESPACE namespace." ("No
// resources found" for nodes), which kubectl writes to stderr.
//
//	pods   NAME READY STATUS RESTARTS AGE    wide: + IP NODE NOMINATED NODE READINESS GATES
//	rs/rc  NAME DESIRED CURRENT READY AGE    wide: + CONTAINERS IMAGES SELECTOR
//	deploy NAME READY UP-TO-DATE AVAILABLE AGE   wide: + CONTAINERS IMAGES SELECTOR
//	nodes  NAME STATUS ROLES AGE VERSION     wide: + INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION CONTAINER-RUNTIME
//	events LAST SEEN TYPE REASON OBJECT MESSAGE
//	       wide: LAST SEEN TYPE REASON OBJECT SUBOBJECT SOURCE MESSAGE FIRST SEEN COUNT NAME
//
// A pod's STATUS (PodStatus) is its status.reason if it has one (Evicted),
// else its phase, and Terminating while a graceful delete is under way,
// except for a pod that has already failed or succeeded. READY counts the
// containers that are ready and have started (the model has no container
// states to tell a running one by); RESTARTS sums their restart counts.
// A node's STATUS (NodeStatus) is Ready, NotReady or Unknown, with
// ",SchedulingDisabled" when it is cordoned. Ages are
// k8s.io/apimachinery's HumanDuration ("45s", "2m3s", "3h", "2d"), which
// HumanDuration reproduces.
//
// # Describe
//
// Describe prints kubectl describe's report for a pod, a ReplicaSet, a
// ReplicationController, a Deployment, a node or an Event, section for
// section, with its Events table at the end. What kubectl fetches with
// further requests comes in Related: the Events (Describe keeps those about
// the object, as kubectl's field selector would), the pods (a ReplicaSet's
// "Pods Status" counts those it selects and controls, by phase; a node
// lists its pods that have not finished) and the ReplicaSets (a
// Deployment's OldReplicaSets and NewReplicaSet). Events are described by
// kubectl's generic describer, which lists every field of the manifest.
//
// # Deployments
//
// deployment.go holds what kubectl reads and prints for Deployments on the
// client side, from the Deployment and the ReplicaSets alone, so it works
// with or without a Deployment controller: DeploymentReplicaSets (a
// Deployment's ReplicaSets, by selector and controller reference, split
// into its new one and the old ones, as k8s.io/kubectl's util/deployment
// finds them), EqualIgnoreHash (templates equal but for pod-template-hash)
// and Revision, which rollout undo uses too; RolloutStatus (`kubectl
// rollout status`'s message for the state now); and RolloutHistory (the
// REVISION / CHANGE-CAUSE table, or one revision's pod template):
//
//	msg, done, err := printers.RolloutStatus(d)
//	out, err := printers.RolloutHistory(d, replicaSets, 0)   // every revision
//	out, err := printers.RolloutHistory(d, replicaSets, 2)   // revision 2's template
//
// # What is left out
//
// The model's objects carry only what the control loop uses, so some of
// kubectl's output has nothing to show:
//
//   - Container states. A pod's STATUS never shows a container's reason
//     (ContainerCreating, CrashLoopBackOff, Error, Completed): a crashed
//     container that is restarting shows as Running with READY 0/1. Describe
//     shows a started container as Running and any other as Waiting, with
//     no Last State.
//   - The restart time, so RESTARTS is a bare count, never "3 (5m ago)".
//   - Pod IPs, volumes, tolerations, priorities and service accounts; node
//     addresses, capacity, system info (but the kubelet version, the
//     KubeletVersion constant), taints (a cordoned node has no
//     node.kubernetes.io/unschedulable taint here), leases and heartbeats
//     (LastHeartbeatTime prints as the zero time). These print as kubectl
//     prints them for an object without them: <none>, empty, or not at all.
//   - Resource requests: pods request nothing, so QoS Class is BestEffort
//     and a node's allocated resources are all 0 (0%).
//   - Printing several kinds at once (`get pods,rs`), --show-labels, -A and
//     its NAMESPACE column, custom columns and sorting.
//
// Describe keeps kubectl's quirks where they show the model truthfully: a
// terminating pod's status reads "Terminating (lasts <invalid>)" during its
// grace period, because kubectl measures the time since a deletion timestamp
// that lies in the future.
package printers
