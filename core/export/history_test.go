package export

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/lesson"
	"github.com/reconcilelab/rlab/core/script"
	"github.com/reconcilelab/rlab/lessons"
)

// setupLines are a lesson's setup commands as the page's engine writes
// them into a History: each as written.
func setupLines(l *lesson.Lesson) []string {
	var lines []string
	for _, cmd := range l.Setup.Script.Commands {
		lines = append(lines, cmd.Src().Text)
	}
	return lines
}

// startStep is the step a sandbox of seed 1 rests at once its start (its
// nodes) has run: where a learner's first input can come.
func startStep(t *testing.T) uint64 {
	t.Helper()
	s := script.NewSession(script.Options{Seed: 1, SnapshotEvery: -1})
	require.NoError(t, s.Start())
	require.NotZero(t, s.World().Kernel.Steps(), "the start runs steps")
	return s.World().Kernel.Steps()
}

// TestEveryLessonsSetupCrossesAHistory: each lesson's setup, as the text of
// its commands, exports as the setup itself does, so nothing of a setup is
// lost on its way through JSON.
func TestEveryLessonsSetupCrossesAHistory(t *testing.T) {
	all, err := lesson.ParseFS(lessons.FS())
	require.NoError(t, err)
	require.NotEmpty(t, all)
	for _, l := range all {
		want, err := Run(l.Setup.Script.Commands, nil, "lesson "+l.ID)
		require.NoError(t, err, l.ID)
		got, err := FromHistory(History{Lesson: l.ID, Seed: 1, Setup: setupLines(l)})
		require.NoError(t, err, l.ID)
		assert.Equal(t, want.Script(), got.Script(), l.ID)
	}
}

// TestAHistorysGapsAreStabilizesOrSteps: between two inputs, a world at rest
// by the next one was stabilized; one still busy was stepped.
func TestAHistorysGapsAreStabilizesOrSteps(t *testing.T) {
	base := startStep(t)
	// The create runs the world on a few steps itself (its write, and what
	// the watches deliver); two steps after that, pods are still starting.
	s := script.NewSession(script.Options{Seed: 1, SnapshotEvery: -1})
	require.NoError(t, s.Run(parse(t, "create rs web --replicas=2 --selector=app=web")[0]))
	created := s.World().Kernel.Steps()
	h := History{Seed: 1, Inputs: []Input{
		{Step: base, Text: "create rs web --replicas=2 --selector=app=web"},
		{Step: created + 2, Text: "scale rs/web --replicas=3"},
		{Step: base + 500, Text: "scale rs/web --replicas=1"},
	}, Present: base + 1000}
	res, err := FromHistory(h)
	require.NoError(t, err)
	want, err := Run(nil, parse(t,
		"create rs web --replicas=2 --selector=app=web",
		"step 2",
		"scale rs/web --replicas=3",
		"stabilize",
		"scale rs/web --replicas=1",
		"stabilize",
	), "the sandbox")
	require.NoError(t, err)
	assert.Equal(t, want.Script(), res.Script())
}

// TestAHistoryEndsAtItsPresent: inputs after the present were undone by a
// seek back, and a present before any step leaves the world as it is.
func TestAHistoryEndsAtItsPresent(t *testing.T) {
	base := startStep(t)
	h := History{Seed: 1, Inputs: []Input{
		{Step: base, Text: "create rs web --replicas=2 --selector=app=web"},
		{Step: base + 40, Text: "scale rs/web --replicas=5"},
	}, Present: base}
	res, err := FromHistory(h)
	require.NoError(t, err)
	script := res.Script()
	assert.Contains(t, script, "replicas: 2\n")
	assert.NotContains(t, script, "replicas=5")
	assert.NotContains(t, script, "stabilize")
}

// TestInputsTheReplayCannotRunBecomeComments: the learner saw these
// refused, and the world did not change, so the export says so and goes on.
func TestInputsTheReplayCannotRunBecomeComments(t *testing.T) {
	res, err := FromHistory(History{Seed: 1, Inputs: []Input{
		{Step: 0, Text: "scael rs/web --replicas=3"},
		{Step: 0, Text: "scale rs/web --replicas=3"},
	}})
	require.NoError(t, err)
	script := res.Script()
	assert.Contains(t, script, "\n# scael rs/web --replicas=3: not a command the export can read again\n")
	assert.Contains(t, script, "\n# scale rs/web --replicas=3: refused in the simulator (")
}

func TestAHistoryThatCannotBeExportedSaysWhy(t *testing.T) {
	for _, c := range []struct {
		name string
		h    History
		want string
	}{
		{"a lesson without its setup", History{Lesson: "05-orphans"}, "the history of lesson 05-orphans has no setup"},
		{"a setup without a lesson", History{Setup: []string{"create rs web --replicas=1"}}, "a setup is a lesson's"},
		{"inputs out of order", History{Inputs: []Input{{Step: 5, Text: "stabilize"}, {Step: 2, Text: "scale rs/web --replicas=3"}}},
			`input 2 ("scale rs/web --replicas=3") is at step 2, before the one ahead of it`},
		{"a setup that does not parse", History{Lesson: "x", Setup: []string{"create rs"}}, "the history's setup does not parse: lesson x setup:1:"},
		{"a setup that fails", History{Lesson: "x", Setup: []string{"scale rs/web --replicas=3"}}, "the history's setup fails before it can be exported: "},
	} {
		_, err := FromHistory(c.h)
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), c.want, c.name)
	}
}
