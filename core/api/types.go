package api

// Pod phases, as the kubelet reports them.
const (
	PodPending   = "Pending"
	PodRunning   = "Running"
	PodSucceeded = "Succeeded"
	PodFailed    = "Failed"
	PodUnknown   = "Unknown"
)

// Condition statuses, shared by every kind of condition.
const (
	ConditionTrue    = "True"
	ConditionFalse   = "False"
	ConditionUnknown = "Unknown"
)

// Condition types this model uses.
const (
	PodReady       = "Ready"
	PodScheduled   = "PodScheduled"
	NodeReady      = "Ready"
	ReplicaFailure = "ReplicaFailure"
)

// Restart policies.
const (
	RestartAlways    = "Always"
	RestartOnFailure = "OnFailure"
	RestartNever     = "Never"
)

// Event types.
const (
	EventNormal  = "Normal"
	EventWarning = "Warning"
)

// PodDeletionCostAnnotation lets a user rank pods for scale-down: a lower cost is
// deleted first. Its value is an int32; a missing or invalid value counts as 0.
const PodDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost"

// Pod is a group of containers scheduled onto one node.
type Pod struct {
	TypeMeta `json:",inline"`
	Metadata ObjectMeta `json:"metadata"`
	Spec     PodSpec    `json:"spec"`
	Status   PodStatus  `json:"status"`
}

// PodSpec is the desired state of a pod.
type PodSpec struct {
	Containers    []Container `json:"containers"`
	RestartPolicy string      `json:"restartPolicy,omitempty"`

	// TerminationGracePeriodSeconds is the default grace period of a delete that
	// names none. The API store defaults it to 30, as Kubernetes does.
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"`

	// NodeName is empty until the scheduler binds the pod to a node.
	NodeName string `json:"nodeName,omitempty"`
}

// Container is one container of a pod; this model needs only its identity.
type Container struct {
	// Never compared with ==: the field keeps the compiler from writing an
	// equality function for the type (and for every array of it that a
	// list literal makes), which only made main.wasm bigger.
	_ [0]func()

	Name  string `json:"name"`
	Image string `json:"image,omitempty"`
}

// PodStatus is what the kubelet last reported.
type PodStatus struct {
	Phase             string            `json:"phase,omitempty"`
	Conditions        []PodCondition    `json:"conditions,omitempty"`
	Message           string            `json:"message,omitempty"`
	Reason            string            `json:"reason,omitempty"`
	HostIP            string            `json:"hostIP,omitempty"`
	StartTime         *Time             `json:"startTime,omitempty"`
	ContainerStatuses []ContainerStatus `json:"containerStatuses,omitempty"`
}

// PodCondition is one observation about a pod, such as Ready.
type PodCondition struct {
	// Never compared with ==: the field keeps the compiler from writing an
	// equality function for the type (and for every array of it that a
	// list literal makes), which only made main.wasm bigger.
	_ [0]func()

	Type               string `json:"type"`
	Status             string `json:"status"`
	LastTransitionTime Time   `json:"lastTransitionTime,omitempty"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// ContainerStatus is the kubelet's view of one container.
type ContainerStatus struct {
	// Never compared with ==: the field keeps the compiler from writing an
	// equality function for the type (and for every array of it that a
	// list literal makes), which only made main.wasm bigger.
	_ [0]func()

	Name         string `json:"name"`
	Image        string `json:"image"`
	Ready        bool   `json:"ready"`
	RestartCount int32  `json:"restartCount"`
	Started      *bool  `json:"started,omitempty"`
}

// SameList reports whether a and b are one list: the same elements, at
// least one, in the same memory. Stored objects share lists with the
// versions before them (conditions, owner references, finalizers), so a
// comparison of two versions can take one list as equal to itself without
// reading it.
func SameList[E any](a, b []E) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// SamePodCondition reports whether two pod conditions are equal field for
// field, as == would if conditions could be compared (see PodCondition).
func SamePodCondition(a, b PodCondition) bool {
	return a.Type == b.Type && a.Status == b.Status && a.LastTransitionTime == b.LastTransitionTime &&
		a.Reason == b.Reason && a.Message == b.Message
}

// SameContainerStatus reports whether two container statuses are equal
// field for field, Started by the value it points at: what a reader of
// either can tell apart.
func SameContainerStatus(a, b ContainerStatus) bool {
	if (a.Started == nil) != (b.Started == nil) || (a.Started != nil && *a.Started != *b.Started) {
		return false
	}
	return a.Name == b.Name && a.Image == b.Image && a.Ready == b.Ready && a.RestartCount == b.RestartCount
}

// PodTemplateSpec is the pod a workload controller stamps out.
type PodTemplateSpec struct {
	Metadata ObjectMeta `json:"metadata"`
	Spec     PodSpec    `json:"spec"`
}

// LabelSelector is the structured selector of apps/v1 objects. A nil selector
// selects nothing; a non-nil empty one selects everything.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is one set-based requirement of a LabelSelector.
type LabelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// The operators a LabelSelectorRequirement may use.
const (
	LabelSelectorOpIn           = "In"
	LabelSelectorOpNotIn        = "NotIn"
	LabelSelectorOpExists       = "Exists"
	LabelSelectorOpDoesNotExist = "DoesNotExist"
)

// ReplicaSet keeps a number of identical pods running.
type ReplicaSet struct {
	TypeMeta `json:",inline"`
	Metadata ObjectMeta       `json:"metadata"`
	Spec     ReplicaSetSpec   `json:"spec"`
	Status   ReplicaSetStatus `json:"status"`
}

// ReplicaSetSpec is the desired state of a ReplicaSet.
type ReplicaSetSpec struct {
	// Replicas is the number of pods wanted; nil is defaulted to 1 by the store.
	Replicas        *int32          `json:"replicas,omitempty"`
	MinReadySeconds int32           `json:"minReadySeconds,omitempty"`
	Selector        *LabelSelector  `json:"selector"`
	Template        PodTemplateSpec `json:"template"`
}

// ReplicaSetStatus is what the replication manager last observed.
type ReplicaSetStatus struct {
	Replicas             int32                 `json:"replicas"`
	FullyLabeledReplicas int32                 `json:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int32                 `json:"readyReplicas,omitempty"`
	AvailableReplicas    int32                 `json:"availableReplicas,omitempty"`
	ObservedGeneration   int64                 `json:"observedGeneration,omitempty"`
	Conditions           []ReplicaSetCondition `json:"conditions,omitempty"`
}

