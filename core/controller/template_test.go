package controller

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// TestCreatePodsWithGenerateName reproduces upstream's test of the same name
// (spec §5.2, item 33), adapted: upstream checks the body of the POST; here
// the pod that would be posted is checked. It carries the template's labels
// and spec, generateName "<controller name>-" (or the caller's prefix, which
// upstream's CreatePodsWithGenerateName puts in its place), the controller
// reference, and copies that share nothing with the template.
func TestCreatePodsWithGenerateName(t *testing.T) {
	rc := unitReplicaSet(1, map[string]string{"foo": "bar"})
	rc.Spec.Template.Metadata.Annotations = map[string]string{"note": "hi"}
	rc.Spec.Template.Metadata.Finalizers = []string{"example.com/keep"}
	controllerRef := api.NewControllerRef(&rc.Metadata, "v1", "ReplicationController")

	tests := []struct {
		name         string
		generateName string
		want         string
	}{
		{name: "create pod", want: "foobar-"},
		{name: "create pod with generate name", generateName: "hello-", want: "hello-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod, err := podFromTemplate(&rc.Spec.Template, &rc.Metadata, &controllerRef)
			require.NoError(t, err)
			if tt.generateName != "" {
				pod.Metadata.GenerateName = tt.generateName
			}
			assert.Equal(t, &api.Pod{
				Metadata: api.ObjectMeta{
					GenerateName:    tt.want,
					Namespace:       "default",
					Labels:          rc.Spec.Template.Metadata.Labels,
					Annotations:     rc.Spec.Template.Metadata.Annotations,
					Finalizers:      rc.Spec.Template.Metadata.Finalizers,
					OwnerReferences: []api.OwnerReference{controllerRef},
				},
				Spec: rc.Spec.Template.Spec,
			}, pod)

			pod.Metadata.Labels["name"] = "changed"
			pod.Metadata.Annotations["note"] = "changed"
			pod.Metadata.Finalizers[0] = "changed"
			pod.Spec.Containers[0].Image = "changed"
			*pod.Metadata.OwnerReferences[0].Controller = false
			assert.Equal(t, "foo", rc.Spec.Template.Metadata.Labels["name"])
			assert.Equal(t, "hi", rc.Spec.Template.Metadata.Annotations["note"])
			assert.Equal(t, "example.com/keep", rc.Spec.Template.Metadata.Finalizers[0])
			assert.Equal(t, "foo/bar", rc.Spec.Template.Spec.Containers[0].Image)
			assert.True(t, *controllerRef.Controller)
		})
	}
}

// TestPodFromTemplateRefusals checks upstream's refusals, in its words: an
// invalid controller reference, and a template without labels.
func TestPodFromTemplateRefusals(t *testing.T) {
	rs := unitReplicaSet(1, map[string]string{"foo": "bar"})
	good := api.NewControllerRef(&rs.Metadata, "apps/v1", "ReplicaSet")
	no := false
	tests := []struct {
		name   string
		ref    func() *api.OwnerReference
		labels map[string]string
		want   string
	}{
		{"nil reference", func() *api.OwnerReference { return nil }, nil, "controllerRef is nil"},
		{"no apiVersion", func() *api.OwnerReference { r := good; r.APIVersion = ""; return &r }, nil, "controllerRef has empty APIVersion"},
		{"no kind", func() *api.OwnerReference { r := good; r.Kind = ""; return &r }, nil, "controllerRef has empty Kind"},
		{"controller unset", func() *api.OwnerReference { r := good; r.Controller = nil; return &r }, nil, "controllerRef.Controller is not set to true"},
		{"controller false", func() *api.OwnerReference { r := good; r.Controller = &no; return &r }, nil, "controllerRef.Controller is not set to true"},
		{"blockOwnerDeletion unset", func() *api.OwnerReference { r := good; r.BlockOwnerDeletion = nil; return &r }, nil, "controllerRef.BlockOwnerDeletion is not set"},
		{"blockOwnerDeletion false", func() *api.OwnerReference { r := good; r.BlockOwnerDeletion = &no; return &r }, nil, "controllerRef.BlockOwnerDeletion is not set"},
		{"no labels", func() *api.OwnerReference { return &good }, map[string]string{}, "unable to create pods, no labels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			template := rs.Spec.Template
			if tt.labels != nil {
				template.Metadata.Labels = tt.labels
			}
			pod, err := podFromTemplate(&template, &rs.Metadata, tt.ref())
			assert.Nil(t, pod)
			assert.EqualError(t, err, tt.want)
		})
	}
}

