package world

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/cluster"
	"github.com/reconcilelab/rlab/core/controller"
	"github.com/reconcilelab/rlab/core/informer"
	"github.com/reconcilelab/rlab/core/sim"
)

// The chaos test: for a seed, a world with a few ReplicaSets (two of them
// with overlapping selectors) and a ReplicationController is put through a
// few hundred steps of random faults and actions drawn from a PCG seeded
// with the seed: failing creates, deletes, patches, status writes, bindings,
// lists and watches; dropped, broken, expired and delayed watches; killed,
// evicted, crashed, unready, relabeled, bare and gracefully deleted pods;
// scaling; cordoned nodes; owners deleted with either cascade and created
// again. Then everything is healed, and the world must converge within a
// bounded number of steps to what upstream promises: every owner owns
// exactly spec.replicas active pods, all Ready, its status says so, the
// queues are drained, the caches agree with the API server. A second run of
// the same seed must give the same trace.
//
//	go test ./core/world -run 'TestChaos$' -chaos.seeds=200    # the full run (make fuzz)
//	go test ./core/world -run 'TestChaos$' -chaos.seed=N -v    # one seed, to reproduce a failure
//	go test ./core/world -run 'TestChaos$' -chaos.seed=N -chaos.trace -v   # and every step it took

var (
	chaosSeed  = flag.Uint64("chaos.seed", 0, "run the chaos test for this seed only")
	chaosSeeds = flag.Int("chaos.seeds", 0, "run the chaos test for seeds 1..N (default 20; 5 with -short or under js/wasm)")
	chaosTrace = flag.Bool("chaos.trace", false, "print every step of the chaos runs, in the trace format")
)

// chaosRounds is how many random inputs a run applies, each followed by up
// to chaosMaxGap steps.
const (
	chaosRounds = 120
	chaosMaxGap = 40
)

// chaosLimits bound the convergence after healing. Time is cheap (waiting is
// one step); a key that failed often waits out a long back-off.
var chaosLimits = sim.Limits{MaxSteps: 500_000, MaxTime: 4 * time.Hour}

// chaosResync is the informers' resync period in chaos worlds: what wakes an
// owner whose expectations expired (kube-controller-manager resyncs every 12
// to 24 hours; a shorter period makes the same point sooner).
const chaosResync = 30 * time.Second

func chaosSeedList() []uint64 {
	if *chaosSeed != 0 {
		return []uint64{*chaosSeed}
	}
	n := *chaosSeeds
	if n <= 0 {
		n = 20
		if testing.Short() || runtime.GOOS == "js" {
			n = 5
		}
	}
	seeds := make([]uint64, n)
	for i := range seeds {
		seeds[i] = uint64(i + 1)
	}
	return seeds
}

func TestChaos(t *testing.T) {
	for _, seed := range chaosSeedList() {
		t.Run("seed="+strconv.FormatUint(seed, 10), func(t *testing.T) {
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("reproduce with: go test ./core/world -run 'TestChaos$' -chaos.seed=%d -v", seed)
				}
			})
			first := runChaos(t, seed, -1)
			if t.Failed() {
				return
			}
			second := runChaos(t, seed, -1)
			require.Equal(t, first.hash, second.hash, "one seed, one trace: a second run of seed %d must take the same steps", seed)
			require.Equal(t, first.fingerprint, second.fingerprint, "and end in the same world")
			if testing.Verbose() {
				t.Logf("seed %d: %d inputs, %d steps of chaos, converged in %d steps (%d in all, t=%v); %+v",
					seed, first.inputs, first.chaosSteps, first.convergeSteps, first.steps, first.now, first.stats)
			}
		})
	}
}

