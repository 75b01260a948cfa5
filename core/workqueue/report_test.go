package workqueue

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/sim"
)

// TestDueStepTellsALearnerWhatHappened pins down the words of the due step for
// each thing that can become of the key.
func TestDueStepTellsALearnerWhatHappened(t *testing.T) {
	k, q := newDelayingWorld(t, Config{Name: "replicaset", Kind: "rs"})
	idle := &recorder{}
	mustRegister(t, k, "worker-1", idle)
	q.Get("worker-1")
	q.addBackOff("default/web", 20*time.Millisecond)
	q.AddAfter("default/db", time.Second)

	steps := q.advance(20 * time.Millisecond)
	require.Len(t, steps, 2, "the due step and the wake it caused")
	assert.Equal(t, "default/web is due after its 20ms back-off; added to the queue (now 1 waiting), waking worker-1", steps[0].Summary.String())
	assert.Equal(t, []sim.Ref{{Kind: "rs", Namespace: "default", Name: "web"}}, steps[0].Touched)
	assert.Equal(t, "worker-1", steps[1].Actor)

	q.Add("default/db")
	steps = q.advance(time.Second)
	require.Len(t, steps, 1)
	assert.Equal(t, "default/db is due after its 1s delay; it is already waiting in the queue and keeps its place (2 waiting)", steps[0].Summary.String())

	key, _, _ := q.Get("worker-1")
	require.Equal(t, "default/web", key)
	q.AddAfter("default/web", time.Millisecond)
	steps = q.advance(time.Millisecond)
	require.Len(t, steps, 1)
	assert.Equal(t, "default/web is due after its 1ms delay; worker-1 is still processing it, so it is marked dirty and goes back in the queue at Done", steps[0].Summary.String())

	q.AddAfter("default/web", time.Millisecond)
	steps = q.advance(time.Millisecond)
	require.Len(t, steps, 1)
	assert.Equal(t, "default/web is due after its 1ms delay; worker-1 is still processing it and it is already marked dirty; nothing changes", steps[0].Summary.String())
}

func TestDueStepNamesClusterScopedObjectsAndAnonymousHolders(t *testing.T) {
	_, q := newDelayingWorld(t, Config{Name: "nodes", Kind: "node"})
	q.Add("node-1")
	q.Get("") // an anonymous Get: the queue does not know who holds it
	q.AddAfter("node-1", ms)
	steps := q.advance(ms)
	require.Len(t, steps, 1)
	assert.Equal(t, []sim.Ref{{Kind: "node", Name: "node-1"}}, steps[0].Touched, "a key without a namespace is a cluster-scoped name")
	assert.Equal(t, "node-1 is due after its 1ms delay; a worker is still processing it, so it is marked dirty and goes back in the queue at Done", steps[0].Summary.String())

	_, plain := newDelayingWorld(t, Config{Name: "untyped"})
	plain.AddAfter("x", ms)
	steps = plain.advance(ms)
	require.Len(t, steps, 1)
	assert.Nil(t, steps[0].Touched, "a queue without a Kind names no objects")
}

func TestDescribeSaysWhatTheTimerWillDo(t *testing.T) {
	k, q := newDelayingWorld(t, Config{Name: "test"})
	q.addBackOff("default/web", 40*time.Millisecond)
	next, ok := k.Next()
	require.True(t, ok)
	assert.Equal(t, "default/web becomes due after its 40ms back-off", k.Describe(next))
	assert.Equal(t, "queue/test: poke", q.d.Describe(sim.Event{Kind: "poke"}))
}

var formEnqueued = &sim.Form{Text: "enqueued %s" + AddedWords}

func init() { sim.Register(formEnqueued) }

// TestAddedWordsSayWhatAddDid: a handler's sentence says after the key what
// Add did with it, by the Outcome Add returned; the words are indexed by the
// Outcome's value, so each outcome must find its own.
func TestAddedWordsSayWhatAddDid(t *testing.T) {
	enqueued := formEnqueued
	say := func(out Outcome) string { return sim.Say(enqueued, "default/web").With(int64(out)).String() }
	q := New(Config{})
	assert.Equal(t, "enqueued default/web", say(q.Add("default/web")))
	assert.Equal(t, "enqueued default/web (already waiting in the queue)", say(q.Add("default/web")))
	_, ok, _ := q.Get("worker-1")
	require.True(t, ok)
	assert.Equal(t, "enqueued default/web (a worker holds it: it goes back in the queue at Done)", say(q.Add("default/web")))
	assert.Equal(t, "enqueued default/web (already marked to go back in the queue at Done)", say(q.Add("default/web")))
	q.ShutDown()
	assert.Equal(t, "enqueued default/web (the queue is shutting down: ignored)", say(q.Add("default/db")))
}
