package labels

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// req builds a requirement that the test knows to be valid.
func req(t *testing.T, key string, op Operator, values ...string) Requirement {
	t.Helper()
	r, err := NewRequirement(key, op, values)
	require.NoError(t, err, "NewRequirement(%q, %q, %q)", key, op, values)
	return r
}

// TestSelectorParse: well-formed selectors parse and print back as written, less
// their spaces; malformed ones are rejected.
func TestSelectorParse(t *testing.T) {
	for _, input := range []string{
		"x=a,y=b,z=c",
		"",
		"x!=a,y=b",
		"x=",
		"x= ",
		"x=,z= ",
		"x= ,z= ",
		"!x",
		"x>1",
		"x>1,z<5",
	} {
		sel, err := Parse(input)
		if assert.NoError(t, err, "Parse(%q)", input) {
			assert.Equal(t, strings.ReplaceAll(input, " ", ""), sel.String(), "Parse(%q).String()", input)
		}
	}
	for _, input := range []string{
		"x=a||y=b", // "a||y" is not a valid value
		"x==a==b",  // a second operator where a comma should be
		"!x=a",     // "!x" takes no value
		"x<a",      // < needs an integer
	} {
		_, err := Parse(input)
		assert.Error(t, err, "Parse(%q)", input)
	}
}

// TestDeterministicParse: the order requirements are written in does not change
// the selector, because Parse sorts them by key.
func TestDeterministicParse(t *testing.T) {
	s1, err := Parse("x=a,a=x")
	require.NoError(t, err)
	s2, err := Parse("a=x,x=a")
	require.NoError(t, err)
	assert.Equal(t, s1.String(), s2.String())
	assert.Equal(t, "a=x,x=a", s1.String())
}

// TestParseOperator: the binary operators are accepted in operator position; "!",
// the word "exists" and "(" are not operators there.
func TestParseOperator(t *testing.T) {
	tests := []struct {
		input string
		want  opcode
	}{
		{"in", opIn},
		{"=", opEquals},
		{"==", opDoubleEquals},
		{">", opGreaterThan},
		{"<", opLessThan},
		{"notin", opNotIn},
		{"!=", opNotEquals},
	}
	for _, tt := range tests {
		p := parser{lex: lexer{input: tt.input}}
		op, err := p.parseOperator()
		assert.NoError(t, err, tt.input)
		assert.Equal(t, tt.want, op, tt.input)
	}
	for _, input := range []string{"!", "exists", "("} {
		p := parser{lex: lexer{input: input}}
		_, err := p.parseOperator()
		assert.EqualError(t, err, "found '"+input+"' at column 1, expected: in, notin, =, ==, !=, >, <")
	}
}

// TestSetSelectorParser: set-based selectors, with prefixed keys, odd whitespace,
// empty values, repeated values and the keywords as values, parse to the expected
// requirements; malformed ones are rejected.
func TestSetSelectorParser(t *testing.T) {
	valid := []struct {
		input string
		want  []Requirement
	}{
		{"", nil},
		{"\rx", []Requirement{req(t, "x", Exists)}},
		{"this-is-a-dns.domain.com/key-with-dash", []Requirement{req(t, "this-is-a-dns.domain.com/key-with-dash", Exists)}},
		{"this-is-another-dns.domain.com/key-with-dash in (so,what)", []Requirement{
			req(t, "this-is-another-dns.domain.com/key-with-dash", In, "so", "what")}},
		{"0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)", []Requirement{
			req(t, "0.1.2.domain/99", NotIn, "10.10.100.1", "tick.tack.clock")}},
		{"foo  in\t (abc)", []Requirement{req(t, "foo", In, "abc")}},
		{"x notin\n (abc)", []Requirement{req(t, "x", NotIn, "abc")}},
		{"x  notin\t\t\t(abc,def)", []Requirement{req(t, "x", NotIn, "abc", "def")}},
		{"x in (abc,def)", []Requirement{req(t, "x", In, "abc", "def")}},
		{"x in (abc,)", []Requirement{req(t, "x", In, "abc", "")}},
		{"x in (abc,abc)", []Requirement{req(t, "x", In, "abc")}},
		{"x in ()", []Requirement{req(t, "x", In, "")}},
		{"x in (a,,,)", []Requirement{req(t, "x", In, "a", "")}},
		{"x notin (abc,,def),bar,z in (),w", []Requirement{
			req(t, "bar", Exists), req(t, "w", Exists), req(t, "x", NotIn, "abc", "", "def"), req(t, "z", In, "")}},
		{"x,y in (a)", []Requirement{req(t, "x", Exists), req(t, "y", In, "a")}},
		{"x=a", []Requirement{req(t, "x", Equals, "a")}},
		{"x>1", []Requirement{req(t, "x", GreaterThan, "1")}},
		{"x<7", []Requirement{req(t, "x", LessThan, "7")}},
		{"x=a,y!=b", []Requirement{req(t, "x", Equals, "a"), req(t, "y", NotEquals, "b")}},
		{"x=a,y!=b,z in (h,i,j)", []Requirement{
			req(t, "x", Equals, "a"), req(t, "y", NotEquals, "b"), req(t, "z", In, "h", "i", "j")}},
		{"x notin ( )", []Requirement{req(t, "x", NotIn, "")}},
		{"x notin (, a)", []Requirement{req(t, "x", NotIn, "", "a")}},
		{"a ", []Requirement{req(t, "a", Exists)}},
		{"a in (x,y,notin, z,in)", []Requirement{req(t, "a", In, "in", "notin", "x", "y", "z")}},
	}
	for _, tt := range valid {
		sel, err := Parse(tt.input)
		if !assert.NoError(t, err, "Parse(%q)", tt.input) {
			continue
		}
		got, selectable := sel.Requirements()
		assert.True(t, selectable)
		assert.Equal(t, tt.want, got, "Parse(%q)", tt.input)
	}

	for _, input := range []string{
		"x=a||y=b",
		"x,,y",
		",x,y",
		"x nott in (y)",
		"a in (xyz),",
		"a in (xyz)b notin ()",
		"a in (xyz abc)", // no comma between values
		"a notin(",       // unclosed list
		"a (",            // no operator
		"(",
	} {
		_, err := Parse(input)
		assert.Error(t, err, "Parse(%q)", input)
	}
}

