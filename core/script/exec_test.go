package script

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/world"
)

// Helpers shared by the executor's tests, and the tests of the session
// itself: building the world, runtime failures, Run and RunScript, seeking.

// testSession is a session whose output the test reads, with the commands
// of setup run (each must succeed).
type testSession struct {
	*Session
	out *strings.Builder
}

func newTestSession(t testing.TB, setup ...string) *testSession {
	t.Helper()
	out := &strings.Builder{}
	ts := &testSession{Session: NewSession(Options{Out: out, SnapshotEvery: -1}), out: out}
	for _, line := range setup {
		ts.ok(t, line)
	}
	return ts
}

// run parses and runs one line, and returns what it printed and its error.
func (ts *testSession) run(t testing.TB, line string) (string, error) {
	t.Helper()
	cmd, err := ParseLine(line)
	require.NoError(t, err, line)
	require.NotNil(t, cmd, line)
	ts.out.Reset()
	err = ts.Run(cmd)
	return ts.out.String(), err
}

// ok runs a line that must succeed and returns its output.
func (ts *testSession) ok(t testing.TB, line string) string {
	t.Helper()
	out, err := ts.run(t, line)
	require.NoError(t, err, "%s printed:\n%s", line, out)
	return out
}

// fails runs a line that must fail with a runtime error and returns it.
func (ts *testSession) fails(t testing.TB, line string) *RuntimeError {
	t.Helper()
	out, err := ts.run(t, line)
	require.Error(t, err, "%s should fail; it printed:\n%s", line, out)
	var re *RuntimeError
	require.True(t, errors.As(err, &re), "a runtime failure is a *RuntimeError: %T", err)
	return re
}

// pods returns the pods in the default namespace, in creation order.
func (ts *testSession) pods() []*api.Pod {
	w := ts.World()
	objs := w.Store.Objects(api.KindPod, "default")
	creationOrder(w, api.KindPod, objs)
	out := make([]*api.Pod, len(objs))
	for i, o := range objs {
		out[i] = o.(*api.Pod)
	}
	return out
}

func podNames(ps []*api.Pod) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Metadata.Name
	}
	return out
}

// fingerprint sums up everything a command could change about a world: the
// clock, steps and trace hash, the recorded inputs, the agenda, the store's
// resourceVersion and faults, the request log, the watch faults and the
// kubelets' timing.
func fingerprint(w *world.World) string {
	var b strings.Builder
	k := w.Kernel
	b.WriteString("steps " + uitoa(k.Steps()) + " hash " + uitoa(k.Hash()) + " now " + k.Now().String() +
		" inputs " + itoa(len(w.Inputs())) + " rv " + uitoa(w.Store.ResourceVersion()) +
		" requests " + itoa(len(w.Server.Requests())) + "\n")
	for _, ev := range k.Agenda() {
		b.WriteString("agenda " + ev.At.String() + " #" + uitoa(ev.Seq) + " " + ev.To + " " + ev.Kind + "\n")
	}
	for _, r := range w.Store.Faults().Rules() {
		b.WriteString("fault " + r.String() + " seen " + itoa(r.Seen) + "\n")
	}
	for _, k := range watchKinds {
		f := w.Informer(k).View().Faults
		b.WriteString("watch " + string(k) + " drop " + itoa(f.DropNext) + " lost " + itoa(f.Lost) + " delay " + f.Delay.String() + "\n")
	}
	b.WriteString("kubelet " + w.Cluster.Kubelets.KubeletStart().String() + " " + w.Cluster.Kubelets.KubeletStop().String() + "\n")
	b.WriteString("rand " + strconv.Itoa(randProbe(w)) + "\n")
	return b.String()
}

// randProbe reads the state of the world's random source without changing
// it: it is part of the kernel's snapshot, so draw from a restored copy.
func randProbe(w *world.World) int {
	snap, err := w.Kernel.Snapshot()
	if err != nil {
		return -1
	}
	n := w.Kernel.Rand().IntN(1 << 30)
	if err := w.Kernel.Restore(snap); err != nil {
		return -2
	}
	return n
}

