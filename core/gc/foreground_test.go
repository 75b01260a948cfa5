package gc

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
)

// The pods of these tests are bound to a node, so a delete gives them their
// 30s grace period; kubeletRemoves stands in for the kubelet that removes
// one earlier, once it has stopped it, and settleBefore runs the
// collector's work without reaching the end of the grace periods.

// kubeletRemoves removes a terminating pod, as its kubelet does once it has
// stopped its containers: a delete with grace period 0.
func (r *rig) kubeletRemoves(name string) {
	r.t.Helper()
	zero := int64(0)
	r.send(apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindPod, Namespace: "default", Name: name,
		DeleteOptions: &apistore.DeleteOptions{GracePeriodSeconds: &zero}})
	r.settleBefore(r.k.Now() + time.Second)
	require.False(r.t, r.exists(api.KindPod, name), "%s was removed", name)
}

// settleBefore runs every step due before at.
func (r *rig) settleBefore(at time.Duration) {
	r.t.Helper()
	for n := 0; ; n++ {
		ev, ok := r.k.Next()
		if !ok || ev.At >= at {
			return
		}
		require.Less(r.t, n, 100000, "the world does not settle")
		r.step()
	}
}

// finalizers returns an object's finalizers, or fails if it is gone.
func (r *rig) finalizers(kind api.Kind, name string) []string {
	r.t.Helper()
	obj := r.get(kind, name)
	require.NotNil(r.t, obj.Meta().DeletionTimestamp, "%s %s is being deleted", kind, name)
	return obj.Meta().Finalizers
}

func blockingRef(obj api.Object, block bool) api.OwnerReference {
	ref := plainRef(obj)
	ref.BlockOwnerDeletion = &block
	return ref
}

func TestForegroundOwnerWaitsForItsBlockingDependents(t *testing.T) {
	r := newRig(t)
	web := r.rs("web")
	names := []string{"web-a", "web-b", "web-c"}
	for _, name := range names {
		r.pod(name, "node-1", controllerRef(web))
	}
	r.start()

	r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationForeground)
	r.step() // the API server serves the delete, and answers at once
	assert.Equal(t, []string{apistore.FinalizerDeleteDependents}, r.finalizers(api.KindReplicaSet, "web"),
		"the DELETE only marks the owner; the finalizer holds it")

	r.settleBefore(10 * time.Second)
	for _, name := range names {
		assert.NotNil(t, r.get(api.KindPod, name).Meta().DeletionTimestamp, "the collector deleted %s", name)
	}
	assert.Equal(t, 3, r.requests(apistore.VerbDelete, "pods"))
	assert.GreaterOrEqual(t, r.stepOf("rs/web is being deleted in the foreground (foregroundDeletion finalizer)"), 0)
	assert.GreaterOrEqual(t, r.stepOf("pod/web-a: rs/web is deleting its dependents in the foreground; pod/web-a has no live owner: "+
		"deleting it (DELETE, propagationPolicy Background, uid precondition)"), 0)
	assert.GreaterOrEqual(t, r.stepOf("3 dependents with blockOwnerDeletion still block it (pod/web-a, pod/web-b, pod/web-c; 3 being deleted)"), 0)
	assert.Equal(t, []string{apistore.FinalizerDeleteDependents}, r.finalizers(api.KindReplicaSet, "web"),
		"terminating pods still hold their owner")
	assert.Zero(t, r.requests(apistore.VerbPatch, "replicasets"))

	r.kubeletRemoves("web-a")
	r.kubeletRemoves("web-b")
	assert.True(t, r.exists(api.KindReplicaSet, "web"), "one pod still terminates")
	assert.GreaterOrEqual(t, r.stepOf("1 dependent with blockOwnerDeletion still blocks it (pod/web-c; 1 being deleted): it waits for it to go"), 0)
	assert.Zero(t, r.requests(apistore.VerbPatch, "replicasets"))

	lastPod := len(r.trace)
	r.kubeletRemoves("web-c")
	assert.False(t, r.exists(api.KindReplicaSet, "web"), "the owner goes after its last blocking dependent")
	removed := r.stepOf("removed the foregroundDeletion finalizer from rs/web; with no finalizer left, the API server removed it")
	assert.Greater(t, removed, lastPod)
	assert.Greater(t, removed, r.stepOf("saw DELETED pod/web-c"))
	assert.Equal(t, 1, r.requests(apistore.VerbPatch, "replicasets"), "one patch removes the finalizer")
	assert.Equal(t, 3, r.requests(apistore.VerbDelete, "pods"), "the collector deleted each pod once")
	assert.GreaterOrEqual(t, r.stepOf("rs/web is deleted after its blocking dependents (foreground cascading deletion): "+
		"found 0 dependents of rs/web left in the graph; nothing to collect"), 0)

	r.settle()
	assert.Empty(t, r.gc.deleting)
	assert.Empty(t, r.gc.deps)
	assert.Empty(t, r.gc.View().Owners)
}

