package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	wasm := flag.String("wasm", "", "instead of reading benchmarks, print the sizes of the main.wasm at `path` and its compressed copies against its budget")
	flag.Parse()
	if *wasm != "" {
		if err := wasmSizeLine(os.Stdout, *wasm); err != nil {
			fmt.Fprintf(os.Stderr, "benchreport: %v\n", err)
			os.Exit(1)
		}
		return
	}
	os.Exit(run(os.Stdin, os.Stdout, os.Stderr))
}

// run echoes in to stdout while parsing it, then prints the report and
// returns the exit status: 0 if every measured budget holds, 1 if not, 2 if
// the input could not be read.
func run(in io.Reader, stdout, stderr io.Writer) int {
	var set resultSet
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1024*1024) // benchmark lines can be long
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(stdout, line)
		if r, ok := parseLine(line); ok {
			set.add(r)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(stderr, "benchreport: reading input: %v\n", err)
		return 2
	}

	rep := newReport(&set, budgets)
	fmt.Fprintln(stdout)
	rep.write(stdout)
	if failures := rep.failures(); len(failures) > 0 {
		for _, f := range failures {
			fmt.Fprintf(stderr, "benchreport: %s\n", f)
		}
		fmt.Fprintf(stderr, "benchreport: FAIL: %d of %d measured budgets not met\n", len(failures), rep.measured())
		return 1
	}
	return 0
}
