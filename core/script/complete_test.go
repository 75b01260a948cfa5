package script

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

func TestComplete(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"cr", []string{"create", "crash"}},
		{"ex", []string{"expire", "expect", "expectations"}},
		{"create ", []string{"node", "rs", "rc", "deploy", "pod"}},
		{"create r", []string{"rs", "rc"}},
		{"create rs web --rep", []string{"--replicas="}},
		{"create rs web --replicas=3 --", []string{"--selector=", "--template-labels=", "--min-ready-seconds=", "--namespace="}},
		{"delete rs/web --cascade=", []string{"--cascade=background", "--cascade=foreground", "--cascade=orphan"}},
		{"delete rs/web --cascade ", []string{"background", "foreground", "orphan"}},
		{"delete rs/web --cascade=f", []string{"--cascade=foreground"}},
		{"get pods -o ", []string{"wide", "json", "yaml"}},
		{"get pods -o j", []string{"json"}},
		{"label pods -l a=b --pick=r", []string{"--pick=random"}},
		{"fail create pods --error=", []string{"--error=server", "--error=quota", "--error=conflict", "--error=namespace-terminating"}},
		{"scale ", []string{"rs/", "rc/", "deploy/"}},
		{"until sync ", []string{"rs/", "rc/", "deploy/"}},
		{"kill ", []string{"pod/", "pods"}},
		{"get n", []string{"node/", "nodes"}},
		{"expect ", []string{"pods", "rs", "deploy", "condition", "queue", "expectations", "syncs", "events", "requests", "cache", "pod/", "rs/", "rc/", "deploy/", "node/"}},
		{"expect rs/web status.re", []string{"status.replicas=", "status.readyReplicas="}},
		{"expect pod/p ph", []string{"phase="}},
		{"expect pods -l app=web c", []string{"count="}},
		{"expect node/n spec.", []string{"spec.unschedulable="}},
		{"config ", []string{"workers=", "burst-replicas=", "kubelet-start=", "kubelet-stop=", "resync=", "api-latency=", "watch-latency="}},
		{"config workers=2 kube", []string{"kubelet-start=", "kubelet-stop="}},
		{"fail ", []string{"create", "delete", "update", "patch"}},
		{"fail update ", []string{"rs/status", "rc/status"}},
		{"heal ", []string{"all", "watch", "kubelet", "create", "delete", "update", "patch"}},
		{"heal watch ", []string{"pods", "rs", "rc"}},
		{"drop watch r", []string{"rs", "rc"}},
		{"set ready pods -l a=b ", []string{"true", "false"}},
		{"set ready pod/x t", []string{"true"}},
		{"expect queue ", []string{"replicaset", "replicationmanager"}},
		{"help exp", []string{"expire", "expect", "expectations"}},
		{"help f", []string{"fail", "fields"}},
		{"stabilize --", []string{"--max-steps=", "--max-time="}},
		{"stabilize --max-steps=1 --", []string{"--max-time="}},
		{"step ", nil},
		{"expectations ", nil},
		{"nosuch ", nil},
		{"step # comment", nil},
	} {
		assert.Equal(t, tc.want, Complete(tc.line, len(tc.line)), "%q", tc.line)
	}
}

func TestCompleteAtReportsTheSpan(t *testing.T) {
	c := CompleteAt("scale rs/web --rep", 18)
	assert.Equal(t, Completion{Start: 13, End: 18, Candidates: []string{"--replicas="}}, c)

	c = CompleteAt("sca rs/web", 3)
	assert.Equal(t, Completion{Start: 0, End: 3, Candidates: []string{"scale"}}, c, "the cursor may sit mid-line")

	c = CompleteAt(`get pods -l "tier in (a`, 100)
	assert.Equal(t, 23, c.End, "a cursor past the end is clamped")
	assert.Equal(t, 12, c.Start)

	c = CompleteAt("x", -4)
	assert.Equal(t, Completion{Start: 0, End: 0, Candidates: firstWords()}, c)
}

func TestCompletedWordsParse(t *testing.T) {
	// Every first word completion offers leads somewhere: it is a command, or
	// the start of one, and its help exists.
	for _, w := range Complete("", 0) {
		_, err := HelpText(w)
		assert.NoError(t, err, w)
	}
	// Every flag completion offers for a command is one of its flags.
	for _, s := range table {
		line := s.Examples[0] + " --"
		for _, cand := range Complete(line, len(line)) {
			name := strings.TrimSuffix(strings.TrimPrefix(cand, "--"), "=")
			_, ok := s.flag(name)
			assert.True(t, ok, "%s offers %s", s.Name, cand)
		}
	}
}

