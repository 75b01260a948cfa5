package script

import (
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sorting"
	"github.com/reconcilelab/rlab/core/world"
)

// This file holds how every verb finds the objects it acts on: by name, or
// by selector in creation order, narrowed by --pick and --count.

// creationOrder sorts objects of one kind into the order in which the API
// store created them: the order of the successful create requests in the API
// server's log, the last one for a name created twice. (Creation timestamps
// only have seconds, so they tie; the log never does.) Objects the log does
// not explain come last, by creation time and key.
func creationOrder(w *world.World, kind api.Kind, objs []api.Object) {
	if len(objs) < 2 {
		return
	}
	resource := kind.Resource()
	rank := make(map[string]int, len(objs))
	for _, o := range objs {
		rank[api.Key(o.Meta().Namespace, o.Meta().Name)] = -1
	}
	for i, r := range w.Server.Requests() {
		if r.Verb != apistore.VerbCreate || r.Resource != resource || r.Outcome != "ok" {
			continue
		}
		if _, ok := rank[r.Key]; ok {
			rank[r.Key] = i
		}
	}
	sorting.Stable(objs, func(a, b api.Object) int {
		ka, kb := api.Key(a.Meta().Namespace, a.Meta().Name), api.Key(b.Meta().Namespace, b.Meta().Name)
		ra, rb := rank[ka], rank[kb]
		switch {
		case ra >= 0 && rb >= 0:
			return ra - rb
		case ra >= 0:
			return -1
		case rb >= 0:
			return 1
		}
		if c := a.Meta().CreationTimestamp.Compare(b.Meta().CreationTimestamp.Time); c != 0 {
			return c
		}
		return strings.Compare(ka, kb)
	})
}

// matching lists the objects of the target's kind in its namespace that its
// selector matches, in creation order. The API store is the truth read here.
func matching(w *world.World, t Target) []api.Object {
	var out []api.Object
	for _, o := range w.Store.Objects(t.Kind, t.Namespace) {
		if t.Selector.Matches(o.Meta().Labels) {
			out = append(out, o)
		}
	}
	creationOrder(w, t.Kind, out)
	return out
}

// selectorPhrase says which objects a selector target means, for messages:
// "-l app=web", or "--all".
func selectorPhrase(t Target) string {
	if t.SelectorText == "" {
		return "--all"
	}
	return "-l " + t.SelectorText
}

// chosenOrSay returns the objects a label, annotate or delete acts on, as
// chosen picks them. When a selector with no --pick (all of them) matches
// nothing, it prints kubectl's "No resources found" and says there are
// none: the command has nothing to do, which is no error.
func (s *Session) chosenOrSay(cmd Command, t Target) (objs []api.Object, none bool, err error) {
	objs, rerr := chosen(cmd, s.w, t, nil)
	if rerr != nil {
		return nil, false, rerr
	}
	if !t.ByName() && t.Pick.Order == PickAll && len(objs) == 0 {
		s.printText(noResources(t.Kind, t.Namespace))
		return nil, true, nil
	}
	return objs, false, nil
}

// chosen lists the objects a target acts on, in the order picked. A named
// object must exist. A selector must match enough objects for the pick; with
// PickAll and no match, chosen returns no objects and no error, for the
// caller to decide. intN draws for --pick=random; with intN nil, a random
// pick is only checked and chosen returns nil.
func chosen(cmd Command, w *world.World, t Target, intN func(int) int) ([]api.Object, *RuntimeError) {
	if t.ByName() {
		o, ok := w.Store.Object(t.Kind, t.Namespace, t.Name)
		if !ok {
			return nil, failure(cmd, cmd.Src().Name+" "+shortName(t.Kind)+"/"+t.Name+": "+
				notFound(t.Kind, t.Name)+inNamespace(t.Namespace))
		}
		return []api.Object{o}, nil
	}
	objs := matching(w, t)
	if t.Pick.Order == PickAll {
		return objs, nil
	}
	draw := intN
	if draw == nil {
		draw = func(int) int { return 0 }
	}
	idx, ok := t.Pick.Choose(len(objs), draw)
	if !ok {
		return nil, failure(cmd, cmd.Src().Text+": "+tooFew(t, len(objs)))
	}
	if t.Pick.Order == PickRandom && intN == nil {
		return nil, nil
	}
	out := make([]api.Object, len(idx))
	for i, j := range idx {
		out[i] = objs[j]
	}
	return out, nil
}

// tooFew says why a pick cannot be made among n matching objects.
func tooFew(t Target, n int) string {
	plural := resourcePlural(t.Kind)
	if n == 0 {
		return "no " + plural + " match " + selectorPhrase(t) + inNamespace(t.Namespace)
	}
	need := t.Pick.Count
	what := "--count=" + itoa(t.Pick.Count)
	if t.Pick.Order == PickIndex {
		need += t.Pick.Index
		what = t.Pick.String()
	} else if t.Pick.Count == 1 {
		what = t.Pick.String()
	}
	matches := itoa(n) + " " + plural + " match"
	if n == 1 {
		matches = "1 " + shortName(t.Kind) + " matches"
	}
	return "only " + matches + " " + selectorPhrase(t) + inNamespace(t.Namespace) + "; " + what + " needs " + itoa(need)
}

// noneMatch is the failure of a verb that must act on at least one object.
func noneMatch(cmd Command, t Target) *RuntimeError {
	return failure(cmd, cmd.Src().Text+": "+tooFew(t, 0))
}

// names returns the objects' names.
func objNames(objs []api.Object) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = o.Meta().Name
	}
	return out
}

// drawFrom returns the world's seeded draw for --pick=random.
func drawFrom(w *world.World) func(int) int { return w.Kernel.Rand().IntN }
