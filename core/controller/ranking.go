package controller

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sorting"
)

// When a ReplicaSet has too many pods it must choose which to delete. This file
// holds the order it chooses by: upstream's ActivePodsWithRanks (and, for
// comparison, the older ActivePods) from pkg/controller/controller_utils.go,
// and getPodsToDelete from pkg/controller/replicaset/replica_set.go.
//
// The idea of the order is "delete the pod whose loss hurts least": one that is
// not running anywhere yet, then one still starting, then one not ready, then
// one the user marked cheap, then one doubled up on a crowded node, then the
// youngest.

// RankingGates switches the two parts of the deletion order that upstream
// puts behind feature gates. The zero value is upstream's default in v1.31:
// both on. A world turns one off to show what the order was before it.
type RankingGates struct {
	// DisablePodDeletionCost ignores the pod-deletion-cost annotation (the
	// PodDeletionCost gate, on by default since v1.22).
	DisablePodDeletionCost bool

	// DisableLogarithmicScaleDown compares ready and creation times exactly
	// instead of by power-of-two age buckets (the LogarithmicScaleDown gate,
	// on by default since v1.22).
	DisableLogarithmicScaleDown bool
}

// podPhaseOrdinal orders phases for deletion: Pending before Unknown before
// Running. Any other phase, including the empty one, counts as Pending, as a
// missing key in upstream's podPhaseToOrdinal map reads as 0.
func podPhaseOrdinal(phase string) int8 {
	switch phase {
	case api.PodUnknown:
		return 1
	case api.PodRunning:
		return 2
	}
	return 0
}

// deletionKey is everything the deletion order looks at for one pod, computed
// once. Upstream's Less recomputes readiness, the ready time, the annotation
// parse and the restart count on every comparison, that is O(n log n) times;
// computing them once per pod gives the same answers (each is a function of
// the pod, its rank and the reference time alone) at a fraction of the cost,
// which matters when a scale-down ranks thousands of pods.
type deletionKey struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	pod  *api.Pod
	rank int

	unassigned bool // spec.nodeName is empty
	phase      int8 // podPhaseOrdinal
	ready      bool
	cost       int32 // getDeletionCost

	readyTime     time.Time // podReadyTime: zero when not ready or unknown
	readyBucket   int64     // logBucket(readyTime)
	restarts      int       // maxContainerRestarts
	created       time.Time
	createdBucket int64 // logBucket(created)
}

// newDeletionKey computes the key of pod, of the given rank, against now.
func newDeletionKey(pod *api.Pod, rank int, now time.Time) deletionKey {
	k := deletionKey{
		pod:        pod,
		rank:       rank,
		unassigned: pod.Spec.NodeName == "",
		phase:      podPhaseOrdinal(pod.Status.Phase),
		ready:      IsPodReady(pod),
		cost:       getDeletionCost(pod),
		readyTime:  podReadyTime(pod),
		restarts:   maxContainerRestarts(pod),
		created:    pod.Metadata.CreationTimestamp.Time,
	}
	k.readyBucket = logBucket(k.readyTime, now)
	k.createdBucket = logBucket(k.created, now)
	return k
}

// logBucket is the power-of-two age bucket of t at now: floor(log2(now−t)),
// the age in nanoseconds, or −1 when t is not before now. It models the ranks
// upstream's logarithmicRankDiff computes, and computes them the same way, with
// math.Log2 on a float64, so it agrees with upstream even where float rounding
// puts an age a hair below a power of two into the bucket above (ages from
// about 2^50 ns, some 13 days, up). The bucket is only consulted when now and
// t are both non-zero, so what it says for a zero time does not matter.
func logBucket(t, now time.Time) int64 {
	d := now.Sub(t)
	if d <= 0 {
		return -1
	}
	return int64(math.Log2(float64(d)))
}

