package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README is what a new user pastes from, so its commands must work on a
// fresh clone: these tests run every rlab command it shows, and every
// scenario script in examples/, and check that every make target it names
// exists.

// readmeCommands returns the commands of the README's ```sh blocks, one per
// line, without their trailing comments.
func readmeCommands(t *testing.T, readme string) []string {
	t.Helper()
	var commands []string
	inSh := false
	sc := bufio.NewScanner(strings.NewReader(readme))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```"):
			inSh = line == "```sh"
		case inSh:
			cmd, _, _ := strings.Cut(line, " #")
			if cmd = strings.TrimSpace(cmd); cmd != "" {
				commands = append(commands, cmd)
			}
		}
	}
	require.NoError(t, sc.Err())
	return commands
}

// moduleRootDir is the repository's root, where the README's commands run.
const moduleRootDir = "../.."

func TestREADMECommandsWork(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(moduleRootDir, "README.md"))
	require.NoError(t, err)
	commands := readmeCommands(t, string(readme))
	require.NotEmpty(t, commands, "the README shows commands in ```sh blocks")
	t.Chdir(moduleRootDir)

	ran := 0
	for _, command := range commands {
		args, ok := strings.CutPrefix(command, "go run ./cmd/rlab ")
		if !ok {
			assert.True(t, strings.HasPrefix(command, "make "), "%q: a README command is rlab or make, which this test knows", command)
			continue
		}
		ran++
		t.Run(args, func(t *testing.T) {
			fields := strings.Fields(args)
			if fields[0] == "serve" {
				runServe(t, fields)
				return
			}
			var stdout, stderr bytes.Buffer
			status := run(t.Context(), fields, &stdout, &stderr)
			assert.Zero(t, status, "%s\nstdout:\n%s\nstderr:\n%s", command, &stdout, &stderr)
			assert.NotEmpty(t, stdout.String(), "%s prints what it did", command)
		})
	}
	assert.NotZero(t, ran, "the README shows rlab commands")
}

// runServe runs a README serve command until it says where it serves, then
// stops it. The port becomes 0, any free one, so that a port already taken
// on the test's machine cannot fail the test; the command's flags, and the
// host, are the README's.
func runServe(t *testing.T, fields []string) {
	t.Helper()
	for i, f := range fields {
		if addr, ok := strings.CutPrefix(f, "--addr="); ok {
			host, _, found := strings.Cut(addr, ":")
			require.True(t, found, "%q is host:port", addr)
			fields[i] = "--addr=" + host + ":0"
		}
	}
	// The site needs no main.wasm to be served (rlab serve warns); a fresh
	// clone has none until make wasm.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	stdout := &signalWriter{want: "serving ", seen: make(chan struct{})}
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, fields, stdout, &stderr) }()
	select {
	case <-stdout.seen:
	case status := <-done:
		t.Fatalf("rlab %s exited with status %d before serving\n%s", strings.Join(fields, " "), status, &stderr)
	}
	cancel()
	assert.Zero(t, <-done, "rlab %s stops cleanly\n%s", strings.Join(fields, " "), &stderr)
}

// signalWriter closes seen once the text written to it contains want.
type signalWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

// makeTarget finds `make TARGET` in the README, in code blocks and in prose.
var makeTarget = regexp.MustCompile("(?m)(?:^|`)make ([a-z]+)")

func TestREADMEMakeTargetsExist(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(moduleRootDir, "README.md"))
	require.NoError(t, err)
	makefile, err := os.ReadFile(filepath.Join(moduleRootDir, "Makefile"))
	require.NoError(t, err)

	found := makeTarget.FindAllStringSubmatch(string(readme), -1)
	require.NotEmpty(t, found)
	for _, m := range found {
		target := m[1]
		assert.Regexp(t, "(?m)^"+regexp.QuoteMeta(target)+":", string(makefile), "the README names make %s, which the Makefile lacks", target)
	}
}

// TestExamplesRun keeps every scenario script in examples/ working: each
// runs to the end, every expect holding.
func TestExamplesRun(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join(moduleRootDir, "examples", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, scripts)
	for _, script := range scripts {
		t.Run(filepath.Base(script), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(t.Context(), []string{"run", script}, &stdout, &stderr)
			assert.Zero(t, status, "rlab run %s\nstdout:\n%s\nstderr:\n%s", script, &stdout, &stderr)
		})
	}
}
