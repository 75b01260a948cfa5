//go:build unix

package main

import (
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/internal/gotool"
)

// TestServeStopsCleanlyOnInterrupt runs the real binary, as make run does, and
// checks the path no in-process test can: main's signal handling. Ctrl-C must
// stop the server with status 0, not kill it mid-response.
func TestServeStopsCleanlyOnInterrupt(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "rlab")
	gotool.Run(t, nil, "build", "-o", bin, ".")
	site := filepath.Join(dir, "site")
	require.NoError(t, os.Mkdir(site, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(site, "main.wasm"), fakeWasm, 0o644))

	cmd := exec.Command(bin, "serve", "--addr=127.0.0.1:0", "--dir="+site)
	stdout, stdoutW := io.Pipe()
	var stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = stdoutW, &stderr
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		stdoutW.Close()
		exited <- err
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill() }) // in case the test fails first

	url := readServingLine(t, stdout, displayDir(site))
	res, err := http.Get(url + "/main.wasm")
	require.NoError(t, err)
	assert.Equal(t, "application/wasm", res.Header.Get("Content-Type"))
	readBody(t, res)

	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	select {
	case err := <-exited:
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			t.Fatalf("rlab serve exited with status %d on interrupt; stderr:\n%s", exitErr.ExitCode(), stderr.String())
		}
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("rlab serve did not stop within 10s of an interrupt")
	}
}
