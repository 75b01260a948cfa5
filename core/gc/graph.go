package gc

import (
	"maps"
	"slices"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
)

// node is an object of a dependent kind as the graph last saw it: upstream's
// graph node, less the owners' side (the collector keeps owners apart, in
// owners). Its slices are the stored object's, never changed in place.
type node struct {
	depRef
	owners       []api.OwnerReference
	beingDeleted bool
	finalizers   []string
}

func nodeOf(obj api.Object) node {
	m := obj.Meta()
	return node{
		depRef:       depRef{kind: obj.Kind(), namespace: m.Namespace, name: m.Name, uid: m.UID},
		owners:       m.OwnerReferences,
		beingDeleted: m.DeletionTimestamp != nil,
		finalizers:   m.Finalizers,
	}
}

// cmpDeps orders dependents by kind, namespace, name and uid, the order a
// LIST gives and the trace shows. It compares field by field and stops at
// the first that differs: dependents of one owner mostly share their kind
// and namespace, and the name decides.
func cmpDeps(a, b depRef) int { return cmpDepsAt(&a, &b) }

// cmpDepsAt is cmpDeps for dependents where they are: a depList's find
// compares the one it looks for with a dozen of an owner's thousand, and
// copying both, 128 bytes, for every comparison cost a third of it. The
// kind and the namespace, nearly always the same, are tested for equality
// before they are ordered, which is quicker than ordering them.
func cmpDepsAt(a, b *depRef) int {
	if a.kind != b.kind {
		return strings.Compare(string(a.kind), string(b.kind))
	}
	if a.namespace != b.namespace {
		return strings.Compare(a.namespace, b.namespace)
	}
	if c := strings.Compare(a.name, b.name); c != 0 {
		return c
	}
	return strings.Compare(a.uid, b.uid)
}

// link records that dep names owner.
func (g *GarbageCollector) link(owner string, dep depRef) {
	l := g.dependents[owner]
	if l.add(g.depEpoch, dep) {
		g.dependents[owner] = l
	}
}

// unlink forgets that dep names owner. dep is the object as linked: its
// kind, namespace and name never change, so its place is found as link
// found it.
func (g *GarbageCollector) unlink(owner string, dep depRef) {
	l, ok := g.dependents[owner]
	switch {
	case !ok || !l.remove(g.depEpoch, dep):
	case l.len() == 0:
		delete(g.dependents, owner)
	default:
		g.dependents[owner] = l
	}
}

// dependentsOf returns the graph's dependents of an owner, in order.
func (g *GarbageCollector) dependentsOf(owner string) []node {
	deps := g.dependents[owner].all()
	out := make([]node, len(deps))
	for i, d := range deps {
		out[i], _ = g.nodes.get(d.uid)
	}
	return out
}

// graphChange is what one object's new state changed in the graph.
type graphChange struct {
	// isNew: the object was not in the graph.
	isNew bool
	// added and removed are the owner references gained and lost (all of
	// them for a new object).
	added, removed []api.OwnerReference
	// queued is the note on the dependent queued for attemptToDeleteItem
	// because an owner it gained is gone ("" if none); waiting is the note
	// on an owner the collector cannot judge yet.
	queued, waiting string
	// woken are the owners deleting their dependents in the foreground that
	// the object no longer blocks, queued to see whether they may go.
	woken []ownerRef
}

