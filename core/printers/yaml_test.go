package printers

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/minijson"
)

// yamlQuotingCases pin down, case by case, how a string value is written.
var yamlQuotingCases = []struct{ in, want string }{
	{"web", "v: web\n"},
	{"", "v: \"\"\n"},
	{"true", "v: \"true\"\n"},
	{"yes", "v: \"yes\"\n"},
	{"Off", "v: \"Off\"\n"},
	{"null", "v: \"null\"\n"},
	{"~", "v: \"~\"\n"},
	{"123", "v: \"123\"\n"},
	{"-1.5", "v: \"-1.5\"\n"},
	{"0x1F", "v: \"0x1F\"\n"},
	{"1e3", "v: \"1e3\"\n"},
	{".inf", "v: \".inf\"\n"},
	{"1:30", "v: \"1:30\"\n"},
	{"2025-01-01T00:00:00Z", "v: \"2025-01-01T00:00:00Z\"\n"},
	{"2025-01-01", "v: \"2025-01-01\"\n"},
	{"v1.31.14", "v: v1.31.14\n"},
	{"nginx:1.27", "v: nginx:1.27\n"},
	{"a: b", "v: 'a: b'\n"},
	{"a #b", "v: 'a #b'\n"},
	{"a#b", "v: a#b\n"},
	{"#a", "v: '#a'\n"},
	{"- a", "v: '- a'\n"},
	{"-a", "v: -a\n"},
	{"[a]", "v: '[a]'\n"},
	{"{a}", "v: '{a}'\n"},
	{"a,b", "v: a,b\n"},
	{"&a", "v: '&a'\n"},
	{"*a", "v: '*a'\n"},
	{"!a", "v: '!a'\n"},
	{"|a", "v: '|a'\n"},
	{">a", "v: '>a'\n"},
	{"%a", "v: '%a'\n"},
	{"@a", "v: '@a'\n"},
	{"`a", "v: '`a'\n"},
	{"?a", "v: ?a\n"},
	{"? a", "v: '? a'\n"},
	{"'a'", "v: '''a'''\n"},
	{`"a"`, "v: '\"a\"'\n"},
	{`a"b`, "v: a\"b\n"},
	{" lead", "v: ' lead'\n"},
	{"trail ", "v: 'trail '\n"},
	{"---", "v: '---'\n"},
	{"a\tb", "v: \"a\\tb\"\n"},
	{"a\nb", "v: |-\n  a\n  b\n"},
	{"a\nb\n", "v: |\n  a\n  b\n"},
	{"a\n\n", "v: |+\n  a\n\n"},
	{" a\nb", "v: |2-\n   a\n  b\n"},
	{"a \nb", "v: \"a \\nb\"\n"},
	{"é日本語", "v: é日本語\n"},
	{"emoji 🙂", "v: \"emoji \\U0001F642\"\n"},
	{"bell\x07", "v: \"bell\\a\"\n"},
	{"a\u0085b", "v: a b\n"}, // NEL: see asReadByYAML
}

// ourYAML decodes a JSON document as manifest does and encodes it.
func ourYAML(t testing.TB, doc []byte) []byte {
	t.Helper()
	v, err := minijson.Parse(doc)
	require.NoError(t, err)
	return encodeYAML(v)
}

// TestYAMLQuoting pins down how a string value is written;
// yaml_oracle_test.go checks the same cases, and generated ones, against
// yaml.v2.
func TestYAMLQuoting(t *testing.T) {
	for _, tc := range yamlQuotingCases {
		b, err := json.Marshal(map[string]any{"v": tc.in})
		require.NoError(t, err)
		assert.Equal(t, tc.want, string(ourYAML(t, b)), "%q", tc.in)
	}
}

// longConditionMessage is longer than the 80 columns at which yaml.v2 folds
// a line.
const longConditionMessage = "0/3 nodes are available: 3 node(s) were unschedulable. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."

func TestYAMLFoldsLongLinesAt80Columns(t *testing.T) {
	b, _ := json.Marshal(map[string]any{"status": map[string]any{"conditions": []any{map[string]any{"message": longConditionMessage}}}})
	assert.Equal(t, `status:
  conditions:
  - message: '0/3 nodes are available: 3 node(s) were unschedulable. preemption: 0/3
      nodes are available: 3 Preemption is not helpful for scheduling.'
`, string(ourYAML(t, b)))
}

func TestYAMLStructure(t *testing.T) {
	doc := `{"a":{},"b":[],"c":[{"d":1,"e":[1,[2,3]]},[]],"f":null,"g":true,"h":{"i":{"j":"k"}},"a10":1,"a2":2,"A":3}`
	assert.Equal(t, `A: 3
a: {}
a2: 2
a10: 1
b: []
c:
- d: 1
  e:
  - 1
  - - 2
    - 3
- []
f: null
g: true
h:
  i:
    j: k
`, string(ourYAML(t, []byte(doc))))
}

