package printers

import (
	"time"

	"github.com/reconcilelab/rlab/core/api"
)

// The fixtures are objects as the model's API store holds them a while after
// `create rs web --replicas=3 --selector=app=web` on two nodes: TypeMeta
// empty, times whole seconds, uids and resourceVersions set by the store.

var epoch = time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC)

func at(d time.Duration) api.Time { return api.NewTime(epoch.Add(d)) }

func atPtr(d time.Duration) *api.Time { t := at(d); return &t }

func ptr[T any](v T) *T { return &v }

// now is when the fixtures are printed: five minutes and three seconds in.
var now = epoch.Add(5*time.Minute + 3*time.Second)

func webRS() *api.ReplicaSet {
	return &api.ReplicaSet{
		Metadata: api.ObjectMeta{
			Name: "web", Namespace: "default", UID: "3f1c2a9e-0000-4000-8000-000000000001",
			ResourceVersion: "42", Generation: 1, CreationTimestamp: at(0),
			Labels: map[string]string{"app": "web"},
		},
		Spec: api.ReplicaSetSpec{
			Replicas: ptr(int32(3)),
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{
					Containers:    []api.Container{{Name: "web", Image: "nginx:1.27"}},
					RestartPolicy: api.RestartAlways,
				},
			},
		},
		Status: api.ReplicaSetStatus{
			Replicas: 3, FullyLabeledReplicas: 3, ReadyReplicas: 2, AvailableReplicas: 2, ObservedGeneration: 1,
		},
	}
}

// webPod is a pod of webRS, bound to node-1, Running and Ready.
func webPod(name string, created time.Duration) *api.Pod {
	started := true
	return &api.Pod{
		Metadata: api.ObjectMeta{
			Name: name, GenerateName: "web-", Namespace: "default", UID: "uid-" + name,
			ResourceVersion: "17", CreationTimestamp: at(created),
			Labels: map[string]string{"app": "web"},
			OwnerReferences: []api.OwnerReference{api.NewControllerRef(&api.ObjectMeta{
				Name: "web", UID: "3f1c2a9e-0000-4000-8000-000000000001"}, "apps/v1", "ReplicaSet")},
		},
		Spec: api.PodSpec{
			Containers:                    []api.Container{{Name: "web", Image: "nginx:1.27"}},
			RestartPolicy:                 api.RestartAlways,
			TerminationGracePeriodSeconds: ptr(int64(30)),
			NodeName:                      "node-1",
		},
		Status: api.PodStatus{
			Phase:     api.PodRunning,
			HostIP:    "10.0.0.1",
			StartTime: atPtr(created + time.Second),
			Conditions: []api.PodCondition{
				{Type: "PodReadyToStartContainers", Status: api.ConditionTrue, LastTransitionTime: at(created + time.Second)},
				{Type: "Initialized", Status: api.ConditionTrue, LastTransitionTime: at(created + time.Second)},
				{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: at(created + 3*time.Second)},
				{Type: "ContainersReady", Status: api.ConditionTrue, LastTransitionTime: at(created + 3*time.Second)},
				{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: at(created)},
			},
			ContainerStatuses: []api.ContainerStatus{{Name: "web", Image: "nginx:1.27", Ready: true, Started: &started}},
		},
	}
}

// pendingPod has not been scheduled yet.
func pendingPod() *api.Pod {
	p := webPod("web-pnd4x", 5*time.Minute)
	p.Spec.NodeName = ""
	p.Status = api.PodStatus{Phase: api.PodPending}
	return p
}

// crashedPod is back up after crashing three times, but not Ready yet.
func crashedPod() *api.Pod {
	p := webPod("web-crsh7", 30*time.Second)
	p.Status.ContainerStatuses[0].Ready = false
	p.Status.ContainerStatuses[0].Started = ptr(false)
	p.Status.ContainerStatuses[0].RestartCount = 3
	p.Status.Conditions[2] = api.PodCondition{Type: api.PodReady, Status: api.ConditionFalse, LastTransitionTime: at(4 * time.Minute),
		Reason: "ContainersNotReady", Message: "containers with unready status: [web]"}
	p.Status.Conditions[3] = api.PodCondition{Type: "ContainersReady", Status: api.ConditionFalse, LastTransitionTime: at(4 * time.Minute),
		Reason: "ContainersNotReady", Message: "containers with unready status: [web]"}
	return p
}

