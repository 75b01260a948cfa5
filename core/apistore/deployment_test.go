package apistore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

func newDeployment(ns, name string, replicas int32, selector map[string]string) *api.Deployment {
	return &api.Deployment{
		Metadata: api.ObjectMeta{Namespace: ns, Name: name},
		Spec: api.DeploymentSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: selector},
			Template: api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: selector},
				Spec:     api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1.0"}}},
			},
		},
	}
}

func TestADeploymentIsDefaultedAsAppsV1Does(t *testing.T) {
	h := newHarness(t)
	d := newDeployment("default", "web", 3, map[string]string{"app": "web"})
	d.Spec.Replicas = nil
	got := h.create(d).(*api.Deployment)

	assert.Equal(t, int32(1), *got.Spec.Replicas)
	assert.Equal(t, api.RollingUpdateDeploymentStrategy, got.Spec.Strategy.Type)
	require.NotNil(t, got.Spec.Strategy.RollingUpdate)
	assert.Equal(t, api.FromString("25%"), *got.Spec.Strategy.RollingUpdate.MaxSurge)
	assert.Equal(t, api.FromString("25%"), *got.Spec.Strategy.RollingUpdate.MaxUnavailable)
	assert.Equal(t, int32(10), *got.Spec.RevisionHistoryLimit)
	assert.Equal(t, int32(600), *got.Spec.ProgressDeadlineSeconds)
	assert.Equal(t, api.RestartAlways, got.Spec.Template.Spec.RestartPolicy)
	assert.Equal(t, int64(1), got.Metadata.Generation)

	recreate := newDeployment("default", "batch", 2, map[string]string{"app": "batch"})
	recreate.Spec.Strategy.Type = api.RecreateDeploymentStrategy
	got = h.create(recreate).(*api.Deployment)
	assert.Nil(t, got.Spec.Strategy.RollingUpdate, "a Recreate Deployment gets no rollingUpdate")
}

func TestDeploymentValidationNamesTheField(t *testing.T) {
	web := map[string]string{"app": "web"}
	rolling := func(surge, unavailable api.IntOrString) func(*api.Deployment) {
		return func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable}
		}
	}
	tests := []struct {
		name    string
		change  func(*api.Deployment)
		message string
		causes  []string
	}{
		{
			name:   "maxSurge and maxUnavailable both 0",
			change: rolling(api.FromInt(0), api.FromString("0%")),
			message: `Deployment.apps "web" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: ` +
				`intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: may not be 0 when ` + "`maxSurge`" + ` is 0`,
			causes: []string{"spec.strategy.rollingUpdate.maxUnavailable"},
		},
		{
			name:   "maxUnavailable over 100%",
			change: rolling(api.FromInt(1), api.FromString("150%")),
			message: `Deployment.apps "web" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: ` +
				`intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%`,
			causes: []string{"spec.strategy.rollingUpdate.maxUnavailable"},
		},
		{
			name:   "a percentage must be digits and a percent sign",
			change: rolling(api.FromString("oops"), api.FromInt(1)),
			message: `Deployment.apps "web" is invalid: spec.strategy.rollingUpdate.maxSurge: Invalid value: ` +
				`intstr.IntOrString{Type:1, IntVal:0, StrVal:"oops"}: ` + percentErrMsg,
			causes: []string{"spec.strategy.rollingUpdate.maxSurge"},
		},
		{
			name:    "a negative maxSurge",
			change:  rolling(api.FromInt(-1), api.FromInt(1)),
			message: `Deployment.apps "web" is invalid: spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0`,
			causes:  []string{"spec.strategy.rollingUpdate.maxSurge"},
		},
		{
			name: "the selector must match the template",
			change: func(d *api.Deployment) {
				d.Spec.Template.Metadata.Labels = map[string]string{"app": "db"}
			},
			message: `Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: ` +
				`map[string]string{"app":"db"}: ` + "`selector` does not match template `labels`",
			causes: []string{"spec.template.metadata.labels"},
		},
		{
			name: "Recreate takes no rollingUpdate",
			change: func(d *api.Deployment) {
				d.Spec.Strategy.Type = api.RecreateDeploymentStrategy
				d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{}
			},
			message: `Deployment.apps "web" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy ` + "`type`" + ` is 'Recreate'`,
			causes:  []string{"spec.strategy.rollingUpdate"},
		},
		{
			name:    "an unknown strategy",
			change:  func(d *api.Deployment) { d.Spec.Strategy.Type = "BlueGreen" },
			message: `Deployment.apps "web" is invalid: spec.strategy.type: Unsupported value: "BlueGreen": supported values: "Recreate", "RollingUpdate"`,
			causes:  []string{"spec.strategy.type"},
		},
		{
			name: "the progress deadline must exceed minReadySeconds",
			change: func(d *api.Deployment) {
				d.Spec.MinReadySeconds = 30
				d.Spec.ProgressDeadlineSeconds = ptr(int32(30))
			},
			message: `Deployment.apps "web" is invalid: spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds`,
			causes:  []string{"spec.progressDeadlineSeconds"},
		},
		{
			name:    "a negative revisionHistoryLimit",
			change:  func(d *api.Deployment) { d.Spec.RevisionHistoryLimit = ptr(int32(-1)) },
			message: `Deployment.apps "web" is invalid: spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0`,
			causes:  []string{"spec.revisionHistoryLimit"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			d := newDeployment("default", "web", 3, web)
			tc.change(d)
			_, err := h.s.Create(d)
			se := statusErr(t, err)
			assert.Equal(t, tc.message, se.Error())
			var fields []string
			for _, c := range se.Details.Causes {
				fields = append(fields, c.Field)
			}
			assert.Equal(t, tc.causes, fields)
			h.check()
		})
	}
}

