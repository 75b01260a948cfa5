// Command parity runs scenario scripts and lessons on rlab and on a real
// control plane (etcd, kube-apiserver and the real controllers, in this
// process) and prints where they differ.
//
//	cd parity && go run ./cmd/parity [-v] [-j=N] [-check-table] [-scale=1] [-log=FILE] FILE...
//
// A FILE is a lesson (.txtar: setup, solution, then the goal's expects) or
// a scenario script (golden scripts too: their expected output is left
// out). It exits 0 when every script agrees, 1 when one disagrees (or,
// with -check-table, when a row of the table of known divergences that
// does not depend on the real run's timing excused nothing), and 2 on a usage error or a script that does not load (the
// others still run).
//
// With -j N above 1, each script runs in a process of its own, N at a
// time: a plane is mostly waiting on real time (kubelet delays, grace
// periods, advance), so the scripts overlap well even on two cores, and a
// process per script starts every plane from a process that has never run
// another (the controllers' queue metrics, which stabilize reads, are the
// process's). The reports are printed in the order the files were given.
//
// With -export, each FILE is a lesson: rlab export of it (core/export) is
// applied to a plane by parity's Applier, line by line as bash and kubectl
// would, and the lesson's goal is evaluated there, one lesson after
// another in this process. It exits 0 when no export fails a goal expect
// that has a meaning on a cluster, 1 otherwise (a goal of only the
// simulator's insides, expect requests or syncs, has nothing to check).
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/reconcilelab/rlab/core/script"
	"github.com/reconcilelab/rlab/parity"
	"github.com/reconcilelab/rlab/parity/plane"
)

// usedRowsPrefix starts the line a child process writes last: the rows of
// the table of known divergences that its script needed, for the parent's
// -check-table.
const usedRowsPrefix = "parity: known divergences used:"

