package controller

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sim"
)

// syncRun is one run of syncReplicaSet for one key, as a state machine. Upstream
// runs the whole sync on the worker's goroutine, blocking on every API call;
// here the sync runs until it sends a request, and continues when the answer
// arrives as a kernel event. The order of everything it does is upstream's
// (spec §1.3):
//
//  1. look the owner up in the cache (gone: drop its expectations, done);
//  2. check the expectations, before anything is listed;
//  3. list the namespace's pods it could own from the cache, keep the active
//     ones, and claim them: adopt matching orphans, release pods that no
//     longer match (one API call at a time, after one fresh GET of the owner
//     before the first adoption);
//  4. if the expectations were satisfied and the owner is not being deleted,
//     manageReplicas: create the missing pods in slow-start batches, or delete
//     the surplus all at once;
//  5. calculateStatus and write it, unless nothing changed (one retry after a
//     fresh GET);
//  6. requeue after minReadySeconds if pods are ready but not yet available.
type syncRun struct {
	w *worker

	key, namespace, name string

	// started is when the worker took the key.
	started time.Duration

	// orig is the owner as the cache held it when the sync began; rs is its
	// ReplicaSet form. Both are read-only.
	orig api.Object
	rs   *api.ReplicaSet

	// needsSync is the expectations check of step 2.
	needsSync bool
	selector  labels.Selector
	// match is the selector's memo for the claim loop (selectorMemo), and
	// claims the loop's memo of its last decision (claimMemo).
	match  selectorMemo
	claims claimMemo

	// pods are the active pods the claim loop walks, next the index of the
	// next one to decide; claimed are those the owner owns after claiming.
	pods      []*api.Pod
	next      int
	claimed   []*api.Pod
	claimErrs []error

	// adoptChecked is set once the fresh GET of the owner (canAdopt) has
	// answered, adoptErr is its verdict.
	adoptChecked bool
	adoptErr     error

	// current is the pod whose adopt or release patch is in flight.
	current *api.Pod

	phase syncPhase

	// waiting holds the IDs of the requests in flight.
	waiting []uint64

	manageErr error
	// slow is the slow-start plan of the creates; batchOK and batchErr collect
	// the answers of the batch in flight. pod is the pod the batches create,
	// built for the first (see sendCreateBatch).
	slow     slowStart
	pod      *api.Pod
	batchOK  int
	batchErr error
	created  int
	// deletes counts the delete answers still expected, deleteErr the first
	// error other than NotFound.
	deleteErr error
	deleted   int

	newStatus   api.ReplicaSetStatus
	statusTries int

	finished     bool
	err          error
	requeueAfter time.Duration
	// saidDone says the sync's last sentence already ends with its
	// success ("; sync of web done"), which the worker otherwise adds.
	saidDone bool

	// decision is the sync's decision in words, for the page.
	decision string
}

type syncPhase uint8

const (
	phaseStart syncPhase = iota
	phaseCanAdopt
	phaseAdopt
	phaseRelease
	phaseCreate
	phaseDelete
	phaseStatusPut
	phaseStatusGet
	phaseDone
)

// newSyncRun starts the worker's next sync. It reuses the worker's last
// finished sync, if it kept one (see worker.recycle): for an owner of a
// thousand pods the lists of pods a sync walks are the biggest thing it
// allocates.
func newSyncRun(w *worker, key string, ctx *sim.Context) *syncRun {
	r := w.spare
	if r == nil {
		return &syncRun{w: w, key: key, started: ctx.Now()}
	}
	w.spare = nil
	*r = syncRun{w: w, key: key, started: ctx.Now(), pods: r.pods[:0], claimed: r.claimed[:0], waiting: r.waiting[:0]}
	return r
}

// release empties the finished sync's lists, keeping their room, and drops
// what it pointed to, so that a worker's spare holds no pod alive.
func (r *syncRun) release() {
	clear(r.pods)
	clear(r.claimed)
	*r = syncRun{pods: r.pods[:0], claimed: r.claimed[:0], waiting: r.waiting[:0]}
}

func (r *syncRun) m() *Manager { return r.w.m }

func (r *syncRun) expects(id uint64) bool { return slices.Contains(r.waiting, id) }

func (r *syncRun) send(ctx *sim.Context, req apistore.Request) {
	r.waiting = append(r.waiting, r.m().cfg.Server.Send(ctx, r.w.name, req))
}

func (r *syncRun) finish(err error) {
	r.finished = true
	r.err = err
	r.phase = phaseDone
}

