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
	"github.com/reconcilelab/rlab/internal/gotool"
	"github.com/reconcilelab/rlab/internal/wasmbuild"
	"github.com/reconcilelab/rlab/lessons"
)

// lessonFiveHistory is a History of lesson 5's setup and no learner input,
// as JSON, with the script export.FromHistory writes for it.
func lessonFiveHistory(t *testing.T) ([]byte, string) {
	t.Helper()
	all, err := lesson.ParseFS(lessons.FS())
	require.NoError(t, err)
	h := export.History{Source: "lesson 05-orphans", Seed: 1}
	for _, l := range all {
		if l.ID == "05-orphans" {
			for _, cmd := range l.Setup.Script.Commands {
				h.Setup = append(h.Setup, cmd.Src().Text)
			}
		}
	}
	require.NotEmpty(t, h.Setup, "lesson 5 has a setup")
	h.Inputs = []export.Input{{Step: 1_000, Line: "delete rs web"}}
	h.Present = 2_000
	want, err := export.FromHistory(h)
	require.NoError(t, err)
	data, err := json.Marshal(h)
	require.NoError(t, err)
	return data, want.Script()
}

func TestExportHistoryWritesWhatFromHistoryWrites(t *testing.T) {
	data, want := lessonFiveHistory(t)
	got, err := exportHistory(data)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Contains(t, got, "kubectl -n \"$NAMESPACE\" delete rs/web", "the learner's input is in it")
}

func TestExportHistorySaysWhatWasWrong(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"source":"the sandbox","seed":1,"setup":[],"inputs":[],"present":0,"lesson":"05"}`, "is not what this export.wasm reads"},
		{`[1,2]`, "is not what this export.wasm reads"},
		{`{"source":"","seed":1}`, "the export could not be written: the history has no source"},
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

	require.NoError(t, os.WriteFile(history, []byte(`{"source":"the sandbox","seed":1,"inputs":[{"step":9,"line":"stabilize"},{"step":2,"line":"stabilize"}]}`), 0o644))
	stdout.Reset()
	stderr.Reset()
	cmd = exec.CommandContext(ctx, node, filepath.Join("testdata", "export.js"), wasmExec, out, history)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.Error(t, cmd.Run())
	assert.Empty(t, stdout.String())
	assert.True(t, strings.HasPrefix(stderr.String(), "the export could not be written: the history's inputs are out of order"), stderr.String())
}
