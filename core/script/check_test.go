package script

import (
	"testing"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// CheckObjects, given a world's objects, comes to the same verdict with the
// same message as the expect run on that world: it is the same check, fed
// from elsewhere (the parity runner feeds it a real API server's objects).
func TestCheckObjectsAgreesWithTheExpectOnAWorld(t *testing.T) {
	s := NewSession(Options{})
	setup, err := Parse("create rs web --replicas=2 --selector=app=web\ncreate pod stray --labels=app=web --node=node-1 --phase=Running\nstabilize\n", "setup")
	require.NoError(t, err)
	for _, c := range setup.Commands {
		require.NoError(t, s.Run(c))
	}
	w := s.World()
	objects := func(kind api.Kind) []api.Object {
		objs := w.Store.Objects(kind, "")
		creationOrder(w, kind, objs)
		return objs
	}
	for _, src := range []string{
		"expect pods -l app=web count=2 ready=true owner=rs/web",
		"expect pods -l app=web count=3 ready=true",
		"expect pods -n other count=0",
		"expect rs -l app=web count=1 replicas=2",
		"expect rs -l app=web count=2",
		"expect rs/web status.replicas=2 status.readyReplicas=2",
		"expect rs/web status.replicas=5",
		"expect rs/nope spec.replicas=1",
		"expect pod/stray status.phase=Running",
		"expect condition rs/web ReplicaFailure=absent",
		"expect condition pod/stray Ready=True",
		"expect events reason=SuccessfulCreate object=rs/web count=2",
		"expect events reason=SuccessfulCreate count=1 total=1",
	} {
		t.Run(src, func(t *testing.T) {
			sc, err := Parse(src, "check")
			require.NoError(t, err)
			cmd := sc.Commands[0]
			onWorld := s.Run(cmd)
			checked, got := CheckObjects(cmd, objects)
			require.True(t, checked)
			if onWorld == nil {
				assert.NoError(t, got)
				return
			}
			require.Error(t, got, "the world says: %v", onWorld)
			assert.Equal(t, onWorld.Error(), got.Error())
		})
	}
}

// The expects that read more than the API's objects are left to the world.
func TestCheckObjectsLeavesTheSimulatorsInsidesAlone(t *testing.T) {
	for _, src := range []string{
		"expect queue replicaset len=0",
		"expect cache pods -l app=web count=1",
		"expect cache rs/web spec.replicas=1",
		"expect expectations rs/web satisfied=true",
		"expect syncs rs/web count=1",
		"expect requests verb=create count=1",
	} {
		sc, err := Parse(src, "check")
		require.NoError(t, err, src)
		checked, err := CheckObjects(sc.Commands[0], func(api.Kind) []api.Object { return nil })
		assert.False(t, checked, src)
		assert.NoError(t, err, src)
	}
}
