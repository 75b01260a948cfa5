package i18n

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJSConstJSONReadsAPlainLiteral(t *testing.T) {
	src := `// A data module.
/* The whole of it
   is one literal. */
export const data = {
	lang: "en", // a comment after a value
	'single': 'it\'s',
	"quoted key": "a \"quote\", a \\ and a tab:\t.",
	escapes: "\x41\u00e9\u{1F600}\uD83D\uDE00 line\
continued",
	list: [
		{id: "a", title: "A"},
		{id: "b", title: "B"}, // a trailing comma
	],
	empty: {},
	none: [],
	$odd_name2: "ok",
};
`
	got, err := JSConstJSON([]byte(src), "data.js", "data")
	require.NoError(t, err)
	assert.Equal(t, `{"lang":"en","single":"it's","quoted key":"a \"quote\", a \\ and a tab:\t.",`+
		`"escapes":"Aé😀😀 linecontinued","list":[{"id":"a","title":"A"},{"id":"b","title":"B"}],"empty":{},"none":[],"$odd_name2":"ok"}`,
		string(got))
}

func TestJSConstJSONKeepsTheKeysInTheirOrder(t *testing.T) {
	got, err := JSConstJSON([]byte(`export const m = {z: "1", a: "2", m: "3"}`), "m.js", "m")
	require.NoError(t, err)
	assert.Equal(t, `{"z":"1","a":"2","m":"3"}`, string(got))
}

func TestJSConstJSONWritesNoHTMLEscapes(t *testing.T) {
	got, err := JSConstJSON([]byte(`export const m = {a: "<b> & </b>"}`), "m.js", "m")
	require.NoError(t, err)
	assert.Equal(t, `{"a":"<b> & </b>"}`, string(got))
}

// TestJSConstJSONRefusesWhatIsNotAPlainLiteral wants each refusal to name
// the file, the line and column, and what was wrong.
func TestJSConstJSONRefusesWhatIsNotAPlainLiteral(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"another name", `export const other = {}`, `m.js:1:14: want "m", found "other"`},
		{"no export", `const m = {}`, `m.js:1:1: want "export", found "const"`},
		{"let instead of const", `export let m = {}`, `m.js:1:8: want "const", found "let"`},
		{"a number", "export const m = {\n\tcount: 3,\n}", `m.js:2:9: want a string, an object or an array, found "3,"`},
		{"a template literal", "export const m = {a: `x${y}`}", `m.js:1:22: a template literal`},
		{"a spread", `export const m = {...other}`, `m.js:1:19: want a key (a name or a string), found "...other}"`},
		{"a key twice", "export const m = {\n\ta: \"1\",\n\ta: \"2\",\n}", `m.js:3:2: key "a" is written twice in one object (first on line 2)`},
		{"a missing comma", `export const m = {a: "1" b: "2"}`, `m.js:1:26: want ',', found "b: \"2\"}"`},
		{"a second statement", "export const m = {};\nexport const n = {};", `m.js:2:1: want the end of the file after the literal`},
		{"an unclosed string", `export const m = {a: "1}`, `m.js:1:22: string is not closed`},
		{"a line break in a string", "export const m = {a: \"1\n\"}", `m.js:1:22: string is not closed before the end of its line`},
		{"an octal escape", `export const m = {a: "\07"}`, `m.js:1:23: an octal escape`},
		{"a short hex escape", `export const m = {a: "\x4"}`, `m.js:1:23: an escape needs 2 hex digits, found "4\""`},
		{"an unclosed comment", "export const m = {} /* and", `m.js:1:21: comment is not closed`},
		{"an unclosed object", `export const m = {a: "1"`, `m.js:1:25: want ',', found the end of the file`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := JSConstJSON([]byte(tc.src), "m.js", "m")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestJSONLiteral(t *testing.T) {
	got, err := JSONLiteral([]byte("{\"b\": [\"x\", \"\\u4e2d\"], \"a\": {}}\n"), "g.json")
	require.NoError(t, err)
	assert.Equal(t, `{"b":["x","中"],"a":{}}`, string(got))

	_, err = JSONLiteral([]byte(`{"a": "1", "a": "2"}`), "g.json")
	assert.ErrorContains(t, err, `g.json:1:12: key "a" is written twice`)
	_, err = JSONLiteral([]byte(`{a: "1"}`), "g.json")
	assert.ErrorContains(t, err, "g.json: not valid JSON")
}
