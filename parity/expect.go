package parity

import (
	"fmt"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/script"
)

// Expect checks an expect against a reading of a real API server, with the
// field paths, filters and comparisons core/script parsed: the same
// FieldCheck reads the same core/api object on both sides. It returns nil
// when the expect holds, an error saying what was found when it does not,
// and a *NotComparable for expects about the simulator's insides (queues,
// expectations, syncs, requests, informer caches).
func Expect(cmd script.Command, r Reading, order func([]api.Object)) error {
	switch c := cmd.(type) {
	case *script.ExpectPods:
		if c.Cache {
			return notComparable("expect cache reads the simulator's informer cache")
		}
		return count(c.Text, r[api.KindPod], c.Namespace, func(o api.Object) bool { return c.Selector.Matches(o.Meta().Labels) },
			c.Filters, c.Count, order)
	case *script.ExpectOwners:
		return count(c.Text, r[c.Kind], c.Namespace, func(o api.Object) bool { return c.Selector.Matches(o.Meta().Labels) },
			c.Filters, c.Count, order)
	case *script.ExpectObject:
		if c.Cache {
			return notComparable("expect cache reads the simulator's informer cache")
		}
		o := find(r, c.Object)
		if o == nil {
			return fmt.Errorf("%s: %s not found", c.Text, c.Object)
		}
		var wrong []string
		for _, f := range c.Checks {
			if actual := f.Actual(o); !f.Holds(actual) {
				wrong = append(wrong, f.Path+" is "+actual.String())
			}
		}
		if len(wrong) > 0 {
			return fmt.Errorf("%s: %s", c.Text, strings.Join(wrong, ", "))
		}
		return nil
	case *script.ExpectCondition:
		o := find(r, c.Object)
		if o == nil {
			return fmt.Errorf("%s: %s not found", c.Text, c.Object)
		}
		status, reason := "absent", ""
		for _, cd := range conditionsOf(o) {
			if cd[0] == c.Type {
				status, reason = cd[1], cd[2]
			}
		}
		if c.Status.Holds(status) && (c.Reason == nil || c.Reason.Holds(reason)) {
			return nil
		}
		return fmt.Errorf("%s: %s is %s, reason %q", c.Text, c.Type, status, reason)
	case *script.ExpectEvents:
		n, total := 0, int64(0)
		for _, o := range r[api.KindEvent] {
			e := o.(*api.Event)
			if e.Metadata.Namespace != c.Namespace {
				continue
			}
			if c.Reason != nil && !c.Reason.Holds(e.Reason) || c.Type != nil && !c.Type.Holds(e.Type) {
				continue
			}
			if ref := c.Object; ref != nil {
				inv := e.InvolvedObject
				if inv.Kind != string(ref.Kind) || inv.Name != ref.Name || (ref.Kind.Namespaced() && inv.Namespace != ref.Namespace) {
					continue
				}
			}
			n++
			total += int64(e.Count)
		}
		if (c.Count == nil || c.Count.Holds(int64(n))) && (c.Total == nil || c.Total.Holds(total)) {
			return nil
		}
		return fmt.Errorf("%s: found %d Events with a total count of %d", c.Text, n, total)
	case *script.ExpectQueue:
		return notComparable("expect queue reads a controller's workqueue, which a real controller keeps to itself")
	case *script.ExpectExpectations:
		return notComparable("expect expectations reads the controller's expectations, private to a real controller")
	case *script.ExpectSyncs:
		return notComparable("expect syncs counts the simulator's syncs")
	case *script.ExpectRequests:
		return notComparable("expect requests reads the simulator's request log")
	}
	return notComparable("not an expect the runner knows: " + cmd.Src().Name)
}

// IsExpect reports whether a command is an expect: a checkpoint.
func IsExpect(cmd script.Command) bool {
	return strings.HasPrefix(cmd.Src().Name, "expect")
}

func count(text string, all []api.Object, ns string, match func(api.Object) bool, filters []script.FieldCheck,
	want script.Compare, order func([]api.Object)) error {
	var found, left []api.Object
	for _, o := range all {
		if o.Meta().Namespace != ns || !match(o) {
			continue
		}
		ok := true
		for _, f := range filters {
			if !f.Holds(f.Actual(o)) {
				ok = false
				break
			}
		}
		if ok {
			found = append(found, o)
		} else {
			left = append(left, o)
		}
	}
	if want.Holds(int64(len(found))) {
		return nil
	}
	if order != nil {
		order(found)
		order(left)
	}
	msg := fmt.Sprintf("%s: found %d", text, len(found))
	if len(found) > 0 {
		msg += " (" + names(found) + ")"
	}
	if len(left) > 0 {
		msg += fmt.Sprintf("; %d more match the selector but not the filters (%s)", len(left), names(left))
	}
	return fmt.Errorf("%s", msg)
}

func names(objs []api.Object) string {
	var parts []string
	for _, o := range objs {
		s := o.Meta().Name
		if p, ok := o.(*api.Pod); ok {
			s += " " + p.Status.Phase
			if podReady(p) {
				s += " Ready"
			}
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func find(r Reading, ref script.Ref) api.Object {
	for _, o := range r[ref.Kind] {
		m := o.Meta()
		if m.Name == ref.Name && (!ref.Kind.Namespaced() || m.Namespace == ref.Namespace) {
			return o
		}
	}
	return nil
}

// conditionsOf lists an object's conditions as [type, status, reason].
func conditionsOf(o api.Object) [][3]string {
	var out [][3]string
	switch o := o.(type) {
	case *api.Pod:
		for _, c := range o.Status.Conditions {
			out = append(out, [3]string{c.Type, c.Status, c.Reason})
		}
	case *api.ReplicaSet:
		for _, c := range o.Status.Conditions {
			out = append(out, [3]string{c.Type, c.Status, c.Reason})
		}
	case *api.ReplicationController:
		for _, c := range o.Status.Conditions {
			out = append(out, [3]string{c.Type, c.Status, c.Reason})
		}
	case *api.Node:
		for _, c := range o.Status.Conditions {
			out = append(out, [3]string{c.Type, c.Status, c.Reason})
		}
	case *api.Deployment:
		for _, c := range o.Status.Conditions {
			out = append(out, [3]string{c.Type, c.Status, c.Reason})
		}
	}
	return out
}
