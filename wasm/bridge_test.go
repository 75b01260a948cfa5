package main

// These tests drive the bridge the way the page does: JSON requests through
// Handle, JSON answers back. They have no build tag: they run natively and,
// under GOOS=js GOARCH=wasm go test, under node.

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/lesson"

	"github.com/reconcilelab/rlab/core/world"
)

// answer is the envelope of every answer, with the result left raw.
type answer struct {
	Result json.RawMessage `json:"result"`
	Error  string          `json:"error"`
}

// encodeRequest builds a request's JSON.
func encodeRequest(t testing.TB, op string, args any) []byte {
	t.Helper()
	req := map[string]any{"op": op}
	if args != nil {
		req["args"] = args
	}
	data, err := json.Marshal(req)
	require.NoError(t, err)
	return data
}

// decodeAnswer decodes an answer strictly: exactly one of result and error.
func decodeAnswer(t testing.TB, raw []byte) answer {
	t.Helper()
	var a answer
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&a), "the answer is JSON: %s", raw)
	require.False(t, dec.More(), "one JSON value: %s", raw)
	require.True(t, (a.Error == "") != (len(a.Result) == 0), "exactly one of result and error: %s", raw)
	return a
}

// callOp sends op and decodes its result into a T; the op must succeed.
func callOp[T any](t testing.TB, b *Bridge, op string, args any) T {
	t.Helper()
	a := decodeAnswer(t, b.Handle(encodeRequest(t, op, args)))
	require.Empty(t, a.Error, "%s %v", op, args)
	var res T
	require.NoError(t, json.Unmarshal(a.Result, &res))
	return res
}

// fails sends a raw request that must be answered with an error, and
// returns the error.
func fails(t testing.TB, b *Bridge, raw string) string {
	t.Helper()
	a := decodeAnswer(t, b.Handle([]byte(raw)))
	require.NotEmpty(t, a.Error, "want an error for %s, got %s", raw, a.Result)
	return a.Error
}

// run runs console lines that must succeed.
func run(t testing.TB, b *Bridge, lines ...string) RunResult {
	t.Helper()
	var res RunResult
	for _, line := range lines {
		res = callOp[RunResult](t, b, "run", RunArgs{Line: line})
		require.Nil(t, res.Failure, "%s: %+v", line, res.Failure)
	}
	return res
}

// stabilize runs stabilize in chunks until the world is at rest, and
// returns how many calls it took.
func stabilize(t testing.TB, b *Bridge, chunk int) int {
	t.Helper()
	for calls := 1; calls <= 1000; calls++ {
		res := callOp[StepsResult](t, b, "stabilize", StabilizeArgs{MaxSteps: chunk})
		if res.AtRest {
			assert.Empty(t, res.Limit)
			return calls
		}
		require.Equal(t, fmt.Sprintf("--max-steps=%d", chunk), res.Limit)
		require.Equal(t, chunk, res.Ran)
	}
	t.Fatal("the world never came to rest")
	return 0
}

func newSandbox(t testing.TB, seed uint64) *Bridge {
	t.Helper()
	b := newBridge(t)
	res := callOp[LoadResult](t, b, "load", LoadArgs{Seed: seed})
	require.Equal(t, "sandbox", res.Mode)
	return b
}

func TestBridgeSandboxLifecycle(t *testing.T) {
	b := newBridge(t)
	load := callOp[LoadResult](t, b, "load", LoadArgs{Seed: 7})
	assert.Equal(t, LoadResult{Mode: "sandbox", Seed: 7, Step: load.Step}, load)
	assert.Positive(t, load.Step, "the world's start ran")

	v := callOp[View](t, b, "view", nil)
	assert.Equal(t, "sandbox", v.Mode)
	assert.Equal(t, uint64(7), v.Seed)
	assert.Equal(t, load.Step, v.Step)
	assert.Equal(t, load.Step, v.BaseStep)
	assert.Equal(t, v.Step, v.RecordedSteps)
	assert.True(t, v.AtRest)
	require.Len(t, v.Nodes, 3)
	for _, n := range v.Nodes {
		assert.True(t, n.Registered && n.Ready && n.Schedulable && n.Kubelet, "%+v", n)
	}
	assert.Empty(t, v.Pods)
	assert.Len(t, v.LastSteps, defaultViewSteps)
	assert.Equal(t, v.Step, v.LastSteps[len(v.LastSteps)-1].N)

	created := run(t, b, "create rs web --replicas=3 --selector=app=web")
	assert.Contains(t, created.Output, "replicaset.apps/web created")
	assert.Positive(t, created.Ran, "kubectl steps until its answer arrives")
	assert.Len(t, created.Steps, created.Ran)
	assert.Equal(t, v.Step+1, created.Steps[0].N)
	assert.False(t, created.AtRest)

	assert.Greater(t, stabilize(t, b, 5), 1, "a chunk of 5 steps cannot settle three pods")

	v = callOp[View](t, b, "view", ViewArgs{Agenda: 3, Steps: 2})
	assert.True(t, v.AtRest)
	assert.Len(t, v.LastSteps, 2)
	assert.LessOrEqual(t, len(v.Agenda.Next), 3)
	assert.Equal(t, []Input{{Step: load.Step, Text: "create rs web --replicas=3 --selector=app=web"}}, v.Inputs)
	require.Len(t, v.Owners, 1)
	assert.Equal(t, world.Owner{Kind: "rs", Namespace: "default", Name: "web", Selector: "app=web", Replicas: 3,
		Status: world.OwnerStatus{Replicas: 3, FullyLabeledReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3, ObservedGeneration: 1}},
		v.Owners[0])
	require.Len(t, v.Pods, 3)
	for _, p := range v.Pods {
		assert.Equal(t, "Running", p.Phase)
		assert.True(t, p.Ready)
		assert.Equal(t, "rs/web", p.Owner)
		assert.Equal(t, map[string]string{"app": "web"}, p.Labels)
		assert.NotEmpty(t, p.Node)
		assert.Equal(t, "running, Ready", p.Kubelet)
		assert.False(t, p.Terminating)
	}
	require.Len(t, v.Informers, 3)
	pods := v.Informers[0]
	assert.Equal(t, "informer/pods", pods.Name)
	assert.Equal(t, 3, pods.Cached)
	assert.Equal(t, 3, pods.InAPI)
	for _, e := range pods.Entries {
		assert.Empty(t, e.Diff, "at rest the cache holds what the API holds: %+v", e)
	}
	require.Len(t, v.Controllers, 2)
	rs := v.Controllers[0]
	assert.Equal(t, "rs", rs.Kind)
	assert.True(t, rs.Started)
	assert.Empty(t, rs.Queue.Waiting)
	assert.Len(t, rs.Workers, 5)
	require.Len(t, rs.Expectations, 1)
	assert.Equal(t, "default/web", rs.Expectations[0].Key)
	assert.Zero(t, rs.Expectations[0].Add)
	assert.True(t, rs.Expectations[0].Satisfied)
	require.NotEmpty(t, rs.LastSyncs)
	assert.Equal(t, "rs/web", rs.LastSyncs[0].Owner)
	assert.Empty(t, v.Faults.API)
	assert.Empty(t, v.Faults.Watch)
}