// upsert puts an object of a dependent kind in the graph as it now is:
// upstream's processGraphChanges for an add or an update. An owner reference
// gained that names an owner of a kind the collector follows but does not
// know alive (it was seen deleted, or never seen: upstream's virtual node)
// queues the object for attemptToDeleteItem, which reads the owner live.
func (g *GarbageCollector) upsert(ctx *sim.Context, n node) graphChange {
	old, had := g.nodes.get(n.uid)
	if had && sameNode(old, n) {
		// Most updates (a pod's status) change nothing the graph keeps:
		// no edge changes, no owner is unblocked, and a queued dependent
		// already holds these values. Writing the node anyway would copy a
		// part of nodes after every snapshot or restore for nothing.
		return graphChange{}
	}
	g.nodes.put(n)
	c := graphChange{isNew: !had}
	if had {
		if len(g.deleting) > 0 {
			// Upstream's addUnblockedOwnersToDeleteQueue, before the edges
			// change.
			c.woken = g.wakeOwners(ctx, unblocked(old.owners, n.owners))
		}
		c.added, c.removed = refsDiff(old.owners, n.owners)
	} else {
		c.added = n.owners
	}
	for _, r := range c.removed {
		g.unlink(r.UID, n.depRef)
	}
	for _, r := range c.added {
		g.link(r.UID, n.depRef)
	}
	if d := g.deps[n.uid]; d != nil && d.state == depQueued && !d.stale {
		// Not taken yet: the worker's first look uses the object as now seen.
		d = d.clone()
		d.owners, d.beingDeleted, d.finalizers = n.owners, n.beingDeleted, n.finalizers
		g.deps[n.uid] = d
	}
	for _, r := range c.added {
		kind := api.Kind(r.Kind)
		if _, alive := g.owners[r.UID]; alive || !g.isOwnerKind(kind) {
			continue
		}
		if !g.upToDate(kind) {
			if c.waiting == "" {
				c.waiting = refString(r) + " is not known yet; it is checked once " + kind.Resource() + " are listed"
			}
			continue
		}
		if n.beingDeleted {
			continue
		}
		reason := g.goneReason(r.UID)
		if g.enqueueNode(ctx, n, ownerOfRef(r, n.namespace), reason) {
			c.queued = "its owner " + refString(r) + " " + reason + ": queued for attemptToDeleteItem"
		}
		break
	}
	return c
}

// remove takes an object of a dependent kind out of the graph.
func (g *GarbageCollector) remove(uid string) (node, bool) {
	n, ok := g.nodes.get(uid)
	if !ok {
		return n, false
	}
	for _, r := range n.owners {
		g.unlink(r.UID, n.depRef)
	}
	g.nodes.remove(uid)
	return n, true
}

// sameNode reports whether a and b hold the same values: the same object,
// owner references, deletion state and finalizers, nil slices apart from
// empty ones.
//
// A pod's versions share their owner references and finalizers with the
// one before unless those changed, so nearly every comparison is of a list
// with itself, taken as equal without reading it.
func sameNode(a, b node) bool {
	return a.uid == b.uid && a.name == b.name && a.namespace == b.namespace && a.kind == b.kind && a.beingDeleted == b.beingDeleted &&
		(a.owners == nil) == (b.owners == nil) && (api.SameList(a.owners, b.owners) || slices.EqualFunc(a.owners, b.owners, sameRef)) &&
		(a.finalizers == nil) == (b.finalizers == nil) && (api.SameList(a.finalizers, b.finalizers) || slices.Equal(a.finalizers, b.finalizers))
}

// sameRef reports whether two owner references hold the same values,
// comparing what their pointer fields point to.
func sameRef(a, b api.OwnerReference) bool {
	if !sameBool(a.Controller, b.Controller) || !sameBool(a.BlockOwnerDeletion, b.BlockOwnerDeletion) {
		return false
	}
	return a.APIVersion == b.APIVersion && a.Kind == b.Kind && a.Name == b.Name && a.UID == b.UID
}

func sameBool(a, b *bool) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// goneReason says why an owner that is not alive in the graph may be gone.
func (g *GarbageCollector) goneReason(uid string) string {
	switch {
	case slices.Contains(g.absent, uid):
		return "is known to be gone (absentOwnerCache)"
	case slices.Contains(g.deletedOwners, uid):
		return "was seen deleted"
	}
	return "is not in the graph (deleted, or not seen yet)"
}

// noteDeleted remembers an owner seen deleted, so that a dependent naming it
// that shows up later is checked at once.
func (g *GarbageCollector) noteDeleted(uid string) {
	if slices.Contains(g.deletedOwners, uid) {
		return
	}
	next := append(slices.Clip(g.deletedOwners), uid)
	if len(next) > AbsentOwnerCacheSize {
		next = next[len(next)-AbsentOwnerCacheSize:]
	}
	g.deletedOwners = next
}

// upToDate reports whether the collector's picture of a kind is up to date: its
// monitor has listed and has not failed since.
func (g *GarbageCollector) upToDate(kind api.Kind) bool {
	for i := range g.monitors {
		if m := &g.monitors[i]; m.kind == kind {
			return m.state == monitorOpening || m.state == monitorWatching
		}
	}
	return false
}

