package deployment

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// Upstream's sync_test.go at v1.31 (spec §10.3).

func TestScale(t *testing.T) {
	newTS := time.Date(2016, 5, 20, 2, 0, 0, 0, time.UTC)
	oldTS := time.Date(2016, 5, 20, 1, 0, 0, 0, time.UTC)
	olderTS := time.Date(2016, 5, 20, 0, 0, 0, 0, time.UTC)
	dep := func(replicas int32, surge, unavailable *api.IntOrString) *api.Deployment {
		return newDeployment("foo", replicas, nil, surge, unavailable, nil)
	}
	updatedTemplate := func(replicas int32) *api.Deployment {
		d := newDeployment("foo", replicas, nil, nil, nil, map[string]string{"foo": "bar"})
		d.Spec.Template.Metadata.Labels["another"] = "label"
		return d
	}
	tests := []struct {
		name               string
		d, oldD            *api.Deployment
		newRS              *api.ReplicaSet
		oldRSs             []*api.ReplicaSet
		wantNew            *int32
		wantOld            []int32
		wasntUpdated       map[string]bool
		desiredAnnotations map[string]int32
		newAvailable       int32
	}{
		{name: "normal scaling event: 10 -> 12", d: dep(12, nil, nil), oldD: dep(10, nil, nil),
			newRS: rs("foo-v1", 10, nil, newTS), wantNew: ptr32(12)},
		{name: "normal scaling event: 10 -> 5", d: dep(5, nil, nil), oldD: dep(10, nil, nil),
			newRS: rs("foo-v1", 10, nil, newTS), wantNew: ptr32(5)},
		{name: "proportional scaling: 5 -> 10", d: dep(10, nil, nil), oldD: dep(5, nil, nil),
			newRS: rs("foo-v2", 2, nil, newTS), oldRSs: []*api.ReplicaSet{rs("foo-v1", 3, nil, oldTS)},
			wantNew: ptr32(4), wantOld: []int32{6}},
		{name: "proportional scaling: 5 -> 3", d: dep(3, nil, nil), oldD: dep(5, nil, nil),
			newRS: rs("foo-v2", 2, nil, newTS), oldRSs: []*api.ReplicaSet{rs("foo-v1", 3, nil, oldTS)},
			wantNew: ptr32(1), wantOld: []int32{2}},
		{name: "proportional scaling: 9 -> 4", d: dep(4, nil, nil), oldD: dep(9, nil, nil),
			newRS: rs("foo-v2", 8, nil, newTS), oldRSs: []*api.ReplicaSet{rs("foo-v1", 1, nil, oldTS)},
			wantNew: ptr32(4), wantOld: []int32{0}},
		{name: "proportional scaling: 7 -> 10", d: dep(10, nil, nil), oldD: dep(7, nil, nil),
			newRS: rs("foo-v3", 2, nil, newTS), oldRSs: []*api.ReplicaSet{rs("foo-v2", 3, nil, oldTS), rs("foo-v1", 2, nil, olderTS)},
			wantNew: ptr32(3), wantOld: []int32{4, 3}},
		{name: "proportional scaling: 13 -> 8", d: dep(8, nil, nil), oldD: dep(13, nil, nil),
			newRS: rs("foo-v3", 2, nil, newTS), oldRSs: []*api.ReplicaSet{rs("foo-v2", 8, nil, oldTS), rs("foo-v1", 3, nil, olderTS)},
			wantNew: ptr32(1), wantOld: []int32{5, 2}},
		{name: "leftover distribution: 3 -> 4", d: dep(4, nil, nil), oldD: dep(3, nil, nil),
			newRS: rs("foo-v3", 1, nil, newTS), oldRSs: []*api.ReplicaSet{rs("foo-v2", 1, nil, oldTS), rs("foo-v1", 1, nil, olderTS)},
			wantNew: ptr32(2), wantOld: []int32{1, 1}},
		{name: "leftover distribution: 3 -> 2", d: dep(2, nil, nil), oldD: dep(3, nil, nil),
			newRS: rs("foo-v3", 1, nil, newTS), oldRSs: []*api.ReplicaSet{rs("foo-v2", 1, nil, oldTS), rs("foo-v1", 1, nil, olderTS)},
			wantNew: ptr32(1), wantOld: []int32{1, 0}},
		{name: "proportional scaling (no new rs): 4 -> 5", d: dep(5, nil, nil), oldD: dep(4, nil, nil),
			oldRSs: []*api.ReplicaSet{rs("foo-v2", 2, nil, oldTS), rs("foo-v1", 2, nil, olderTS)}, wantOld: []int32{3, 2}},
		{name: "proportional scaling: 6 -> 0", d: dep(0, nil, nil), oldD: dep(6, nil, nil),
			newRS: rs("foo-v3", 3, nil, newTS), oldRSs: []*api.ReplicaSet{rs("foo-v2", 2, nil, oldTS), rs("foo-v1", 1, nil, olderTS)},
			wantNew: ptr32(0), wantOld: []int32{0, 0}},
		{name: "proportional scaling: 0 -> 6", d: dep(6, nil, nil), oldD: dep(6, nil, nil),
			newRS: rs("foo-v3", 0, nil, newTS), oldRSs: []*api.ReplicaSet{rs("foo-v2", 0, nil, oldTS), rs("foo-v1", 0, nil, olderTS)},
			wantNew: ptr32(6), wantOld: []int32{0, 0}, wasntUpdated: map[string]bool{"foo-v2": true, "foo-v1": true}},
		{name: "failed rs update", d: dep(5, nil, nil), oldD: dep(5, nil, nil),
			newRS: rs("foo-v3", 2, nil, newTS), oldRSs: []*api.ReplicaSet{rs("foo-v2", 1, nil, oldTS), rs("foo-v1", 1, nil, olderTS)},
			wantNew: ptr32(2), wantOld: []int32{2, 1}, wasntUpdated: map[string]bool{"foo-v3": true, "foo-v1": true},
			desiredAnnotations: map[string]int32{"foo-v2": 3}},
		{name: "deployment with surge pods", d: dep(20, intstr(2), nil), oldD: dep(10, intstr(2), nil),
			newRS: rs("foo-v2", 6, nil, newTS), oldRSs: []*api.ReplicaSet{rs("foo-v1", 6, nil, oldTS)},
			wantNew: ptr32(11), wantOld: []int32{11}},
		{name: "change both surge and size", d: dep(50, intstr(6), nil), oldD: dep(10, intstr(3), nil),
			newRS: rs("foo-v2", 5, nil, newTS), oldRSs: []*api.ReplicaSet{rs("foo-v1", 8, nil, oldTS)},
			wantNew: ptr32(22), wantOld: []int32{34}},
		{name: "change both size and template", d: updatedTemplate(14), oldD: newDeployment("foo", 10, nil, nil, nil, map[string]string{"foo": "bar"}),
			oldRSs: []*api.ReplicaSet{rs("foo-v2", 7, nil, newTS), rs("foo-v1", 3, nil, oldTS)}, wantOld: []int32{10, 4}},
		{name: "saturated but broken new replica set does not affect old pods", d: dep(2, intstr(1), intstr(1)), oldD: dep(2, intstr(1), intstr(1)),
			newRS: rs("foo-v2", 2, nil, newTS), oldRSs: []*api.ReplicaSet{rs("foo-v1", 1, nil, oldTS)},
			wantNew: ptr32(2), wantOld: []int32{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			annotate := func(r *api.ReplicaSet) {
				desired := *tt.oldD.Spec.Replicas
				if v, ok := tt.desiredAnnotations[r.Metadata.Name]; ok {
					desired = v
				}
				SetReplicasAnnotations(r, desired, desired+MaxSurge(tt.oldD))
			}
			if tt.newRS != nil {
				annotate(tt.newRS)
			}
			for _, r := range tt.oldRSs {
				annotate(r)
			}
			sizes := map[string]int32{}
			for _, r := range append([]*api.ReplicaSet{tt.newRS}, tt.oldRSs...) {
				if r != nil {
					sizes[r.Metadata.Name] = *r.Spec.Replicas
				}
			}
			names := make([]string, len(tt.oldRSs))
			for i, r := range tt.oldRSs {
				names[i] = r.Metadata.Name
			}

			f, c := newFake()
			require.NoError(t, c.scale(tt.d, tt.newRS, tt.oldRSs))
			for name, n := range f.updatedSizes() {
				if !tt.wasntUpdated[name] {
					sizes[name] = n
				}
			}
			if tt.wantNew != nil {
				assert.Equal(t, *tt.wantNew, sizes[tt.newRS.Metadata.Name], "new ReplicaSet")
			}
			got := make([]int32, len(names))
			for i, name := range names {
				got[i] = sizes[name]
			}
			if len(tt.wantOld) == 0 {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, tt.wantOld, got, "old ReplicaSets %v", names)
		})
	}
}

