package apistore

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
)

func addFault(t *testing.T, s *Store, r FaultRule) FaultRule {
	t.Helper()
	added, err := s.Faults().Add(r)
	require.NoError(t, err)
	return added
}

// createPods sends n creates with generateName and returns their responses.
func createPods(h *harness, n int) []Response {
	out := make([]Response, n)
	for i := range out {
		out[i] = h.s.Serve(Request{Verb: VerbCreate, Kind: api.KindPod, Object: newGeneratedPod("default", "web-", nil)})
		h.check()
	}
	return out
}

func outcomes(resps []Response) []string {
	out := make([]string, len(resps))
	for i, r := range resps {
		out[i] = r.Outcome()
	}
	return out
}

func TestFaultCountFailsThatManyRequests(t *testing.T) {
	h := newHarness(t)
	rule := addFault(t, h.s, FaultRule{Verb: VerbCreate, Resource: "pods", Count: 2, Error: FaultQuota})
	assert.Equal(t, 1, rule.ID)

	resps := createPods(h, 4)
	assert.Equal(t, []string{"Forbidden", "Forbidden", "ok", "ok"}, outcomes(resps))
	for _, r := range resps[:2] {
		require.NotNil(t, r.Fault, "the rule that fired is reported")
		assert.Equal(t, rule.ID, r.Fault.ID)
		assert.Nil(t, r.Object)
	}
	assert.Equal(t, 1, resps[0].Fault.Fired)
	assert.Equal(t, 2, resps[1].Fault.Fired)
	assert.Nil(t, resps[2].Fault)
	assert.Equal(t, 0, h.s.Faults().Len(), "a counted rule removes itself when spent")
	assert.Equal(t, uint64(2), h.s.ResourceVersion(), "failed requests changed nothing")
}

func TestFaultAlwaysUntilHealed(t *testing.T) {
	h := newHarness(t)
	addFault(t, h.s, FaultRule{Verb: VerbCreate, Resource: "pods", Always: true})
	assert.Equal(t, []string{"InternalError", "InternalError", "InternalError"}, outcomes(createPods(h, 3)))
	rules := h.s.Faults().Rules()
	require.Len(t, rules, 1)
	assert.Equal(t, 3, rules[0].Fired)
	assert.Equal(t, "create pods: server always (fired 3)", rules[0].String())

	assert.Equal(t, 1, h.s.Faults().Heal(VerbCreate, "pods"))
	assert.Equal(t, []string{"ok"}, outcomes(createPods(h, 1)))
}

func TestFaultAfterLetsRequestsThrough(t *testing.T) {
	h := newHarness(t)
	addFault(t, h.s, FaultRule{Verb: VerbCreate, Resource: "pods", Count: 2, After: 3, Error: FaultServer})
	assert.Equal(t, []string{"ok", "ok", "ok", "InternalError", "InternalError", "ok"}, outcomes(createPods(h, 6)))
}

func TestFaultMatchesVerbAndResourceExactly(t *testing.T) {
	h := newHarness(t)
	rs := h.create(newRS("default", "web", 1, map[string]string{"app": "web"})).(*api.ReplicaSet)
	addFault(t, h.s, FaultRule{Verb: VerbUpdate, Resource: "replicasets/status", Always: true, Error: FaultConflict})

	in := rs.DeepCopy()
	in.Spec.Replicas = ptr(int32(2))
	_, err := h.s.Update(in)
	require.NoError(t, err, "a status fault leaves the main resource alone")

	status := rs.DeepCopy()
	status.Metadata.ResourceVersion = ""
	status.Status.Replicas = 1
	resp := h.s.Serve(Request{Verb: VerbUpdate, Kind: api.KindReplicaSet, Subresource: SubresourceStatus, Object: status})
	assert.True(t, IsConflict(resp.Err))
	assert.Equal(t, `Operation cannot be fulfilled on replicasets.apps "web": the object has been modified; `+
		`please apply your changes to the latest version and try again`, resp.Err.Error())
	require.NotNil(t, resp.Fault)
	h.check()
}

