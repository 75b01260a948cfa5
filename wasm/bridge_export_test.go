package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/export"
)

// TestExportOfALessonPlayedInThePageIsTheExportOfItsSolution plays lesson
// 5's solution as the page does (console lines, and the Stabilize button's
// chunked op) and holds the download to what core/export makes of the
// lesson's setup and solution: the same script, byte for byte.
func TestExportOfALessonPlayedInThePageIsTheExportOfItsSolution(t *testing.T) {
	b := newBridge(t)
	callOp[LoadResult](t, b, "load", LoadArgs{Lesson: "05-orphans"})
	run(t, b, "label pods -l app=web --pick=oldest app=debug --overwrite")
	stabilize(t, b, 100)
	run(t, b, "delete rs web")
	stabilize(t, b, 100)

	got := callOp[ExportResult](t, b, "export", nil)

	l := b.e.lesson
	want, err := export.Run(l.Setup.Script.Commands, l.Solution.Script.Commands, "lesson 05-orphans")
	require.NoError(t, err)
	assert.Equal(t, want.Script(), got.Script)
	assert.Equal(t, "rlab-export.sh", got.FileName)
}

// TestExportSaysWhereTheLearnerSteppedAndStopsAtThePresent: steps that
// leave the world busy are a step, not a stabilize; inputs after a seek back
// are not the present's history.
func TestExportSaysWhereTheLearnerSteppedAndStopsAtThePresent(t *testing.T) {
	b := newSandbox(t, 3)
	run(t, b, "create rs web --replicas=2 --selector=app=web")
	callOp[StepsResult](t, b, "step", StepArgs{N: 3})
	stepped := callOp[View](t, b, "view", nil).Step
	run(t, b, "scale rs/web --replicas=3")

	script := callOp[ExportResult](t, b, "export", nil).Script
	assert.Contains(t, script, "\n# step 3: steps the simulator;")
	assert.Contains(t, script, "\nkubectl -n \"$NAMESPACE\" scale rs/web --replicas=3\n")

	// A seek to a step brings the inputs of its boundary with it: one step
	// back is before the scale.
	callOp[SeekResult](t, b, "seek", SeekArgs{Step: stepped - 1})
	script = callOp[ExportResult](t, b, "export", nil).Script
	assert.NotContains(t, script, "scale rs/web", "the scale comes after the present")
	assert.Contains(t, script, "replicas: 2\n", "the ReplicaSet is created in the learner's part")
}

func TestExportBeforeALoadIsAnError(t *testing.T) {
	assert.Contains(t, fails(t, NewBridge(), `{"op":"export"}`), "load")
}
