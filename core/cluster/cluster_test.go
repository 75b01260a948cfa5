package cluster

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
)

func TestStartRegistersTheDefaultNodes(t *testing.T) {
	h := started(t, Config{})

	for i, name := range []string{"node-1", "node-2", "node-3"} {
		n := h.node(name)
		assert.False(t, n.Spec.Unschedulable)
		assert.Equal(t, name, n.Metadata.Labels["kubernetes.io/hostname"])
		require.Len(t, n.Status.Conditions, 1)
		assert.Equal(t, api.NodeReady, n.Status.Conditions[0].Type)
		assert.Equal(t, api.ConditionTrue, n.Status.Conditions[0].Status)
		assert.Equal(t, "10.0.0."+string(rune('1'+i)), h.c.Nodes()[i].IP)
	}
	assert.Equal(t, 3, h.requests("kubelet", apistore.VerbCreate, "nodes"), "each kubelet registers its node through the API")
	assert.Equal(t, 3, h.store.Len(api.KindNode))
	assert.Len(t, h.stepsOf("kubelet/node-2", "registerWithAPIServer", ""), 2, "a registration is a request step and an answer step")

	view := h.c.Scheduler.View()
	require.Len(t, view.Nodes, 3, "the scheduler watches the nodes")
	assert.Equal(t, "node-1", view.Nodes[0].Name)
}

func TestConfigNodesAndDefaults(t *testing.T) {
	h := started(t, Config{Nodes: []string{"b", "a"}})
	cfg := h.c.Config()
	assert.Equal(t, []string{"b", "a"}, cfg.Nodes)
	assert.Equal(t, DefaultKubeletStart, cfg.KubeletStart)
	assert.Equal(t, DefaultKubeletStop, cfg.KubeletStop)
	assert.Equal(t, 2, h.store.Len(api.KindNode))

	h.createPod("web-1", "")
	h.stabilize()
	assert.Equal(t, "a", h.pod("web-1").Spec.NodeName, "ties go to the first name in order, whatever the order of creation")

	_, err := New(Config{Nodes: []string{"node-1", "node-1"}}, h.srv, h.k)
	assert.ErrorContains(t, err, `node "node-1" is listed twice`)
	_, err = New(Config{Nodes: []string{"Node_1"}}, h.srv, h.k)
	assert.ErrorContains(t, err, `invalid node name "Node_1"`)
}

// TestPodGoesFromCreatedToRunningAndReady follows one pod through every step:
// scheduled to the node with the fewest pods, bound, admitted by its kubelet
// and reported Running and Ready exactly kubelet-start after the kubelet saw
// the binding.
func TestPodGoesFromCreatedToRunningAndReady(t *testing.T) {
	h := started(t, Config{})
	h.createPod("web-1", "")
	h.stabilize()

	schedule := h.firstStep("scheduler", "schedulePod", "web-1")
	assert.Contains(t, schedule.Summary.String(), "assigned pod/web-1 to node-1")
	bind := h.firstStep("scheduler", "bind", "web-1")
	assert.Contains(t, bind.Summary.String(), "bound pod/web-1 to node-1")
	admit := h.firstStep("kubelet/node-1", "HandlePodAdditions", "web-1")
	start := h.firstStep("kubelet/node-1", "syncPod", "web-1")
	assert.Less(t, schedule.N, bind.N)
	assert.Less(t, bind.N, admit.N)
	assert.Equal(t, DefaultKubeletStart, start.At-admit.At, "Running and Ready kubelet-start after the kubelet saw the binding")
	assert.Equal(t, time.Millisecond, admit.At-schedule.At-time.Millisecond,
		"the binding reaches the server one latency after the attempt, and the kubelet one watch latency after that")

	pod := h.pod("web-1")
	assert.Equal(t, "node-1", pod.Spec.NodeName)
	assert.Equal(t, api.PodRunning, pod.Status.Phase)
	assert.Equal(t, "10.0.0.1", pod.Status.HostIP)
	require.NotNil(t, pod.Status.StartTime)
	assert.Equal(t, at(admit.At), pod.Status.StartTime.Time, "startTime is when the kubelet admitted the pod")
	ready, ok := condition(pod, api.PodReady)
	require.True(t, ok)
	assert.Equal(t, api.ConditionTrue, ready.Status)
	assert.Equal(t, at(start.At), ready.LastTransitionTime.Time)
	for _, typ := range []string{"ContainersReady", "Initialized", "PodReadyToStartContainers", api.PodScheduled} {
		c, ok := condition(pod, typ)
		require.True(t, ok, typ)
		assert.Equal(t, api.ConditionTrue, c.Status, typ)
	}
	scheduled, _ := condition(pod, api.PodScheduled)
	assert.Equal(t, at(bind.At-time.Millisecond), scheduled.LastTransitionTime.Time, "PodScheduled keeps the time of its binding")
	require.Len(t, pod.Status.ContainerStatuses, 1)
	cs := pod.Status.ContainerStatuses[0]
	assert.Equal(t, "app", cs.Name)
	assert.Equal(t, "nginx", cs.Image)
	assert.True(t, cs.Ready)
	assert.Zero(t, cs.RestartCount)
	require.NotNil(t, cs.Started)
	assert.True(t, *cs.Started)

	assert.Equal(t, 1, h.requests("scheduler", apistore.VerbCreate, "pods/binding"))
	assert.Equal(t, 1, h.requests("kubelet", apistore.VerbUpdate, "pods/status"), "one status write: Running and Ready")

	kp, ok := h.c.Kubelets.Pod("default", "web-1")
	require.True(t, ok)
	assert.Equal(t, "running, Ready", kp.String())
}