// TestChaosSeek travels through a chaos run with timeline snapshots: every
// step replays to the trace hash it first had (Seek fails otherwise), and
// the world at a step is the same whichever way it was reached.
func TestChaosSeek(t *testing.T) {
	seed := uint64(7)
	if *chaosSeed != 0 {
		seed = *chaosSeed
	}
	res := runChaos(t, seed, 512)
	w := res.w
	end := w.Kernel.Steps()
	require.Equal(t, res.fingerprint, fingerprint(t, w))
	mid := map[uint64]string{}
	for _, n := range []uint64{end / 3, end / 2, end/2 + 1, 2 * end / 3, 700} {
		require.NoError(t, w.Seek(n), "seek back to step %d of seed %d", n, seed)
		mid[n] = fingerprint(t, w)
	}
	require.NoError(t, w.Seek(end), "seek forward to the end")
	assert.Equal(t, res.fingerprint, fingerprint(t, w), "the end of the run, reached again by replay")
	for _, n := range []uint64{2 * end / 3, 700, end / 2, end/2 + 1, end / 3} {
		require.NoError(t, w.Seek(n))
		assert.Equal(t, mid[n], fingerprint(t, w), "step %d of seed %d, reached from the end and from the start", n, seed)
	}
	require.NoError(t, w.Seek(end))
	assert.Equal(t, res.fingerprint, fingerprint(t, w))
}

// TestChaosPrepareStepBack: in a chaos run whose only snapshot is the
// start's, a step back prepared in slices, some of them cut short, leaves
// the world as it was, at the end and at points sought back to, and the
// step back it prepared, and the return, replay exactly.
func TestChaosPrepareStepBack(t *testing.T) {
	seed := uint64(11)
	if *chaosSeed != 0 {
		seed = *chaosSeed
	}
	res := runChaos(t, seed, -1)
	w := res.w
	end := w.Kernel.Steps()
	require.Greater(t, end, uint64(2*landingMargin+1), "the run is long enough to need preparing at its end")
	for i, n := range []uint64{end, end / 2, 3 * end / 4} {
		if n-1 <= 2*landingMargin {
			continue // a step back from there replays from the start's snapshot, close enough
		}
		require.NoError(t, w.Seek(n), "seek to step %d of seed %d", n, seed)
		w.timeline.landing = timelineSnap{} // as after a run, with no landing nearby
		before := fingerprint(t, w)
		// Cut short twice, after a few slices and after a few more; an
		// abandoned preparation starts over, so the third runs to the end.
		for attempt, cut := range []int{3 + i, 11, -1} {
			slices := 0
			for done := false; !done; slices++ {
				if slices == cut {
					w.AbandonPreparation()
					require.Equal(t, before, fingerprint(t, w), "cut short at step %d (attempt %d)", n, attempt)
					break
				}
				var err error
				_, done, err = w.PrepareStepBack(97)
				require.NoError(t, err, "preparing at step %d of seed %d", n, seed)
				require.Less(t, slices, 10_000)
			}
		}
		require.Equal(t, before, fingerprint(t, w), "prepared at step %d of seed %d", n, seed)
		require.Equal(t, n-landingMargin, w.timeline.landing.step)
		require.NoError(t, w.Seek(n-1))
		require.NoError(t, w.Seek(n))
		require.Equal(t, before, fingerprint(t, w))
	}
}

// chaosOwner is one of the owners the chaos acts on.
type chaosOwner struct {
	kind     api.Kind
	name     string
	selector map[string]string
	template map[string]string
}

var chaosOwners = []chaosOwner{
	{api.KindReplicaSet, "web", map[string]string{"app": "web"}, map[string]string{"app": "web", "track": "stable"}},
	// canary's selector overlaps web's: every canary pod matches web too.
	{api.KindReplicaSet, "canary", map[string]string{"app": "web", "track": "canary"}, map[string]string{"app": "web", "track": "canary"}},
	{api.KindReplicaSet, "api", map[string]string{"app": "api"}, map[string]string{"app": "api"}},
	{api.KindReplicationController, "db", map[string]string{"app": "db"}, map[string]string{"app": "db"}},
}

// chaosLabelSets are the label sets relabeled and bare pods get: matching
// one owner, two (web and canary), or none.
var chaosLabelSets = []map[string]string{
	{"app": "web", "track": "stable"},
	{"app": "web", "track": "canary"},
	{"app": "api"},
	{"app": "db"},
	{"app": "none"},
}

func (o chaosOwner) object(replicas int32) api.Object {
	if o.kind == api.KindReplicationController {
		rc := replicationController(o.name, replicas, o.selector)
		rc.Spec.Template.Metadata.Labels = o.template
		return rc
	}
	rs := replicaSet(o.name, replicas, o.selector)
	rs.Spec.Template.Metadata.Labels = o.template
	return rs
}

// chaosFault is a kind of request the chaos makes fail, and the errors it
// may fail with.
type chaosFault struct {
	verb     apistore.Verb
	resource string
	errors   []apistore.FaultKind
}

