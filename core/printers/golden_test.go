package printers

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ with the current output")

// checkGolden compares got with testdata/NAME. With -update it writes got
// there instead; review the diff before committing it.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./core/printers -update to create it")
	assert.Equal(t, string(want), got, "output differs from %s (go test ./core/printers -update rewrites it)", path)
}

// The pods of the golden tables: one in every state kubectl tells apart.
func goldenPods() []api.Object {
	failedAndDeleted := evictedPod()
	failedAndDeleted.Metadata.Name = "web-evct3"
	failedAndDeleted.Metadata.DeletionTimestamp = atPtr(5 * time.Minute)
	failedAndDeleted.Metadata.DeletionGracePeriodSeconds = ptr(int64(0))

	nodeLost := webPod("web-lost1", time.Minute)
	nodeLost.Metadata.DeletionTimestamp = atPtr(6 * time.Minute)
	nodeLost.Metadata.DeletionGracePeriodSeconds = ptr(int64(30))
	nodeLost.Status.Reason = "NodeLost"

	failed := succeededPod()
	failed.Metadata.Name = "batch-failed"
	failed.Status.Phase = api.PodFailed

	bound := webPod("web-strt5", 5*time.Minute+2*time.Second)
	bound.Status = api.PodStatus{Phase: api.PodPending, Conditions: []api.PodCondition{
		{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: at(5*time.Minute + 2*time.Second)}}}

	return []api.Object{
		webPod("web-a1b2c", 0), webPod("web-d3e4f", 0), pendingPod(), bound, crashedPod(), terminatingPod(),
		evictedPod(), failedAndDeleted, nodeLost, succeededPod(), failed,
	}
}

func goldenEvents() []*api.Event {
	warning := rsEvent("web.17f3a9c2b1d4e5f6", "FailedCreate",
		`pods "web-x9z8y" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=3, limited: pods=3`,
		90*time.Second, 4*time.Minute+50*time.Second, 12)
	warning.Type = api.EventWarning
	kubelet := &api.Event{
		Metadata:       api.ObjectMeta{Name: "node-2.17f3a9c2b1d4e000", Namespace: "default", CreationTimestamp: at(0)},
		InvolvedObject: api.ObjectReference{Kind: "Node", Name: "node-2", UID: "node-2", APIVersion: "v1"},
		Reason:         "NodeNotSchedulable", Message: "Node node-2 status is now: NodeNotSchedulable",
		Source:         api.EventSource{Component: "kubelet", Host: "node-2"},
		FirstTimestamp: at(4 * time.Minute), LastTimestamp: at(4 * time.Minute), Count: 1, Type: api.EventNormal,
	}
	podEvent := &api.Event{
		Metadata:       api.ObjectMeta{Name: "web-crsh7.17f3a9c2b1d4e111", Namespace: "default", CreationTimestamp: at(time.Minute)},
		InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: "default", Name: "web-crsh7", UID: "uid-web-crsh7", APIVersion: "v1"},
		Reason:         "BackOff", Message: "Back-off restarting failed container web in pod web-crsh7_default(uid-web-crsh7)\n",
		Source:         api.EventSource{Component: "kubelet", Host: "node-1"},
		FirstTimestamp: at(time.Minute), LastTimestamp: at(4 * time.Minute), Count: 3, Type: api.EventWarning,
	}
	other := rsEvent("other.17f3a9c2b1d4e222", "SuccessfulCreate", "Created pod: other-1", 0, 0, 1)
	other.InvolvedObject.Name = "other"
	other.InvolvedObject.UID = "uid-other"
	return []*api.Event{
		rsEvent("web.17f3a9c2b1d4e5f5", "SuccessfulCreate", "Created pod: web-a1b2c", 0, 0, 1),
		rsEvent("web.17f3a9c2b1d4e5f4", "SuccessfulDelete", "Deleted pod: web-trm9q", time.Minute, 4*time.Minute, 3),
		warning, kubelet, podEvent, other,
	}
}

func objects[T api.Object](items []T) []api.Object {
	out := make([]api.Object, len(items))
	for i, o := range items {
		out[i] = o
	}
	return out
}

func podList(objs []api.Object) []*api.Pod {
	var out []*api.Pod
	for _, o := range objs {
		out = append(out, o.(*api.Pod))
	}
	return out
}
