package printers

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// The Deployment fixtures are deploy/web halfway through the rollout that
// `set image deploy/web app=nginx:2.0` started four minutes after
// `create deploy web --replicas=4 --selector=app=web`: revision 1's
// ReplicaSet is down to 2, revision 2's is up to 3, of which 2 are
// available, within the 25% surge and unavailability budget.

const webDeployUID = "5a7d1e3c-0000-4000-8000-00000000d001"

func intOrString(s string) *api.IntOrString {
	v := api.ParseIntOrString(s)
	return &v
}

// freshDeployment is deploy/web as the store holds it right after create:
// defaulted, generation 1, no status.
func freshDeployment() *api.Deployment {
	return &api.Deployment{
		Metadata: api.ObjectMeta{
			Name: "web", Namespace: "default", UID: webDeployUID, ResourceVersion: "12", Generation: 1,
			CreationTimestamp: at(0), Labels: map[string]string{"app": "web"},
		},
		Spec: api.DeploymentSpec{
			Replicas: ptr(int32(4)),
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{
					Containers:                    []api.Container{{Name: "app", Image: "nginx:1.0"}},
					RestartPolicy:                 api.RestartAlways,
					TerminationGracePeriodSeconds: ptr(int64(30)),
				},
			},
			Strategy: api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategy,
				RollingUpdate: &api.RollingUpdateDeployment{MaxUnavailable: intOrString("25%"), MaxSurge: intOrString("25%")}},
			RevisionHistoryLimit:    ptr(int32(10)),
			ProgressDeadlineSeconds: ptr(int32(600)),
		},
	}
}

// rollingDeployment is deploy/web mid-rollout to nginx:2.0.
func rollingDeployment() *api.Deployment {
	d := freshDeployment()
	d.Metadata.Generation = 2
	d.Metadata.ResourceVersion = "97"
	d.Metadata.Annotations = map[string]string{RevisionAnnotation: "2"}
	d.Spec.Template.Spec.Containers[0].Image = "nginx:2.0"
	d.Status = api.DeploymentStatus{
		ObservedGeneration: 2, Replicas: 5, UpdatedReplicas: 3, ReadyReplicas: 4, AvailableReplicas: 4,
		Conditions: []api.DeploymentCondition{
			{Type: api.DeploymentAvailable, Status: api.ConditionTrue, LastUpdateTime: at(10 * time.Second),
				LastTransitionTime: at(10 * time.Second), Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability."},
			{Type: api.DeploymentProgressing, Status: api.ConditionTrue, LastUpdateTime: at(4*time.Minute + 6*time.Second),
				LastTransitionTime: at(2 * time.Second), Reason: "ReplicaSetUpdated", Message: `ReplicaSet "web-7b9c5d6f8" is progressing.`},
		},
	}
	return d
}

// deploymentRS is a ReplicaSet deploy/web made for a template with image,
// with the hash label and the revision annotation the controller gives it.
func deploymentRS(name, hash, image, revision string, created time.Duration, spec, current, ready int32) *api.ReplicaSet {
	lbls := map[string]string{"app": "web", PodTemplateHashLabel: hash}
	return &api.ReplicaSet{
		Metadata: api.ObjectMeta{
			Name: name, Namespace: "default", UID: "uid-" + name, ResourceVersion: "90", Generation: 1,
			CreationTimestamp: at(created), Labels: lbls,
			Annotations: map[string]string{RevisionAnnotation: revision,
				"deployment.kubernetes.io/desired-replicas": "4", "deployment.kubernetes.io/max-replicas": "5"},
			OwnerReferences: []api.OwnerReference{api.NewControllerRef(&api.ObjectMeta{Name: "web", UID: webDeployUID}, "apps/v1", "Deployment")},
		},
		Spec: api.ReplicaSetSpec{
			Replicas: ptr(spec),
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web", PodTemplateHashLabel: hash}},
			Template: api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: map[string]string{"app": "web", PodTemplateHashLabel: hash}},
				Spec: api.PodSpec{
					Containers:                    []api.Container{{Name: "app", Image: image}},
					RestartPolicy:                 api.RestartAlways,
					TerminationGracePeriodSeconds: ptr(int64(30)),
				},
			},
		},
		Status: api.ReplicaSetStatus{Replicas: current, FullyLabeledReplicas: current, ReadyReplicas: ready,
			AvailableReplicas: ready, ObservedGeneration: 1},
	}
}