func main() {
	// A flag set of its own: the packages of the plane register klog's and
	// ktesting's flags (-v among them) on flag.CommandLine.
	flag := flag.NewFlagSet("parity", flag.ExitOnError)
	verbose := flag.Bool("v", false, "show the differences of checkpoints that do not count too")
	scale := flag.Float64("scale", 1, "multiply the scripts' own times (advance, kubelet-start, kubelet-stop) on the real plane; the controllers' timers stay real")
	logFile := flag.String("log", "", "write the plane's logs (API server, etcd, controllers) to this file")
	quiet := flag.Duration("quiet", 0, "how long a real stabilize waits with nothing happening (default 300ms)")
	jobs := flag.Int("j", 1, "run this many scripts at once, each in a process of its own (1: one after another, in this process)")
	checkTable := flag.Bool("check-table", false, "also fail when a row of the table of known divergences that does not depend on timing excused no difference at rest: give it every script")
	child := flag.Bool("child", false, "(used by -j) run one script and print the table rows it used")
	exportMode := flag.Bool("export", false, "apply rlab export of each lesson to the plane, as bash and kubectl would, and check the lesson's goal there")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: parity [-v] [-j=N] [-check-table] [-scale=F] [-log=FILE] [-quiet=D] FILE...")
		fmt.Fprintln(os.Stderr, "       parity -export [-scale=F] [-log=FILE] [-quiet=D] LESSON...")
		flag.PrintDefaults()
	}
	_ = flag.Parse(os.Args[1:])
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *jobs < 1 {
		fmt.Fprintf(os.Stderr, "parity: -j=%d: the number of scripts at once must be 1 or more\n", *jobs)
		os.Exit(2)
	}
	if *logFile != "" && *jobs > 1 {
		fmt.Fprintln(os.Stderr, "parity: -log writes one process's logs: use it with -j=1")
		os.Exit(2)
	}
	if *exportMode {
		if *jobs > 1 || *checkTable {
			fmt.Fprintln(os.Stderr, "parity: -export runs the lessons one after another, and has no table: it takes neither -j nor -check-table")
			os.Exit(2)
		}
		os.Exit(checkExports(flag.Args(), *scale, *logFile, *quiet))
	}
	began := time.Now()
	var outcome runOutcome
	if *jobs > 1 {
		var passOn []string
		if *verbose {
			passOn = append(passOn, "-v")
		}
		passOn = append(passOn, "-scale="+strconv.FormatFloat(*scale, 'g', -1, 64))
		if *quiet > 0 {
			passOn = append(passOn, "-quiet="+quiet.String())
		}
		outcome = runChildren(flag.Args(), *jobs, passOn)
	} else {
		var log io.Writer
		if *logFile != "" {
			f, err := os.Create(*logFile)
			if err != nil {
				fmt.Fprintln(os.Stderr, "parity:", err)
				os.Exit(2)
			}
			defer f.Close()
			log = f
		}
		outcome = runHere(flag.Args(), parity.Options{Scale: *scale, Log: log, Settle: parity.SettleRules{Quiet: *quiet}}, *verbose)
	}
	if *child {
		fmt.Println(usedRowsPrefix, joinInts(outcome.used))
		os.Exit(outcome.code)
	}
	code := outcome.code
	fmt.Printf("%d of %d scripts agree; %.1fs; resident memory %d MB (largest process)\n", outcome.agreed, flag.NArg(),
		time.Since(began).Seconds(), outcome.rss>>20)
	if *checkTable {
		if unused := parity.UnusedKnownDivergences(outcome.used); len(unused) > 0 {
			for _, i := range unused {
				fmt.Printf("known divergence %d excused no difference at rest in any script; remove it from known.go and README.md:\n  %s\n",
					i+1, parity.KnownDivergences[i].Why)
			}
			if code == 0 {
				code = 1
			}
		} else {
			fmt.Printf("every known divergence that must show was needed: %d of the %d rows must, the others depend on the real run's timing\n",
				len(parity.KnownDivergences)-timingRows(), len(parity.KnownDivergences))
		}
		for i, k := range parity.KnownDivergences {
			if k.Timing && !slices.Contains(outcome.used, i) {
				fmt.Printf("known divergence %d excused nothing in this run; it depends on the real run's timing, so that is no reason to remove it\n", i+1)
			}
		}
	}
	os.Exit(code)
}

// runOutcome is what running some scripts came to.
type runOutcome struct {
	// code is the exit code: 0 all agree, 1 one disagrees, 2 one could not
	// be run.
	code   int
	agreed int
	// used lists the rows of the table of known divergences that excused a
	// difference at rest, sorted, without repeats.
	used []int
	rss  uint64
}

func (o *runOutcome) fail(code int) {
	if code > o.code {
		o.code = code
	}
}

// runHere runs the scripts one after another in this process.
func runHere(paths []string, opts parity.Options, verbose bool) runOutcome {
	var o runOutcome
	for _, path := range paths {
		s, err := parity.Load(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "parity:", err)
			o.fail(2)
			continue
		}
		res, err := parity.Compare(path, s, opts)
		if err != nil {
			fmt.Fprintf(os.Stderr, "parity: %s: %v\n", path, err)
			o.fail(2)
			break
		}
		res.Report(os.Stdout, verbose)
		if res.Agrees() {
			o.agreed++
		} else {
			o.fail(1)
		}
		o.used = mergeRows(o.used, res.KnownRowsUsed())
	}
	o.rss = plane.RSS()
	return o
}

