package script

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/world"
)

// This file holds the executor's core: the Session that carries a world
// through a script, how commands reach it (inputs recorded on the world's
// timeline, then steps), runtime failures, and Run and RunScript for whole
// scripts. Each command's run method lives in its group's cmd_*.go file,
// the inside views in views.go.

// Options configure a Session. The zero value prints nothing and runs a world
// with the default configuration.
type Options struct {
	// Out receives what commands print (tables, views, kubectl's messages)
	// and, with Trace, one trace line per step. nil discards it all.
	Out io.Writer
	// Trace prints every step's trace line (sim.StepResult.TraceLine) as it
	// runs. The steps that start the world are never printed; the trace
	// command shows them.
	Trace bool
	// Seed, when not 0, seeds the world and overrides the script's seed
	// command, as rlab run --seed does.
	Seed uint64
	// SnapshotEvery is the world's world.Config.SnapshotEvery: 0 keeps the
	// default (the page seeks back and forth), a negative value keeps only the
	// start (headless runs that never seek).
	SnapshotEvery int
	// OnStep, when set, is called with every step the session runs, right
	// after it ran: the world's start, the steps of kubectl's verbs, step,
	// advance, until sync and stabilize. It is how a caller that wants more
	// than the trace line (the page wants each step's touched objects) sees
	// the steps; it must not change the world. Steps a seek replays are not
	// the session's and are not reported.
	OnStep func(sim.StepResult)
}

// Session executes parsed commands against one world. It builds the world
// lazily, from the seed and config commands that came before, at the first
// command that needs it, and runs the world's start (kubelets registering,
// informers listing, managers waiting for their caches) to rest right away,
// so every script starts from a quiet cluster of three Ready nodes.
//
// Everything a command does to the world goes through the world's timeline
// (world.World.Do) as one input, followed by real steps, so a seek replays a
// session exactly. Reading commands and expects never change the world.
type Session struct {
	opts Options
	out  io.Writer

	// cfg is what the world is, or will be, built from.
	cfg world.Config
	// w is nil until the first command that needs a world.
	w *world.World
	// changed is set once a command has changed the world (an input or a step
	// after the start). Until then seed and config rebuild the world instead
	// of refusing.
	changed bool
	// starting is set while the world's start runs: its steps are recorded in
	// trace but not printed.
	starting bool

	// trace holds every step this session ran, in order, for the trace view.
	// After a seek back it may run past the world's present; the view shows
	// only the steps up to it, and the next step the session runs drops the
	// rest (a seek forward replays them exactly, so until then they stay
	// true).
	trace sim.StepLog

	// kubeletStart is kubelet-start as configured (the world's, or the last
	// config kubelet-start=D): what heal kubelet restores after slow kubelet.
	kubeletStart time.Duration

	// inputFloor is the first step at which inputs may be applied (see
	// SetInputFloor).
	inputFloor uint64
}

// NewSession returns a session that has not built its world yet.
func NewSession(opts Options) *Session {
	s := &Session{opts: opts, out: opts.Out}
	if s.out == nil {
		s.out = io.Discard
	}
	s.cfg = world.Config{Seed: opts.Seed, SnapshotEvery: opts.SnapshotEvery}
	return s
}

// SetTrace turns the printing of trace lines on or off from now on.
func (s *Session) SetTrace(on bool) { s.opts.Trace = on }

// World returns the session's world, or nil before a command has needed one.
// It is a new world after a seed or config command that came before any
// command changed the world, so callers should ask again after each command.
// Callers may read it freely and seek it; changing it otherwise outside the
// session makes the trace view incomplete.
func (s *Session) World() *world.World { return s.w }

// Start builds the world now, if it is not built yet, and runs its start to
// rest.
func (s *Session) Start() error {
	_, err := s.world()
	return err
}

// RuntimeError is a command that parsed but could not be carried out: the
// API rejected it, no pod matched a --pick, stabilize hit its limit, or an
// expect did not hold. It prints as the Go toolchain prints errors, with the
// command's position first:
//
//	web.txt:7:1: expect pods -l app=web count=3: found 2 (web-4vq9z Running Ready rs/web, web-kd2lm Running Ready rs/web)
//	web.txt:3:1: create rs web: replicasets.apps "web" already exists
type RuntimeError struct {
	_ incomparable

	// Pos is where the command was written; Text is the command as written.
	Pos  Pos
	Text string
	// Msg says what went wrong, starting with what the command was doing:
	// "create rs web: ...", or the expect as written.
	Msg string
	// Err is the underlying error, if any: an *apistore.StatusError, a
	// *sim.LimitError, sim.ErrIdle.
	Err error

	// applied reports that the failure came after the command had changed
	// the world (an input recorded, steps run). A failure with applied unset
	// left the world exactly as it was.
	applied bool
}

// Error prints file:line:col: message.
func (e *RuntimeError) Error() string { return e.Pos.String() + ": " + e.Msg }

