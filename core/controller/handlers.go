package controller

import (
	"maps"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/informer"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/workqueue"
)

// everything selects every object, for listing a whole namespace.
var everything = labels.Everything()

// The event handlers turn informer notifications into keys on the queue, and
// keep the expectations up to date: a pod seen created or deleted lowers what
// the sync that caused it is waiting for. They model the handlers of upstream's
// ReplicaSetController (addRS, updateRS, deleteRS, addPod, updatePod,
// deletePod), rule for rule (spec §1.8). Each returns a report that says which
// key it enqueued and why.

func (m *Manager) handlerActor() string { return m.owner.handlers }

// report is a handler's report. It is kept small enough for the compiler to
// write it where a handler returns it (it reads the actor's name itself for
// that), which saves a call and a copy of the report on every pod event.
func (m *Manager) report(models string, summary sim.Sentence, touched ...sim.Ref) sim.Report {
	return sim.Report{Actor: m.owner.handlers, Models: models, Summary: summary, Touched: m.refs.Of(touched...)}
}

// hand moves the keys the handler gave the queue into its report. It
// writes into the report where the handler returned it: a report is 176
// bytes, and passing it in and out by value copied it twice more on every
// pod event.
func (m *Manager) hand(rep *sim.Report) {
	rep.Handed, m.handoffs = m.handoffLists.Of(m.handoffs...), m.handoffs[:0]
}

// handTo notes key as handed to the queue by the handler running now, for
// its report.
func (m *Manager) handTo(key string) {
	m.handoffs = append(m.handoffs, m.toQueue(key))
}

// toQueue is key handed to the manager's queue: by a handler, or by a
// worker putting it back.
func (m *Manager) toQueue(key string) sim.Handoff {
	return sim.Handoff{To: m.queue.ComponentName(), What: key}
}

// keyOf returns the queue key of an owner, "namespace/name", for the owner's
// own events and for an orphan's candidate owners. (A pod's events take
// their owner's key from the cache with the owner, resolveControllerRef.)
// The manager remembers the key it returned last, for a run of one
// owner's events, and every key it joined, by the owner's name (a key is
// the namespace, a slash and the name, so it tells its namespace): the
// owners' status writes come interleaved, and joining their keys anew was
// 2% of the allocations of 100 ReplicaSets of 10 pods converging, and
// took longer than a lookup. The memo is a function of its own inputs
// only, so it needs no place in snapshots.
func (m *Manager) keyOf(meta *api.ObjectMeta) string {
	last := &m.lastKey
	if meta.Name == last.name && meta.Namespace == last.namespace {
		return last.key
	}
	// A key remembered under the name is "namespace/name": it is the
	// owner's when it is as long and starts with the owner's namespace.
	key, ok := m.keys[meta.Name]
	if !ok || len(key) != len(meta.Namespace)+1+len(meta.Name) || key[:len(meta.Namespace)] != meta.Namespace {
		if m.keys == nil || len(m.keys) >= ownerKeysMax {
			// Owners come and go: the memo starts again rather than
			// keep the names of all that ever were.
			m.keys = make(map[string]string)
		}
		key = api.Key(meta.Namespace, meta.Name)
		m.keys[meta.Name] = key
	}
	*last = ownerKey{namespace: meta.Namespace, name: meta.Name, key: key}
	return key
}

// ownerKeysMax is how many owners' keys keyOf remembers before it starts
// again: more than a world's ReplicaSets.
const ownerKeysMax = 2048

// ownerKey is an owner's namespace and name and the key joined from them.
type ownerKey struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	namespace, name, key string
}

// enqueue adds an owner's key to the queue and returns what became of it,
// the choice of workqueue.AddedWords that a handler's sentence says after
// the key. The handler's report lists the key as handed to the queue
// (sim.Handoff, see handlers), also when the queue already held it: the key
// went there, and the queue's deduplication is what the learner sees happen
// to it.
func (m *Manager) enqueue(key string) int64 {
	m.handTo(key)
	return int64(m.queue.Add(key))
}

// The handlers' sentences. Each names the object the notification was
// about and what the handler did: which key it enqueued, and what the queue
// did with it (workqueue.AddedWords), or why it did nothing. A pod handler
// runs for every pod event of both flavours of the manager, so the usual
// sentences fit in one sentence's room and are said, never written.
const (
	queuedKey = "%s" + workqueue.AddedWords
	enqueued  = "enqueued " + queuedKey
	tombstone = "%[| (unwrapped from a tombstone: the delete event itself was missed)]"
	expecting = "expecting %d more creates, %d more deletes"
)

