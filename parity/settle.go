package parity

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/parity/plane"
)

// SettleRules say when a real plane has stabilized. rlab's stabilize runs
// its kernel until nothing but periodic timers is left; a real cluster has
// no agenda to look at, so stabilize there waits until all of these hold at
// once, and have held for Quiet:
//
//  1. No controller queue activity: every workqueue of the four controllers
//     (plane.ControllerQueues) has no key waiting and none being worked on.
//  2. The stand-in scheduler and kubelets have nothing to do: no work queued,
//     no timer set (a pod starting, stopping or restarting, a binding backing
//     off), no pod waiting for a node while one is schedulable.
//  3. Every object is settled: no pod is being deleted; no object is being
//     deleted with finalizers left (foreground deletion, orphaning); every
//     ReplicaSet and ReplicationController has observed its generation and
//     counts as many replicas as it wants, and as many available as ready
//     (a pod Ready for less than minReadySeconds is still to come: the
//     controller's AddAfter is in no queue's depth); every Deployment has
//     observed its generation and is paused, complete
//     (NewReplicaSetAvailable) or out of time (ProgressDeadlineExceeded).
//  4. Nothing was written: the resourceVersions of the pods, ReplicaSets,
//     ReplicationControllers, Deployments, nodes and Events lists are what
//     they were at the previous poll. The Event recorders write
//     asynchronously, after the syncs that caused them, as upstream's
//     broadcaster does; this is what waits for them.
//
// A stabilize that does not get there within its --max-time fails, saying
// which rule still did not hold.
type SettleRules struct {
	// Quiet is how long everything must have held (default 300ms).
	Quiet time.Duration
	// Poll is how often the rules are checked (default 50ms).
	Poll time.Duration
}

func (s SettleRules) withDefaults() SettleRules {
	if s.Quiet <= 0 {
		s.Quiet = 300 * time.Millisecond
	}
	if s.Poll <= 0 {
		s.Poll = 50 * time.Millisecond
	}
	return s
}

// Settle waits until the plane has stabilized (see SettleRules), or fails
// after maxTime of wall-clock time.
func (r *Real) Settle(maxTime time.Duration) error {
	rules := r.settle.withDefaults()
	if maxTime <= 0 {
		maxTime = 10 * time.Minute
	}
	deadline := time.Now().Add(maxTime)
	var quietSince time.Time
	lastPrint := ""
	why := ""
	for {
		reason, print, err := r.unsettled()
		if err != nil {
			return err
		}
		now := time.Now()
		if reason == "" && print == lastPrint {
			if quietSince.IsZero() {
				quietSince = now
			}
			if now.Sub(quietSince) >= rules.Quiet {
				return nil
			}
		} else {
			quietSince = time.Time{}
			if reason == "" {
				reason = "objects are still being written"
			}
			why = reason
		}
		lastPrint = print
		if now.After(deadline) {
			return fmt.Errorf("stabilize: not settled after %s: %s", maxTime, why)
		}
		time.Sleep(rules.Poll)
	}
}

// unsettled returns why the plane is not settled ("" when it is, but for
// rule 4) and the resourceVersions of the lists, for rule 4.
func (r *Real) unsettled() (string, string, error) {
	queues, err := plane.Queues()
	if err != nil {
		return "", "", err
	}
	names := make([]string, 0, len(queues))
	for n := range queues {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		q, b := queues[n], r.baseline[n]
		if depth, busy := q.Depth-b.Depth, q.InFlight-b.InFlight; depth > 0 || busy > 0 {
			return fmt.Sprintf("the %s queue holds %v keys, %v being worked on", n, depth, busy), "", nil
		}
	}
	if r.p.StandInBusy() {
		return "the stand-in scheduler or a kubelet has work left", "", nil
	}
	var rvs []string
	reading := Reading{}
	for _, kind := range readKinds {
		objs, rv, err := listAPI(r.ctx, r.c, kind)
		if err != nil {
			return "", "", err
		}
		reading[kind] = objs
		rvs = append(rvs, rv)
	}
	print := strings.Join(rvs, ",")
	for _, o := range reading[api.KindPod] {
		if o.Meta().DeletionTimestamp != nil {
			return "pod/" + o.Meta().Name + " is being deleted", print, nil
		}
	}
	for _, kind := range []api.Kind{api.KindReplicaSet, api.KindReplicationController, api.KindDeployment} {
		for _, o := range reading[kind] {
			if why := objectUnsettled(o); why != "" {
				return why, print, nil
			}
		}
	}
	return "", print, nil
}

// objectUnsettled says why a controller's object is not at rest, or "".
func objectUnsettled(o api.Object) string {
	m := o.Meta()
	name := api.ShortName(o.Kind()) + "/" + m.Name
	if m.DeletionTimestamp != nil {
		return name + " is being deleted (finalizers " + strings.Join(m.Finalizers, ",") + ")"
	}
	switch o := o.(type) {
	case *api.ReplicaSet:
		return replicasUnsettled(name, m.Generation, o.Status.ObservedGeneration, o.Spec.Replicas, o.Status.Replicas, o.Status.ReadyReplicas, o.Status.AvailableReplicas)
	case *api.ReplicationController:
		return replicasUnsettled(name, m.Generation, o.Status.ObservedGeneration, o.Spec.Replicas, o.Status.Replicas, o.Status.ReadyReplicas, o.Status.AvailableReplicas)
	case *api.Deployment:
		if o.Status.ObservedGeneration < m.Generation {
			return name + " has not observed generation " + fmt.Sprint(m.Generation)
		}
		if o.Spec.Paused {
			return ""
		}
		for _, c := range o.Status.Conditions {
			if c.Type == "Progressing" && (c.Reason == "NewReplicaSetAvailable" || c.Reason == "ProgressDeadlineExceeded") {
				return ""
			}
		}
		return name + " is still rolling out"
	}
	return ""
}

func replicasUnsettled(name string, gen, observed int64, want *int32, replicas, ready, available int32) string {
	w := int32(1)
	if want != nil {
		w = *want
	}
	switch {
	case observed < gen:
		return name + " has not observed generation " + fmt.Sprint(gen)
	case replicas != w:
		return fmt.Sprintf("%s has %d replicas of %d", name, replicas, w)
	case available != ready:
		return fmt.Sprintf("%s has %d ready replicas and %d available", name, ready, available)
	}
	return ""
}
