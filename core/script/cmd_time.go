package script

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/controller"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/workqueue"
	"github.com/reconcilelab/rlab/core/world"
)

// This file holds the time commands: seed, config, step, advance, until
// sync and stabilize. seed and config say what the world is built from;
// the others run the kernel.

// Seed is `seed N`; it can only be a script's first command.
type Seed struct {
	_ incomparable

	Source
	Value uint64
}

// Setting is one KEY=VALUE of config.
type Setting struct {
	_ incomparable

	// Key is one of the Config* constants.
	Key string
	// Int is the value of workers and burst-replicas, Duration that of the
	// others.
	Int      int
	Duration time.Duration
	Pos      Pos
}

// Config is `config KEY=VALUE…`.
type Config struct {
	Source
	// Settings are in the order written; no key is set twice.
	Settings []Setting
}

// Step is `step [N]`.
type Step struct {
	_ incomparable

	Source
	N int
}

// Advance is `advance D`.
type Advance struct {
	_ incomparable

	Source
	D time.Duration
}

// UntilSync is `until sync rs/NAME`.
type UntilSync struct {
	_ incomparable

	Source
	Object Ref
	Limits sim.Limits
}

// Stabilize is `stabilize`; Limits holds the defaults when no flag is given.
type Stabilize struct {
	_ incomparable

	Source
	Limits sim.Limits
}

func parseSeed(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd("seed needs a number", c.example())
	}
	a := c.args[0]
	n, err := strconv.ParseUint(a.Text, 10, 64)
	if err != nil || n == 0 {
		return nil, &ParseError{Line: a.Line, Col: a.Col, Msg: "bad seed " + strconv.Quote(a.Text),
			Hint: "a seed is a whole number from 1 to 18446744073709551615"}
	}
	return &Seed{Source: c.src, Value: n}, c.noMoreArgs(c.args[1:])
}

func parseConfig(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd("config needs KEY=VALUE", "keys: "+strings.Join(configKeyNames(), ", "))
	}
	cmd := &Config{Source: c.src}
	seen := map[string]bool{}
	for i, a := range c.args {
		key, _, ok := strings.Cut(a.Text, "=")
		var kd ConfigKeyDoc
		found := false
		for _, k := range configTable {
			if k.Key == key {
				kd, found = k, true
			}
		}
		if !found {
			return nil, unknown(a.slice(0, len(key)), "config key", key, configKeyNames(), "keys: "+strings.Join(configKeyNames(), ", "))
		}
		if !ok {
			hint := "write " + key + "=VALUE"
			if i+1 < len(c.args) {
				hint = "write " + key + "=" + c.args[i+1].Text + ", without spaces"
			}
			return nil, &ParseError{Line: a.Line, Col: a.end(), Msg: "config " + key + " needs a value", Hint: hint}
		}
		if seen[key] {
			return nil, errAt(a, "config "+key+" given twice")
		}
		seen[key] = true
		vt := a.from(len(key) + 1)
		s := Setting{Key: key, Pos: Pos{c.src.Pos.File, a.Line, a.Col}}
		if kd.Type == TypeInt {
			n, perr := parseInt(vt, key, kd.lo, 1<<31-1)
			if perr != nil {
				return nil, perr
			}
			s.Int = int(n)
		} else {
			d, perr := parseDuration(vt, key, 0)
			if perr != nil {
				return nil, perr
			}
			s.Duration = d
		}
		cmd.Settings = append(cmd.Settings, s)
	}
	return cmd, nil
}

func parseStep(c *cmdParser) (Command, *ParseError) {
	cmd := &Step{Source: c.src, N: 1}
	if len(c.args) > 0 {
		n, perr := parseInt(c.args[0], "step", 1, 1<<31-1)
		if perr != nil {
			return nil, perr
		}
		cmd.N = int(n)
	}
	return cmd, c.noMoreArgs(c.args[min(1, len(c.args)):])
}

func parseAdvance(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd("advance needs a duration", c.example())
	}
	d, perr := parseDuration(c.args[0], "advance", 0)
	if perr != nil {
		return nil, perr
	}
	return &Advance{Source: c.src, D: d}, c.noMoreArgs(c.args[1:])
}

// limits reads --max-steps and --max-time.
func (c *cmdParser) limits() sim.Limits {
	n, _ := c.intFlag("max-steps", sim.DefaultMaxSteps)
	return sim.Limits{MaxSteps: int(n), MaxTime: c.durFlag("max-time", sim.DefaultMaxTime)}
}

func parseUntilSync(c *cmdParser) (Command, *ParseError) {
	r, rest, perr := c.ref(c.args, len(c.args) > 1)
	if perr != nil {
		return nil, perr
	}
	return &UntilSync{Source: c.src, Object: r, Limits: c.limits()}, c.noMoreArgs(rest)
}