func TestBridgeRunAnswersFailuresAsResults(t *testing.T) {
	b := newSandbox(t, 1)
	run(t, b, "create rs web --replicas=2 --selector=app=web", "stabilize")

	res := callOp[RunResult](t, b, "run", RunArgs{Line: "scael rs/web --replicas=3"})
	require.NotNil(t, res.Failure)
	assert.Equal(t, "parse", res.Failure.Kind)
	assert.Equal(t, 1, res.Failure.Line)
	assert.Equal(t, 1, res.Failure.Col)
	assert.Equal(t, `unknown command "scael"`, res.Failure.Message)
	assert.Equal(t, []string{"scale"}, res.Failure.Suggestions)
	assert.Contains(t, res.Failure.Error, `did you mean "scale"?`)
	assert.Zero(t, res.Ran)

	res = callOp[RunResult](t, b, "run", RunArgs{Line: "scale rs/web --replicas=3 --bogus"})
	require.NotNil(t, res.Failure)
	assert.Equal(t, "parse", res.Failure.Kind)
	assert.Greater(t, res.Failure.Col, 1, "the column points at the bad flag")

	res = callOp[RunResult](t, b, "run", RunArgs{Line: "expect pods -l app=web count=5"})
	require.NotNil(t, res.Failure)
	assert.Equal(t, "runtime", res.Failure.Kind)
	assert.Contains(t, res.Failure.Message, "found 2")

	res = callOp[RunResult](t, b, "run", RunArgs{Line: "create rs web --replicas=1 --selector=app=web"})
	require.NotNil(t, res.Failure)
	assert.Contains(t, res.Failure.Message, "already exists")
	assert.Positive(t, res.Ran, "the request went to the API server and back")

	res = callOp[RunResult](t, b, "run", RunArgs{Line: "   # only a comment"})
	assert.Equal(t, RunResult{StepsResult: StepsResult{Step: res.Step, AtRest: true}}, res)

	res = run(t, b, "get pods")
	assert.Contains(t, res.Output, "NAME")
	assert.Zero(t, res.Ran, "reading does not step")
	assert.Contains(t, run(t, b, "help scale").Output, "scale")
}

func TestBridgeStep(t *testing.T) {
	b := newSandbox(t, 1)
	run(t, b, "create rs web --replicas=2 --selector=app=web")
	before := callOp[View](t, b, "view", nil).Step

	res := callOp[StepsResult](t, b, "step", nil)
	require.Equal(t, 1, res.Ran)
	assert.Equal(t, before+1, res.Steps[0].N)

	res = callOp[StepsResult](t, b, "step", StepArgs{N: 4})
	require.Equal(t, 4, res.Ran)
	require.Len(t, res.Steps, 4)
	assert.False(t, res.Idle)
	touched := false
	for i, s := range res.Steps {
		assert.Equal(t, before+2+uint64(i), s.N)
		assert.True(t, strings.HasPrefix(s.Trace, fmt.Sprintf("#%d ", s.N)), s.Trace)
		assert.Contains(t, s.Trace, s.Summary)
		assert.NotEmpty(t, s.Actor)
		assert.True(t, strings.HasSuffix(s.At, "s"))
		touched = touched || len(s.Touched) > 0
	}
	assert.True(t, touched, "some step touched an object")
	assert.Equal(t, before+5, res.Step)

	steps := callOp[StepsResult](t, b, "steps", StepsArgs{From: before + 1, To: before + 5})
	assert.Equal(t, 5, steps.Ran)
	assert.Equal(t, res.Steps, steps.Steps[1:], "the timeline keeps the steps as they were answered")
}

// TestBridgeStepsAreOnTheLoop: every step the bridge answers carries its
// place on the picture of the loop (core/loop), and the view counts the
// events on their way along its edges.
func TestBridgeStepsAreOnTheLoop(t *testing.T) {
	b := newSandbox(t, 1)
	run(t, b, "create rs web --replicas=2 --selector=app=web")
	res := callOp[StepsResult](t, b, "step", StepArgs{N: 20})
	require.Len(t, res.Steps, 20)
	edges := 0
	for _, s := range res.Steps {
		require.NotNil(t, s.Loop, "step %s has no place on the loop", s.Trace)
		assert.NotEmpty(t, s.Loop.Lit, s.Trace)
		if s.Loop.From != "" {
			edges++
			assert.NotEmpty(t, s.Loop.To, s.Trace)
		}
	}
	assert.Positive(t, edges, "some step travelled an edge")

	v := callOp[View](t, b, "view", nil)
	require.NotEmpty(t, v.InFlight, "events are on their way: %+v", v.Agenda)
	total := 0
	for _, f := range v.InFlight {
		assert.NotEmpty(t, f.From)
		assert.NotEmpty(t, f.To)
		assert.Positive(t, f.Count)
		assert.NotEmpty(t, f.Next)
		total += f.Count
	}
	assert.LessOrEqual(t, total, v.Agenda.Pending)
}

func TestBridgeUntilSync(t *testing.T) {
	b := newSandbox(t, 3)
	run(t, b, "create rs web --replicas=2 --selector=app=web", "stabilize")

	run(t, b, "kill pods -l app=web --pick=oldest")
	res := callOp[StepsResult](t, b, "untilSync", nil)
	require.NotNil(t, res.Sync)
	assert.Equal(t, "rs/web", res.Sync.Owner)
	assert.Equal(t, "default/web", res.Sync.Key)
	assert.Contains(t, res.Sync.Decision, "creating 1")
	assert.Positive(t, res.Ran)
	assert.Empty(t, res.Limit)

	run(t, b, "kill pods -l app=web --pick=oldest")
	res = callOp[StepsResult](t, b, "untilSync", UntilSyncArgs{Owner: "rs/web"})
	require.NotNil(t, res.Sync)
	assert.Equal(t, "rs/web", res.Sync.Owner)

	res = callOp[StepsResult](t, b, "untilSync", UntilSyncArgs{Owner: "rs/web", MaxSteps: 1})
	assert.Equal(t, "--max-steps=1", res.Limit, "a sync that does not come within the limit is not an error")
	assert.Nil(t, res.Sync)

	assert.Contains(t, fails(t, b, `{"op":"untilSync","args":{"owner":"rs/nope"}}`), `"nope" not found`)
	assert.Contains(t, fails(t, b, `{"op":"untilSync","args":{"owner":"rx/web"}}`), `did you mean`)
	assert.Contains(t, fails(t, b, `{"op":"untilSync","args":{"owner":"rs/web --max-steps=1"}}`), "bad owner")
	assert.Contains(t, fails(t, b, `{"op":"untilSync","args":{"namespace":"default"}}`), "namespace needs an owner")
}

