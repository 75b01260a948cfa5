package api

import (
	"errors"
	"strconv"

	"github.com/reconcilelab/rlab/core/minijson"
)

// Deployment strategy types, as apps/v1 spells them.
const (
	// RollingUpdateDeploymentStrategy replaces pods gradually, within
	// maxSurge and maxUnavailable.
	RollingUpdateDeploymentStrategy = "RollingUpdate"
	// RecreateDeploymentStrategy removes every old pod before the first new one
	// is created.
	RecreateDeploymentStrategy = "Recreate"
)

// Deployment condition types.
const (
	DeploymentAvailable      = "Available"
	DeploymentProgressing    = "Progressing"
	DeploymentReplicaFailure = "ReplicaFailure"
)

// Deployment keeps a set of identical pods at one template, through one
// ReplicaSet per template it has had, and rolls from one template to the next.
type Deployment struct {
	TypeMeta `json:",inline"`
	Metadata ObjectMeta       `json:"metadata"`
	Spec     DeploymentSpec   `json:"spec"`
	Status   DeploymentStatus `json:"status"`
}

// DeploymentSpec is the desired state of a Deployment. The pointer fields are
// nil only before the API store defaults them (replicas 1, revisionHistoryLimit
// 10, progressDeadlineSeconds 600), as apps/v1 defaults them.
type DeploymentSpec struct {
	Replicas        *int32             `json:"replicas,omitempty"`
	Selector        *LabelSelector     `json:"selector"`
	Template        PodTemplateSpec    `json:"template"`
	Strategy        DeploymentStrategy `json:"strategy,omitempty"`
	MinReadySeconds int32              `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit is how many old ReplicaSets (scaled to zero) to keep
	// for rollbacks.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// Paused stops rollouts: a template change is stored but no new ReplicaSet
	// is made. Scaling still happens.
	Paused bool `json:"paused,omitempty"`
	// ProgressDeadlineSeconds is how long a rollout may go without progress
	// before the Progressing condition says ProgressDeadlineExceeded. It does
	// not roll anything back.
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty"`
}

// DeploymentStrategy is how a Deployment replaces old pods by new ones.
type DeploymentStrategy struct {
	// Never compared with ==: the field keeps the compiler from writing an
	// equality function for the type (and for every array of it that a
	// list literal makes), which only made main.wasm bigger.
	_ [0]func()

	Type          string                   `json:"type,omitempty"`
	RollingUpdate *RollingUpdateDeployment `json:"rollingUpdate,omitempty"`
}

// RollingUpdateDeployment bounds a rolling update: maxSurge is how many pods
// above spec.replicas may exist, maxUnavailable how many below it may be
// unavailable. Each is a number or a percentage of spec.replicas.
type RollingUpdateDeployment struct {
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *IntOrString `json:"maxSurge,omitempty"`
}

// DeploymentStatus is what the Deployment controller last observed, summed
// over the Deployment's ReplicaSets.
type DeploymentStatus struct {
	ObservedGeneration  int64                 `json:"observedGeneration,omitempty"`
	Replicas            int32                 `json:"replicas,omitempty"`
	UpdatedReplicas     int32                 `json:"updatedReplicas,omitempty"`
	ReadyReplicas       int32                 `json:"readyReplicas,omitempty"`
	AvailableReplicas   int32                 `json:"availableReplicas,omitempty"`
	UnavailableReplicas int32                 `json:"unavailableReplicas,omitempty"`
	Conditions          []DeploymentCondition `json:"conditions,omitempty"`
	// CollisionCount counts pod-template-hash collisions; it feeds the hash, so
	// a collision gives the next ReplicaSet another name. It only grows.
	CollisionCount *int32 `json:"collisionCount,omitempty"`
}

