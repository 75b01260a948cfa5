package lesson

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/script"
)

// zhHeader and zhFiles are scaleLesson's Simplified Chinese: its header
// lines, which go after level:, and its files, which go after solution.
// Their line numbers matter: the error tests below name them.
const zhHeader = "title.zh-CN: 扩容\nsummary.zh-CN: ReplicaSet 创建它缺少的 Pod。\n"

const zhFiles = `-- guide.zh-CN.md --
# 两个 Pod

rs/web 有两个 Pod。

` + "```check" + `
expect pods -l app=web count=2 ready=true
` + "```" + `
---
# 扩容

` + "```predict" + `
它会创建多少个 Pod？
- [ ] 零个 => expect requests verb=create resource=pods count=2
- [x] 一个 => expect requests verb=create resource=pods count=3
- [ ] 三个 => expect requests verb=create resource=pods count=5

它只创建差额。
` + "```" + `

` + "```do" + `
# 把期望的副本数（replicas）改为 3。
scale   rs/web --replicas=3
stabilize
` + "```" + `

` + "```check" + `
expect requests verb=create resource=pods count=3
` + "```" + `
-- hints.zh-CN --
扩容它。

试试 scale rs/web
--replicas=3。
`

// withZH is scaleLesson with a Chinese header and files.
func withZH(header, files string) string {
	return strings.Replace(scaleLesson, "level: beginner\n", "level: beginner\n"+header, 1) + files
}

// scaleLessonZH is scaleLesson in English and Simplified Chinese.
var scaleLessonZH = withZH(zhHeader, zhFiles)

// bilingual gives an English lesson a zh-CN translation that copies its
// guide and hints, for the tests of the English proofs: Check fails a
// lesson without every language.
func bilingual(src string) []byte {
	a := parseArchive(src)
	var b strings.Builder
	b.WriteString(a.comment)
	b.WriteString("title.zh-CN: 中文\nsummary.zh-CN: 中文。\n")
	for _, f := range a.files {
		b.WriteString("-- " + f.name + " --\n" + f.data)
	}
	for _, f := range a.files {
		if f.name == fileGuide || f.name == fileHints {
			b.WriteString("-- " + f.name + ".zh-CN" + map[string]string{fileGuide: ".md"}[f.name] + " --\n")
			b.WriteString(f.data)
		}
	}
	out := b.String()
	return []byte(strings.Replace(out, "-- guide.md.zh-CN.md --", "-- guide.zh-CN.md --", 1))
}

func TestParseReadsATranslation(t *testing.T) {
	l, err := Parse("02-scale-up.txtar", []byte(scaleLessonZH))
	require.NoError(t, err)

	assert.Equal(t, []string{"en", "zh-CN"}, l.LanguagesOf())
	assert.Empty(t, l.MissingLanguages())
	assert.Equal(t, "Scale up", l.Title, "the unmarked parts are English")
	zh := l.Translation("zh-CN")
	require.NotNil(t, zh)
	assert.Equal(t, "zh-CN", zh.Lang, "a translation names its language")
	assert.Nil(t, l.Translation("en"), "English is the lesson's own fields, not a translation")
	assert.Equal(t, "扩容", zh.Title)
	assert.Equal(t, "ReplicaSet 创建它缺少的 Pod。", zh.Summary)
	assert.Equal(t, []string{"扩容它。", "试试 scale rs/web\n--replicas=3。"}, zh.Hints)
	require.Len(t, zh.Pages, 2)
	p2 := zh.Pages[1]
	var kinds []Kind
	for _, b := range p2.Blocks {
		kinds = append(kinds, b.Kind)
	}
	assert.Equal(t, []Kind{KindPredict, KindDo, KindCheck}, kinds)
	q := p2.Blocks[0].Predict
	assert.Equal(t, "它会创建多少个 Pod？", q.Question)
	assert.Equal(t, 1, q.Answer)
	assert.Equal(t, "一个", q.Choices[1].Text)
	assert.Equal(t, "它只创建差额。", q.Explanation)
	do := p2.Blocks[1].Script.Commands
	require.Len(t, do, 2, "the translated comment is no command")
	pos := do[0].Src().Pos
	assert.Equal(t, script.Pos{File: "lesson 02-scale-up.txtar, guide.zh-CN.md", Line: 22, Col: 1}, pos,
		"a translated block's commands count lines in its own file")
}

