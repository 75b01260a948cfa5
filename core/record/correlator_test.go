package record

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

func newEvent(reason, message string) *api.Event {
	return &api.Event{
		Metadata:       api.ObjectMeta{Namespace: "default", Name: "web.1"},
		InvolvedObject: api.ObjectReference{Kind: "ReplicaSet", Namespace: "default", Name: "web", UID: "u1", APIVersion: "apps/v1"},
		Reason:         reason, Message: message, Type: api.EventWarning, Count: 1,
		Source: api.EventSource{Component: "replicaset-controller"},
	}
}

func TestCorrelatorKeysFollowUpstream(t *testing.T) {
	a := newEvent("FailedCreate", "m1")
	b := newEvent("FailedCreate", "m2")
	b.InvolvedObject.ResourceVersion = "99" // not part of any key
	assert.NotEqual(t, eventKey(a), eventKey(b), "the message is part of the event key")
	ka, la := aggregateKeys(a)
	kb, lb := aggregateKeys(b)
	assert.Equal(t, ka, kb, "the message is not part of the aggregate key")
	assert.Equal(t, "m1", la)
	assert.Equal(t, "m2", lb)
	c := newEvent("SuccessfulCreate", "m1")
	assert.Equal(t, spamKey(a), spamKey(c), "the spam key is source and object only")
	c.InvolvedObject.UID = "u2"
	assert.NotEqual(t, spamKey(a), spamKey(c))
}

// TestRememberedKeysAreTheKeysOfEachEvent runs events that change one key
// field at a time through the correlator's remembered keys: each must get
// its own keys, never another object's, whether they were joined afresh or
// remembered.
func TestRememberedKeysAreTheKeysOfEachEvent(t *testing.T) {
	change := []func(e *api.Event){
		func(e *api.Event) {},
		func(e *api.Event) { e.Message = "other" },
		func(e *api.Event) { e.Reason = "SuccessfulCreate" },
		func(e *api.Event) { e.Type = api.EventNormal },
		func(e *api.Event) { e.Source.Component = "other-controller" },
		func(e *api.Event) { e.Source.Host = "node-1" },
		func(e *api.Event) { e.InvolvedObject.Kind = "ReplicationController" },
		func(e *api.Event) { e.InvolvedObject.Namespace = "prod" },
		func(e *api.Event) { e.InvolvedObject.Name = "db" },
		func(e *api.Event) { e.InvolvedObject.UID = "u2" },
		func(e *api.Event) { e.InvolvedObject.APIVersion = "v1" },
		func(e *api.Event) { e.InvolvedObject.ResourceVersion = "7" },
	}
	var k eventKeys
	for _, i := range []int{0, 0, 1, 2, 2, 3, 0, 4, 5, 6, 7, 8, 9, 10, 11, 0, 9, 3, 9, 1, 2, 0} {
		ev := newEvent("FailedCreate", "m")
		change[i](ev)
		agg, _ := aggregateKeys(ev)
		assert.Equal(t, eventKey(ev), k.join(k.reasoned(ev).prefix, ev.Message), "event key after change %d", i)
		assert.Equal(t, agg, k.reasoned(ev).aggregated, "aggregate key after change %d", i)
		assert.Equal(t, spamKey(ev), k.of(ev).spamKey, "spam key after change %d", i)
		assert.Equal(t, eventKey(ev), k.join(k.reasoned(ev).prefix, ev.Message), "event key again after change %d", i)
	}
}

// TestRememberedKeysOfInterleavedObjects: events about many objects, in
// turn, as a hundred ReplicaSets' creates come, each get their own object's
// keys, and the cache starts again once it holds eventKeysMax objects.
func TestRememberedKeysOfInterleavedObjects(t *testing.T) {
	var k eventKeys
	objects := eventKeysMax + 10
	for round := range 3 {
		for i := range objects {
			ev := newEvent("SuccessfulCreate", "Created pod: web-"+strconv.Itoa(i)+"-"+strconv.Itoa(round))
			ev.InvolvedObject.Name = "web-" + strconv.Itoa(i)
			ev.InvolvedObject.UID = "uid-" + strconv.Itoa(i)
			agg, _ := aggregateKeys(ev)
			require.Equal(t, spamKey(ev), k.of(ev).spamKey, "object %d, round %d", i, round)
			require.Equal(t, agg, k.reasoned(ev).aggregated, "object %d, round %d", i, round)
			require.Equal(t, eventKey(ev), k.join(k.reasoned(ev).prefix, ev.Message), "object %d, round %d", i, round)
		}
		assert.LessOrEqual(t, len(k.byUID), eventKeysMax)
	}
}

func TestCorrelatorGroupKeepsItsFirstMessages(t *testing.T) {
	c := NewCorrelator(CorrelatorOptions{})
	var names Namer
	for i := 1; i <= 9; i++ {
		res := c.Correlate(newEvent("FailedCreate", "m"+strconv.Itoa(i)), time.Duration(i)*time.Second, &names)
		require.False(t, res.Combined)
		assert.Equal(t, i, res.Similar)
	}
	res := c.Correlate(newEvent("FailedCreate", "m10"), 10*time.Second, &names)
	assert.True(t, res.Combined)
	assert.Equal(t, 10, res.Similar)
	assert.Equal(t, CombinedPrefix+"m10", res.Event.Message)
	assert.False(t, res.Update)

	// A message the group holds is not combined: it counts on its own Event.
	res = c.Correlate(newEvent("FailedCreate", "m3"), 11*time.Second, &names)
	assert.False(t, res.Combined)
	assert.True(t, res.Update)
	assert.Equal(t, int32(2), res.Event.Count)

	// A new one is.
	res = c.Correlate(newEvent("FailedCreate", "m11"), 12*time.Second, &names)
	assert.True(t, res.Combined)
	assert.Equal(t, int32(2), res.Event.Count)
	agg, logger, spam := c.CacheSizes()
	assert.Equal(t, 1, agg)
	assert.Equal(t, 10, logger, "nine messages and the combined event")
	assert.Equal(t, 1, spam)
	assert.Equal(t, DefaultMaxEvents, c.Options().MaxEvents)
}

