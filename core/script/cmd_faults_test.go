package script

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/informer"
)

func TestFailAddsAFaultRule(t *testing.T) {
	ts := newTestSession(t)
	for _, tc := range []struct{ line, want string }{
		{"fail create pods --count=2 --error=quota", "fault added: create pods: quota ×2\n"},
		{"fail create pods --always --after=3", "fault added: create pods: server always after 3\n"},
		{"fail update rs/status --count=1 --error=conflict", "fault added: update replicasets/status: conflict ×1\n"},
		{"fail delete pods --always --error=namespace-terminating", "fault added: delete pods: namespace-terminating always\n"},
		{"fail patch pods --count=1", "fault added: patch pods: server ×1\n"},
	} {
		assert.Equal(t, tc.want, ts.ok(t, tc.line), tc.line)
	}
	rules := ts.World().Store.Faults().Rules()
	require.Len(t, rules, 5)
	assert.Equal(t, apistore.FaultRule{ID: 1, Verb: apistore.VerbCreate, Resource: "pods", Count: 2, Error: apistore.FaultQuota}, rules[0])
	assert.Len(t, ts.World().Inputs(), 5, "each fault is an input on the timeline")
}

func TestHealScopes(t *testing.T) {
	ts := newTestSession(t, "create rs web --replicas=2 --selector=app=web", "stabilize",
		"fail create pods --always", "fail update rs/status --count=3", "fail delete pods --count=1",
		"drop watch pods --count=2", "delay watch rs 2s", "slow kubelet 30s")
	w := ts.World()

	assert.Equal(t, "healed fault create pods: server always\n", ts.ok(t, "heal create pods"))
	assert.Equal(t, "nothing to heal\n", ts.ok(t, "heal create pods"))
	assert.Equal(t, "healed fault update replicasets/status: server ×3\n", ts.ok(t, "heal update"))
	assert.Equal(t, "healed watch pods: no more events will be lost\n", ts.ok(t, "heal watch pods"))
	assert.Equal(t, informer.FaultView{}, w.Pods.View().Faults)
	assert.Equal(t, "healed kubelet: kubelet-start is 2s again\n", ts.ok(t, "heal kubelet"))
	assert.Equal(t, 2*time.Second, w.Cluster.Kubelets.KubeletStart())
	assert.Equal(t, "healed fault delete pods: server ×1\nhealed watch rs: events arrive on time again\n", ts.ok(t, "heal"))
	assert.Zero(t, w.Store.Faults().Len())
	assert.Equal(t, "nothing to heal\n", ts.ok(t, "heal all"))
}

func TestHealKubeletRestoresTheConfiguredStart(t *testing.T) {
	ts := newTestSession(t, "config kubelet-start=5s", "create pod p --labels=a=b", "slow kubelet 1m")
	assert.Equal(t, time.Minute, ts.World().Cluster.Kubelets.KubeletStart())
	ts.ok(t, "config kubelet-start=3s")
	assert.Equal(t, "nothing to heal\n", ts.ok(t, "heal kubelet"), "config sets the value heal restores")
	ts.ok(t, "slow kubelet 10s")
	assert.Equal(t, "healed kubelet: kubelet-start is 3s again\n", ts.ok(t, "heal"))
	e := ts.fails(t, "slow kubelet 0s")
	assert.Equal(t, "slow kubelet 0: kubelet-start must be more than 0", e.Msg)
}

func TestWatchFaults(t *testing.T) {
	ts := newTestSession(t, "create rs web --replicas=2 --selector=app=web", "stabilize")
	w := ts.World()
	rv := w.Pods.View().LastSyncRV
	assert.Equal(t, "watch pods: the next 3 events will be lost; the watch goes on\n", ts.ok(t, "drop watch pods --count=3"))
	assert.Equal(t, 3, w.Pods.View().Faults.DropNext)
	assert.Equal(t, "watch rc: events reach the informer 1.5s late until healed\n", ts.ok(t, "delay watch rc 1500ms"))
	assert.Equal(t, 1500*time.Millisecond, w.ReplicationControllers.View().Faults.Delay)
	assert.Equal(t, "watch pods broken: the reflector re-watches from resourceVersion "+uitoa(rv)+"\n", ts.ok(t, "break watch pods"))
	ts.ok(t, "stabilize")
	assert.Equal(t, informer.Watching, w.Pods.View().State)
	assert.Equal(t, 1, w.Pods.View().Lists, "a broken watch is watched again, not relisted")

	out := ts.ok(t, "expire watch rs")
	assert.Contains(t, out, "watch rs expired: resourceVersion ")
	ts.ok(t, "stabilize")
	assert.Equal(t, 2, w.ReplicaSets.View().Lists, "an expired watch relists")
}

func TestDroppedEventsHealedByRelist(t *testing.T) {
	ts := newTestSession(t, "seed 3", "create rs web --replicas=3 --selector=app=web", "stabilize",
		"drop watch pods --count=2", "kill pods -l app=web --pick=oldest", "stabilize")
	ts.ok(t, "expect cache pods -l app=web count=3")
	ts.ok(t, "expect pods -l app=web count=2")
	e := ts.fails(t, "expect cache pods -l app=web count=2")
	assert.Contains(t, e.Msg, "found 3 (")
	assert.Contains(t, e.Msg, " in the informer's cache")
	assert.Equal(t, "healed watch pods: it lost 2 events, so the reflector relists\n", ts.ok(t, "heal watch pods"))
	ts.ok(t, "stabilize")
	ts.ok(t, "expect cache pods -l app=web count=3")
	ts.ok(t, "expect pods -l app=web count=3 ready=true")
}
