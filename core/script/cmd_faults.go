package script

import (
	"strconv"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/informer"
	"github.com/reconcilelab/rlab/core/world"
)

// This file holds the faults: fail (the API store's fault rules), the watch
// faults drop, break, expire and delay watch (on the controllers'
// informers), slow kubelet, and heal. Each is one input on the world's
// timeline; none steps the world.

// Fail is `fail VERB RESOURCE …`: an API fault rule.
type Fail struct {
	_ incomparable

	Source
	Verb        apistore.Verb
	Kind        api.Kind
	Subresource string
	// Resource is the API's name for what fails: pods, replicasets/status.
	Resource string
	// Count is how many requests fail; Always fails them all until healed.
	Count  int
	Always bool
	// After is how many matching requests go through first.
	After int
	Error apistore.FaultKind
}

// Rule returns the store's fault rule for the command.
func (f *Fail) Rule() apistore.FaultRule {
	return apistore.FaultRule{Verb: f.Verb, Resource: f.Resource, Count: f.Count, Always: f.Always, After: f.After, Error: f.Error}
}

// WatchAction is what a watch fault does.
type WatchAction string

// The watch faults.
const (
	WatchDrop   WatchAction = "drop"   // lose the next Count events
	WatchBreak  WatchAction = "break"  // close the watch; re-watch from the last resourceVersion
	WatchExpire WatchAction = "expire" // close it as too old: relist
	WatchDelay  WatchAction = "delay"  // deliver events Delay late
)

// WatchFault is `drop|break|expire|delay watch KIND …`.
type WatchFault struct {
	_ incomparable

	Source
	Action WatchAction
	Kind   api.Kind
	// Count is set for drop, Delay for delay.
	Count int
	Delay time.Duration
}

// SlowKubelet is `slow kubelet D`.
type SlowKubelet struct {
	_ incomparable

	Source
	Start time.Duration
}

// HealScope is what a heal command ends.
type HealScope string

// The heal scopes.
const (
	HealAll      HealScope = "all"      // every fault
	HealRequests HealScope = "requests" // fail rules: of Verb ("" any), of Resource ("" any)
	HealWatch    HealScope = "watch"    // watch faults of Kind ("" any)
	HealKubelet  HealScope = "kubelet"  // slow kubelet
)

// Heal is `heal …`.
type Heal struct {
	_ incomparable

	Source
	Scope HealScope
	// Verb, Kind, Subresource and Resource narrow HealRequests; Kind narrows
	// HealWatch. Empty means any.
	Verb        apistore.Verb
	Kind        api.Kind
	Subresource string
	Resource    string
}

// apiTargetArgs reads VERB RESOURCE of fail and heal; with optional, the
// resource may be left out (heal create).
func (c *cmdParser) apiTargetArgs(args []Token, optional bool) (apiTarget, string, []Token, *ParseError) {
	if len(args) == 0 {
		return apiTarget{}, "", nil, c.errEnd(c.spec.Name+" needs a verb and a resource", c.example())
	}
	verbs := faultVerbs()
	v := args[0]
	if !containsString(verbs, v.Text) {
		return apiTarget{}, "", nil, unknown(v, "verb", v.Text, verbs, c.spec.Name+" takes "+orList(verbs))
	}
	t := apiTarget{verb: apistore.Verb(v.Text)}
	var resources []string
	for _, ft := range faultTargets {
		if ft.verb == t.verb {
			resources = append(resources, resourceWord(ft.kind, ft.subresource))
		}
	}
	if len(args) < 2 {
		if optional {
			return t, "", nil, nil
		}
		return apiTarget{}, "", nil, &ParseError{Line: v.Line, Col: v.end(),
			Msg: c.spec.Name + " " + v.Text + " needs a resource: " + orList(resources)}
	}
	r := args[1]
	kind, sub, res, perr := resource(r)
	if perr != nil {
		return apiTarget{}, "", nil, perr
	}
	t.kind, t.subresource = kind, sub
	for _, ft := range faultTargets {
		if ft == t {
			return t, res, args[2:], nil
		}
	}
	return apiTarget{}, "", nil, errAt(r, c.spec.Name+" "+t.String()+" is not modelled; "+
		c.spec.Name+" "+v.Text+" takes "+orList(resources))
}

