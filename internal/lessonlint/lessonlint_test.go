package lessonlint

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/lesson"
)

const lessonText = `title: Links
summary: Where links lead.
level: beginner
-- setup --
create rs web --replicas=1 --selector=app=web
-- guide.md --
# Links

A [pod](glossary:pod), a [typo](glossary:controler-ref), [the sync](upstream:syncReplicaSet),
[a file](upstream:pkg/controller/controller_utils.go), [no file](upstream:pkg/controller/nowhere.go)
and [no function](upstream:syncReplicaSett).

## The workqueue, in a heading, is no use of it

The ` + "`workqueue`" + ` as code is none either. Three [slow starts](glossary:slow-start) use no
start; the workqueue here is its first use, and adopted pods were adopted; the key is
an everyday word.
-- goal --
expect pods -l app=web count=2
-- hints --
See [the queue](glossary:workqueue).
-- solution --
scale rs/web --replicas=2
`

func TestLintFindsTheLinksThatLeadNowhere(t *testing.T) {
	l, err := lesson.Parse("09-links.txtar", []byte(lessonText))
	require.NoError(t, err)
	var got []string
	glossary := []Entry{{"pod", "pod"}, {"controller-ref", "controllerRef"}, {"workqueue", "workqueue"},
		{"slow-start", "slow start"}, {"adopt", "adopt"}, {"key", "key"}}
	for _, e := range Lint(l, glossary) {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{
		`lesson 09-links.txtar, guide.md:3: glossary link "controler-ref" is no entry of the glossary; did you mean "controller-ref"?`,
		`lesson 09-links.txtar, guide.md:4: upstream link "pkg/controller/nowhere.go" is no file of the upstream manifest (internal/upstream)`,
		`lesson 09-links.txtar, guide.md:5: upstream link "syncReplicaSett" is no function core/source links to; did you mean "syncReplicaSet"?`,
		`lesson 09-links.txtar, guide.md:10: the first use of "workqueue" is not linked to the glossary: write [workqueue](glossary:workqueue)`,
		`lesson 09-links.txtar, guide.md:10: the first use of "adopted" is not linked to the glossary: write [adopted](glossary:adopt)`,
	}, got)
}

func TestGlossaryReadsThePagesGlossary(t *testing.T) {
	js, err := os.ReadFile("../../site/glossary.js")
	require.NoError(t, err)
	entries, err := Glossary(string(js))
	require.NoError(t, err)
	var ids []string
	for _, e := range entries {
		ids = append(ids, e.ID)
	}
	assert.Contains(t, entries, Entry{ID: "deltafifo", Term: "DeltaFIFO"})
	assert.Contains(t, ids, "workqueue")
	assert.Contains(t, ids, "reflector")
	assert.NotContains(t, ids, "queue", "a group's id is not an entry's")
	assert.Equal(t, strings.Count(string(js), "\n\t\t\tid: \""), len(ids), "every entry, once")

	_, err = Glossary("globalThis.RlabGlossary = {groups: []};")
	assert.ErrorContains(t, err, "no entries")
}

// bilingualText is a lesson whose Chinese guide and hints link what the
// English link, but for the mistakes the test below expects.
const bilingualText = `title: Links
summary: Where links lead.
level: beginner
title.zh-CN: 链接
summary.zh-CN: 链接通向何处。
-- setup --
create rs web --replicas=1 --selector=app=web
-- guide.md --
# Links

A [pod](glossary:pod) and its [sync](upstream:syncReplicaSet), and the [pod](glossary:pod) again.
-- goal --
expect pods -l app=web count=2
-- hints --
See [the queue](glossary:workqueue).
-- solution --
scale rs/web --replicas=2
-- guide.zh-CN.md --
# 链接

一个 [Pod](glossary:pod)，以及它的[同步](upstream:syncReplicaSet)（sync）和[控制器](glossary:controler)（controller）。
-- hints.zh-CN --
看看[队列](glossary:workqueue)。
`

