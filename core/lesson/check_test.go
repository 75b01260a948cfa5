package lesson

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/script"
)

func TestCheckProvesAWorkingLesson(t *testing.T) {
	l, err := Parse("02-scale-up.txtar", bilingual(scaleLesson))
	require.NoError(t, err)

	assert.NoError(t, Check(l))
}

func TestCheckNamesTheProofAndTheLineThatFailed(t *testing.T) {
	tests := []struct {
		name     string
		old, new string // scaleLesson with old replaced by new
		want     []string
	}{
		{
			name: "a solution that does not reach the goal",
			old:  "-- solution --\nscale rs/web --replicas=3", new: "-- solution --\nscale rs/web --replicas=4",
			want: []string{"lesson 02-scale-up.txtar: setup + solution must meet the goal: " +
				"lesson 02-scale-up.txtar, goal:1:1: expect rs/web status.readyReplicas=3: status.readyReplicas is 4"},
		},
		{
			name: "a solution that fails to run",
			old:  "-- solution --\nscale rs/web --replicas=3", new: "-- solution --\nscale rs/api --replicas=3",
			want: []string{"lesson 02-scale-up.txtar: setup + solution must meet the goal: " +
				`lesson 02-scale-up.txtar, solution:1:1: scale rs/api: replicasets.apps "api" not found`},
		},
		{
			name: "a goal that setup already meets",
			old:  "expect rs/web status.readyReplicas=3", new: "expect rs/web status.readyReplicas>=2",
			want: []string{"lesson 02-scale-up.txtar: setup alone must not meet the goal, but every expect of the goal holds after it; " +
				"the learner would have nothing to do"},
		},
		{
			name: "a check that does not hold after its page's do blocks",
			old:  "```check\nexpect requests verb=create resource=pods count=3", new: "```check\nexpect requests verb=create resource=pods count=4",
			want: []string{"lesson 02-scale-up.txtar: page 2: its checks must hold after its do blocks: " +
				"lesson 02-scale-up.txtar, guide.md:31:1: expect requests verb=create resource=pods count=4: found 3"},
		},
		{
			name: "a check that already held before its page's do block",
			old:  "```check\nexpect requests verb=create resource=pods count=3", new: "```check\nexpect requests verb=create resource=pods count>=2",
			want: []string{"lesson 02-scale-up.txtar: page 2: the check at guide.md:31 must pin what the do block at guide.md:21 does, " +
				"but every expect of it holds before that block runs"},
		},
		{
			name: "a check that comes before the do that makes it true",
			old:  "```check\nexpect pods -l app=web count=2 ready=true", new: "```check\nexpect pods -l app=web count=3 ready=true",
			want: []string{"lesson 02-scale-up.txtar: page 1: its checks must hold after its do blocks: " +
				"lesson 02-scale-up.txtar, guide.md:6:1: expect pods -l app=web count=3 ready=true: found 2"},
		},
		{
			name: "a predict whose ticked choice is not what happens",
			old:  choices, new: strings.NewReplacer("- [x] one", "- [ ] one", "- [ ] three", "- [x] three").Replace(choices),
			want: []string{"lesson 02-scale-up.txtar: page 2: the predict's choice 2 (\"one\") must fail after its step, but its expect holds: " +
				"the question would have two right answers"},
		},
		{
			name: "a predict whose ticked choice fails",
			old:  "- [x] one => expect requests verb=create resource=pods count=3", new: "- [x] one => expect requests verb=create resource=pods count=4",
			want: []string{"lesson 02-scale-up.txtar: page 2: the predict's ticked choice 2 (\"one\") must hold after its step: " +
				"lesson 02-scale-up.txtar, guide.md:14:14: expect requests verb=create resource=pods count=4: found 3"},
		},
		{
			name: "a predict with two choices that hold",
			old:  "- [ ] none => expect requests verb=create resource=pods count=2", new: "- [ ] none => expect requests verb=create resource=pods count>=2",
			want: []string{"lesson 02-scale-up.txtar: page 2: the predict's choice 1 (\"none\") must fail after its step, but its expect holds: " +
				"the question would have two right answers"},
		},
		{
			name: "a guide that does not lead to the goal",
			old:  "-- goal --\nexpect rs/web status.readyReplicas=3\n-- hints --\nScale it.\n\nTry scale rs/web\n--replicas=3.\n-- solution --\nscale rs/web --replicas=3\nstabilize\n",
			new:  "-- goal --\nexpect rs/web status.readyReplicas=3\nexpect pods -l tier=x count=1\n-- hints --\nScale it.\n\nTry scale rs/web\n--replicas=3.\n-- solution --\nscale rs/web --replicas=3\nstabilize\nlabel pods -l app=web --pick=oldest tier=x\n",
			want: []string{
				"lesson 02-scale-up.txtar: following the guide to its last page must meet the goal: lesson 02-scale-up.txtar, goal:2:1: expect pods -l tier=x count=1: found 0",
				"lesson 02-scale-up.txtar: setup + every do block run twice in order + stabilize must still meet the goal: lesson 02-scale-up.txtar, goal:2:1: expect pods -l tier=x count=1: found 0",
			},
		},
		{
			name: "a setup that fails is reported once",
			old:  "create rs web --replicas=2 --selector=app=web\n", new: "create rs web --replicas=2 --selector=app=web\ncreate rs web --replicas=2 --selector=app=web\n",
			want: []string{"lesson 02-scale-up.txtar: setup must run: " +
				`lesson 02-scale-up.txtar, setup:2:1: create rs web: replicasets.apps "web" already exists`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Contains(t, scaleLesson, tt.old)
			l, err := Parse("02-scale-up.txtar", bilingual(strings.Replace(scaleLesson, tt.old, tt.new, 1)))
			require.NoError(t, err)

			err = Check(l)

			require.Error(t, err)
			lines := strings.Split(err.Error(), "\n")
			require.Len(t, lines, len(tt.want), "one error per failed proof:\n%s", err)
			for i, want := range tt.want {
				assert.True(t, strings.HasPrefix(lines[i], want), "error %d:\n got: %s\nwant: %s...", i, lines[i], want)
			}
			var ce *CheckError
			assert.True(t, errors.As(err, &ce), "a *CheckError")
		})
	}
}

