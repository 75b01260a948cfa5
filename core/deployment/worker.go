package deployment

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/workqueue"
)

// worker is one logical worker: a component that takes a key from the
// queue, runs syncDeployment for it, and asks for the next key. While its
// sync waits for the API it is busy; the queue guarantees that no other
// worker holds the same key meanwhile.
//
// A sync here may issue a dozen API calls one after the other (claim
// patches, a ReplicaSet create, status writes, scale updates), each of
// which upstream waits for on the worker's goroutine. The kernel has no
// goroutines, so a sync runs as far as its next call, which is sent as a
// request, and the worker's step ends. When the answer arrives, the sync
// runs again from the top with every answer so far: the calls already made
// are answered from the record instead of sent, and so are the cache reads
// and clock readings it made (so it sees what it saw then), until it
// reaches the new call or its end. Only the part after the last answer is
// live: it alone may send, record events, queue keys and write the trace.
// The sync's code therefore reads like upstream's, and a sync in progress is
// a plain value (its key and its record) that a snapshot copies.
type worker struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	c    *Controller
	name string

	// run is the sync in progress, nil while idle.
	run *syncRun

	// idle is set while the worker waits for the queue to wake it.
	idle bool

	// syncs counts the syncs the worker finished.
	syncs int
}

// syncRun is one sync of one key: what it has seen so far.
type syncRun struct {
	key string
	// started is when the worker took the key.
	started time.Duration
	// replies are the answers to the calls made so far, in order; reads the
	// values of the cache reads and clock readings, in order. Both are
	// append-only, and what they hold is never changed, so a snapshot
	// shares them.
	replies []apistore.Response
	reads   []any
	// waiting is the ID of the request in flight; request describes it.
	waiting uint64
	request string
}

func (r *syncRun) clone() *syncRun {
	c := *r
	c.replies = slices.Clip(r.replies)
	c.reads = slices.Clip(r.reads)
	return &c
}

// StartStep reuses its controller's arena (Controller.StartStep).
func (w *worker) StartStep() { w.c.StartStep() }

// Handle runs one step of the worker: asking the queue for a key, or going
// on with its sync once an answer arrived.
func (w *worker) Handle(ctx *sim.Context, ev sim.Event) sim.Report {
	switch ev.Kind {
	case eventWorkerRun, workqueue.KindWake:
		return w.processNextWorkItem(ctx)
	case apistore.EventResponse:
		reply := ev.Data.(*apistore.Reply)
		if w.run == nil || w.run.waiting != reply.ID {
			return sim.Report{Actor: w.name, Summary: sim.Text("ignored an answer to a request of a sync that is over")}
		}
		w.run.replies = append(w.run.replies, reply.Response)
		intro := "answer to " + w.run.request + ": " + reply.Response.Outcome()
		if reply.Response.Err != nil {
			intro += " (" + reply.Response.Err.Error() + ")"
		}
		return w.execute(ctx, intro)
	}
	return sim.Report{Actor: w.name, Summary: sim.Say(formIgnoredEvent, ev.Kind)}
}

// processNextWorkItem is upstream's worker loop body: Get a key and sync it.
func (w *worker) processNextWorkItem(ctx *sim.Context) sim.Report {
	if w.run != nil {
		return sim.Report{Actor: w.name, Summary: sim.Say(formBusy, w.run.key)}
	}
	key, ok, shutdown := w.c.queue.Get(w.name)
	if shutdown {
		w.idle = false
		return sim.Report{Actor: w.name, Models: "dc.processNextWorkItem", Summary: sim.Text("the queue is shutting down: the worker stops")}
	}
	if !ok {
		w.idle = true
		return sim.Report{Actor: w.name, Models: "dc.processNextWorkItem", Summary: sim.Text("the queue is empty: idle until a key arrives")}
	}
	w.idle = false
	w.run = &syncRun{key: key, started: ctx.Now()}
	rep := w.execute(ctx, "took "+key)
	// The step that takes a key touches its Deployment, whatever the sync
	// went on to touch: the page marks it, and the loop's token names it.
	if ns, name, ok := strings.Cut(key, "/"); ok {
		d := sim.Ref{Kind: "deploy", Namespace: ns, Name: name}
		if !slices.ContainsFunc(rep.Touched, func(r sim.Ref) bool {
			return r.Kind == d.Kind && r.Namespace == d.Namespace && r.Name == d.Name
		}) {
			rep.Touched = append([]sim.Ref{d}, rep.Touched...)
		}
	}
	return rep
}