func TestParseHoldsATranslationToTheEnglish(t *testing.T) {
	tests := []struct {
		name             string
		header, old, new string // zhFiles with old replaced by new; header replaces zhHeader when set
		want             string
	}{
		{
			name: "a missing page",
			old:  "# 两个 Pod\n\nrs/web 有两个 Pod。\n\n```check\nexpect pods -l app=web count=2 ready=true\n```\n---\n", new: "",
			want: "lesson 02-scale-up.txtar, guide.zh-CN.md:1:1: 1 page, but guide.md has 2; a translation has the English pages, split by the same --- lines",
		},
		{
			name: "a changed command",
			old:  "scale   rs/web --replicas=3", new: "scale rs/web --replicas=4",
			want: `lesson 02-scale-up.txtar, guide.zh-CN.md:22:1: page 2, block 2 (do): command 1 is "scale rs/web --replicas=4", the English block's is "scale rs/web --replicas=3" (guide.md:21); ` +
				"a translation's do, step and check blocks hold the English commands; only # comments may be translated",
		},
		{
			name: "a check with an expect more",
			old:  "count=2 ready=true\n", new: "count=2 ready=true\nexpect rs/web spec.replicas=2\n",
			want: "lesson 02-scale-up.txtar, guide.zh-CN.md:6:1: page 1, block 1 (check): 2 commands, the English block has 1 (guide.md:6); " +
				"a translation's do, step and check blocks hold the English commands; only # comments may be translated",
		},
		{
			name: "a different [x]",
			old:  "- [ ] 零个", new: "- [x] 零个",
			want: "", // set below: the second tick is an error of its own first
		},
		{
			name: "another choice ticked",
			old:  "- [ ] 零个 => expect requests verb=create resource=pods count=2\n- [x] 一个",
			new:  "- [x] 零个 => expect requests verb=create resource=pods count=2\n- [ ] 一个",
			want: "lesson 02-scale-up.txtar, guide.zh-CN.md:13:1: page 2, block 1 (predict): choice 1 is ticked [x], the English block ticks choice 2 (guide.md:11); " +
				"tick the choice the English ticks: the page grades every language with the English expects",
		},
		{
			name: "a choice fewer",
			old:  "- [ ] 三个 => expect requests verb=create resource=pods count=5\n", new: "",
			want: "lesson 02-scale-up.txtar, guide.zh-CN.md:11:1: page 2, block 1 (predict): 2 choices, the English block has 3 (guide.md:11); " +
				"a translation has the English choices, in the same order",
		},
		{
			name: "a choice decided by another expect",
			old:  "三个 => expect requests verb=create resource=pods count=5", new: "三个 => expect requests verb=create resource=pods count=6",
			want: `lesson 02-scale-up.txtar, guide.zh-CN.md:15:17: page 2, block 1 (predict), choice 3: its expect is "expect requests verb=create resource=pods count=6", ` +
				`the English choice's is "expect requests verb=create resource=pods count=5" (guide.md:15); ` +
				"a translation's choices are decided by the English expects; only their words are translated",
		},
		{
			name: "another kind of block",
			old:  "```check\nexpect pods", new: "```do\nexpect pods",
			want: "lesson 02-scale-up.txtar, guide.zh-CN.md:5:1: page 1, block 1: the English page has a check block here (guide.md:5), the zh-CN page has a do block; " +
				"a translation has the English blocks, in the same order",
		},
		{
			name: "a block missing",
			old:  "\n```check\nexpect pods -l app=web count=2 ready=true\n```\n", new: "\n",
			want: "lesson 02-scale-up.txtar, guide.zh-CN.md:1:1: page 1: the English page has a check block as block 1 (guide.md:5), the zh-CN page has 0 blocks; " +
				"a translation has the English blocks, in the same order",
		},
		{
			name: "a missing hint",
			old:  "扩容它。\n\n", new: "",
			want: "lesson 02-scale-up.txtar, hints.zh-CN:1:1: 1 hint, but hints has 2; a translation has one hint for each English hint, in the same order, one per paragraph",
		},
		{
			name: "a missing translation file",
			old:  "-- hints.zh-CN --\n扩容它。\n\n试试 scale rs/web\n--replicas=3。\n", new: "",
			want: "lesson 02-scale-up.txtar: the zh-CN translation has no hints.zh-CN file; a translation has guide.zh-CN.md, hints.zh-CN, title.zh-CN: and summary.zh-CN:",
		},
		{
			name:   "a missing header line",
			header: "summary.zh-CN: ReplicaSet 创建它缺少的 Pod。\n",
			want:   "lesson 02-scale-up.txtar: the zh-CN translation has no title.zh-CN: line; a translation has guide.zh-CN.md, hints.zh-CN, title.zh-CN: and summary.zh-CN:",
		},
		{
			name: "a misspelled locale in a file's name",
			old:  "-- guide.zh-CN.md --", new: "-- guide.zh-cn.md --",
			want: `lesson 02-scale-up.txtar:52:4: unknown file "guide.zh-cn.md"; did you mean "guide.zh-CN.md"?`,
		},
		{
			name: "a misspelled file of a translation",
			old:  "-- hints.zh-CN --", new: "-- hint.zh-CN --",
			want: `lesson 02-scale-up.txtar:81:4: unknown file "hint.zh-CN"; did you mean "hints.zh-CN"?`,
		},
		{
			name:   "a misspelled locale in a header key",
			header: strings.Replace(zhHeader, "title.zh-CN:", "title.zh_CN:", 1),
			want:   `lesson 02-scale-up.txtar:4:1: unknown header key "title.zh_CN"; did you mean "title.zh-CN"?`,
		},
		{
			name: "a language the project does not ship",
			old:  "-- hints.zh-CN --", new: "-- hints.fr --\n-- hints.zh-CN --",
			want: `lesson 02-scale-up.txtar:81:4: unknown file "hints.fr"; did you mean "hints"?`,
		},
		{
			name:   "an empty translated title",
			header: strings.Replace(zhHeader, "扩容", "", 1),
			want:   `lesson 02-scale-up.txtar:4:14: the title.zh-CN is empty`,
		},
	}
	// A second tick is the predict's own mistake, reported as in English.
	tests[3].want = "lesson 02-scale-up.txtar, guide.zh-CN.md:14:1: a second right answer (the first is choice 1); tick exactly one choice: - [x]"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			header, files := zhHeader, zhFiles
			if tt.header != "" {
				header = tt.header
			}
			if tt.old != "" {
				require.Contains(t, files, tt.old)
				files = strings.Replace(files, tt.old, tt.new, 1)
			}

			l, err := Parse("02-scale-up.txtar", []byte(withZH(header, files)))

			require.Error(t, err)
			assert.Nil(t, l)
			assert.Equal(t, tt.want, err.Error(), "one mistake, one error")
		})
	}
}

