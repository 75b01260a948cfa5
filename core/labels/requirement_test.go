package labels

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRequirementConstructor: NewRequirement enforces the number of values each
// operator takes, integers for > and <, valid keys and values, and known
// operators.
func TestRequirementConstructor(t *testing.T) {
	tests := []struct {
		name    string
		key     string
		op      Operator
		values  []string
		wantErr string // a fragment of the error; "" when valid
	}{
		{"in needs a value", "x1", In, nil, "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty"},
		{"notin needs a value", "x2", NotIn, []string{}, "values set can't be empty"},
		{"in with one value", "x3", In, []string{"foo"}, ""},
		{"notin with one value", "x4", NotIn, []string{"foo"}, ""},
		{"equals takes one value", "x5", Equals, []string{"bar", "foo"}, `values: Invalid value: ["bar", "foo"]: exact-match compatibility requires one single value`},
		{"exists", "x6", Exists, nil, ""},
		{"does not exist", "x7", DoesNotExist, nil, ""},
		{"exists takes no value", "x8", Exists, []string{"foo"}, "values set must be empty for exists and does not exist"},
		{"in", "x9", In, []string{"bar"}, ""},
		{"in again", "x10", In, []string{"bar"}, ""},
		{"greater than", "x11", GreaterThan, []string{"1"}, ""},
		{"less than", "x12", LessThan, []string{"6"}, ""},
		{"greater than needs a value", "x13", GreaterThan, nil, "for 'Gt', 'Lt' operators, exactly one value is required"},
		{"greater than needs an integer", "x14", GreaterThan, []string{"bar"}, `values[0]: Invalid value: "bar": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"less than needs an integer", "x15", LessThan, []string{"bar"}, "the value must be an integer"},
		{"key too long", strings.Repeat("a", 254), Exists, nil, "key: Invalid value: "},
		{"value too long", "x16", Equals, []string{strings.Repeat("a", 254)}, "values[0][x16]: Invalid value: "},
		{"value with a space", "x17", Equals, []string{"a b"}, `values[0][x17]: Invalid value: "a b": a valid label must be`},
		{"unknown operator", "x18", "unsupportedOp", nil, `operator: Unsupported value: "unsupportedOp": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"`},
		{"not equals", "x19", NotEquals, []string{""}, ""},
		{"double equals", "x20", DoubleEquals, []string{"v"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewRequirement(tt.key, tt.op, tt.values)
			if tt.wantErr == "" {
				require.NoError(t, err)
				assert.Equal(t, tt.key, r.Key())
				assert.Equal(t, tt.op, r.Operator())
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.Equal(t, Requirement{}, r, "a failed construction returns the zero Requirement")
		})
	}
}

// TestRequirementConstructorReportsEveryProblem: all broken rules are listed, in
// brackets, as upstream prints an aggregate.
func TestRequirementConstructorReportsEveryProblem(t *testing.T) {
	_, err := NewRequirement("A B", In, []string{"a b", "c d"})
	require.Error(t, err)
	msg := err.Error()
	assert.True(t, strings.HasPrefix(msg, `[key: Invalid value: "A B": `), msg)
	assert.Contains(t, msg, `, values[0][A B]: Invalid value: "a b": `)
	assert.Contains(t, msg, `, values[1][A B]: Invalid value: "c d": `)
	assert.True(t, strings.HasSuffix(msg, "]"), msg)
}

// TestRequirementValues: values are copied, sorted and de-duplicated, so the
// caller may reuse its slice, and Values hands out a copy.
func TestRequirementValues(t *testing.T) {
	given := []string{"b", "a", "b"}
	r := req(t, "x", In, given...)
	given[0] = "changed"
	assert.Equal(t, []string{"a", "b"}, r.Values())
	assert.Equal(t, "x in (a,b)", r.String())

	out := r.Values()
	out[0] = "changed"
	assert.Equal(t, []string{"a", "b"}, r.Values())
}

// TestRequirementSelectorMatching: requirements combined into selectors match as
// the operators say, including absent keys, empty values and numbers.
func TestRequirementSelectorMatching(t *testing.T) {
	tests := []struct {
		name  string
		set   Set
		reqs  []Requirement
		match bool
	}{
		{"the zero requirement matches nothing", Set{"x": "foo", "y": "baz"}, []Requirement{{}}, false},
		{"in and notin both hold", Set{"x": "foo", "y": "baz"}, []Requirement{
			req(t, "x", In, "foo"), req(t, "y", NotIn, "alpha")}, true},
		{"in fails on another value", Set{"x": "foo", "y": "baz"}, []Requirement{
			req(t, "x", In, "foo"), req(t, "y", In, "alpha")}, false},
		{"notin matches an absent key", Set{"y": ""}, []Requirement{
			req(t, "x", NotIn, ""), req(t, "y", Exists)}, true},
		{"an empty value counts as present", Set{"y": ""}, []Requirement{
			req(t, "x", DoesNotExist), req(t, "y", Exists)}, true},
		{"does not exist fails on an empty value", Set{"y": ""}, []Requirement{
			req(t, "x", NotIn, ""), req(t, "y", DoesNotExist)}, false},
		{"in fails on an absent key, even for the empty value", Set{"y": "baz"}, []Requirement{
			req(t, "x", In, "")}, false},
		{"greater than compares numbers", Set{"z": "2"}, []Requirement{req(t, "z", GreaterThan, "1")}, true},
		{"greater than fails on a non-number", Set{"z": "v2"}, []Requirement{req(t, "z", GreaterThan, "1")}, false},
	}
	for _, tt := range tests {
		sel := Everything().Add(tt.reqs...)
		assert.Equal(t, tt.match, sel.Matches(tt.set), tt.name)
	}
}

// TestRequirementMatchesEachOperator goes through every operator against a
// present value, another value, an empty value and an absent key.
func TestRequirementMatchesEachOperator(t *testing.T) {
	sets := []Set{{"k": "v"}, {"k": "w"}, {"k": ""}, {}}
	tests := []struct {
		r    Requirement
		want []bool // for each of sets
	}{
		{req(t, "k", Equals, "v"), []bool{true, false, false, false}},
		{req(t, "k", DoubleEquals, "v"), []bool{true, false, false, false}},
		{req(t, "k", In, "v", "x"), []bool{true, false, false, false}},
		{req(t, "k", NotEquals, "v"), []bool{false, true, true, true}},
		{req(t, "k", NotIn, "v", "x"), []bool{false, true, true, true}},
		{req(t, "k", Exists), []bool{true, true, true, false}},
		{req(t, "k", DoesNotExist), []bool{false, false, false, true}},
		{req(t, "k", Equals, ""), []bool{false, false, true, false}},
		{req(t, "k", NotIn, ""), []bool{true, true, false, true}},
	}
	for _, tt := range tests {
		for i, set := range sets {
			assert.Equal(t, tt.want[i], tt.r.Matches(set), "%s on %v", tt.r, set)
		}
	}
}

// TestRequirementComparisons: > and < read the label as a base-10 int64, signs
// and leading zeros allowed, and never match what is not such a number.
func TestRequirementComparisons(t *testing.T) {
	gt := req(t, "n", GreaterThan, "5")
	lt := req(t, "n", LessThan, "5")
	tests := []struct {
		value  string
		gt, lt bool
	}{
		{"6", true, false},
		{"5", false, false},
		{"4", false, true},
		{"-7", false, true},
		{"+6", true, false},
		{"0006", true, false},
		{"9223372036854775807", true, false},
		{"-9223372036854775808", false, true},
		{"9223372036854775808", false, false}, // out of range: not a number
		{"", false, false},
		{"six", false, false},
		{"6.0", false, false},
		{" 6", false, false},
	}
	for _, tt := range tests {
		set := Set{"n": tt.value}
		assert.Equal(t, tt.gt, gt.Matches(set), "n>5 on %q", tt.value)
		assert.Equal(t, tt.lt, lt.Matches(set), "n<5 on %q", tt.value)
	}
	assert.False(t, gt.Matches(Set{}), "an absent key is no number")
	assert.False(t, lt.Matches(Set{}), "an absent key is no number")
}

// TestParseInt64AgreesWithStrconv: the allocation-free integer reader accepts
// exactly what strconv.ParseInt(s, 10, 64) accepts, with the same value.
func TestParseInt64AgreesWithStrconv(t *testing.T) {
	inputs := []string{
		"", "0", "-0", "+0", "1", "-1", "+1", "01", "+", "-", "--1", "+-1", "1-", " 1", "1 ",
		"1_000", "0x10", "1e3", "1.0", "٣",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "99999999999999999999999",
		"000000000000000000000000000000000000009223372036854775807",
		"922337203685477580", "922337203685477581", "9223372036854775799",
	}
	for i := range 2000 {
		inputs = append(inputs, strconv.Itoa(i*7919-5000), strconv.FormatInt(int64(i)*4611686018427387, 10))
	}
	for _, s := range inputs {
		want, err := strconv.ParseInt(s, 10, 64)
		got, ok := parseInt64(s)
		assert.Equal(t, err == nil, ok, "%q", s)
		if err == nil {
			assert.Equal(t, want, got, "%q", s)
		}
	}
}

// TestRequirementString: each operator prints in selector syntax; the zero
// requirement prints as nothing.
func TestRequirementString(t *testing.T) {
	tests := []struct {
		r    Requirement
		want string
	}{
		{Requirement{}, ""},
		{req(t, "x", Exists), "x"},
		{req(t, "x", DoesNotExist), "!x"},
		{req(t, "x", Equals, "a"), "x=a"},
		{req(t, "x", DoubleEquals, "a"), "x==a"},
		{req(t, "x", NotEquals, ""), "x!="},
		{req(t, "x", GreaterThan, "01"), "x>01"},
		{req(t, "x", LessThan, "2"), "x<2"},
		{req(t, "x", In, "b", "a"), "x in (a,b)"},
		{req(t, "x", NotIn, ""), "x notin ()"},
		{req(t, "example.com/x", NotIn, "", "a"), "example.com/x notin (,a)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.r.String())
	}
}

// TestRequirementLongValueList: long value lists match as short ones do.
func TestRequirementLongValueList(t *testing.T) {
	values := make([]string, 50)
	for i := range values {
		values[i] = "v" + strconv.Itoa(i)
	}
	in := req(t, "k", In, values...)
	notIn := req(t, "k", NotIn, values...)
	for i := range 60 {
		set := Set{"k": "v" + strconv.Itoa(i)}
		assert.Equal(t, i < 50, in.Matches(set), "v%d", i)
		assert.Equal(t, i >= 50, notIn.Matches(set), "v%d", i)
	}
}