func TestADeploymentsSpecOrAnnotationsBumpItsGeneration(t *testing.T) {
	h := newHarness(t)
	d := h.create(newDeployment("default", "web", 3, map[string]string{"app": "web"})).(*api.Deployment)
	require.Equal(t, int64(1), d.Metadata.Generation)

	update := func(change func(*api.Deployment)) *api.Deployment {
		t.Helper()
		c := d.DeepCopy()
		change(c)
		resp := h.s.Serve(Request{Verb: VerbUpdate, Kind: api.KindDeployment, Object: c})
		require.NoError(t, resp.Err)
		h.check()
		return resp.Object.(*api.Deployment)
	}
	d = update(func(c *api.Deployment) { c.Spec.Template.Spec.Containers[0].Image = "nginx:2.0" })
	assert.Equal(t, int64(2), d.Metadata.Generation, "a new template is new desired state")
	d = update(func(c *api.Deployment) { c.Metadata.Annotations = map[string]string{"team": "a"} })
	assert.Equal(t, int64(3), d.Metadata.Generation, "annotations are copied to ReplicaSets, so they count")
	d = update(func(c *api.Deployment) { c.Metadata.Labels = map[string]string{"tier": "front"} })
	assert.Equal(t, int64(3), d.Metadata.Generation, "labels are not desired state")

	c := d.DeepCopy()
	c.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web", "v": "2"}}
	c.Spec.Template.Metadata.Labels = map[string]string{"app": "web", "v": "2"}
	resp := h.s.Serve(Request{Verb: VerbUpdate, Kind: api.KindDeployment, Object: c})
	se := statusErr(t, resp.Err)
	assert.Contains(t, se.Error(), "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"web\", \"v\":\"2\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable")
}

func TestADeploymentsStatusWriteKeepsItsAnnotationsAndGeneration(t *testing.T) {
	h := newHarness(t)
	d := h.create(newDeployment("default", "web", 3, map[string]string{"app": "web"})).(*api.Deployment)

	c := d.DeepCopy()
	c.Metadata.Annotations = map[string]string{"deployment.kubernetes.io/revision": "1"}
	c.Metadata.Labels = map[string]string{"ignored": "yes"}
	*c.Spec.Replicas = 7
	c.Status.ObservedGeneration = 1
	c.Status.CollisionCount = ptr(int32(2))
	resp := h.s.Serve(Request{Verb: VerbUpdate, Kind: api.KindDeployment, Subresource: SubresourceStatus, Object: c})
	require.NoError(t, resp.Err)
	got := resp.Object.(*api.Deployment)
	assert.Equal(t, "1", got.Metadata.Annotations["deployment.kubernetes.io/revision"],
		"the controller writes the revision annotation through the status subresource")
	assert.Nil(t, got.Metadata.Labels, "labels are reset")
	assert.Equal(t, int32(3), *got.Spec.Replicas, "spec is reset")
	assert.Equal(t, int64(1), got.Metadata.Generation, "a status write does not bump generation")
	assert.Equal(t, int64(1), got.Status.ObservedGeneration)
	h.check()

	c = got.DeepCopy()
	c.Status.CollisionCount = ptr(int32(1))
	resp = h.s.Serve(Request{Verb: VerbUpdate, Kind: api.KindDeployment, Subresource: SubresourceStatus, Object: c})
	se := statusErr(t, resp.Err)
	assert.Contains(t, se.Error(), "status.collisionCount: Invalid value: 1: cannot be decremented")
}
