//go:build !js

// This file uses the upstream modules (k8s.io, gopkg.in/yaml.v2) as oracles,
// so it runs natively only: the js/wasm run of make test runs the package's
// other tests under node, and neither it nor the js/wasm lint compiles the
// oracles for WebAssembly, where they never run.

package printers

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	yamlv2 "gopkg.in/yaml.v2"
)

// kubectlYAML is what kubectl's YAML printer makes of a JSON document:
// sigs.k8s.io/yaml's JSONToYAML, which is yaml.v2 decoding the JSON into
// generic values and encoding them again. sigs.k8s.io/yaml vendors yaml.v2
// v2.4.0 unchanged; the module holds that same version, so yaml.v2 is the
// judge of every byte.
//
// It reports false when yaml.v2 cannot read the JSON: its reader refuses
// some characters JSON leaves unescaped (DEL, C1 controls, U+FFFE), and its
// scanner refuses implicit keys longer than 1024 characters. kubectl fails
// on such objects ("error converting JSON to YAML"); this package still
// writes valid YAML for them.
func kubectlYAML(t testing.TB, doc []byte) ([]byte, bool) {
	t.Helper()
	var v any
	if err := yamlv2.Unmarshal(doc, &v); err != nil {
		return nil, false
	}
	out, err := yamlv2.Marshal(v)
	require.NoError(t, err)
	return out, true
}

// yamlEdgeStrings are strings whose YAML form is easy to get wrong.
var yamlEdgeStrings = []string{
	"", " ", "  ", "a", "web", "nginx:1.27", "a b", " lead", "trail ", "a  b",
	"true", "True", "TRUE", "false", "yes", "Yes", "no", "NO", "on", "Off", "y", "n", "Y", "N",
	"null", "Null", "~", "nil", "None",
	"0", "1", "-1", "+1", "007", "0x1F", "0o17", "0b101", "-0b101", "1_000", "1.5", "-1.5", ".5", "5.",
	"1e3", "1E-3", "1e400", ".inf", "-.inf", "+.Inf", ".nan", ".NaN", "1:30", "-1:30:00", "1:60", "1:5:59.5",
	"2025-01-01T00:00:00Z", "2025-01-01", "2025-1-1 1:2:3", "2025-01-01T00:00:00+02:00", "20250-01-01", "2025-13-01",
	"a: b", "a:b", "a:", ":a", ": a", "a #b", "a#b", "#a", "- a", "-a", "-", "--", "---", "--- a", "...", "? a", "?a",
	"[a]", "{a}", "a,b", "a]", "&a", "*a", "!a", "|a", ">a", "'a'", `"a"`, "%a", "@a", "`a", "a'b", `a"b`, `a\b`,
	"a\nb", "a\n", "a\n\n", "\na", "\n", "\n\n", "a \nb", "a\n b", " a\nb", "a\nb ", "a\r\nb", "a\rb", "a\tb", "\ta",
	"a\x00b", "a\x07b", "a\x1bb", "a\x7fb", "é", "日本語", "a\u00a0b", "a\u0085b", "a\u2028b", "a\u2029b",
	"\ufeffa", "a\ufeff", "\U0001F642", "a\U0001F642b", "\ufffd", "\uffff",
	"<<", "=", "a=b", "app.kubernetes.io/name", "controller.kubernetes.io/pod-deletion-cost",
	"kubernetes.io/hostname", "node-role.kubernetes.io/control-plane", "example.com/x_y-z.1",
	"0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
	"Created pod: web-7xk2p", "Deleted pod: web-7xk2p", "containers with unready status: [web]",
	"The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. Container web was using 200Mi, request is 0, has larger consumption of memory.",
	strings.Repeat("x", 100), strings.Repeat("word ", 40), strings.Repeat("a  ", 40), strings.Repeat("a\n", 5),
	strings.Repeat("x", 129), strings.Repeat("k", 128),
}

