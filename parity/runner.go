package parity

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/lesson"
	"github.com/reconcilelab/rlab/core/script"
	"github.com/reconcilelab/rlab/parity/plane"
)

// Options configure a comparison.
type Options struct {
	// Scale multiplies the script's own times on the real plane (advance,
	// kubelet-start, kubelet-stop); 0 means 1, wall-clock time as written.
	Scale float64
	// Settle are stabilize's rules on the real plane.
	Settle SettleRules
	// Log receives the plane's logs (API server, etcd, controllers); nil
	// discards them.
	Log io.Writer
}

// Comparable says whether a checkpoint's states are held to agree.
type Comparable string

// The kinds of checkpoint.
const (
	// AtRest: both worlds were stabilized since the last change, and no
	// simulator-only command is in force. Differences here count.
	AtRest Comparable = "at rest"
	// InFlight: the world changed since the last stabilize, so what each
	// side shows depends on timing (simulated on one side, real on the
	// other). Differences are shown, not counted.
	InFlight Comparable = "in flight"
	// Tainted: a simulator-only command (a fault, stepping) shaped the
	// world, and the real plane had no such thing. Shown, not counted.
	Tainted Comparable = "not comparable"
)

// Checkpoint is one comparison: at an expect, or at the end.
type Checkpoint struct {
	Pos  script.Pos
	Text string
	// Comparable says whether differences count, and Because why not.
	Comparable Comparable
	Because    string
	// SimErr and RealErr are the expect's outcome on each side (nil: it
	// held). RealErr is a *NotComparable for an expect about the
	// simulator's insides.
	SimErr, RealErr error
	// Diff lists the differences of state; Known those of them that do
	// not count, each with why in Excuses (by key): a row of the table of
	// known divergences, or Events that record a simulator-only fault.
	Diff, Known []Line
	Excuses     map[string]string
	// ExpectExcuse, when set, says why the expect's outcomes may differ:
	// it reads Events that a simulator-only fault caused.
	ExpectExcuse string
}

// Counts reports whether the checkpoint's differences count against parity.
func (c Checkpoint) Counts() bool { return c.Comparable == AtRest }

// Disagrees reports whether the checkpoint shows a difference that counts:
// an unexplained difference of state, or an expect that held on one side
// only, at rest.
func (c Checkpoint) Disagrees() bool {
	if !c.Counts() {
		return false
	}
	if len(c.Diff) > len(c.Known) {
		return true
	}
	return c.ExpectExcuse == "" && expectsDisagree(c.SimErr, c.RealErr)
}

func expectsDisagree(sim, real error) bool {
	if errors.Is(real, ErrNotComparable) {
		return false
	}
	return (sim == nil) != (real == nil)
}

// Skipped is a command the real plane could not give a meaning to.
type Skipped struct {
	Pos    script.Pos
	Text   string
	Reason string
}

// Refusal is a command one side carried out and the other refused.
type Refusal struct {
	Pos             script.Pos
	Text            string
	SimErr, RealErr error
}

// Result is what comparing one script found.
type Result struct {
	Name        string
	Checkpoints []Checkpoint
	Skipped     []Skipped
	Refusals    []Refusal
	// order lists what the report prints, in the order it happened: an
	// index into Checkpoints (kind 'c'), Skipped ('s') or Refusals ('r').
	order []item
	// SimStopped is the first runtime failure on rlab, which would have
	// stopped the script there. The comparison goes on past it, as golden
	// scripts do, which show a refused command and carry on.
	SimStopped error
	// PlaneStart and Elapsed are the plane's start and the whole run.
	PlaneStart, Elapsed time.Duration
	// HeapAfter is the Go heap in use after the run, before the plane
	// stops.
	HeapAfter uint64
}

// Agrees reports whether no checkpoint disagrees and no command was
// refused by one side only.
func (r *Result) Agrees() bool {
	for _, c := range r.Checkpoints {
		if c.Disagrees() {
			return false
		}
	}
	return len(r.Refusals) == 0
}

type item struct {
	kind byte
	i    int
}

func (r *Result) addCheckpoint(c Checkpoint) {
	r.order = append(r.order, item{'c', len(r.Checkpoints)})
	r.Checkpoints = append(r.Checkpoints, c)
}