// The sentences of a sync's steps. A sync's first step says what it took
// and what it found (the intro); each later step says what the answer to
// one of its requests was. Step sentences that go on with another
// sentence begin with "; ".
var (
	formTookBadKey      = &sim.Form{Text: "took %s: %s"}
	formTookGone        = &sim.Form{Text: "took %s: %s/%s is not in the cache (it was deleted), so its expectations are dropped"}
	formTookBadSelector = &sim.Form{Text: "took %s: its selector is invalid (%s); nothing to do"}
	formTookSatisfied   = &sim.Form{Text: "took %s: expectations satisfied; " + activePods}
	formTookWaiting     = &sim.Form{Text: "took %s: expectations not yet satisfied (" + expecting +
		"), so it will not create or delete; " + activePods}
	formTookWaitingNone = &sim.Form{Text: "took %s: expectations not yet satisfied (no expectations), so it will not create or delete; " +
		activePods}

	formReleasing      = &sim.Form{Text: "; pod/%s no longer matches %s: releasing it (patch removing our controller reference)"}
	formCheckingOwner  = &sim.Form{Text: "; orphan pod/%s matches: before adopting, a fresh GET of %s/%s checks it is not being deleted"}
	formAdopting       = &sim.Form{Text: "; adopting orphan pod/%s (patch adding our controller reference)"}
	formMayNotAdopt    = &sim.Form{Text: "may not adopt: %s"}
	formOwnerNotDying  = &sim.Form{Text: "fresh GET: %s/%s is not being deleted"}
	formAdopted        = &sim.Form{Text: "adopted pod/%s"}
	formCouldNotAdopt  = &sim.Form{Text: "could not adopt pod/%s: %s"}
	formClaimedGone    = &sim.Form{Text: "pod/%s is gone: skipped"}
	formReleased       = &sim.Form{Text: "released pod/%s"}
	formCouldNotFree   = &sim.Form{Text: "could not release pod/%s: %s"}
	formClaimingFailed = &sim.Form{Text: "; claiming failed, so nothing is created or deleted and no status is written"}

	formDecision        = &sim.Form{Text: "; %s"}
	formDecisionSending = &sim.Form{Text: "; %s; sending a batch of %d creates"}
	formSending         = &sim.Form{Text: "; sending a batch of %d creates"}
	formCannotBuild     = &sim.Form{Text: "; cannot build the pod: %s"}
	formSlowStartStops  = &sim.Form{Text: "; it failed, so slow start stops here"}
	formSkipped         = &sim.Form{Text: "; %d creates skipped or failed: expectations lowered by as many"}
	formWritingStatus   = &sim.Form{Text: "; writing status %s"}
	formDecisionWriting = &sim.Form{Text: "; %s; writing status %s"}
	formStatusSame      = &sim.Form{Text: "; status unchanged, not written"}
	formDecisionSame    = &sim.Form{Text: "; %s; status unchanged, not written"}
	// A sync that ends there without an error says its end in the same
	// form, which the worker then does not add (syncRun.saidDone): after
	// the intro, a third form no longer fits one sentence, and the
	// sentence was written out on every such sync.
	formStatusSameDone   = &sim.Form{Text: "; status unchanged, not written" + syncDone}
	formDecisionSameDone = &sim.Form{Text: "; %s; status unchanged, not written" + syncDone}
	formStatusWritten    = &sim.Form{Text: "status written (resourceVersion %u)"}
	formStatusFailedLast = &sim.Form{Text: "status write failed again: %s"}
	formStatusFailed     = &sim.Form{Text: "status write failed (%s): fetching %s/%s fresh to retry once"}
	formFreshGetFailed   = &sim.Form{Text: "fresh GET failed: %s"}
	formGotFresh         = &sim.Form{Text: "got %s/%s fresh: writing the same status on it"}
	formUnexpectedAnswer = &sim.Form{Text: "ignored an unexpected answer"}

	created = answerForms{
		waiting: &sim.Form{Text: createdPod + createsAwaited},
		last:    &sim.Form{Text: createdPod + batchDone},
	}
	refused = answerForms{
		waiting: &sim.Form{Text: createRefused + createsAwaited},
		last:    &sim.Form{Text: createRefused + batchDone},
	}
	createFail = answerForms{
		waiting: &sim.Form{Text: "create failed: %s" + createsAwaited},
		last:    &sim.Form{Text: "create failed: %s" + batchDone},
	}
	deleted = answerForms{
		waiting: &sim.Form{Text: "deleted pod/%s" + deletesAwaited},
		last:    &sim.Form{Text: "deleted pod/%s" + deletesDone},
	}
	alreadyGone = answerForms{
		waiting: &sim.Form{Text: "pod/%s was already gone" + deletesAwaited},
		last:    &sim.Form{Text: "pod/%s was already gone" + deletesDone},
	}
	deleteFail = answerForms{
		waiting: &sim.Form{Text: "delete of pod/%s failed: %s" + deletesAwaited},
		last:    &sim.Form{Text: "delete of pod/%s failed: %s" + deletesDone},
	}
)

