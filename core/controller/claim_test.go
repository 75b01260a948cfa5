package controller

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/labels"
)

// The fixtures of upstream's controller_ref_manager_test.go.
var (
	productionLabel         = map[string]string{"type": "production"}
	testLabel               = map[string]string{"type": "testing"}
	productionLabelSelector = labels.SelectorFromSet(productionLabel)
)

const claimControllerUID = "123"

// claimPod is that file's newPod: a pod in "default" with the given labels,
// controlled by owner when it is not nil.
func claimPod(name string, podLabels map[string]string, owner *api.ObjectMeta) *api.Pod {
	pod := &api.Pod{
		Metadata: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, Labels: podLabels},
		Spec:     api.PodSpec{Containers: []api.Container{{Name: "c", Image: "foo/bar"}}},
	}
	if owner != nil {
		pod.Metadata.OwnerReferences = []api.OwnerReference{api.NewControllerRef(owner, "apps/v1", "Fake")}
	}
	return pod
}

// sentPatch is one patch the test's claim loop sent: the typed patch the model
// sends and the JSON upstream would have sent.
type sentPatch struct {
	pod   string
	patch apistore.MetaPatch
	body  string
}

// claimLoop is upstream's ClaimPods built from the pure pieces, as the sync
// will run it: decide per pod; adopt after a may-we-adopt check made at most
// once; send the patches through patchPod; interpret the answers; gather the
// errors.
func claimLoop(controller *api.ObjectMeta, selector labels.Selector, pods []*api.Pod, canAdopt func() error,
	patchPod func(*api.Pod, apistore.MetaPatch) error, finalizers ...string) (claimed []*api.Pod, sent []sentPatch, errs []error) {
	var adoptChecked bool
	var adoptErr error
	for _, pod := range pods {
		decision, why := DecideClaim(pod, controller, selector)
		if why == "" {
			errs = append(errs, errors.New("no reason given for "+pod.Metadata.Name))
		}
		switch decision {
		case ClaimClaimed:
			claimed = append(claimed, pod)
		case ClaimNeedsRelease:
			p := releasePatch(pod, controller.UID, finalizers...)
			sent = append(sent, sentPatch{pod.Metadata.Name, p,
				string(GenerateDeleteOwnerRefStrategicMergeBytes(pod.Metadata.UID, []string{controller.UID}, finalizers...))})
			if err := releaseResult(patchPod(pod, p)); err != nil {
				errs = append(errs, err)
			}
		case ClaimNeedsAdoption:
			if !adoptChecked {
				adoptChecked, adoptErr = true, canAdopt()
			}
			var err error
			if adoptErr != nil {
				err = cantAdoptError(pod, adoptErr)
			} else {
				p := adoptionPatch(pod, controller, "v1", "ReplicationController", finalizers...)
				sent = append(sent, sentPatch{pod.Metadata.Name, p,
					string(adoptionPatchBytes(pod.Metadata.UID, controller, "v1", "ReplicationController", finalizers...))})
				err = patchPod(pod, p)
			}
			ok, reported := adoptResult(err)
			if ok {
				claimed = append(claimed, pod)
			}
			if reported != nil {
				errs = append(errs, reported)
			}
		}
	}
	return claimed, sent, errs
}

