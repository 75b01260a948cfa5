package script

import (
	"maps"

	"github.com/reconcilelab/rlab/core/api"
)

// This file builds the objects the create commands send: one method per
// command, used by the command's run and by whatever else must send or
// print the same object (core/export writes them as manifests for kubectl
// apply). Each object is what a client sends: no status, nothing the API
// server owns (uid, resourceVersion, generation, timestamps), and the
// defaults left to the API.

// Object returns the ReplicaSet the command creates. It fails only on a
// selector the parser let through but the structured form cannot hold,
// which the parser's own checks rule out.
func (c *CreateRS) Object() (*api.ReplicaSet, error) {
	sel, err := LabelSelectorOf(c.SelectorText)
	if err != nil {
		return nil, err
	}
	replicas := c.Replicas
	return &api.ReplicaSet{
		Metadata: api.ObjectMeta{Namespace: c.Namespace, Name: c.Name, Labels: maps.Clone(c.TemplateLabels)},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas, MinReadySeconds: c.MinReadySeconds, Selector: sel,
			Template: podTemplate(c.TemplateLabels),
		},
	}, nil
}

// Object returns the ReplicationController the command creates.
func (c *CreateRC) Object() *api.ReplicationController {
	replicas, template := c.Replicas, podTemplate(c.TemplateLabels)
	return &api.ReplicationController{
		Metadata: api.ObjectMeta{Namespace: c.Namespace, Name: c.Name, Labels: maps.Clone(c.TemplateLabels)},
		Spec: api.ReplicationControllerSpec{
			Replicas: &replicas, MinReadySeconds: c.MinReadySeconds, Selector: maps.Clone(c.Selector),
			Template: &template,
		},
	}
}

// Object returns the Deployment the command creates, with the fields the
// flags give. The strategy's rollingUpdate is there only when --max-surge
// or --max-unavailable is given, so that a Recreate Deployment without them
// is valid and the API fills in the other bound.
func (c *CreateDeploy) Object() (*api.Deployment, error) {
	sel, err := LabelSelectorOf(c.SelectorText)
	if err != nil {
		return nil, err
	}
	replicas := c.Replicas
	d := &api.Deployment{
		Metadata: api.ObjectMeta{Namespace: c.Namespace, Name: c.Name, Labels: maps.Clone(c.TemplateLabels)},
		Spec: api.DeploymentSpec{
			Replicas: &replicas, Selector: sel, MinReadySeconds: c.MinReadySeconds, Paused: c.Paused,
			Template: api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: maps.Clone(c.TemplateLabels)},
				Spec:     api.PodSpec{Containers: []api.Container{{Name: deployContainer, Image: c.Image}}},
			},
			Strategy:                api.DeploymentStrategy{Type: c.Strategy},
			RevisionHistoryLimit:    copyInt32(c.RevisionHistoryLimit),
			ProgressDeadlineSeconds: copyInt32(c.ProgressDeadlineSeconds),
		},
	}
	if c.MaxSurge != "" || c.MaxUnavailable != "" {
		ru := &api.RollingUpdateDeployment{}
		if c.MaxSurge != "" {
			v := api.ParseIntOrString(c.MaxSurge)
			ru.MaxSurge = &v
		}
		if c.MaxUnavailable != "" {
			v := api.ParseIntOrString(c.MaxUnavailable)
			ru.MaxUnavailable = &v
		}
		d.Spec.Strategy.RollingUpdate = ru
	}
	return d, nil
}

// Object returns the bare pod the command creates, bound to --node if it
// names one. Its status (--phase, --ready) is not part of it: the API
// server ignores a status sent with a create, so run writes it with a
// second request, as a kubelet would report it.
func (c *CreatePod) Object() *api.Pod {
	return &api.Pod{
		Metadata: api.ObjectMeta{Namespace: c.Namespace, Name: c.Name, Labels: maps.Clone(c.Labels)},
		Spec:     api.PodSpec{Containers: podContainers(), NodeName: c.Node},
	}
}
