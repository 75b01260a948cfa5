package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/internal/gotool"
)

func TestCompressCommandWritesEachFileOnce(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"main.wasm":  string(fakeWasm) + strings.Repeat("reconcile ", 500),
		"app.js":     strings.Repeat("step();\n", 100),
		"index.html": "<!doctype html>",
		"notes.txt":  "not part of the page's code",
	}
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	var stdout, stderr bytes.Buffer

	status := run(t.Context(), []string{"compress", "--dir=" + dir}, &stdout, &stderr)

	require.Equal(t, 0, status, "stderr:\n%s", &stderr)
	assert.Empty(t, stderr.String())
	var want strings.Builder
	for _, name := range []string{"app.js", "index.html", "main.wasm"} {
		fmt.Fprintf(&want, "%s%s: %d bytes, %d gzip, %d brotli\n", displayDir(dir), name,
			len(files[name]), fileSize(t, dir, name+".gz"), fileSize(t, dir, name+".br"))
	}
	assert.Equal(t, want.String(), stdout.String())
	assert.NoFileExists(t, filepath.Join(dir, "notes.txt.gz"))

	t.Run("a second run writes nothing", func(t *testing.T) {
		stdout.Reset()
		before := statFile(t, filepath.Join(dir, "main.wasm.br"))

		status := run(t.Context(), []string{"compress", "--dir=" + dir}, &stdout, &stderr)

		require.Equal(t, 0, status, "stderr:\n%s", &stderr)
		assert.Empty(t, stdout.String())
		// A rewrite would rename a new file over it, with another inode.
		assert.True(t, os.SameFile(before, statFile(t, filepath.Join(dir, "main.wasm.br"))), "main.wasm.br was rewritten")
	})
}

func TestCompressCommandRejectsBadInput(t *testing.T) {
	file := filepath.Join(t.TempDir(), "main.wasm")
	require.NoError(t, os.WriteFile(file, fakeWasm, 0o644))
	missing := filepath.Join(t.TempDir(), "no-such-site")

	tests := []struct {
		name       string
		args       []string
		wantStatus int
		wantStderr string
	}{
		{
			name:       "missing directory",
			args:       []string{"compress", "--dir=" + missing},
			wantStatus: 1,
			wantStderr: "rlab compress: cannot compress the page: stat " + missing + ": no such file or directory\n",
		},
		{
			name:       "a file, not a directory",
			args:       []string{"compress", "--dir=" + file},
			wantStatus: 1,
			wantStderr: "rlab compress: cannot compress the page: " + file + " is not a directory\n",
		},
		{
			name:       "empty directory name",
			args:       []string{"compress", "--dir="},
			wantStatus: 2,
			wantStderr: "rlab compress: --dir is empty; it names the directory to compress\nusage: rlab compress",
		},
		{
			name:       "unexpected argument",
			args:       []string{"compress", "site"},
			wantStatus: 2,
			wantStderr: "rlab compress: unexpected argument \"site\"\nusage: rlab compress",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer

			status := run(t.Context(), tt.args, &stdout, &stderr)

			assert.Equal(t, tt.wantStatus, status)
			assert.Empty(t, stdout.String())
			assert.True(t, strings.HasPrefix(stderr.String(), tt.wantStderr), "stderr:\n%s\nwant it to start with:\n%s", &stderr, tt.wantStderr)
		})
	}
}

// TestWasmDoesNotLinkBrotli keeps the brotli encoder, which only rlab
// compress needs, out of main.wasm, whose every byte the page downloads.
func TestWasmDoesNotLinkBrotli(t *testing.T) {
	deps := gotool.Run(t, append(os.Environ(), "GOOS=js", "GOARCH=wasm"), "list", "-deps", "../../wasm")

	assert.NotContains(t, deps, "github.com/andybalholm/brotli")
	assert.NotContains(t, deps, "github.com/reconcilelab/rlab/internal/siteserver")
}

func fileSize(t *testing.T, dir, name string) int64 {
	t.Helper()
	return statFile(t, filepath.Join(dir, name)).Size()
}

func statFile(t *testing.T, name string) os.FileInfo {
	t.Helper()
	info, err := os.Stat(name)
	require.NoError(t, err)
	return info
}
