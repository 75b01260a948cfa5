package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExportWritesOneSelfContainedScriptToStdout(t *testing.T) {
	status, stdout, stderr := rlab(t, "export", filepath.Join(moduleRootDir, "lessons", "05-orphans.txtar"))

	require.Equal(t, 0, status, stderr)
	assert.Contains(t, stdout, "#!/usr/bin/env bash\n")
	assert.Contains(t, stdout, "set -euo pipefail\n")
	assert.Contains(t, stdout, "apply -f - <<'EOF'\napiVersion: apps/v1\nkind: ReplicaSet\n", "the world is in a here-document")
	assert.Contains(t, stdout, "\ntargets=$(pick pods app=web oldest 1)\n")
}

func TestExportOutWritesWorldYAMLAndAnExecutableReplay(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	status, stdout, stderr := rlab(t, "export", "--out="+dir, filepath.Join(moduleRootDir, "lessons", "05-orphans.txtar"))

	require.Equal(t, 0, status, stderr)
	assert.Equal(t, "wrote "+filepath.Join(dir, "world.yaml")+"\nwrote "+filepath.Join(dir, "replay.sh")+"\n", stdout)
	world, err := os.ReadFile(filepath.Join(dir, "world.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(world), "kind: ReplicaSet\n")
	replay, err := os.ReadFile(filepath.Join(dir, "replay.sh"))
	require.NoError(t, err)
	assert.Contains(t, string(replay), `kubectl -n "$NAMESPACE" apply -f "$(dirname "$0")/world.yaml"`+"\n")
	assert.NotContains(t, string(replay), "<<'EOF'", "replay.sh applies world.yaml, not a copy of it")
	info, err := os.Stat(filepath.Join(dir, "replay.sh"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), info.Mode().Perm())
}

func TestExportOfAScriptThatDoesNotParseNamesTheLine(t *testing.T) {
	files := writeScripts(t, "bad.txt", "create rs web --replicas=2 --selector=app=web\nscael rs/web --replicas=3\n")

	status, stdout, stderr := rlab(t, "export", files[0])

	assert.Equal(t, 2, status)
	assert.Empty(t, stdout)
	assert.Equal(t, files[0]+":2:1: unknown command \"scael\"; did you mean \"scale\"?\n", stderr)
}

func TestExportOfAMissingFileOrACommandItCannotExportFails(t *testing.T) {
	status, _, stderr := rlab(t, "export", filepath.Join(t.TempDir(), "nope.txt"))
	assert.Equal(t, 1, status)
	assert.Contains(t, stderr, "rlab export: open ")

	files := writeScripts(t, "ns.txt", "create rs web --replicas=1 --selector=app=web -n other\n")
	status, stdout, stderr := rlab(t, "export", files[0])
	assert.Equal(t, 1, status)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "it uses namespace \"other\"")

	status, _, stderr = rlab(t, "export")
	assert.Equal(t, 2, status)
	assert.Contains(t, stderr, "export takes one FILE")
}
