package controller

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
)

// TestSnapshotMidSyncReplaysAfterTheWorkerReusedItsSync pins that a worker's
// reuse of its finished sync (newSyncRun) never reaches a snapshot: a world
// snapshotted while a sync waits for its creates, run on until the same
// worker has finished that sync and run later ones in the same memory, then
// restored, runs on exactly as it did the first time.
func TestSnapshotMidSyncReplaysAfterTheWorkerReusedItsSync(t *testing.T) {
	r := newRig(t, api.KindReplicaSet, Config{Workers: 1})
	r.do(apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindReplicaSet, Object: newRS("web", 4, fooBar)})
	worker := r.m.workers[0]
	r.stepUntil("the sync creates pods", func() bool { return worker.run != nil && worker.run.phase == phaseCreate })
	snap, err := r.k.Snapshot()
	require.NoError(t, err)
	syncsAtSnapshot := worker.syncs

	r.trace = nil
	r.settle()
	first := r.traceText()
	require.Greater(t, worker.syncs, syncsAtSnapshot+1, "the worker must have run a sync after the one snapshotted")
	require.Len(t, r.srv.Store().Objects(api.KindPod, "default"), 4)

	require.NoError(t, r.k.Restore(snap))
	r.trace = nil
	r.settle()
	require.Equal(t, first, r.traceText())
}