var formBusy = &sim.Form{Text: "woken while busy syncing %s: keeps working"}

func init() { sim.Register(formBusy) }

// execute runs the sync from the top with what it has seen so far, and, if
// it ended, finishes it as upstream's processNextWorkItem and handleErr do.
// Its sentence joins the sync's own words, which its SyncRecord keeps as
// its decision, so it is written out (sim.Text) from strings that exist
// already.
func (w *worker) execute(ctx *sim.Context, intro string) sim.Report {
	x := &execution{w: w, run: w.run, ctx: ctx}
	sync := &dc{env: x}
	err := sync.syncDeployment(w.run.key)
	rep := sim.Report{Actor: w.name, Models: x.models, Touched: x.touched, Handed: x.handed}
	if rep.Models == "" {
		rep.Models = "syncDeployment"
	}
	parts := append([]string{intro}, x.live...)
	if x.sent {
		rep.Summary = sim.Text(strings.Join(parts, "; "))
		return rep
	}
	key := w.run.key
	q := w.c.queue
	if !waitsForDeadline(sync.d) && q.Quiet(key) {
		parts = append(parts, "its pending progress check can change nothing now, so it no longer keeps the world busy")
	}
	switch {
	case err == nil || apistore.HasStatusCause(err, apistore.CauseTypeNamespaceTerminating):
		q.Forget(key)
		parts = append(parts, "sync of "+key+" done")
	case q.NumRequeues(key) < MaxRetries:
		wait, _ := q.AddRateLimited(key)
		rep.Handed = append(rep.Handed, w.c.toQueue(key))
		parts = append(parts, "sync of "+key+" failed ("+err.Error()+"): retry in "+wait.String()+
			" (requeue "+strconv.Itoa(q.NumRequeues(key))+")")
	default:
		q.Forget(key)
		parts = append(parts, "sync of "+key+" failed ("+err.Error()+") for the "+strconv.Itoa(MaxRetries+1)+
			"th time in a row: dropped from the queue until something enqueues it again")
	}
	q.Done(key)
	w.c.syncs++
	rec := SyncRecord{Key: key, Worker: w.name, Start: w.run.started, End: ctx.Now(), Decision: strings.Join(x.all, "; "),
		Seq: w.c.syncs, Count: w.c.last[key].Count + 1, Scales: x.scales}
	if err != nil {
		rec.Err = err.Error()
	}
	if sync.d != nil {
		rec.UID = sync.d.Metadata.UID
	}
	w.c.last[key] = rec
	if len(rec.Scales) > 0 {
		w.c.lastScaled[key] = rec
	}
	w.run = nil
	w.syncs++
	ctx.After(0, w.name, eventWorkerRun, nil)
	rep.Summary = sim.Text(strings.Join(parts, "; "))
	return rep
}

// Describe says what a pending worker event will do.
func (w *worker) Describe(ev sim.Event) string {
	switch ev.Kind {
	case apistore.EventResponse:
		return "answer to " + ev.Data.(*apistore.Reply).Request.String() + " reaches " + w.name
	case workqueue.KindWake:
		return w.name + " is woken: a key is waiting"
	}
	return w.name + " asks the queue for a key"
}

type workerSnapshot struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	run   *syncRun
	idle  bool
	syncs int
}

// Snapshot captures the worker and its sync in progress.
func (w *worker) Snapshot() any {
	s := workerSnapshot{idle: w.idle, syncs: w.syncs}
	if w.run != nil {
		s.run = w.run.clone()
	}
	return s
}

