package lesson

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/script"
)

// scaleLesson is a small, valid lesson the tests parse, prove and break. Its
// line numbers matter: the error tests below name them.
const scaleLesson = `title: Scale up
summary: A ReplicaSet creates the pods it is missing.
level: beginner
-- setup --
create rs web --replicas=2 --selector=app=web
stabilize
-- guide.md --
# Two pods

rs/web has two pods.

` + "```check" + `
expect pods -l app=web count=2 ready=true
` + "```" + `
---
# Scale

` + "```predict" + `
How many pods will it create?
- [ ] none => expect requests verb=create resource=pods count=2
- [x] one => expect requests verb=create resource=pods count=3
- [ ] three => expect requests verb=create resource=pods count=5

It creates the difference.
` + "```" + `

` + "```do" + `
scale rs/web --replicas=3
stabilize
` + "```" + `

` + "```yaml" + `
kind: ReplicaSet
---
` + "```" + `

` + "```check" + `
expect requests verb=create resource=pods count=3
` + "```" + `
-- goal --
expect rs/web status.readyReplicas=3
-- hints --
Scale it.

Try scale rs/web
--replicas=3.
-- solution --
scale rs/web --replicas=3
stabilize
`

func TestParseReadsEveryPart(t *testing.T) {
	l, err := Parse("lessons/02-scale-up.txtar", []byte(scaleLesson))
	require.NoError(t, err)

	assert.Equal(t, "02-scale-up", l.ID)
	assert.Equal(t, 2, l.Number)
	assert.Equal(t, "scale-up", l.Slug)
	assert.Equal(t, "02-scale-up.txtar", l.File())
	assert.Equal(t, "Scale up", l.Title)
	assert.Equal(t, "A ReplicaSet creates the pods it is missing.", l.Summary)
	assert.Equal(t, Beginner, l.Level)
	assert.Len(t, l.Setup.Script.Commands, 2)
	assert.Len(t, l.Goal.Script.Commands, 1)
	assert.Len(t, l.Solution.Script.Commands, 2)
	assert.Equal(t, []string{"Scale it.", "Try scale rs/web\n--replicas=3."}, l.Hints)

	require.Len(t, l.Pages, 2, "the --- inside the yaml block is not a page break")
	p1, p2 := l.Pages[0], l.Pages[1]
	assert.Equal(t, 1, p1.Line)
	assert.True(t, strings.HasPrefix(p1.Text, "# Two pods\n"), p1.Text)
	assert.True(t, strings.HasSuffix(p1.Text, "```\n"), "the page ends at its last non-blank line")
	require.Len(t, p1.Blocks, 1)
	assert.Equal(t, KindCheck, p1.Blocks[0].Kind)
	assert.Equal(t, 6, p1.Blocks[0].Line, "the line after the fence, in guide.md")
	assert.Equal(t, 6, p1.Blocks[0].Script.Commands[0].Src().Pos.Line, "commands count lines in guide.md")
	assert.Equal(t, "lesson 02-scale-up.txtar, guide.md", p1.Blocks[0].Script.Commands[0].Src().Pos.File)

	assert.Equal(t, 9, p2.Line)
	var kinds []Kind
	for _, b := range p2.Blocks {
		kinds = append(kinds, b.Kind)
		assert.Equal(t, 2, b.Page)
	}
	assert.Equal(t, []Kind{KindPredict, KindDo, KindCheck}, kinds, "the yaml block is plain Markdown")
	assert.Contains(t, p2.Text, "kind: ReplicaSet\n---\n", "every block stays in the page's text")
	assert.Len(t, p2.Do(), 1)
	assert.Len(t, p2.Checks(), 1)
	q := p2.Blocks[0].Predict
	require.NotNil(t, q)
	assert.Equal(t, "How many pods will it create?", q.Question)
	assert.Equal(t, 1, q.Answer)
	assert.Equal(t, "It creates the difference.", q.Explanation)
	var texts, expects []string
	for _, c := range q.Choices {
		texts = append(texts, c.Text)
		expects = append(expects, c.Expect.Text)
		assert.Equal(t, KindCheck, c.Expect.Kind)
	}
	assert.Equal(t, []string{"none", "one", "three"}, texts)
	assert.Equal(t, []string{
		"expect requests verb=create resource=pods count=2\n",
		"expect requests verb=create resource=pods count=3\n",
		"expect requests verb=create resource=pods count=5\n",
	}, expects)
	// The expect's position is where it stands in guide.md: line 14 (the
	// second choice), after "- [x] one => ".
	pos := q.Choices[1].Expect.Script.Commands[0].Src().Pos
	assert.Equal(t, [2]int{14, 14}, [2]int{pos.Line, pos.Col})
}

// choices are scaleLesson's predict choices, as written.
const choices = "- [ ] none => expect requests verb=create resource=pods count=2\n" +
	"- [x] one => expect requests verb=create resource=pods count=3\n" +
	"- [ ] three => expect requests verb=create resource=pods count=5\n"

