package world

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/controller"
	"github.com/reconcilelab/rlab/core/sim"
)

// End-to-end tests: whole worlds, driven by inputs as a learner gives them,
// judged by the API store (the truth) and by the components' views.

var web = map[string]string{"app": "web"}

// webWorld is a world with rs/web converged at n Ready pods.
func webWorld(t *testing.T, n int32) *World {
	t.Helper()
	w := fastWorld(t)
	createRS(t, w, replicaSet("web", n, web))
	settle(t, w)
	require.Len(t, owned(w, api.KindReplicaSet, "web"), int(n))
	require.Equal(t, int(n), ready(owned(w, api.KindReplicaSet, "web")))
	return w
}

func TestE2EScaleUpFromZero(t *testing.T) {
	w := fastWorld(t)
	createRS(t, w, replicaSet("web", 0, web))
	settle(t, w)
	assert.Empty(t, pods(w), "a ReplicaSet of 0 replicas creates nothing")
	st := rsStatus(t, w, "web")
	assert.Zero(t, st.Replicas)

	since := len(w.Server.Requests())
	scale(t, w, api.KindReplicaSet, "web", 5)
	settle(t, w)

	ps := owned(w, api.KindReplicaSet, "web")
	require.Len(t, ps, 5, "spec.replicas pods exist, each with the ReplicaSet as controller")
	for _, p := range ps {
		assert.Equal(t, api.PodRunning, p.Status.Phase)
		assert.True(t, isReady(p), "pod/%s is Ready after kubelet-start", p.Metadata.Name)
		assert.NotEmpty(t, p.Spec.NodeName, "the scheduler bound pod/%s", p.Metadata.Name)
		ref := api.GetControllerOf(&p.Metadata)
		require.NotNil(t, ref)
		assert.Equal(t, "apps/v1", ref.APIVersion)
		require.NotNil(t, ref.BlockOwnerDeletion)
		assert.True(t, *ref.BlockOwnerDeletion, "pods created from the template block their owner's foreground deletion")
		assert.Equal(t, "web-", p.Metadata.GenerateName, "pods are named from generateName <rs>-")
	}
	assert.Equal(t, 5, requests(w, since, "rs-worker", apistore.VerbCreate, "pods"), "slow start 1+2+2 creates, no more")
	st = rsStatus(t, w, "web")
	assert.Equal(t, int32(5), st.Replicas)
	assert.Equal(t, int32(5), st.FullyLabeledReplicas)
	assert.Equal(t, int32(5), st.ReadyReplicas)
	assert.Equal(t, int32(5), st.AvailableReplicas, "minReadySeconds 0: ready is available")
	o, _ := w.Store.Object(api.KindReplicaSet, "default", "web")
	assert.Equal(t, o.Meta().Generation, st.ObservedGeneration, "status.observedGeneration follows the scale's generation")
	assert.Len(t, events(w, "replicaset-controller", controller.SuccessfulCreatePodReason), 5, "one SuccessfulCreate Event per pod")
	assert.Zero(t, w.RS.Queue().Len())
	add, del, ok := w.RS.Expectations().GetExpectations("default/web")
	require.True(t, ok)
	assert.LessOrEqual(t, add, int64(0), "every create was observed")
	assert.LessOrEqual(t, del, int64(0))
}

func TestE2EScaleDownRanksUnscheduledAndNotReadyFirst(t *testing.T) {
	w := webWorld(t, 3)
	ps := owned(w, api.KindReplicaSet, "web")
	notReady := ps[1].Metadata.Name
	input(t, w, "set ready pod/"+notReady+" false", func(w *World) error {
		return w.Cluster.Kubelets.SetReady("default", notReady, false)
	})
	settle(t, w)
	require.False(t, isReady(pod(w, notReady)))
	assert.Equal(t, int32(2), rsStatus(t, w, "web").ReadyReplicas, "status.readyReplicas counts the Ready pods")

	// Cordon every node: the fourth pod cannot be scheduled.
	input(t, w, "cordon all", func(w *World) error {
		for _, n := range []string{"node-1", "node-2", "node-3"} {
			if _, err := w.Cluster.Cordon(n); err != nil {
				return err
			}
		}
		return nil
	})
	settle(t, w)
	scale(t, w, api.KindReplicaSet, "web", 4)
	settle(t, w)
	var unscheduled string
	for _, p := range owned(w, api.KindReplicaSet, "web") {
		if p.Spec.NodeName == "" {
			unscheduled = p.Metadata.Name
		}
	}
	require.NotEmpty(t, unscheduled, "with every node cordoned the new pod stays Pending and unbound")
	assert.Equal(t, api.PodPending, pod(w, unscheduled).Status.Phase)

	since := len(w.Server.Requests())
	scale(t, w, api.KindReplicaSet, "web", 2)
	settle(t, w)
	left := owned(w, api.KindReplicaSet, "web")
	require.Len(t, left, 2)
	assert.NotContains(t, names(left), unscheduled, "an unassigned pod is deleted before assigned ones (ActivePodsWithRanks rule 1)")
	assert.NotContains(t, names(left), notReady, "a not-ready pod is deleted before ready ones (rule 3)")
	assert.Equal(t, 2, requests(w, since, "rs-worker", apistore.VerbDelete, "pods"), "exactly the surplus is deleted")
	assert.Equal(t, 2, ready(left))
	st := rsStatus(t, w, "web")
	assert.Equal(t, int32(2), st.Replicas)
	assert.Equal(t, int32(2), st.ReadyReplicas)
	assert.Len(t, events(w, "replicaset-controller", controller.SuccessfulDeletePodReason), 2)
}