func TestBridgeCompleteAndHelp(t *testing.T) {
	b := newBridge(t) // neither needs a world

	c := callOp[CompleteResult](t, b, "complete", CompleteArgs{Line: "sca"})
	assert.Equal(t, CompleteResult{Start: 0, End: 3, Candidates: []string{"scale"}}, c)
	cursor := 8
	c = callOp[CompleteResult](t, b, "complete", CompleteArgs{Line: "scale rs/web --rep", Cursor: &cursor})
	assert.Equal(t, 6, c.Start)
	assert.Equal(t, 8, c.End)
	c = callOp[CompleteResult](t, b, "complete", CompleteArgs{Line: "scale rs/web --rep"})
	assert.Equal(t, []string{"--replicas="}, c.Candidates)

	h := callOp[HelpResult](t, b, "help", nil)
	assert.Contains(t, h.Text, "scale")
	assert.Empty(t, h.Commands)
	h = callOp[HelpResult](t, b, "help", HelpArgs{Topic: "create rs", Commands: true})
	assert.Contains(t, h.Text, "--replicas")
	assert.NotEmpty(t, h.Commands)
	assert.NotEmpty(t, h.Kinds)
	assert.Contains(t, fails(t, b, `{"op":"help","args":{"topic":"scael"}}`), `did you mean "scale"?`)

	l := callOp[LessonsResult](t, b, "lessons", nil)
	require.NotEmpty(t, l.Lessons)
	assert.Equal(t, "01-the-control-loop", l.Lessons[0].ID)
	assert.Equal(t, "02-a-pod-dies", l.Lessons[1].ID)
	assert.Empty(t, l.Lessons[0].Pages, "the list carries no content")
	require.Len(t, l.Lessons[0].Translations, 1, "the list carries each lesson's title in its other languages")
	assert.Equal(t, TranslationInfo{Lang: "zh-CN", Title: "控制回路", Summary: "一次一个事件，跟随一个 ReplicaSet 从 API 服务器走到它的 Pod。"},
		l.Lessons[0].Translations[0], "and its summary, but no content")
}

// translationOf returns lesson info's translation into lang, or nil: what
// the page does to find the learner's language.
func translationOf(info LessonInfo, lang string) *TranslationInfo {
	for i := range info.Translations {
		if info.Translations[i].Lang == lang {
			return &info.Translations[i]
		}
	}
	return nil
}

// TestBridgeCompletesNamesFromTheLiveWorld: completion names the objects of
// the loaded world at its present step, sorted, as the view lists them, and
// reading them changes nothing. Before a load it offers the grammar alone.
func TestBridgeCompletesNamesFromTheLiveWorld(t *testing.T) {
	complete := func(b *Bridge, line string) []string {
		t.Helper()
		return callOp[CompleteResult](t, b, "complete", CompleteArgs{Line: line}).Candidates
	}
	assert.Equal(t, []string{"node/"}, complete(newBridge(t), "cordon "), "nothing is loaded: no names")

	b := newSandbox(t, 3)
	assert.Equal(t, []string{"node/node-1", "node/node-2", "node/node-3"}, complete(b, "cordon node/"))
	assert.Empty(t, complete(b, "kill pod/"), "the sandbox starts without pods")
	before := callOp[View](t, b, "view", nil).Step

	run(t, b, "create rs web --replicas=3 --selector=app=web")
	stabilize(t, b, 1000)
	v := callOp[View](t, b, "view", ViewArgs{Agenda: 100, Steps: 100})
	require.Len(t, v.Pods, 3)
	var want []string
	for _, p := range v.Pods {
		want = append(want, "pod/"+p.Name)
	}
	slices.Sort(want)
	assert.Equal(t, want, complete(b, "kill pod/"))
	assert.Equal(t, want, complete(b, "kill pod/web-"))
	assert.Equal(t, []string{"rs/web"}, complete(b, "scale rs/"))
	assert.Equal(t, []string{"default"}, complete(b, "get pods -n "))
	assert.Equal(t, v, callOp[View](t, b, "view", ViewArgs{Agenda: 100, Steps: 100}), "completing changed the world")

	callOp[SeekResult](t, b, "seek", SeekArgs{Step: before})
	assert.Empty(t, complete(b, "kill pod/"), "back before rs/web, its pods do not exist")
	assert.Empty(t, complete(b, "scale rs/"))
}

func TestBridgeRequestErrors(t *testing.T) {
	b := newBridge(t)
	for _, tc := range []struct{ req, want string }{
		{`{"op":"view"}`, "nothing is loaded yet"},
		{`{"op":"step"}`, "nothing is loaded yet"},
		{``, "bad request"},
		{`not json`, "bad request"},
		{`{"op":"view"`, "bad request"},
		{`{"op":"view"} {"op":"view"}`, "unexpected data after the JSON value"},
		{`[]`, "bad request"},
		{`{}`, `unknown op ""`},
		{`{"op":"veiw"}`, `unknown op "veiw"; did you mean "view"?`},
		{`{"op":"view","arg":{}}`, `unknown field "arg"`},
		{`{"op":"load","args":{"lesson":"02-a-pod-dies","sede":3}}`, `bad args: unknown field "sede"`},
		{`{"op":"load","args":{"seed":"three"}}`, "bad args"},
		{`{"op":"load","args":{"seed":-1}}`, "bad args"},
		{`{"op":"load","args":[]}`, "bad args"},
		{`{"op":"load","args":{"lesson":"02-a-pod-die"}}`, `no lesson "02-a-pod-die"; did you mean "02-a-pod-dies"?`},
		{`{"op":"complete","args":{"line":3}}`, "bad args"},
	} {
		assert.Contains(t, fails(t, b, tc.req), tc.want, tc.req)
	}

	callOp[LoadResult](t, b, "load", nil)
	for _, tc := range []struct{ req, want string }{
		{`{"op":"step","args":{"n":-1}}`, "n must be from 1 to 10000"},
		{`{"op":"step","args":{"n":10001}}`, "n must be from 1 to 10000"},
		{`{"op":"stabilize","args":{"maxSteps":-5}}`, "maxSteps must be"},
		{`{"op":"stabilize","args":{"steps":-1}}`, "steps must be from 1 to 500, not -1"},
		{`{"op":"stabilize","args":{"maxSteps":10,"steps":501}}`, "steps must be from 1 to 500, not 501"},
		{`{"op":"untilSync","args":{"maxSteps":1000001}}`, "maxSteps must be"},
		{`{"op":"seek","args":{"step":1000000}}`, "has not run yet"},
		{`{"op":"check"}`, "no lesson is loaded"},
		{`{"op":"run","args":{"line":"get pods","cursor":1}}`, `unknown field "cursor"`},
	} {
		assert.Contains(t, fails(t, b, tc.req), tc.want, tc.req)
	}
	callOp[View](t, b, "view", nil) // and the bridge still answers
}

func TestBridgeFailedLoadKeepsTheWorld(t *testing.T) {
	b := newSandbox(t, 1)
	run(t, b, "create rs web --replicas=1 --selector=app=web")
	before := callOp[View](t, b, "view", nil)
	fails(t, b, `{"op":"load","args":{"lesson":"99-nope"}}`)
	assert.Equal(t, before, callOp[View](t, b, "view", nil))
}

