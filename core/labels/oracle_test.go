//go:build !js

// This file uses the upstream modules (k8s.io, gopkg.in/yaml.v2) as oracles,
// so it runs natively only: the js/wasm run of make test runs the package's
// other tests under node, and neither it nor the js/wasm lint compiles the
// oracles for WebAssembly, where they never run.

// This file compares the package with upstream k8s.io/apimachinery, the judge of
// fidelity (see DESIGN.md, "Fidelity oracles"). Upstream is imported by tests
// only; it never reaches the WebAssembly build.

package labels

import (
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	k8slabels "k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/reconcilelab/rlab/core/api"
)

// FuzzSelectorDifferential parses each input with this package and with upstream.
// Both must accept it or both must reject it; when both accept, the selectors must
// print the same, have the same requirements, and agree on Matches for label sets
// built from the words of the input.
func FuzzSelectorDifferential(f *testing.F) {
	for _, seed := range differentialSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		if problem := compareWithUpstream(input); problem != "" {
			t.Fatal(problem)
		}
	})
}

// TestSelectorDifferentialCorpus runs the fuzz comparison on a fixed, generated
// corpus, so every test run covers it: well-formed selectors from the grammar,
// and the same selectors mutated a byte or two at a time. A failure prints the
// exact input, which can be added to differentialSeeds.
func TestSelectorDifferentialCorpus(t *testing.T) {
	const inputs = 20_000
	rng := rand.New(rand.NewPCG(20240611, 1))
	accepted, disagreements := 0, 0
	for i := range inputs {
		input := generateSelector(rng)
		if rng.IntN(3) == 0 {
			input = mutate(rng, input)
		}
		if _, err := k8slabels.Parse(input); err == nil {
			accepted++
		}
		if problem := compareWithUpstream(input); problem != "" {
			disagreements++
			if disagreements <= 10 {
				t.Errorf("input #%d: %s", i, problem)
			}
		}
	}
	assert.Zero(t, disagreements, "disagreements with upstream")
	// The generator is only useful if it exercises both outcomes in bulk.
	assert.Greater(t, accepted, inputs/4, "too few inputs upstream accepts")
	assert.Less(t, accepted, inputs*3/4, "too few inputs upstream rejects")
}

// TestSelectorDifferentialSeeds runs every seed of the fuzz target, with its
// name, so that a seed that regresses is reported on its own.
func TestSelectorDifferentialSeeds(t *testing.T) {
	for _, input := range differentialSeeds() {
		if problem := compareWithUpstream(input); problem != "" {
			t.Error(problem)
		}
	}
}

// TestLabelSelectorDifferential compares LabelSelectorAsSelector, FormatLabelSelector
// and LabelSelectorAsMap with upstream's metav1 helpers on generated structured
// selectors.
//
// One difference is deliberate: this package stores the values of an In or NotIn
// requirement de-duplicated, where upstream keeps a repeated value and prints it
// twice ("x in (a,a)"). Upstream is therefore handed the selector with repeated
// values removed; every other field goes to both as generated.
//
// The generator stays at twelve requirements or fewer: beyond that upstream's
// order of same-key requirements depends on Go's random map iteration, so upstream
// does not agree with itself.
func TestLabelSelectorDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 5_000 {
		ours := generateLabelSelector(rng)
		theirs := toUpstreamLabelSelector(ours, true)
		name := fmt.Sprintf("selector #%d %s", i, describeLabelSelector(ours))

		sel, err := LabelSelectorAsSelector(ours)
		upSel, upErr := metav1.LabelSelectorAsSelector(theirs)
		require.Equal(t, upErr != nil, err != nil, "%s: errors differ: ours %v, upstream %v", name, err, upErr)
		if upErr != nil && strings.Contains(upErr.Error(), "is not a valid label selector operator") {
			require.EqualError(t, err, upErr.Error(), name)
		}
		if err == nil {
			require.Empty(t, selectorInvariantProblem(sel), name)
			require.Equal(t, upSel.String(), sel.String(), name)
			require.Equal(t, upSel.Empty(), sel.Empty(), name)
			for _, set := range labelSetsFor(rng, selectorWords(ours)) {
				require.Equal(t, upSel.Matches(k8slabels.Set(set)), sel.Matches(set), "%s on %v", name, set)
			}
		}
		require.Equal(t, metav1.FormatLabelSelector(theirs), FormatLabelSelector(ours), name)

		// LabelSelectorAsMap keeps the values as given, so upstream gets them all.
		m, err := LabelSelectorAsMap(ours)
		upM, upErr := metav1.LabelSelectorAsMap(toUpstreamLabelSelector(ours, false))
		require.Equal(t, upErr != nil, err != nil, "%s: LabelSelectorAsMap errors differ: ours %v, upstream %v", name, err, upErr)
		if upErr != nil {
			require.EqualError(t, err, upErr.Error(), name)
		}
		require.Equal(t, upM, m, name)
	}
}

