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
