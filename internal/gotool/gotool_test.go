package gotool

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEnvReadsTheToolchainRunningTheTests(t *testing.T) {
	goroot := Env(t, "GOROOT")
	require.NotEmpty(t, goroot)
	_, err := os.Stat(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"))
	assert.NoError(t, err, "GOROOT %s has the js/wasm support files", goroot)
}

func TestJSWasmOverridesTheTarget(t *testing.T) {
	t.Setenv("GOOS", "plan9")
	out := Run(t, JSWasm(), "env", "GOOS", "GOARCH")
	assert.Equal(t, "js\nwasm\n", out)
}