func TestE2EScaleDownPrefersDoubledUpPods(t *testing.T) {
	// Ranks count related pods on the same node; only a ReplicaSet with a
	// controller (a Deployment's) has related pods, its own among them.
	w := fastWorld(t)
	rs := replicaSet("web", 4, web)
	yes := true
	rs.Metadata.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "deployment-uid", Controller: &yes}}
	createRS(t, w, rs)
	settle(t, w)
	ps := owned(w, api.KindReplicaSet, "web")
	require.Len(t, ps, 4)
	require.Equal(t, map[string]int{"node-1": 2, "node-2": 1, "node-3": 1}, podsOnNode(ps), "the scheduler doubles up on the first of the least loaded nodes")

	scale(t, w, api.KindReplicaSet, "web", 3)
	settle(t, w)
	left := owned(w, api.KindReplicaSet, "web")
	require.Len(t, left, 3)
	assert.Equal(t, map[string]int{"node-1": 1, "node-2": 1, "node-3": 1}, podsOnNode(left),
		"a pod doubled up with a related pod on its node goes before the others (rank rule 5)")
}

func TestE2EPodDeletionCostSteersScaleDown(t *testing.T) {
	w := webWorld(t, 3)
	ps := owned(w, api.KindReplicaSet, "web")
	costs := map[string]string{ps[0].Metadata.Name: "300", ps[1].Metadata.Name: "100", ps[2].Metadata.Name: "200"}
	for name, c := range costs {
		patchPod(t, w, name, apistore.MetaPatch{SetAnnotations: map[string]string{api.PodDeletionCostAnnotation: c}})
	}
	settle(t, w)
	scale(t, w, api.KindReplicaSet, "web", 1)
	settle(t, w)
	left := owned(w, api.KindReplicaSet, "web")
	require.Len(t, left, 1)
	assert.Equal(t, ps[0].Metadata.Name, left[0].Metadata.Name, "the pods with the lowest pod-deletion-cost go first; the costliest stays")
}

func TestE2ECordonedNodeGetsNoReplacement(t *testing.T) {
	w := webWorld(t, 3)
	var victim string
	for _, p := range owned(w, api.KindReplicaSet, "web") {
		if p.Spec.NodeName == "node-1" {
			victim = p.Metadata.Name
		}
	}
	require.NotEmpty(t, victim)
	input(t, w, "cordon node-1", func(w *World) error { _, err := w.Cluster.Cordon("node-1"); return err })
	settle(t, w)
	killPod(t, w, victim)
	settle(t, w)
	ps := owned(w, api.KindReplicaSet, "web")
	require.Len(t, ps, 3)
	assert.Equal(t, map[string]int{"node-2": 2, "node-3": 1}, podsOnNode(ps),
		"the replacement avoids the cordoned node and lands on the first least loaded schedulable one")
	assert.Equal(t, 3, ready(ps))
}

func TestE2EKillPodIsReplaced(t *testing.T) {
	w := webWorld(t, 3)
	victim := owned(w, api.KindReplicaSet, "web")[0]
	since := len(w.Server.Requests())
	killPod(t, w, victim.Metadata.Name)
	settle(t, w)
	assert.Nil(t, pod(w, victim.Metadata.Name), "a pod deleted with grace 0 is removed at once")
	ps := owned(w, api.KindReplicaSet, "web")
	require.Len(t, ps, 3)
	assert.NotContains(t, names(ps), victim.Metadata.Name)
	assert.Equal(t, 3, ready(ps))
	assert.Equal(t, 1, requests(w, since, "rs-worker", apistore.VerbCreate, "pods"), "exactly one replacement")
	assert.Zero(t, requests(w, since, "rs-worker", apistore.VerbDelete, ""))
	st := rsStatus(t, w, "web")
	assert.Equal(t, int32(3), st.Replicas)
	assert.Equal(t, int32(3), st.ReadyReplicas)
	assert.Equal(t, int32(3), st.AvailableReplicas)
}