// compareForDeletion orders two pods for deletion: negative when a should be
// deleted before b, positive when after, zero when the order cannot tell them
// apart. It is upstream's ActivePodsWithRanks.Less written as a three-way
// comparison; each rule is antisymmetric, so Less(i, j) is exactly
// compareForDeletion(i, j) < 0. The first rule that tells the pods apart
// decides:
//
//  1. An unassigned pod (no node yet) before an assigned one.
//  2. Pending before Unknown before Running.
//  3. Not ready before ready.
//  4. Lower pod-deletion-cost before higher (unless the gate is off).
//  5. Higher rank before lower: the rank is how many active related pods share
//     the pod's node, so a pod doubled up on a crowded node goes first.
//  6. Both ready: the more recently ready first, a missing ready time counting
//     as the most recent. With logarithmic scale-down (and a non-zero now and
//     both times known) the times are compared by age bucket, and two pods in
//     the same bucket are ordered by UID and nothing else, so that scaling
//     down does not always pick the very youngest pod but a pseudo-random one
//     of about the same age. Two equal UIDs then leave the pods equal: the
//     rules below are not consulted.
//  7. More container restarts before fewer.
//  8. The more recently created first, a zero creation time counting as the
//     most recent, with the same logarithmic bucketing and UID tie-break as
//     rule 6.
//  9. Otherwise the pods are equal.
//
// With logarithmic scale-down the order is not always transitive (two pods
// with equal ready times fall through to rule 7 while a third in the same
// bucket is ordered by UID against each), as upstream's is not; a stable sort
// still gives one deterministic answer for one input order.
func compareForDeletion(a, b *deletionKey, now time.Time, gates RankingGates) int {
	// 1. Unassigned < assigned.
	if a.unassigned != b.unassigned {
		return before(a.unassigned)
	}
	// 2. Pending < Unknown < Running.
	if a.phase != b.phase {
		return before(a.phase < b.phase)
	}
	// 3. Not ready < ready.
	if a.ready != b.ready {
		return before(!a.ready)
	}
	// 4. Lower pod-deletion-cost < higher.
	if !gates.DisablePodDeletionCost && a.cost != b.cost {
		return before(a.cost < b.cost)
	}
	// 5. Doubled up < not doubled up.
	if a.rank != b.rank {
		return before(a.rank > b.rank)
	}
	// 6. Ready for a shorter time < longer.
	if a.ready && b.ready && !a.readyTime.Equal(b.readyTime) {
		return compareAges(a, b, a.readyTime, b.readyTime, a.readyBucket, b.readyBucket, now, gates)
	}
	// 7. More restarts < fewer.
	if a.restarts != b.restarts {
		return before(a.restarts > b.restarts)
	}
	// 8. Created more recently < earlier.
	if !a.created.Equal(b.created) {
		return compareAges(a, b, a.created, b.created, a.createdBucket, b.createdBucket, now, gates)
	}
	return 0
}

// compareAges is rules 6 and 8 for two different times: the newer first, a
// zero time as the newest, and with logarithmic scale-down the smaller age
// bucket first and the smaller UID first within one bucket.
func compareAges(a, b *deletionKey, ta, tb time.Time, ba, bb int64, now time.Time, gates RankingGates) int {
	if gates.DisableLogarithmicScaleDown || now.IsZero() || ta.IsZero() || tb.IsZero() {
		return before(afterOrZero(ta, tb))
	}
	if ba != bb {
		return before(ba < bb)
	}
	return strings.Compare(a.pod.Metadata.UID, b.pod.Metadata.UID)
}

// afterOrZero reports whether t1 is after t2, a zero time counting as after
// any other. It models upstream's afterOrZero.
func afterOrZero(t1, t2 time.Time) bool {
	if t1.IsZero() || t2.IsZero() {
		return t1.IsZero()
	}
	return t1.After(t2)
}

// before turns "a goes first" into a comparison result. It is only called once
// a rule has found the two pods different, so false means "b goes first".
func before(aFirst bool) int {
	if aFirst {
		return -1
	}
	return 1
}

// ActivePodsWithRanks is the list of pods a ReplicaSet considers deleting, with
// a rank for each, in the order Less describes (see compareForDeletion). It
// models upstream's type of the same name: Pods and Rank must have the same
// length, and Now is the reference time of logarithmic scale-down; a zero Now
// compares times exactly. Gates switches off the gated rules; its zero value
// is upstream's default.
//
// It implements sort.Interface, for sort.Sort and sort.Stable. Upstream sorts
// with sort.Sort, which is not stable: pods the order cannot tell apart end in
// whatever order its algorithm leaves them. This model sorts with
// SortStable, which precomputes each pod's key once and keeps such pods in the
// order they came in (the informer cache's order), so every run of a seed
// deletes the same pods.
type ActivePodsWithRanks struct {
	Pods  []*api.Pod
	Rank  []int
	Now   time.Time
	Gates RankingGates
}

func (s ActivePodsWithRanks) Len() int { return len(s.Pods) }

func (s ActivePodsWithRanks) Swap(i, j int) {
	s.Pods[i], s.Pods[j] = s.Pods[j], s.Pods[i]
	s.Rank[i], s.Rank[j] = s.Rank[j], s.Rank[i]
}

// Less reports whether pod i should be deleted before pod j. It computes both
// keys on every call; SortStable does that once per pod.
func (s ActivePodsWithRanks) Less(i, j int) bool {
	a := newDeletionKey(s.Pods[i], s.Rank[i], s.Now)
	b := newDeletionKey(s.Pods[j], s.Rank[j], s.Now)
	return compareForDeletion(&a, &b, s.Now, s.Gates) < 0
}

