package main

import "github.com/reconcilelab/rlab/core/minijson"

// This file is the bridge's JSON: how each argument type is read and each
// answer type written, with core/minijson instead of encoding/json, which
// would cost main.wasm about 77 KB of its brotli size (see minijson's
// documentation). The types themselves, with their json tags, are in
// bridge.go and bridge_view.go.
//
// An answer type's EncodeJSON lists its fields in the struct's order, one
// line each; an argument type's DecodeJSON has one case per field. Adding a
// field to either type is one line here besides the field itself (see
// "JSON, and adding a field" in doc.go); TestAnswersEncodeAsEncodingJSONDoes
// and TestArgumentsDecodeAsEncodingJSONDoes name a field whose line is
// missing.

// --- Arguments -----------------------------------------------------------

// An argsDecoder reads one op's arguments, an object whose unknown members
// are errors.
type argsDecoder interface {
	DecodeJSON(d *minijson.Decoder) error
}

// DecodeJSON reads the request envelope.
func (r *request) DecodeJSON(d *minijson.Decoder) error {
	return d.Object(func(key string) error {
		switch key {
		case "op":
			return d.String(&r.Op)
		case "args":
			raw, err := d.Raw()
			r.Args = raw
			return err
		}
		return minijson.UnknownField(key)
	})
}

func (a *LoadArgs) DecodeJSON(d *minijson.Decoder) error {
	return d.Object(func(key string) error {
		switch key {
		case "lesson":
			return d.String(&a.Lesson)
		case "seed":
			return d.Uint64(&a.Seed)
		}
		return minijson.UnknownField(key)
	})
}

func (a *RunArgs) DecodeJSON(d *minijson.Decoder) error {
	return d.Object(func(key string) error {
		switch key {
		case "line":
			return d.String(&a.Line)
		}
		return minijson.UnknownField(key)
	})
}

func (a *StepArgs) DecodeJSON(d *minijson.Decoder) error {
	return d.Object(func(key string) error {
		switch key {
		case "n":
			return d.Int(&a.N)
		}
		return minijson.UnknownField(key)
	})
}

func (a *UntilSyncArgs) DecodeJSON(d *minijson.Decoder) error {
	return d.Object(func(key string) error {
		switch key {
		case "owner":
			return d.String(&a.Owner)
		case "namespace":
			return d.String(&a.Namespace)
		case "maxSteps":
			return d.Int(&a.MaxSteps)
		}
		return minijson.UnknownField(key)
	})
}

func (a *StabilizeArgs) DecodeJSON(d *minijson.Decoder) error {
	return d.Object(func(key string) error {
		switch key {
		case "maxSteps":
			return d.Int(&a.MaxSteps)
		}
		return minijson.UnknownField(key)
	})
}

func (a *SeekArgs) DecodeJSON(d *minijson.Decoder) error {
	return d.Object(func(key string) error {
		switch key {
		case "step":
			return d.Uint64(&a.Step)
		}
		return minijson.UnknownField(key)
	})
}

func (a *StepsArgs) DecodeJSON(d *minijson.Decoder) error {
	return d.Object(func(key string) error {
		switch key {
		case "from":
			return d.Uint64(&a.From)
		case "to":
			return d.Uint64(&a.To)
		}
		return minijson.UnknownField(key)
	})
}

func (a *CheckArgs) DecodeJSON(d *minijson.Decoder) error {
	return d.Object(func(key string) error {
		switch key {
		case "page":
			return d.Int(&a.Page)
		}
		return minijson.UnknownField(key)
	})
}

func (a *CompleteArgs) DecodeJSON(d *minijson.Decoder) error {
	return d.Object(func(key string) error {
		switch key {
		case "line":
			return d.String(&a.Line)
		case "cursor":
			return d.IntPtr(&a.Cursor)
		}
		return minijson.UnknownField(key)
	})
}

func (a *HelpArgs) DecodeJSON(d *minijson.Decoder) error {
	return d.Object(func(key string) error {
		switch key {
		case "topic":
			return d.String(&a.Topic)
		case "commands":
			return d.Bool(&a.Commands)
		}
		return minijson.UnknownField(key)
	})
}