var chaosFaults = []chaosFault{
	{apistore.VerbCreate, "pods", []apistore.FaultKind{apistore.FaultQuota, apistore.FaultServer, apistore.FaultUnavailable, apistore.FaultConflict}},
	{apistore.VerbDelete, "pods", []apistore.FaultKind{apistore.FaultServer, apistore.FaultUnavailable}},
	{apistore.VerbPatch, "pods", []apistore.FaultKind{apistore.FaultServer, apistore.FaultConflict}},
	{apistore.VerbUpdate, "replicasets/status", []apistore.FaultKind{apistore.FaultServer, apistore.FaultConflict}},
	{apistore.VerbUpdate, "replicationcontrollers/status", []apistore.FaultKind{apistore.FaultServer, apistore.FaultConflict}},
	{apistore.VerbGet, "replicasets", []apistore.FaultKind{apistore.FaultServer, apistore.FaultUnavailable}},
	{apistore.VerbCreate, "pods/binding", []apistore.FaultKind{apistore.FaultServer, apistore.FaultConflict}},
	{apistore.VerbUpdate, "pods/status", []apistore.FaultKind{apistore.FaultServer}},
	{apistore.VerbList, "pods", []apistore.FaultKind{apistore.FaultServer, apistore.FaultUnavailable}},
	{apistore.VerbWatch, "pods", []apistore.FaultKind{apistore.FaultServer, apistore.FaultExpired}},
	{apistore.VerbList, "replicasets", []apistore.FaultKind{apistore.FaultServer}},
	{apistore.VerbCreate, "events", []apistore.FaultKind{apistore.FaultServer}},
}

type chaosResult struct {
	w                 *World
	hash              uint64
	fingerprint       string
	inputs            int
	steps, chaosSteps uint64
	convergeSteps     int
	now               time.Duration
	stats             chaosStats
}

// chaosRun is one run: the world, the random source and the test.
type chaosRun struct {
	t   *testing.T
	w   *World
	rng *rand.Rand
	// bare counts the bare pods created, for their names.
	bare  int
	stats chaosStats
	// apiController and cacheController map a pod's key to the UID of its
	// controller, "" for an orphan: as the API server last had it (kept
	// after the pod is gone, so it holds its final state) and as the pod
	// informer's cache had it after the previous step.
	apiController, cacheController map[string]string
	// trackedRV is the store's resourceVersion when apiController was
	// last brought up to date.
	trackedRV uint64
	// unwoken holds the UIDs of owners that lost a pod without being told:
	// the pod informer learned of the deletion only from a relist, and the
	// tombstone's last known state did not name the owner as controller.
	unwoken map[string]bool
}

// chaosStats sums up what a run went through.
type chaosStats struct {
	tombstones, watchFaults, adoptions, releases int
	// failedRequests counts the requests an injected fault failed.
	failedRequests int
	// expired counts the owners whose expectations only expired: they
	// waited for an event their informer never delivered.
	expired int
	// unwoken counts the owners left for the resync to wake because a pod
	// they controlled went away behind a stale tombstone.
	unwoken int
}