// ReplicaSetCondition is one observation about a ReplicaSet, such as
// ReplicaFailure.
type ReplicaSetCondition struct {
	// Never compared with ==: the field keeps the compiler from writing an
	// equality function for the type (and for every array of it that a
	// list literal makes), which only made main.wasm bigger.
	_ [0]func()

	Type               string `json:"type"`
	Status             string `json:"status"`
	LastTransitionTime Time   `json:"lastTransitionTime,omitempty"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// ReplicationController is the v1 ancestor of ReplicaSet: the same controller
// serves both, but its selector is a plain map (equality only).
type ReplicationController struct {
	TypeMeta `json:",inline"`
	Metadata ObjectMeta                  `json:"metadata"`
	Spec     ReplicationControllerSpec   `json:"spec"`
	Status   ReplicationControllerStatus `json:"status"`
}

// ReplicationControllerSpec is the desired state of a ReplicationController.
type ReplicationControllerSpec struct {
	Replicas        *int32            `json:"replicas,omitempty"`
	MinReadySeconds int32             `json:"minReadySeconds,omitempty"`
	Selector        map[string]string `json:"selector,omitempty"`
	Template        *PodTemplateSpec  `json:"template,omitempty"`
}

// ReplicationControllerStatus mirrors ReplicaSetStatus.
type ReplicationControllerStatus struct {
	Replicas             int32                            `json:"replicas"`
	FullyLabeledReplicas int32                            `json:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int32                            `json:"readyReplicas,omitempty"`
	AvailableReplicas    int32                            `json:"availableReplicas,omitempty"`
	ObservedGeneration   int64                            `json:"observedGeneration,omitempty"`
	Conditions           []ReplicationControllerCondition `json:"conditions,omitempty"`
}

// ReplicationControllerCondition is ReplicaSetCondition: the two kinds'
// conditions have the same fields and JSON. With one condition type the two
// statuses have one shape too, so code that reads a status (comparing,
// printing) is written once and converts a ReplicationControllerStatus to a
// ReplicaSetStatus, which costs nothing.
type ReplicationControllerCondition = ReplicaSetCondition

// Node is a machine pods run on.
type Node struct {
	TypeMeta `json:",inline"`
	Metadata ObjectMeta `json:"metadata"`
	Spec     NodeSpec   `json:"spec"`
	Status   NodeStatus `json:"status"`
}

// NodeSpec holds what an operator sets on a node.
type NodeSpec struct {
	// Unschedulable is set by cordon: the scheduler places no new pods here.
	Unschedulable bool `json:"unschedulable,omitempty"`
}

// NodeStatus is what the node's kubelet reports.
type NodeStatus struct {
	Conditions []NodeCondition `json:"conditions,omitempty"`
}

// NodeCondition is one observation about a node, such as Ready.
type NodeCondition struct {
	// Never compared with ==: the field keeps the compiler from writing an
	// equality function for the type (and for every array of it that a
	// list literal makes), which only made main.wasm bigger.
	_ [0]func()

	Type               string `json:"type"`
	Status             string `json:"status"`
	LastTransitionTime Time   `json:"lastTransitionTime,omitempty"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// Event is a core/v1 Event: a record that something happened to an object,
// written by a component's event recorder.
type Event struct {
	TypeMeta       `json:",inline"`
	Metadata       ObjectMeta      `json:"metadata"`
	InvolvedObject ObjectReference `json:"involvedObject"`
	Reason         string          `json:"reason,omitempty"`
	Message        string          `json:"message,omitempty"`
	Source         EventSource     `json:"source,omitempty"`
	FirstTimestamp Time            `json:"firstTimestamp,omitempty"`
	LastTimestamp  Time            `json:"lastTimestamp,omitempty"`
	Count          int32           `json:"count,omitempty"`
	Type           string          `json:"type,omitempty"`
}

// EventSource names the component that recorded an Event.
type EventSource struct {
	// Never compared with ==: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Component string `json:"component,omitempty"`
	Host      string `json:"host,omitempty"`
}