// Restore returns the worker to a snapshot.
func (w *worker) Restore(v any) {
	s := v.(workerSnapshot)
	w.idle, w.syncs = s.idle, s.syncs
	w.run = nil
	if s.run != nil {
		w.run = s.run.clone()
	}
}

// execution is one run of a sync from the top: the env the world gives a
// sync (see worker).
type execution struct {
	w   *worker
	run *syncRun
	ctx *sim.Context

	// calls and reads count the calls and reads made so far in this run;
	// sent is set once it has sent a request, after which it does nothing
	// more.
	calls, reads int
	sent         bool

	// live are the sentences of the live part, all those of the whole run;
	// models, touched and handed make the step's report. scales are the
	// ReplicaSets the whole run scaled.
	live, all []string
	scales    []Scale
	models    string
	touched   []sim.Ref
	handed    []sim.Handoff
}

// isLive says whether the run is past the last recorded answer.
func (x *execution) isLive() bool { return !x.sent && x.calls == len(x.run.replies) }

// call answers a call from the record, or sends it and suspends the sync.
func (x *execution) call(req apistore.Request) (apistore.Response, error) {
	if x.sent {
		return apistore.Response{}, errSuspend
	}
	if x.calls < len(x.run.replies) {
		r := x.run.replies[x.calls]
		x.calls++
		return r, nil
	}
	x.run.waiting = x.w.c.cfg.Server.Send(x.ctx, x.w.name, req)
	x.run.request = req.String()
	x.sent = true
	return apistore.Response{}, errSuspend
}

// memo answers a read from the record, or makes it and records it.
func (x *execution) memo(read func() any) any {
	if x.reads < len(x.run.reads) {
		v := x.run.reads[x.reads]
		x.reads++
		return v
	}
	v := read()
	x.run.reads = append(x.run.reads, v)
	x.reads++
	return v
}

// rsAnswer returns a copy of the ReplicaSet an answer carries: the sync
// may change what it is given, and the record must not change.
func rsAnswer(resp apistore.Response, err error) (*api.ReplicaSet, error) {
	if err != nil {
		return nil, err
	}
	if resp.Err != nil {
		return nil, resp.Err
	}
	return resp.Object.(*api.ReplicaSet).DeepCopy(), nil
}

func (x *execution) createReplicaSet(rs *api.ReplicaSet) (*api.ReplicaSet, error) {
	return rsAnswer(x.call(apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindReplicaSet, Namespace: rs.Metadata.Namespace, Object: rs}))
}

func (x *execution) updateReplicaSet(rs *api.ReplicaSet) (*api.ReplicaSet, error) {
	return rsAnswer(x.call(apistore.Request{Verb: apistore.VerbUpdate, Kind: api.KindReplicaSet, Namespace: rs.Metadata.Namespace, Object: rs}))
}

func errOf(resp apistore.Response, err error) error {
	if err != nil {
		return err
	}
	return resp.Err
}

func (x *execution) deleteReplicaSet(namespace, name string) error {
	return errOf(x.call(apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindReplicaSet, Namespace: namespace, Name: name}))
}

func (x *execution) patchReplicaSet(namespace, name string, p apistore.MetaPatch) error {
	return errOf(x.call(apistore.Request{Verb: apistore.VerbPatch, Kind: api.KindReplicaSet, Namespace: namespace, Name: name, Patch: &p}))
}

func (x *execution) getDeployment(namespace, name string) (*api.Deployment, error) {
	resp, err := x.call(apistore.Request{Verb: apistore.VerbGet, Kind: api.KindDeployment, Namespace: namespace, Name: name})
	if err := errOf(resp, err); err != nil {
		return nil, err
	}
	return resp.Object.(*api.Deployment).DeepCopy(), nil
}

