//go:build !js

// This file uses k8s.io/api's types as the judge of the manifests, and bash
// as the judge of the script, so it runs natively only.

package export

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/reconcilelab/rlab/core/lesson"
	"github.com/reconcilelab/rlab/lessons"
)

// TestEveryLessonExportsToManifestsAKubernetesClientDecodes exports every
// lesson's setup and solution and holds the result to what a cluster
// takes: each manifest decodes into k8s.io/api's type of its kind with
// unknown fields disallowed, and the script is valid bash (bash -n).
// (parity/ applies lesson 5's export to a real API server.)
func TestEveryLessonExportsToManifestsAKubernetesClientDecodes(t *testing.T) {
	bash, err := exec.LookPath("bash")
	require.NoError(t, err, "the export is a bash script: its tests need bash")
	all, err := lesson.ParseFS(lessons.FS())
	require.NoError(t, err)
	for _, l := range all {
		t.Run(l.ID, func(t *testing.T) {
			res := exportLesson(t, l)
			for _, doc := range res.World {
				var into any
				switch {
				case strings.Contains(doc, "\nkind: ReplicaSet\n"):
					into = &appsv1.ReplicaSet{}
				case strings.Contains(doc, "\nkind: Deployment\n"):
					into = &appsv1.Deployment{}
				case strings.Contains(doc, "\nkind: ReplicationController\n"):
					into = &corev1.ReplicationController{}
				case strings.Contains(doc, "\nkind: Pod\n"):
					into = &corev1.Pod{}
				default:
					t.Fatalf("a manifest of no kind the export writes:\n%s", doc)
				}
				require.NoError(t, sigsyaml.UnmarshalStrict([]byte(doc), into), "%s", doc)
			}
			cmd := exec.Command(bash, "-n")
			cmd.Stdin = strings.NewReader(res.Script())
			out, err := cmd.CombinedOutput()
			assert.NoError(t, err, "bash -n: %s\n%s", out, res.Script())
		})
	}
}
