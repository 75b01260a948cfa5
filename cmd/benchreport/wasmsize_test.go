package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeSized writes a file of n bytes with the given modification time.
func writeSized(t *testing.T, path string, n int, mtime time.Time) {
	t.Helper()
	require.NoError(t, os.WriteFile(path, bytes.Repeat([]byte{'x'}, n), 0o644))
	require.NoError(t, os.Chtimes(path, mtime, mtime))
}

func TestWasmSizeLinePrintsTheServedSizesAgainstTheBudget(t *testing.T) {
	dir := t.TempDir()
	wasm := filepath.Join(dir, "main.wasm")
	now := time.Now()
	writeSized(t, wasm, 7000, now)
	writeSized(t, wasm+".gz", 2000, now)
	writeSized(t, wasm+".br", 1500, now)

	var out bytes.Buffer
	require.NoError(t, wasmSizeLine(&out, wasm))

	assert.Equal(t, wasm+": 7000 bytes raw (≤ 8500000), 2000 gzip, 1500 brotli as served (≤ 1400000): within budget\n", out.String(),
		"the limits are budget.go's, not copies")
}

func TestWasmSizeLineSaysWhenOverBudget(t *testing.T) {
	dir := t.TempDir()
	wasm := filepath.Join(dir, "main.wasm")
	now := time.Now()
	writeSized(t, wasm, 1000, now)
	writeSized(t, wasm+".gz", 900, now)
	writeSized(t, wasm+".br", 1_400_001, now)

	var out bytes.Buffer
	require.NoError(t, wasmSizeLine(&out, wasm))

	assert.True(t, strings.HasSuffix(out.String(), "1400001 brotli as served (≤ 1400000): OVER BUDGET (make bench fails)\n"), out.String())
}

func TestWasmSizeLineDoesNotMeasureMissingOrStaleCopies(t *testing.T) {
	dir := t.TempDir()
	wasm := filepath.Join(dir, "main.wasm")
	now := time.Now()
	writeSized(t, wasm, 1000, now)
	writeSized(t, wasm+".br", 500, now.Add(-time.Hour)) // from the build before

	var out bytes.Buffer
	require.NoError(t, wasmSizeLine(&out, wasm))

	assert.Equal(t, wasm+": 1000 bytes raw (≤ 8500000), no gzip copy (rlab compress writes it), "+
		"a stale brotli as served copy (rlab compress rewrites it): within budget\n", out.String())
	assert.Error(t, wasmSizeLine(&out, filepath.Join(dir, "missing.wasm")))
}
