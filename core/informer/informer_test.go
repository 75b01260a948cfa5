package informer

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sim"
)

// kubectl is a test client that ignores the answers it gets.
type kubectl struct{}

func (kubectl) Handle(*sim.Context, sim.Event) sim.Report {
	return sim.Report{Summary: sim.Text("answer")}
}
func (kubectl) Snapshot() any { return nil }
func (kubectl) Restore(any)   {}

type rig struct {
	k     *sim.Kernel
	srv   *apistore.Server
	inf   *Informer
	calls *[]string
	trace []string
}

// recorder returns a handler that writes each call as one string.
func recorder(name string, calls *[]string) Handler {
	return Handler{
		Name: name,
		OnAdd: func(obj api.Object, initial bool) sim.Report {
			s := "add " + obj.Meta().Name
			if initial {
				s += " (initial)"
			}
			*calls = append(*calls, name+": "+s)
			return sim.Report{Models: "test", Summary: sim.Text(s)}
		},
		OnUpdate: func(old, cur api.Object) sim.Report {
			s := "update " + cur.Meta().Name + " " + old.Meta().ResourceVersion + "→" + cur.Meta().ResourceVersion
			*calls = append(*calls, name+": "+s)
			return sim.Report{Summary: sim.Text(s)}
		},
		OnDelete: func(obj any) sim.Report {
			s := "delete "
			if tomb, ok := obj.(DeletedFinalStateUnknown); ok {
				s += "tombstone " + tomb.Key
			} else {
				s += obj.(api.Object).Meta().Name
			}
			*calls = append(*calls, name+": "+s)
			return sim.Report{Summary: sim.Text(s)}
		},
	}
}

func newRig(t *testing.T) *rig {
	t.Helper()
	k := sim.New(1)
	store := apistore.New(apistore.Options{Now: k.Wall, Rand: k.Rand()})
	srv := apistore.NewServer("apiserver", store, apistore.ServerConfig{})
	inf := New(Config{Name: "informer/pods", Kind: api.KindPod, Server: srv}, k)
	calls := &[]string{}
	inf.AddEventHandler(recorder("h", calls))
	require.NoError(t, k.Register("apiserver", srv))
	require.NoError(t, k.Register("informer/pods", inf))
	require.NoError(t, k.Register("kubectl", kubectl{}))
	return &rig{k: k, srv: srv, inf: inf, calls: calls}
}

func (r *rig) do(req apistore.Request) { r.srv.Send(r.k, "kubectl", req) }

func (r *rig) settle(t *testing.T) {
	t.Helper()
	for r.k.Busy() {
		res, ok := r.k.Step()
		require.True(t, ok)
		r.trace = append(r.trace, res.TraceLine())
		checkFIFO(t, r.inf.fifo)
	}
}

func (r *rig) take() []string {
	out := *r.calls
	*r.calls = nil
	return out
}

func newPod(name string) *api.Pod {
	return &api.Pod{
		Metadata: api.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{"app": "web"}},
		Spec:     api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
	}
}

func (r *rig) create(name string) {
	r.do(apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindPod, Object: newPod(name)})
}

func (r *rig) relabel(name, value string) {
	r.do(apistore.Request{Verb: apistore.VerbPatch, Kind: api.KindPod, Namespace: "default", Name: name,
		Patch: &apistore.MetaPatch{SetLabels: map[string]string{"tier": value}}})
}

func (r *rig) delete(name string) {
	zero := int64(0)
	r.do(apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindPod, Namespace: "default", Name: name,
		DeleteOptions: &apistore.DeleteOptions{GracePeriodSeconds: &zero}})
}

func (r *rig) cached() []string {
	var names []string
	for _, obj := range r.inf.Indexer().List() {
		names = append(names, obj.Meta().Name)
	}
	return names
}

