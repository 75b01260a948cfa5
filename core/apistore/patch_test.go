package apistore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

func TestPatchLabelsAndAnnotations(t *testing.T) {
	h := newHarness(t)
	h.create(newPod("default", "web", map[string]string{"app": "web", "tier": "front"}))

	out, err := h.s.Patch(api.KindPod, "default", "web", MetaPatch{
		SetLabels:      map[string]string{"app": "db", "new": "x"},
		RemoveLabels:   []string{"tier"},
		SetAnnotations: map[string]string{api.PodDeletionCostAnnotation: "-5"},
	})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"app": "db", "new": "x"}, out.Meta().Labels)
	assert.Equal(t, map[string]string{api.PodDeletionCostAnnotation: "-5"}, out.Meta().Annotations)
	h.check()

	out, err = h.s.Patch(api.KindPod, "default", "web", MetaPatch{
		RemoveLabels: []string{"app", "new"}, RemoveAnnotations: []string{api.PodDeletionCostAnnotation}})
	require.NoError(t, err)
	assert.Nil(t, out.Meta().Labels)
	assert.Nil(t, out.Meta().Annotations)
	h.check()

	_, err = h.s.Patch(api.KindPod, "default", "web", MetaPatch{SetLabels: map[string]string{"bad key": "x"}})
	assert.True(t, IsInvalid(err), "a patch is validated like an update")

	_, err = h.s.Patch(api.KindPod, "default", "ghost", MetaPatch{})
	assert.True(t, IsNotFound(err))
	h.check()
}

func TestPatchNoOpWritesNothing(t *testing.T) {
	h := newHarness(t)
	h.create(newPod("default", "web", map[string]string{"app": "web"}))
	rv := h.s.ResourceVersion()
	resp := h.s.Serve(Request{Verb: VerbPatch, Kind: api.KindPod, Namespace: "default", Name: "web",
		Patch: &MetaPatch{SetLabels: map[string]string{"app": "web"}}})
	require.NoError(t, resp.Err)
	assert.Equal(t, rv, h.s.ResourceVersion())
	assert.Empty(t, resp.Events)

	resp = h.s.Serve(Request{Verb: VerbPatch, Kind: api.KindPod, Namespace: "default", Name: "web"})
	assert.True(t, IsBadRequest(resp.Err), "a patch request needs a patch")
}

// adoptPatch is the patch the replication manager sends to adopt a pod.
func adoptPatch(pod, owner api.Object) MetaPatch {
	return MetaPatch{UID: pod.Meta().UID, SetOwnerReferences: []api.OwnerReference{controllerRef(owner)}}
}

// releasePatch is the patch it sends to release one.
func releasePatch(pod, owner api.Object) MetaPatch {
	return MetaPatch{UID: pod.Meta().UID, RemoveOwnerReferences: []string{owner.Meta().UID}}
}

func TestPatchAdoptAndRelease(t *testing.T) {
	h := newHarness(t)
	web := map[string]string{"app": "web"}
	rs := h.create(newRS("default", "web", 1, web))
	pod := h.create(newPod("default", "web-x", web))

	out, err := h.s.Patch(api.KindPod, "default", "web-x", adoptPatch(pod, rs))
	require.NoError(t, err)
	ref := api.GetControllerOf(out.Meta())
	require.NotNil(t, ref, "the pod is adopted")
	assert.Equal(t, rs.Meta().UID, ref.UID)
	assert.Equal(t, "apps/v1", ref.APIVersion)
	assert.Equal(t, "ReplicaSet", ref.Kind)
	assert.True(t, *ref.BlockOwnerDeletion)
	h.check()

	// Adopting again merges by uid: still one reference.
	out, err = h.s.Patch(api.KindPod, "default", "web-x", adoptPatch(pod, rs))
	require.NoError(t, err)
	assert.Len(t, out.Meta().OwnerReferences, 1)

	// A non-controller owner is kept alongside.
	other := api.OwnerReference{APIVersion: "v1", Kind: "Node", Name: "node-1", UID: "node-uid"}
	out, err = h.s.Patch(api.KindPod, "default", "web-x", MetaPatch{SetOwnerReferences: []api.OwnerReference{other}})
	require.NoError(t, err)
	assert.Len(t, out.Meta().OwnerReferences, 2)

	out, err = h.s.Patch(api.KindPod, "default", "web-x", releasePatch(pod, rs))
	require.NoError(t, err)
	assert.Nil(t, api.GetControllerOf(out.Meta()), "the pod is released")
	assert.Equal(t, []api.OwnerReference{other}, out.Meta().OwnerReferences)
	h.check()
}

