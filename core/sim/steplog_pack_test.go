package sim

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gisted is event data that says its gist, as the API server's does.
type gisted struct{ g Gist }

func (d *gisted) Gist() Gist { return d.g }

// TestAPackedStepReadsBackAsItRan packs steps, each in a chunk of its own, that use every field a step
// has, at the ends of their ranges (negative numbers, a sentence and its
// tail, choices, an event that fired after its time, one that was
// cancelled), and reads each back: the same step, but for its event's data,
// which is the data's gist when it has one and nothing when it does not.
func TestAPackedStepReadsBackAsItRan(t *testing.T) {
	gist := Gist{Carried: CarriedReply, Verb: "create", What: "pods", Failed: "Conflict"}
	steps := []StepResult{
		{
			N: 41, At: 3 * time.Second, Hash: 1<<64 - 1,
			Event: Event{At: 2 * time.Second, Seq: 1 << 40, To: "apiserver", Kind: "request", Data: &gisted{gist}, Background: true},
			Report: Report{
				Actor:   "rs-worker-1",
				Models:  "manageReplicas",
				Summary: Say(formTook, "default/web").With(-3, 1<<62).Then(Say(formChoosy).With(1, 0, 1)),
				Touched: []Ref{{Kind: "pod", Namespace: "default", Name: "web-1"}, {Kind: "rs", Namespace: "default", Name: "web"}},
				Handed:  []Handoff{{To: "queue/replicaset", What: "default/web"}},
			},
		},
		{
			N: 42, At: 3 * time.Second,
			Event:  Event{At: 3 * time.Second, Seq: 7, To: "timer", Kind: "tick", Data: "not a gister", cancelled: true},
			Report: Report{Summary: Text("a sentence of text, with \x00 in it")},
		},
		{N: 43, At: 90 * time.Minute, Report: Report{Summary: Say(formBig, "a", "", "c", "d").With(0, -1, 0)}},
	}
	log := StepLog{Keep: 8} // chunks of one: every step but the newest is packed
	for _, s := range steps {
		log.Push(&s)
	}
	log.Push(&StepResult{N: 44})
	require.Len(t, log.packs, 3)
	for i, want := range steps {
		got := log.At(i)
		if i == 0 {
			assert.Equal(t, gist, got.Event.Data, "a gister's data is kept as its gist")
		} else {
			assert.Nil(t, got.Event.Data, "data with no gist is dropped")
		}
		got.Event.Data, want.Event.Data = nil, nil
		assert.Equal(t, want, got, "step %d", want.N)
		assert.Equal(t, want.TraceLine(), got.TraceLine())
		assert.Equal(t, hashStep(7, &want), hashStep(7, &got), "a packed step hashes as it did")
	}

}

// TestAPackedStepIsSmall: packing is for memory; a typical step, which
// names a pod the steps around it name too, takes a few dozen bytes.
func TestAPackedStepIsSmall(t *testing.T) {
	steps := make([]StepResult, 1000)
	for i := range steps {
		steps[i] = StepResult{
			N: uint64(i + 1), At: time.Duration(i) * time.Millisecond, Hash: uint64(i) * 0x9e3779b97f4a7c15,
			Event: Event{At: time.Duration(i) * time.Millisecond, Seq: uint64(i + 100), To: "informer/pods", Kind: "watch", Data: &gisted{Gist{Carried: CarriedWatch, Verb: "MODIFIED", What: "Pod", Name: "web-1"}}},
			Report: Report{
				Actor:   "informer/pods",
				Models:  "watchHandler",
				Summary: Say(formTook, "default/web-1").With(3, 5),
				Touched: []Ref{{Kind: "pod", Namespace: "default", Name: "web-1"}},
			},
		}
	}
	log := StepLog{Keep: len(steps) * 8} // one chunk of them all
	for _, s := range steps {
		log.Push(&s)
	}
	log.Push(&StepResult{N: uint64(len(steps) + 1)})
	require.Len(t, log.packs, 1)
	assert.Less(t, len(log.packs[0].data)/len(steps), 48, "bytes a step")
}
