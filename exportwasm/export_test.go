//go:build !js

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/export"
	"github.com/reconcilelab/rlab/core/lesson"
	"github.com/reconcilelab/rlab/core/script"
	"github.com/reconcilelab/rlab/internal/gotool"
	"github.com/reconcilelab/rlab/internal/wasmbuild"
	"github.com/reconcilelab/rlab/lessons"
)

// lessonFiveHistory is lesson 5 played by its solution, as the page gives
// it (the lesson's ID, no setup), as JSON, with the script rlab export
// writes for the lesson's setup and solution.
func lessonFiveHistory(t *testing.T) ([]byte, string) {
	t.Helper()
	all, err := lesson.ParseFS(lessons.FS())
	require.NoError(t, err)
	var l *lesson.Lesson
	for _, c := range all {
		if c.ID == "05-orphans" {
			l = c
		}
	}
	require.NotNil(t, l)
	want, err := export.Run(l.Setup.Script.Commands, l.Solution.Script.Commands, "lesson 05-orphans")
	require.NoError(t, err)

	// The steps the page records: the setup's session at rest, then each
	// of the solution's inputs followed by a stabilize.
	s := script.NewSession(script.Options{Seed: 1, SnapshotEvery: -1})
	for _, cmd := range l.Setup.Script.Commands {
		require.NoError(t, s.Run(cmd))
	}
	require.NoError(t, s.Start())
	h := export.History{Lesson: l.ID, Seed: 1}
	stabilize, err := script.ParseLine("stabilize")
	require.NoError(t, err)
	for _, cmd := range l.Solution.Script.Commands {
		if _, isStabilize := cmd.(*script.Stabilize); isStabilize {
			continue
		}
		h.Inputs = append(h.Inputs, export.Input{Step: s.World().Kernel.Steps(), Text: cmd.Src().Text})
		require.NoError(t, s.Run(cmd))
		require.NoError(t, s.Run(stabilize))
	}
	h.Present = s.World().Kernel.Steps()
	data, err := json.Marshal(h)
	require.NoError(t, err)
	return data, want.Script()
}

func TestExportHistoryWritesWhatRlabExportWrites(t *testing.T) {
	data, want := lessonFiveHistory(t)
	got, err := exportHistory(data)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Contains(t, got, "kubectl -n \"$NAMESPACE\" delete rs/web", "the learner's input is in it")
}

func TestExportHistorySaysWhatWasWrong(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"seed":1,"inputs":[],"present":0,"source":"the sandbox"}`, "is not what this export.wasm reads"},
		{`[1,2]`, "is not what this export.wasm reads"},
		{`{"lesson":"99-nothing","seed":1}`, "no lesson 99-nothing in this export.wasm (is the page from another build?); its lessons are 01-"},
		{`{"seed":1,"setup":["create rs web --replicas=1"]}`, "the export could not be written: the history has a setup but no lesson"},
	} {
		_, err := exportHistory([]byte(c.in))
		require.Error(t, err, c.in)
		assert.Contains(t, err.Error(), c.want, c.in)
	}
}

// TestExportWasmUnderNode builds export.wasm as rlab wasm does and calls
// its rlabExport under node, as the page's export worker does: it returns
// what the native code writes, byte for byte.
func TestExportWasmUnderNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if v := os.Getenv("CI"); v != "" && v != "0" && v != "false" {
			t.Fatalf("node is required in CI to run export.wasm: %v", err)
		}
		t.Skipf("node not found (%v); install Node.js to run export.wasm", err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, wasmbuild.ExportFile)
	args := append([]string{"build"}, wasmbuild.Flags("")...)
	gotool.Run(t, gotool.JSWasm(), append(args, "-o", out, ".")...)
	data, want := lessonFiveHistory(t)
	history := filepath.Join(dir, "history.json")
	require.NoError(t, os.WriteFile(history, data, 0o644))
	wasmExec := filepath.Join(gotool.Env(t, "GOROOT"), "lib", "wasm", "wasm_exec.js")

	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "export.js"), wasmExec, out, history)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "node export.js failed\nstderr:\n%s", &stderr)
	assert.Equal(t, want, stdout.String())

	require.NoError(t, os.WriteFile(history, []byte(`{"seed":1,"inputs":[{"step":9,"text":"stabilize"},{"step":2,"text":"stabilize"}]}`), 0o644))
	stdout.Reset()
	stderr.Reset()
	cmd = exec.CommandContext(ctx, node, filepath.Join("testdata", "export.js"), wasmExec, out, history)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.Error(t, cmd.Run())
	assert.Empty(t, stdout.String())
	assert.True(t, strings.HasPrefix(stderr.String(), "the export could not be written: the history's inputs are out of order"), stderr.String())
}