func parseFail(c *cmdParser) (Command, *ParseError) {
	t, res, rest, perr := c.apiTargetArgs(c.args, false)
	if perr != nil {
		return nil, perr
	}
	if perr := c.noMoreArgs(rest); perr != nil {
		return nil, perr
	}
	cmd := &Fail{Source: c.src, Verb: t.verb, Kind: t.kind, Subresource: t.subresource, Resource: res,
		Always: c.boolFlag("always"), Error: apistore.FaultServer}
	count := c.flags["count"]
	switch {
	case count != nil && cmd.Always:
		return nil, errAt(count.flag, "give either --count=N or --always, not both")
	case count == nil && !cmd.Always:
		return nil, c.errEnd("fail needs --count=N or --always", c.example())
	case count != nil:
		cmd.Count = int(count.i)
	}
	after, _ := c.intFlag("after", 0)
	cmd.After = int(after)
	if fv := c.flags["error"]; fv != nil {
		cmd.Error = apistore.FaultKind(fv.s)
	}
	return cmd, nil
}

func parseWatchFault(c *cmdParser) (Command, *ParseError) {
	action := WatchAction(c.spec.words[0])
	if len(c.args) == 0 {
		return nil, c.errEnd(c.spec.Name+" needs a kind: "+orList(shortNames(c.spec.kinds)), c.example())
	}
	k, perr := c.kind(c.args[0], c.args[0].Text)
	if perr != nil {
		return nil, perr
	}
	cmd := &WatchFault{Source: c.src, Action: action, Kind: k}
	rest := c.args[1:]
	switch action {
	case WatchDrop:
		n, perr := c.intFlag("count", 0)
		if perr != nil {
			return nil, perr
		}
		cmd.Count = int(n)
	case WatchDelay:
		if len(rest) == 0 {
			return nil, c.errEnd("delay watch needs a duration", c.example())
		}
		d, perr := parseDuration(rest[0], "the delay", 1)
		if perr != nil {
			return nil, perr
		}
		cmd.Delay, rest = d, rest[1:]
	}
	return cmd, c.noMoreArgs(rest)
}

func parseSlowKubelet(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd("slow kubelet needs a duration", c.example())
	}
	d, perr := parseDuration(c.args[0], "kubelet-start", 0)
	if perr != nil {
		return nil, perr
	}
	return &SlowKubelet{Source: c.src, Start: d}, c.noMoreArgs(c.args[1:])
}

func parseHeal(c *cmdParser) (Command, *ParseError) {
	cmd := &Heal{Source: c.src, Scope: HealAll}
	if len(c.args) == 0 {
		return cmd, nil
	}
	a := c.args[0]
	rest := c.args[1:]
	switch a.Text {
	case "all":
	case "kubelet":
		cmd.Scope = HealKubelet
	case "watch":
		cmd.Scope = HealWatch
		if len(rest) > 0 {
			k, perr := c.kindIn(rest[0], rest[0].Text, watchKinds)
			if perr != nil {
				return nil, perr
			}
			cmd.Kind, rest = k, rest[1:]
		}
	default:
		words := append([]string{"all", "watch", "kubelet"}, faultVerbs()...)
		if !containsString(faultVerbs(), a.Text) {
			return nil, unknown(a, "fault", a.Text, words, "heal takes all, watch [KIND], kubelet, or a verb and a resource (create pods)")
		}
		t, res, r2, perr := c.apiTargetArgs(c.args, true)
		if perr != nil {
			return nil, perr
		}
		cmd.Scope, cmd.Verb, cmd.Kind, cmd.Subresource, cmd.Resource = HealRequests, t.verb, t.kind, t.subresource, res
		rest = r2
	}
	return cmd, c.noMoreArgs(rest)
}

func (c *Fail) run(s *Session) error {
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

func (c *WatchFault) run(s *Session) error {
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

func (c *SlowKubelet) run(s *Session) error {
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

// run ends faults and prints one line for each fault it ended, or says
// there was nothing to heal.
func (c *Heal) run(s *Session) error {
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
