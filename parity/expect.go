package parity

import (
	"slices"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/script"
)

// Expect checks an expect against a reading of a real API server with
// core/script's own checks (script.CheckObjects): the same parsed field
// paths, filters and comparisons read the same core/api objects on both
// sides, and fail with the same messages. order sorts objects of one kind
// as they were created (a --pick and a failure message list them so). It
// returns nil when the expect holds, the failure when it does not, and a
// *NotComparable for expects about the simulator's insides (queues,
// expectations, syncs, requests, informer caches).
func Expect(cmd script.Command, r Reading, order func([]api.Object)) error {
	switch c := cmd.(type) {
	case *script.ExpectPods:
		if c.Cache {
			return notComparable("expect cache reads the simulator's informer cache")
		}
	case *script.ExpectObject:
		if c.Cache {
			return notComparable("expect cache reads the simulator's informer cache")
		}
	case *script.ExpectQueue:
		return notComparable("expect queue reads a controller's workqueue, which a real controller keeps to itself")
	case *script.ExpectExpectations:
		return notComparable("expect expectations reads the controller's expectations, private to a real controller")
	case *script.ExpectSyncs:
		return notComparable("expect syncs counts the simulator's syncs")
	case *script.ExpectRequests:
		return notComparable("expect requests reads the simulator's request log")
	}
	checked, err := script.CheckObjects(cmd, func(kind api.Kind) []api.Object {
		objs := slices.Clone(r[kind])
		if order != nil {
			order(objs)
		}
		return objs
	})
	if !checked {
		return notComparable("not an expect the runner knows: " + cmd.Src().Name)
	}
	return err
}

// IsExpect reports whether a command is an expect: a checkpoint.
func IsExpect(cmd script.Command) bool {
	return strings.HasPrefix(cmd.Src().Name, "expect")
}
