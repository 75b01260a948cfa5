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
	for _, e := range Lint(l, []string{"pod", "controller-ref", "workqueue"}) {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{
		`lesson 09-links.txtar, guide.md:3: glossary link "controler-ref" is no entry of the glossary; did you mean "controller-ref"?`,
		`lesson 09-links.txtar, guide.md:4: upstream link "pkg/controller/nowhere.go" is no file of the upstream manifest (internal/upstream)`,
		`lesson 09-links.txtar, guide.md:5: upstream link "syncReplicaSett" is no function core/source links to; did you mean "syncReplicaSet"?`,
	}, got)
}

func TestGlossaryIDsReadsThePagesGlossary(t *testing.T) {
	js, err := os.ReadFile("../../site/glossary.js")
	require.NoError(t, err)
	ids, err := GlossaryIDs(string(js))
	require.NoError(t, err)
	assert.Contains(t, ids, "workqueue")
	assert.Contains(t, ids, "reflector")
	assert.NotContains(t, ids, "queue", "a group's id is not an entry's")
	assert.Equal(t, strings.Count(string(js), "\n\t\t\tid: \""), len(ids), "every entry, once")

	_, err = GlossaryIDs("globalThis.RlabGlossary = {groups: []};")
	assert.ErrorContains(t, err, "no entries")
}
