package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// A report is the table benchreport prints: one row per benchmark with an
// upstream twin or a budget, and the budgets nothing measured.
type report struct {
	rows        []*row
	notMeasured []budget
}

// A row is one benchmark of the table.
type row struct {
	name     string   // without "Benchmark" and ours/upstream: "SelectorParse"
	ours     *samples // nil if only upstream ran
	upstream *samples // nil for a benchmark without an upstream twin
	budget   *budget  // nil if no budget covers the benchmark
	verdict  string
	problems []string // why the verdict is not ok
}

// newReport pairs the results of set into rows, in the order the benchmarks
// ran, and judges each row by the first of budgets that covers it.
func newReport(set *resultSet, budgets []budget) *report {
	rep := &report{}
	byName := make(map[string]*row)
	rowFor := func(name string) *row {
		r, ok := byName[name]
		if !ok {
			r = &row{name: name}
			byName[name] = r
			rep.rows = append(rep.rows, r)
		}
		return r
	}
	for _, name := range set.order {
		s := set.byName[name]
		base, side := splitSide(name)
		switch {
		case side == "ours":
			rowFor(base).ours = s
		case side == "upstream":
			rowFor(base).upstream = s
		case budgetFor(budgets, name) != nil:
			// A budgeted benchmark without an upstream twin.
			rowFor(name).ours = s
		}
	}

	measured := make([]bool, len(budgets))
	for _, r := range rep.rows {
		i := budgetIndex(budgets, r.name)
		if i < 0 {
			r.verdict = verdictNone
			continue
		}
		measured[i] = true
		r.budget = &budgets[i]
		r.verdict, r.problems = r.budget.check(r.ours, r.upstream)
	}
	for i, b := range budgets {
		if !measured[i] {
			rep.notMeasured = append(rep.notMeasured, b)
		}
	}
	return rep
}

// splitSide splits "SelectorParse/ours" into "SelectorParse" and "ours". side
// is "" for a name whose last element is neither ours nor upstream.
func splitSide(name string) (base, side string) {
	i := strings.LastIndexByte(name, '/')
	if i < 0 {
		return name, ""
	}
	switch name[i+1:] {
	case "ours", "upstream":
		return name[:i], name[i+1:]
	}
	return name, ""
}

func budgetIndex(budgets []budget, name string) int {
	for i, b := range budgets {
		if b.covers(name) {
			return i
		}
	}
	return -1
}

func budgetFor(budgets []budget, name string) *budget {
	if i := budgetIndex(budgets, name); i >= 0 {
		return &budgets[i]
	}
	return nil
}

// failures describes every row whose verdict fails the run, one line each.
func (rep *report) failures() []string {
	var out []string
	for _, r := range rep.rows {
		if r.verdict == verdictOver || r.verdict == verdictIncomplete {
			out = append(out, fmt.Sprintf("%s %s: %s", r.name, r.verdict, strings.Join(r.problems, "; ")))
		}
	}
	return out
}

// measured counts the rows with a budget.
func (rep *report) measured() int {
	n := 0
	for _, r := range rep.rows {
		if r.budget != nil {
			n++
		}
	}
	return n
}

// write prints the table, then one line per budget nothing measured.
func (rep *report) write(w io.Writer) {
	if len(rep.rows) == 0 {
		fmt.Fprintln(w, "benchreport: no ours/upstream pairs or budgeted benchmarks in the input")
	} else {
		tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "benchmark\tours ns/op\tupstream ns/op\tratio\tours allocs/op\tupstream allocs/op\tbudget\tverdict")
		for _, r := range rep.rows {
			budget := "-"
			if r.budget != nil {
				budget = r.budget.String()
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.name,
				nsCell(r.ours), nsCell(r.upstream), ratioCell(r.ours, r.upstream),
				allocsCell(r.ours), allocsCell(r.upstream), budget, r.verdict)
		}
		tw.Flush()
		if len(rep.notMeasured) > 0 {
			fmt.Fprintln(w)
		}
	}
	for _, b := range rep.notMeasured {
		fmt.Fprintf(w, "not measured: %s (%s)\n", b.Name, b)
	}
}

func nsCell(s *samples) string {
	if s == nil {
		return "-"
	}
	return formatNs(s.nsPerOp())
}

func ratioCell(ours, upstream *samples) string {
	if ours == nil || upstream == nil {
		return "-"
	}
	return fmt.Sprintf("%.2f", ours.nsPerOp()/upstream.nsPerOp())
}

func allocsCell(s *samples) string {
	if s == nil {
		return "-"
	}
	allocs, ok := s.allocsPerOp()
	if !ok {
		return "?"
	}
	return formatFloat(allocs)
}

// formatNs prints a time per operation with the precision go test uses:
// decimals only where they matter.
func formatNs(ns float64) string {
	switch {
	case ns < 10:
		return fmt.Sprintf("%.2f", ns)
	case ns < 100:
		return fmt.Sprintf("%.1f", ns)
	}
	return fmt.Sprintf("%.0f", ns)
}