func init() {
	sim.Register(
		formTookBadKey,
		formTookGone,
		formTookBadSelector,
		formTookSatisfied,
		formTookWaiting,
		formTookWaitingNone,
		formReleasing,
		formCheckingOwner,
		formAdopting,
		formMayNotAdopt,
		formOwnerNotDying,
		formAdopted,
		formCouldNotAdopt,
		formClaimedGone,
		formReleased,
		formCouldNotFree,
		formClaimingFailed,
		formDecision,
		formDecisionSending,
		formSending,
		formCannotBuild,
		formSlowStartStops,
		formSkipped,
		formWritingStatus,
		formDecisionWriting,
		formStatusSame,
		formDecisionSame,
		formStatusSameDone,
		formDecisionSameDone,
		formStatusWritten,
		formStatusFailedLast,
		formStatusFailed,
		formFreshGetFailed,
		formGotFresh,
		formUnexpectedAnswer,
		created.waiting,
		created.last,
		refused.waiting,
		refused.last,
		createFail.waiting,
		createFail.last,
		deleted.waiting,
		deleted.last,
		alreadyGone.waiting,
		alreadyGone.last,
		deleteFail.waiting,
		deleteFail.last,
	)
}

// The words of the answers to a batch: what the answer was, then how many
// more are awaited or, for the last, how the batch ended.
const (
	createdPod     = "created pod/%s"
	createRefused  = "create refused: namespace terminating (counted as success, as upstream does)"
	createsAwaited = " (%d more answers of this batch to wait for)"
	batchDone      = "; batch of %d done (%d ok)"
	deletesAwaited = " (%d more deletes to wait for)"
	deletesDone    = "; all deletes answered"
)

const activePods = "%{active pod|active pods} to consider (its own and the namespace's orphans)"

// answerForms are the sentences of the answer to one of a batch of
// requests: while more answers are awaited, and for the last one, which
// ends the batch.
type answerForms struct{ waiting, last *sim.Form }

// start runs steps 1 to 3 until the first API call, or to the end.
func (r *syncRun) start(ctx *sim.Context) sim.Report {
	m := r.m()
	ns, name, err := api.SplitKey(r.key)
	if err != nil {
		r.finish(err)
		return sim.Report{Models: "syncReplicaSet", Summary: sim.Say(formTookBadKey, r.key, err.Error())}
	}
	r.namespace, r.name = ns, name
	obj, ok := m.ownerLister().Get(ns, name)
	if !ok {
		m.expectations.DeleteExpectations(r.key)
		delete(m.selectors, r.key)
		r.decision = "deleted: expectations dropped"
		r.finish(nil)
		return sim.Report{Models: "syncReplicaSet",
			Summary: sim.Say(formTookGone, r.key, m.owner.short, name)}
	}
	rs, _ := m.asReplicaSet(obj)
	r.orig, r.rs = obj, rs
	r.needsSync = m.expectations.SatisfiedExpectations(r.key)
	sel, err := m.selectorOf(r.key, rs.Spec.Selector)
	if err != nil {
		// Upstream only logs this: retrying cannot fix a bad selector.
		r.decision = "invalid selector"
		r.finish(nil)
		return sim.Report{Models: "syncReplicaSet", Touched: []sim.Ref{m.ownerRef(rs)},
			Summary: sim.Say(formTookBadSelector, r.key, err.Error())}
	}
	r.selector = sel
	r.match = selectorMemo{selector: sel}

	// Upstream lists every pod of the namespace and claims them; a pod owned
	// by another controller is skipped at once. The pod informer's owner
	// index hands over exactly the pods that are not skipped, ours and the
	// orphans, in the order a scan would meet them.
	_ = m.cfg.Pods.Indexer().EachByIndexValues(PodOwnerIndex, []string{rs.Metadata.UID, orphanIndexValue(ns)}, func(o api.Object) {
		if pod := o.(*api.Pod); IsPodActive(pod) {
			r.pods = append(r.pods, pod)
		}
	})
	var intro sim.Sentence
	switch add, del, ok := m.expectations.GetExpectations(r.key); {
	case r.needsSync:
		intro = sim.Say(formTookSatisfied, r.key).With(int64(len(r.pods)))
	case ok:
		intro = sim.Say(formTookWaiting, r.key).With(max(add, 0), max(del, 0), int64(len(r.pods)))
	default:
		intro = sim.Say(formTookWaitingNone, r.key).With(int64(len(r.pods)))
	}
	return r.claimLoop(ctx, intro)
}