// sweep runs after a list of an owner kind: every owner of that kind that
// dependents in the graph name but that the collector does not know alive
// was deleted while it was not looking (or before it started), or was only
// just created; each such dependent not yet queued is queued for
// attemptToDeleteItem, which reads the owner live. It returns how many were
// queued.
func (g *GarbageCollector) sweep(ctx *sim.Context, kind api.Kind) int {
	n := 0
	for _, uid := range slices.Sorted(maps.Keys(g.dependents)) {
		if _, alive := g.owners[uid]; alive {
			continue
		}
		for _, dep := range g.dependentsOf(uid) {
			i := slices.IndexFunc(dep.owners, func(r api.OwnerReference) bool { return r.UID == uid })
			if i < 0 || api.Kind(dep.owners[i].Kind) != kind || dep.beingDeleted {
				continue
			}
			if g.enqueueNode(ctx, dep, ownerOfRef(dep.owners[i], dep.namespace), "was not in the list of "+kind.Resource()) {
				n++
			}
		}
	}
	return n
}

// The sentences of a watch event the collector handled: what it saw, then
// what came of it.
var (
	formSaw       = &sim.Form{Text: "saw " + apistore.TypeWords + " %s/%s (resourceVersion %u): "}
	formDiscarded = &sim.Form{Text: "discarded " + apistore.TypeWords + " %s/%s (resourceVersion %u): it belongs to a watch that is closed"}

	formNotInGraph     = &sim.Form{Text: "it was not in the graph"}
	formRemoved        = &sim.Form{Text: "removed from the graph"}
	formAddedNoOwner   = &sim.Form{Text: "added to the graph; it has no owner"}
	formAddedOwned     = &sim.Form{Text: "added to the graph as a dependent of %s/%s"}
	formAddedOwnedMany = &sim.Form{Text: "added to the graph as a dependent of %s"}
	formUnchanged      = &sim.Form{Text: "its owners are unchanged; nothing to do"}
	formUnblocked      = &sim.Form{Text: "its references no longer block their owners' deletion"}
	formMoved          = &sim.Form{Text: "no longer a dependent of %s; now a dependent of %s"}
	formNoLonger       = &sim.Form{Text: "no longer a dependent of %s"}
	formNowDependent   = &sim.Form{Text: "now a dependent of %s"}
	formAndThen        = &sim.Form{Text: "; %s"}
)

func init() {
	sim.Register(
		formSaw,
		formDiscarded,
		formNotInGraph,
		formRemoved,
		formAddedNoOwner,
		formAddedOwned,
		formAddedOwnedMany,
		formUnchanged,
		formUnblocked,
		formMoved,
		formNoLonger,
		formNowDependent,
		formAndThen,
	)
}

// sawEvent is the start of a step that handled a watch event: "saw
// MODIFIED pod/web-a (resourceVersion 7): ".
func sawEvent(ev *apistore.WatchEvent) sim.Sentence {
	return sim.Say(formSaw, api.ShortName(ev.Object.Kind()), ev.Object.Meta().Name).With(ev.Type.Choice(), int64(ev.ResourceVersion))
}

// dependentChange puts an object of a dependent kind in the graph as an
// event shows it, or takes it out, and says what that changed, and whether
// it changed nothing. An object that leaves the graph, or stops blocking an
// owner deleting its dependents in the foreground, queues that owner for
// attemptToDeleteItem, which sees whether it may go now (upstream's
// processGraphChanges does so for a deleted node's owners, and
// addUnblockedOwnersToDeleteQueue for a changed one's).
func (g *GarbageCollector) dependentChange(ctx *sim.Context, typ apistore.EventType, n node) (what sim.Sentence, unchanged bool) {
	if typ == apistore.Deleted {
		old, ok := g.remove(n.uid)
		if !ok {
			return sim.Say(formNotInGraph), false
		}
		what = sim.Say(formRemoved)
		if woken := g.wakeOwners(ctx, old.owners); len(woken) > 0 {
			what = what.Then(sim.Say(formAndThen, wokenNote(woken)))
		}
		return what, false
	}
	c := g.upsert(ctx, n)
	switch {
	case c.isNew && len(n.owners) == 0:
		what = sim.Say(formAddedNoOwner)
	case c.isNew && len(n.owners) == 1:
		what = sim.Say(formAddedOwned, api.ShortName(api.Kind(n.owners[0].Kind)), n.owners[0].Name)
	case c.isNew:
		what = sim.Say(formAddedOwnedMany, refNames(n.owners))
	case len(c.added) == 0 && len(c.removed) == 0 && len(c.woken) == 0:
		what, unchanged = sim.Say(formUnchanged), true
	case len(c.added) == 0 && len(c.removed) == 0:
		what = sim.Say(formUnblocked)
	case len(c.removed) > 0 && len(c.added) > 0:
		what = sim.Say(formMoved, refNames(c.removed), refNames(c.added))
	case len(c.removed) > 0:
		what = sim.Say(formNoLonger, refNames(c.removed))
	default:
		what = sim.Say(formNowDependent, refNames(c.added))
	}
	if len(c.woken) > 0 {
		what = what.Then(sim.Say(formAndThen, wokenNote(c.woken)))
	}
	if c.queued != "" {
		what = what.Then(sim.Say(formAndThen, c.queued))
	} else if c.waiting != "" {
		what = what.Then(sim.Say(formAndThen, c.waiting))
	}
	return what, unchanged
}

