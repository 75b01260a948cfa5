package controller

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/informer"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/workqueue"
)

// The scenario tests of upstream's pkg/controller/replicaset/replica_set_test.go
// that need a running manager (spec §5.1), under their upstream names, in our
// own words. Where upstream fills the informers' indexers and calls
// syncReplicaSet, these tests seed the API store before the informers list it
// (startRig) and drive exactly one sync of the key (syncOnce); where upstream
// counts what its FakePodControl and fake clientset recorded, these count the
// requests the manager's workers sent to the API server (tally). Upstream's
// ReplicaSet is "foobar" in "default", selecting foo=bar.
//
// Two differences from upstream's fixtures are forced by the API store, which
// validates what upstream's fakes accept: a template's labels must match the
// selector (upstream's template carries {name: foo, type: production} under
// the selector foo=bar), and a status must be self-consistent (no more
// fullyLabeledReplicas than replicas). Each test says where that matters.

const foobarKey = "default/foobar"

var barFoo = map[string]string{"bar": "foo"}

// seedFoobar stores foobar wanting replicas pods and, owned by it, running
// pods named pod0, pod1, ….
func seedFoobar(replicas int32, running int) func(*rig) {
	return func(r *rig) {
		rs := r.storeRS(newRS("foobar", replicas, fooBar))
		for i := range running {
			r.storePod(ownedPod(fmt.Sprintf("pod%d", i), rs), api.PodRunning)
		}
	}
}

// TestSyncReplicaSetDoesNothing: a ReplicaSet that has exactly the pods it
// wants creates, deletes and adopts nothing.
func TestSyncReplicaSetDoesNothing(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{}, seedFoobar(2, 2))
	mark := r.mark()
	rec := r.syncOnce(foobarKey)
	got := r.tally(mark)
	assert.Zero(t, got.creates, "creates")
	assert.Zero(t, got.deletes, "deletes")
	assert.Zero(t, got.patches, "patches")
	assert.Empty(t, rec.Err)
}

// TestSyncReplicaSetDeletes: one pod too many is one delete (upstream's
// ~v1.6 test).
func TestSyncReplicaSetDeletes(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{}, seedFoobar(1, 2))
	mark := r.mark()
	r.syncOnce(foobarKey)
	got := r.tally(mark)
	assert.Equal(t, 1, got.deletes, "deletes")
	assert.Zero(t, got.creates, "creates")
	assert.Zero(t, got.patches, "patches")
	r.settle()
	assert.Len(t, r.podsOwnedBy("foobar"), 1)
}

// TestSyncReplicaSetCreates: two pods missing are two creates (upstream's
// ~v1.6 test).
func TestSyncReplicaSetCreates(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{}, seedFoobar(2, 0))
	mark := r.mark()
	r.syncOnce(foobarKey)
	got := r.tally(mark)
	assert.Equal(t, 2, got.creates, "creates")
	assert.Zero(t, got.deletes, "deletes")
	assert.Zero(t, got.patches, "patches")
	assert.Len(t, r.podsOwnedBy("foobar"), 2)
}

// TestDeleteFinalStateUnknown: a pod delete seen only as a relist's
// tombstone still wakes the pod's owner, and the worker syncs exactly that
// key.
func TestDeleteFinalStateUnknown(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{}, func(r *rig) {
		rs := r.storeRS(newRS("foobar", 1, fooBar))
		r.storePod(ownedPod("steady", rs), api.PodRunning)
	})
	r.settle()
	before := r.m.Syncs()

	gone := ownedPod("pod0", r.getRS("foobar"))
	r.m.deletePod(informer.DeletedFinalStateUnknown{Key: "foo", Obj: gone})
	assert.Equal(t, []string{foobarKey}, r.m.Queue().View().Waiting)

	r.stepUntil("a sync", func() bool { return r.m.Syncs() > before })
	rec, ok := r.m.LastSync(foobarKey)
	require.True(t, ok)
	assert.Equal(t, r.m.Syncs(), rec.Seq, "the one sync the tombstone caused is foobar's")
	assert.Equal(t, before+1, r.m.Syncs())
}

// TestSyncReplicaSetCreateFailures: with room for only 10 more pods (a quota),
// a ReplicaSet wanting 100 creates exactly 10 and, thanks to slow start,
// makes at most 1+2+4+8 = 15 create calls instead of 100.
func TestSyncReplicaSetCreateFailures(t *testing.T) {
	const limit = 10
	r := startRig(t, api.KindReplicaSet, Config{}, func(r *rig) {
		r.storeRS(newRS("foobar", limit*10, fooBar))
		r.addFault(apistore.FaultRule{Verb: apistore.VerbCreate, Resource: "pods", Error: apistore.FaultQuota, After: limit, Always: true})
	})
	mark := r.mark()
	rec := r.syncOnce(foobarKey)
	got := r.tally(mark)

	assert.Len(t, r.podsOwnedBy("foobar"), limit, "pods created")
	bound := 0
	for pass := 0; bound <= limit; pass++ {
		bound += SlowStartInitialBatchSize << pass
	}
	assert.LessOrEqual(t, got.creates, bound, "create calls")
	// Exactly: batches of 1, 2 and 4 succeed; of the batch of 8, 3 succeed
	// and 5 are refused, and slow start stops there.
	assert.Equal(t, 15, got.creates, "create calls")
	assert.Contains(t, rec.Err, "exceeded quota")

	// The failure is recorded on the status, counted before the creates.
	status := r.rsStatus("foobar")
	assert.Zero(t, status.Replicas)
	cond := GetCondition(status, api.ReplicaFailure)
	require.NotNil(t, cond)
	assert.Equal(t, FailedCreatePodReason, cond.Reason)
	assert.Equal(t, api.ConditionTrue, cond.Status)
}

