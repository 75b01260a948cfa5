package main

import (
	"strconv"

	"github.com/reconcilelab/rlab/core/export"
	"github.com/reconcilelab/rlab/core/script"
)

// This file is the export op: the page's Export button downloads what the
// learner did, as a script of kubectl for a cluster of their own.

// ExportResult is the self-contained script (core/export's Result.Script)
// and the name to save it as.
type ExportResult struct {
	Script   string `json:"script"`
	FileName string `json:"fileName"`
}

// exportFileName is the name the page saves an export as.
const exportFileName = "rlab-export.sh"

// Export writes the loaded world's history up to the present as kubectl:
// a lesson's setup builds the world, then the learner's inputs follow, each
// at the step it was applied at. It replays them in a session of its own,
// so the learner's world is not touched. Between two inputs the learner let
// the world run (Stabilize, Step, Until sync): where the world was at rest
// by the next input, that was a stabilize, and the export waits for that
// rest; where it was not, the learner stepped, and the export says so in a
// comment. What the learner only read (get, expect) changed nothing, is not
// an input, and is not exported.
func (b *Bridge) Export() (*ExportResult, error) {
	e, w, err := b.loaded()
	if err != nil {
		return nil, err
	}
	s := script.NewSession(script.Options{Seed: w.Config().Seed, SnapshotEvery: -1})
	x := export.New()
	source := "the sandbox"
	if e.lesson != nil {
		source = "lesson " + e.lesson.ID
		for _, cmd := range e.lesson.Setup.Script.Commands {
			if err := s.Run(cmd); err != nil {
				return nil, err
			}
			if err := x.Add(cmd, s.World()); err != nil {
				return nil, err
			}
		}
	}
	if err := s.Start(); err != nil {
		return nil, err
	}
	x.Begin(export.PartLearner)
	present := w.Kernel.Steps()
	inputs := w.Inputs()
	for _, in := range inputs[min(e.baseInputs, len(inputs)):] {
		if in.Step > present {
			break // sought back before it: not part of the present's history
		}
		if err := exportGap(s, x, in.Step); err != nil {
			return nil, err
		}
		cmd, err := script.ParseLine(in.Name)
		if err != nil || cmd == nil {
			x.Comment(in.Name + ": not a command the export can read again")
			continue
		}
		if err := s.Run(cmd); err != nil {
			x.Comment(in.Name + ": refused in the simulator (" + err.Error() + "), so left out")
			continue
		}
		if err := x.Add(cmd, s.World()); err != nil {
			return nil, err
		}
	}
	if err := exportGap(s, x, present); err != nil {
		return nil, err
	}
	return &ExportResult{Script: x.Result(source).Script(), FileName: exportFileName}, nil
}

// exportGap runs the export's session on to step, and says what the
// learner did in between: a stabilize when the world was then at rest, a
// step otherwise.
func exportGap(s *script.Session, x *export.Exporter, step uint64) error {
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
