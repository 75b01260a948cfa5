package world

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/sim"
)

// TestHashLogKeepsEveryHashAcrossChunks pushes past several chunk
// boundaries, truncates at a boundary and inside a chunk, and pushes again,
// as seeks and forks do.
func TestHashLogKeepsEveryHashAcrossChunks(t *testing.T) {
	var l hashLog
	n := 3*hashChunk + 5
	for i := range n {
		l.push(uint64(i) * 7)
	}
	require.Equal(t, n, l.len())
	for _, i := range []int{0, hashChunk - 1, hashChunk, 2*hashChunk + 3, n - 1} {
		require.True(t, l.matches(i, uint64(i)*7), "hash %d", i)
		require.False(t, l.matches(i, uint64(i)*7+1), "hash %d is told from another", i)
		require.False(t, l.matches(i, uint64(i)*7^1<<40), "hash %d is told from one that differs in its upper half", i)
	}
	l.truncate(2 * hashChunk)
	require.Equal(t, 2*hashChunk, l.len())
	require.Len(t, l.chunks, 2, "a chunk no hash needs is dropped")
	l.push(1)
	assert.True(t, l.matches(2*hashChunk, 1))
	l.truncate(hashChunk + 10)
	l.push(2)
	assert.True(t, l.matches(hashChunk+10, 2))
	assert.True(t, l.matches(hashChunk+9, uint64(hashChunk+9)*7), "what is kept stays")
	assert.Equal(t, hashChunk+11, l.len())
	l.truncate(l.len() + 5)
	assert.Equal(t, hashChunk+11, l.len(), "truncating past the end changes nothing")
}

// TestLongRunsLetOtherGoroutinesRun proves that a world yields the thread
// every yieldEvery steps, both running forward and replaying a seek: under
// js/wasm the garbage collector's mark workers only run when it does (see
// yieldNowAndThen).
func TestLongRunsLetOtherGoroutinesRun(t *testing.T) {
	yields := 0
	defer func(f func()) { yield = f }(yield)
	yield = func() { yields++ }

	// Only the start is kept, so that a seek back replays the whole run.
	w := newWorld(t, Config{SnapshotEvery: -1})
	createRS(t, w, replicaSet("web", 300, map[string]string{"app": "web"}))
	before, n := yields, w.Kernel.Steps()
	_, err := w.Stabilize(sim.Limits{})
	require.NoError(t, err)
	end := w.Kernel.Steps()
	require.Greater(t, end-n, uint64(2*yieldEvery), "the run must be long enough to yield twice")
	assert.Equal(t, int(end/yieldEvery-n/yieldEvery), yields-before, "once per yieldEvery steps run")

	before = yields
	require.NoError(t, w.Seek(end-1))
	assert.Equal(t, int((end-1)/yieldEvery), yields-before, "a replay from the start yields as it goes")
}