func TestE2EEvictedPodStaysAndIsReplaced(t *testing.T) {
	w := webWorld(t, 3)
	victim := owned(w, api.KindReplicaSet, "web")[0].Metadata.Name
	since := len(w.Server.Requests())
	input(t, w, "evict pod/"+victim, func(w *World) error { return w.Cluster.Kubelets.Evict("default", victim) })
	settle(t, w)
	p := pod(w, victim)
	require.NotNil(t, p, "an evicted pod stays in the API")
	assert.Equal(t, api.PodFailed, p.Status.Phase)
	assert.Equal(t, "Evicted", p.Status.Reason)
	assert.False(t, isReady(p))
	assert.False(t, isActive(p), "a Failed pod is not active")
	assert.Equal(t, "ReplicaSet/web", controllerOf(p), "the evicted pod keeps its controller reference")
	ps := owned(w, api.KindReplicaSet, "web")
	require.Len(t, ps, 3, "the ReplicaSet replaces it: inactive pods do not count")
	assert.NotContains(t, names(ps), victim)
	assert.Equal(t, 3, ready(ps))
	assert.Equal(t, 1, requests(w, since, "rs-worker", apistore.VerbCreate, "pods"))
	assert.Zero(t, requests(w, since, "rs-worker", apistore.VerbDelete, ""), "the controller never deletes a Failed pod")
	assert.Len(t, pods(w), 4)
	assert.Equal(t, int32(3), rsStatus(t, w, "web").Replicas, "status.replicas counts only active pods")
}

func TestE2ECrashedContainerIsRestartedNotReplaced(t *testing.T) {
	w := webWorld(t, 3)
	victim := owned(w, api.KindReplicaSet, "web")[0].Metadata.Name
	since := len(w.Server.Requests())
	input(t, w, "crash pod/"+victim, func(w *World) error { return w.Cluster.Kubelets.Crash("default", victim) })
	// Right after the crash is reported, the pod is not Ready and the
	// ReplicaSet says so.
	_, err := w.RunUntil("crash reported", func(sim.StepResult) bool {
		p := pod(w, victim)
		return !isReady(p) && rsStatus(t, w, "web").ReadyReplicas == 2
	}, sim.Limits{}, false)
	require.NoError(t, err, "a crashed pod is reported not Ready and status.readyReplicas drops")
	settle(t, w)
	p := pod(w, victim)
	require.NotNil(t, p)
	require.Len(t, p.Status.ContainerStatuses, 1)
	assert.Equal(t, int32(1), p.Status.ContainerStatuses[0].RestartCount, "the kubelet restarts the container in place")
	assert.True(t, isReady(p))
	assert.Equal(t, api.PodRunning, p.Status.Phase)
	assert.Len(t, pods(w), 3, "nothing is replaced: the pod stays active throughout")
	assert.Zero(t, requests(w, since, "rs-worker", apistore.VerbCreate, ""), "no create request")
	assert.Zero(t, requests(w, since, "rs-worker", apistore.VerbDelete, ""))
	assert.Equal(t, int32(3), rsStatus(t, w, "web").ReadyReplicas)
}

func TestE2EGracefulDeleteReplacedAtOnce(t *testing.T) {
	w := webWorld(t, 3)
	victim := owned(w, api.KindReplicaSet, "web")[0].Metadata.Name
	deletePod(t, w, victim, nil)
	start := w.Kernel.Now()
	_, err := w.RunUntil("replacement created", func(sim.StepResult) bool {
		return len(owned(w, api.KindReplicaSet, "web")) == 3 && !slices.Contains(names(owned(w, api.KindReplicaSet, "web")), victim)
	}, sim.Limits{}, false)
	require.NoError(t, err)
	old := pod(w, victim)
	require.NotNil(t, old, "the old pod is still in the API while its kubelet stops it")
	require.NotNil(t, old.Metadata.DeletionTimestamp, "it is terminating")
	assert.Less(t, w.Kernel.Now()-start, 100*time.Millisecond,
		"the replacement comes at once: deletionTimestamp makes the pod inactive, it does not wait for the removal")
	assert.Equal(t, int32(30), int32(*old.Metadata.DeletionGracePeriodSeconds), "the default grace period is 30s")

	steps := runRecording(t, w, sim.Limits{})
	assert.Nil(t, pod(w, victim), "the kubelet removes the pod after kubelet-stop")
	removed := stepsOf(steps, "apiserver", "", "delete pods default/"+victim)
	require.NotEmpty(t, removed)
	gone := removed[len(removed)-1].At
	assert.InDelta(t, float64(time.Second), float64(gone-start), float64(20*time.Millisecond), "removed kubelet-stop (1s) after the delete, not after the 30s grace period")
	ps := owned(w, api.KindReplicaSet, "web")
	require.Len(t, ps, 3)
	assert.Equal(t, 3, ready(ps))
}