// TestStatusUpdatesWithoutReplicasChangeInAWorld is upstream's ~v1.6
// TestStatusUpdatesWithoutReplicasChange with a running manager: a status
// that is already right is not written, no request at all; a new generation
// with the same counts is written once, to record observedGeneration.
func TestStatusUpdatesWithoutReplicasChangeInAWorld(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{}, func(r *rig) {
		seedFoobar(5, 5)(r)
		r.storeRSStatus("foobar", api.ReplicaSetStatus{Replicas: 5, FullyLabeledReplicas: 5, ReadyReplicas: 5, AvailableReplicas: 5, ObservedGeneration: 1})
	})
	mark := r.mark()
	rec := r.syncOnce(foobarKey)
	assert.Empty(t, r.workerRequests(mark), "a sync with nothing to do and a right status sends nothing")
	assert.Empty(t, rec.Err)
	r.settle()

	// A spec change that leaves every count alone: only the generation moves.
	rs := r.getRS("foobar").DeepCopy()
	rs.Spec.Template.Metadata.Annotations = map[string]string{"note": "v2"}
	rs.Metadata.ResourceVersion = ""
	mark = r.mark()
	r.do(apistore.Request{Verb: apistore.VerbUpdate, Kind: api.KindReplicaSet, Object: rs})
	r.settle()
	require.Equal(t, int64(2), r.getRS("foobar").Metadata.Generation)

	reqs := r.workerRequests(mark)
	require.Len(t, reqs, 1, "one status write, and nothing else")
	assert.Equal(t, apistore.VerbUpdate, reqs[0].Verb)
	assert.Equal(t, "replicasets/status", reqs[0].Resource)
	assert.Equal(t, api.ReplicaSetStatus{Replicas: 5, FullyLabeledReplicas: 5, ReadyReplicas: 5, AvailableReplicas: 5, ObservedGeneration: 2},
		r.rsStatus("foobar"))
}

// TestControllerUpdateReplicas (upstream's ~v1.6 test): the status a sync
// writes counts the pods it saw before its own creates, and
// fullyLabeledReplicas counts only the pods carrying every template label.
func TestControllerUpdateReplicas(t *testing.T) {
	extra := map[string]string{"foo": "bar", "extraKey": "extraValue"}
	r := startRig(t, api.KindReplicaSet, Config{}, func(r *rig) {
		rs := newRS("foobar", 5, fooBar)
		rs.Spec.Template.Metadata.Labels = maps.Clone(extra)
		rs = r.storeRS(rs)
		for i := range 4 {
			p := ownedPod(fmt.Sprintf("pod%d", i), rs)
			if i >= 2 {
				p.Metadata.Labels = maps.Clone(extra)
			}
			r.storePod(p, api.PodRunning)
		}
		// Upstream's stale status is {replicas 2, fullyLabeled 6, ready 2,
		// available 2}, which the API store refuses (fullyLabeled >
		// replicas); this one is as stale, field for field.
		r.storeRSStatus("foobar", api.ReplicaSetStatus{Replicas: 6, FullyLabeledReplicas: 6, ReadyReplicas: 2, AvailableReplicas: 2})
	})
	mark := r.mark()
	r.syncOnce(foobarKey)
	got := r.tally(mark)
	assert.Equal(t, 1, got.creates, "creates")
	assert.Equal(t, 1, got.statusPuts, "status writes")
	assert.Equal(t, api.ReplicaSetStatus{Replicas: 4, FullyLabeledReplicas: 2, ReadyReplicas: 4, AvailableReplicas: 4, ObservedGeneration: 1},
		r.rsStatus("foobar"))
}