// completionWorld is a session whose world has something of every kind that
// completion names, in two namespaces: rs/web's two pods (with generated
// names), rc/db's one, the bare pod stray, and in namespace other the bare
// pod p1 and rs/api's pod.
func completionWorld(t *testing.T) *testSession {
	t.Helper()
	return newTestSession(t,
		"create rs web --replicas=2 --selector=app=web",
		"create rc db --replicas=1 --selector=app=db",
		"create pod stray --labels=app=stray",
		"create pod p1 -n other --labels=app=p1",
		"create rs api -n other --replicas=1 --selector=app=api",
		"stabilize")
}

// namesIn reads the names of a kind's objects in a namespace from the store,
// sorted, each after prefix: what completion should offer there.
func namesIn(t *testing.T, ts *testSession, kind api.Kind, namespace, prefix string) []string {
	t.Helper()
	var out []string
	for _, o := range ts.World().Store.Objects(kind, namespace) {
		out = append(out, prefix+o.Meta().Name)
	}
	require.NotEmpty(t, out, "the world has no %s in %q", kind, namespace)
	require.IsIncreasing(t, out, "names come sorted")
	return out
}

// TestCompleteNamesWhatExists completes every place the language names
// something that exists, from the session's world: objects after KIND/ and
// after KIND, nodes, namespaces, owners, an Event's object and queue keys,
// in the namespace the line selects.
func TestCompleteNamesWhatExists(t *testing.T) {
	ts := completionWorld(t)
	pods := namesIn(t, ts, api.KindPod, "default", "")
	otherPods := namesIn(t, ts, api.KindPod, "other", "")
	var web []string
	for _, p := range pods {
		if strings.HasPrefix(p, "web-") {
			web = append(web, p)
		}
	}
	require.Len(t, web, 2, "rs/web's pods: %v", pods)
	require.Len(t, otherPods, 2, "p1 and rs/api's pod: %v", otherPods)
	nodes := []string{"node-1", "node-2", "node-3"}
	with := func(prefix string, names []string) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = prefix + n
		}
		return out
	}

	for _, tc := range []struct {
		line string
		// cursor is where Tab was pressed: -1 is the end of the line.
		cursor int
		want   []string
	}{
		// Pods, by KIND/NAME and by KIND NAME, in every verb that acts on one.
		{"kill pod/", -1, with("pod/", pods)},
		{"kill pod/w", -1, with("pod/", web)},
		{"kill pods/s", -1, []string{"pods/stray"}},
		{"kill po ", -1, pods},
		{"crash pod/st", -1, []string{"pod/stray"}},
		{"evict pod s", -1, []string{"stray"}},
		{"set ready pod/s", -1, []string{"pod/stray"}},
		{"set ready pod ", -1, pods},
		{"set ready pod stray ", -1, []string{"true", "false"}},
		{"delete pod ", -1, pods},
		{"label pod/s", -1, []string{"pod/stray"}},
		{"label pod s", -1, []string{"stray"}},
		{"annotate pods ", -1, pods},
		{"describe pod ", -1, pods},
		{"get pods ", -1, pods},
		{"expect pod/s", -1, []string{"pod/stray"}},
		{"expect condition pod ", -1, pods},
		{"expect cache pods ", -1, pods},
		// Controllers.
		{"scale rs/", -1, []string{"rs/web"}},
		{"scale rc/", -1, []string{"rc/db"}},
		{"scale replicaset ", -1, []string{"web"}},
		{"scale pod/", -1, nil},
		{"delete rs/", -1, []string{"rs/web"}},
		{"until sync rs/", -1, []string{"rs/web"}},
		{"until sync rc ", -1, []string{"db"}},
		{"expect rs/w", -1, []string{"rs/web"}},
		{"expect rs web status.re", -1, []string{"status.replicas=", "status.readyReplicas="}},
		{"expect expectations rc/", -1, []string{"rc/db"}},
		{"expect cache rs ", -1, []string{"web"}},
		{"get rs/", -1, []string{"rs/web"}},
		{"describe rc/", -1, []string{"rc/db"}},
		// Nodes: cluster-scoped, so -n does not narrow them.
		{"cordon ", -1, append([]string{"node/"}, nodes...)},
		{"cordon node/", -1, with("node/", nodes)},
		{"uncordon node ", -1, nodes},
		{"cordon node-2 ", -1, nil},
		{"describe node/node-3", -1, []string{"node/node-3"}},
		{"label node/ -n other", len("label node/"), with("node/", nodes)},
		{"get nodes n", -1, nodes},
		{"create pod x --node=", -1, with("--node=", nodes)},
		{"create pod x --node ", -1, nodes},
		{"expect pods node=", -1, with("node=", nodes)},
		{"expect pod/stray spec.nodeName=node-", -1, with("spec.nodeName=", nodes)},
		// The namespace the line selects, wherever -n is.
		{"kill -n other pod/", -1, with("pod/", otherPods)},
		{"kill pod/ -n other", len("kill pod/"), with("pod/", otherPods)},
		{"describe pod  --namespace=other", len("describe pod "), otherPods},
		{"get pods -nother ", -1, otherPods},
		{"scale rs/ -n=other", len("scale rs/"), []string{"rs/api"}},
		{"scale rs/ -n nowhere", len("scale rs/"), nil},
		// Namespaces.
		{"get pods -n ", -1, []string{"default", "other"}},
		{"get pods --namespace=o", -1, []string{"--namespace=other"}},
		// Owners, an Event's object, queue keys.
		{"expect pods owner=", -1, []string{"owner=none", "owner=rs/", "owner=rc/"}},
		{"expect pods owner=rs/", -1, []string{"owner=rs/web"}},
		{"expect pods -n other owner!=rs/", -1, []string{"owner!=rs/api"}},
		{"expect pod/stray owner=rc/", -1, []string{"owner=rc/db"}},
		{"expect events object=", -1, []string{"object=pod/", "object=rs/", "object=rc/", "object=deploy/", "object=node/"}},
		{"expect events object=rs/", -1, []string{"object=rs/web"}},
		{"expect events object=node/node-1", -1, []string{"object=node/node-1"}},
		{"expect queue rs ", -1, []string{"len=", "contains"}},
		{"expect queue replicaset contains ", -1, []string{"default/web"}},
		{"expect queue rc contains ", -1, []string{"default/db"}},
		{"expect queue rs contains  -n other", len("expect queue rs contains "), []string{"other/api"}},
		// Field values that name nothing come from the table.
		{"expect pods phase=R", -1, []string{"phase=Running"}},
		{"expect pods ready=", -1, []string{"ready=true", "ready=false"}},
		// A selection is not a name, and a new object's name is not offered.
		{"kill pods -l app=web ", -1, nil},
		{"delete pods --all ", -1, nil},
		{"create rs ", -1, nil},
		{"create pod s", -1, nil},
		{"create node ", -1, nil},
		{"describe pod stray ", -1, nil},
	} {
		cursor := tc.cursor
		if cursor < 0 {
			cursor = len(tc.line)
		}
		assert.Equal(t, tc.want, ts.Complete(tc.line, cursor).Candidates, "%q at %d", tc.line, cursor)
	}
}