func TestE2ERelabeledPodIsReleasedReplacedAndAdopted(t *testing.T) {
	w := webWorld(t, 3)
	victim := owned(w, api.KindReplicaSet, "web")[0]
	name := victim.Metadata.Name
	since := len(w.Server.Requests())
	patchPod(t, w, name, apistore.MetaPatch{SetLabels: map[string]string{"app": "canary"}})
	settle(t, w)

	p := pod(w, name)
	require.NotNil(t, p, "relabeling does not delete the pod")
	assert.Empty(t, p.Metadata.OwnerReferences, "rs/web released it: its controller reference was removed by a patch")
	assert.Equal(t, 1, requests(w, since, "rs-worker", apistore.VerbPatch, "pods"), "one release patch")
	assert.True(t, isActive(p) && isReady(p), "the released pod keeps running")
	ps := owned(w, api.KindReplicaSet, "web")
	require.Len(t, ps, 3, "rs/web replaced it")
	assert.NotContains(t, names(ps), name)
	assert.Equal(t, 1, requests(w, since, "rs-worker", apistore.VerbCreate, "pods"))
	assert.Equal(t, 3, ready(ps))

	// A ReplicaSet whose selector now matches the orphan adopts it instead
	// of creating a pod.
	since = len(w.Server.Requests())
	createRS(t, w, replicaSet("canary", 1, map[string]string{"app": "canary"}))
	settle(t, w)
	canary := owned(w, api.KindReplicaSet, "canary")
	require.Len(t, canary, 1)
	assert.Equal(t, name, canary[0].Metadata.Name, "rs/canary adopted the orphan")
	assert.Equal(t, victim.Metadata.UID, canary[0].Metadata.UID, "the very same pod")
	ref := api.GetControllerOf(&canary[0].Metadata)
	require.NotNil(t, ref)
	o, _ := w.Store.Object(api.KindReplicaSet, "default", "canary")
	assert.Equal(t, o.Meta().UID, ref.UID, "the adoption patch names the new owner's uid")
	assert.Zero(t, requests(w, since, "rs-worker", apistore.VerbCreate, "pods"), "adopting, not creating")
	assert.Equal(t, 1, requests(w, since, "rs-worker", apistore.VerbPatch, "pods"), "one adoption patch")
	var sequence []string
	for _, r := range w.Server.Requests()[since:] {
		if r.From == "kubectl" || !strings.HasPrefix(r.From, "rs-worker") {
			continue
		}
		sequence = append(sequence, string(r.Verb)+" "+r.Resource)
	}
	require.GreaterOrEqual(t, len(sequence), 2)
	assert.Equal(t, []string{"get replicasets", "patch pods"}, sequence[:2],
		"the adopter is read fresh from the API server (RecheckDeletionTimestamp) before the adoption patch")
	assert.Len(t, owned(w, api.KindReplicaSet, "web"), 3, "rs/web is not disturbed")
	assert.Equal(t, int32(1), rsStatus(t, w, "canary").ReadyReplicas)
}

func TestE2EBarePodIsAdopted(t *testing.T) {
	t.Run("before the ReplicaSet: counted", func(t *testing.T) {
		w := fastWorld(t)
		createPod(t, w, barePod("bare", map[string]string{"app": "web"}))
		settle(t, w)
		require.True(t, isReady(pod(w, "bare")))
		since := len(w.Server.Requests())
		createRS(t, w, replicaSet("web", 3, web))
		settle(t, w)
		ps := owned(w, api.KindReplicaSet, "web")
		require.Len(t, ps, 3)
		assert.Contains(t, names(ps), "bare", "a matching orphan is adopted: ownerReference added")
		assert.Equal(t, "ReplicaSet/web", controllerOf(pod(w, "bare")))
		assert.Equal(t, 2, requests(w, since, "rs-worker", apistore.VerbCreate, "pods"), "the adopted pod counts: only 2 are created")
		assert.Equal(t, int32(3), rsStatus(t, w, "web").ReadyReplicas)
	})
	t.Run("after the ReplicaSet: adopted, then the surplus goes", func(t *testing.T) {
		w := webWorld(t, 3)
		before := names(owned(w, api.KindReplicaSet, "web"))
		since := len(w.Server.Requests())
		createPod(t, w, barePod("bare", map[string]string{"app": "web"}))
		settle(t, w)
		assert.Equal(t, 1, requests(w, since, "rs-worker", apistore.VerbPatch, "pods"), "rs/web adopts the orphan")
		assert.Equal(t, 1, requests(w, since, "rs-worker", apistore.VerbDelete, "pods"), "and, owning 4 of 3, deletes one")
		ps := owned(w, api.KindReplicaSet, "web")
		require.Len(t, ps, 3)
		assert.Equal(t, before, names(ps),
			"the adopted pod, the only one not yet Ready (or not yet scheduled), is the one deleted")
		assert.Zero(t, requests(w, since, "rs-worker", apistore.VerbCreate, ""))
	})
}

