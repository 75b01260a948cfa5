package plane

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"
)

// One plane serves every test of the package: starting one costs seconds,
// and each test works in a namespace of its own.
var shared *Plane

func TestMain(m *testing.M) {
	p, err := Start(Config{KubeletStart: 500 * time.Millisecond, KubeletStop: 200 * time.Millisecond})
	if err != nil {
		panic(err)
	}
	shared = p
	code := m.Run()
	p.Stop()
	if code != 0 {
		panic("tests failed")
	}
}

func namespace(t *testing.T, name string) string {
	t.Helper()
	_, err := shared.Client.CoreV1().Namespaces().Create(context.Background(),
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	require.NoError(t, err)
	return name
}

func TestReplicaSetOfThreeConvergesToThreeRunningReadyPods(t *testing.T) {
	ctx := context.Background()
	ns := namespace(t, "converge")
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: ptr.To[int32](3),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx"}}},
			},
		},
	}
	_, err := shared.Client.AppsV1().ReplicaSets(ns).Create(ctx, rs, metav1.CreateOptions{})
	require.NoError(t, err)

	var pods *corev1.PodList
	require.Eventually(t, func() bool {
		pods, err = shared.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
		if err != nil || len(pods.Items) != 3 {
			return false
		}
		for _, p := range pods.Items {
			if p.Status.Phase != corev1.PodRunning || !podReady(&p) {
				return false
			}
		}
		return true
	}, 30*time.Second, 50*time.Millisecond, "rs/web should have three Running, Ready pods")

	nodes := map[string]int{}
	for _, p := range pods.Items {
		require.Len(t, p.OwnerReferences, 1)
		assert.Equal(t, "web", p.OwnerReferences[0].Name, "the ReplicaSet controller owns what it creates")
		nodes[p.Spec.NodeName]++
	}
	assert.Equal(t, map[string]int{"node-1": 1, "node-2": 1, "node-3": 1}, nodes,
		"the stand-in scheduler spreads pods over the nodes with the fewest pods")

	require.Eventually(t, func() bool {
		got, err := shared.Client.AppsV1().ReplicaSets(ns).Get(ctx, "web", metav1.GetOptions{})
		return err == nil && got.Status.ReadyReplicas == 3 && got.Status.AvailableReplicas == 3
	}, 30*time.Second, 50*time.Millisecond, "the real controller reports three ready replicas")
}

// A fake clientset emits only DELETED for a delete with grace period 0; a
// real API server first writes the deletionTimestamp (MODIFIED), then
// removes the object (DELETED). This is the difference issue 20 names.
func TestGraceZeroDeleteIsModifiedThenDeleted(t *testing.T) {
	ctx := context.Background()
	ns := namespace(t, "gracezero")
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "lone", Labels: map[string]string{"app": "lone"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx"}}},
	}
	_, err := shared.Client.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		p, err := shared.Client.CoreV1().Pods(ns).Get(ctx, "lone", metav1.GetOptions{})
		return err == nil && p.Spec.NodeName != ""
	}, 30*time.Second, 20*time.Millisecond, "the stand-in scheduler binds the pod")

	list, err := shared.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	w, err := shared.Client.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	require.NoError(t, err)
	defer w.Stop()

	require.NoError(t, shared.Client.CoreV1().Pods(ns).Delete(ctx, "lone", metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}))

	var seen []watch.EventType
	var modified *corev1.Pod
	timeout := time.After(10 * time.Second)
	for len(seen) == 0 || seen[len(seen)-1] != watch.Deleted {
		select {
		case ev := <-w.ResultChan():
			seen = append(seen, ev.Type)
			if ev.Type == watch.Modified && modified == nil {
				modified = ev.Object.(*corev1.Pod)
			}
		case <-timeout:
			t.Fatalf("no DELETED within 10s; saw %v", seen)
		}
	}
	assert.Equal(t, []watch.EventType{watch.Modified, watch.Deleted}, seen)
	require.NotNil(t, modified)
	assert.NotNil(t, modified.DeletionTimestamp, "the MODIFIED event carries the deletionTimestamp")
	assert.Equal(t, ptr.To[int64](0), modified.DeletionGracePeriodSeconds)
}