func TestSchedulerPicksTheNodeWithFewestPodsThenByName(t *testing.T) {
	h := started(t, Config{})
	// Two bare pods already on node-1, one on node-2.
	h.createPod("a", "node-1")
	h.createPod("b", "node-1")
	h.createPod("c", "node-2")
	h.stabilize()
	for _, name := range []string{"p1", "p2", "p3", "p4"} {
		h.createPod(name, "")
	}
	h.stabilize()

	assert.Equal(t, "node-3", h.pod("p1").Spec.NodeName, "node-3 had no pods")
	assert.Equal(t, "node-2", h.pod("p2").Spec.NodeName, "node-2 and node-3 had 1; node-2 comes first")
	assert.Equal(t, "node-3", h.pod("p3").Spec.NodeName, "node-3 had 1, the others 2")
	assert.Equal(t, "node-1", h.pod("p4").Spec.NodeName, "all had 2; node-1 comes first")

	view := h.c.Scheduler.View()
	assert.Equal(t, []SchedulerNode{{Name: "node-1", Schedulable: true, Pods: 3}, {Name: "node-2", Schedulable: true, Pods: 2}, {Name: "node-3", Schedulable: true, Pods: 2}}, view.Nodes)
	assert.Equal(t, 4, view.Binds)
	assert.Equal(t, 4, h.requests("scheduler", apistore.VerbCreate, "pods/binding"), "bare pods with --node are not bound again")
}

func TestAssumedPodsCountBeforeTheirBindingReturns(t *testing.T) {
	h := started(t, Config{})
	for _, name := range []string{"p1", "p2", "p3"} {
		h.createPod(name, "")
	}
	// Step until all three attempts are made; none of the bindings has been
	// answered when the third attempt is made.
	h.until("third attempt", func(s sim.StepResult) bool {
		return s.Actor == "scheduler" && s.Models == "schedulePod" && len(h.stepsOf("scheduler", "schedulePod", "")) == 3
	})
	assert.Len(t, h.c.Scheduler.View().Binding, 3)
	h.stabilize()
	assert.Equal(t, "node-1", h.pod("p1").Spec.NodeName)
	assert.Equal(t, "node-2", h.pod("p2").Spec.NodeName)
	assert.Equal(t, "node-3", h.pod("p3").Spec.NodeName)
}

func TestCordonedNodeGetsNoNewPods(t *testing.T) {
	h := started(t, Config{})
	h.createPod("old", "node-1")
	h.stabilize()

	msg, err := h.c.Cordon("node-1")
	require.NoError(t, err)
	assert.Equal(t, "node/node-1 cordoned", msg)
	msg, err = h.c.Cordon("node-2")
	require.NoError(t, err)
	assert.Equal(t, "node/node-2 cordoned", msg)
	h.stabilize()
	assert.True(t, h.node("node-1").Spec.Unschedulable)
	assert.Equal(t, 2, h.requests("kubectl", apistore.VerbUpdate, "nodes"), "cordon is an update of the node through the API")

	msg, err = h.c.Cordon("node-1")
	require.NoError(t, err)
	assert.Equal(t, "node/node-1 already cordoned", msg)
	assert.Equal(t, 2, h.requests("kubectl", apistore.VerbUpdate, "nodes"), "nothing is sent for a node already cordoned")

	for _, name := range []string{"p1", "p2", "p3"} {
		h.createPod(name, "")
	}
	h.stabilize()
	for _, name := range []string{"p1", "p2", "p3"} {
		assert.Equal(t, "node-3", h.pod(name).Spec.NodeName, "only node-3 is schedulable")
	}
	assert.Equal(t, api.PodRunning, h.pod("old").Status.Phase, "a pod already on a cordoned node stays")

	_, err = h.c.Cordon("node-9")
	assert.EqualError(t, err, `nodes "node-9" not found`)
}

