package labels

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// selectorInvariantProblem checks what every Selector must hold, after the
// manner of container/heap's verify, and describes the first broken rule, or
// returns "". The differential tests run it on every selector they build.
//   - requirements are sorted by key;
//   - plan holds the same requirements, ordered by matchRank, and within a rank
//     in key order;
//   - every requirement's values are sorted and unique, and as many as its
//     operator takes; a comparison's bound is its value read as an integer;
//   - Nothing() has no requirements.
func selectorInvariantProblem(s Selector) string {
	if s.nothing && (len(s.requirements) > 0 || len(s.plan) > 0) {
		return "Nothing() has requirements"
	}
	if !slices.IsSortedFunc(s.requirements, func(a, b Requirement) int { return strings.Compare(a.key, b.key) }) {
		return fmt.Sprintf("requirements not sorted by key: %v", s.requirements)
	}
	if len(s.plan) != len(s.requirements) {
		return fmt.Sprintf("plan has %d requirements, the selector %d", len(s.plan), len(s.requirements))
	}
	var want []Requirement
	for rank := range 3 {
		for _, r := range s.requirements {
			if matchRank(r.op) == rank {
				want = append(want, r)
			}
		}
	}
	for i := range want {
		if want[i].key != s.plan[i].key || want[i].op != s.plan[i].op || !slices.Equal(want[i].values, s.plan[i].values) {
			return fmt.Sprintf("plan %v, want %v", s.plan, want)
		}
	}
	for _, r := range s.requirements {
		if !slices.IsSorted(r.values) || len(slices.Compact(slices.Clone(r.values))) != len(r.values) {
			return fmt.Sprintf("%s: values not sorted and unique: %q", r, r.values)
		}
		if len(r.values) != cap(r.values) {
			return fmt.Sprintf("%s: values not clipped", r)
		}
		n := len(r.values)
		var ok bool
		switch r.op {
		case opExists, opDoesNotExist:
			ok = n == 0
		case opIn, opNotIn:
			ok = n >= 1
		case opInvalid:
			ok = true
		default:
			ok = n == 1
		}
		if !ok {
			return fmt.Sprintf("%s: %d values for operator %q", r, n, r.Operator())
		}
		if r.op == opGreaterThan || r.op == opLessThan {
			if v, _ := parseInt64(r.values[0]); v != r.bound {
				return fmt.Sprintf("%s: bound %d", r, r.bound)
			}
		}
	}
	return ""
}

// TestSelectorInvariants runs the invariant check on selectors built every way
// the package builds them.
func TestSelectorInvariants(t *testing.T) {
	parsed, err := Parse("z notin (b,a),!y,x>01,w in (c,c,a),v,u=")
	require.NoError(t, err)
	structured, err := LabelSelectorAsSelector(&api.LabelSelector{
		MatchLabels:      map[string]string{"b": "1", "a": "2"},
		MatchExpressions: []api.LabelSelectorRequirement{{Key: "a", Operator: api.LabelSelectorOpNotIn, Values: []string{"x", "x", "w"}}},
	})
	require.NoError(t, err)
	for name, sel := range map[string]Selector{
		"zero":       {},
		"everything": Everything(),
		"nothing":    Nothing(),
		"parsed":     parsed,
		"structured": structured,
		"from set":   SelectorFromSet(Set{"b": "1", "a": ""}),
		"added":      parsed.Add(req(t, "a", DoesNotExist), req(t, "zz", Equals, "q"), Requirement{}),
	} {
		assert.Empty(t, selectorInvariantProblem(sel), name)
	}
}
