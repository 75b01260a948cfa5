package parity

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/world"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"
)

// A state at rest says what is left, not how things went: a pod that is
// gone is gone, however its deletion reached the watchers. But how it
// reached them is what every controller acts on: a real API server writes a
// pod deleted with grace period 0 first with its deletionTimestamp (a
// MODIFIED event, which the ReplicaSet controller counts as the deletion)
// and then removes it (DELETED); a store that sent only DELETED would still
// leave the same state behind. So both sides' watch events are recorded,
// and for each object that was deleted, the steps of its deletion (from the
// first event that carries a deletionTimestamp to DELETED) are compared as
// lines of state:
//
//	deletions: pods of rs/web   2× MODIFIED(grace=0) → DELETED; 1× MODIFIED(grace=30) → MODIFIED(grace=0) → DELETED
//
// A step is the event's type, and for a MODIFIED the deletion's grace
// period and the finalizers still held; repeated steps are one (the
// kubelet's status writes while a pod stops change neither).

// trailKinds are the kinds whose deletions are followed.
var trailKinds = []api.Kind{api.KindPod, api.KindReplicaSet, api.KindReplicationController, api.KindDeployment}

// Trails records the steps of the deletions one world's watchers saw.
type Trails struct {
	mu sync.Mutex
	// steps holds, by uid, the deletion steps of an object whose deletion
	// has begun, in order, with no step twice in a row.
	steps map[string][]string
	// who holds, by uid, the object whose deletion has begun, as its
	// first deletion step showed it.
	who map[string]deleted
	// rsIdent holds, by namespace/name, the identity of every ReplicaSet as
	// it was first seen (created by a Deployment, or by name): its pods are
	// named after it. The first sight, because a ReplicaSet's owner can
	// change (orphaned, adopted), and the watches of two kinds are two
	// streams, so when a pod's deletion is seen next to its ReplicaSet's
	// change is a race on a real server.
	rsIdent map[string]string
	// lastRV is, by kind, the resourceVersion of the last event recorded.
	lastRV map[api.Kind]uint64
}

// deleted is what identifies an object whose deletion has begun.
type deleted struct {
	kind api.Kind
	meta api.ObjectMeta
}

func newTrails() *Trails {
	return &Trails{steps: map[string][]string{}, who: map[string]deleted{}, rsIdent: map[string]string{}, lastRV: map[api.Kind]uint64{}}
}

// Record takes one watch event: its type, the object it carries and its
// resourceVersion.
func (t *Trails) Record(typ string, o api.Object, rv uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := o.Meta()
	kind := o.Kind()
	t.lastRV[kind] = max(t.lastRV[kind], rv)
	if kind == api.KindReplicaSet {
		if _, ok := t.rsIdent[m.Namespace+"/"+m.Name]; !ok {
			t.rsIdent[m.Namespace+"/"+m.Name] = t.identity(kind, m)
		}
	}
	var step string
	switch {
	case typ == string(apistore.Deleted):
		step = "DELETED"
	case m.DeletionTimestamp != nil:
		step = typ + "(" + deletionOf(m) + ")"
	default:
		return // not being deleted yet
	}
	uid := m.UID
	if _, ok := t.who[uid]; !ok {
		t.who[uid] = deleted{kind: kind, meta: *m}
	}
	if s := t.steps[uid]; len(s) == 0 || s[len(s)-1] != step {
		t.steps[uid] = append(s, step)
	}
}

// deletionOf writes what a MODIFIED event says of a deletion under way.
func deletionOf(m *api.ObjectMeta) string {
	var parts []string
	if g := m.DeletionGracePeriodSeconds; g != nil {
		parts = append(parts, "grace="+strconv.FormatInt(*g, 10))
	}
	if len(m.Finalizers) > 0 {
		parts = append(parts, "finalizers="+strings.Join(m.Finalizers, ","))
	}
	if len(parts) == 0 {
		return "deleting"
	}
	return strings.Join(parts, " ")
}

// identity names an object as the lines of state do, by what it belongs to
// when its name was generated: "rs/web", "rs of deploy/web", "pods of
// rs/web", "pods of rs of deploy/web", "pod/stray".
func (t *Trails) identity(kind api.Kind, m *api.ObjectMeta) string {
	prefix := nsPrefix(m.Namespace)
	if !generated(m) {
		return prefix + api.ShortName(kind) + "/" + m.Name
	}
	owner := "none"
	if ref := ownerOf(m); ref != nil {
		owner = shortKind(ref.Kind) + "/" + ref.Name
		if api.Kind(ref.Kind) == api.KindReplicaSet {
			if id, ok := t.rsIdent[m.Namespace+"/"+ref.Name]; ok {
				owner = strings.TrimPrefix(id, prefix)
			}
		}
	}
	if kind == api.KindPod {
		return prefix + "pods of " + owner
	}
	return prefix + api.ShortName(kind) + " of " + owner
}