func parseStabilize(c *cmdParser) (Command, *ParseError) {
	return &Stabilize{Source: c.src, Limits: c.limits()}, c.noMoreArgs(c.args)
}

func (*Seed) worldless() {}

// run sets the seed the world is built from. Once a command has changed
// the world it is too late; before that the world is rebuilt.
func (c *Seed) run(s *Session) error {
	if s.opts.Seed != 0 {
		return nil // rlab run --seed overrides the script's seed
	}
	if s.w != nil && s.changed {
		return failure(c, "seed "+strconv.FormatUint(c.Value, 10)+
			": the world has already changed; seed must come before every command that changes it")
	}
	s.cfg.Seed = c.Value
	s.w = nil
	return nil
}

func (*Config) worldless() {}

// run sets the world's knobs. Before the world has changed, every key
// goes into the configuration it is (re)built from. After, only the keys the
// world can change while it runs may be set: kubelet-start and kubelet-stop
// (through the kubelets), api-latency and watch-latency (through the API
// server), as one recorded input.
func (c *Config) run(s *Session) error {
	for _, st := range c.Settings {
		switch st.Key {
		case ConfigKubeletStart, ConfigKubeletStop, ConfigAPILatency, ConfigWatchLatency:
			if st.Duration <= 0 {
				e := failure(c, "config "+st.Key+"=0: "+st.Key+" must be more than 0")
				e.Pos = st.Pos
				return e
			}
		}
	}
	if s.w == nil || !s.changed {
		for _, st := range c.Settings {
			switch st.Key {
			case ConfigWorkers:
				s.cfg.Workers = st.Int
			case ConfigBurstReplicas:
				s.cfg.BurstReplicas = st.Int
			case ConfigKubeletStart:
				s.cfg.KubeletStart = st.Duration
			case ConfigKubeletStop:
				s.cfg.KubeletStop = st.Duration
			case ConfigResync:
				s.cfg.Resync = st.Duration
			case ConfigAPILatency:
				s.cfg.APILatency = st.Duration
			case ConfigWatchLatency:
				s.cfg.WatchLatency = st.Duration
			}
		}
		s.w = nil // built (again) from the new configuration when needed
		return nil
	}
	for _, st := range c.Settings {
		switch st.Key {
		case ConfigWorkers, ConfigBurstReplicas, ConfigResync:
			e := failure(c, "config "+st.Key+": "+st.Key+" is fixed once the world has changed; "+
				"set it before the first command that changes the world (create, scale, step, stabilize, ...)")
			e.Pos = st.Pos
			return e
		}
	}
	settings := c.Settings
	for _, st := range settings {
		if st.Key == ConfigKubeletStart {
			s.kubeletStart = st.Duration
		}
	}
	return s.do(c, func(w *world.World) error {
		for _, st := range settings {
			switch st.Key {
			case ConfigKubeletStart:
				w.Cluster.Kubelets.SetKubeletStart(st.Duration)
			case ConfigKubeletStop:
				w.Cluster.Kubelets.SetKubeletStop(st.Duration)
			case ConfigAPILatency:
				cfg := w.Server.Config()
				cfg.Latency = st.Duration
				w.Server.SetConfig(cfg)
			case ConfigWatchLatency:
				cfg := w.Server.Config()
				cfg.WatchLatency = st.Duration
				w.Server.SetConfig(cfg)
			}
		}
		return nil
	})
}

// run runs the next N events and prints their trace lines (unless
// tracing printed them already).
func (c *Step) run(s *Session) error {
	if c.N > sim.DefaultMaxSteps {
		return failure(c, "step "+itoa(c.N)+": at most "+itoa(sim.DefaultMaxSteps)+
			" steps at a time; use stabilize, advance or until sync for longer runs")
	}
	ran := 0
	for ran < c.N {
		res, ok := s.step()
		if !ok {
			break
		}
		ran++
		if !s.opts.Trace {
			s.print(res.TraceLine())
		}
	}
	if ran < c.N {
		s.print("the agenda is empty: nothing left to do")
	}
	return nil
}

// maxAdvanceSteps bounds the events one advance may run, as stabilize's
// default --max-steps bounds it.
const maxAdvanceSteps = sim.DefaultMaxSteps

