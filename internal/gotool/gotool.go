package gotool

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/reconcilelab/rlab/internal/wasmbuild"

	"github.com/stretchr/testify/require"
)

// Run runs the go command with args in env (nil: this process's environment)
// and returns its standard output. A failure fails the test with the
// command's standard error.
func Run(tb testing.TB, env []string, args ...string) string {
	tb.Helper()
	cmd := exec.CommandContext(tb.Context(), "go", args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(tb, cmd.Run(), "go %s\n%s", strings.Join(args, " "), &stderr)
	return stdout.String()
}

// Env returns the value of one go env variable ("GOROOT").
func Env(tb testing.TB, name string) string {
	tb.Helper()
	return strings.TrimSpace(Run(tb, nil, "env", name))
}

// JSWasm is this process's environment set to build for js/wasm, as
// wasmbuild.Env makes it for every build of the page.
func JSWasm() []string {
	return wasmbuild.Env(os.Environ())
}
