package script

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/printers"
)

// The tests of the Deployment commands run where no Deployment controller
// is needed: the commands write the Deployment through the API store as
// kubectl does, and where a test needs what the controller would have made
// (ReplicaSets with revisions, a status), it writes that to the store
// itself.

func TestParseDeploymentCommands(t *testing.T) {
	web := sel(t, "app=web")
	d := Ref{Kind: api.KindDeployment, Namespace: "default", Name: "web"}
	for _, tc := range []struct {
		line string
		want Command
	}{
		{"create deploy web --replicas=4 --selector=app=web", &CreateDeploy{
			Source:    src("create deploy", "create deploy web --replicas=4 --selector=app=web"),
			Namespace: "default", Name: "web", Replicas: 4, Selector: web, SelectorText: "app=web",
			TemplateLabels: map[string]string{"app": "web"}, Image: "nginx:1.0"}},
		{"create deployment api -n team --replicas 2 -l app=api --image=api:1 --template-labels=app=api,tier=back " +
			"--strategy=RollingUpdate --max-surge=1 --max-unavailable=0% --min-ready-seconds=3 --revision-history-limit=2 " +
			"--progress-deadline-seconds=30 --paused", &CreateDeploy{
			Source: src("create deploy", "create deployment api -n team --replicas 2 -l app=api --image=api:1 --template-labels=app=api,tier=back "+
				"--strategy=RollingUpdate --max-surge=1 --max-unavailable=0% --min-ready-seconds=3 --revision-history-limit=2 "+
				"--progress-deadline-seconds=30 --paused"),
			Namespace: "team", Name: "api", Replicas: 2, Selector: sel(t, "app=api"), SelectorText: "app=api",
			TemplateLabels: map[string]string{"app": "api", "tier": "back"}, Image: "api:1", Strategy: "RollingUpdate",
			MaxSurge: "1", MaxUnavailable: "0%", MinReadySeconds: 3, RevisionHistoryLimit: ptr(int32(2)),
			ProgressDeadlineSeconds: ptr(int32(30)), Paused: true}},
		{"scale deploy/web --replicas=6", &Scale{Source: src("scale", "scale deploy/web --replicas=6"), Object: d, Replicas: 6}},
		{"set image deploy/web app=nginx:2.0", &SetImage{Source: src("set image", "set image deploy/web app=nginx:2.0"),
			Object: d, Images: []KeyValue{{"app", "nginx:2.0"}}}},
		{"set image deployments web *=nginx:3", &SetImage{Source: src("set image", "set image deployments web *=nginx:3"),
			Object: d, Images: []KeyValue{{"*", "nginx:3"}}}},
		{"rollout status deploy web", &RolloutStatus{Source: src("rollout status", "rollout status deploy web"), Object: d}},
		{"rollout history deploy/web --revision=2", &RolloutHistory{Source: src("rollout history", "rollout history deploy/web --revision=2"),
			Object: d, Revision: 2}},
		{"rollout undo deploy/web", &RolloutUndo{Source: src("rollout undo", "rollout undo deploy/web"), Object: d}},
		{"rollout undo deploy/web --to-revision 3", &RolloutUndo{Source: src("rollout undo", "rollout undo deploy/web --to-revision 3"),
			Object: d, ToRevision: 3}},
		{"rollout pause deploy/web", &RolloutPause{Source: src("rollout pause", "rollout pause deploy/web"), Object: d, Pause: true}},
		{"rollout resume deploy/web", &RolloutPause{Source: src("rollout resume", "rollout resume deploy/web"), Object: d}},
		{"rollout restart deploy/web -n default", &RolloutRestart{Source: src("rollout restart", "rollout restart deploy/web -n default"), Object: d}},
		{"delete deploy/web --cascade=orphan", &Delete{Source: src("delete", "delete deploy/web --cascade=orphan"),
			Target: Target{Kind: api.KindDeployment, Namespace: "default", Name: "web"}, Cascade: CascadeOrphan}},
		{"describe deployment web", &Describe{Source: src("describe", "describe deployment web"), Object: d}},
		{"expect rs -l app=web count=2 owner=deploy/web revision>=1", &ExpectOwners{
			Source: src("expect rs", "expect rs -l app=web count=2 owner=deploy/web revision>=1"),
			Kind:   api.KindReplicaSet, Namespace: "default", Selector: web, SelectorText: "app=web", Count: Compare{OpEq, 2},
			Filters: []FieldCheck{check(t, api.KindReplicaSet, "owner=deploy/web", 30), check(t, api.KindReplicaSet, "revision>=1", 47)}}},
		// expect rs NAME FIELD=VALUE is one ReplicaSet, as before expect rs existed.
		{"expect rs web status.replicas=3", &ExpectObject{Source: src("expect", "expect rs web status.replicas=3"),
			Object: Ref{Kind: api.KindReplicaSet, Namespace: "default", Name: "web"},
			Checks: []FieldCheck{check(t, api.KindReplicaSet, "status.replicas=3", 15)}}},
		{"expect deploy/web spec.paused=true", &ExpectObject{Source: src("expect", "expect deploy/web spec.paused=true"),
			Object: d, Checks: []FieldCheck{check(t, api.KindDeployment, "spec.paused=true", 19)}}},
		{"expect condition deploy/web Available=True reason=MinimumReplicasAvailable", &ExpectCondition{
			Source: src("expect condition", "expect condition deploy/web Available=True reason=MinimumReplicasAvailable"),
			Object: d, Type: "Available", Status: Match{OpEq, "True"}, Reason: &Match{OpEq, "MinimumReplicasAvailable"}}},
	} {
		assert.Equal(t, tc.want, parseOK(t, tc.line), tc.line)
	}
}