// TestInformerEndToEnd steps a store, an informer and a recording handler
// through create, update, delete, a dropped event, a broken watch, an expired
// resourceVersion and a relist, and checks the exact handler calls.
func TestInformerEndToEnd(t *testing.T) {
	r := newRig(t)
	r.create("before-start")
	r.settle(t)
	r.inf.Start()
	r.settle(t)
	assert.True(t, r.inf.HasSynced())
	assert.Equal(t, []string{"h: add before-start (initial)"}, r.take(), "the first list arrives as initial adds")
	assert.Equal(t, Watching, r.inf.View().State)

	r.create("a")
	r.settle(t)
	r.relabel("a", "front")
	r.settle(t)
	assert.Equal(t, []string{"h: add a", "h: update a 2→3"}, r.take())

	r.delete("a") // unscheduled: marked, then removed, two events
	r.settle(t)
	assert.Equal(t, []string{"h: update a 3→4", "h: delete a"}, r.take())

	// A lost event: the cache never learns of c; d arrives and moves the
	// resourceVersion past c, so not even a re-watch recovers it.
	r.inf.DropNextEvents(1)
	r.create("c")
	r.settle(t)
	r.create("d")
	r.settle(t)
	assert.Equal(t, []string{"h: add d"}, r.take())
	assert.Equal(t, []string{"before-start", "d"}, r.cached())
	assert.Equal(t, 1, r.inf.View().Faults.Lost)

	// A broken watch loses nothing: the reflector re-watches from d.
	r.inf.BreakWatch()
	r.settle(t)
	r.create("e")
	r.settle(t)
	assert.Equal(t, []string{"h: add e"}, r.take())
	assert.Equal(t, 2, r.inf.View().Watches, "one re-watch")
	assert.Equal(t, 1, r.inf.View().Lists, "and no relist")

	// d's deletion is dropped (both of its events), then the watch expires:
	// the relist finds c (an add), misses d (a tombstone), and hands the
	// unchanged objects over again as updates with equal resourceVersions.
	r.inf.DropNextEvents(2)
	r.delete("d")
	r.settle(t)
	assert.Empty(t, r.take())
	r.inf.ExpireWatch()
	r.settle(t)
	assert.Equal(t, 2, r.inf.View().Lists)
	assert.Equal(t, []string{
		"h: update before-start 1→1",
		"h: add c",
		"h: update e 8→8",
		"h: delete tombstone default/d",
	}, r.take())
	assert.Equal(t, []string{"before-start", "e", "c"}, r.cached(), "the cache is whole again")
	assert.Zero(t, r.inf.View().Faults.Lost)
}

func TestInformerTraceNamesUpstreamFunctions(t *testing.T) {
	r := newRig(t)
	r.inf.Start()
	r.settle(t)
	r.create("a")
	r.settle(t)
	joined := strings.Join(r.trace, "\n")
	for _, fn := range []string{"Reflector.list", "Reflector.syncWith", "Reflector.watch", "watchHandler", "processDeltas", "registry.Create"} {
		assert.Contains(t, joined, fn)
	}
	// The chain a learner steps through for one create.
	var chain []string
	for _, line := range r.trace[len(r.trace)-5:] {
		chain = append(chain, strings.Fields(line)[2])
	}
	assert.Equal(t, []string{"apiserver", "kubectl", "informer/pods", "informer/pods", "h"}, chain,
		"request served, client answered, watch event queued, deltas processed, handler called")
}

func TestInformerStoreIsUpdatedBeforeHandlers(t *testing.T) {
	r := newRig(t)
	var sawInCache []bool
	r.inf.AddEventHandler(Handler{Name: "reader", OnAdd: func(obj api.Object, _ bool) sim.Report {
		_, ok := r.inf.Lister().Get("default", obj.Meta().Name)
		sawInCache = append(sawInCache, ok)
		return sim.Report{}
	}})
	r.inf.Start()
	r.settle(t)
	r.create("a")
	r.settle(t)
	assert.Equal(t, []bool{true}, sawInCache)
}