// claimLoop walks the pods from next, deciding each, until one needs an API
// call or all are decided.
func (r *syncRun) claimLoop(ctx *sim.Context, intro sim.Sentence) sim.Report {
	m := r.m()
	for r.next < len(r.pods) {
		pod := r.pods[r.next]
		decision, known := r.claims.known(pod)
		if !known {
			decision = r.claims.decide(pod, &r.rs.Metadata, r.match.Matches)
		}
		switch decision {
		case ClaimClaimed:
			r.claimed = append(r.claimed, pod)
		case ClaimNeedsRelease:
			r.current = pod
			r.phase = phaseRelease
			patch := releasePatch(pod, r.rs.Metadata.UID)
			r.send(ctx, apistore.Request{Verb: apistore.VerbPatch, Kind: api.KindPod, Namespace: pod.Metadata.Namespace, Name: pod.Metadata.Name, Patch: &patch})
			return r.report("claimPods", intro.Then(sim.Say(formReleasing, pod.Metadata.Name, r.selector.String())), podRef(pod))
		case ClaimNeedsAdoption:
			r.current = pod
			if !r.adoptChecked {
				// Before the first adoption, make sure the owner is not being
				// deleted: the cache may not know yet, the API server does.
				r.phase = phaseCanAdopt
				r.send(ctx, apistore.Request{Verb: apistore.VerbGet, Kind: m.owner.kind, Namespace: r.namespace, Name: r.name})
				return r.report("claimPods", intro.Then(sim.Say(formCheckingOwner, pod.Metadata.Name, m.owner.short, r.name)), podRef(pod))
			}
			if r.adoptErr != nil {
				r.claimErrs = append(r.claimErrs, cantAdoptError(pod, r.adoptErr))
				break
			}
			return r.adopt(ctx, intro)
		}
		r.next++
	}
	return r.afterClaim(ctx, intro)
}

func (r *syncRun) adopt(ctx *sim.Context, intro sim.Sentence) sim.Report {
	m := r.m()
	pod := r.current
	r.phase = phaseAdopt
	patch := adoptionPatch(pod, &r.rs.Metadata, m.owner.apiVersion, string(m.owner.kind))
	r.send(ctx, apistore.Request{Verb: apistore.VerbPatch, Kind: api.KindPod, Namespace: pod.Metadata.Namespace, Name: pod.Metadata.Name, Patch: &patch})
	return r.report("claimPods", intro.Then(sim.Say(formAdopting, pod.Metadata.Name)), podRef(pod))
}

// onReply continues the sync with the answer to one of its requests.
func (r *syncRun) onReply(ctx *sim.Context, reply *apistore.Reply) sim.Report {
	// Replies mostly come in the order their requests went, so the search
	// stops at the first ID: a burst of 500 creates answered one by one
	// costs a short move each, where filtering the whole list for every
	// reply cost a hundredth of a large world's instructions.
	if i := slices.Index(r.waiting, reply.ID); i >= 0 {
		r.waiting = slices.Delete(r.waiting, i, i+1)
	}
	resp := reply.Response
	m := r.m()
	switch r.phase {
	case phaseCanAdopt:
		r.adoptChecked = true
		var fresh *api.ObjectMeta
		if resp.Object != nil {
			fresh = resp.Object.Meta()
		}
		r.adoptErr = recheckDeletionTimestamp(string(m.owner.kind), &r.rs.Metadata, fresh, resp.Err)
		if r.adoptErr != nil {
			r.claimErrs = append(r.claimErrs, cantAdoptError(r.current, r.adoptErr))
			r.next++
			return r.claimLoop(ctx, sim.Say(formMayNotAdopt, r.adoptErr.Error()))
		}
		return r.adopt(ctx, sim.Say(formOwnerNotDying, m.owner.short, r.name))
	case phaseAdopt:
		claimed, reported := adoptResult(resp.Err)
		pod := r.current
		note := sim.Say(formAdopted, pod.Metadata.Name)
		switch {
		case claimed:
			// Upstream's ClaimPods keeps the pod it listed from the cache, not
			// the patch's answer: the answer may be newer than the cache (a
			// pod that became ready meanwhile), and counting it would let the
			// status and the deletion ranking see a state the rest of the
			// sync does not.
			r.claimed = append(r.claimed, pod)
		case reported != nil:
			r.claimErrs = append(r.claimErrs, reported)
			note = sim.Say(formCouldNotAdopt, pod.Metadata.Name, reported.Error())
		default:
			note = sim.Say(formClaimedGone, pod.Metadata.Name)
		}
		r.next++
		return r.claimLoop(ctx, note)
	case phaseRelease:
		pod := r.current
		note := sim.Say(formReleased, pod.Metadata.Name)
		if err := releaseResult(resp.Err); err != nil {
			r.claimErrs = append(r.claimErrs, err)
			note = sim.Say(formCouldNotFree, pod.Metadata.Name, err.Error())
		}
		r.next++
		return r.claimLoop(ctx, note)
	case phaseCreate:
		return r.onCreate(ctx, reply)
	case phaseDelete:
		return r.onDelete(ctx, reply)
	case phaseStatusPut:
		return r.onStatusPut(ctx, reply)
	case phaseStatusGet:
		return r.onStatusGet(ctx, reply)
	}
	return sim.Report{Summary: sim.Say(formUnexpectedAnswer)}
}