func TestParseDeploymentErrors(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"create deploy web --replicas=1", `1:31: create deploy needs --selector=SEL; e.g. create deploy web --replicas=4 --selector=app=web`},
		{"create deploy web --replicas=1 -l app=web --max-surge=abc",
			`1:55: bad value "abc" for --max-surge; want a number of pods (1) or a percentage of the replicas (25%)`},
		{"create deploy web --replicas=1 -l app=web --max-unavailable=-1",
			`1:61: bad value "-1" for --max-unavailable; --max-unavailable cannot be negative; want a number of pods (1) or a percentage of the replicas (25%)`},
		{"create deploy web --replicas=1 -l app=web --max-surge=25.5%",
			`1:55: bad value "25.5%" for --max-surge; want a number of pods (1) or a percentage of the replicas (25%)`},
		{"create deploy web --replicas=1 -l app=web --strategy=BlueGreen",
			`1:54: bad value "BlueGreen" for --strategy; want RollingUpdate or Recreate`},
		{"create deploy web --replicas=1 -l app=web --strategy=recreate",
			`1:54: bad value "recreate" for --strategy; did you mean "Recreate"?`},
		{"create deploy web --replicas=1 -l app=web --image=", `1:51: --image is empty; write --image=IMAGE, e.g. --image=nginx:1.0 (the default)`},
		{"create deploy web --replicas=1 -l replicas>2", `1:35: a Deployment's selector cannot use > or < ("replicas>2"); its matchExpressions know only In, NotIn, Exists and DoesNotExist`},
		{`create deploy web --replicas=1 -l "tier in (a,b)"`, `1:35: the pods' labels cannot be derived from the selector's set-based requirement "tier in (a,b)"; add --template-labels=k=v,... with labels the selector matches`},
		{"create deploy web --replicas=1 -l app=web --revision-history-limit=-1", `1:68: --revision-history-limit must be at least 0, not -1`},
		{"create deploy web --replicas=1 -l app=web --max-sruge=1", `1:43: unknown flag "--max-sruge" for create deploy; did you mean "--max-surge"?`},
		{"set image deploy/web nginx=nginx:2.0", `1:22: unable to find container named "nginx"; a Deployment's pods have one container, app: write app=nginx:2.0`},
		{"set image deploy/web ap=nginx:2.0", `1:22: unable to find container named "ap"; did you mean "app"?`},
		{"set image deploy/web app=", `1:26: the image of app is empty; write app=IMAGE, e.g. app=nginx:2.0`},
		{"set image deploy/web app", `1:22: "app" is not CONTAINER=IMAGE; write app=IMAGE: a Deployment's pods have one container, app`},
		{"set image deploy/web", `1:21: set image needs CONTAINER=IMAGE; the container is app: e.g. set image deploy/web app=nginx:2.0`},
		{"set image deploy/web app=a app=b", `1:28: container app given twice`},
		{"set image rs/web app=nginx:2.0", `1:11: set image cannot act on rs; it takes deploy`},
		{"rollout undo rs/web", `1:14: rollout undo cannot act on rs; it takes deploy`},
		{"rollout undo deploy/web --to-revision=-1", `1:39: unable to find specified revision -1 in history; revisions count from 1; --to-revision=0, the default, is the one before the newest`},
		{"rollout history deploy/web --revision=-2", `1:39: --revision must be at least 0, not -2`},
		{"rollout status deploy/web extra", `1:27: unexpected argument "extra"; usage: rollout status deploy/NAME [-n NS]`},
		{"rollout stats deploy/web", `1:9: unknown command "rollout stats"; did you mean "rollout status"?`},
		{"rollout", `1:8: rollout needs a word: status, history, undo, pause, resume or restart`},
		{"expect rs -l app=web owner=deploy/web", `1:38: expect rs needs count=N; e.g. expect rs -l app=web count=2 owner=deploy/web`},
		{"expect rs -l app=web count=1 owner=rs/web", `1:36: a ReplicaSet's owner is deploy/NAME or none, not rs/NAME; ReplicaSets and ReplicationControllers own pods; a ReplicaSet is owned by a Deployment`},
		{"expect rs -l app=web count=1 revison=2", `1:30: unknown filter "revison"; did you mean "revision"?`},
		{"expect rs -l app=web count=1 phase=Running", `1:30: unknown filter "phase"; filters are count, owner, revision, replicas, ready, available, or a ReplicaSet field path (help fields)`},
		{"expect rs -l app=web count=1 ready=true", `1:36: bad value "true" for ready; ready is a whole number`},
		{"expect deploy/web status.updated=3", `1:19: unknown field "status.updated"; did you mean "status.updatedReplicas"?`},
		{"expect deploy/web spec.strategy.type=Rolling", `1:38: bad value "Rolling" for spec.strategy.type; did you mean "RollingUpdate"?`},
		{"expect condition deploy/web Ready=True", `1:29: unknown condition type "Ready"; deploy report Available, Progressing or ReplicaFailure`},
	} {
		_, err := ParseLine(tc.line)
		if !assert.Error(t, err, tc.line) {
			continue
		}
		assert.Equal(t, tc.want, err.Error(), tc.line)
	}
}

