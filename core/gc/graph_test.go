package gc

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
)

func TestGraphIsBuiltFromTheListAndFollowsWatchEvents(t *testing.T) {
	r := newRig(t)
	web, api2 := r.rs("web"), r.rs("api")
	a := r.pod("web-a", "", controllerRef(web))
	b := r.pod("web-b", "", controllerRef(web))
	r.pod("lonely", "")
	r.start()
	assert.GreaterOrEqual(t, r.stepOf("listed 3 pods at resourceVersion"), 0)
	assert.Equal(t, []string{a.Metadata.UID, b.Metadata.UID}, dependentUIDs(r.gc.dependents[web.Metadata.UID]))
	assert.Len(t, r.gc.allNodes(), 3)

	// A change that does not touch the owners is a step with a short summary.
	r.send(apistore.Request{Verb: apistore.VerbPatch, Kind: api.KindPod, Namespace: "default", Name: "web-a",
		Patch: &apistore.MetaPatch{SetLabels: map[string]string{"tier": "front"}}})
	r.settle()
	assert.GreaterOrEqual(t, r.stepOf("saw MODIFIED pod/web-a (resourceVersion "), 0)
	assert.GreaterOrEqual(t, r.stepOf("its owners are unchanged; nothing to do"), 0)

	// web-b moves from web to api: the graph's edges follow.
	r.send(apistore.Request{Verb: apistore.VerbPatch, Kind: api.KindPod, Namespace: "default", Name: "web-b",
		Patch: &apistore.MetaPatch{RemoveOwnerReferences: []string{web.Metadata.UID}, SetOwnerReferences: []api.OwnerReference{controllerRef(api2)}}})
	r.settle()
	assert.GreaterOrEqual(t, r.stepOf("no longer a dependent of rs/web; now a dependent of rs/api"), 0)
	assert.Equal(t, []string{a.Metadata.UID}, dependentUIDs(r.gc.dependents[web.Metadata.UID]))
	assert.Equal(t, []string{b.Metadata.UID}, dependentUIDs(r.gc.dependents[api2.Metadata.UID]))

	// A new pod joins the graph; a deleted one leaves it.
	r.createPod("web-c", controllerRef(web))
	zero := int64(0)
	r.send(apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindPod, Namespace: "default", Name: "web-a",
		DeleteOptions: &apistore.DeleteOptions{GracePeriodSeconds: &zero}})
	r.settle()
	assert.GreaterOrEqual(t, r.stepOf("saw ADDED pod/web-c"), 0)
	assert.GreaterOrEqual(t, r.stepOf("added to the graph as a dependent of rs/web"), 0)
	assert.GreaterOrEqual(t, r.stepOf("saw DELETED pod/web-a"), 0)
	c := r.get(api.KindPod, "web-c")
	assert.Equal(t, []string{c.Meta().UID}, dependentUIDs(r.gc.dependents[web.Metadata.UID]))
	assert.NotContains(t, r.gc.allNodes(), a.Metadata.UID)
	assert.Zero(t, r.requestsAfterStart(apistore.VerbList, "pods"))
	assert.Zero(t, r.gc.Stats().Deleted, "nothing to collect: every owner is alive")
}

// A replication manager whose cache has not yet seen its owner's deletion
// creates a pod for it: the pod names an owner that is gone.
func TestLatePodOfADeletedOwnerIsCollected(t *testing.T) {
	r := newRig(t)
	web := r.rs("web")
	r.start()
	r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationBackground)
	r.settle()
	require.GreaterOrEqual(t, r.stepOf("found 0 dependents of rs/web in the graph; nothing to collect"), 0)

	r.createPod("web-late", controllerRef(web))
	r.settle()
	assert.False(t, r.exists(api.KindPod, "web-late"), "the late pod is collected")
	assert.GreaterOrEqual(t, r.stepOf("saw ADDED pod/web-late"), 0)
	assert.GreaterOrEqual(t, r.stepOf("its owner rs/web was seen deleted: queued for attemptToDeleteItem"), 0)
	assert.GreaterOrEqual(t, r.stepOf("rs/web is gone (NotFound)"), 0, "attemptToDeleteItem reads the owner live")
	assert.Zero(t, r.requestsAfterStart(apistore.VerbList, "pods"))
	assert.Equal(t, 1, r.gc.Stats().Deleted)
	assert.Empty(t, r.gc.allNodes())
	assert.Empty(t, r.gc.dependents)
}