func TestYAMLLongKeysAreComplexKeys(t *testing.T) {
	key := strings.Repeat("k", 129)
	b, _ := json.Marshal(map[string]any{key: "v"})
	assert.Equal(t, "? "+key+"\n: v\n", string(ourYAML(t, b)))
}

func TestManifestGolden(t *testing.T) {
	rs := webRS()
	rs.Metadata.Annotations = map[string]string{"note": "two\nlines\n"}
	rs.Spec.Selector.MatchExpressions = []api.LabelSelectorRequirement{{Key: "tier", Operator: api.LabelSelectorOpNotIn, Values: []string{"canary"}}}
	rs.Status.Conditions = []api.ReplicaSetCondition{{Type: api.ReplicaFailure, Status: api.ConditionTrue,
		LastTransitionTime: at(90 * time.Second), Reason: "FailedCreate",
		Message: `pods "web-x9z8y" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=3, limited: pods=3`}}
	events := goldenEvents()
	for _, tc := range []struct {
		name string
		obj  api.Object
	}{
		{"pod", webPod("web-a1b2c", 0)},
		{"pod-terminating", terminatingPod()},
		{"rs", rs},
		{"rc", webRC()},
		{"node", node("node-2", true)},
		{"event", events[4]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			y, err := YAML(tc.obj)
			assert.NoError(t, err)
			checkGolden(t, "manifest/"+tc.name+".yaml", string(y))
			j, err := JSON(tc.obj)
			assert.NoError(t, err)
			checkGolden(t, "manifest/"+tc.name+".json", string(j))
		})
	}
	pods := []api.Object{webPod("web-a1b2c", 0), pendingPod()}
	y, err := YAMLList(api.KindPod, pods)
	assert.NoError(t, err)
	checkGolden(t, "manifest/pods-list.yaml", string(y))
	j, err := JSONList(api.KindPod, pods)
	assert.NoError(t, err)
	checkGolden(t, "manifest/pods-list.json", string(j))
}

// timestampByTimeParse is yaml.v2's parseTimestamp as it is written, with
// time.Parse: the reference isYAMLTimestamp's hand-written check must agree
// with.
func timestampByTimeParse(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, layout := range []string{
		"2006-1-2T15:4:5.999999999Z07:00",
		"2006-1-2t15:4:5.999999999Z07:00",
		"2006-1-2 15:4:5.999999999",
		"2006-1-2",
	} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

var timestampSeeds = []string{
	"2001-12-14", "2001-1-1", "2001-02-29", "2000-02-29", "1900-02-29", "2001-13-01", "2001-00-10", "2001-04-31",
	"2001-12-14t21:59:43.10-05:00", "2001-12-14T21:59:43Z", "2001-12-14T21:59:43,5+24:00", "2001-12-14T21:59:43+24:61",
	"2001-12-14T24:00:00Z", "2001-12-14T23:60:00Z", "2001-12-14T23:59:60Z", "2001-12-14 21:59:43.10", "2001-12-14 21:59:43.",
	"2001-12-14 1:2:3", "2001-12-14T1:2:3", "2001-12-14T1:2:3.Z", "2001-12-14T1:2:3z", "2001-12-14T1:2:3+0500",
	"2001-12-14T1:2:3.123456789012Z", "20011-12-14", "201-12-14", "2001-123-4", "2001-12-14 ", "2001-12-14x",
	"2001-1-1T1:2:3-05:00x", "2001-01-01T01:02:03 +05:00", "2001--1-1", "0000-1-1  0:0:0",
}

func TestYAMLTimestampsAreWhatTimeParseAccepts(t *testing.T) {
	for _, s := range timestampSeeds {
		assert.Equal(t, timestampByTimeParse(s), isYAMLTimestamp(s), "%q", s)
	}
	// Every string of a few characters from an alphabet that can build a
	// timestamp, and many longer ones.
	alphabet := "0123456789-:.,TtZ+ "
	r := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		seed := timestampSeeds[r.IntN(len(timestampSeeds))]
		b := []byte(seed)
		for range 1 + r.IntN(3) {
			i := r.IntN(len(b) + 1)
			switch r.IntN(3) {
			case 0: // insert
				b = append(b[:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, b[i:]...)...)
			case 1: // delete
				if i < len(b) {
					b = append(b[:i], b[i+1:]...)
				}
			default: // replace
				if i < len(b) {
					b[i] = alphabet[r.IntN(len(alphabet))]
				}
			}
		}
		s := string(b)
		require.Equal(t, timestampByTimeParse(s), isYAMLTimestamp(s), "%q", s)
	}
}

func FuzzYAMLTimestamp(f *testing.F) {
	for _, s := range timestampSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		require.Equal(t, timestampByTimeParse(s), isYAMLTimestamp(s), "%q", s)
	})
}