func runChaos(t *testing.T, seed uint64, snapshotEvery int) chaosResult {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x6368616f73))
	// The world's knobs vary too: fewer workers, small bursts, and watch
	// events that overtake the answers to the writes that caused them (the
	// race the expectations exist for).
	cfg := Config{Seed: seed, SnapshotEvery: snapshotEvery, Resync: chaosResync,
		Workers:       1 + rng.IntN(5),
		BurstReplicas: pick(rng, []int{2, 3, 500}),
		APILatency:    pick(rng, []time.Duration{time.Millisecond, 3 * time.Millisecond}),
		WatchLatency:  pick(rng, []time.Duration{time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond}),
	}
	w, err := New(cfg)
	require.NoError(t, err)
	_, err = w.Stabilize(sim.Limits{})
	require.NoError(t, err)
	c := &chaosRun{t: t, w: w, rng: rng,
		apiController: map[string]string{}, cacheController: map[string]string{}, unwoken: map[string]bool{}}

	// Every random draw happens when an input is chosen, never inside its
	// Apply: an input must do the same thing when a seek replays it.
	var owners []api.Object
	for _, o := range chaosOwners {
		owners = append(owners, o.object(int32(1+c.rng.IntN(4))))
	}
	c.do("create owners", func(w *World) error {
		for _, obj := range owners {
			w.Send(apistore.Request{Verb: apistore.VerbCreate, Kind: obj.Kind(), Object: obj})
		}
		return nil
	})
	c.steps(50)

	for range chaosRounds {
		c.act()
		c.steps(c.rng.IntN(chaosMaxGap + 1))
	}
	chaosSteps := w.Kernel.Steps()

	c.heal()
	n := c.settle("after healing")
	c.passProbes()
	n += c.settle("after the readiness probes pass")
	// Owners deleted by the chaos are created again once the old ones are
	// gone, and the world settles once more.
	if c.recreateMissingOwners() {
		n += c.settle("after recreating deleted owners")
	}
	// A pod created and deleted while the pod informer was not watching is
	// never seen by it: its owner's expectations wait for an event that will
	// not come, and the owner does nothing until they expire
	// (ExpectationsTimeout, 5 minutes) and something wakes it. Upstream,
	// kube-controller-manager's informer resync does; here too. So the
	// world runs on until every expectation set before now has expired and
	// a resync has come, and settles again.
	//
	// Before that, every owner whose expectations are fulfilled must have
	// converged already: only the owners left waiting may need the expiry,
	// and only the owners that lost a pod behind a stale tombstone (see
	// trackControllers) may need the resync.
	c.checkOwners(true)
	deadline := w.Kernel.Now() + controller.ExpectationsTimeout + chaosResync + time.Second
	m, err := w.RunUntil("expectations expire", func(r sim.StepResult) bool {
		c.observe(r)
		return w.Kernel.Now() >= deadline
	}, chaosLimits, false)
	require.NoError(t, err)
	n += m + c.settle("after the expectations expired")
	c.checkConverged()
	for _, r := range w.Server.Requests() {
		if r.Fault != nil {
			c.stats.failedRequests++
		}
	}
	return chaosResult{w: w, hash: w.Kernel.Hash(), fingerprint: fingerprint(t, w), inputs: len(w.Inputs()),
		steps: w.Kernel.Steps(), chaosSteps: chaosSteps, convergeSteps: n, now: w.Kernel.Now(), stats: c.stats}
}

// settle runs until only background work (resync timers) is left.
func (c *chaosRun) settle(what string) int {
	n, err := c.w.RunUntil("stabilize", func(r sim.StepResult) bool {
		c.observe(r)
		return false
	}, chaosLimits, true)
	require.NoError(c.t, err, "%s, the world must come to rest within %d steps", what, chaosLimits.MaxSteps)
	return n
}

// do applies an input. Inputs may fail (a pod that is not running cannot
// crash); the chaos goes on.
func (c *chaosRun) do(name string, apply func(w *World) error) {
	_ = c.w.Do(name, apply)
}

func (c *chaosRun) steps(n int) {
	for range n {
		r, ok := c.w.Step()
		if !ok {
			return
		}
		c.observe(r)
	}
}

// observe counts what a step shows, for the run's summary.
func (c *chaosRun) observe(r sim.StepResult) {
	if *chaosTrace {
		fmt.Println(r.TraceLine())
	}
	c.trackControllers(r)
	switch {
	case r.Models == "processDeltas" && strings.Contains(r.Summary.String(), "tombstone"):
		c.stats.tombstones++
	case strings.HasPrefix(r.Models, "fault: "):
		c.stats.watchFaults++
	case strings.HasPrefix(r.Summary.String(), "adopted pod/"):
		c.stats.adoptions++
	case strings.HasPrefix(r.Summary.String(), "released pod/"):
		c.stats.releases++
	}
}