// TestSyncReplicaSetDormancy: while a ReplicaSet waits for the creates it
// expects, its syncs create nothing but still write status; a failed create
// lowers the expectations again at once, so the next sync retries.
func TestSyncReplicaSetDormancy(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{}, func(r *rig) {
		seedFoobar(2, 1)(r)
		r.storeRSStatus("foobar", api.ReplicaSetStatus{Replicas: 1, FullyLabeledReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1, ObservedGeneration: 1})
	})
	// Upstream's FakePodControl creates nothing, so no watch event ever
	// comes back: the informer here loses every pod event.
	r.pods.DropNextEvents(1 << 20)

	// (a) One pod missing: one create, and the ReplicaSet now expects it.
	mark := r.mark()
	r.syncOnce(foobarKey)
	got := r.tally(mark)
	assert.Equal(t, 1, got.creates, "(a) creates")
	assert.Zero(t, got.statusPuts, "(a) the status was right")
	add, _ := r.expectations(foobarKey)
	assert.Equal(t, int64(1), add, "(a) expected creates")

	// (b) Someone writes a wrong status: the update wakes the ReplicaSet,
	// which is dormant (its pod was never seen), creates nothing, and
	// writes the right status back.
	rs := r.getRS("foobar").DeepCopy()
	rs.Status = api.ReplicaSetStatus{ObservedGeneration: 1}
	mark = r.mark()
	r.do(apistore.Request{Verb: apistore.VerbUpdate, Kind: api.KindReplicaSet, Subresource: apistore.SubresourceStatus, Object: rs})
	r.settle()
	got = r.tally(mark)
	assert.Zero(t, got.creates, "(b) dormant: no creates")
	assert.Equal(t, 1, got.statusPuts, "(b) but the status is written")
	assert.Equal(t, int32(1), r.rsStatus("foobar").Replicas)

	// (c) The expectations are lowered by hand, and the next create fails:
	// one create call, and the skipped create lowers the expectations back.
	r.m.Expectations().CreationObserved(foobarKey)
	r.addFault(apistore.FaultRule{Verb: apistore.VerbCreate, Resource: "pods", Count: 1, Message: "fake Error"})
	mark = r.mark()
	rec := r.syncOnce(foobarKey)
	got = r.tally(mark)
	assert.Equal(t, 1, got.creates, "(c) one create call")
	assert.Len(t, r.podsOwnedBy("foobar"), 2, "(c) it failed")
	assert.Contains(t, rec.Err, "fake Error")
	add, _ = r.expectations(foobarKey)
	assert.Zero(t, add, "(c) the failed create is not waited for")
	assert.Equal(t, 1, got.statusPuts, "(c) the ReplicaFailure condition is written")
	require.NotNil(t, GetCondition(r.rsStatus("foobar"), api.ReplicaFailure))

	// (d) Healthy again: the next sync (the update of (c)'s status write,
	// then the retry) creates the pod once.
	mark = r.mark()
	r.settle()
	got = r.tally(mark)
	assert.Equal(t, 1, got.creates, "(d) creates")
	add, _ = r.expectations(foobarKey)
	assert.Equal(t, int64(1), add, "(d) expected creates")
	// Upstream counts 2 status writes over the whole test, (b) and (c): its
	// fake server never stores (c)'s condition, so its (d) has nothing to
	// remove. Here (c)'s condition is stored, and (d), whose manageReplicas
	// succeeded, removes it with a third write, as upstream does in a
	// cluster.
	assert.Equal(t, 1, got.statusPuts, "(d) the condition is removed")
	assert.Nil(t, GetCondition(r.rsStatus("foobar"), api.ReplicaFailure))
}

// TestWatchControllers: a ReplicaSet added through the API reaches the
// informer's watch, the handler queues its key, and a worker syncs it with
// the object in the cache.
func TestWatchControllers(t *testing.T) {
	r := newRig(t, api.KindReplicaSet, Config{})
	before := r.m.Syncs()
	r.do(apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindReplicaSet, Object: newRS("foo", 0, fooBar)})
	r.stepUntil("a sync", func() bool { return r.m.Syncs() > before })

	rec, ok := r.m.LastSync("default/foo")
	require.True(t, ok)
	assert.Equal(t, r.m.Syncs(), rec.Seq)
	cached, ok := r.rss.Lister().Get("default", "foo")
	require.True(t, ok)
	assert.Equal(t, r.getRS("foo").Metadata.UID, cached.Meta().UID)
}

// TestWatchPods: a pod of a ReplicaSet arriving through the pod informer's
// watch (one that has failed, so does not count) wakes that ReplicaSet.
func TestWatchPods(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{}, func(r *rig) {
		rs := r.storeRS(newRS("foobar", 1, fooBar))
		r.storePod(ownedPod("steady", rs), api.PodRunning)
	})
	r.settle()
	before, _ := r.m.LastSync(foobarKey)

	failed := ownedPod("pod0", r.getRS("foobar"))
	failedStatus := failed.DeepCopy()
	failedStatus.Status.Phase = api.PodFailed
	mark := r.mark()
	r.do(apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindPod, Object: failed})
	r.do(apistore.Request{Verb: apistore.VerbUpdate, Kind: api.KindPod, Subresource: apistore.SubresourceStatus, Object: failedStatus})
	r.stepUntil("a sync of foobar", func() bool {
		rec, ok := r.m.LastSync(foobarKey)
		return ok && rec.Seq > before.Seq
	})
	r.settle()
	got := r.tally(mark)
	assert.Zero(t, got.creates+got.deletes, "a failed pod is not active: the running one is enough")
}

// TestUpdatePods: which ReplicaSets a pod update wakes. A controller
// reference wins over labels; a pod that loses its controller reference
// wakes its old owner and every ReplicaSet its labels match.
func TestUpdatePods(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{}, func(r *rig) {
		r.storeRS(newRS("foobar", 0, fooBar))
		r.storeRS(newRS("barfoo", 0, barFoo))
	})
	r.settle()
	ref1 := api.NewControllerRef(&r.getRS("foobar").Metadata, "apps/v1", "ReplicaSet")
	ref2 := api.NewControllerRef(&r.getRS("barfoo").Metadata, "apps/v1", "ReplicaSet")

	tests := []struct {
		name      string
		oldLabels map[string]string
		oldRef    *api.OwnerReference
		curLabels map[string]string
		curRef    *api.OwnerReference
		want      []string
	}{
		{"1: labels change to the other's, the controller reference stays: only the owner",
			fooBar, &ref1, barFoo, &ref1, []string{foobarKey}},
		{"2: orphaned, old owner and label match are the same",
			barFoo, &ref2, barFoo, nil, []string{"default/barfoo"}},
		{"3: orphaned, old owner and label match differ: both",
			barFoo, &ref1, barFoo, nil, []string{"default/barfoo", foobarKey}},
		{"4: labels change, the controller reference stays: only the owner",
			fooBar, &ref2, barFoo, &ref2, []string{"default/barfoo"}},
	}
	pod := func(labels map[string]string, ref *api.OwnerReference, rv string) *api.Pod {
		p := newPod("pod0", labels)
		if ref != nil {
			p.Metadata.OwnerReferences = []api.OwnerReference{*ref}
		}
		p.Metadata.ResourceVersion = rv
		return p
	}
	// One world for the four cases, as upstream's: each case's keys are
	// synced (drained from the queue) before the next.
	for _, tc := range tests {
		r.m.updatePod(pod(tc.oldLabels, tc.oldRef, "1"), pod(tc.curLabels, tc.curRef, "2"))
		got := r.m.Queue().View().Waiting
		slices.Sort(got)
		assert.Equal(t, tc.want, got, tc.name)
		r.settle()
	}
}