// deployWorld is a world with deploy/web, four replicas of nginx:1.0, and
// no Deployment controller's work: no ReplicaSets, no status.
func deployWorld(t *testing.T) *testSession {
	t.Helper()
	return newTestSession(t, "create deploy web --replicas=4 --selector=app=web")
}

func (ts *testSession) deploy(t *testing.T, name string) *api.Deployment {
	t.Helper()
	o, ok := ts.World().Store.Object(api.KindDeployment, "default", name)
	require.True(t, ok, "deploy/%s exists", name)
	return o.(*api.Deployment)
}

// kubectlRequests counts the requests kubectl sent for a resource.
func (ts *testSession) kubectlRequests(resource string) int {
	n := 0
	for _, r := range ts.World().Server.Requests() {
		if r.From == "kubectl" && r.Resource == resource {
			n++
		}
	}
	return n
}

func TestCreateDeploymentLeavesTheDefaultsToTheAPI(t *testing.T) {
	ts := newTestSession(t)
	assert.Equal(t, "deployment.apps/web created\n", ts.ok(t, "create deploy web --replicas=4 --selector=app=web"))
	d := ts.deploy(t, "web")
	assert.Equal(t, int32(4), *d.Spec.Replicas)
	assert.Equal(t, map[string]string{"app": "web"}, d.Spec.Selector.MatchLabels)
	assert.Equal(t, map[string]string{"app": "web"}, d.Metadata.Labels)
	assert.Equal(t, map[string]string{"app": "web"}, d.Spec.Template.Metadata.Labels)
	assert.Equal(t, []api.Container{{Name: "app", Image: "nginx:1.0"}}, d.Spec.Template.Spec.Containers)
	assert.Equal(t, api.RollingUpdateDeploymentStrategy, d.Spec.Strategy.Type)
	require.NotNil(t, d.Spec.Strategy.RollingUpdate)
	assert.Equal(t, "25%", d.Spec.Strategy.RollingUpdate.MaxSurge.String())
	assert.Equal(t, "25%", d.Spec.Strategy.RollingUpdate.MaxUnavailable.String())
	assert.Equal(t, int32(10), *d.Spec.RevisionHistoryLimit)
	assert.Equal(t, int32(600), *d.Spec.ProgressDeadlineSeconds)
	assert.False(t, d.Spec.Paused)
	assert.Equal(t, int64(1), d.Metadata.Generation)

	ts.ok(t, "create deploy api --replicas=2 -l app=api --image=api:1 --max-surge=1 --max-unavailable=0 "+
		"--min-ready-seconds=3 --revision-history-limit=2 --progress-deadline-seconds=30 --paused")
	d = ts.deploy(t, "api")
	assert.Equal(t, api.IntOrString{IntVal: 1}, *d.Spec.Strategy.RollingUpdate.MaxSurge, "a number is sent as a number")
	assert.Equal(t, api.IntOrString{IntVal: 0}, *d.Spec.Strategy.RollingUpdate.MaxUnavailable)
	assert.Equal(t, int32(3), d.Spec.MinReadySeconds)
	assert.Equal(t, int32(2), *d.Spec.RevisionHistoryLimit)
	assert.Equal(t, int32(30), *d.Spec.ProgressDeadlineSeconds)
	assert.True(t, d.Spec.Paused)
	assert.Equal(t, "api:1", d.Spec.Template.Spec.Containers[0].Image)

	ts.ok(t, "create deploy db --replicas=1 -l app=db --max-surge=50%")
	d = ts.deploy(t, "db")
	assert.Equal(t, "50%", d.Spec.Strategy.RollingUpdate.MaxSurge.String())
	assert.Equal(t, "25%", d.Spec.Strategy.RollingUpdate.MaxUnavailable.String(), "only the bound given is sent; the API defaults the other")
	ts.ok(t, "create deploy batch --replicas=1 -l app=batch --strategy=Recreate")
	d = ts.deploy(t, "batch")
	assert.Nil(t, d.Spec.Strategy.RollingUpdate, "a Recreate Deployment has no rollingUpdate")
}