func TestE2ECreateQuotaSlowStartAndHeal(t *testing.T) {
	w := fastWorld(t)
	key := "default/web"
	input(t, w, "fail create pods --always --after=10 --error=quota", func(w *World) error {
		_, err := w.Store.Faults().Add(apistore.FaultRule{Verb: apistore.VerbCreate, Resource: "pods", After: 10, Always: true, Error: apistore.FaultQuota})
		return err
	})
	since := len(w.Server.Requests())
	createRS(t, w, replicaSet("web", 100, web))
	rec, err := w.UntilSync(api.KindReplicaSet, "default", "web", sim.Limits{})
	require.NoError(t, err)
	require.NotEmpty(t, rec.Err, "the first sync fails: its creates hit the quota")
	assert.Contains(t, rec.Err, "exceeded quota")
	assert.Len(t, pods(w), 10, "exactly the 10 creates the quota allows succeed")
	creates := requests(w, since, "rs-worker", apistore.VerbCreate, "pods")
	assert.LessOrEqual(t, creates, 15, "slow start stops at the first failing batch: 1+2+4+8, not 100 (TestSyncReplicaSetCreateFailures)")
	assert.Equal(t, 15, creates)
	st := rsStatus(t, w, "web")
	cond := rsCondition(st, api.ReplicaFailure)
	require.NotNil(t, cond, "the failed sync reports ReplicaFailure")
	assert.Equal(t, api.ConditionTrue, cond.Status)
	assert.Equal(t, "FailedCreate", cond.Reason, "fewer pods than wanted: FailedCreate")
	assert.Contains(t, cond.Message, "exceeded quota")
	assert.Zero(t, st.Replicas, "the status counts the pods the sync saw before it created any")
	assert.Equal(t, 1, w.RS.Queue().NumRequeues(key), "the failed sync was requeued with back-off")
	add, _, _ := w.RS.Expectations().GetExpectations(key)
	assert.LessOrEqual(t, add, int64(0), "the 90 creates that failed or were skipped lowered the expectations: only real pods are waited for")

	// The Events are written by the recorder after the sync: one per
	// refused create, each naming its pod, so none merge.
	_, err = w.RunUntil("FailedCreate events", func(sim.StepResult) bool {
		return len(events(w, "replicaset-controller", controller.FailedCreatePodReason)) >= 5
	}, sim.Limits{}, false)
	require.NoError(t, err)
	msgs := map[string]bool{}
	for _, e := range events(w, "replicaset-controller", controller.FailedCreatePodReason) {
		assert.Equal(t, api.EventWarning, e.Type)
		assert.Contains(t, e.Message, "exceeded quota")
		msgs[e.Message] = true
	}
	assert.GreaterOrEqual(t, len(msgs), 5, "quota refusals name the generated pod, so the Events do not merge")

	// Every later sync fails at its first create; none succeeds, so none
	// calls Forget, and NumRequeues counts them all.
	cur, _ := w.RS.LastSync(key)
	last, prev := cur.Seq, w.RS.Queue().NumRequeues(key)
	require.Positive(t, prev)
	failed := 0
	_, err = w.RunUntil("failing syncs", func(sim.StepResult) bool {
		r, _ := w.RS.LastSync(key)
		if r.Seq == last {
			return false
		}
		last = r.Seq
		require.NotEmpty(t, r.Err, "every sync fails while the quota is full")
		n := w.RS.Queue().NumRequeues(key)
		require.Equal(t, prev+1, n, "NumRequeues counts each failed sync")
		prev = n
		failed++
		return failed == 10
	}, sim.Limits{MaxTime: time.Hour}, false)
	require.NoError(t, err)
	assert.Len(t, pods(w), 10, "no pod got through while the quota was full")
	assert.Equal(t, "FailedCreate", rsCondition(rsStatus(t, w, "web"), api.ReplicaFailure).Reason)

	input(t, w, "heal create pods", func(w *World) error {
		w.Store.Faults().Heal(apistore.VerbCreate, "pods")
		return nil
	})
	_, err = w.Stabilize(sim.Limits{MaxTime: time.Hour})
	require.NoError(t, err)
	ps := owned(w, api.KindReplicaSet, "web")
	assert.Len(t, ps, 100, "healed: the next retry creates the rest")
	assert.Equal(t, 100, ready(ps))
	st = rsStatus(t, w, "web")
	assert.Nil(t, rsCondition(st, api.ReplicaFailure), "a successful sync removes ReplicaFailure")
	assert.Equal(t, int32(100), st.ReadyReplicas)
	assert.Equal(t, int32(100), st.AvailableReplicas)
	assert.Zero(t, w.RS.Queue().NumRequeues(key), "a successful sync Forgets the key's failures")
	assert.Zero(t, w.RS.Queue().Len())
}

func TestE2ECreateFailureBackoffDoubles(t *testing.T) {
	w := webWorld(t, 3)
	key := "default/web"
	input(t, w, "fail create pods --always", func(w *World) error {
		_, err := w.Store.Faults().Add(apistore.FaultRule{Verb: apistore.VerbCreate, Resource: "pods", Always: true})
		return err
	})
	scale(t, w, api.KindReplicaSet, "web", 5)

	// With the pods at rest, nothing but the back-off wakes the key once the
	// first failed sync's status write (ReplicaFailure) has been seen.
	type failure struct {
		rec      controller.SyncRecord
		requeues int
		delayed  []string
	}
	var fails []failure
	var last int
	if r, ok := w.RS.LastSync(key); ok {
		last = r.Seq
	}
	_, err := w.RunUntil("failing syncs", func(sim.StepResult) bool {
		r, _ := w.RS.LastSync(key)
		if r.Seq == last {
			return false
		}
		last = r.Seq
		f := failure{rec: r, requeues: w.RS.Queue().NumRequeues(key)}
		for _, d := range w.RS.Queue().View().Delayed {
			f.delayed = append(f.delayed, d.Key+" in "+d.Delay.String())
		}
		fails = append(fails, f)
		return len(fails) == 10
	}, sim.Limits{MaxTime: time.Hour}, false)
	require.NoError(t, err)
	for i, f := range fails {
		require.NotEmpty(t, f.rec.Err, "sync %d fails", i+1)
		assert.Equal(t, i+1, f.requeues, "NumRequeues is 1, 2, 3, … across the failing syncs")
	}
	// The first failure writes ReplicaFailure; that update wakes the key at
	// once (updateRS), and the second sync's 10ms retry is absorbed by the
	// first's 5ms one, which is due earlier. From then on each retry comes
	// exactly When after the failure before it: 5ms·2^(failures-1).
	assert.Equal(t, fails[0].rec.End, fails[1].rec.Start, "the status write of the first failure wakes the key at once")
	assert.Equal(t, fails[0].rec.End+5*time.Millisecond, fails[2].rec.Start, "5ms after the first failure")
	for i := 2; i+1 < len(fails); i++ {
		when := 5 * time.Millisecond << (fails[i].requeues - 1)
		assert.Equal(t, []string{key + " in " + when.String()}, fails[i].delayed, "the rate-limited requeue of failure %d waits %v", fails[i].requeues, when)
		assert.Equal(t, fails[i].rec.End+when, fails[i+1].rec.Start, "failure %d: the retry starts when its %v back-off ends", fails[i].requeues, when)
	}
	assert.Equal(t, 3, len(pods(w)))
}