// TestControllerUpdateRequeue: a sync whose status write fails returns the
// error, so its key goes back in the queue (here with no delay).
func TestControllerUpdateRequeue(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{RateLimiter: workqueue.NewMaxOfRateLimiter()}, func(r *rig) {
		seedFoobar(1, 1)(r)
		r.storeRSStatus("foobar", api.ReplicaSetStatus{Replicas: 2, ObservedGeneration: 1})
		r.addFault(apistore.FaultRule{Verb: apistore.VerbUpdate, Resource: "replicasets/status", Always: true, Message: "failed to update status"})
	})
	rec := r.syncOnce(foobarKey)
	assert.Contains(t, rec.Err, "failed to update status")
	assert.Equal(t, 1, r.m.Queue().Len())
	assert.Equal(t, []string{foobarKey}, r.m.Queue().View().Waiting)
}

// TestControllerUpdateStatusWithFailure: when every status write fails, one
// sync makes exactly 2 PUTs and 1 GET, and the retry carries the computed
// status, not the status the GET read.
func TestControllerUpdateStatusWithFailure(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{}, func(r *rig) {
		seedFoobar(10, 10)(r)
		r.storeRSStatus("foobar", api.ReplicaSetStatus{Replicas: 1, ObservedGeneration: 1})
		r.addFault(apistore.FaultRule{Verb: apistore.VerbUpdate, Resource: "replicasets/status", Always: true, Message: "fake error"})
	})
	mark, replies := r.mark(), len(r.replies)
	rec := r.syncOnce(foobarKey)
	assert.Contains(t, rec.Err, "fake error")

	got := r.tally(mark)
	assert.Equal(t, 1, got.gets, "GETs")
	assert.Equal(t, 2, got.statusPuts, "PUTs")
	assert.Zero(t, got.creates+got.deletes+got.patches)
	assert.Empty(t, got.other)

	var puts []*api.ReplicaSet
	var fresh *api.ReplicaSet
	for _, rep := range r.replies[replies:] {
		switch {
		case rep.Request.Verb == apistore.VerbUpdate && rep.Request.Subresource == apistore.SubresourceStatus:
			puts = append(puts, rep.Request.Object.(*api.ReplicaSet))
		case rep.Request.Verb == apistore.VerbGet:
			require.NoError(t, rep.Response.Err)
			fresh = rep.Response.Object.(*api.ReplicaSet)
		}
	}
	require.Len(t, puts, 2)
	for i, rs := range puts {
		assert.Equal(t, int32(10), rs.Status.Replicas, "PUT %d", i+1)
	}
	require.NotNil(t, fresh)
	assert.Equal(t, "foobar", fresh.Metadata.Name, "the GET is for the ReplicaSet")
	assert.Equal(t, int32(1), fresh.Status.Replicas, "the GET read the stale status")
}

// TestControllerBurstReplicas: scaling 0→n then n→0, every sync creates or
// deletes at most burstReplicas pods; until all of them have been observed
// the ReplicaSet stays dormant (one left is exactly one expected), and the
// last one lets the next sync act. Deletions are observed by pod key, only
// those ExpectDeletions recorded.
func TestControllerBurstReplicas(t *testing.T) {
	for _, tc := range []struct{ burst, replicas int }{{5, 30}, {5, 12}, {3, 2}} {
		t.Run(fmt.Sprintf("burst %d, %d replicas", tc.burst, tc.replicas), func(t *testing.T) {
			testControllerBurstReplicas(t, tc.burst, tc.replicas)
		})
	}
}