func TestCreateDeploymentRefusedByTheAPINamesTheField(t *testing.T) {
	ts := newTestSession(t)
	for _, tc := range []struct{ line, msg string }{
		{"create deploy a --replicas=1 -l app=a --max-surge=0 --max-unavailable=0",
			`create deploy a: Deployment.apps "a" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: ` +
				`intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when ` + "`maxSurge`" + ` is 0`},
		{"create deploy b --replicas=1 -l app=b --max-unavailable=150%",
			`create deploy b: Deployment.apps "b" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: ` +
				`intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%`},
		{"create deploy c --replicas=1 -l app=c --strategy=Recreate --max-unavailable=1",
			`create deploy c: Deployment.apps "c" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified ` +
				"when strategy `type` is 'Recreate'"},
		{"create deploy d --replicas=1 -l app=d --min-ready-seconds=10 --progress-deadline-seconds=5",
			`create deploy d: Deployment.apps "d" is invalid: spec.progressDeadlineSeconds: Invalid value: 5: must be greater than minReadySeconds`},
		{"create deploy e --replicas=1 -l app=e --template-labels=app=other",
			`create deploy e: Deployment.apps "e" is invalid: spec.template.metadata.labels: Invalid value: ` +
				`map[string]string{"app":"other"}: ` + "`selector` does not match template `labels`"},
	} {
		e := ts.fails(t, tc.line)
		assert.Equal(t, tc.msg, e.Msg, tc.line)
		assert.True(t, e.applied, "the API answered: steps ran")
	}
	assert.Empty(t, ts.World().Store.Objects(api.KindDeployment, "default"))

	ts.ok(t, "create deploy web --replicas=1 -l app=web")
	e := ts.fails(t, "create deploy web --replicas=1 -l app=web")
	assert.Equal(t, `create deploy web: deployments.apps "web" already exists`, e.Msg)
}

func TestScaleAndSetImageWriteTheDeployment(t *testing.T) {
	ts := deployWorld(t)
	assert.Equal(t, "deployment.apps/web scaled\n", ts.ok(t, "scale deploy/web --replicas=6"))
	d := ts.deploy(t, "web")
	assert.Equal(t, int32(6), *d.Spec.Replicas)
	assert.Equal(t, int64(2), d.Metadata.Generation, "a spec change bumps the generation")

	assert.Equal(t, "deployment.apps/web image updated\n", ts.ok(t, "set image deploy/web app=nginx:2.0"))
	d = ts.deploy(t, "web")
	assert.Equal(t, "nginx:2.0", d.Spec.Template.Spec.Containers[0].Image)
	assert.Equal(t, int64(3), d.Metadata.Generation)
	ts.ok(t, "expect deploy/web metadata.generation=3 spec.template.spec.containers[0].image=nginx:2.0")

	before := ts.kubectlRequests("deployments")
	assert.Empty(t, ts.ok(t, "set image deploy/web app=nginx:2.0"), "the same image changes nothing and, as in kubectl, says nothing")
	assert.Equal(t, before, ts.kubectlRequests("deployments"), "and sends nothing")
	ts.ok(t, "set image deploy/web *=nginx:3.0")
	assert.Equal(t, "nginx:3.0", ts.deploy(t, "web").Spec.Template.Spec.Containers[0].Image)

	e := ts.fails(t, "set image deploy/nope app=nginx:2.0")
	assert.Equal(t, `set image deploy/nope: deployments.apps "nope" not found`, e.Msg)
	assert.False(t, e.applied)
	e = ts.fails(t, "scale deploy/nope --replicas=1")
	assert.Equal(t, `scale deploy/nope: deployments.apps "nope" not found`, e.Msg)
}

func TestRolloutPauseAndResumeSetSpecPaused(t *testing.T) {
	ts := deployWorld(t)
	assert.Equal(t, "deployment.apps/web paused\n", ts.ok(t, "rollout pause deploy/web"))
	ts.ok(t, "expect deploy/web spec.paused=true")
	e := ts.fails(t, "rollout pause deploy/web")
	assert.Equal(t, `rollout pause deploy/web: deployments.apps "web" is already paused`, e.Msg)
	assert.False(t, e.applied, "kubectl refuses before it sends anything")

	// A template change while paused is stored all the same.
	ts.ok(t, "set image deploy/web app=nginx:2.0")
	assert.Equal(t, "deployment.apps/web resumed\n", ts.ok(t, "rollout resume deploy/web"))
	ts.ok(t, "expect deploy/web spec.paused=false spec.template.spec.containers[0].image=nginx:2.0")
	e = ts.fails(t, "rollout resume deploy/web")
	assert.Equal(t, `rollout resume deploy/web: deployments.apps "web" is not paused`, e.Msg)
}

func TestRolloutRestartStampsTheTemplateWithTheSimulatedTime(t *testing.T) {
	ts := deployWorld(t)
	ts.ok(t, "advance 90s")
	assert.Equal(t, "deployment.apps/web restarted\n", ts.ok(t, "rollout restart deploy/web"))
	d := ts.deploy(t, "web")
	stamp := d.Spec.Template.Metadata.Annotations["kubectl.kubernetes.io/restartedAt"]
	want := ts.World().Kernel.Wall().UTC().Format(time.RFC3339)
	assert.Equal(t, want, stamp, "RFC 3339 on the simulated clock")
	assert.True(t, strings.HasSuffix(stamp, ":01:30Z"), stamp)
	assert.Equal(t, int64(2), d.Metadata.Generation)
	ts.ok(t, "expect deploy/web spec.template.metadata.annotations.kubectl.kubernetes.io/restartedAt="+stamp)

	e := ts.fails(t, "rollout restart deploy/web")
	assert.Equal(t, "rollout restart deploy/web: failed to create patch for web: if restart has already been triggered "+
		"within the past second, please wait before attempting to trigger another", e.Msg)
	ts.ok(t, "advance 1s")
	ts.ok(t, "rollout restart deploy/web")
	assert.NotEqual(t, stamp, ts.deploy(t, "web").Spec.Template.Metadata.Annotations["kubectl.kubernetes.io/restartedAt"])

	ts.ok(t, "rollout pause deploy/web")
	e = ts.fails(t, "rollout restart deploy/web")
	assert.Equal(t, `rollout restart deploy/web: deployments.apps "web" can't restart paused deployment (run rollout resume first)`, e.Msg)
}