func TestCheckErrorUnwrapsToTheRuntimeError(t *testing.T) {
	src := strings.Replace(scaleLesson, "-- solution --\nscale rs/web --replicas=3", "-- solution --\nscale rs/web --replicas=4", 1)
	l, err := Parse("02-scale-up.txtar", bilingual(src))
	require.NoError(t, err)

	err = Check(l)

	var re *script.RuntimeError
	require.True(t, errors.As(err, &re))
	assert.Equal(t, script.Pos{File: "lesson 02-scale-up.txtar, goal", Line: 1, Col: 1}, re.Pos)
}

// stepLesson walks a scale-up one event at a time: its second page's step
// block is reached by pressing Step, and the predict before it is decided
// once it is.
const stepLesson = `title: Step by step
summary: A sync, one event at a time.
level: beginner
stepwise: 1-2
-- setup --
create rs web --replicas=2 --selector=app=web
stabilize
-- guide.md --
# Ask for three

` + "```do" + `
scale rs/web --replicas=3
` + "```" + `
---
# Watch

` + "```predict" + `
How many pods does the sync ask for?
- [ ] none => expect expectations rs/web add=0
- [x] one => expect expectations rs/web add=1
` + "```" + `

Press Step until the worker has asked the API server for the pod.

` + "```step" + `
expect requests verb=create resource=pods count=3
` + "```" + `
-- goal --
expect requests verb=create resource=pods count=3
-- hints --
Step on.
-- solution --
scale rs/web --replicas=3
stabilize
`

func TestCheckStepsToAStepBlock(t *testing.T) {
	l, err := Parse("03-step.txtar", bilingual(stepLesson))
	require.NoError(t, err)
	assert.Equal(t, &PageRange{From: 1, To: 2}, l.Stepwise)
	assert.True(t, l.Stepwise.Has(2))
	assert.False(t, l.Stepwise.Has(3))
	assert.Equal(t, KindStep, l.Pages[1].Blocks[1].Kind)
	assert.NoError(t, Check(l))

	// A step block that stepping never reaches is a page the learner could
	// never leave.
	never := strings.Replace(stepLesson, "count=3\n```\n-- goal", "count=9\n```\n-- goal", 1)
	l, err = Parse("03-step.txtar", bilingual(never))
	require.NoError(t, err)
	err = Check(l)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "lesson 03-step.txtar: page 2: pressing Step must reach its step block within 200 events: "+
		"lesson 03-step.txtar, guide.md:18:1: expect requests verb=create resource=pods count=9: found 3")
}