func testControllerBurstReplicas(t *testing.T, burst, numReplicas int) {
	r := startRig(t, api.KindReplicaSet, Config{BurstReplicas: burst}, seedFoobar(0, 0))
	r.settle()
	// The test plays the pod informer, as upstream's does: the informer loses
	// every pod event, and the test puts each pod into the cache and calls
	// the handler itself, when it chooses.
	r.pods.DropNextEvents(1 << 30)
	observeCreate := func(p *api.Pod) {
		r.pods.Indexer().Add(p)
		r.m.addPod(p, false)
	}
	observeDelete := func(podKey string) {
		obj, ok := r.pods.Indexer().GetByKey(podKey)
		require.True(t, ok, podKey)
		r.pods.Indexer().Delete(obj)
		r.m.deletePod(obj)
	}

	for _, replicas := range []int{numReplicas, 0} {
		mark := r.mark()
		r.scaleRS("foobar", int32(replicas))
		r.settle()
		for i := 0; i < numReplicas; i += burst {
			got := r.tally(mark)
			active := len(r.cachedPodsOwnedBy("foobar"))
			if replicas != 0 {
				want := min(replicas-active, burst)
				require.Equal(t, want, got.creates, "creates of one sync")
				require.Zero(t, got.deletes)
				// The pods created but not yet seen, in the order they were
				// created.
				var unseen []*api.Pod
				for _, p := range r.podsOwnedBy("foobar") {
					if _, ok := r.pods.Indexer().Get(p); !ok {
						unseen = append(unseen, p)
					}
				}
				slices.SortFunc(unseen, func(a, b *api.Pod) int { return int(parseRV(a) - parseRV(b)) })
				require.Len(t, unseen, want)
				for _, p := range unseen[:want-1] {
					observeCreate(p)
				}
				add, _ := r.expectations(foobarKey)
				require.Equal(t, int64(1), add, "all but one observed")

				mark = r.mark()
				before := r.m.Syncs()
				r.settle()
				require.Greater(t, r.m.Syncs(), before, "the observed creates woke the ReplicaSet")
				got = r.tally(mark)
				require.Zero(t, got.creates+got.deletes, "a sync with one create outstanding does nothing")

				mark = r.mark()
				observeCreate(unseen[want-1])
			} else {
				want := min(active, burst)
				require.Equal(t, want, got.deletes, "deletes of one sync")
				require.Zero(t, got.creates)
				keys := r.m.Expectations().GetUIDs(foobarKey)
				require.Len(t, keys, want, "the deletions expected, by pod key")
				for _, k := range keys[:want-1] {
					observeDelete(k)
				}
				_, del := r.expectations(foobarKey)
				require.Equal(t, int64(1), del, "all but one observed")
				require.Len(t, r.m.Expectations().GetUIDs(foobarKey), 1)

				mark = r.mark()
				before := r.m.Syncs()
				r.settle()
				require.Greater(t, r.m.Syncs(), before, "the observed deletes woke the ReplicaSet")
				got = r.tally(mark)
				require.Zero(t, got.creates+got.deletes, "a sync with one delete outstanding does nothing")

				mark = r.mark()
				observeDelete(keys[want-1])
			}
			// The last observation lets the next sync act.
			r.settle()
		}
		require.Len(t, r.cachedPodsOwnedBy("foobar"), replicas, "active pods in the cache")
		require.Len(t, r.podsOwnedBy("foobar"), replicas, "pods in the store")
	}

	// The informer's own view agrees with the one the test fed it: a relist
	// changes nothing and wakes nobody into action.
	mark := r.mark()
	r.pods.Heal()
	r.settle()
	got := r.tally(mark)
	assert.Zero(t, got.creates+got.deletes)
	assert.Empty(t, r.cachedPodsOwnedBy("foobar"))
}

func parseRV(p *api.Pod) int {
	n := 0
	for _, c := range p.Metadata.ResourceVersion {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestRSSyncExpectations: a sync checks the expectations before it lists the
// pods, so a pod that reaches the cache after the check is still counted
// and cannot cause a second create. Upstream injects the pod from inside
// SatisfiedExpectations; here the check and the listing are one kernel step,
// so nothing can come between them, and the pod enters the cache (without its
// handler having run) in the instant before that step.
func TestRSSyncExpectations(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{BurstReplicas: 2}, func(r *rig) {
		rs := r.storeRS(newRS("foobar", 2, fooBar))
		r.storePod(ownedPod("pod0", rs), api.PodPending)
	})
	late := r.storePod(ownedPod("pod1", r.getRS("foobar")), api.PodPending)
	r.pods.Indexer().Add(late)

	mark := r.mark()
	rec := r.syncOnce(foobarKey)
	got := r.tally(mark)
	assert.Zero(t, got.creates+got.deletes+got.patches)
	assert.Contains(t, rec.Decision, "2 pods owned, want 2")
}

// TestDeleteControllerAndExpectations: deleting a ReplicaSet drops its
// expectations, and a late observation for it changes nothing.
func TestDeleteControllerAndExpectations(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{BurstReplicas: 10}, seedFoobar(1, 0))
	r.pods.DropNextEvents(1 << 20) // the created pod is never observed

	mark := r.mark()
	r.syncOnce(foobarKey)
	assert.Equal(t, 1, r.tally(mark).creates)
	require.True(t, r.hasExpectations(foobarKey))
	r.settle()

	r.do(apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindReplicaSet, Namespace: "default", Name: "foobar"})
	r.settle()
	assert.False(t, r.hasExpectations(foobarKey), "deleting the ReplicaSet dropped its expectations")

	// An observation that raced with the delete lowers nothing: there is no
	// record any more.
	r.m.Expectations().LowerExpectations(foobarKey, 1, 0)
	assert.False(t, r.hasExpectations(foobarKey))
	mark = r.mark()
	rec := r.syncOnce(foobarKey)
	assert.Empty(t, r.workerRequests(mark), "a sync of a deleted ReplicaSet does nothing")
	assert.Equal(t, "deleted: expectations dropped", rec.Decision)
	assert.False(t, r.hasExpectations(foobarKey))
}

