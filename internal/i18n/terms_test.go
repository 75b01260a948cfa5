package i18n

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/lessons"
)

// table builds a terms file from the rows of its two tables, so that each
// test below states only what it breaks.
func table(translated, kept []string) string {
	var b strings.Builder
	b.WriteString("# Terms\n\nIntroduction.\n\n## Translated terms\n\n| English | 中文 | Source |\n| --- | --- | --- |\n")
	for _, r := range translated {
		b.WriteString(r + "\n")
	}
	b.WriteString("\n## Kept terms\n\n| Term | What it is |\n| --- | --- |\n")
	for _, r := range kept {
		b.WriteString(r + "\n")
	}
	return b.String()
}

const (
	src       = "https://kubernetes.io/zh-cn/docs/concepts/architecture/controller/"
	rowCtrl   = "| controller | 控制器 | " + src + " |"
	rowQueue  = "| workqueue | 工作队列 | ours: not on the zh-cn pages |"
	rowTmpl   = "| pod template | Pod 模板 | " + src + " |"
	rowPod    = "| Pod | API kind |"
	rowRS     = "| ReplicaSet | API kind |"
	rowRecLab = "| Reconcile Lab | this project |"
)

func TestParseReadsBothTablesInFileOrder(t *testing.T) {
	terms, err := Parse("zh-CN", "terms.zh-CN.md", []byte(table(
		[]string{rowCtrl, rowQueue, rowTmpl},
		[]string{rowPod, rowRS, rowRecLab})))
	require.NoError(t, err)

	tr := terms.Translations()
	require.Len(t, tr, 3)
	assert.Equal(t, []string{"controller", "workqueue", "pod template"}, []string{tr[0].English, tr[1].English, tr[2].English})
	assert.Equal(t, Translation{English: "controller", Text: "控制器", Source: src, Line: 9}, tr[0])

	text, ok := terms.Translate("pod template")
	assert.True(t, ok)
	assert.Equal(t, "Pod 模板", text)
	_, ok = terms.Translate("Controller")
	assert.False(t, ok, "Translate matches the English exactly")

	assert.Equal(t, map[string]string{"controller": "控制器", "workqueue": "工作队列", "pod template": "Pod 模板"}, terms.TranslatedMap())
	assert.True(t, terms.IsKept("ReplicaSet"))
	assert.True(t, terms.IsKept("Reconcile Lab"))
	assert.False(t, terms.IsKept("replicaset"), "kept terms keep their case")
	assert.Equal(t, map[string]bool{"Pod": true, "ReplicaSet": true, "Reconcile Lab": true}, terms.KeptSet())
	assert.Equal(t, []Kept{{Term: "Pod", What: "API kind", Line: 17}, {Term: "ReplicaSet", What: "API kind", Line: 18}, {Term: "Reconcile Lab", What: "this project", Line: 19}}, terms.KeptTerms())
}

func TestAccessorsHandOutCopies(t *testing.T) {
	terms, err := Parse("zh-CN", "t.md", []byte(table([]string{rowCtrl}, []string{rowPod})))
	require.NoError(t, err)
	terms.TranslatedMap()["controller"] = "changed"
	terms.KeptSet()["Deployment"] = true
	terms.Translations()[0].Text = "changed"
	terms.KeptTerms()[0].Term = "changed"

	text, _ := terms.Translate("controller")
	assert.Equal(t, "控制器", text)
	assert.False(t, terms.IsKept("Deployment"))
	assert.Equal(t, "控制器", terms.Translations()[0].Text)
	assert.Equal(t, "Pod", terms.KeptTerms()[0].Term)
}