// TestClaimPods reproduces upstream's test of the same name (spec §5.3, item
// 40), cases a to i: which pods are claimed, how many patches are sent, and
// that each patch names the controller's UID and every finalizer.
func TestClaimPods(t *testing.T) {
	deleting := api.NewTimePtr(unitNow)
	type test struct {
		name       string
		controller api.ObjectMeta
		finalizers []string
		pods       func(c *api.ObjectMeta) []*api.Pod
		claimed    []string
		patches    []string // the pods patched, in order
	}
	tests := []test{
		{
			name:       "claim pods with correct label",
			controller: api.ObjectMeta{Namespace: "default"},
			pods: func(*api.ObjectMeta) []*api.Pod {
				return []*api.Pod{claimPod("pod1", productionLabel, nil), claimPod("pod2", testLabel, nil)}
			},
			claimed: []string{"pod1"},
			patches: []string{"pod1"},
		},
		{
			name:       "controller marked for deletion can not claim pods",
			controller: api.ObjectMeta{Namespace: "default", UID: claimControllerUID, DeletionTimestamp: deleting},
			pods: func(*api.ObjectMeta) []*api.Pod {
				return []*api.Pod{claimPod("pod1", productionLabel, nil), claimPod("pod2", productionLabel, nil)}
			},
		},
		{
			name:       "controller marked for deletion can not claim new pods",
			controller: api.ObjectMeta{Namespace: "default", UID: claimControllerUID, DeletionTimestamp: deleting},
			pods: func(c *api.ObjectMeta) []*api.Pod {
				return []*api.Pod{claimPod("pod1", productionLabel, c), claimPod("pod2", productionLabel, nil)}
			},
			claimed: []string{"pod1"},
		},
		{
			name:       "controller can not claim pods owned by another controller",
			controller: api.ObjectMeta{Namespace: "default", UID: claimControllerUID},
			pods: func(c *api.ObjectMeta) []*api.Pod {
				other := &api.ObjectMeta{Namespace: "default", UID: "AAAAA"}
				return []*api.Pod{claimPod("pod1", productionLabel, c), claimPod("pod2", productionLabel, other)}
			},
			claimed: []string{"pod1"},
		},
		{
			name:       "controller releases claimed pods when selector doesn't match",
			controller: api.ObjectMeta{Namespace: "default", UID: claimControllerUID},
			pods: func(c *api.ObjectMeta) []*api.Pod {
				return []*api.Pod{claimPod("pod1", productionLabel, c), claimPod("pod2", testLabel, c)}
			},
			claimed: []string{"pod1"},
			patches: []string{"pod2"},
		},
		{
			name:       "controller does not claim orphaned pods marked for deletion",
			controller: api.ObjectMeta{Namespace: "default", UID: claimControllerUID},
			pods: func(c *api.ObjectMeta) []*api.Pod {
				owned := claimPod("pod1", productionLabel, c)
				orphan := claimPod("pod2", productionLabel, nil)
				owned.Metadata.DeletionTimestamp = deleting
				orphan.Metadata.DeletionTimestamp = deleting
				return []*api.Pod{owned, orphan}
			},
			claimed: []string{"pod1"},
		},
		{
			name:       "controller claims or releases pods according to selector with finalizers",
			controller: api.ObjectMeta{Namespace: "default", UID: claimControllerUID},
			finalizers: []string{"foo-finalizer", "bar-finalizer"},
			pods: func(c *api.ObjectMeta) []*api.Pod {
				return []*api.Pod{claimPod("pod1", productionLabel, c), claimPod("pod2", testLabel, c), claimPod("pod3", productionLabel, nil)}
			},
			claimed: []string{"pod1", "pod3"},
			patches: []string{"pod2", "pod3"},
		},
		{
			name:       "controller does not claim pods of different namespace",
			controller: api.ObjectMeta{Namespace: "default", UID: claimControllerUID},
			pods: func(*api.ObjectMeta) []*api.Pod {
				pod2 := claimPod("pod2", productionLabel, nil)
				pod2.Metadata.Namespace = "fakens"
				return []*api.Pod{claimPod("pod1", productionLabel, nil), pod2}
			},
			claimed: []string{"pod1"},
			patches: []string{"pod1"},
		},
		{
			name:       "cluster scoped controller claims pods of specified namespace",
			controller: api.ObjectMeta{Namespace: "", UID: claimControllerUID},
			pods: func(*api.ObjectMeta) []*api.Pod {
				pod2 := claimPod("pod2", productionLabel, nil)
				pod2.Metadata.Namespace = "fakens"
				return []*api.Pod{claimPod("pod1", productionLabel, nil), pod2}
			},
			claimed: []string{"pod1", "pod2"},
			patches: []string{"pod1", "pod2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			controller := tt.controller
			canAdoptCalls := 0
			canAdopt := func() error { canAdoptCalls++; return nil }
			patchPod := func(*api.Pod, apistore.MetaPatch) error { return nil }

			claimed, sent, errs := claimLoop(&controller, productionLabelSelector, tt.pods(&controller), canAdopt, patchPod, tt.finalizers...)
			require.Empty(t, errs)
			assert.Equal(t, tt.claimed, namesOrNil(claimed))

			var patched []string
			for _, p := range sent {
				patched = append(patched, p.pod)
				assert.Contains(t, p.body, `"`+controller.UID+`"`, "the patch must name the controller's UID")
				for _, f := range tt.finalizers {
					assert.Contains(t, p.body, f, "the patch must name every finalizer")
				}
				assert.Equal(t, "uid-"+p.pod, p.patch.UID, "the pod's UID is the patch's precondition")
			}
			assert.Equal(t, tt.patches, patched)
			assert.LessOrEqual(t, canAdoptCalls, 1, "canAdopt is asked at most once per claim pass")
		})
	}
}