func TestE2EReplicationControllerBesideReplicaSet(t *testing.T) {
	w := fastWorld(t)
	createRS(t, w, replicaSet("web", 2, web))
	createRC(t, w, replicationController("db", 3, map[string]string{"app": "db"}))
	settle(t, w)

	rsPods := owned(w, api.KindReplicaSet, "web")
	rcPods := owned(w, api.KindReplicationController, "db")
	require.Len(t, rsPods, 2)
	require.Len(t, rcPods, 3)
	assert.Len(t, pods(w), 5, "each owns only its own pods")
	for _, p := range rsPods {
		ref := api.GetControllerOf(&p.Metadata)
		assert.Equal(t, "apps/v1", ref.APIVersion)
		assert.Equal(t, "ReplicaSet", ref.Kind)
	}
	for _, p := range rcPods {
		ref := api.GetControllerOf(&p.Metadata)
		assert.Equal(t, "v1", ref.APIVersion, "an RC's pods name the core/v1 kind")
		assert.Equal(t, "ReplicationController", ref.Kind)
		assert.Equal(t, "db-", p.Metadata.GenerateName)
	}
	st := rcStatus(t, w, "db")
	assert.Equal(t, int32(3), st.Replicas)
	assert.Equal(t, int32(3), st.ReadyReplicas)
	assert.Equal(t, int32(3), st.AvailableReplicas)
	assert.Equal(t, int32(2), rsStatus(t, w, "web").ReadyReplicas)
	assert.Len(t, events(w, "replicaset-controller", controller.SuccessfulCreatePodReason), 2)
	assert.Len(t, events(w, "replication-controller", controller.SuccessfulCreatePodReason), 3, "the RC's Events come from replication-controller")
	for _, e := range events(w, "replication-controller", "") {
		assert.Equal(t, "ReplicationController", e.InvolvedObject.Kind)
	}
	assert.Equal(t, "replicaset", w.RS.Queue().View().Name)
	assert.Equal(t, "replicationmanager", w.RC.Queue().View().Name)

	// Kill one of each: each controller replaces only its own.
	killPod(t, w, rsPods[0].Metadata.Name)
	killPod(t, w, rcPods[0].Metadata.Name)
	settle(t, w)
	assert.Len(t, owned(w, api.KindReplicaSet, "web"), 2)
	assert.Len(t, owned(w, api.KindReplicationController, "db"), 3)
}

func TestE2EOverlappingSelectorsDoNotFight(t *testing.T) {
	w := fastWorld(t)
	a := replicaSet("a", 2, web)
	a.Spec.Template.Metadata.Labels = map[string]string{"app": "web", "v": "a"}
	b := replicaSet("b", 3, web)
	b.Spec.Template.Metadata.Labels = map[string]string{"app": "web", "v": "b"}
	createRS(t, w, a)
	createRS(t, w, b)
	settle(t, w)
	since := len(w.Server.Requests())
	pa, pb := owned(w, api.KindReplicaSet, "a"), owned(w, api.KindReplicaSet, "b")
	require.Len(t, pa, 2)
	require.Len(t, pb, 3)
	for _, p := range pa {
		assert.Equal(t, "a", p.Metadata.Labels["v"], "rs/a owns only pods it created")
	}
	for _, p := range pb {
		assert.Equal(t, "b", p.Metadata.Labels["v"], "rs/b owns only pods it created")
	}
	assert.Len(t, pods(w), 5)

	// Disturb them: scale and kill; the ControllerRef keeps each to its own.
	scale(t, w, api.KindReplicaSet, "a", 3)
	killPod(t, w, pb[0].Metadata.Name)
	settle(t, w)
	assert.Len(t, owned(w, api.KindReplicaSet, "a"), 3)
	assert.Len(t, owned(w, api.KindReplicaSet, "b"), 3)
	assert.Len(t, pods(w), 6)
	assert.Zero(t, requests(w, since, "rs-worker", apistore.VerbPatch, ""), "nobody adopts or releases: the ControllerRef wins")
	assert.Zero(t, requests(w, since, "rs-worker", apistore.VerbDelete, ""), "no fighting: nothing is deleted")
	assert.Equal(t, 2, requests(w, since, "rs-worker", apistore.VerbCreate, "pods"))
	assert.Equal(t, int32(3), rsStatus(t, w, "a").Replicas)
	assert.Equal(t, int32(3), rsStatus(t, w, "b").Replicas)
}

