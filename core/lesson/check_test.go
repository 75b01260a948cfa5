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
	l, err := Parse("02-scale-up.txtar", []byte(scaleLesson))
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
			old:  "```check\nexpect requests verb=create resource=pods count=3", new: "```check\nexpect requests verb=create resource=pods count=2",
			want: []string{"lesson 02-scale-up.txtar: page 2: its checks must hold after its do blocks: " +
				"lesson 02-scale-up.txtar, guide.md:31:1: expect requests verb=create resource=pods count=2: found 3"},
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
			name: "a do block that fails when the learner runs it again",
			old:  "```do\nscale rs/web --replicas=3", new: "```do\ncreate rs api --replicas=0 --selector=app=api\nscale rs/web --replicas=3",
			want: []string{"lesson 02-scale-up.txtar: setup + every do block run twice in order + stabilize must still meet the goal " +
				"(page 2's do block, run again, failed): lesson 02-scale-up.txtar, guide.md:21:1: create rs api: replicasets.apps \"api\" already exists"},
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
			l, err := Parse("02-scale-up.txtar", []byte(strings.Replace(scaleLesson, tt.old, tt.new, 1)))
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
	l, err := Parse("02-scale-up.txtar", []byte(src))
	require.NoError(t, err)

	err = Check(l)

	var re *script.RuntimeError
	require.True(t, errors.As(err, &re))
	assert.Equal(t, script.Pos{File: "lesson 02-scale-up.txtar, goal", Line: 1, Col: 1}, re.Pos)
}
