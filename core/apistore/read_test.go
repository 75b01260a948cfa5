package apistore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
)

func TestGetReturnsTheStoredObject(t *testing.T) {
	h := newHarness(t)
	created := h.create(newPod("default", "web", nil))
	a, err := h.s.Get(api.KindPod, "default", "web")
	require.NoError(t, err)
	b, err := h.s.Get(api.KindPod, "default", "web")
	require.NoError(t, err)
	assert.Same(t, created, a, "reads hand out the stored pointer, not a copy")
	assert.Same(t, a, b)
}

func TestGetNotFound(t *testing.T) {
	tests := []struct {
		kind      api.Kind
		namespace string
		name      string
		want      string
	}{
		{api.KindPod, "default", "web-x", `pods "web-x" not found`},
		{api.KindReplicaSet, "default", "web", `replicasets.apps "web" not found`},
		{api.KindReplicationController, "default", "web", `replicationcontrollers "web" not found`},
		{api.KindNode, "", "node-1", `nodes "node-1" not found`},
		{api.KindEvent, "default", "e", `events "e" not found`},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind), func(t *testing.T) {
			h := newHarness(t)
			h.create(newPod("other", "web-x", nil))
			_, err := h.s.Get(tt.kind, tt.namespace, tt.name)
			se := statusErr(t, err)
			assert.True(t, IsNotFound(err))
			assert.Equal(t, int32(404), se.Code)
			assert.Equal(t, tt.want, se.Message)
			assert.Equal(t, tt.kind.Resource(), se.Details.Kind)
			assert.Equal(t, tt.name, se.Details.Name)
		})
	}
}

func TestListFiltersByNamespaceAndSelector(t *testing.T) {
	h := newHarness(t)
	h.create(newPod("default", "web-2", map[string]string{"app": "web"}))
	h.create(newPod("default", "web-1", map[string]string{"app": "web"}))
	h.create(newPod("default", "db-1", map[string]string{"app": "db"}))
	h.create(newPod("a", "x", map[string]string{"app": "web"}))
	h.create(newPod("a-b", "y", map[string]string{"app": "web"}))

	names := func(objs []api.Object) []string {
		out := make([]string, len(objs))
		for i, o := range objs {
			out[i] = api.Key(o.Meta().Namespace, o.Meta().Name)
		}
		return out
	}

	items, rv, err := h.s.List(api.KindPod, "default", labels.Everything())
	require.NoError(t, err)
	assert.Equal(t, []string{"default/db-1", "default/web-1", "default/web-2"}, names(items))
	assert.Equal(t, uint64(5), rv, "a list reports the global resourceVersion, to watch from")

	items, _, err = h.s.List(api.KindPod, "", labels.Everything())
	require.NoError(t, err)
	assert.Equal(t, []string{"a-b/y", "a/x", "default/db-1", "default/web-1", "default/web-2"}, names(items),
		"all namespaces, sorted by key ('-' sorts before '/')")

	sel, err := labels.Parse("app=web")
	require.NoError(t, err)
	items, _, err = h.s.List(api.KindPod, "default", sel)
	require.NoError(t, err)
	assert.Equal(t, []string{"default/web-1", "default/web-2"}, names(items))

	items, _, err = h.s.List(api.KindPod, "nowhere", labels.Everything())
	require.NoError(t, err)
	assert.Empty(t, items)

	items, _, err = h.s.List(api.KindReplicaSet, "", labels.Everything())
	require.NoError(t, err)
	assert.Empty(t, items)
}

func TestDirectReadsAreNotRequests(t *testing.T) {
	h := newHarness(t)
	pod := h.create(newPod("default", "web", nil))
	_, err := h.s.Faults().Add(FaultRule{Always: true, Error: FaultServer})
	require.NoError(t, err)

	_, err = h.s.Get(api.KindPod, "default", "web")
	assert.True(t, IsInternalError(err), "requests meet the fault")

	got, ok := h.s.Object(api.KindPod, "default", "web")
	assert.True(t, ok, "direct reads do not")
	assert.Same(t, pod, got)
	assert.Equal(t, []api.Object{pod}, h.s.Objects(api.KindPod, "default"))
	assert.Equal(t, 1, h.s.Len(api.KindPod))
	_, ok = h.s.Object(api.KindPod, "default", "nope")
	assert.False(t, ok)
	assert.Equal(t, 1, h.s.Faults().Rules()[0].Seen, "only the request was counted")
}