func TestE2EDeleteReplicaSetCascade(t *testing.T) {
	t.Run("background", func(t *testing.T) {
		w := webWorld(t, 3)
		ps := names(owned(w, api.KindReplicaSet, "web"))
		since := len(w.Server.Requests())
		deleteOwner(t, w, api.KindReplicaSet, "web", apistore.DeletePropagationBackground)
		settle(t, w)
		_, ok := w.Store.Object(api.KindReplicaSet, "default", "web")
		assert.False(t, ok, "the owner is removed at once")
		assert.Empty(t, pods(w), "the garbage collector deletes its pods afterwards")
		log := w.Server.Requests()[since:]
		ownerGone, firstPodDelete := -1, -1
		for i, r := range log {
			if r.Verb == apistore.VerbDelete && r.Resource == "replicasets" && r.Outcome == "ok" && ownerGone < 0 {
				ownerGone = i
			}
			if r.Verb == apistore.VerbDelete && r.Resource == "pods" && r.From == w.GC.Name() && firstPodDelete < 0 {
				firstPodDelete = i
			}
		}
		require.GreaterOrEqual(t, ownerGone, 0)
		require.GreaterOrEqual(t, firstPodDelete, 0, "the pods are deleted by the garbage collector")
		assert.Less(t, ownerGone, firstPodDelete, "after the owner")
		assert.Equal(t, len(ps), requests(w, since, w.GC.Name(), apistore.VerbDelete, "pods"), "one delete per dependent")
		assert.Zero(t, requests(w, since, "rs-worker", apistore.VerbCreate, ""), "the gone ReplicaSet creates nothing")
		add, del, ok := w.RS.Expectations().GetExpectations("default/web")
		assert.False(t, ok, "its expectations are dropped (%d, %d)", add, del)
	})
	t.Run("orphan", func(t *testing.T) {
		w := webWorld(t, 3)
		ps := names(owned(w, api.KindReplicaSet, "web"))
		deleteOwner(t, w, api.KindReplicaSet, "web", apistore.DeletePropagationOrphan)
		settle(t, w)
		_, ok := w.Store.Object(api.KindReplicaSet, "default", "web")
		assert.False(t, ok, "the owner goes once the orphan finalizer is done")
		left := pods(w)
		require.Len(t, left, 3, "the pods stay")
		assert.Equal(t, ps, names(left))
		for _, p := range left {
			assert.Empty(t, p.Metadata.OwnerReferences, "pod/%s has no owner reference any more", p.Metadata.Name)
			assert.True(t, isActive(p) && isReady(p))
		}
		// A new ReplicaSet with the same selector adopts them.
		since := len(w.Server.Requests())
		createRS(t, w, replicaSet("web", 3, web))
		settle(t, w)
		assert.Equal(t, ps, names(owned(w, api.KindReplicaSet, "web")), "the orphans are adopted by the new ReplicaSet")
		assert.Zero(t, requests(w, since, "rs-worker", apistore.VerbCreate, "pods"))
	})
}

func TestE2EDroppedDeleteEventRelistTombstone(t *testing.T) {
	w := webWorld(t, 3)
	victim := owned(w, api.KindReplicaSet, "web")[0].Metadata.Name
	input(t, w, "drop watch pods --count=2", func(w *World) error { w.Pods.DropNextEvents(2); return nil })
	killPod(t, w, victim)
	settle(t, w)
	assert.Nil(t, pod(w, victim), "the pod is gone from the API")
	_, cached := w.Pods.Lister().Get("default", victim)
	assert.True(t, cached, "the informer lost both events (MODIFIED, DELETED): its cache still holds the pod")
	assert.Len(t, owned(w, api.KindReplicaSet, "web"), 2, "so the ReplicaSet does not know it must replace it")
	assert.Equal(t, 2, w.Pods.View().Faults.Lost)

	input(t, w, "expire watch pods", func(w *World) error { w.Pods.ExpireWatch(); return nil })
	steps := runRecording(t, w, sim.Limits{})
	assert.NotEmpty(t, stepsOf(steps, "informer/pods", "processDeltas", "tombstone"), "the relist finds the pod missing: a tombstone")
	assert.NotEmpty(t, stepsOf(steps, "rs-controller", "deletePod", "tombstone"), "the ReplicaSet's deletePod unwraps the tombstone")
	_, cached = w.Pods.Lister().Get("default", victim)
	assert.False(t, cached)
	ps := owned(w, api.KindReplicaSet, "web")
	require.Len(t, ps, 3, "and the ReplicaSet converges again")
	assert.Equal(t, 3, ready(ps))
	assert.Equal(t, int32(3), rsStatus(t, w, "web").ReadyReplicas)
}

