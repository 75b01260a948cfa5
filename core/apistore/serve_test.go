package apistore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// TestServeEveryVerb sends one request of every verb and subresource the store
// serves, through the single entry point, and checks each response.
func TestServeEveryVerb(t *testing.T) {
	h := newHarness(t)
	web := map[string]string{"app": "web"}
	rs := h.create(newRS("default", "web", 1, web)).(*api.ReplicaSet)
	statusRS := rs.DeepCopy()
	statusRS.Status.Replicas = 1

	tests := []struct {
		req      Request
		resource string
		check    func(t *testing.T, resp Response)
	}{
		{
			req:      Request{Verb: VerbCreate, Kind: api.KindPod, Namespace: "default", Object: newPod("", "web-x", web)},
			resource: "pods",
			check: func(t *testing.T, resp Response) {
				assert.Equal(t, "web-x", resp.Object.Meta().Name)
				assert.Equal(t, uint64(2), resp.ResourceVersion)
			},
		},
		{
			req:      Request{Verb: VerbGet, Kind: api.KindPod, Namespace: "default", Name: "web-x"},
			resource: "pods",
			check:    func(t *testing.T, resp Response) { assert.Equal(t, "web-x", resp.Object.Meta().Name) },
		},
		{
			req:      Request{Verb: VerbGet, Kind: api.KindReplicaSet, Subresource: SubresourceStatus, Namespace: "default", Name: "web"},
			resource: "replicasets/status",
			check:    func(t *testing.T, resp Response) { assert.Same(t, rs, resp.Object) },
		},
		{
			req:      Request{Verb: VerbList, Kind: api.KindPod},
			resource: "pods",
			check: func(t *testing.T, resp Response) {
				assert.Len(t, resp.Items, 1)
				assert.Equal(t, uint64(2), resp.ResourceVersion)
			},
		},
		{
			req:      Request{Verb: VerbWatch, Kind: api.KindPod, ListOptions: &ListOptions{ResourceVersion: 0}},
			resource: "pods",
			check: func(t *testing.T, resp Response) {
				assert.Equal(t, []string{"ADDED web-x"}, eventTypes(resp.Events))
				assert.Equal(t, uint64(2), resp.ResourceVersion)
			},
		},
		{
			req:      Request{Verb: VerbCreate, Kind: api.KindPod, Subresource: SubresourceBinding, Namespace: "default", Name: "web-x", NodeName: "node-1"},
			resource: "pods/binding",
			check:    func(t *testing.T, resp Response) { assert.Equal(t, "node-1", resp.Object.(*api.Pod).Spec.NodeName) },
		},
		{
			req:      Request{Verb: VerbUpdate, Kind: api.KindReplicaSet, Subresource: SubresourceStatus, Object: statusRS},
			resource: "replicasets/status",
			check: func(t *testing.T, resp Response) {
				assert.Equal(t, int32(1), resp.Object.(*api.ReplicaSet).Status.Replicas)
			},
		},
		{
			req: Request{Verb: VerbUpdate, Kind: api.KindReplicaSet, Object: func() api.Object {
				in := rs.DeepCopy()
				in.Metadata.ResourceVersion = ""
				in.Spec.Replicas = ptr(int32(3))
				return in
			}()},
			resource: "replicasets",
			check:    func(t *testing.T, resp Response) { assert.Equal(t, int64(2), resp.Object.Meta().Generation) },
		},
		{
			req:      Request{Verb: VerbPatch, Kind: api.KindPod, Namespace: "default", Name: "web-x", Patch: &MetaPatch{SetLabels: map[string]string{"v": "1"}}},
			resource: "pods",
			check:    func(t *testing.T, resp Response) { assert.Equal(t, "1", resp.Object.Meta().Labels["v"]) },
		},
		{
			req:      Request{Verb: VerbDelete, Kind: api.KindPod, Namespace: "default", Name: "web-x"},
			resource: "pods",
			check: func(t *testing.T, resp Response) {
				assert.False(t, resp.Deleted, "a bound pod is deleted gracefully")
				assert.NotNil(t, resp.Object.Meta().DeletionTimestamp)
			},
		},
	}
	seen := map[Verb]bool{}
	for _, tt := range tests {
		t.Run(tt.req.String(), func(t *testing.T) {
			assert.Equal(t, tt.resource, tt.req.Resource())
			resp := h.s.Serve(tt.req)
			require.NoError(t, resp.Err)
			assert.Equal(t, "ok", resp.Outcome())
			assert.Nil(t, resp.Fault)
			tt.check(t, resp)
			h.check()
			seen[tt.req.Verb] = true
		})
	}
	for _, v := range Verbs {
		assert.True(t, seen[v], "verb %s is covered", v)
	}
}