func TestDeploymentController_cleanupDeployment(t *testing.T) {
	sel := map[string]string{"foo": "bar"}
	alreadyDeleted := newRSWithStatus("foo-1", 0, 0, sel)
	alreadyDeleted.Metadata.DeletionTimestamp = api.NewTimePtr(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	tests := []struct {
		name      string
		oldRSs    []*api.ReplicaSet
		limit     int32
		deletions int
	}{
		{"keeps one", []*api.ReplicaSet{newRSWithStatus("foo-1", 0, 0, sel), newRSWithStatus("foo-2", 0, 0, sel), newRSWithStatus("foo-3", 0, 0, sel)}, 1, 2},
		{"only delete the replica set with Spec.Replicas = Status.Replicas = 0", []*api.ReplicaSet{newRSWithStatus("foo-1", 0, 0, sel),
			newRSWithStatus("foo-2", 0, 1, sel), newRSWithStatus("foo-3", 1, 0, sel), newRSWithStatus("foo-4", 1, 1, sel)}, 0, 1},
		{"keeps none", []*api.ReplicaSet{newRSWithStatus("foo-1", 0, 0, sel), newRSWithStatus("foo-2", 0, 0, sel)}, 0, 2},
		{"never deletes one with replicas", []*api.ReplicaSet{newRSWithStatus("foo-1", 1, 1, sel), newRSWithStatus("foo-2", 1, 1, sel)}, 0, 0},
		{"never deletes one being deleted", []*api.ReplicaSet{alreadyDeleted}, 0, 0},
		{"with unlimited revisionHistoryLimit", []*api.ReplicaSet{newRSWithStatus("foo-1", 0, 0, sel), newRSWithStatus("foo-2", 0, 0, sel),
			newRSWithStatus("foo-3", 0, 0, sel)}, math.MaxInt32, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDeployment("foo", 1, ptr32(tt.limit), nil, nil, sel)
			f, c := newFake()
			require.NoError(t, c.cleanupDeployment(tt.oldRSs, d))
			assert.Len(t, f.deleted(), tt.deletions)
		})
	}
}