// TestParseToLabelSelectorDifferential compares ParseToLabelSelector with
// upstream's on the generated selector strings.
func TestParseToLabelSelectorDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for range 5_000 {
		input := generateSelector(rng)
		ours, err := ParseToLabelSelector(input)
		theirs, upErr := metav1.ParseToLabelSelector(input)
		require.Equal(t, upErr != nil, err != nil, "%q: ours %v, upstream %v", input, err, upErr)
		if upErr != nil {
			continue
		}
		require.Equal(t, theirs.MatchLabels, ours.MatchLabels, "%q", input)
		require.Len(t, ours.MatchExpressions, len(theirs.MatchExpressions), "%q", input)
		for i, e := range theirs.MatchExpressions {
			got := ours.MatchExpressions[i]
			assert.Equal(t, e.Key, got.Key, "%q", input)
			assert.Equal(t, string(e.Operator), got.Operator, "%q", input)
			assert.Equal(t, slices.Clip(e.Values), append([]string{}, got.Values...), "%q", input)
		}
	}
}

// TestValidationDifferential compares every validation function with upstream's,
// message for message, on generated names: valid ones, near misses (case, edge
// characters, dots, slashes) and lengths around every limit.
func TestValidationDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	inputs := []string{"", "-", "a-", "b-", "-a-", "a.-", "a..b", "a/b", "/", "a/", "/a", "a/b/c", "Example.com/x"}
	for range 6_000 {
		inputs = append(inputs, generateName(rng))
	}
	checks := []struct {
		name     string
		ours     func(string) []string
		upstream func(string) []string
	}{
		{"IsQualifiedName", IsQualifiedName, validation.IsQualifiedName},
		{"IsValidLabelValue", IsValidLabelValue, validation.IsValidLabelValue},
		{"IsDNS1123Label", IsDNS1123Label, validation.IsDNS1123Label},
		{"IsDNS1123Subdomain", IsDNS1123Subdomain, validation.IsDNS1123Subdomain},
		{"IsDNS1035Label", IsDNS1035Label, validation.IsDNS1035Label},
		{"NameIsDNSSubdomain(prefix)", func(s string) []string { return NameIsDNSSubdomain(s, true) },
			func(s string) []string { return apivalidation.NameIsDNSSubdomain(s, true) }},
		{"NameIsDNSLabel(prefix)", func(s string) []string { return NameIsDNSLabel(s, true) },
			func(s string) []string { return apivalidation.NameIsDNSLabel(s, true) }},
		{"NameIsDNS1035Label(prefix)", func(s string) []string { return NameIsDNS1035Label(s, true) },
			func(s string) []string { return apivalidation.NameIsDNS1035Label(s, true) }},
	}
	for _, input := range inputs {
		for _, c := range checks {
			require.Equal(t, c.upstream(input), c.ours(input), "%s(%q)", c.name, input)
		}
		meta := metav1.ObjectMeta{Name: input, GenerateName: inputs[len(input)%len(inputs)]}
		want := fieldMessages(apivalidation.ValidateObjectMeta(&meta, false, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata")))
		require.Equal(t, want, ValidateObjectName(meta.Name, meta.GenerateName, NameIsDNSSubdomain), "ValidateObjectName(%q, %q)", meta.Name, meta.GenerateName)
	}
}

// TestLabelValidationDifferential compares ValidateLabels and
// ValidateLabelSelector with upstream's metav1 validation. Upstream reports
// matchLabels problems in random map order, so the lists are compared sorted.
func TestLabelValidationDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 23))
	for range 2_000 {
		labels := map[string]string{}
		for range rng.IntN(4) {
			labels[pick(rng, genKeys)] = pick(rng, genValues)
		}
		want := fieldMessages(metav1validation.ValidateLabels(labels, field.NewPath("metadata", "labels")))
		got := ValidateLabels(labels, "metadata.labels")
		require.ElementsMatch(t, want, got, "ValidateLabels(%v)", labels)

		sel := generateLabelSelector(rng)
		want = fieldMessages(metav1validation.ValidateLabelSelector(toUpstreamLabelSelector(sel, false),
			metav1validation.LabelSelectorValidationOptions{}, field.NewPath("spec", "selector")))
		got = ValidateLabelSelector(sel, "spec.selector")
		require.ElementsMatch(t, want, got, "ValidateLabelSelector(%s)", describeLabelSelector(sel))
	}
}