// TestExpectationsOnRecreate: a ReplicaSet deleted and created again under
// the same name starts with fresh expectations, not the old one's.
func TestExpectationsOnRecreate(t *testing.T) {
	r := newRig(t, api.KindReplicaSet, Config{BurstReplicas: 100})
	r.pods.DropNextEvents(1 << 20) // as with a FakePodControl: no pod is ever observed
	require.Zero(t, r.m.Queue().Len())

	create := func() {
		r.do(apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindReplicaSet, Object: newRS("foobar", 1, fooBar)})
	}
	queued := func() bool { return r.m.Queue().Len() == 1 }
	syncedOnce := func() {
		t.Helper()
		before, _ := r.m.LastSync(foobarKey)
		mark := r.mark()
		r.stepUntil("the sync", func() bool {
			rec, ok := r.m.LastSync(foobarKey)
			return ok && rec.Seq > before.Seq
		})
		assert.Equal(t, 1, r.tally(mark).creates)
		require.True(t, r.hasExpectations(foobarKey))
		assert.False(t, r.fulfilled(foobarKey), "waiting for the pod it created")
		assert.Zero(t, r.m.Queue().Len())
	}

	create()
	r.stepUntil("the new ReplicaSet is queued", queued)
	syncedOnce()
	oldUID := r.getRS("foobar").Metadata.UID
	r.settle()

	r.do(apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindReplicaSet, Namespace: "default", Name: "foobar"})
	r.stepUntil("the deleted ReplicaSet is queued", queued)
	assert.False(t, r.hasExpectations(foobarKey), "the delete handler dropped the expectations")
	mark := r.mark()
	r.settle() // upstream takes the key off the queue by hand; here its sync runs, and does nothing
	assert.Empty(t, r.workerRequests(mark))

	create()
	r.stepUntil("the recreated ReplicaSet is queued", queued)
	require.NotEqual(t, oldUID, r.getRS("foobar").Metadata.UID)
	syncedOnce()
}

// TestOverlappingRSs: with many ReplicaSets selecting the same pods, created
// at the same instant and cached in shuffled order, a pod wakes only the one
// its controller reference names: nothing breaks ties by name or age.
func TestOverlappingRSs(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{BurstReplicas: 10}, func(r *rig) {
		for _, j := range []int{6, 2, 8, 0, 4, 7, 1, 5, 3} {
			r.storeRS(newRS(fmt.Sprintf("rs%d", j+1), 1, fooBar))
		}
	})
	r.settle()
	for j := 1; j <= 9; j++ {
		assert.Equal(t, r.getRS("rs1").Metadata.CreationTimestamp, r.getRS(fmt.Sprintf("rs%d", j)).Metadata.CreationTimestamp)
	}
	pod := newPod("pod0", fooBar)
	pod.Metadata.OwnerReferences = []api.OwnerReference{api.NewControllerRef(&r.getRS("rs4").Metadata, "apps/v1", "ReplicaSet")}
	r.m.addPod(pod, false)
	assert.Equal(t, []string{"default/rs4"}, r.m.Queue().View().Waiting)
}

// TestDeletionTimestamp: a pod seen with a deletionTimestamp counts as
// deleted, once, whether it arrives so (a), gets it by an update (b), is
// updated again (c) or finally deleted (d); only the expected pod key
// fulfils the expectations (e).
func TestDeletionTimestamp(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{BurstReplicas: 10}, func(r *rig) {
		rs := r.storeRS(newRS("foobar", 1, fooBar))
		r.storePod(ownedPod("steady", rs), api.PodRunning)
	})
	r.settle()
	rs := r.getRS("foobar")
	exp := r.m.Expectations()
	waiting := func() []string { return r.m.Queue().View().Waiting }

	pod := ownedPod("pod0", rs)
	pod.Metadata.DeletionTimestamp = api.NewTimePtr(r.k.Wall())
	pod.Metadata.ResourceVersion = "1"

	// (a) Added already being deleted: a deletion, not a creation.
	exp.ExpectDeletions(foobarKey, []string{PodKey(pod)})
	r.m.addPod(pod, false)
	assert.Equal(t, []string{foobarKey}, waiting(), "(a)")
	assert.True(t, r.fulfilled(foobarKey), "(a)")
	r.settle()

	// (b) An update that sets the deletionTimestamp is the deletion.
	oldPod := ownedPod("pod0", rs)
	oldPod.Metadata.ResourceVersion = "2"
	exp.ExpectDeletions(foobarKey, []string{PodKey(pod)})
	r.m.updatePod(oldPod, pod)
	assert.Equal(t, []string{foobarKey}, waiting(), "(b)")
	assert.True(t, r.fulfilled(foobarKey), "(b)")
	r.settle()

	// (c) Another update of the same dying pod is not a second deletion.
	secondPod := ownedPod("secondPod", rs)
	exp.ExpectDeletions(foobarKey, []string{PodKey(secondPod)})
	oldPod.Metadata.DeletionTimestamp = api.NewTimePtr(r.k.Wall())
	r.m.updatePod(oldPod, pod)
	assert.False(t, r.fulfilled(foobarKey), "(c)")

	// (d) Nor is its final delete, counted already by the update.
	r.m.deletePod(pod)
	assert.False(t, r.fulfilled(foobarKey), "(d)")
	r.settle()

	// (e) The delete of the pod that is expected fulfils the expectations.
	r.m.deletePod(secondPod)
	assert.Equal(t, []string{foobarKey}, waiting(), "(e)")
	assert.True(t, r.fulfilled(foobarKey), "(e)")
}