func TestDeploymentController_cleanupDeploymentOrder(t *testing.T) {
	sel := map[string]string{"foo": "bar"}
	now := time.Date(2025, 1, 1, 0, 10, 0, 0, time.UTC)
	r := func(name string, replicas int32, at time.Duration, revision string) *api.ReplicaSet {
		x := rs(name, replicas, sel, now.Add(at))
		if revision != "" {
			x.Metadata.Annotations = map[string]string{RevisionAnnotation: revision}
		}
		x.Status.Replicas = replicas
		return x
	}
	m := time.Minute
	tests := []struct {
		name    string
		oldRSs  []*api.ReplicaSet
		limit   int32
		deleted []string
	}{
		{"revision order: rs1 < rs2, delete rs1", []*api.ReplicaSet{r("foo-1", 0, -m, "1"), r("foo-2", 0, 0, "2")}, 1, []string{"foo-1"}},
		{"revision order: rs2 < rs1, delete rs2", []*api.ReplicaSet{r("foo-1", 0, -m, "2"), r("foo-2", 0, 0, "1")}, 1, []string{"foo-2"}},
		{"rs1 has revision but rs2 doesn't have revision, delete rs2", []*api.ReplicaSet{r("foo-1", 0, -m, "1"), r("foo-2", 0, 0, "")}, 1, []string{"foo-2"}},
		{"rs1 doesn't have revision while rs2 has revision, delete rs1", []*api.ReplicaSet{r("foo-1", 0, -m, ""), r("foo-2", 0, 0, "2")}, 1, []string{"foo-1"}},
		{"revision order: rs1 < rs2 < r3, but rs1 has replicas, delete rs2",
			[]*api.ReplicaSet{r("foo-1", 1, -m, "1"), r("foo-2", 0, 0, "2"), r("foo-3", 0, m, "3")}, 1, []string{"foo-2"}},
		{"revision order: rs1 < rs2 < r3, both rs1 && rs2 have replicas, don't delete",
			[]*api.ReplicaSet{r("foo-1", 1, -m, "1"), r("foo-2", 1, 0, "2"), r("foo-3", 0, m, "3")}, 1, nil},
		{"revision order: rs2 < rs4 < rs1 < rs3, delete rs2 && rs4",
			[]*api.ReplicaSet{r("foo-1", 0, -m, "3"), r("foo-2", 0, 0, "1"), r("foo-3", 0, m, "4"), r("foo-4", 0, 2*m, "2")}, 2, []string{"foo-2", "foo-4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDeployment("foo", 1, ptr32(tt.limit), nil, nil, sel)
			f, c := newFake()
			require.NoError(t, c.cleanupDeployment(tt.oldRSs, d))
			assert.Equal(t, tt.deleted, f.deleted())
		})
	}
}

