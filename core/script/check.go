package script

import (
	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
)

// CheckObjects evaluates an expect about the API's objects (expect pods,
// expect rs/rc/deploy with a selector, expect on an object's fields,
// expect condition, expect events) against objects read from somewhere
// other than a world: the parity runner reads a real API server and holds
// it to the same parsed checks, with the same failure messages. objects
// returns every object of a kind, in every namespace, in the order they
// were created. It returns whether it could check the expect, false for an expect that reads more than the objects (an informer's
// cache, a queue, the controllers' expectations, syncs, requests), and
// the expect's failure (nil when it holds).
func CheckObjects(cmd Command, objects func(api.Kind) []api.Object) (bool, error) {
	inSelector := func(kind api.Kind, namespace string, sel labels.Selector) []api.Object {
		var out []api.Object
		for _, o := range objects(kind) {
			if o.Meta().Namespace == namespace && sel.Matches(o.Meta().Labels) {
				out = append(out, o)
			}
		}
		return out
	}
	find := func(r Ref) (api.Object, error) {
		for _, o := range objects(r.Kind) {
			m := o.Meta()
			if m.Name == r.Name && (!r.Kind.Namespaced() || m.Namespace == r.Namespace) {
				return o, nil
			}
		}
		return nil, failure(cmd, cmd.Src().Text+": "+notFound(r.Kind, r.Name)+inNamespace(r.Namespace))
	}
	switch c := cmd.(type) {
	case *ExpectPods:
		if c.Cache {
			return false, nil
		}
		all := inSelector(api.KindPod, c.Namespace, c.Selector)
		if msg, ok := c.query().check(c.Text, api.KindPod, all); !ok {
			return true, failure(c, msg)
		}
		return true, nil
	case *ExpectOwners:
		all := inSelector(c.Kind, c.Namespace, c.Selector)
		if msg, ok := c.query().check(c.Text, c.Kind, all); !ok {
			return true, failure(c, msg)
		}
		return true, nil
	case *ExpectObject:
		if c.Cache {
			return false, nil
		}
		obj, err := find(c.Object)
		if err != nil {
			return true, err
		}
		return true, c.checkFields(obj)
	case *ExpectCondition:
		obj, err := find(c.Object)
		if err != nil {
			return true, err
		}
		return true, c.checkConditionOf(obj)
	case *ExpectEvents:
		var events []api.Object
		for _, o := range objects(api.KindEvent) {
			if o.Meta().Namespace == c.Namespace {
				events = append(events, o)
			}
		}
		return true, c.checkEvents(events)
	}
	return false, nil
}