func TestSessionBuildsTheWorldLazilyAndAtRest(t *testing.T) {
	ts := newTestSession(t)
	assert.Nil(t, ts.World(), "nothing has needed a world yet")
	ts.ok(t, "seed 4")
	ts.ok(t, "config workers=2")
	assert.Nil(t, ts.World())
	ts.ok(t, "help")
	assert.Nil(t, ts.World(), "help needs no world")

	ts.ok(t, "get nodes")
	w := ts.World()
	require.NotNil(t, w)
	assert.False(t, w.Kernel.Busy(), "the world's start ran to rest")
	assert.Equal(t, uint64(4), w.Config().Seed)
	assert.Equal(t, 2, w.Config().Workers)
	assert.Len(t, w.RS.View().Workers, 2)
	assert.Len(t, w.Store.Objects(api.KindNode, ""), 3, "three Ready nodes")
	assert.NotZero(t, ts.trace.Len(), "the start's steps are kept for the trace view")
	assert.False(t, ts.changed, "starting and reading change nothing")

	// Reading did not change the world: config still rebuilds it.
	ts.ok(t, "config workers=3 burst-replicas=7")
	ts.ok(t, "get pods")
	assert.NotSame(t, w, ts.World(), "the world was built again with the new configuration")
	assert.Equal(t, 3, ts.World().Config().Workers)
	assert.Equal(t, 7, ts.World().Config().BurstReplicas)
}

func TestSessionSeedOverride(t *testing.T) {
	out := &strings.Builder{}
	s := NewSession(Options{Out: out, Seed: 42, SnapshotEvery: -1})
	script, err := Parse("seed 4\nget nodes\n", "x")
	require.NoError(t, err)
	require.NoError(t, s.RunScript(script))
	assert.Equal(t, uint64(42), s.World().Config().Seed, "Options.Seed overrides the script's seed, as rlab run --seed does")
}

func TestSeedAndConfigAfterTheWorldChanged(t *testing.T) {
	ts := newTestSession(t, "create rs web --replicas=1 --selector=app=web")
	before := fingerprint(ts.World())
	e := ts.fails(t, "seed 3")
	assert.Contains(t, e.Msg, "seed must come before every command that changes it")
	e = ts.fails(t, "config kubelet-start=5s workers=2")
	assert.Equal(t, "config workers: workers is fixed once the world has changed; set it before the first command that "+
		"changes the world (create, scale, step, stabilize, ...)", e.Msg)
	assert.Equal(t, 1, e.Pos.Line)
	assert.Equal(t, 25, e.Pos.Col, "the error points at the setting")
	assert.Equal(t, before, fingerprint(ts.World()), "a refused config changes nothing, not even kubelet-start")

	ts.ok(t, "config kubelet-start=5s kubelet-stop=3s api-latency=2ms watch-latency=4ms")
	w := ts.World()
	assert.Equal(t, "5s", w.Cluster.Kubelets.KubeletStart().String())
	assert.Equal(t, "3s", w.Cluster.Kubelets.KubeletStop().String())
	assert.Equal(t, "2ms", w.Server.Config().Latency.String())
	assert.Equal(t, "4ms", w.Server.Config().WatchLatency.String())
	assert.Len(t, w.Inputs(), 2, "the runtime config is one recorded input")
}

func TestRuntimeErrorFormat(t *testing.T) {
	script, err := Parse("seed 1\ncreate rs web --replicas=1 --selector=app=web\n  create rs web --replicas=1 --selector=app=web\n", "web.txt")
	require.NoError(t, err)
	s := NewSession(Options{SnapshotEvery: -1})
	err = s.RunScript(script)
	var re *RuntimeError
	require.True(t, errors.As(err, &re))
	assert.Equal(t, `web.txt:3:3: create rs web: replicasets.apps "web" already exists`, err.Error())
	assert.Equal(t, "create rs web --replicas=1 --selector=app=web", re.Text)
	assert.True(t, apistore.IsAlreadyExists(re), "it wraps the API's error")
	assert.True(t, re.applied, "the request was sent: the world moved on")
}