func TestPatchRejectsASecondController(t *testing.T) {
	h := newHarness(t)
	web := map[string]string{"app": "web"}
	a := h.create(newRS("default", "a", 1, web))
	b := h.create(newRS("default", "b", 1, web))
	pod := h.create(newPod("default", "web-x", web))
	_, err := h.s.Patch(api.KindPod, "default", "web-x", adoptPatch(pod, a))
	require.NoError(t, err)

	rv := h.s.ResourceVersion()
	_, err = h.s.Patch(api.KindPod, "default", "web-x", adoptPatch(pod, b))
	se := statusErr(t, err)
	assert.True(t, IsInvalid(err), "two controllers racing to adopt one pod cannot both win")
	refA, refB := controllerRef(a), controllerRef(b)
	assert.Equal(t, `Pod "web-x" is invalid: metadata.ownerReferences: Invalid value: []v1.OwnerReference{`+
		showOwnerReference(refA)+", "+showOwnerReference(refB)+`}: `+
		`Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b`,
		se.Message)
	require.Len(t, se.Details.Causes, 1)
	assert.Equal(t, "metadata.ownerReferences", se.Details.Causes[0].Field)
	assert.Equal(t, rv, h.s.ResourceVersion())
	h.check()
}

func TestPatchUIDPrecondition(t *testing.T) {
	h := newHarness(t)
	web := map[string]string{"app": "web"}
	rs := h.create(newRS("default", "web", 1, web))
	old := h.create(newPod("default", "web-x", web))

	// The pod is deleted and another takes its name before the patch arrives.
	_, err := h.s.Delete(api.KindPod, "default", "web-x", GracePeriod(0))
	require.NoError(t, err)
	h.create(newPod("default", "web-x", web))

	_, err = h.s.Patch(api.KindPod, "default", "web-x", adoptPatch(old, rs))
	se := statusErr(t, err)
	assert.True(t, IsInvalid(err))
	assert.Equal(t, `Pod "web-x" is invalid: metadata.uid: Invalid value: "`+old.Meta().UID+`": field is immutable`, se.Message)
	current, _ := h.s.Object(api.KindPod, "default", "web-x")
	assert.Nil(t, current.Meta().OwnerReferences, "the new pod was not adopted by mistake")

	_, err = h.s.Patch(api.KindPod, "default", "web-x", releasePatch(old, rs))
	assert.True(t, IsInvalid(err), "nor released")
	h.check()
}

func TestPatchResourceVersionPrecondition(t *testing.T) {
	h := newHarness(t)
	pod := h.create(newPod("default", "web", nil))
	_, err := h.s.Patch(api.KindPod, "default", "web", MetaPatch{SetLabels: map[string]string{"a": "b"}})
	require.NoError(t, err)

	_, err = h.s.Patch(api.KindPod, "default", "web", MetaPatch{
		ResourceVersion: pod.Meta().ResourceVersion, SetLabels: map[string]string{"a": "c"}})
	assert.Equal(t, `Operation cannot be fulfilled on pods "web": the object has been modified; `+
		`please apply your changes to the latest version and try again`, statusErr(t, err).Message)
	h.check()
}

func TestPatchFinalizers(t *testing.T) {
	h := newHarness(t)
	h.create(newPod("default", "web", nil))
	out, err := h.s.Patch(api.KindPod, "default", "web", MetaPatch{AddFinalizers: []string{"example.com/a", "example.com/b", "example.com/a"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"example.com/a", "example.com/b"}, out.Meta().Finalizers)
	out, err = h.s.Patch(api.KindPod, "default", "web", MetaPatch{RemoveFinalizers: []string{"example.com/a"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"example.com/b"}, out.Meta().Finalizers)
	h.check()
}