// TestParseRefusesEachFault breaks a valid table in one way per case and
// wants Parse to name the fault and its line.
func TestParseRefusesEachFault(t *testing.T) {
	for _, tc := range []struct {
		name string
		file string
		want string
	}{
		{"duplicate English", table([]string{rowCtrl, rowQueue, "| controller | 管控器 | " + src + " |"}, []string{rowPod}),
			`t.md:11: duplicate English term "controller" (first on line 9)`},
		{"duplicate English in another case", table([]string{rowCtrl, "| Controller | 控制器 | " + src + " |"}, []string{rowPod}),
			`t.md:10: duplicate English term "Controller" (first on line 9)`},
		{"duplicate kept term", table([]string{rowCtrl}, []string{rowPod, rowRS, rowPod}),
			`t.md:17: duplicate kept term "Pod" (first on line 15)`},
		{"kept and translated", table([]string{rowCtrl, "| Pod | 容器组 | " + src + " |"}, []string{rowPod}),
			`t.md:10: "Pod" is both translated and kept (kept on line 16)`},
		{"empty English", table([]string{"|  | 控制器 | " + src + " |"}, []string{rowPod}),
			`t.md:9: empty cell in column 1 of the "## Translated terms" table`},
		{"empty translation", table([]string{"| controller |  | " + src + " |"}, []string{rowPod}),
			`t.md:9: empty cell in column 2 of the "## Translated terms" table`},
		{"empty source", table([]string{"| controller | 控制器 |  |"}, []string{rowPod}),
			`t.md:9: empty cell in column 3 of the "## Translated terms" table`},
		{"empty kept description", table([]string{rowCtrl}, []string{"| Pod |  |"}),
			`t.md:15: empty cell in column 2 of the "## Kept terms" table`},
		{"translation equal to its English", table([]string{"| controller | controller | " + src + " |"}, []string{rowPod}),
			`t.md:9: translation "controller" of "controller" has no word of the locale's script`},
		{"English word in a translation", table([]string{"| pod template | pod 模板 | " + src + " |"}, []string{rowPod}),
			`t.md:9: translation "pod 模板" of "pod template" uses "pod", which is not a kept term`},
		{"source on another site", table([]string{"| controller | 控制器 | https://kubernetes.io/docs/concepts/architecture/controller/ |"}, []string{rowPod}),
			`t.md:9: source of "controller" must be a page under https://kubernetes.io/zh-cn/`},
		{"ours without a reason", table([]string{"| controller | 控制器 | ours: |"}, []string{rowPod}),
			`t.md:9: source of "controller" must be`},
		{"kept term in Chinese", table([]string{rowCtrl}, []string{"| 容器组 | not English |"}),
			`t.md:15: kept term "容器组" has no Latin letter`},
		{"kept term half Chinese", table([]string{rowCtrl}, []string{"| Pod 模板 | mixed |"}),
			`t.md:15: kept term "Pod 模板" is not all English`},
		{"row with too many cells", table([]string{"| controller | 控制器 | " + src + " | extra |"}, []string{rowPod}),
			`t.md:9: row has 4 cells; the "## Translated terms" table has 3`},
		{"wrong header", strings.Replace(table([]string{rowCtrl}, []string{rowPod}), "| Term | What it is |", "| Word | Why |", 1),
			`t.md:13: the "## Kept terms" table's header is ["Word" "Why"]; want | Term | What it is |`},
		{"no separator row", strings.Replace(table([]string{rowCtrl}, []string{rowPod}), "| Term | What it is |\n| --- | --- |\n", "| Term | What it is |\n", 1),
			`t.md:14: the "## Kept terms" table's header is not followed by a separator row`},
		{"missing section", "# Terms\n\n## Translated terms\n\n| English | 中文 | Source |\n| --- | --- | --- |\n" + rowCtrl + "\n",
			`no "## Kept terms" section`},
		{"section without a table", "## Translated terms\n\nNothing yet.\n\n## Kept terms\n\n| Term | What it is |\n| --- | --- |\n" + rowPod + "\n",
			`t.md:1: the "## Translated terms" section has no table`},
		{"second table in a section", table([]string{rowCtrl}, []string{rowPod, "", "| Term | What it is |", "| --- | --- |", rowRS}),
			`t.md:17: second table in the "## Kept terms" section`},
		{"second section", table([]string{rowCtrl}, []string{rowPod}) + "\n## Kept terms\n\n| Term | What it is |\n| --- | --- |\n" + rowRS + "\n",
			`t.md:17: second "## Kept terms" section (the first is on line 11)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("zh-CN", "t.md", []byte(tc.file))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestParseReportsEveryFaultAtOnce(t *testing.T) {
	_, err := Parse("zh-CN", "t.md", []byte(table(
		[]string{rowCtrl, rowCtrl, "| kind | kind | " + src + " |"},
		[]string{rowPod, rowPod})))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `t.md:10: duplicate English term "controller"`)
	assert.Contains(t, err.Error(), `t.md:11: translation "kind" of "kind" has no word`)
	assert.Contains(t, err.Error(), `t.md:18: duplicate kept term "Pod"`)
}

// TestCommittedZhCNTableIsValid parses i18n/terms.zh-CN.md as rlab lessons
// --check and the browser suite load it.
func TestCommittedZhCNTableIsValid(t *testing.T) {
	assert.Contains(t, Locales(), "zh-CN")
	terms, err := Load("zh-CN")
	require.NoError(t, err)
	assert.Equal(t, "zh-CN", terms.Locale)

	text, ok := terms.Translate("label selector")
	assert.True(t, ok)
	assert.Equal(t, "标签选择算符", text, "as the zh-cn style guide's list of terms has it")
	assert.True(t, terms.IsKept("FailedCreate"))

	_, err = Load("xx-XX")
	assert.ErrorContains(t, err, `no table of terms for locale "xx-XX"`)
}

// TestCommittedZhCNTableCoversTheCurriculum names the concepts the lessons
// and the glossary teach and the words the engine prints: each must be in
// the table, translated or kept, or a translator meets it unguided.
func TestCommittedZhCNTableCoversTheCurriculum(t *testing.T) {
	terms, err := Load("zh-CN")
	require.NoError(t, err)
	for _, concept := range []string{
		"controller", "control loop", "reconcile", "desired state", "current state",
		"label", "label selector", "selector", "owner", "dependent", "owner reference",
		"controller reference", "orphan", "adopt", "release", "garbage collection",
		"garbage collector", "cascading deletion", "foreground", "background",
		"expectations", "workqueue", "key", "worker", "sync", "rate limiting", "back-off",
		"reflector", "indexer", "cache", "watch", "list", "relist", "resync", "tombstone",
		"resource version", "conflict", "scheduler", "node", "ready", "available",
		"unavailable", "rolling update", "rollout", "revision", "surge", "max surge",
		"max unavailable", "pause", "resume", "undo", "roll back", "progress deadline",
		"proportional scaling", "slow start", "satisfied", "expired", "dirty", "terminating",
	} {
		_, ok := terms.Translate(concept)
		assert.True(t, ok, "no translation of %q", concept)
	}
	for _, word := range []string{
		"ReplicaSet", "ReplicationController", "Deployment", "Pod", "Node", "Event",
		"Finalizer", "Informer", "DeltaFIFO", "kubectl", "kubelet", "resourceVersion",
		"spec.replicas", "status.readyReplicas", "metadata.ownerReferences",
		"pod-template-hash", "maxSurge", "maxUnavailable", "FailedCreate", "SuccessfulCreate",
		"ProgressDeadlineExceeded", "syncReplicaSet", "manageReplicas", "Ready", "Available",
	} {
		assert.True(t, terms.IsKept(word), "%q is not a kept term", word)
	}
}

// upstreamLink matches a lesson's link to upstream code, whose text a
// translation keeps: [syncReplicaSet](upstream:syncReplicaSet).
var upstreamLink = regexp.MustCompile(`\[([^\]]+)\]\(upstream:[^)]+\)`)

// TestLessonsUpstreamLinkTextsAreKept reads every lesson's links to
// upstream code: their texts are function names, which a Chinese lesson
// keeps, so each must be a kept term for the lesson check to pass.
func TestLessonsUpstreamLinkTextsAreKept(t *testing.T) {
	terms, err := Load("zh-CN")
	require.NoError(t, err)
	names, err := fs.Glob(lessons.FS(), "*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	links := 0
	for _, name := range names {
		src, err := fs.ReadFile(lessons.FS(), name)
		require.NoError(t, err)
		for _, m := range upstreamLink.FindAllStringSubmatch(string(src), -1) {
			links++
			assert.True(t, terms.IsKept(m[1]), "%s links upstream code as %q, which is not a kept term", name, m[1])
		}
	}
	assert.Positive(t, links)
}