// Upstream's processTransitions queues every dependent of the owner, and
// attemptToDeleteItem deletes a dependent whose only owner is waiting for
// its dependents whatever its reference says; but blockingDependents counts
// only references with blockOwnerDeletion=true, so the owner does not wait
// for the others to go.
func TestNonBlockingDependentsAreDeletedButDoNotHoldTheOwner(t *testing.T) {
	r := newRig(t)
	web := r.rs("web")
	r.pod("blocking", "node-1", controllerRef(web))
	r.pod("unset", "node-1", plainRef(web))
	r.pod("false", "node-1", blockingRef(web, false))
	r.start()

	r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationForeground)
	r.settleBefore(10 * time.Second)
	for _, name := range []string{"blocking", "unset", "false"} {
		assert.NotNil(t, r.get(api.KindPod, name).Meta().DeletionTimestamp, "%s is deleted too", name)
	}
	assert.GreaterOrEqual(t, r.stepOf("1 dependent with blockOwnerDeletion still blocks it (pod/blocking; 1 being deleted)"), 0)

	r.kubeletRemoves("blocking")
	assert.False(t, r.exists(api.KindReplicaSet, "web"), "the owner does not wait for dependents that do not block it")
	assert.True(t, r.exists(api.KindPod, "unset"), "still terminating")
	assert.True(t, r.exists(api.KindPod, "false"), "still terminating")
	assert.GreaterOrEqual(t, r.stepOf("found 2 dependents of rs/web left in the graph (pod/false, pod/unset); queued for attemptToDeleteItem"), 0)
	r.settle()
	assert.False(t, r.exists(api.KindPod, "unset"))
	assert.False(t, r.exists(api.KindPod, "false"))
	assert.Equal(t, 3, r.requests(apistore.VerbDelete, "pods"), "the collector deleted each pod once")
}

func TestTerminatingDependentsHoldTheOwnerWithoutAnotherDelete(t *testing.T) {
	r := newRig(t)
	web := r.rs("web")
	r.pod("web-a", "node-1", controllerRef(web))
	r.start()
	// The pod is terminating before its owner is deleted.
	r.send(apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindPod, Namespace: "default", Name: "web-a"})
	r.settleBefore(time.Second)
	require.NotNil(t, r.get(api.KindPod, "web-a").Meta().DeletionTimestamp)

	r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationForeground)
	r.settleBefore(10 * time.Second)
	assert.GreaterOrEqual(t, r.stepOf("took pod/web-a from the queue (rs/web is deleting its dependents in the foreground): it is being deleted already; nothing to do"), 0)
	assert.Zero(t, r.requests(apistore.VerbDelete, "pods"), "the collector sends no delete for a pod being deleted")
	assert.True(t, r.exists(api.KindReplicaSet, "web"), "the terminating pod holds its owner")

	// Its grace period ends: the API server removes it, then the owner goes.
	r.settle()
	assert.False(t, r.exists(api.KindPod, "web-a"))
	assert.False(t, r.exists(api.KindReplicaSet, "web"))
	assert.Greater(t, r.stepOf("removed the foregroundDeletion finalizer from rs/web"), r.stepOf("saw DELETED pod/web-a"))
}

