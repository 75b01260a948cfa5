package deployment

import (
	"errors"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sim"
)

// env is everything one sync touches besides its own variables: the API
// server (upstream's clientset), the informers' caches (its listers), the
// clock, the event recorder, the work queue (for the progress-deadline
// requeues), and the learner's trace. Upstream's functions take these from
// their *DeploymentController; ours take them from the env of a dc.
//
// The world gives a sync the env of exec.go, which sends each call as a
// request and suspends the sync until the answer arrives; the tests give it
// a fake that answers at once, as upstream's tests give theirs a fake
// clientset. The sync's code is the same either way.
type env interface {
	createReplicaSet(rs *api.ReplicaSet) (*api.ReplicaSet, error)
	updateReplicaSet(rs *api.ReplicaSet) (*api.ReplicaSet, error)
	deleteReplicaSet(namespace, name string) error
	patchReplicaSet(namespace, name string, p apistore.MetaPatch) error
	getDeployment(namespace, name string) (*api.Deployment, error)
	updateDeployment(d *api.Deployment) error
	updateDeploymentStatus(d *api.Deployment) error

	// cachedReplicaSets returns a new slice on every call: the sync sorts
	// it in place.
	cachedDeployment(namespace, name string) (*api.Deployment, bool)
	cachedReplicaSets(namespace string) []*api.ReplicaSet
	cachedReplicaSet(namespace, name string) (*api.ReplicaSet, bool)
	// cachedPods returns the pods of the namespace that sel matches and
	// whose controller is one of owners (UIDs), in the cache's order.
	cachedPods(namespace string, sel labels.Selector, owners []string) []*api.Pod

	now() time.Time
	event(d *api.Deployment, eventType, reason, message string)
	enqueueRateLimited(key string)
	enqueueAfter(key string, after time.Duration)

	// say tells the learner what the sync does, in a sentence, naming the
	// upstream function doing it; touched are the objects it concerns.
	say(models, text string, touched ...sim.Ref)
	// scaled records that the sync changed a ReplicaSet's size, and why:
	// the read model's account of the sync (SyncRecord.Scales). Unlike say
	// it writes nothing to the trace, so it changes no step.
	scaled(s Scale)
}

// reason is why a sync scales a ReplicaSet: the function that decided it,
// as upstream names it, and its rule with the numbers it used, in words.
type reason struct {
	by, why string
}

// errSuspend is what an env's call returns when the answer is not there
// yet: the sync stops, and runs again when it arrives (see exec.go). Every
// place where upstream ignores a call's error must still pass this one up.
var errSuspend = errors.New("waiting for the API server's answer")

func suspended(err error) bool { return errors.Is(err, errSuspend) }

// dc is one sync's controller: upstream's *DeploymentController as the sync
// functions use it. d is the sync's working copy of the Deployment once it
// has one, as the sync left it: with the last status it computed.
type dc struct {
	env
	d *api.Deployment
}

func deployRef(d *api.Deployment) sim.Ref {
	return sim.Ref{Kind: "deploy", Namespace: d.Metadata.Namespace, Name: d.Metadata.Name}
}

func rsRef(rs *api.ReplicaSet) sim.Ref {
	return sim.Ref{Kind: "rs", Namespace: rs.Metadata.Namespace, Name: rs.Metadata.Name}
}

// notFound is the error a lister returns for a missing object.
func notFound(resource, name string) error {
	return errors.New(resource + ` "` + name + `" not found`)
}