func TestLatePodOfAnOwnerInTheAbsentOwnerCacheIsCollected(t *testing.T) {
	r := newRig(t)
	web := r.rs("web")
	r.pod("web-a", "", controllerRef(web))
	r.start()
	r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationBackground)
	r.settle()
	require.Equal(t, []string{web.Metadata.UID}, r.gc.absent)

	r.createPod("web-late", controllerRef(web))
	r.settle()
	assert.False(t, r.exists(api.KindPod, "web-late"))
	assert.GreaterOrEqual(t, r.stepOf("its owner rs/web is known to be gone (absentOwnerCache): queued for attemptToDeleteItem"), 0)
	assert.Equal(t, 1, r.requests(apistore.VerbGet, "replicasets"), "the cache spares the second read")
}

func TestPodThatGainsAReferenceToAGoneOwnerIsCollected(t *testing.T) {
	r := newRig(t)
	web := r.rs("web")
	r.pod("stray", "")
	r.start()
	r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationBackground)
	r.settle()

	// A lagging manager adopts the stray pod for the gone owner.
	r.send(apistore.Request{Verb: apistore.VerbPatch, Kind: api.KindPod, Namespace: "default", Name: "stray",
		Patch: &apistore.MetaPatch{SetOwnerReferences: []api.OwnerReference{controllerRef(web)}}})
	r.settle()
	assert.GreaterOrEqual(t, r.stepOf("now a dependent of rs/web; its owner rs/web was seen deleted: queued for attemptToDeleteItem"), 0)
	assert.False(t, r.exists(api.KindPod, "stray"))
}

func TestPodNamingAnOwnerNeverSeenIsChecked(t *testing.T) {
	r := newRig(t)
	web := r.rs("web")
	r.pod("web-a", "", controllerRef(web))
	// The owner goes before the collector starts: it never sees it.
	_, err := r.store.Delete(api.KindReplicaSet, "default", "web", nil)
	require.NoError(t, err)
	r.start()

	assert.False(t, r.exists(api.KindPod, "web-a"), "its owner went before the collector started")
	assert.GreaterOrEqual(t, r.stepOf("1 dependent of owners not alive in the graph queued for attemptToDeleteItem"), 0)
	assert.GreaterOrEqual(t, r.stepOf("took pod/web-a from the queue (rs/web is not in the graph (deleted, or not seen yet))"), 0)
}

func TestPodWatchFailureRelistsAndTheGraphCatchesUp(t *testing.T) {
	r := newRig(t)
	web := r.rs("web")
	r.pod("web-a", "", controllerRef(web))
	r.pod("bare", "")
	_, err := r.store.Faults().Add(apistore.FaultRule{Verb: apistore.VerbWatch, Resource: "pods", Count: 1, Error: apistore.FaultExpired})
	require.NoError(t, err)
	r.gc.Start()
	for r.stepOf("listing pods again after a back-off of") < 0 {
		r.step()
	}
	require.Len(t, r.gc.allNodes(), 2, "the list filled the graph before the watch failed")

	// While the pods' watch is down: a pod goes, the owner goes, and a late
	// pod is created for it.
	zero := int64(0)
	r.send(apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindPod, Namespace: "default", Name: "bare",
		DeleteOptions: &apistore.DeleteOptions{GracePeriodSeconds: &zero}})
	r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationBackground)
	r.createPod("web-late", controllerRef(web))
	r.settle()

	assert.GreaterOrEqual(t, r.stepOf("found 1 dependent of rs/web in the graph (pod/web-a)"), 0)
	assert.GreaterOrEqual(t, r.stepOf("took pod/web-a from the queue (rs/web was seen deleted); it was queued while the graph of pods was behind, so reading it first"), 0)
	assert.GreaterOrEqual(t, r.stepOf("2 objects gone since the last list were removed from the graph"), 0)
	assert.False(t, r.exists(api.KindPod, "web-a"))
	assert.False(t, r.exists(api.KindPod, "web-late"), "the relist finds the late pod")
	assert.Empty(t, r.gc.allNodes())
	assert.Equal(t, "watching", r.gc.View().Monitors[2].State)
}

