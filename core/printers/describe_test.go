package printers

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/reconcilelab/rlab/core/api"
)

func TestDescribeGolden(t *testing.T) {
	pods := goldenPods()
	// A pod of another ReplicaSet with web's labels, and an orphan: neither
	// counts in web's Pods Status.
	stranger := webPod("web-zzzz1", 0)
	stranger.Metadata.OwnerReferences[0].UID = "uid-someone-else"
	orphan := webPod("web-zzzz2", 0)
	orphan.Metadata.OwnerReferences = nil
	legacyPod := webPod("legacy-1", time.Minute)
	legacyPod.Metadata.Labels = map[string]string{"app": "legacy"}
	legacyPod.Metadata.OwnerReferences = []api.OwnerReference{api.NewControllerRef(&api.ObjectMeta{Name: "legacy", UID: "uid-legacy"}, "v1", "ReplicationController")}
	onNode2 := webPod("web-n2pod", 2*time.Minute)
	onNode2.Spec.NodeName = "node-2"
	elsewhere := webPod("db-0", time.Minute)
	elsewhere.Metadata.Namespace = "data"
	elsewhere.Spec.NodeName = "node-2"
	finished := succeededPod()
	finished.Spec.NodeName = "node-2"
	related := Related{
		Events: goldenEvents(),
		Pods:   append(podList(pods), stranger, orphan, legacyPod, onNode2, elsewhere, finished),
	}

	rs := webRS()
	rs.Metadata.Annotations = map[string]string{
		"deployment.kubernetes.io/revision":                "1",
		"kubectl.kubernetes.io/last-applied-configuration": `{"apiVersion":"apps/v1","kind":"ReplicaSet"}`,
		"note":  "first line\nsecond line\n",
		"long":  strings.Repeat("0123456789", 16),
		"empty": "",
	}
	rs.Metadata.OwnerReferences = []api.OwnerReference{api.NewControllerRef(&api.ObjectMeta{Name: "web-deploy", UID: "uid-d"}, "apps/v1", "Deployment")}
	rs.Status.Conditions = []api.ReplicaSetCondition{{Type: api.ReplicaFailure, Status: api.ConditionTrue,
		LastTransitionTime: at(90 * time.Second), Reason: "FailedCreate", Message: "exceeded quota"}}

	rcNoTemplate := webRC()
	rcNoTemplate.Spec.Template = nil

	evicted := evictedPod()
	evicted.Metadata.Annotations = map[string]string{api.PodDeletionCostAnnotation: "-100"}

	node1 := node("node-1", false)
	node2 := node("node-2", true)
	node2.Metadata.Labels["node-role.kubernetes.io/worker"] = ""

	events := goldenEvents()
	for _, tc := range []struct {
		name string
		obj  api.Object
	}{
		{"pod-running", webPod("web-a1b2c", 0)},
		{"pod-pending", pendingPod()},
		{"pod-crashed", crashedPod()},
		{"pod-terminating", terminatingPod()},
		{"pod-evicted", evicted},
		{"rs", rs},
		{"rs-no-events", webRS()},
		{"rc", webRC()},
		{"rc-no-template", rcNoTemplate},
		{"node-1", node1},
		{"node-2-cordoned", node2},
		{"event", events[2]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := related
			if tc.name == "rs-no-events" {
				r.Events = nil
			}
			checkGolden(t, "describe/"+tc.name+".txt", Describe(tc.obj, r, now))
		})
	}
}

func TestDescribeSearchesEventsAsKubectlDoes(t *testing.T) {
	rs := webRS()
	match := rsEvent("a", "SuccessfulCreate", "Created pod: web-1", 0, 0, 1)
	otherUID := rsEvent("b", "SuccessfulCreate", "from an earlier web", 0, 0, 1)
	otherUID.InvolvedObject.UID = "uid-of-an-earlier-web"
	otherKind := rsEvent("c", "SuccessfulCreate", "about rc web", 0, 0, 1)
	otherKind.InvolvedObject.Kind = "ReplicationController"
	otherNS := rsEvent("d", "SuccessfulCreate", "in another namespace", 0, 0, 1)
	otherNS.InvolvedObject.Namespace = "staging"
	out := Describe(rs, Related{Events: []*api.Event{match, otherUID, otherKind, otherNS}}, now)
	assert.Contains(t, out, "Created pod: web-1")
	for _, s := range []string{"earlier web", "about rc web", "another namespace"} {
		assert.NotContains(t, out, s)
	}

	// A pod's describer drops the kind from its search.
	pod := webPod("web-1", 0)
	kindless := &api.Event{InvolvedObject: api.ObjectReference{Namespace: "default", Name: "web-1", UID: "uid-web-1"},
		Reason: "Scheduled", Message: "assigned", FirstTimestamp: at(0), LastTimestamp: at(0), Count: 1, Type: api.EventNormal}
	assert.Contains(t, Describe(pod, Related{Events: []*api.Event{kindless}}, now), "Scheduled")
}

func TestDescribeSortsEventsByLastSeen(t *testing.T) {
	rs := webRS()
	late := rsEvent("late", "Late", "late", 0, 3*time.Minute, 2)
	early := rsEvent("early", "Early", "early", 0, time.Minute, 2)
	out := Describe(rs, Related{Events: []*api.Event{late, early}}, now)
	assert.Less(t, strings.Index(out, "Early"), strings.Index(out, "Late"))
	assert.Contains(t, out, "4m3s (x2 over 5m3s)")
}

func TestDescribeUnknownKindIsEmpty(t *testing.T) {
	assert.Empty(t, Describe(nil, Related{}, now))
}

func TestSmartLabel(t *testing.T) {
	for field, want := range map[string]string{
		"apiVersion":         "API Version",
		"involvedObject":     "Involved Object",
		"uid":                "UID",
		"firstTimestamp":     "First Timestamp",
		"count":              "Count",
		"blockOwnerDeletion": "Block Owner Deletion",
		"PDFLoader":          "PDF Loader",
		"hostIP":             "Host IP",
		"node-name":          "Node - Name",
		"field_1":            "field_1",
		"resourceVersion":    "Resource Version",
	} {
		assert.Equal(t, want, smartLabel(field), field)
	}
}