// TestHandlersStartTheInformersSteps: a handler's StartStep runs when each
// of the informer's steps starts, before any of the step's handler calls,
// and in no other component's steps, so a handler's arena is reused exactly
// when the lists it reported can no longer be read.
func TestHandlersStartTheInformersSteps(t *testing.T) {
	r := newRig(t)
	var log []string
	r.inf.AddEventHandler(Handler{Name: "arena",
		StartStep: func() { log = append(log, "start") },
		OnAdd: func(obj api.Object, _ bool) sim.Report {
			log = append(log, "add "+obj.Meta().Name)
			return sim.Report{}
		},
	})
	r.inf.Start()
	r.create("a")
	r.create("b")
	informerSteps := 0
	for r.k.Busy() {
		before := len(log)
		res, ok := r.k.Step()
		require.True(t, ok)
		if res.Event.To != "informer/pods" {
			assert.Len(t, log, before, "step %d (%s) is not the informer's", res.N, res.Event.To)
			continue
		}
		informerSteps++
		require.Greater(t, len(log), before, "step %d", res.N)
		assert.Equal(t, "start", log[before], "step %d starts the handler first", res.N)
		assert.NotContains(t, log[before+1:], "start", "step %d starts it once", res.N)
	}
	assert.Greater(t, informerSteps, 4)
	assert.Contains(t, log, "add a")
	assert.Contains(t, log, "add b")
}

func TestInformerLateHandlerGetsInitialAdds(t *testing.T) {
	r := newRig(t)
	r.inf.Start()
	r.create("a")
	r.create("b")
	r.settle(t)
	r.take()
	late := &[]string{}
	r.inf.AddEventHandler(recorder("late", late))
	r.settle(t)
	assert.Equal(t, []string{"late: add a (initial)", "late: add b (initial)"}, *late)
	assert.Empty(t, r.take(), "the first handler hears nothing new")
}

func TestInformerResyncReachesOnlyDueHandlers(t *testing.T) {
	r := newRig(t) // handler "h" has no resync
	fast := &[]string{}
	h := recorder("fast", fast)
	h.ResyncPeriod = 10 * time.Second
	r.inf.AddEventHandler(h)
	r.inf.Start()
	r.create("a")
	r.settle(t)
	r.take()
	*fast = nil

	r.k.Advance(10 * time.Second)
	r.settle(t)
	assert.Equal(t, []string{"fast: update a 1→1"}, *fast, "a resync is an update with the same resourceVersion")
	assert.Empty(t, r.take(), "a handler that did not ask for resyncs does not get them")
	assert.False(t, r.k.Busy(), "the resync timer is background work")
}

func TestInformerResyncPeriodHasAFloor(t *testing.T) {
	r := newRig(t)
	h := recorder("tiny", &[]string{})
	h.ResyncPeriod = time.Millisecond
	r.inf.AddEventHandler(h)
	assert.Equal(t, MinimumResyncPeriod, r.inf.View().Handlers[1].ResyncPeriod)
}

func TestInformerDelayedEventsKeepTheirOrder(t *testing.T) {
	r := newRig(t)
	r.inf.Start()
	r.settle(t)
	r.inf.DelayEvents(time.Second)
	r.create("a")
	r.k.Advance(10 * time.Millisecond)
	r.inf.DelayEvents(0) // b is not delayed, but must not overtake a
	r.create("b")
	r.settle(t)
	assert.Equal(t, []string{"h: add a", "h: add b"}, r.take())
	assert.GreaterOrEqual(t, r.k.Now(), time.Second)
}

func TestInformerHealAfterLostEventsRelists(t *testing.T) {
	r := newRig(t)
	r.inf.Start()
	r.settle(t)
	r.inf.DropNextEvents(5)
	r.create("a")
	r.settle(t)
	assert.Empty(t, r.cached())
	r.inf.Heal()
	r.settle(t)
	assert.Equal(t, []string{"a"}, r.cached())
	assert.Equal(t, 2, r.inf.View().Lists)
}

