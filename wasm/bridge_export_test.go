package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/export"
)

// The page's Export button needs no op of its own: the view holds the
// lesson, the seed, the learner's inputs with their steps and the present
// step, and site/share.js writes them as an export.History for export.wasm,
// which adds the lesson's setup. These tests do what the page does, and
// hold the export to rlab export's, so that the view keeps giving what an
// export needs.

// viewHistory is the export.History the page writes from the view: the
// view's inputs are decoded as export.Input, unknown fields refused, so
// that the two cannot drift apart unnoticed. The lesson's setup is added as
// export.wasm adds it, from the lesson.
func viewHistory(t *testing.T, b *Bridge) export.History {
	t.Helper()
	a := decodeAnswer(t, b.Handle(encodeRequest(t, "view", nil)))
	require.Empty(t, a.Error)
	var v struct {
		Mode   string          `json:"mode"`
		Lesson string          `json:"lesson"`
		Seed   uint64          `json:"seed"`
		Step   uint64          `json:"step"`
		Inputs json.RawMessage `json:"inputs"`
	}
	require.NoError(t, json.Unmarshal(a.Result, &v))
	h := export.History{Seed: v.Seed, Present: v.Step}
	if v.Inputs != nil {
		dec := json.NewDecoder(bytes.NewReader(v.Inputs))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&h.Inputs), "%s", v.Inputs)
	}
	if v.Mode == "lesson" {
		require.NotEmpty(t, v.Lesson, "a lesson's view names its lesson")
		require.Equal(t, b.e.lesson.ID, v.Lesson)
		h.Lesson = v.Lesson
		for _, cmd := range b.e.lesson.Setup.Script.Commands {
			h.Setup = append(h.Setup, cmd.Src().Text)
		}
	}
	return h
}

// exportScript is what export.wasm makes of the view's history.
func exportScript(t *testing.T, b *Bridge) string {
	t.Helper()
	res, err := export.FromHistory(viewHistory(t, b))
	require.NoError(t, err)
	return res.Script()
}

// TestExportOfALessonPlayedInThePageIsTheExportOfItsSolution plays lesson
// 5's solution as the page does (console lines, and the Stabilize button's
// chunked op) and holds the export of the view's history to what
// core/export makes of the lesson's setup and solution: the same script,
// byte for byte.
func TestExportOfALessonPlayedInThePageIsTheExportOfItsSolution(t *testing.T) {
	b := newBridge(t)
	callOp[LoadResult](t, b, "load", LoadArgs{Lesson: "05-orphans"})
	run(t, b, "label pods -l app=web --pick=oldest app=debug --overwrite")
	stabilize(t, b, 100)
	run(t, b, "delete rs web")
	stabilize(t, b, 100)

	h := viewHistory(t, b)
	assert.Equal(t, "lesson 05-orphans", h.Source())
	require.Len(t, h.Inputs, 2, "the learner's two inputs, not the setup's commands")
	assert.Equal(t, "delete rs web", h.Inputs[1].Text)
	assert.Less(t, h.Inputs[0].Step, h.Inputs[1].Step, "each input with the step it was applied at")

	l := b.e.lesson
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

	h := viewHistory(t, b)
	present := callOp[View](t, b, "view", nil).Step
	assert.Equal(t, export.History{Seed: 3, Present: present, Inputs: []export.Input{
		{Step: base, Text: "create rs web --replicas=2 --selector=app=web"},
		{Step: stepped, Text: "scale rs/web --replicas=3"},
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
