package i18n

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The page's glossary and its Chinese translation, from this package's
// directory.
var (
	englishGlossaryPath = filepath.Join("..", "..", "site", "glossary.js")
	chineseGlossaryPath = filepath.Join("..", "..", "site", "glossary-zh-CN.json")
)

// committedGlossaries reads the committed glossaries and the committed
// table of terms they are checked against.
func committedGlossaries(t *testing.T) (en, zh *Glossary, terms *Terms) {
	t.Helper()
	en, err := ReadGlossaryJS(englishGlossaryPath)
	require.NoError(t, err)
	zh, err = ReadGlossaryJSON(chineseGlossaryPath)
	require.NoError(t, err)
	terms, err = Load("zh-CN")
	require.NoError(t, err)
	return en, zh, terms
}

// TestCommittedChineseGlossaryMatchesTheEnglish is the check that keeps
// site/glossary-zh-CN.json a faithful copy of site/glossary.js in shape:
// see CheckGlossary for what it compares.
func TestCommittedChineseGlossaryMatchesTheEnglish(t *testing.T) {
	en, zh, terms := committedGlossaries(t)
	// The reader found the whole glossary, not an empty shell that would
	// pass every comparison.
	require.Len(t, en.Entries, len(zh.Entries))
	assert.Greater(t, len(en.Entries), 60)
	assert.Len(t, en.Groups, 8)
	assert.NotEmpty(t, en.Match)

	faults := CheckGlossary(en, zh, terms)
	assert.Empty(t, faults, "site/glossary-zh-CN.json:\n%s", strings.Join(faults, "\n"))
}

// TestReadGlossaryJSReadsTheLiteral pins what the reader makes of
// glossary.js: values with escapes, comments between entries, the order of
// the lists and a field only some entries have.
func TestReadGlossaryJSReadsTheLiteral(t *testing.T) {
	en, _, _ := committedGlossaries(t)
	assert.Equal(t, "en", en.Lang)
	assert.Equal(t, "Glossary", en.Text["title"])
	assert.Equal(t, "queue", en.Groups[0].ID)
	assert.Equal(t, "deployments", en.Groups[len(en.Groups)-1].ID)
	assert.Equal(t, GlossaryEntry{
		ID: "workqueue", Group: "queue", Term: "workqueue",
		Short:    "The controller's to-do list: keys of owners that need a sync, each handed to one worker at a time.",
		Long:     "Event handlers sync nothing themselves: they add the owner's {{key}} to the workqueue and return. {{worker|Workers}} take keys out with {{get|Get}} and hand them back with Done. The queue never gives one key to two workers at once, and a key added many times before a worker takes it is synced once.",
		Upstream: GlossaryUpstream{Name: "workqueue.Typed", File: "k8s.io/client-go/util/workqueue/queue.go"},
	}, en.Entries[0])
	recorder := en.Entries[slices.IndexFunc(en.Entries, func(e GlossaryEntry) bool { return e.ID == "event-recorder" })]
	assert.True(t, strings.HasPrefix(recorder.Short, `What turns a controller's "Created pod: web-x" into`), "an escaped quote")
	agenda := en.Entries[slices.IndexFunc(en.Entries, func(e GlossaryEntry) bool { return e.ID == "agenda" })]
	assert.Equal(t, "rlab", agenda.Origin)
	assert.Equal(t, []string{"delayed (AddAfter)", "delayed", "AddAfter"}, en.Match["delayed"])
}

// mutation changes a copy of the committed Chinese glossary (or of the
// English) in one way, as a translator's mistake would.
type mutation struct {
	name   string
	mutate func(en, zh *Glossary)
	want   string // a fault CheckGlossary must report
}

func entryByID(g *Glossary, id string) *GlossaryEntry {
	i := slices.IndexFunc(g.Entries, func(e GlossaryEntry) bool { return e.ID == id })
	if i < 0 {
		panic("no entry " + id)
	}
	return &g.Entries[i]
}

