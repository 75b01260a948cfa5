package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStepLogKeepsWhatASliceWouldKeep drives a StepLog and a plain slice
// with the same steps and forks (a fork drops the steps from some number
// on, as a session does after a seek back), and checks after every change
// that the log holds the newest steps of the slice, in order, packed or
// not, and less than a chunk more than Keep; and, as steps are added, at
// least Keep of them (a fork drops steps the log cannot get back).
func TestStepLogKeepsWhatASliceWouldKeep(t *testing.T) {
	log := StepLog{Keep: 40}
	keptSteps := log.Keep
	require.Equal(t, 5, log.Chunk())

	var all []uint64
	kept := 0 // the fewest steps the log must keep now
	check := func(what string) {
		t.Helper()
		n := log.Len()
		require.LessOrEqual(t, n, len(all), what)
		assert.GreaterOrEqual(t, n, kept, "%s: at least Keep are kept", what)
		assert.Less(t, n, keptSteps+log.Chunk(), "%s: at most a chunk more", what)
		for i := range n {
			require.Equal(t, all[len(all)-n+i], log.At(i).N, "%s: step %d", what, i)
		}
		for i := range n {
			require.Equal(t, fmt.Sprint("step ", log.N(i)), log.At(i).Summary.String(), "%s: step %d reads back", what, i)
		}
		for _, p := range log.packs {
			require.LessOrEqual(t, len(p.offsets), log.Chunk(), "%s: a pack holds at most a chunk", what)
		}
		require.LessOrEqual(t, len(log.open), log.Chunk(), "%s: the open chunk holds at most a chunk", what)
	}
	push := func(n uint64) {
		log.Push(&StepResult{N: n, Report: Report{Summary: Text(fmt.Sprint("step ", n))}})
		all = append(all, n)
		kept = min(kept+1, keptSteps)
	}
	fork := func(at uint64) {
		dropped := log.Len() - log.Index(at)
		log.Truncate(log.Index(at))
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
	// A step that does not follow the last (a world rebuilt under the
	// session) starts a pack of its own.
	for n := uint64(300); n <= 320; n++ {
		push(n)
		check("after a gap")
	}
	assert.Equal(t, log.Len(), log.Index(321), "Index past the newest is Len")
	assert.Equal(t, log.Index(300), log.Index(201), "Index in a gap is the step after it")
	assert.Equal(t, 0, log.Index(1), "Index before the oldest kept is 0")
	first := log.At(0).N
	assert.Equal(t, 3, log.Index(first+3))

	fork(first + 2) // back to within what is kept: the oldest stay
	check("fork among the kept")
	fork(first)
	assert.Zero(t, log.Len(), "a fork before every kept step empties the log")
	assert.Empty(t, log.packs)
	assert.Empty(t, log.open)
	push(first)
	assert.Equal(t, 1, log.Len())
	assert.Equal(t, first, log.At(0).N)
}