// SortStable sorts Pods (and Rank with them) into deletion order with a stable
// sort: pods the order cannot tell apart keep their relative order. Each pod's
// key is computed once, and the sort moves pointers to the keys, not the keys.
func (s ActivePodsWithRanks) SortStable() {
	keys := make([]deletionKey, len(s.Pods))
	order := make([]*deletionKey, len(s.Pods))
	for i, pod := range s.Pods {
		keys[i] = newDeletionKey(pod, s.Rank[i], s.Now)
		order[i] = &keys[i]
	}
	sorting.Stable(order, func(a, b *deletionKey) int {
		return compareForDeletion(a, b, s.Now, s.Gates)
	})
	for i, k := range order {
		s.Pods[i] = k.pod
		s.Rank[i] = k.rank
	}
}

// ActivePods is the deletion order before ranks, pod-deletion-cost and
// logarithmic scale-down existed: upstream's ActivePods, which early
// ReplicaSet and ReplicationController code sorted with and which still
// exists. It implements sort.Interface. Its rules are those of
// compareForDeletion without 4, 5 and the bucketing: unassigned first, then
// Pending < Unknown < Running, not ready first, the more recently ready first
// (a missing ready time as the most recent), more restarts first, the more
// recently created first (a zero creation time as the most recent).
type ActivePods []*api.Pod

func (s ActivePods) Len() int      { return len(s) }
func (s ActivePods) Swap(i, j int) { s[i], s[j] = s[j], s[i] }

func (s ActivePods) Less(i, j int) bool {
	a := newDeletionKey(s[i], 0, time.Time{})
	b := newDeletionKey(s[j], 0, time.Time{})
	return compareForDeletion(&a, &b, time.Time{}, oldOrderGates) < 0
}

// oldOrderGates makes compareForDeletion the old order: with equal ranks rule
// 5 never decides, and with both gates off rules 4, 6 and 8 are upstream's
// ActivePods rules.
var oldOrderGates = RankingGates{DisablePodDeletionCost: true, DisableLogarithmicScaleDown: true}

// getPodsToDelete chooses which diff of the owned pods to delete. It models
// upstream's getPodsToDelete together with getPodsRankedByRelatedPodsOnSameNode:
// each owned pod is ranked by how many active pods of relatedPods (the pods of
// every ReplicaSet with the same controller, such as all ReplicaSets of one
// Deployment) run on its node, the owned pods are sorted by
// ActivePodsWithRanks, and the first diff are taken. now is the reference time
// of logarithmic scale-down (upstream takes the wall clock here).
//
// When diff is the number of owned pods no sorting happens at all: every pod
// goes, in the order given. diff is clamped to [0, len(filteredPods)]. The
// argument is never changed: the ranking sorts a copy.
func getPodsToDelete(filteredPods, relatedPods []*api.Pod, diff int, now time.Time, gates RankingGates) []*api.Pod {
	diff = min(max(diff, 0), len(filteredPods))
	if diff == len(filteredPods) {
		return filteredPods[:diff:diff]
	}
	s := ActivePodsWithRanks{
		Pods:  slices.Clone(filteredPods),
		Rank:  rankByRelatedPodsOnSameNode(filteredPods, relatedPods),
		Now:   now,
		Gates: gates,
	}
	s.SortStable()
	return s.Pods[:diff:diff]
}

// rankByRelatedPodsOnSameNode returns, for each pod, the number of active
// pods in relatedPods on the same node (unassigned pods share the node "").
// It models the ranking half of upstream's
// getPodsRankedByRelatedPodsOnSameNode. The map is only looked up, never
// iterated, so its order cannot leak into the result.
func rankByRelatedPodsOnSameNode(pods, relatedPods []*api.Pod) []int {
	onNode := make(map[string]int)
	for _, p := range relatedPods {
		if IsPodActive(p) {
			onNode[p.Spec.NodeName]++
		}
	}
	ranks := make([]int, len(pods))
	for i, p := range pods {
		ranks[i] = onNode[p.Spec.NodeName]
	}
	return ranks
}

// getPodKeys returns the PodKey of each pod, in order: what manageReplicas
// hands to ExpectDeletions. It models upstream's getPodKeys and, like it,
// returns an empty (not nil) slice for no pods.
func getPodKeys(pods []*api.Pod) []string {
	keys := make([]string, 0, len(pods))
	for _, p := range pods {
		keys = append(keys, PodKey(p))
	}
	return keys
}