func TestParseErrorsNameFileBlockLineAndColumn(t *testing.T) {
	tests := []struct {
		name     string
		old, new string // scaleLesson with old replaced by new
		file     string // the file name; 02-scale-up.txtar if empty
		want     string // one line of the error
	}{
		{
			name: "a typo in the goal",
			old:  "expect rs/web status.readyReplicas=3", new: "expect rs/web status.ready=3",
			want: `lesson 02-scale-up.txtar, goal:1:15: unknown field "status.ready"; did you mean "status.readyReplicas"?`,
		},
		{
			name: "a typo in setup",
			old:  "create rs web --replicas=2", new: "create rs web --replica=2",
			want: `lesson 02-scale-up.txtar, setup:1:15: unknown flag "--replica" for create rs; did you mean "--replicas"?`,
		},
		{
			name: "a typo in a do block counts lines in guide.md",
			old:  "scale rs/web --replicas=3\nstabilize\n```", new: "scale rs/web --replicas=3\nstabilise\n```",
			want: `lesson 02-scale-up.txtar, guide.md:22:1: unknown command "stabilise"; did you mean "stabilize"?`,
		},
		{
			name: "a goal that changes the world",
			old:  "-- goal --\n", new: "-- goal --\nscale rs/web --replicas=3\n",
			want: `lesson 02-scale-up.txtar, goal:1:1: a goal holds only expect commands; "scale" is not one; setup builds the world and solution changes it`,
		},
		{
			name: "a check that changes the world",
			old:  "expect pods -l app=web count=2 ready=true", new: "kill pods -l app=web --pick=oldest",
			want: `lesson 02-scale-up.txtar, guide.md:6:1: a check block holds only expect commands; "kill" is not one; commands the learner runs go in a do block`,
		},
		{
			name: "a seed outside setup",
			old:  "-- solution --\n", new: "-- solution --\nseed 4\n",
			want: `lesson 02-scale-up.txtar, solution:1:1: only setup may seed the world; move seed to the top of setup`,
		},
		{
			name: "a misspelled block kind",
			old:  "```check\nexpect requests", new: "```chek\nexpect requests",
			want: `lesson 02-scale-up.txtar, guide.md:30:4: unknown block kind "chek"; did you mean "check"?`,
		},
		{
			name: "a block kind in upper case",
			old:  "```do", new: "```Do",
			want: `lesson 02-scale-up.txtar, guide.md:20:4: unknown block kind "Do"; did you mean "do"?`,
		},
		{
			name: "an empty do block",
			old:  "scale rs/web --replicas=3\nstabilize\n```", new: "# nothing yet\n```",
			want: `lesson 02-scale-up.txtar, guide.md:20:1: an empty do block; write the commands the learner runs`,
		},
		{
			name: "a fenced block never closed",
			old:  "expect requests verb=create resource=pods count=3\n```\n", new: "expect requests verb=create resource=pods count=3\n",
			want: "lesson 02-scale-up.txtar, guide.md:30:1: this fenced block is never closed; end it with a line of ```",
		},
		{
			name: "an empty page",
			old:  "---\n# Scale", new: "---\n\n---\n# Scale",
			want: `lesson 02-scale-up.txtar, guide.md:8:1: page 2 is empty; write the page's text between its --- lines`,
		},
		{
			name: "a predict without a right answer",
			old:  "- [x] one", new: "- [ ] one",
			want: `lesson 02-scale-up.txtar, guide.md:11:1: a predict block without a right answer; tick the right choice: - [x]`,
		},
		{
			name: "a predict with two right answers",
			old:  "- [ ] three", new: "- [X] three",
			want: `lesson 02-scale-up.txtar, guide.md:15:1: a second right answer (the first is choice 2); tick exactly one choice: - [x]`,
		},
		{
			name: "a choice without its expect",
			old:  "- [ ] none => expect requests verb=create resource=pods count=2", new: "- [ ] none",
			want: `lesson 02-scale-up.txtar, guide.md:13:7: a choice without the expect that decides it; end it with => and an expect that holds after the step exactly when this answer is right: none => expect requests verb=create resource=pods count=4`,
		},
		{
			name: "a choice decided by a command that changes the world",
			old:  "- [ ] three => expect requests verb=create resource=pods count=5", new: "- [ ] three =>   kill pods -l app=web",
			want: `lesson 02-scale-up.txtar, guide.md:15:18: a check block holds only expect commands; "kill" is not one; commands the learner runs go in a do block`,
		},
		{
			name: "a typo in a choice's expect",
			old:  "- [x] one => expect requests verb=create resource=pods count=3", new: "- [x] one => expect requests verb=create resource=pods cnt=3",
			want: `lesson 02-scale-up.txtar, guide.md:14:56: unknown check "cnt"; expect requests takes verb, resource and count`,
		},
		{
			name: "a predict without a question",
			old:  "How many pods will it create?\n", new: "",
			want: `lesson 02-scale-up.txtar, guide.md:11:1: a predict block without a question; write the question before the choices`,
		},
		{
			name: "a predict after its page's do block",
			old:  "```predict\nHow many pods will it create?\n" + choices + "\nIt creates the difference.\n```\n\n```do\nscale rs/web --replicas=3\nstabilize\n```\n",
			new:  "```do\nscale rs/web --replicas=3\nstabilize\n```\n\n```predict\nHow many pods will it create?\n" + choices + "\nIt creates the difference.\n```\n",
			want: `lesson 02-scale-up.txtar, guide.md:16:1: a predict block needs a do or step block after it on its page; that block is the step whose outcome the learner predicts`,
		},
		{
			name: "a missing file",
			old:  "-- hints --\nScale it.\n\nTry scale rs/web\n--replicas=3.\n", new: "",
			want: `lesson 02-scale-up.txtar: no hints file; a lesson has the files "setup", "guide.md", "goal", "hints" and "solution"`,
		},
		{
			name: "a misspelled file",
			old:  "-- solution --", new: "-- solutoin --",
			want: `lesson 02-scale-up.txtar:47:4: unknown file "solutoin"; did you mean "solution"?`,
		},
		{
			name: "a misspelled header key",
			old:  "summary:", new: "sumary:",
			want: `lesson 02-scale-up.txtar:2:1: unknown header key "sumary"; did you mean "summary"?`,
		},
		{
			name: "a missing header line",
			old:  "title: Scale up\n", new: "",
			want: `lesson 02-scale-up.txtar: the header has no title: line`,
		},
		{
			name: "an unknown level",
			old:  "level: beginner", new: "level: beginer",
			want: `lesson 02-scale-up.txtar:3:8: unknown level "beginer"; did you mean "beginner"?`,
		},
		{
			name: "no hints in the hints file",
			old:  "Scale it.\n\nTry scale rs/web\n--replicas=3.\n", new: "\n",
			want: `lesson 02-scale-up.txtar, hints:1:1: there are no hints; write one hint per paragraph, separated by blank lines`,
		},
		{
			name: "a file name without a number",
			file: "scale-up.txtar",
			want: `lesson scale-up.txtar: the name does not start with its number; a lesson's file is named NN-slug.txtar: two digits, a dash, then lower-case letters, digits and dashes`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := scaleLesson
			if tt.old != "" {
				require.Contains(t, src, tt.old)
				src = strings.Replace(src, tt.old, tt.new, 1)
			}
			file := tt.file
			if file == "" {
				file = "02-scale-up.txtar"
			}

			l, err := Parse(file, []byte(src))

			require.Error(t, err)
			assert.Nil(t, l)
			assert.Equal(t, tt.want, err.Error(), "one mistake, one error")
		})
	}
}