func TestUncordonSchedulesThePendingPods(t *testing.T) {
	h := started(t, Config{})
	for _, name := range []string{"node-1", "node-2", "node-3"} {
		_, err := h.c.Cordon(name)
		require.NoError(t, err)
	}
	h.stabilize()
	h.createPod("p1", "")
	h.createPod("p2", "")
	h.stabilize()

	for _, name := range []string{"p1", "p2"} {
		pod := h.pod(name)
		assert.Empty(t, pod.Spec.NodeName)
		assert.Equal(t, api.PodPending, pod.Status.Phase)
	}
	assert.Equal(t, []string{"default/p1", "default/p2"}, h.c.Scheduler.View().Unschedulable)
	fail := h.firstStep("scheduler", "schedulePod", "p1")
	assert.Equal(t, "pod/p1 is unschedulable: 0/3 nodes are available: 3 node(s) were unschedulable; it waits until a node is added or uncordoned", fail.Summary.String())
	_, ok := h.c.Kubelets.Pod("default", "p1")
	assert.False(t, ok, "no kubelet holds an unbound pod")

	msg, err := h.c.Uncordon("node-2")
	require.NoError(t, err)
	assert.Equal(t, "node/node-2 uncordoned", msg)
	h.stabilize()
	assert.Equal(t, "node-2", h.pod("p1").Spec.NodeName)
	assert.Equal(t, "node-2", h.pod("p2").Spec.NodeName)
	assert.Equal(t, api.PodRunning, h.pod("p2").Status.Phase)
	assert.Empty(t, h.c.Scheduler.View().Unschedulable)
}

func TestBarePodWithNodeIsStartedWithoutScheduling(t *testing.T) {
	h := started(t, Config{})
	h.createPod("bare", "node-2")
	h.stabilize()

	pod := h.pod("bare")
	assert.Equal(t, api.PodRunning, pod.Status.Phase)
	assert.Equal(t, "10.0.0.2", pod.Status.HostIP)
	assert.Zero(t, h.requests("", apistore.VerbCreate, "pods/binding"), "a pod created bound needs no binding")
	assert.Empty(t, h.stepsOf("scheduler", "schedulePod", "bare"))
	scheduled, ok := condition(pod, api.PodScheduled)
	require.True(t, ok, "the kubelet reports PodScheduled for a pod that never went through the scheduler")
	assert.Equal(t, api.ConditionTrue, scheduled.Status)
	assert.Equal(t, at(h.firstStep("kubelet/node-2", "HandlePodAdditions", "bare").At), scheduled.LastTransitionTime.Time)
	var types []string
	for _, c := range pod.Status.Conditions {
		types = append(types, c.Type)
	}
	assert.Equal(t, []string{"PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled"}, types,
		"the order a kubelet writes them in")
}

func TestPodsOfANodeCreatedLaterStartWhenItsKubeletDoes(t *testing.T) {
	h := started(t, Config{})
	h.createPod("early", "node-4")
	h.stabilize()

	assert.Equal(t, api.PodPending, h.pod("early").Status.Phase)
	kp, ok := h.c.Kubelets.Pod("default", "early")
	require.True(t, ok)
	assert.Equal(t, PodWaiting, kp.State)
	assert.Equal(t, "waiting for a kubelet on node-4", kp.String())
	nodes := h.c.Nodes()
	require.Len(t, nodes, 4)
	assert.Equal(t, NodeView{Name: "node-4", Pods: []KubeletPod{kp}}, nodes[3], "a node named by a pod but never created")
	assertNodesWithoutPods(t, h.c)
	assert.EqualError(t, h.c.Kubelets.Crash("default", "early"), "cannot crash pod/early: it is bound to node node-4, which has no running kubelet")

	require.NoError(t, h.c.CreateNode("node-4", map[string]string{"disk": "ssd"}))
	assert.EqualError(t, h.c.CreateNode("node-4", nil), `nodes "node-4" already exists`, "a node being created counts as existing")
	start := h.until("node-4's kubelet starts", func(s sim.StepResult) bool { return s.Actor == "kubelet/node-4" })
	assert.Contains(t, start.Summary.String(), "it takes over pod/early, bound here before the node existed")
	h.stabilize()

	assertNodesWithoutPods(t, h.c)
	node := h.node("node-4")
	assert.Equal(t, "ssd", node.Metadata.Labels["disk"])
	assert.Equal(t, "node-4", node.Metadata.Labels["kubernetes.io/hostname"])
	pod := h.pod("early")
	assert.Equal(t, api.PodRunning, pod.Status.Phase)
	running := h.firstStep("kubelet/node-4", "syncPod", "early")
	assert.Equal(t, DefaultKubeletStart, running.At-start.At)

	// The new node has one pod, the others none: the next three pods go to
	// the others, and then the new node takes its share.
	for i := 1; i <= 7; i++ {
		h.createPod("next-"+string(rune('0'+i)), "")
	}
	h.stabilize()
	assert.Equal(t, "node-4", h.pod("next-7").Spec.NodeName)
	for _, n := range h.c.Scheduler.View().Nodes {
		assert.Equal(t, 2, n.Pods, n.Name)
	}
}