// State writes the trails as lines of state: for each identity, how many of
// its objects took each path.
func (t *Trails) State() State {
	t.mu.Lock()
	defer t.mu.Unlock()
	groups := map[string]map[string]int{}
	for uid, steps := range t.steps {
		d := t.who[uid]
		id := t.identity(d.kind, &d.meta)
		if groups[id] == nil {
			groups[id] = map[string]int{}
		}
		groups[id][strings.Join(steps, " → ")]++
	}
	st := State{}
	for id, g := range groups {
		paths := slices.Sorted(maps.Keys(g))
		parts := make([]string, len(paths))
		for i, p := range paths {
			parts[i] = strconv.Itoa(g[p]) + "× " + p
		}
		st["deletions: "+id] = strings.Join(parts, "; ")
	}
	return st
}

// seen returns the resourceVersion of the last event recorded for a kind.
func (t *Trails) seen(kind api.Kind) uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastRV[kind]
}

// --- rlab's side ------------------------------------------------------------

// plantedSimFault, when set, changes the watch events rlab's store sent
// before they are recorded: a test plants a fault in rlab's side with it
// (a store that sends only DELETED for a grace-0 delete) to show that the
// comparison catches it. It lives here, in the parity module, which
// main.wasm never contains; nothing but a test sets it.
var plantedSimFault func([]apistore.WatchEvent) []apistore.WatchEvent

// simTrails follows an rlab world's store as a watcher from its start
// would: after each command the runner reads the events written since the
// last read (EventsSince, which neither counts as a request nor meets a
// fault).
type simTrails struct {
	*Trails
	w      *world.World
	cursor map[api.Kind]uint64
}

func newSimTrails() *simTrails { return &simTrails{Trails: newTrails()} }

// catchUp records what the world's store has written since the last call.
// A world the session replaced (a seed before the first change) starts the
// record again.
func (s *simTrails) catchUp(w *world.World) error {
	if w == nil {
		return nil
	}
	if w != s.w {
		s.w, s.Trails, s.cursor = w, newTrails(), map[api.Kind]uint64{}
	}
	for _, kind := range trailKinds {
		events, err := w.Store.EventsSince(kind, "", s.cursor[kind])
		if err != nil {
			return fmt.Errorf("reading rlab's watch events of %s: %w (the store forgot them before parity read them)", kind.Resource(), err)
		}
		if len(events) == 0 {
			continue
		}
		s.cursor[kind] = events[len(events)-1].ResourceVersion
		if plantedSimFault != nil {
			events = plantedSimFault(slices.Clone(events))
		}
		for _, ev := range events {
			s.Record(string(ev.Type), ev.Object, ev.ResourceVersion)
		}
	}
	return nil
}

// --- The real plane's side ---------------------------------------------------

// realTrails follows the real API server with a watch per kind, from the
// resourceVersion of a list taken before the script's first command; a
// RetryWatcher resumes a watch that the server closes from the last event
// it delivered, so no event is missed.
type realTrails struct {
	*Trails
	stop context.CancelFunc
	done sync.WaitGroup
}

func watchTrails(ctx context.Context, c kubernetes.Interface) (*realTrails, error) {
	ctx, cancel := context.WithCancel(ctx)
	rt := &realTrails{Trails: newTrails(), stop: cancel}
	for _, kind := range trailKinds {
		_, rv, err := listAPI(ctx, c, kind)
		if err != nil {
			cancel()
			return nil, err
		}
		w, err := watchtools.NewRetryWatcher(rv, &cache.ListWatch{WatchFunc: func(opts metav1.ListOptions) (watch.Interface, error) {
			return watchKind(ctx, c, kind, opts)
		}})
		if err != nil {
			cancel()
			return nil, err
		}
		rt.done.Go(func() {
			defer w.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case ev, ok := <-w.ResultChan():
					if !ok {
						return
					}
					rt.take(kind, ev)
				}
			}
		})
	}
	return rt, nil
}

func (rt *realTrails) take(kind api.Kind, ev watch.Event) {
	if ev.Type != watch.Added && ev.Type != watch.Modified && ev.Type != watch.Deleted {
		return
	}
	o, err := toAPI(kind, ev.Object)
	if err != nil {
		return
	}
	rv, _ := strconv.ParseUint(o.Meta().ResourceVersion, 10, 64)
	rt.Record(string(ev.Type), o, rv)
}

// caughtUp waits (a little) until the watches have delivered every object
// of a reading at its resourceVersion: the reading and the watch are two
// streams from the same server, and a checkpoint compares them.
func (rt *realTrails) caughtUp(r Reading) {
	deadline := time.Now().Add(2 * time.Second)
	for _, kind := range trailKinds {
		var newest uint64
		for _, o := range r[kind] {
			rv, _ := strconv.ParseUint(o.Meta().ResourceVersion, 10, 64)
			newest = max(newest, rv)
		}
		for rt.seen(kind) < newest && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func (rt *realTrails) close() {
	rt.stop()
	rt.done.Wait()
}

func watchKind(ctx context.Context, c kubernetes.Interface, kind api.Kind, opts metav1.ListOptions) (watch.Interface, error) {
	switch kind {
	case api.KindPod:
		return c.CoreV1().Pods("").Watch(ctx, opts)
	case api.KindReplicaSet:
		return c.AppsV1().ReplicaSets("").Watch(ctx, opts)
	case api.KindReplicationController:
		return c.CoreV1().ReplicationControllers("").Watch(ctx, opts)
	case api.KindDeployment:
		return c.AppsV1().Deployments("").Watch(ctx, opts)
	}
	return nil, fmt.Errorf("cannot watch kind %s", kind)
}
