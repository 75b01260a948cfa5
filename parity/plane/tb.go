package plane

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// processTB is the ktesting.TB that StartTestServer asks for, for a process
// that is not a test. The test server uses it for three things: a temporary
// directory, clean-ups to run at tear-down, and reporting. Here the clean-ups
// run when the plane stops, logs go to a writer (discarded unless the caller
// wants them), and a fatal report panics with a fatalReport, which Start
// recovers and returns as an error: testing.T's FailNow ends a test's
// goroutine with runtime.Goexit, which would end the caller's goroutine
// without a word here.
type processTB struct {
	name string
	log  io.Writer

	mu       sync.Mutex
	cleanups []func()
	tempDirs []string
	failed   bool
	errs     []string
}

// fatalReport is what processTB panics with on Fatal and FailNow.
type fatalReport struct{ msg string }

func newProcessTB(name string, log io.Writer) *processTB {
	if log == nil {
		log = io.Discard
	}
	return &processTB{name: name, log: log}
}

func (t *processTB) Cleanup(f func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cleanups = append(t.cleanups, f)
}

// runCleanups runs the registered clean-ups, the last registered first, as
// testing does, then removes the temporary directories.
func (t *processTB) runCleanups() {
	t.mu.Lock()
	fs := t.cleanups
	t.cleanups = nil
	dirs := t.tempDirs
	t.tempDirs = nil
	t.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
	for _, d := range dirs {
		_ = os.RemoveAll(d)
	}
}

func (t *processTB) Error(args ...any) { t.record(fmt.Sprint(args...)) }
func (t *processTB) Errorf(format string, args ...any) {
	t.record(fmt.Sprintf(format, args...))
}
func (t *processTB) record(msg string) {
	t.mu.Lock()
	t.failed = true
	t.errs = append(t.errs, msg)
	t.mu.Unlock()
	_, _ = fmt.Fprintln(t.log, "error:", msg)
}

func (t *processTB) Fail() {
	t.mu.Lock()
	t.failed = true
	t.mu.Unlock()
}
func (t *processTB) FailNow()          { t.Fail(); panic(fatalReport{"FailNow"}) }
func (t *processTB) Failed() bool      { t.mu.Lock(); defer t.mu.Unlock(); return t.failed }
func (t *processTB) Fatal(args ...any) { t.Fail(); panic(fatalReport{fmt.Sprint(args...)}) }
func (t *processTB) Fatalf(format string, args ...any) {
	t.Fail()
	panic(fatalReport{fmt.Sprintf(format, args...)})
}
func (t *processTB) Helper() {}
func (t *processTB) Log(args ...any) {
	_, _ = fmt.Fprintln(t.log, args...)
}
func (t *processTB) Logf(format string, args ...any) {
	_, _ = fmt.Fprintf(t.log, strings.TrimSuffix(format, "\n")+"\n", args...)
}
func (t *processTB) Name() string { return t.name }

// Setenv sets the variable for the rest of the process and restores it at
// clean-up, as testing.T does (the test server does not call it).
func (t *processTB) Setenv(key, value string) {
	old, had := os.LookupEnv(key)
	_ = os.Setenv(key, value)
	t.Cleanup(func() {
		if had {
			_ = os.Setenv(key, old)
		} else {
			_ = os.Unsetenv(key)
		}
	})
}

// Skip and its kin have no meaning outside a test: they are reported as
// failures, so nothing is silently left out.
func (t *processTB) Skip(args ...any)                 { t.Fatal(append([]any{"skip: "}, args...)...) }
func (t *processTB) SkipNow()                         { t.Fatal("skip") }
func (t *processTB) Skipf(format string, args ...any) { t.Fatalf("skip: "+format, args...) }
func (t *processTB) Skipped() bool                    { return false }

// TempDir makes a new directory, removed at clean-up.
func (t *processTB) TempDir() string {
	d, err := os.MkdirTemp("", "rlab-parity-")
	if err != nil {
		t.Fatalf("TempDir: %v", err)
	}
	t.mu.Lock()
	t.tempDirs = append(t.tempDirs, d)
	t.mu.Unlock()
	return d
}