func TestCorrelatorCombinedEventRespectsTheSpamFilter(t *testing.T) {
	c := NewCorrelator(CorrelatorOptions{Burst: 10})
	var names Namer
	var last Result
	for i := 1; i <= 11; i++ {
		last = c.Correlate(newEvent("FailedCreate", "m"+strconv.Itoa(i)), 0, &names)
	}
	assert.True(t, last.Skip, "the 11th event finds the bucket of 10 empty")
	assert.True(t, last.Combined)
	assert.Nil(t, last.Event)
}

func TestNamerIsUniqueAndIncreasing(t *testing.T) {
	var n Namer
	a := n.Next("web", 0)
	b := n.Next("db", 0)
	c := n.Next("web", time.Nanosecond) // the clock reached a's successor already
	d := n.Next("web", time.Second)
	assert.NotEqual(t, a, b)
	assert.Equal(t, "web.", a[:4])
	base, _ := strconv.ParseInt(a[4:], 16, 64)
	nb, _ := strconv.ParseInt(b[3:], 16, 64)
	nc, _ := strconv.ParseInt(c[4:], 16, 64)
	nd, _ := strconv.ParseInt(d[4:], 16, 64)
	assert.Equal(t, base+1, nb)
	assert.Equal(t, base+2, nc)
	assert.Equal(t, base+int64(time.Second), nd)
}

func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 10: "10th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 112: "112th"} {
		assert.Equal(t, want, ordinal(n))
	}
}

// TestCorrelateWritesAFirstOccurrenceAsItIs checks that the first occurrence
// of an event is written as the event itself, with no copy, and that a later
// occurrence and a combined event are new Events: the event given is never
// changed.
func TestCorrelateWritesAFirstOccurrenceAsItIs(t *testing.T) {
	c := NewCorrelator(CorrelatorOptions{})
	var names Namer
	first := newEvent("FailedCreate", "m1")
	was := *first
	res := c.Correlate(first, time.Second, &names)
	require.Same(t, first, res.Event, "a first occurrence is written as it is")
	assert.False(t, res.Update)

	again := newEvent("FailedCreate", "m1")
	again.Metadata.Name = "web.2"
	res = c.Correlate(again, 2*time.Second, &names)
	require.NotSame(t, again, res.Event, "a later occurrence is a new Event")
	assert.Equal(t, int32(2), res.Event.Count)
	assert.Equal(t, "web.1", res.Event.Metadata.Name, "named after the first occurrence")
	assert.Equal(t, int32(1), again.Count, "the event given is left as it was")
	assert.Equal(t, "web.2", again.Metadata.Name)
	assert.Equal(t, was, *first, "the first event is left as it was")

	for i := 2; i <= DefaultMaxEvents; i++ {
		res = c.Correlate(newEvent("FailedCreate", "m"+strconv.Itoa(i)), time.Duration(2+i)*time.Second, &names)
	}
	require.True(t, res.Combined)
	assert.Equal(t, CombinedPrefix+"m10", res.Event.Message, "a combined event is a new Event")
}

// TestEventNameIsObjectDotHexTime: an Event's name is its object's name, a
// dot and the time in hex, as upstream's makeEvent names it, whether the
// object's name fits the buffer it is written in or not.
func TestEventNameIsObjectDotHexTime(t *testing.T) {
	long := strings.Repeat("web-", 20)
	for _, object := range []string{"", "web", "web-7xk2p", long} {
		for _, nanos := range []int64{0, 1, 0x18a7b2c3d4e5f607, math.MaxInt64} {
			assert.Equal(t, object+"."+strconv.FormatInt(nanos, 16), eventName(object, nanos))
		}
	}
}

// TestAggregatorGroupsAsASetOfMessagesWould: the aggregator's chains of
// messages decide as a plain list of a group's distinct messages does, for
// repeated and new messages, groups that fill up, groups whose interval
// runs out, and small and large MaxEvents.
func TestAggregatorGroupsAsASetOfMessagesWould(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, maxEvents := range []int{1, 2, 3, 10} {
		opts := CorrelatorOptions{MaxEvents: maxEvents, MaxInterval: time.Minute}
		c := NewCorrelator(opts)
		var names Namer
		type group struct {
			messages []string
			last     time.Duration
		}
		model := map[string]*group{}
		now := time.Duration(0)
		for i := range 2000 {
			now += time.Duration(rng.IntN(40)) * time.Second
			reason := []string{"FailedCreate", "SuccessfulCreate"}[rng.IntN(2)]
			ev := newEvent(reason, "m"+strconv.Itoa(rng.IntN(12)))
			g := model[reason]
			if g == nil || now-g.last > opts.MaxInterval {
				g = &group{}
				model[reason] = g
			}
			g.last = now
			if !slices.Contains(g.messages, ev.Message) {
				g.messages = append(g.messages, ev.Message)
			}
			similar, combined := len(g.messages), len(g.messages) >= maxEvents
			if combined {
				g.messages = g.messages[:len(g.messages)-1]
			}
			agg := c.aggregate(ev, c.keys.reasoned(ev), now, &names)
			require.Equal(t, combined, agg.combined, "maxEvents %d, event %d", maxEvents, i)
			require.Equal(t, similar, agg.similar, "maxEvents %d, event %d", maxEvents, i)
		}
	}
}