// The graph of a Deployment, a ReplicaSet and its pods, with a
// ReplicationController standing in for the Deployment (the store checks no
// owner's kind): the ReplicaSet is an owner and a dependent at once.
func twoLevelKinds() []Followed {
	return []Followed{
		{Kind: api.KindReplicationController, Owner: true},
		{Kind: api.KindReplicaSet, Owner: true, Dependent: true},
		{Kind: api.KindPod, Dependent: true},
	}
}

func TestDependentWithDependentsIsDeletedInTheForeground(t *testing.T) {
	r := newRigWith(t, twoLevelKinds())
	top := r.rc("top")
	web := r.rsOwned("web", controllerRef(top))
	r.pod("web-a", "node-1", controllerRef(web))
	r.pod("web-b", "node-1", controllerRef(web))
	r.start()
	assert.GreaterOrEqual(t, r.stepOf("start: listing replicationcontrollers and replicasets, the owners whose deletion the collector follows, "+
		"and pods, the dependents it keeps in its graph; replicasets are kept in the graph as dependents too"), 0)
	assert.GreaterOrEqual(t, r.stepOf("listed 1 ReplicaSet at resourceVersion 4 into the graph; watching from there"), 0)
	assert.Equal(t, []string{web.Metadata.UID}, dependentUIDs(r.gc.dependents[top.Metadata.UID]), "the ReplicaSet is in the graph as a dependent")

	r.delete(api.KindReplicationController, "top", apistore.DeletePropagationForeground)
	r.settleBefore(10 * time.Second)
	assert.GreaterOrEqual(t, r.stepOf("rs/web has no live owner, and 2 dependents of its own in the graph, so it is deleted in the foreground too: "+
		"deleting it (DELETE, propagationPolicy Foreground, uid precondition)"), 0)
	assert.Equal(t, []string{apistore.FinalizerDeleteDependents}, r.finalizers(api.KindReplicaSet, "web"))
	assert.Equal(t, []string{apistore.FinalizerDeleteDependents}, r.finalizers(api.KindReplicationController, "top"))
	assert.NotNil(t, r.get(api.KindPod, "web-a").Meta().DeletionTimestamp)
	assert.NotNil(t, r.get(api.KindPod, "web-b").Meta().DeletionTimestamp)
	assert.GreaterOrEqual(t, r.stepOf("took rc/top from the queue: it is deleting its dependents in the foreground, and 1 dependent with "+
		"blockOwnerDeletion still blocks it (rs/web"), 0)
	assert.Equal(t, 1, r.requests(apistore.VerbDelete, "replicasets"), "the ReplicaSet is deleted once, in the foreground")

	r.kubeletRemoves("web-a")
	assert.True(t, r.exists(api.KindReplicaSet, "web"))
	assert.True(t, r.exists(api.KindReplicationController, "top"))
	r.kubeletRemoves("web-b")
	assert.False(t, r.exists(api.KindReplicaSet, "web"), "the ReplicaSet goes after its pods")
	assert.False(t, r.exists(api.KindReplicationController, "top"), "the top owner goes after the ReplicaSet")
	rsGone := r.stepOf("removed the foregroundDeletion finalizer from rs/web")
	topGone := r.stepOf("removed the foregroundDeletion finalizer from rc/top")
	require.GreaterOrEqual(t, rsGone, 0)
	assert.Greater(t, topGone, rsGone)
	assert.Greater(t, topGone, r.stepOf("as a dependent, removed from the graph; rc/top, deleting its dependents in the foreground, "+
		"queued for attemptToDeleteItem to see whether it may go now"))
	r.settle()
	assert.Empty(t, r.gc.allNodes())
	assert.Empty(t, r.gc.deleting)
}

