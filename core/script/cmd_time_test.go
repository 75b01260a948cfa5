package script

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/sim"
)

func TestStepPrintsTheStepsItRan(t *testing.T) {
	ts := newTestSession(t, "create rs web --replicas=1 --selector=app=web")
	w := ts.World()
	n := w.Kernel.Steps()
	out := ts.ok(t, "step 3")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 3)
	for i, l := range lines {
		assert.True(t, strings.HasPrefix(l, "#"+uitoa(n+uint64(i)+1)+" "), l)
	}
	assert.Equal(t, n+3, w.Kernel.Steps())
	assert.Equal(t, lines, strings.Split(strings.TrimSuffix(ts.ok(t, "trace 3"), "\n"), "\n"), "the trace view shows the same lines")

	ts.SetTrace(true)
	out = ts.ok(t, "step")
	assert.Equal(t, 1, strings.Count(out, "\n"), "with the trace on, a step is printed once")

	e := ts.fails(t, "step 100001")
	assert.Contains(t, e.Msg, "at most 100000 steps at a time")
}

func TestStepOnAnEmptyAgenda(t *testing.T) {
	ts := newTestSession(t)
	require.NoError(t, ts.Start())
	w := ts.World()
	for w.Kernel.Pending() {
		_, ok := ts.step()
		require.True(t, ok)
	}
	assert.Equal(t, "the agenda is empty: nothing left to do\n", ts.ok(t, "step"))
	assert.Equal(t, "the agenda is empty at t="+sim.FormatSeconds(w.Kernel.Now())+"\n", ts.ok(t, "agenda"))
}

func TestAdvanceMovesTheClockExactly(t *testing.T) {
	ts := newTestSession(t, "create rs web --replicas=1 --selector=app=web")
	w := ts.World()
	start := w.Kernel.Now()
	out := ts.ok(t, "advance 1s")
	assert.Equal(t, start+time.Second, w.Kernel.Now())
	assert.True(t, strings.HasPrefix(out, "advanced 1s to t="+sim.FormatSeconds(start+time.Second)+" ("), out)
	ts.ok(t, "expect pods -l app=web count=1 phase=Pending")
	ts.ok(t, "advance 1500ms")
	ts.ok(t, "expect pods -l app=web count=1 phase=Running ready=true")
	next, ok := w.Kernel.Next()
	if ok {
		assert.Greater(t, next.At, w.Kernel.Now(), "everything that fell due ran")
	}
	before := len(w.Inputs())
	ts.ok(t, "advance 0s")
	assert.Len(t, w.Inputs(), before, "advancing by nothing records nothing")
}

func TestUntilSync(t *testing.T) {
	ts := newTestSession(t, "create rs web --replicas=2 --selector=app=web")
	out := ts.ok(t, "until sync rs/web")
	assert.Regexp(t, `^rs/web synced by rs-worker-\d \(t=\d+\.\d{3}s to t=\d+\.\d{3}s\): 0 pods owned, want 2: creating 2 \(slow-start batches of 1, 1\)\n$`, out)
	rec, ok := ts.World().RS.LastSync("default/web")
	require.True(t, ok)
	assert.Equal(t, ts.World().Kernel.Now(), rec.End, "it stops at the step that ended the sync")

	e := ts.fails(t, "until sync rc/web")
	assert.Equal(t, `until sync rc/web: replicationcontrollers "web" not found, and default/web is not in the replicationmanager queue: no sync of it will come`, e.Msg)
	ts.ok(t, "stabilize")
	e = ts.fails(t, "until sync rs/web --max-time=1s")
	assert.Contains(t, e.Msg, "until sync rs/web: ")
	assert.True(t, e.applied)

	ts.ok(t, "fail create pods --always --error=quota")
	ts.ok(t, "scale rs/web --replicas=3")
	out = ts.ok(t, "until sync rs/web")
	assert.Contains(t, out, "; the sync failed: pods \"web-")
	assert.Contains(t, out, "(requeued with back-off)")
}

func TestStabilizeSaysHowLongItRan(t *testing.T) {
	ts := newTestSession(t)
	require.NoError(t, ts.Start())
	assert.Equal(t, "the world is at rest after 0 steps (t="+sim.FormatSeconds(ts.World().Kernel.Now())+")\n", ts.ok(t, "stabilize"))
	ts.ok(t, "create rs web --replicas=1 --selector=app=web")
	out := ts.ok(t, "stabilize")
	assert.Regexp(t, `^the world is at rest after \d+ steps \(t=2\.\d{3}s\)\n$`, out)
}

func TestConfigValues(t *testing.T) {
	ts := newTestSession(t, "config workers=1 burst-replicas=2 kubelet-start=3s kubelet-stop=2s resync=30s api-latency=2ms watch-latency=3ms")
	require.NoError(t, ts.Start())
	cfg := ts.World().Config()
	assert.Equal(t, 1, cfg.Workers)
	assert.Equal(t, 2, cfg.BurstReplicas)
	assert.Equal(t, 3*time.Second, cfg.KubeletStart)
	assert.Equal(t, 2*time.Second, cfg.KubeletStop)
	assert.Equal(t, 30*time.Second, cfg.Resync)
	assert.Equal(t, 2*time.Millisecond, cfg.APILatency)
	assert.Equal(t, 3*time.Millisecond, cfg.WatchLatency)
	assert.Equal(t, 3*time.Second, ts.kubeletStart)

	for _, key := range []string{"kubelet-start", "kubelet-stop", "api-latency", "watch-latency"} {
		e := ts.fails(t, "config "+key+"=0s")
		assert.Equal(t, "config "+key+"=0: "+key+" must be more than 0", e.Msg)
	}
	ts.ok(t, "config resync=0")
}

// TestUntilSyncOfADeployment: until sync deploy/NAME stops when the
// Deployment controller's next sync of the key has ended, as rs/NAME does
// for the replication manager, and prints what the sync decided: the first
// sync after set image makes the new ReplicaSet at its surge and scales the
// old one down by what may be unavailable, both already written.
func TestUntilSyncOfADeployment(t *testing.T) {
	ts := newTestSession(t, "create deploy web --replicas=10 --selector=app=web", "stabilize", "set image deploy/web app=nginx:2.0")
	out := ts.ok(t, "until sync deploy/web")
	assert.Regexp(t, `^deploy/web synced by deploy-worker-\d \(t=\d+\.\d{3}s to t=\d+\.\d{3}s\): no ReplicaSet has the Deployment's template: creating rs/web-[a-z0-9]+ \(revision 2\) with 3 replicas; `, out)
	assert.Contains(t, out, "scaling down rs/web-")
	rec, ok := ts.World().Deploy.LastSync("default/web")
	require.True(t, ok)
	assert.Equal(t, ts.World().Kernel.Now(), rec.End, "it stops at the step that ended the sync")
	ts.ok(t, "expect rs -l app=web count=1 revision=2 replicas=3")
	ts.ok(t, "expect rs -l app=web count=1 revision=1 replicas=8")

	before := rec.Seq
	ts.ok(t, "until sync deploy/web")
	rec, _ = ts.World().Deploy.LastSync("default/web")
	assert.Equal(t, before+1, rec.Seq, "each until sync waits for one more sync")

	e := ts.fails(t, "until sync deploy/api")
	assert.Equal(t, `until sync deploy/api: deployments.apps "api" not found, and default/api is not in the deployment queue: no sync of it will come`, e.Msg)
}