// TestParseComparesOnlyWhatParsed: a translated guide that does not parse
// is reported as such, not as a structure that differs.
func TestParseComparesOnlyWhatParsed(t *testing.T) {
	_, err := Parse("02-scale-up.txtar", []byte(withZH(zhHeader, strings.Replace(zhFiles, "stabilize\n```\n\n```check", "stabilise\n```\n\n```check", 1))))
	require.Error(t, err)
	assert.Equal(t, `lesson 02-scale-up.txtar, guide.zh-CN.md:23:1: unknown command "stabilise"; did you mean "stabilize"?`, err.Error())
}

func TestCheckProvesEveryLanguage(t *testing.T) {
	l, err := Parse("02-scale-up.txtar", []byte(scaleLessonZH))
	require.NoError(t, err)
	require.NoError(t, Check(l))

	// Parse keeps a translation's commands the English's, so only a lesson
	// changed after parsing can fail in one language alone: proof that the
	// translation's own blocks run, from its own file.
	zh := l.Translation("zh-CN")
	check, err := parseBlock(KindCheck, "lesson 02-scale-up.txtar, guide.zh-CN.md", "expect requests verb=create resource=pods count=4\n", 2, 27)
	require.NoError(t, err)
	zh.Pages[1].Blocks[2] = check

	err = Check(l)

	require.Error(t, err)
	assert.Equal(t, "lesson 02-scale-up.txtar: zh-CN: page 2: its checks must hold after its do blocks: "+
		"lesson 02-scale-up.txtar, guide.zh-CN.md:27:1: expect requests verb=create resource=pods count=4: found 3", strings.SplitN(err.Error(), " (the last", 2)[0])
	var ce *CheckError
	assert.True(t, errors.As(err, &ce))
}

func TestCheckFailsALessonWithoutEveryLanguage(t *testing.T) {
	l, err := Parse("02-scale-up.txtar", []byte(scaleLesson))
	require.NoError(t, err, "a lesson in English alone parses: the language rule is Check's")
	assert.Equal(t, []string{"zh-CN"}, l.MissingLanguages())
	assert.Equal(t, []string{"en"}, l.LanguagesOf())

	err = Check(l)

	require.Error(t, err)
	assert.Equal(t, "lesson 02-scale-up.txtar: every lesson ships in every language the project ships (en and zh-CN), "+
		"but it has no zh-CN translation: write guide.zh-CN.md, hints.zh-CN, title.zh-CN: and summary.zh-CN:", err.Error())
}