var (
	formOtherKind    = &sim.Form{Text: "ignored an object of another kind"}
	formNotAPod      = &sim.Form{Text: "ignored an object that is not a pod"}
	formUnreadable   = &sim.Form{Text: "could not read the deleted object: ignored"}
	formOwnerAdded   = &sim.Form{Text: "%s/%s added: " + enqueued}
	formOwnerUpdated = &sim.Form{Text: "%s/%s updated: " + enqueued}
	formOwnerScaled  = &sim.Form{Text: "%s/%s updated (spec.replicas %d → %d): " + enqueued}
	formOwnerResync  = &sim.Form{Text: "%s/%s updated (a resync: nothing changed, but every update is enqueued): " + enqueued}
	formOwnerNewUID  = &sim.Form{Text: "%s/%s was deleted and recreated (uid %s → %s): dropped the old expectations"}
	formThenEnqueued = &sim.Form{Text: ": " + enqueued}
	formOwnerDeleted = &sim.Form{Text: "%s/%s deleted%[| (seen only as a tombstone after a relist)]: its expectations are dropped and " +
		queuedKey + " is enqueued so its sync cleans up"}

	formPodAppeared      = &sim.Form{Text: "pod/%s appeared already being deleted, so it counts as a deletion: "}
	formPodAddedNotOurs  = &sim.Form{Text: "pod/%s added; its controller %s/%s is not one of ours: ignored"}
	formPodAddedOwned    = &sim.Form{Text: "pod/%s added, owned by %s/%s: creation observed (" + expecting + "); " + enqueued}
	formPodAddedOwnedNo  = &sim.Form{Text: "pod/%s added, owned by %s/%s: creation observed (no expectations); " + enqueued}
	formPodAddedUnowned  = &sim.Form{Text: "orphan pod/%s added; no %s selects it: ignored"}
	formPodAddedOrphan   = &sim.Form{Text: "orphan pod/%s added; enqueued every %s that selects it, one may adopt it:"}
	formEachOwner        = &sim.Form{Text: " " + queuedKey}
	formOverlap          = &sim.Form{Text: " (more than one selects it: a user error, their selectors overlap)"}
	formPodResync        = &sim.Form{Text: "pod/%s unchanged (same resourceVersion, a resync): ignored"}
	formPodDeleting      = &sim.Form{Text: "pod/%s is being deleted (deletionTimestamp set): "}
	formPodRelabelled    = &sim.Form{Text: "; its labels changed as well, so its old owner is told too: "}
	formPodUpdated       = &sim.Form{Text: "pod/%s updated"}
	formPodRefChanged    = &sim.Form{Text: "; its controller reference changed, so its old owner is enqueued: " + queuedKey}
	formPodNotOurs       = &sim.Form{Text: "; its controller %s/%s is not one of ours"}
	formPodOwned         = &sim.Form{Text: "; owned by %s/%s: " + enqueued}
	formPodBecameReady   = &sim.Form{Text: "; it just became ready, so %s is also enqueued again in %D to count it available"}
	formPodOrphanNobody  = &sim.Form{Text: "; an orphan no %s selects: nothing to do"}
	formPodOrphan        = &sim.Form{Text: "; an orphan: enqueued every %s that selects it:"}
	formPodOrphanSame    = &sim.Form{Text: "; an orphan whose labels did not change: nothing to do"}
	formTombstoneNotPod  = &sim.Form{Text: "tombstone %s does not hold a pod: ignored"}
	formPodDeletedOrphan = &sim.Form{Text: "pod/%s deleted" + tombstone + "; an orphan, nobody waits for it: ignored"}
	formPodDeletedNotOur = &sim.Form{Text: "pod/%s deleted" + tombstone + "; its controller %s/%s is not one of ours: ignored"}
	formPodDeletedOwned  = &sim.Form{Text: "pod/%s deleted" + tombstone + ", owned by %s/%s: %[not an expected deletion|deletion observed] (" +
		expecting + "); " + enqueued}
	formPodDeletedOwnedNo = &sim.Form{Text: "pod/%s deleted" + tombstone + ", owned by %s/%s: %[not an expected deletion|deletion observed] " +
		"(no expectations); " + enqueued}
)