func TestRunExitCodes(t *testing.T) {
	var out strings.Builder
	code, err := Run("create rs web --replicas=2 --selector=app=web\nstabilize\nexpect pods -l app=web count=2\n", "ok.txt", Options{Out: &out})
	assert.Equal(t, ExitOK, code)
	assert.NoError(t, err)
	assert.Contains(t, out.String(), "replicaset.apps/web created\n")

	out.Reset()
	code, err = Run("create rs web --replicas=2 --selector=app=web\nexpect pods count=5\nget pods\n", "fail.txt", Options{Out: &out})
	assert.Equal(t, ExitFailure, code)
	assert.ErrorContains(t, err, "fail.txt:2:1: expect pods count=5: found 0")
	assert.NotContains(t, out.String(), "NAME", "the script stops at the failure")

	out.Reset()
	code, err = Run("create rs web --replicas=2 --selector=app=web\nscael rs/web --replicas=1\n", "typo.txt", Options{Out: &out})
	assert.Equal(t, ExitUsage, code)
	assert.EqualError(t, err, `typo.txt:2:1: unknown command "scael"; did you mean "scale"?`)
	assert.Empty(t, out.String(), "a parse error runs nothing")
}

func TestTraceOptionPrintsEveryStepButTheStart(t *testing.T) {
	var out strings.Builder
	s := NewSession(Options{Out: &out, Trace: true, SnapshotEvery: -1})
	require.NoError(t, s.Start())
	assert.Empty(t, out.String(), "the world's start is not printed")
	start := s.World().Kernel.Steps()

	cmd, err := ParseLine("create rs web --replicas=1 --selector=app=web")
	require.NoError(t, err)
	require.NoError(t, s.Run(cmd))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	steps := int(s.World().Kernel.Steps() - start)
	require.Len(t, lines, steps+1, "one line per step, then kubectl's message")
	assert.True(t, strings.HasPrefix(lines[0], "#"+uitoa(start+1)+" "), lines[0])
	assert.Contains(t, lines[0], "apiserver")
	assert.Equal(t, "replicaset.apps/web created", lines[len(lines)-1])

	out.Reset()
	s.SetTrace(false)
	cmd, _ = ParseLine("stabilize")
	require.NoError(t, s.Run(cmd))
	assert.True(t, strings.HasPrefix(out.String(), "the world is at rest after"), out.String())
}

// TestSessionReplaysUnderSeek runs a busy session on a world that keeps
// snapshots, then seeks back and forth: every input the session recorded
// (random picks, kubelet actions, faults, the clock moves of advance) must
// replay to the very same steps, or Seek fails with ErrReplayDiverged.
func TestSessionReplaysUnderSeek(t *testing.T) {
	out := &strings.Builder{}
	ts := &testSession{Session: NewSession(Options{Out: out, Seed: 5, SnapshotEvery: 16}), out: out}
	ts.ok(t, "create rs web --replicas=3 --selector=app=web")
	ts.ok(t, "create rc db --replicas=2 --selector=app=db")
	ts.ok(t, "stabilize")
	w := ts.World()
	mark := func() (uint64, uint64) { return w.Kernel.Steps(), w.Kernel.Hash() }
	type point struct{ step, hash uint64 }
	var points []point
	for _, line := range []string{
		"kill pods -l app=web --pick=random",
		"step 7",
		"label pods -l app=db --pick=random tier=x",
		"fail create pods --count=1 --error=conflict",
		"advance 1500ms",
		"crash pods -l app=db --pick=oldest",
		"drop watch pods --count=1",
		"delete pods -l app=web --pick=newest --grace-period=5",
		"advance 3s",
		"heal",
		"evict pods -l app=web --pick=random",
		"set ready pods -l app=db --count=1 false",
		"scale rc/db --replicas=3",
		"until sync rc/db",
		"stabilize",
	} {
		ts.ok(t, line)
		s, h := mark()
		points = append(points, point{s, h})
	}
	end, endHash := mark()
	endNow := w.Kernel.Now()
	for _, i := range []int{3, 0, len(points) - 1, 7, 1, 10, 5} {
		p := points[i]
		require.NoError(t, w.Seek(p.step), "seek to step %d", p.step)
		assert.Equal(t, p.hash, w.Kernel.Hash(), "step %d", p.step)
	}
	require.NoError(t, w.Seek(0))
	require.NoError(t, w.Seek(end))
	assert.Equal(t, endHash, w.Kernel.Hash())
	assert.Equal(t, endNow, w.Kernel.Now(), "the clock moves of advance are replayed too")

	// The trace view follows the world back and forth, and forks with it.
	full := ts.ok(t, "trace")
	require.NoError(t, w.Seek(points[2].step))
	assert.True(t, strings.HasPrefix(ts.ok(t, "trace 1"), "#"+uitoa(points[2].step)+" "))
	require.NoError(t, w.Seek(end))
	assert.Equal(t, full, ts.ok(t, "trace"), "a seek forward replays the very steps the trace holds")
	require.NoError(t, w.Seek(points[2].step))
	ts.ok(t, "step 2")
	trace := ts.ok(t, "trace")
	assert.Equal(t, int(points[2].step)+2, strings.Count(trace, "\n"), "the old future is gone")
	assert.True(t, strings.HasPrefix(ts.ok(t, "trace 1"), "#"+uitoa(points[2].step+2)+" "))
}