// Unwrap returns the underlying error.
func (e *RuntimeError) Unwrap() error { return e.Err }

// failure builds a runtime failure of cmd that left the world as it was.
func failure(cmd Command, msg string) *RuntimeError {
	src := cmd.Src()
	return &RuntimeError{Pos: src.Pos, Text: src.Text, Msg: msg}
}

// failureAfter builds a runtime failure of cmd that came after the world
// changed, wrapping err.
func failureAfter(cmd Command, msg string, err error) *RuntimeError {
	e := failure(cmd, msg)
	e.Err, e.applied = err, true
	return e
}

// Run executes one command. It returns nil when the command ran (and, for an
// expect, held), and a *RuntimeError otherwise. A failure of a check (an
// expect, a --pick that matches nothing, a label that would need
// --overwrite, a config the world cannot take) leaves the world exactly as it
// was.
func (s *Session) Run(cmd Command) error {
	if cmd == nil {
		return nil
	}
	if _, ok := cmd.(worldless); !ok {
		if _, werr := s.world(); werr != nil {
			return failure(cmd, cmd.Src().Name+": cannot build the world: "+werr.Error())
		}
	}
	err := cmd.run(s)
	if err == nil {
		return nil
	}
	var re *RuntimeError
	if errors.As(err, &re) {
		return re
	}
	return failureAfter(cmd, cmd.Src().Name+": "+err.Error(), err)
}

// RunScript runs a script's commands in order. It stops at the first runtime
// failure and returns it; everything before it stays done. The script's seed
// command, if any, is ignored when Options.Seed is set.
func (s *Session) RunScript(script *Script) error {
	for _, c := range script.Commands {
		if err := s.Run(c); err != nil {
			return err
		}
	}
	return nil
}

// Exit codes of Run, as rlab run uses them.
const (
	ExitOK      = 0 // every command ran and every expect held
	ExitFailure = 1 // a runtime failure stopped the script
	ExitUsage   = 2 // the script did not parse: nothing ran
)

// RunScript runs a parsed script in a new session and returns the exit code
// rlab run uses: ExitOK, or ExitFailure with the *RuntimeError that stopped
// the script (everything before it stays done).
func RunScript(script *Script, opts Options) (int, error) {
	if err := NewSession(opts).RunScript(script); err != nil {
		return ExitFailure, err
	}
	return ExitOK, nil
}

// Run parses a script and, if it parses, runs it in a new session. It
// returns the exit code rlab run uses and the error: ExitUsage with the
// ErrorList of a script that did not parse (nothing ran), ExitFailure with
// the *RuntimeError that stopped it, or ExitOK and nil. file names the
// script in errors.
func Run(src, file string, opts Options) (int, error) {
	script, err := Parse(src, file)
	if err != nil {
		return ExitUsage, err
	}
	return RunScript(script, opts)
}

// --- The world ---------------------------------------------------------------

// world returns the session's world, building it and running its start to
// rest if need be.
func (s *Session) world() (*world.World, error) {
	if s.w != nil {
		return s.w, nil
	}
	w, err := world.New(s.cfg)
	if err != nil {
		return nil, err
	}
	s.w, s.trace, s.changed = w, sim.StepLog{Keep: keptSteps}, false
	s.kubeletStart = w.Cluster.Kubelets.KubeletStart()
	s.starting = true
	_, err = s.runUntil("starting the world", func() bool { return !w.Kernel.Busy() }, sim.Limits{}, true)
	s.starting = false
	if err != nil {
		s.w = nil
		return nil, err
	}
	return w, nil
}

// observe records a step the session ran, and prints it when tracing. A
// step numbered at or below steps already recorded means the world was
// sought back and has taken another course from there: the old steps from
// that number on are dropped.
//
// It takes the step by pointer, as the log it keeps it in does: a step is
// 272 bytes, and each hand-over by value was a copy on every step the page
// runs.
func (s *Session) observe(res *sim.StepResult) {
	if n := s.trace.Len(); n > 0 && s.trace.N(n-1) >= res.N {
		s.trace.Truncate(s.trace.Index(res.N))
	}
	s.trace.Push(res)
	if s.opts.OnStep != nil {
		s.opts.OnStep(*res)
	}
	if s.starting {
		return
	}
	s.changed = true
	if s.opts.Trace {
		s.print(res.TraceLine())
	}
}

// step runs one step and reports whether there was one.
func (s *Session) step() (sim.StepResult, bool) {
	res, ok := s.w.Step()
	if ok {
		s.observe(&res)
	}
	return res, ok
}

// runUntil steps until done holds after a step, observing each step; see
// world.World.RunUntil.
func (s *Session) runUntil(what string, done func() bool, lim sim.Limits, idleOK bool) (int, error) {
	return s.w.RunUntil(what, func(res sim.StepResult) bool {
		s.observe(&res)
		return done()
	}, lim, idleOK)
}

