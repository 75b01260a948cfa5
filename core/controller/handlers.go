package controller

import (
	"maps"
	"strconv"
	"strings"
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

func (m *Manager) report(models, summary string, touched ...sim.Ref) sim.Report {
	return sim.Report{Actor: m.handlerActor(), Models: models, Summary: sim.Text(summary), Touched: touched}
}

// handed moves the keys the handler gave the queue into its report.
func (m *Manager) handed(rep sim.Report) sim.Report {
	rep.Handed, m.handoffs = m.handoffs, nil
	return rep
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

// keyOf returns the queue key of an owner, "namespace/name". Pod events come
// in runs for one owner (its sync creates a batch of pods, a kubelet starts
// them), so the manager remembers the last key it joined and hands out the
// same string while the owner is the same: a pod handler would otherwise
// make that string anew for every pod event. The memo is a function of its
// own inputs only, so it needs no place in snapshots.
func (m *Manager) keyOf(meta *api.ObjectMeta) string {
	last := &m.lastKey
	if meta.Name != last.name || meta.Namespace != last.namespace {
		*last = ownerKey{namespace: meta.Namespace, name: meta.Name, key: api.Key(meta.Namespace, meta.Name)}
	}
	return last.key
}

// ownerKey is an owner's namespace and name and the key joined from them.
type ownerKey struct{ namespace, name, key string }

// enqueue adds an owner's key to the queue and writes to b what became of
// it. The handler's report lists the key as handed to the queue (sim.Handoff,
// see handlers), also when the queue already held it: the key went there, and
// the queue's deduplication is what the learner sees happen to it. It writes
// into the handler's sentence rather than returning words of its own, because
// a pod handler runs for every pod event and a string made for each part of
// its sentence was most of what it allocated.
func (m *Manager) enqueue(b *strings.Builder, key string) {
	m.handTo(key)
	b.WriteString(key)
	switch m.queue.Add(key) {
	case workqueue.AlreadyWaiting:
		b.WriteString(" (already waiting in the queue)")
	case workqueue.RequeueAtDone:
		b.WriteString(" (a worker holds it: it goes back in the queue at Done)")
	case workqueue.AlreadyRequeueAtDone:
		b.WriteString(" (already marked to go back in the queue at Done)")
	case workqueue.Ignored:
		b.WriteString(" (the queue is shutting down: ignored)")
	}
}

// enqueueRoom is room enough for what enqueue writes after the key, for
// sizing a sentence's buffer before it is written.
const enqueueRoom = len(" (already marked to go back in the queue at Done)")

func (m *Manager) addRS(obj api.Object, _ bool) sim.Report {
	rs, ok := m.asReplicaSet(obj)
	if !ok {
		return m.report("addRS", "ignored an object of another kind")
	}
	key := m.keyOf(&rs.Metadata)
	var b strings.Builder
	b.WriteString(m.owner.short)
	b.WriteByte('/')
	b.WriteString(rs.Metadata.Name)
	b.WriteString(" added: enqueued ")
	m.enqueue(&b, key)
	return m.report("addRS", b.String(), m.ownerRef(rs))
}

func (m *Manager) updateRS(oldObj, curObj api.Object) sim.Report {
	old, ok1 := m.asReplicaSet(oldObj)
	cur, ok2 := m.asReplicaSet(curObj)
	if !ok1 || !ok2 {
		return m.report("updateRS", "ignored an object of another kind")
	}
	key := m.keyOf(&cur.Metadata)
	summary := m.owner.short + "/" + cur.Metadata.Name + " updated"
	if old.Metadata.UID != cur.Metadata.UID {
		// Deleted and recreated under the same name between two events: the
		// old one's expectations must go, as if its delete had been seen.
		m.expectations.DeleteExpectations(key)
		summary = m.owner.short + "/" + cur.Metadata.Name + " was deleted and recreated (uid " + old.Metadata.UID + " → " + cur.Metadata.UID + "): dropped the old expectations"
	} else if specReplicas(old) != specReplicas(cur) {
		summary += " (spec.replicas " + strconv.Itoa(int(specReplicas(old))) + " → " + strconv.Itoa(int(specReplicas(cur))) + ")"
	} else if old.Metadata.ResourceVersion == cur.Metadata.ResourceVersion {
		summary += " (a resync: nothing changed, but every update is enqueued)"
	}
	var b strings.Builder
	b.Grow(len(summary) + len(": enqueued ") + len(key) + enqueueRoom)
	b.WriteString(summary)
	b.WriteString(": enqueued ")
	m.enqueue(&b, key)
	return m.report("updateRS", b.String(), m.ownerRef(cur))
}

func (m *Manager) deleteRS(obj any) sim.Report {
	o := obj
	tombstone := ""
	if t, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		o = t.Obj
		tombstone = " (seen only as a tombstone after a relist)"
	}
	owner, isObj := o.(api.Object)
	if !isObj || owner == nil {
		return m.report("deleteRS", "could not read the deleted object: ignored")
	}
	rs, ok := m.asReplicaSet(owner)
	if !ok {
		return m.report("deleteRS", "ignored an object of another kind")
	}
	key := m.keyOf(&rs.Metadata)
	m.expectations.DeleteExpectations(key)
	var b strings.Builder
	b.WriteString(m.owner.short)
	b.WriteByte('/')
	b.WriteString(rs.Metadata.Name)
	b.WriteString(" deleted")
	b.WriteString(tombstone)
	b.WriteString(": its expectations are dropped and ")
	m.enqueue(&b, key)
	b.WriteString(" is enqueued so its sync cleans up")
	return m.report("deleteRS", b.String(), m.ownerRef(rs))
}

// resolveControllerRef returns the owner a controller reference names, if it
// is of our kind, in our cache, and the same object (same UID).
func (m *Manager) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.ReplicaSet {
	if ref == nil || ref.Kind != string(m.owner.kind) {
		return nil
	}
	obj, ok := m.ownerLister().Get(namespace, ref.Name)
	if !ok {
		return nil
	}
	rs, ok := m.asReplicaSet(obj)
	if !ok || rs.Metadata.UID != ref.UID {
		return nil
	}
	return rs
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

// writeNotOurs writes the end of a pod handler's sentence for a pod whose
// controller is of another kind, or not in our cache: "; its controller
// ReplicaSet/web is not one of ours". Each flavour of the manager hears
// every pod event of the shared pod informer, so for the other flavour's
// pods this is the sentence of half the handler steps.
func writeNotOurs(b *strings.Builder, ref *api.OwnerReference) {
	b.WriteString(" its controller ")
	b.WriteString(ref.Kind)
	b.WriteByte('/')
	b.WriteString(ref.Name)
	b.WriteString(" is not one of ours")
}

func (m *Manager) addPod(obj api.Object, _ bool) sim.Report {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return m.report("addPod", "ignored an object that is not a pod")
	}
	if pod.Metadata.DeletionTimestamp != nil {
		// A pod that is already being deleted when we first see it (after a
		// relist, say) must count as a deletion, never as a creation.
		rep := m.deletePod(pod)
		rep.Models = "addPod"
		rep.Summary = sim.Text("pod/" + pod.Metadata.Name + " appeared already being deleted, so it counts as a deletion: ").Then(rep.Summary)
		return rep
	}
	var b strings.Builder
	if ref := api.GetControllerOf(&pod.Metadata); ref != nil {
		rs := m.resolveControllerRef(pod.Metadata.Namespace, ref)
		if rs == nil {
			b.Grow(len("pod/ added; its controller / is not one of ours: ignored") + len(pod.Metadata.Name) + len(ref.Kind) + len(ref.Name))
			b.WriteString("pod/")
			b.WriteString(pod.Metadata.Name)
			b.WriteString(" added;")
			writeNotOurs(&b, ref)
			b.WriteString(": ignored")
			return m.report("addPod", b.String(), podRef(pod))
		}
		key := m.keyOf(&rs.Metadata)
		m.expectations.CreationObserved(key)
		b.Grow(len("pod/ added, owned by /: creation observed (expecting  more creates,  more deletes); enqueued ") + 2*3 +
			len(pod.Metadata.Name) + len(m.owner.short) + len(rs.Metadata.Name) + len(key) + enqueueRoom)
		b.WriteString("pod/")
		b.WriteString(pod.Metadata.Name)
		b.WriteString(" added, owned by ")
		b.WriteString(m.owner.short)
		b.WriteByte('/')
		b.WriteString(rs.Metadata.Name)
		b.WriteString(": creation observed (")
		m.writeExpectations(&b, key)
		b.WriteString("); enqueued ")
		m.enqueue(&b, key)
		return m.report("addPod", b.String(), podRef(pod), m.ownerRef(rs))
	}
	owners := m.podOwners(pod)
	if len(owners) == 0 {
		return m.report("addPod", "orphan pod/"+pod.Metadata.Name+" added; no "+m.owner.short+" selects it: ignored", podRef(pod))
	}
	b.WriteString("orphan pod/")
	b.WriteString(pod.Metadata.Name)
	b.WriteString(" added; enqueued every ")
	b.WriteString(m.owner.short)
	b.WriteString(" that selects it, one may adopt it:")
	touched := make([]sim.Ref, 0, 1+len(owners))
	touched = append(touched, podRef(pod))
	for _, rs := range owners {
		b.WriteByte(' ')
		m.enqueue(&b, m.keyOf(&rs.Metadata))
		touched = append(touched, m.ownerRef(rs))
	}
	if len(owners) > 1 {
		b.WriteString(" (more than one selects it: a user error, their selectors overlap)")
	}
	return m.report("addPod", b.String(), touched...)
}

func (m *Manager) updatePod(oldObj, curObj api.Object) sim.Report {
	old, ok1 := oldObj.(*api.Pod)
	cur, ok2 := curObj.(*api.Pod)
	if !ok1 || !ok2 {
		return m.report("updatePod", "ignored an object that is not a pod")
	}
	if old.Metadata.ResourceVersion == cur.Metadata.ResourceVersion {
		// Periodic resyncs send updates for every pod; a pod that did not
		// change cannot change what a ReplicaSet should do.
		return m.report("updatePod", "pod/"+cur.Metadata.Name+" unchanged (same resourceVersion, a resync): ignored", podRef(cur))
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
		summary := sim.Text("pod/" + cur.Metadata.Name + " is being deleted (deletionTimestamp set): ").Then(rep.Summary)
		if labelChanged() {
			// Its labels changed too: the old owner may have lost it.
			summary = summary.Then(sim.Text("; its labels changed as well, so its old owner is told too: ")).Then(m.deletePod(old).Summary)
		}
		return m.report("updatePod", summary.String(), rep.Touched...)
	}

	oldRef, curRef := api.GetControllerOf(&old.Metadata), api.GetControllerOf(&cur.Metadata)
	refChanged := !sameOwnerRef(oldRef, curRef)
	// The current owner is looked up first (a read of the cache, nothing
	// else) so that the sentence's buffer can be sized for it: most updates
	// are a kubelet's status writes to a pod with a controller.
	var rs *api.ReplicaSet
	if curRef != nil {
		rs = m.resolveControllerRef(cur.Metadata.Namespace, curRef)
	}
	var b strings.Builder
	switch {
	case rs != nil:
		b.Grow(len("pod/ updated; owned by /: enqueued /") + len(cur.Metadata.Name) + len(m.owner.short) + 2*len(rs.Metadata.Name) +
			len(rs.Metadata.Namespace) + enqueueRoom)
	case curRef != nil:
		b.Grow(len("pod/ updated; its controller / is not one of ours") + len(cur.Metadata.Name) + len(curRef.Kind) + len(curRef.Name))
	}
	b.WriteString("pod/")
	b.WriteString(cur.Metadata.Name)
	b.WriteString(" updated")
	touched := make([]sim.Ref, 1, 2)
	touched[0] = podRef(cur)
	if refChanged && oldRef != nil {
		// The controller reference changed: the old owner must be told, it
		// may need a replacement.
		if prev := m.resolveControllerRef(old.Metadata.Namespace, oldRef); prev != nil {
			b.WriteString("; its controller reference changed, so its old owner is enqueued: ")
			m.enqueue(&b, m.keyOf(&prev.Metadata))
			touched = append(touched, m.ownerRef(prev))
		}
	}
	if curRef != nil {
		if rs == nil {
			b.WriteByte(';')
			writeNotOurs(&b, curRef)
			return m.report("updatePod", b.String(), touched...)
		}
		key := m.keyOf(&rs.Metadata)
		b.WriteString("; owned by ")
		b.WriteString(m.owner.short)
		b.WriteByte('/')
		b.WriteString(rs.Metadata.Name)
		b.WriteString(": enqueued ")
		m.enqueue(&b, key)
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
			b.WriteString("; it just became ready, so ")
			b.WriteString(key)
			b.WriteString(" is also enqueued again in ")
			b.WriteString(wait.String())
			b.WriteString(" to count it available")
		}
		return m.report("updatePod", b.String(), touched...)
	}
	if refChanged || labelChanged() {
		// An orphan whose labels changed may now match a ReplicaSet.
		owners := m.podOwners(cur)
		if len(owners) == 0 {
			b.WriteString("; an orphan no ")
			b.WriteString(m.owner.short)
			b.WriteString(" selects: nothing to do")
			return m.report("updatePod", b.String(), touched...)
		}
		b.WriteString("; an orphan: enqueued every ")
		b.WriteString(m.owner.short)
		b.WriteString(" that selects it:")
		for _, rs := range owners {
			b.WriteByte(' ')
			m.enqueue(&b, m.keyOf(&rs.Metadata))
			touched = append(touched, m.ownerRef(rs))
		}
		return m.report("updatePod", b.String(), touched...)
	}
	b.WriteString("; an orphan whose labels did not change: nothing to do")
	return m.report("updatePod", b.String(), touched...)
}

