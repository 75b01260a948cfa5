//go:build !js

package export

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runFunc runs one of the script's shell functions in bash, with a kubectl
// on PATH that prints out whatever it is asked, and seq and sleep made
// instant so a wait that never holds gives up at once.
func runFunc(t *testing.T, funcs, call, out string) (string, error) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	require.NoError(t, err, "the export is a bash script: its tests need bash")
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "kubectl"), []byte("#!/bin/sh\nprintf '%s' \"$FAKE_OUT\"\n"), 0o755))
	cmd := exec.Command(bash, "-c", "set -euo pipefail\nNAMESPACE=test\n"+funcs+"seq() { echo 1; }\nsleep() { :; }\n"+call)
	cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"), "FAKE_OUT="+out)
	b, err := cmd.Output()
	return strings.TrimSpace(string(b)), err
}

func TestWaitPodsCountsPodsReadyOnesAndNoneBeingDeleted(t *testing.T) {
	for _, tc := range []struct {
		pods, call string
		holds      bool
	}{
		{"web-a||True\nweb-b||True\n", "wait_pods 2 2", true},
		{"web-a||True\nweb-b||False\n", "wait_pods 2 2", false},
		{"web-a||True\nweb-b||False\n", "wait_pods 2 1", true},
		{"web-a||True\nweb-b|2026-01-01T00:00:00Z|True\n", "wait_pods 2 2", false},
		{"web-a||True\n", "wait_pods 2 1", false},
		{"", "wait_pods 0 0", true},
	} {
		_, err := runFunc(t, waitPodsFunc, tc.call, tc.pods)
		assert.Equal(t, tc.holds, err == nil, "%s with pods %q: %v", tc.call, tc.pods, err)
	}
}

func TestPickChoosesAsTheSimulatorsPickDoes(t *testing.T) {
	const listed = "pod/a\npod/b\npod/c\n" // as kubectl --sort-by=.metadata.creationTimestamp lists them
	for _, tc := range []struct{ call, want string }{
		{"pick pods app=web oldest 1", "pod/a"},
		{"pick pods app=web newest 2", "pod/b\npod/c"},
		{"pick pods app=web 1 1", "pod/b"},
		{"pick pods app=web 1 2", "pod/b\npod/c"},
	} {
		got, err := runFunc(t, pickFunc, tc.call, listed)
		require.NoError(t, err, tc.call)
		assert.Equal(t, tc.want, got, tc.call)
	}
	for _, call := range []string{"pick pods app=web oldest 4", "pick pods app=web 3 1"} {
		_, err := runFunc(t, pickFunc, call, listed)
		assert.Error(t, err, "%s: fewer match than the pick needs", call)
	}
}
