package parity

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/reconcilelab/rlab/core/export"
	"github.com/reconcilelab/rlab/core/lesson"
	"github.com/reconcilelab/rlab/core/script"
	"github.com/reconcilelab/rlab/parity/plane"
)

// ExportResult is a lesson's export applied to a real plane: whether each
// expect of the lesson's goal held there afterwards.
type ExportResult struct {
	Lesson string
	// Script is the export that was applied.
	Script string
	// Goal holds each goal expect and what it found: nil when it held.
	Goal []GoalCheck
	// PlaneStart and Run are how long the plane took to start and the
	// export to apply.
	PlaneStart, Run time.Duration
}

// GoalCheck is one goal expect and its verdict on the plane.
type GoalCheck struct {
	Expect string
	Err    error
}

// Reached reports whether every goal expect that has a meaning on a
// cluster held, and there was one. An expect of the simulator's insides
// (expect requests, queue, cache) is not comparable: it neither holds nor
// fails here.
func (r *ExportResult) Reached() bool {
	held := 0
	for _, g := range r.Goal {
		switch {
		case errors.Is(g.Err, ErrNotComparable):
		case g.Err != nil:
			return false
		default:
			held++
		}
	}
	return held > 0
}

// Failed reports whether a goal expect that has a meaning on a cluster
// did not hold.
func (r *ExportResult) Failed() bool {
	for _, g := range r.Goal {
		if g.Err != nil && !errors.Is(g.Err, ErrNotComparable) {
			return true
		}
	}
	return false
}

// Report prints the verdict, one line per goal expect.
func (r *ExportResult) Report(w io.Writer) {
	fmt.Fprintf(w, "== export of %s\n", r.Lesson)
	for _, g := range r.Goal {
		verdict := "holds"
		if errors.Is(g.Err, ErrNotComparable) {
			verdict = g.Err.Error()
		} else if g.Err != nil {
			verdict = "FAILS: " + g.Err.Error()
		}
		fmt.Fprintf(w, "  %s: %s\n", g.Expect, verdict)
	}
	verdict := "GOAL REACHED"
	if r.Failed() {
		verdict = "GOAL NOT REACHED"
	} else if !r.Reached() {
		verdict = "NOTHING TO CHECK: every goal expect reads the simulator's insides"
	}
	fmt.Fprintf(w, "  %s; plane start %.1fs, export applied in %.1fs\n", verdict, r.PlaneStart.Seconds(), r.Run.Seconds())
}

// CheckExport exports a lesson (rlab export: its setup is the world, its
// solution what was done), applies the export to a new plane with Applier,
// as bash and kubectl would, in namespace default, and evaluates the
// lesson's goal there. The plane runs with its default timings, times
// opts.Scale: the script's config commands are comments in the export, as
// a cluster has its own.
func CheckExport(path string, opts Options) (*ExportResult, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	l, err := lesson.Parse(filepath.Base(path), data)
	if err != nil {
		return nil, err
	}
	if l.Goal == nil || l.Goal.Script == nil || l.Setup == nil || l.Solution == nil {
		return nil, errors.New(path + ": a lesson with a setup, a solution and a goal")
	}
	exp, err := export.Run(l.Setup.Script.Commands, l.Solution.Script.Commands, path)
	if err != nil {
		return nil, err
	}
	if opts.Scale <= 0 {
		opts.Scale = 1
	}
	cfg := PlaneConfig(&script.Script{}, opts.Scale)
	cfg.Log = opts.Log
	p, err := plane.Start(cfg)
	if err != nil {
		return nil, err
	}
	defer p.Stop()
	res := &ExportResult{Lesson: path, Script: exp.Script(), PlaneStart: p.Started}
	ctx := context.Background()
	real, err := NewReal(ctx, p, 1, opts.Scale, opts.Settle)
	if err != nil {
		return nil, err
	}
	defer real.Close()
	began := time.Now()
	if err := NewApplier(real, "default").Apply(res.Script); err != nil {
		return nil, fmt.Errorf("applying the export of %s: %w", path, err)
	}
	res.Run = time.Since(began)
	r, err := ReadReal(ctx, p.Client, real.namespaces)
	if err != nil {
		return nil, err
	}
	for _, cmd := range l.Goal.Script.Commands {
		res.Goal = append(res.Goal, GoalCheck{Expect: cmd.Src().Text, Err: Expect(cmd, r, real.creationOrder)})
	}
	return res, nil
}
