package world

import (
	"errors"
	"runtime"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/cluster"
	"github.com/reconcilelab/rlab/core/controller"
	"github.com/reconcilelab/rlab/core/deployment"
	"github.com/reconcilelab/rlab/core/gc"
	"github.com/reconcilelab/rlab/core/informer"
	"github.com/reconcilelab/rlab/core/record"
	"github.com/reconcilelab/rlab/core/sim"
)

// Config holds every knob of a world. The zero value is a valid world with the
// documented defaults.
type Config struct {
	// Seed seeds the kernel's random source (default 1): generated names,
	// uids, back-off jitter and --pick=random all draw from it.
	Seed uint64

	// Workers is the number of workers of each controller: both replication
	// managers and the Deployment controller (default 5,
	// kube-controller-manager's --concurrent-replicaset-syncs and
	// --concurrent-deployment-syncs).
	Workers int
	// BurstReplicas is the most pods one sync creates or deletes (default 500).
	BurstReplicas int
	// Resync is the controllers' informer resync period (default 0: off).
	Resync time.Duration

	// APILatency is how long a request takes to reach the API server, and its
	// response to come back (default 1ms each way). WatchLatency is how long a
	// change takes to reach each watcher (default 1ms).
	APILatency, WatchLatency time.Duration
	// WatchWindow is how many events per kind the API server remembers for
	// watches (default 1000).
	WatchWindow int

	// Nodes names the nodes the world starts with (default node-1, node-2,
	// node-3). KubeletStart is how long a bound pod takes to become Running
	// and Ready (default 2s); KubeletStop how long a kubelet takes to stop a
	// pod being deleted (default 1s, never past its grace period).
	Nodes                     []string
	KubeletStart, KubeletStop time.Duration

	// SnapshotEvery is how many steps apart the timeline keeps snapshots for
	// seeking (default 256). Fewer steps make seeks faster and cost memory.
	// A negative value keeps only the snapshot of the start: seeking back then
	// replays from the beginning, which suits headless runs that never seek.
	SnapshotEvery int

	// SnapshotBudget bounds the memory the timeline's snapshots take, in
	// objects snapshotted (default 20,000): a snapshot counts every object
	// in the API store at that step. When the snapshots outgrow it, every
	// other one is dropped and the spacing doubles, so a long run of a
	// large world keeps a bounded number of them. A negative value leaves
	// them unbounded.
	//
	// The default trades seeks in large worlds for memory and speed, and
	// the memory is what the speed comes from: the page caps the wasm heap
	// (GOMEMLIMIT, to stay within the page's 128 MiB), so every MiB that
	// snapshots keep live leaves the collector less room, and it runs more
	// often. At 100,000, the page's 10,000-pod world peaked at 124 to 140
	// MiB of heap natively and took 5.7 to 5.9 s to stabilize as
	// WebAssembly under node. At 50,000 it peaked at 67 to 83 MiB and took
	// a median of 3.40 s; at 20,000, 54 MiB and 3.12 s (six interleaved
	// runs each), against 2.97 s with no snapshots at all. The price is paid
	// in seeks of that world, which keeps two snapshots of its 10,000 pods
	// instead of four: natively, eight seeks across its 300,000 steps took
	// 94 ms on average where they took 40, and up to 208 ms where 81; in
	// Chromium, a jump into its run takes up to 0.56 s where it took 0.24.
	// The seeks a learner makes next, around where a jump landed, start
	// from the snapshot it left there (see World.Seek) and take 6 to 11 ms.
	// BenchmarkSeek's 1,000-pod world, which keeps about fifteen, seeks in
	// 1 ms on average, its slowest in 1.5 to 4 ms.
	SnapshotBudget int
}

// Default values of Config.
const (
	DefaultSeed           = 1
	DefaultSnapshotEvery  = 256
	DefaultSnapshotBudget = 20_000
)

func (c Config) withDefaults() Config {
	if c.Seed == 0 {
		c.Seed = DefaultSeed
	}
	if c.SnapshotEvery == 0 {
		c.SnapshotEvery = DefaultSnapshotEvery
	}
	switch {
	case c.SnapshotBudget == 0:
		c.SnapshotBudget = DefaultSnapshotBudget
	case c.SnapshotBudget < 0:
		c.SnapshotBudget = 0 // unbounded, as timeline.budget reads it
	}
	return c
}