func TestCreateNodeErrors(t *testing.T) {
	h := started(t, Config{})
	assert.EqualError(t, h.c.CreateNode("node-1", nil), `nodes "node-1" already exists`)
	assert.ErrorContains(t, h.c.CreateNode("Bad_Name", nil), `invalid node name "Bad_Name"`)
	assert.ErrorContains(t, h.c.CreateNode("ok", map[string]string{"bad key!": "x"}), "create node ok: ")
	assert.EqualError(t, h.c.CreateNode("", nil), "a node needs a name")
}

func TestSlowKubeletChangesStartFromNowOn(t *testing.T) {
	h := started(t, Config{KubeletStart: time.Second})
	h.createPod("before", "node-1")
	h.until("admission", func(s sim.StepResult) bool { return s.Models == "HandlePodAdditions" && s.Actor == "kubelet/node-1" })
	h.c.Kubelets.SetKubeletStart(5 * time.Second)
	assert.Equal(t, 5*time.Second, h.c.Kubelets.KubeletStart())
	h.createPod("after", "node-1")
	h.stabilize()

	for name, want := range map[string]time.Duration{"before": time.Second, "after": 5 * time.Second} {
		admit := h.firstStep("kubelet/node-1", "HandlePodAdditions", name)
		start := h.firstStep("kubelet/node-1", "syncPod", name)
		assert.Equal(t, want, start.At-admit.At, name)
	}
	h.c.Kubelets.SetKubeletStart(0)
	assert.Equal(t, DefaultKubeletStart, h.c.Kubelets.KubeletStart(), "0 means the default")
}

func TestCrashRestartsTheContainer(t *testing.T) {
	h := started(t, Config{})
	h.createPod("web", "node-1")
	h.stabilize()
	readyBefore, _ := condition(h.pod("web"), api.PodReady)

	h.advance(10 * time.Second)
	require.NoError(t, h.c.Kubelets.Crash("default", "web"))
	crash := h.step()
	assert.Equal(t, "kubelet/node-1", crash.Actor)
	assert.Equal(t, "PLEG", crash.Models)
	kp, _ := h.c.Kubelets.Pod("default", "web")
	assert.Equal(t, "crashed until t="+sim.FormatSeconds(crash.At+DefaultKubeletStart), kp.String())
	assert.ErrorContains(t, h.c.Kubelets.Crash("default", "web"), "cannot crash pod/web: its container is restarting after a crash (back at t=")
	h.until("the crash is stored", func(s sim.StepResult) bool { return s.Models == "statusManager.syncPod" })

	pod := h.pod("web")
	assert.Equal(t, api.PodRunning, pod.Status.Phase, "restartPolicy Always keeps the pod Running")
	assert.Equal(t, int32(1), pod.Status.ContainerStatuses[0].RestartCount)
	assert.False(t, pod.Status.ContainerStatuses[0].Ready)
	assert.False(t, *pod.Status.ContainerStatuses[0].Started)
	ready, _ := condition(pod, api.PodReady)
	assert.Equal(t, api.ConditionFalse, ready.Status)
	assert.Equal(t, "ContainersNotReady", ready.Reason)
	assert.Equal(t, "containers with unready status: [app]", ready.Message)
	assert.Equal(t, at(crash.At), ready.LastTransitionTime.Time)

	h.stabilize()
	back := h.firstStep("kubelet/node-1", "syncPod", "web")
	back = h.stepsOf("kubelet/node-1", "syncPod", "web")[1]
	assert.Equal(t, DefaultKubeletStart, back.At-crash.At, "the container is back kubelet-start after the crash")
	pod = h.pod("web")
	assert.Equal(t, int32(1), pod.Status.ContainerStatuses[0].RestartCount)
	assert.True(t, pod.Status.ContainerStatuses[0].Ready)
	ready, _ = condition(pod, api.PodReady)
	assert.Equal(t, api.ConditionTrue, ready.Status)
	assert.Empty(t, ready.Reason)
	assert.Equal(t, at(back.At), ready.LastTransitionTime.Time)
	assert.NotEqual(t, readyBefore.LastTransitionTime, ready.LastTransitionTime)
	initialized, _ := condition(pod, "Initialized")
	assert.Equal(t, at(h.firstStep("kubelet/node-1", "HandlePodAdditions", "web").At), initialized.LastTransitionTime.Time,
		"conditions that did not change keep their time")
}

