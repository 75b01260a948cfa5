package script

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
)

func TestWorldCommandsPrintWhatKubectlPrints(t *testing.T) {
	ts := newTestSession(t)
	for _, tc := range []struct{ line, want string }{
		{"create node node-4 --labels=disk=ssd", "node/node-4 created\n"},
		{"create rs web --replicas=2 --selector=app=web", "replicaset.apps/web created\n"},
		{"create rc db --replicas=1 --selector=app=db", "replicationcontroller/db created\n"},
		{"create pod stray --labels=app=other", "pod/stray created\n"},
		{"scale rs/web --replicas=3", "replicaset.apps/web scaled\n"},
		{"scale rc db --replicas=2", "replicationcontroller/db scaled\n"},
		{"label pod/stray tier=front", "pod/stray labeled\n"},
		{"label pod/stray tier=front", "pod/stray not labeled\n"},
		{"label rs/web team=a", "replicaset.apps/web labeled\n"},
		{"label node/node-1 zone=b", "node/node-1 labeled\n"},
		{"annotate pod/stray note=\"hello there\"", "pod/stray annotated\n"},
		{"cordon node-2", "node/node-2 cordoned\n"},
		{"cordon node/node-2", "node/node-2 already cordoned\n"},
		{"uncordon node-2", "node/node-2 uncordoned\n"},
		{"delete pod/stray --grace-period=0", "pod \"stray\" deleted\n"},
		{"delete rc/db --cascade=orphan", "replicationcontroller \"db\" deleted\n"},
	} {
		assert.Equal(t, tc.want, ts.ok(t, tc.line), tc.line)
	}
	w := ts.World()
	o, ok := w.Store.Object(api.KindNode, "", "node-4")
	require.True(t, ok, "create node runs until the kubelet registered the Node")
	assert.Equal(t, "ssd", o.Meta().Labels["disk"])
	o, _ = w.Store.Object(api.KindReplicaSet, "default", "web")
	assert.Equal(t, "a", o.Meta().Labels["team"])
	assert.Equal(t, int32(3), *o.(*api.ReplicaSet).Spec.Replicas)
	o, _ = w.Store.Object(api.KindNode, "", "node-1")
	assert.Equal(t, "b", o.Meta().Labels["zone"])
	_, ok = w.Store.Object(api.KindPod, "default", "stray")
	assert.False(t, ok, "grace period 0 removes the pod at once")
	o, ok = w.Store.Object(api.KindReplicationController, "default", "db")
	require.True(t, ok, "an orphaning delete waits for the garbage collector's orphan finalizer")
	assert.NotNil(t, o.Meta().DeletionTimestamp)
	ts.ok(t, "stabilize")
	_, ok = w.Store.Object(api.KindReplicationController, "default", "db")
	assert.False(t, ok)
	var annotated bool
	for _, r := range w.Server.Requests() {
		if r.From == "kubectl" && r.Verb == apistore.VerbPatch && r.Key == "default/stray" {
			annotated = true
		}
	}
	assert.True(t, annotated, "label and annotate are patches sent by kubectl")
}

func TestCreateReplicaSetObjects(t *testing.T) {
	ts := newTestSession(t,
		`create rs web --replicas=2 --selector="app=web,tier in (a,b),!canary" --template-labels=app=web,tier=a --min-ready-seconds=5 -n team`,
		"create rc db --replicas=1 --selector=app=db,v=1")
	w := ts.World()
	o, ok := w.Store.Object(api.KindReplicaSet, "team", "web")
	require.True(t, ok)
	rs := o.(*api.ReplicaSet)
	assert.Equal(t, map[string]string{"app": "web"}, rs.Spec.Selector.MatchLabels)
	assert.Equal(t, []api.LabelSelectorRequirement{
		{Key: "canary", Operator: api.LabelSelectorOpDoesNotExist},
		{Key: "tier", Operator: api.LabelSelectorOpIn, Values: []string{"a", "b"}},
	}, rs.Spec.Selector.MatchExpressions)
	assert.Equal(t, map[string]string{"app": "web", "tier": "a"}, rs.Spec.Template.Metadata.Labels)
	assert.Equal(t, int32(5), rs.Spec.MinReadySeconds)
	assert.Equal(t, api.RestartAlways, rs.Spec.Template.Spec.RestartPolicy, "defaulted by the API")
	require.Len(t, rs.Spec.Template.Spec.Containers, 1)

	o, ok = w.Store.Object(api.KindReplicationController, "default", "db")
	require.True(t, ok)
	rc := o.(*api.ReplicationController)
	assert.Equal(t, map[string]string{"app": "db", "v": "1"}, rc.Spec.Selector)
	assert.Equal(t, map[string]string{"app": "db", "v": "1"}, rc.Spec.Template.Metadata.Labels)

	ts.ok(t, "stabilize")
	ts.ok(t, "expect pods -n team -l app=web count=2 owner=rs/web ready=true")
	ts.ok(t, "expect pods -l app=db count=1 owner=rc/db")
}