func TestInformerHealWithoutLossDoesNotRelist(t *testing.T) {
	r := newRig(t)
	r.inf.Start()
	r.settle(t)
	r.inf.DelayEvents(time.Second)
	r.inf.Heal()
	r.settle(t)
	assert.Equal(t, 1, r.inf.View().Lists)
}

func TestInformerViewShowsPendingDeltas(t *testing.T) {
	r := newRig(t)
	r.inf.Start()
	r.settle(t)
	r.create("a")
	// Step until the watch event is queued but not yet processed.
	for {
		res, _ := r.k.Step()
		if res.Models == "watchHandler" {
			break
		}
	}
	v := r.inf.View()
	require.Len(t, v.Pending, 1)
	assert.Equal(t, PendingKey{Key: "default/a", Deltas: []string{"Added"}}, v.Pending[0])
	assert.Empty(t, v.Cache, "not in the cache until processed")
	r.settle(t)
	v = r.inf.View()
	assert.Empty(t, v.Pending)
	require.Len(t, v.Cache, 1)
	assert.Equal(t, "default/a", v.Cache[0].Key)
}

func TestInformerSnapshotRestore(t *testing.T) {
	run := func(r *rig, from, to int) {
		for i := from; i < to; i++ {
			switch i % 5 {
			case 0:
				r.create("p" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)))
			case 1:
				r.relabel("p"+string(rune('a'+(i-1)%26))+string(rune('a'+(i-1)/26%26)), "x"+string(rune('a'+i%26)))
			case 3:
				if i%15 == 3 {
					r.inf.DropNextEvents(1)
				}
				if i%45 == 3 {
					r.inf.ExpireWatch()
				}
			}
			r.k.Step()
			r.k.Step()
		}
	}
	ref := newRig(t)
	ref.inf.Start()
	run(ref, 0, 200)
	ref.settle(t)

	r := newRig(t)
	r.inf.Start()
	run(r, 0, 80)
	snap, err := r.k.Snapshot()
	require.NoError(t, err)
	callsAt := len(*r.calls)
	run(r, 80, 200)
	r.settle(t)
	require.Equal(t, ref.k.Hash(), r.k.Hash())

	require.NoError(t, r.k.Restore(snap))
	*r.calls = (*r.calls)[:callsAt]
	run(r, 80, 200)
	r.settle(t)
	assert.Equal(t, ref.k.Hash(), r.k.Hash())
	assert.Equal(t, *ref.calls, *r.calls)
	assert.Equal(t, ref.cached(), r.cached())
}

func TestListerFiltersBySelectorAndNamespace(t *testing.T) {
	ix := NewIndexer()
	web := newPod("web")
	db := newPod("db")
	db.Metadata.Labels = map[string]string{"app": "db"}
	other := newPod("web-2")
	other.Metadata.Namespace = "other"
	for _, p := range []*api.Pod{web, db, other} {
		ix.Add(p)
	}
	l := Lister{ix: ix}
	sel, err := labels.Parse("app=web")
	require.NoError(t, err)
	names := func(objs []api.Object) []string {
		var out []string
		for _, o := range objs {
			out = append(out, o.Meta().Namespace+"/"+o.Meta().Name)
		}
		return out
	}
	assert.Equal(t, []string{"default/web"}, names(l.List("default", sel)))
	assert.Equal(t, []string{"default/web", "other/web-2"}, names(l.List("", sel)))
	assert.Equal(t, []string{"default/web", "default/db"}, names(l.List("default", labels.Everything())))
	assert.Equal(t, []string{"default/web", "default/db", "other/web-2"}, names(l.List("", labels.Everything())))
	assert.Nil(t, l.List("nowhere", labels.Everything()), "an empty list is nil, whatever the selector")
	assert.Nil(t, l.List("nowhere", sel))
	assert.Nil(t, Lister{ix: NewIndexer()}.List("", labels.Everything()))
	assert.Empty(t, l.List("default", labels.Nothing()))
	_, ok := l.Get("other", "web-2")
	assert.True(t, ok)
}

