package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is what the command line asks for.
type config struct {
	// old and new are the revisions compared; new "" is the working tree.
	old, new string
	// pkg is the package whose test binary runs the benchmarks.
	pkg string
	// bench and benchtime are go test's -bench and -benchtime.
	bench, benchtime string
	// runs is how many times each binary runs; procs is their GOMAXPROCS.
	runs, procs int
	// verbose prints each run's benchmark lines under its time.
	verbose bool
}

// parseFlags reads the command line. A mistake is an error naming the flag
// and what it accepts; -h prints the usage and returns flag.ErrHelp.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("benchcmp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.old, "old", "", "the revision to compare against (a commit, a branch, HEAD~1); required")
	fs.StringVar(&c.new, "new", "", "the revision to compare (default: the working tree)")
	fs.StringVar(&c.pkg, "pkg", "./core/world", "the package whose benchmarks run")
	fs.StringVar(&c.bench, "bench", "", "go test's -bench: the benchmarks to run; required")
	fs.StringVar(&c.benchtime, "benchtime", "4x", "go test's -benchtime for each run")
	fs.IntVar(&c.runs, "runs", 10, "how many times each side runs (at least 2)")
	fs.IntVar(&c.procs, "procs", 1, "GOMAXPROCS of the runs (at least 1)")
	fs.BoolVar(&c.verbose, "v", false, "print each run's benchmark lines")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./cmd/benchcmp -old REV -bench REGEXP [flags]")
		fmt.Fprintln(stderr, "Compares the CPU time two revisions spend in the same benchmarks, run in turn (see its doc.go).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("unexpected argument %q: every setting is a flag, such as -old HEAD -bench Converge", fs.Arg(0))
	case c.old == "":
		return c, errors.New("-old is required: the revision to compare against, such as HEAD or a commit")
	case c.bench == "":
		return c, errors.New("-bench is required: a regular expression naming the benchmarks, as go test -bench takes")
	case c.runs < 2:
		return c, fmt.Errorf("-runs is %d: each side must run at least twice for a median to mean anything", c.runs)
	case c.procs < 1:
		return c, fmt.Errorf("-procs is %d: GOMAXPROCS must be at least 1", c.procs)
	}
	return c, nil
}

// run is main, returning the exit status: 0 done, 1 failed, 2 a bad command
// line.
func run(args []string, stdout, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "benchcmp:", err)
		return 2
	}
	if err := compareRevisions(c, stdout); err != nil {
		fmt.Fprintln(stderr, "benchcmp:", err)
		return 1
	}
	return 0
}

// compareRevisions builds both sides' test binaries in a temporary
// directory, then runs and reports them.
func compareRevisions(c config, out io.Writer) error {
	root, err := command("", "git", "rev-parse", "--show-toplevel")
	if err != nil {
		return fmt.Errorf("finding the repository (benchcmp runs inside one): %w", err)
	}
	root = strings.TrimSpace(root)
	dir, err := os.MkdirTemp("", "benchcmp")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var bins [2]string
	for side, rev := range [2]string{c.old, c.new} {
		bins[side] = filepath.Join(dir, sideNames[side]+".test")
		if err := buildTests(root, rev, c.pkg, bins[side], filepath.Join(dir, sideNames[side])); err != nil {
			return err
		}
	}
	measure := func(side int) (time.Duration, string, error) {
		return runBinary(bins[side], c)
	}
	samples, err := interleave(c.runs, measure, c.verbose, out)
	if err != nil {
		return err
	}
	summarize(samples, out)
	return nil
}

// sideNames names the two sides in the output, old first.
var sideNames = [2]string{"old", "new"}

