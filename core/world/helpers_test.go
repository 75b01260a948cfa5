package world

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
)

// Helpers shared by the end-to-end and chaos tests. world_test.go already
// has newWorld, replicaSet, createRS, owned, ready and rsStatus.

// fastWorld is a started world without timeline snapshots, for tests that
// never seek.
func fastWorld(t testing.TB) *World {
	t.Helper()
	return newWorld(t, Config{SnapshotEvery: -1})
}

// settle runs the world until only background work is left and fails the
// test if it does not get there within the default limits.
func settle(t testing.TB, w *World) {
	t.Helper()
	_, err := w.Stabilize(sim.Limits{})
	require.NoError(t, err, "the world must come to rest")
}

// runRecording runs the world like settle, and returns every step it ran.
func runRecording(t testing.TB, w *World, lim sim.Limits) []sim.StepResult {
	t.Helper()
	var steps []sim.StepResult
	_, err := w.RunUntil("record", func(res sim.StepResult) bool {
		steps = append(steps, res.Kept())
		return false
	}, lim, true)
	require.NoError(t, err, "the world must come to rest")
	return steps
}

// input applies an input through the timeline and fails the test if it
// fails.
func input(t testing.TB, w *World, name string, apply func(w *World) error) {
	t.Helper()
	require.NoError(t, w.Do(name, apply), "input %q", name)
}

// send is an input that sends one request as kubectl.
func send(t testing.TB, w *World, name string, req apistore.Request) {
	t.Helper()
	input(t, w, name, func(w *World) error {
		w.Send(req)
		return nil
	})
}

func replicationController(name string, replicas int32, selector map[string]string) *api.ReplicationController {
	return &api.ReplicationController{
		Metadata: api.ObjectMeta{Namespace: "default", Name: name},
		Spec: api.ReplicationControllerSpec{
			Replicas: &replicas,
			Selector: selector,
			Template: &api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: maps.Clone(selector)},
				Spec:     api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
			},
		},
	}
}

func createRC(t testing.TB, w *World, rc *api.ReplicationController) {
	t.Helper()
	send(t, w, "create rc "+rc.Metadata.Name, apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindReplicationController, Object: rc})
}

// barePod is a pod nobody owns, as `create pod NAME --labels=…` makes it.
func barePod(name string, labels map[string]string) *api.Pod {
	return &api.Pod{
		Metadata: api.ObjectMeta{Namespace: "default", Name: name, Labels: labels},
		Spec:     api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
	}
}

func createPod(t testing.TB, w *World, pod *api.Pod) {
	t.Helper()
	send(t, w, "create pod "+pod.Metadata.Name, apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindPod, Object: pod})
}

// scale sets spec.replicas through the API, as `kubectl scale` does: it reads
// the owner when the input is applied, so a replay reads the same version.
func scale(t testing.TB, w *World, kind api.Kind, name string, replicas int32) {
	t.Helper()
	input(t, w, "scale "+api.ShortName(kind)+"/"+name+" --replicas="+strconv.Itoa(int(replicas)), func(w *World) error {
		return scaleNow(w, kind, name, replicas)
	})
}

func scaleNow(w *World, kind api.Kind, name string, replicas int32) error {
	obj, ok := w.Store.Object(kind, "default", name)
	if !ok {
		return &notFound{kind: kind, name: name}
	}
	upd := obj.DeepCopyObject()
	switch o := upd.(type) {
	case *api.ReplicaSet:
		o.Spec.Replicas = &replicas
	case *api.ReplicationController:
		o.Spec.Replicas = &replicas
	}
	upd.Meta().ResourceVersion = ""
	w.Send(apistore.Request{Verb: apistore.VerbUpdate, Kind: kind, Object: upd})
	return nil
}

type notFound struct {
	kind api.Kind
	name string
}

func (e *notFound) Error() string { return api.ShortName(e.kind) + "/" + e.name + " not found" }

// deletePod deletes a pod with the given grace period (nil: the pod's own,
// 30s).
func deletePod(t testing.TB, w *World, name string, grace *int64) {
	t.Helper()
	send(t, w, "delete pod/"+name, apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindPod, Namespace: "default", Name: name,
		DeleteOptions: &apistore.DeleteOptions{GracePeriodSeconds: grace}})
}

// killPod is `kill pods`: a delete with grace period 0.
func killPod(t testing.TB, w *World, name string) {
	t.Helper()
	deletePod(t, w, name, new(int64))
}

// patchPod patches a pod's metadata as kubectl label/annotate do.
func patchPod(t testing.TB, w *World, name string, patch apistore.MetaPatch) {
	t.Helper()
	send(t, w, "patch pod/"+name, apistore.Request{Verb: apistore.VerbPatch, Kind: api.KindPod, Namespace: "default", Name: name, Patch: &patch})
}

// deleteOwner deletes a ReplicaSet or ReplicationController with a
// propagation policy.
func deleteOwner(t testing.TB, w *World, kind api.Kind, name string, policy apistore.PropagationPolicy) {
	t.Helper()
	send(t, w, "delete "+api.ShortName(kind)+"/"+name+" --cascade="+string(policy), apistore.Request{Verb: apistore.VerbDelete, Kind: kind,
		Namespace: "default", Name: name, DeleteOptions: &apistore.DeleteOptions{PropagationPolicy: policy}})
}

