package gc

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/cow"
)

// TestDepListKeepsOrderAcrossChunksAndSnapshots adds and removes thousands
// of dependents in random order, far more than one chunk holds, and holds
// the list equal to a plain sorted slice after every change. Every few
// hundred changes it takes a snapshot (a copy of the list, and a new
// epoch), and at the end every snapshot must still hold exactly what it
// held when it was taken: no change after it wrote into what it shares.
func TestDepListKeepsOrderAcrossChunksAndSnapshots(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ref := func(i int) depRef {
		return depRef{kind: api.KindPod, namespace: "default", name: fmt.Sprintf("web-%05d", i), uid: fmt.Sprintf("uid-%d", i)}
	}
	type snapshot struct {
		list depList
		want []depRef
	}
	var (
		list      depList
		epoch     cow.Epoch
		want      []depRef
		snapshots []snapshot
	)
	for step := range 20_000 {
		dep := ref(rng.IntN(3_000))
		i, had := slices.BinarySearchFunc(want, dep, cmpDeps)
		if rng.IntN(3) == 0 {
			require.Equal(t, had, list.remove(epoch, dep), "step %d: remove %s", step, dep)
			if had {
				want = slices.Delete(want, i, i+1)
			}
		} else {
			require.Equal(t, !had, list.add(epoch, dep), "step %d: add %s", step, dep)
			if !had {
				want = slices.Insert(want, i, dep)
			}
		}
		require.Equal(t, len(want), list.len(), "step %d", step)
		if step%500 == 0 {
			require.Equal(t, want, list.all(), "step %d", step)
			for _, c := range list.chunks {
				require.NotEmpty(t, c.refs)
				require.LessOrEqual(t, len(c.refs), depChunkMax)
			}
			snapshots = append(snapshots, snapshot{list: list, want: slices.Clone(want)})
			epoch.Next()
		}
	}
	assert.Greater(t, len(list.chunks), 10, "the list spans many chunks")
	for i, s := range snapshots {
		assert.Equal(t, s.want, s.list.all(), "snapshot %d is as it was taken", i)
	}
}
