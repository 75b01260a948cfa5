package main

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/lesson"
	"github.com/reconcilelab/rlab/core/minijson"
	"github.com/reconcilelab/rlab/core/script"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/world"
)

// This file is the bridge: the page's whole API over the engine, as plain Go.
// It imports nothing from JavaScript, so it builds and is tested natively;
// main_js.go is to hand it the JSON the page sends (rlab.call) and return its
// answer.
//
// # The contract
//
// A request is one JSON object naming an operation and its arguments:
//
//	{"op": "step", "args": {"n": 5}}
//
// and the answer is exactly one of
//
//	{"result": {...}}      the operation ran; the result's shape is the op's
//	{"error": "..."}       it did not: bad JSON, an unknown op or argument,
//	                       nothing loaded yet, a seek past the recorded steps,
//	                       or a bug (a panic, recovered)
//
// Unknown fields, in the request or in its args, are errors, so a typo in the
// page fails loudly. A console command that parses but fails (a typo, an
// expect that does not hold) is not an error of the request: run answers it
// as a result with a structured failure the console shows.
//
// The ops, with the Go methods they call and their argument and result types:
//
//	setLessons  SetLessons(SetLessonsArgs)  → LessonsResult   the lessons, from lessons.json: the worker hands them over first
//	lessons     Lessons()                   → LessonsResult
//	load        Load(LoadArgs)              → LoadResult      sandbox (optional seed) or lesson (runs its setup)
//	run         Run(RunArgs)                → RunResult       one console line
//	step        Step(StepArgs)              → StepsResult     N steps
//	untilSync   UntilSync(UntilSyncArgs)    → StepsResult     until the next sync of any owner, or of one
//	stabilize   Stabilize(StabilizeArgs)    → StepsResult     one chunk of at most maxSteps; atRest says if done
//	seek        Seek(SeekArgs)              → SeekResult      to any recorded step
//	prepare     Prepare(PrepareArgs)        → PrepareResult   one slice of idle work that makes the next step back fast
//	view        View(ViewArgs)              → View            the page's whole picture of the world
//	steps       Steps(StepsArgs)            → StepsResult     recorded steps by number, for the timeline
//	check       Check(CheckArgs)            → CheckResult     a lesson's goal, one page's checks, or one block's, line by line
//	grade       Grade(GradeArgs)            → GradeResult     which choices of a predict the world now makes right
//	sources     Sources()                   → SourcesResult   where upstream each function of the trace lives
//	functions   Functions(StepsArgs)        → FunctionsResult the functions some recorded steps modelled, in order
//	complete    Complete(CompleteArgs)      → CompleteResult  tab completion, with the names of what exists
//	help        Help(HelpArgs)              → HelpResult      help text, and the command table
//
// JSON names are lowerCamelCase. Lists are omitted when empty (read an absent
// list as []). Simulated times are strings in seconds with milliseconds,
// "2.004s", as the trace prints them; the view's clock is also given in
// nanoseconds.
//
// # Determinism
//
// The engine is deterministic, and so is the bridge: the same requests, in
// the same order, from a new Bridge, give the same answers byte for byte.
// That is what lets the page rebuild a world from a share link, or from the
// request log after its worker died, with no backend. prepare, which the
// worker sends on its own while the page is quiet, changes no other
// answer, so the page's log need not hold it.
//
// # Chunking
//
// Nothing here blocks or waits for JavaScript, but a long run would freeze the
// page's worker: stabilize therefore runs at most maxSteps steps per call and
// says whether the world is at rest, so the caller loops, yielding between
// calls, and can stop. step and untilSync are bounded the same way, and so
// is prepare, the worker's idle work.

// Limits of one call.
const (
	// maxStepN is the most steps one step call may run.
	maxStepN = 10000
	// defaultStabilizeChunk is stabilize's chunk when maxSteps is not given.
	defaultStabilizeChunk = 1000
	// maxReturnedSteps is the most steps one answer lists; the steps op
	// fetches the others.
	maxReturnedSteps = 500
	// defaultViewAgenda and defaultViewSteps are how many agenda events and
	// recent steps the view lists when not told.
	defaultViewAgenda = 10
	defaultViewSteps  = 10
)

// Bridge drives one world for the page. It is not safe for concurrent use:
// the page calls it from one worker, one request at a time.
type Bridge struct {
	// e is what is loaded; nil before the first load. A load builds a new
	// engine and swaps it in only once it is ready, so a failed load leaves
	// the previous world in place.
	e *engine
	// scratch is where answers are written, kept between requests so that
	// a view of a thousand pods does not grow a new buffer every time.
	scratch []byte

	// lessons are the lessons setLessons handed over, in order; nil before.
	// main.wasm does not carry them: content grows (every lesson, and each
	// language it is written in) while the engine need not, so the page
	// fetches lessons.json beside main.wasm and its worker passes it on
	// before the page's first request. A new Bridge, in a new worker, is
	// given them again.
	lessons []*lesson.Lesson
	// lessonsMissing says why there are none, when the worker could not
	// fetch lessons.json: the sandbox works without them.
	lessonsMissing string

	// preparing is the world a prepare left in the past, nil when none is
	// (see Prepare).
	preparing *world.World
}

// engine is one loaded world and everything the bridge keeps about it.
type engine struct {
	session *script.Session
	// out collects what the session prints during one request.
	out bytes.Buffer

	// mode is "sandbox" or "lesson".
	mode   string
	lesson *lesson.Lesson
	// baseStep is the step at which the learner took over: after the
	// world's start, or after a lesson's setup; baseInputs how many inputs
	// the timeline held then (the setup's), which are not the learner's.
	baseStep   uint64
	baseInputs int

	// w is the session's world when the bridge last looked: a different one
	// means the session rebuilt it, and every step since is new.
	w *world.World
}

// NewBridge returns a bridge with nothing loaded: the first request that
// needs a world must be a load.
func NewBridge() *Bridge { return &Bridge{} }

// --- JSON types --------------------------------------------------------------

// The steps and syncs the ops answer are described by the world's read
// model.
type (
	// Step is one step of the kernel as the page shows it (world.StepOf).
	Step = world.Step
	// LoopMove is a step's place on the picture of the loop.
	LoopMove = world.LoopMove
	// Ref names an object a step touched.
	Ref = world.Ref
	// Sync is one finished sync of an owner.
	Sync = world.Sync
)