func (a *ViewArgs) DecodeJSON(d *minijson.Decoder) error {
	return d.Object(func(key string) error {
		switch key {
		case "agenda":
			return d.Int(&a.Agenda)
		case "steps":
			return d.Int(&a.Steps)
		case "pods":
			return d.Int(&a.Pods)
		case "entries":
			return d.Int(&a.Entries)
		}
		return minijson.UnknownField(key)
	})
}

// --- Answers: bridge.go --------------------------------------------------

func (s *Step) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.Uint("n", s.N)
	w.String("at", s.At)
	w.String("actor", s.Actor)
	w.OptString("models", s.Models)
	w.String("summary", s.Summary)
	minijson.OptList(w, "touched", s.Touched)
	w.String("trace", s.Trace)
	w.EndObject()
}

func (r *Ref) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("kind", r.Kind)
	w.OptString("namespace", r.Namespace)
	w.String("name", r.Name)
	w.EndObject()
}

func (s *StepsResult) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	s.members(w)
	w.EndObject()
}

// members writes the fields of StepsResult, also where RunResult embeds it
// and they are its own.
func (s *StepsResult) members(w *minijson.Writer) {
	w.Int("ran", int64(s.Ran))
	minijson.OptList(w, "steps", s.Steps)
	w.OptBool("truncated", s.Truncated)
	w.Uint("step", s.Step)
	w.Bool("atRest", s.AtRest)
	w.OptBool("idle", s.Idle)
	w.OptString("limit", s.Limit)
	minijson.OptObject(w, "sync", s.Sync)
}

func (s *Sync) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("owner", s.Owner)
	w.String("key", s.Key)
	w.String("worker", s.Worker)
	w.String("start", s.Start)
	w.String("end", s.End)
	w.OptString("decision", s.Decision)
	w.OptString("err", s.Err)
	w.Int("seq", int64(s.Seq))
	w.EndObject()
}

func (r *LoadResult) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("mode", r.Mode)
	w.Uint("seed", r.Seed)
	w.Uint("step", r.Step)
	minijson.OptObject(w, "lesson", r.Lesson)
	w.EndObject()
}

func (l *LessonInfo) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("id", l.ID)
	w.Int("number", int64(l.Number))
	w.String("title", l.Title)
	w.String("summary", l.Summary)
	w.String("level", l.Level)
	minijson.OptList(w, "pages", l.Pages)
	w.OptStrings("hints", l.Hints)
	w.OptString("setup", l.Setup)
	w.OptString("goal", l.Goal)
	w.OptString("solution", l.Solution)
	w.EndObject()
}

func (p *PageInfo) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.Int("n", int64(p.N))
	w.String("text", p.Text)
	minijson.OptList(w, "blocks", p.Blocks)
	w.EndObject()
}

func (b *BlockInfo) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("kind", b.Kind)
	w.String("text", b.Text)
	minijson.OptObject(w, "predict", b.Predict)
	w.EndObject()
}

func (p *PredictInfo) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("question", p.Question)
	w.Strings("choices", p.Choices)
	w.Int("answer", int64(p.Answer))
	w.OptString("explanation", p.Explanation)
	w.EndObject()
}

func (r *LessonsResult) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	minijson.List(w, "lessons", r.Lessons)
	w.EndObject()
}

func (r *RunResult) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.OptString("output", r.Output)
	minijson.OptObject(w, "failure", r.Failure)
	r.StepsResult.members(w)
	w.EndObject()
}

func (e *CommandError) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("kind", e.Kind)
	w.Int("line", int64(e.Line))
	w.Int("col", int64(e.Col))
	w.String("message", e.Message)
	w.OptStrings("suggestions", e.Suggestions)
	w.OptString("hint", e.Hint)
	w.String("error", e.Error)
	w.EndObject()
}

func (r *SeekResult) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.Uint("step", r.Step)
	w.Uint("recordedSteps", r.RecordedSteps)
	w.EndObject()
}

