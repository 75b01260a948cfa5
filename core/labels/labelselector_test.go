package labels

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// TestLabelSelectorAsSelector: nil selects nothing, empty selects everything, and
// matchLabels and matchExpressions become sorted requirements.
func TestLabelSelectorAsSelector(t *testing.T) {
	tests := []struct {
		name     string
		selector *api.LabelSelector
		want     string
		empty    bool
		matches  []Set
		misses   []Set
	}{
		{name: "nil selects nothing", selector: nil, want: "",
			misses: []Set{{}, {"app": "web"}}},
		{name: "empty selects everything", selector: &api.LabelSelector{}, want: "", empty: true,
			matches: []Set{{}, {"app": "web"}}},
		{name: "empty but non-nil fields select everything",
			selector: &api.LabelSelector{MatchLabels: map[string]string{}, MatchExpressions: []api.LabelSelectorRequirement{}},
			want:     "", empty: true, matches: []Set{{}}},
		{name: "matchLabels are equalities in key order",
			selector: &api.LabelSelector{MatchLabels: map[string]string{"tier": "front", "app": "web"}},
			want:     "app=web,tier=front",
			matches:  []Set{{"app": "web", "tier": "front", "x": "y"}},
			misses:   []Set{{"app": "web"}, {"app": "web", "tier": "back"}}},
		{name: "the benchmark selector, structured",
			selector: &api.LabelSelector{
				MatchLabels: map[string]string{"app": "web"},
				MatchExpressions: []api.LabelSelectorRequirement{
					{Key: "tier", Operator: api.LabelSelectorOpIn, Values: []string{"front", "back"}},
					{Key: "canary", Operator: api.LabelSelectorOpDoesNotExist},
				}},
			want:    "app=web,!canary,tier in (back,front)",
			matches: []Set{{"app": "web", "tier": "back"}},
			misses:  []Set{{"app": "web", "tier": "back", "canary": "true"}, {"app": "web"}}},
		{name: "notin and exists",
			selector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
				{Key: "env", Operator: api.LabelSelectorOpNotIn, Values: []string{"prod", "prod", "dev"}},
				{Key: "app", Operator: api.LabelSelectorOpExists},
			}},
			want:    "app,env notin (dev,prod)",
			matches: []Set{{"app": ""}, {"app": "x", "env": "test"}},
			misses:  []Set{{}, {"app": "x", "env": "prod"}}},
		{name: "a label and an expression on the same key keep their order",
			selector: &api.LabelSelector{
				MatchLabels:      map[string]string{"a": "b"},
				MatchExpressions: []api.LabelSelectorRequirement{{Key: "a", Operator: api.LabelSelectorOpExists}},
			},
			want: "a=b,a", matches: []Set{{"a": "b"}}, misses: []Set{{"a": "c"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := LabelSelectorAsSelector(tt.selector)
			require.NoError(t, err)
			assert.Equal(t, tt.want, sel.String())
			assert.Equal(t, tt.empty, sel.Empty())
			for _, set := range tt.matches {
				assert.True(t, sel.Matches(set), "should match %v", set)
			}
			for _, set := range tt.misses {
				assert.False(t, sel.Matches(set), "should not match %v", set)
			}
		})
	}
}

// TestLabelSelectorAsSelectorErrors: unknown operators and invalid requirements are
// errors that say what is wrong.
func TestLabelSelectorAsSelectorErrors(t *testing.T) {
	tests := []struct {
		name     string
		selector *api.LabelSelector
		want     string
	}{
		{"an operator of the string form", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "x", Operator: "Gt", Values: []string{"1"}}}}, `"Gt" is not a valid label selector operator`},
		{"operators are case-sensitive", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "x", Operator: "in", Values: []string{"1"}}}}, `"in" is not a valid label selector operator`},
		{"in without values", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "x", Operator: api.LabelSelectorOpIn}}}, "values set can't be empty"},
		{"exists with a value", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "x", Operator: api.LabelSelectorOpExists, Values: []string{"a"}}}}, "values set must be empty"},
		{"a bad label key, first in key order", &api.LabelSelector{MatchLabels: map[string]string{"b c": "x", "a b": "y"}},
			`key: Invalid value: "a b"`},
		{"a bad label value", &api.LabelSelector{MatchLabels: map[string]string{"a": "-x"}},
			`values[0][a]: Invalid value: "-x"`},
	}
	for _, tt := range tests {
		_, err := LabelSelectorAsSelector(tt.selector)
		assert.ErrorContains(t, err, tt.want, tt.name)
	}
}