// run moves the clock forward by D: it runs every event that falls due
// on the way, as steps, and then moves the clock to the end, as an input so
// that a seek replays it.
func (c *Advance) run(s *Session) error {
	w := s.w
	start := w.Kernel.Now()
	target := start + c.D
	if target < start {
		return failure(c, "advance "+c.D.String()+": the clock cannot go that far")
	}
	n := 0
	for {
		next, ok := w.Kernel.Next()
		if !ok || next.At > target {
			break
		}
		if n >= maxAdvanceSteps {
			err := &sim.LimitError{What: "advance " + c.D.String(), Steps: n, Elapsed: w.Kernel.Now() - start,
				Limit: "advance runs at most " + itoa(maxAdvanceSteps) + " steps",
				Next:  sim.FormatSeconds(next.At) + " " + w.Kernel.Describe(next)}
			return failureAfter(c, err.Error(), err)
		}
		s.step()
		n++
	}
	if w.Kernel.Now() < target {
		err := s.do(c, func(w *world.World) error {
			if d := target - w.Kernel.Now(); d > 0 {
				w.Kernel.Advance(d)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	s.print("advanced " + c.D.String() + " to t=" + sim.FormatSeconds(w.Kernel.Now()) + " (" + plural(n, "step") + ")")
	return nil
}

// manager returns the replication manager that syncs a kind.
func (s *Session) manager(kind api.Kind) *controller.Manager {
	if kind == api.KindReplicationController {
		return s.w.RC
	}
	return s.w.RS
}

// run runs until the next sync of the object's key has ended, and
// says what the sync decided.
func (c *UntilSync) run(s *Session) error {
	key := c.Object.Key()
	last, queue := s.syncsOf(c.Object)
	if _, ok := s.w.Store.Object(c.Object.Kind, c.Object.Namespace, c.Object.Name); !ok && !queued(queue, key) {
		return failure(c, "until sync "+c.Object.String()+": "+notFound(c.Object.Kind, c.Object.Name)+inNamespace(c.Object.Namespace)+
			", and "+key+" is not in the "+queue.View().Name+" queue: no sync of it will come")
	}
	before, _ := last(key)
	what := "until sync " + c.Object.String()
	_, err := s.runUntil(what, func() bool {
		seq, _ := last(key)
		return seq != before
	}, c.Limits, false)
	switch {
	case errors.Is(err, sim.ErrIdle):
		return failureAfter(c, what+": nothing is left on the agenda, and "+key+" was not synced", err)
	case err != nil:
		return failureAfter(c, err.Error(), err)
	}
	_, line := last(key)
	s.print(line)
	return nil
}

// syncsOf returns, for the controller that syncs r's kind, the sequence
// number and words of a key's last finished sync (0 and "" before the
// first), and its queue. The replication managers and the Deployment
// controller keep records of their own types; until sync needs only this
// much of either.
func (s *Session) syncsOf(r Ref) (last func(key string) (int, string), queue *workqueue.RateLimitingQueue) {
	if r.Kind == api.KindDeployment {
		d := s.w.Deploy
		return func(key string) (int, string) {
			rec, ok := d.LastSync(key)
			if !ok {
				return 0, ""
			}
			return rec.Seq, syncLine(r, rec.Worker, rec.Start, rec.End, rec.Decision, rec.Err)
		}, d.Queue()
	}
	m := s.manager(r.Kind)
	return func(key string) (int, string) {
		rec, ok := m.LastSync(key)
		if !ok {
			return 0, ""
		}
		return rec.Seq, syncLine(r, rec.Worker, rec.Start, rec.End, rec.Decision, rec.Err)
	}, m.Queue()
}

// syncLine says what a finished sync did:
//
//	rs/web synced by rs-worker-1 (t=0.102s to t=0.108s): 0 pods owned, want 3: creating 3 ...
func syncLine(r Ref, worker string, start, end time.Duration, decision, failed string) string {
	line := r.String() + " synced by " + worker + " (t=" + sim.FormatSeconds(start) + " to t=" +
		sim.FormatSeconds(end) + ")"
	if decision != "" {
		line += ": " + decision
	}
	if failed != "" {
		line += "; the sync failed: " + failed + " (requeued with back-off)"
	}
	return line
}

// queued reports whether a key is waiting, being processed or delayed in a
// controller's queue.
func queued(q *workqueue.RateLimitingQueue, key string) bool {
	v := q.View()
	for _, k := range v.Waiting {
		if k == key {
			return true
		}
	}
	for _, h := range v.Processing {
		if h.Key == key {
			return true
		}
	}
	for _, d := range v.Delayed {
		if d.Key == key {
			return true
		}
	}
	return false
}

// run runs until nothing is left to do but periodic timers.
func (c *Stabilize) run(s *Session) error {
	n, err := s.runUntil("stabilize", func() bool { return !s.w.Kernel.Busy() }, c.Limits, true)
	if err != nil {
		return failureAfter(c, err.Error(), err)
	}
	s.print("the world is at rest after " + plural(n, "step") + " (t=" + sim.FormatSeconds(s.w.Kernel.Now()) + ")")
	return nil
}

// plural writes "1 step", "3 steps".
func plural(n int, noun string) string { return pluralAs(n, noun, noun+"s") }

// pluralAs writes "1 watch", "2 watches".
func pluralAs(n int, one, many string) string { return sim.Count(n, one, many) }