// pod returns a pod from the API store, nil if there is none.
func pod(w *World, name string) *api.Pod {
	o, ok := w.Store.Object(api.KindPod, "default", name)
	if !ok {
		return nil
	}
	return o.(*api.Pod)
}

// pods returns every pod in the API store, in key order.
func pods(w *World) []*api.Pod {
	var out []*api.Pod
	for _, o := range w.Store.Objects(api.KindPod, "default") {
		out = append(out, o.(*api.Pod))
	}
	return out
}

func names(ps []*api.Pod) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Metadata.Name
	}
	slices.Sort(out)
	return out
}

func isActive(p *api.Pod) bool {
	return p.Metadata.DeletionTimestamp == nil && p.Status.Phase != api.PodFailed && p.Status.Phase != api.PodSucceeded
}

func isReady(p *api.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

// controllerOf returns the kind/name of a pod's controller, "" for an
// orphan.
func controllerOf(p *api.Pod) string {
	if ref := api.GetControllerOf(&p.Metadata); ref != nil {
		return ref.Kind + "/" + ref.Name
	}
	return ""
}

func rcStatus(t testing.TB, w *World, name string) api.ReplicationControllerStatus {
	t.Helper()
	o, ok := w.Store.Object(api.KindReplicationController, "default", name)
	require.True(t, ok, "rc/%s is in the API", name)
	return o.(*api.ReplicationController).Status
}

func rsCondition(st api.ReplicaSetStatus, typ string) *api.ReplicaSetCondition {
	for i := range st.Conditions {
		if st.Conditions[i].Type == typ {
			return &st.Conditions[i]
		}
	}
	return nil
}

// events returns the Events in the API whose source component and reason
// match ("" matches any).
func events(w *World, component, reason string) []*api.Event {
	var out []*api.Event
	for _, o := range w.Store.Objects(api.KindEvent, "default") {
		e := o.(*api.Event)
		if (component == "" || e.Source.Component == component) && (reason == "" || e.Reason == reason) {
			out = append(out, e)
		}
	}
	return out
}

// requests counts the requests logged from index since on whose sender
// starts with from and whose verb and resource match ("" matches any).
func requests(w *World, since int, from string, verb apistore.Verb, resource string) int {
	n := 0
	for _, r := range w.Server.Requests()[since:] {
		if strings.HasPrefix(r.From, from) && (verb == "" || r.Verb == verb) && (resource == "" || r.Resource == resource) {
			n++
		}
	}
	return n
}

// stepsOf returns the steps whose actor and model match ("" matches any) and
// whose summary contains text.
func stepsOf(steps []sim.StepResult, actor, models, text string) []sim.StepResult {
	var out []sim.StepResult
	for _, s := range steps {
		if (actor == "" || s.Actor == actor) && (models == "" || s.Models == models) && strings.Contains(s.Summary.String(), text) {
			out = append(out, s)
		}
	}
	return out
}

// podsOnNode counts the active pods per node ("" for unscheduled ones).
func podsOnNode(ps []*api.Pod) map[string]int {
	out := map[string]int{}
	for _, p := range ps {
		out[p.Spec.NodeName]++
	}
	return out
}

// fingerprint describes the whole world in text: the clock, the trace hash,
// every object in the API store as JSON, the faults, and the view of every
// component. Two worlds with equal fingerprints are the same world, as far as
// anyone can look.
func fingerprint(t testing.TB, w *World) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "step %d t=%v hash %x rv %d requests %d\n", w.Kernel.Steps(), w.Kernel.Now(), w.Kernel.Hash(),
		w.Store.ResourceVersion(), len(w.Server.Requests()))
	for _, kind := range []api.Kind{api.KindNode, api.KindPod, api.KindReplicaSet, api.KindReplicationController, api.KindEvent} {
		for _, o := range w.Store.Objects(kind, "") {
			j, err := json.Marshal(o)
			require.NoError(t, err)
			fmt.Fprintf(&b, "%s %s\n", kind, j)
		}
	}
	fmt.Fprintf(&b, "faults %+v\n", w.Store.Faults().Rules())
	for _, inf := range []*informerView{{"pods", w.Pods.View()}, {"rs", w.ReplicaSets.View()}, {"rc", w.ReplicationControllers.View()}} {
		fmt.Fprintf(&b, "informer %s %+v\n", inf.name, inf.view)
	}
	fmt.Fprintf(&b, "rs %+v\nrc %+v\n", w.RS.View(), w.RC.View())
	fmt.Fprintf(&b, "gc %+v\n", w.GC.View())
	fmt.Fprintf(&b, "kubelets %+v\nscheduler %+v\n", w.Cluster.Kubelets.Pods(), w.Cluster.Scheduler.View())
	for _, ev := range w.Kernel.Agenda() {
		fmt.Fprintf(&b, "agenda %v #%d %s %s\n", ev.At, ev.Seq, ev.To, ev.Kind)
	}
	return b.String()
}

type informerView struct {
	name string
	view any
}