func TestFaultWithoutVerbOrResourceMatchesEverything(t *testing.T) {
	h := newHarness(t)
	addFault(t, h.s, FaultRule{Count: 3, Error: FaultUnavailable})
	_, err := h.s.Get(api.KindPod, "default", "x")
	assert.True(t, IsServiceUnavailable(err))
	assert.Equal(t, "the server is currently unable to handle the request", err.Error())
	_, _, err = h.s.List(api.KindNode, "", labels.Everything())
	assert.True(t, IsServiceUnavailable(err))
	_, err = h.s.Watch(api.KindReplicaSet, "", 0)
	assert.True(t, IsServiceUnavailable(err))
	_, err = h.s.Get(api.KindPod, "default", "x")
	assert.True(t, IsNotFound(err), "spent")
}

func TestFaultErrorKinds(t *testing.T) {
	tests := []struct {
		kind    FaultKind
		req     func(h *harness) Request
		check   func(error) bool
		message string
		cause   CauseType
	}{
		{
			kind: FaultQuota,
			req: func(h *harness) Request {
				return Request{Verb: VerbCreate, Kind: api.KindPod, Object: newGeneratedPod("default", "web-", nil)}
			},
			check:   IsForbidden,
			message: `pods "web-%s" is forbidden: exceeded quota: compute-resources, requested: pods=1, used: pods=2, limited: pods=2`,
		},
		{
			kind: FaultNamespaceTerminating,
			req: func(h *harness) Request {
				return Request{Verb: VerbCreate, Kind: api.KindPod, Object: newGeneratedPod("default", "web-", nil)}
			},
			check: IsForbidden,
			// The NamespaceLifecycle plugin runs before the name is generated.
			message: `pods "web-" is forbidden: unable to create new content in namespace default because it is being terminated`,
			cause:   CauseTypeNamespaceTerminating,
		},
		{
			kind: FaultServer,
			req: func(h *harness) Request {
				return Request{Verb: VerbDelete, Kind: api.KindPod, Namespace: "default", Name: "a"}
			},
			check:   IsInternalError,
			message: "Internal error occurred: etcdserver: request timed out",
		},
		{
			kind: FaultNotFound,
			req: func(h *harness) Request {
				return Request{Verb: VerbGet, Kind: api.KindPod, Namespace: "default", Name: "a"}
			},
			check:   IsNotFound,
			message: `pods "a" not found`,
		},
		{
			kind: FaultConflict,
			req: func(h *harness) Request {
				return Request{Verb: VerbPatch, Kind: api.KindPod, Namespace: "default", Name: "a", Patch: &MetaPatch{}}
			},
			check:   IsConflict,
			message: `Operation cannot be fulfilled on pods "a": ` + OptimisticLockErrorMsg,
		},
		{
			kind:    FaultUnavailable,
			req:     func(h *harness) Request { return Request{Verb: VerbList, Kind: api.KindPod} },
			check:   IsServiceUnavailable,
			message: "the server is currently unable to handle the request",
		},
		{
			kind: FaultExpired,
			req: func(h *harness) Request {
				return Request{Verb: VerbWatch, Kind: api.KindPod, ListOptions: &ListOptions{ResourceVersion: 1}}
			},
			check:   IsExpired,
			message: "too old resource version: 1 (2)",
		},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind), func(t *testing.T) {
			h := newHarness(t)
			h.create(newPod("default", "a", nil))
			h.create(newPod("default", "b", nil))
			addFault(t, h.s, FaultRule{Count: 1, Error: tt.kind})
			rv := h.s.ResourceVersion()
			resp := h.s.Serve(tt.req(h))
			require.Error(t, resp.Err)
			assert.True(t, tt.check(resp.Err), "%v", resp.Err)
			require.NotNil(t, resp.Fault)
			assert.Equal(t, tt.kind, resp.Fault.Error)
			if before, after, ok := strings.Cut(tt.message, "%s"); ok {
				msg := resp.Err.Error()
				assert.True(t, strings.HasPrefix(msg, before) && strings.HasSuffix(msg, after), msg)
				assert.Len(t, msg, len(before)+5+len(after), "the generated name is in the message")
			} else {
				assert.Equal(t, tt.message, resp.Err.Error())
			}
			if tt.cause != "" {
				assert.True(t, HasStatusCause(resp.Err, tt.cause))
			}
			assert.Equal(t, rv, h.s.ResourceVersion())
			h.check()
		})
	}
}