// afterClaim ends step 3: claim errors end the sync (it is retried); else
// manageReplicas if the expectations allow, then the status.
func (r *syncRun) afterClaim(ctx *sim.Context, intro sim.Sentence) sim.Report {
	r.current = nil
	if len(r.claimErrs) > 0 {
		err := errors.Join(r.claimErrs...)
		r.decision = "claiming failed: " + err.Error()
		r.finish(err)
		return r.report("claimPods", intro.Then(sim.Say(formClaimingFailed)))
	}
	if r.needsSync && r.rs.Metadata.DeletionTimestamp == nil {
		return r.manageReplicas(ctx, intro)
	}
	var b [decisionRoom]byte
	if r.rs.Metadata.DeletionTimestamp != nil {
		r.decision = r.m().decisionText(append(appendCount(b[:0], len(r.claimed), "pod"), " owned; being deleted, so it creates and deletes nothing"...))
	} else {
		r.decision = r.m().decisionText(append(appendCount(b[:0], len(r.claimed), "pod"), " owned; waiting for earlier creates or deletes to be observed"...))
	}
	return r.updateStatus(ctx, intro, "")
}

// manageReplicas is step 4 (spec §1.4).
func (r *syncRun) manageReplicas(ctx *sim.Context, intro sim.Sentence) sim.Report {
	m := r.m()
	want := int(specReplicas(r.rs))
	diff := len(r.claimed) - want
	// The decision is joined in one buffer: every sync makes one, and
	// joining its words with + made a string of each part on the way.
	var b [decisionRoom]byte
	owned := strconv.AppendInt(append(appendCount(b[:0], len(r.claimed), "pod"), " owned, want "...), int64(want), 10)
	switch {
	case diff < 0:
		n := min(-diff, m.cfg.BurstReplicas)
		m.expectations.ExpectCreations(r.key, n)
		r.slow = newSlowStart(n, SlowStartInitialBatchSize)
		batches := slowStartBatches(n, SlowStartInitialBatchSize)
		d := strconv.AppendInt(append(owned, ": creating "...), int64(n), 10)
		d = append(appendBatches(append(d, " ("...), batches), ')')
		if n < -diff {
			d = append(strconv.AppendInt(append(d, "; at most "...), int64(m.cfg.BurstReplicas), 10), " per sync (burstReplicas)"...)
		}
		r.decision = m.decisionText(d)
		return r.sendCreateBatch(ctx, intro, r.decision)
	case diff > 0:
		n := min(diff, m.cfg.BurstReplicas)
		toDelete := getPodsToDelete(r.claimed, r.relatedPods(), n, ctx.Wall(), m.gates)
		keys := getPodKeys(toDelete)
		m.expectations.ExpectDeletions(r.key, keys)
		r.decision = string(owned) + ": deleting " + strconv.Itoa(n) + ", all at once: " + strings.Join(podNames(toDelete), ", ")
		r.phase = phaseDelete
		touched := []sim.Ref{m.ownerRef(r.rs)}
		for _, pod := range toDelete {
			r.send(ctx, apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindPod, Namespace: pod.Metadata.Namespace, Name: pod.Metadata.Name})
			touched = append(touched, podRef(pod))
		}
		r.deleted = 0
		return sim.Report{Models: "manageReplicas", Summary: intro.Then(sim.Say(formDecision, r.decision)), Touched: touched}
	}
	r.decision = m.decisionText(append(owned, ": nothing to create or delete"...))
	return r.updateStatus(ctx, intro, r.decision)
}

// decisionRoom is the room a sync's decision is joined in: enough for the
// usual one, "10 pods owned, want 10: creating 9 (slow-start batches of 1,
// 2, 4, 2)", without growing.
const decisionRoom = 96

// decisionText returns the decision joined in d as a string: the last one
// made when it reads the same, else a new one, which it remembers. Most
// syncs decide what the sync before them decided, about the same number of
// pods ("10 pods owned, want 10: nothing to create or delete"), whichever
// owner they sync: the strings made for them were a fiftieth of the
// allocations of 100 ReplicaSets of 10 pods converging. The memo is a
// function of what it was given only, so it needs no place in snapshots.
func (m *Manager) decisionText(d []byte) string {
	if string(d) != m.lastDecision {
		m.lastDecision = string(d)
	}
	return m.lastDecision
}

// appendCount appends a count with its noun, singular or plural: "1 pod",
// "3 pods".
func appendCount(b []byte, n int, noun string) []byte {
	b = append(strconv.AppendInt(b, int64(n), 10), ' ')
	b = append(b, noun...)
	if n != 1 {
		b = append(b, 's')
	}
	return b
}