// namesOrNil is unitNames, but nil for no pods.
func namesOrNil(pods []*api.Pod) []string {
	if len(pods) == 0 {
		return nil
	}
	return unitNames(pods)
}

// TestClaimLoopErrors checks how the claim loop reads failures: a failed
// may-we-adopt check fails every adoption of the pass without a patch, an
// adoption answered NotFound is skipped silently, and a release answered
// NotFound or Invalid counts as done.
func TestClaimLoopErrors(t *testing.T) {
	controller := api.ObjectMeta{Namespace: "default", Name: "foobar", UID: claimControllerUID}
	pods := func() []*api.Pod {
		return []*api.Pod{
			claimPod("orphan1", productionLabel, nil),
			claimPod("released", testLabel, &controller),
			claimPod("orphan2", productionLabel, nil),
		}
	}

	t.Run("canAdopt fails", func(t *testing.T) {
		calls := 0
		canAdopt := func() error { calls++; return errors.New("can't recheck DeletionTimestamp: boom") }
		claimed, sent, errs := claimLoop(&controller, productionLabelSelector, pods(), canAdopt,
			func(*api.Pod, apistore.MetaPatch) error { return nil })
		assert.Empty(t, claimed)
		assert.Equal(t, 1, calls)
		require.Len(t, sent, 1, "only the release is sent")
		assert.Equal(t, "released", sent[0].pod)
		require.Len(t, errs, 2)
		assert.EqualError(t, errs[0], "can't adopt Pod default/orphan1 (uid-orphan1): can't recheck DeletionTimestamp: boom")
	})

	t.Run("gone and recreated pods", func(t *testing.T) {
		store := apistore.New(apistore.Options{})
		notFound := func(name string) error {
			_, err := store.Get(api.KindPod, "default", name)
			return err
		}
		claimed, _, errs := claimLoop(&controller, productionLabelSelector, pods(), func() error { return nil },
			func(p *api.Pod, _ apistore.MetaPatch) error { return notFound(p.Metadata.Name) })
		assert.Empty(t, claimed)
		assert.Empty(t, errs, "NotFound is silent for adoption and release")
	})

	t.Run("other errors are reported", func(t *testing.T) {
		fake := errors.New("fake Error")
		claimed, sent, errs := claimLoop(&controller, productionLabelSelector, pods(), func() error { return nil },
			func(*api.Pod, apistore.MetaPatch) error { return fake })
		assert.Empty(t, claimed)
		assert.Len(t, sent, 3)
		assert.Equal(t, []error{fake, fake, fake}, errs)
	})
}

