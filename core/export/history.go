package export

import (
	"errors"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/script"
)

// This file exports what a learner did in a world the page ran, rather than
// a script. The page has all of it in the view main.wasm already gives it
// (the lesson, the seed, the learner's inputs with their steps, the present
// step), so it writes a History without main.wasm carrying this package,
// for which its size budget has no room; FromHistory, run in a program of
// its own (export.wasm) or in a test, replays it in a fresh session and
// writes the kubectl.

// History is what a learner did in one world, up to the present, as plain
// data that crosses JSON unchanged. An input is as the page's view gives it.
type History struct {
	// Lesson is the lesson's ID, "05-orphans"; empty for the sandbox. It
	// names the world in the script's header.
	Lesson string `json:"lesson,omitempty"`
	// Setup are the lesson's setup commands, each as written, in order.
	// The page does not have them; export.wasm fills them in from the
	// lessons it was built with.
	Setup []string `json:"setup,omitempty"`
	// Seed is the world's seed, which the replay's session starts with.
	Seed uint64 `json:"seed"`
	// Inputs are the learner's inputs after the setup, in the order they
	// were applied, each with the step it was applied at.
	Inputs []Input `json:"inputs,omitempty"`
	// Present is the step the learner is at: inputs applied after it (the
	// learner sought back before them) are not part of the history.
	Present uint64 `json:"present"`
}

// Input is one thing the learner did: a console line, applied at a step.
type Input struct {
	// Step is the boundary the input was applied at: after this many steps.
	Step uint64 `json:"step"`
	// Text is the input as the learner typed it.
	Text string `json:"text"`
}

// Source names where the history's world came from, as the script's
// header says it: "lesson 05-orphans" or "the sandbox".
func (h History) Source() string {
	if h.Lesson == "" {
		return "the sandbox"
	}
	return "lesson " + h.Lesson
}

// FromHistory writes h as kubectl. A lesson's setup builds the world, then
// the learner's inputs follow, each at the step it was applied at. Between
// two inputs the learner let the world run (Stabilize, Step, Until sync):
// where the world was at rest by the next input, that was a stabilize, and
// the export waits for that rest; where it was not, the learner stepped,
// and the export says so in a comment. What the learner only read (get,
// expect) changed nothing, is not an input, and is not in a History.
//
// A setup that does not run is an error, as it does for Run; an input that
// no longer parses or that the simulator refuses becomes a comment, since
// the learner saw it refused and the world did not change.
func FromHistory(h History) (*Result, error) {
	if h.Lesson != "" && len(h.Setup) == 0 {
		return nil, errors.New("the history of lesson " + h.Lesson + " has no setup: give the lesson's setup commands, or no lesson for the sandbox")
	}
	if h.Lesson == "" && len(h.Setup) > 0 {
		return nil, errors.New("the history has a setup but no lesson: a setup is a lesson's; name the lesson, or give no setup for the sandbox")
	}
	for i := 1; i < len(h.Inputs); i++ {
		if h.Inputs[i].Step < h.Inputs[i-1].Step {
			return nil, errors.New("the history's inputs are out of order: input " + strconv.Itoa(i+1) + " (" + strconv.Quote(h.Inputs[i].Text) +
				") is at step " + strconv.FormatUint(h.Inputs[i].Step, 10) + ", before the one ahead of it; give them in the order they were applied")
		}
	}
	s := script.NewSession(script.Options{Seed: h.Seed, SnapshotEvery: -1})
	x := New()
	if len(h.Setup) > 0 {
		setup, err := script.Parse(strings.Join(h.Setup, "\n"), h.Source()+" setup")
		if err != nil {
			return nil, errors.New("the history's setup does not parse: " + err.Error())
		}
		for _, cmd := range setup.Commands {
			if err := s.Run(cmd); err != nil {
				return nil, errors.New("the history's setup fails before it can be exported: " + err.Error())
			}
			if err := x.Add(cmd, s.World()); err != nil {
				return nil, err
			}
		}
	}
	if err := s.Start(); err != nil {
		return nil, err
	}
	x.Begin(PartLearner)
	for _, in := range h.Inputs {
		if in.Step > h.Present {
			break // sought back before it: not part of the present's history
		}
		if err := x.runTo(s, in.Step); err != nil {
			return nil, err
		}
		cmd, err := script.ParseLine(in.Text)
		if err != nil || cmd == nil {
			x.Comment(in.Text + ": not a command the export can read again")
			continue
		}
		if err := s.Run(cmd); err != nil {
			x.Comment(in.Text + ": refused in the simulator (" + err.Error() + "), so left out")
			continue
		}
		if err := x.Add(cmd, s.World()); err != nil {
			return nil, err
		}
	}
	if err := x.runTo(s, h.Present); err != nil {
		return nil, err
	}
	return x.Result(h.Source()), nil
}

// runTo runs the session on to step, and says what the learner did in
// between: a stabilize when the world was then at rest, a step otherwise.
func (x *Exporter) runTo(s *script.Session, step uint64) error {
	now := s.World().Kernel.Steps()
	if now >= step {
		return nil
	}
	stepCmd, err := script.ParseLine("step " + strconv.FormatUint(step-now, 10))
	if err != nil {
		return err
	}
	if err := s.Run(stepCmd); err != nil {
		return err
	}
	w := s.World()
	if w.Kernel.Busy() {
		return x.Add(stepCmd, w)
	}
	stabilize, err := script.ParseLine("stabilize")
	if err != nil {
		return err
	}
	return x.Add(stabilize, w)
}
