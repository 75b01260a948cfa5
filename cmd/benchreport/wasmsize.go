package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// wasmSizeBudget is the budget of main.wasm, whose limits wasmSizeLine
// prints the built file's sizes against, so that make wasm says how far the
// page is from its budget without a copy of the figures.
const wasmSizeBudget = "WasmSize"

// wasmSizeLine writes one line about the main.wasm at path and its
// precompressed siblings, as make wasm prints it:
//
//	site/main.wasm: 6922929 bytes raw (≤ 8500000), 1739108 gzip, 1247765 brotli as served (≤ 1400000): within budget
//
// The sizes are those of the files rlab serve sends: path itself, path.gz
// and path.br. A sibling that is missing, or older than path, is reported as
// such rather than measured. The line is information, not a verdict that
// stops the build: make bench judges the budget.
func wasmSizeLine(w io.Writer, path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	limits := map[string]float64{}
	for _, b := range budgets {
		if b.Name == wasmSizeBudget {
			for _, l := range b.Limits {
				limits[l.Unit] = l.Max
			}
		}
	}
	var parts []string
	over := false
	figure := func(size int64, what, unit string) string {
		s := fmt.Sprintf("%d %s", size, what)
		if max, ok := limits[unit]; ok {
			s += fmt.Sprintf(" (≤ %.0f)", max)
			over = over || float64(size) > max
		}
		return s
	}
	parts = append(parts, figure(info.Size(), "bytes raw", "raw-bytes"))
	for _, sib := range []struct{ ext, what, unit string }{
		{".gz", "gzip", "gzip-bytes"},
		{".br", "brotli as served", "brotli-bytes"},
	} {
		s, err := os.Stat(path + sib.ext)
		switch {
		case err != nil:
			parts = append(parts, "no "+sib.what+" copy (rlab compress writes it)")
		case s.ModTime().Before(info.ModTime()):
			parts = append(parts, "a stale "+sib.what+" copy (rlab compress rewrites it)")
		default:
			parts = append(parts, figure(s.Size(), sib.what, sib.unit))
		}
	}
	verdict := "within budget"
	if over {
		verdict = "OVER BUDGET (make bench fails)"
	}
	_, err = fmt.Fprintf(w, "%s: %s: %s\n", path, strings.Join(parts, ", "), verdict)
	return err
}