// randomString builds strings from pieces that stress the emitter: words,
// spaces, indicators, breaks, quotes, unicode and long runs.
func randomString(r *rand.Rand) string {
	if r.IntN(4) == 0 {
		return yamlEdgeStrings[r.IntN(len(yamlEdgeStrings))]
	}
	pieces := []string{"a", "b", "web", "x", "0", "1", "9", " ", " ", "  ", ":", ": ", "#", " #", "-", "- ", "?", "'", `"`,
		"\\", "\n", "\n", "\r", "\t", ",", "[", "]", "{", "}", "&", "*", "!", "|", ">", "%", "@", "`", ".", "_", "/", "=",
		"é", "日", "\u00a0", "\u0085", "\u2028", "\x00", "\x1b", "\U0001F642", "\ufeff", "true", "null", "2025-01-01",
		"lorem ipsum dolor sit amet", strings.Repeat("long ", 10)}
	n := r.IntN(12)
	if r.IntN(5) == 0 {
		n += 30 // long strings fold at 80 columns
	}
	var b strings.Builder
	for range n {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// randomValue builds a JSON-like value of bounded depth.
func randomValue(r *rand.Rand, depth int) any {
	k := r.IntN(10)
	if depth <= 0 {
		k = r.IntN(5)
	}
	switch k {
	case 0, 1:
		return randomString(r)
	case 2:
		switch r.IntN(4) {
		case 0:
			return json.Number(strconv.Itoa(r.IntN(2000) - 1000))
		case 1:
			return json.Number(strconv.FormatInt(r.Int64(), 10))
		case 2:
			return json.Number(strconv.FormatUint(r.Uint64()|1<<63, 10))
		default:
			return json.Number(strconv.FormatFloat(r.NormFloat64()*1e3, 'g', -1, 64))
		}
	case 3:
		return r.IntN(2) == 0
	case 4:
		return nil
	case 5, 6, 7:
		m := map[string]any{}
		for range r.IntN(5) {
			m[randomString(r)] = randomValue(r, depth-1)
		}
		return m
	default:
		s := []any{}
		for range r.IntN(4) {
			s = append(s, randomValue(r, depth-1))
		}
		return s
	}
}

func TestYAMLMatchesKubectlOnEdgeStrings(t *testing.T) {
	for _, s := range yamlEdgeStrings {
		doc := map[string]any{
			"value":   s,
			s:         "as a key",
			"list":    []any{s, map[string]any{"k": s, "n": []any{s}}},
			"nested":  map[string]any{"deeper": map[string]any{"v": s}},
			"emptyM":  map[string]any{},
			"emptyL":  []any{},
			"nothing": nil,
		}
		b, err := json.Marshal(doc)
		require.NoError(t, err)
		want, ok := kubectlYAML(t, b)
		if !ok {
			t.Logf("kubectl cannot print %q as YAML", s)
			continue
		}
		assert.Equal(t, string(want), string(ourYAML(t, b)), "value %q", s)
	}
}

func TestYAMLMatchesKubectlOnGeneratedDocuments(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := scaled(20000)
	skipped := 0
	for i := range n {
		v := randomValue(r, 4)
		if i%2 == 0 {
			v = map[string]any{"root": v, "other": randomValue(r, 3)}
		}
		b, err := json.Marshal(v)
		require.NoError(t, err)
		want, ok := kubectlYAML(t, b)
		if !ok {
			skipped++
			continue
		}
		got := ourYAML(t, b)
		if !bytes.Equal(want, got) {
			t.Fatalf("document %d differs (seed 1,2)\njson: %s\nkubectl:\n%s\nours:\n%s", i, b, want, got)
		}
	}
	assert.Less(t, skipped, n/2, "most generated documents must be readable by yaml.v2, or the test checks little")
	t.Logf("%d of %d documents compared; %d unreadable by yaml.v2", n-skipped, n, skipped)
}

func TestYAMLReadsBackAsTheSameValue(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range scaled(2000) {
		v := map[string]any{"root": randomValue(r, 4)}
		b, err := json.Marshal(v)
		require.NoError(t, err)
		var want any
		if yamlv2.Unmarshal(b, &want) != nil {
			continue
		}
		var back any
		require.NoError(t, yamlv2.Unmarshal(ourYAML(t, b), &back))
		assert.Equal(t, want, back)
	}
}

// TestYAMLQuotingIsKubectls holds yamlQuotingCases to yaml.v2, which
// writes kubectl's YAML.
func TestYAMLQuotingIsKubectls(t *testing.T) {
	for _, tc := range yamlQuotingCases {
		b, err := json.Marshal(map[string]any{"v": tc.in})
		require.NoError(t, err)
		if kubectl, ok := kubectlYAML(t, b); ok {
			assert.Equal(t, string(kubectl), tc.want, "kubectl writes %q so", tc.in)
		}
	}
}

func TestYAMLFoldsLongLinesAsKubectlDoes(t *testing.T) {
	b, _ := json.Marshal(map[string]any{"status": map[string]any{"conditions": []any{map[string]any{"message": longConditionMessage}}}})
	kubectl, _ := kubectlYAML(t, b)
	assert.Equal(t, string(kubectl), string(ourYAML(t, b)))
}