// TestClaimDecision checks every rule of DecideClaim and that each gives a
// reason.
func TestClaimDecision(t *testing.T) {
	ours := &api.ObjectMeta{Namespace: "default", Name: "web", UID: "rs-1"}
	oursDeleting := &api.ObjectMeta{Namespace: "default", Name: "web", UID: "rs-1", DeletionTimestamp: api.NewTimePtr(unitNow)}
	clusterScoped := &api.ObjectMeta{Name: "global", UID: "rs-1"}
	other := &api.ObjectMeta{Namespace: "default", Name: "db", UID: "rs-2"}
	dying := func(p *api.Pod) *api.Pod { p.Metadata.DeletionTimestamp = api.NewTimePtr(unitNow); return p }
	inNamespace := func(p *api.Pod, ns string) *api.Pod { p.Metadata.Namespace = ns; return p }
	nonController := func(p *api.Pod) *api.Pod {
		p.Metadata.OwnerReferences = []api.OwnerReference{{UID: "rs-1", Kind: "ReplicaSet", Name: "web"}}
		return p
	}

	tests := []struct {
		name       string
		pod        *api.Pod
		controller *api.ObjectMeta
		want       ClaimDecision
	}{
		{"owned by another controller, matching", claimPod("p", productionLabel, other), ours, ClaimIgnore},
		{"owned by us, matching", claimPod("p", productionLabel, ours), ours, ClaimClaimed},
		{"owned by us, matching, we are deleting", claimPod("p", productionLabel, ours), oursDeleting, ClaimClaimed},
		{"owned by us, matching, pod dying", dying(claimPod("p", productionLabel, ours)), ours, ClaimClaimed},
		{"owned by us, not matching, we are deleting", claimPod("p", testLabel, ours), oursDeleting, ClaimIgnore},
		{"owned by us, not matching", claimPod("p", testLabel, ours), ours, ClaimNeedsRelease},
		{"owned by us, not matching, pod dying", dying(claimPod("p", testLabel, ours)), ours, ClaimNeedsRelease},
		{"orphan, we are deleting", claimPod("p", productionLabel, nil), oursDeleting, ClaimIgnore},
		{"orphan, not matching", claimPod("p", testLabel, nil), ours, ClaimIgnore},
		{"orphan, dying", dying(claimPod("p", productionLabel, nil)), ours, ClaimIgnore},
		{"orphan, other namespace", inNamespace(claimPod("p", productionLabel, nil), "kube-system"), ours, ClaimIgnore},
		{"orphan, cluster-scoped owner", inNamespace(claimPod("p", productionLabel, nil), "kube-system"), clusterScoped, ClaimNeedsAdoption},
		{"orphan, matching", claimPod("p", productionLabel, nil), ours, ClaimNeedsAdoption},
		{"a non-controller reference does not own", nonController(claimPod("p", productionLabel, nil)), ours, ClaimNeedsAdoption},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, why := DecideClaim(tt.pod, tt.controller, productionLabelSelector)
			assert.Equal(t, tt.want, got, "got %v because %s", got, why)
			assert.NotEmpty(t, why)
		})
	}
	assert.Equal(t, []string{"ignore", "claimed", "release", "adopt"},
		[]string{ClaimIgnore.String(), ClaimClaimed.String(), ClaimNeedsRelease.String(), ClaimNeedsAdoption.String()})

	pod := claimPod("p", productionLabel, nil)
	assert.Zero(t, testing.AllocsPerRun(100, func() { DecideClaim(pod, ours, productionLabelSelector) }))
}