// session is a session of the page: the requests, in order.
var session = []struct {
	op   string
	args any
}{
	{"load", LoadArgs{Seed: 42}},
	{"run", RunArgs{Line: "create rs web --replicas=3 --selector=app=web"}},
	{"step", StepArgs{N: 7}},
	{"stabilize", StabilizeArgs{MaxSteps: 10}},
	{"stabilize", StabilizeArgs{MaxSteps: 100000}},
	{"run", RunArgs{Line: "kill pods -l app=web --pick=random"}},
	{"untilSync", nil},
	{"run", RunArgs{Line: "fail create pods --count=1 --error=quota"}},
	{"run", RunArgs{Line: "drop watch pods --count=1"}},
	{"run", RunArgs{Line: "scale rs/web --replicas=5"}},
	{"step", StepArgs{N: 20}},
	{"view", ViewArgs{Agenda: 50, Steps: 50}},
	{"seek", SeekArgs{Step: 224}}, // after the first stabilize and the kill
	{"view", nil},
	{"run", RunArgs{Line: "label pods -l app=web --pick=oldest app=db --overwrite"}},
	{"stabilize", StabilizeArgs{MaxSteps: 100000}},
	{"run", RunArgs{Line: "get pods --show-labels"}},
	{"steps", StepsArgs{From: 1}},
	{"view", ViewArgs{Agenda: 50, Steps: 50}},
}

func TestBridgeIsDeterministic(t *testing.T) {
	play := func() [][]byte {
		b := newBridge(t)
		var out [][]byte
		for _, r := range session {
			ans := b.Handle(encodeRequest(t, r.op, r.args))
			require.Empty(t, decodeAnswer(t, ans).Error, "%s %v", r.op, r.args)
			out = append(out, ans)
		}
		return out
	}
	first, second := play(), play()
	for i := range first {
		assert.Equal(t, string(first[i]), string(second[i]), "request %d (%s) answered differently", i, session[i].op)
	}

	var v View
	require.NoError(t, json.Unmarshal(decodeAnswer(t, first[len(first)-1]).Result, &v))
	assert.True(t, v.AtRest)
	owners := map[string]int{}
	for _, p := range v.Pods {
		owners[p.Owner+" "+p.Labels["app"]]++
	}
	assert.Equal(t, map[string]int{"rs/web web": 3, " db": 1}, owners,
		"the label forked the timeline before the scale: three pods of rs/web and the one relabelled away")
}

func TestBridgeSeekBackAndForth(t *testing.T) {
	b := newSandbox(t, 5)
	run(t, b, "create rs web --replicas=3 --selector=app=web")
	callOp[StepsResult](t, b, "step", StepArgs{N: 10})
	mid := callOp[View](t, b, "view", ViewArgs{Agenda: 100, Steps: 100})
	callOp[StepsResult](t, b, "step", StepArgs{N: 3}) // no input at mid's boundary
	run(t, b, "kill pods -l app=web --pick=newest")
	stabilize(t, b, 1000)
	end := callOp[View](t, b, "view", ViewArgs{Agenda: 100, Steps: 100})

	seek := func(step uint64) View {
		t.Helper()
		res := callOp[SeekResult](t, b, "seek", SeekArgs{Step: step})
		require.Equal(t, step, res.Step)
		require.Equal(t, end.RecordedSteps, res.RecordedSteps, "seeking does not change the timeline")
		return callOp[View](t, b, "view", ViewArgs{Agenda: 100, Steps: 100})
	}
	back := seek(mid.Step)
	assert.Equal(t, back, seek(mid.Step), "seeking to the same step twice")
	forth := seek(end.Step)
	assert.Equal(t, end, forth, "back and forth again is where we were")
	assert.Equal(t, back, seek(mid.Step))
	assert.Equal(t, forth, seek(end.Step))

	// Back at mid, the world is what it was then; only the timeline knows
	// more (the steps and inputs recorded since).
	back = seek(mid.Step)
	assert.Equal(t, end.RecordedSteps, back.RecordedSteps)
	back.RecordedSteps, back.Inputs = mid.RecordedSteps, mid.Inputs
	assert.Equal(t, mid, back)

	// Going back to the start of the world and before it works too.
	zero := seek(0)
	assert.Zero(t, zero.Step)
	assert.Empty(t, zero.LastSteps)
	assert.Equal(t, "0.000s", zero.Clock)

	// An input in the past forks the timeline: the old future is gone.
	seek(mid.Step)
	forked := run(t, b, "scale rs/web --replicas=1")
	v := callOp[View](t, b, "view", nil)
	assert.Equal(t, forked.Step, v.RecordedSteps, "the old future was dropped")
	assert.Less(t, v.RecordedSteps, end.RecordedSteps)
	steps := callOp[StepsResult](t, b, "steps", StepsArgs{From: mid.Step - 2})
	require.Len(t, steps.Steps, int(v.RecordedSteps-mid.Step+3))
	for i, s := range steps.Steps {
		assert.Equal(t, mid.Step-2+uint64(i), s.N)
	}
	assert.Equal(t, forked.Steps, steps.Steps[3:], "the timeline holds the new steps, not the old ones")
	assert.Contains(t, fails(t, b, fmt.Sprintf(`{"op":"seek","args":{"step":%d}}`, end.Step)), "has not run yet")
}

// TestBridgeLessonsPassThroughTheBridge proves every lesson through the
// bridge, as the page runs it, in every language it is written in: the
// learner reading the zh-CN pages runs their do blocks (their # comments
// translated) and answers their predicts, checked and graded by the same
// page and block numbers as the English.
func TestBridgeLessonsPassThroughTheBridge(t *testing.T) {
	b := newBridge(t)
	list := callOp[LessonsResult](t, b, "lessons", nil)
	require.NotEmpty(t, list.Lessons)
	translated := 0
	for _, item := range list.Lessons {
		t.Run(item.ID, func(t *testing.T) {
			b := newBridge(t)
			load := callOp[LoadResult](t, b, "load", LoadArgs{Lesson: item.ID})
			assert.Equal(t, "lesson", load.Mode)
			l := load.Lesson
			require.NotNil(t, l)
			assert.Equal(t, item.Title, l.Title)
			require.NotEmpty(t, l.Pages)
			v := callOp[View](t, b, "view", nil)
			assert.Equal(t, item.ID, v.Lesson)
			assert.Equal(t, load.Step, v.BaseStep)

			goal := callOp[CheckResult](t, b, "check", nil)
			assert.False(t, goal.Met, "setup alone does not meet the goal")
			require.NotNil(t, goal.Failure)
			assert.Equal(t, "runtime", goal.Failure.Kind)

			walkGuide(t, b, l.Pages)
			var langs []string
			for _, tr := range l.Translations {
				langs = append(langs, tr.Lang)
			}
			if len(langs) > 0 {
				assert.Equal(t, lesson.Languages[1:], langs, "a lesson's translations come in the order of lesson.Languages")
			}
			for _, tr := range l.Translations {
				translated++
				t.Run(tr.Lang, func(t *testing.T) {
					listed := translationOf(item, tr.Lang)
					require.NotNil(t, listed, "the list names the lesson in %s", tr.Lang)
					assert.Equal(t, listed.Title, tr.Title)
					assert.NotEmpty(t, tr.Title)
					assert.Len(t, tr.Hints, len(l.Hints))
					require.Len(t, tr.Pages, len(l.Pages))
					callOp[LoadResult](t, b, "load", LoadArgs{Lesson: item.ID})
					walkGuide(t, b, tr.Pages)
				})
			}

			// The reference solution, from a fresh load, meets the goal.
			callOp[LoadResult](t, b, "load", LoadArgs{Lesson: item.ID})
			run(t, b, strings.Split(l.Solution, "\n")...)
			before := callOp[View](t, b, "view", nil)
			res := callOp[CheckResult](t, b, "check", nil)
			assert.True(t, res.Met, "%+v", res.Failure)
			assert.Equal(t, before, callOp[View](t, b, "view", nil), "checking changes nothing")

			assert.Contains(t, fails(t, b, `{"op":"check","args":{"page":99}}`), "not 99")
		})
	}
	assert.Positive(t, translated, "lesson 01 is translated")
}