// keptSteps is how many of the most recent steps a session is sure to keep
// for its trace view and Steps; it keeps at most a chunk more (see
// sim.StepLog). Tests lower it. A 10,000-pod world runs 300,000 steps to
// rest: keeping them all would cost more memory than the world itself.
// Packed, a kept step costs about fifty bytes; as it ran, with the data its
// event carried, it cost about 540, and 50,000 of them were 26 MiB of the
// page's live heap of 85 MiB.
var keptSteps = 50_000

// Steps returns the steps the session ran that it still keeps, ascending by
// number: at least the last 50,000 of them, the world's start included.
// After a seek back it holds the steps after the present too, until the
// next step forks the timeline. The caller must not modify it.
func (s *Session) Steps() *sim.StepLog { return &s.trace }

// SetInputFloor makes commands that change the world fail while the world is
// before step: the page sets it to the end of a lesson's setup, so that a
// learner who seeks back into the setup can watch it but not fork it, which
// would leave a world no share link could rebuild (a link replays the
// learner's inputs after the whole setup).
func (s *Session) SetInputFloor(step uint64) { s.inputFloor = step }

// do applies an input to the world through its timeline, so a seek replays
// it. apply must be deterministic given the world's state and must not step.
func (s *Session) do(cmd Command, apply func(w *world.World) error) error {
	if now := s.w.Kernel.Steps(); now < s.inputFloor {
		return failure(cmd, "step "+strconv.FormatUint(now, 10)+" is inside the lesson's setup, which runs until step "+
			strconv.FormatUint(s.inputFloor, 10)+": watch it, or seek to that step or later to change the world")
	}
	s.changed = true
	return s.w.Do(cmd.Src().Text, apply)
}

// send sends requests as kubectl in one input, built from the world's state
// when the input is applied, then steps until every answer has arrived, and
// returns the replies in order. A build error fails the input before any
// request is sent.
func (s *Session) send(cmd Command, build func(w *world.World) ([]apistore.Request, error)) ([]*apistore.Reply, error) {
	var ids []uint64
	err := s.do(cmd, func(w *world.World) error {
		reqs, err := build(w)
		if err != nil {
			return err
		}
		ids = ids[:0]
		for _, r := range reqs {
			ids = append(ids, w.Send(r))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.await(cmd, ids)
}

// await steps until kubectl has the answers to the requests ids.
func (s *Session) await(cmd Command, ids []uint64) ([]*apistore.Reply, error) {
	replies := make([]*apistore.Reply, len(ids))
	arrived := func() bool {
		for i, id := range ids {
			if replies[i] == nil {
				r, ok := s.w.Reply(id)
				if !ok {
					return false
				}
				replies[i] = r
			}
		}
		return true
	}
	if len(ids) == 0 || arrived() {
		return replies, nil
	}
	if _, err := s.runUntil("waiting for the API server", arrived, sim.Limits{}, false); err != nil {
		return nil, failureAfter(cmd, cmd.Src().Name+": "+err.Error(), err)
	}
	return replies, nil
}

// --- Output ------------------------------------------------------------------

// print writes a line, adding the newline.
func (s *Session) print(line string) {
	_, _ = io.WriteString(s.out, line+"\n")
}

// printText writes text that ends in a newline, or adds one.
func (s *Session) printText(text string) {
	if text == "" {
		return
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	_, _ = io.WriteString(s.out, text)
}

// --- Helpers shared by the command families ----------------------------------

// notFound is the API's NotFound message for an object: replicasets.apps
// "web" not found.
func notFound(kind api.Kind, name string) string {
	return qualifiedResource(kind) + " " + strconv.Quote(name) + " not found"
}

// qualifiedResource is the resource as the API's messages name it:
// replicasets.apps, pods.
func qualifiedResource(kind api.Kind) string {
	if g, _, ok := strings.Cut(kind.APIVersion(), "/"); ok {
		return kind.Resource() + "." + g
	}
	return kind.Resource()
}

// kubectlName is how kubectl names an object in its messages:
// replicaset.apps/web, pod/web-7xk2p, node/node-1.
func kubectlName(kind api.Kind, name string) string {
	return kubectlKind(kind) + "/" + name
}

// kubectlKind is kubectl's singular, group-qualified resource name.
func kubectlKind(kind api.Kind) string {
	singular := strings.ToLower(string(kind))
	if g, _, ok := strings.Cut(kind.APIVersion(), "/"); ok {
		return singular + "." + g
	}
	return singular
}

// inNamespace is " in namespace NS" for a namespace other than default, so
// messages about the default namespace stay short.
func inNamespace(ns string) string {
	if ns == "" || ns == "default" {
		return ""
	}
	return " in namespace " + ns
}

// apiError turns a failed reply into the message kubectl would print after
// the command's words.
func apiError(rep *apistore.Reply) string {
	if rep.Response.Fault != nil {
		return rep.Response.Err.Error() + " (injected fault: " + rep.Response.Fault.String() + ")"
	}
	return rep.Response.Err.Error()
}

func itoa(n int) string { return strconv.Itoa(n) }
