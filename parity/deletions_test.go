package parity

import (
	"testing"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/script"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A deletion's steps are the events from the first that carries a
// deletionTimestamp to DELETED, each once in a row, counted by the owner
// of the objects with generated names.
func TestTrailsCountTheStepsOfEachDeletionByOwner(t *testing.T) {
	tr := newTrails()
	web := rs("web", "", "")
	tr.Record("ADDED", web, 1)
	p1 := pod("web-a", "ReplicaSet", "web", "Running", true)
	p1.Metadata.UID = "uid-a"
	tr.Record("MODIFIED", p1, 2) // not being deleted: no step

	grace := func(p *api.Pod, g int64) *api.Pod {
		c := *p
		c.Metadata.DeletionTimestamp = &api.Time{}
		c.Metadata.DeletionGracePeriodSeconds = &g
		return &c
	}
	tr.Record("MODIFIED", grace(p1, 30), 3)
	tr.Record("MODIFIED", grace(p1, 30), 4) // a status write while it stops
	tr.Record("MODIFIED", grace(p1, 0), 5)
	tr.Record("DELETED", grace(p1, 0), 6)

	p2 := pod("web-b", "ReplicaSet", "web", "Running", true)
	p2.Metadata.UID = "uid-b"
	tr.Record("DELETED", p2, 7)

	assert.Equal(t, State{"deletions: pods of rs/web": "1× DELETED; 1× MODIFIED(grace=30) → MODIFIED(grace=0) → DELETED"}, tr.State())
	assert.Equal(t, uint64(7), tr.seen(api.KindPod))
}

// onlyDeleted is the planted fault: a store that, for a delete that
// removes a pod at once, sends only DELETED, without the MODIFIED event
// that carries the deletionTimestamp (the fake clientset's behaviour).
func onlyDeleted(events []apistore.WatchEvent) []apistore.WatchEvent {
	var out []apistore.WatchEvent
	for i, ev := range events {
		m := ev.Object.Meta()
		removedNext := i+1 < len(events) && events[i+1].Type == apistore.Deleted && events[i+1].ObjectKey() == ev.ObjectKey()
		if ev.Type == apistore.Modified && m.DeletionGracePeriodSeconds != nil && *m.DeletionGracePeriodSeconds == 0 && removedNext {
			continue
		}
		out = append(out, ev)
	}
	return out
}

// The parity runner catches a planted difference in rlab's API store. The
// state at rest is the same with or without it (the pod is gone and the
// ReplicaSet has made another), so only the deletion's watch events can
// tell; without the plant the same script agrees, and the real API server
// is seen sending MODIFIED before DELETED for a kill (grace period 0).
func TestParityCatchesAStoreThatSendsOnlyDeletedForAGraceZeroDelete(t *testing.T) {
	src := `create rs web --replicas=2 --selector=app=web
stabilize
kill pods -l app=web --pick=oldest
stabilize
expect pods -l app=web count=2 ready=true owner=rs/web
`
	s, err := script.Parse(src, "t")
	require.NoError(t, err)

	res, err := Compare("without the plant", s, Options{})
	require.NoError(t, err)
	require.True(t, res.Agrees(), "the control run must agree before a plant can be told apart")
	at := res.Checkpoints[0]
	require.Equal(t, AtRest, at.Comparable)

	plantedSimFault = onlyDeleted
	t.Cleanup(func() { plantedSimFault = nil })
	res, err = Compare("with the plant", s, Options{})
	require.NoError(t, err)

	assert.False(t, res.Agrees(), "a store that sends only DELETED for a kill must not pass")
	cp := res.Checkpoints[0]
	assert.Equal(t, AtRest, cp.Comparable)
	assert.True(t, cp.Disagrees())
	assert.NoError(t, cp.SimErr, "the state is the same: the expect holds on rlab")
	assert.NoError(t, cp.RealErr, "and on the real plane")
	require.Len(t, cp.Diff, 1, "the deletion's events are the only difference: %v", cp.Diff)
	assert.Equal(t, Line{Key: "deletions: pods of rs/web", Sim: "1× DELETED", Real: "1× MODIFIED(grace=0) → DELETED"}, cp.Diff[0])
}