func oldWebRS() *api.ReplicaSet {
	return deploymentRS("web-6d4b8f9c7", "6d4b8f9c7", "nginx:1.0", "1", 0, 2, 2, 2)
}

func newWebRS() *api.ReplicaSet {
	return deploymentRS("web-7b9c5d6f8", "7b9c5d6f8", "nginx:2.0", "2", 4*time.Minute, 3, 3, 2)
}

func deploymentEvent(name, message string, at0 time.Duration) *api.Event {
	return &api.Event{
		Metadata: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, ResourceVersion: "60",
			CreationTimestamp: at(at0)},
		InvolvedObject: api.ObjectReference{Kind: "Deployment", Namespace: "default", Name: "web", UID: webDeployUID,
			APIVersion: "apps/v1", ResourceVersion: "13"},
		Reason: "ScalingReplicaSet", Message: message, Source: api.EventSource{Component: "deployment-controller"},
		FirstTimestamp: at(at0), LastTimestamp: at(at0), Count: 1, Type: api.EventNormal,
	}
}

func deploymentEvents() []*api.Event {
	return []*api.Event{
		deploymentEvent("web.181a0000000000a1", "Scaled up replica set web-6d4b8f9c7 to 4", 0),
		deploymentEvent("web.181a0000000000a2", "Scaled up replica set web-7b9c5d6f8 to 1", 4*time.Minute),
		deploymentEvent("web.181a0000000000a3", "Scaled down replica set web-6d4b8f9c7 to 3 from 4", 4*time.Minute),
		deploymentEvent("web.181a0000000000a4", "Scaled up replica set web-7b9c5d6f8 to 2 from 1", 4*time.Minute+3*time.Second),
		deploymentEvent("web.181a0000000000a5", "Scaled down replica set web-6d4b8f9c7 to 2 from 3", 4*time.Minute+6*time.Second),
		deploymentEvent("web.181a0000000000a6", "Scaled up replica set web-7b9c5d6f8 to 3 from 2", 4*time.Minute+6*time.Second),
	}
}

func TestDescribeDeploymentGolden(t *testing.T) {
	// A ReplicaSet with web's labels that another owner controls, and one
	// in another namespace: kubectl lists neither.
	stranger := deploymentRS("web-stranger", "5f5f5f5f5", "nginx:0.9", "7", time.Minute, 1, 1, 1)
	stranger.Metadata.OwnerReferences[0].UID = "uid-someone-else"
	elsewhere := oldWebRS()
	elsewhere.Metadata.Namespace = "staging"
	rss := []*api.ReplicaSet{newWebRS(), stranger, oldWebRS(), elsewhere}

	recreate := freshDeployment()
	recreate.Metadata.Name = "batch"
	recreate.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategy}
	recreate.Spec.MinReadySeconds = 5
	recreate.Spec.Paused = true
	recreate.Spec.Template.Metadata.Annotations = map[string]string{"kubectl.kubernetes.io/restartedAt": "2025-01-01T00:04:00Z"}

	for _, tc := range []struct {
		name string
		obj  *api.Deployment
		rel  Related
	}{
		{"deploy-fresh", freshDeployment(), Related{}},
		{"deploy-rolling", rollingDeployment(), Related{Events: deploymentEvents(), ReplicaSets: rss}},
		{"deploy-recreate-paused", recreate, Related{ReplicaSets: rss}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkGolden(t, "describe/"+tc.name+".txt", Describe(tc.obj, tc.rel, now))
		})
	}
}

