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
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: parity [-v] [-scale=F] [-log=FILE] [-quiet=D] FILE...")
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
	fmt.Printf("%d of %d scripts agree; %.1fs; resident memory %d MB\n", agreed, flag.NArg(), time.Since(began).Seconds(), plane.RSS()>>20)
	os.Exit(code)
}