func TestCreatePodWithStatus(t *testing.T) {
	ts := newTestSession(t,
		"create pod a --labels=app=x --node=node-1 --phase=Running --ready",
		"create pod b --labels=app=x --ready",
		"create pod c --labels=app=x --node=node-2 --phase=Running",
		"create pod d --labels=app=x --phase=Succeeded",
		"create pod e --labels=app=x")
	ts.ok(t, "expect pod/a status.phase=Running ready=true node=node-1")
	ts.ok(t, "expect condition pod/a PodScheduled=True")
	ts.ok(t, "expect pod/b status.phase=Running ready=true")
	ts.ok(t, "expect pod/c status.phase=Running ready=false")
	ts.ok(t, "expect pod/d status.phase=Succeeded ready=false")
	ts.ok(t, "expect pod/e status.phase=Pending")
	e := ts.fails(t, "create pod f --phase=Pending --ready")
	assert.Equal(t, "create pod f: --ready needs --phase=Running: only a running pod can be Ready", e.Msg)
	assert.False(t, e.applied)

	// The kubelet takes over the status it finds.
	ts.ok(t, "stabilize")
	ts.ok(t, "expect pods -l app=x count=4 phase=Running")
	ts.ok(t, "expect pod/a ready=true restarts=0")
	ts.ok(t, "crash pod/a")
	ts.ok(t, "stabilize")
	ts.ok(t, "expect pod/a ready=true restarts=1")
}

func TestAPIRejectionsAreRuntimeFailures(t *testing.T) {
	ts := newTestSession(t, "create rs web --replicas=1 --selector=app=web", "create pod p --labels=app=p", "stabilize")
	for _, tc := range []struct{ line, msg string }{
		{"create rs web --replicas=1 --selector=app=web", `create rs web: replicasets.apps "web" already exists`},
		{"create rc web --replicas=1 --selector=app=web2", ""},
		{"create pod p", `create pod p: pods "p" already exists`},
	} {
		if tc.msg == "" {
			ts.ok(t, tc.line)
			continue
		}
		e := ts.fails(t, tc.line)
		assert.Equal(t, tc.msg, e.Msg)
		assert.True(t, e.applied, "the API answered: steps ran")
	}
	ts.ok(t, "fail patch pods --count=1 --error=conflict")
	e := ts.fails(t, "label pod/p x=y")
	assert.Contains(t, e.Msg, "label pod/p: Operation cannot be fulfilled on pods \"p\"")
	assert.Contains(t, e.Msg, "(injected fault: patch pods: conflict ×1 (fired 1))", "a fault that fired says so")
}

func TestChecksBeforeTheWorldChanges(t *testing.T) {
	ts := newTestSession(t, "create rs web --replicas=2 --selector=app=web", "create pod p --labels=app=p", "stabilize")
	w := ts.World()
	for _, tc := range []struct{ line, msg string }{
		{"scale rs/nope --replicas=2", `scale rs/nope: replicasets.apps "nope" not found`},
		{"scale rc/web --replicas=2 -n x", `scale rc/web: replicationcontrollers "web" not found in namespace x`},
		{"label pod/p app=q", `label pod/p: 'app' already has a value (p), and --overwrite is false`},
		{"annotate pod/nope a=b", `annotate pod/nope: pods "nope" not found`},
		{"label pods -l app=web x=1 app=db", ""},
		{"delete pod/nope", `delete pod/nope: pods "nope" not found`},
		{"delete rs/nope", `delete rs/nope: replicasets.apps "nope" not found`},
		{"cordon node-9", `cordon node/node-9: nodes "node-9" not found`},
		{"create node node-1", `create node node-1: nodes "node-1" already exists`},
		{"kill pods -l app=nope", "kill pods -l app=nope: no pods match -l app=nope"},
		{"kill pods --all -n empty --pick=oldest", "kill pods --all -n empty --pick=oldest: no pods match --all in namespace empty"},
		{"kill pods -l app=web --pick=5", "kill pods -l app=web --pick=5: only 2 pods match -l app=web; --pick=5 needs 6"},
		{"kill pods -l app=web --pick=1 --count=2", "kill pods -l app=web --pick=1 --count=2: only 2 pods match -l app=web; --pick=1 --count=2 needs 3"},
		{"kill pods -l app=p --pick=newest --count=2", "kill pods -l app=p --pick=newest --count=2: only 1 pod matches -l app=p; --count=2 needs 2"},
		{"crash pods -l app=web --pick=random --count=3", "crash pods -l app=web --pick=random --count=3: only 2 pods match -l app=web; --count=3 needs 3"},
		{"evict pod/nope", `evict pod/nope: pods "nope" not found`},
		{"set ready pods -l app=zzz true", "set ready pods -l app=zzz true: no pods match -l app=zzz"},
	} {
		before := fingerprint(w)
		out, err := ts.run(t, tc.line)
		if tc.msg == "" {
			require.Error(t, err, tc.line)
			assert.Contains(t, err.Error(), "'app' already has a value (web), and --overwrite is false", tc.line)
		} else {
			require.Error(t, err, "%s printed %s", tc.line, out)
			assert.Equal(t, "1:1: "+tc.msg, err.Error(), tc.line)
		}
		assert.Empty(t, out, tc.line)
		assert.Equal(t, before, fingerprint(w), "%s failed a check: the world must not change", tc.line)
	}
}