func TestDeploymentReplicaSetsFollowsKubectl(t *testing.T) {
	d := rollingDeployment()
	stranger := deploymentRS("web-stranger", "5f5f5f5f5", "nginx:2.0", "7", 0, 1, 1, 1)
	stranger.Metadata.OwnerReferences[0].UID = "uid-someone-else"
	unlabelled := oldWebRS()
	unlabelled.Metadata.Name = "web-nolabels"
	unlabelled.Metadata.Labels = map[string]string{"app": "db"}
	orphan := oldWebRS()
	orphan.Metadata.Name = "web-orphan"
	orphan.Metadata.OwnerReferences = nil
	// Two ReplicaSets with the new template: the older is the new one.
	twin := newWebRS()
	twin.Metadata.Name = "web-twin"
	twin.Metadata.CreationTimestamp = at(5 * time.Minute)
	// Two created in the same second come by name.
	sameSecond := oldWebRS()
	sameSecond.Metadata.Name = "web-0aaaaaaaa"

	old, newRS := DeploymentReplicaSets(d, []*api.ReplicaSet{twin, newWebRS(), stranger, unlabelled, orphan, oldWebRS(), sameSecond})
	require.NotNil(t, newRS)
	assert.Equal(t, "web-7b9c5d6f8", newRS.Metadata.Name)
	var names []string
	for _, rs := range old {
		names = append(names, rs.Metadata.Name)
	}
	assert.Equal(t, []string{"web-0aaaaaaaa", "web-6d4b8f9c7", "web-twin"}, names)

	d.Spec.Template.Spec.Containers[0].Image = "nginx:3.0"
	old, newRS = DeploymentReplicaSets(d, []*api.ReplicaSet{newWebRS(), oldWebRS()})
	assert.Nil(t, newRS, "no ReplicaSet has the template yet")
	assert.Len(t, old, 2)
}

func TestEqualIgnoreHash(t *testing.T) {
	d := freshDeployment()
	rs := oldWebRS()
	assert.True(t, EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template), "only the hash label differs")
	assert.False(t, EqualIgnoreHash(&newWebRS().Spec.Template, &d.Spec.Template), "the image differs")

	annotated := d.Spec.Template.DeepCopy()
	annotated.Metadata.Annotations = map[string]string{"kubectl.kubernetes.io/restartedAt": "2025-01-01T00:00:00Z"}
	assert.False(t, EqualIgnoreHash(annotated, &d.Spec.Template), "a restart annotation is a new template")
	annotated.Metadata.Annotations = map[string]string{}
	assert.True(t, EqualIgnoreHash(annotated, &d.Spec.Template), "an empty map equals a missing one")

	relabelled := d.Spec.Template.DeepCopy()
	relabelled.Metadata.Labels["tier"] = "front"
	assert.False(t, EqualIgnoreHash(relabelled, &d.Spec.Template))
	assert.Equal(t, "6d4b8f9c7", rs.Spec.Template.Metadata.Labels[PodTemplateHashLabel], "the inputs are not changed")
}

func TestRevisionReadsTheAnnotation(t *testing.T) {
	m := &api.ObjectMeta{}
	v, err := Revision(m)
	require.NoError(t, err)
	assert.Zero(t, v, "no annotation is revision 0")
	m.Annotations = map[string]string{RevisionAnnotation: "12"}
	v, err = Revision(m)
	require.NoError(t, err)
	assert.Equal(t, int64(12), v)
	m.Annotations[RevisionAnnotation] = "twelve"
	_, err = Revision(m)
	assert.Error(t, err)
}