// TestCleanupSkipsUnobservedGeneration pins the fourth skip rule of
// cleanupDeployment: a ReplicaSet whose latest spec its controller has not
// yet seen is kept, and nothing further down the list is taken instead.
func TestCleanupSkipsUnobservedGeneration(t *testing.T) {
	sel := map[string]string{"foo": "bar"}
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	unseen := rs("foo-1", 0, sel, t0)
	unseen.Metadata.Generation = 2
	unseen.Status.ObservedGeneration = 1
	d := newDeployment("foo", 1, ptr32(1), nil, nil, sel)
	f, c := newFake()
	require.NoError(t, c.cleanupDeployment([]*api.ReplicaSet{unseen, rs("foo-2", 0, sel, t0.Add(time.Minute))}, d))
	assert.Empty(t, f.deleted())
}

// TestProportionalScalingSaysAddedOrRemoved: the sync's account of a
// proportional scaling names the change as replicas added or removed, never
// as a signed number, with the bound it worked to.
func TestProportionalScalingSaysAddedOrRemoved(t *testing.T) {
	newTS := time.Date(2016, 5, 20, 2, 0, 0, 0, time.UTC)
	oldTS := time.Date(2016, 5, 20, 1, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		from, to int32
		why      string
	}{
		{5, 10, "a scaling event: 5 replicas added, shared among the 2 active ReplicaSets in proportion to their sizes, up to 10 (replicas + maxSurge), the rest to the largest"},
		{5, 3, "a scaling event: 2 replicas removed, taken from the 2 active ReplicaSets in proportion to their sizes, down to 3 (replicas + maxSurge), the rest from the largest"},
	} {
		oldD := newDeployment("foo", tt.from, nil, nil, nil, nil)
		d := newDeployment("foo", tt.to, nil, nil, nil, nil)
		newRS, oldRS := rs("foo-v2", 2, nil, newTS), rs("foo-v1", 3, nil, oldTS)
		for _, r := range []*api.ReplicaSet{newRS, oldRS} {
			SetReplicasAnnotations(r, tt.from, tt.from+MaxSurge(oldD))
		}
		f, c := newFake()
		require.NoError(t, c.scale(d, newRS, []*api.ReplicaSet{oldRS}))
		require.NotEmpty(t, f.scales, "%d → %d", tt.from, tt.to)
		for _, s := range f.scales {
			assert.Equal(t, "scale", s.By)
			assert.Equal(t, tt.why, s.Why)
		}
	}
}
