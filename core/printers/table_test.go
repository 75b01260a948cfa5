package printers

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/reconcilelab/rlab/core/api"
)

func TestGetTablesGolden(t *testing.T) {
	rs := webRS()
	rs.Status.Conditions = []api.ReplicaSetCondition{{Type: api.ReplicaFailure, Status: api.ConditionTrue,
		LastTransitionTime: at(90 * time.Second), Reason: "FailedCreate", Message: "exceeded quota"}}
	scaling := webRS()
	scaling.Metadata.Name = "api"
	scaling.Metadata.CreationTimestamp = at(4*time.Minute + 58*time.Second)
	scaling.Spec.Replicas = ptr(int32(10))
	scaling.Spec.Selector = &api.LabelSelector{
		MatchLabels:      map[string]string{"app": "api"},
		MatchExpressions: []api.LabelSelectorRequirement{{Key: "tier", Operator: api.LabelSelectorOpIn, Values: []string{"back", "front"}}},
	}
	scaling.Spec.Template.Spec.Containers = []api.Container{{Name: "api", Image: "api:2"}, {Name: "sidecar", Image: "envoy:1.31"}}
	scaling.Status = api.ReplicaSetStatus{Replicas: 4}

	notReady := node("node-3", false)
	notReady.Status.Conditions[0].Status = api.ConditionFalse
	notReady.Metadata.Labels["node-role.kubernetes.io/control-plane"] = ""
	notReady.Metadata.CreationTimestamp = at(-50 * time.Hour)
	unknown := node("node-4", true)
	unknown.Status.Conditions = nil
	unknown.Metadata.Labels["kubernetes.io/role"] = "worker"
	unknown.Metadata.Labels["node-role.kubernetes.io/worker"] = ""

	rc := webRC()
	rcNoTemplate := webRC()
	rcNoTemplate.Metadata.Name = "bare"
	rcNoTemplate.Spec.Template = nil
	rcNoTemplate.Spec.Selector = nil

	for _, tc := range []struct {
		name string
		kind api.Kind
		objs []api.Object
	}{
		{"pods", api.KindPod, goldenPods()},
		{"rs", api.KindReplicaSet, []api.Object{rs, scaling}},
		{"rc", api.KindReplicationController, []api.Object{rc, rcNoTemplate}},
		{"nodes", api.KindNode, []api.Object{node("node-2", true), node("node-1", false), notReady, unknown}},
		{"events", api.KindEvent, objects(goldenEvents())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkGolden(t, "get/"+tc.name+".txt", Table(tc.kind, "default", tc.objs, now, false))
			checkGolden(t, "get/"+tc.name+"-wide.txt", Table(tc.kind, "default", tc.objs, now, true))
		})
	}
}

func TestPodStatusFollowsKubectl(t *testing.T) {
	for _, tc := range []struct {
		name string
		pod  func() *api.Pod
		want string
	}{
		{"running", func() *api.Pod { return webPod("p", 0) }, "Running"},
		{"pending, not scheduled", pendingPod, "Pending"},
		{"crashed and restarting", crashedPod, "Running"},
		{"being deleted", terminatingPod, "Terminating"},
		{"evicted: the reason wins over the phase", evictedPod, "Evicted"},
		{"evicted and being deleted: a failed pod is not Terminating", func() *api.Pod {
			p := evictedPod()
			p.Metadata.DeletionTimestamp = atPtr(time.Hour)
			return p
		}, "Evicted"},
		{"succeeded and being deleted", func() *api.Pod {
			p := succeededPod()
			p.Metadata.DeletionTimestamp = atPtr(time.Hour)
			return p
		}, "Succeeded"},
		{"node lost and being deleted", func() *api.Pod {
			p := webPod("p", 0)
			p.Status.Reason = "NodeLost"
			p.Metadata.DeletionTimestamp = atPtr(time.Hour)
			return p
		}, "Unknown"},
		{"scheduling gated", func() *api.Pod {
			p := pendingPod()
			p.Status.Conditions = []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: "SchedulingGated"}}
			return p
		}, "SchedulingGated"},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, PodStatus(tc.pod())) })
	}
}