// appendBatches appends the slow-start batches a sync's creates go in: "one
// batch of 3", "slow-start batches of 1, 2, 4".
func appendBatches(b []byte, batches []int) []byte {
	if len(batches) == 1 {
		return strconv.AppendInt(append(b, "one batch of "...), int64(batches[0]), 10)
	}
	b = append(b, "slow-start batches of "...)
	for i, n := range batches {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return b
}

func podNames(pods []*api.Pod) []string {
	out := make([]string, len(pods))
	for i, p := range pods {
		out[i] = p.Metadata.Name
	}
	return out
}

// relatedPods are the pods of the owner's siblings (ReplicaSets with the same
// controller, such as one Deployment's): the deletion ranking prefers pods on
// nodes that run many of them.
func (r *syncRun) relatedPods() []*api.Pod {
	m := r.m()
	ref := api.GetControllerOf(&r.rs.Metadata)
	if ref == nil {
		return nil
	}
	objs, err := m.cfg.Owners.Indexer().ByIndex(controllerUIDIndex, ref.UID)
	if err != nil {
		return nil
	}
	var siblings []*api.ReplicaSet
	for _, o := range objs {
		if rs, ok := m.asReplicaSet(o); ok {
			siblings = append(siblings, rs)
		}
	}
	var pods []*api.Pod
	for _, o := range m.cfg.Pods.Lister().Namespace(r.namespace).List(everything) {
		pods = append(pods, o.(*api.Pod))
	}
	return getIndirectlyRelatedPods(getReplicaSetsWithSameController(r.rs, siblings), pods)
}

// sendCreateBatch sends the next slow-start batch of creates. Its sentence
// is intro, then the decision if the batch is the first.
func (r *syncRun) sendCreateBatch(ctx *sim.Context, intro sim.Sentence, decision string) sim.Report {
	m := r.m()
	size := r.slow.next()
	r.phase = phaseCreate
	r.batchOK, r.batchErr = 0, nil
	// Every batch of a sync sends the same pod, built from the owner the
	// sync read, which does not change while it runs: it is built for the
	// first batch and sent again by the next. A sent object is never
	// changed (apistore.Request.Object), so the batches share it as the
	// creates of one batch do.
	pod := r.pod
	if pod == nil {
		ref := m.controllerRef(r.rs)
		built, err := podFromTemplate(&r.rs.Spec.Template, &r.rs.Metadata, &ref)
		if err != nil {
			// The pod cannot even be built: every call of this batch fails
			// before reaching the API, so slow start stops here. Upstream
			// returns this error without recording an event.
			r.slow.batchDone(0, err)
			if decision != "" {
				intro = intro.Then(sim.Say(formDecision, decision))
			}
			return r.endCreates(ctx, intro.Then(sim.Say(formCannotBuild, err.Error())))
		}
		pod, r.pod = built, built
	}
	for range size {
		r.send(ctx, apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindPod, Namespace: r.namespace, Object: pod})
	}
	sending := sim.Say(formSending).With(int64(size))
	if decision != "" {
		sending = sim.Say(formDecisionSending, decision).With(int64(size))
	}
	return sim.Report{Models: "slowStartBatch", Touched: m.refs.Of(m.ownerRef(r.rs)), Summary: intro.Then(sending)}
}

func (r *syncRun) onCreate(ctx *sim.Context, reply *apistore.Reply) sim.Report {
	m := r.m()
	resp := reply.Response
	// Most answers are one of a batch, with more to wait for: one form
	// says the answer and how many are still awaited.
	var touched []sim.Ref
	forms, strs := createFail, [1]string{}
	switch {
	case resp.Err == nil:
		r.batchOK++
		r.created++
		pod := resp.Object.(*api.Pod)
		m.recordEvent(ctx, r.orig, api.EventNormal, SuccessfulCreatePodReason, "Created pod: "+pod.Metadata.Name)
		forms, strs[0] = created, pod.Metadata.Name
		touched = m.refs.Of(podRef(pod))
	case apistore.HasStatusCause(resp.Err, "NamespaceTerminating"):
		// A namespace being deleted refuses new pods; upstream counts that as
		// success, so its expectation is never lowered (the ReplicaSet waits
		// out the 5 minute expectations TTL, or goes with its namespace).
		r.batchOK++
		forms = refused
	default:
		if r.batchErr == nil {
			r.batchErr = resp.Err
		}
		m.recordEvent(ctx, r.orig, api.EventWarning, FailedCreatePodReason, "Error creating: "+resp.Err.Error())
		strs[0] = resp.Err.Error()
	}
	say := func(f *sim.Form, nums ...int64) sim.Sentence {
		if forms == refused {
			return sim.Say(f).With(nums...)
		}
		return sim.Say(f, strs[0]).With(nums...)
	}
	if len(r.waiting) > 0 {
		return sim.Report{Models: "slowStartBatch", Touched: touched, Summary: say(forms.waiting, int64(len(r.waiting)))}
	}
	size := r.slow.next()
	r.slow.batchDone(r.batchOK, r.batchErr)
	note := say(forms.last, int64(size), int64(r.batchOK))
	var rep sim.Report
	if !r.slow.done() {
		rep = r.sendCreateBatch(ctx, note, "")
	} else {
		if r.batchErr != nil {
			note = note.Then(sim.Say(formSlowStartStops))
		}
		rep = r.endCreates(ctx, note)
	}
	if len(touched) > 0 {
		// The report's list is the arena's, capped at its length (sim.Arena):
		// appending to it would copy it to the heap, so the two lists are
		// joined on the stack and handed to the arena as one.
		var room [2]sim.Ref
		rep.Touched = m.refs.Of(append(append(room[:0], rep.Touched...), touched...)...)
	}
	return rep
}