// TestDoNotPatchPodWithOtherControlRef: a matching pod that another
// controller controls is neither adopted nor counted.
func TestDoNotPatchPodWithOtherControlRef(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{}, func(r *rig) {
		r.storeRS(newRS("foobar", 2, fooBar))
		p := newPod("pod", fooBar)
		yes := true
		p.Metadata.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "AnotherRS", UID: "another-uid", Controller: &yes}}
		r.storePod(p, api.PodRunning)
	})
	mark := r.mark()
	rec := r.syncOnce(foobarKey)
	got := r.tally(mark)
	assert.Empty(t, rec.Err)
	assert.Zero(t, got.patches, "patches")
	assert.Equal(t, 2, got.creates, "creates")
}

// TestPatchPodFails: when the adoption patches fail, the sync fails with
// their error after trying each pod once, creates nothing, and its key is
// queued again.
func TestPatchPodFails(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{}, func(r *rig) {
		r.storeRS(newRS("foobar", 2, fooBar))
		r.storePod(newPod("pod1", fooBar), api.PodRunning)
		r.storePod(newPod("pod2", fooBar), api.PodRunning)
		r.addFault(apistore.FaultRule{Verb: apistore.VerbPatch, Resource: "pods", Always: true, Message: "fake Error"})
	})
	mark := r.mark()
	rec := r.syncOnce(foobarKey)
	got := r.tally(mark)
	assert.Contains(t, rec.Err, "fake Error")
	assert.Equal(t, 2, got.patches, "patches")
	assert.Zero(t, got.creates, "creates")
	assert.Zero(t, got.statusPuts, "a claim error ends the sync before the status")
	assert.Equal(t, 1, got.gets, "one fresh GET before the first adoption")

	v := r.m.Queue().View()
	require.Len(t, v.Delayed, 1, "requeued with back-off")
	assert.Equal(t, foobarKey, v.Delayed[0].Key)
	assert.True(t, v.Delayed[0].RateLimited)
}

// TestDoNotAdoptOrCreateIfBeingDeleted: a ReplicaSet being deleted adopts
// and creates nothing, and that is not an error.
func TestDoNotAdoptOrCreateIfBeingDeleted(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{}, func(r *rig) {
		rs := newRS("foobar", 2, fooBar)
		rs.Metadata.Finalizers = []string{"example.com/hold"} // keeps it while it is being deleted
		r.storeRS(rs)
		_, err := r.srv.Store().Delete(api.KindReplicaSet, "default", "foobar", nil)
		require.NoError(t, err)
		r.storePod(newPod("pod1", fooBar), api.PodRunning)
	})
	require.NotNil(t, r.getRS("foobar").Metadata.DeletionTimestamp)
	mark := r.mark()
	rec := r.syncOnce(foobarKey)
	got := r.tally(mark)
	assert.Empty(t, rec.Err)
	assert.Zero(t, got.patches, "patches")
	assert.Zero(t, got.creates, "creates")
}

// TestDoNotAdoptOrCreateIfBeingDeletedRace: the cache does not know yet that
// the ReplicaSet is being deleted, the API server does: the fresh GET before
// the first adoption catches it, and the sync fails without adopting or
// creating.
func TestDoNotAdoptOrCreateIfBeingDeletedRace(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{}, func(r *rig) {
		rs := newRS("foobar", 2, fooBar)
		rs.Metadata.Finalizers = []string{"example.com/hold"}
		r.storeRS(rs)
		r.storePod(newPod("pod1", fooBar), api.PodRunning)
	})
	// Straight into the store: no watcher hears of it before the sync.
	_, err := r.srv.Store().Delete(api.KindReplicaSet, "default", "foobar", nil)
	require.NoError(t, err)
	cached, ok := r.rss.Lister().Get("default", "foobar")
	require.True(t, ok)
	require.Nil(t, cached.Meta().DeletionTimestamp, "the cache does not know")

	mark := r.mark()
	rec := r.syncOnce(foobarKey)
	got := r.tally(mark)
	assert.Contains(t, rec.Err, "has just been deleted")
	assert.Equal(t, 1, got.gets, "the fresh GET")
	assert.Zero(t, got.patches, "patches")
	assert.Zero(t, got.creates, "creates")
}

// eventLog is an EventRecorder that keeps what it is told.
type eventLog struct{ events []string }

func (l *eventLog) Eventf(_ sim.Scheduler, obj api.Object, eventType, reason, _ string) {
	l.events = append(l.events, string(obj.Kind())+" "+eventType+" "+reason)
}