// TestGetPodsPrefix checks the generateName rule: "<name>-", unless that is
// not a valid name prefix. Upstream checks the prefix with its last two
// characters replaced by an 'a', so a name at the length limit keeps its
// dash (the API server truncates generated names anyway), and only a name
// that is itself invalid, such as one with capitals, loses it.
func TestGetPodsPrefix(t *testing.T) {
	assert.Equal(t, "web-", getPodsPrefix("web"))
	long := strings.Repeat("a", 253)
	assert.Equal(t, long+"-", getPodsPrefix(long))
	assert.Equal(t, "Web", getPodsPrefix("Web"))
}

// TestPodControllerLookup reproduces upstream's test of the same name (spec
// §5.1, item 10), with cases for the selectors that must select nothing.
func TestPodControllerLookup(t *testing.T) {
	fooBar := &api.LabelSelector{MatchLabels: map[string]string{"foo": "bar"}}
	tests := []struct {
		name  string
		inRSs []*api.ReplicaSet
		pod   *api.Pod
		want  []string
	}{
		{
			name:  "pods without labels don't match any ReplicaSets",
			inRSs: []*api.ReplicaSet{{Metadata: api.ObjectMeta{Name: "basic"}}},
			pod:   &api.Pod{Metadata: api.ObjectMeta{Name: "foo1"}},
		},
		{
			name:  "matching labels, not namespace",
			inRSs: []*api.ReplicaSet{{Metadata: api.ObjectMeta{Name: "foo"}, Spec: api.ReplicaSetSpec{Selector: fooBar}}},
			pod:   &api.Pod{Metadata: api.ObjectMeta{Name: "foo2", Namespace: "ns", Labels: map[string]string{"foo": "bar"}}},
		},
		{
			name:  "matching ns and labels returns the ReplicaSet",
			inRSs: []*api.ReplicaSet{{Metadata: api.ObjectMeta{Name: "bar", Namespace: "ns"}, Spec: api.ReplicaSetSpec{Selector: fooBar}}},
			pod:   &api.Pod{Metadata: api.ObjectMeta{Name: "foo3", Namespace: "ns", Labels: map[string]string{"foo": "bar"}}},
			want:  []string{"bar"},
		},
		{
			name: "nil, empty and invalid selectors select nothing; several matches come in order",
			inRSs: []*api.ReplicaSet{
				{Metadata: api.ObjectMeta{Name: "nil", Namespace: "ns"}},
				{Metadata: api.ObjectMeta{Name: "empty", Namespace: "ns"}, Spec: api.ReplicaSetSpec{Selector: &api.LabelSelector{}}},
				{Metadata: api.ObjectMeta{Name: "invalid", Namespace: "ns"}, Spec: api.ReplicaSetSpec{Selector: &api.LabelSelector{
					MatchExpressions: []api.LabelSelectorRequirement{{Key: "foo", Operator: "Gt", Values: []string{"1"}}}}}},
				{Metadata: api.ObjectMeta{Name: "second", Namespace: "ns"}, Spec: api.ReplicaSetSpec{Selector: fooBar}},
				{Metadata: api.ObjectMeta{Name: "first", Namespace: "ns"}, Spec: api.ReplicaSetSpec{Selector: &api.LabelSelector{
					MatchExpressions: []api.LabelSelectorRequirement{{Key: "foo", Operator: api.LabelSelectorOpExists}}}}},
			},
			pod:  &api.Pod{Metadata: api.ObjectMeta{Name: "foo4", Namespace: "ns", Labels: map[string]string{"foo": "bar"}}},
			want: []string{"second", "first"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := getPodReplicaSets(tt.pod, tt.inRSs)
			var names []string
			for _, rs := range got {
				names = append(names, rs.Metadata.Name)
			}
			assert.Equal(t, tt.want, names)
		})
	}
}

