package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRunExitStatusAndOutput(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantStatus int
		wantStdout string // substring; "" means stdout must be empty
		wantStderr string // substring; "" means stderr must be empty
	}{
		{
			name:       "no command is a usage error",
			args:       nil,
			wantStatus: 2,
			wantStderr: "rlab <command> [arguments]",
		},
		{
			name:       "help lists the commands on stdout",
			args:       []string{"help"},
			wantStatus: 0,
			wantStdout: "\trun        run scenario scripts headless\n\ttrace      print the event trace of scenario scripts\n\tlessons    list the lessons, or prove that they work\n\texport     write a lesson's or a script's world as manifests, and what was done in it as kubectl\n\tserve      serve the web page on this machine\n\twasm       build the engine for the web page (main.wasm, export.wasm)\n\tbundle     join the web page's scripts into rlab-start.js and rlab.js\n\tcompress   precompress the web page for serving\n",
		},
		{
			name:       "-h is help",
			args:       []string{"-h"},
			wantStatus: 0,
			wantStdout: "The commands are:",
		},
		{
			name:       "help for a command shows its flags",
			args:       []string{"help", "serve"},
			wantStatus: 0,
			wantStdout: `(default "127.0.0.1:8080")`,
		},
		{
			name:       "help for an unknown command",
			args:       []string{"help", "fly"},
			wantStatus: 2,
			wantStderr: `unknown command "fly"`,
		},
		{
			name:       "unknown command",
			args:       []string{"fly"},
			wantStatus: 2,
			wantStderr: "rlab: unknown command \"fly\"\nRun 'rlab help' for usage.\n",
		},
		{
			name:       "unknown flag",
			args:       []string{"serve", "--port=80"},
			wantStatus: 2,
			wantStderr: "flag provided but not defined: -port",
		},
		{
			name:       "flag without its value",
			args:       []string{"serve", "--addr"},
			wantStatus: 2,
			wantStderr: "flag needs an argument: -addr",
		},
		{
			name:       "unexpected argument",
			args:       []string{"serve", "site"},
			wantStatus: 2,
			wantStderr: "rlab serve: unexpected argument \"site\"\nusage: rlab serve",
		},
		{
			name:       "-h after a command prints its usage and succeeds",
			args:       []string{"serve", "-h"},
			wantStatus: 0,
			wantStderr: "usage: rlab serve [--addr=host:port] [--dir=path]",
		},
		{
			name:       "a failing command exits 1",
			args:       []string{"serve", "--dir=testdata/no-such-dir", "--addr=127.0.0.1:0"},
			wantStatus: 1,
			wantStderr: "rlab serve: cannot serve the page: open testdata/no-such-dir: no such file or directory",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer

			status := run(t.Context(), tt.args, &stdout, &stderr)

			assert.Equal(t, tt.wantStatus, status, "exit status")
			assertOutput(t, "stdout", tt.wantStdout, stdout.String())
			assertOutput(t, "stderr", tt.wantStderr, stderr.String())
		})
	}
}

func assertOutput(t *testing.T, stream, want, got string) {
	t.Helper()
	if want == "" {
		assert.Empty(t, got, "nothing on %s", stream)
		return
	}
	assert.Contains(t, got, want, stream)
}
