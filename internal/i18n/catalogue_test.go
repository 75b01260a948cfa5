package i18n

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// siteDir is the page's source directory, relative to this package.
var siteDir = filepath.Join("..", "..", "site")

func readSite(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(siteDir, name))
	require.NoError(t, err)
	return b
}

// TestEveryLocaleTranslatesThePage holds the page's catalogue in each
// locale with a table of terms to the English one: the same keys, each
// with the same places, no English word that is not a kept term, and no
// message left as its English unless it is a kept term.
func TestEveryLocaleTranslatesThePage(t *testing.T) {
	en, err := ReadCatalogueJS("site/messages-en.js", readSite(t, "messages-en.js"))
	require.NoError(t, err)
	require.NotEmpty(t, en.Keys)
	for _, locale := range Locales() {
		t.Run(locale, func(t *testing.T) {
			terms, err := Load(locale)
			require.NoError(t, err)
			name := "messages-" + locale + ".json"
			tr, err := ReadCatalogueJSON("site/"+name, readSite(t, name))
			require.NoError(t, err)
			for _, err := range terms.CheckCatalogue(en, tr) {
				t.Errorf("site/%s: %v", name, err)
			}
		})
	}
}

func TestReadCatalogueJS(t *testing.T) {
	src := `// The English.
export const messages = {
	// A comment.
	"a.b": "Step {n} of {total}",
	plain: "say \"hi\"\tthere \u00e9", /* another */
	"count.pods": {one: "{n} pod", other: "{n} pods"},
};
`
	c, err := ReadCatalogueJS("m.js", []byte(src))
	require.NoError(t, err)
	assert.Equal(t, []string{"a.b", "plain", "count.pods"}, c.Keys)
	assert.Equal(t, Message{Text: "Step {n} of {total}"}, c.Messages["a.b"])
	assert.Equal(t, "say \"hi\"\tthere é", c.Messages["plain"].Text)
	assert.Equal(t, map[string]string{"one": "{n} pod", "other": "{n} pods"}, c.Messages["count.pods"].Forms)
	assert.Equal(t, []string{"n", "total"}, c.Messages["a.b"].Places())
	assert.Equal(t, []string{"{n} pod", "{n} pods"}, c.Messages["count.pods"].Texts())
}

func TestReadCatalogueJSRefusesWhatItCannotRead(t *testing.T) {
	// The literal's syntax is JSConstJSON's to check, and these show it
	// is checked; the catalogue's shape is ReadCatalogueJSON's.
	for _, tc := range []struct {
		name, src, want string
	}{
		{"another const", `export const words = {};`, `want "messages"`},
		{"a twice-listed key", "export const messages = {\n\"a\": \"x\",\n\"a\": \"y\",\n};", `m.js:3:1: key "a" is written twice`},
		{"a template literal", "export const messages = {\"a\": `x`};", `a template literal`},
		{"a form without other", `export const messages = {"a": {one: "x"}};`, `without "other"`},
		{"a form that is no category", `export const messages = {"a": {one: "x", plenty: "y", other: "z"}};`, `"plenty" is not a plural category`},
		{"an array", `export const messages = {"a": ["x"]};`, `"a" is neither a string nor an object`},
		{"code after it", "export const messages = {\"a\": \"x\"};\nconsole.log(1);", `want the end of the file`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCatalogueJS("m.js", []byte(tc.src))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestReadCatalogueJSON(t *testing.T) {
	c, err := ReadCatalogueJSON("m.json", []byte(`{"b": "第 {n} 步", "a": {"other": "{n} 个 Pod"}}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "a"}, c.Keys, "the keys in the file's order")
	assert.Equal(t, "第 {n} 步", c.Messages["b"].Text)
	assert.Equal(t, map[string]string{"other": "{n} 个 Pod"}, c.Messages["a"].Forms)

	for _, bad := range []string{`[]`, `{"a": 1}`, `{"a": {"one": "x"}}`, `{"a": "x", "a": "y"}`, `{"a": "x"} {}`} {
		_, err := ReadCatalogueJSON("m.json", []byte(bad))
		assert.Error(t, err, bad)
	}
}

// TestCheckCatalogueFindsEachFault plants one fault per message and
// proves CheckCatalogue reports each, and nothing for a good translation.
func TestCheckCatalogueFindsEachFault(t *testing.T) {
	terms, err := Parse("zh-CN", "t.md", []byte(table(
		[]string{rowCtrl, rowQueue},
		[]string{rowPod, rowRS, rowRecLab, "| MB | unit |"})))
	require.NoError(t, err)
	en, err := ReadCatalogueJS("en.js", []byte(`export const messages = {
	"good": "The controller runs",
	"count": {one: "{n} pod", other: "{n} pods"},
	"brand": "Reconcile Lab",
	"size": "{n} MB",
	"sep": "{a} · {b}",
	"missing": "Gone",
	"places": "Step {n} of {total}",
	"english": "The workqueue",
	"same": "Ready now",
	"sameForm": {one: "a pod", other: "pods"},
};`))
	require.NoError(t, err)
	zh, err := ReadCatalogueJSON("zh.json", []byte(`{
	"good": "控制器运行",
	"count": "{n} 个 Pod",
	"brand": "Reconcile Lab",
	"size": "{n} MB",
	"sep": "{a} · {b}",
	"places": "第 {n} 步",
	"english": "the 工作队列",
	"same": "Ready now",
	"sameForm": {"other": "pods"},
	"extra": "多余"
}`))
	require.NoError(t, err)
	var got []string
	for _, err := range terms.CheckCatalogue(en, zh) {
		got = append(got, err.Error())
	}
	assert.Equal(t, []string{
		`"missing" is not translated`,
		`"places" has the places [n]; the English has [n total]`,
		`"english": "the 工作队列" has the English "the", which is not a kept term`,
		`"same": "Ready now" has the English "Ready", "now", which is not a kept term`,
		`"same": "Ready now" is the English, untranslated (a kept term may stay; add it to the table's kept terms)`,
		`"sameForm": "pods" has the English "pods", which is not a kept term`,
		`"sameForm": "pods" is the English, untranslated (a kept term may stay; add it to the table's kept terms)`,
		`"extra" is not an English message (a key renamed or removed?)`,
	}, got)
	assert.False(t, strings.Contains(strings.Join(got, "\n"), `"good"`))
}
