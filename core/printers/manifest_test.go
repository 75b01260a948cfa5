//go:build !js

// This file uses the upstream modules (k8s.io, gopkg.in/yaml.v2) as oracles,
// so it runs natively only: the js/wasm run of make test runs the package's
// other tests under node, and neither it nor the js/wasm lint compiles the
// oracles for WebAssembly, where they never run.

package printers

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	yamlv2 "gopkg.in/yaml.v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/reconcilelab/rlab/core/api"
)

// asUnstructured is the object as kubectl holds it after reading it from the
// API server: an unstructured map with apiVersion and kind.
func asUnstructured(t testing.TB, obj api.Object) *unstructured.Unstructured {
	t.Helper()
	b, err := json.Marshal(obj)
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	require.NoError(t, dec.Decode(&m))
	m["apiVersion"] = obj.Kind().APIVersion()
	m["kind"] = string(obj.Kind())
	b, err = json.Marshal(m)
	require.NoError(t, err)
	u := &unstructured.Unstructured{}
	require.NoError(t, u.UnmarshalJSON(b))
	return u
}

// kubectlJSON is cli-runtime's JSONPrinter: json.MarshalIndent of the
// unstructured object with four spaces, and a newline.
func kubectlJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "    ")
	require.NoError(t, err)
	return append(b, '\n')
}

// kubectlList is the list kubectl get's printGeneric assembles for -o json
// and -o yaml when no single object is named.
func kubectlList(t testing.TB, objs []api.Object) *unstructured.UnstructuredList {
	t.Helper()
	l := &unstructured.UnstructuredList{Object: map[string]any{
		"kind": "List", "apiVersion": "v1", "metadata": map[string]any{"resourceVersion": ""},
	}}
	for _, obj := range objs {
		l.Items = append(l.Items, *asUnstructured(t, obj))
	}
	return l
}

// kubectlYAMLOf is cli-runtime's YAMLPrinter: sigs.k8s.io/yaml.Marshal, which
// is json.Marshal followed by JSONToYAML.
func kubectlYAMLOf(t testing.TB, v any) ([]byte, bool) {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return kubectlYAML(t, b)
}

func TestManifestsMatchKubectlPrintersOnGeneratedObjects(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	perKind := scaled(600)
	for _, kind := range api.Kinds {
		compared := 0
		for i := range perKind {
			obj := randomObject(r, kind, i%4 != 0)
			u := asUnstructured(t, obj)

			got, err := JSON(obj)
			require.NoError(t, err)
			if want := kubectlJSON(t, u); !bytes.Equal(want, got) {
				t.Fatalf("%s %d: JSON differs\nkubectl:\n%s\nours:\n%s", kind, i, want, got)
			}

			got, err = YAML(obj)
			require.NoError(t, err)
			if want, ok := kubectlYAMLOf(t, u); ok {
				compared++
				if !bytes.Equal(want, got) {
					t.Fatalf("%s %d: YAML differs\nkubectl:\n%s\nours:\n%s", kind, i, want, got)
				}
			}
		}
		assert.Greater(t, compared, perKind/2, "%s: too few YAML documents compared", kind)
	}
}

func TestListsMatchKubectlGetOnGeneratedObjects(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, kind := range api.Kinds {
		for i := range scaled(80) {
			objs := make([]api.Object, i%4)
			for j := range objs {
				objs[j] = randomObject(r, kind, true)
			}
			l := kubectlList(t, objs)

			got, err := JSONList(kind, objs)
			require.NoError(t, err)
			assert.Equal(t, string(kubectlJSON(t, l)), string(got))

			got, err = YAMLList(kind, objs)
			require.NoError(t, err)
			if want, ok := kubectlYAMLOf(t, l); ok {
				assert.Equal(t, string(want), string(got))
			}
		}
	}
}

func TestEmptyListIsAListWithNoItems(t *testing.T) {
	b, err := JSONList(api.KindPod, nil)
	require.NoError(t, err)
	assert.Equal(t, `{
    "apiVersion": "v1",
    "items": [],
    "kind": "List",
    "metadata": {
        "resourceVersion": ""
    }
}
`, string(b))
	b, err = YAMLList(api.KindPod, nil)
	require.NoError(t, err)
	assert.Equal(t, "apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\"\n", string(b))
}