func TestCrashWithRestartPolicyNeverFailsThePod(t *testing.T) {
	h := started(t, Config{})
	pod := newPod("once", "node-1")
	pod.Spec.RestartPolicy = api.RestartNever
	h.user.Send(apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindPod, Object: pod})
	h.stabilize()
	require.NoError(t, h.c.Kubelets.Crash("default", "once"))
	h.stabilize()
	got := h.pod("once")
	assert.Equal(t, api.PodFailed, got.Status.Phase)
	assert.Zero(t, got.Status.ContainerStatuses[0].RestartCount)
	ready, _ := condition(got, api.PodReady)
	assert.Equal(t, "PodFailed", ready.Reason)
}

func TestPodActionErrors(t *testing.T) {
	h := started(t, Config{})
	for _, name := range []string{"node-1", "node-2", "node-3"} {
		_, err := h.c.Cordon(name)
		require.NoError(t, err)
	}
	h.createPod("unbound", "")
	h.createPod("starting", "node-1")
	h.until("admission", func(s sim.StepResult) bool { return s.Models == "HandlePodAdditions" && s.Actor == "kubelet/node-1" })
	h.advance(100 * time.Millisecond)

	k := h.c.Kubelets
	assert.EqualError(t, k.Crash("default", "nope"), `pods "nope" not found`)
	assert.EqualError(t, k.Evict("other", "nope"), `pods "nope" not found in namespace "other"`)
	assert.EqualError(t, k.Crash("default", "unbound"), "cannot crash pod/unbound: it is not bound to a node yet (Pending), so no kubelet runs it")
	assert.ErrorContains(t, k.Crash("default", "starting"), "cannot crash pod/starting: its containers are still starting (Running at t=")
	assert.ErrorContains(t, k.SetReady("default", "starting", false), "cannot set the readiness of pod/starting: its containers are still starting")
	assert.NoError(t, k.Evict("default", "starting"), "a starting pod can be evicted")
	h.stabilize()
	assert.EqualError(t, k.Evict("default", "starting"), "cannot evict pod/starting: it has finished (Failed (Evicted))")
	assert.Equal(t, api.PodFailed, h.pod("starting").Status.Phase)
	assert.Empty(t, h.stepsOf("kubelet/node-1", "syncPod", "starting"), "an evicted pod is never started")
}

func TestEvictFailsThePodAndItStays(t *testing.T) {
	h := started(t, Config{})
	h.createPod("web", "")
	h.stabilize()
	require.Equal(t, "node-1", h.pod("web").Spec.NodeName)
	require.NoError(t, h.c.Kubelets.Evict("default", "web"))
	evict := h.step()
	assert.Equal(t, "evictionManager", evict.Models)
	h.stabilize()

	pod := h.pod("web")
	assert.Equal(t, api.PodFailed, pod.Status.Phase)
	assert.Equal(t, "Evicted", pod.Status.Reason)
	assert.Equal(t, "The node was low on resource: memory.", pod.Status.Message)
	ready, _ := condition(pod, api.PodReady)
	assert.Equal(t, api.ConditionFalse, ready.Status)
	assert.Equal(t, "PodFailed", ready.Reason)
	disruption, ok := condition(pod, "DisruptionTarget")
	require.True(t, ok)
	assert.Equal(t, api.ConditionTrue, disruption.Status)
	assert.Equal(t, "TerminationByKubelet", disruption.Reason)
	assert.False(t, pod.Status.ContainerStatuses[0].Ready)
	assert.Nil(t, pod.Metadata.DeletionTimestamp, "an evicted pod stays until someone deletes it")
	kp, _ := h.c.Kubelets.Pod("default", "web")
	assert.Equal(t, "finished (Failed)", kp.String())

	// The Failed pod no longer counts on node-1: the next pod goes there.
	h.createPod("next", "")
	h.stabilize()
	assert.Equal(t, "node-1", h.pod("next").Spec.NodeName)

	// Deleting a Failed pod removes it at once: nothing runs to be stopped.
	h.deletePod("web", 30)
	h.stabilize()
	assert.False(t, h.hasPod("web"))
	assert.Zero(t, h.requests("kubelet", apistore.VerbDelete, "pods"))
}

