package script

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/world"
)

func TestGrid(t *testing.T) {
	got := grid("  ", []string{"A", "LONG HEADER", "C"}, [][]string{
		{"x", "y", "z"},
		{"wider", "", "-"},
	})
	assert.Equal(t, ""+
		"  A      LONG HEADER  C\n"+
		"  x      y            z\n"+
		"  wider               -\n", got)
}

// checkViewFormat checks the rules every view keeps: lines end in no space,
// and table lines under a header line up with it.
func checkViewFormat(t *testing.T, name, text string) {
	t.Helper()
	require.True(t, strings.HasSuffix(text, "\n"), "%s ends with a newline", name)
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		assert.Equal(t, strings.TrimRight(l, " "), l, "%s: no trailing spaces: %q", name, l)
		assert.NotEmpty(t, l, "%s: no blank lines", name)
	}
}

func TestViewsOfABusyWorld(t *testing.T) {
	ts := newTestSession(t, "seed 2", "config workers=2",
		"create rs web --replicas=3 --selector=app=web", "create rc db --replicas=1 --selector=app=db",
		"fail create pods --count=1 --error=quota", "drop watch pods --count=1", "delay watch rc 1s", "step 30")

	queue := ts.ok(t, "queue")
	checkViewFormat(t, "queue", queue)
	assert.True(t, strings.HasPrefix(queue, "replicaset: "), queue)
	assert.Contains(t, queue, "\nreplicationmanager: ")
	assert.Contains(t, queue, "  idle workers: ")
	assert.Equal(t, queue[strings.Index(queue, "replicationmanager"):], ts.ok(t, "queue rc"))

	cache := ts.ok(t, "cache")
	checkViewFormat(t, "cache", cache)
	for _, inf := range []string{"informer/pods: ", "informer/replicasets: ", "informer/replicationcontrollers: "} {
		assert.Contains(t, cache, inf)
	}
	assert.Less(t, strings.Index(cache, "informer/pods"), strings.Index(cache, "informer/replicasets"), "pods, then rs, then rc")
	assert.Contains(t, cache, "  faults: events arrive 1s late")
	assert.Contains(t, cache, "  KEY ")

	exp := ts.ok(t, "expectations")
	checkViewFormat(t, "expectations", exp)
	assert.True(t, strings.HasPrefix(exp, "CONTROLLER  KEY "), exp)

	agenda := ts.ok(t, "agenda 4")
	checkViewFormat(t, "agenda", agenda)
	lines := strings.Split(strings.TrimSuffix(agenda, "\n"), "\n")
	require.Len(t, lines, 6, "a summary, the header and 4 events")
	assert.Regexp(t, `^\d+ pending events \(\d+ background\) at t=\d+\.\d{3}s$`, lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "AT "))

	reqs := ts.ok(t, "requests 5")
	checkViewFormat(t, "requests", reqs)
	lines = strings.Split(strings.TrimSuffix(reqs, "\n"), "\n")
	require.Len(t, lines, 6)
	assert.True(t, strings.HasPrefix(lines[0], "ID  AT "), lines[0])
	assert.Equal(t, len(ts.World().Server.Requests())+1, strings.Count(ts.ok(t, "requests"), "\n"), "requests alone lists them all")

	ts.ok(t, "stabilize")
	reqs = ts.ok(t, "requests")
	assert.Contains(t, reqs, "Forbidden  create pods: quota ×1 (fired 1)", "the fault that failed a request is named")

	trace := ts.ok(t, "trace")
	checkViewFormat(t, "trace", trace)
	assert.Equal(t, ts.trace.Len(), strings.Count(trace, "\n"), "the whole trace, start included")
	assert.True(t, strings.HasPrefix(trace, "#1 "), "from the first step of the world's start")
}

func TestViewsOfAnEmptyWorld(t *testing.T) {
	ts := newTestSession(t)
	assert.Equal(t, "no expectations recorded\n", ts.ok(t, "expectations"))
	assert.Equal(t, "replicaset: empty\n  idle workers: rs-worker-1, rs-worker-2, rs-worker-3, rs-worker-4, rs-worker-5\n", ts.ok(t, "queue replicaset"))
	assert.True(t, strings.HasPrefix(ts.ok(t, "trace 1"), "#"))

	var out strings.Builder
	fresh := NewSession(Options{Out: &out})
	cmd, err := ParseLine("trace")
	require.NoError(t, err)
	require.NoError(t, fresh.Run(cmd))
	assert.NotEqual(t, "no steps yet\n", out.String(), "trace builds the world, whose start has steps")
}

func TestGetShowLabels(t *testing.T) {
	ts := newTestSession(t, "create pod b --labels=z=1,a=2", "create pod a", "create node big --labels=disk=ssd")
	out := ts.ok(t, "get pods --show-labels")
	assert.Equal(t, ""+
		"NAME   READY   STATUS    RESTARTS   AGE   LABELS\n"+
		"a      0/1     Pending   0          0s    <none>\n"+
		"b      0/1     Pending   0          0s    a=2,z=1\n", out)
	out = ts.ok(t, "get nodes -l disk=ssd --show-labels -o wide")
	assert.Contains(t, out, "   LABELS\n")
	assert.Contains(t, out, "disk=ssd")
	assert.Equal(t, "No resources found in default namespace.\n", ts.ok(t, "get rs --show-labels"))
}

func TestGetAndDescribe(t *testing.T) {
	ts := newTestSession(t, "create rs web --replicas=1 --selector=app=web", "stabilize")
	assert.Contains(t, ts.ok(t, "get rs/web -o json"), `"kind": "ReplicaSet"`)
	assert.Contains(t, ts.ok(t, "get rs web -o yaml"), "kind: ReplicaSet\n")
	assert.Contains(t, ts.ok(t, "get pods -o json"), `"kind": "List"`)
	assert.Contains(t, ts.ok(t, "describe rs/web"), "Replicas:     1 current / 1 desired")
	assert.Contains(t, ts.ok(t, "get events"), "SuccessfulCreate")
	e := ts.fails(t, "get rc/web")
	assert.Equal(t, `get rc/web: replicationcontrollers "web" not found`, e.Msg)
	e = ts.fails(t, "describe pod/nope -n x")
	assert.Equal(t, `describe pod/nope: pods "nope" not found in namespace x`, e.Msg)
	assert.Equal(t, "No resources found in x namespace.\n", ts.ok(t, "get pods -n x"))
	text, err := HelpText("get")
	require.NoError(t, err)
	assert.Equal(t, text, ts.ok(t, "help get"))
}

// TestCacheEntriesAreListedByKey proves the cache view's table lists the
// read model's entries in key order: the read model lists those that
// differ first, each run in key order, and the view merges the two runs.
func TestCacheEntriesAreListedByKey(t *testing.T) {
	entries := []world.CacheEntry{
		{Key: "default/b", Diff: "stale"}, {Key: "default/d", Diff: "gone from the API"},
		{Key: "default/a"}, {Key: "default/c"}, {Key: "default/e"},
	}
	var keys []string
	for _, e := range byKey(entries) {
		keys = append(keys, e.Key)
	}
	assert.Equal(t, []string{"default/a", "default/b", "default/c", "default/d", "default/e"}, keys)
	assert.Empty(t, byKey(nil))
	assert.Equal(t, entries[:2], byKey(entries[:2]), "only entries that differ")
	assert.Equal(t, entries[2:], byKey(entries[2:]), "only equal entries")
}