// writeStatus writes a Deployment's status through the status subresource,
// as the Deployment controller would.
func (ts *testSession) writeStatus(t *testing.T, name string, change func(s *api.DeploymentStatus)) {
	t.Helper()
	d := ts.deploy(t, name).DeepCopy()
	change(&d.Status)
	_, err := ts.World().Store.UpdateStatus(d)
	require.NoError(t, err)
}

func TestRolloutStatusSaysWhatKubectlSaysNow(t *testing.T) {
	ts := deployWorld(t)
	assert.Equal(t, "Waiting for deployment spec update to be observed...\n", ts.ok(t, "rollout status deploy/web"))
	ts.writeStatus(t, "web", func(s *api.DeploymentStatus) {
		s.ObservedGeneration, s.Replicas, s.UpdatedReplicas, s.ReadyReplicas, s.AvailableReplicas = 1, 4, 2, 2, 2
	})
	assert.Equal(t, `Waiting for deployment "web" rollout to finish: 2 out of 4 new replicas have been updated...`+"\n",
		ts.ok(t, "rollout status deploy/web"))
	ts.writeStatus(t, "web", func(s *api.DeploymentStatus) { s.UpdatedReplicas, s.ReadyReplicas, s.AvailableReplicas = 4, 4, 4 })
	assert.Equal(t, `deployment "web" successfully rolled out`+"\n", ts.ok(t, "rollout status deploy/web"))

	ts.writeStatus(t, "web", func(s *api.DeploymentStatus) {
		s.Conditions = []api.DeploymentCondition{{Type: api.DeploymentProgressing, Status: api.ConditionFalse,
			Reason: "ProgressDeadlineExceeded", Message: `ReplicaSet "web-x" has timed out progressing.`}}
	})
	e := ts.fails(t, "rollout status deploy/web")
	assert.Equal(t, `rollout status deploy/web: deployment "web" exceeded its progress deadline`, e.Msg)
	ts.ok(t, "expect condition deploy/web Progressing=False reason=ProgressDeadlineExceeded")
	e = ts.fails(t, "expect condition deploy/web Available=True")
	assert.Equal(t, "expect condition deploy/web Available=True: Available is absent", e.Msg)

	e = ts.fails(t, "rollout status deploy/nope")
	assert.Equal(t, `rollout status deploy/nope: deployments.apps "nope" not found`, e.Msg)
}

// ownedRS writes a ReplicaSet of deploy/web as the Deployment controller
// makes one: the hash label in its selector and template, the revision
// annotation, and a controller reference to the Deployment.
func (ts *testSession) ownedRS(t *testing.T, d *api.Deployment, hash, image, revision string, replicas int32,
	annotations map[string]string) *api.ReplicaSet {
	t.Helper()
	lbls := map[string]string{"app": "web", printers.PodTemplateHashLabel: hash}
	a := map[string]string{printers.RevisionAnnotation: revision}
	for k, v := range annotations {
		a[k] = v
	}
	template := *d.Spec.Template.DeepCopy()
	template.Metadata.Labels = lbls
	template.Spec.Containers[0].Image = image
	rs := &api.ReplicaSet{
		Metadata: api.ObjectMeta{Namespace: "default", Name: "web-" + hash, Labels: lbls, Annotations: a,
			OwnerReferences: []api.OwnerReference{api.NewControllerRef(&d.Metadata, "apps/v1", "Deployment")}},
		Spec: api.ReplicaSetSpec{Replicas: &replicas, Selector: &api.LabelSelector{MatchLabels: lbls}, Template: template},
	}
	o, err := ts.World().Store.Create(rs)
	require.NoError(t, err)
	return o.(*api.ReplicaSet)
}

// historyWorld is deploy/web after two rollouts, as the controller leaves
// it: revision 1 (nginx:1.0) scaled to 0, revision 2 (nginx:2.0) the new
// ReplicaSet, with a change cause; and a ReplicaSet with web's labels that
// someone else controls.
func historyWorld(t *testing.T) *testSession {
	ts := deployWorld(t)
	d := ts.deploy(t, "web")
	ts.ownedRS(t, d, "6d4b8f9c7", "nginx:1.0", "1", 0, map[string]string{"note": "first"})
	ts.ok(t, "set image deploy/web app=nginx:2.0")
	ts.ok(t, "annotate deploy/web kubernetes.io/change-cause=upgrade")
	d = ts.deploy(t, "web")
	ts.ownedRS(t, d, "7b9c5d6f8", "nginx:2.0", "2", 0, map[string]string{"kubernetes.io/change-cause": "upgrade"})
	ts.writeStatus(t, "web", func(*api.DeploymentStatus) {})
	stranger := ts.ownedRS(t, d, "5f5f5f5f5", "nginx:0.1", "7", 0, nil)
	stranger = stranger.DeepCopy()
	stranger.Metadata.OwnerReferences[0].UID = "uid-of-other"
	stranger.Metadata.OwnerReferences[0].Name = "other"
	stranger.Metadata.ResourceVersion = ""
	_, err := ts.World().Store.Update(stranger)
	require.NoError(t, err)
	return ts
}