// trackControllers notes, for every pod, who controls it in the API server
// and in the pod informer's cache, and catches the deletion that upstream
// leaves to the periodic resync: a pod deleted while the pod informer was
// not watching comes back from the relist as a DeletedFinalStateUnknown
// tombstone carrying the cache's last state, which may be stale. If the
// cache never saw the pod adopted (the adoption's patch, too, was made while
// the watch was down), the tombstone holds an orphan and deletePod ignores
// it ("No controller should care about orphans being deleted";
// replica_set.go notes the value "might be stale" and that the owner "will
// not be woken up till the periodic resync"). The owner's expectations are
// satisfied, nothing is queued, and it stays one pod short until its own
// informer resyncs (or anything else makes it sync again).
func (c *chaosRun) trackControllers(r sim.StepResult) {
	if r.Actor == c.w.Pods.Name() && r.Models == "processDeltas" && strings.Contains(r.Summary.String(), "tombstone") {
		key, _, _ := strings.Cut(r.Summary.String(), ":")
		if uid := c.apiController[key]; uid != "" && uid != c.cacheController[key] {
			c.unwoken[uid] = true
		}
	}
	// A sync that starts after the tombstone lists the pods from a cache
	// that agrees with the API server again: the owner is awake.
	if rest, ok := strings.CutPrefix(r.Summary.String(), "took "); ok {
		key, _, _ := strings.Cut(rest, ":")
		ns, name, _ := strings.Cut(key, "/")
		kind := api.KindReplicaSet
		if strings.HasPrefix(r.Actor, "rc-") {
			kind = api.KindReplicationController
		}
		if obj, ok := c.w.Store.Object(kind, ns, name); ok {
			delete(c.unwoken, obj.Meta().UID)
		}
	}
	// Only writes change the first map, and only the pod informer's own
	// steps the second.
	if rv := c.w.Store.ResourceVersion(); rv != c.trackedRV {
		c.trackedRV = rv
		for _, p := range pods(c.w) {
			c.apiController[api.Key(p.Metadata.Namespace, p.Metadata.Name)] = controllerUID(&p.Metadata)
		}
	}
	if r.Actor == c.w.Pods.Name() {
		clear(c.cacheController)
		for _, o := range c.w.Pods.Indexer().List() {
			c.cacheController[api.Key(o.Meta().Namespace, o.Meta().Name)] = controllerUID(o.Meta())
		}
	}
}

// controllerUID returns the UID of an object's controller, "" if it has none.
func controllerUID(m *api.ObjectMeta) string {
	if ref := api.GetControllerOf(m); ref != nil {
		return ref.UID
	}
	return ""
}

// pick returns a random element of a non-empty slice.
func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

// randomPod returns the name of a random pod in the API, "" if there is none.
func (c *chaosRun) randomPod() string {
	ps := pods(c.w)
	if len(ps) == 0 {
		return ""
	}
	return pick(c.rng, ps).Metadata.Name
}

func (c *chaosRun) randomInformer() (string, *informer.Informer) {
	switch c.rng.IntN(4) {
	case 0:
		return "rs", c.w.ReplicaSets
	case 1:
		return "rc", c.w.ReplicationControllers
	}
	return "pods", c.w.Pods
}