// glossaryMistakes plants one mistake per rule of CheckGlossary.
var glossaryMistakes = []mutation{
	{"wrong lang", func(_, zh *Glossary) { zh.Lang = "zh" },
		`lang is "zh", want "zh-CN"`},
	{"English lang", func(en, _ *Glossary) { en.Lang = "zh-CN" },
		`the English glossary's lang is "zh-CN", want "en"`},
	{"missing entry", func(_, zh *Glossary) { zh.Entries = slices.Delete(zh.Entries, 3, 4) },
		`entries: no "processing"`},
	{"extra entry", func(_, zh *Glossary) {
		zh.Entries = append(zh.Entries, GlossaryEntry{ID: "lease", Group: "world", Term: "租约（lease）", Short: "节点的心跳。", Long: "节点的心跳。"})
	}, `entries: "lease" is not in the English`},
	{"entry twice", func(_, zh *Glossary) { zh.Entries = append(zh.Entries, zh.Entries[0]) },
		`entries: "workqueue" is there twice`},
	{"entries out of order", func(_, zh *Glossary) { zh.Entries[1], zh.Entries[2] = zh.Entries[2], zh.Entries[1] },
		`entries: out of order: number 2 is "waiting", the English has "key" there`},
	{"entry in another group", func(_, zh *Glossary) { entryByID(zh, "key").Group = "workers" },
		`entries "key": group is "workers", the English has "queue"`},
	{"origin dropped", func(_, zh *Glossary) { entryByID(zh, "agenda").Origin = "" },
		`entries "agenda": origin is "", the English has "rlab"`},
	{"missing group", func(_, zh *Glossary) { zh.Groups = zh.Groups[1:] },
		`groups: no "queue"`},
	{"extra group", func(_, zh *Glossary) { zh.Groups = append(zh.Groups, GlossaryGroup{ID: "leases", Title: "租约"}) },
		`groups: "leases" is not in the English`},
	{"groups out of order", func(_, zh *Glossary) { zh.Groups[0], zh.Groups[1] = zh.Groups[1], zh.Groups[0] },
		`groups: out of order: number 1 is "workers", the English has "queue" there`},
	{"missing text", func(_, zh *Glossary) { delete(zh.Text, "close") },
		`text: no "close"`},
	{"extra label", func(_, zh *Glossary) { zh.Labels["leases"] = "租约" },
		`labels: "leases" is not in the English`},
	{"missing caption", func(_, zh *Glossary) { delete(zh.Captions, "gc") },
		`captions: no "gc"`},
	{"reference dropped", func(_, zh *Glossary) {
		e := entryByID(zh, "workqueue")
		e.Long = strings.Replace(e.Long, "{{get|Get}}", "Get", 1)
	}, `entries "workqueue": long: refers to entries {{key}} {{worker}}, the English to {{get}} {{key}} {{worker}}`},
	{"reference's id translated", func(_, zh *Glossary) {
		zh.Captions["queue"] = strings.Replace(zh.Captions["queue"], "{{dirty|脏}}", "{{脏}}", 1)
	}, `captions "queue": refers to entries`},
	{"reference to no entry", func(_, zh *Glossary) {
		e := entryByID(zh, "key")
		e.Long = strings.Replace(e.Long, "{{cache|缓存}}", "{{caches|缓存}}", 1)
	}, `entries "key": long: refers to {{caches}}, which is no entry`},
	{"English reference to no entry", func(en, _ *Glossary) {
		e := entryByID(en, "key")
		e.Long = strings.Replace(e.Long, "{{cache}}", "{{caches|cache}}", 1)
	}, `entries "key": long: the English refers to {{caches}}, which is no entry`},
	{"value dropped", func(_, zh *Glossary) { zh.Labels["deletesAwaited"] = "{{deletes-awaited|待确认的删除}}：{pods}" },
		`labels "deletesAwaited": has the values {pods}, the English {key} {pods}`},
	{"value's name translated", func(_, zh *Glossary) { zh.Text["upstream"] = "Kubernetes v1.31 中：{文件} 里的 {name}" },
		`text "upstream": has the values {name}, the English {file} {name}`},
	{"upstream name changed", func(_, zh *Glossary) { entryByID(zh, "key").Upstream.Name = "控制器.KeyFunc" },
		`entries "key": upstream is 控制器.KeyFunc in k8s.io/kubernetes/pkg/controller/controller_utils.go, the English has controller.KeyFunc in`},
	{"upstream file changed", func(_, zh *Glossary) { entryByID(zh, "key").Upstream.File = "controller_utils.go" },
		`entries "key": upstream is controller.KeyFunc in controller_utils.go`},
	{"English word left in", func(_, zh *Glossary) { entryByID(zh, "dirty").Short = "需要 sync 的键（key）。" },
		`entries "dirty": short: English words "sync", which are not kept terms`},
	{"English word in a group title", func(_, zh *Glossary) { zh.Groups[0].Title = "Workqueue" },
		`groups "queue": title: English words "Workqueue"`},
	{"text left in English", func(en, zh *Glossary) { zh.Text["close"] = en.Text["close"] },
		`text "close": "Close" is the same as the English, and only a kept term may be`},
	{"term left in English", func(_, zh *Glossary) { entryByID(zh, "workqueue").Term = "workqueue" },
		`entries "workqueue": term: "workqueue" is the same as the English`},
	{"empty text", func(_, zh *Glossary) { entryByID(zh, "key").Short = " " },
		`entries "key": short: is empty`},
	{"code span left open", func(_, zh *Glossary) {
		e := entryByID(zh, "cordoned")
		e.Long = strings.Replace(e.Long, "`kubectl cordon`", "`kubectl cordon", 1)
	}, `entries "cordoned": long: a code span is not closed`},
	{"markup in a term", func(_, zh *Glossary) { entryByID(zh, "key").Term = "{{key|键}}（key）" },
		`entries "key": term: a term is plain words, with no markup or code`},
	{"matchZh for no entry", func(_, zh *Glossary) { zh.MatchZh["lease"] = []string{"租约"} },
		`matchZh "lease": no such entry`},
	{"matchZh not longest first", func(_, zh *Glossary) { zh.MatchZh["backing-off"] = []string{"回退", "正在回退"} },
		`matchZh "backing-off": "正在回退" is longer than "回退" before it`},
	{"matchZh word twice", func(_, zh *Glossary) { zh.MatchZh["cache"] = []string{"缓存", "缓存"} },
		`matchZh "cache": "缓存" is there twice`},
	{"matchZh English word", func(_, zh *Glossary) { zh.MatchZh["cache"] = []string{"cache"} },
		`matchZh "cache": English words "cache"`},
	{"matchZh empty", func(_, zh *Glossary) { zh.MatchZh["cache"] = nil },
		`matchZh "cache": no words`},
	{"matchZh missing", func(_, zh *Glossary) { zh.MatchZh = nil },
		`matchZh: missing`},
	{"match in a translation", func(en, zh *Glossary) { zh.Match = en.Match },
		`match: a translation has none`},
	{"English match for no entry", func(en, _ *Glossary) { en.Match["lease"] = []string{"lease"} },
		`the English match: "lease" is no entry`},
}