// A pod created for an owner after its orphaning began is not orphaned: it
// still names the owner when the owner goes, and is collected, as upstream
// does.
func TestLatePodOfAnOrphanedOwnerIsCollected(t *testing.T) {
	r := newRig(t)
	web := r.rs("web")
	r.pod("web-a", "", controllerRef(web))
	r.start()
	r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationOrphan)
	for r.stepOf("took rs/web from the attemptToOrphan queue") < 0 {
		r.step()
	}
	r.createPod("web-late", controllerRef(web))
	r.settle()

	assert.False(t, r.exists(api.KindReplicaSet, "web"))
	assert.Empty(t, r.get(api.KindPod, "web-a").Meta().OwnerReferences, "the dependent found is orphaned")
	assert.False(t, r.exists(api.KindPod, "web-late"), "the late one is collected")
	assert.GreaterOrEqual(t, r.stepOf("its dependents were orphaned before, but 1 dependent that appeared since still names it (pod/web-late): queued for attemptToDeleteItem"), 0)
	assert.Empty(t, r.gc.orphaned)
}

func TestOwnerRemovedWhileOrphaningCollectsOnlyLateDependents(t *testing.T) {
	r := newRig(t)
	web := r.rs("web")
	r.pod("web-a", "", controllerRef(web))
	r.start()
	r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationOrphan)
	for r.stepOf("took rs/web from the attemptToOrphan queue") < 0 {
		r.step()
	}
	r.createPod("web-late", controllerRef(web))
	// Someone takes the orphan finalizer away by hand: the owner goes at once.
	r.send(apistore.Request{Verb: apistore.VerbPatch, Kind: api.KindReplicaSet, Namespace: "default", Name: "web",
		Patch: &apistore.MetaPatch{RemoveFinalizers: []string{apistore.FinalizerOrphanDependents}}})
	r.settle()

	assert.GreaterOrEqual(t, r.stepOf("while its dependents are being orphaned; the orphaning goes on"), 0)
	assert.GreaterOrEqual(t, r.stepOf("1 dependent that appeared during the orphaning still names it (pod/web-late): queued for attemptToDeleteItem"), 0)
	assert.Empty(t, r.get(api.KindPod, "web-a").Meta().OwnerReferences)
	assert.False(t, r.exists(api.KindPod, "web-late"))
}

func TestOrphaningWaitsForTheGraph(t *testing.T) {
	r := newRig(t)
	web := r.rs("web")
	r.pod("web-a", "", controllerRef(web))
	_, err := r.store.Faults().Add(apistore.FaultRule{Verb: apistore.VerbList, Resource: "pods", Count: 1})
	require.NoError(t, err)
	r.gc.Start()
	for r.stepOf("listing pods again after a back-off of") < 0 {
		r.step()
	}
	r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationOrphan)
	r.settle()

	assert.GreaterOrEqual(t, r.stepOf("pods are being listed again, so the graph may miss some of its dependents: orphaning once the list is in"), 0)
	assert.GreaterOrEqual(t, r.stepOf("1 owner waiting for the graph to orphan its dependents go on"), 0)
	assert.Empty(t, r.get(api.KindPod, "web-a").Meta().OwnerReferences, "the pod is orphaned, not deleted")
	assert.False(t, r.exists(api.KindReplicaSet, "web"))
}

func TestSnapshotCoversTheGraph(t *testing.T) {
	r := newRig(t)
	web, other := r.rs("web"), r.rs("other")
	for _, name := range []string{"web-a", "web-b", "web-c"} {
		r.pod(name, "", controllerRef(web))
	}
	r.pod("other-a", "", controllerRef(other))
	r.start()
	snap, err := r.k.Snapshot()
	require.NoError(t, err)
	nodes, deps, owners := r.gc.allNodes(), maps.Clone(r.gc.dependents), maps.Clone(r.gc.owners)
	want := edges(deps)

	// Change the graph every way: new pods, moved references, deletions.
	r.createPod("web-d", controllerRef(web))
	r.send(apistore.Request{Verb: apistore.VerbPatch, Kind: api.KindPod, Namespace: "default", Name: "web-b",
		Patch: &apistore.MetaPatch{RemoveOwnerReferences: []string{web.Metadata.UID}, SetOwnerReferences: []api.OwnerReference{controllerRef(other)}}})
	r.delete(api.KindReplicaSet, "web", apistore.DeletePropagationBackground)
	r.settle()
	require.NotEqual(t, nodes, r.gc.allNodes())
	require.NotEqual(t, owners, r.gc.owners, "rs/web is gone from the owners")

	for round := 0; round < 2; round++ {
		require.NoError(t, r.k.Restore(snap))
		assert.Equal(t, nodes, r.gc.allNodes(), "round %d: the graph's nodes are back", round)
		assert.Equal(t, owners, r.gc.owners, "round %d: the owners known alive are back", round)
		assert.Equal(t, want, edges(r.gc.dependents), "round %d: the graph's edges are back, unchanged by what followed", round)
		r.checkGraph()
		r.createPod("web-d-"+string(rune('0'+round)), controllerRef(web))
		r.settle()
		r.checkGraph()
	}
}

