package labels

import (
	"errors"
	"maps"
	"slices"
	"strconv"

	"github.com/reconcilelab/rlab/core/api"
)

// LabelSelectorAsSelector converts the structured selector of a ReplicaSet's
// spec.selector into a Selector, as upstream's metav1.LabelSelectorAsSelector does:
//   - nil selects nothing: Nothing();
//   - a selector with no matchLabels and no matchExpressions selects everything:
//     Everything();
//   - otherwise each matchLabels entry is a "key=value" requirement, and each
//     matchExpression an in, notin, exists or !exists requirement, all checked as
//     NewRequirement checks them.
//
// An operator other than In, NotIn, Exists and DoesNotExist is an error, e.g.
// `"Gt" is not a valid label selector operator`.
//
// Two details differ from upstream, neither in what matches. Where upstream reports
// the first bad matchLabels entry in random map order, this reports the first in
// key order. And a value repeated in one expression counts once, as everywhere in
// this package, so {key: x, operator: In, values: [a, a]} prints as "x in (a)",
// where upstream keeps the repeat and prints "x in (a,a)".
func LabelSelectorAsSelector(selector *api.LabelSelector) (Selector, error) {
	if selector == nil {
		return Nothing(), nil
	}
	if len(selector.MatchLabels)+len(selector.MatchExpressions) == 0 {
		return Everything(), nil
	}
	// Requirements and their values gather in a builder on the stack, as in
	// Parse, and reach the heap in one copy each.
	var b builder
	for _, key := range slices.Sorted(maps.Keys(selector.MatchLabels)) {
		value := selector.MatchLabels[key]
		if problems := requirementProblems(key, Equals, []string{value}); problems != nil {
			return Selector{}, problemsError(problems)
		}
		start := b.values.len()
		b.values.push(value)
		b.add(key, opEquals, start)
	}
	for _, expr := range selector.MatchExpressions {
		op, ok := structuredOperator(expr.Operator)
		if !ok {
			return Selector{}, errors.New(strconv.Quote(expr.Operator) + " is not a valid label selector operator")
		}
		if problems := requirementProblems(expr.Key, op, expr.Values); problems != nil {
			return Selector{}, problemsError(problems)
		}
		start := b.values.len()
		for _, v := range expr.Values {
			b.values.push(v)
		}
		if len(expr.Values) > 1 {
			b.values.truncate(start + len(sortUnique(b.values.items()[start:])))
		}
		b.add(expr.Key, op.code(), start)
	}
	return b.selector(), nil
}

// structuredOperator returns the selector operator an api.LabelSelectorRequirement
// operator stands for. The comparison operators have no structured form.
func structuredOperator(op string) (Operator, bool) {
	switch op {
	case api.LabelSelectorOpIn:
		return In, true
	case api.LabelSelectorOpNotIn:
		return NotIn, true
	case api.LabelSelectorOpExists:
		return Exists, true
	case api.LabelSelectorOpDoesNotExist:
		return DoesNotExist, true
	}
	return "", false
}

// LabelSelectorAsMap converts a structured selector into the plain label map of
// the older selector format (a ReplicationController's spec.selector), as upstream
// does. Only matchLabels and single-value In expressions have a map form; any other
// expression is an error, returned with the map built so far. nil gives nil.
func LabelSelectorAsMap(selector *api.LabelSelector) (map[string]string, error) {
	if selector == nil {
		return nil, nil
	}
	labels := make(map[string]string, len(selector.MatchLabels))
	maps.Copy(labels, selector.MatchLabels)
	for _, expr := range selector.MatchExpressions {
		switch expr.Operator {
		case api.LabelSelectorOpIn:
			if len(expr.Values) != 1 {
				return labels, errors.New("operator " + strconv.Quote(expr.Operator) + " without a single value cannot be converted into the old label selector format")
			}
			// A later expression on the same key wins, as upstream lets it.
			labels[expr.Key] = expr.Values[0]
		case api.LabelSelectorOpNotIn, api.LabelSelectorOpExists, api.LabelSelectorOpDoesNotExist:
			return labels, errors.New("operator " + strconv.Quote(expr.Operator) + " cannot be converted into the old label selector format")
		default:
			return labels, errors.New(strconv.Quote(expr.Operator) + " is not a valid selector operator")
		}
	}
	return labels, nil
}

// FormatLabelSelector prints a structured selector the way kubectl does in its
// SELECTOR columns: the selector string, "<none>" when that is empty (a nil or an
// empty selector alike), and "<error>" when the selector is invalid.
func FormatLabelSelector(selector *api.LabelSelector) string {
	s, err := LabelSelectorAsSelector(selector)
	if err != nil {
		return "<error>"
	}
	if text := s.String(); text != "" {
		return text
	}
	return "<none>"
}

// ParseToLabelSelector parses a selector string into the structured form a
// ReplicaSet carries, as upstream's metav1.ParseToLabelSelector does: "=" and "=="
// become matchLabels, in, notin, exists and !exists become matchExpressions (with
// sorted values), and "!=", ">" and "<", which have no structured form, are errors.
// The result's MatchLabels and MatchExpressions are never nil.
func ParseToLabelSelector(selector string) (*api.LabelSelector, error) {
	parsed, err := Parse(selector)
	if err != nil {
		return nil, errors.New("couldn't parse the selector string " + strconv.Quote(selector) + ": " + err.Error())
	}
	result := &api.LabelSelector{
		MatchLabels:      map[string]string{},
		MatchExpressions: []api.LabelSelectorRequirement{},
	}
	for _, r := range parsed.requirements {
		var op string
		switch r.op {
		case opEquals, opDoubleEquals:
			result.MatchLabels[r.key] = r.values[0]
			continue
		case opIn:
			op = api.LabelSelectorOpIn
		case opNotIn:
			op = api.LabelSelectorOpNotIn
		case opExists:
			op = api.LabelSelectorOpExists
		case opDoesNotExist:
			op = api.LabelSelectorOpDoesNotExist
		case opGreaterThan, opLessThan:
			return nil, errors.New(strconv.Quote(string(r.Operator())) + " isn't supported in label selectors")
		default:
			return nil, errors.New(strconv.Quote(string(r.Operator())) + " is not a valid label selector operator")
		}
		result.MatchExpressions = append(result.MatchExpressions, api.LabelSelectorRequirement{
			Key:      r.key,
			Operator: op,
			Values:   r.Values(),
		})
	}
	return result, nil
}

// SetAsLabelSelector returns the structured selector that requires exactly the
// given labels; nil gives nil.
func SetAsLabelSelector(labels Set) *api.LabelSelector {
	if labels == nil {
		return nil
	}
	return &api.LabelSelector{MatchLabels: maps.Clone(map[string]string(labels))}
}