func TestStepwisePagesStepOneEventAtATime(t *testing.T) {
	tests := []struct {
		name, old, new, want string
	}{
		{"a stabilize on a stepwise page", "scale rs/web --replicas=3\n", "scale rs/web --replicas=3\nstabilize\n",
			`lesson 03-step.txtar, guide.md:5:1: page 1 is stepwise (the header's stepwise:), so its do blocks run one event at a time; "stabilize" runs more; let the learner press Step: write a step block with what stepping reaches`},
		{"a step of more than one event", "scale rs/web --replicas=3\n", "scale rs/web --replicas=3\nstep 2\n",
			`lesson 03-step.txtar, guide.md:5:1: page 1 is stepwise (the header's stepwise:), so its do blocks run one event at a time; "step 2" runs more;`},
		{"an until sync", "scale rs/web --replicas=3\n", "scale rs/web --replicas=3\nuntil sync rs/web\n",
			`"until sync rs/web" runs more`},
		{"pages the guide does not have", "stepwise: 1-2", "stepwise: 1-3",
			`lesson 03-step.txtar: stepwise: 1-3 names pages the guide does not have (it has 2)`},
		{"not a range", "stepwise: 1-2", "stepwise: one",
			`lesson 03-step.txtar:4:11: stepwise: "one" is not a page or a range of pages; write the pages the learner steps through, from and to: stepwise: 1-6`},
		{"a step block that changes the world", "```step\nexpect requests", "```step\nstabilize\nexpect requests",
			`lesson 03-step.txtar, guide.md:18:1: a step block holds only expect commands, what pressing Step reaches; "stabilize" is not one`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Contains(t, stepLesson, tt.old)
			_, err := Parse("03-step.txtar", []byte(strings.Replace(stepLesson, tt.old, tt.new, 1)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	// Off the stepwise pages, anything goes.
	_, err := Parse("03-step.txtar", []byte(strings.NewReplacer("stepwise: 1-2", "stepwise: 2", "scale rs/web --replicas=3\n", "scale rs/web --replicas=3\nstep 2\n").Replace(stepLesson)))
	assert.NoError(t, err)
}

// TestCheckKeepsTheGoalInReachOfADoBlockRunTwice: a do block run twice may
// fail the second time (the create of what exists), but must not put the
// goal out of reach; one that kills a pod twice, against a goal that
// counts the creates exactly, does.
func TestCheckKeepsTheGoalInReachOfADoBlockRunTwice(t *testing.T) {
	again := strings.Replace(scaleLesson, "```do\nscale rs/web --replicas=3", "```do\ncreate rs api --replicas=0 --selector=app=api\nscale rs/web --replicas=3", 1)
	l, err := Parse("02-scale-up.txtar", bilingual(again))
	require.NoError(t, err)
	assert.NoError(t, Check(l), "a second create of rs/api fails, and the goal is still in reach")

	twice := strings.NewReplacer(
		"```do\nscale rs/web --replicas=3\nstabilize", "```do\nscale rs/web --replicas=3\nstabilize\nkill pods -l app=web --pick=newest\nstabilize",
		"-- goal --\nexpect rs/web status.readyReplicas=3", "-- goal --\nexpect rs/web status.readyReplicas=3\nexpect requests verb=create resource=pods count=4",
		choices, strings.NewReplacer("count=2", "count=3", "count=3", "count=4", "count=5", "count=6").Replace(choices),
		"```check\nexpect requests verb=create resource=pods count=3", "```check\nexpect requests verb=create resource=pods count=4",
		"-- solution --\nscale rs/web --replicas=3\nstabilize\n", "-- solution --\nscale rs/web --replicas=3\nstabilize\nkill pods -l app=web --pick=newest\nstabilize\n",
	).Replace(scaleLesson)
	l, err = Parse("02-scale-up.txtar", bilingual(twice))
	require.NoError(t, err)
	err = Check(l)
	require.Error(t, err)
	assert.Equal(t, "lesson 02-scale-up.txtar: setup + every do block run twice in order + stabilize must still meet the goal: "+
		"lesson 02-scale-up.txtar, goal:2:1: expect requests verb=create resource=pods count=4: found 5", strings.SplitN(err.Error(), " (the last", 2)[0])
}