// TestReplicationControllerScalesLikeAReplicaSet: the same code serves
// ReplicationControllers; only names differ (the owner reference's kind and
// apiVersion, the Events' source, the queue's name).
func TestReplicationControllerScalesLikeAReplicaSet(t *testing.T) {
	tests := []struct {
		kind                      api.Kind
		apiVersion, source, queue string
		create                    func(replicas int32) api.Object
		status                    func(r *rig) int32
	}{
		{api.KindReplicaSet, "apps/v1", "replicaset-controller", "replicaset",
			func(n int32) api.Object { return newRS("web", n, map[string]string{"app": "web"}) },
			func(r *rig) int32 { return r.rsStatus("web").Replicas }},
		{api.KindReplicationController, "v1", "replication-controller", "replicationmanager",
			func(n int32) api.Object { return newRC("web", n, map[string]string{"app": "web"}) },
			func(r *rig) int32 {
				o, ok := r.srv.Store().Object(api.KindReplicationController, "default", "web")
				require.True(t, ok)
				return o.(*api.ReplicationController).Status.Replicas
			}},
	}
	for _, tc := range tests {
		t.Run(string(tc.kind), func(t *testing.T) {
			events := &eventLog{}
			r := newRig(t, tc.kind, Config{Recorder: events})
			assert.Equal(t, tc.source, r.m.Name())
			assert.Equal(t, tc.queue, r.m.Queue().Name())

			mark := r.mark()
			r.do(apistore.Request{Verb: apistore.VerbCreate, Kind: tc.kind, Object: tc.create(3)})
			r.settle()
			assert.Equal(t, 3, r.tally(mark).creates)
			pods := r.podsOwnedBy("web")
			require.Len(t, pods, 3)
			owner, _ := r.srv.Store().Object(tc.kind, "default", "web")
			for _, p := range pods {
				ref := api.GetControllerOf(&p.Metadata)
				assert.Equal(t, string(tc.kind), ref.Kind)
				assert.Equal(t, tc.apiVersion, ref.APIVersion)
				assert.Equal(t, owner.Meta().UID, ref.UID)
			}
			assert.Equal(t, int32(3), tc.status(r))

			// Scale down to 1, as kubectl scale does.
			scaled := owner.DeepCopyObject()
			one := int32(1)
			switch o := scaled.(type) {
			case *api.ReplicaSet:
				o.Spec.Replicas = &one
			case *api.ReplicationController:
				o.Spec.Replicas = &one
			}
			scaled.Meta().ResourceVersion = ""
			mark = r.mark()
			r.do(apistore.Request{Verb: apistore.VerbUpdate, Kind: tc.kind, Object: scaled})
			r.settle()
			assert.Equal(t, 2, r.tally(mark).deletes)
			assert.Len(t, r.podsOwnedBy("web"), 1)
			assert.Equal(t, int32(1), tc.status(r))

			k := string(tc.kind)
			assert.Equal(t, []string{
				k + " Normal SuccessfulCreate", k + " Normal SuccessfulCreate", k + " Normal SuccessfulCreate",
				k + " Normal SuccessfulDelete", k + " Normal SuccessfulDelete",
			}, events.events)
		})
	}
}

// TestAdoptionKeepsTheCachedPod pins down a detail of upstream's ClaimPods:
// an adopted pod is counted as the cache listed it, not as the adoption
// patch returned it. Here the API server knows the orphan is running and
// ready, the cache still has it pending; the status the sync writes must say
// what the cache says (0 ready), as upstream's would.
func TestAdoptionKeepsTheCachedPod(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{}, func(r *rig) {
		r.storeRS(newRS("foobar", 1, fooBar))
		r.storePod(newPod("orphan", fooBar), api.PodPending)
	})
	// Straight into the store: the pod informer hears of it only after the
	// adoption patch, too late for this sync.
	pod, ok := r.srv.Store().Object(api.KindPod, "default", "orphan")
	require.True(t, ok)
	ready := pod.(*api.Pod).DeepCopy()
	ready.Status.Phase = api.PodRunning
	ready.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(r.k.Wall())}}
	_, err := r.srv.Store().UpdateStatus(ready)
	require.NoError(t, err)

	mark := r.mark()
	rec := r.syncOnce(foobarKey)
	require.Empty(t, rec.Err)
	got := r.tally(mark)
	assert.Equal(t, 1, got.patches, "adopted")
	assert.Zero(t, got.creates, "the adopted pod counts")
	status := r.rsStatus("foobar")
	assert.Equal(t, int32(1), status.Replicas)
	assert.Zero(t, status.ReadyReplicas, "the cache's pod is not ready yet")
}

// TestSyncReplicaSetDeleteFailure pins down how upstream's manageReplicas and
// RealPodControl.DeletePod treat a failed delete: the expectation for that
// pod is dropped at once (the informer will never see it go), the sync fails
// with the error wrapped as "unable to delete pods: …", and that text is the
// message of the ReplicaFailure condition (reason FailedDelete). The retry
// then deletes the pod.
func TestSyncReplicaSetDeleteFailure(t *testing.T) {
	r := startRig(t, api.KindReplicaSet, Config{}, func(r *rig) {
		seedFoobar(1, 2)(r)
		r.addFault(apistore.FaultRule{Verb: apistore.VerbDelete, Resource: "pods", Count: 1, Message: "fake Error"})
	})
	mark := r.mark()
	rec := r.syncOnce(foobarKey)
	assert.Equal(t, 1, r.tally(mark).deletes)
	assert.Equal(t, "unable to delete pods: Internal error occurred: fake Error", rec.Err)
	_, del := r.expectations(foobarKey)
	assert.Zero(t, del, "the failed delete is not waited for")
	assert.Empty(t, r.m.Expectations().GetUIDs(foobarKey))
	cond := GetCondition(r.rsStatus("foobar"), api.ReplicaFailure)
	require.NotNil(t, cond)
	assert.Equal(t, FailedDeletePodReason, cond.Reason)
	assert.Equal(t, "unable to delete pods: Internal error occurred: fake Error", cond.Message)

	r.settle()
	assert.Len(t, r.podsOwnedBy("foobar"), 1)
	assert.Nil(t, GetCondition(r.rsStatus("foobar"), api.ReplicaFailure))
}