// walkGuide walks a lesson's guide, in one language, from its setup, as
// the learner does: each page's do blocks, line by line through the
// console; its step blocks by pressing Step until they hold; each predict
// graded once its step has run, as ticked; each check, line by line,
// where it stands; and the goal met at the end.
func walkGuide(t *testing.T, b *Bridge, pages []PageInfo) {
	t.Helper()
	for _, p := range pages {
		var asked []int
		for i, blk := range p.Blocks {
			switch blk.Kind {
			case "predict":
				asked = append(asked, i)
				continue
			case "do":
				run(t, b, strings.Split(blk.Text, "\n")...)
			case "step":
				stepTo(t, b, p.N, i)
			case "check":
				// A check holds where it stands, after the blocks
				// before it.
				i := i
				res := callOp[CheckResult](t, b, "check", CheckArgs{Page: p.N, Block: &i})
				assert.True(t, res.Met, "page %d, check block %d: %+v", p.N, i, res.Failure)
				for _, line := range res.Lines {
					assert.True(t, line.Met, "page %d: %s", p.N, line.Text)
				}
				continue
			default:
				continue
			}
			for _, q := range asked {
				g := callOp[GradeResult](t, b, "grade", GradeArgs{Page: p.N, Block: q})
				assert.Equal(t, p.Blocks[q].Predict.Answer, g.Decided, "page %d, predict %d: %v", p.N, q, g.Holds)
			}
			asked = nil
		}
	}
	assert.True(t, callOp[CheckResult](t, b, "check", nil).Met, "following the guide meets the goal")
}

// stepTo presses Step, one event at a time, until block i of page n, a step
// block, holds, as the learner does.
func stepTo(t *testing.T, b *Bridge, n, i int) {
	t.Helper()
	for range 200 {
		if callOp[CheckResult](t, b, "check", CheckArgs{Page: n, Block: &i}).Met {
			return
		}
		callOp[StepsResult](t, b, "step", StepArgs{N: 1})
	}
	require.True(t, callOp[CheckResult](t, b, "check", CheckArgs{Page: n, Block: &i}).Met, "page %d's step block %d is not reached in 200 steps", n, i)
}

// TestBridgeChecksLineByLineAndGrades: a check answers each expect, the
// failing ones with what they found; grade runs a predict's choices; the
// sources name upstream functions with links.
func TestBridgeChecksLineByLineAndGrades(t *testing.T) {
	b := newBridge(t)
	l := callOp[LoadResult](t, b, "load", LoadArgs{Lesson: "02-a-pod-dies"}).Lesson
	goal := callOp[CheckResult](t, b, "check", nil)
	require.Len(t, goal.Lines, 2)
	assert.True(t, goal.Lines[0].Met, goal.Lines[0].Text)
	assert.False(t, goal.Lines[1].Met)
	assert.Equal(t, "expect requests verb=create resource=pods count>=4", goal.Lines[1].Text)
	assert.Contains(t, goal.Lines[1].Failure.Message, "found 3")
	assert.Equal(t, goal.Lines[1].Failure, goal.Failure, "the first failure is the check's")

	predict, check := 0, 2
	before := callOp[GradeResult](t, b, "grade", GradeArgs{Page: 2, Block: predict})
	assert.Equal(t, []bool{true, false, false}, before.Holds, "before the kill, 'none' holds")
	run(t, b, strings.Split(l.Pages[1].Blocks[1].Text, "\n")...)
	after := callOp[GradeResult](t, b, "grade", GradeArgs{Page: 2, Block: predict})
	assert.Equal(t, l.Pages[1].Blocks[predict].Predict.Answer, after.Decided)
	assert.True(t, callOp[CheckResult](t, b, "check", CheckArgs{Page: 2, Block: &check}).Met)

	assert.Contains(t, fails(t, b, `{"op":"grade","args":{"page":2,"block":1}}`), "is a do block, not a predict")
	assert.Contains(t, fails(t, b, `{"op":"check","args":{"page":2,"block":1}}`), "takes a check or a step block")
	assert.Contains(t, fails(t, b, `{"op":"grade","args":{"page":2,"block":9}}`), "has blocks 0 to 2, not 9")

	src := callOp[SourcesResult](t, b, "sources", nil)
	assert.Equal(t, "v1.31.14", src.Tag)
	var sync Source
	for _, s := range src.Sources {
		if s.Name == "syncReplicaSet" {
			sync = s
		}
	}
	assert.Equal(t, "pkg/controller/replicaset/replica_set.go", sync.File)
	assert.Equal(t, "https://github.com/kubernetes/kubernetes/blob/v1.31.14/pkg/controller/replicaset/replica_set.go#L"+strconv.Itoa(sync.Line), sync.URL)
}

func TestBridgeLessonContent(t *testing.T) {
	b := newBridge(t)
	l := callOp[LoadResult](t, b, "load", LoadArgs{Lesson: "02-a-pod-dies", Seed: 9}).Lesson
	require.Len(t, l.Pages, 3)
	blocks := l.Pages[1].Blocks
	require.Len(t, blocks, 3)
	assert.Equal(t, []string{"predict", "do", "check"}, []string{blocks[0].Kind, blocks[1].Kind, blocks[2].Kind})
	require.NotNil(t, blocks[0].Predict)
	assert.Equal(t, 1, blocks[0].Predict.Answer)
	assert.Len(t, blocks[0].Predict.Choices, 3)
	assert.NotEmpty(t, l.Hints)
	assert.Equal(t, uint64(9), callOp[View](t, b, "view", nil).Seed, "the load's seed overrides the lesson's")
}

func TestBridgeSeeds(t *testing.T) {
	podNames := func(seed uint64) []string {
		b := newSandbox(t, seed)
		run(t, b, "create rs web --replicas=2 --selector=app=web", "stabilize")
		var names []string
		for _, p := range callOp[View](t, b, "view", nil).Pods {
			names = append(names, p.Name)
		}
		return names
	}
	assert.Equal(t, podNames(11), podNames(11))
	assert.NotEqual(t, podNames(11), podNames(12))

	b := newSandbox(t, 0)
	assert.Equal(t, uint64(1), callOp[View](t, b, "view", nil).Seed, "the default seed")
	run(t, b, "seed 5")
	v := callOp[View](t, b, "view", nil)
	assert.Equal(t, uint64(5), v.Seed, "seed before any change rebuilds the world")
	assert.Equal(t, v.Step, v.RecordedSteps)
	assert.Len(t, callOp[StepsResult](t, b, "steps", nil).Steps, int(v.Step), "the log is the new world's")
	run(t, b, "create rs web --replicas=1 --selector=app=web")
	res := callOp[RunResult](t, b, "run", RunArgs{Line: "seed 6"})
	require.NotNil(t, res.Failure, "too late once the world changed")
	assert.Contains(t, res.Failure.Message, "already changed")
}

