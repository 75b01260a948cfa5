package cluster

import (
	"errors"
	"strconv"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sim"
)

// This file holds what happens to a running pod from outside: its container
// crashes, its kubelet evicts it, its readiness probe flips. Each public
// method checks at once that the action makes sense and returns an error
// that says why not; if it does, it schedules the action as a step of its
// own, right away, and that step writes the pod's new status through the API.
// Check asks the same question without acting, so that a caller (the
// console) can vet many pods before it touches any: the rule of which pod
// can take which action lives here only, in check and kpod.cannot.

// PodAction names one of the things that happen to a pod from outside through
// its kubelet. Its values are the kinds of the steps that carry them out.
type PodAction string

// The pod actions: Crash, Evict and SetReady.
const (
	ActionCrash    PodAction = eventCrash
	ActionEvict    PodAction = eventEvict
	ActionSetReady PodAction = eventSetReady
)

// Check says whether an action can happen to a pod now: nil if it can, or
// the very error the action's method (Crash, Evict or SetReady) would return.
// It only reads: nothing is scheduled, stepped or copied, so asking changes
// neither the world's state nor its hash.
func (k *Kubelets) Check(action PodAction, namespace, name string) error {
	_, err := k.check(namespace, name, action)
	return err
}

// Crash makes the containers of a running pod exit with an error (`crash
// pods`). The kubelet restarts them (restartPolicy Always or OnFailure):
// restartCount goes up by one, the pod is not Ready, and kubelet-start later
// the container is back and the pod Ready again. With restartPolicy Never the
// pod is Failed instead. The pod must be running on a node with a kubelet.
func (k *Kubelets) Crash(namespace, name string) error {
	p, err := k.check(namespace, name, ActionCrash)
	if err != nil {
		return err
	}
	k.sch.After(0, k.name, eventCrash, actionData{key: api.Key(namespace, name), uid: p.uid()})
	return nil
}

// Evict makes the pod's kubelet evict it (`evict pods`), as its eviction
// manager does when the node runs low on memory: the pod's phase becomes
// Failed with reason Evicted and EvictionMessage, it is not Ready, and its
// containers stop. The pod stays in the API; a ReplicaSet replaces it,
// because a Failed pod is not active. The pod must be on a node with a
// kubelet, not finished and not being deleted.
func (k *Kubelets) Evict(namespace, name string) error {
	p, err := k.check(namespace, name, ActionEvict)
	if err != nil {
		return err
	}
	k.sch.After(0, k.name, eventEvict, actionData{key: api.Key(namespace, name), uid: p.uid()})
	return nil
}

// SetReady makes the readiness probe of a running pod pass or fail (`set
// ready pods … true|false`): its Ready condition becomes True or False, and
// its lastTransitionTime moves only if it changed. The pod must be running.
func (k *Kubelets) SetReady(namespace, name string, ready bool) error {
	p, err := k.check(namespace, name, ActionSetReady)
	if err != nil {
		return err
	}
	k.sch.After(0, k.name, eventSetReady, actionData{key: api.Key(namespace, name), uid: p.uid(), ready: ready})
	return nil
}

// check finds the pod an action is for and says whether the action can
// happen to it now. It only reads the kubelets and the API store.
func (k *Kubelets) check(namespace, name string, action PodAction) (*kpod, error) {
	verb, ok := actionVerbs[action]
	if !ok {
		return nil, errors.New("unknown pod action " + strconv.Quote(string(action)))
	}
	cannot := "cannot " + verb + " pod/" + name
	if namespace != "default" {
		cannot += " in namespace " + namespace
	}
	p := k.pods.Read()[api.Key(namespace, name)]
	if p == nil {
		obj, ok := k.srv.Store().Object(api.KindPod, namespace, name)
		if !ok {
			if namespace != "default" {
				return nil, errors.New(`pods "` + name + `" not found in namespace "` + namespace + `"`)
			}
			return nil, errors.New(`pods "` + name + `" not found`)
		}
		pod := obj.(*api.Pod)
		switch node := pod.Spec.NodeName; {
		case node == "":
			return nil, errors.New(cannot + ": it is not bound to a node yet (Pending), so no kubelet runs it")
		case !k.served(node):
			return nil, errors.New(cannot + ": it is bound to node " + node + ", which has no running kubelet")
		}
		return nil, errors.New(cannot + ": its kubelet has not heard of it yet; step on and try again")
	}
	if msg := p.cannot(action); msg != "" {
		return nil, errors.New(cannot + ": " + msg)
	}
	return p, nil
}

// actionVerbs words each action for check's errors: "cannot crash pod/web".
var actionVerbs = map[PodAction]string{ActionCrash: "crash", ActionEvict: "evict", ActionSetReady: "set the readiness of"}

