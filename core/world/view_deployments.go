package world

import (
	"cmp"
	"slices"
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
	// Image is the images of its pod template's containers, joined by
	// ", ".
	Image string `json:"image,omitempty"`

	// ReplicaSets names the ReplicaSets it controls, newest revision first
	// (then newest first), and NewReplicaSet the one whose template is the
	// Deployment's, as the controller finds it (deployment.FindNewReplicaSet;
	// empty until it exists).
	ReplicaSets   []string `json:"replicaSets,omitempty"`
	NewReplicaSet string   `json:"newReplicaSet,omitempty"`
	// Rolling says a rollout (or a scaling) is under way: there is no new
	// ReplicaSet yet, an old one still wants pods, or the status is not
	// yet complete (deployment.DeploymentComplete).
	Rolling bool `json:"rolling,omitempty"`
	// Budget is a RollingUpdate's bounds now; nil for Recreate.
	Budget *Budget `json:"budget,omitempty"`
	// LastScaling is the last finished sync of the Deployment controller
	// that scaled one of its ReplicaSets, with the controller's reasons.
	LastScaling *Sync `json:"lastScaling,omitempty"`
	// History is its rollout history as kubectl rollout history lists it:
	// a revision per ReplicaSet, oldest first; one without the revision
	// annotation is revision 0, as kubectl reads it.
	History []Revision `json:"history,omitempty"`
}

// Budget is what a RollingUpdate allows at this step, from the
// controller's own functions (deployment.MaxSurge, MaxUnavailable): at
// most MaxPods pods wanted in all (spec.replicas + maxSurge), at least
// MinAvailable available (spec.replicas − maxUnavailable); and where its
// ReplicaSets stand against that: Wanted, the sum of their spec.replicas
// (what the bounds limit), Pods, their active pods (those being deleted
// are not counted, so more may exist), and Available, the sum of their
// status.availableReplicas, as the controller reads them.
type Budget struct {
	MaxPods      int32 `json:"maxPods"`
	MinAvailable int32 `json:"minAvailable"`
	Wanted       int32 `json:"wanted"`
	Pods         int32 `json:"pods"`
	Available    int32 `json:"available"`
}