// StepsResult is what the stepping ops answer.
type StepsResult struct {
	// Ran is how many steps the call ran (for steps, how many it lists).
	Ran int `json:"ran"`
	// Steps are the steps run, the last maxReturnedSteps of them when there
	// were more (Truncated then says so).
	Steps     []Step `json:"steps,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
	// Step is the world's step number after the call.
	Step uint64 `json:"step"`
	// AtRest says nothing but periodic timers is left to do.
	AtRest bool `json:"atRest"`
	// Idle says the agenda ran dry before the call got what it asked for.
	Idle bool `json:"idle,omitempty"`
	// Limit is set when the call stopped at a limit before its goal: the
	// limit, as a flag would name it ("--max-steps=1000").
	Limit string `json:"limit,omitempty"`
	// Sync is the sync that ended, for untilSync.
	Sync *Sync `json:"sync,omitempty"`
	// KeptFrom is the oldest step the session still lists, once steps
	// before it ran but are no longer kept (a long run keeps only its
	// newest 50,000 or a few more: see script.Session.Steps); 0 while every step from
	// the first is kept. Steps before it are listed by no call, but the
	// world can still be sought to them.
	KeptFrom uint64 `json:"keptFrom,omitempty"`
}

// LoadArgs: a sandbox (Lesson empty), or a lesson by ID ("02-a-pod-dies").
// Seed, when not 0, seeds the world (for a lesson, it overrides the setup's).
type LoadArgs struct {
	Lesson string `json:"lesson,omitempty"`
	Seed   uint64 `json:"seed,omitempty"`
}

// LoadResult describes what was loaded.
type LoadResult struct {
	Mode string `json:"mode"`
	Seed uint64 `json:"seed"`
	// Step is where the learner starts: after the world's start, or after
	// the lesson's setup.
	Step   uint64      `json:"step"`
	Lesson *LessonInfo `json:"lesson,omitempty"`
}

// LessonInfo is a lesson's content for the page.
type LessonInfo struct {
	ID       string            `json:"id"`
	Stepwise *lesson.PageRange `json:"stepwise,omitempty"`
	Number   int               `json:"number"`
	Title    string            `json:"title"`
	Summary  string            `json:"summary"`
	Level    string            `json:"level"`
	Pages    []PageInfo        `json:"pages,omitempty"`
	Hints    []string          `json:"hints,omitempty"`
	Setup    string            `json:"setup,omitempty"`
	Goal     string            `json:"goal,omitempty"`
	Solution string            `json:"solution,omitempty"`
	// Translations are the lesson's words in its other languages, in the
	// order of lesson.Languages, each naming its language (Lang, "zh-CN"):
	// the learner's words only. The page finds the learner's language by
	// its lang. A translation's pages have the English pages' blocks, in
	// order, with the same commands, expects and answers (core/lesson
	// holds them to that), so the page shows a translated block and runs,
	// checks and grades it by the English page's and block's numbers. The
	// list of lessons carries only their titles and summaries. They are
	// values, as the bridge's other lists are, so that none is null to the
	// page.
	Translations []TranslationInfo `json:"translations,omitempty"`
}

// TranslationInfo is a lesson's words in one other language, Lang.
type TranslationInfo struct {
	Lang    string     `json:"lang"`
	Title   string     `json:"title"`
	Summary string     `json:"summary"`
	Pages   []PageInfo `json:"pages,omitempty"`
	Hints   []string   `json:"hints,omitempty"`
}

// PageInfo is one page of a lesson's guide: its Markdown as written, and its
// do, predict and check blocks in order.
type PageInfo struct {
	N      int         `json:"n"`
	Text   string      `json:"text"`
	Blocks []BlockInfo `json:"blocks,omitempty"`
}

// BlockInfo is a do, predict or check block.
type BlockInfo struct {
	Kind    string       `json:"kind"`
	Text    string       `json:"text"`
	Predict *PredictInfo `json:"predict,omitempty"`
}

// PredictInfo is a predict block's question; Answer indexes Choices.
type PredictInfo struct {
	Question    string       `json:"question"`
	Choices     []ChoiceInfo `json:"choices"`
	Answer      int          `json:"answer"`
	Explanation string       `json:"explanation,omitempty"`
}

// ChoiceInfo is one answer of a predict block and the expect that decides
// it once the step has run.
type ChoiceInfo struct {
	Text   string `json:"text"`
	Expect string `json:"expect"`
}

// SetLessonsArgs hands the engine its lessons: Bundle is lessons.json's
// text (core/lesson's bundle format), or, when the page could not fetch
// it, Unavailable says why.
type SetLessonsArgs struct {
	Bundle      string `json:"bundle,omitempty"`
	Unavailable string `json:"unavailable,omitempty"`
}

// LessonsResult lists the lessons, in order, without their content.
type LessonsResult struct {
	Lessons []LessonInfo `json:"lessons"`
}

// RunArgs is one console line.
// RunArgs: the line, and, in a lesson, the guide's page the learner is
// on: a stepwise page (lesson.Lesson.Stepwise) refuses the commands that
// run more than one event (lesson.Multistep).
type RunArgs struct {
	Line string `json:"line"`
	Page int    `json:"page,omitempty"`
}

// RunResult is what a console line did: what it printed, and how it failed,
// if it did. Steps are the steps it ran (kubectl's verbs step until their
// answers arrive).
type RunResult struct {
	Output  string        `json:"output,omitempty"`
	Failure *CommandError `json:"failure,omitempty"`
	StepsResult
}

// CommandError is a console line that did not parse (Kind "parse") or could
// not be carried out (Kind "runtime"). Line and Col point at the problem (for
// a runtime failure, at the command). Message says what was wrong;
// Suggestions are did-you-mean candidates, best first; Hint says what is
// valid when there is no suggestion; Error is the whole message as the
// console prints it.
type CommandError struct {
	Kind        string   `json:"kind"`
	Line        int      `json:"line"`
	Col         int      `json:"col"`
	Message     string   `json:"message"`
	Suggestions []string `json:"suggestions,omitempty"`
	Hint        string   `json:"hint,omitempty"`
	Error       string   `json:"error"`
}

// StepArgs: how many steps (default 1, at most maxStepN).
type StepArgs struct {
	N int `json:"n,omitempty"`
}

// UntilSyncArgs: run until the next sync of Owner ("rs/web", in Namespace,
// default "default") ends, or, with no Owner, of any owner. MaxSteps bounds
// the run (default 100000).
type UntilSyncArgs struct {
	Owner     string `json:"owner,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	MaxSteps  int    `json:"maxSteps,omitempty"`
}