// TestGeneratePatchBytesForDelete reproduces upstream's test of the same name
// (spec §5.3, item 41), byte for byte.
func TestGeneratePatchBytesForDelete(t *testing.T) {
	tests := []struct {
		name         string
		ownerUIDs    []string
		dependentUID string
		finalizers   []string
		want         string
	}{
		{
			name:         "check the structure of patch bytes",
			ownerUIDs:    []string{"ss1"},
			dependentUID: "ss2",
			finalizers:   []string{},
			want:         `{"metadata":{"uid":"ss2","ownerReferences":[{"$patch":"delete","uid":"ss1"}]}}`,
		},
		{
			name:         "check if parent uid is escaped",
			ownerUIDs:    []string{`ss1"hello`},
			dependentUID: "ss2",
			finalizers:   []string{},
			want:         `{"metadata":{"uid":"ss2","ownerReferences":[{"$patch":"delete","uid":"ss1\"hello"}]}}`,
		},
		{
			name:         "check if revision uid uid is escaped",
			ownerUIDs:    []string{`ss1`},
			dependentUID: `ss2"hello`,
			finalizers:   []string{},
			want:         `{"metadata":{"uid":"ss2\"hello","ownerReferences":[{"$patch":"delete","uid":"ss1"}]}}`,
		},
		{
			name:         "check the structure of patch bytes with multiple owners",
			ownerUIDs:    []string{"ss1", "ss2"},
			dependentUID: "ss2",
			finalizers:   []string{},
			want:         `{"metadata":{"uid":"ss2","ownerReferences":[{"$patch":"delete","uid":"ss1"},{"$patch":"delete","uid":"ss2"}]}}`,
		},
		{
			name:         "check the structure of patch bytes with a finalizer and multiple owners",
			ownerUIDs:    []string{"ss1", "ss2"},
			dependentUID: "ss2",
			finalizers:   []string{"f1"},
			want:         `{"metadata":{"uid":"ss2","ownerReferences":[{"$patch":"delete","uid":"ss1"},{"$patch":"delete","uid":"ss2"}],"$deleteFromPrimitiveList/finalizers":["f1"]}}`,
		},
		{
			name:         "no owners",
			ownerUIDs:    []string{},
			dependentUID: "ss2",
			want:         `{"metadata":{"uid":"ss2","ownerReferences":null}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := GenerateDeleteOwnerRefStrategicMergeBytes(tt.dependentUID, tt.ownerUIDs, tt.finalizers...)
			assert.Equal(t, tt.want, string(got))
			assert.Equal(t, upstreamDeletePatch(tt.dependentUID, tt.ownerUIDs, tt.finalizers...), string(got))
		})
	}
}

// upstreamDeletePatch is GenerateDeleteOwnerRefStrategicMergeBytes as
// upstream writes it, with encoding/json and the same struct shapes.
func upstreamDeletePatch(dependentUID string, ownerUIDs []string, finalizers ...string) string {
	type meta struct {
		UID              string              `json:"uid"`
		OwnerReferences  []map[string]string `json:"ownerReferences"`
		DeleteFinalizers []string            `json:"$deleteFromPrimitiveList/finalizers,omitempty"`
	}
	var refs []map[string]string
	for _, uid := range ownerUIDs {
		refs = append(refs, map[string]string{"$patch": "delete", "uid": uid})
	}
	b, err := json.Marshal(struct {
		Metadata meta `json:"metadata"`
	}{meta{dependentUID, refs, finalizers}})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// upstreamAdoptPatch is the adoption patch as upstream's
// ownerRefControllerPatch writes it, with encoding/json.
func upstreamAdoptPatch(podUID string, controller *api.ObjectMeta, apiVersion, kind string, finalizers ...string) string {
	type meta struct {
		OwnerReferences []api.OwnerReference `json:"ownerReferences"`
		UID             string               `json:"uid"`
		Finalizers      []string             `json:"finalizers,omitempty"`
	}
	b, err := json.Marshal(struct {
		Metadata meta `json:"metadata"`
	}{meta{[]api.OwnerReference{api.NewControllerRef(controller, apiVersion, kind)}, podUID, finalizers}})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestAdoptionPatchBytes checks the adoption patch's JSON against upstream's
// encoding, with and without finalizers and with names that need escaping.
func TestAdoptionPatchBytes(t *testing.T) {
	web := &api.ObjectMeta{Namespace: "default", Name: "web", UID: "rs-uid-1"}
	assert.Equal(t,
		`{"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"rs-uid-1","controller":true,"blockOwnerDeletion":true}],"uid":"pod-uid-1"}}`,
		string(adoptionPatchBytes("pod-uid-1", web, "apps/v1", "ReplicaSet")))

	odd := &api.ObjectMeta{Name: `we"b<&>`, UID: "rs\\uid\n"}
	for _, tc := range []struct {
		podUID     string
		controller *api.ObjectMeta
		finalizers []string
	}{
		{"pod-uid-1", web, nil},
		{"pod-uid-1", web, []string{"a", "b/c"}},
		{`pod"uid`, odd, []string{"\u2028"}},
	} {
		assert.Equal(t, upstreamAdoptPatch(tc.podUID, tc.controller, "v1", "ReplicationController", tc.finalizers...),
			string(adoptionPatchBytes(tc.podUID, tc.controller, "v1", "ReplicationController", tc.finalizers...)))
	}
}

// TestClaimPatchesAgainstTheStore sends the adoption and release patches to
// the API store and checks what a real API server would do with them: adopt
// and release work, the UID precondition refuses a recreated pod (Invalid,
// which a release counts as done), a second controller is refused (reported
// by the adoption), and a missing pod is NotFound (skipped).
func TestClaimPatchesAgainstTheStore(t *testing.T) {
	store := apistore.New(apistore.Options{Rand: rand.New(rand.NewPCG(1, 2))})
	rs := unitReplicaSet(2, map[string]string{"foo": "bar"})
	rs.Spec.Template.Metadata.Labels = map[string]string{"foo": "bar"}
	rs.Metadata.OwnerReferences = nil
	rs.Metadata.ResourceVersion = ""
	created, err := store.Create(rs)
	require.NoError(t, err)
	rs = created.(*api.ReplicaSet)

	orphan, err := store.Create(&api.Pod{
		Metadata: api.ObjectMeta{Namespace: "default", Name: "orphan", Labels: map[string]string{"foo": "bar"}},
		Spec:     api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
	})
	require.NoError(t, err)
	pod := orphan.(*api.Pod)

	// Adopt.
	adopted, err := store.Patch(api.KindPod, "default", "orphan", adoptionPatch(pod, &rs.Metadata, "apps/v1", "ReplicaSet"))
	require.NoError(t, err)
	ref := api.GetControllerOf(adopted.Meta())
	require.NotNil(t, ref)
	assert.Equal(t, api.NewControllerRef(&rs.Metadata, "apps/v1", "ReplicaSet"), *ref)
	decision, _ := DecideClaim(adopted.(*api.Pod), &rs.Metadata, labels.SelectorFromSet(map[string]string{"foo": "bar"}))
	assert.Equal(t, ClaimClaimed, decision)

	// A second controller is refused, and the adoption reports it.
	other := &api.ObjectMeta{Namespace: "default", Name: "other", UID: "other-uid"}
	_, err = store.Patch(api.KindPod, "default", "orphan", adoptionPatch(pod, other, "apps/v1", "ReplicaSet"))
	require.Error(t, err)
	claimed, reported := adoptResult(err)
	assert.False(t, claimed)
	assert.Equal(t, err, reported)

	// Release.
	released, err := store.Patch(api.KindPod, "default", "orphan", releasePatch(pod, rs.Metadata.UID))
	require.NoError(t, err)
	assert.Nil(t, api.GetControllerOf(released.Meta()))

	// A pod recreated under the same name fails the UID precondition.
	stale := pod.DeepCopy()
	stale.Metadata.UID = "a-pod-that-was-deleted"
	_, err = store.Patch(api.KindPod, "default", "orphan", releasePatch(stale, rs.Metadata.UID))
	require.True(t, apistore.IsInvalid(err), "got %v", err)
	assert.NoError(t, releaseResult(err), "a release answered Invalid counts as done")
	_, err = store.Patch(api.KindPod, "default", "orphan", adoptionPatch(stale, &rs.Metadata, "apps/v1", "ReplicaSet"))
	claimed, reported = adoptResult(err)
	assert.False(t, claimed)
	assert.True(t, apistore.IsInvalid(reported), "an adoption answered Invalid is reported")

	// A pod that is gone.
	_, err = store.Patch(api.KindPod, "default", "gone", adoptionPatch(pod, &rs.Metadata, "apps/v1", "ReplicaSet"))
	require.True(t, apistore.IsNotFound(err))
	claimed, reported = adoptResult(err)
	assert.False(t, claimed)
	assert.NoError(t, reported, "an adoption answered NotFound is skipped silently")
	assert.NoError(t, releaseResult(err))

	// A pod built from the template is accepted by the store and is ours.
	fromTemplate, err := podFromTemplate(&rs.Spec.Template, &rs.Metadata, unitRef(api.NewControllerRef(&rs.Metadata, "apps/v1", "ReplicaSet")))
	require.NoError(t, err)
	stored, err := store.Create(fromTemplate)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(stored.Meta().Name, "foobar-"), "named from generateName: %s", stored.Meta().Name)
	decision, _ = DecideClaim(stored.(*api.Pod), &rs.Metadata, labels.SelectorFromSet(map[string]string{"foo": "bar"}))
	assert.Equal(t, ClaimClaimed, decision)
}

// unitRef returns a pointer to a copy of ref.
func unitRef(ref api.OwnerReference) *api.OwnerReference { return &ref }

// TestRecheckDeletionTimestamp checks the may-we-adopt check and its messages.
func TestRecheckDeletionTimestamp(t *testing.T) {
	original := &api.ObjectMeta{Namespace: "default", Name: "web", UID: "uid-1"}
	fresh := *original
	assert.NoError(t, recheckDeletionTimestamp("ReplicaSet", original, &fresh, nil))

	assert.EqualError(t, recheckDeletionTimestamp("ReplicaSet", original, nil, errors.New(`replicasets.apps "web" not found`)),
		`can't recheck DeletionTimestamp: replicasets.apps "web" not found`)

	recreated := fresh
	recreated.UID = "uid-2"
	assert.EqualError(t, recheckDeletionTimestamp("ReplicaSet", original, &recreated, nil),
		"can't recheck DeletionTimestamp: original ReplicaSet default/web is gone: got uid uid-2, wanted uid-1")

	deleted := fresh
	deleted.DeletionTimestamp = api.NewTimePtr(unitNow)
	assert.EqualError(t, recheckDeletionTimestamp("ReplicaSet", original, &deleted, nil),
		"default/web has just been deleted at 2025-01-01 00:00:00 +0000 UTC")
}

// TestDecideClaimObjectIsTheRuleForAnyKind: the Deployment controller claims
// ReplicaSets by the rule pods are claimed by.
func TestDecideClaimObjectIsTheRuleForAnyKind(t *testing.T) {
	d := &api.ObjectMeta{Namespace: "default", Name: "web", UID: "d-1"}
	sel := labels.SelectorFromSet(map[string]string{"app": "web"})
	owned := &api.ObjectMeta{Namespace: "default", Name: "web-1", Labels: map[string]string{"app": "web"},
		OwnerReferences: []api.OwnerReference{api.NewControllerRef(d, "apps/v1", "Deployment")}}
	got, _ := DecideClaimObject(owned, d, sel)
	assert.Equal(t, ClaimClaimed, got)
	owned.Labels = map[string]string{"app": "db"}
	got, _ = DecideClaimObject(owned, d, sel)
	assert.Equal(t, ClaimNeedsRelease, got)
	orphan := &api.ObjectMeta{Namespace: "default", Name: "web-2", UID: "rs-2", Labels: map[string]string{"app": "web"}}
	got, _ = DecideClaimObject(orphan, d, sel)
	assert.Equal(t, ClaimNeedsAdoption, got)
	p := AdoptionPatch(orphan.UID, d, "apps/v1", "Deployment")
	assert.Equal(t, "rs-2", p.UID)
	require.Len(t, p.SetOwnerReferences, 1)
	assert.True(t, *p.SetOwnerReferences[0].BlockOwnerDeletion)
	assert.Equal(t, apistore.MetaPatch{UID: "rs-2", RemoveOwnerReferences: []string{"d-1"}}, ReleasePatch("rs-2", "d-1"))
}

// TestSelectorMemoAnswersAsTheSelector: over a run of label sets as a claim
// loop meets them (shared maps, equal maps that are not one, other labels,
// no labels), the memo answers what the selector answers.
func TestSelectorMemoAnswersAsTheSelector(t *testing.T) {
	sel, err := labels.Parse("app=web,tier!=db")
	require.NoError(t, err)
	web, alsoWeb := labels.Set{"app": "web"}, labels.Set{"app": "web"}
	db, other := labels.Set{"app": "web", "tier": "db"}, labels.Set{"app": "api"}
	memo := selectorMemo{selector: sel}
	for i, set := range []labels.Set{web, web, alsoWeb, db, db, web, nil, nil, other, web, {}, alsoWeb} {
		assert.Equal(t, sel.Matches(set), memo.Matches(set), "set %d: %v", i, set)
	}
}

// TestSelectorMemoRemembersTheMapItWasAskedAbout: asked again about the
// same map, the memo answers from memory, without matching; that is why it
// is used only over the cache's objects, whose maps nothing changes. A map
// changed in place in between, as no cached object's is, shows it: the
// memo keeps its first answer.
func TestSelectorMemoRemembersTheMapItWasAskedAbout(t *testing.T) {
	sel, err := labels.Parse("app=web")
	require.NoError(t, err)
	set := labels.Set{"app": "web"}
	memo := selectorMemo{selector: sel}
	require.True(t, memo.Matches(set))
	set["app"] = "db"
	assert.True(t, memo.Matches(set), "the same map is answered from memory")
	assert.False(t, memo.Matches(labels.Set{"app": "db"}), "another map is matched")
	assert.False(t, memo.Matches(set), "the first map, asked about again after another, is matched afresh")
}

// TestClaimMemoDecidesAsTheRule: the claim loop's memo gives every pod the
// decision of decideClaim, for runs of pods that share one list of owner
// references and one labels map, as a ReplicaSet's created pods do, mixed
// with pods that share only one of the two, orphans, pods of another
// controller, and pods being deleted, for an owner alive and being deleted.
func TestClaimMemoDecidesAsTheRule(t *testing.T) {
	now := api.NewTime(time.Unix(1, 0))
	owner := &api.ObjectMeta{Name: "web", Namespace: "default", UID: claimControllerUID}
	other := &api.ObjectMeta{Name: "db", Namespace: "default", UID: "456"}
	ours := []api.OwnerReference{api.NewControllerRef(owner, "apps/v1", "ReplicaSet")}
	theirs := []api.OwnerReference{api.NewControllerRef(other, "apps/v1", "ReplicaSet")}
	notController := []api.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "cfg", UID: "789"}}
	refLists := [][]api.OwnerReference{ours, ours, ours, theirs, notController, nil, {ours[0]}}
	labelSets := []map[string]string{productionLabel, productionLabel, testLabel, nil}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dying := range []bool{false, true} {
		controller := *owner
		if dying {
			controller.DeletionTimestamp = &now
		}
		var memo claimMemo
		match := selectorMemo{selector: productionLabelSelector}
		for i := range 500 {
			pod := &api.Pod{Metadata: api.ObjectMeta{Name: "p", Namespace: []string{"default", "other"}[rng.IntN(2)],
				Labels: labelSets[rng.IntN(len(labelSets))], OwnerReferences: refLists[rng.IntN(len(refLists))]}}
			if rng.IntN(4) == 0 {
				pod.Metadata.DeletionTimestamp = &now
			}
			want, _ := decideClaim(&pod.Metadata, &controller, productionLabelSelector.Matches)
			got, known := memo.known(pod) // as the claim loop asks
			if !known {
				got = memo.decide(pod, &controller, match.Matches)
			}
			require.Equal(t, want, got, "pod %d, owner being deleted: %v", i, dying)
		}
	}
}
