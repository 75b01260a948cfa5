package world

import (
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/deployment"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sim"
)

// The Deployments in the read model: each Deployment with its status and
// conditions, and the Deployment controller from inside. Both are left out
// of a world that never had a Deployment (the controller sleeps there), so
// its view is what it was before Deployments existed.

// Deployment is one Deployment, by namespace and name.
type Deployment struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// Selector is the selector as the console writes it ("app=web").
	Selector string `json:"selector"`
	// Replicas is spec.replicas; Strategy "RollingUpdate" or "Recreate";
	// MaxSurge and MaxUnavailable resolved to pods for spec.replicas (for
	// RollingUpdate).
	Replicas       int32  `json:"replicas"`
	Strategy       string `json:"strategy"`
	MaxSurge       int32  `json:"maxSurge,omitempty"`
	MaxUnavailable int32  `json:"maxUnavailable,omitempty"`
	Paused         bool   `json:"paused,omitempty"`
	// Revision is the Deployment's revision annotation.
	Revision string           `json:"revision,omitempty"`
	Status   DeploymentStatus `json:"status"`
	// Conditions are the status's conditions, in its order.
	Conditions  []Condition `json:"conditions,omitempty"`
	Terminating bool        `json:"terminating,omitempty"`
}

// DeploymentStatus is a Deployment's status counts.
type DeploymentStatus struct {
	Replicas            int32 `json:"replicas"`
	UpdatedReplicas     int32 `json:"updatedReplicas"`
	ReadyReplicas       int32 `json:"readyReplicas"`
	AvailableReplicas   int32 `json:"availableReplicas"`
	UnavailableReplicas int32 `json:"unavailableReplicas"`
	ObservedGeneration  int64 `json:"observedGeneration"`
	Generation          int64 `json:"generation"`
}

// Condition is one condition of a Deployment.
type Condition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// DeploymentController is the Deployment controller from inside: its
// queue, its workers and its last syncs, as Controller shows a replication
// manager's.
type DeploymentController struct {
	Name      string   `json:"name"`
	Started   bool     `json:"started"`
	Queue     Queue    `json:"queue"`
	Workers   []Worker `json:"workers,omitempty"`
	LastSyncs []Sync   `json:"lastSyncs,omitempty"`
}

// deploymentsView lists the Deployments in the store's order.
func deploymentsView(w *World) []Deployment {
	var out []Deployment
	for _, obj := range w.Store.Objects(api.KindDeployment, "") {
		d := obj.(*api.Deployment)
		v := Deployment{Namespace: d.Metadata.Namespace, Name: d.Metadata.Name, Replicas: replicas(d.Spec.Replicas),
			Strategy: d.Spec.Strategy.Type, Paused: d.Spec.Paused, Revision: d.Metadata.Annotations[deployment.RevisionAnnotation],
			Terminating: d.Metadata.DeletionTimestamp != nil,
			Status: DeploymentStatus{d.Status.Replicas, d.Status.UpdatedReplicas, d.Status.ReadyReplicas, d.Status.AvailableReplicas,
				d.Status.UnavailableReplicas, d.Status.ObservedGeneration, d.Metadata.Generation}}
		if sel, err := labels.LabelSelectorAsSelector(d.Spec.Selector); err == nil {
			v.Selector = sel.String()
		}
		if deployment.IsRollingUpdate(d) {
			v.MaxSurge, v.MaxUnavailable = deployment.MaxSurge(d), deployment.MaxUnavailable(d)
		}
		for _, c := range d.Status.Conditions {
			v.Conditions = append(v.Conditions, Condition{Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message})
		}
		out = append(out, v)
	}
	return out
}

// deploymentControllerView shows the Deployment controller from inside, or
// nil while it sleeps.
func deploymentControllerView(w *World) *DeploymentController {
	v := w.Deploy.View()
	if !v.Active {
		return nil
	}
	out := &DeploymentController{Name: v.Name, Started: v.Started, Queue: queueView(v.Queue)}
	for _, wk := range v.Workers {
		out.Workers = append(out.Workers, Worker{Name: wk.Name, State: wk.State, Key: wk.Key, Phase: wk.Phase,
			Waiting: wk.Waiting, Syncs: wk.Syncs})
	}
	for _, rec := range v.LastSyncs {
		out.LastSyncs = append(out.LastSyncs, deploymentSyncJSON(rec))
	}
	return out
}

// deploymentSyncJSON describes a sync of the Deployment controller.
func deploymentSyncJSON(rec deployment.SyncRecord) Sync {
	_, name, _ := strings.Cut(rec.Key, "/")
	return Sync{Owner: "deploy/" + name, Key: rec.Key, Worker: rec.Worker, Start: sim.FormatSeconds(rec.Start),
		End: sim.FormatSeconds(rec.End), Decision: rec.Decision, Err: rec.Err, Seq: rec.Seq}
}

// controllerOfRS names a ReplicaSet's controller ("deploy/web"), and gives
// its revision annotation.
func controllerOfRS(rs *api.ReplicaSet) (owner, revision string) {
	if ref := api.GetControllerOf(&rs.Metadata); ref != nil {
		owner = api.ShortName(api.Kind(ref.Kind)) + "/" + ref.Name
	}
	return owner, rs.Metadata.Annotations[deployment.RevisionAnnotation]
}