func TestLimitErrorsAreRuntimeFailures(t *testing.T) {
	ts := newTestSession(t, "create rs web --replicas=3 --selector=app=web")
	e := ts.fails(t, "stabilize --max-steps=3")
	var lim *sim.LimitError
	require.True(t, errors.As(e, &lim))
	assert.True(t, strings.HasPrefix(e.Msg, "stabilize: stopped after 3 steps"), e.Msg)
	assert.Contains(t, e.Msg, "(--max-steps=3); next on the agenda: ")

	e = ts.fails(t, "stabilize --max-time=1s")
	assert.Contains(t, e.Msg, "(--max-time=1s)")
	ts.ok(t, "stabilize")
}

func TestOnStepSeesEveryStepTheSessionRuns(t *testing.T) {
	var seen []sim.StepResult
	s := NewSession(Options{OnStep: func(res sim.StepResult) { seen = append(seen, res) }})
	for _, line := range []string{"create rs web --replicas=2 --selector=app=web", "step 3", "stabilize"} {
		cmd, err := ParseLine(line)
		require.NoError(t, err)
		require.NoError(t, s.Run(cmd), line)
	}

	require.NotEmpty(t, seen)
	assert.Equal(t, s.World().Kernel.Steps(), uint64(len(seen)), "the world's start is reported too")
	for i, res := range seen {
		assert.Equal(t, uint64(i+1), res.N, "every step, once, in order")
	}
	assert.Equal(t, s.World().Kernel.Hash(), seen[len(seen)-1].Hash)
}

func TestSessionKeepsOnlyTheMostRecentSteps(t *testing.T) {
	defer func(n int) { keptSteps = n }(keptSteps)
	keptSteps = 24 // chunks of 3
	ts := newTestSession(t)
	ts.ok(t, "create rs web --replicas=3 --selector=app=web")
	ts.ok(t, "stabilize")

	now := ts.World().Kernel.Steps()
	steps := ts.Steps()
	require.Greater(t, now, uint64(2*keptSteps), "the run is longer than twice what is kept")
	assert.GreaterOrEqual(t, steps.Len(), keptSteps)
	assert.Less(t, steps.Len(), keptSteps+steps.Chunk(), "at most a chunk more than what is kept")
	assert.Equal(t, now, steps.At(steps.Len()-1).N, "the newest step is kept")
	for i := 1; i < steps.Len(); i++ {
		assert.Equal(t, steps.At(i-1).N+1, steps.At(i).N, "the kept steps are consecutive")
	}
	assert.Equal(t, steps.At(steps.Len()-1).TraceLine()+"\n", ts.ok(t, "trace 1"))
}