// act draws one input and applies it.
func (c *chaosRun) act() {
	w, rng := c.w, c.rng
	switch rng.IntN(20) {
	case 0, 1:
		f := pick(rng, chaosFaults)
		rule := apistore.FaultRule{Verb: f.verb, Resource: f.resource, Count: 1 + rng.IntN(5), After: rng.IntN(3), Error: pick(rng, f.errors)}
		c.do("fail "+rule.String(), func(w *World) error { _, err := w.Store.Faults().Add(rule); return err })
	case 2:
		name, inf := c.randomInformer()
		n := 1 + rng.IntN(4)
		c.do("drop watch "+name+" --count="+strconv.Itoa(n), func(*World) error { inf.DropNextEvents(n); return nil })
	case 3:
		name, inf := c.randomInformer()
		if rng.IntN(2) == 0 {
			c.do("break watch "+name, func(*World) error { inf.BreakWatch(); return nil })
		} else {
			c.do("expire watch "+name, func(*World) error { inf.ExpireWatch(); return nil })
		}
	case 4:
		name, inf := c.randomInformer()
		d := time.Duration(1+rng.IntN(1500)) * time.Millisecond
		c.do("delay watch "+name+" "+d.String(), func(*World) error { inf.DelayEvents(d); return nil })
	case 5:
		name, inf := c.randomInformer()
		c.do("heal watch "+name, func(*World) error { inf.Heal(); return nil })
	case 6, 7:
		if p := c.randomPod(); p != "" {
			zero := int64(0)
			c.do("kill pod/"+p, func(w *World) error {
				w.Send(apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindPod, Namespace: "default", Name: p,
					DeleteOptions: &apistore.DeleteOptions{GracePeriodSeconds: &zero}})
				return nil
			})
		}
	case 8:
		if p := c.randomPod(); p != "" {
			grace := int64(rng.IntN(4))
			c.do("delete pod/"+p+" --grace-period="+strconv.FormatInt(grace, 10), func(w *World) error {
				w.Send(apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindPod, Namespace: "default", Name: p,
					DeleteOptions: &apistore.DeleteOptions{GracePeriodSeconds: &grace}})
				return nil
			})
		}
	case 9:
		if p := c.randomPod(); p != "" {
			c.do("evict pod/"+p, func(w *World) error { return w.Cluster.Kubelets.Evict("default", p) })
		}
	case 10:
		if p := c.randomPod(); p != "" {
			c.do("crash pod/"+p, func(w *World) error { return w.Cluster.Kubelets.Crash("default", p) })
		}
	case 11:
		if p := c.randomPod(); p != "" {
			r := rng.IntN(2) == 0
			c.do("set ready pod/"+p+" "+strconv.FormatBool(r), func(w *World) error { return w.Cluster.Kubelets.SetReady("default", p, r) })
		}
	case 12, 13:
		if p := c.randomPod(); p != "" {
			set := pick(rng, chaosLabelSets)
			patch := apistore.MetaPatch{SetLabels: set}
			if _, ok := set["track"]; !ok {
				patch.RemoveLabels = []string{"track"}
			}
			c.do("label pod/"+p+" "+fmt.Sprint(set)+" --overwrite", func(w *World) error {
				w.Send(apistore.Request{Verb: apistore.VerbPatch, Kind: api.KindPod, Namespace: "default", Name: p, Patch: &patch})
				return nil
			})
		}
	case 14, 15:
		o := pick(rng, chaosOwners)
		n := int32(rng.IntN(7))
		c.do("scale "+api.ShortName(o.kind)+"/"+o.name+" --replicas="+strconv.Itoa(int(n)), func(w *World) error {
			return scaleNow(w, o.kind, o.name, n)
		})
	case 16:
		c.bare++
		pod := barePod("bare-"+strconv.Itoa(c.bare), pick(rng, chaosLabelSets))
		c.do("create pod/"+pod.Metadata.Name, func(w *World) error {
			w.Send(apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindPod, Object: pod})
			return nil
		})
	case 17:
		node := pick(rng, []string{"node-1", "node-2", "node-3"})
		if rng.IntN(2) == 0 {
			c.do("cordon node/"+node, func(w *World) error { _, err := w.Cluster.Cordon(node); return err })
		} else {
			c.do("uncordon node/"+node, func(w *World) error { _, err := w.Cluster.Uncordon(node); return err })
		}
	case 18:
		d := time.Duration(500+rng.IntN(4000)) * time.Millisecond
		c.do("slow kubelet "+d.String(), func(w *World) error { w.Cluster.Kubelets.SetKubeletStart(d); return nil })
	case 19:
		o := pick(rng, chaosOwners)
		if _, ok := w.Store.Object(o.kind, "default", o.name); !ok {
			n := int32(rng.IntN(5))
			c.do("create "+api.ShortName(o.kind)+"/"+o.name, func(w *World) error {
				w.Send(apistore.Request{Verb: apistore.VerbCreate, Kind: o.kind, Object: o.object(n)})
				return nil
			})
			return
		}
		policy := pick(rng, []apistore.PropagationPolicy{apistore.DeletePropagationBackground, apistore.DeletePropagationOrphan})
		c.do("delete "+api.ShortName(o.kind)+"/"+o.name+" --cascade="+string(policy), func(w *World) error {
			w.Send(apistore.Request{Verb: apistore.VerbDelete, Kind: o.kind, Namespace: "default", Name: o.name,
				DeleteOptions: &apistore.DeleteOptions{PropagationPolicy: policy}})
			return nil
		})
	}
}

// heal ends every fault: the store's rules, the watch faults (relisting
// where events were lost), cordons and slow kubelets.
func (c *chaosRun) heal() {
	c.do("heal all", func(w *World) error {
		w.Store.Faults().HealAll()
		for _, inf := range []*informer.Informer{w.Pods, w.ReplicaSets, w.ReplicationControllers} {
			inf.Heal()
		}
		for _, n := range []string{"node-1", "node-2", "node-3"} {
			if _, err := w.Cluster.Uncordon(n); err != nil {
				return err
			}
		}
		w.Cluster.Kubelets.SetKubeletStart(0)
		return nil
	})
}