func TestRolloutHistoryListsTheDeploymentsReplicaSets(t *testing.T) {
	ts := historyWorld(t)
	assert.Equal(t, "deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         upgrade\n\n",
		ts.ok(t, "rollout history deploy/web"), "revision 7 belongs to another owner")
	out := ts.ok(t, "rollout history deploy/web --revision=1")
	assert.True(t, strings.HasPrefix(out, "deployment.apps/web with revision #1\nPod Template:\n  Labels:\tapp=web\n\tpod-template-hash=6d4b8f9c7\n"), out)
	assert.Contains(t, out, "    Image:\tnginx:1.0\n")
	e := ts.fails(t, "rollout history deploy/web --revision=3")
	assert.Equal(t, "rollout history deploy/web: unable to find the specified revision", e.Msg)
	assert.Equal(t, "deployment.apps/fresh \nNo rollout history found.\n",
		newTestSession(t, "create deploy fresh --replicas=1 -l app=fresh").ok(t, "rollout history deploy/fresh"))
}

func TestRolloutUndoAsKubectlDoesIt(t *testing.T) {
	ts := historyWorld(t)
	d := ts.deploy(t, "web")
	revisionAnnotated := d.DeepCopy()
	revisionAnnotated.Metadata.Annotations[printers.RevisionAnnotation] = "2"
	revisionAnnotated.Metadata.ResourceVersion = ""
	_, err := ts.World().Store.UpdateStatus(revisionAnnotated)
	require.NoError(t, err, "the controller writes the Deployment's revision through the status")
	generation := ts.deploy(t, "web").Metadata.Generation

	assert.Equal(t, "deployment.apps/web rolled back\n", ts.ok(t, "rollout undo deploy/web"))
	d = ts.deploy(t, "web")
	assert.Equal(t, "nginx:1.0", d.Spec.Template.Spec.Containers[0].Image, "revision 1's template")
	assert.Equal(t, map[string]string{"app": "web"}, d.Spec.Template.Metadata.Labels, "without the hash label")
	assert.Equal(t, map[string]string{printers.RevisionAnnotation: "2", "note": "first"}, d.Metadata.Annotations,
		"the Deployment keeps its revision, and takes the ReplicaSet's other annotations in place of its own")
	assert.Equal(t, generation+1, d.Metadata.Generation)

	before := ts.kubectlRequests("deployments")
	assert.Equal(t, "deployment.apps/web skipped rollback (current template already matches revision 1)\n",
		ts.ok(t, "rollout undo deploy/web --to-revision=1"))
	assert.Equal(t, before, ts.kubectlRequests("deployments"), "a skipped rollback writes nothing")

	assert.Equal(t, "deployment.apps/web rolled back\n", ts.ok(t, "rollout undo deploy/web --to-revision=2"))
	assert.Equal(t, "nginx:2.0", ts.deploy(t, "web").Spec.Template.Spec.Containers[0].Image)

	for _, tc := range []struct{ line, msg string }{
		{"rollout undo deploy/web --to-revision=5", "rollout undo deploy/web: unable to find specified revision 5 in history"},
		{"rollout undo deploy/web --to-revision=7", "rollout undo deploy/web: unable to find specified revision 7 in history"},
		{"rollout undo deploy/nope", `rollout undo deploy/nope: deployments.apps "nope" not found`},
	} {
		e := ts.fails(t, tc.line)
		assert.Equal(t, tc.msg, e.Msg, tc.line)
		assert.False(t, e.applied)
	}

	// The revision is looked for before the pause is: kubectl's order.
	ts.ok(t, "rollout pause deploy/web")
	e := ts.fails(t, "rollout undo deploy/web --to-revision=5")
	assert.Equal(t, "rollout undo deploy/web: unable to find specified revision 5 in history", e.Msg)
	e = ts.fails(t, "rollout undo deploy/web")
	assert.Equal(t, "rollout undo deploy/web: you cannot rollback a paused deployment; resume it first with "+
		"'kubectl rollout resume deployment/web' and try again", e.Msg)

	e = newTestSession(t, "create deploy fresh --replicas=1 -l app=fresh").fails(t, "rollout undo deploy/fresh")
	assert.Equal(t, `rollout undo deploy/fresh: no rollout history found for deployment "fresh"`, e.Msg)
}

func TestUndoTargetSkipsUnparsableRevisions(t *testing.T) {
	ts := historyWorld(t)
	d := ts.deploy(t, "web")
	ts.ownedRS(t, d, "0b0b0b0b0", "nginx:9.9", "nine", 0, nil)
	rs, msg := undoTarget(d, replicaSets(ts.World(), "default"), 0)
	require.Empty(t, msg)
	assert.Equal(t, "web-6d4b8f9c7", rs.Metadata.Name, "the newest but one of revisions 1 and 2")
}

