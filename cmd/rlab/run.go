package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/reconcilelab/rlab/core/script"
)

var runCommand = &command{
	name:     "run",
	synopsis: "[--seed=N] [--trace] FILE...",
	summary:  "run scenario scripts headless",
	details: "Run parses every FILE, then runs each in a fresh world, one after another, printing what\n" +
		"the commands print. A parse error in any file runs nothing (exit status 2); a command that\n" +
		"fails or an expect that does not hold stops its file (exit status 1) and the next file runs.\n" +
		"\"rlab help scenario\" lists the commands a script may use.",
	flags: func(fs *flag.FlagSet) runFunc {
		seed := seedFlag(fs)
		trace := fs.Bool("trace", false, "print one trace line per kernel event as it runs")
		return func(ctx context.Context, stdout, stderr io.Writer, args []string) error {
			return runScripts(ctx, stdout, stderr, args, script.Options{Out: stdout, Trace: *trace, Seed: *seed})
		}
	},
}

var traceCommand = &command{
	name:     "trace",
	synopsis: "[--seed=N] FILE...",
	summary:  "print the event trace of scenario scripts",
	details: "Trace runs each FILE as rlab run does but prints only its world's event trace, one line per\n" +
		"kernel event and the world's start included, in the format of rlab run --trace; what the\n" +
		"commands print is discarded. A script that fails prints the trace up to its failure, then\n" +
		"the failure (exit status 1).",
	flags: func(fs *flag.FlagSet) runFunc {
		seed := seedFlag(fs)
		return func(ctx context.Context, stdout, stderr io.Writer, args []string) error {
			return runScripts(ctx, stdout, stderr, args, script.Options{Seed: *seed, Out: &traceOnly{out: stdout}})
		}
	},
}

func seedFlag(fs *flag.FlagSet) *uint64 {
	return fs.Uint64("seed", 0, "seed every world with `N`, overriding the scripts' seed commands (0 keeps them)")
}

// runScripts parses every file in files, then runs each in a new session
// configured by opts. When opts.Out is a *traceOnly, each session prints
// only its trace.
//
// Every file is parsed before any runs, so that a typo in the last file is
// reported at once rather than after minutes of the others. After a runtime
// failure the next file still runs: each file has a world of its own, so one
// failure says nothing about the others, and CI sees every failure in one run.
func runScripts(ctx context.Context, stdout, stderr io.Writer, files []string, opts script.Options) error {
	if len(files) == 0 {
		return usageErrorf("no script files given")
	}
	// Headless runs never seek, so the world keeps no snapshots but its start.
	opts.SnapshotEvery = -1

	scripts := make([]*script.Script, 0, len(files))
	parseFailed := false
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		s, err := script.Parse(string(src), file)
		if err != nil {
			fmt.Fprintln(stderr, err)
			parseFailed = true
			continue
		}
		scripts = append(scripts, s)
	}
	if parseFailed {
		return exitStatus(script.ExitUsage)
	}

	status := script.ExitOK
	for _, s := range scripts {
		if err := ctx.Err(); err != nil {
			return err
		}
		session := script.NewSession(opts)
		err := session.RunScript(s)
		if t, ok := opts.Out.(*traceOnly); ok {
			t.printTrace(session)
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			status = script.ExitFailure
		}
	}
	if status != script.ExitOK {
		return exitStatus(status)
	}
	return nil
}

// traceOnly is the output of a session run by rlab trace: it discards what
// the commands print until printTrace turns it on to print the session's
// trace. Going through the session's own trace view, rather than printing
// trace lines as they run, is what includes the steps of the world's start.
type traceOnly struct {
	out io.Writer
	on  bool
}

func (t *traceOnly) Write(p []byte) (int, error) {
	if !t.on {
		return len(p), nil
	}
	return t.out.Write(p)
}

// traceView is the scenario command that prints a session's whole trace.
var traceView = func() script.Command {
	cmd, err := script.ParseLine("trace")
	if err != nil {
		panic(err)
	}
	return cmd
}()

// printTrace prints every step session ran, if it built a world, and turns
// the output off again for the next session.
func (t *traceOnly) printTrace(session *script.Session) {
	if session.World() == nil {
		return // the script failed before anything needed a world
	}
	t.on = true
	defer func() { t.on = false }()
	_ = session.Run(traceView) // the view only reads, so it cannot fail
}
