package apistore

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// The RFC 1123 subdomain message, as upstream prints it.
const subdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', " +
	"and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is " +
	`'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`

func TestCreateValidation(t *testing.T) {
	web := map[string]string{"app": "web"}
	tests := []struct {
		name string
		obj  func() api.Object
		// message is the whole error message, or its prefix when it ends in "…".
		message string
		// causes are the fields the error names, in order.
		causes []string
	}{
		{
			name: "ReplicaSet name must be a subdomain",
			obj: func() api.Object {
				return newRS("default", "Web", 1, web)
			},
			message: `ReplicaSet.apps "Web" is invalid: metadata.name: Invalid value: "Web": ` + subdomainMsg,
			causes:  []string{"metadata.name"},
		},
		{
			name:    "name or generateName is required",
			obj:     func() api.Object { return newPod("default", "", nil) },
			message: `Pod "" is invalid: metadata.name: Required value: name or generateName is required`,
			causes:  []string{"metadata.name"},
		},
		{
			name:    "namespace is required for namespaced kinds",
			obj:     func() api.Object { return newPod("", "web", nil) },
			message: `Pod "web" is invalid: metadata.namespace: Required value`,
			causes:  []string{"metadata.namespace"},
		},
		{
			name:    "namespace must be a DNS-1123 label",
			obj:     func() api.Object { return newPod("Team.A", "web", nil) },
			message: `Pod "web" is invalid: metadata.namespace: Invalid value: "Team.A": a lowercase RFC 1123 label must consist of …`,
			causes:  []string{"metadata.namespace"},
		},
		{
			name:    "generateName prefix is checked",
			obj:     func() api.Object { return newGeneratedPod("default", "Web-", nil) },
			message: `Pod "Web-…`,
			causes:  []string{"metadata.generateName", "metadata.name"},
		},
		{
			name:    "label keys and values",
			obj:     func() api.Object { return newPod("default", "web", map[string]string{"a b": "c d"}) },
			message: `Pod "web" is invalid: [metadata.labels: Invalid value: "a b": name part must consist of …`,
			causes:  []string{"metadata.labels", "metadata.labels"},
		},
		{
			// Reported in key order, as upstream reports them.
			name: "label keys in order",
			obj: func() api.Object {
				return newPod("default", "web", map[string]string{"z z": "1", "app": "web", "a a": "2"})
			},
			message: `Pod "web" is invalid: [metadata.labels: Invalid value: "a a": name part must consist of …`,
			causes:  []string{"metadata.labels", "metadata.labels"},
		},
		{
			name: "annotation keys",
			obj: func() api.Object {
				p := newPod("default", "web", nil)
				p.Metadata.Annotations = map[string]string{"bad key": "x"}
				return p
			},
			message: `Pod "web" is invalid: metadata.annotations: Invalid value: "bad key": …`,
			causes:  []string{"metadata.annotations"},
		},
		{
			name: "at most one controller reference",
			obj: func() api.Object {
				p := newPod("default", "web", nil)
				p.Metadata.OwnerReferences = []api.OwnerReference{
					{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "a", UID: "1", Controller: ptr(true)},
					{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "b", UID: "2", Controller: ptr(true)},
				}
				return p
			},
			message: `Pod "web" is invalid: metadata.ownerReferences: Invalid value: []v1.OwnerReference{` +
				`v1.OwnerReference{APIVersion:"apps/v1", Kind:"ReplicaSet", Name:"a", UID:"1", Controller:(*bool)(true), BlockOwnerDeletion:(*bool)(nil)}, ` +
				`v1.OwnerReference{APIVersion:"apps/v1", Kind:"ReplicaSet", Name:"b", UID:"2", Controller:(*bool)(true), BlockOwnerDeletion:(*bool)(nil)}}: ` +
				`Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b`,
			causes: []string{"metadata.ownerReferences"},
		},
		{
			name: "owner references name their owner",
			obj: func() api.Object {
				p := newPod("default", "web", nil)
				p.Metadata.OwnerReferences = []api.OwnerReference{{}}
				return p
			},
			causes: []string{"metadata.ownerReferences.apiVersion", "metadata.ownerReferences.kind",
				"metadata.ownerReferences.name", "metadata.ownerReferences.uid"},
		},
		{
			name: "an Event cannot own anything",
			obj: func() api.Object {
				p := newPod("default", "web", nil)
				p.Metadata.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Event", Name: "e", UID: "u"}}
				return p
			},
			message: `Pod "web" is invalid: metadata.ownerReferences: Invalid value: v1.OwnerReference{APIVersion:"v1", Kind:"Event", ` +
				`Name:"e", UID:"u", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}: /v1, Kind=Event is disallowed from being an owner`,
			causes: []string{"metadata.ownerReferences"},
		},
		{
			name: "orphan and foreground finalizers exclude each other",
			obj: func() api.Object {
				p := newPod("default", "web", nil)
				p.Metadata.Finalizers = []string{"orphan", "foregroundDeletion"}
				return p
			},
			message: `Pod "web" is invalid: metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set`,
			causes:  []string{"metadata.finalizers"},
		},
		{
			name: "pod needs a container",
			obj: func() api.Object {
				p := newPod("default", "web", nil)
				p.Spec.Containers = nil
				return p
			},
			message: `Pod "web" is invalid: spec.containers: Required value`,
			causes:  []string{"spec.containers"},
		},
		{
			name: "container names are DNS-1123 labels, unique; images are required",
			obj: func() api.Object {
				p := newPod("default", "web", nil)
				p.Spec.Containers = []api.Container{{Name: "App_1", Image: "x"}, {Name: "", Image: ""}, {Name: "App_1", Image: "x"}}
				return p
			},
			causes: []string{"spec.containers[0].name", "spec.containers[1].name", "spec.containers[1].image",
				"spec.containers[2].name", "spec.containers[2].name"},
		},
		{
			name: "pod image may not have surrounding spaces",
			obj: func() api.Object {
				p := newPod("default", "web", nil)
				p.Spec.Containers[0].Image = " nginx"
				return p
			},
			message: `Pod "web" is invalid: spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace`,
			causes:  []string{"spec.containers[0].image"},
		},
		{
			name: "unknown restart policy",
			obj: func() api.Object {
				p := newPod("default", "web", nil)
				p.Spec.RestartPolicy = "Sometimes"
				return p
			},
			message: `Pod "web" is invalid: spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`,
			causes:  []string{"spec.restartPolicy"},
		},
		{
			name: "ReplicaSet selector is required",
			obj: func() api.Object {
				rs := newRS("default", "web", 1, web)
				rs.Spec.Selector = nil
				return rs
			},
			// A nil selector selects nothing, so the template cannot match it either.
			causes: []string{"spec.selector", "spec.template.metadata.labels"},
		},
		{
			name: "ReplicaSet selector may not be empty",
			obj: func() api.Object {
				rs := newRS("default", "web", 1, web)
				rs.Spec.Selector = &api.LabelSelector{}
				return rs
			},
			message: `ReplicaSet.apps "web" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment`,
			causes:  []string{"spec.selector"},
		},
		{
			name: "ReplicaSet selector must match the template",
			obj: func() api.Object {
				rs := newRS("default", "web", 1, web)
				rs.Spec.Template.Metadata.Labels = map[string]string{"app": "db", "tier": "x"}
				return rs
			},
			message: `ReplicaSet.apps "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"db", "tier":"x"}: ` +
				"`selector` does not match template `labels`",
			causes: []string{"spec.template.metadata.labels"},
		},
		{
			name: "ReplicaSet selector operators",
			obj: func() api.Object {
				rs := newRS("default", "web", 1, web)
				rs.Spec.Selector.MatchExpressions = []api.LabelSelectorRequirement{
					{Key: "tier", Operator: "Gt", Values: []string{"1"}},
					{Key: "env", Operator: api.LabelSelectorOpIn},
					{Key: "canary", Operator: api.LabelSelectorOpExists, Values: []string{"x"}},
				}
				return rs
			},
			causes: []string{"spec.selector.matchExpressions[0].operator", "spec.selector.matchExpressions[1].values",
				"spec.selector.matchExpressions[2].values", "spec.selector"},
		},
		{
			name: "ReplicaSet replicas may not be negative",
			obj: func() api.Object {
				return newRS("default", "web", -1, web)
			},
			message: `ReplicaSet.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`,
			causes:  []string{"spec.replicas"},
		},
		{
			name: "ReplicaSet pods restart Always",
			obj: func() api.Object {
				rs := newRS("default", "web", 1, web)
				rs.Spec.Template.Spec.RestartPolicy = api.RestartNever
				return rs
			},
			message: `ReplicaSet.apps "web" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`,
			causes:  []string{"spec.template.spec.restartPolicy"},
		},
		{
			name: "ReplicaSet template needs a container with an image",
			obj: func() api.Object {
				rs := newRS("default", "web", 1, web)
				rs.Spec.Template.Spec.Containers[0].Image = ""
				return rs
			},
			causes: []string{"spec.template.spec.containers[0].image"},
		},
		{
			name: "ReplicationController selector is required",
			obj: func() api.Object {
				rc := newRC("default", "web", 1, nil)
				return rc
			},
			message: `ReplicationController "web" is invalid: spec.selector: Required value`,
			causes:  []string{"spec.selector"},
		},
		{
			name: "ReplicationController template is required",
			obj: func() api.Object {
				rc := newRC("default", "web", 1, web)
				rc.Spec.Template = nil
				return rc
			},
			message: `ReplicationController "web" is invalid: spec.template: Required value`,
			causes:  []string{"spec.template"},
		},
		{
			name: "ReplicationController selector must match the template",
			obj: func() api.Object {
				rc := newRC("default", "web", 1, web)
				rc.Spec.Template.Metadata.Labels = map[string]string{"app": "db"}
				return rc
			},
			causes: []string{"spec.template.metadata.labels"},
		},
		{
			name: "ReplicationController replicas may not be negative",
			obj: func() api.Object {
				return newRC("default", "web", -2, web)
			},
			causes: []string{"spec.replicas"},
		},
		{
			name: "Event lives in its object's namespace",
			obj: func() api.Object {
				e := newEvent("default", "web-x.1")
				e.InvolvedObject.Namespace = "other"
				return e
			},
			message: `Event "web-x.1" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace`,
			causes:  []string{"involvedObject.namespace"},
		},
		{
			name: "Node names are subdomains",
			obj: func() api.Object {
				return newNode("Node_1")
			},
			causes: []string{"metadata.name"},
		},
		{
			name: "pod nodeName is a node name",
			obj: func() api.Object {
				p := newPod("default", "web", nil)
				p.Spec.NodeName = "Node_1"
				return p
			},
			causes: []string{"spec.nodeName"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			_, err := h.s.Create(tt.obj())
			se := statusErr(t, err)
			assert.True(t, IsInvalid(err))
			assert.Equal(t, int32(422), se.Code)
			if prefix, ok := strings.CutSuffix(tt.message, "…"); ok {
				assert.True(t, strings.HasPrefix(se.Message, prefix), "message %q\nwant prefix %q", se.Message, prefix)
			} else if tt.message != "" {
				assert.Equal(t, tt.message, se.Message)
			}
			var fields []string
			for _, c := range se.Details.Causes {
				fields = append(fields, c.Field)
				assert.NotEmpty(t, c.Type)
				assert.NotEmpty(t, c.Message)
			}
			assert.Equal(t, tt.causes, fields)
			assert.Zero(t, h.s.ResourceVersion(), "an invalid create writes nothing")
			h.check()
		})
	}
}