func TestBridgeRecoversPanics(t *testing.T) {
	opTable()["boom"] = func(b *Bridge, _ []byte) (any, error) { panic("boom in an op") }
	opTable()["stepThenBoom"] = func(b *Bridge, _ []byte) (any, error) {
		if _, err := b.Step(StepArgs{N: 2}); err != nil {
			return nil, err
		}
		panic(fmt.Errorf("boom after stepping"))
	}
	t.Cleanup(func() { delete(ops, "boom"); delete(ops, "stepThenBoom") })

	b := newSandbox(t, 1)
	run(t, b, "create rs web --replicas=2 --selector=app=web")
	before := callOp[View](t, b, "view", nil)

	msg := fails(t, b, `{"op":"boom"}`)
	assert.Equal(t, "boom: internal error (a bug in Reconcile Lab): boom in an op", msg)
	assert.Equal(t, before, callOp[View](t, b, "view", nil), "a panic before any change changes nothing")

	msg = fails(t, b, `{"op":"stepThenBoom"}`)
	assert.Contains(t, msg, "boom after stepping")
	after := callOp[View](t, b, "view", nil)
	assert.Equal(t, before.Step+2, after.Step, "what ran before the panic stays done")

	// The bridge keeps working: it steps, seeks and stabilizes.
	callOp[StepsResult](t, b, "step", StepArgs{N: 3})
	callOp[SeekResult](t, b, "seek", SeekArgs{Step: before.Step})
	assert.Equal(t, before.Pods, callOp[View](t, b, "view", nil).Pods)
	stabilize(t, b, 1000)
	assert.Len(t, callOp[View](t, b, "view", nil).Pods, 2)
}

func TestBridgeLessonSetupIsNotTheLearners(t *testing.T) {
	b := newBridge(t)
	load := callOp[LoadResult](t, b, "load", LoadArgs{Lesson: "02-a-pod-dies"})
	require.Positive(t, load.Step)

	v := callOp[View](t, b, "view", nil)
	assert.Empty(t, v.Inputs, "the setup's commands are not the learner's, and a share link does not carry them")

	// Back inside the setup the learner may watch but not change the world:
	// a fork there could not be rebuilt from a share link.
	callOp[SeekResult](t, b, "seek", SeekArgs{Step: load.Step - 1})
	res := callOp[RunResult](t, b, "run", RunArgs{Line: "scale rs web --replicas=5"})
	require.NotNil(t, res.Failure)
	assert.Contains(t, res.Failure.Message, fmt.Sprintf("inside the lesson's setup, which runs until step %d", load.Step))
	assert.Equal(t, load.Step, callOp[View](t, b, "view", nil).RecordedSteps, "the refused command forked nothing")

	callOp[SeekResult](t, b, "seek", SeekArgs{Step: load.Step})
	run(t, b, "scale rs web --replicas=5")
	v = callOp[View](t, b, "view", nil)
	assert.Equal(t, []Input{{Step: load.Step, Text: "scale rs web --replicas=5"}}, v.Inputs)
}

func TestBridgeViewCapsItsLists(t *testing.T) {
	b := newSandbox(t, 0)
	run(t, b, "create rs web --replicas=5 --selector=app=web")
	stabilize(t, b, 10000)
	// A dropped watch event leaves the pod informer's cache behind the API:
	// that entry differs, and a capped view lists it before the equal ones.
	run(t, b, "drop watch pods --count=3", "kill pod --selector=app=web --count=1")
	stabilize(t, b, 10000)

	full := callOp[View](t, b, "view", nil)
	capped := callOp[View](t, b, "view", ViewArgs{Pods: 2, Entries: 2})

	assert.Equal(t, full.PodsTotal, capped.PodsTotal)
	assert.Equal(t, full.Pods[:2], capped.Pods, "the first pods, in the same order")
	pods := capped.Informers[0]
	require.Equal(t, "Pod", pods.Kind)
	require.Len(t, pods.Entries, 2)
	assert.Equal(t, full.Informers[0].EntriesTotal, pods.EntriesTotal)
	assert.Positive(t, pods.Differ)
	assert.NotEmpty(t, pods.Entries[0].Diff, "entries that differ come first")

	none := callOp[View](t, b, "view", ViewArgs{Pods: -1, Entries: -1})
	assert.Empty(t, none.Pods)
	assert.Empty(t, none.Informers[0].Entries)
	assert.Equal(t, full.PodsTotal, none.PodsTotal)
}

// TestBridgeViewCapsEachGroupOfPods proves podsPerGroup lists the first
// pods of each group the world draws, by name, and that PodGroups counts
// every group's pods whatever the caps: the page draws "and N more" and
// the owner's active count from them.
func TestBridgeViewCapsEachGroupOfPods(t *testing.T) {
	b := newSandbox(t, 0)
	run(t, b, "create rs web --replicas=5 --selector=app=web", "create rs db --replicas=2 --selector=app=db")
	stabilize(t, b, 10000)
	// Two orphans (relabelled out of every selector, then released), and a
	// pod of rs/web being deleted, not yet replaced: not active, still
	// listed and counted.
	run(t, b, "label pods -l app=web --pick=oldest --count=2 app=none --overwrite")
	stabilize(t, b, 10000)
	run(t, b, "delete pods -l app=web --pick=newest --count=1")

	full := callOp[View](t, b, "view", nil)
	capped := callOp[View](t, b, "view", ViewArgs{PodsPerGroup: 2})
	require.Equal(t, full.PodGroups, capped.PodGroups, "the counts do not depend on the caps")
	assert.Equal(t, []world.PodGroup{
		{Namespace: "default", Owner: "rs/db", Pods: 2, Active: 2},
		{Namespace: "default", Owner: "rs/web", Pods: 5, Active: 4},
		{Namespace: "default", Pods: 2, Active: 2},
	}, sortedGroups(capped.PodGroups))
	assert.Equal(t, full.PodsTotal, capped.PodsTotal)

	// Each group keeps its first two pods, in the order of the full list.
	var want []world.Pod
	seen := map[string]int{}
	for _, p := range full.Pods {
		group := p.Namespace + "/" + p.Owner
		if seen[group]++; seen[group] <= 2 {
			want = append(want, p)
		}
	}
	assert.Equal(t, want, capped.Pods)
	assert.Len(t, capped.Pods, 6, "two of each group")

	// The overall cap still holds over the groups' pods.
	assert.Equal(t, want[:3], callOp[View](t, b, "view", ViewArgs{Pods: 3, PodsPerGroup: 2}).Pods)
}

// sortedGroups orders groups by owner, the orphans last.
func sortedGroups(groups []world.PodGroup) []world.PodGroup {
	out := slices.Clone(groups)
	slices.SortFunc(out, func(a, b world.PodGroup) int {
		if (a.Owner == "") != (b.Owner == "") {
			return cmp.Compare(b.Owner, a.Owner)
		}
		return cmp.Compare(a.Owner, b.Owner)
	})
	return out
}

func TestBridgeCollectsGarbageWhenARunComesToRest(t *testing.T) {
	collections := 0
	defer func(f func()) { collectGarbage = f }(collectGarbage)
	collectGarbage = func() { collections++ }

	b := newSandbox(t, 0)
	run(t, b, "create rs web --replicas=3 --selector=app=web")
	res := callOp[StepsResult](t, b, "stabilize", StabilizeArgs{MaxSteps: 5})
	require.False(t, res.AtRest)
	assert.Zero(t, collections, "not in the middle of a run")
	stabilize(t, b, 10000)
	assert.Equal(t, 1, collections, "once, when the run came to rest")
	callOp[StepsResult](t, b, "stabilize", nil)
	assert.Equal(t, 1, collections, "not again for a world already at rest")
}

