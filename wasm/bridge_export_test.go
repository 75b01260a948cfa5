package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/export"
)

// exportHistory calls the export op and decodes its answer as
// core/export's History, refusing a field History does not have: the
// bridge's ExportHistory and export.History must stay the same JSON.
func exportHistory(t *testing.T, b *Bridge) export.History {
	t.Helper()
	a := decodeAnswer(t, b.Handle(encodeRequest(t, "export", nil)))
	require.Empty(t, a.Error)
	dec := json.NewDecoder(bytes.NewReader(a.Result))
	dec.DisallowUnknownFields()
	var h export.History
	require.NoError(t, dec.Decode(&h), "%s", a.Result)
	return h
}

// exportScript is what export.wasm makes of the export op's history.
func exportScript(t *testing.T, b *Bridge) string {
	t.Helper()
	res, err := export.FromHistory(exportHistory(t, b))
	require.NoError(t, err)
	return res.Script()
}

// TestExportOfALessonPlayedInThePageIsTheExportOfItsSolution plays lesson
// 5's solution as the page does (console lines, and the Stabilize button's
// chunked op) and holds the export of the op's history to what core/export
// makes of the lesson's setup and solution: the same script, byte for byte.
func TestExportOfALessonPlayedInThePageIsTheExportOfItsSolution(t *testing.T) {
	b := newBridge(t)
	callOp[LoadResult](t, b, "load", LoadArgs{Lesson: "05-orphans"})
	run(t, b, "label pods -l app=web --pick=oldest app=debug --overwrite")
	stabilize(t, b, 100)
	run(t, b, "delete rs web")
	stabilize(t, b, 100)

	h := exportHistory(t, b)
	assert.Equal(t, "lesson 05-orphans", h.Source)
	require.Len(t, h.Inputs, 2, "the learner's two inputs, not the setup's commands")
	assert.Equal(t, "delete rs web", h.Inputs[1].Line)
	assert.Less(t, h.Inputs[0].Step, h.Inputs[1].Step, "each input with the step it was applied at")
	assert.Equal(t, callOp[View](t, b, "view", nil).Step, h.Present)

	l := b.e.lesson
	require.Len(t, h.Setup, len(l.Setup.Script.Commands))
	want, err := export.Run(l.Setup.Script.Commands, l.Solution.Script.Commands, "lesson 05-orphans")
	require.NoError(t, err)
	assert.Equal(t, want.Script(), exportScript(t, b))
}

// TestExportSaysWhereTheLearnerSteppedAndStopsAtThePresent: steps that
// leave the world busy are a step, not a stabilize; inputs after a seek back
// are not the present's history.
func TestExportSaysWhereTheLearnerSteppedAndStopsAtThePresent(t *testing.T) {
	b := newBridge(t)
	base := callOp[LoadResult](t, b, "load", LoadArgs{Seed: 3}).Step
	run(t, b, "create rs web --replicas=2 --selector=app=web")
	callOp[StepsResult](t, b, "step", StepArgs{N: 3})
	stepped := callOp[View](t, b, "view", nil).Step
	run(t, b, "scale rs/web --replicas=3")

	h := exportHistory(t, b)
	present := callOp[View](t, b, "view", nil).Step
	assert.Equal(t, export.History{Source: "the sandbox", Seed: 3, Setup: []string{}, Present: present, Inputs: []export.Input{
		{Step: base, Line: "create rs web --replicas=2 --selector=app=web"},
		{Step: stepped, Line: "scale rs/web --replicas=3"},
	}}, h)
	script := exportScript(t, b)
	assert.Contains(t, script, "\n# step 3: steps the simulator;")
	assert.Contains(t, script, "\nkubectl -n \"$NAMESPACE\" scale rs/web --replicas=3\n")

	// A seek to a step brings the inputs of its boundary with it: one step
	// back is before the scale.
	callOp[SeekResult](t, b, "seek", SeekArgs{Step: stepped - 1})
	script = exportScript(t, b)
	assert.NotContains(t, script, "scale rs/web", "the scale comes after the present")
	assert.Contains(t, script, "replicas: 2\n", "the ReplicaSet is created in the learner's part")
}

func TestExportBeforeALoadIsAnError(t *testing.T) {
	assert.Contains(t, fails(t, NewBridge(), `{"op":"export"}`), "load")
}