// World is one whole simulated cluster on one kernel: the API server, the
// controllers' informers, the ReplicaSet and ReplicationController managers
// and the Deployment controller with their event recorders, the garbage
// collector, and the cluster around them (scheduler, kubelets, a kubectl
// client).
type World struct {
	cfg Config

	Kernel *sim.Kernel
	Store  *apistore.Store
	Server *apistore.Server

	// Pods, ReplicaSets and ReplicationControllers are the controllers'
	// informers, the ones the scenario language's watch faults act on.
	Pods, ReplicaSets, ReplicationControllers *informer.Informer

	// RS and RC are the two flavours of the replication manager.
	RS, RC *controller.Manager

	// RSEvents and RCEvents write the two managers' Events.
	RSEvents, RCEvents *record.Recorder

	// Deployments is the Deployment controller's informer, Deploy the
	// controller and DeployEvents its Events. They are wired from the start
	// but sleep until the API server first stores a Deployment (see
	// deployment.Controller.Activate): until then they take no step, so a
	// world without Deployments runs exactly as it did before they existed.
	Deployments  *informer.Informer
	Deploy       *deployment.Controller
	DeployEvents *record.Recorder

	GC      *gc.GarbageCollector
	Cluster *cluster.Cluster

	timeline timeline
}

// New assembles a world and starts it: every component is registered and
// scheduled to start, but no step has run yet.
func New(cfg Config) (*World, error) {
	cfg = cfg.withDefaults()
	k := sim.New(cfg.Seed)
	store := apistore.New(apistore.Options{Now: k.Wall, Rand: k.Rand(), WatchWindow: cfg.WatchWindow})
	srv := apistore.NewServer("apiserver", store, apistore.ServerConfig{Latency: cfg.APILatency, WatchLatency: cfg.WatchLatency})
	w := &World{cfg: cfg, Kernel: k, Store: store, Server: srv}

	w.Pods = informer.New(informer.Config{Name: "informer/pods", Kind: api.KindPod, Server: srv}, k)
	w.ReplicaSets = informer.New(informer.Config{Name: "informer/replicasets", Kind: api.KindReplicaSet, Server: srv}, k)
	w.ReplicationControllers = informer.New(informer.Config{Name: "informer/replicationcontrollers", Kind: api.KindReplicationController, Server: srv}, k)

	w.RSEvents = record.New(record.Config{Name: "events/replicaset-controller", Component: "replicaset-controller", Server: srv})
	w.RCEvents = record.New(record.Config{Name: "events/replication-controller", Component: "replication-controller", Server: srv})
	w.RS = controller.New(controller.Config{Kind: api.KindReplicaSet, Workers: cfg.Workers, BurstReplicas: cfg.BurstReplicas,
		Server: srv, Pods: w.Pods, Owners: w.ReplicaSets, Recorder: w.RSEvents, ResyncPeriod: cfg.Resync}, k)
	w.RC = controller.New(controller.Config{Kind: api.KindReplicationController, Workers: cfg.Workers, BurstReplicas: cfg.BurstReplicas,
		Server: srv, Pods: w.Pods, Owners: w.ReplicationControllers, Recorder: w.RCEvents, ResyncPeriod: cfg.Resync}, k)
	w.Deployments = informer.New(informer.Config{Name: "informer/deployments", Kind: api.KindDeployment, Server: srv}, k)
	w.DeployEvents = record.New(record.Config{Name: "events/" + deployment.Name, Component: deployment.Name, Server: srv})
	w.Deploy = deployment.New(deployment.Config{Workers: cfg.Workers, Server: srv, Deployments: w.Deployments,
		ReplicaSets: w.ReplicaSets, Pods: w.Pods, Recorder: w.DeployEvents, ResyncPeriod: cfg.Resync}, k)
	w.GC = gc.New(gc.Config{Server: srv}, k)
	cl, err := cluster.New(cluster.Config{Nodes: cfg.Nodes, KubeletStart: cfg.KubeletStart, KubeletStop: cfg.KubeletStop}, srv, k)
	if err != nil {
		return nil, err
	}
	w.Cluster = cl

	reg := func(name string, c sim.Component) error { return k.Register(name, c) }
	for _, c := range []struct {
		name string
		c    sim.Component
	}{
		{srv.Name(), srv},
		{w.Pods.Name(), w.Pods},
		{w.ReplicaSets.Name(), w.ReplicaSets},
		{w.ReplicationControllers.Name(), w.ReplicationControllers},
		{w.RSEvents.Name(), w.RSEvents},
		{w.RCEvents.Name(), w.RCEvents},
		{w.GC.Name(), w.GC},
	} {
		if err := reg(c.name, c.c); err != nil {
			return nil, err
		}
	}
	for _, m := range []*controller.Manager{w.RS, w.RC} {
		for _, c := range m.Components() {
			if err := reg(c.Name, c.Component); err != nil {
				return nil, err
			}
		}
	}
	if err := cl.Register(k); err != nil {
		return nil, err
	}
	// The Deployment machinery is registered last, so that the components
	// of a world without Deployments keep their places.
	for _, c := range append([]deployment.NamedComponent{{Name: w.Deployments.Name(), Component: w.Deployments},
		{Name: w.DeployEvents.Name(), Component: w.DeployEvents}}, w.Deploy.Components()...) {
		if err := reg(c.Name, c.Component); err != nil {
			return nil, err
		}
	}
	srv.WhenWritten(api.KindDeployment, func(sch sim.Scheduler) {
		w.Deploy.Activate(sch)
		w.GC.Follow(sch, gc.DeploymentKinds)
	})

	// Start order: the cluster registers its nodes first, then the
	// informers list, then the controllers wait for them to sync.
	cl.Start()
	for _, inf := range []*informer.Informer{w.Pods, w.ReplicaSets, w.ReplicationControllers} {
		inf.Start()
	}
	if err := w.RS.Start(); err != nil {
		return nil, err
	}
	if err := w.RC.Start(); err != nil {
		return nil, err
	}
	w.GC.Start()
	w.timeline.init(w)
	return w, nil
}

