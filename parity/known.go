package parity

import (
	"maps"
	"regexp"
	"slices"
	"strings"
)

// Known is one row of the table of known divergences: a difference of
// state that parity allows, because upstream's source makes it so and rlab
// chose otherwise, or because the real run cannot be made deterministic.
type Known struct {
	// Match picks the differences the row explains.
	Match func(Line) bool
	// Why explains it, naming the upstream source.
	Why string
	// Timing says the difference shows only when the real run's timing
	// makes it: the real kubelets happen to make pods Ready at moments
	// that give the controller the same steps as rlab's in some runs and
	// not in others. A run that did not need such a row says nothing
	// against it, so -check-table does not ask for it; a row without
	// Timing, a choice rlab made, must show in every full run.
	Timing bool
}

// KnownDivergences is the table. Keep it short: a row is a debt, and each
// names where upstream decides. README.md shows the same table.
var KnownDivergences = []Known{
	{
		Match: keyHas("events: ", " ScalingReplicaSet"),
		Why: "how many steps a rolling update takes depends on how many new pods are available at each sync, " +
			"which real kubelets decide a few milliseconds apart and rlab's at one simulated instant " +
			"(reconcileNewReplicaSet and reconcileOldReplicaSets, pkg/controller/deployment/rolling.go)",
		Timing: true,
	},
	{
		Match: func(l Line) bool {
			return strings.HasPrefix(l.Key, "rs[deploy/") && l.Sim != "" && l.Real != "" &&
				withoutGenerations(l.Sim) == withoutGenerations(l.Real)
		},
		Why: "each scaling step of a rolling update writes the ReplicaSet's spec, so its generation counts the steps, " +
			"whose number depends on readiness timing (scaleReplicaSet, pkg/controller/deployment/sync.go)",
		Timing: true,
	},
}

// generations matches the generation counters of a state line.
var generations = regexp.MustCompile(`(observedGeneration|generation)=\d+`)

func withoutGenerations(s string) string { return generations.ReplaceAllString(s, "$1=*") }

// KnownDivergence returns why a difference is known, or "".
func KnownDivergence(l Line) string {
	if i := knownRow(l); i >= 0 {
		return KnownDivergences[i].Why
	}
	return ""
}

// knownRow returns the index of the first row that explains a difference,
// or -1.
func knownRow(l Line) int {
	for i, k := range KnownDivergences {
		if k.Match(l) {
			return i
		}
	}
	return -1
}

// KnownRowsUsed lists the rows of the table (indexes into
// KnownDivergences, sorted) that explained a difference in a checkpoint
// that counts. A row that no script needs any more is one the table must
// lose: the runner's -check-table fails on it.
func (r *Result) KnownRowsUsed() []int {
	used := map[int]bool{}
	for _, c := range r.Checkpoints {
		if !c.Counts() {
			continue
		}
		for _, l := range c.Known {
			if i := knownRow(l); i >= 0 {
				used[i] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(used))
}

// UnusedKnownDivergences returns the rows of the table (indexes into
// KnownDivergences) that are not in used and do not depend on timing: the
// rows -check-table fails on.
func UnusedKnownDivergences(used []int) []int {
	var out []int
	for i, k := range KnownDivergences {
		if !k.Timing && !slices.Contains(used, i) {
			out = append(out, i)
		}
	}
	return out
}

// keyHas is a Match for the differences whose key holds all the words.
func keyHas(words ...string) func(Line) bool {
	return func(l Line) bool {
		for _, w := range words {
			if !strings.Contains(l.Key, w) {
				return false
			}
		}
		return true
	}
}