// TestLabelSelectorAsMap: matchLabels and one-value In expressions convert to a
// map; other operators are errors, returned with the map built so far.
func TestLabelSelectorAsMap(t *testing.T) {
	m, err := LabelSelectorAsMap(nil)
	assert.NoError(t, err)
	assert.Nil(t, m)

	sel := &api.LabelSelector{
		MatchLabels:      map[string]string{"app": "web"},
		MatchExpressions: []api.LabelSelectorRequirement{{Key: "tier", Operator: api.LabelSelectorOpIn, Values: []string{"front"}}},
	}
	m, err = LabelSelectorAsMap(sel)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"app": "web", "tier": "front"}, m)
	m["changed"] = "yes"
	assert.NotContains(t, sel.MatchLabels, "changed", "the map is a copy")

	tests := []struct {
		expr api.LabelSelectorRequirement
		want string
	}{
		{api.LabelSelectorRequirement{Key: "t", Operator: api.LabelSelectorOpIn, Values: []string{"a", "b"}},
			`operator "In" without a single value cannot be converted into the old label selector format`},
		{api.LabelSelectorRequirement{Key: "t", Operator: api.LabelSelectorOpNotIn, Values: []string{"a"}},
			`operator "NotIn" cannot be converted into the old label selector format`},
		{api.LabelSelectorRequirement{Key: "t", Operator: api.LabelSelectorOpExists},
			`operator "Exists" cannot be converted into the old label selector format`},
		{api.LabelSelectorRequirement{Key: "t", Operator: "Lt"}, `"Lt" is not a valid selector operator`},
	}
	for _, tt := range tests {
		m, err := LabelSelectorAsMap(&api.LabelSelector{
			MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []api.LabelSelectorRequirement{tt.expr}})
		assert.EqualError(t, err, tt.want)
		assert.Equal(t, map[string]string{"app": "web"}, m, "the map built so far comes back")
	}
}

// TestFormatLabelSelector: kubectl's SELECTOR column shows the selector string,
// <none> for nil and empty selectors, and <error> for invalid ones.
func TestFormatLabelSelector(t *testing.T) {
	assert.Equal(t, "<none>", FormatLabelSelector(nil))
	assert.Equal(t, "<none>", FormatLabelSelector(&api.LabelSelector{}))
	assert.Equal(t, "app=web", FormatLabelSelector(&api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}))
	assert.Equal(t, "<error>", FormatLabelSelector(&api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
		{Key: "x", Operator: "Bogus"}}}))
}

// TestParseToLabelSelector: equalities become matchLabels and set operators
// matchExpressions; !=, > and < have no structured form.
func TestParseToLabelSelector(t *testing.T) {
	got, err := ParseToLabelSelector("app=web,tier in (front,back),!canary,track,env notin (prod),x==y")
	require.NoError(t, err)
	assert.Equal(t, &api.LabelSelector{
		MatchLabels: map[string]string{"app": "web", "x": "y"},
		MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "canary", Operator: api.LabelSelectorOpDoesNotExist},
			{Key: "env", Operator: api.LabelSelectorOpNotIn, Values: []string{"prod"}},
			{Key: "tier", Operator: api.LabelSelectorOpIn, Values: []string{"back", "front"}},
			{Key: "track", Operator: api.LabelSelectorOpExists},
		},
	}, got)

	empty, err := ParseToLabelSelector("")
	require.NoError(t, err)
	assert.NotNil(t, empty.MatchLabels)
	assert.NotNil(t, empty.MatchExpressions)

	_, err = ParseToLabelSelector("x>1")
	assert.EqualError(t, err, `"gt" isn't supported in label selectors`)
	_, err = ParseToLabelSelector("x!=1")
	assert.EqualError(t, err, `"!=" is not a valid label selector operator`)
	_, err = ParseToLabelSelector("x,,y")
	assert.ErrorContains(t, err, `couldn't parse the selector string "x,,y": found ','`)

	// The round trip: what comes back converts to a selector that prints the same.
	sel, err := LabelSelectorAsSelector(got)
	require.NoError(t, err)
	assert.Equal(t, "app=web,!canary,env notin (prod),tier in (back,front),track,x=y", sel.String())
}

// TestSetAsLabelSelector: a set becomes matchLabels, copied; nil stays nil.
func TestSetAsLabelSelector(t *testing.T) {
	assert.Nil(t, SetAsLabelSelector(nil))
	set := Set{"app": "web"}
	sel := SetAsLabelSelector(set)
	assert.Equal(t, &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, sel)
	set["app"] = "db"
	assert.Equal(t, "web", sel.MatchLabels["app"], "the labels are copied")
	assert.NotNil(t, SetAsLabelSelector(Set{}).MatchLabels)
}