func TestParseErrorsAreParseErrors(t *testing.T) {
	src := strings.Replace(scaleLesson, "status.readyReplicas", "status.ready", 1)

	_, err := Parse("02-scale-up.txtar", []byte(src))

	var pe *script.ParseError
	require.True(t, errors.As(err, &pe))
	assert.Equal(t, "lesson 02-scale-up.txtar, goal", pe.File)
	assert.Equal(t, 1, pe.Line)
	assert.Equal(t, 15, pe.Col)
}

func TestParseFSReadsEveryLessonAndRefusesSharedNumbers(t *testing.T) {
	fsys := fstest.MapFS{
		"02-scale-up.txtar":   {Data: []byte(scaleLesson)},
		"01-scale-once.txtar": {Data: []byte(scaleLesson)},
		"README.md":           {Data: []byte("not a lesson")},
	}

	lessons, err := ParseFS(fsys)

	require.NoError(t, err)
	require.Len(t, lessons, 2)
	assert.Equal(t, "01-scale-once", lessons[0].ID, "in name order")
	assert.Equal(t, "02-scale-up", lessons[1].ID)

	fsys["02-scale-again.txtar"] = &fstest.MapFile{Data: []byte(scaleLesson)}
	_, err = ParseFS(fsys)
	assert.EqualError(t, err, "lesson 02-scale-up.txtar: lesson 02-scale-again.txtar has the same number")
}

func TestLinksFindsGlossaryAndUpstreamLinks(t *testing.T) {
	src := strings.Replace(scaleLesson, "rs/web has two pods.",
		"rs/web has two [pods](glossary:pod), counted by [its sync](upstream:syncReplicaSet); see [the docs](https://kubernetes.io).", 1)
	src = strings.Replace(src, "Scale it.", "Read [the claim](upstream:pkg/controller/controller_ref_manager.go).", 1)
	l, err := Parse("02-scale-up.txtar", []byte(src))
	require.NoError(t, err)
	assert.Equal(t, []Link{
		{Scheme: SchemeGlossary, Target: "pod", Text: "pods", Where: "guide.md:3"},
		{Scheme: SchemeUpstream, Target: "syncReplicaSet", Text: "its sync", Where: "guide.md:3"},
		{Scheme: SchemeUpstream, Target: "pkg/controller/controller_ref_manager.go", Text: "the claim", Where: "hints, paragraph 1"},
	}, l.Links(), "links of other schemes are not the lesson's to prove")
}
