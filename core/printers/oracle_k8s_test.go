//go:build rlab_k8s_oracle

package printers

// This file is the fidelity oracle for the manifests: it decodes them with
// k8s.io/api's own types, as a real API server or `kubectl apply` would.
// k8s.io/api comes into the module graph with client-go, but the module
// does not require it directly (it must never reach non-test code), so these
// tests build only with the rlab_k8s_oracle tag and a module file that adds
// the requirement. TestUpstreamTypesOracle (oracle_driver_test.go) builds
// and runs them that way as part of the ordinary `go test`.

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/reconcilelab/rlab/core/api"
)

// upstreamObject returns an empty object of k8s.io/api's type for kind.
func upstreamObject(kind api.Kind) any {
	switch kind {
	case api.KindPod:
		return &corev1.Pod{}
	case api.KindReplicaSet:
		return &appsv1.ReplicaSet{}
	case api.KindReplicationController:
		return &corev1.ReplicationController{}
	case api.KindNode:
		return &corev1.Node{}
	case api.KindEvent:
		return &corev1.Event{}
	case api.KindDeployment:
		return &appsv1.Deployment{}
	}
	panic("no upstream type for " + kind)
}

// decodeNumbers decodes JSON keeping numbers as written.
func decodeNumbers(t testing.TB, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v))
	return v
}

// subset reports the path of the first field of ours that theirs lacks or
// holds with another value, or "" when theirs holds all of ours.
func subset(ours, theirs any, path string) string {
	switch o := ours.(type) {
	case map[string]any:
		th, ok := theirs.(map[string]any)
		if !ok {
			return path
		}
		for k, v := range o {
			if p := subset(v, th[k], path+"."+k); p != "" {
				return p
			}
		}
	case []any:
		th, ok := theirs.([]any)
		if !ok || len(th) != len(o) {
			return path
		}
		for i := range o {
			if p := subset(o[i], th[i], path+"[]"); p != "" {
				return p
			}
		}
	default:
		if ours != theirs {
			return path
		}
	}
	return ""
}

// checkUpstream decodes the JSON and the YAML manifest of obj strictly into
// k8s.io/api's type, checks that both give the same object, and that the
// upstream object, written out again, holds every field of the manifest
// with the same value: no field of ours is unknown, misnamed or mistyped.
func checkUpstream(t *testing.T, obj api.Object) {
	t.Helper()
	j, err := JSON(obj)
	require.NoError(t, err)
	y, err := YAML(obj)
	require.NoError(t, err)

	fromJSON := upstreamObject(obj.Kind())
	decodeStrict(t, j, fromJSON)
	yj, err := sigsyaml.YAMLToJSONStrict(y)
	require.NoError(t, err, "%s", y)
	fromYAML := upstreamObject(obj.Kind())
	decodeStrict(t, yj, fromYAML)
	require.Equal(t, fromJSON, fromYAML, "the JSON and the YAML manifest must decode to the same %s", obj.Kind())

	again, err := json.Marshal(fromJSON)
	require.NoError(t, err)
	if p := subset(decodeNumbers(t, j), decodeNumbers(t, again), ""); p != "" {
		t.Fatalf("%s: field %s is lost or changed by k8s.io/api's type\nours:\n%s\nupstream:\n%s", obj.Kind(), p, j, again)
	}
}

func TestK8sAPIDecodesTheFixtures(t *testing.T) {
	objs := goldenPods()
	objs = append(objs, webRS(), webRC(), node("node-1", false), node("node-2", true))
	objs = append(objs, objects(goldenEvents())...)
	// A Deployment mid-rollout, a fresh one, a Recreate one, and the
	// ReplicaSets a Deployment makes (hash label, revision annotations,
	// a controller reference to the Deployment).
	recreate := freshDeployment()
	recreate.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategy}
	recreate.Spec.Paused = true
	recreate.Spec.Template.Metadata.Annotations = map[string]string{"kubectl.kubernetes.io/restartedAt": "2025-01-01T00:04:00Z"}
	numeric := freshDeployment()
	numeric.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxUnavailable: intOrString("0"), MaxSurge: intOrString("1")}
	numeric.Status.CollisionCount = ptr(int32(1))
	objs = append(objs, rollingDeployment(), freshDeployment(), recreate, numeric, oldWebRS(), newWebRS())
	for _, e := range deploymentEvents() {
		objs = append(objs, e)
	}
	for _, obj := range objs {
		checkUpstream(t, obj)
	}
}

func TestK8sAPIDecodesGeneratedManifests(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, kind := range api.Kinds {
		for range 400 {
			checkUpstream(t, randomObject(r, kind, true))
		}
	}
}

func TestK8sAPIDecodesLists(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, kind := range api.Kinds {
		for n := range 4 {
			objs := make([]api.Object, n)
			for i := range objs {
				objs[i] = randomObject(r, kind, true)
			}
			j, err := JSONList(kind, objs)
			require.NoError(t, err)
			y, err := YAMLList(kind, objs)
			require.NoError(t, err)
			yj, err := sigsyaml.YAMLToJSONStrict(y)
			require.NoError(t, err)
			for _, doc := range [][]byte{j, yj} {
				var l struct {
					metav1.TypeMeta `json:",inline"`
					Metadata        metav1.ListMeta   `json:"metadata"`
					Items           []json.RawMessage `json:"items"`
				}
				decodeStrict(t, doc, &l)
				assert.Equal(t, metav1.TypeMeta{APIVersion: "v1", Kind: "List"}, l.TypeMeta)
				require.Len(t, l.Items, n)
				for _, item := range l.Items {
					decodeStrict(t, item, upstreamObject(kind))
				}
				// The items of a v1 List decode as corev1.List's raw items.
				var list corev1.List
				decodeStrict(t, doc, &list)
				assert.Len(t, list.Items, n)
			}
		}
	}
}