func (r *Result) addSkipped(s Skipped) {
	r.order = append(r.order, item{'s', len(r.Skipped)})
	r.Skipped = append(r.Skipped, s)
}

func (r *Result) addRefusal(f Refusal) {
	r.order = append(r.order, item{'r', len(r.Refusals)})
	r.Refusals = append(r.Refusals, f)
}

// Load reads a script to compare: a lesson (.txtar: its setup, then its
// solution, then its goal, whose expects are checkpoints), or a scenario
// script, golden scripts included (everything after a line "----" up to the
// next blank line is the golden output, and is left out).
func Load(path string) (*script.Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(path, ".txtar") {
		l, err := lesson.Parse(filepath.Base(path), data)
		if err != nil {
			return nil, err
		}
		s := &script.Script{File: path}
		for _, b := range []*lesson.Block{l.Setup, l.Solution, l.Goal} {
			if b != nil && b.Script != nil {
				s.Commands = append(s.Commands, b.Script.Commands...)
			}
		}
		return s, nil
	}
	return script.Parse(stripGolden(string(data)), path)
}

// stripGolden blanks out the expected output of a golden script, keeping
// line numbers: after a "----" line, the lines up to the next blank line,
// or, when a second "----" follows at once, everything up to a "----"
// "----" pair (output that holds blank lines), as core/script's golden
// test reads them.
func stripGolden(src string) string {
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		if lines[i] != "----" {
			continue
		}
		lines[i] = ""
		i++
		if i < len(lines) && lines[i] == "----" {
			lines[i] = ""
			for i++; i < len(lines) && !(lines[i] == "----" && i+1 < len(lines) && lines[i+1] == "----"); i++ {
				lines[i] = ""
			}
			if i+1 < len(lines) {
				lines[i], lines[i+1] = "", ""
				i++
			}
			continue
		}
		for ; i < len(lines) && lines[i] != ""; i++ {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// PlaneConfig reads what a script's config commands say about the plane to
// start: workers and burst-replicas, which a world only takes before it
// changes, as core/script refuses them after.
func PlaneConfig(s *script.Script, scale float64) plane.Config {
	cfg := plane.Config{KubeletStart: time.Duration(2 * float64(time.Second) * scale), KubeletStop: time.Duration(float64(time.Second) * scale)}
	for _, c := range s.Commands {
		conf, ok := c.(*script.Config)
		if !ok {
			continue
		}
		for _, st := range conf.Settings {
			switch st.Key {
			case script.ConfigWorkers:
				cfg.Workers = st.Int
			case script.ConfigBurstReplicas:
				cfg.BurstReplicas = st.Int
			case script.ConfigResync:
				cfg.Resync = st.Duration
			}
		}
	}
	return cfg
}

// Compare runs a script on rlab and on a new real plane, command by
// command, and compares them at each expect and at the end.
func Compare(name string, s *script.Script, opts Options) (*Result, error) {
	began := time.Now()
	if opts.Scale <= 0 {
		opts.Scale = 1
	}
	p, err := plane.Start(func() plane.Config { c := PlaneConfig(s, opts.Scale); c.Log = opts.Log; return c }())
	if err != nil {
		return nil, err
	}
	defer p.Stop()
	res := &Result{Name: name, PlaneStart: p.Started}
	seed, _ := s.Seed()
	if seed == 0 {
		seed = 1
	}
	ctx := context.Background()
	real, err := NewReal(ctx, p, seed, opts.Scale, opts.Settle)
	if err != nil {
		return nil, err
	}
	defer real.Close()
	sess := script.NewSession(script.Options{SnapshotEvery: -1})
	simTr := newSimTrails()

	taint, taintedBy := "", ""
	// timed is set by advance, step and until sync, and cleared by
	// stabilize: the world is at a moment that simulated time pins down
	// and real time does not. history is the first input given at such a
	// moment: from then on the two worlds may have different pasts.
	timed, history := "", ""
	// faultHistory names the first simulator-only fault of the run: the
	// Events it caused stay in the world after it is healed.
	faultHistory := ""
	inFlight := false
	for _, cmd := range s.Commands {
		src := cmd.Src()
		if IsExpect(cmd) {
			simErr := sess.Run(cmd)
			cp, err := checkpoint(ctx, real, sess, simTr, src, taint, taintedBy, inFlight, past{fault: faultHistory, timed: history})
			if err != nil {
				return nil, err
			}
			cp.SimErr = simErr
			r, err := ReadReal(ctx, p.Client, real.namespaces)
			if err != nil {
				return nil, err
			}
			cp.RealErr = Expect(cmd, r, real.creationOrder)
			if _, ok := cmd.(*script.ExpectEvents); ok {
				switch {
				case faultHistory != "":
					cp.ExpectExcuse = "it counts Events, and " + faultHistory + " made some that only the simulator has"
				case history != "":
					cp.ExpectExcuse = "it counts Events, and the script acted at " + history + ", a moment only simulated time pins down"
				}
			}
			res.addCheckpoint(cp)
			continue
		}
		atTimedMoment := ""
		switch cmd.(type) {
		case *script.Advance, *script.Step, *script.UntilSync:
			timed = src.Pos.String() + " " + src.Text
		case *script.Stabilize:
		default:
			if changesWorld(cmd) && timed != "" && history == "" {
				atTimedMoment = src.Pos.String() + " " + src.Text + " (after " + timed + ")"
			}
		}
		simErr := sess.Run(cmd)
		if err := simTr.catchUp(sess.World()); err != nil {
			return nil, err
		}
		realErr := real.Run(cmd)
		var nc *NotComparable
		switch {
		case errors.As(realErr, &nc):
			res.addSkipped(Skipped{Pos: src.Pos, Text: src.Text, Reason: nc.Reason})
			realErr = nil
			// A simulator-only command does nothing on the plane, so when
			// it comes does not give the two worlds different pasts; what
			// it does to the simulator's is the taint below.
			atTimedMoment = ""
			switch c := cmd.(type) {
			case *script.Step, *script.UntilSync:
				taint, taintedBy = "stepping", src.Pos.String()+" "+src.Text
			case *script.WatchFault:
				taint, taintedBy = "fault", src.Pos.String()+" "+src.Text
				if c.Action == script.WatchDelay {
					// A delay changes when the informer hears of a change,
					// not what it hears: at rest everything delayed has
					// arrived, so a stabilize ends this taint like
					// stepping's, and its Events are the controllers' own.
					taint = "delay"
					break
				}
				if faultHistory == "" {
					faultHistory = taintedBy
				}
			case *script.Fail:
				taint, taintedBy = "fault", src.Pos.String()+" "+src.Text
				if faultHistory == "" {
					faultHistory = taintedBy
				}
			}
		case (simErr == nil) != (realErr == nil):
			res.addRefusal(Refusal{Pos: src.Pos, Text: src.Text, SimErr: simErr, RealErr: realErr})
		}
		if atTimedMoment != "" {
			history = atTimedMoment
		}
		if _, ok := cmd.(*script.Stabilize); ok {
			if realErr == nil && simErr == nil {
				inFlight, timed = false, ""
				// A fault ends when nothing of it is left in force (healed,
				// or spent: a counted rule that has failed all it was to,
				// events dropped and the informer listed again since).
				if FaultsInForce(sess.World()) == "" {
					taint, taintedBy = "", ""
				}
			}
		} else if changesWorld(cmd) {
			inFlight = true
		}
		var re *script.RuntimeError
		if errors.As(simErr, &re) && res.SimStopped == nil {
			res.SimStopped = simErr
		}
	}
	end := script.Source{Text: "(the end of the script)"}
	if n := len(s.Commands); n > 0 {
		end.Pos = s.Commands[n-1].Src().Pos
		end.Pos.Line++
		end.Pos.Col = 1
	}
	cp, err := checkpoint(ctx, real, sess, simTr, end, taint, taintedBy, inFlight, past{fault: faultHistory, timed: history})
	if err != nil {
		return nil, err
	}
	res.addCheckpoint(cp)
	// A script that ends in flight or after stepping (lesson 12 ends on
	// advance 60s, the views script on step 10) is stabilized on both sides
	// by the runner, so that its end is compared at rest too. Not while a
	// fault is in force: the simulator's world at rest then is not one a
	// real cluster has.
	if _, last := lastCommand(s).(*script.Stabilize); !last && cp.Comparable != AtRest && FaultsInForce(sess.World()) == "" {
		settle := &script.Stabilize{}
		simErr, realErr := sess.Run(settle), real.Run(settle)
		if err := simTr.catchUp(sess.World()); err != nil {
			return nil, err
		}
		if simErr != nil || realErr != nil {
			res.addRefusal(Refusal{Pos: end.Pos, Text: "stabilize (added by the runner at the end)", SimErr: simErr, RealErr: realErr})
		} else {
			end.Text = "(the end of the script, after a stabilize the runner adds)"
			cp, err := checkpoint(ctx, real, sess, simTr, end, "", "", false, past{fault: faultHistory, timed: history})
			if err != nil {
				return nil, err
			}
			res.addCheckpoint(cp)
		}
	}
	res.HeapAfter = plane.HeapInUse()
	res.Elapsed = time.Since(began)
	return res, nil
}

// changesWorld reports whether a command may change either world: all but
// the expects, the reading commands and help.
func changesWorld(cmd script.Command) bool {
	switch cmd.(type) {
	case *script.Get, *script.Describe, *script.Show, *script.Help, *script.RolloutStatus, *script.RolloutHistory, *script.Seed:
		return false
	}
	return !IsExpect(cmd)
}

// lastCommand returns a script's last command, or nil.
func lastCommand(s *script.Script) script.Command {
	if len(s.Commands) == 0 {
		return nil
	}
	return s.Commands[len(s.Commands)-1]
}

// past names what in a run's past makes some of its history differ between
// the two worlds, though their states at rest agree.
type past struct {
	// fault is the first simulator-only fault: the Events it caused stay.
	fault string
	// timed is the first command that changed the world at a moment only
	// simulated time pins down (after advance, step or until sync, before
	// a stabilize). From then on the worlds reach their rest by different
	// paths: how many pods each ReplicaSet made or deleted on the way, and
	// so the Events and the writes (generations) that count them, and the
	// Deployment's size each old ReplicaSet was last scaled at, depend on
	// how far each world had got at that moment.
	timed string
}

// excuse says why a difference of state at rest comes from the past, or "".
func (p past) excuse(l Line) string {
	events := strings.HasPrefix(l.Key, "events: ")
	switch {
	case p.fault != "" && events:
		return "Events are history: these record " + p.fault + ", which only the simulator has"
	case p.timed != "" && events:
		return "Events are history: these count what happened after the script acted at " + p.timed +
			", a moment only simulated time pins down"
	case p.timed != "" && strings.HasPrefix(l.Key, "deletions: "):
		return "deletions are history: how many objects of each owner were deleted on the way depends on the moment the script acted at " + p.timed
	case p.timed != "" && pathOnly(l):
		return "generations count the writes on the way, and a ReplicaSet's desired-replicas and max-replicas record the Deployment's size " +
			"when the controller last scaled it (setReplicasAnnotations, pkg/controller/deployment/util/deployment_util.go); " +
			"both depend on the moment the script acted at " + p.timed
	}
	return ""
}

// pathCounters matches what a line of state says of the path to it: the
// generation counters, and the size annotations the Deployment controller
// writes on a ReplicaSet each time it scales it.
var pathCounters = regexp.MustCompile(`(observedGeneration|generation|desired-replicas|max-replicas)=\d+`)

// pathOnly reports whether two lines of state differ only in what they say
// of the path to them.
func pathOnly(l Line) bool {
	return l.Sim != "" && l.Real != "" && pathCounters.ReplaceAllString(l.Sim, "$1=*") == pathCounters.ReplaceAllString(l.Real, "$1=*")
}

func checkpoint(ctx context.Context, real *Real, sess *script.Session, simTr *simTrails, src script.Source, taint, taintedBy string, inFlight bool,
	history past) (Checkpoint, error) {
	cp := Checkpoint{Pos: src.Pos, Text: src.Text, Comparable: AtRest, Excuses: map[string]string{}}
	switch {
	case taint == "delay":
		cp.Comparable, cp.Because = Tainted, "after "+taintedBy+", until a stabilize has let everything delayed arrive"
	case taint != "":
		cp.Comparable, cp.Because = Tainted, "after "+taintedBy+", which only the simulator has"
	case inFlight:
		cp.Comparable, cp.Because = InFlight, "the world changed since the last stabilize"
	}
	r, err := ReadReal(ctx, real.c, real.namespaces)
	if err != nil {
		return cp, err
	}
	w := sess.World()
	if w == nil {
		if err := sess.Start(); err != nil {
			return cp, err
		}
		w = sess.World()
	}
	if err := simTr.catchUp(w); err != nil {
		return cp, err
	}
	real.trails.caughtUp(r)
	simState, realState := StateOf(ReadSim(w, real.namespaces)), StateOf(r)
	maps.Copy(simState, simTr.State())
	maps.Copy(realState, real.trails.State())
	cp.Diff = Diff(simState, realState)
	for _, l := range cp.Diff {
		why := KnownDivergence(l)
		if why == "" {
			why = history.excuse(l)
		}
		if why != "" {
			cp.Known = append(cp.Known, l)
			cp.Excuses[l.Key] = why
		}
	}
	return cp, nil
}

// Report writes a result as the runner prints it.
func (r *Result) Report(w io.Writer, verbose bool) {
	fmt.Fprintf(w, "== %s\n", r.Name)
	if r.SimStopped != nil {
		fmt.Fprintf(w, "  rlab would have stopped at: %v\n", r.SimStopped)
	}
	for _, it := range r.order {
		switch it.kind {
		case 's':
			s := r.Skipped[it.i]
			fmt.Fprintf(w, "  %s %s: not comparable: %s\n", s.Pos, s.Text, s.Reason)
		case 'r':
			f := r.Refusals[it.i]
			fmt.Fprintf(w, "  %s %s: REFUSED on one side only\n    rlab: %v\n    real: %v\n", f.Pos, f.Text, orOK(f.SimErr), orOK(f.RealErr))
		case 'c':
			r.Checkpoints[it.i].report(w, verbose)
		}
	}
	result := "AGREES"
	if !r.Agrees() {
		result = "DISAGREES"
	}
	fmt.Fprintf(w, "  %s: %d checkpoints (%d at rest), %d commands not comparable; plane start %.1fs, run %.1fs, heap %d MB\n",
		result, len(r.Checkpoints), r.atRest(), len(r.Skipped), r.PlaneStart.Seconds(), r.Elapsed.Seconds(), r.HeapAfter>>20)
}

func (c Checkpoint) report(w io.Writer, verbose bool) {
	verdict := "agree"
	switch {
	case c.Disagrees():
		verdict = "DISAGREE"
	case len(c.Diff) > 0 || expectsDisagree(c.SimErr, c.RealErr):
		verdict = "differ"
	}
	fmt.Fprintf(w, "  %s %s [%s", c.Pos, c.Text, c.Comparable)
	if c.Because != "" {
		fmt.Fprintf(w, ": %s", c.Because)
	}
	fmt.Fprintf(w, "]: %s\n", verdict)
	var nc *NotComparable
	switch {
	case errors.As(c.RealErr, &nc):
		fmt.Fprintf(w, "    the expect itself is not comparable: %s\n", nc.Reason)
	case c.SimErr != nil || c.RealErr != nil:
		fmt.Fprintf(w, "    expect on rlab: %v\n    expect on real: %v\n", orOK(c.SimErr), orOK(c.RealErr))
		if c.ExpectExcuse != "" && expectsDisagree(c.SimErr, c.RealErr) {
			fmt.Fprintf(w, "    not counted: %s\n", c.ExpectExcuse)
		}
	}
	if !c.Counts() && !verbose {
		if len(c.Diff) > 0 {
			fmt.Fprintf(w, "    (%d differences not shown; -v shows them)\n", len(c.Diff))
		}
		return
	}
	for _, l := range c.Diff {
		fmt.Fprintln(w, l.String())
		if why := c.Excuses[l.Key]; why != "" {
			fmt.Fprintf(w, "    not counted: %s\n", why)
		}
	}
}

func (r *Result) atRest() int {
	n := 0
	for _, c := range r.Checkpoints {
		if c.Counts() {
			n++
		}
	}
	return n
}

func orOK(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}