func (r *CheckResult) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.Bool("met", r.Met)
	minijson.OptObject(w, "failure", r.Failure)
	w.EndObject()
}

func (r *CompleteResult) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.Int("start", int64(r.Start))
	w.Int("end", int64(r.End))
	w.OptStrings("candidates", r.Candidates)
	w.EndObject()
}

func (r *HelpResult) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("text", r.Text)
	minijson.OptList(w, "commands", r.Commands)
	minijson.OptList(w, "kinds", r.Kinds)
	w.EndObject()
}

// --- Answers: the view (bridge_view.go) ----------------------------------

func (v *View) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("mode", v.Mode)
	w.OptString("lesson", v.Lesson)
	w.Uint("seed", v.Seed)
	w.String("clock", v.Clock)
	w.Int("clockNanos", v.ClockNanos)
	w.Uint("step", v.Step)
	w.Uint("recordedSteps", v.RecordedSteps)
	w.Uint("baseStep", v.BaseStep)
	w.Bool("atRest", v.AtRest)
	minijson.OptList(w, "inputs", v.Inputs)
	minijson.OptList(w, "nodes", v.Nodes)
	minijson.OptList(w, "owners", v.Owners)
	minijson.OptList(w, "pods", v.Pods)
	w.Int("podsTotal", int64(v.PodsTotal))
	minijson.List(w, "informers", v.Informers)
	minijson.List(w, "controllers", v.Controllers)
	minijson.Object(w, "gc", &v.GC)
	minijson.Object(w, "agenda", &v.Agenda)
	minijson.Object(w, "faults", &v.Faults)
	minijson.OptList(w, "lastSteps", v.LastSteps)
	w.EndObject()
}

func (in *Input) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.Uint("step", in.Step)
	w.String("text", in.Text)
	w.EndObject()
}

func (n *Node) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("name", n.Name)
	w.Bool("registered", n.Registered)
	w.Bool("ready", n.Ready)
	w.Bool("schedulable", n.Schedulable)
	w.Bool("kubelet", n.Kubelet)
	w.EndObject()
}

func (o *Owner) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("kind", o.Kind)
	w.String("namespace", o.Namespace)
	w.String("name", o.Name)
	w.String("selector", o.Selector)
	w.Int("replicas", int64(o.Replicas))
	minijson.Object(w, "status", &o.Status)
	w.OptBool("terminating", o.Terminating)
	w.OptString("failure", o.Failure)
	w.EndObject()
}

func (s *OwnerStatus) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.Int("replicas", int64(s.Replicas))
	w.Int("fullyLabeledReplicas", int64(s.FullyLabeledReplicas))
	w.Int("readyReplicas", int64(s.ReadyReplicas))
	w.Int("availableReplicas", int64(s.AvailableReplicas))
	w.Int("observedGeneration", s.ObservedGeneration)
	w.EndObject()
}

func (p *Pod) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("namespace", p.Namespace)
	w.String("name", p.Name)
	w.String("phase", p.Phase)
	w.Bool("ready", p.Ready)
	w.OptString("node", p.Node)
	w.OptString("owner", p.Owner)
	w.OptBool("ownerGone", p.OwnerGone)
	w.OptStringMap("labels", p.Labels)
	w.OptBool("terminating", p.Terminating)
	w.OptInt("restarts", int64(p.Restarts))
	w.OptString("kubelet", p.Kubelet)
	w.OptBool("releasing", p.Releasing)
	w.OptStrings("adoptableBy", p.AdoptableBy)
	w.EndObject()
}

func (i *Informer) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("name", i.Name)
	w.String("kind", i.Kind)
	w.String("state", i.State)
	w.Uint("lastSyncRV", i.LastSyncRV)
	w.Bool("synced", i.Synced)
	w.Int("lists", int64(i.Lists))
	w.Int("watches", int64(i.Watches))
	w.Int("cached", int64(i.Cached))
	w.Int("inAPI", int64(i.InAPI))
	minijson.OptList(w, "entries", i.Entries)
	w.Int("entriesTotal", int64(i.EntriesTotal))
	w.Int("differ", int64(i.Differ))
	minijson.OptList(w, "pending", i.Pending)
	w.EndObject()
}

