package script

import (
	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/informer"
	"github.com/reconcilelab/rlab/core/world"
	"strconv"
)

// This file executes the faults: fail (the API store's fault rules), the
// watch faults (on the controllers' informers), slow kubelet, and heal. Each
// is one input on the world's timeline; none steps the world.

func (s *Session) runFail(c *Fail) error {
	rule := c.Rule()
	var added apistore.FaultRule
	err := s.do(c, func(w *world.World) error {
		r, err := w.Store.Faults().Add(rule)
		added = r
		return err
	})
	if err != nil {
		return failureAfter(c, "fail "+string(c.Verb)+" "+resourceWord(c.Kind, c.Subresource)+": "+err.Error(), err)
	}
	s.print("fault added: " + added.String())
	return nil
}

// watchKindInformers lists the informers of the watch kinds, in table order,
// with their kinds.
func (s *Session) watchInformers(kind api.Kind) []*informer.Informer {
	var out []*informer.Informer
	for _, k := range watchKinds {
		if kind == "" || kind == k {
			out = append(out, s.w.Informer(k))
		}
	}
	return out
}

func (s *Session) runWatchFault(c *WatchFault) error {
	kind, action, n, d := c.Kind, c.Action, c.Count, c.Delay
	inf := s.w.Informer(kind)
	rv := inf.View().LastSyncRV
	err := s.do(c, func(w *world.World) error {
		inf := w.Informer(kind)
		switch action {
		case WatchDrop:
			inf.DropNextEvents(n)
		case WatchBreak:
			inf.BreakWatch()
		case WatchExpire:
			inf.ExpireWatch()
		case WatchDelay:
			inf.DelayEvents(d)
		}
		return nil
	})
	if err != nil {
		return err
	}
	what := "watch " + resourcePlural(kind)
	switch action {
	case WatchDrop:
		s.print(what + ": the next " + plural(n, "event") + " will be lost; the watch goes on")
	case WatchBreak:
		s.print(what + " broken: the reflector re-watches from resourceVersion " + uitoa(rv))
	case WatchExpire:
		s.print(what + " expired: resourceVersion " + uitoa(rv) + " is too old, so the reflector relists")
	case WatchDelay:
		s.print(what + ": events reach the informer " + d.String() + " late until healed")
	}
	return nil
}

func (s *Session) runSlowKubelet(c *SlowKubelet) error {
	if c.Start <= 0 {
		return failure(c, "slow kubelet 0: kubelet-start must be more than 0")
	}
	d := c.Start
	if err := s.do(c, func(w *world.World) error {
		w.Cluster.Kubelets.SetKubeletStart(d)
		return nil
	}); err != nil {
		return err
	}
	s.print("kubelet-start is now " + d.String() + " for pods started from now on (heal kubelet restores " + s.kubeletStart.String() + ")")
	return nil
}

// runHeal ends faults and prints one line for each fault it ended, or says
// there was nothing to heal.
func (s *Session) runHeal(c *Heal) error {
	w := s.w
	var lines []string

	// What will be healed, read before the input so the report is exact.
	healRules := c.Scope == HealAll || c.Scope == HealRequests
	if healRules {
		for _, r := range w.Store.Faults().Rules() {
			if (c.Verb == "" || r.Verb == c.Verb) && (c.Resource == "" || r.Resource == c.Resource) {
				lines = append(lines, "healed fault "+r.String())
			}
		}
	}
	var infs []*informer.Informer
	if c.Scope == HealAll || c.Scope == HealWatch {
		for _, inf := range s.watchInformers(c.Kind) {
			f := inf.View().Faults
			if f.DropNext == 0 && f.Delay == 0 && f.Lost == 0 {
				continue
			}
			infs = append(infs, inf)
			line := "healed watch " + resourcePlural(inf.Kind())
			switch {
			case f.Lost > 0:
				line += ": it lost " + plural(f.Lost, "event") + ", so the reflector relists"
			case f.DropNext > 0:
				line += ": no more events will be lost"
			default:
				line += ": events arrive on time again"
			}
			lines = append(lines, line)
		}
	}
	base := s.kubeletStart
	healKubelet := (c.Scope == HealAll || c.Scope == HealKubelet) && w.Cluster.Kubelets.KubeletStart() != base
	if healKubelet {
		lines = append(lines, "healed kubelet: kubelet-start is "+base.String()+" again")
	}
	if len(lines) == 0 {
		s.print("nothing to heal")
		return nil
	}
	kinds := make([]api.Kind, len(infs))
	for i, inf := range infs {
		kinds[i] = inf.Kind()
	}
	verb, resource := c.Verb, c.Resource
	err := s.do(c, func(w *world.World) error {
		if healRules {
			w.Store.Faults().Heal(verb, resource)
		}
		for _, k := range kinds {
			w.Informer(k).Heal()
		}
		if healKubelet {
			w.Cluster.Kubelets.SetKubeletStart(base)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, l := range lines {
		s.print(l)
	}
	return nil
}

// uitoa formats n in decimal; the views and messages build their lines by
// concatenation, where this reads shorter than strconv.FormatUint(n, 10).
func uitoa(n uint64) string { return strconv.FormatUint(n, 10) }