// The same three levels deleted in the background: each level is removed at
// once, and the collector follows the references down.
func TestTwoLevelsDeletedInTheBackground(t *testing.T) {
	r := newRigWith(t, twoLevelKinds())
	top := r.rc("top")
	web := r.rsOwned("web", controllerRef(top))
	r.pod("web-a", "", controllerRef(web))
	r.start()

	r.delete(api.KindReplicationController, "top", apistore.DeletePropagationBackground)
	r.settle()
	assert.False(t, r.exists(api.KindReplicationController, "top"))
	assert.False(t, r.exists(api.KindReplicaSet, "web"))
	assert.False(t, r.exists(api.KindPod, "web-a"))
	assert.Less(t, r.stepOf("deleted rs/web: removed"), r.stepOf("deleted pod/web-a: removed"))
	assert.GreaterOrEqual(t, r.stepOf("saw DELETED rs/web (resourceVersion"), 0)
}

func TestDependentThatLosesItsBlockingReferenceNoLongerHoldsTheOwner(t *testing.T) {
	for _, tc := range []struct {
		name  string
		patch func(web *api.ReplicaSet) *apistore.MetaPatch
		step  string
	}{
		// The replication manager releases a pod, or orphans it.
		{"removed", func(web *api.ReplicaSet) *apistore.MetaPatch {
			return &apistore.MetaPatch{RemoveOwnerReferences: []string{web.Metadata.UID}}
		}, "no longer a dependent of rs/web; rs/web, deleting its dependents in the foreground, queued"},
		// The reference stays, but no longer blocks.
		{"unblocked", func(web *api.ReplicaSet) *apistore.MetaPatch {
			return &apistore.MetaPatch{RemoveOwnerReferences: []string{web.Metadata.UID},
				SetOwnerReferences: []api.OwnerReference{blockingRef(web, false)}}
		}, "its references no longer block their owners' deletion; rs/web, deleting its dependents in the foreground, queued"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			web := r.rs("web")
			r.pod("web-a", "node-1", controllerRef(web))
			r.start()
			r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationForeground)
			r.settleBefore(10 * time.Second)
			require.True(t, r.exists(api.KindReplicaSet, "web"), "the terminating pod holds the owner")

			r.send(apistore.Request{Verb: apistore.VerbPatch, Kind: api.KindPod, Namespace: "default", Name: "web-a", Patch: tc.patch(web)})
			r.settleBefore(20 * time.Second)
			assert.True(t, r.exists(api.KindPod, "web-a"), "the pod still terminates")
			assert.False(t, r.exists(api.KindReplicaSet, "web"), "the owner no longer waits for it")
			assert.GreaterOrEqual(t, r.stepOf(tc.step), 0)
		})
	}
}

func TestForegroundOwnerWithoutDependentsGoesAtOnce(t *testing.T) {
	r := newRig(t)
	r.rs("web")
	r.start()
	r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationForeground)
	r.settle()
	assert.False(t, r.exists(api.KindReplicaSet, "web"))
	assert.GreaterOrEqual(t, r.stepOf("it has no dependents in the graph: queued for attemptToDeleteItem"), 0)
	assert.GreaterOrEqual(t, r.stepOf("no dependent with blockOwnerDeletion is left in the graph: removing its foregroundDeletion finalizer"), 0)
}

// A pod that names the owner after its foreground deletion began (a
// replication manager whose cache lags) is not queued by its arrival, as
// upstream; the owner's next look finds it blocking and queues it.
func TestLateBlockingDependentIsDeletedBeforeTheOwnerGoes(t *testing.T) {
	r := newRig(t)
	web := r.rs("web")
	r.pod("web-a", "node-1", controllerRef(web))
	r.start()
	r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationForeground)
	r.settleBefore(10 * time.Second)

	r.createPod("web-late", controllerRef(web))
	r.settleBefore(11 * time.Second)
	assert.Nil(t, r.get(api.KindPod, "web-late").Meta().DeletionTimestamp, "its arrival does not queue it")

	r.kubeletRemoves("web-a")
	assert.GreaterOrEqual(t, r.stepOf("1 dependent with blockOwnerDeletion still blocks it (pod/web-late): it waits for it to go; "+
		"queued pod/web-late for attemptToDeleteItem"), 0)
	r.settle()
	assert.False(t, r.exists(api.KindPod, "web-late"))
	assert.False(t, r.exists(api.KindReplicaSet, "web"))
	assert.Greater(t, r.stepOf("removed the foregroundDeletion finalizer from rs/web"), r.stepOf("saw DELETED pod/web-late"))
}

