// Command parity runs scenario scripts and lessons on rlab and on a real
// control plane (etcd, kube-apiserver and the real controllers, in this
// process) and prints where they differ.
//
//	cd parity && go run ./cmd/parity [-v] [-scale=1] [-log=FILE] FILE...
//
// A FILE is a lesson (.txtar: setup, solution, then the goal's expects) or
// a scenario script (golden scripts too: their expected output is left
// out). It exits 0 when every script agrees, 1 when one disagrees, and 2
// on a usage error or a script that does not load (the others still run).
//
// With -export, each FILE is a lesson: rlab export of it (core/export) is
// applied to a plane by parity's Applier, line by line as bash and kubectl
// would, and the lesson's goal is evaluated there. It exits 0 when no
// export fails a goal expect that has a meaning on a cluster, 1 otherwise
// (a goal of only the simulator's insides, expect requests or syncs, has
// nothing to check).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/reconcilelab/rlab/parity"
	"github.com/reconcilelab/rlab/parity/plane"
)

func main() {
	// A flag set of its own: the packages of the plane register klog's and
	// ktesting's flags (-v among them) on flag.CommandLine.
	flag := flag.NewFlagSet("parity", flag.ExitOnError)
	verbose := flag.Bool("v", false, "show the differences of checkpoints that do not count too")
	scale := flag.Float64("scale", 1, "multiply the scripts' own times (advance, kubelet-start, kubelet-stop) on the real plane; the controllers' timers stay real")
	logFile := flag.String("log", "", "write the plane's logs (API server, etcd, controllers) to this file")
	quiet := flag.Duration("quiet", 0, "how long a real stabilize waits with nothing happening (default 300ms)")
	exportMode := flag.Bool("export", false, "apply rlab export of each lesson to the plane, as bash and kubectl would, and check the lesson's goal there")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: parity [-v] [-scale=F] [-log=FILE] [-quiet=D] [-export] FILE...")
		flag.PrintDefaults()
	}
	_ = flag.Parse(os.Args[1:])
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
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
	code := 0
	began := time.Now()
	agreed := 0
	for _, path := range flag.Args() {
		if *exportMode {
			res, err := parity.CheckExport(path, parity.Options{Scale: *scale, Log: log, Settle: parity.SettleRules{Quiet: *quiet}})
			if err != nil {
				fmt.Fprintf(os.Stderr, "parity: %s: %v\n", path, err)
				code = max(code, 1)
				continue
			}
			res.Report(os.Stdout)
			if res.Reached() {
				agreed++
			} else if res.Failed() {
				code = max(code, 1)
			}
			continue
		}
		s, err := parity.Load(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "parity:", err)
			code = 2
			continue
		}
		res, err := parity.Compare(path, s, parity.Options{Scale: *scale, Log: log, Settle: parity.SettleRules{Quiet: *quiet}})
		if err != nil {
			fmt.Fprintf(os.Stderr, "parity: %s: %v\n", path, err)
			os.Exit(2)
		}
		res.Report(os.Stdout, *verbose)
		if res.Agrees() {
			agreed++
		} else if code == 0 {
			code = 1
		}
	}
	what := "scripts agree"
	if *exportMode {
		what = "exports reach their lesson's goal"
	}
	fmt.Printf("%d of %d %s; %.1fs; resident memory %d MB\n", agreed, flag.NArg(), what, time.Since(began).Seconds(), plane.RSS()>>20)
	os.Exit(code)
}
