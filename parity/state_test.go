package parity

import (
	"strings"
	"testing"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/printers"
	"github.com/reconcilelab/rlab/core/script"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ptrTrue() *bool { t := true; return &t }

func rs(name, owner, revision string) *api.ReplicaSet {
	r := &api.ReplicaSet{Metadata: api.ObjectMeta{Namespace: "default", Name: name, UID: "uid-" + name}}
	three := int32(3)
	r.Spec.Replicas = &three
	if owner != "" {
		r.Metadata.OwnerReferences = []api.OwnerReference{{Kind: "Deployment", Name: owner, Controller: ptrTrue()}}
		r.Metadata.Annotations = map[string]string{printers.RevisionAnnotation: revision}
	}
	return r
}

func pod(name, ownerKind, owner, phase string, ready bool) *api.Pod {
	p := &api.Pod{Metadata: api.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{"app": "web", "pod-template-hash": name}}}
	if owner != "" {
		p.Metadata.GenerateName = owner + "-"
		p.Metadata.OwnerReferences = []api.OwnerReference{{Kind: ownerKind, Name: owner, Controller: ptrTrue()}}
	}
	p.Spec.Containers = []api.Container{{Name: "app", Image: "nginx:1.0"}}
	p.Status.Phase = phase
	st := api.ConditionFalse
	if ready {
		st = api.ConditionTrue
	}
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: st}}
	return p
}

// Two worlds whose controllers drew different names agree: a Deployment's
// ReplicaSet is known by its Deployment and revision, its pods by their
// owner, and the pod-template-hash label, made from the names, is left out.
func TestGeneratedNamesAreComparedByOwnerAndRevision(t *testing.T) {
	sim := Reading{
		api.KindReplicaSet: {rs("web-7d9f8", "web", "1")},
		api.KindPod:        {pod("web-7d9f8-aaaaa", "ReplicaSet", "web-7d9f8", api.PodRunning, true), pod("web-7d9f8-bbbbb", "ReplicaSet", "web-7d9f8", api.PodRunning, true)},
	}
	real := Reading{
		api.KindReplicaSet: {rs("web-5c6b4", "web", "1")},
		api.KindPod:        {pod("web-5c6b4-zzzzz", "ReplicaSet", "web-5c6b4", api.PodRunning, true), pod("web-5c6b4-yyyyy", "ReplicaSet", "web-5c6b4", api.PodRunning, true)},
	}
	simState, realState := StateOf(sim), StateOf(real)
	assert.Empty(t, Diff(simState, realState))
	require.Contains(t, simState, "pods: of rs[deploy/web revision 1]")
	assert.True(t, strings.HasPrefix(simState["pods: of rs[deploy/web revision 1]"], "2× phase=Running ready=true image=nginx:1.0"),
		"pods are counted by what they look like: %q", simState["pods: of rs[deploy/web revision 1]"])
}

func TestDiffShowsWhatDiffersOnEachSide(t *testing.T) {
	sim := Reading{api.KindPod: {pod("web-aaaaa", "ReplicaSet", "web", api.PodRunning, true), pod("lone", "", "", api.PodRunning, true)}}
	real := Reading{api.KindPod: {pod("web-zzzzz", "ReplicaSet", "web", api.PodPending, false)}}
	d := Diff(StateOf(sim), StateOf(real))
	require.Len(t, d, 2)
	assert.Equal(t, "pod/lone", d[0].Key)
	assert.Empty(t, d[0].Real, "the bare pod exists on rlab only")
	assert.Equal(t, "pods: of rs/web", d[1].Key)
	assert.Contains(t, d[1].Sim, "phase=Running ready=true")
	assert.Contains(t, d[1].Real, "phase=Pending ready=false")
	assert.Contains(t, d[1].String(), "rlab: 1× phase=Running")
}

func TestEventsAreComparedByInvolvedObjectAndReason(t *testing.T) {
	ev := func(name, involved string, count int32) *api.Event {
		e := &api.Event{Metadata: api.ObjectMeta{Namespace: "default", Name: name}, Reason: "SuccessfulCreate", Type: api.EventNormal, Count: count}
		e.InvolvedObject.Kind, e.InvolvedObject.Namespace, e.InvolvedObject.Name = "ReplicaSet", "default", involved
		return e
	}
	sim := Reading{api.KindReplicaSet: {rs("web-1", "web", "1")}, api.KindEvent: {ev("a", "web-1", 1), ev("b", "web-1", 1)}}
	real := Reading{api.KindReplicaSet: {rs("web-2", "web", "1")}, api.KindEvent: {ev("x", "web-2", 2)}}
	d := Diff(StateOf(sim), StateOf(real))
	require.Len(t, d, 1)
	assert.Equal(t, "events: rs[deploy/web revision 1] Normal SuccessfulCreate", d[0].Key)
	assert.Equal(t, "objects=2 total=2", d[0].Sim)
	assert.Equal(t, "objects=1 total=2", d[0].Real)
}