// passProbes makes the readiness probes of running pods that are not Ready
// pass again: a pod whose probe was made to fail stays not Ready until
// then. Pods still starting or restarting become Ready by themselves.
func (c *chaosRun) passProbes() {
	c.do("set ready pods true", func(w *World) error {
		for _, p := range w.Cluster.Kubelets.Pods() {
			if p.State == cluster.PodRunning && !p.Ready {
				_ = w.Cluster.Kubelets.SetReady(p.Namespace, p.Name, true)
			}
		}
		return nil
	})
}

// recreateMissingOwners creates again the owners the chaos deleted, and
// reports whether there were any.
func (c *chaosRun) recreateMissingOwners() bool {
	missing := false
	for _, o := range chaosOwners {
		if _, ok := c.w.Store.Object(o.kind, "default", o.name); !ok {
			missing = true
			c.do("create "+api.ShortName(o.kind)+"/"+o.name, func(w *World) error {
				w.Send(apistore.Request{Verb: apistore.VerbCreate, Kind: o.kind, Object: o.object(2)})
				return nil
			})
		}
	}
	return missing
}

// checkConverged asserts what upstream promises once faults are gone.
func (c *chaosRun) checkConverged() {
	t, w := c.t, c.w
	c.checkOwners(false)
	// No pod is left controlled by an owner that is gone. The garbage
	// collector builds its graph from watch events, as upstream's
	// GraphBuilder does: a pod created for an owner after the collector saw
	// the owner go (by a replication manager whose cache had not yet seen
	// it) is still found, and so is one whose owner never was in the graph.
	//
	// A pod already being deleted is not the collector's to delete
	// (attemptToDeleteItem leaves it alone, as upstream does): it goes when
	// its kubelet removes it, and the kubelet retries a removal that failed,
	// so after healing none may be left.
	live := map[string]bool{}
	for _, o := range chaosOwners {
		if obj, ok := w.Store.Object(o.kind, "default", o.name); ok {
			live[obj.Meta().UID] = true
		}
	}
	for _, p := range pods(w) {
		ref := api.GetControllerOf(&p.Metadata)
		switch {
		case ref == nil || live[ref.UID]:
		default:
			assert.Fail(t, "dangling pod", "pod/%s is controlled by %s/%s (uid %s), which is gone: the garbage collector should have collected it",
				p.Metadata.Name, ref.Kind, ref.Name, ref.UID)
		}
	}
	// Every active pod that some owner selects is owned by one: orphans are
	// adopted.
	for _, p := range pods(w) {
		if !isActive(p) || api.GetControllerOf(&p.Metadata) != nil {
			continue
		}
		for _, o := range chaosOwners {
			matches := true
			for k, v := range o.selector {
				if p.Metadata.Labels[k] != v {
					matches = false
				}
			}
			assert.False(t, matches, "orphan pod/%s matches %s/%s and should have been adopted", p.Metadata.Name, o.kind, o.name)
		}
	}
	for _, m := range []*struct {
		name string
		v    func() ([]string, int, int)
	}{
		{"rs", func() ([]string, int, int) {
			v := w.RS.View()
			return v.Queue.Waiting, len(v.Queue.Processing), len(v.Queue.Delayed)
		}},
		{"rc", func() ([]string, int, int) {
			v := w.RC.View()
			return v.Queue.Waiting, len(v.Queue.Processing), len(v.Queue.Delayed)
		}},
	} {
		waiting, processing, delayed := m.v()
		assert.Empty(t, waiting, "the %s queue is drained", m.name)
		assert.Zero(t, processing, "nothing is being processed in the %s queue", m.name)
		assert.Zero(t, delayed, "nothing waits out a delay in the %s queue", m.name)
	}
	assert.Zero(t, w.RS.Queue().Len())
	assert.Zero(t, w.RC.Queue().Len())
	for _, e := range append(w.RS.View().Expectations, w.RC.View().Expectations...) {
		assert.True(t, e.Satisfied, "expectations of %s are fulfilled or expired: %+v", e.Key, e)
	}
	for _, wv := range append(w.RS.View().Workers, w.RC.View().Workers...) {
		assert.Equal(t, "idle", wv.State, "worker %s is idle", wv.Name)
	}
	// The caches agree with the API server.
	for _, inf := range []*informer.Informer{w.Pods, w.ReplicaSets, w.ReplicationControllers} {
		var cached, stored []string
		for _, o := range inf.View().Cache {
			cached = append(cached, o.Key+"@"+o.ResourceVersion)
		}
		for _, o := range w.Store.Objects(inf.Kind(), "") {
			stored = append(stored, api.Key(o.Meta().Namespace, o.Meta().Name)+"@"+o.Meta().ResourceVersion)
		}
		slices.Sort(cached)
		slices.Sort(stored)
		assert.Equal(t, stored, cached, "the %s cache holds what the API server holds", inf.Name())
		assert.Equal(t, informer.Watching, inf.View().State, "%s watches again", inf.Name())
	}
	assert.Zero(t, w.Store.Faults().Len(), "every fault is healed")
}

