package labels

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/reconcilelab/rlab/core/api"
)

func assertValid(t *testing.T, name string, check func(string) []string, good, bad []string) {
	t.Helper()
	for _, v := range good {
		assert.Empty(t, check(v), "%s(%q) should pass", name, v)
	}
	for _, v := range bad {
		assert.NotEmpty(t, check(v), "%s(%q) should fail", name, v)
	}
}

func TestIsDNS1123Label(t *testing.T) {
	assertValid(t, "IsDNS1123Label", IsDNS1123Label,
		[]string{"a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2",
			strings.Repeat("a", 63)},
		[]string{"", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1",
			"_", "a_", "_a", "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "a.b", "1.", ".1", "1.2",
			" ", "a ", " a", "a b", "1 ", " 1", "1 2", strings.Repeat("a", 64), "a\n"})
}

func TestIsDNS1123Subdomain(t *testing.T) {
	assertValid(t, "IsDNS1123Subdomain", IsDNS1123Subdomain,
		[]string{"a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2",
			"a.a", "ab.a", "abc.a", "a1.a", "a-1.a", "a--1--2--b.a", "a.1", "ab.1", "abc.1", "a1.1", "a-1.1",
			"a--1--2--b.1", "0.a", "01.a", "012.a", "1a.a", "1-a.a", "0.1", "01.1", "012.1", "1a.1", "1-a.1",
			"1--a--b--2.1", "a.b.c.d.e", "aa.bb.cc.dd.ee", "1.2.3.4.5", "11.22.33.44.55", strings.Repeat("a", 253)},
		[]string{"", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1",
			"_", "a_", "_a", "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "a..b", "1.", ".1", "1..2",
			" ", "a ", " a", "a b", "1 ", " 1", "1 2", "A.a", "aB.a", "ab.A", "A1.a", "a1.A",
			"A.1", "aB.1", "A1.1", "1A.1", "0.A", "01.A", "012.A", "1A.a", "1a.A",
			"A.B.C.D.E", "AA.BB.CC.DD.EE", "a.B.c.d.e", "aa.bB.cc.dd.ee",
			"a@b", "a,b", "a_b", "a;b", "a:b", "a%b", "a?b", "a$b", strings.Repeat("a", 254)})
}

func TestIsDNS1035Label(t *testing.T) {
	assertValid(t, "IsDNS1035Label", IsDNS1035Label,
		[]string{"a", "ab", "abc", "a1", "a-1", "a--1--2--b", strings.Repeat("a", 63)},
		[]string{"0", "01", "012", "1a", "1-a", "1--a--b--2", "", "A", "ABC", "aBc", "A1", "A-1", "1-A",
			"-", "a-", "-a", "1-", "-1", "_", "a_", "_a", "a_b", "1_", "_1", "1_2",
			".", "a.", ".a", "a.b", "1.", ".1", "1.2", " ", "a ", " a", "a b", "1 ", " 1", "1 2",
			strings.Repeat("a", 64)})
}

func TestIsQualifiedName(t *testing.T) {
	assertValid(t, "IsQualifiedName", IsQualifiedName,
		[]string{"simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple", "now-with-dashes/simple",
			"now-with-dashes/now-with-dashes", "now.with.dots/simple", "now-with.dashes-and.dots/simple",
			"1-num.2-num/3-num", "1234/5678", "1.2.3.4/5678", "Uppercase_Is_OK_123",
			"example.com/Uppercase_Is_OK_123", "requests.storage-foo", strings.Repeat("a", 63),
			strings.Repeat("a", 253) + "/" + strings.Repeat("b", 63)},
		[]string{"nospecialchars%^=@", "cantendwithadash-", "-cantstartwithadash-", "only/one/slash",
			"Example.com/abc", "example_com/abc", "example.com/", "/simple", strings.Repeat("a", 64),
			strings.Repeat("a", 254) + "/abc", ""})
}

func TestIsValidLabelValue(t *testing.T) {
	assertValid(t, "IsValidLabelValue", IsValidLabelValue,
		[]string{"simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234",
			strings.Repeat("a", 63), ""},
		[]string{"nospecialchars%^=@", "Tama-nui-te-rā.is.Māori.sun", `\backslashes\are\bad`,
			"-starts-with-dash", "ends-with-dash-", ".starts.with.dot", "ends.with.dot.", strings.Repeat("a", 64)})
}

// TestValidationMessages: the messages are the API server's, word for word.
func TestValidationMessages(t *testing.T) {
	assert.Equal(t, []string{"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', " +
		"and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', " +
		"regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
		IsValidLabelValue("-x"))
	assert.Equal(t, []string{"must be no more than 63 characters"}, IsValidLabelValue(strings.Repeat("a", 64)))
	assert.Equal(t, []string{"must not contain dots"}, IsDNS1123Label("a.b"))
	assert.Equal(t, []string{"must be no more than 253 characters"}, IsDNS1123Subdomain(strings.Repeat("a", 254)))
	assert.Equal(t, []string{"a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with " +
		"an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', " +
		"regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"}, IsDNS1035Label("1a"))

	// An empty name part breaks two rules; an over-long valid one only the length.
	assert.Equal(t, []string{"prefix part must be non-empty", "name part must be non-empty",
		"name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an " +
			"alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is " +
			"'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"}, IsQualifiedName("/"))
	assert.Equal(t, []string{"name part must be no more than 63 characters"}, IsQualifiedName(strings.Repeat("a", 64)))
	assert.Equal(t, []string{"a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must " +
		"start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used " +
		"for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and " +
		"'/' (e.g. 'example.com/MyName')"}, IsQualifiedName("a/b/c"))
	prefix := IsQualifiedName("Example.com/abc")
	if assert.Len(t, prefix, 1) {
		assert.True(t, strings.HasPrefix(prefix[0], "prefix part a lowercase RFC 1123 subdomain must consist of"), prefix[0])
	}
}

// TestValidatorsDoNotAllocateOnValidInput: Parse checks every key and value, so
// the happy path must be free.
func TestValidatorsDoNotAllocateOnValidInput(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		_ = IsQualifiedName("example.com/app")
		_ = IsValidLabelValue("web-1")
		_ = IsDNS1123Subdomain("a.b.c")
	})
	assert.Zero(t, allocs)
}