// StabilizeArgs: run at most MaxSteps steps (default 1000) towards rest, and
// list at most Steps of them, the newest (default and most:
// maxReturnedSteps). The page draws only a run's newest steps while it goes
// on, and listing 500 steps is a fifth of the cost of a chunk of 1000.
type StabilizeArgs struct {
	MaxSteps int `json:"maxSteps,omitempty"`
	Steps    int `json:"steps,omitempty"`
}

// PrepareArgs: at most MaxSteps steps (at least one) of the preparation.
type PrepareArgs struct {
	MaxSteps int `json:"maxSteps,omitempty"`
}

// PrepareResult says whether the preparation for a step back is done, or
// was not needed; until it is, the next prepare goes on with it. Replayed
// is how many steps this call replayed: none when there was nothing to do.
type PrepareResult struct {
	Done     bool `json:"done"`
	Replayed int  `json:"replayed,omitempty"`
}

// SeekArgs: the step to go to, from 0 to the recorded steps.
type SeekArgs struct {
	Step uint64 `json:"step"`
}

// SeekResult is where the world is after a seek.
type SeekResult struct {
	Step          uint64 `json:"step"`
	RecordedSteps uint64 `json:"recordedSteps"`
}

// StepsArgs: the recorded steps numbered From to To, both included (To 0:
// up to the present), at most maxReturnedSteps of them, the first ones.
type StepsArgs struct {
	From uint64 `json:"from,omitempty"`
	To   uint64 `json:"to,omitempty"`
}

// CheckArgs: Page 0 checks the lesson's goal; Page N the check blocks of
// the guide's page N, or, with Block, only that block of the page (its
// index among the page's blocks: a check or a step block).
type CheckArgs struct {
	Page  int  `json:"page,omitempty"`
	Block *int `json:"block,omitempty"`
}

// CheckResult says whether every expect held, and the first that did not;
// Lines says it of each expect, in order, for a checklist. Checking never
// changes the world.
type CheckResult struct {
	Met     bool          `json:"met"`
	Failure *CommandError `json:"failure,omitempty"`
	Lines   []CheckLine   `json:"lines,omitempty"`
}

// CheckLine is one expect of a check: its text as written, whether it holds,
// and, when it does not, why (what it found: the objects that fail it).
type CheckLine struct {
	Text    string        `json:"text"`
	Met     bool          `json:"met"`
	Failure *CommandError `json:"failure,omitempty"`
}

// GradeArgs names a predict block: the guide's page and the block's index
// among the page's blocks.
type GradeArgs struct {
	Page  int `json:"page"`
	Block int `json:"block"`
}

// GradeResult says, for each choice of the predict in order, whether its
// expect holds in the world as it is now; Decided is the one choice that
// holds, or -1 when none or several do (the step has not run yet, or has
// run past what the question asks).
type GradeResult struct {
	Holds   []bool `json:"holds"`
	Decided int    `json:"decided"`
}

// SourcesResult lists, by the function names of the trace (a step's
// "models"), in their order, where each lives in the kubernetes repository
// at Tag, with a link.
type SourcesResult struct {
	Tag     string   `json:"tag"`
	Sources []Source `json:"sources"`
}

// FunctionsResult lists the functions that the steps asked about modelled,
// in the order each first ran: what the real code did, for a lesson's end.
type FunctionsResult struct {
	Functions []FunctionRun `json:"functions,omitempty"`
}

// FunctionRun is one function of the trace's function column: its name,
// how many of the steps modelled it, the first of them, and its upstream
// source (none for what is Reconcile Lab's own: kubectl, the faults).
type FunctionRun struct {
	Name   string  `json:"name"`
	Count  int     `json:"count"`
	First  uint64  `json:"first"`
	Source *Source `json:"source,omitempty"`
}

// Source is one upstream function: the trace's name for it, its Go name,
// file, line and link.
type Source struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Name string `json:"name"`
	Func string `json:"func"`
	File string `json:"file"`
	Line int    `json:"line"`
	URL  string `json:"url"`
}

// CompleteArgs: the line and the cursor's byte offset (default: the end).
type CompleteArgs struct {
	Line   string `json:"line"`
	Cursor *int   `json:"cursor,omitempty"`
}

// CompleteResult: the candidates replace line[start:end].
type CompleteResult struct {
	Start      int      `json:"start"`
	End        int      `json:"end"`
	Candidates []string `json:"candidates,omitempty"`
}

// HelpArgs: Topic as help TOPIC takes it ("" for the overview); Commands
// adds the command table, for the page's help panel.
type HelpArgs struct {
	Topic    string `json:"topic,omitempty"`
	Commands bool   `json:"commands,omitempty"`
}

// HelpResult is the help text, and the command table when asked.
type HelpResult struct {
	Text     string              `json:"text"`
	Commands []script.CommandDoc `json:"commands,omitempty"`
	Kinds    []script.KindDoc    `json:"kinds,omitempty"`
}

// --- Dispatch ----------------------------------------------------------------

// request is the envelope of every request; Args is the arguments' JSON
// text, as sent.
type request struct {
	Op   string              `json:"op"`
	Args minijson.RawMessage `json:"args,omitempty"`
}