// dependentsListed takes the list of a dependent kind, once the monitor
// watches from it: every object listed is put in the graph, and every
// object of the kind in the graph but not listed was deleted while the
// monitor was not watching. It returns what the step says.
func (g *GarbageCollector) dependentsListed(ctx *sim.Context, i int, reply *apistore.Reply) []string {
	m := &g.monitors[i]
	listed := make(map[string]bool, len(reply.Response.Items))
	queued, waiting := 0, 0
	var woken []ownerRef
	for _, obj := range reply.Response.Items {
		listed[obj.Meta().UID] = true
		c := g.upsert(ctx, nodeOf(obj))
		if c.queued != "" {
			queued++
		} else if c.waiting != "" {
			waiting++
		}
		woken = append(woken, c.woken...)
	}
	removed := 0
	if g.nodes.len() > len(listed) {
		for _, uid := range g.nodes.sortedUIDs() {
			if n, _ := g.nodes.get(uid); n.kind == m.kind && !listed[uid] {
				n, _ := g.remove(uid)
				woken = append(woken, g.wakeOwners(ctx, n.owners)...)
				removed++
			}
		}
	}
	var notes []string
	if removed > 0 {
		notes = append(notes, plural(removed, "object", "objects")+" gone since the last list "+pick(removed == 1, "was", "were")+" removed from the graph")
	}
	if queued > 0 {
		notes = append(notes, plural(queued, "dependent", "dependents")+" of owners not alive in the graph queued for attemptToDeleteItem")
	}
	if waiting > 0 {
		notes = append(notes, plural(waiting, "dependent names", "dependents name")+" owners not known yet, checked once their kind is listed")
	}
	if len(woken) > 0 {
		notes = append(notes, wokenNote(woken))
	}
	return notes
}

// unblocked returns the references in old that block their owner's deletion
// (blockOwnerDeletion true) and that cur no longer has, or has without
// blockOwnerDeletion: upstream's removed and changed references that
// addUnblockedOwnersToDeleteQueue looks at.
func unblocked(old, cur []api.OwnerReference) []api.OwnerReference {
	var out []api.OwnerReference
	for _, r := range old {
		if !blocks(r) {
			continue
		}
		i := slices.IndexFunc(cur, func(c api.OwnerReference) bool { return c.UID == r.UID })
		if i < 0 || !blocks(cur[i]) {
			out = append(out, r)
		}
	}
	return out
}

// blocks reports whether a reference blocks its owner's deletion in the
// foreground.
func blocks(r api.OwnerReference) bool { return r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion }

func refsDiff(old, cur []api.OwnerReference) (added, removed []api.OwnerReference) {
	if len(old) == len(cur) {
		same := true
		for i := range old {
			if old[i].UID != cur[i].UID {
				same = false
				break
			}
		}
		if same {
			return nil, nil
		}
	}
	has := func(refs []api.OwnerReference, uid string) bool {
		return slices.ContainsFunc(refs, func(r api.OwnerReference) bool { return r.UID == uid })
	}
	for _, r := range cur {
		if !has(old, r.UID) {
			added = append(added, r)
		}
	}
	for _, r := range old {
		if !has(cur, r.UID) {
			removed = append(removed, r)
		}
	}
	return added, removed
}

func ownerOfRef(r api.OwnerReference, namespace string) ownerRef {
	return ownerRef{Kind: api.Kind(r.Kind), Namespace: namespace, Name: r.Name, UID: r.UID, APIVersion: r.APIVersion}
}

// refNames returns the references' names, "rs/a, rs/b".
func refNames(refs []api.OwnerReference) string {
	var b strings.Builder
	for i, r := range refs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(api.ShortName(api.Kind(r.Kind)))
		b.WriteByte('/')
		b.WriteString(r.Name)
	}
	return b.String()
}