// TestMaskTrailingDash pins upstream's masking, quirk included: the two last
// characters are replaced by an 'a'.
func TestMaskTrailingDash(t *testing.T) {
	tests := map[string]string{
		"":      "",
		"-":     "-",
		"-foo":  "-foo",
		"-foo-": "-foa",
		"b-":    "a",
		"ab":    "ab",
		"foo.-": "fooa",
	}
	for in, want := range tests {
		assert.Equal(t, want, maskTrailingDash(in), "%q", in)
	}
}

// TestNameValidators: a generateName may end in '-', a name may not.
func TestNameValidators(t *testing.T) {
	assert.Empty(t, NameIsDNSSubdomain("web-", true))
	assert.NotEmpty(t, NameIsDNSSubdomain("web-", false))
	assert.Empty(t, NameIsDNSSubdomain("web.example", false))
	assert.NotEmpty(t, NameIsDNSSubdomain("-", true), "a lone dash is not masked")
	assert.Empty(t, NameIsDNSLabel("ns-", true))
	assert.NotEmpty(t, NameIsDNSLabel("a.b", false))
	assert.Empty(t, NameIsDNS1035Label("svc-", true))
	assert.NotEmpty(t, NameIsDNS1035Label("1svc", false))

	assert.Empty(t, ValidateGenerateNamePrefix("web-"))
	assert.Empty(t, ValidateGenerateNamePrefix("web"))
	assert.NotEmpty(t, ValidateGenerateNamePrefix("Web-"))
	assert.Empty(t, ValidateGenerateNamePrefix("web.-"), "upstream's masking lets this through")
}

// TestValidateObjectName: the checks the API store runs on create, with field
// paths in the messages.
func TestValidateObjectName(t *testing.T) {
	assert.Empty(t, ValidateObjectName("web-x7k2p", "web-", NameIsDNSSubdomain))
	assert.Empty(t, ValidateObjectName("web", "", NameIsDNSSubdomain))
	assert.Equal(t, []string{"metadata.name: Required value: name or generateName is required"},
		ValidateObjectName("", "", NameIsDNSSubdomain))

	problems := ValidateObjectName("Web", "Web-", NameIsDNSSubdomain)
	if assert.Len(t, problems, 2) {
		assert.True(t, strings.HasPrefix(problems[0], `metadata.generateName: Invalid value: "Web-": a lowercase RFC 1123 subdomain`), problems[0])
		assert.True(t, strings.HasPrefix(problems[1], `metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain`), problems[1])
	}
}

// TestValidateLabels: keys and values are checked in key order.
func TestValidateLabels(t *testing.T) {
	assert.Empty(t, ValidateLabels(map[string]string{"app": "web", "example.com/tier": ""}, "metadata.labels"))
	assert.Empty(t, ValidateLabels(nil, "metadata.labels"))
	problems := ValidateLabels(map[string]string{"b": "-bad", "a b": "ok"}, "metadata.labels")
	if assert.Len(t, problems, 2) {
		assert.True(t, strings.HasPrefix(problems[0], `metadata.labels: Invalid value: "a b": name part must consist of`), problems[0])
		assert.True(t, strings.HasPrefix(problems[1], `metadata.labels: Invalid value: "-bad": a valid label must be`), problems[1])
	}
}

// TestValidateLabelSelector: the API server's checks of spec.selector.
func TestValidateLabelSelector(t *testing.T) {
	assert.Empty(t, ValidateLabelSelector(nil, "spec.selector"))
	assert.Empty(t, ValidateLabelSelector(&api.LabelSelector{
		MatchLabels: map[string]string{"app": "web"},
		MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "tier", Operator: api.LabelSelectorOpIn, Values: []string{"front"}},
			{Key: "canary", Operator: api.LabelSelectorOpDoesNotExist},
		},
	}, "spec.selector"))

	problems := ValidateLabelSelector(&api.LabelSelector{
		MatchLabels: map[string]string{"app": "-web"},
		MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "tier", Operator: api.LabelSelectorOpIn},
			{Key: "canary", Operator: api.LabelSelectorOpExists, Values: []string{"x"}},
			{Key: "Bad Key", Operator: "in", Values: []string{"a b"}},
		},
	}, "spec.selector")
	assert.Len(t, problems, 6)
	assert.Contains(t, problems, "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'")
	assert.Contains(t, problems, "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
	assert.Contains(t, problems, `spec.selector.matchExpressions[2].operator: Invalid value: "in": not a valid selector operator`)
	assert.True(t, strings.HasPrefix(problems[0], `spec.selector.matchLabels: Invalid value: "-web": `), problems[0])
	assert.True(t, strings.HasPrefix(problems[4], `spec.selector.matchExpressions[2].key: Invalid value: "Bad Key": `), problems[4])
	assert.True(t, strings.HasPrefix(problems[5], `spec.selector.matchExpressions[2].values[0]: Invalid value: "a b": `), problems[5])
}