func TestPodReadyCountsReadyStartedContainers(t *testing.T) {
	p := webPod("p", 0)
	p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "b"}, api.Container{Name: "c"})
	p.Status.ContainerStatuses = []api.ContainerStatus{
		{Name: "web", Ready: true, Started: ptr(true), RestartCount: 2},
		{Name: "b", Ready: true, RestartCount: 1}, // no started flag: ready implies running
		{Name: "c", Ready: true, Started: ptr(false), RestartCount: 4},
	}
	out := Table(api.KindPod, "default", []api.Object{p}, now, false)
	assert.Equal(t, "NAME   READY   STATUS    RESTARTS   AGE\np      2/3     Running   7          5m3s\n", out)
}

func TestNodeStatus(t *testing.T) {
	n := node("n", false)
	assert.Equal(t, "Ready", NodeStatus(n))
	n.Spec.Unschedulable = true
	assert.Equal(t, "Ready,SchedulingDisabled", NodeStatus(n))
	n.Status.Conditions[0].Status = api.ConditionUnknown
	assert.Equal(t, "NotReady,SchedulingDisabled", NodeStatus(n))
	n.Status.Conditions = nil
	assert.Equal(t, "Unknown,SchedulingDisabled", NodeStatus(n))
}

func TestNoResourcesFound(t *testing.T) {
	assert.Equal(t, "No resources found in default namespace.\n", Table(api.KindPod, "", nil, now, false))
	assert.Equal(t, "No resources found in kube-system namespace.\n", Table(api.KindReplicaSet, "kube-system", nil, now, true))
	assert.Equal(t, "No resources found\n", Table(api.KindNode, "default", nil, now, false), "nodes have no namespace")
}

func TestTableRowsComeInListOrder(t *testing.T) {
	b := webPod("b", 0)
	a := webPod("a", 0)
	other := webPod("a", 0)
	other.Metadata.Namespace = "zz"
	out := Table(api.KindPod, "default", []api.Object{other, b, a}, now, false)
	var names []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		names = append(names, strings.Fields(line)[0])
	}
	assert.Equal(t, []string{"a", "b", "a"}, names, "by namespace, then name")
}

func TestTableCellsAreCutAtLineBreaksAndEscaped(t *testing.T) {
	e := rsEvent("e", "Odd", "first line\nsecond line", 0, 0, 1)
	e2 := rsEvent("f", "Color", "\x1b[31mred\x1b[0m", 0, 0, 1)
	out := Table(api.KindEvent, "default", []api.Object{e, e2}, now, false)
	assert.Contains(t, out, "first line...\n")
	assert.NotContains(t, out, "second line")
	assert.Contains(t, out, "^[[31mred^[[0m")
}

func TestTableColumnsHaveAMinimumWidth(t *testing.T) {
	// kubectl's tabwriter pads every column to at least six characters.
	p := webPod("p", 0)
	p.Metadata.CreationTimestamp = at(now.Sub(epoch))
	out := Table(api.KindPod, "default", []api.Object{p}, now, false)
	assert.Equal(t, "NAME   READY   STATUS    RESTARTS   AGE\np      1/1     Running   0          0s\n", out)
}

func TestTableLeavesOutOtherKinds(t *testing.T) {
	out := Table(api.KindReplicaSet, "default", []api.Object{webPod("web-1", 0), webRS(), nil}, now, false)
	assert.Equal(t, "NAME   DESIRED   CURRENT   READY   AGE\nweb    3         3         2       5m3s\n", out)
	assert.Equal(t, "No resources found in default namespace.\n", Table(api.KindReplicaSet, "default", []api.Object{webPod("web-1", 0)}, now, false))
}