// Config returns the world's configuration, defaults filled in.
func (w *World) Config() Config { return w.cfg }

// Step runs one event. Every step goes through here, so the timeline can
// keep its snapshots.
func (w *World) Step() (sim.StepResult, bool) {
	var res sim.StepResult
	ok := w.stepInto(&res)
	return res, ok
}

// stepInto is Step writing into res, for a run's loop (see
// sim.Kernel.StepInto).
func (w *World) stepInto(res *sim.StepResult) bool {
	ok := w.Kernel.StepInto(res)
	if ok {
		w.timeline.stepped(w)
		yieldNowAndThen(res.N)
	}
	return ok
}

// yieldEvery is how many steps apart a running world lets the Go scheduler
// run other goroutines (see yieldNowAndThen).
const yieldEvery = 2048

// yieldNowAndThen lets other goroutines run after every yieldEvery-th step.
// The world has none of its own; the ones that matter are the garbage
// collector's mark workers. Natively they run on other threads. Under
// js/wasm there is one thread and no preemption, so a collection that
// starts in the middle of a long call could not finish its marking until
// the call returned: meanwhile the heap grew far past the collector's goal,
// and the write barriers stayed on. The page's 10,000-pod world, run to rest
// through the bridge under node without returning to JavaScript, peaked at
// 329 MiB of heap and took 5.2 s;
// yielding every 2,048 steps (some 25 ms of WebAssembly) held it to 174 MiB
// and 3.7 s. The page's Stabilize returns to JavaScript every 100 ms or so,
// which lets the collector run anyway, so it gains nothing measurable; a
// seek, which replays up to a snapshot spacing of steps in one call, and
// rlab's own runs do. Yielding changes nothing a step does, so runs stay
// deterministic; natively it costs nanoseconds per yieldEvery steps.
func yieldNowAndThen(step uint64) {
	if step%yieldEvery == 0 {
		yield()
	}
}

// yield is runtime.Gosched; tests replace it to count the calls.
var yield = runtime.Gosched

// Stabilize runs until only background work remains, or a limit is hit.
// It asks no question after each step (RunUntil with a nil done): its
// question, whether foreground work remains, is the one RunUntil asks
// before each step anyway.
func (w *World) Stabilize(lim sim.Limits) (int, error) {
	return w.RunUntil("stabilize", nil, lim, true)
}