func init() {
	sim.Register(
		formOtherKind,
		formNotAPod,
		formUnreadable,
		formOwnerAdded,
		formOwnerUpdated,
		formOwnerScaled,
		formOwnerResync,
		formOwnerNewUID,
		formThenEnqueued,
		formOwnerDeleted,
		formPodAppeared,
		formPodAddedNotOurs,
		formPodAddedOwned,
		formPodAddedOwnedNo,
		formPodAddedUnowned,
		formPodAddedOrphan,
		formEachOwner,
		formOverlap,
		formPodResync,
		formPodDeleting,
		formPodRelabelled,
		formPodUpdated,
		formPodRefChanged,
		formPodNotOurs,
		formPodOwned,
		formPodBecameReady,
		formPodOrphanNobody,
		formPodOrphan,
		formPodOrphanSame,
		formTombstoneNotPod,
		formPodDeletedOrphan,
		formPodDeletedNotOur,
		formPodDeletedOwned,
		formPodDeletedOwnedNo,
	)
}

// yes is a choice of a form's %[no|yes] words.
func yes(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (m *Manager) addRS(obj api.Object, _ bool) sim.Report {
	rs, ok := m.asReplicaSet(obj)
	if !ok {
		return m.report("addRS", sim.Say(formOtherKind))
	}
	key := m.keyOf(&rs.Metadata)
	added := m.enqueue(key)
	return m.report("addRS", sim.Say(formOwnerAdded, m.owner.short, rs.Metadata.Name, key).With(added), m.ownerRef(rs))
}

func (m *Manager) updateRS(oldObj, curObj api.Object) sim.Report {
	old, ok1 := m.asReplicaSet(oldObj)
	cur, ok2 := m.asReplicaSet(curObj)
	if !ok1 || !ok2 {
		return m.report("updateRS", sim.Say(formOtherKind))
	}
	key := m.keyOf(&cur.Metadata)
	short, name := m.owner.short, cur.Metadata.Name
	var summary sim.Sentence
	if old.Metadata.UID != cur.Metadata.UID {
		// Deleted and recreated under the same name between two events: the
		// old one's expectations must go, as if its delete had been seen.
		m.expectations.DeleteExpectations(key)
		summary = sim.Say(formOwnerNewUID, short, name, old.Metadata.UID, cur.Metadata.UID).
			Then(sim.Say(formThenEnqueued, key).With(m.enqueue(key)))
	} else if specReplicas(old) != specReplicas(cur) {
		summary = sim.Say(formOwnerScaled, short, name, key).With(int64(specReplicas(old)), int64(specReplicas(cur)), m.enqueue(key))
	} else if old.Metadata.ResourceVersion == cur.Metadata.ResourceVersion {
		summary = sim.Say(formOwnerResync, short, name, key).With(m.enqueue(key))
	} else {
		summary = sim.Say(formOwnerUpdated, short, name, key).With(m.enqueue(key))
	}
	return m.report("updateRS", summary, m.ownerRef(cur))
}

func (m *Manager) deleteRS(obj any) sim.Report {
	o := obj
	tomb := false
	if t, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		o = t.Obj
		tomb = true
	}
	owner, isObj := o.(api.Object)
	if !isObj || owner == nil {
		return m.report("deleteRS", sim.Say(formUnreadable))
	}
	rs, ok := m.asReplicaSet(owner)
	if !ok {
		return m.report("deleteRS", sim.Say(formOtherKind))
	}
	key := m.keyOf(&rs.Metadata)
	m.expectations.DeleteExpectations(key)
	return m.report("deleteRS", sim.Say(formOwnerDeleted, m.owner.short, rs.Metadata.Name, key).With(yes(tomb), m.enqueue(key)), m.ownerRef(rs))
}

// resolveControllerRef returns the owner a controller reference names, if it
// is of our kind, in our cache, and the same object (same UID), with its key
// as the cache holds it: the key the handler enqueues, found rather than
// joined again for every pod event.
func (m *Manager) resolveControllerRef(namespace string, ref *api.OwnerReference) (*api.ReplicaSet, string) {
	if ref == nil || ref.Kind != string(m.owner.kind) {
		return nil, ""
	}
	obj, key, ok := m.cfg.Owners.Indexer().GetNamed(namespace, ref.Name)
	if !ok {
		return nil, ""
	}
	rs, ok := m.asReplicaSet(obj)
	if !ok || rs.Metadata.UID != ref.UID {
		return nil, ""
	}
	return rs, key
}

// podOwners returns the owners in the pod's namespace whose selectors match
// it: who might adopt an orphan.
func (m *Manager) podOwners(pod *api.Pod) []*api.ReplicaSet {
	var all []*api.ReplicaSet
	for _, obj := range m.ownerLister().Namespace(pod.Metadata.Namespace).List(everything) {
		if rs, ok := m.asReplicaSet(obj); ok {
			all = append(all, rs)
		}
	}
	return getPodReplicaSets(pod, all)
}

func podRef(pod *api.Pod) sim.Ref {
	return sim.Ref{Kind: "pod", Namespace: pod.Metadata.Namespace, Name: pod.Metadata.Name}
}