func TestExpectReplicaSetsCountsBySelectorOwnerAndRevision(t *testing.T) {
	ts := historyWorld(t)
	ts.ok(t, "expect rs -l app=web count=3")
	ts.ok(t, "expect rs -l app=web count=2 owner=deploy/web")
	ts.ok(t, "expect rs -l app=web count=1 owner=deploy/web revision=2 replicas=0 ready=0 available=0")
	ts.ok(t, "expect rs -l app=web count=0 owner=none")
	ts.ok(t, "expect rs web-7b9c5d6f8 revision=2 owner=deploy/web")
	ts.ok(t, "expect rs/web-6d4b8f9c7 metadata.annotations.note=first")
	// The Deployment's own revision annotation is the controller's to write.
	ts.ok(t, "expect deploy/web revision=0")
	e := ts.fails(t, "expect rs -l app=web count=1 owner=deploy/web revision>2")
	// The ReplicaSets were written to the store directly, not created through
	// the API server, so they come in the order of their creation time and
	// name.
	assert.Equal(t, "expect rs -l app=web count=1 owner=deploy/web revision>2: found 0; 3 more ReplicaSets match -l app=web "+
		"but not the filters (web-5f5f5f5f5 revision 7, replicas 0, ready 0, available 0, deploy/other, "+
		"web-6d4b8f9c7 revision 1, replicas 0, ready 0, available 0, deploy/web, "+
		"web-7b9c5d6f8 revision 2, replicas 0, ready 0, available 0, deploy/web)", e.Msg)
}

// TestExpectDeploymentsCountsBySelector: expect deploy -l counts the
// Deployments a selector matches that pass every filter, so a script can
// say that one is gone, or still there while a foreground deletion holds
// it; expect deploy NAME is the one-object form.
func TestExpectDeploymentsCountsBySelector(t *testing.T) {
	ts := newTestSession(t, "create deploy web --replicas=2 --selector=app=web", "create deploy api --replicas=1 --selector=app=api --paused", "stabilize")
	ts.ok(t, "expect deploy count=2")
	ts.ok(t, "expect deploy -l app=web count=1 status.availableReplicas=2")
	ts.ok(t, "expect deployments count=1 spec.paused=true")
	ts.ok(t, "expect deploy web spec.replicas=2")
	e := ts.fails(t, "expect deploy -l app=web count=0")
	assert.Equal(t, "expect deploy -l app=web count=0: found 1 (web replicas 2, updated 2, available 2)", e.Msg)

	ts.ok(t, "delete deploy/web --cascade=foreground")
	ts.ok(t, "advance 100ms")
	ts.ok(t, `expect deploy -l app=web count=1 metadata.deletionTimestamp!=""`)
	e = ts.fails(t, `expect deploy -l app=web count=1 metadata.deletionTimestamp=""`)
	assert.Equal(t, `expect deploy -l app=web count=1 metadata.deletionTimestamp="": found 0; 1 more Deployment matches -l app=web `+
		`but not the filters (web replicas 2, updated 0, available 0, terminating)`, e.Msg)
	ts.ok(t, "stabilize")
	ts.ok(t, "expect deploy -l app=web count=0")
	ts.ok(t, "expect deploy count=1")
}

func TestExpectDeploymentFields(t *testing.T) {
	ts := newTestSession(t, "create deploy web --replicas=4 --selector=app=web --max-surge=1 --min-ready-seconds=2 --paused")
	ts.writeStatus(t, "web", func(s *api.DeploymentStatus) {
		s.ObservedGeneration, s.Replicas, s.UpdatedReplicas, s.ReadyReplicas, s.AvailableReplicas, s.UnavailableReplicas = 1, 4, 3, 3, 2, 2
		s.CollisionCount = ptr(int32(1))
		s.Conditions = []api.DeploymentCondition{{Type: api.DeploymentAvailable, Status: api.ConditionFalse,
			Reason: "MinimumReplicasUnavailable", Message: "Deployment does not have minimum availability."}}
	})
	ts.ok(t, "expect deploy/web spec.replicas=4 spec.minReadySeconds=2 spec.paused=true spec.strategy.type=RollingUpdate "+
		"spec.strategy.rollingUpdate.maxSurge=1 spec.strategy.rollingUpdate.maxUnavailable=25% spec.revisionHistoryLimit=10 "+
		"spec.progressDeadlineSeconds=600 spec.template.metadata.labels.app=web metadata.generation=1")
	ts.ok(t, "expect deploy/web status.observedGeneration=1 status.replicas=4 status.updatedReplicas=3 status.readyReplicas=3 "+
		"status.availableReplicas=2 status.unavailableReplicas=2 status.collisionCount=1")
	ts.ok(t, "expect condition deploy/web Available=False reason=MinimumReplicasUnavailable")
	e := ts.fails(t, "expect deploy/web status.updatedReplicas=4 spec.paused=false")
	assert.Equal(t, "expect deploy/web status.updatedReplicas=4 spec.paused=false: status.updatedReplicas is 3, spec.paused is true", e.Msg)
	e = ts.fails(t, "expect condition deploy/web Available=True")
	assert.Equal(t, "expect condition deploy/web Available=True: Available is False, reason MinimumReplicasUnavailable: "+
		"Deployment does not have minimum availability.", e.Msg)
}