func TestInvalidAggregatesCauses(t *testing.T) {
	h := newHarness(t)
	rs := newRS("default", "web", -1, map[string]string{"app": "web"})
	rs.Spec.MinReadySeconds = -5
	_, err := h.s.Create(rs)
	se := statusErr(t, err)
	assert.Equal(t, `ReplicaSet.apps "web" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, `+
		`spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0]`, se.Message)
	require.Len(t, se.Details.Causes, 2)
	assert.Equal(t, Cause{Type: CauseTypeFieldValueInvalid, Field: "spec.replicas",
		Message: "Invalid value: -1: must be greater than or equal to 0"}, se.Details.Causes[0])
	assert.Equal(t, "ReplicaSet", se.Details.Kind)
	assert.Equal(t, "apps", se.Details.Group)
	assert.Equal(t, "web", se.Details.Name)
}

func TestAnnotationsSizeLimit(t *testing.T) {
	h := newHarness(t)
	p := newPod("default", "web", nil)
	p.Metadata.Annotations = map[string]string{"big": strings.Repeat("x", 256*1024)}
	_, err := h.s.Create(p)
	se := statusErr(t, err)
	assert.Equal(t, `Pod "web" is invalid: metadata.annotations: Too long: must have at most 262144 bytes`, se.Message)
}