func TestLintHoldsATranslationToTheEnglishLinks(t *testing.T) {
	l, err := lesson.Parse("09-links.txtar", []byte(bilingualText))
	require.NoError(t, err)
	var got []string
	glossary := []Entry{{"pod", "pod"}, {"controller", "controller"}, {"workqueue", "workqueue"}}
	for _, e := range Lint(l, glossary) {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{
		`lesson 09-links.txtar, guide.zh-CN.md:3: glossary link "controler" is no entry of the glossary; did you mean "controller"?`,
		`lesson 09-links.txtar, guide.zh-CN.md:1: page 1 in zh-CN does not link glossary:pod, which the English links at guide.md:3; link it where the translation first uses it`,
		`lesson 09-links.txtar, guide.zh-CN.md:3: page 1 in zh-CN links glossary:controler, which the English does not; a translation links what the English links`,
	}, got)

	fixed := strings.Replace(bilingualText, "和[控制器](glossary:controler)（controller）", "和又一个 [Pod](glossary:pod)", 1)
	l, err = lesson.Parse("09-links.txtar", []byte(fixed))
	require.NoError(t, err)
	assert.Empty(t, Lint(l, glossary), "the same links, in another order")
}

// translatedText is a lesson whose Chinese is written in Chinese, but for
// one English word planted in each of its texts, which the test below
// expects the lint to find, and the kept terms and glosses it must not.
const translatedText = `title: Words
summary: Words left in English.
level: beginner
title.zh-CN: 词语 title
summary.zh-CN: ReplicaSet 的摘要 summary。
-- setup --
create rs web --replicas=1 --selector=app=web
-- guide.md --
# Words

A page.

` + "```predict" + `
How many pods?
- [x] two => expect pods -l app=web count=2
- [ ] one => expect pods -l app=web count=1
` + "```" + `

` + "```do" + `
# scale it
scale rs/web --replicas=2
` + "```" + `

` + "```check" + `
expect pods -l app=web count=2
` + "```" + `

---

# Another page

Nothing to do.
-- goal --
expect pods -l app=web count=2
-- hints --
Scale it.
-- solution --
scale rs/web --replicas=2
-- guide.zh-CN.md --
# 词语

**控制器**（controller）扩容 ` + "`rs/web`" + `。

` + "```predict" + `
会有几个 Pod？
- [x] 两个 => expect pods -l app=web count=2
- [ ] 一个 pods => expect pods -l app=web count=1
` + "```" + `

` + "```do" + `
# 扩容 it
scale rs/web --replicas=2
` + "```" + `

` + "```check" + `
# 核对 it
expect pods -l app=web count=2
` + "```" + `

---

# 另一页

[没有](glossary:pod)什么要做的，[informer](glossary:informer)。
-- hints.zh-CN --
扩容 it。
`

func TestLintFindsEnglishWordsLeftInATranslation(t *testing.T) {
	l, err := lesson.Parse("09-words.txtar", []byte(translatedText))
	require.NoError(t, err)

	var got []string
	for _, e := range englishLeft(l) {
		got = append(got, strings.SplitN(e.Error(), "; translate", 2)[0])
	}

	assert.Equal(t, []string{
		`lesson 09-words.txtar, title.zh-CN: the title in zh-CN has English words that are not kept terms: "title"`,
		`lesson 09-words.txtar, summary.zh-CN: the summary in zh-CN has English words that are not kept terms: "summary"`,
		`lesson 09-words.txtar, guide.zh-CN.md:1: page 1 in zh-CN has English words that are not kept terms: "pods", "it"`,
		`lesson 09-words.txtar, guide.zh-CN.md:23: page 2 in zh-CN has English words that are not kept terms: "informer"`,
		`lesson 09-words.txtar, hints.zh-CN, paragraph 1: hint 1 in zh-CN has English words that are not kept terms: "it"`,
	}, got)
	require.NotEmpty(t, englishLeft(l))
	assert.Contains(t, englishLeft(l)[0].Error(), `; translate each as i18n/terms.zh-CN.md does, or, if kubernetes.io/zh-cn keeps it English, add it to that table's kept terms`)

	fixed := translatedText
	for _, r := range [][2]string{{"词语 title", "词语"}, {"摘要 summary", "摘要"}, {"一个 pods", "一个"}, {"扩容 it", "扩容"}, {"核对 it", "核对"},
		{"[informer](glossary:informer)", "[Informer](glossary:informer)"}} {
		fixed = strings.ReplaceAll(fixed, r[0], r[1])
	}
	l, err = lesson.Parse("09-words.txtar", []byte(fixed))
	require.NoError(t, err)
	assert.Empty(t, englishLeft(l), "kept terms, a gloss, code, commands, expects and link targets are no English left in")
}