// TestCompleteNamesChangeNothing: completing is a read. The world is the
// same after it, and a session whose world is not built yet offers the
// grammar alone and stays without one.
func TestCompleteNamesChangeNothing(t *testing.T) {
	ts := completionWorld(t)
	before := fingerprint(ts.World())
	for _, line := range []string{"kill pod/", "get pods -n ", "expect queue rs contains ", "expect events object=rs/"} {
		ts.Complete(line, len(line))
	}
	assert.Equal(t, before, fingerprint(ts.World()))

	fresh := newTestSession(t)
	assert.Equal(t, CompleteAt("cordon ", 7), fresh.Complete("cordon ", 7))
	assert.Equal(t, []string{"node/"}, fresh.Complete("cordon ", 7).Candidates)
	assert.Nil(t, fresh.World(), "completing builds no world")
}

// TestCompleteNamesFollowTheWorld: the names are the world's now. A pod that
// was killed is no longer offered, and a seek back offers it again.
func TestCompleteNamesFollowTheWorld(t *testing.T) {
	ts := newTestSession(t, "create pod stray", "create pod stray2", "stabilize")
	at := ts.World().Kernel.Steps()
	assert.Equal(t, []string{"pod/stray", "pod/stray2"}, ts.Complete("kill pod/s", 10).Candidates)

	ts.ok(t, "kill pod/stray2")
	ts.ok(t, "stabilize")
	assert.Equal(t, []string{"pod/stray"}, ts.Complete("kill pod/s", 10).Candidates)

	require.NoError(t, ts.World().Seek(at))
	assert.Equal(t, []string{"pod/stray", "pod/stray2"}, ts.Complete("kill pod/s", 10).Candidates)
}