func TestLabelSemantics(t *testing.T) {
	ts := newTestSession(t, "create pod p --labels=app=p,tier=a")
	ts.ok(t, "label pod/p tier- team=x")
	o, _ := ts.World().Store.Object(api.KindPod, "default", "p")
	assert.Equal(t, map[string]string{"app": "p", "team": "x"}, o.Meta().Labels)
	ts.ok(t, "label pod/p app=q --overwrite")
	ts.ok(t, "annotate pod/p a=1")
	e := ts.fails(t, "annotate pod/p a=2")
	assert.Equal(t, "annotate pod/p: --overwrite is false but found the following declared annotation(s): 'a' already has a value (1)", e.Msg)
	ts.ok(t, "annotate pod/p a=2 --overwrite")
	ts.ok(t, "annotate pod/p a-")
	o, _ = ts.World().Store.Object(api.KindPod, "default", "p")
	assert.Equal(t, map[string]string{"app": "q", "team": "x"}, o.Meta().Labels)
	assert.Empty(t, o.Meta().Annotations)
}

func TestNoMatchForKubectlVerbsIsNotAnError(t *testing.T) {
	ts := newTestSession(t)
	assert.Equal(t, "No resources found in default namespace.\n", ts.ok(t, "delete pods -l app=none"))
	assert.Equal(t, "No resources found in x namespace.\n", ts.ok(t, "label pods --all -n x k=v"))
	assert.Equal(t, "No resources found\n", ts.ok(t, "label nodes -l zone=none k=v"))
	assert.Empty(t, ts.World().Inputs(), "nothing was sent")
}

func TestDeleteCascade(t *testing.T) {
	ts := newTestSession(t, "create rs a --replicas=2 --selector=app=a", "create rc b --replicas=2 --selector=app=b", "stabilize")
	ts.ok(t, "delete rs/a")
	ts.ok(t, "delete rc/b")
	ts.ok(t, "stabilize")
	ts.ok(t, "expect pods count=0")

	ts = newTestSession(t, "create rc b --replicas=2 --selector=app=b", "stabilize")
	ts.ok(t, "delete rc/b --cascade=orphan")
	ts.ok(t, "stabilize")
	ts.ok(t, "expect pods -l app=b count=2 owner=none")
}

// --cascade=foreground asks for propagationPolicy Foreground: the owner
// stays, marked, with the foregroundDeletion finalizer, until the garbage
// collector has deleted its pods and they are gone.
func TestDeleteCascadeForeground(t *testing.T) {
	for _, kind := range []string{"rs", "rc"} {
		ts := newTestSession(t, "create "+kind+" web --replicas=2 --selector=app=web", "stabilize")
		ts.ok(t, "delete "+kind+"/web --cascade=foreground")
		ts.ok(t, "expect "+kind+"/web metadata.deletionTimestamp!=\"\"")
		w := ts.World()
		k := api.KindReplicaSet
		if kind == "rc" {
			k = api.KindReplicationController
		}
		o, ok := w.Store.Object(k, "default", "web")
		require.True(t, ok, "the DELETE returns with the %s still there", kind)
		assert.Equal(t, []string{apistore.FinalizerDeleteDependents}, o.Meta().Finalizers)
		ts.ok(t, "stabilize")
		ts.ok(t, "expect pods count=0")
		_, ok = w.Store.Object(k, "default", "web")
		assert.False(t, ok, "the %s goes after its pods", kind)
	}
}
