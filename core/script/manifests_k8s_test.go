//go:build !js

package script

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	sigsyaml "sigs.k8s.io/yaml"
)

// TestManifestsOfAConvergedWorldDecodeAsKubernetesObjects is the issue's
// acceptance check from the learner's side: every manifest get -o json and
// get -o yaml print for a converged world decodes with k8s.io/api's own types,
// unknown fields disallowed, so it could be applied to a real cluster. (The
// printers' own oracle covers the printer in depth; this covers what a
// script prints.) It does not build for js/wasm, which need not compile
// k8s.io/api.
func TestManifestsOfAConvergedWorldDecodeAsKubernetesObjects(t *testing.T) {
	ts := newTestSession(t, "seed 3",
		"create rs web --replicas=2 --selector=\"app=web,tier in (a,b)\" --template-labels=app=web,tier=a --min-ready-seconds=1",
		"create rc db --replicas=1 --selector=app=db",
		"create pod stray --labels=app=other --node=node-2 --phase=Running --ready",
		"annotate pod/stray note=\"a b\"",
		"cordon node-3",
		"fail create pods --count=1 --error=quota",
		"scale rs/web --replicas=3",
		"stabilize",
		"evict pods -l app=web --pick=oldest",
		"delete pods -l app=db --grace-period=30",
		"until sync rc/db")

	type list[T any] struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Metadata   map[string]string `json:"metadata"`
		Items      []T               `json:"items"`
	}
	decodeJSON := func(text string, into any) {
		t.Helper()
		dec := json.NewDecoder(bytes.NewReader([]byte(text)))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(into), text)
	}
	decodeYAML := func(text string, into any) {
		t.Helper()
		require.NoError(t, sigsyaml.UnmarshalStrict([]byte(text), into), text)
	}
	for _, tc := range []struct {
		kind      string
		one, many func() any
		items     func(v any) int
	}{
		{"pods", func() any { return &corev1.Pod{} }, func() any { return &list[corev1.Pod]{} },
			func(v any) int { return len(v.(*list[corev1.Pod]).Items) }},
		{"rs", func() any { return &appsv1.ReplicaSet{} }, func() any { return &list[appsv1.ReplicaSet]{} },
			func(v any) int { return len(v.(*list[appsv1.ReplicaSet]).Items) }},
		{"rc", func() any { return &corev1.ReplicationController{} }, func() any { return &list[corev1.ReplicationController]{} },
			func(v any) int { return len(v.(*list[corev1.ReplicationController]).Items) }},
		{"nodes", func() any { return &corev1.Node{} }, func() any { return &list[corev1.Node]{} },
			func(v any) int { return len(v.(*list[corev1.Node]).Items) }},
		{"events", func() any { return &corev1.Event{} }, func() any { return &list[corev1.Event]{} },
			func(v any) int { return len(v.(*list[corev1.Event]).Items) }},
	} {
		js := ts.ok(t, "get "+tc.kind+" -o json")
		l := tc.many()
		decodeJSON(js, l)
		n := tc.items(l)
		require.Positive(t, n, tc.kind)
		yl := tc.many()
		decodeYAML(ts.ok(t, "get "+tc.kind+" -o yaml"), yl)
		require.Equal(t, n, tc.items(yl), tc.kind)

		// Each object on its own, by name.
		var names []string
		switch tc.kind {
		case "pods":
			for _, p := range l.(*list[corev1.Pod]).Items {
				names = append(names, p.Name)
			}
		case "rs":
			for _, o := range l.(*list[appsv1.ReplicaSet]).Items {
				names = append(names, o.Name)
			}
		case "rc":
			for _, o := range l.(*list[corev1.ReplicationController]).Items {
				names = append(names, o.Name)
			}
		case "nodes":
			for _, o := range l.(*list[corev1.Node]).Items {
				names = append(names, o.Name)
			}
		case "events":
			for _, o := range l.(*list[corev1.Event]).Items {
				names = append(names, o.Name)
			}
		}
		for _, name := range names {
			decodeJSON(ts.ok(t, "get "+tc.kind+" "+name+" -o json"), tc.one())
			decodeYAML(ts.ok(t, "get "+tc.kind+" "+name+" -o yaml"), tc.one())
		}
	}
	pods := &list[corev1.Pod]{}
	decodeYAML(ts.ok(t, "get pods -o yaml"), pods)
	var evicted, terminating bool
	for _, p := range pods.Items {
		evicted = evicted || p.Status.Reason == "Evicted"
		terminating = terminating || p.DeletionTimestamp != nil
		if strings.HasPrefix(p.Name, "web-") {
			require.Len(t, p.OwnerReferences, 1)
			require.Equal(t, "ReplicaSet", p.OwnerReferences[0].Kind)
		}
	}
	require.True(t, evicted && terminating, "the world shows an evicted and a terminating pod")
}