func TestRolloutStatusSaysWhatKubectlSays(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(d *api.Deployment)
		want   string
		done   bool
	}{
		{"spec not observed", func(d *api.Deployment) { d.Metadata.Generation = 3 },
			"Waiting for deployment spec update to be observed...\n", false},
		{"new replicas missing", func(*api.Deployment) {},
			`Waiting for deployment "web" rollout to finish: 3 out of 4 new replicas have been updated...` + "\n", false},
		{"old replicas left", func(d *api.Deployment) { d.Status.UpdatedReplicas = 4 },
			`Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...` + "\n", false},
		{"updated not available", func(d *api.Deployment) {
			d.Status.UpdatedReplicas, d.Status.Replicas, d.Status.AvailableReplicas = 4, 4, 3
		}, `Waiting for deployment "web" rollout to finish: 3 of 4 updated replicas are available...` + "\n", false},
		{"done", func(d *api.Deployment) {
			d.Status.UpdatedReplicas, d.Status.Replicas, d.Status.AvailableReplicas = 4, 4, 4
		}, `deployment "web" successfully rolled out` + "\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := rollingDeployment()
			tc.change(d)
			msg, done, err := RolloutStatus(d)
			require.NoError(t, err)
			assert.Equal(t, tc.want, msg)
			assert.Equal(t, tc.done, done)
		})
	}

	stuck := rollingDeployment()
	stuck.Status.Conditions[1].Status = api.ConditionFalse
	stuck.Status.Conditions[1].Reason = "ProgressDeadlineExceeded"
	_, _, err := RolloutStatus(stuck)
	assert.EqualError(t, err, `deployment "web" exceeded its progress deadline`)
	stuck.Metadata.Generation = 3
	msg, _, err := RolloutStatus(stuck)
	require.NoError(t, err, "kubectl looks at the deadline only once the spec is observed")
	assert.Equal(t, "Waiting for deployment spec update to be observed...\n", msg)
}

func TestRolloutHistoryGolden(t *testing.T) {
	d := rollingDeployment()
	old, cur := oldWebRS(), newWebRS()
	cur.Metadata.Annotations[ChangeCauseAnnotation] = "kubectl set image deploy/web app=nginx:2.0"
	unparsable := deploymentRS("web-bad", "0b0b0b0b0", "nginx:0.1", "one", 0, 0, 0, 0)
	rss := []*api.ReplicaSet{cur, unparsable, old}

	out, err := RolloutHistory(d, rss, 0)
	require.NoError(t, err)
	checkGolden(t, "history/deploy.txt", out)
	out, err = RolloutHistory(d, rss, 2)
	require.NoError(t, err)
	checkGolden(t, "history/deploy-revision-2.txt", out)
	assert.True(t, strings.HasPrefix(out, "deployment.apps/web with revision #2\nPod Template:\n  Labels:\tapp=web\n\tpod-template-hash=7b9c5d6f8\n"),
		"the template is written without a tabwriter, as kubectl writes it")

	_, err = RolloutHistory(d, rss, 3)
	assert.EqualError(t, err, "unable to find the specified revision")

	out, err = RolloutHistory(freshDeployment(), nil, 0)
	require.NoError(t, err)
	assert.Equal(t, "deployment.apps/web \nNo rollout history found.\n", out)
}

func TestDeploymentManifestGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		obj  api.Object
	}{
		{"deploy", rollingDeployment()},
		{"deploy-rs", newWebRS()},
	} {
		j, err := JSON(tc.obj)
		require.NoError(t, err)
		checkGolden(t, "manifest/"+tc.name+".json", string(j))
		y, err := YAML(tc.obj)
		require.NoError(t, err)
		checkGolden(t, "manifest/"+tc.name+".yaml", string(y))
	}
}

func TestGetDeploymentsGolden(t *testing.T) {
	other := freshDeployment()
	other.Metadata.Name = "api"
	other.Metadata.CreationTimestamp = at(4*time.Minute + 58*time.Second)
	other.Spec.Selector = &api.LabelSelector{
		MatchLabels:      map[string]string{"app": "api"},
		MatchExpressions: []api.LabelSelectorRequirement{{Key: "tier", Operator: api.LabelSelectorOpIn, Values: []string{"back", "front"}}},
	}
	objs := []api.Object{rollingDeployment(), other}
	checkGolden(t, "get/deploy.txt", Table(api.KindDeployment, "default", objs, now, false))
	checkGolden(t, "get/deploy-wide.txt", Table(api.KindDeployment, "default", objs, now, true))
}