// DeploymentCondition is one observation about a Deployment. Unlike a
// ReplicaSet's conditions it has a lastUpdateTime too: the progress deadline
// is measured from it.
type DeploymentCondition struct {
	// Never compared with ==: the field keeps the compiler from writing an
	// equality function for the type (and for every array of it that a
	// list literal makes), which only made main.wasm bigger.
	_ [0]func()

	Type               string `json:"type"`
	Status             string `json:"status"`
	LastUpdateTime     Time   `json:"lastUpdateTime,omitempty"`
	LastTransitionTime Time   `json:"lastTransitionTime,omitempty"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

func (d *Deployment) Meta() *ObjectMeta      { return &d.Metadata }
func (d *Deployment) Kind() Kind             { return KindDeployment }
func (d *Deployment) DeepCopyObject() Object { return d.DeepCopy() }

var _ Object = (*Deployment)(nil)

// DeepCopy returns a copy of the Deployment that shares no memory with d.
func (d *Deployment) DeepCopy() *Deployment {
	if d == nil {
		return nil
	}
	out := &Deployment{TypeMeta: d.TypeMeta, Metadata: d.Metadata.DeepCopy()}
	out.Spec = DeploymentSpec{
		Replicas:                copyInt32Ptr(d.Spec.Replicas),
		Selector:                d.Spec.Selector.DeepCopy(),
		Template:                *d.Spec.Template.DeepCopy(),
		Strategy:                DeploymentStrategy{Type: d.Spec.Strategy.Type},
		MinReadySeconds:         d.Spec.MinReadySeconds,
		RevisionHistoryLimit:    copyInt32Ptr(d.Spec.RevisionHistoryLimit),
		Paused:                  d.Spec.Paused,
		ProgressDeadlineSeconds: copyInt32Ptr(d.Spec.ProgressDeadlineSeconds),
	}
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		out.Spec.Strategy.RollingUpdate = &RollingUpdateDeployment{
			MaxUnavailable: ru.MaxUnavailable.DeepCopy(),
			MaxSurge:       ru.MaxSurge.DeepCopy(),
		}
	}
	out.Status = d.Status
	out.Status.CollisionCount = copyInt32Ptr(d.Status.CollisionCount)
	if d.Status.Conditions != nil {
		out.Status.Conditions = append(make([]DeploymentCondition, 0, len(d.Status.Conditions)), d.Status.Conditions...)
	}
	return out
}

// IntOrString is a value that is either an integer or a string, as
// maxSurge and maxUnavailable are ("1" or "25%"). In JSON it is a number or a
// string, whichever it holds.
type IntOrString struct {
	// IsString tells which of the two it holds.
	IsString bool
	IntVal   int32
	StrVal   string
}

// FromInt returns an IntOrString holding i.
func FromInt(i int32) IntOrString { return IntOrString{IntVal: i} }

// FromString returns an IntOrString holding s, such as "25%".
func FromString(s string) IntOrString { return IntOrString{IsString: true, StrVal: s} }

// ParseIntOrString reads what a user types for maxSurge or maxUnavailable: a
// plain integer is a number, anything else is kept as a string (validation
// then says whether it is a valid percentage), as kubectl and the API read
// the two forms.
func ParseIntOrString(s string) IntOrString {
	if i, err := strconv.ParseInt(s, 10, 32); err == nil {
		return FromInt(int32(i))
	}
	return FromString(s)
}

// String returns the number in decimal, or the string as it is.
func (v IntOrString) String() string {
	if v.IsString {
		return v.StrVal
	}
	return strconv.Itoa(int(v.IntVal))
}

// DeepCopy returns a copy of the pointer's value, or nil.
func (v *IntOrString) DeepCopy() *IntOrString {
	if v == nil {
		return nil
	}
	c := *v
	return &c
}

// AppendJSON writes a number or a quoted string, for core/minijson.
func (v IntOrString) AppendJSON(b []byte) []byte {
	if v.IsString {
		return minijson.AppendString(b, v.StrVal)
	}
	return strconv.AppendInt(b, int64(v.IntVal), 10)
}

// MarshalJSON writes what AppendJSON writes.
func (v IntOrString) MarshalJSON() ([]byte, error) { return v.AppendJSON(nil), nil }

// UnmarshalJSON reads a number or a string.
func (v *IntOrString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		s, err := strconv.Unquote(string(b))
		if err != nil {
			return err
		}
		*v = FromString(s)
		return nil
	}
	i, err := strconv.ParseInt(string(b), 10, 32)
	if err != nil {
		return errors.New("an int-or-string must be a 32-bit integer or a string, not " + string(b))
	}
	*v = FromInt(int32(i))
	return nil
}
