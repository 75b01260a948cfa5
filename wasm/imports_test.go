//go:build !js

package main

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// shellMayImport are the packages under core/ that the bridge may import:
// the world and its read model (world), the console's language (script),
// the lessons (lesson), the kernel's steps and times (sim) and the API's
// kinds (api), and minijson, the JSON codec the bridge speaks, which holds
// no rule of the cluster. Everything else the page shows comes through the
// world's read model, so that no shell re-derives a component's rule: a
// component the bridge imported directly (the controller, the informers,
// the work queue, the label selectors) is a rule it could copy.
var shellMayImport = []string{"api", "lesson", "minijson", "script", "sim", "world"}

// TestTheBridgeImportsOnlyTheReadModel holds the bridge's own files (not
// its tests, which may use any package as an oracle), whatever their build
// tags, to shellMayImport.
func TestTheBridgeImportsOnlyTheReadModel(t *testing.T) {
	const core = "github.com/reconcilelab/rlab/core/"
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
		require.NoError(t, err)
		checked++
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			require.NoError(t, err)
			pkg, under := strings.CutPrefix(path, core)
			if under && !slices.Contains(shellMayImport, pkg) {
				t.Errorf("%s imports %s: the bridge may import from core/ only %s; take what the page needs from the world's read model (core/world)",
					name, path, strings.Join(shellMayImport, ", "))
			}
		}
	}
	require.Greater(t, checked, 3, "no bridge source file was checked")
}

// mainWasmDeps lists every package main.wasm is built from.
func mainWasmDeps(t *testing.T) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return strings.Fields(string(out))
}

// TestMainWasmCarriesNoLessons: the lessons package, with its embedded
// bundle, is in no package main.wasm is built from. The page's worker
// fetches lessons.json instead (SetLessons), so that writing a lesson, or
// translating one, never grows the engine's download.
func TestMainWasmCarriesNoLessons(t *testing.T) {
	deps := mainWasmDeps(t)
	require.Contains(t, deps, "github.com/reconcilelab/rlab/core/lesson", "the bridge reads the bundle with core/lesson")
	require.NotContains(t, deps, "github.com/reconcilelab/rlab/lessons",
		"main.wasm would carry every lesson's text: take them from lessons.json through setLessons")
}

// TestMainWasmCarriesNoExporter: core/export, which writes a history as
// kubectl, is in no package main.wasm is built from: with it main.wasm was
// 1,419,921 bytes of brotli, over its budget. The page writes the history
// from the view and runs export.wasm (exportwasm/) on it when the learner
// asks.
func TestMainWasmCarriesNoExporter(t *testing.T) {
	deps := mainWasmDeps(t)
	require.Contains(t, deps, "github.com/reconcilelab/rlab/core/script", "the list is main.wasm's packages")
	require.NotContains(t, deps, "github.com/reconcilelab/rlab/core/export",
		"main.wasm would carry the exporter: the page hands the view's history to export.wasm, which writes it")
}