// enqueueEach enqueues the key of every owner, each said after summary, and
// adds the owners to touched.
func (m *Manager) enqueueEach(summary sim.Sentence, owners []*api.ReplicaSet, touched []sim.Ref) (sim.Sentence, []sim.Ref) {
	for _, rs := range owners {
		key := m.keyOf(&rs.Metadata)
		summary = summary.Then(sim.Say(formEachOwner, key).With(m.enqueue(key)))
		touched = append(touched, m.ownerRef(rs))
	}
	return summary, touched
}

func (m *Manager) addPod(obj api.Object, _ bool) sim.Report {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return m.report("addPod", sim.Say(formNotAPod))
	}
	if pod.Metadata.DeletionTimestamp != nil {
		// A pod that is already being deleted when we first see it (after a
		// relist, say) must count as a deletion, never as a creation.
		rep := m.deletePod(pod)
		rep.Models = "addPod"
		rep.Summary = sim.Say(formPodAppeared, pod.Metadata.Name).Then(rep.Summary)
		return rep
	}
	name := pod.Metadata.Name
	if ref := api.GetControllerOf(&pod.Metadata); ref != nil {
		rs, key := m.resolveControllerRef(pod.Metadata.Namespace, ref)
		if rs == nil {
			return m.report("addPod", sim.Say(formPodAddedNotOurs, name, ref.Kind, ref.Name), podRef(pod))
		}
		m.expectations.CreationObserved(key)
		var summary sim.Sentence
		if add, del, ok := m.expectations.GetExpectations(key); ok {
			summary = sim.Say(formPodAddedOwned, name, m.owner.short, rs.Metadata.Name, key).With(max(add, 0), max(del, 0), m.enqueue(key))
		} else {
			summary = sim.Say(formPodAddedOwnedNo, name, m.owner.short, rs.Metadata.Name, key).With(m.enqueue(key))
		}
		return m.report("addPod", summary, podRef(pod), m.ownerRef(rs))
	}
	owners := m.podOwners(pod)
	if len(owners) == 0 {
		return m.report("addPod", sim.Say(formPodAddedUnowned, name, m.owner.short), podRef(pod))
	}
	touched := make([]sim.Ref, 1, 1+len(owners))
	touched[0] = podRef(pod)
	summary, touched := m.enqueueEach(sim.Say(formPodAddedOrphan, name, m.owner.short), owners, touched)
	if len(owners) > 1 {
		summary = summary.Then(sim.Say(formOverlap))
	}
	return m.report("addPod", summary, touched...)
}

func (m *Manager) updatePod(oldObj, curObj api.Object) sim.Report {
	old, ok1 := oldObj.(*api.Pod)
	cur, ok2 := curObj.(*api.Pod)
	if !ok1 || !ok2 {
		return m.report("updatePod", sim.Say(formNotAPod))
	}
	if old.Metadata.ResourceVersion == cur.Metadata.ResourceVersion {
		// Periodic resyncs send updates for every pod; a pod that did not
		// change cannot change what a ReplicaSet should do.
		return m.report("updatePod", sim.Say(formPodResync, cur.Metadata.Name), podRef(cur))
	}
	// Whether the labels changed matters only to a pod being deleted and to
	// an orphan; a kubelet's status write to a pod with a controller, the
	// usual update, never compares them.
	labelChanged := func() bool { return !maps.Equal(old.Metadata.Labels, cur.Metadata.Labels) }
	if cur.Metadata.DeletionTimestamp != nil {
		// Graceful deletion shows up as an update that sets
		// deletionTimestamp; the delete event comes much later. Count it as
		// the deletion now, so the ReplicaSet replaces the pod without waiting
		// for the grace period.
		rep := m.deletePod(cur)
		summary := sim.Say(formPodDeleting, cur.Metadata.Name).Then(rep.Summary)
		if labelChanged() {
			// Its labels changed too: the old owner may have lost it.
			summary = summary.Then(sim.Say(formPodRelabelled)).Then(m.deletePod(old).Summary)
		}
		return m.report("updatePod", summary, rep.Touched...)
	}

	oldRef, curRef := api.GetControllerOf(&old.Metadata), api.GetControllerOf(&cur.Metadata)
	refChanged := !sameOwnerRef(oldRef, curRef)
	summary := sim.Say(formPodUpdated, cur.Metadata.Name)
	var room [2]sim.Ref // the report copies the list (m.report)
	touched := append(room[:0], podRef(cur))
	if refChanged && oldRef != nil {
		// The controller reference changed: the old owner must be told, it
		// may need a replacement.
		if prev, key := m.resolveControllerRef(old.Metadata.Namespace, oldRef); prev != nil {
			summary = summary.Then(sim.Say(formPodRefChanged, key).With(m.enqueue(key)))
			touched = append(touched, m.ownerRef(prev))
		}
	}
	if curRef != nil {
		rs, key := m.resolveControllerRef(cur.Metadata.Namespace, curRef)
		if rs == nil {
			return m.report("updatePod", summary.Then(sim.Say(formPodNotOurs, curRef.Kind, curRef.Name)), touched...)
		}
		summary = summary.Then(sim.Say(formPodOwned, m.owner.short, rs.Metadata.Name, key).With(m.enqueue(key)))
		touched = append(touched, m.ownerRef(rs))
		if !IsPodReady(old) && IsPodReady(cur) && rs.Spec.MinReadySeconds > 0 {
			// The pod just became ready; it becomes available minReadySeconds
			// later, and nothing else would wake the ReplicaSet then. The extra
			// second is upstream's: a key added after exactly minReadySeconds
			// could be synced a few milliseconds before the pod counts as
			// available (kubernetes/kubernetes#39785), and that sync would
			// not count it.
			wait := time.Duration(rs.Spec.MinReadySeconds)*time.Second + time.Second
			m.queue.AddAfter(key, wait)
			m.handTo(key)
			summary = summary.Then(sim.Say(formPodBecameReady, key).With(int64(wait)))
		}
		return m.report("updatePod", summary, touched...)
	}
	if refChanged || labelChanged() {
		// An orphan whose labels changed may now match a ReplicaSet.
		owners := m.podOwners(cur)
		if len(owners) == 0 {
			return m.report("updatePod", summary.Then(sim.Say(formPodOrphanNobody, m.owner.short)), touched...)
		}
		summary, touched = m.enqueueEach(summary.Then(sim.Say(formPodOrphan, m.owner.short)), owners, touched)
		return m.report("updatePod", summary, touched...)
	}
	return m.report("updatePod", summary.Then(sim.Say(formPodOrphanSame)), touched...)
}

