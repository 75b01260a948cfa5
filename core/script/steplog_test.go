package script

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/sim"
)

// TestStepLogKeepsWhatASliceWouldKeep drives a StepLog and a plain slice
// with the same steps and forks (a fork drops the steps from some number
// on, as a session does after a seek back), and checks after every change
// that the log holds the newest steps of the slice, in order, and less
// than a chunk more than keptSteps; and, as steps are added, at least
// keptSteps of them (a fork drops steps the log cannot get back).
func TestStepLogKeepsWhatASliceWouldKeep(t *testing.T) {
	defer func(n int) { keptSteps = n }(keptSteps)
	keptSteps = 40 // chunks of 5
	require.Equal(t, 5, chunkSteps())

	var log StepLog
	var all []uint64
	kept := 0 // the fewest steps the log must keep now
	check := func(what string) {
		t.Helper()
		n := log.Len()
		require.LessOrEqual(t, n, len(all), what)
		assert.GreaterOrEqual(t, n, kept, "%s: at least keptSteps are kept", what)
		assert.Less(t, n, keptSteps+chunkSteps(), "%s: at most a chunk more", what)
		for i := range n {
			require.Equal(t, all[len(all)-n+i], log.At(i).N, "%s: step %d", what, i)
		}
		for _, c := range log.chunks[:max(len(log.chunks)-1, 0)] {
			require.Len(t, c, chunkSteps(), "%s: every chunk but the last is full", what)
		}
	}
	push := func(n uint64) {
		log.push(sim.StepResult{N: n, Summary: sim.Text("step")})
		all = append(all, n)
		kept = min(kept+1, keptSteps)
	}
	fork := func(at uint64) {
		dropped := log.Len() - log.Index(at)
		log.truncate(log.Index(at))
		for len(all) > 0 && all[len(all)-1] >= at {
			all = all[:len(all)-1]
		}
		kept = max(kept-dropped, 0)
	}

	for n := uint64(1); n <= 23; n++ {
		push(n)
		check("growing")
	}
	fork(21) // back into the last chunk
	check("fork inside a chunk")
	fork(16) // back to a chunk's first step
	check("fork at a chunk boundary")
	for n := uint64(16); n <= 200; n++ {
		push(n)
		check("past what is kept")
	}
	assert.Equal(t, log.Len(), log.Index(201), "Index past the newest is Len")
	assert.Equal(t, 0, log.Index(1), "Index before the oldest kept is 0")
	first := log.At(0).N
	assert.Equal(t, 3, log.Index(first+3))

	fork(first + 2) // back to within what is kept: the oldest stay
	check("fork among the kept")
	fork(first)
	assert.Zero(t, log.Len(), "a fork before every kept step empties the log")
	assert.Empty(t, log.chunks)
	push(first)
	assert.Equal(t, 1, log.Len())
	assert.Equal(t, first, log.At(0).N)
}