func (m *Manager) deletePod(obj any) sim.Report {
	pod, ok := obj.(*api.Pod)
	tombstone := ""
	if !ok {
		t, isTomb := obj.(informer.DeletedFinalStateUnknown)
		if !isTomb {
			return m.report("deletePod", "could not read the deleted object: ignored")
		}
		// The delete itself was missed; the tombstone carries the last state
		// the cache had, which is enough to find the owner.
		pod, ok = t.Obj.(*api.Pod)
		if !ok {
			return m.report("deletePod", "tombstone "+t.Key+" does not hold a pod: ignored")
		}
		tombstone = " (unwrapped from a tombstone: the delete event itself was missed)"
	}
	ref := api.GetControllerOf(&pod.Metadata)
	if ref == nil {
		return m.report("deletePod", "pod/"+pod.Metadata.Name+" deleted"+tombstone+"; an orphan, nobody waits for it: ignored", podRef(pod))
	}
	var b strings.Builder
	rs := m.resolveControllerRef(pod.Metadata.Namespace, ref)
	if rs == nil {
		b.Grow(len("pod/ deleted; its controller / is not one of ours: ignored") + len(pod.Metadata.Name) + len(tombstone) +
			len(ref.Kind) + len(ref.Name))
		b.WriteString("pod/")
		b.WriteString(pod.Metadata.Name)
		b.WriteString(" deleted")
		b.WriteString(tombstone)
		b.WriteByte(';')
		writeNotOurs(&b, ref)
		b.WriteString(": ignored")
		return m.report("deletePod", b.String(), podRef(pod))
	}
	key := m.keyOf(&rs.Metadata)
	observed := m.expectations.DeletionObserved(key, PodKey(pod))
	what := "deletion observed"
	if !observed {
		what = "not an expected deletion"
	}
	b.Grow(len("pod/ deleted, owned by /:  (expecting  more creates,  more deletes); enqueued ") + 2*3 +
		len(pod.Metadata.Name) + len(tombstone) + len(m.owner.short) + len(rs.Metadata.Name) + len(what) + len(key) + enqueueRoom)
	b.WriteString("pod/")
	b.WriteString(pod.Metadata.Name)
	b.WriteString(" deleted")
	b.WriteString(tombstone)
	b.WriteString(", owned by ")
	b.WriteString(m.owner.short)
	b.WriteByte('/')
	b.WriteString(rs.Metadata.Name)
	b.WriteString(": ")
	b.WriteString(what)
	b.WriteString(" (")
	m.writeExpectations(&b, key)
	b.WriteString("); enqueued ")
	m.enqueue(&b, key)
	return m.report("deletePod", b.String(), podRef(pod), m.ownerRef(rs))
}

// expectationWords describes a key's expectations in a few words.
func (m *Manager) expectationWords(key string) string {
	var b strings.Builder
	m.writeExpectations(&b, key)
	return b.String()
}

// writeExpectations writes expectationWords(key) to b.
func (m *Manager) writeExpectations(b *strings.Builder, key string) {
	add, del, ok := m.expectations.GetExpectations(key)
	if !ok {
		b.WriteString("no expectations")
		return
	}
	b.WriteString("expecting ")
	writeInt(b, max(add, 0))
	b.WriteString(" more creates, ")
	writeInt(b, max(del, 0))
	b.WriteString(" more deletes")
}

// writeInt writes n in decimal to b, without a string of its own.
func writeInt(b *strings.Builder, n int64) {
	var digits [20]byte
	b.Write(strconv.AppendInt(digits[:0], n, 10))
}

// sameOwnerRef compares two controller references field by field, as
// upstream's reflect.DeepEqual does: both nil, or both set with equal fields
// and equally set flags. Comparing by hand keeps reflect out of the wasm
// build.
func sameOwnerRef(a, b *api.OwnerReference) bool {
	if a == nil || b == nil {
		return a == b
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