// unitRelatedRSs is the fixture of upstream's two lookup tests: someRS and
// relatedRS share the controller "123", unrelatedRS has "456", and
// pendingDeletionRS has "789" and is being deleted.
func unitRelatedRSs(someName, relatedName, unrelatedName, pendingName string) (someRS, relatedRS, unrelatedRS, pendingDeletionRS *api.ReplicaSet) {
	named := func(name, selector, owner string) *api.ReplicaSet {
		rs := unitReplicaSet(1, map[string]string{"foo": selector})
		rs.Metadata.Name = name
		rs.Metadata.UID = "rs-uid-" + name
		rs.Metadata.OwnerReferences[0].UID = owner
		return rs
	}
	someRS = named(someName, "bar", "123")
	relatedRS = named(relatedName, "baz", "123")
	unrelatedRS = named(unrelatedName, "quux", "456")
	pendingDeletionRS = named(pendingName, "xyzzy", "789")
	pendingDeletionRS.Metadata.DeletionTimestamp = api.NewTimePtr(unitNow)
	return someRS, relatedRS, unrelatedRS, pendingDeletionRS
}

// TestGetReplicaSetsWithSameController reproduces upstream's test of the same
// name (spec §5.1, item 9). As upstream's informer does, the cache
// accumulates the ReplicaSets of every case.
func TestGetReplicaSetsWithSameController(t *testing.T) {
	someRS, relatedRS, unrelatedRS, pendingDeletionRS := unitRelatedRSs("rs1", "rs2", "rs3", "rs4")
	var cache []*api.ReplicaSet
	add := func(rss ...*api.ReplicaSet) {
		for _, rs := range rss {
			if !containsRS(cache, rs) {
				cache = append(cache, rs)
			}
		}
	}
	tests := []struct {
		name string
		rss  []*api.ReplicaSet
		rs   *api.ReplicaSet
		want []string
	}{
		{
			name: "expect to get back a ReplicaSet that is pending deletion",
			rss:  []*api.ReplicaSet{pendingDeletionRS, unrelatedRS},
			rs:   pendingDeletionRS,
			want: []string{"rs4"},
		},
		{
			name: "expect to get back only the given ReplicaSet if there is no related ReplicaSet",
			rss:  []*api.ReplicaSet{someRS, unrelatedRS},
			rs:   someRS,
			want: []string{"rs1"},
		},
		{
			name: "expect to get back the given ReplicaSet as well as any related ReplicaSet but not an unrelated ReplicaSet",
			rss:  []*api.ReplicaSet{someRS, relatedRS, unrelatedRS},
			rs:   someRS,
			want: []string{"rs1", "rs2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			add(tt.rss...)
			var names []string
			for _, rs := range getReplicaSetsWithSameController(tt.rs, cache) {
				names = append(names, rs.Metadata.Name)
			}
			assert.Equal(t, tt.want, names)
		})
	}

	orphanRS := unitReplicaSet(1, map[string]string{"foo": "bar"})
	orphanRS.Metadata.OwnerReferences = nil
	assert.Nil(t, getReplicaSetsWithSameController(orphanRS, append(cache, orphanRS)), "no controller, no siblings")
}

func containsRS(rss []*api.ReplicaSet, rs *api.ReplicaSet) bool {
	for _, r := range rss {
		if r == rs {
			return true
		}
	}
	return false
}

