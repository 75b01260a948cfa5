package parity

import (
	"fmt"

	"github.com/reconcilelab/rlab/core/world"
)

// FaultsInForce says which simulator-only fault is still in force in an
// rlab world, or "" when none is: a rule of the API store's fault
// injection not yet healed nor spent, or an informer with events still to
// drop or with events lost since it last listed (its cache misses them
// until it lists again). A watch delay is not counted: it changes when an
// informer hears of a change, not what it hears, and at rest everything
// delayed has arrived.
//
// Until a stabilize finds none in force, the simulator's world is one a
// real cluster does not have, and its checkpoints do not count.
func FaultsInForce(w *world.World) string {
	if w == nil {
		return ""
	}
	if rules := w.Store.Faults().Rules(); len(rules) > 0 {
		return "the API fault " + rules[0].String()
	}
	for _, kind := range readKinds {
		inf := w.Informer(kind)
		if inf == nil {
			continue
		}
		f := inf.View().Faults
		switch {
		case f.DropNext > 0:
			return fmt.Sprintf("the %s informer's next %d events are to be lost", kind, f.DropNext)
		case f.Lost > 0:
			return fmt.Sprintf("the %s informer lost %d events and has not listed since", kind, f.Lost)
		}
	}
	return ""
}