// A dependent orphaned and then adopted again before its owner goes (a
// replication manager whose cache had not yet seen the owner's
// deletionTimestamp patched its controller reference back) names the gone
// owner, and is collected: upstream hands every dependent the graph holds
// for a removed owner to attemptToDelete, which reads it live. The collector
// used to skip every dependent it had orphaned, leaving it dangling (chaos
// seed 2025).
func TestDependentAdoptedAgainWhileItsOwnerIsOrphanedIsCollected(t *testing.T) {
	r := newRig(t)
	db := r.rc("db")
	r.pod("db-a", "", controllerRef(db))
	r.pod("db-b", "", controllerRef(db))
	r.start()
	r.delete(api.KindReplicationController, "db", apistore.DeletePropagationOrphan)
	for r.stepOf("pod/db-a no longer names rc/db as an owner") < 0 {
		r.step()
	}
	r.send(apistore.Request{Verb: apistore.VerbPatch, Kind: api.KindPod, Namespace: "default", Name: "db-a",
		Patch: &apistore.MetaPatch{UID: r.get(api.KindPod, "db-a").Meta().UID, SetOwnerReferences: []api.OwnerReference{controllerRef(db)}}})
	r.settle()

	assert.False(t, r.exists(api.KindReplicationController, "db"))
	assert.False(t, r.exists(api.KindPod, "db-a"), "the dependent adopted again names a gone owner: collected")
	assert.Empty(t, r.get(api.KindPod, "db-b").Meta().OwnerReferences, "the other stays orphaned")
	assert.GreaterOrEqual(t, r.stepOf("its dependents were orphaned before, but 1 dependent it orphaned names it again (pod/db-a; read live first): queued for attemptToDeleteItem"), 0)
	assert.GreaterOrEqual(t, r.stepOf("it was orphaned, yet the graph shows it naming rc/db again"), 0)
	assert.Equal(t, 1, r.requests(apistore.VerbDelete, "pods"))
	assert.Empty(t, r.gc.orphaned)
}

// While the graph has not seen an orphaning patch, it still shows the
// dependent naming the owner; the live read then finds it orphaned, and it
// stays.
func TestOrphanedDependentTheGraphShowsStaleIsReadLiveAndKept(t *testing.T) {
	r := newRig(t)
	db := r.rc("db")
	r.pod("db-a", "", controllerRef(db))
	r.start()
	r.delete(api.KindReplicationController, "db", apistore.DeletePropagationOrphan)
	for r.stepOf("pod/db-a no longer names rc/db as an owner") < 0 {
		r.step()
	}
	// Make the graph behind: put the stale node back, as if the pod's
	// MODIFIED event had not arrived yet.
	for r.stepOf("saw MODIFIED pod/db-a") < 0 {
		r.step()
	}
	n := r.gc.allNodes()[r.get(api.KindPod, "db-a").Meta().UID]
	n.owners = []api.OwnerReference{controllerRef(db)}
	r.gc.upsert(nil, n)
	r.settle()

	assert.False(t, r.exists(api.KindReplicationController, "db"))
	assert.Empty(t, r.get(api.KindPod, "db-a").Meta().OwnerReferences, "orphaned, and kept")
	assert.GreaterOrEqual(t, r.stepOf("read pod/db-a: it has no owner any more; nothing to do"), 0)
	assert.Zero(t, r.requests(apistore.VerbDelete, "pods"))
}

// TestPartsSpreadTheServersUIDs draws uids as the API server does (random
// version 4 UUIDs, written in hex) and checks that the last eight bytes that
// partOf hashes spread them over the parts as evenly as chance would: with
// 100 uids a part on average, none has fewer than 50 or more than 150 (five
// standard deviations).
func TestPartsSpreadTheServersUIDs(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	var counts [nodeParts]int
	for range 100 * nodeParts {
		hi, lo := r.Uint64(), r.Uint64()
		uid := fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", hi>>32, hi>>16&0xffff, hi&0x0fff, lo>>48&0x3fff|0x8000, lo&0xffffffffffff)
		counts[partOf(uid)]++
	}
	for part, n := range counts {
		require.True(t, n >= 50 && n <= 150, "part %d holds %d uids", part, n)
	}
}