func TestServeRejectsWhatItDoesNotServe(t *testing.T) {
	h := newHarness(t)
	tests := []struct {
		name string
		req  Request
		want string
	}{
		{"unknown kind", Request{Verb: VerbGet, Kind: "Gizmo", Name: "x"}, "NotFound"},
		{"unknown verb", Request{Verb: "escalate", Kind: api.KindPod}, "MethodNotAllowed"},
		{"binding is for pods", Request{Verb: VerbCreate, Kind: api.KindReplicaSet, Subresource: SubresourceBinding, Name: "x"}, "NotFound"},
		{"events have no status", Request{Verb: VerbUpdate, Kind: api.KindEvent, Subresource: SubresourceStatus, Object: newEvent("default", "e")}, "NotFound"},
		{"unknown subresource", Request{Verb: VerbUpdate, Kind: api.KindPod, Subresource: "scale", Object: newPod("default", "x", nil)}, "NotFound"},
		{"create without object", Request{Verb: VerbCreate, Kind: api.KindPod}, "BadRequest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := h.s.Serve(tt.req)
			assert.Equal(t, tt.want, resp.Outcome())
			_, ok := resp.Err.(*StatusError)
			assert.True(t, ok)
		})
	}
	_, err := h.s.Create(nil)
	assert.True(t, IsBadRequest(err))
	assert.Equal(t, `escalate is not supported on resources of kind "pods"`,
		h.s.Serve(Request{Verb: "escalate", Kind: api.KindPod}).Err.Error())
}

func TestRequestStrings(t *testing.T) {
	tests := []struct {
		req      Request
		resource string
		str      string
	}{
		{Request{Verb: VerbCreate, Kind: api.KindPod, Object: newGeneratedPod("default", "web-", nil)}, "pods", "create pods default/web-"},
		{Request{Verb: VerbDelete, Kind: api.KindPod, Namespace: "default", Name: "web-7xk2p"}, "pods", "delete pods default/web-7xk2p"},
		{Request{Verb: VerbList, Kind: api.KindReplicaSet}, "replicasets", "list replicasets (all namespaces)"},
		{Request{Verb: VerbList, Kind: api.KindReplicaSet, Namespace: "a"}, "replicasets", "list replicasets -n a"},
		{Request{Verb: VerbWatch, Kind: api.KindPod, ListOptions: &ListOptions{ResourceVersion: 7}}, "pods", "watch pods (all namespaces) from 7"},
		{Request{Verb: VerbUpdate, Kind: api.KindReplicationController, Subresource: SubresourceStatus, Namespace: "default", Name: "web"},
			"replicationcontrollers/status", "update replicationcontrollers/status default/web"},
		{Request{Verb: VerbCreate, Kind: api.KindPod, Subresource: SubresourceBinding, Namespace: "default", Name: "web-x"},
			"pods/binding", "create pods/binding default/web-x"},
		{Request{Verb: VerbGet, Kind: api.KindNode, Name: "node-1"}, "nodes", "get nodes node-1"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.resource, tt.req.Resource())
		assert.Equal(t, tt.str, tt.req.String())
	}
	assert.Equal(t, "ok", Response{}.Outcome())
	assert.Equal(t, "error", Response{Err: assert.AnError}.Outcome())
}
