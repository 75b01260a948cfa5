package main

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// A result is one benchmark line of go test -bench output, such as
//
//	BenchmarkSelectorParse/ours-2   	  285716	      4132 ns/op	    1208 B/op	      25 allocs/op
type result struct {
	// name is the benchmark's name without the "Benchmark" prefix and the -N
	// GOMAXPROCS suffix: "SelectorParse/ours".
	name string

	nsPerOp float64

	// allocsPerOp is meaningful only if hasAllocs: go test prints allocs/op
	// only with -benchmem or b.ReportAllocs.
	allocsPerOp float64
	hasAllocs   bool

	// metrics holds the figures a benchmark reports itself with
	// b.ReportMetric, by unit ("converge-ms"), and is nil if it reports none.
	// The convergence scenarios are judged by these rather than by ns/op,
	// since one op is a whole run whose setup is not part of the figure.
	metrics map[string]float64
}

// parseLine parses a benchmark result line and reports whether line was one.
// Everything else go test prints (pkg: headers, PASS, ok, logs, failures) is
// not.
func parseLine(line string) (result, bool) {
	f := strings.Fields(line)
	// name, iterations, then at least one "value unit" pair.
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
		return result{}, false
	}
	if _, err := strconv.ParseUint(f[1], 10, 64); err != nil {
		return result{}, false
	}
	r := result{name: trimProcs(strings.TrimPrefix(f[0], "Benchmark"))}
	hasNs := false
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return result{}, false
		}
		switch f[i+1] {
		case "ns/op":
			r.nsPerOp, hasNs = v, true
		case "allocs/op":
			r.allocsPerOp, r.hasAllocs = v, true
		case "B/op", "MB/s":
			// Reported by go test itself and budgeted by nothing.
		default:
			if r.metrics == nil {
				r.metrics = make(map[string]float64)
			}
			r.metrics[f[i+1]] = v
		}
	}
	return r, hasNs && r.name != ""
}

// trimProcs removes the -N suffix go test appends to a benchmark's name when
// GOMAXPROCS is not 1 ("SelectorParse/ours-2"). A sub-benchmark whose own name
// ends in -digits is ambiguous with it; name sub-benchmarks size=10, not size-10.
func trimProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 || i < strings.LastIndexByte(name, '/') || i == len(name)-1 {
		return name
	}
	for _, c := range name[i+1:] {
		if c < '0' || c > '9' {
			return name
		}
	}
	return name[:i]
}

// A resultSet gathers results by name, in the order names first appear.
type resultSet struct {
	order  []string
	byName map[string]*samples
}

// samples are the runs of one benchmark: one per -count.
type samples struct {
	ns      []float64
	allocs  []float64            // empty if no run reported allocs/op
	metrics map[string][]float64 // by unit; nil if no run reported one
}

func (s *resultSet) add(r result) {
	if s.byName == nil {
		s.byName = make(map[string]*samples)
	}
	sm, ok := s.byName[r.name]
	if !ok {
		sm = &samples{}
		s.byName[r.name] = sm
		s.order = append(s.order, r.name)
	}
	sm.ns = append(sm.ns, r.nsPerOp)
	if r.hasAllocs {
		sm.allocs = append(sm.allocs, r.allocsPerOp)
	}
	for unit, v := range r.metrics {
		if sm.metrics == nil {
			sm.metrics = make(map[string][]float64)
		}
		sm.metrics[unit] = append(sm.metrics[unit], v)
	}
}

// nsPerOp is the median time of the runs.
func (s *samples) nsPerOp() float64 { return median(s.ns) }

// allocsPerOp is the median allocation count of the runs, if they reported
// one.
func (s *samples) allocsPerOp() (float64, bool) {
	if len(s.allocs) == 0 {
		return 0, false
	}
	return median(s.allocs), true
}

// metric is the median of the runs' figures in unit, if any run reported
// one.
func (s *samples) metric(unit string) (float64, bool) {
	if len(s.metrics[unit]) == 0 {
		return 0, false
	}
	return median(s.metrics[unit]), true
}

// units lists the units of the figures the runs reported, sorted.
func (s *samples) units() []string {
	return slices.Sorted(maps.Keys(s.metrics))
}

// median returns the middle value of xs (the mean of the two middle values
// for an even count), which a single slow run cannot drag the way it drags a
// mean. xs must not be empty.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