// updateDeployment and updateDeploymentStatus send d as it is, with the
// resourceVersion it was read with: like upstream's client, which never
// refreshes its copy after a write, a second write in one sync is refused
// as a conflict.
func (x *execution) updateDeployment(d *api.Deployment) error {
	return errOf(x.call(apistore.Request{Verb: apistore.VerbUpdate, Kind: api.KindDeployment, Namespace: d.Metadata.Namespace,
		Object: d.DeepCopy()}))
}

func (x *execution) updateDeploymentStatus(d *api.Deployment) error {
	return errOf(x.call(apistore.Request{Verb: apistore.VerbUpdate, Kind: api.KindDeployment, Subresource: apistore.SubresourceStatus,
		Namespace: d.Metadata.Namespace, Object: d.DeepCopy()}))
}

func (x *execution) cachedDeployment(namespace, name string) (*api.Deployment, bool) {
	d, _ := x.memo(func() any {
		d, _ := x.w.c.cachedDeployment(namespace, name)
		return d
	}).(*api.Deployment)
	return d, d != nil
}

func (x *execution) cachedReplicaSets(namespace string) []*api.ReplicaSet {
	rss, _ := x.memo(func() any { return x.w.c.cachedReplicaSets(namespace) }).([]*api.ReplicaSet)
	return slices.Clone(rss)
}

func (x *execution) cachedReplicaSet(namespace, name string) (*api.ReplicaSet, bool) {
	rs, _ := x.memo(func() any {
		rs, _ := x.w.c.cachedReplicaSet(namespace, name)
		return rs
	}).(*api.ReplicaSet)
	return rs, rs != nil
}

func (x *execution) cachedPods(namespace string, sel labels.Selector, owners []string) []*api.Pod {
	pods, _ := x.memo(func() any { return x.w.c.cachedPods(namespace, sel, owners) }).([]*api.Pod)
	return pods
}

func (x *execution) now() time.Time {
	return x.memo(func() any { return x.ctx.Wall() }).(time.Time)
}

func (x *execution) event(d *api.Deployment, eventType, reason, message string) {
	if x.isLive() && x.w.c.cfg.Recorder != nil {
		x.w.c.cfg.Recorder.Eventf(x.ctx, d, eventType, reason, message)
	}
}

func (x *execution) enqueueRateLimited(key string) {
	if x.isLive() {
		x.w.c.queue.AddRateLimited(key)
		x.handed = append(x.handed, x.w.c.toQueue(key))
	}
}

func (x *execution) enqueueAfter(key string, after time.Duration) {
	if x.isLive() {
		x.w.c.queue.AddAfter(key, after)
		x.handed = append(x.handed, x.w.c.toQueue(key))
	}
}

func (x *execution) say(models, text string, touched ...sim.Ref) {
	x.all = append(x.all, text)
	if x.isLive() {
		x.live = append(x.live, text)
		x.models = models
		x.touched = append(x.touched, touched...)
	}
}

// scaled records a change of size for the sync's record: of the whole run,
// like all, since the record describes the finished sync.
func (x *execution) scaled(s Scale) { x.scales = append(x.scales, s) }

var (
	_ env             = (*execution)(nil)
	_ sim.Component   = (*worker)(nil)
	_ sim.Snapshotter = (*worker)(nil)
	_ sim.Describer   = (*worker)(nil)
)

// waitsForDeadline says whether d, as a sync left it, waits for its progress
// deadline: a rollout under way, not paused, whose Progressing condition
// neither says it is complete nor that it timed out. Only then can the
// progress check queued for it change anything; otherwise the check is made
// quiet (workqueue.DelayingQueue.Quiet), so that a world whose rollouts are
// over is at rest. The oracle's stabilize waits on the same condition.
func waitsForDeadline(d *api.Deployment) bool {
	if d == nil || d.Spec.Paused || !HasProgressDeadline(d) {
		return false
	}
	c := GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	if c == nil || c.Reason == NewRSAvailableReason || c.Reason == TimedOutReason {
		return false
	}
	return !DeploymentComplete(d, &d.Status)
}
