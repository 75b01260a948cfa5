package world

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sim"
)

// TestClaimHintsFollowClaimObject covers the cases of spec §1.7 that the
// console cannot stop at (kubectl's delete waits until the owner is gone):
// an owner being deleted neither releases nor adopts; a pod that is not
// active (terminating, Failed or Succeeded) is not claimed at all; a
// controller reference to another owner of the same name (another uid) is
// to a gone owner, whatever the pod's state; and an owner adopts only in its
// namespace.
func TestClaimHintsFollowClaimObject(t *testing.T) {
	web, err := labels.Parse("app=web")
	require.NoError(t, err)
	for _, c := range []struct {
		name          string
		namespace     string // the pod's; "" is default
		owner         string // the uid its controller reference names; "" for an orphan
		app           string
		phase         string
		podDeleting   bool
		ownerDeleting bool
		ownerGone     bool
		releasing     bool
		adoptableBy   []string
	}{
		{name: "owned and matching", owner: "uid-web", app: "web"},
		{name: "owned, left the selector", owner: "uid-web", app: "db", releasing: true},
		{name: "owned, left the selector of an owner being deleted", owner: "uid-web", app: "db", ownerDeleting: true},
		{name: "owned by an earlier rs/web, left the selector", owner: "uid-old", app: "db", ownerGone: true},
		{name: "owned by an earlier rs/web, terminating", owner: "uid-old", app: "web", podDeleting: true, ownerGone: true},
		{name: "owned, terminating, left the selector", owner: "uid-web", app: "db", podDeleting: true},
		{name: "owned, Failed, left the selector", owner: "uid-web", app: "db", phase: api.PodFailed},
		{name: "orphan matching", app: "web", adoptableBy: []string{"rs/web"}},
		{name: "orphan matching an owner being deleted", app: "web", ownerDeleting: true},
		{name: "orphan terminating", app: "web", podDeleting: true},
		{name: "orphan Succeeded", app: "web", phase: api.PodSucceeded},
		{name: "orphan that an owner in another namespace matches", namespace: "other", app: "web"},
		{name: "orphan matching nothing", app: "db"},
	} {
		t.Run(c.name, func(t *testing.T) {
			namespace := c.namespace
			if namespace == "" {
				namespace = "default"
			}
			p := &api.Pod{Metadata: api.ObjectMeta{Name: "p", Namespace: namespace, Labels: map[string]string{"app": c.app}},
				Status: api.PodStatus{Phase: c.phase}}
			v := Pod{}
			if c.owner != "" {
				yes := true
				p.Metadata.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: c.owner, Controller: &yes}}
				v.Owner = "rs/web"
			}
			if c.podDeleting {
				p.Metadata.DeletionTimestamp = &api.Time{}
			}
			rs := &api.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-web"}
			if c.ownerDeleting {
				rs.DeletionTimestamp = &api.Time{}
			}
			web := claimant{ref: "rs/web", meta: rs, selector: web, valid: true}
			claimHints(&v, p, claimants{list: []claimant{web}, byKey: map[string]claimant{"default/rs/web": web}})
			assert.Equal(t, c.ownerGone, v.OwnerGone, "OwnerGone")
			assert.Equal(t, c.releasing, v.Releasing, "Releasing")
			assert.Equal(t, c.adoptableBy, v.AdoptableBy, "AdoptableBy")
		})
	}
}

// TestAnInformersViewListsEveryKeyOnceInKeyOrder: the view of the pod
// informer merges its cache with the API store, key by key: the keys that
// differ first, then the others, each in the order of the keys, which is
// not the store's order of namespaces ("a-b/p" sorts before "a/p", since
// '-' comes before '/'). A pod the API server has stored but whose watch
// event has not reached the informer is "not in the cache".
func TestAnInformersViewListsEveryKeyOnceInKeyOrder(t *testing.T) {
	w := fastWorld(t)
	for _, ns := range []string{"default", "a", "a-b"} {
		p := barePod("p", nil)
		p.Metadata.Namespace = ns
		createPod(t, w, p)
	}
	settle(t, w)
	createPod(t, w, barePod("q", nil))
	_, err := w.RunUntil("q stored", func(sim.StepResult) bool {
		return len(w.Store.Objects(api.KindPod, "default")) == 2
	}, sim.Limits{}, false)
	require.NoError(t, err)

	inf := w.View(ViewOptions{Entries: 10}).Informers[0]
	require.Equal(t, "Pod", inf.Kind)
	var keys, diffs []string
	for _, e := range inf.Entries {
		keys, diffs = append(keys, e.Key), append(diffs, e.Diff)
	}
	assert.Equal(t, []string{"default/q", "a-b/p", "a/p", "default/p"}, keys)
	assert.Equal(t, []string{"not in the cache", "", "", ""}, diffs)
	assert.Equal(t, 3, inf.Cached)
	assert.Equal(t, 4, inf.InAPI)
	assert.Equal(t, 4, inf.EntriesTotal)
	assert.Equal(t, 1, inf.Differ)
}