// terminatingPod is being deleted with the default grace period.
func terminatingPod() *api.Pod {
	p := webPod("web-trm9q", 0)
	p.Metadata.DeletionTimestamp = atPtr(5*time.Minute + 30*time.Second)
	p.Metadata.DeletionGracePeriodSeconds = ptr(int64(30))
	return p
}

// evictedPod was evicted by its kubelet: phase Failed, reason Evicted.
func evictedPod() *api.Pod {
	p := webPod("web-evct2", 2*time.Minute)
	p.Status.Phase = api.PodFailed
	p.Status.Reason = "Evicted"
	p.Status.Message = "The node was low on resource: memory."
	p.Status.ContainerStatuses[0].Ready = false
	p.Status.ContainerStatuses[0].Started = ptr(false)
	p.Status.Conditions = []api.PodCondition{
		{Type: "DisruptionTarget", Status: api.ConditionTrue, LastTransitionTime: at(4 * time.Minute),
			Reason: "TerminationByKubelet", Message: "The node was low on resource: memory."},
		{Type: api.PodReady, Status: api.ConditionFalse, LastTransitionTime: at(4 * time.Minute), Reason: "PodFailed"},
		{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: at(2 * time.Minute)},
	}
	return p
}

// succeededPod is a bare pod whose container exited 0.
func succeededPod() *api.Pod {
	p := webPod("batch-done", 10*time.Second)
	p.Metadata.GenerateName = ""
	p.Metadata.OwnerReferences = nil
	p.Metadata.Labels = map[string]string{"app": "batch"}
	p.Spec.RestartPolicy = api.RestartNever
	p.Status.Phase = api.PodSucceeded
	p.Status.ContainerStatuses[0].Ready = false
	p.Status.ContainerStatuses[0].Started = ptr(false)
	return p
}

func node(name string, cordoned bool) *api.Node {
	return &api.Node{
		Metadata: api.ObjectMeta{
			Name: name, UID: "uid-" + name, ResourceVersion: "3", CreationTimestamp: at(0),
			Labels: map[string]string{
				"kubernetes.io/arch": "amd64", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
			},
		},
		Spec: api.NodeSpec{Unschedulable: cordoned},
		Status: api.NodeStatus{Conditions: []api.NodeCondition{{
			Type: api.NodeReady, Status: api.ConditionTrue, LastTransitionTime: at(0),
			Reason: "KubeletReady", Message: "kubelet is posting ready status",
		}}},
	}
}

func rsEvent(name, reason, message string, first, last time.Duration, count int32) *api.Event {
	return &api.Event{
		Metadata: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, ResourceVersion: "20",
			CreationTimestamp: at(first)},
		InvolvedObject: api.ObjectReference{Kind: "ReplicaSet", Namespace: "default", Name: "web",
			UID: "3f1c2a9e-0000-4000-8000-000000000001", APIVersion: "apps/v1", ResourceVersion: "5"},
		Reason:         reason,
		Message:        message,
		Source:         api.EventSource{Component: "replicaset-controller"},
		FirstTimestamp: at(first),
		LastTimestamp:  at(last),
		Count:          count,
		Type:           api.EventNormal,
	}
}

func webRC() *api.ReplicationController {
	rs := webRS()
	return &api.ReplicationController{
		Metadata: api.ObjectMeta{Name: "legacy", Namespace: "default", UID: "uid-legacy", ResourceVersion: "50",
			Generation: 1, CreationTimestamp: at(time.Minute), Labels: map[string]string{"app": "legacy"}},
		Spec: api.ReplicationControllerSpec{
			Replicas: ptr(int32(2)),
			Selector: map[string]string{"app": "legacy"},
			Template: &api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: map[string]string{"app": "legacy"}},
				Spec:     rs.Spec.Template.Spec,
			},
		},
		Status: api.ReplicationControllerStatus{Replicas: 2, FullyLabeledReplicas: 2, ReadyReplicas: 2,
			AvailableReplicas: 2, ObservedGeneration: 1},
	}
}