func TestE2ESeekBackAndForthReplaysExactly(t *testing.T) {
	// The one test with timeline snapshots: a busy run with faults of every
	// kind, then seeks in every direction. Each visited step must show the
	// very world that was there the first time.
	w := newWorld(t, Config{Seed: 11, SnapshotEvery: 32})
	type point struct {
		step uint64
		fp   string
	}
	var points []point
	mark := func() { points = append(points, point{w.Kernel.Steps(), fingerprint(t, w)}) }
	steps := func(n int) {
		for range n {
			_, ok := w.Step()
			require.True(t, ok)
		}
	}

	createRS(t, w, replicaSet("web", 3, web))
	createRC(t, w, replicationController("db", 2, map[string]string{"app": "db"}))
	mark()
	steps(57)
	mark()
	settle(t, w)

	ps := owned(w, api.KindReplicaSet, "web")
	input(t, w, "fail create pods --count=2", func(w *World) error {
		_, err := w.Store.Faults().Add(apistore.FaultRule{Verb: apistore.VerbCreate, Resource: "pods", Count: 2})
		return err
	})
	killPod(t, w, ps[0].Metadata.Name)
	mark()
	steps(40)
	mark()
	settle(t, w)

	input(t, w, "drop watch pods --count=2", func(w *World) error { w.Pods.DropNextEvents(2); return nil })
	killPod(t, w, owned(w, api.KindReplicaSet, "web")[0].Metadata.Name)
	settle(t, w)
	input(t, w, "expire watch pods", func(w *World) error { w.Pods.ExpireWatch(); return nil })
	mark()
	steps(25)
	mark()
	settle(t, w)

	ps = owned(w, api.KindReplicaSet, "web")
	patchPod(t, w, ps[0].Metadata.Name, apistore.MetaPatch{SetLabels: map[string]string{"app": "other"}})
	input(t, w, "evict pod/"+ps[1].Metadata.Name, func(w *World) error { return w.Cluster.Kubelets.Evict("default", ps[1].Metadata.Name) })
	input(t, w, "crash pod/"+ps[2].Metadata.Name, func(w *World) error { return w.Cluster.Kubelets.Crash("default", ps[2].Metadata.Name) })
	scale(t, w, api.KindReplicationController, "db", 4)
	mark()
	settle(t, w)
	mark()
	end := w.Kernel.Steps()
	require.Equal(t, 3, len(owned(w, api.KindReplicaSet, "web")))
	require.Equal(t, 4, len(owned(w, api.KindReplicationController, "db")))

	order := []int{3, 0, len(points) - 1, 1, 5, 2, 6, 4, 7, 0, len(points) - 1}
	for _, i := range order {
		p := points[i]
		require.NoError(t, w.Seek(p.step), "seek to step %d", p.step)
		require.Equal(t, p.step, w.Kernel.Steps())
		require.Equal(t, p.fp, fingerprint(t, w), "the world at step %d is the one first seen there", p.step)
	}
	assert.Equal(t, end, w.RecordedSteps(), "seeking records no new steps")

	// Seek forward from the start through the whole run: the recorded
	// inputs are replayed at their boundaries.
	require.NoError(t, w.Seek(0))
	require.NoError(t, w.Seek(end))
	assert.Equal(t, points[len(points)-1].fp, fingerprint(t, w))
	assert.Len(t, w.Inputs(), 11, "every input is recorded once")
}

// TestSeekThroughABurstReplaysExactly seeks back and forth through a burst
// large enough to spread the agenda's busiest lane and the pods' watch
// history over several chunks each (a ReplicaSet of 600 replicas creates
// up to 512 pods at once, and every pod is written several times), with
// timeline snapshots taken and restored in the middle of the burst. Every
// visited step must show the very world that was there the first time.
func TestSeekThroughABurstReplaysExactly(t *testing.T) {
	w := newWorld(t, Config{Seed: 5, SnapshotEvery: 500})
	createRS(t, w, replicaSet("big", 600, web))
	var steps []uint64
	fps := map[uint64]string{}
	for n := 0; ; n++ {
		_, ok := w.Step()
		if !ok || !w.Kernel.Busy() {
			break
		}
		if n%1777 == 0 {
			steps = append(steps, w.Kernel.Steps())
			fps[w.Kernel.Steps()] = fingerprint(t, w)
		}
	}
	require.Len(t, owned(w, api.KindReplicaSet, "big"), 600)
	require.Greater(t, len(steps), 8, "the burst is long enough to seek through")
	end := w.Kernel.Steps()
	endFP := fingerprint(t, w)
	order := []int{len(steps) - 1, 0, len(steps) / 2, 1, len(steps) - 2, len(steps) / 2, 2}
	for _, i := range order {
		n := steps[i]
		require.NoError(t, w.Seek(n), "seek to step %d", n)
		require.Equal(t, fps[n], fingerprint(t, w), "the world at step %d is the one first seen there", n)
	}
	require.NoError(t, w.Seek(end))
	assert.Equal(t, endFP, fingerprint(t, w), "the end, reached again by replay")
}