func TestSetReadyFlipsTheReadyCondition(t *testing.T) {
	h := started(t, Config{})
	h.createPod("web", "node-3")
	h.stabilize()
	writes := h.requests("kubelet", apistore.VerbUpdate, "pods/status")

	h.advance(5 * time.Second)
	require.NoError(t, h.c.Kubelets.SetReady("default", "web", false))
	flip := h.step()
	assert.Equal(t, "prober", flip.Models)
	h.stabilize()
	pod := h.pod("web")
	ready, _ := condition(pod, api.PodReady)
	assert.Equal(t, api.ConditionFalse, ready.Status)
	assert.Equal(t, at(flip.At), ready.LastTransitionTime.Time)
	containers, _ := condition(pod, "ContainersReady")
	assert.Equal(t, api.ConditionFalse, containers.Status)
	assert.Equal(t, api.PodRunning, pod.Status.Phase, "a pod that is not ready keeps running")
	assert.True(t, *pod.Status.ContainerStatuses[0].Started)
	assert.False(t, pod.Status.ContainerStatuses[0].Ready)
	assert.Equal(t, writes+1, h.requests("kubelet", apistore.VerbUpdate, "pods/status"))

	h.advance(5 * time.Second)
	require.NoError(t, h.c.Kubelets.SetReady("default", "web", false))
	same := h.step()
	assert.Contains(t, same.Summary.String(), "is already false: nothing to report")
	h.stabilize()
	again, _ := condition(h.pod("web"), api.PodReady)
	assert.Equal(t, ready.LastTransitionTime, again.LastTransitionTime, "no change, no new transition time")
	assert.Equal(t, writes+1, h.requests("kubelet", apistore.VerbUpdate, "pods/status"), "nothing to write")

	h.advance(5 * time.Second)
	require.NoError(t, h.c.Kubelets.SetReady("default", "web", true))
	back := h.step()
	h.stabilize()
	ready, _ = condition(h.pod("web"), api.PodReady)
	assert.Equal(t, api.ConditionTrue, ready.Status)
	assert.Equal(t, at(back.At), ready.LastTransitionTime.Time)
}

func TestDeleteWithGraceIsRemovedKubeletStopLater(t *testing.T) {
	h := started(t, Config{})
	h.createPod("web", "node-1")
	h.stabilize()

	h.deletePod("web", 30)
	seen := h.until("the kubelet sees the deletion", func(s sim.StepResult) bool { return s.Actor == "kubelet/node-1" && s.Models == "killPod" })
	assert.Contains(t, seen.Summary.String(), "saw pod/web being deleted (grace period 30s")
	kp, _ := h.c.Kubelets.Pod("default", "web")
	assert.Equal(t, "stopping at t="+sim.FormatSeconds(seen.At+DefaultKubeletStop), kp.String())
	assert.NotNil(t, h.pod("web").Metadata.DeletionTimestamp, "the pod stays while its containers stop")

	stop := h.until("the containers stop", func(s sim.StepResult) bool { return s.Actor == "kubelet/node-1" && s.Models == "killPod" })
	assert.Equal(t, DefaultKubeletStop, stop.At-seen.At)
	removed := h.until("the pod is removed", func(s sim.StepResult) bool { return s.Actor == "apiserver" && !h.hasPod("web") })
	assert.Equal(t, stop.At+time.Millisecond, removed.At)
	assert.Contains(t, removed.Summary.String(), "delete pods default/web from kubelet: removed")
	h.stabilize()
	gone := h.firstStep("kubelet/node-1", "HandlePodRemoves", "web")
	assert.Contains(t, gone.Summary.String(), "is gone from the API server: its kubelet had stopped it and removed it")
	_, held := h.c.Kubelets.Pod("default", "web")
	assert.False(t, held)

	var outcomes []string
	for _, r := range h.srv.Requests() {
		if r.From == "kubelet" && r.Verb == apistore.VerbDelete {
			outcomes = append(outcomes, r.Key+" "+r.Outcome)
		}
	}
	assert.Equal(t, []string{"default/web ok"}, outcomes)

	// The DELETED event reached the watchers.
	events, err := h.store.EventsSince(api.KindPod, "", 0)
	require.NoError(t, err)
	assert.Equal(t, apistore.Deleted, events[len(events)-1].Type)
}

func TestKubeletDeleteCarriesGraceZeroAndTheUID(t *testing.T) {
	h := started(t, Config{})
	h.createPod("web", "node-1")
	h.stabilize()
	uid := h.pod("web").Metadata.UID
	h.deletePod("web", 30)
	h.stabilize()

	var deletes []apistore.Request
	for _, s := range h.steps {
		if rep, ok := s.Event.Data.(*apistore.Reply); ok && s.Event.To == "kubelet" && rep.Request.Verb == apistore.VerbDelete {
			deletes = append(deletes, *rep.Request)
		}
	}
	require.Len(t, deletes, 1)
	require.NotNil(t, deletes[0].DeleteOptions.GracePeriodSeconds)
	assert.Zero(t, *deletes[0].DeleteOptions.GracePeriodSeconds)
	assert.Equal(t, uid, deletes[0].DeleteOptions.Preconditions.UID)
}