// endCreates lowers the expectations for every create that was skipped or
// failed, so the owner waits only for pods that exist, then writes status.
func (r *syncRun) endCreates(ctx *sim.Context, summary sim.Sentence) sim.Report {
	m := r.m()
	_, skipped, err := r.slow.result()
	for range skipped {
		m.expectations.CreationObserved(r.key)
	}
	if skipped > 0 {
		summary = summary.Then(sim.Say(formSkipped).With(int64(skipped)))
	}
	r.manageErr = err
	return r.updateStatus(ctx, summary, "")
}

func (r *syncRun) onDelete(ctx *sim.Context, reply *apistore.Reply) sim.Report {
	m := r.m()
	resp := reply.Response
	name := reply.Request.Name
	pod := sim.Ref{Kind: "pod", Namespace: reply.Request.Namespace, Name: name}
	forms, failure := deleted, ""
	switch {
	case resp.Err == nil:
		r.deleted++
		m.recordEvent(ctx, r.orig, api.EventNormal, SuccessfulDeletePodReason, "Deleted pod: "+name)
	default:
		// The pod will never be seen deleted by this request: stop waiting
		// for it.
		m.expectations.DeletionObserved(r.key, api.Key(reply.Request.Namespace, name))
		if apistore.IsNotFound(resp.Err) {
			forms = alreadyGone
			break
		}
		if r.deleteErr == nil {
			// Upstream's RealPodControl.DeletePod wraps every error but
			// NotFound as "unable to delete pods: …"; that text is what the
			// sync returns and what the ReplicaFailure condition says.
			r.deleteErr = errors.New("unable to delete pods: " + resp.Err.Error())
		}
		m.recordEvent(ctx, r.orig, api.EventWarning, FailedDeletePodReason, "Error deleting: "+resp.Err.Error())
		forms, failure = deleteFail, resp.Err.Error()
	}
	say := func(f *sim.Form) sim.Sentence {
		if forms == deleteFail {
			return sim.Say(f, name, failure)
		}
		return sim.Say(f, name)
	}
	if len(r.waiting) > 0 {
		return sim.Report{Models: "manageReplicas", Touched: []sim.Ref{pod},
			Summary: say(forms.waiting).With(int64(len(r.waiting)))}
	}
	r.manageErr = r.deleteErr
	rep := r.updateStatus(ctx, say(forms.last), "")
	rep.Touched = append(rep.Touched, pod)
	return rep
}

// updateStatus is step 5: calculateStatus, then updateReplicaSetStatus. Its
// sentence is intro, then the decision unless it is "".
func (r *syncRun) updateStatus(ctx *sim.Context, intro sim.Sentence, decision string) sim.Report {
	m := r.m()
	// Every claimed pod matched the selector when it was claimed (the pod
	// kept is the one tested, see claimLoop).
	r.newStatus = calculateClaimedStatus(r.rs, r.claimed, r.selector, r.manageErr, ctx.Wall())
	if !statusNeedsUpdate(r.rs, r.newStatus) {
		if r.manageErr == nil {
			r.saidDone = true
			if decision != "" {
				return r.end(ctx, intro.Then(sim.Say(formDecisionSameDone, decision, r.key)))
			}
			return r.end(ctx, intro.Then(sim.Say(formStatusSameDone, r.key)))
		}
		if decision != "" {
			return r.end(ctx, intro.Then(sim.Say(formDecisionSame, decision)))
		}
		return r.end(ctx, intro.Then(sim.Say(formStatusSame)))
	}
	r.newStatus.ObservedGeneration = r.rs.Metadata.Generation
	r.phase = phaseStatusPut
	r.send(ctx, apistore.Request{Verb: apistore.VerbUpdate, Kind: m.owner.kind, Subresource: apistore.SubresourceStatus,
		Object: m.ownerObject(r.orig, r.newStatus)})
	words := m.statusWordsOf(&r.newStatus)
	writing := sim.Say(formWritingStatus, words)
	if decision != "" {
		writing = sim.Say(formDecisionWriting, decision, words)
	}
	return sim.Report{Models: "updateReplicaSetStatus", Touched: m.refs.Of(m.ownerRef(r.rs)), Summary: intro.Then(writing)}
}

// lastStatusWords is a status without conditions, by its three counts, and
// its words.
type lastStatusWords struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	replicas, ready, available int32
	words                      string
}

