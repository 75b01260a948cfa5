//go:build !js

package main

// These native tests check the wasm program from the outside: what goes into
// the binary, how big it is, and that it starts and answers under node the way
// it must in a page. They shell out to the go command (which go test puts first
// on PATH, so it is the toolchain running the tests) and to node.

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Budgets from DESIGN.md for site/main.wasm. The gzip figure is measured with
// compress/gzip at BestCompression, which compresses a little worse than GNU
// gzip -9, so the check errs on the strict side.
const (
	maxWasmBytes     = 5_000_000
	maxWasmGzipBytes = 1_300_000
)

// forbiddenDeps are packages that must never be linked into main.wasm, each
// with everything under it, and the reason a failure message gives.
var forbiddenDeps = []struct{ path, why string }{
	{"k8s.io", "the upstream Kubernetes modules are fidelity oracles for tests only"},
	{"regexp", "it costs wasm size; parse by hand (DESIGN.md budgets)"},
	{"text/template", "it costs wasm size (DESIGN.md budgets)"},
	{"net/http", "it costs wasm size, and the page fetches through JavaScript"},
}

func TestWasmDependencies(t *testing.T) {
	out := goCmd(t, jsWasmEnv(), "list", "-deps", ".")

	deps := strings.Fields(out)
	require.Contains(t, deps, "github.com/hack-pad/safejs", "sanity check: the list is of the js/wasm build")
	for _, dep := range deps {
		for _, f := range forbiddenDeps {
			if dep == f.path || strings.HasPrefix(dep, f.path+"/") {
				t.Errorf("main.wasm links %s: %s (see `GOOS=js GOARCH=wasm go list -deps ./wasm` for who imports it)", dep, f.why)
			}
		}
	}
}

func TestWasmBinary(t *testing.T) {
	wasm := buildWasm(t)

	t.Run("fits its size budget", func(t *testing.T) {
		raw, err := os.ReadFile(wasm)
		require.NoError(t, err)
		var gz bytes.Buffer
		zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		require.NoError(t, err)
		_, err = zw.Write(raw)
		require.NoError(t, err)
		require.NoError(t, zw.Close())

		t.Logf("main.wasm: %d bytes raw, %d bytes gzip", len(raw), gz.Len())
		assert.LessOrEqual(t, len(raw), maxWasmBytes, "raw size over budget")
		assert.LessOrEqual(t, gz.Len(), maxWasmGzipBytes, "gzip size over budget")
	})

	t.Run("gets ready under node", func(t *testing.T) {
		node := requireNode(t)
		wasmExec := filepath.Join(goEnv(t, "GOROOT"), "lib", "wasm", "wasm_exec.js")
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()

		cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "ready.js"), wasmExec, wasm, "20000")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()

		require.NoError(t, err, "node ready.js failed\nstdout:\n%s\nstderr:\n%s", &stdout, &stderr)
		assert.Equal(t, "ready dev", strings.TrimSpace(stdout.String()),
			"the harness prints the version ping returned (dev: built without -X)")
	})
}

// buildWasm compiles this package for js/wasm, with the flags make wasm uses,
// into a temporary directory and returns the file's path.
func buildWasm(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "main.wasm")
	goCmd(t, jsWasmEnv(), "build", "-trimpath", "-ldflags=-s -w", "-o", out, ".")
	return out
}

// requireNode returns the path of node. Without node the test skips on a
// developer's machine but fails in CI, where a silent skip would hide that the
// wasm program was never run.
func requireNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		return node
	}
	if inCI() {
		t.Fatalf("node is required in CI to run the wasm program: %v", err)
	}
	t.Skipf("node not found (%v); install Node.js to run the wasm program", err)
	return ""
}

func inCI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "0" && v != "false"
}

func jsWasmEnv() []string {
	// exec uses the last value of a repeated variable, so these override the
	// caller's GOOS and GOARCH.
	return append(os.Environ(), "GOOS=js", "GOARCH=wasm")
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	return strings.TrimSpace(goCmd(t, nil, "env", name))
}

// goCmd runs the go command with args in env (nil: this process's) and returns
// its standard output, failing the test with the command's stderr on error.
func goCmd(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "go", args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "go %s\n%s", strings.Join(args, " "), &stderr)
	return stdout.String()
}
