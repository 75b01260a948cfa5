package lesson

import (
	"errors"
	"strconv"

	"github.com/reconcilelab/rlab/core/script"
)

// This file proves a lesson, as CI does for every lesson and rlab lessons
// --check does on demand.

// Check proves that the lesson works, in four runs, each from a fresh world:
//
//   - setup, then the solution, meets the goal: every expect of the goal
//     holds;
//   - setup alone does not: at least one expect of the goal fails, so the
//     learner has something to do;
//   - walking the guide from setup, each page's blocks run in order, and every
//     check holds where it stands, after the do blocks before it. This is
//     what the page does when the learner clicks through, so a check that
//     fails here would be a page the learner could never leave. A step
//     block is reached as the learner reaches it, by stepping one event at
//     a time until its expects hold. Each predict is decided after the do
//     or step block that follows it, the step it asks about, as the page
//     grades it: the ticked choice's expect holds and
//     every other choice's fails, so the question has one right answer and
//     it is the one the author ticked; and at the end of the guide the goal
//     holds, so a learner who follows the guide finishes the lesson;
//   - setup, then every do block of the guide run twice in a row, in order,
//     then stabilize, still meets the goal: a learner who presses a button
//     twice, or types a do block's commands again, can still finish. The
//     second run's commands may fail, as a second create of one name
//     does; the goal must hold all the same.
//
// Every language of the lesson is proven: the guide's walk and its do
// blocks run twice are proven again with each translation's pages, whose
// blocks are run as parsed from its own file (guide.zh-CN.md), so a
// learner reading any language can finish. (Parse has held each
// translation to the English's commands, expects and answers, so these
// proofs fail exactly when the English's do; a translation's proof is
// left out when the English one failed, since it would only repeat it.)
// And the lesson must be written in every language of Languages: every
// lesson ships in all of them, those written from now on included.
//
// It returns nil when all hold, and otherwise one error per proof that
// failed, joined; each is a *CheckError. A setup that fails is reported once,
// alone, since every proof starts with it.
func Check(l *Lesson) error {
	var errs []error
	if err := l.proveSetupAlone(); err != nil {
		if err.Proof == proofSetupRuns {
			return err
		}
		errs = append(errs, err)
	}
	if err := l.proveSolution(); err != nil {
		errs = append(errs, err)
	}
	for _, prove := range []func(pages []*Page, guide string) *CheckError{l.proveGuide, l.proveDoneTwice} {
		if err := prove(l.Pages, fileGuide); err != nil {
			errs = append(errs, err)
			continue
		}
		for _, lang := range Languages[1:] {
			t := l.Translation(lang)
			if t == nil {
				continue
			}
			if err := prove(t.Pages, GuideFile(lang)); err != nil {
				err.Proof = lang + ": " + err.Proof
				errs = append(errs, err)
			}
		}
	}
	if err := l.proveLanguages(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// CheckError is one proof of Check that failed.
type CheckError struct {
	// Lesson is the lesson's file name.
	Lesson string
	// Proof says what should have held: "setup + solution must meet the
	// goal", "setup alone must not meet the goal", "page 2 must hold its
	// checks".
	Proof string
	// Err is the runtime failure that broke the proof, a *script.RuntimeError
	// naming the block, line and column; nil when the proof failed because
	// everything held (setup alone met the goal).
	Err error
}

// Error prints the lesson, the proof and the failure:
//
//	lesson 02-a-pod-dies.txtar: setup + solution must meet the goal: lesson 02-a-pod-dies.txtar, goal:2:1: expect pods -l app=web count=3: found 2 (...)
func (e *CheckError) Error() string {
	msg := "lesson " + e.Lesson + ": " + e.Proof
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the runtime failure.
func (e *CheckError) Unwrap() error { return e.Err }

// newSession returns a session for a proof. Proofs never seek, so the world
// keeps no snapshots but its start.
func newSession() *script.Session {
	return script.NewSession(script.Options{SnapshotEvery: -1})
}

// run runs blocks in order in session and returns the first failure.
func run(session *script.Session, blocks ...*Block) error {
	for _, b := range blocks {
		if err := session.RunScript(b.Script); err != nil {
			return err
		}
	}
	return nil
}

// proofSetupRuns is the proof every other one starts with.
const proofSetupRuns = "setup must run"

func (l *Lesson) proveSolution() *CheckError {
	if err := run(newSession(), l.Setup, l.Solution, l.Goal); err != nil {
		return &CheckError{Lesson: l.File(), Proof: "setup + solution must meet the goal", Err: err}
	}
	return nil
}

func (l *Lesson) proveSetupAlone() *CheckError {
	session := newSession()
	if err := run(session, l.Setup); err != nil {
		return &CheckError{Lesson: l.File(), Proof: proofSetupRuns, Err: err}
	}
	if err := run(session, l.Goal); err == nil {
		return &CheckError{Lesson: l.File(),
			Proof: "setup alone must not meet the goal, but every expect of the goal holds after it; the learner would have nothing to do"}
	}
	return nil
}

// proveGuide walks the guide's pages, those of one language, read from
// the file guide, as the learner does.
func (l *Lesson) proveGuide(pages []*Page, guide string) *CheckError {
	session := newSession()
	if err := run(session, l.Setup); err != nil {
		return &CheckError{Lesson: l.File(), Proof: proofSetupRuns, Err: err}
	}
	for _, p := range pages {
		page := "page " + strconv.Itoa(p.N) + ": "
		// asked holds the predicts waiting for the step they ask about.
		var asked []*Block
		for _, b := range p.Blocks {
			if b.Kind == KindPredict {
				asked = append(asked, b)
				continue
			}
			if b.Kind == KindDo || b.Kind == KindStep {
				if err := pinned(session, p, b, guide); err != nil {
					err.Lesson, err.Proof = l.File(), page+err.Proof
					return err
				}
			}
			var err error
			if b.Kind == KindStep {
				err = stepUntil(session, b)
			} else {
				err = run(session, b)
			}
			if err != nil {
				what := map[Kind]string{
					KindDo:    "its do blocks must run",
					KindCheck: "its checks must hold after its do blocks",
					KindStep:  "pressing Step must reach its step block within " + strconv.Itoa(maxSteps) + " events",
				}[b.Kind]
				return &CheckError{Lesson: l.File(), Proof: page + what, Err: err}
			}
			if b.Kind == KindCheck {
				continue
			}
			for _, q := range asked {
				if err := decide(session, q.Predict); err != nil {
					err.Lesson, err.Proof = l.File(), page+err.Proof
					return err
				}
			}
			asked = nil
		}
	}
	if err := run(session, l.Goal); err != nil {
		return &CheckError{Lesson: l.File(), Proof: "following the guide to its last page must meet the goal", Err: err}
	}
	return nil
}

// pinned proves that each check block after the do or step block b, up to
// the page's next one, pins what b does: some expect of it fails before b
// runs. A check that already held would tick itself before the learner did
// anything, and pin nothing of the stage the page is about. guide names the
// file the page was read from.
func pinned(session *script.Session, p *Page, b *Block, guide string) *CheckError {
	after := false
	for _, c := range p.Blocks {
		switch {
		case c == b:
			after = true
		case !after:
		case c.Kind == KindDo || c.Kind == KindStep:
			return nil
		case c.Kind == KindCheck:
			if run(session, c) == nil {
				return &CheckError{Proof: "the check at " + guide + ":" + strconv.Itoa(c.Line) + " must pin what the " + string(b.Kind) +
					" block at " + guide + ":" + strconv.Itoa(b.Line) + " does, but every expect of it holds before that block runs"}
			}
		}
	}
	return nil
}

// maxSteps is how many events a step block may ask the learner to step
// through: more is not a page to walk with Step.
const maxSteps = 200

// stepBlock is one press of Step.
var stepBlock = mustBlock("step\n")

// stepUntil steps the world one event at a time, as the learner pressing
// Step does, until every expect of the step block b holds, and returns the
// last failure if they do not within maxSteps events.
func stepUntil(session *script.Session, b *Block) error {
	err := run(session, b)
	for i := 0; err != nil && i < maxSteps; i++ {
		if serr := run(session, stepBlock); serr != nil {
			return serr
		}
		err = run(session, b)
	}
	return err
}

// decide proves that the world, just after the step a predict asks about,
// makes its ticked choice the one right answer.
func decide(session *script.Session, q *Predict) *CheckError {
	for i, c := range q.Choices {
		err := run(session, c.Expect)
		choice := "choice " + strconv.Itoa(i+1) + " (" + strconv.Quote(c.Text) + ")"
		switch {
		case i == q.Answer && err != nil:
			return &CheckError{Proof: "the predict's ticked " + choice + " must hold after its step", Err: err}
		case i != q.Answer && err == nil:
			return &CheckError{Proof: "the predict's " + choice + " must fail after its step, but its expect holds: " +
				"the question would have two right answers"}
		}
	}
	return nil
}

// stabilizeBlock is the block proveDoneTwice ends with.
var stabilizeBlock = mustBlock("stabilize\n")

// mustBlock is a do block of the proofs' own.
func mustBlock(text string) *Block {
	s, err := script.Parse(text, "the proof")
	if err != nil {
		panic(err)
	}
	return &Block{Kind: KindDo, Line: 1, Text: text, Script: s}
}

// proveDoneTwice runs every do block of the pages twice, then stabilize,
// and proves the goal still in reach.
func (l *Lesson) proveDoneTwice(pages []*Page, _ string) *CheckError {
	session := newSession()
	if err := run(session, l.Setup); err != nil {
		return &CheckError{Lesson: l.File(), Proof: proofSetupRuns, Err: err}
	}
	const proof = "setup + every do block run twice in order + stabilize must still meet the goal"
	for _, p := range pages {
		for _, b := range p.Do() {
			if err := run(session, b); err != nil {
				return &CheckError{Lesson: l.File(), Proof: proof + " (page " + strconv.Itoa(p.N) + "'s do block failed)", Err: err}
			}
			// The second time, every command runs, and may fail as it
			// would for the learner (a create of what exists): what
			// matters is that the goal stays in reach.
			for _, c := range b.Script.Commands {
				_ = session.Run(c)
			}
		}
	}
	if err := run(session, stabilizeBlock, l.Goal); err != nil {
		return &CheckError{Lesson: l.File(), Proof: proof, Err: err}
	}
	return nil
}