// buildTests writes the test binary of pkg at revision rev ("" for the
// working tree in root) to bin. A revision is checked out with git worktree
// in worktree, which is removed again.
func buildTests(root, rev, pkg, bin, worktree string) error {
	dir := root
	if rev != "" {
		if _, err := command(root, "git", "worktree", "add", "--quiet", "--detach", worktree, rev); err != nil {
			return fmt.Errorf("checking out -old or -new %q: %w", rev, err)
		}
		// A worktree left behind by a failed removal is harmless; git
		// worktree prune clears it.
		defer func() { _, _ = command(root, "git", "worktree", "remove", "--force", worktree) }()
		dir = worktree
	}
	if _, err := command(dir, "go", "test", "-c", "-o", bin, pkg); err != nil {
		what := "the working tree"
		if rev != "" {
			what = rev
		}
		return fmt.Errorf("building the tests of %s at %s: %w", pkg, what, err)
	}
	return nil
}

// runBinary runs a test binary's benchmarks once and returns the CPU time it
// took, user and system, and its benchmark lines.
func runBinary(bin string, c config) (time.Duration, string, error) {
	cmd := exec.Command(bin, "-test.run", "^$", "-test.bench", c.bench, "-test.benchtime", c.benchtime)
	cmd.Env = append(os.Environ(), fmt.Sprintf("GOMAXPROCS=%d", c.procs))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, "", fmt.Errorf("%s: %w\n%s%s", filepath.Base(bin), err, &stdout, &stderr)
	}
	var lines []string
	for line := range strings.Lines(stdout.String()) {
		if strings.HasPrefix(line, "Benchmark") {
			lines = append(lines, strings.TrimSpace(line))
		}
	}
	if len(lines) == 0 {
		return 0, "", fmt.Errorf("%s ran no benchmark matching -bench %q", filepath.Base(bin), c.bench)
	}
	st := cmd.ProcessState
	return st.UserTime() + st.SystemTime(), strings.Join(lines, "\n"), nil
}

// interleave runs each side runs times, old first in the odd rounds and new
// first in the even ones, printing each run as it ends, and returns each
// side's CPU times in the order they ran.
func interleave(runs int, measure func(side int) (time.Duration, string, error), verbose bool, out io.Writer) ([2][]time.Duration, error) {
	var samples [2][]time.Duration
	for round := range runs {
		for _, side := range order(round) {
			cpu, lines, err := measure(side)
			if err != nil {
				return samples, err
			}
			samples[side] = append(samples[side], cpu)
			fmt.Fprintf(out, "run %2d  %s  %s\n", round+1, sideNames[side], millis(cpu))
			if verbose {
				for line := range strings.Lines(lines) {
					fmt.Fprintf(out, "        %s\n", strings.TrimSpace(line))
				}
			}
		}
	}
	return samples, nil
}

// order is which side runs first in a round: old in the first round, new in
// the second, and so on.
func order(round int) [2]int {
	if round%2 == 0 {
		return [2]int{0, 1}
	}
	return [2]int{1, 0}
}

// summarize prints each side's median and fastest run, and the new side's
// change against the old.
func summarize(samples [2][]time.Duration, out io.Writer) {
	var medians, fastest [2]time.Duration
	for side := range samples {
		medians[side], fastest[side] = median(samples[side]), slices.Min(samples[side])
		fmt.Fprintf(out, "%s  median %s  fastest %s\n", sideNames[side], millis(medians[side]), millis(fastest[side]))
	}
	fmt.Fprintf(out, "new against old: %s (median), %s (fastest)\n",
		change(medians[0], medians[1]), change(fastest[0], fastest[1]))
}

// median returns the middle of ds, or the mean of the two middle ones.
func median(ds []time.Duration) time.Duration {
	s := slices.Sorted(slices.Values(ds))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// change is new against old as a signed percentage: "-2.8%".
func change(old, new time.Duration) string {
	if old == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%+.1f%%", 100*float64(new-old)/float64(old))
}

// millis writes d in whole milliseconds with thousands separated: "1,391 ms".
func millis(d time.Duration) string {
	ms := d.Milliseconds()
	s := fmt.Sprint(ms)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s + " ms"
}

// command runs a program in dir ("" for this process's) and returns its
// standard output; a failure's error carries its standard error.
func command(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}