func TestListOfAnotherKindIsAnError(t *testing.T) {
	_, err := JSONList(api.KindPod, []api.Object{webRS()})
	assert.ErrorContains(t, err, "a list of Pod holds a ReplicaSet")
	_, err = YAMLList(api.KindReplicaSet, []api.Object{webPod("web-1", 0)})
	assert.Error(t, err)
}

func TestManifestFillsInTypeMetaWithoutTouchingTheStoredObject(t *testing.T) {
	rs := webRS()
	rs.TypeMeta = api.TypeMeta{Kind: "Wrong", APIVersion: "v0"}
	b, err := JSON(rs)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	assert.Equal(t, "apps/v1", m["apiVersion"], "the kind's own group version")
	assert.Equal(t, "ReplicaSet", m["kind"])
	assert.Equal(t, api.TypeMeta{Kind: "Wrong", APIVersion: "v0"}, rs.TypeMeta, "the object is shared and read-only")

	pod := webPod("web-1", 0)
	_, err = YAML(pod)
	require.NoError(t, err)
	assert.Empty(t, pod.TypeMeta)

	_, err = JSON(nil)
	assert.Error(t, err)
}

// yamlToJSON turns a YAML document into JSON the way sigs.k8s.io/yaml's
// YAMLToJSON does for the values manifests hold.
func yamlToJSON(t testing.TB, doc []byte) []byte {
	t.Helper()
	var v any
	require.NoError(t, yamlv2.UnmarshalStrict(doc, &v))
	b, err := json.Marshal(jsonable(v))
	require.NoError(t, err)
	return b
}

func jsonable(v any) any {
	switch v := v.(type) {
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k.(string)] = jsonable(e)
		}
		return m
	case []any:
		for i := range v {
			v[i] = jsonable(v[i])
		}
	}
	return v
}

// decodeStrict decodes JSON into v with unknown fields disallowed, as
// kubectl apply's strict field validation would.
func decodeStrict(t testing.TB, b []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(v), "%s", b)
}

// The metadata and the label selectors are apimachinery's own types, which
// this module holds: decode them strictly from both manifests and check that
// both give the same values. (The whole objects are decoded with k8s.io/api's
// types by TestUpstreamTypesOracle.)
func TestManifestMetadataDecodesIntoUpstreamTypes(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, kind := range api.Kinds {
		for range scaled(150) {
			obj := randomObject(r, kind, true)
			j, err := JSON(obj)
			require.NoError(t, err)
			y, err := YAML(obj)
			require.NoError(t, err)
			if _, ok := kubectlYAML(t, j); !ok {
				continue
			}
			for _, doc := range [][]byte{j, yamlToJSON(t, y)} {
				var envelope struct {
					metav1.TypeMeta `json:",inline"`
					Metadata        json.RawMessage `json:"metadata"`
					Spec            struct {
						Selector json.RawMessage `json:"selector"`
					} `json:"spec"`
				}
				require.NoError(t, json.Unmarshal(doc, &envelope))
				assert.Equal(t, string(kind), envelope.Kind)
				assert.Equal(t, kind.APIVersion(), envelope.APIVersion)

				var meta metav1.ObjectMeta
				decodeStrict(t, envelope.Metadata, &meta)
				assert.Equal(t, obj.Meta().Name, meta.Name)
				assert.Equal(t, obj.Meta().Labels, nilIfEmpty(meta.Labels))
				assert.Equal(t, obj.Meta().CreationTimestamp.Unix(), meta.CreationTimestamp.Unix())
				if kind == api.KindReplicaSet && string(envelope.Spec.Selector) != "null" {
					var sel metav1.LabelSelector
					decodeStrict(t, envelope.Spec.Selector, &sel)
				}
			}
		}
	}
}

func nilIfEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

func TestManifestOfANilObjectIsAnError(t *testing.T) {
	_, err := YAML((*api.Pod)(nil))
	assert.Error(t, err)
}