func TestExpectReadsTheSameFieldsOnARealReading(t *testing.T) {
	s, err := script.Parse("expect pods -l app=web count=2 ready=true\nexpect pods -l app=web count=3\nexpect queue replicaset len=0\n", "t")
	require.NoError(t, err)
	r := Reading{api.KindPod: {pod("web-a", "ReplicaSet", "web", api.PodRunning, true), pod("web-b", "ReplicaSet", "web", api.PodRunning, true)}}
	assert.NoError(t, Expect(s.Commands[0], r, nil))
	err = Expect(s.Commands[1], r, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "found 2")
	assert.ErrorIs(t, Expect(s.Commands[2], r, nil), ErrNotComparable, "a workqueue is private to a real controller")
}

func TestObjectsAreSettledOnlyWhenTheirControllerIsDone(t *testing.T) {
	r := rs("web", "", "")
	r.Metadata.Generation, r.Status.ObservedGeneration = 2, 1
	assert.Contains(t, objectUnsettled(r), "has not observed generation 2")
	r.Status.ObservedGeneration = 2
	r.Status.Replicas, r.Status.ReadyReplicas, r.Status.AvailableReplicas = 3, 3, 2
	assert.Contains(t, objectUnsettled(r), "3 ready replicas and 2 available")
	r.Status.AvailableReplicas = 3
	assert.Empty(t, objectUnsettled(r))

	d := &api.Deployment{Metadata: api.ObjectMeta{Name: "web", Generation: 1}}
	d.Status.ObservedGeneration = 1
	d.Status.Conditions = []api.DeploymentCondition{{Type: "Progressing", Status: api.ConditionTrue, Reason: "ReplicaSetUpdated"}}
	assert.Contains(t, objectUnsettled(d), "still rolling out")
	d.Status.Conditions[0].Reason = "NewReplicaSetAvailable"
	assert.Empty(t, objectUnsettled(d))
}

func TestGoldenOutputIsLeftOutAndLinesKept(t *testing.T) {
	src := "create rs web --replicas=1 --selector=app=web\n----\nreplicaset.apps/web created\n\nstabilize\n"
	out := stripGolden(src)
	assert.Equal(t, "create rs web --replicas=1 --selector=app=web\n\n\n\nstabilize\n", out)

	withBlanks := "describe rs/web\n----\n----\nName: web\n\nEvents: none\n----\n----\n\nstabilize\n"
	assert.Equal(t, "describe rs/web\n\n\n\n\n\n\n\n\nstabilize\n", stripGolden(withBlanks),
		"output holding blank lines runs to the ---- ---- pair")
}

func TestKnownDivergencesExplainOnlyWhatTheyName(t *testing.T) {
	steps := Line{Key: "events: deploy/web Normal ScalingReplicaSet", Sim: "objects=10 total=13", Real: "objects=10 total=17"}
	assert.NotEmpty(t, KnownDivergence(steps))
	created := Line{Key: "events: rs/web Normal SuccessfulCreate", Sim: "objects=3 total=3", Real: "objects=2 total=2"}
	assert.Empty(t, KnownDivergence(created))

	gen := Line{Key: "rs[deploy/web revision 1]", Sim: "spec.replicas=0 observedGeneration=8 generation=8", Real: "spec.replicas=0 observedGeneration=7 generation=7"}
	assert.NotEmpty(t, KnownDivergence(gen))
	replicas := Line{Key: "rs[deploy/web revision 1]", Sim: "spec.replicas=1 observedGeneration=8 generation=8", Real: "spec.replicas=0 observedGeneration=7 generation=7"}
	assert.Empty(t, KnownDivergence(replicas), "a difference beyond the generations still counts")
}

// A ReplicaSet orphaned by deleting its Deployment with --cascade=orphan
// keeps its hashed name; it is still known by revision, now with no owner.
func TestAnOrphanedDeploymentReplicaSetIsKnownByRevision(t *testing.T) {
	orphan := func(name string) *api.ReplicaSet {
		r := rs(name, "", "")
		hash := name[len("db-"):]
		r.Metadata.Labels = map[string]string{"app": "db", "pod-template-hash": hash}
		r.Metadata.Annotations = map[string]string{printers.RevisionAnnotation: "1"}
		return r
	}
	sim, real := StateOf(Reading{api.KindReplicaSet: {orphan("db-cbff99d88")}}), StateOf(Reading{api.KindReplicaSet: {orphan("db-6648b7d8ff")}})
	assert.Empty(t, Diff(sim, real))
	assert.Contains(t, sim, "rs[none revision 1]")
}
