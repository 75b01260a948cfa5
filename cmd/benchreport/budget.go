package main

import (
	"fmt"
	"strconv"
	"strings"
)

// budgets is the one table of performance budgets (see DESIGN.md, "Budgets").
// Each entry covers Benchmark<Name> and its sub-benchmarks; the first entry
// that matches a benchmark is its budget.
//
// Relative budgets (MaxRatio) are derived from DESIGN.md's absolute targets
// and the upstream figures measured next to them: a selector parse in ≤ 1 µs
// against upstream's 4 µs is a ratio of 0.25. They hold on any machine, since
// both sides run on the same one.
var budgets = []budget{
	{Name: "SelectorParse", MaxRatio: 0.25, MaxAllocs: 10},
	{Name: "SelectorMatches", MaxRatio: 0.5, MaxAllocs: 0},
	{Name: "AddGetDoneSerial", MaxRatio: 0.5, MaxAllocs: 1},
	{Name: "Dedup10kKeys", MaxRatio: 0.5, MaxAllocs: anyAllocs},
	{Name: "KernelStep", MaxNsPerOp: 50_000, MaxAllocs: anyAllocs},
}

// anyAllocs as a budget's MaxAllocs leaves allocations unchecked.
const anyAllocs = -1

// A budget limits one benchmark. A zero MaxRatio or MaxNsPerOp leaves that
// figure unchecked, but a zero MaxAllocs means what it says, no allocations
// at all: forgetting to set it makes a budget stricter, never silently laxer.
type budget struct {
	// Name is the benchmark's name without "Benchmark": "SelectorParse". It
	// also covers sub-benchmarks: "SelectorParse/complex".
	Name string

	// MaxRatio bounds ours ns/op over upstream ns/op, for a benchmark with
	// ours and upstream sub-benchmarks.
	MaxRatio float64

	// MaxNsPerOp bounds ns/op, for a benchmark with no upstream twin.
	MaxNsPerOp float64

	// MaxAllocs bounds ours allocs/op; anyAllocs leaves it unchecked.
	MaxAllocs float64
}

// covers reports whether the budget applies to the benchmark named name
// (without "Benchmark", ours/upstream and the -N suffix).
func (b budget) covers(name string) bool {
	return name == b.Name || strings.HasPrefix(name, b.Name+"/")
}

// String describes the limits: "ratio ≤ 0.25, allocs ≤ 10".
func (b budget) String() string {
	var limits []string
	if b.MaxRatio > 0 {
		limits = append(limits, "ratio ≤ "+formatFloat(b.MaxRatio))
	}
	if b.MaxNsPerOp > 0 {
		limits = append(limits, "≤ "+formatFloat(b.MaxNsPerOp)+" ns/op")
	}
	if b.MaxAllocs != anyAllocs {
		limits = append(limits, "allocs ≤ "+formatFloat(b.MaxAllocs))
	}
	return strings.Join(limits, ", ")
}

// Verdicts of a row of the report.
const (
	verdictOK         = "ok"
	verdictOver       = "OVER"       // a limit was broken
	verdictIncomplete = "INCOMPLETE" // a limit could not be checked
	verdictNone       = "-"          // the row has no budget
)

// check judges the measurements of one benchmark against b and returns the
// verdict with the reasons for anything but ok. upstream is nil if the
// benchmark has no upstream twin; ours is nil if only upstream ran.
func (b budget) check(ours, upstream *samples) (verdict string, problems []string) {
	over, incomplete := false, false
	fail := func(isOver bool, format string, args ...any) {
		over = over || isOver
		incomplete = incomplete || !isOver
		problems = append(problems, fmt.Sprintf(format, args...))
	}
	if ours == nil {
		fail(false, "no ours sub-benchmark")
		return verdictIncomplete, problems
	}
	if b.MaxRatio > 0 {
		if upstream == nil {
			fail(false, "no upstream sub-benchmark to compare with")
		} else if r := ours.nsPerOp() / upstream.nsPerOp(); r > b.MaxRatio {
			fail(true, "ratio %.2f > %s", r, formatFloat(b.MaxRatio))
		}
	}
	if b.MaxNsPerOp > 0 {
		if ns := ours.nsPerOp(); ns > b.MaxNsPerOp {
			fail(true, "%s ns/op > %s", formatNs(ns), formatFloat(b.MaxNsPerOp))
		}
	}
	if b.MaxAllocs != anyAllocs {
		if allocs, ok := ours.allocsPerOp(); !ok {
			fail(false, "no allocs/op (run go test with -benchmem)")
		} else if allocs > b.MaxAllocs {
			fail(true, "%s allocs/op > %s", formatFloat(allocs), formatFloat(b.MaxAllocs))
		}
	}
	switch {
	case over:
		return verdictOver, problems
	case incomplete:
		return verdictIncomplete, problems
	}
	return verdictOK, nil
}

func formatFloat(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}