// TestStabilizeListsTheNewestStepsAskedFor proves stabilize's steps
// argument: a chunk asked to list 30 steps runs what a chunk listing the
// default 500 runs, and lists the newest 30 of them, the same steps.
func TestStabilizeListsTheNewestStepsAskedFor(t *testing.T) {
	all, few := newSandbox(t, 3), newSandbox(t, 3)
	for _, b := range []*Bridge{all, few} {
		run(t, b, "create rs web --replicas=300 --selector=app=web")
	}
	for range 3 {
		want := callOp[StepsResult](t, all, "stabilize", StabilizeArgs{MaxSteps: 1000})
		got := callOp[StepsResult](t, few, "stabilize", StabilizeArgs{MaxSteps: 1000, Steps: 30})
		require.Len(t, want.Steps, maxReturnedSteps, "the default lists 500 steps of a chunk of 1000")
		require.Len(t, got.Steps, 30)
		assert.Equal(t, want.Steps[len(want.Steps)-30:], got.Steps, "the newest 30 steps")
		assert.Equal(t, want.Step, got.Steps[29].N)
		want.Steps, got.Steps = nil, nil
		assert.Equal(t, want, got, "the same run, but for the list")
		assert.True(t, got.Truncated)
	}
	done := callOp[StepsResult](t, few, "stabilize", StabilizeArgs{MaxSteps: 100000, Steps: 500})
	assert.True(t, done.AtRest)
	require.Greater(t, done.Ran, maxReturnedSteps, "300 pods take more than 3,500 steps to come to rest")
	assert.Len(t, done.Steps, maxReturnedSteps, "500, the most an answer lists, may be asked for")
}

// podNamed returns the view's pod called name, failing the test without one.
func podNamed(t *testing.T, v View, name string) world.Pod {
	t.Helper()
	for _, p := range v.Pods {
		if p.Name == name {
			return p
		}
	}
	require.Failf(t, "no such pod in the view", "%s", name)
	return world.Pod{}
}

// TestBridgeViewSaysWhatClaimPodsWillDo proves the view's claim hints follow
// upstream's ClaimObject: a controlled pod relabelled out of its owner's
// selector is Releasing until the owner's sync releases it; an orphan whose
// labels match owners' selectors is AdoptableBy all of them, sorted, until
// one adopts it; an owner being deleted neither releases nor adopts; and a
// pod that no selector concerns has neither hint.
func TestBridgeViewSaysWhatClaimPodsWillDo(t *testing.T) {
	b := newSandbox(t, 3)
	run(t, b, "create rs web --replicas=2 --selector=app=web", "stabilize")
	v := callOp[View](t, b, "view", nil)
	require.Len(t, v.Pods, 2)
	for _, p := range v.Pods {
		assert.False(t, p.Releasing, "%s matches its owner", p.Name)
		assert.Empty(t, p.AdoptableBy, "%s is owned", p.Name)
	}

	victim := v.Pods[0].Name
	run(t, b, "label pod/"+victim+" app=db --overwrite")
	p := podNamed(t, callOp[View](t, b, "view", nil), victim)
	assert.Equal(t, "rs/web", p.Owner, "the release has not happened yet")
	assert.True(t, p.Releasing, "app=db no longer matches rs/web's app=web")
	run(t, b, "stabilize")
	p = podNamed(t, callOp[View](t, b, "view", nil), victim)
	assert.Empty(t, p.Owner, "rs/web released it")
	assert.False(t, p.Releasing)
	assert.Empty(t, p.AdoptableBy, "no selector matches app=db")

	// Two owners whose selectors match the orphan, created with a step
	// budget that lets neither sync yet.
	run(t, b, "create rs db-b --replicas=1 --selector=app=db", "create rs db-a --replicas=1 --selector=app=db")
	p = podNamed(t, callOp[View](t, b, "view", nil), victim)
	assert.Equal(t, []string{"rs/db-a", "rs/db-b"}, p.AdoptableBy)
	run(t, b, "stabilize")
	p = podNamed(t, callOp[View](t, b, "view", nil), victim)
	assert.Contains(t, []string{"rs/db-a", "rs/db-b"}, p.Owner, "one of them adopted it")
	assert.Empty(t, p.AdoptableBy)
	assert.False(t, p.Releasing)

}

// TestBridgeViewTellsAGoneOwnerFromItsNamesake proves a pod whose controller
// reference names an owner that no longer exists is OwnerGone, even when a
// new owner of the same name exists (another uid): deleted with the default
// background cascade, rs/web goes at once and leaves its pods for the
// garbage collector, and a new rs/web created at once must not be drawn
// as their owner.
func TestBridgeViewTellsAGoneOwnerFromItsNamesake(t *testing.T) {
	b := newSandbox(t, 4)
	run(t, b, "create rs web --replicas=2 --selector=app=web", "stabilize")
	old := map[string]bool{}
	for _, p := range callOp[View](t, b, "view", nil).Pods {
		assert.False(t, p.OwnerGone, "%s's owner is alive", p.Name)
		old[p.Name] = true
	}
	run(t, b, "delete rs/web", "create rs web --replicas=2 --selector=app=web")
	gone := 0
	for _, p := range callOp[View](t, b, "view", nil).Pods {
		if old[p.Name] {
			assert.Equal(t, "rs/web", p.Owner, "%s still names rs/web", p.Name)
			assert.True(t, p.OwnerGone, "%s names the deleted rs/web, not the new one", p.Name)
			assert.False(t, p.Releasing, "a gone owner releases nothing")
			gone++
		}
	}
	require.Positive(t, gone, "the garbage collector deleted the old pods before the view; the test needs them")
	run(t, b, "stabilize")
	for _, p := range callOp[View](t, b, "view", nil).Pods {
		assert.False(t, old[p.Name], "the garbage collector should have deleted %s", p.Name)
		assert.False(t, p.OwnerGone)
	}
}

// TestBridgeStepwisePagesRefuseManyEventsAtOnce: on a stepwise page of a
// lesson, the console refuses a command that runs more than one event, and
// says what to do instead; one event at a time, and every other page, run
// as ever.
func TestBridgeStepwisePagesRefuseManyEventsAtOnce(t *testing.T) {
	b := newBridge(t)
	l := callOp[LoadResult](t, b, "load", LoadArgs{Lesson: "01-the-control-loop"}).Lesson
	require.NotNil(t, l)
	run(t, b, "create rs web --replicas=3 --selector=app=web")
	before := callOp[View](t, b, "view", nil)

	for _, line := range []string{"stabilize", "until sync rs/web", "step 2", "advance 1s"} {
		res := callOp[RunResult](t, b, "run", RunArgs{Line: line, Page: 2})
		require.NotNil(t, res.Failure, line)
		assert.Equal(t, "page 2 of this lesson walks every event: press Step (→) to run the next one; "+
			strconv.Quote(line)+" would run many at once (it works again from page 7)", res.Failure.Message)
		assert.Empty(t, res.Steps, line)
	}
	assert.Equal(t, before.Step, callOp[View](t, b, "view", nil).Step, "nothing ran")

	res := callOp[RunResult](t, b, "run", RunArgs{Line: "step", Page: 2})
	assert.Nil(t, res.Failure, "one event at a time runs")
	res = callOp[RunResult](t, b, "run", RunArgs{Line: "stabilize", Page: 7})
	assert.Nil(t, res.Failure, "past the stepwise pages, anything runs")
}