func TestDeleteWithGraceShorterThanKubeletStopEndsAtTheDeadline(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    []harnessOption
		remover string
	}{
		{"the API server enforces the grace period", nil, "apiserver"},
		{"the kubelet removes the pod at the deadline", []harnessOption{noGraceEnforcement}, "kubelet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := started(t, Config{KubeletStop: 5 * time.Second}, tc.opts...)
			h.createPod("web", "node-1")
			h.stabilize()
			h.advance(time.Second - h.k.Now()%time.Second) // on a whole second, so the deadline is exact
			h.deletePod("web", 2)
			marked := h.until("the deletion is stored", func(s sim.StepResult) bool {
				return s.Actor == "apiserver" && h.hasPod("web") && h.pod("web").Metadata.DeletionTimestamp != nil
			})
			deadline := h.pod("web").Metadata.DeletionTimestamp.Time
			h.stabilize()
			assert.False(t, h.hasPod("web"))
			var removedAt time.Duration
			for _, s := range h.steps {
				if s.Actor == "apiserver" && s.N > marked.N && removedAt == 0 && containsAll(s.Summary.String(), "pod", "web", "removed") {
					removedAt = s.At
				}
			}
			require.NotZero(t, removedAt)
			assert.Equal(t, deadline, sim.Epoch.Add(removedAt), "removed when the grace period ends, not kubelet-stop later")
			assert.Equal(t, tc.remover == "kubelet", h.requests("kubelet", apistore.VerbDelete, "pods") == 1)
		})
	}
}

func TestDeleteWhileStartingCancelsTheStart(t *testing.T) {
	h := started(t, Config{})
	h.createPod("web", "node-1")
	h.until("admission", func(s sim.StepResult) bool { return s.Models == "HandlePodAdditions" && s.Actor == "kubelet/node-1" })
	h.deletePod("web", 30)
	h.stabilize()
	assert.False(t, h.hasPod("web"))
	assert.Empty(t, h.stepsOf("kubelet/node-1", "syncPod", "web"), "a pod deleted while starting is never reported Running")
	assert.Zero(t, h.requests("kubelet", apistore.VerbUpdate, "pods/status"))
}

func TestDeleteOfAnUnboundPodNeedsNoKubelet(t *testing.T) {
	h := started(t, Config{})
	for _, name := range []string{"node-1", "node-2", "node-3"} {
		_, err := h.c.Cordon(name)
		require.NoError(t, err)
	}
	h.createPod("web", "")
	h.stabilize()
	h.deletePod("web", 30)
	h.stabilize()
	assert.False(t, h.hasPod("web"))
	assert.Empty(t, h.c.Scheduler.View().Unschedulable)
	_, err := h.c.Uncordon("node-1")
	require.NoError(t, err)
	h.stabilize()
	assert.Zero(t, h.requests("scheduler", apistore.VerbCreate, "pods/binding"), "a deleted pod is not scheduled")
}

func TestBindFailureIsRetriedAfterABackoff(t *testing.T) {
	h := started(t, Config{})
	_, err := h.store.Faults().Add(apistore.FaultRule{Verb: apistore.VerbCreate, Resource: "pods/binding", Count: 2, Error: apistore.FaultConflict})
	require.NoError(t, err)
	h.createPod("web", "")
	h.stabilize()

	failures := h.stepsOf("scheduler", "handleBindingCycleError", "web")
	require.Len(t, failures, 2)
	assert.Contains(t, failures[0].Summary.String(), "binding pod/web to node-1 failed (Conflict")
	assert.Contains(t, failures[0].Summary.String(), "tried again in 1s")
	assert.Contains(t, failures[1].Summary.String(), "tried again in 2s")
	retries := h.stepsOf("scheduler", "flushBackoffQCompleted", "web")
	require.Len(t, retries, 2)
	assert.Equal(t, BindInitialBackoff, retries[0].At-failures[0].At)
	assert.Equal(t, 2*BindInitialBackoff, retries[1].At-failures[1].At)
	assert.Equal(t, "node-1", h.pod("web").Spec.NodeName)
	assert.Equal(t, api.PodRunning, h.pod("web").Status.Phase)
	assert.Equal(t, 3, h.requests("scheduler", apistore.VerbCreate, "pods/binding"), "failed requests are logged too")
	view := h.c.Scheduler.View()
	assert.Equal(t, 2, view.BindFailures)
	assert.Equal(t, []SchedulerNode{{Name: "node-1", Schedulable: true, Pods: 1}, {Name: "node-2", Schedulable: true, Pods: 0}, {Name: "node-3", Schedulable: true, Pods: 0}}, view.Nodes,
		"a failed binding is forgotten on its node")
}

