package labels

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
)

// The limits Kubernetes puts on names and labels.
const (
	// LabelValueMaxLength is the longest a label value, and the name part of a label
	// key, may be.
	LabelValueMaxLength = 63
	// DNS1123LabelMaxLength is the longest an RFC 1123 label may be.
	DNS1123LabelMaxLength = 63
	// DNS1123SubdomainMaxLength is the longest an RFC 1123 subdomain may be; most
	// object names, and label key prefixes, are subdomains.
	DNS1123SubdomainMaxLength = 253
	// DNS1035LabelMaxLength is the longest an RFC 1035 label may be.
	DNS1035LabelMaxLength = 63
)

// The messages below are the ones the Kubernetes API server writes, word for word,
// so that a learner who meets one here recognises it when a real cluster says it.
// Each pattern is printed in the message as the regular expression upstream checks
// with; this package checks the same language by hand, because the regexp package
// would add hundreds of kilobytes to the WebAssembly build.
const (
	qualifiedNamePattern = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	qualifiedNameMessage = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

	labelValuePattern = "(" + qualifiedNamePattern + ")?"
	labelValueMessage = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

	dns1123LabelPattern = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123LabelMessage = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"

	dns1123SubdomainPattern = dns1123LabelPattern + `(\.` + dns1123LabelPattern + ")*"
	dns1123SubdomainMessage = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"

	dns1035LabelPattern = "[a-z]([-a-z0-9]*[a-z0-9])?"
	dns1035LabelMessage = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
)