// statusWordsOf returns statusWords(*s): the last words it returned when s
// has no conditions (so no ReplicaFailure to say) and the same three counts
// as the status they were joined for. Most owners write the same status on
// their way to their size (replicas=10 ready=10 available=10, say), one
// after another: the strings joined for them were 2% of the allocations of
// 100 ReplicaSets of 10 pods converging. The memo is a function of what it
// was given only, so it needs no place in snapshots.
func (m *Manager) statusWordsOf(s *api.ReplicaSetStatus) string {
	last := &m.lastWords
	if last.words != "" && len(s.Conditions) == 0 &&
		s.Replicas == last.replicas && s.ReadyReplicas == last.ready && s.AvailableReplicas == last.available {
		return last.words
	}
	words := statusWords(*s)
	last.replicas, last.ready, last.available, last.words = s.Replicas, s.ReadyReplicas, s.AvailableReplicas, words
	if len(s.Conditions) != 0 {
		// Words that say a condition are never the answer for counts alone.
		last.words = ""
	}
	return words
}

// statusWords is a status as the sentence of its write says it:
// "replicas=3 ready=2 available=2", and its ReplicaFailure condition if it
// has one.
func statusWords(s api.ReplicaSetStatus) string {
	out := "replicas=" + strconv.Itoa(int(s.Replicas)) + " ready=" + strconv.Itoa(int(s.ReadyReplicas)) +
		" available=" + strconv.Itoa(int(s.AvailableReplicas))
	if c := GetCondition(s, api.ReplicaFailure); c != nil {
		out += " ReplicaFailure=" + c.Status + " (" + c.Reason + ")"
	}
	return out
}

func (r *syncRun) onStatusPut(ctx *sim.Context, reply *apistore.Reply) sim.Report {
	m := r.m()
	resp := reply.Response
	if resp.Err == nil {
		return r.end(ctx, sim.Say(formStatusWritten).With(int64(resp.ResourceVersion)))
	}
	if r.statusTries >= statusUpdateRetries {
		r.decision += "; status write failed"
		r.finish(resp.Err)
		return sim.Report{Models: "updateReplicaSetStatus", Summary: sim.Say(formStatusFailedLast, resp.Err.Error())}
	}
	r.statusTries++
	r.phase = phaseStatusGet
	r.send(ctx, apistore.Request{Verb: apistore.VerbGet, Kind: m.owner.kind, Namespace: r.namespace, Name: r.name})
	return sim.Report{Models: "updateReplicaSetStatus",
		Summary: sim.Say(formStatusFailed, resp.Err.Error(), m.owner.short, r.name)}
}

func (r *syncRun) onStatusGet(ctx *sim.Context, reply *apistore.Reply) sim.Report {
	m := r.m()
	resp := reply.Response
	if resp.Err != nil {
		r.finish(resp.Err)
		return sim.Report{Models: "updateReplicaSetStatus", Summary: sim.Say(formFreshGetFailed, resp.Err.Error())}
	}
	r.phase = phaseStatusPut
	r.send(ctx, apistore.Request{Verb: apistore.VerbUpdate, Kind: m.owner.kind, Subresource: apistore.SubresourceStatus,
		Object: m.ownerObject(resp.Object, r.newStatus)})
	return sim.Report{Models: "updateReplicaSetStatus", Summary: sim.Say(formGotFresh, m.owner.short, r.name)}
}

// end is step 6, then the sync returns manageReplicas' error.
func (r *syncRun) end(ctx *sim.Context, summary sim.Sentence) sim.Report {
	want := specReplicas(r.rs)
	if r.manageErr == nil && r.rs.Spec.MinReadySeconds > 0 &&
		r.newStatus.ReadyReplicas == want && r.newStatus.AvailableReplicas != want {
		r.requeueAfter = time.Duration(r.rs.Spec.MinReadySeconds) * time.Second
	}
	r.finish(r.manageErr)
	return sim.Report{Models: "syncReplicaSet", Summary: summary}
}

func (r *syncRun) report(models string, summary sim.Sentence, touched ...sim.Ref) sim.Report {
	m := r.m()
	if r.rs == nil {
		return sim.Report{Models: models, Summary: summary, Touched: m.refs.Of(touched...)}
	}
	var room [4]sim.Ref
	return sim.Report{Models: models, Summary: summary, Touched: m.refs.Of(append(append(room[:0], touched...), m.ownerRef(r.rs))...)}
}

// clone returns a copy that shares nothing mutable with r. Pods and owners
// are shared: they are read-only.
func (r *syncRun) clone() *syncRun {
	c := *r
	c.pods = slices.Clone(r.pods)
	c.claimed = slices.Clone(r.claimed)
	c.claimErrs = slices.Clone(r.claimErrs)
	c.waiting = slices.Clone(r.waiting)
	return &c
}
