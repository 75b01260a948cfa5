package script

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/cluster"
)

// fivePods is a session with five bare pods a..e, created in the order
// e, a, d, b, c, so creation order differs from name order; all Running.
func fivePods(t *testing.T, seed string) *testSession {
	t.Helper()
	ts := newTestSession(t, "seed "+seed)
	for _, n := range []string{"e", "a", "d", "b", "c"} {
		ts.ok(t, "create pod "+n+" --labels=app=x")
	}
	ts.ok(t, "stabilize")
	require.Equal(t, []string{"e", "a", "d", "b", "c"}, podNames(ts.pods()), "creation order, not name order")
	return ts
}

func TestPickFollowsCreationOrder(t *testing.T) {
	ts := fivePods(t, "1")
	for _, tc := range []struct {
		flags string
		want  []string
	}{
		{"", []string{"e", "a", "d", "b", "c"}},
		{"--pick=oldest", []string{"e"}},
		{"--pick=newest", []string{"c"}},
		{"--pick=2", []string{"d"}},
		{"--pick=3 --count=2", []string{"b", "c"}},
		{"--count=2", []string{"e", "a"}},
		{"--pick=newest --count=3", []string{"c", "b", "d"}},
	} {
		out := ts.ok(t, "annotate pods -l app=x "+tc.flags+" n="+strconv.Quote(tc.flags)+" --overwrite")
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			got = append(got, strings.TrimSuffix(strings.TrimPrefix(l, "pod/"), " annotated"))
		}
		assert.Equal(t, tc.want, got, tc.flags)
	}
}

func TestPickRandomIsReproducible(t *testing.T) {
	picks := func(seed string) []string {
		ts := fivePods(t, seed)
		var out []string
		for range 4 {
			out = append(out, ts.ok(t, "label pods -l app=x --pick=random --count=2 n=1 --overwrite"))
		}
		return out
	}
	a, b := picks("3"), picks("3")
	assert.Equal(t, a, b, "the same seed picks the same pods")
	assert.NotEqual(t, a, picks("4"), "another seed picks others")
	var distinct []string
	for _, p := range a {
		if !containsString(distinct, p) {
			distinct = append(distinct, p)
		}
	}
	assert.Greater(t, len(distinct), 1, "successive random picks differ")
}

func TestCreationOrderSurvivesUpdatesAndRecreation(t *testing.T) {
	ts := fivePods(t, "2")
	ts.ok(t, "label pod/e z=1") // an update does not move e
	ts.ok(t, "delete pod/a --grace-period=0")
	ts.ok(t, "create pod a --labels=app=x") // a new pod named a is the newest
	assert.Equal(t, []string{"e", "d", "b", "c", "a"}, podNames(ts.pods()))
}

func TestKillReplacesAndCounts(t *testing.T) {
	ts := newTestSession(t, "seed 2", "create rs web --replicas=3 --selector=app=web", "stabilize")
	old := podNames(ts.pods())
	out := ts.ok(t, "kill pods -l app=web --count=2")
	assert.Equal(t, "pod/"+old[0]+" killed (deleted with grace period 0)\npod/"+old[1]+" killed (deleted with grace period 0)\n", out)
	for _, n := range old[:2] {
		_, ok := ts.World().Store.Object(api.KindPod, "default", n)
		assert.False(t, ok, "kill waits for the API's answer: %s is gone", n)
	}
	ts.ok(t, "stabilize")
	ts.ok(t, "expect pods -l app=web count=3 ready=true")
	ts.ok(t, "expect requests verb=delete resource=pods count=2")
}

func TestKubeletActionsAreAllOrNothing(t *testing.T) {
	ts := newTestSession(t, "seed 3", "create rs web --replicas=3 --selector=app=web", "stabilize", "scale rs/web --replicas=4", "until sync rs/web")
	w := ts.World()
	before := fingerprint(w)
	e := ts.fails(t, "crash pods -l app=web")
	assert.Contains(t, e.Msg, "crash pods -l app=web: cannot crash pod/")
	assert.False(t, e.applied)
	assert.Equal(t, before, fingerprint(w), "three pods could crash, one could not: none did")

	// Evicting a pod that is starting is allowed.
	ts.ok(t, "step 20")
	newest := ts.pods()[3].Metadata.Name
	p, ok := w.Cluster.Kubelets.Pod("default", newest)
	require.True(t, ok)
	require.Equal(t, cluster.PodStarting, p.State)
	assert.Equal(t, "pod/"+newest+" evicted by its kubelet\n", ts.ok(t, "evict pods -l app=web --pick=newest"))
	ts.ok(t, "stabilize")
	ts.ok(t, "expect pod/"+newest+" status.phase=Failed status.reason=Evicted")
	ts.ok(t, "expect pods -l app=web count=4 phase=Running ready=true")
}

func TestSetReady(t *testing.T) {
	ts := newTestSession(t, "create pod p --labels=app=p --node=node-1", "stabilize")
	assert.Equal(t, "pod/p readiness probe fails: not Ready\n", ts.ok(t, "set ready pod/p false"))
	ts.ok(t, "stabilize")
	ts.ok(t, "expect pod/p ready=false status.phase=Running")
	assert.Equal(t, "pod/p readiness probe passes: Ready\n", ts.ok(t, "set ready pods -l app=p true"))
	ts.ok(t, "stabilize")
	ts.ok(t, "expect condition pod/p Ready=True")
}
