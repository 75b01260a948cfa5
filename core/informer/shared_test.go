package informer_test

import (
	"maps"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/world"
)

// TestNoHandlerChangesASharedObject pins the rule that lets the informer
// hand its handlers the very objects it caches, as upstream does, instead
// of a copy each: nobody changes an object once it is shared. The store's
// objects are shared by the informers' caches, the agenda and snapshots;
// a controller that wants to change one deep-copies it first.
//
// A whole world rolls a Deployment out, rolls it to a new image, scales
// it, loses pods and recovers. After every step, every object a
// controller's informer caches is compared with the copy taken when that
// object first entered a cache, and after each phase every object ever
// cached is: a handler, a lister reader or the store that changed one in
// place would show here.
func TestNoHandlerChangesASharedObject(t *testing.T) {
	w, err := world.New(world.Config{})
	require.NoError(t, err)
	_, err = w.Stabilize(sim.Limits{})
	require.NoError(t, err)

	seen := map[api.Object]api.Object{}
	kinds := []api.Kind{api.KindPod, api.KindReplicaSet, api.KindDeployment, api.KindReplicationController}
	steps := 0
	check := func(sim.StepResult) bool {
		steps++
		for _, kind := range kinds {
			for _, obj := range w.Informer(kind).Indexer().List() {
				first, ok := seen[obj]
				if !ok {
					seen[obj] = obj.DeepCopyObject()
					continue
				}
				if !reflect.DeepEqual(first, obj) {
					t.Fatalf("step %d: cached %s %s/%s was changed after it was shared", steps, kind, obj.Meta().Namespace, obj.Meta().Name)
				}
			}
		}
		return false
	}
	// Objects that left the caches are still shared (by snapshots, and by
	// handlers' notifications still waiting): each phase ends by checking
	// every object ever seen.
	checkAll := func(what string) {
		for obj, first := range seen {
			if !reflect.DeepEqual(first, obj) {
				t.Fatalf("after %s: %s %s/%s was changed after it was shared", what, obj.Kind(), obj.Meta().Namespace, obj.Meta().Name)
			}
		}
	}
	run := func(what string, apply func(w *world.World)) {
		t.Helper()
		require.NoError(t, w.Do(what, func(w *world.World) error { apply(w); return nil }))
		_, err := w.RunUntil("stabilize", check, sim.Limits{MaxSteps: 200_000, MaxTime: time.Hour}, true)
		require.NoError(t, err)
		checkAll(what)
	}
	send := func(req apistore.Request) func(w *world.World) { return func(w *world.World) { w.Send(req) } }
	edit := func(change func(d *api.Deployment)) func(w *world.World) {
		return func(w *world.World) {
			o, ok := w.Store.Object(api.KindDeployment, "default", "web")
			require.True(t, ok)
			d := o.(*api.Deployment).DeepCopy()
			change(d)
			d.Metadata.ResourceVersion = ""
			w.Send(apistore.Request{Verb: apistore.VerbUpdate, Kind: api.KindDeployment, Object: d})
		}
	}

	replicas := int32(6)
	sel := map[string]string{"app": "web"}
	run("create deploy/web", send(apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindDeployment, Object: &api.Deployment{
		Metadata: api.ObjectMeta{Namespace: "default", Name: "web"},
		Spec: api.DeploymentSpec{Replicas: &replicas, Selector: &api.LabelSelector{MatchLabels: sel},
			Template: api.PodTemplateSpec{Metadata: api.ObjectMeta{Labels: maps.Clone(sel)},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1"}}}}},
	}}))
	run("roll to nginx:2", edit(func(d *api.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "nginx:2" }))
	run("scale to 9", edit(func(d *api.Deployment) { n := int32(9); d.Spec.Replicas = &n }))
	zero := int64(0)
	run("delete two pods", func(w *world.World) {
		for _, p := range w.Store.Objects(api.KindPod, "default")[:2] {
			w.Send(apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindPod, Namespace: "default",
				Name: p.Meta().Name, DeleteOptions: &apistore.DeleteOptions{GracePeriodSeconds: &zero}})
		}
	})
	run("scale to 3", edit(func(d *api.Deployment) { n := int32(3); d.Spec.Replicas = &n }))

	require.Len(t, w.Store.Objects(api.KindPod, "default"), 3)
	require.Greater(t, len(seen), 40, "the run shared many objects")
}