func TestBundleCarriesTranslations(t *testing.T) {
	l, err := Parse("02-scale-up.txtar", []byte(scaleLessonZH))
	require.NoError(t, err)
	data, err := MarshalBundle([]*Lesson{l})
	require.NoError(t, err)
	assert.Contains(t, string(data), "\"translations\": [\n\t\t\t{\n", "a list of translations")
	assert.Contains(t, string(data), "\t\t\t\t\"lang\": \"zh-CN\",\n", "each naming its language")

	loaded, err := LoadBundle(data)

	require.NoError(t, err)
	require.Equal(t, []*Lesson{l}, loaded, "commands and their positions included")
	assert.Equal(t, "lesson 02-scale-up.txtar, guide.zh-CN.md",
		loaded[0].Translation("zh-CN").Pages[1].Blocks[1].Script.Commands[0].Src().Pos.File)
}

// withLanguage adds lang to Languages for the test, as a project shipping
// a third language would: the order of translations shows only with two.
func withLanguage(t *testing.T, lang string) {
	old := Languages
	Languages = append(slices.Clone(Languages), lang)
	t.Cleanup(func() { Languages = old })
}

func TestParseListsTranslationsInTheOrderOfLanguages(t *testing.T) {
	withLanguage(t, "fr")
	fr := strings.NewReplacer("zh-CN", "fr").Replace(zhFiles)
	// The header names French first: the order of Languages, not the
	// file's, decides.
	l, err := Parse("02-scale-up.txtar", []byte(withZH("title.fr: Agrandir\nsummary.fr: Le ReplicaSet crée les Pods qui manquent.\n"+zhHeader, fr+zhFiles)))
	require.NoError(t, err)

	var langs []string
	for _, tr := range l.Translations {
		langs = append(langs, tr.Lang)
	}
	assert.Equal(t, []string{"zh-CN", "fr"}, langs)
	assert.Equal(t, "Agrandir", l.Translation("fr").Title)
	assert.Equal(t, []string{"en", "zh-CN", "fr"}, l.LanguagesOf())
}

func TestLoadBundleRefusesTranslationsItCannotFindByLanguage(t *testing.T) {
	withLanguage(t, "fr")
	l, err := Parse("02-scale-up.txtar", []byte(scaleLessonZH))
	require.NoError(t, err)
	zh := l.Translation("zh-CN")
	fr := &Translation{Lang: "fr", Title: "Agrandir", Pages: zh.Pages}
	outOfPlace := func(lang string) string {
		return "the lesson bundle has a translation of lesson 02-scale-up into " + lang +
			" out of place: a lesson's translations are into the languages this engine ships, each once, in the order zh-CN, fr"
	}
	tests := []struct {
		name         string
		translations []*Translation
		want         string
	}{
		{"a language not shipped", []*Translation{zh, {Lang: "de", Pages: zh.Pages}}, outOfPlace(`"de"`)},
		{"English as a translation", []*Translation{{Lang: "en", Pages: zh.Pages}, zh}, outOfPlace(`"en"`)},
		{"a language twice", []*Translation{zh, zh}, outOfPlace(`"zh-CN"`)},
		{"out of order", []*Translation{fr, zh}, outOfPlace(`"zh-CN"`)},
		{"a null", []*Translation{zh, nil}, "the lesson bundle lacks a translation of lesson 02-scale-up"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l.Translations = tt.translations
			data, err := MarshalBundle([]*Lesson{l})
			require.NoError(t, err)

			_, err = LoadBundle(data)

			assert.EqualError(t, err, tt.want)
		})
	}
	l.Translations = []*Translation{zh, fr}
	data, err := MarshalBundle([]*Lesson{l})
	require.NoError(t, err)
	_, err = LoadBundle(data)
	assert.NoError(t, err, "each language once, in order")
}

func TestLinksIncludeTheTranslations(t *testing.T) {
	src := withZH(zhHeader, strings.Replace(zhFiles, "rs/web 有两个 Pod。", "rs/web 有两个 [Pod](glossary:pod)。", 1))
	src = strings.Replace(src, "扩容它。", "读一读[认领](upstream:claimPods)。", 1)
	l, err := Parse("02-scale-up.txtar", []byte(src))
	require.NoError(t, err)
	assert.Equal(t, []Link{
		{Scheme: SchemeGlossary, Target: "pod", Text: "Pod", Where: "guide.zh-CN.md:3"},
		{Scheme: SchemeUpstream, Target: "claimPods", Text: "认领", Where: "hints.zh-CN, paragraph 1"},
	}, l.Links())
}