// ownedByUID returns the active pods in the API store whose controller is
// the owner with this uid.
func ownedByUID(w *World, uid string) []*api.Pod {
	var out []*api.Pod
	for _, p := range pods(w) {
		if ref := api.GetControllerOf(&p.Metadata); ref != nil && ref.UID == uid && isActive(p) {
			out = append(out, p)
		}
	}
	return out
}

// checkOwners asserts that every owner owns exactly spec.replicas active
// pods, all Ready, and that its status says so. With waiting set, owners
// whose expectations are not fulfilled (they wait for events that may never
// come, until the expectations expire) are left out, and counted; so are
// owners that lost a pod behind a stale tombstone (trackControllers): no
// event will wake them before their informer's resync.
func (c *chaosRun) checkOwners(waiting bool) {
	t, w := c.t, c.w
	for _, o := range chaosOwners {
		obj, ok := w.Store.Object(o.kind, "default", o.name)
		require.True(t, ok, "%s/%s exists", o.kind, o.name)
		if waiting {
			add, del, ok := c.manager(o.kind).Expectations().GetExpectations(api.Key("default", o.name))
			if ok && (add > 0 || del > 0) {
				c.stats.expired++
				continue
			}
			if c.unwoken[obj.Meta().UID] {
				c.stats.unwoken++
				continue
			}
		}
		var want int32
		var st api.ReplicaSetStatus
		switch x := obj.(type) {
		case *api.ReplicaSet:
			want, st = *x.Spec.Replicas, x.Status
		case *api.ReplicationController:
			want = *x.Spec.Replicas
			st = api.ReplicaSetStatus{Replicas: x.Status.Replicas, FullyLabeledReplicas: x.Status.FullyLabeledReplicas,
				ReadyReplicas: x.Status.ReadyReplicas, AvailableReplicas: x.Status.AvailableReplicas, ObservedGeneration: x.Status.ObservedGeneration}
			for _, cond := range x.Status.Conditions {
				st.Conditions = append(st.Conditions, api.ReplicaSetCondition(cond))
			}
		}
		ps := ownedByUID(w, obj.Meta().UID)
		who := string(o.kind) + "/" + o.name
		assert.Len(t, ps, int(want), "%s owns exactly spec.replicas active pods: %v", who, names(ps))
		assert.Equal(t, int(want), ready(ps), "%s: every owned pod is Ready once nothing holds it back", who)
		assert.Equal(t, want, st.Replicas, "%s status.replicas", who)
		assert.Equal(t, want, st.ReadyReplicas, "%s status.readyReplicas", who)
		assert.Equal(t, want, st.AvailableReplicas, "%s status.availableReplicas (minReadySeconds 0)", who)
		assert.Equal(t, obj.Meta().Generation, st.ObservedGeneration, "%s status.observedGeneration", who)
		assert.Nil(t, rsCondition(st, api.ReplicaFailure), "%s: ReplicaFailure is gone once a sync succeeds", who)
		for _, p := range ps {
			sel := o.selector
			for k, v := range sel {
				assert.Equal(t, v, p.Metadata.Labels[k], "%s only owns pods its selector matches (pod/%s)", who, p.Metadata.Name)
			}
		}
	}
}

func (c *chaosRun) manager(kind api.Kind) *controller.Manager {
	if kind == api.KindReplicationController {
		return c.w.RC
	}
	return c.w.RS
}