func (m *Manager) deletePod(obj any) sim.Report {
	pod, ok := obj.(*api.Pod)
	tomb := false
	if !ok {
		t, isTomb := obj.(informer.DeletedFinalStateUnknown)
		if !isTomb {
			return m.report("deletePod", sim.Say(formUnreadable))
		}
		// The delete itself was missed; the tombstone carries the last state
		// the cache had, which is enough to find the owner.
		pod, ok = t.Obj.(*api.Pod)
		if !ok {
			return m.report("deletePod", sim.Say(formTombstoneNotPod, t.Key))
		}
		tomb = true
	}
	name := pod.Metadata.Name
	ref := api.GetControllerOf(&pod.Metadata)
	if ref == nil {
		return m.report("deletePod", sim.Say(formPodDeletedOrphan, name).With(yes(tomb)), podRef(pod))
	}
	rs, key := m.resolveControllerRef(pod.Metadata.Namespace, ref)
	if rs == nil {
		return m.report("deletePod", sim.Say(formPodDeletedNotOur, name, ref.Kind, ref.Name).With(yes(tomb)), podRef(pod))
	}
	observed := yes(m.expectations.DeletionObserved(key, PodKey(pod)))
	var summary sim.Sentence
	if add, del, ok := m.expectations.GetExpectations(key); ok {
		summary = sim.Say(formPodDeletedOwned, name, m.owner.short, rs.Metadata.Name, key).
			With(yes(tomb), observed, max(add, 0), max(del, 0), m.enqueue(key))
	} else {
		summary = sim.Say(formPodDeletedOwnedNo, name, m.owner.short, rs.Metadata.Name, key).With(yes(tomb), observed, m.enqueue(key))
	}
	return m.report("deletePod", summary, podRef(pod), m.ownerRef(rs))
}

// sameOwnerRef compares two controller references field by field, as
// upstream's reflect.DeepEqual does: both nil, or both set with equal fields
// and equally set flags. Comparing by hand keeps reflect out of the wasm
// build.
func sameOwnerRef(a, b *api.OwnerReference) bool {
	if a == b {
		// One reference: the versions of a pod share their owner references
		// until they change (a status write keeps them), so this is the
		// usual answer.
		return true
	}
	if a == nil || b == nil {
		return false
	}
	return a.APIVersion == b.APIVersion && a.Kind == b.Kind && a.Name == b.Name && a.UID == b.UID &&
		sameBoolPtr(a.Controller, b.Controller) && sameBoolPtr(a.BlockOwnerDeletion, b.BlockOwnerDeletion)
}

func sameBoolPtr(a, b *bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