// TestRelatedPodsLookup reproduces upstream's test of the same name (spec
// §5.1, item 11): the pods of a ReplicaSet and of its siblings, not those of
// an unrelated one; a ReplicaSet pending deletion still gets its own.
func TestRelatedPodsLookup(t *testing.T) {
	someRS, relatedRS, unrelatedRS, pendingDeletionRS := unitRelatedRSs("foo1", "foo2", "bar1", "foo3")
	pod1 := unitPod("pod1", someRS, api.PodRunning, nil, true)
	pod2 := unitPod("pod2", someRS, api.PodRunning, nil, true)
	pod3 := unitPod("pod3", relatedRS, api.PodRunning, nil, true)
	pod4 := unitPod("pod4", unrelatedRS, api.PodRunning, nil, true)

	var rsCache []*api.ReplicaSet
	var podCache []*api.Pod
	tests := []struct {
		name string
		rss  []*api.ReplicaSet
		pods []*api.Pod
		rs   *api.ReplicaSet
		want []string
	}{
		{
			name: "expect to get a pod even if its owning ReplicaSet is pending deletion",
			rss:  []*api.ReplicaSet{pendingDeletionRS, unrelatedRS},
			rs:   pendingDeletionRS,
			pods: []*api.Pod{unitPod("pod", pendingDeletionRS, api.PodRunning, nil, true)},
			want: []string{"pod"},
		},
		{
			name: "expect to get only the ReplicaSet's own pods if there is no related ReplicaSet",
			rss:  []*api.ReplicaSet{someRS, unrelatedRS},
			rs:   someRS,
			pods: []*api.Pod{pod1, pod2, pod4},
			want: []string{"pod1", "pod2"},
		},
		{
			name: "expect to get own pods as well as any related ReplicaSet's but not an unrelated ReplicaSet's",
			rss:  []*api.ReplicaSet{someRS, relatedRS, unrelatedRS},
			rs:   someRS,
			pods: []*api.Pod{pod1, pod2, pod3, pod4},
			want: []string{"pod1", "pod2", "pod3"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, rs := range tt.rss {
				if !containsRS(rsCache, rs) {
					rsCache = append(rsCache, rs)
				}
			}
			for _, p := range tt.pods {
				if !containsPod(podCache, p) {
					podCache = append(podCache, p)
				}
			}
			related := getIndirectlyRelatedPods(getReplicaSetsWithSameController(tt.rs, rsCache), podCache)
			assert.Equal(t, tt.want, namesOrNil(related))
		})
	}

	t.Run("each pod once, from the first ReplicaSet that selects it", func(t *testing.T) {
		wide := unitReplicaSet(1, nil)
		wide.Spec.Selector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "foo", Operator: api.LabelSelectorOpExists}}}
		other := unitReplicaSet(1, map[string]string{"foo": "bar"})
		other.Metadata.Namespace = "elsewhere"
		got := getIndirectlyRelatedPods([]*api.ReplicaSet{someRS, wide, other}, []*api.Pod{pod3, pod1, pod2})
		assert.Equal(t, []string{"pod1", "pod2", "pod3"}, unitNames(got))
	})
}

func containsPod(pods []*api.Pod, pod *api.Pod) bool {
	for _, p := range pods {
		if p == pod {
			return true
		}
	}
	return false
}

// TestActiveReplicaSetsFiltering reproduces upstream's test of the same name
// (spec §5.2, item 39).
func TestActiveReplicaSetsFiltering(t *testing.T) {
	named := func(name string, replicas int32) *api.ReplicaSet {
		rs := unitReplicaSet(replicas, map[string]string{"foo": "bar"})
		rs.Metadata.Name = name
		return rs
	}
	got := FilterActiveReplicaSets([]*api.ReplicaSet{named("zero", 0), nil, named("foo", 1), named("bar", 2)})
	assert.Equal(t, []*api.ReplicaSet{named("foo", 1), named("bar", 2)}, got)
}

// TestIndexByControllerUID checks the controllerUID index: a ReplicaSet
// under its controller's UID, one without a controller under nothing, and
// another kind under nothing.
func TestIndexByControllerUID(t *testing.T) {
	rs := unitReplicaSet(1, map[string]string{"foo": "bar"})
	assert.Equal(t, []string{"123"}, indexByControllerUID(rs, nil))

	rs.Metadata.OwnerReferences = []api.OwnerReference{{UID: "owner", Kind: "Deployment"}}
	assert.Nil(t, indexByControllerUID(rs, nil), "an owner that is not the controller does not count")
	assert.Nil(t, indexByControllerUID(&api.Pod{}, nil))
	assert.Equal(t, "controllerUID", controllerUIDIndex)
}