func TestBarePodCreatedRunningIsAdopted(t *testing.T) {
	h := started(t, Config{})
	h.createPod("bare", "node-1")
	h.until("admission", func(s sim.StepResult) bool { return s.Models == "HandlePodAdditions" && s.Actor == "kubelet/node-1" })
	// Someone else (the scenario's `create pod --phase=Running --ready`)
	// writes the status first.
	st := h.pod("bare").DeepCopy()
	st.Metadata.ResourceVersion = ""
	st.Status.Phase = api.PodRunning
	st.Status.Conditions = append(st.Status.Conditions, api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue})
	h.user.Send(apistore.Request{Verb: apistore.VerbUpdate, Kind: api.KindPod, Subresource: apistore.SubresourceStatus, Object: st})
	h.stabilize()
	adopted := h.firstStep("kubelet/node-1", "HandlePodUpdates", "bare")
	assert.Contains(t, adopted.Summary.String(), "saw another writer report pod/bare Running and Ready before its containers started")
	assert.Zero(t, h.requests("kubelet", apistore.VerbUpdate, "pods/status"), "the kubelet keeps the status it found")
	require.NoError(t, h.c.Kubelets.SetReady("default", "bare", false), "an adopted pod runs")
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

func TestFailedListsAreRetried(t *testing.T) {
	h := newHarness(t, Config{})
	_, err := h.store.Faults().Add(apistore.FaultRule{Verb: apistore.VerbList, Resource: "pods", Count: 2})
	require.NoError(t, err)
	h.stabilize()
	assert.Equal(t, 2, h.requests("", apistore.VerbList, "pods")-2, "the kubelets and the scheduler each listed pods again")
	retried := h.stepsOf("scheduler", "Reflector.list", "")
	require.Len(t, retried, 1)
	h.createPod("web", "")
	h.stabilize()
	assert.Equal(t, api.PodRunning, h.pod("web").Status.Phase)
}

func TestFailedStatusWriteIsRetried(t *testing.T) {
	h := started(t, Config{})
	_, err := h.store.Faults().Add(apistore.FaultRule{Verb: apistore.VerbUpdate, Resource: "pods/status", Count: 1})
	require.NoError(t, err)
	h.createPod("web", "node-1")
	h.stabilize()
	failed := h.firstStep("kubelet/node-1", "statusManager.syncPod", "web")
	assert.Contains(t, failed.Summary.String(), "writing the status of pod/web failed")
	again := h.firstStep("kubelet/node-1", "statusManager.syncBatch", "web")
	assert.Equal(t, statusRetryPeriod, again.At-failed.At)
	assert.Equal(t, api.PodRunning, h.pod("web").Status.Phase)
	assert.True(t, api.IsPodReady(h.pod("web")))
}

// TestFailedRemovalLeavesASnapshotOfThePodAsItWas: the kubelet that retries a
// failed removal changes its record of the pod; a snapshot taken before
// shares that record, and must still see the removal in flight.
func TestFailedRemovalLeavesASnapshotOfThePodAsItWas(t *testing.T) {
	h := started(t, Config{})
	h.createPod("web", "node-1")
	h.stabilize()
	h.deletePod("web", 30)
	h.until("the kubelet removes the pod", func(r sim.StepResult) bool {
		return r.Actor == "kubelet/node-1" && strings.HasPrefix(r.Summary.String(), "stopped the containers of pod/web")
	})
	_, err := h.store.Faults().Add(apistore.FaultRule{Verb: apistore.VerbDelete, Resource: "pods", Count: 1})
	require.NoError(t, err)
	snap := h.c.Kubelets.Snapshot().(*kubeletsSnapshot)
	require.Equal(t, PodRemoving, snap.pods.Read()["default/web"].state)

	failed := h.until("the removal fails", func(r sim.StepResult) bool {
		return r.Actor == "kubelet/node-1" && strings.HasPrefix(r.Summary.String(), "removing pod/web failed")
	})
	assert.Contains(t, failed.Summary.String(), "trying again in")
	assert.Equal(t, PodStopping, h.c.Kubelets.pods.Read()["default/web"].state)
	assert.Equal(t, PodRemoving, snap.pods.Read()["default/web"].state, "the snapshot's record is not the live one")
}

// assertNodesWithoutPods checks that NodesWithoutPods finds the nodes Nodes
// finds, pods aside.
func assertNodesWithoutPods(t *testing.T, c *Cluster) {
	t.Helper()
	want := c.Nodes()
	for i := range want {
		want[i].Pods = nil
	}
	assert.Equal(t, want, c.NodesWithoutPods())
}