func TestEventsAcceptAnyPathSegmentName(t *testing.T) {
	h := newHarness(t)
	h.create(newEvent("default", "web-x.17a8b9c0d1e2f3a4"))
	_, err := h.s.Create(newEvent("default", "a/b"))
	assert.True(t, IsInvalid(err))
}

// TestPathSegmentNameMessages: a name with both characters a URL path
// segment may not hold is told of each, '/' first, as upstream's
// ValidatePathSegmentName tells them; "." and ".." only as a whole name.
func TestPathSegmentNameMessages(t *testing.T) {
	assert.Equal(t, []string{"may not contain '/'", "may not contain '%'"}, validatePathSegmentName("a%b/c%", false))
	assert.Equal(t, []string{"may not contain '%'"}, validatePathSegmentName("50%", true))
	assert.Equal(t, []string{"may not be '..'"}, validatePathSegmentName("..", false))
	assert.Empty(t, validatePathSegmentName("..", true))
	assert.Empty(t, validatePathSegmentName("web-x.17a8b9c0d1e2f3a4", false))
}

// TestPodDeletionCostMustBeA32BitInteger: a pod's
// controller.kubernetes.io/pod-deletion-cost, and a pod template's, must be
// an int32 in its canonical form, as upstream's
// GetDeletionCostFromPodAnnotations reads it, on create and on update.
func TestPodDeletionCostMustBeA32BitInteger(t *testing.T) {
	const key = api.PodDeletionCostAnnotation
	for value, valid := range map[string]bool{
		"0": true, "-5": true, "10": true, "2147483647": true, "-2147483648": true,
		"abc": false, "+10": false, "008": false, "2147483648": false, "": false, "-": false, "1.5": false, " 1": false,
	} {
		t.Run(value, func(t *testing.T) {
			assert.Equal(t, valid, validDeletionCost(map[string]string{key: value}))
			h := newHarness(t)
			p := newPod("default", "web", nil)
			p.Metadata.Annotations = map[string]string{key: value}
			_, err := h.s.Create(p)
			if valid {
				require.NoError(t, err)
				return
			}
			se := statusErr(t, err)
			assert.Equal(t, int32(422), se.Code)
			assert.Equal(t, `Pod "web" is invalid: metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: `+
				strconv.Quote(value)+`: must be a 32bit integer`, se.Message)
		})
	}
	assert.True(t, validDeletionCost(nil), "no cost at all is valid")

	h := newHarness(t)
	rs := newRS("default", "web", 1, map[string]string{"app": "web"})
	rs.Spec.Template.Metadata.Annotations = map[string]string{key: "abc"}
	_, err := h.s.Create(rs)
	assert.Contains(t, statusErr(t, err).Message, `spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "abc": must be a 32bit integer`)
	rc := newRC("default", "legacy", 1, map[string]string{"app": "legacy"})
	rc.Spec.Template.Metadata.Annotations = map[string]string{key: "+1"}
	_, err = h.s.Create(rc)
	assert.Contains(t, statusErr(t, err).Message, `spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "+1": must be a 32bit integer`)

	created, err := h.s.Create(newPod("default", "api", nil))
	require.NoError(t, err)
	bad := created.(*api.Pod).DeepCopy()
	bad.Metadata.Annotations = map[string]string{key: "008"}
	_, err = h.s.Update(bad)
	assert.Contains(t, statusErr(t, err).Message, `Invalid value: "008": must be a 32bit integer`)
}