// response is the envelope of every answer: exactly one field is set.
type response struct {
	Result any    `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
}

// op runs one operation from its arguments' JSON text (nil when absent).
type op func(b *Bridge, args []byte) (any, error)

// ops maps each op's name to its implementation; opTable builds it at the
// first request. Tests may add to it.
//
// It is built on demand, not by a package initializer, so that a build whose
// main never calls Handle links none of the engine (see main_js.go).
var ops map[string]op

func opTable() map[string]op {
	if ops == nil {
		ops = newOpTable()
	}
	return ops
}

// testOps are ops that only test builds have (see bridge_testops.go).
var testOps map[string]op

func newOpTable() map[string]op {
	table := map[string]op{
		"setLessons": withArgs((*Bridge).SetLessons),
		"lessons":    func(b *Bridge, _ []byte) (any, error) { return b.Lessons() },
		"load":       withArgs((*Bridge).Load),
		"run":        withArgs((*Bridge).Run),
		"step":       withArgs((*Bridge).Step),
		"untilSync":  withArgs((*Bridge).UntilSync),
		"stabilize":  withArgs((*Bridge).Stabilize),
		"seek":       withArgs((*Bridge).Seek),
		"prepare":    withArgs((*Bridge).Prepare),
		"view":       withArgs((*Bridge).View),
		"steps":      withArgs((*Bridge).Steps),
		"check":      withArgs((*Bridge).Check),
		"grade":      withArgs((*Bridge).Grade),
		"sources":    func(b *Bridge, _ []byte) (any, error) { return b.Sources(), nil },
		"functions":  withArgs((*Bridge).Functions),
		"complete":   withArgs((*Bridge).Complete),
		"help":       withArgs((*Bridge).Help),
	}
	for name, f := range testOps {
		table[name] = f
	}
	return table
}

// withArgs adapts a method taking typed arguments to an op: the arguments
// are decoded strictly (unknown fields are errors); absent or null
// arguments are the zero value.
func withArgs[A, R any](m func(*Bridge, A) (R, error)) op {
	return func(b *Bridge, raw []byte) (any, error) {
		var a A
		if raw != nil {
			if err := minijson.Decode(raw, &a); err != nil {
				return nil, fmt.Errorf("bad args: %w", err)
			}
		}
		return m(b, a)
	}
}

// opNames lists the ops, sorted, for error messages.
func opNames() []string {
	names := make([]string, 0, len(opTable()))
	for n := range opTable() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Handle runs one request, {"op": NAME, "args": {...}}, and returns the
// answer, {"result": ...} or {"error": "..."}. It never panics: a panic
// inside an op is recovered and answered as an error, and the bridge stays
// usable (the world may have stopped mid-command; a seek or a load puts it
// back on its feet).
func (b *Bridge) Handle(requestJSON []byte) (answer []byte) {
	name := ""
	defer func() {
		if r := recover(); r != nil {
			answer = errorJSON(fmt.Errorf("%s: internal error (a bug in Reconcile Lab): %v", orUnknown(name), r))
		}
	}()
	var req request
	if err := minijson.Decode(requestJSON, &req); err != nil {
		return errorJSON(fmt.Errorf("bad request: %w", err))
	}
	name = req.Op
	if req.Op != "prepare" {
		b.abandonPreparation()
	}
	f, ok := opTable()[req.Op]
	if !ok {
		msg := "unknown op " + strconv.Quote(req.Op)
		if s := script.Suggest(req.Op, opNames()); len(s) > 0 {
			msg += "; did you mean " + strconv.Quote(s[0]) + "?"
		}
		return errorJSON(errors.New(msg + " (ops: " + strings.Join(opNames(), ", ") + ")"))
	}
	res, err := f(b, req.Args)
	if err != nil {
		return errorJSON(fmt.Errorf("%s: %w", req.Op, err))
	}
	out, err := minijson.Append(b.scratch[:0], response{Result: res})
	b.scratch = out
	if err != nil {
		return errorJSON(fmt.Errorf("%s: internal error (a bug in Reconcile Lab): cannot encode the result: %w", req.Op, err))
	}
	return bytes.Clone(out)
}

func orUnknown(name string) string {
	if name == "" {
		return "request"
	}
	return name
}

// errorJSON is the answer {"error": "..."}.
func errorJSON(err error) []byte {
	return append(minijson.AppendString([]byte(`{"error":`), err.Error()), '}')
}

// --- Loading -----------------------------------------------------------------

// SetLessons takes the lessons from lessons.json's text, replacing any given
// before, and lists them. A bundle this engine cannot read is refused and
// the lessons held stay.
func (b *Bridge) SetLessons(a SetLessonsArgs) (*LessonsResult, error) {
	switch {
	case a.Bundle != "" && a.Unavailable != "":
		return nil, errors.New("setLessons takes a bundle or the reason there is none, not both")
	case a.Unavailable != "":
		b.lessons, b.lessonsMissing = nil, a.Unavailable
		return &LessonsResult{Lessons: []LessonInfo{}}, nil
	case a.Bundle == "":
		return nil, errors.New("setLessons needs the text of lessons.json as bundle, or why it could not be fetched as unavailable")
	}
	all, err := lesson.LoadBundle([]byte(a.Bundle))
	if err != nil {
		return nil, fmt.Errorf("lessons.json is not a lesson bundle this engine reads (is it from another build?): %w", err)
	}
	b.lessons, b.lessonsMissing = all, ""
	return b.Lessons()
}

// allLessons returns the lessons setLessons gave, or why there are none.
func (b *Bridge) allLessons() ([]*lesson.Lesson, error) {
	switch {
	case b.lessons != nil:
		return b.lessons, nil
	case b.lessonsMissing != "":
		return nil, errors.New("the lessons could not be loaded: " + b.lessonsMissing)
	}
	return nil, errors.New("no lessons were given to the engine: the page's worker hands over lessons.json (setLessons) before its first request")
}

// Lessons lists the lessons the page offers, in order.
func (b *Bridge) Lessons() (*LessonsResult, error) {
	all, err := b.allLessons()
	if err != nil {
		return nil, err
	}
	res := &LessonsResult{Lessons: []LessonInfo{}}
	for _, l := range all {
		info := LessonInfo{ID: l.ID, Number: l.Number, Title: l.Title, Summary: l.Summary, Level: string(l.Level)}
		for _, t := range l.Translations {
			info.Translations = append(info.Translations, TranslationInfo{Lang: t.Lang, Title: t.Title, Summary: t.Summary})
		}
		res.Lessons = append(res.Lessons, info)
	}
	return res, nil
}

// Load starts over: a new sandbox world (three Ready nodes at rest), or a
// lesson's world after its setup. Whatever was loaded before is dropped.
func (b *Bridge) Load(a LoadArgs) (*LoadResult, error) {
	var l *lesson.Lesson
	if a.Lesson != "" {
		all, err := b.allLessons()
		if err != nil {
			return nil, err
		}
		var ids []string
		for _, c := range all {
			ids = append(ids, c.ID)
			if c.ID == a.Lesson {
				l = c
			}
		}
		if l == nil {
			msg := "no lesson " + strconv.Quote(a.Lesson)
			if s := script.Suggest(a.Lesson, ids); len(s) > 0 {
				msg += "; did you mean " + strconv.Quote(s[0]) + "?"
			}
			return nil, errors.New(msg)
		}
	}

	e := &engine{}
	opts := script.Options{Out: &e.out}
	if l != nil {
		opts.Seed = a.Seed // overrides the setup's seed, as rlab run --seed does
	}
	e.session = script.NewSession(opts)
	if l == nil && a.Seed != 0 {
		seed := &script.Seed{Source: madeSource("seed " + strconv.FormatUint(a.Seed, 10)), Value: a.Seed}
		if err := e.session.Run(seed); err != nil {
			return nil, err
		}
	}
	e.mode = "sandbox"
	if l != nil {
		e.mode, e.lesson = "lesson", l
		if err := e.session.RunScript(l.Setup.Script); err != nil {
			return nil, fmt.Errorf("the setup of lesson %s failed: %w", l.ID, err)
		}
	}
	w, err := e.ready()
	if err != nil {
		return nil, err
	}
	e.baseStep, e.baseInputs = w.Kernel.Steps(), len(w.Inputs())
	if l != nil {
		e.session.SetInputFloor(e.baseStep)
	}
	e.out.Reset()
	b.e = e

	res := &LoadResult{Mode: e.mode, Seed: w.Config().Seed, Step: e.baseStep}
	if l != nil {
		res.Lesson = lessonInfo(l)
	}
	return res, nil
}

// lessonInfo is a lesson's content for the page.
func lessonInfo(l *lesson.Lesson) *LessonInfo {
	info := &LessonInfo{ID: l.ID, Stepwise: l.Stepwise, Number: l.Number, Title: l.Title, Summary: l.Summary, Level: string(l.Level),
		Hints: slices.Clone(l.Hints), Setup: l.Setup.Text, Goal: l.Goal.Text, Solution: l.Solution.Text, Pages: pagesInfo(l.Pages)}
	for _, t := range l.Translations {
		info.Translations = append(info.Translations,
			TranslationInfo{Lang: t.Lang, Title: t.Title, Summary: t.Summary, Pages: pagesInfo(t.Pages), Hints: slices.Clone(t.Hints)})
	}
	return info
}

// pagesInfo is the content of one language's pages.
func pagesInfo(pages []*lesson.Page) []PageInfo {
	var out []PageInfo
	for _, p := range pages {
		pi := PageInfo{N: p.N, Text: p.Text}
		for _, blk := range p.Blocks {
			bi := BlockInfo{Kind: string(blk.Kind), Text: blk.Text}
			if q := blk.Predict; q != nil {
				bi.Predict = &PredictInfo{Question: q.Question, Answer: q.Answer, Explanation: q.Explanation}
				for _, c := range q.Choices {
					bi.Predict.Choices = append(bi.Predict.Choices, ChoiceInfo{Text: c.Text, Expect: strings.TrimSpace(c.Expect.Text)})
				}
			}
			pi.Blocks = append(pi.Blocks, bi)
		}
		out = append(out, pi)
	}
	return out
}

// --- The engine's bookkeeping ------------------------------------------------

// errNotLoaded answers every op that needs a world before the first load.
var errNotLoaded = errors.New(`nothing is loaded yet: send {"op": "load"} first`)

// loaded returns the engine and its world, built if a seed or config command
// left the session without one.
func (b *Bridge) loaded() (*engine, *world.World, error) {
	if b.e == nil {
		return nil, nil, errNotLoaded
	}
	w, err := b.e.ready()
	return b.e, w, err
}

// ready returns the session's world, building it if need be.
func (e *engine) ready() (*world.World, error) {
	if err := e.session.Start(); err != nil {
		return nil, err
	}
	return e.world(), nil
}

// world returns the session's world, noting it as the one the bridge knows.
func (e *engine) world() *world.World {
	e.w = e.session.World()
	return e.w
}

// logRange returns where in the session's log the steps numbered from to
// to, both included, are, if it still keeps them (see script.Session.Steps:
// the most recent ones, and after a seek back the ones after the present
// too): log.At(i) to log.At(j-1).
func (e *engine) logRange(from, to uint64) (log *sim.StepLog, i, j int) {
	log = e.session.Steps()
	i, j = log.Index(from), log.Index(to+1)
	return log, i, max(i, j)
}

// keptFrom is StepsResult.KeptFrom of log: the number of its oldest step
// when the steps before it were dropped, or 0.
func keptFrom(log *sim.StepLog) uint64 {
	if log.Len() == 0 || log.N(0) <= 1 {
		return 0
	}
	return log.N(0)
}

// progress describes what happened since the world w0 was at step n0: the
// steps run since (all of the new world's, if the world was rebuilt), of
// which it lists the newest list (at most maxReturnedSteps).
func (e *engine) progress(w0 *world.World, n0 uint64, list int) StepsResult {
	w := e.world()
	if w != w0 {
		n0 = 0
	}
	now := w.Kernel.Steps()
	log, i, j := e.logRange(n0+1, now)
	res := StepsResult{Ran: j - i, Step: now, AtRest: !w.Kernel.Busy(), KeptFrom: keptFrom(log)}
	if j-i > list {
		i, res.Truncated = j-list, true
	}
	res.Steps = stepsJSON(log, i, j)
	return res
}

// stepsJSON converts the steps log.At(i) to log.At(j-1) for the page; this
// is where their sentences are written out.
func stepsJSON(log *sim.StepLog, i, j int) []Step {
	if i >= j {
		return nil
	}
	out := make([]Step, j-i)
	for k := range out {
		out[k] = world.StepOf(log.At(i + k))
	}
	return out
}

// madeSource is the Source of a command the bridge makes itself, as if typed on
// the console.
func madeSource(text string) script.Source {
	name, _, _ := strings.Cut(text, " ")
	return script.Source{Pos: script.Pos{Line: 1, Col: 1}, Text: text, Name: name}
}

// runQuiet runs a command the bridge made, discarding what it prints.
func (e *engine) runQuiet(cmd script.Command) error {
	defer e.out.Reset()
	return e.session.Run(cmd)
}

// --- Console -----------------------------------------------------------------

// Run runs one console line: a command of the scenario language, or nothing
// (a blank line, a comment). A line that does not parse, or fails, is
// answered with a Failure, not an error.
func (b *Bridge) Run(a RunArgs) (*RunResult, error) {
	e, w0, err := b.loaded()
	if err != nil {
		return nil, err
	}
	n0 := w0.Kernel.Steps()
	e.out.Reset()
	res := &RunResult{}
	cmd, err := script.ParseLine(a.Line)
	switch {
	case err != nil:
		res.Failure = commandError(err)
	case cmd != nil && e.lesson != nil && e.lesson.Stepwise.Has(a.Page) && lesson.Multistep(cmd):
		res.Failure = stepwiseRefusal(e.lesson, a.Page, cmd)
	case cmd != nil:
		if err := e.session.Run(cmd); err != nil {
			res.Failure = commandError(err)
		}
	}
	res.Output = e.out.String()
	e.out.Reset()
	if _, err := e.ready(); err != nil {
		return nil, err
	}
	res.StepsResult = e.progress(w0, n0, maxReturnedSteps)
	return res, nil
}

// stepwiseRefusal says why a stepwise page refused a command, and what to
// do instead.
func stepwiseRefusal(l *lesson.Lesson, page int, cmd script.Command) *CommandError {
	src := cmd.Src()
	msg := "page " + strconv.Itoa(page) + " of this lesson walks every event: press Step (→) to run the next one; " +
		strconv.Quote(src.Text) + " would run many at once"
	if l.Stepwise.To < len(l.Pages) {
		msg += " (it works again from page " + strconv.Itoa(l.Stepwise.To+1) + ")"
	}
	return &CommandError{Kind: "runtime", Line: src.Pos.Line, Col: src.Pos.Col, Message: msg, Error: msg}
}

// commandError turns a parse error or a runtime failure into its JSON form.
func commandError(err error) *CommandError {
	if pe := script.FirstError(err); pe != nil {
		return &CommandError{Kind: "parse", Line: pe.Line, Col: pe.Col, Message: pe.Msg,
			Suggestions: slices.Clone(pe.Suggestions), Hint: pe.Hint, Error: pe.Error()}
	}
	var re *script.RuntimeError
	if errors.As(err, &re) {
		return &CommandError{Kind: "runtime", Line: re.Pos.Line, Col: re.Pos.Col, Message: re.Msg, Error: re.Error()}
	}
	return &CommandError{Kind: "runtime", Line: 1, Col: 1, Message: err.Error(), Error: err.Error()}
}

// Complete offers completions for the word under the cursor: the grammar's,
// and the names of what exists in the loaded world at its present step (pods,
// ReplicaSets, nodes, namespaces; see script.CompleteIn). Before a load there
// is no world, and it offers the grammar alone. It reads the world and
// changes nothing, not even by building one.
func (b *Bridge) Complete(a CompleteArgs) (*CompleteResult, error) {
	cursor := len(a.Line)
	if a.Cursor != nil {
		cursor = *a.Cursor
	}
	var c script.Completion
	if b.e != nil {
		c = b.e.session.Complete(a.Line, cursor)
	} else {
		c = script.CompleteAt(a.Line, cursor)
	}
	return &CompleteResult{Start: c.Start, End: c.End, Candidates: c.Candidates}, nil
}

// Help returns help TOPIC's text, and the command table when asked.
func (b *Bridge) Help(a HelpArgs) (*HelpResult, error) {
	text, err := script.HelpText(a.Topic)
	if err != nil {
		return nil, err
	}
	res := &HelpResult{Text: text}
	if a.Commands {
		res.Commands, res.Kinds = script.Commands(), script.Kinds()
	}
	return res, nil
}

// --- Time --------------------------------------------------------------------

// Step runs the next N events (default 1).
func (b *Bridge) Step(a StepArgs) (*StepsResult, error) {
	n := a.N
	if n == 0 {
		n = 1
	}
	if n < 0 || n > maxStepN {
		return nil, fmt.Errorf("n must be from 1 to %d, not %d; use stabilize or untilSync for longer runs", maxStepN, n)
	}
	e, w, err := b.loaded()
	if err != nil {
		return nil, err
	}
	n0 := w.Kernel.Steps()
	if err := e.runQuiet(&script.Step{Source: madeSource("step " + strconv.Itoa(n)), N: n}); err != nil {
		return nil, err
	}
	res := e.progress(w, n0, maxReturnedSteps)
	res.Idle = res.Ran < n
	return &res, nil
}

// Stabilize runs towards rest, at most MaxSteps steps (default 1000) in this
// call. The caller loops until AtRest, yielding between calls.
func (b *Bridge) Stabilize(a StabilizeArgs) (*StepsResult, error) {
	chunk := a.MaxSteps
	if chunk == 0 {
		chunk = defaultStabilizeChunk
	}
	if chunk < 0 || chunk > sim.DefaultMaxSteps {
		return nil, fmt.Errorf("maxSteps must be from 1 to %d, not %d", sim.DefaultMaxSteps, chunk)
	}
	list := a.Steps
	if list == 0 {
		list = maxReturnedSteps
	}
	if list < 0 || list > maxReturnedSteps {
		return nil, fmt.Errorf("steps must be from 1 to %d, not %d", maxReturnedSteps, list)
	}
	e, w, err := b.loaded()
	if err != nil {
		return nil, err
	}
	n0 := w.Kernel.Steps()
	cmd := &script.Stabilize{Source: madeSource("stabilize --max-steps=" + strconv.Itoa(chunk)), Limits: sim.Limits{MaxSteps: chunk}}
	limit, idle, err := limitOf(e.runQuiet(cmd))
	if err != nil {
		return nil, err
	}
	res := e.progress(w, n0, list)
	res.Limit, res.Idle = limit, idle
	if res.AtRest && res.Ran > 0 {
		collectGarbage()
	}
	return &res, nil
}

// collectGarbage runs the Go garbage collector now, when a run has come to
// rest: the learner waits for the run anyway, and afterwards looks around,
// steps and seeks, which then do not pay for a collection. Under js/wasm the
// collector cannot run beside the program (there is one thread), so a
// collection that starts in the middle of a seek through a large world
// stops it for as long as marking the whole heap takes, a few hundred
// milliseconds for a thousand pods and their snapshots; one here costs the
// same, once, where nobody notices. Tests replace it to count the calls.
var collectGarbage = runtime.GC

// limitOf sorts a stepping command's failure: a limit reached (not an error
// of the request: the caller asks again), the agenda running dry, or a real
// error.
func limitOf(err error) (limit string, idle bool, _ error) {
	var le *sim.LimitError
	switch {
	case err == nil:
		return "", false, nil
	case errors.As(err, &le):
		return le.Limit, false, nil
	case errors.Is(err, sim.ErrIdle):
		return "", true, nil
	}
	return "", false, err
}

// UntilSync runs until the next sync of an owner has ended (its worker
// called Done and every write it issued was answered): of Owner, or, with
// none, of any owner.
func (b *Bridge) UntilSync(a UntilSyncArgs) (*StepsResult, error) {
	maxSteps := a.MaxSteps
	if maxSteps == 0 {
		maxSteps = sim.DefaultMaxSteps
	}
	if maxSteps < 0 || maxSteps > sim.DefaultMaxSteps {
		return nil, fmt.Errorf("maxSteps must be from 1 to %d, not %d", sim.DefaultMaxSteps, maxSteps)
	}
	if a.Owner == "" && a.Namespace != "" {
		return nil, errors.New("namespace needs an owner")
	}
	e, w, err := b.loaded()
	if err != nil {
		return nil, err
	}
	n0 := w.Kernel.Steps()
	if a.Owner != "" {
		return e.untilSyncOf(w, n0, a, maxSteps)
	}

	rs0, rc0 := w.FinishedSyncs()
	one := &script.Step{Source: madeSource("step 1"), N: 1}
	var sync *Sync
	idle := false
	for ran := 0; ran < maxSteps && sync == nil; ran++ {
		if _, ok := w.Kernel.Next(); !ok {
			idle = true
			break
		}
		if err := e.runQuiet(one); err != nil {
			return nil, err
		}
		rs, rc := w.FinishedSyncs()
		for _, m := range []struct {
			kind    api.Kind
			changed bool
		}{{api.KindReplicaSet, rs != rs0}, {api.KindReplicationController, rc != rc0}} {
			if s, ok := w.LatestSync(m.kind); m.changed && ok {
				sync = &s
			}
		}
	}
	res := e.progress(w, n0, maxReturnedSteps)
	res.Sync, res.Idle = sync, idle
	if sync == nil && !idle {
		res.Limit = "--max-steps=" + strconv.Itoa(maxSteps)
	}
	return &res, nil
}

// untilSyncOf runs the scenario language's until sync OWNER.
func (e *engine) untilSyncOf(w *world.World, n0 uint64, a UntilSyncArgs, maxSteps int) (*StepsResult, error) {
	// The owner goes through the console's parser, for its kinds, names and
	// did-you-mean, but only as one plain word: no flags or second command
	// can ride along.
	for _, s := range []string{a.Owner, a.Namespace} {
		if strings.HasPrefix(s, "-") || strings.ContainsAny(s, " \t\r\n\"#\\") {
			return nil, fmt.Errorf("bad owner or namespace %q: write KIND/NAME, as rs/web", s)
		}
	}
	line := "until sync " + a.Owner
	if a.Namespace != "" {
		line += " -n " + a.Namespace
	}
	cmd, err := script.ParseLine(line)
	if err != nil {
		return nil, errors.New(commandError(err).Error)
	}
	us, ok := cmd.(*script.UntilSync)
	if !ok {
		return nil, fmt.Errorf("bad owner %q: write KIND/NAME, as rs/web", a.Owner)
	}
	us.Limits.MaxSteps = maxSteps
	limit, idle, err := limitOf(e.runQuiet(us))
	if err != nil {
		return nil, err
	}
	res := e.progress(w, n0, maxReturnedSteps)
	res.Limit, res.Idle = limit, idle
	if limit == "" && !idle {
		if s, ok := w.LastSyncOf(us.Object.Kind, us.Object.Key()); ok {
			res.Sync = &s
		}
	}
	return &res, nil
}

// Seek brings the world to a recorded step: back (restoring a snapshot and
// replaying) or forward along the recorded timeline. Going past the recorded
// steps is for step, untilSync and stabilize.
func (b *Bridge) Seek(a SeekArgs) (*SeekResult, error) {
	e, w, err := b.loaded()
	if err != nil {
		return nil, err
	}
	if rec := w.RecordedSteps(); a.Step > rec {
		return nil, fmt.Errorf("step %d has not run yet: the recorded steps end at %d; step, untilSync or stabilize to go further", a.Step, rec)
	}
	if err := w.Seek(a.Step); err != nil {
		return nil, err
	}
	e.world()
	return &SeekResult{Step: w.Kernel.Steps(), RecordedSteps: w.RecordedSteps()}, nil
}

// Prepare runs one slice of the preparation for a step back from the
// present (world.PrepareStepBack): the worker calls it while the page is
// idle, so that the step back a learner most often takes after a long run
// does not replay tens of thousands of steps. Until it says done the world
// is in the past, so every other op abandons the preparation first
// (Handle), which brings the world back to the present at once. It changes
// no other op's answer: a world prepared, or cut short, is the world it
// was. With nothing loaded there is nothing to prepare, and a world still
// running is not prepared either: it is being stepped or played, slowly
// enough for the worker to find the page quiet between two steps, and
// every next step would abandon the preparation, after restoring the
// present had made that step copy what it writes (see core/cow).
func (b *Bridge) Prepare(a PrepareArgs) (*PrepareResult, error) {
	_, w, err := b.loaded()
	if err != nil || (!w.Preparing() && w.Kernel.Busy()) {
		return &PrepareResult{Done: true}, nil
	}
	replayed, done, err := w.PrepareStepBack(a.MaxSteps)
	if err != nil {
		return nil, err
	}
	b.preparing = nil
	if !done {
		b.preparing = w
	}
	return &PrepareResult{Done: done, Replayed: replayed}, nil
}

// abandonPreparation brings the world a preparation left in the past back
// to the present.
func (b *Bridge) abandonPreparation() {
	if b.preparing != nil {
		b.preparing.AbandonPreparation()
		b.preparing = nil
	}
}

// Steps lists recorded steps by number, for the page's timeline.
func (b *Bridge) Steps(a StepsArgs) (*StepsResult, error) {
	e, w, err := b.loaded()
	if err != nil {
		return nil, err
	}
	rec := w.RecordedSteps()
	from, to := max(a.From, 1), a.To
	if to == 0 || to > rec {
		to = rec
	}
	log, i, j := e.logRange(from, to)
	res := &StepsResult{Ran: j - i, Step: w.Kernel.Steps(), AtRest: !w.Kernel.Busy(), KeptFrom: keptFrom(log)}
	if j-i > maxReturnedSteps {
		j, res.Truncated = i+maxReturnedSteps, true
	}
	res.Steps = stepsJSON(log, i, j)
	return res, nil
}

// --- Lessons -----------------------------------------------------------------

// Check runs the loaded lesson's goal (Page 0), the check blocks of one
// page of its guide, or one check or step block of a page, and says of
// every expect whether it held. Expects only read, so checking never
// changes the world.
func (b *Bridge) Check(a CheckArgs) (*CheckResult, error) {
	e, _, err := b.loaded()
	if err != nil {
		return nil, err
	}
	l := e.lesson
	if l == nil {
		return nil, errors.New("no lesson is loaded: the sandbox has no goal")
	}
	var blocks []*lesson.Block
	switch {
	case a.Page == 0:
		blocks = []*lesson.Block{l.Goal}
	case a.Page < 0 || a.Page > len(l.Pages):
		return nil, fmt.Errorf("lesson %s has pages 1 to %d, not %d (0 is the goal)", l.ID, len(l.Pages), a.Page)
	case a.Block == nil:
		blocks = l.Pages[a.Page-1].Checks()
	default:
		blk, err := pageBlock(l, a.Page, *a.Block)
		if err != nil {
			return nil, err
		}
		if blk.Kind != lesson.KindCheck && blk.Kind != lesson.KindStep {
			return nil, fmt.Errorf("block %d of page %d of lesson %s is a %s block; check takes a check or a step block", *a.Block, a.Page, l.ID, blk.Kind)
		}
		blocks = []*lesson.Block{blk}
	}
	defer e.out.Reset()
	res := &CheckResult{Met: true}
	for _, blk := range blocks {
		for _, c := range blk.Script.Commands {
			line := CheckLine{Text: c.Src().Text, Met: true}
			if err := e.session.Run(c); err != nil {
				line.Met, line.Failure = false, commandError(err)
				if res.Met {
					res.Met, res.Failure = false, line.Failure
				}
			}
			res.Lines = append(res.Lines, line)
		}
	}
	return res, nil
}

// pageBlock finds block i of page n of lesson l.
func pageBlock(l *lesson.Lesson, n, i int) (*lesson.Block, error) {
	if n < 1 || n > len(l.Pages) {
		return nil, fmt.Errorf("lesson %s has pages 1 to %d, not %d", l.ID, len(l.Pages), n)
	}
	blocks := l.Pages[n-1].Blocks
	if i < 0 || i >= len(blocks) {
		return nil, fmt.Errorf("page %d of lesson %s has blocks 0 to %d, not %d", n, l.ID, len(blocks)-1, i)
	}
	return blocks[i], nil
}

// Grade runs the expects of a predict block's choices, as lesson.Check
// decides them, in the world as it is now: the page calls it once the step
// the question asks about has run, and the answer is right when the
// learner's choice is the one that holds.
func (b *Bridge) Grade(a GradeArgs) (*GradeResult, error) {
	e, _, err := b.loaded()
	if err != nil {
		return nil, err
	}
	if e.lesson == nil {
		return nil, errors.New("no lesson is loaded: the sandbox has no predicts")
	}
	blk, err := pageBlock(e.lesson, a.Page, a.Block)
	if err != nil {
		return nil, err
	}
	if blk.Predict == nil {
		return nil, fmt.Errorf("block %d of page %d of lesson %s is a %s block, not a predict", a.Block, a.Page, e.lesson.ID, blk.Kind)
	}
	defer e.out.Reset()
	res := &GradeResult{Decided: -1}
	held := 0
	for i, c := range blk.Predict.Choices {
		ok := e.session.RunScript(c.Expect.Script) == nil
		res.Holds = append(res.Holds, ok)
		if ok {
			held++
			res.Decided = i
		}
	}
	if held != 1 {
		res.Decided = -1
	}
	return res, nil
}

// Functions summarises the function column of the recorded steps From to To
// (To 0: up to the present), every step counted.
func (b *Bridge) Functions(a StepsArgs) (*FunctionsResult, error) {
	e, w, err := b.loaded()
	if err != nil {
		return nil, err
	}
	to := a.To
	if to == 0 || to > w.RecordedSteps() {
		to = w.RecordedSteps()
	}
	res := &FunctionsResult{}
	index := map[string]int{}
	log, i, j := e.logRange(max(a.From, 1), to)
	for k := i; k < j; k++ {
		s := log.At(k)
		if s.Models == "" {
			continue
		}
		i, seen := index[s.Models]
		if !seen {
			i = len(res.Functions)
			index[s.Models] = i
			run := FunctionRun{Name: s.Models, First: s.N}
			if r, ok := world.SourceOf(s.Models); ok {
				run.Source = &Source{Name: s.Models, Func: r.Func, File: r.File, Line: r.Line, URL: r.URL()}
			}
			res.Functions = append(res.Functions, run)
		}
		res.Functions[i].Count++
	}
	return res, nil
}

// Sources returns core/source's table, with links.
func (b *Bridge) Sources() *SourcesResult {
	all := world.Sources()
	res := &SourcesResult{Tag: world.SourceTag}
	for _, name := range slices.Sorted(maps.Keys(all)) {
		r := all[name]
		res.Sources = append(res.Sources, Source{Name: name, Func: r.Func, File: r.File, Line: r.Line, URL: r.URL()})
	}
	return res
}