func everything() labels.Selector { return labels.Everything() }

// TestDormantHandlerHearsNothingUntilWoken: a dormant handler costs no step
// and is not counted among the handlers notified; woken, it is first told
// about everything in the cache as initial adds, then hears what follows.
// Whether it is awake is state: restoring a snapshot taken while it slept
// puts it back to sleep.
func TestDormantHandlerHearsNothingUntilWoken(t *testing.T) {
	r := newRig(t)
	late := &[]string{}
	id := r.inf.AddDormantEventHandler(recorder("late", late))
	r.inf.Start()
	r.create("a")
	r.settle(t)
	assert.Empty(t, *late)
	assert.Contains(t, strings.Join(r.trace, "\n"), "1 handler notified")
	asleep, err := r.k.Snapshot()
	require.NoError(t, err)

	r.inf.WakeEventHandler(id)
	r.settle(t)
	assert.Equal(t, []string{"late: add a (initial)"}, *late)
	r.create("b")
	r.settle(t)
	assert.Equal(t, []string{"late: add a (initial)", "late: add b"}, *late)
	assert.Contains(t, r.trace[len(r.trace)-3], "2 handlers notified")

	require.NoError(t, r.k.Restore(asleep))
	*late = nil
	r.create("c")
	r.settle(t)
	assert.Empty(t, *late, "restored to before the wake, it sleeps again")
}

// TestSkipUnhandledDropsNotificationsBeforeDelivery: a handler with only a
// delete function and SkipUnhandled set gets no step for adds and updates.
func TestSkipUnhandledDropsNotificationsBeforeDelivery(t *testing.T) {
	r := newRig(t)
	var deletes []string
	r.inf.AddEventHandler(Handler{Name: "deletes-only", SkipUnhandled: true,
		OnDelete: func(obj any) sim.Report {
			deletes = append(deletes, obj.(api.Object).Meta().Name)
			return sim.Report{Summary: sim.Text("seen")}
		}})
	r.inf.Start()
	r.create("a")
	r.settle(t)
	r.relabel("a", "front")
	r.settle(t)
	r.delete("a")
	r.settle(t)
	assert.Equal(t, []string{"a"}, deletes)
	trace := strings.Join(r.trace, "\n")
	assert.NotContains(t, trace, "ignored add")
	assert.NotContains(t, trace, "ignored update")
	assert.Contains(t, trace, "Deleted → cache removed, 2 handlers notified")
	assert.Contains(t, trace, "Replaced → cache added, 1 handler notified")
}

// TestProcessingAKeySaysItsSentenceWithoutWritingIt: the step that
// processes a key's deltas runs for every change of every object, so its
// usual sentence (the key, one delta, the keys still pending) is said in
// one sentence's room, with nothing written until it is read.
func TestProcessingAKeySaysItsSentenceWithoutWritingIt(t *testing.T) {
	key := "default/web-1"
	var s sim.Sentence
	allocs := testing.AllocsPerRun(10, func() {
		s = sim.Say(formDeltaUnchanged, key, string(Sync), "42").With(1, 2).Then(sim.Say(formMorePending).With(3))
	})
	assert.Zero(t, allocs)
	assert.Equal(t, "default/web-1: Sync → cache unchanged (resourceVersion 42), 2 handlers notified (3 more keys pending)", s.String())

	two := sim.Say(formDeltaUpdated, key, string(Updated)).With(1, 1).
		Then(sim.Say(formDeltaRemoved, "").With(0, 1)).Then(sim.Say(formMorePending).With(1))
	assert.Equal(t, "default/web-1: Updated → cache updated, 1 handler notified Deleted → cache removed, 1 handler notified (1 more key pending)",
		two.String(), "a second delta follows the first, without the key")
}