// Revision is one revision of a rollout history: its number, its
// ReplicaSet, that ReplicaSet's images, and its kubernetes.io/change-cause
// annotation.
type Revision struct {
	_ incomparable

	Revision    int64  `json:"revision"`
	ReplicaSet  string `json:"replicaSet"`
	Image       string `json:"image,omitempty"`
	ChangeCause string `json:"changeCause,omitempty"`
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
	_ incomparable

	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// DeploymentController is the Deployment controller from inside: its
// queue, its workers and its last syncs, as Controller shows a replication
// manager's.
type DeploymentController struct {
	// Kind is "deploy", the short name the loop's places have (core/loop),
	// as a replication manager's Kind is "rs" or "rc".
	Kind      string   `json:"kind"`
	Name      string   `json:"name"`
	Started   bool     `json:"started"`
	Queue     Queue    `json:"queue"`
	Workers   []Worker `json:"workers,omitempty"`
	LastSyncs []Sync   `json:"lastSyncs,omitempty"`
}

// deploymentsView lists the Deployments in the store's order, each with its
// ReplicaSets, its budget, its last scaling and its history; groups are the
// view's pod groups, which count each ReplicaSet's active pods.
func deploymentsView(w *World, groups []PodGroup) []Deployment {
	objs := w.Store.Objects(api.KindDeployment, "")
	if len(objs) == 0 {
		return nil
	}
	active := map[string]int32{} // "namespace/rs/name" → active pods
	for _, g := range groups {
		if !g.OwnerGone {
			active[g.Namespace+"/"+g.Owner] += int32(g.Active)
		}
	}
	// Each Deployment's ReplicaSets, found once for the whole view rather
	// than by scanning every ReplicaSet for every Deployment.
	controlled := map[string][]*api.ReplicaSet{} // Deployment uid → ReplicaSets
	for _, obj := range w.Store.Objects(api.KindReplicaSet, "") {
		rs := obj.(*api.ReplicaSet)
		if ref := api.GetControllerOf(&rs.Metadata); ref != nil && ref.Kind == "Deployment" {
			controlled[ref.UID] = append(controlled[ref.UID], rs)
		}
	}
	var out []Deployment
	for _, obj := range objs {
		d := obj.(*api.Deployment)
		v := Deployment{Namespace: d.Metadata.Namespace, Name: d.Metadata.Name, Replicas: replicas(d.Spec.Replicas),
			Strategy: d.Spec.Strategy.Type, Paused: d.Spec.Paused, Revision: d.Metadata.Annotations[deployment.RevisionAnnotation],
			Terminating: d.Metadata.DeletionTimestamp != nil, Image: images(&d.Spec.Template.Spec),
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
		rollout(d, controlled[d.Metadata.UID], &v, active)
		if rec, ok := w.Deploy.LastScaling(api.Key(d.Metadata.Namespace, d.Metadata.Name)); ok && rec.UID == d.Metadata.UID {
			s := deploymentSyncJSON(rec)
			v.LastScaling = &s
		}
		out = append(out, v)
	}
	return out
}

// rollout fills in what a Deployment's ReplicaSets (rss, those it controls,
// by uid) say about its rollout: which they are, newest revision first,
// which is new, whether a rollout is under way, its budget and its history.
func rollout(d *api.Deployment, rss []*api.ReplicaSet, v *Deployment, active map[string]int32) {
	// FindNewReplicaSet sorts its list, oldest first.
	newRS := deployment.FindNewReplicaSet(d, slices.Clone(rss))
	if newRS != nil {
		v.NewReplicaSet = newRS.Metadata.Name
	}
	revision := func(rs *api.ReplicaSet) int64 {
		n, err := deployment.Revision(&rs.Metadata)
		if err != nil {
			return -1
		}
		return n
	}
	slices.SortFunc(rss, func(a, b *api.ReplicaSet) int {
		if ra, rb := revision(a), revision(b); ra != rb {
			return cmp.Compare(rb, ra)
		}
		if c := b.Metadata.CreationTimestamp.Compare(a.Metadata.CreationTimestamp.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Metadata.Name, b.Metadata.Name)
	})
	oldWant := false
	var wanted, pods, available int32
	for _, rs := range rss {
		v.ReplicaSets = append(v.ReplicaSets, rs.Metadata.Name)
		n := replicas(rs.Spec.Replicas)
		if rs != newRS && n > 0 {
			oldWant = true
		}
		wanted += n
		pods += active[rs.Metadata.Namespace+"/rs/"+rs.Metadata.Name]
		available += rs.Status.AvailableReplicas
	}
	for i := len(rss) - 1; i >= 0; i-- {
		rs := rss[i]
		// kubectl leaves out a ReplicaSet whose revision does not parse.
		if n := revision(rs); n >= 0 {
			v.History = append(v.History, Revision{Revision: n, ReplicaSet: rs.Metadata.Name, Image: images(&rs.Spec.Template.Spec),
				ChangeCause: rs.Metadata.Annotations[changeCauseAnnotation]})
		}
	}
	v.Rolling = newRS == nil || oldWant || !deployment.DeploymentComplete(d, &d.Status)
	if deployment.IsRollingUpdate(d) {
		v.Budget = &Budget{MaxPods: v.Replicas + v.MaxSurge, MinAvailable: deployment.MinAvailable(d),
			Wanted: wanted, Pods: pods, Available: available}
	}
}

// changeCauseAnnotation is the annotation kubectl's rollout history shows
// as a revision's CHANGE-CAUSE.
const changeCauseAnnotation = "kubernetes.io/change-cause"

// deploymentControllerView shows the Deployment controller from inside, or
// nil while it sleeps.
func deploymentControllerView(w *World) *DeploymentController {
	v := w.Deploy.View()
	if !v.Active {
		return nil
	}
	out := &DeploymentController{Kind: api.ShortName(api.KindDeployment), Name: v.Name, Started: v.Started, Queue: queueView(v.Queue)}
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
	out := Sync{Owner: "deploy/" + name, Key: rec.Key, Worker: rec.Worker, Start: sim.FormatSeconds(rec.Start),
		End: sim.FormatSeconds(rec.End), Decision: rec.Decision, Err: rec.Err, Seq: rec.Seq}
	for _, s := range rec.Scales {
		out.Scales = append(out.Scales, Scale{ReplicaSet: s.ReplicaSet, From: s.From, To: s.To, By: s.By, Why: s.Why})
	}
	return out
}

// controllerOfRS names a ReplicaSet's controller ("deploy/web"), and gives
// its revision annotation.
func controllerOfRS(rs *api.ReplicaSet) (owner, revision string) {
	if ref := api.GetControllerOf(&rs.Metadata); ref != nil {
		owner = api.ShortName(api.Kind(ref.Kind)) + "/" + ref.Name
	}
	return owner, rs.Metadata.Annotations[deployment.RevisionAnnotation]
}
