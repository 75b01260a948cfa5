package apistore

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// fixedRun runs one fixed sequence of operations against a store seeded with
// seed and returns what it produced: names, uids and resourceVersions.
func fixedRun(t *testing.T, seed uint64) []string {
	t.Helper()
	clock := newTestClock()
	s := New(Options{Now: clock.Now, Rand: rand.New(rand.NewPCG(seed, seed))})
	web := map[string]string{"app": "web"}
	var out []string
	note := func(obj api.Object, err error) {
		require.NoError(t, err)
		m := obj.Meta()
		out = append(out, m.Name+" "+m.UID+" "+m.ResourceVersion+" "+m.CreationTimestamp.String())
	}
	rs, err := s.Create(newRS("default", "web", 3, web))
	note(rs, err)
	for i := 0; i < 5; i++ {
		clock.Advance(700 * time.Millisecond)
		pod := newGeneratedPod("default", "web-", web)
		pod.Metadata.OwnerReferences = []api.OwnerReference{controllerRef(rs)}
		note(s.Create(pod))
	}
	pods := s.Objects(api.KindPod, "default")
	note(s.Bind("default", pods[0].Meta().Name, "node-1"))
	note(s.Delete(api.KindPod, "default", pods[1].Meta().Name, nil))
	note(s.Patch(api.KindPod, "default", pods[2].Meta().Name, MetaPatch{RemoveOwnerReferences: []string{rs.Meta().UID}}))
	require.NoError(t, s.CheckInvariants())
	return out
}

func TestSameSeedSameRun(t *testing.T) {
	a := fixedRun(t, 7)
	b := fixedRun(t, 7)
	assert.Equal(t, a, b, "same seed, same operations: same names, uids and resourceVersions")
}

func TestDifferentSeedsDifferentNames(t *testing.T) {
	a := fixedRun(t, 7)
	b := fixedRun(t, 8)
	require.Len(t, b, len(a))
	assert.NotEqual(t, a[1], b[1], "generated names and uids follow the seed")
	assert.Equal(t, a[0][:4], b[0][:4], "names that were not generated stay")
}