// TestParseValueListCorners pins the value-list behaviour that only a
// state-for-state copy of upstream's loop gets right: after ",," an identifier or
// another comma must follow, so "(a,,)" fails where "(a,,,)" passes.
func TestParseValueListCorners(t *testing.T) {
	tests := []struct {
		input string
		want  string // "" for a parse error
	}{
		{"x in (,)", "x in ()"},
		{"x in (,a)", "x in (,a)"},
		{"x in (,,a)", "x in (,a)"},
		{"x in (a,,b)", "x in (,a,b)"},
		{"x in (,,,)", "x in ()"},
		{"x in (a,,,)", "x in (,a)"},
		{"x in (a,,,,,)", "x in (,a)"},
		{"x in (a,,)", ""},
		{"x in (,,)", ""},
		{"x in (a,,,,)", ""},
	}
	for _, tt := range tests {
		sel, err := Parse(tt.input)
		if tt.want == "" {
			assert.Error(t, err, "Parse(%q)", tt.input)
			continue
		}
		if assert.NoError(t, err, "Parse(%q)", tt.input) {
			assert.Equal(t, tt.want, sel.String(), "Parse(%q)", tt.input)
		}
	}
}

// TestParseKeywordsAsWords: "in" and "notin" are keys or values anywhere but in
// operator position.
func TestParseKeywordsAsWords(t *testing.T) {
	for input, want := range map[string]string{
		"in in (in)":       "in in (in)",
		"notin=in":         "notin=in",
		"!in":              "!in",
		"in,notin":         "in,notin",
		"x = notin":        "x=notin",
		"notin notin (in)": "notin notin (in)",
	} {
		sel, err := Parse(input)
		if assert.NoError(t, err, "Parse(%q)", input) {
			assert.Equal(t, want, sel.String(), "Parse(%q)", input)
		}
	}
}

// TestParseIntegers: > and < take one base-10 integer within the int64 range, and
// the value must also be a valid label value, so signs are out.
func TestParseIntegers(t *testing.T) {
	for _, input := range []string{"x>0", "x<01", "x>9223372036854775807"} {
		_, err := Parse(input)
		assert.NoError(t, err, "Parse(%q)", input)
	}
	for _, input := range []string{"x>", "x<a", "x>-1", "x>+1", "x>1.5", "x>1e3", "x>0x1", "x>9223372036854775808"} {
		_, err := Parse(input)
		assert.Error(t, err, "Parse(%q)", input)
	}
}

// TestParseErrorMessages: errors say what was found, where, and what was
// expected, in upstream's shape.
func TestParseErrorMessages(t *testing.T) {
	tests := []struct{ input, want string }{
		{"x,,y", "found ',' at column 3, expected: identifier after ','"},
		{",x", "found ',' at column 1, expected: !, identifier, or end of string"},
		{"x=a,", "found end of string at column 5, expected: identifier after ','"},
		{"!x=a", "found '=' at column 3, expected: ',' or end of string"},
		{"x y", "unable to parse requirement: found 'y' at column 3, expected: in, notin, =, ==, !=, >, <"},
		{"x in a", "unable to parse requirement: found 'a' at column 6, expected: '('"},
		{"x in (a b)", "unable to parse requirement: found 'b' at column 9, expected: ',' or ')'"},
		{"x in (a,,)", "unable to parse requirement: found ')' at column 10, expected: ',', or identifier"},
		{"x in (=)", "unable to parse requirement: found '=' at column 7, expected: ',', ')' or identifier"},
		{"x=(", "unable to parse requirement: found '(' at column 3, expected: identifier"},
		{"!", "unable to parse requirement: found end of string at column 2, expected: identifier"},
		{"x>a", `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"-x", `unable to parse requirement: key: Invalid value: "-x": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
		{"x=" + strings.Repeat("v", 64), `unable to parse requirement: values[0][x]: Invalid value: "` + strings.Repeat("v", 64) + `": must be no more than 63 characters`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.input)
		assert.EqualError(t, err, tt.want, "Parse(%q)", tt.input)
	}
}

// TestParseRequirementsShareNoStorage: a parsed selector's requirements share one
// backing array for their values, and must not be able to write into each other.
func TestParseRequirementsShareNoStorage(t *testing.T) {
	sel, err := Parse("a in (x,y),b in (z)")
	require.NoError(t, err)
	a := sel.requirements[0].values
	assert.Equal(t, len(a), cap(a), "capacity is clipped")
	a = append(a, "intruder")
	assert.Equal(t, []string{"z"}, sel.requirements[1].values)
	assert.Len(t, a, 3)
}