// RunUntil steps until done holds after a step (or, with idleOK, until no
// foreground work remains, which then counts as done). It fails with a
// *sim.LimitError when a limit is reached first. A nil done never holds:
// the run ends when the world is idle (idleOK) or at a limit.
//
// done takes the result by value, 272 bytes a step, although a pointer to
// the one result the loop reuses would spare the copy (about 1% of a large
// world's instructions): a pointer handed to a function value escapes, so
// the result would live on the heap, and every step's writes into it would
// then pay the collector's write barrier whenever it is marking, which
// costs more: BenchmarkConverge's 100x10 and 10x1000 took 4.6% more CPU
// time with the pointer than without (medians of 12 interleaved runs,
// cmd/benchcmp). With the result on this function's stack,
// sim.Kernel.StepInto writing it field by field is the cheaper way (1.9%
// less CPU time than writing it whole, 14 interleaved runs).
func (w *World) RunUntil(what string, done func(sim.StepResult) bool, lim sim.Limits, idleOK bool) (int, error) {
	if lim.MaxSteps <= 0 {
		lim.MaxSteps = sim.DefaultMaxSteps
	}
	if lim.MaxTime <= 0 {
		lim.MaxTime = sim.DefaultMaxTime
	}
	start := w.Kernel.Now()
	n := 0
	var res sim.StepResult
	for {
		if idleOK && !w.Kernel.Busy() {
			return n, nil
		}
		at, ok := w.Kernel.NextAt()
		if !ok {
			if idleOK {
				return n, nil
			}
			return n, sim.ErrIdle
		}
		if n >= lim.MaxSteps || at-start > lim.MaxTime {
			next, _ := w.Kernel.Next()
			limit := "--max-steps=" + itoa(lim.MaxSteps)
			if n < lim.MaxSteps {
				limit = "--max-time=" + lim.MaxTime.String()
			}
			return n, &sim.LimitError{What: what, Steps: n, Elapsed: w.Kernel.Now() - start, Limit: limit,
				Next: sim.FormatSeconds(next.At) + " " + w.Kernel.Describe(next)}
		}
		// stepInto, written out: the compiler does not inline it, and
		// this is every step of a run.
		if w.Kernel.StepInto(&res) {
			w.timeline.stepped(w)
			yieldNowAndThen(res.N)
		}
		n++
		if done != nil && done(res) {
			return n, nil
		}
	}
}

// UntilSync runs until the next sync of an owner's key has ended: its worker
// called Done, and every write it issued had been answered.
func (w *World) UntilSync(kind api.Kind, namespace, name string, lim sim.Limits) (controller.SyncRecord, error) {
	m := w.manager(kind)
	if m == nil {
		return controller.SyncRecord{}, errors.New("no controller syncs " + string(kind) + " objects")
	}
	key := api.Key(namespace, name)
	before, _ := m.LastSync(key)
	_, err := w.RunUntil("until sync "+api.ShortName(kind)+"/"+name, func(sim.StepResult) bool {
		rec, ok := m.LastSync(key)
		return ok && rec.Seq != before.Seq
	}, lim, false)
	rec, _ := m.LastSync(key)
	return rec, err
}

func (w *World) manager(kind api.Kind) *controller.Manager {
	switch kind {
	case api.KindReplicaSet:
		return w.RS
	case api.KindReplicationController:
		return w.RC
	}
	return nil
}

// Informer returns the controllers' informer for a kind.
func (w *World) Informer(kind api.Kind) *informer.Informer {
	switch kind {
	case api.KindPod:
		return w.Pods
	case api.KindReplicaSet:
		return w.ReplicaSets
	case api.KindReplicationController:
		return w.ReplicationControllers
	case api.KindDeployment:
		return w.Deployments
	}
	return nil
}

// UntilDeploymentSync runs until the next sync of a Deployment's key has
// ended: its worker called Done, every call it made having been answered.
func (w *World) UntilDeploymentSync(namespace, name string, lim sim.Limits) (deployment.SyncRecord, error) {
	key := api.Key(namespace, name)
	before, _ := w.Deploy.LastSync(key)
	_, err := w.RunUntil("until sync deploy/"+name, func(sim.StepResult) bool {
		rec, ok := w.Deploy.LastSync(key)
		return ok && rec.Seq != before.Seq
	}, lim, false)
	rec, _ := w.Deploy.LastSync(key)
	return rec, err
}

// Send sends a request as kubectl (the learner) and returns its ID; the
// answer arrives as a step of its own (see Reply).
func (w *World) Send(req apistore.Request) uint64 { return w.Cluster.Kubectl.Send(req) }

// Reply returns kubectl's answer to a request, once it has arrived.
func (w *World) Reply(id uint64) (*apistore.Reply, bool) { return w.Cluster.Kubectl.Reply(id) }

// Call sends a request as kubectl and steps until its answer arrives.
func (w *World) Call(req apistore.Request) (apistore.Response, error) {
	id := w.Send(req)
	var reply *apistore.Reply
	_, err := w.RunUntil("waiting for the API server", func(sim.StepResult) bool {
		r, ok := w.Reply(id)
		reply = r
		return ok
	}, sim.Limits{}, false)
	if err != nil {
		return apistore.Response{}, err
	}
	return reply.Response, nil
}