func TestFaultQuotaLimitAndName(t *testing.T) {
	h := newHarness(t)
	addFault(t, h.s, FaultRule{Verb: VerbCreate, Resource: "replicasets", Count: 1, Error: FaultQuota,
		Quota: "object-counts", QuotaLimit: 5})
	_, err := h.s.Create(newRS("default", "web", 1, map[string]string{"app": "web"}))
	assert.Equal(t, `replicasets.apps "web" is forbidden: exceeded quota: object-counts, requested: count/replicasets.apps=1, `+
		`used: count/replicasets.apps=0, limited: count/replicasets.apps=5`, statusErr(t, err).Message)
}

func TestHealByVerbResourceOrAll(t *testing.T) {
	h := newHarness(t)
	f := h.s.Faults()
	addFault(t, h.s, FaultRule{Verb: VerbCreate, Resource: "pods", Always: true})
	addFault(t, h.s, FaultRule{Verb: VerbDelete, Resource: "pods", Always: true})
	addFault(t, h.s, FaultRule{Verb: VerbUpdate, Resource: "replicasets/status", Count: 5})
	addFault(t, h.s, FaultRule{Verb: VerbWatch, Resource: "pods", Count: 1, Error: FaultExpired})

	assert.Equal(t, 1, f.Heal(VerbCreate, "pods"))
	assert.Equal(t, 0, f.Heal(VerbCreate, "pods"), "nothing left to heal")
	assert.Equal(t, 2, f.Heal("", "pods"), "every verb on pods")
	assert.Equal(t, 1, f.Len())
	assert.Equal(t, 1, f.HealAll())
	assert.Equal(t, 0, f.Len())

	next := addFault(t, h.s, FaultRule{Count: 1})
	assert.Equal(t, 5, next.ID, "IDs are never reused")
	assert.Equal(t, FaultServer, next.Error, "the default fault is a server error")
}

func TestFaultRulesAreChecked(t *testing.T) {
	f := &Faults{}
	_, err := f.Add(FaultRule{Verb: VerbCreate, Resource: "pods"})
	assert.EqualError(t, err, "a fault needs a count of at least 1, or always")
	_, err = f.Add(FaultRule{Count: 1, After: -1})
	assert.Error(t, err)
	_, err = f.Add(FaultRule{Count: 1, Error: "qouta"})
	assert.EqualError(t, err, `unknown fault "qouta"; known faults: server, quota, conflict, namespace-terminating, unavailable, notfound, expired`)
	assert.Equal(t, 0, f.Len())
}

func TestFaultsBeforeAnythingElse(t *testing.T) {
	h := newHarness(t)
	addFault(t, h.s, FaultRule{Verb: VerbDelete, Resource: "pods", Count: 1, Error: FaultServer})
	_, err := h.s.Delete(api.KindPod, "default", "ghost", nil)
	assert.True(t, IsInternalError(err), "the fault fires before the store looks for the object")

	addFault(t, h.s, FaultRule{Verb: VerbCreate, Resource: "pods", Count: 1, Error: FaultQuota})
	resp := h.s.Serve(Request{Verb: VerbCreate, Kind: api.KindPod, Object: newPod("default", "Bad_Name", nil)})
	assert.True(t, IsForbidden(resp.Err), "and before validation")
}
