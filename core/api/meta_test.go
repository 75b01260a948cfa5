package api

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKeyAndSplitKey(t *testing.T) {
	assert.Equal(t, "default/web", Key("default", "web"))
	assert.Equal(t, "node-1", Key("", "node-1"))

	for _, tc := range []struct {
		key, ns, name string
		ok            bool
	}{
		{"default/web", "default", "web", true},
		{"node-1", "", "node-1", true},
		{"/web", "", "web", true}, // upstream accepts an empty namespace part
		{"", "", "", false},
		{"default/", "", "", false},
		{"a/b/c", "", "", false},
		{"/", "", "", false},
		{"a//b", "", "", false},
	} {
		ns, name, err := SplitKey(tc.key)
		if !tc.ok {
			assert.Error(t, err, tc.key)
			assert.Contains(t, err.Error(), `unexpected key format: "`+tc.key+`"`)
			continue
		}
		require.NoError(t, err, tc.key)
		assert.Equal(t, tc.ns, ns, tc.key)
		assert.Equal(t, tc.name, name, tc.key)
	}
}

func TestGetControllerOf(t *testing.T) {
	yes, no := true, false
	m := &ObjectMeta{OwnerReferences: []OwnerReference{
		{Kind: "ReplicaSet", Name: "other", UID: "1", Controller: &no},
		{Kind: "ReplicaSet", Name: "web", UID: "2", Controller: &yes},
	}}
	ref := GetControllerOf(m)
	require.NotNil(t, ref)
	assert.Equal(t, "web", ref.Name)

	assert.Nil(t, GetControllerOf(&ObjectMeta{}), "an object without a controller reference is an orphan")
	m.OwnerReferences = m.OwnerReferences[:1]
	assert.Nil(t, GetControllerOf(m), "an owner that is not the controller does not count")
}

func TestNewControllerRef(t *testing.T) {
	ref := NewControllerRef(&ObjectMeta{Name: "web", UID: "u-1"}, "apps/v1", "ReplicaSet")
	assert.Equal(t, "web", ref.Name)
	assert.Equal(t, "u-1", ref.UID)
	assert.True(t, ref.IsController())
	require.NotNil(t, ref.BlockOwnerDeletion)
	assert.True(t, *ref.BlockOwnerDeletion)
}

func TestTimeJSON(t *testing.T) {
	ts := NewTime(time.Date(2025, 1, 1, 0, 0, 2, 500_000_000, time.UTC))
	b, err := json.Marshal(ts)
	require.NoError(t, err)
	assert.Equal(t, `"2025-01-01T00:00:02Z"`, string(b), "the wire format has whole seconds, in UTC")

	var back Time
	require.NoError(t, json.Unmarshal(b, &back))
	assert.True(t, back.Equal(ts.Truncated().Time))

	b, err = json.Marshal(Time{})
	require.NoError(t, err)
	assert.Equal(t, "null", string(b), "a zero time is written as null")
	require.NoError(t, json.Unmarshal([]byte("null"), &back))
	assert.True(t, back.IsZero())
	assert.Error(t, json.Unmarshal([]byte(`"yesterday"`), &back))
}

func TestManifestFieldNames(t *testing.T) {
	replicas := int32(3)
	rs := &ReplicaSet{
		TypeMeta: TypeMeta{Kind: "ReplicaSet", APIVersion: "apps/v1"},
		Metadata: ObjectMeta{Name: "web", Namespace: "default"},
		Spec: ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		},
		Status: ReplicaSetStatus{Replicas: 3, ReadyReplicas: 2, ObservedGeneration: 1},
	}
	b, err := json.Marshal(rs)
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(b, &got))
	assert.Equal(t, "ReplicaSet", got["kind"], "TypeMeta is inlined, as in a manifest")
	assert.Equal(t, "apps/v1", got["apiVersion"])
	spec := got["spec"].(map[string]any)
	assert.Equal(t, float64(3), spec["replicas"])
	assert.Contains(t, spec, "selector")
	status := got["status"].(map[string]any)
	assert.Equal(t, float64(2), status["readyReplicas"])
	assert.Equal(t, float64(1), status["observedGeneration"])
}

func TestKinds(t *testing.T) {
	for _, k := range Kinds {
		back, ok := KindForResource(k.Resource())
		assert.True(t, ok)
		assert.Equal(t, k, back)
		obj, ok := NewObject(k)
		require.True(t, ok)
		assert.Equal(t, k, obj.Kind())
	}
	assert.Equal(t, "apps/v1", KindReplicaSet.APIVersion())
	assert.Equal(t, "v1", KindReplicationController.APIVersion())
	assert.False(t, KindNode.Namespaced())
	assert.True(t, KindPod.Namespaced())
	assert.Equal(t, "rs", ShortName(KindReplicaSet))
	assert.Equal(t, "apps/v1", KindDeployment.APIVersion())
	assert.Equal(t, "deploy", ShortName(KindDeployment))
	_, ok := KindForResource("statefulsets")
	assert.False(t, ok)
}

func TestIntOrStringWritesANumberOrAString(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want IntOrString
		json string
	}{
		{"1", FromInt(1), `1`},
		{"0", FromInt(0), `0`},
		{"25%", FromString("25%"), `"25%"`},
		{"oops", FromString("oops"), `"oops"`},
	} {
		got := ParseIntOrString(tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		assert.Equal(t, tc.in, got.String())
		b, err := json.Marshal(got)
		require.NoError(t, err)
		assert.Equal(t, tc.json, string(b))
		var back IntOrString
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, got, back)
	}
	var v IntOrString
	assert.ErrorContains(t, json.Unmarshal([]byte(`1.5`), &v), "32-bit integer or a string")
}