func TestForegroundFinalizerConflictReadsTheOwnerAgain(t *testing.T) {
	r := newRig(t)
	r.rs("web")
	r.start()
	_, err := r.store.Faults().Add(apistore.FaultRule{Verb: apistore.VerbPatch, Resource: "replicasets", Count: 2, Error: apistore.FaultConflict})
	require.NoError(t, err)
	r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationForeground)
	r.settle()
	assert.False(t, r.exists(api.KindReplicaSet, "web"))
	assert.Equal(t, 3, r.requests(apistore.VerbGet, "replicasets"), "RetryOnConflict reads again before each try")
	assert.Equal(t, 3, r.requests(apistore.VerbPatch, "replicasets"))
	assert.Equal(t, 2, r.count("met a conflict"))
}

func TestForegroundFinalizerFailureRetriesTheOwner(t *testing.T) {
	r := newRig(t)
	r.rs("web")
	r.start()
	_, err := r.store.Faults().Add(apistore.FaultRule{Verb: apistore.VerbPatch, Resource: "replicasets", Count: 1})
	require.NoError(t, err)
	r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationForeground)
	r.settle()
	assert.False(t, r.exists(api.KindReplicaSet, "web"))
	assert.GreaterOrEqual(t, r.stepOf("removing the foregroundDeletion finalizer from rs/web failed"), 0)
	assert.GreaterOrEqual(t, r.stepOf("retrying rs/web: reading it first"), 0)
	assert.Equal(t, 1, r.gc.Stats().Errors)
}

func TestOwnerDeletedInTheForegroundBeforeTheCollectorStarts(t *testing.T) {
	r := newRig(t)
	web := r.rs("web")
	r.pod("web-a", "", controllerRef(web))
	_, err := r.store.Delete(api.KindReplicaSet, "default", "web", &apistore.DeleteOptions{PropagationPolicy: apistore.DeletePropagationForeground})
	require.NoError(t, err)
	r.gc.Start()
	r.settle()
	assert.False(t, r.exists(api.KindPod, "web-a"))
	assert.False(t, r.exists(api.KindReplicaSet, "web"), "the first list finds it waiting for the collector")
}

func TestViewShowsAnOwnerDeletingItsDependents(t *testing.T) {
	r := newRig(t)
	web := r.rs("web")
	r.pod("web-a", "node-1", controllerRef(web))
	r.pod("loose", "node-1", blockingRef(web, false))
	r.start()
	r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationForeground)
	r.settleBefore(10 * time.Second)

	v := r.gc.View()
	require.Len(t, v.Owners, 1)
	assert.Equal(t, OwnerView{Owner: "rs/web", Namespace: "default", UID: web.Metadata.UID, Mode: "foreground",
		Phase: "waiting for its blocking dependents to go", Dependents: []string{"pod/web-a"}}, v.Owners[0])
	assert.Empty(t, v.Dependents)
}

func TestSnapshotRestoreReplaysAForegroundDeletion(t *testing.T) {
	r := newRigWith(t, twoLevelKinds())
	top := r.rc("top")
	web := r.rsOwned("web", controllerRef(top))
	for _, name := range []string{"web-a", "web-b"} {
		r.pod(name, "node-1", controllerRef(web))
	}
	r.start()
	r.delete(api.KindReplicationController, "top", apistore.DeletePropagationForeground)
	for i := 0; i < 15; i++ {
		r.step()
	}
	snap, err := r.k.Snapshot()
	require.NoError(t, err)
	mark := len(r.trace)
	r.settle()
	want, wantHash := append([]string(nil), r.trace[mark:]...), r.k.Hash()
	require.NotEmpty(t, want)
	for round := 0; round < 2; round++ {
		require.NoError(t, r.k.Restore(snap))
		r.trace = r.trace[:mark]
		r.settle()
		assert.Equal(t, want, r.trace[mark:], "round %d replays the same steps", round)
		assert.Equal(t, wantHash, r.k.Hash())
	}
	assert.False(t, r.exists(api.KindReplicationController, "top"))
}