// IsQualifiedName checks a label key (and an annotation key): an optional prefix
// and a slash, then a name. The prefix must be a DNS-1123 subdomain; the name is
// 1 to 63 alphanumeric characters, '-', '_' or '.', starting and ending with an
// alphanumeric character. It returns one message per broken rule, or nil when the
// key is valid.
func IsQualifiedName(value string) []string {
	var problems []string
	name := value
	if slash := strings.IndexByte(value, '/'); slash >= 0 {
		prefix, rest := value[:slash], value[slash+1:]
		if strings.IndexByte(rest, '/') >= 0 {
			// Two slashes leave no reading of the key as prefix and name, so one
			// message that describes the whole format is all that helps.
			return []string{"a qualified name " +
				patternMessage(qualifiedNameMessage, qualifiedNamePattern, "MyName", "my.name", "123-abc") +
				" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
		}
		name = rest
		if prefix == "" {
			problems = append(problems, "prefix part must be non-empty")
		} else {
			for _, p := range IsDNS1123Subdomain(prefix) {
				problems = append(problems, "prefix part "+p)
			}
		}
	}
	switch {
	case name == "":
		problems = append(problems, "name part must be non-empty")
	case len(name) > LabelValueMaxLength:
		problems = append(problems, "name part "+tooLongMessage(LabelValueMaxLength))
	}
	if !isQualifiedNamePart(name) {
		problems = append(problems, "name part "+
			patternMessage(qualifiedNameMessage, qualifiedNamePattern, "MyName", "my.name", "123-abc"))
	}
	return problems
}

// IsValidLabelValue checks a label value: empty, or at most 63 alphanumeric
// characters, '-', '_' or '.', starting and ending with an alphanumeric character.
// It returns one message per broken rule, or nil when the value is valid.
func IsValidLabelValue(value string) []string {
	var problems []string
	if len(value) > LabelValueMaxLength {
		problems = append(problems, tooLongMessage(LabelValueMaxLength))
	}
	if value != "" && !isQualifiedNamePart(value) {
		problems = append(problems, patternMessage(labelValueMessage, labelValuePattern, "MyValue", "my_value", "12345"))
	}
	return problems
}

// IsDNS1123Label checks an RFC 1123 label, the format of namespace names: 1 to 63
// lower-case alphanumeric characters or '-', starting and ending with an
// alphanumeric character. It returns one message per broken rule, or nil.
func IsDNS1123Label(value string) []string {
	var problems []string
	if len(value) > DNS1123LabelMaxLength {
		problems = append(problems, tooLongMessage(DNS1123LabelMaxLength))
	}
	if !isDNS1123Label(value) {
		if isDNS1123Subdomain(value) {
			// The length was checked above, so a valid subdomain that is not a
			// valid label can only be wrong for its dots; say exactly that.
			problems = append(problems, "must not contain dots")
		} else {
			problems = append(problems, patternMessage(dns1123LabelMessage, dns1123LabelPattern, "my-name", "123-abc"))
		}
	}
	return problems
}

// IsDNS1123Subdomain checks an RFC 1123 subdomain, the format of most object names
// (pods, ReplicaSets, ReplicationControllers): at most 253 characters of
// dot-separated RFC 1123 labels. It returns one message per broken rule, or nil.
func IsDNS1123Subdomain(value string) []string {
	var problems []string
	if len(value) > DNS1123SubdomainMaxLength {
		problems = append(problems, tooLongMessage(DNS1123SubdomainMaxLength))
	}
	if !isDNS1123Subdomain(value) {
		problems = append(problems, patternMessage(dns1123SubdomainMessage, dns1123SubdomainPattern, "example.com"))
	}
	return problems
}

// IsDNS1035Label checks an RFC 1035 label, the format of service names: like an
// RFC 1123 label, but it must start with a letter. It returns one message per
// broken rule, or nil.
func IsDNS1035Label(value string) []string {
	var problems []string
	if len(value) > DNS1035LabelMaxLength {
		problems = append(problems, tooLongMessage(DNS1035LabelMaxLength))
	}
	if !isDNS1035Label(value) {
		problems = append(problems, patternMessage(dns1035LabelMessage, dns1035LabelPattern, "my-name", "abc-123"))
	}
	return problems
}

// NameValidator checks an object name. When prefix is true the name is a
// generateName: the API server will append random characters to it, so it may end
// in '-'. It returns one message per broken rule, or nil.
type NameValidator func(name string, prefix bool) []string

// NameIsDNSSubdomain is the NameValidator for kinds whose names are DNS-1123
// subdomains: pods, ReplicaSets, ReplicationControllers, nodes, events.
func NameIsDNSSubdomain(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1123Subdomain(name)
}

// NameIsDNSLabel is the NameValidator for kinds whose names are DNS-1123 labels,
// such as namespaces.
func NameIsDNSLabel(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1123Label(name)
}

// NameIsDNS1035Label is the NameValidator for kinds whose names are DNS-1035
// labels, such as services.
func NameIsDNS1035Label(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1035Label(name)
}

// ValidateGenerateNamePrefix checks a generateName for the kinds this model stores,
// whose names are DNS-1123 subdomains. A trailing '-' is allowed, because random
// characters will follow it.
func ValidateGenerateNamePrefix(generateName string) []string {
	return NameIsDNSSubdomain(generateName, true)
}

// ValidateObjectName checks metadata.name and metadata.generateName the way the
// API server does on create, after it has filled an empty name from generateName:
// the generateName, when set, must be a valid prefix; the name must be set and
// valid. Messages carry their field path, e.g.
// `metadata.name: Required value: name or generateName is required`.
func ValidateObjectName(name, generateName string, validate NameValidator) []string {
	var problems []string
	if generateName != "" {
		for _, p := range validate(generateName, true) {
			problems = append(problems, invalidValue("metadata.generateName", generateName, p))
		}
	}
	if name == "" {
		// Reported even when generateName was invalid: the name should have been
		// generated by now, so a missing one is worth saying on its own.
		problems = append(problems, "metadata.name: Required value: name or generateName is required")
	} else {
		for _, p := range validate(name, false) {
			problems = append(problems, invalidValue("metadata.name", name, p))
		}
	}
	return problems
}

// ValidateLabels checks every key and value of a label map, in key order, and
// returns messages that carry fieldPath, e.g.
// `metadata.labels: Invalid value: "Team A": a valid label must be ...`.
func ValidateLabels(labels map[string]string, fieldPath string) []string {
	var problems []string
	for _, key := range slices.Sorted(maps.Keys(labels)) {
		for _, p := range IsQualifiedName(key) {
			problems = append(problems, invalidValue(fieldPath, key, p))
		}
		value := labels[key]
		for _, p := range IsValidLabelValue(value) {
			problems = append(problems, invalidValue(fieldPath, value, p))
		}
	}
	return problems
}

// ValidateLabelSelector checks a structured selector as the API server checks
// spec.selector: matchLabels must be valid labels, and every matchExpression must
// use a known operator with the right number of values, a valid key and valid
// values. A nil selector has nothing to check. Messages carry fieldPath, e.g.
// `spec.selector.matchExpressions[0].operator: Invalid value: "in": not a valid selector operator`.
func ValidateLabelSelector(selector *api.LabelSelector, fieldPath string) []string {
	if selector == nil {
		return nil
	}
	problems := ValidateLabels(selector.MatchLabels, fieldPath+".matchLabels")
	for i, expr := range selector.MatchExpressions {
		path := fieldPath + ".matchExpressions[" + strconv.Itoa(i) + "]"
		switch expr.Operator {
		case api.LabelSelectorOpIn, api.LabelSelectorOpNotIn:
			if len(expr.Values) == 0 {
				problems = append(problems, path+".values: Required value: must be specified when `operator` is 'In' or 'NotIn'")
			}
		case api.LabelSelectorOpExists, api.LabelSelectorOpDoesNotExist:
			if len(expr.Values) > 0 {
				problems = append(problems, path+".values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
			}
		default:
			problems = append(problems, invalidValue(path+".operator", expr.Operator, "not a valid selector operator"))
		}
		for _, p := range IsQualifiedName(expr.Key) {
			problems = append(problems, invalidValue(path+".key", expr.Key, p))
		}
		for j, value := range expr.Values {
			for _, p := range IsValidLabelValue(value) {
				problems = append(problems, invalidValue(path+".values["+strconv.Itoa(j)+"]", value, p))
			}
		}
	}
	return problems
}

// maskTrailingDash makes a generateName ending in '-' checkable as a name, by
// standing in an 'a' for what the API server will append. It reproduces upstream
// exactly, including a quirk: upstream drops the two last characters, not one, before
// adding the 'a', so "b-" is checked as "a" and "foo.-" as "fooa" (and passes). A
// lone "-" is left alone and fails.
func maskTrailingDash(name string) string {
	if len(name) > 1 && name[len(name)-1] == '-' {
		return name[:len(name)-2] + "a"
	}
	return name
}

// isQualifiedNamePart reports whether s matches qualifiedNamePattern: non-empty,
// alphanumeric at both ends, and only alphanumerics, '-', '_' and '.' between.
func isQualifiedNamePart(s string) bool {
	if s == "" || !isAlphanumeric(s[0]) || !isAlphanumeric(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isAlphanumeric(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// isDNS1123Label reports whether s matches dns1123LabelPattern: non-empty,
// lower-case alphanumeric at both ends, and only those and '-' between.
func isDNS1123Label(s string) bool {
	if s == "" || !isLowerAlphanumeric(s[0]) || !isLowerAlphanumeric(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isLowerAlphanumeric(c) && c != '-' {
			return false
		}
	}
	return true
}

// isDNS1123Subdomain reports whether s matches dns1123SubdomainPattern: one or more
// RFC 1123 labels joined by single dots.
func isDNS1123Subdomain(s string) bool {
	for {
		label, rest, more := strings.Cut(s, ".")
		if !isDNS1123Label(label) {
			return false
		}
		if !more {
			return true
		}
		s = rest
	}
}

// isDNS1035Label reports whether s matches dns1035LabelPattern: an RFC 1123 label
// whose first character is a letter.
func isDNS1035Label(s string) bool {
	return s != "" && 'a' <= s[0] && s[0] <= 'z' && isDNS1123Label(s)
}

func isAlphanumeric(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isLowerAlphanumeric(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
}

func tooLongMessage(limit int) string {
	return "must be no more than " + strconv.Itoa(limit) + " characters"
}

// patternMessage appends the examples and the pattern to what a rule asks for, in
// the layout upstream uses: `rule (e.g. 'A',  or 'B', regex used for validation is
// 'P')`. The double space before "or" is upstream's; it is kept so messages read
// the same as a real cluster's.
func patternMessage(rule, pattern string, examples ...string) string {
	var b strings.Builder
	b.WriteString(rule)
	b.WriteString(" (e.g. ")
	for i, example := range examples {
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString("'" + example + "', ")
	}
	b.WriteString("regex used for validation is '" + pattern + "')")
	return b.String()
}

// invalidValue formats a field error as the API server prints one:
// `path: Invalid value: "value": detail`.
func invalidValue(path, value, detail string) string {
	return path + ": Invalid value: " + strconv.Quote(value) + ": " + detail
}
