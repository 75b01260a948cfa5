package world

import (
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/controller"
	"github.com/reconcilelab/rlab/core/loop"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/source"
)

// This file is the read model of what happened: a step as a learner sees
// it (with its place on the picture of the loop), a finished sync, and where
// upstream writes the function a step models.

// Step is one step of the kernel as a learner sees it: its number, its
// simulated time, who acted, the upstream function it models, what happened
// in one sentence, the objects it touched (to highlight) and its trace line.
type Step struct {
	N       uint64 `json:"n"`
	At      string `json:"at"`
	Actor   string `json:"actor"`
	Models  string `json:"models,omitempty"`
	Summary string `json:"summary"`
	Touched []Ref  `json:"touched,omitempty"`
	Trace   string `json:"trace"`
	// Loop places the step on the picture of the control loop
	// (core/loop); nil for a step it has no place for.
	Loop *LoopMove `json:"loop,omitempty"`
}

// LoopMove is a step on the picture of the loop: the places it lights, the
// main one first, and the edge its data travelled, From → To, with the Token
// that travelled and the Fault ("dropped", "delayed", "failed") that befell
// it. Places are named as core/loop names them ("apiserver",
// "informer/pods/reflector", "rs/queue").
type LoopMove struct {
	Lit   []string `json:"lit"`
	From  string   `json:"from,omitempty"`
	To    string   `json:"to,omitempty"`
	Token string   `json:"token,omitempty"`
	Fault string   `json:"fault,omitempty"`
}

// Ref names an object: kind is the short name ("pod", "rs", "rc", "node").
type Ref struct {
	_ incomparable

	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// StepOf describes a step as a learner sees it.
func StepOf(s sim.StepResult) Step {
	trace, summary := s.TraceLineAndSummary()
	out := Step{N: s.N, At: sim.FormatSeconds(s.At), Actor: s.Actor, Models: s.Models, Summary: summary, Trace: trace}
	for _, r := range s.Touched {
		out.Touched = append(out.Touched, Ref{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name})
	}
	if m, ok := loop.Of(s); ok {
		lm := &LoopMove{From: string(m.From), To: string(m.To), Token: m.Token, Fault: m.Fault}
		for _, p := range m.Lit {
			lm.Lit = append(lm.Lit, string(p))
		}
		out.Loop = lm
	}
	return out
}

// Sync is one finished sync of an owner: who ran it, when, what it decided,
// and its error, if any. Seq numbers its manager's syncs from 1.
type Sync struct {
	// Owner is "rs/web"; Key its queue key, "default/web".
	Owner    string `json:"owner"`
	Key      string `json:"key"`
	Worker   string `json:"worker"`
	Start    string `json:"start"`
	End      string `json:"end"`
	Decision string `json:"decision,omitempty"`
	Err      string `json:"err,omitempty"`
	Seq      int    `json:"seq"`
	// Scales are the ReplicaSets a sync of the Deployment controller
	// scaled, in order, each with the controller's reason.
	Scales []Scale `json:"scales,omitempty"`
}

// Scale is one change of a ReplicaSet's spec.replicas a sync made: From →
// To, decided By the named upstream function, for the reason Why, in the
// controller's own words and numbers (deployment.Scale).
type Scale struct {
	_ incomparable

	ReplicaSet string `json:"replicaSet"`
	From       int32  `json:"from"`
	To         int32  `json:"to"`
	By         string `json:"by"`
	Why        string `json:"why"`
}

// syncJSON describes a sync record of the manager m.
func syncJSON(m *controller.Manager, rec controller.SyncRecord) *Sync {
	_, name, _ := strings.Cut(rec.Key, "/")
	return &Sync{Owner: shortKind(m.Kind()) + "/" + name, Key: rec.Key, Worker: rec.Worker,
		Start: sim.FormatSeconds(rec.Start), End: sim.FormatSeconds(rec.End), Decision: rec.Decision, Err: rec.Err, Seq: rec.Seq}
}

// FinishedSyncs counts the syncs each replication manager has finished:
// the ReplicaSet controller's and the ReplicationController manager's.
func (w *World) FinishedSyncs() (rs, rc int) { return w.RS.Syncs(), w.RC.Syncs() }

// LatestSync returns the most recent sync the controller of kind
// (api.KindReplicaSet, api.KindReplicationController or api.KindDeployment)
// finished.
func (w *World) LatestSync(kind api.Kind) (Sync, bool) {
	if kind == api.KindDeployment {
		for _, rec := range w.Deploy.View().LastSyncs {
			if rec.Seq == w.Deploy.Syncs() {
				return deploymentSyncJSON(rec), true
			}
		}
		return Sync{}, false
	}
	m := w.manager(kind)
	if m == nil {
		return Sync{}, false
	}
	for _, rec := range m.View().LastSyncs {
		if rec.Seq == m.Syncs() {
			return *syncJSON(m, rec), true
		}
	}
	return Sync{}, false
}

// LastSyncOf returns the last finished sync of the owner of kind whose
// queue key is key ("default/web").
func (w *World) LastSyncOf(kind api.Kind, key string) (Sync, bool) {
	if kind == api.KindDeployment {
		rec, ok := w.Deploy.LastSync(key)
		if !ok {
			return Sync{}, false
		}
		return deploymentSyncJSON(rec), true
	}
	m := w.manager(kind)
	if m == nil {
		return Sync{}, false
	}
	rec, ok := m.LastSync(key)
	if !ok {
		return Sync{}, false
	}
	return *syncJSON(m, rec), true
}

// SourceRef is where upstream writes the function a step models.
type SourceRef = source.Ref

// SourceTag is the upstream release the source links point into.
const SourceTag = source.Tag

// SourceOf returns where upstream writes the function a step's Models
// names ("syncReplicaSet").
func SourceOf(models string) (SourceRef, bool) { return source.Of(models) }

// Sources returns every function the steps model, by the name the steps
// give it, with where upstream writes it.
func Sources() map[string]SourceRef { return source.All() }