func (c *CacheEntry) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("key", c.Key)
	w.OptString("cache", c.Cache)
	w.OptString("api", c.API)
	w.OptString("diff", c.Diff)
	w.EndObject()
}

func (p *PendingKey) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("key", p.Key)
	w.Strings("deltas", p.Deltas)
	w.EndObject()
}

func (c *Controller) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("kind", c.Kind)
	w.String("name", c.Name)
	w.Bool("started", c.Started)
	minijson.Object(w, "queue", &c.Queue)
	minijson.OptList(w, "workers", c.Workers)
	minijson.OptList(w, "expectations", c.Expectations)
	minijson.OptList(w, "lastSyncs", c.LastSyncs)
	w.EndObject()
}

func (q *Queue) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("name", q.Name)
	w.OptStrings("waiting", q.Waiting)
	w.OptStrings("dirty", q.Dirty)
	minijson.OptList(w, "processing", q.Processing)
	minijson.OptList(w, "delayed", q.Delayed)
	minijson.OptList(w, "requeues", q.Requeues)
	w.OptStrings("idleWorkers", q.IdleWorkers)
	w.EndObject()
}

func (h *Held) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("key", h.Key)
	w.OptString("worker", h.Worker)
	w.EndObject()
}

func (d *Delayed) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("key", d.Key)
	w.String("readyAt", d.ReadyAt)
	w.String("delay", d.Delay)
	w.OptBool("rateLimited", d.RateLimited)
	w.EndObject()
}

func (r *Requeue) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("key", r.Key)
	w.Int("count", int64(r.Count))
	w.EndObject()
}

func (k *Worker) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("name", k.Name)
	w.String("state", k.State)
	w.OptString("key", k.Key)
	w.OptString("phase", k.Phase)
	w.OptInt("waiting", int64(k.Waiting))
	w.Int("syncs", int64(k.Syncs))
	w.EndObject()
}

func (e *Expectation) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("key", e.Key)
	w.Int("add", e.Add)
	w.Int("del", e.Del)
	w.OptStrings("pendingDeletes", e.PendingDeletes)
	w.String("age", e.Age)
	w.Bool("satisfied", e.Satisfied)
	w.OptBool("expired", e.Expired)
	w.EndObject()
}

func (g *GC) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	minijson.OptList(w, "owners", g.Owners)
	minijson.OptList(w, "dependents", g.Dependents)
	w.EndObject()
}

func (o *GCOwner) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("owner", o.Owner)
	w.OptString("namespace", o.Namespace)
	w.String("mode", o.Mode)
	w.String("phase", o.Phase)
	w.OptStrings("dependents", o.Dependents)
	w.EndObject()
}

func (d *GCDependent) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("object", d.Object)
	w.OptString("namespace", d.Namespace)
	w.String("owner", d.Owner)
	w.String("state", d.State)
	w.EndObject()
}

func (a *Agenda) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.Int("pending", int64(a.Pending))
	w.Int("background", int64(a.Background))
	minijson.OptList(w, "next", a.Next)
	w.EndObject()
}

func (e *AgendaEvent) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("at", e.At)
	w.Uint("seq", e.Seq)
	w.String("to", e.To)
	w.String("what", e.What)
	w.OptBool("background", e.Background)
	w.EndObject()
}

func (f *Faults) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	minijson.OptList(w, "api", f.API)
	minijson.OptList(w, "watch", f.Watch)
	w.EndObject()
}

func (f *APIFault) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.Int("id", int64(f.ID))
	w.String("text", f.Text)
	w.OptString("verb", f.Verb)
	w.OptString("resource", f.Resource)
	w.String("error", f.Error)
	w.Int("fired", int64(f.Fired))
	w.EndObject()
}

func (f *WatchFault) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("informer", f.Informer)
	w.OptInt("dropNext", int64(f.DropNext))
	w.OptInt("lost", int64(f.Lost))
	w.OptString("delay", f.Delay)
	w.EndObject()
}
