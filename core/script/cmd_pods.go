package script

import (
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/cluster"
	"github.com/reconcilelab/rlab/core/world"
)

// This file holds what happens to pods: kill, crash, evict and set ready.
// kill is a delete with grace period 0; the others go to the pods' kubelets,
// which are asked first (cluster.Kubelets.Check) whether every chosen pod
// can take the action, so that a command acts on all of them or on none.

// PodAction is `kill`, `crash` or `evict` (Action) applied to pods.
type PodAction struct {
	Source
	// Action is kill (delete with grace 0), crash (the container exits and is
	// restarted) or evict (phase Failed, reason Evicted).
	Action string
	Target Target
}

// SetReady is `set ready … true|false`.
type SetReady struct {
	Source
	Target Target
	Ready  bool
}

func parsePodAction(c *cmdParser) (Command, *ParseError) {
	t, perr := c.onlyTarget()
	if perr != nil {
		return nil, perr
	}
	return &PodAction{Source: c.src, Action: c.spec.Name, Target: t}, nil
}

func parseSetReady(c *cmdParser) (Command, *ParseError) {
	nameFollows := len(c.args) > 2 && !strings.Contains(c.args[0].Text, "/")
	t, rest, perr := c.target(nameFollows, true)
	if perr != nil {
		return nil, perr
	}
	if len(rest) == 0 {
		return nil, c.errEnd("set ready needs true or false at the end", c.example())
	}
	if perr := checkEnum(rest[0], "set ready", []string{"true", "false"}); perr != nil {
		return nil, perr
	}
	if perr := c.noMoreArgs(rest[1:]); perr != nil {
		return nil, perr
	}
	return &SetReady{Source: c.src, Target: t, Ready: rest[0].Text == "true"}, nil
}

// run executes kill, crash and evict.
func (c *PodAction) run(s *Session) error {
	if c.Action == "kill" {
		return s.runKill(c)
	}
	if c.Action == "crash" {
		return s.kubeletAction(c, c.Target, cluster.ActionCrash, func(k *cluster.Kubelets, ns, name string) error {
			return k.Crash(ns, name)
		}, func(name string) string {
			return "pod/" + name + " crashed: its kubelet restarts the container"
		})
	}
	return s.kubeletAction(c, c.Target, cluster.ActionEvict, func(k *cluster.Kubelets, ns, name string) error {
		return k.Evict(ns, name)
	}, func(name string) string {
		return "pod/" + name + " evicted by its kubelet"
	})
}

// run executes set ready … true|false.
func (c *SetReady) run(s *Session) error {
	ready := c.Ready
	return s.kubeletAction(c, c.Target, cluster.ActionSetReady, func(k *cluster.Kubelets, ns, name string) error {
		return k.SetReady(ns, name, ready)
	}, func(name string) string {
		if ready {
			return "pod/" + name + " readiness probe passes: Ready"
		}
		return "pod/" + name + " readiness probe fails: not Ready"
	})
}

// kubeletAction makes something happen to the chosen pods through their
// kubelets. Every pod must be able to take it, or nothing happens: the
// kubelets' Check vets them all before act is called on any. The kubelet
// acts in a step of its own; nothing is stepped here.
func (s *Session) kubeletAction(cmd Command, t Target, action cluster.PodAction,
	act func(k *cluster.Kubelets, ns, name string) error, said func(name string) string) error {
	w := s.w
	pods, rerr := chosen(cmd, w, t, nil)
	if rerr != nil {
		return rerr
	}
	if pods != nil || t.Pick.Order != PickRandom {
		if len(pods) == 0 {
			return noneMatch(cmd, t)
		}
		if err := checkKubelet(w, pods, action); err != nil {
			return failure(cmd, cmd.Src().Text+": "+err.msg)
		}
	}
	var done []string
	var inner *podError
	err := s.do(cmd, func(w *world.World) error {
		pods, rerr := chosen(cmd, w, t, drawFrom(w))
		if rerr != nil {
			return rerr
		}
		done = objNames(pods)
		if e := checkKubelet(w, pods, action); e != nil {
			inner = e
			return e
		}
		for _, p := range pods {
			if err := act(w.Cluster.Kubelets, p.Meta().Namespace, p.Meta().Name); err != nil {
				return err
			}
		}
		return nil
	})
	if inner != nil {
		return failureAfter(cmd, cmd.Src().Text+": "+inner.msg, inner)
	}
	if err != nil {
		return err
	}
	for _, n := range done {
		s.print(said(n))
	}
	return nil
}

// podError is an action a pod cannot take.
type podError struct{ name, msg string }

func (e *podError) Error() string { return "pod/" + e.name + ": " + e.msg }

// checkKubelet finds the first pod that cannot take the action, with the
// kubelets' own reason, asked of them without acting.
func checkKubelet(w *world.World, pods []api.Object, action cluster.PodAction) *podError {
	for _, p := range pods {
		m := p.Meta()
		if err := w.Cluster.Kubelets.Check(action, m.Namespace, m.Name); err != nil {
			return &podError{name: m.Name, msg: err.Error()}
		}
	}
	return nil
}

// runKill deletes the chosen pods with grace period 0, as chaos tools do.
func (s *Session) runKill(c *PodAction) error {
	t := c.Target
	pods, rerr := chosen(c, s.w, t, nil)
	if rerr != nil {
		return rerr
	}
	if pods == nil && t.Pick.Order != PickRandom {
		return noneMatch(c, t)
	}
	replies, err := s.send(c, func(w *world.World) ([]apistore.Request, error) {
		pods, rerr := chosen(c, w, t, drawFrom(w))
		if rerr != nil {
			return nil, rerr
		}
		reqs := make([]apistore.Request, len(pods))
		for i, p := range pods {
			m := p.Meta()
			reqs[i] = apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindPod, Namespace: m.Namespace, Name: m.Name,
				DeleteOptions: apistore.GracePeriod(0)}
		}
		return reqs, nil
	})
	if err != nil {
		return err
	}
	for _, rep := range replies {
		if rep.Response.Err != nil {
			return failureAfter(c, "kill pod/"+rep.Request.Name+": "+apiError(rep), rep.Response.Err)
		}
		s.print("pod/" + rep.Request.Name + " killed (deleted with grace period 0)")
	}
	return nil
}