func TestExpectPodsByImage(t *testing.T) {
	ts := newTestSession(t, "create rs web --replicas=2 --selector=app=web", "stabilize")
	ts.ok(t, "expect pods -l app=web count=2 image=nginx")
	ts.ok(t, "expect pods -l app=web count=0 image!=nginx")
	e := ts.fails(t, "expect pods -l app=web count=2 image=nginx:2.0")
	assert.True(t, strings.HasPrefix(e.Msg, "expect pods -l app=web count=2 image=nginx:2.0: found 0; 2 more pods match -l app=web but not the filters"), e.Msg)
}

func TestDescribeAndGetDeployment(t *testing.T) {
	ts := historyWorld(t)
	out := ts.ok(t, "describe deploy/web")
	assert.Contains(t, out, "Replicas:               4 desired | 0 updated | 0 total | 0 available | 0 unavailable\n")
	assert.Contains(t, out, "OldReplicaSets:    web-6d4b8f9c7 (0/0 replicas created)\n")
	assert.Contains(t, out, "NewReplicaSet:     web-7b9c5d6f8 (0/0 replicas created)\n")
	assert.NotContains(t, out, "web-5f5f5f5f5", "not controlled by deploy/web")
	assert.Equal(t, "NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    0/4     0            0           0s\n", ts.ok(t, "get deploy"))
	out = ts.ok(t, "get deploy web -o yaml")
	assert.True(t, strings.HasPrefix(out, "apiVersion: apps/v1\nkind: Deployment\n"), out)
}

func TestDeleteAndLabelDeployment(t *testing.T) {
	ts := deployWorld(t)
	assert.Equal(t, "deployment.apps/web labeled\n", ts.ok(t, "label deploy/web tier=front"))
	assert.Equal(t, "deployment.apps/web annotated\n", ts.ok(t, "annotate deploy web kubernetes.io/change-cause=why"))
	ts.ok(t, "expect deploy/web metadata.labels.tier=front metadata.annotations.kubernetes.io/change-cause=why")
	assert.Equal(t, "deployment.apps \"web\" deleted\n", ts.ok(t, "delete deploy/web"))
	var opts apistore.DeleteOptions
	for _, r := range ts.World().Server.Requests() {
		if r.From == "kubectl" && r.Verb == apistore.VerbDelete && r.Resource == "deployments" {
			opts.PropagationPolicy = apistore.DeletePropagationBackground
		}
	}
	assert.Equal(t, apistore.DeletePropagationBackground, opts.PropagationPolicy)
	ts.ok(t, "stabilize")
	assert.Empty(t, ts.World().Store.Objects(api.KindDeployment, "default"))
}

func TestCompleteDeploymentCommands(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"ro", []string{"rollout"}},
		{"rollout ", []string{"status", "history", "undo", "pause", "resume", "restart"}},
		{"rollout undo ", []string{"deploy/"}},
		{"rollout undo deploy/web --", []string{"--to-revision=", "--namespace="}},
		{"set ", []string{"image", "ready"}},
		{"set image deploy/web ", []string{"app="}},
		{"create d", []string{"deploy"}},
		{"create deploy web --strategy=", []string{"--strategy=RollingUpdate", "--strategy=Recreate"}},
		{"create deploy web --max-", []string{"--max-surge=", "--max-unavailable="}},
		{"expect rs ", []string{"count=", "metadata.name=", "metadata.namespace=", "metadata.labels.", "metadata.annotations.",
			"metadata.generation=", "metadata.deletionTimestamp=", "owner=", "revision=", "replicas=", "ready=", "available=",
			"spec.replicas=", "spec.minReadySeconds=", "spec.template.metadata.labels.", "spec.template.metadata.annotations.",
			"spec.template.spec.containers[0].image=", "status.replicas=", "status.fullyLabeledReplicas=", "status.readyReplicas=",
			"status.availableReplicas=", "status.observedGeneration="}},
		{"expect rs -l app=web count=1 re", []string{"revision=", "replicas=", "ready="}},
		{"expect rs -l app=web owner=", []string{"owner=none", "owner=deploy/"}},
		{"expect pods owner=", []string{"owner=none", "owner=rs/", "owner=rc/"}},
		{"expect pods -l app=web im", []string{"image="}},
		{"expect deploy/web spec.p", []string{"spec.paused=", "spec.progressDeadlineSeconds="}},
		{"expect deploy/web spec.strategy.type=", []string{"spec.strategy.type=RollingUpdate", "spec.strategy.type=Recreate"}},
		{"expect condition deploy/web ", nil},
	} {
		assert.Equal(t, tc.want, Complete(tc.line, len(tc.line)), "%q", tc.line)
	}

	ts := historyWorld(t)
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"rollout undo deploy/", []string{"deploy/web"}},
		{"rollout status deploy ", []string{"web"}},
		{"expect rs -l app=web owner=deploy/", []string{"owner=deploy/web"}},
		{"expect rs web-", []string{"web-5f5f5f5f5", "web-6d4b8f9c7", "web-7b9c5d6f8"}},
		{"expect rs web-7b9c5d6f8 status.re", []string{"status.replicas=", "status.readyReplicas="}},
		{"expect events object=deploy/", []string{"object=deploy/web"}},
		{"describe deploy/w", []string{"deploy/web"}},
	} {
		assert.Equal(t, tc.want, ts.Complete(tc.line, len(tc.line)).Candidates, "%q", tc.line)
	}
}