func fieldMessages(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// generateName writes a name-like string: mostly the characters names allow, now
// and then one they do not, at lengths around the limits of 63 and 253.
func generateName(rng *rand.Rand) string {
	const (
		common = "abcxyz0189-."
		rare   = "ABZ_/ @~é"
	)
	var n int
	switch rng.IntN(10) {
	case 0:
		n = 60 + rng.IntN(8)
	case 1:
		n = 250 + rng.IntN(8)
	default:
		n = rng.IntN(12)
	}
	b := make([]byte, 0, n)
	for range n {
		if rng.IntN(12) == 0 {
			b = append(b, rare[rng.IntN(len(rare))])
		} else {
			b = append(b, common[rng.IntN(len(common))])
		}
	}
	return string(b)
}

// compareWithUpstream returns "" when this package and upstream agree on input,
// and otherwise a description of the first difference that quotes the input.
func compareWithUpstream(input string) string {
	ours, err := Parse(input)
	theirs, upErr := k8slabels.Parse(input)
	if (err != nil) != (upErr != nil) {
		return fmt.Sprintf("Parse(%q): ours: %v; upstream: %v", input, errText(err), errText(upErr))
	}
	if err != nil {
		return ""
	}
	if problem := selectorInvariantProblem(ours); problem != "" {
		return fmt.Sprintf("Parse(%q): %s", input, problem)
	}
	if got, want := ours.String(), theirs.String(); got != want {
		return fmt.Sprintf("Parse(%q).String(): ours %q, upstream %q", input, got, want)
	}
	if got, want := ours.Empty(), theirs.Empty(); got != want {
		return fmt.Sprintf("Parse(%q).Empty(): ours %v, upstream %v", input, got, want)
	}
	reqs, _ := ours.Requirements()
	upReqs, _ := theirs.Requirements()
	if len(reqs) != len(upReqs) {
		return fmt.Sprintf("Parse(%q): ours has %d requirements, upstream %d", input, len(reqs), len(upReqs))
	}
	for i, r := range reqs {
		up := upReqs[i]
		if r.Key() != up.Key() || string(r.Operator()) != string(up.Operator()) || !slices.Equal(r.Values(), up.Values().List()) {
			return fmt.Sprintf("Parse(%q): requirement %d: ours %s %q %q, upstream %s %q %q",
				input, i, r.Key(), r.Operator(), r.Values(), up.Key(), up.Operator(), up.Values().List())
		}
		v, ok := ours.RequiresExactMatch(r.Key())
		upV, upOK := theirs.RequiresExactMatch(r.Key())
		if v != upV || ok != upOK {
			return fmt.Sprintf("Parse(%q).RequiresExactMatch(%q): ours %q %v, upstream %q %v", input, r.Key(), v, ok, upV, upOK)
		}
	}
	rng := rand.New(rand.NewPCG(fnvHash(input), 0))
	for _, set := range labelSetsFor(rng, inputWords(input)) {
		if got, want := ours.Matches(set), theirs.Matches(k8slabels.Set(set)); got != want {
			return fmt.Sprintf("Parse(%q).Matches(%v): ours %v, upstream %v", input, set, got, want)
		}
	}
	return ""
}

func errText(err error) string {
	if err == nil {
		return "accepted"
	}
	return "rejected: " + err.Error()
}

func fnvHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// inputWords splits a selector string into the words between its operators and
// spaces: the candidate keys and values of the label sets it is tested on.
func inputWords(input string) []string {
	words := strings.FieldsFunc(input, func(r rune) bool {
		return r == 0 || strings.ContainsRune(" \t\r\n=!(),<>", r)
	})
	slices.Sort(words)
	return slices.Compact(words)
}

// labelSetsFor builds label sets that probe a selector over the given words:
// the empty set, sets where each word is a key with a word, an empty or a
// numeric value, and sets with keys left out, so that present, absent, equal,
// different, empty and numeric cases all come up.
func labelSetsFor(rng *rand.Rand, words []string) []Set {
	values := append(slices.Clone(words), "", "0", "1", "2", "5", "-1", "+3", "10", "v2", "007",
		"9223372036854775807", "-9223372036854775808", "9223372036854775808")
	sets := []Set{{}}
	if len(words) == 0 {
		return append(sets, Set{"x": "y"})
	}
	for range 12 {
		set := Set{}
		for _, w := range words {
			switch rng.IntN(4) {
			case 0: // absent
			case 1:
				set[w] = words[rng.IntN(len(words))]
			default:
				set[w] = values[rng.IntN(len(values))]
			}
		}
		sets = append(sets, set)
	}
	// Every word a key whose value is the word itself: what "k=k" and "k in (k)"
	// want.
	all := Set{}
	for _, w := range words {
		all[w] = w
	}
	return append(sets, all)
}

// Word pools for the generator. They hold valid and invalid keys and values,
// the keywords, numbers at and beyond the int64 limits, and bytes the lexer treats
// specially.
var (
	genKeys = []string{
		"a", "b", "x", "y", "z", "app", "tier", "in", "notin", "exists", "gt",
		"example.com/app", "k8s.io/tier", "a.b-c_d", "A", "Ab_C", "1", "9z",
		"-a", "a-", "_a", "a/b/c", "/x", "x/", "Example.com/a", "a..b/c",
		strings.Repeat("k", 63), strings.Repeat("k", 64),
		strings.Repeat("p", 253) + "/k", strings.Repeat("p", 254) + "/k",
		"ä", "x~y", "||", "a\x00b", "a\vb",
	}
	genValues = []string{
		"", "a", "b", "web", "front", "back", "in", "notin", "v2", "a.b", "a_b-c",
		"0", "1", "2", "01", "-1", "+1", "10", "99",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808",
		"_a", "a_", "-", ".", "A", strings.Repeat("v", 63), strings.Repeat("v", 64),
		"é", "~", "a\x00", "a|b",
	}
	genSpaces    = []string{"", "", "", " ", " ", "  ", "\t", "\n", "\r", " \t"}
	genOperators = []string{"=", "==", "!=", "in", "notin", ">", "<"}
)

// generateSelector writes a selector string from the grammar, with random
// spacing, sometimes-missing values, and value lists with empty entries.
func generateSelector(rng *rand.Rand) string {
	var b strings.Builder
	n := rng.IntN(4)
	if rng.IntN(20) == 0 {
		n = 13 + rng.IntN(20) // long selectors, to exercise the sort beyond 12
	}
	keys := genKeys
	if n > 12 {
		keys = genKeys[:4] // few keys, so that requirements share them
	}
	for i := range n {
		if i > 0 {
			b.WriteString(pick(rng, genSpaces) + "," + pick(rng, genSpaces))
		}
		key := pick(rng, keys)
		switch rng.IntN(8) {
		case 0:
			b.WriteString(key) // exists
		case 1:
			b.WriteString("!" + pick(rng, genSpaces) + key)
		default:
			op := pick(rng, genOperators)
			b.WriteString(key)
			if op == "in" || op == "notin" {
				b.WriteString(" " + pick(rng, genSpaces) + op + pick(rng, genSpaces) + "(")
				for j := range rng.IntN(5) {
					if j > 0 {
						b.WriteString(pick(rng, genSpaces) + strings.Repeat(",", 1+rng.IntN(2)*rng.IntN(3)) + pick(rng, genSpaces))
					}
					if rng.IntN(5) > 0 {
						b.WriteString(pick(rng, genValues))
					}
				}
				b.WriteString(pick(rng, genSpaces) + ")")
			} else {
				b.WriteString(pick(rng, genSpaces) + op + pick(rng, genSpaces))
				if rng.IntN(6) > 0 {
					b.WriteString(pick(rng, genValues))
				}
			}
		}
	}
	return pick(rng, genSpaces) + b.String() + pick(rng, genSpaces)
}

// mutate damages a selector string in one to three places: a byte deleted,
// duplicated or replaced, or a special character, a space or a NUL inserted.
func mutate(rng *rand.Rand, s string) string {
	const inserts = "=!(),<> \t\x00a-./"
	b := []byte(s)
	for range 1 + rng.IntN(3) {
		i := 0
		if len(b) > 0 {
			i = rng.IntN(len(b) + 1)
		}
		switch rng.IntN(4) {
		case 0:
			if i < len(b) {
				b = slices.Delete(b, i, i+1)
			}
		case 1:
			if i < len(b) {
				b = slices.Insert(b, i, b[i])
			}
		case 2:
			if i < len(b) {
				b[i] = inserts[rng.IntN(len(inserts))]
			}
		default:
			b = slices.Insert(b, i, inserts[rng.IntN(len(inserts))])
		}
	}
	return string(b)
}

// generateLabelSelector writes a structured selector: nil, empty, or up to twelve
// requirements mixing matchLabels and matchExpressions, with valid and invalid
// operators, keys and values, and repeated values.
func generateLabelSelector(rng *rand.Rand) *api.LabelSelector {
	switch rng.IntN(20) {
	case 0:
		return nil
	case 1:
		return &api.LabelSelector{}
	case 2:
		return &api.LabelSelector{MatchLabels: map[string]string{}, MatchExpressions: []api.LabelSelectorRequirement{}}
	}
	sel := &api.LabelSelector{}
	keys := genKeys[:12]
	values := genValues[:20]
	if rng.IntN(10) == 0 {
		keys, values = genKeys, genValues // now and then, the invalid ones too
	}
	if n := rng.IntN(5); n > 0 {
		sel.MatchLabels = map[string]string{}
		for range n {
			sel.MatchLabels[pick(rng, keys)] = pick(rng, values)
		}
	}
	ops := []string{
		api.LabelSelectorOpIn, api.LabelSelectorOpNotIn, api.LabelSelectorOpExists, api.LabelSelectorOpDoesNotExist,
		api.LabelSelectorOpIn, api.LabelSelectorOpNotIn, api.LabelSelectorOpExists, api.LabelSelectorOpDoesNotExist,
		"Gt", "in", "", "Equals",
	}
	for range rng.IntN(13 - len(sel.MatchLabels)) {
		expr := api.LabelSelectorRequirement{Key: pick(rng, keys), Operator: pick(rng, ops)}
		count := rng.IntN(4)
		if expr.Operator == api.LabelSelectorOpExists || expr.Operator == api.LabelSelectorOpDoesNotExist {
			count = min(count, rng.IntN(2)) // mostly none, as valid ones have
		} else if count == 0 && rng.IntN(3) > 0 {
			count = 1
		}
		for range count {
			expr.Values = append(expr.Values, pick(rng, values[:6]))
		}
		sel.MatchExpressions = append(sel.MatchExpressions, expr)
	}
	return sel
}

// toUpstreamLabelSelector converts to metav1, dropping repeated values when
// dedupe is set (see TestLabelSelectorDifferential).
func toUpstreamLabelSelector(sel *api.LabelSelector, dedupe bool) *metav1.LabelSelector {
	if sel == nil {
		return nil
	}
	out := &metav1.LabelSelector{MatchLabels: maps.Clone(sel.MatchLabels)}
	if sel.MatchExpressions != nil {
		out.MatchExpressions = []metav1.LabelSelectorRequirement{}
	}
	for _, e := range sel.MatchExpressions {
		var values []string
		for _, v := range e.Values {
			if !dedupe || !slices.Contains(values, v) {
				values = append(values, v)
			}
		}
		out.MatchExpressions = append(out.MatchExpressions, metav1.LabelSelectorRequirement{
			Key: e.Key, Operator: metav1.LabelSelectorOperator(e.Operator), Values: values,
		})
	}
	return out
}

func describeLabelSelector(sel *api.LabelSelector) string {
	if sel == nil {
		return "nil"
	}
	return fmt.Sprintf("{matchLabels: %v, matchExpressions: %+v}", sel.MatchLabels, sel.MatchExpressions)
}

// selectorWords lists the keys and values a structured selector mentions.
func selectorWords(sel *api.LabelSelector) []string {
	if sel == nil {
		return nil
	}
	var words []string
	for k, v := range sel.MatchLabels {
		words = append(words, k, v)
	}
	for _, e := range sel.MatchExpressions {
		words = append(words, e.Key)
		words = append(words, e.Values...)
	}
	slices.Sort(words)
	return slices.Compact(words)
}

func pick[T any](rng *rand.Rand, from []T) T { return from[rng.IntN(len(from))] }

// differentialSeeds are the inputs of every upstream test the spec lists (§5.5),
// upstream's own selector_test.go cases, and the corners found while building the
// parser.
func differentialSeeds() []string {
	seeds := []string{
		// TestSelectorParse
		"x=a,y=b,z=c", "", "x!=a,y=b", "x=", "x= ", "x=,z= ", "x= ,z= ", "!x", "x>1", "x>1,z<5",
		"x=a||y=b", "x==a==b", "!x=a", "x<a",
		// TestDeterministicParse
		"x=a,a=x", "a=x,x=a",
		// TestSelectorMatches
		"x=y", "x=y,z=w", "x!=y,z!=w", "notin=in", "x", "x<1", "x=z",
		"foo=bar", "baz=blah", "foo=bar,baz=blah", "foo=blah", "baz=bar", "foo=bar,foobar=bar,baz=blah",
		// TestLexer and TestLexerSequence, as whole selectors
		",", "notin", "in", "=", "==", ">", "<", "!", "!=", "(", ")", "~", "||",
		"key in ( value )", "key notin ( value )", "key in ( value1, value2 )", "key", "!key", "()",
		"x in (),y", "== != (), = notin", "key>2", "key<1",
		// TestSetSelectorParser
		"\rx", "this-is-a-dns.domain.com/key-with-dash",
		"this-is-another-dns.domain.com/key-with-dash in (so,what)",
		"0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)",
		"foo  in\t (abc)", "x notin\n (abc)", "x  notin\t\t\t(abc,def)", "x in (abc,def)", "x in (abc,)",
		"x in ()", "x notin (abc,,def),bar,z in (),w", "x,y in (a)", "x=a", "x<7", "x=a,y!=b",
		"x=a,y!=b,z in (h,i,j)", "x,,y", ",x,y", "x nott in (y)", "x notin ( )", "x notin (, a)",
		"a in (xyz),", "a in (xyz)b notin ()", "a ", "a in (x,y,notin, z,in)", "a in (xyz abc)",
		"a notin(", "a (",
		// Value-list corners: ",," is stepped over, then an identifier or a comma must follow.
		"x in (a,,)", "x in (a,,,)", "x in (,,)", "x in (,,,)", "x in (,)", "x in (,a)", "x in (,,a)",
		"x in (a,,b)", "x in (a,,,b)", "x in (a,,,,)", "x in (a,,,,,)", "x in (a b)", "x in ((",
		"x in (a)(", "x in (=)", "x in (a", "x in", "x in (", "x in (b,a,a)",
		// Keywords as keys and values.
		"in in (in)", "notin notin (notin)", "in=in", "in", "!in", "notin", "in,notin",
		"x = in", "x in (in)", "in notin (notin,in)",
		// Operators run together.
		"x===a", "x!==a", "x=!a", "x!!=a", "!!x", "x!", "!", "x<>1", "x><1", "x=<1", "x>=1",
		"x = = a", "x=(", "x=)", "x=,", "x=,y", "x,", ",", ",,", "!,x", "x,!",
		// Integers.
		"x>", "x<", "x>01", "x>-1", "x>+1", "x>9223372036854775807", "x>9223372036854775808",
		"x<-9223372036854775808", "x>1.5", "x>1e3", "x>0x1", "x>1_000",
		// Keys and values that fail validation.
		"A/b", "a/b/c", "/a", "a/", "-a", "a-", strings.Repeat("a", 63), strings.Repeat("a", 64),
		"x=" + strings.Repeat("a", 63), "x=" + strings.Repeat("a", 64), "x=é", "é", "x=a b", "a b",
		strings.Repeat("p", 253) + "/k", strings.Repeat("p", 254) + "/k",
		// NUL bytes end the input at a token start, and go with a token they follow.
		"x\x00y", "x \x00 junk", "x=\x00a", "x=\x00\x00a", "\x00", "\x00x", "x\x00", "x\x00,y",
		"x in (a\x00,b)", "!\x00x", "x!\x00=a", "x=\x00=a", "x =\x00 =a",
		// Whitespace everywhere.
		" ", "\t\n\r ", " x ", "x\v", "x\f=a", " x = a , y in ( b , c ) ",
		// The benchmark selector.
		"app=web,tier in (front,back),!canary",
		// Long selectors with repeated keys exercise the requirement sort.
		strings.Repeat("a=1,b,!a,b!=2,", 5) + "a",
		"x=1,x=2,x=3,x=4,x=5,x=6,x=7,x=8,x=9,x=10,x=11,x=12,x=13,y,x=14,a,x=0",
	}
	return seeds
}
