package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/reconcilelab/rlab/core/script"
)

// A command is one subcommand of rlab. Adding one is adding an entry to
// commands; main, help and the exit status conventions come for free.
type command struct {
	name     string // what the user types: "serve"
	synopsis string // the arguments after the name, for usage lines
	summary  string // one line for "rlab help"
	details  string // paragraphs for "rlab help <name>", before the flags

	// flags defines the command's flags on fs and returns the function that
	// runs the command once fs has parsed them. Splitting the two lets
	// "rlab help <name>" print the flags without running anything.
	flags func(fs *flag.FlagSet) runFunc
}

// A runFunc runs a command with the arguments left after its flags. It returns
// a usageError if those arguments are wrong.
type runFunc func(ctx context.Context, stdout, stderr io.Writer, args []string) error

// commands lists rlab's subcommands in the order "rlab help" shows them.
var commands = []*command{
	runCommand,
	traceCommand,
	lessonsCommand,
	exportCommand,
	serveCommand,
	wasmCommand,
	bundleCommand,
	compressCommand,
}

// A usageError says that a command was called wrongly. It makes rlab print the
// command's usage and exit with status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Sprintf(format, args...)}
}

// An exitStatus says that a command failed and has already said why on
// stderr, in its own format (run prints a script's errors as the Go
// toolchain does, file:line:col first, with no "rlab run:" before them). rlab
// exits with it and prints nothing more.
type exitStatus int

func (e exitStatus) Error() string { return "exit status " + strconv.Itoa(int(e)) }

func main() {
	// The first interrupt cancels ctx, and the running command shuts down
	// cleanly; stop restores the default behaviour, so a second interrupt
	// kills a command that is slow to stop.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run is rlab with its environment passed in, so tests can call it. It returns
// the exit status: 0 for success, 1 if the command failed, 2 for a usage error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr)
		return 2
	}
	name, args := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		return help(args, stdout, stderr)
	}
	cmd := lookup(name)
	if cmd == nil {
		fmt.Fprintf(stderr, "rlab: unknown command %q\nRun 'rlab help' for usage.\n", name)
		return 2
	}

	fs := cmd.flagSet(stderr)
	runCmd := cmd.flags(fs)
	if err := fs.Parse(args); err != nil {
		// The flag package has already printed the problem and the usage.
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	err := runCmd(ctx, stdout, stderr, fs.Args())
	if err == nil {
		return 0
	}
	var status exitStatus
	if errors.As(err, &status) {
		return int(status)
	}
	fmt.Fprintf(stderr, "rlab %s: %v\n", cmd.name, err)
	if errors.As(err, new(usageError)) {
		fs.Usage()
		return 2
	}
	return 1
}

// help prints the overview, one command's usage, or the scenario language's
// help to stdout: the user asked for it, so it is output, not an error.
func help(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "scenario" {
		// The scenario language's own help, from its command table, so that
		// the terminal and the page's help panel can never disagree.
		text, err := script.HelpText(strings.Join(args[1:], " "))
		if err != nil {
			fmt.Fprintf(stderr, "rlab help scenario: %v\n", err)
			return 2
		}
		fmt.Fprint(stdout, text)
		return 0
	}
	switch len(args) {
	case 0:
		printUsage(stdout)
		return 0
	case 1:
		cmd := lookup(args[0])
		if cmd == nil {
			fmt.Fprintf(stderr, "rlab help: unknown command %q\nRun 'rlab help' for usage.\n", args[0])
			return 2
		}
		fs := cmd.flagSet(stdout)
		cmd.flags(fs)
		fs.Usage()
		return 0
	default:
		fmt.Fprintln(stderr, "usage: rlab help [command | scenario [topic]]")
		return 2
	}
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, "Rlab runs Reconcile Lab outside a browser.\n\n"+
		"Usage:\n\n\trlab <command> [arguments]\n\nThe commands are:\n\n")
	width := 0
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-*s   %s\n", width, c.name, c.summary)
	}
	fmt.Fprint(w, "\nUse \"rlab help <command>\" for more information about a command.\n"+
		"Use \"rlab help scenario [topic]\" for the scenario language (\"rlab help scenario scale\").\n")
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// flagSet returns an empty flag set for c that reports to out and whose usage
// is c's synopsis, details and flags.
func (c *command) flagSet(out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("rlab "+c.name, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: rlab %s %s\n\n%s\n", c.name, c.synopsis, c.details)
		fmt.Fprint(w, "\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs
}