// TestCheckGlossaryFindsEachMistake plants each mistake in a copy of the
// committed glossaries and wants CheckGlossary to name it: each rule can
// fail.
func TestCheckGlossaryFindsEachMistake(t *testing.T) {
	en, zh, terms := committedGlossaries(t)
	for _, m := range glossaryMistakes {
		t.Run(m.name, func(t *testing.T) {
			en2, zh2 := cloneGlossary(t, en), cloneGlossary(t, zh)
			m.mutate(en2, zh2)
			faults := CheckGlossary(en2, zh2, terms)
			require.NotEmpty(t, faults)
			assert.True(t, slices.ContainsFunc(faults, func(f string) bool { return strings.Contains(f, m.want) }),
				"want a fault containing %q, got:\n%s", m.want, strings.Join(faults, "\n"))
		})
	}
}

// TestCheckGlossaryAllowsWhatATranslationMayDo changes the committed
// translation in the ways a translation may differ from the English, and
// wants no fault.
func TestCheckGlossaryAllowsWhatATranslationMayDo(t *testing.T) {
	en, zh, terms := committedGlossaries(t)
	for _, tc := range []struct {
		name   string
		mutate func(zh *Glossary)
	}{
		{"references in another order, with or without words", func(zh *Glossary) {
			zh.Captions["expectations"] = "{{expired|已过期}}（expired）或{{satisfied}}之前，下一次同步（sync）不会行动：它在等待{{expectations|预期}}（expectations）中的创建和删除。"
		}},
		{"a kept term equal to its English", func(zh *Glossary) { entryByID(zh, "deltafifo").Term = "DeltaFIFO" }},
		{"code in backticks", func(zh *Glossary) {
			e := entryByID(zh, "key")
			e.Short = "控制器（controller）称呼属主（owner）的方式，例如 `default/web` 或 `kube-system/coredns`。"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			zh2 := cloneGlossary(t, zh)
			tc.mutate(zh2)
			assert.Empty(t, CheckGlossary(en, zh2, terms))
		})
	}
}

func cloneGlossary(t *testing.T, g *Glossary) *Glossary {
	t.Helper()
	data, err := json.Marshal(g)
	require.NoError(t, err)
	var c Glossary
	require.NoError(t, json.Unmarshal(data, &c))
	return &c
}

// TestReadGlossaryJSONRefusesWhatTheBrowserWouldNot writes faulty
// translations to files and wants the reader to refuse each, naming it.
func TestReadGlossaryJSONRefusesWhatTheBrowserWouldNot(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, src, want string
	}{
		{"not JSON: a trailing comma", `{"lang": "zh-CN",}`, "not valid JSON"},
		{"not JSON: a comment", "{\"lang\": \"zh-CN\" // 中文\n}", "not valid JSON"},
		{"a key twice", "{\n\"lang\": \"zh-CN\",\n\"lang\": \"zh\"\n}", `3:1: key "lang" is written twice in one object (first on line 2)`},
		{"a field the page does not know", `{"lang": "zh-CN", "notes": "翻译说明"}`, `unknown field "notes"`},
		{"a number", `{"lang": 1}`, "want a string, an object or an array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "g.json")
			require.NoError(t, os.WriteFile(path, []byte(tc.src), 0o644))
			_, err := ReadGlossaryJSON(path)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "g.json")
		})
	}
}
