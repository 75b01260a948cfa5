package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
)

// A report is the tables benchreport prints: one row per benchmark with an
// upstream twin or a budget, one row per convergence scenario, and the
// budgets nothing measured.
type report struct {
	rows []*row

	// world holds the convergence scenarios: benchmarks with a metric-based
	// budget, or without a budget but reporting converge-ms. Once one has
	// run, the scenarios that did not are listed here too, as not measured.
	world []*row

	// figures holds the benchmarks judged by limits on the figures they
	// report: the page's sizes and browser timings.
	figures []*row
	// rollouts holds the Deployment rollout benchmarks, which report their
	// figures unjudged: no budget covers them yet.
	rollouts []*row

	// notMeasured holds the budgets whose benchmarks did not run and that
	// are not already shown in world.
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
	rowIn := func(rows *[]*row, name string) *row {
		r, ok := byName[name]
		if !ok {
			r = &row{name: name}
			byName[name] = r
			*rows = append(*rows, r)
		}
		return r
	}
	for _, name := range set.order {
		s := set.byName[name]
		base, side := splitSide(name)
		b := budgetFor(budgets, name)
		_, reportsConvergence := s.metric(metricConvergeMs)
		_, reportsRollout := s.metric(metricRolloutMs)
		switch {
		case b == nil && reportsRollout:
			rowIn(&rep.rollouts, name).ours = s
		case side == "ours":
			rowIn(&rep.rows, base).ours = s
		case side == "upstream":
			rowIn(&rep.rows, base).upstream = s
		case b != nil && b.figureBased():
			rowIn(&rep.figures, name).ours = s
		case b != nil && b.metricBased(), b == nil && reportsConvergence:
			rowIn(&rep.world, name).ours = s
		case b != nil:
			// A budgeted benchmark without an upstream twin.
			rowIn(&rep.rows, name).ours = s
		}
	}

	measured := make([]bool, len(budgets))
	for _, r := range slices.Concat(rep.rows, rep.world, rep.figures, rep.rollouts) {
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
		switch {
		case measured[i]:
		case b.metricBased() && len(rep.world) > 0:
			// The convergence table is printed anyway, and the scenario's
			// upstream figures are worth seeing there.
			rep.world = append(rep.world, &row{name: b.Name, budget: &budgets[i], verdict: verdictNotMeasured})
		default:
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
	for _, r := range slices.Concat(rep.rows, rep.world, rep.figures) {
		if r.verdict == verdictOver || r.verdict == verdictIncomplete {
			out = append(out, fmt.Sprintf("%s %s: %s", r.name, r.verdict, strings.Join(r.problems, "; ")))
		}
	}
	return out
}

// measured counts the rows with a budget that was measured.
func (rep *report) measured() int {
	n := 0
	for _, r := range slices.Concat(rep.rows, rep.world, rep.figures) {
		if r.budget != nil && r.verdict != verdictNotMeasured {
			n++
		}
	}
	return n
}

// write prints the tables, then one line per budget nothing measured.
func (rep *report) write(w io.Writer) {
	switch {
	case len(rep.rows) == 0 && len(rep.world) == 0 && len(rep.figures) == 0 && len(rep.rollouts) == 0:
		fmt.Fprintln(w, "benchreport: no ours/upstream pairs or budgeted benchmarks in the input")
	case len(rep.rows) > 0:
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
	}
	if len(rep.world) > 0 {
		if len(rep.rows) > 0 {
			fmt.Fprintln(w)
		}
		rep.writeWorld(w)
	}
	if len(rep.rollouts) > 0 {
		if len(rep.rows) > 0 || len(rep.world) > 0 {
			fmt.Fprintln(w)
		}
		rep.writeRollouts(w)
	}
	if len(rep.figures) > 0 {
		if len(rep.rows) > 0 || len(rep.world) > 0 || len(rep.rollouts) > 0 {
			fmt.Fprintln(w)
		}
		rep.writeFigures(w)
	}
	if len(rep.notMeasured) > 0 && (len(rep.rows) > 0 || len(rep.world) > 0 || len(rep.figures) > 0) {
		fmt.Fprintln(w)
	}
	for _, b := range rep.notMeasured {
		fmt.Fprintf(w, "not measured: %s (%s)\n", b.Name, b)
	}
}

// worldNote says what the speed-ups do not show: the scenarios are not the
// same amount of work on both sides. Upstream's harness stops the clock once
// its informer has seen every pod the controller created; it has no scheduler
// or kubelets, and its controller's Events are written by a goroutine the
// clock does not wait for. Our world converges only when every pod is bound,
// Running and Ready and the event recorder has nothing left to write, so a
// speed-up understates ours.
const worldNote = "note: ours also times a scheduler binding every pod, kubelets making it Running and Ready, and Events written; upstream's harness does not."

// writeWorld prints the convergence table: our figures, upstream's, the
// speed-ups and the verdict. The first header line groups the columns, which
// would be too wide for a terminal if every header named its side.
func (rep *report) writeWorld(w io.Writer) {
	fmt.Fprintln(w, "World convergence (R ReplicaSets × P pods, one namespace)")
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "\tours\t\t\t\t\tupstream\t\t\tspeed-up")
	fmt.Fprintln(tw, "scenario\tconverge ms\trecover ms\tsteps\tµs/step\tpeak MiB\tpods ms\trecover ms\tpeak MiB\tconverge\trecover\tbudget\tverdict")
	for _, r := range rep.world {
		var up *upstreamRun
		budget := "-"
		if r.budget != nil {
			up, budget = r.budget.Upstream, r.budget.String()
		}
		upPods, upRecover, upHeap := "-", "-", "-"
		var upPodsMs, upRecoverMs float64
		if up != nil {
			upPods = formatFloat(up.PodsMsMin) + "–" + formatFloat(up.PodsMs)
			upRecover, upHeap = formatFloat(up.RecoverMs), formatFloat(up.PeakHeapMiB)
			upPodsMs, upRecoverMs = up.PodsMs, up.RecoverMs
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", scenario(r.name),
			metricCell(r.ours, metricConvergeMs, "%.0f"), metricCell(r.ours, metricRecoverMs, "%.0f"),
			metricCell(r.ours, metricSteps, "%.0f"), metricCell(r.ours, metricUsPerStep, "%.2f"),
			metricCell(r.ours, metricPeakHeapMiB, "%.1f"),
			upPods, upRecover, upHeap,
			speedupCell(upPodsMs, r.ours, metricConvergeMs), speedupCell(upRecoverMs, r.ours, metricRecoverMs),
			budget, r.verdict)
	}
	tw.Flush()
	fmt.Fprintln(w, worldNote)
}

// writeRollouts prints the rollout benchmarks' figures: how long a world
// takes from a new image on every Deployment to rest, in how many steps, the
// time per step, and the peak heap. No budget judges them yet.
func (rep *report) writeRollouts(w io.Writer) {
	fmt.Fprintln(w, "Rollouts (D Deployments × P pods, one namespace, set image on every one, to rest)")
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario	rollout ms	steps	µs/step	peak MiB	budget")
	for _, r := range rep.rollouts {
		fmt.Fprintf(tw, "%s	%s	%s	%s	%s	%s\n", scenario(r.name),
			metricCell(r.ours, metricRolloutMs, "%.0f"), metricCell(r.ours, metricSteps, "%.0f"),
			metricCell(r.ours, metricUsPerStep, "%.2f"), metricCell(r.ours, metricPeakHeapMiB, "%.1f"), r.verdict)
	}
	tw.Flush()
}

// writeFigures prints the table of figures: each benchmark with every figure
// it reported, its limits and the verdict.
func (rep *report) writeFigures(w io.Writer) {
	fmt.Fprintln(w, "The page (sizes, and timings in headless Chromium)")
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "benchmark\tfigures\tbudget\tverdict")
	for _, r := range rep.figures {
		var figures []string
		if r.ours != nil {
			for _, unit := range r.ours.units() {
				v, _ := r.ours.metric(unit)
				figures = append(figures, unit+"="+formatFloat(roundFigure(v)))
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.name, strings.Join(figures, " "), r.budget, r.verdict)
	}
	tw.Flush()
}

// roundFigure keeps three significant decimals: enough for 0.042 ms, and no
// noise digits on 1843030 bytes.
func roundFigure(v float64) float64 {
	if v >= 100 {
		return math.Round(v)
	}
	return math.Round(v*1000) / 1000
}

// scenario is the last element of a benchmark's name, "100x10" for
// "Converge/100x10": the table's title already says what it converges.
func scenario(name string) string {
	return name[strings.LastIndexByte(name, '/')+1:]
}

// metricCell prints the figure s reported in unit, "-" if s did not run and
// "?" if it did not report the figure.
func metricCell(s *samples, unit, format string) string {
	if s == nil {
		return "-"
	}
	v, ok := s.metric(unit)
	if !ok {
		return "?"
	}
	return fmt.Sprintf(format, v)
}

// speedupCell prints upstreamMs over the figure s reported in unit: how many
// times faster ours was. It is "-" when either side is missing.
func speedupCell(upstreamMs float64, s *samples, unit string) string {
	if upstreamMs == 0 || s == nil {
		return "-"
	}
	v, ok := s.metric(unit)
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2f×", upstreamMs/v)
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