// cannot says why an action cannot happen to the pod in its present state,
// "" when it can. Both the check before an action is scheduled and the step
// that carries it out ask it, since the pod may have moved on in between.
func (p *kpod) cannot(action PodAction) string {
	switch p.state {
	case PodRunning:
		return ""
	case PodWaiting:
		return "it is bound to node " + p.node + ", which has no running kubelet"
	case PodStopping, PodRemoving:
		return "it is being deleted"
	case PodFinished:
		return "it has finished (" + p.phaseText() + ")"
	}
	if action == ActionEvict {
		return "" // starting or restarting pods can be evicted
	}
	if p.state == PodStarting {
		return "its containers are still starting (Running at t=" + sim.FormatSeconds(p.at) + ")"
	}
	return "its container is restarting after a crash (back at t=" + sim.FormatSeconds(p.at) + ")"
}

// action carries out a crash, an eviction or a readiness flip.
func (k *Kubelets) action(ctx *sim.Context, kind string, d actionData) sim.Report {
	ref := sim.Ref{Kind: "pod", Namespace: namespaceOf(d.key), Name: keyName(d.key)}
	p := k.pods.Read()[d.key]
	if p == nil || p.uid() != d.uid {
		return sim.Report{Actor: k.name, Models: "syncPod", Touched: k.refs.Of(ref),
			Summary: sim.Say(formNothingGone, ref.Name)}
	}
	rep := sim.Report{Actor: k.actor(p.node), Touched: k.refs.Of(ref)}
	if msg := p.cannot(PodAction(kind)); msg != "" {
		rep.Models = "syncPod"
		rep.Summary = sim.Say(formNothingHappens, ref.Name, msg)
		return rep
	}
	p = k.mut(d.key)
	now := ctx.Wall()
	switch kind {
	case eventCrash:
		rep.Models = "PLEG"
		p.running, p.ready = false, false
		p.setCond(condReady, api.ConditionFalse, now)
		p.setCond(condContainersReady, api.ConditionFalse, now)
		if p.pod.Spec.RestartPolicy == api.RestartNever {
			p.state, p.phase = PodFinished, api.PodFailed
			k.writeStatus(ctx, p)
			rep.Summary = sim.Say(formCrashedForGood, ref.Name)
			return rep
		}
		p.restarts++
		p.state = PodCrashed
		k.setTimer(ctx, p, k.startDelay, eventRestarted)
		k.writeStatus(ctx, p)
		rep.Summary = sim.Say(formCrashed, ref.Name).With(int64(p.restarts), int64(p.at))
	case eventEvict:
		rep.Models = "evictionManager"
		k.cancelTimer(ctx, p)
		p.state, p.phase, p.reason, p.message, p.evicted = PodFinished, api.PodFailed, "Evicted", EvictionMessage, true
		p.running, p.ready = false, false
		p.setCond(condReady, api.ConditionFalse, now)
		p.setCond(condContainersReady, api.ConditionFalse, now)
		k.writeStatus(ctx, p)
		rep.Summary = sim.Say(formEvicted, ref.Name, p.node)
	case eventSetReady:
		rep.Models = "prober"
		if p.ready == d.ready {
			rep.Summary = sim.Say(formAlreadyReady, ref.Name).With(readyChoice(d.ready))
			return rep
		}
		p.ready = d.ready
		status := api.ConditionFalse
		if d.ready {
			status = api.ConditionTrue
		}
		p.setCond(condReady, status, now)
		p.setCond(condContainersReady, status, now)
		k.writeStatus(ctx, p)
		if d.ready {
			rep.Summary = sim.Say(formProbePasses, ref.Name)
		} else {
			rep.Summary = sim.Say(formProbeFails, ref.Name)
		}
	}
	return rep
}

// The sentences of what happens to a pod: a crash, an eviction, a readiness
// flip.
var (
	formNothingGone    = &sim.Form{Text: "nothing happens to pod/%s: the pod is gone"}
	formNothingHappens = &sim.Form{Text: "nothing happens to pod/%s: %s"}
	formCrashedForGood = &sim.Form{Text: "the container of pod/%s exited with an error (exit code 1); its restartPolicy is Never, so the pod has Failed"}
	formCrashed        = &sim.Form{Text: "the container of pod/%s exited with an error (exit code 1): the kubelet restarts it (restart %d); the pod is not Ready until it is back at t=%T"}
	formEvicted        = &sim.Form{Text: "evicted pod/%s because node %s is low on memory: the pod is Failed (reason Evicted) and stays in the API; its containers are stopped"}
	formAlreadyReady   = &sim.Form{Text: "the readiness of pod/%s is already %[false|true]: nothing to report"}
	formProbePasses    = &sim.Form{Text: "the readiness probe of pod/%s passes again: reporting the pod Ready"}
	formProbeFails     = &sim.Form{Text: "the readiness probe of pod/%s fails: reporting the pod not Ready (its container keeps running)"}
)

func init() {
	sim.Register(
		formNothingGone,
		formNothingHappens,
		formCrashedForGood,
		formCrashed,
		formEvicted,
		formAlreadyReady,
		formProbePasses,
		formProbeFails,
	)
}

// namespaceOf returns the namespace part of a "namespace/name" key.
func namespaceOf(key string) string {
	if n := len(key) - len(keyName(key)); n > 0 {
		return key[:n-1]
	}
	return ""
}