// runChildren runs each script in a child process of this command, jobs at
// a time, and prints their reports in the order of paths.
func runChildren(paths []string, jobs int, passOn []string) runOutcome {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "parity: cannot find this command's executable to run scripts in processes of their own:", err)
		os.Exit(2)
	}
	type result struct {
		out  []byte
		code int
		rss  uint64
		done chan struct{}
	}
	results := make([]*result, len(paths))
	for i := range results {
		results[i] = &result{done: make(chan struct{})}
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			for i := range next {
				r := results[i]
				args := append(slices.Clone(passOn), "-child", paths[i])
				cmd := exec.Command(self, args...)
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				err := cmd.Run()
				r.out = out.Bytes()
				if cmd.ProcessState != nil {
					r.rss = uint64(maxRSS(cmd.ProcessState))
				}
				switch {
				case err == nil:
				case cmd.ProcessState != nil && cmd.ProcessState.Exited():
					r.code = cmd.ProcessState.ExitCode()
				default:
					r.out = fmt.Appendf(r.out, "parity: %s: the child process failed: %v\n", paths[i], err)
					r.code = 2
				}
				close(r.done)
			}
		})
	}
	go func() {
		for _, i := range longestFirst(paths) {
			next <- i
		}
		close(next)
	}()
	var o runOutcome
	for _, r := range results {
		<-r.done
		used, report := splitUsedRows(r.out)
		os.Stdout.Write(report)
		o.used = mergeRows(o.used, used)
		o.fail(r.code)
		if r.code == 0 {
			o.agreed++
		}
		o.rss = max(o.rss, r.rss)
	}
	wg.Wait()
	return o
}

// splitUsedRows takes a child's last line of used table rows out of its
// output.
func splitUsedRows(out []byte) ([]int, []byte) {
	var used []int
	var report bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, usedRowsPrefix); ok {
			for _, f := range strings.Fields(rest) {
				if n, err := strconv.Atoi(f); err == nil {
					used = append(used, n-1)
				}
			}
			continue
		}
		report.WriteString(line + "\n")
	}
	return used, report.Bytes()
}

func mergeRows(a, b []int) []int {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// joinInts writes row indexes counted from 1, as the report numbers rows.
func joinInts(rows []int) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = strconv.Itoa(r + 1)
	}
	return strings.Join(parts, " ")
}

// maxRSS returns a finished process's peak resident memory in bytes, or 0
// where the system does not say.
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10 // kilobytes on Linux
	}
	return 0
}

// longestFirst orders the scripts to start, those that wait longest first
// (by the time their advance commands wait), so that a long one does not
// start last and keep the run going alone: deploy-commands.txt advances 90
// seconds, lesson 12 60.
func longestFirst(paths []string) []int {
	waits := make([]time.Duration, len(paths))
	order := make([]int, len(paths))
	for i, path := range paths {
		order[i] = i
		s, err := parity.Load(path)
		if err != nil {
			continue // its child reports the error
		}
		for _, c := range s.Commands {
			if a, ok := c.(*script.Advance); ok {
				waits[i] += a.D
			}
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(waits[b], waits[a]) })
	return order
}

// checkExports applies rlab export of each lesson to a plane of its own and
// evaluates the lesson's goal there, and returns the exit code.
func checkExports(paths []string, scale float64, logFile string, quiet time.Duration) int {
	var log io.Writer
	if logFile != "" {
		f, err := os.Create(logFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "parity:", err)
			return 2
		}
		defer f.Close()
		log = f
	}
	began := time.Now()
	code, reached := 0, 0
	for _, path := range paths {
		res, err := parity.CheckExport(path, parity.Options{Scale: scale, Log: log, Settle: parity.SettleRules{Quiet: quiet}})
		if err != nil {
			fmt.Fprintf(os.Stderr, "parity: %s: %v\n", path, err)
			code = max(code, 1)
			continue
		}
		res.Report(os.Stdout)
		if res.Reached() {
			reached++
		} else if res.Failed() {
			code = max(code, 1)
		}
	}
	fmt.Printf("%d of %d exports reach their lesson's goal; %.1fs; resident memory %d MB\n", reached, len(paths),
		time.Since(began).Seconds(), plane.RSS()>>20)
	return code
}

// timingRows counts the rows of the table of known divergences that depend
// on the real run's timing.
func timingRows() int {
	n := 0
	for _, k := range parity.KnownDivergences {
		if k.Timing {
			n++
		}
	}
	return n
}