// TestRememberedLabelsHideNoInvalidOnes: the store skips validating labels
// equal to the last ones it found valid (labelsMemo). A create with invalid
// labels right after valid ones must still fail, one with the valid ones
// again must pass, and a superset of them is checked.
func TestRememberedLabelsHideNoInvalidOnes(t *testing.T) {
	h := newHarness(t)
	h.create(newPod("default", "a", map[string]string{"app": "web", "tier": "front"}))
	_, err := h.s.Create(newPod("default", "b", map[string]string{"app": "web", "tier": "not valid!"}))
	se := statusErr(t, err)
	require.Len(t, se.Details.Causes, 1)
	assert.Equal(t, "metadata.labels", se.Details.Causes[0].Field)
	h.create(newPod("default", "c", map[string]string{"app": "web", "tier": "front"}))
	_, err = h.s.Create(newPod("default", "d", map[string]string{"app": "web", "tier": "front", "x": "-bad-"}))
	assert.True(t, IsInvalid(err), "a superset of the remembered labels is checked")
}

// TestPodsWithEqualLabelsShareOneMap: a create whose labels equal the ones
// the store last found valid is given the store's remembered map, so the
// pods of one template share one map. A relabel of one of them must give it
// a map of its own and leave the others' labels as they were.
func TestPodsWithEqualLabelsShareOneMap(t *testing.T) {
	h := newHarness(t)
	a := h.create(newPod("default", "a", map[string]string{"app": "web"}))
	b := h.create(newPod("default", "b", map[string]string{"app": "web"}))
	same := func(x, y api.Object) bool {
		return reflect.ValueOf(x.Meta().Labels).UnsafePointer() == reflect.ValueOf(y.Meta().Labels).UnsafePointer()
	}
	require.True(t, same(a, b), "equal labels are one map in the store")

	relabelled := b.(*api.Pod).DeepCopy()
	relabelled.Metadata.Labels["app"] = "db"
	_, err := h.s.Update(relabelled)
	require.NoError(t, err)
	h.check()

	got, err := h.s.Get(api.KindPod, "default", "a")
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"app": "web"}, got.Meta().Labels, "a keeps its labels")
	got, err = h.s.Get(api.KindPod, "default", "b")
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"app": "db"}, got.Meta().Labels)
	assert.False(t, same(got, a), "the relabelled pod has a map of its own")
}