// TestBridgeFunctionsSaysWhatTheRealCodeDid: the functions some steps
// modelled, in the order each first ran, counted, with their sources.
func TestBridgeFunctionsSaysWhatTheRealCodeDid(t *testing.T) {
	b := newBridge(t)
	load := callOp[LoadResult](t, b, "load", LoadArgs{Lesson: "01-the-control-loop"})
	assert.Equal(t, &lesson.PageRange{From: 2, To: 6}, load.Lesson.Stepwise)
	run(t, b, "create rs web --replicas=3 --selector=app=web", "step 6")
	res := callOp[FunctionsResult](t, b, "functions", StepsArgs{From: load.Step + 1})
	var names []string
	for _, f := range res.Functions {
		names = append(names, f.Name)
	}
	require.GreaterOrEqual(t, len(names), 5)
	assert.Equal(t, []string{"registry.Create", "kubectl", "watchHandler"}, names[:3], "in the order each first ran")
	assert.Contains(t, names, "addRS")
	for _, f := range res.Functions {
		assert.Positive(t, f.Count)
		assert.Greater(t, f.First, load.Step)
		if f.Name == "kubectl" {
			assert.Nil(t, f.Source, "kubectl is the learner's own")
		} else if assert.NotNil(t, f.Source, f.Name) {
			assert.Contains(t, f.Source.URL, "/blob/v1.31.14/")
		}
	}
	assert.Equal(t, "handleWatch", res.Functions[2].Source.Func)
}

// TestBridgeSaysWhichStepsItNoLongerKeeps: a run longer than the session
// keeps (50,000 steps) drops its oldest steps, and every stepping answer
// says where the kept ones begin, so the page can say why the timeline
// holds no steps before it; the world can still be sought there.
func TestBridgeSaysWhichStepsItNoLongerKeeps(t *testing.T) {
	b := newSandbox(t, 1)
	short := callOp[StepsResult](t, b, "steps", nil)
	assert.Zero(t, short.KeptFrom, "a short world keeps its first step")

	run(t, b, "create rs big --replicas=2000 --selector=app=big")
	var res StepsResult
	for !res.AtRest {
		res = callOp[StepsResult](t, b, "stabilize", StabilizeArgs{MaxSteps: 20_000, Steps: 1})
	}
	require.Greater(t, res.Step, uint64(55_000), "the run is longer than what is kept")
	kept := res.KeptFrom
	require.Greater(t, kept, uint64(1), "the run's answer says steps were dropped")
	assert.GreaterOrEqual(t, res.Step-kept+1, uint64(50_000), "at least 50,000 steps are kept")

	all := callOp[StepsResult](t, b, "steps", StepsArgs{From: 1, To: kept + 2})
	assert.Equal(t, kept, all.KeptFrom)
	require.Len(t, all.Steps, 3, "only the kept steps of the range are listed")
	assert.Equal(t, kept, all.Steps[0].N)
	before := callOp[StepsResult](t, b, "steps", StepsArgs{From: 1, To: kept - 1})
	assert.Empty(t, before.Steps)
	assert.Equal(t, kept, before.KeptFrom)

	// The world still goes back to a step no longer listed.
	at := callOp[SeekResult](t, b, "seek", SeekArgs{Step: 10})
	assert.Equal(t, uint64(10), at.Step)
	assert.Equal(t, kept, callOp[StepsResult](t, b, "steps", StepsArgs{From: 5, To: 15}).KeptFrom)
}

// TestBridgePreparesAStepBackInSlices: in a world whose snapshots are far
// behind the present (2,000 pods run to rest), prepare runs in slices until
// it says done, and the world it leaves answers every op as before; any
// other op cut short a preparation under way and answers as if none had
// begun; the step back then lands where it would have.
func TestBridgePreparesAStepBackInSlices(t *testing.T) {
	b := newSandbox(t, 1)
	short := callOp[PrepareResult](t, b, "prepare", PrepareArgs{MaxSteps: 100})
	assert.True(t, short.Done, "a short world needs no preparation")
	assert.Zero(t, short.Replayed)

	run(t, b, "create rs big --replicas=2000 --selector=app=big")
	stabilize(t, b, 20_000)
	viewArgs := ViewArgs{Agenda: -1, Steps: 20, Pods: 100, Entries: 100}
	before := b.Handle(encodeRequest(t, "view", viewArgs))
	step := callOp[View](t, b, "view", viewArgs).Step

	// Cut short: the view answered in the middle of a preparation is the
	// present's.
	require.False(t, callOp[PrepareResult](t, b, "prepare", PrepareArgs{MaxSteps: 1000}).Done)
	assert.Equal(t, string(before), string(b.Handle(encodeRequest(t, "view", viewArgs))))

	slices := 0
	for done := false; !done; slices++ {
		res := callOp[PrepareResult](t, b, "prepare", PrepareArgs{MaxSteps: 500})
		done = res.Done
		assert.Positive(t, res.Replayed)
		assert.LessOrEqual(t, res.Replayed, 500)
		require.Less(t, slices, 1000)
	}
	assert.Greater(t, slices, 1, "it came in slices")
	assert.Equal(t, string(before), string(b.Handle(encodeRequest(t, "view", viewArgs))), "prepared, the world is the one it was")
	assert.True(t, callOp[PrepareResult](t, b, "prepare", PrepareArgs{MaxSteps: 100}).Done, "and needs no more")

	back := callOp[SeekResult](t, b, "seek", SeekArgs{Step: step - 1})
	assert.Equal(t, step-1, back.Step)
	callOp[SeekResult](t, b, "seek", SeekArgs{Step: step})
	assert.Equal(t, string(before), string(b.Handle(encodeRequest(t, "view", viewArgs))))
}

// TestBridgePreparesOnlyAWorldAtRest: a world still running (stepped or
// played slowly) is not prepared, since its next step would abandon the
// preparation.
func TestBridgePreparesOnlyAWorldAtRest(t *testing.T) {
	b := newSandbox(t, 1)
	run(t, b, "create rs big --replicas=2000 --selector=app=big")
	// 48,000 steps into the run, thousands of steps past its last
	// snapshot, whatever their spacing has grown to by then.
	for at := uint64(0); at < 48_000; {
		at = callOp[StepsResult](t, b, "step", StepArgs{N: int(min(10_000, 48_000-at))}).Step
	}
	viewArgs := ViewArgs{Agenda: -1, Steps: 20, Pods: 100, Entries: 100}
	before := b.Handle(encodeRequest(t, "view", viewArgs))
	require.False(t, callOp[View](t, b, "view", viewArgs).AtRest)
	assert.True(t, callOp[PrepareResult](t, b, "prepare", PrepareArgs{MaxSteps: 100}).Done)
	assert.Equal(t, string(before), string(b.Handle(encodeRequest(t, "view", viewArgs))))
}
