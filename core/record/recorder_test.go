package record

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
)

func TestEventFieldsAreUpstreams(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	r.rec.Eventf(r.k, rs, api.EventNormal, "SuccessfulCreate", "Created pod: web-7xk2p")
	r.settle()

	evs := r.events()
	require.Len(t, evs, 1)
	ev := evs[0]
	nanos := sim.Epoch.UnixNano()
	assert.Equal(t, "web."+strconv.FormatInt(nanos, 16), ev.Metadata.Name, "<object name>.<unix nanos in hex>")
	assert.Equal(t, "default", ev.Metadata.Namespace)
	assert.Equal(t, api.ObjectReference{
		Kind: "ReplicaSet", Namespace: "default", Name: "web", UID: rs.Metadata.UID,
		APIVersion: "apps/v1", ResourceVersion: rs.Metadata.ResourceVersion,
	}, ev.InvolvedObject)
	assert.Equal(t, api.EventSource{Component: "replicaset-controller"}, ev.Source)
	assert.Equal(t, "SuccessfulCreate", ev.Reason)
	assert.Equal(t, "Created pod: web-7xk2p", ev.Message)
	assert.Equal(t, api.EventNormal, ev.Type)
	assert.Equal(t, int32(1), ev.Count)
	assert.True(t, ev.FirstTimestamp.Equal(sim.Epoch))
	assert.True(t, ev.LastTimestamp.Equal(sim.Epoch))
}

func TestEventfReturnsBeforeAnythingIsWritten(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	r.rec.Eventf(r.k, rs, api.EventNormal, "SuccessfulCreate", "Created pod: web-1")
	assert.Empty(t, r.events(), "recording is asynchronous: the caller never waits for the write")
	assert.Equal(t, 1, r.rec.View().Waiting)

	res := r.step()
	assert.Equal(t, "events", res.Actor)
	assert.Equal(t, "EventCorrelate", res.Models)
	assert.Equal(t, time.Duration(0), res.At, "the recorder's step comes at the caller's instant")
	r.settle()
	assert.Len(t, r.events(), 1)
}

func TestIdenticalEventsIncrementCount(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	for i := 0; i < 3; i++ {
		r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", "Error creating: the server is on fire")
		r.settle()
		r.advance(2 * time.Second)
	}

	evs := r.events()
	require.Len(t, evs, 1, "identical events share one Event")
	ev := evs[0]
	assert.Equal(t, int32(3), ev.Count)
	assert.True(t, ev.FirstTimestamp.Equal(sim.Epoch), "firstTimestamp stays the first occurrence's")
	assert.True(t, ev.LastTimestamp.Equal(sim.Epoch.Add(4*time.Second)), "lastTimestamp moves to the latest: %v", ev.LastTimestamp)
	assert.Equal(t, 1, r.requests(apistore.VerbCreate))
	assert.Equal(t, 2, r.requests(apistore.VerbUpdate), "later occurrences update the Event")
	assert.True(t, r.traceContains("updating it to count 3 instead of creating another"))
}

func TestIdenticalEventsQueuedTogetherIncrementCount(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	for i := 0; i < 4; i++ {
		r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", "same")
	}
	r.settle()
	evs := r.events()
	require.Len(t, evs, 1)
	assert.Equal(t, int32(4), evs[0].Count)
}

func TestDifferentReasonsOrObjectsAreNotMerged(t *testing.T) {
	r := newRig(t, Config{})
	web, db := r.rs("web"), r.rs("db")
	r.rec.Eventf(r.k, web, api.EventNormal, "SuccessfulCreate", "m")
	r.rec.Eventf(r.k, web, api.EventNormal, "SuccessfulDelete", "m")
	r.rec.Eventf(r.k, web, api.EventWarning, "SuccessfulCreate", "m")
	r.rec.Eventf(r.k, db, api.EventNormal, "SuccessfulCreate", "m")
	r.settle()
	assert.Len(t, r.events(), 4)
}

// quotaMessage is the message the replication manager records when quota
// admission refuses a create: it names the generated pod.
func quotaMessage(pod string) string {
	return `Error creating: pods "` + pod + `" is forbidden: exceeded quota: compute-resources, requested: pods=1, used: pods=3, limited: pods=3`
}

func TestSimilarEventsAreCombinedFromTheTenth(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	for i := 1; i <= 12; i++ {
		r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", "message "+strconv.Itoa(i))
		r.settle()
		r.advance(time.Second)
	}

	evs := r.events()
	require.Len(t, evs, 10, "9 single Events and one combined Event")
	var combined []*api.Event
	for _, ev := range evs {
		if strings.HasPrefix(ev.Message, CombinedPrefix) {
			combined = append(combined, ev)
		} else {
			assert.Equal(t, int32(1), ev.Count)
		}
	}
	require.Len(t, combined, 1)
	assert.Equal(t, "(combined from similar events): message 12", combined[0].Message, "the combined Event shows the latest message")
	assert.Equal(t, int32(3), combined[0].Count, "the 10th, 11th and 12th")
	assert.True(t, combined[0].FirstTimestamp.Equal(sim.Epoch.Add(9*time.Second)))
	assert.True(t, combined[0].LastTimestamp.Equal(sim.Epoch.Add(11*time.Second)))
	assert.Equal(t, 3, r.rec.Stats().Combined)
	assert.True(t, r.traceContains("the 10th similar event within 10m0s"))
}

func TestQuotaFailuresNamingDifferentPodsDoNotMergeButAggregate(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	pods := []string{"web-2xk9p", "web-4bd7z", "web-5rvz8", "web-6mct2", "web-7xk2p", "web-8qwfh",
		"web-9tnl4", "web-bc4dx", "web-d2n6s", "web-fh5kl", "web-g8zxp"}
	for _, pod := range pods[:9] {
		r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", quotaMessage(pod))
	}
	r.settle()
	assert.Len(t, r.events(), 9, "each message names its pod, so no two are identical: nine Events")

	for _, pod := range pods[9:] {
		r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", quotaMessage(pod))
	}
	r.settle()
	evs := r.events()
	require.Len(t, evs, 10, "from the 10th, they fold into one combined Event")
	last := evs[len(evs)-1]
	assert.Equal(t, CombinedPrefix+quotaMessage("web-g8zxp"), last.Message)
	assert.Equal(t, int32(2), last.Count)
}

func TestSimilarEventsFarApartStartAgain(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	for i := 1; i <= 9; i++ {
		r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", "message "+strconv.Itoa(i))
	}
	r.settle()
	r.advance(10*time.Minute + time.Second)
	r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", "message 10")
	r.settle()
	for _, ev := range r.events() {
		assert.False(t, strings.HasPrefix(ev.Message, CombinedPrefix), "more than 10m after the last similar event the group starts again")
	}
	assert.Len(t, r.events(), 10)
}

func TestSpamFilterAllowsBurstThenOneEveryFiveMinutes(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	for i := 0; i < 30; i++ {
		r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", "same")
	}
	r.settle()
	evs := r.events()
	require.Len(t, evs, 1)
	assert.Equal(t, int32(25), evs[0].Count, "25 writes, then the bucket is empty")
	assert.Equal(t, 5, r.rec.Stats().RateLimited)
	assert.True(t, r.traceContains("dropped by the spam filter: rs/web has used its burst of 25 events"))

	// Another object has its own bucket.
	db := r.rs("db")
	r.rec.Eventf(r.k, db, api.EventWarning, "FailedCreate", "same")
	r.settle()
	assert.Len(t, r.events(), 2)

	r.advance(4 * time.Minute)
	r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", "same")
	r.settle()
	assert.Equal(t, 6, r.rec.Stats().RateLimited, "4 minutes refill less than a token")

	r.advance(time.Minute)
	r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", "same")
	r.settle()
	ev := r.events()[0]
	if ev.InvolvedObject.Name != "web" {
		ev = r.events()[1]
	}
	assert.Equal(t, int32(32), ev.Count, "the logger counted the 6 dropped events too, as upstream's does")

	r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", "same")
	r.settle()
	assert.Equal(t, 7, r.rec.Stats().RateLimited, "one token every 5 minutes")
}

func TestRetriesAfterServerFault(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	_, err := r.srv.Store().Faults().Add(apistore.FaultRule{Verb: apistore.VerbCreate, Resource: "events", Count: 2})
	require.NoError(t, err)

	r.rec.Eventf(r.k, rs, api.EventNormal, "SuccessfulCreate", "Created pod: web-1")
	r.rec.Eventf(r.k, rs, api.EventNormal, "SuccessfulCreate", "Created pod: web-2")
	r.settle()

	assert.Len(t, r.events(), 2, "both written in the end")
	assert.Equal(t, 4, r.requests(apistore.VerbCreate), "two failures, then a success for each event")
	assert.Equal(t, 2, r.rec.Stats().Retries)
	assert.True(t, r.traceContains("try 2 of 12 in "))
	assert.True(t, r.traceContains("try 3 of 12 in 10s"), "after the randomized first wait, 10s between tries")

	// The second event waited for the first: it was written after the retries.
	var first, second *api.Event
	for _, ev := range r.events() {
		if ev.Message == "Created pod: web-1" {
			first = ev
		} else {
			second = ev
		}
	}
	require.NotNil(t, first)
	require.NotNil(t, second)
	assert.Less(t, first.Metadata.ResourceVersion, second.Metadata.ResourceVersion)
	assert.GreaterOrEqual(t, r.k.Now(), 10*time.Second)
}

func TestGivesUpAfterTwelveTries(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	_, err := r.srv.Store().Faults().Add(apistore.FaultRule{Verb: apistore.VerbCreate, Resource: "events", Always: true, Error: apistore.FaultUnavailable})
	require.NoError(t, err)
	r.rec.Eventf(r.k, rs, api.EventNormal, "SuccessfulCreate", "Created pod: web-1")
	r.settle()
	assert.Equal(t, DefaultMaxTries, r.requests(apistore.VerbCreate))
	assert.Equal(t, 1, r.rec.Stats().Abandoned)
	assert.True(t, r.traceContains("that was try 12 of 12; giving up on it"))
	assert.Nil(t, r.rec.write)

	// The recorder goes on with the next event.
	r.srv.Store().Faults().HealAll()
	r.rec.Eventf(r.k, rs, api.EventNormal, "SuccessfulCreate", "Created pod: web-2")
	r.settle()
	assert.Len(t, r.events(), 1)
}

func TestRefusedEventIsNotRetried(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	_, err := r.srv.Store().Faults().Add(apistore.FaultRule{Verb: apistore.VerbCreate, Resource: "events", Count: 1, Error: apistore.FaultQuota})
	require.NoError(t, err)
	r.rec.Eventf(r.k, rs, api.EventNormal, "SuccessfulCreate", "Created pod: web-1")
	r.settle()
	assert.Equal(t, 1, r.requests(apistore.VerbCreate), "an error status from the server gives the event up")
	assert.Empty(t, r.events())
	assert.Equal(t, 1, r.rec.Stats().Abandoned)
	assert.True(t, r.traceContains("given up, as upstream gives up"))
}

func TestUpdateOfDeletedEventCreatesIt(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", "same")
	r.settle()
	ev := r.events()[0]
	_, err := r.srv.Store().Delete(api.KindEvent, "default", ev.Metadata.Name, nil)
	require.NoError(t, err)

	r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", "same")
	r.settle()
	evs := r.events()
	require.Len(t, evs, 1)
	assert.Equal(t, ev.Metadata.Name, evs[0].Metadata.Name, "created again under its old name")
	assert.Equal(t, int32(2), evs[0].Count, "with the count it has reached")
	assert.True(t, r.traceContains("no longer exists (NotFound): creating it again with count 2"))
}

func TestNamesAreUniqueWithinOneInstant(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	for i := 0; i < 5; i++ {
		r.rec.Eventf(r.k, rs, api.EventNormal, "SuccessfulCreate", "Created pod: web-"+strconv.Itoa(i))
	}
	r.settle()
	evs := r.events()
	require.Len(t, evs, 5)
	base := sim.Epoch.UnixNano()
	for i, ev := range evs {
		assert.Equal(t, "web."+strconv.FormatInt(base+int64(i), 16), ev.Metadata.Name)
	}
}

func TestMalformedEventsAndAFullQueueAreDropped(t *testing.T) {
	r := newRig(t, Config{QueueLength: 2})
	rs := r.rs("web")
	r.rec.Eventf(r.k, nil, api.EventNormal, "X", "no object")
	r.rec.Eventf(r.k, rs, "Info", "X", "unknown type")
	r.rec.Eventf(r.k, rs, api.EventNormal, "X", "1")
	r.rec.Eventf(r.k, rs, api.EventNormal, "X", "2")
	r.rec.Eventf(r.k, rs, api.EventNormal, "X", "3: the queue is full")
	assert.Equal(t, 3, r.rec.Stats().Dropped)
	r.settle()
	assert.Len(t, r.events(), 2)
}

func TestClusterScopedObjectEventsGoToDefault(t *testing.T) {
	r := newRig(t, Config{})
	node, err := r.srv.Store().Create(&api.Node{Metadata: api.ObjectMeta{Name: "node-1"}})
	require.NoError(t, err)
	r.rec.Eventf(r.k, node, api.EventNormal, "NodeReady", "ready")
	r.settle()
	evs := r.events()
	require.Len(t, evs, 1)
	assert.Equal(t, "default", evs[0].Metadata.Namespace)
	assert.Equal(t, "", evs[0].InvolvedObject.Namespace)
}

func TestViewShowsRecentEventsAndCaches(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", "a")
	r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", "a")
	r.settle()
	v := r.rec.View()
	require.Len(t, v.Recent, 2)
	assert.Equal(t, "created", v.Recent[0].Result)
	assert.Equal(t, "updated", v.Recent[1].Result)
	assert.Equal(t, int32(2), v.Recent[1].Count)
	assert.Equal(t, "rs/web", v.Recent[1].Object)
	assert.Equal(t, 1, v.AggregatorCache)
	assert.Equal(t, 1, v.LoggerCache)
	assert.Equal(t, 1, v.SpamCache)
	assert.Empty(t, v.Writing)
}

func TestSnapshotRestoreReplaysTheSameTrace(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	_, err := r.srv.Store().Faults().Add(apistore.FaultRule{Verb: apistore.VerbCreate, Resource: "events", Count: 2})
	require.NoError(t, err)
	feed := func(from, to int) {
		for i := from; i < to; i++ {
			switch {
			case i%3 == 0:
				r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", quotaMessage("web-"+strconv.Itoa(i)))
			default:
				r.rec.Eventf(r.k, rs, api.EventWarning, "FailedCreate", "same")
			}
		}
	}
	feed(0, 20)
	for i := 0; i < 4; i++ {
		r.step()
	}
	snap, err := r.k.Snapshot()
	require.NoError(t, err)
	mark := len(r.trace)

	r.settle()
	feed(20, 40)
	r.settle()
	want, wantHash := append([]string(nil), r.trace[mark:]...), r.k.Hash()
	wantEvents := r.events()
	require.NotEmpty(t, wantEvents)

	for round := 0; round < 2; round++ {
		require.NoError(t, r.k.Restore(snap))
		r.trace = r.trace[:mark]
		r.settle()
		feed(20, 40)
		r.settle()
		assert.Equal(t, want, r.trace[mark:], "round %d replays the same steps", round)
		assert.Equal(t, wantHash, r.k.Hash())
		assert.Equal(t, len(wantEvents), len(r.events()))
	}
}

// TestRecentListComesBackWithASnapshot proves that a snapshot taken once
// the recent list has wrapped round gives back the list in its order, and
// that outcomes remembered after it do not reach it.
func TestRecentListComesBackWithASnapshot(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	record := func(from, to int) {
		for i := from; i < to; i++ {
			r.rec.Eventf(r.k, rs, api.EventNormal, "Pulled", "image "+strconv.Itoa(i))
		}
		r.settle()
	}
	messages := func() []string {
		var out []string
		for _, e := range r.rec.View().Recent {
			out = append(out, e.Message)
		}
		return out
	}
	record(0, recentLength+7)
	snap, err := r.k.Snapshot()
	require.NoError(t, err)
	want := messages()
	require.Len(t, want, recentLength)
	assert.Equal(t, "image 7", want[0], "the oldest of the wrapped list comes first")

	record(100, 103)
	assert.True(t, strings.HasSuffix(messages()[recentLength-1], "image 102"), "the newest outcome comes last")
	require.NoError(t, r.k.Restore(snap))
	assert.Equal(t, want, messages(), "the restored list is the one snapshotted, in its order")
	record(200, 201)
	got := messages()
	assert.Equal(t, append(want[1:], "image 200"), got, "after the restore, the next outcome replaces the oldest")
}

func TestDescribeAndViewDuringARetry(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	_, err := r.srv.Store().Faults().Add(apistore.FaultRule{Verb: apistore.VerbCreate, Resource: "events", Count: 1})
	require.NoError(t, err)
	r.rec.Eventf(r.k, rs, api.EventNormal, "SuccessfulCreate", "Created pod: web-1")
	r.rec.Eventf(r.k, rs, api.EventNormal, "SuccessfulCreate", "Created pod: web-2")
	assert.Equal(t, "event-recorder correlates the next of 2 waiting events", r.k.Describe(r.k.Agenda()[0]))
	for i := 0; i < 3; i++ { // correlate, server fails it, answer
		r.step()
	}
	agenda := r.k.Agenda()
	require.Len(t, agenda, 1)
	assert.Contains(t, r.k.Describe(agenda[0]), "event-recorder tries again to write Event web.")
	v := r.rec.View()
	assert.Contains(t, v.Writing, "create default/web.")
	assert.Contains(t, v.Writing, "(try 2 of 12 after ")
	assert.Equal(t, 1, v.Waiting)
	r.step() // the retry
	assert.Contains(t, r.k.Describe(r.k.Agenda()[0]), "from event-recorder reaches apiserver")
	r.step()
	assert.Contains(t, r.k.Describe(r.k.Agenda()[0]), "reaches event-recorder")
	r.settle()
	assert.Len(t, r.events(), 2)
}

func TestRecentListIsBounded(t *testing.T) {
	r := newRig(t, Config{})
	rs := r.rs("web")
	for i := 0; i < recentLength+5; i++ {
		r.rec.Eventf(r.k, rs, api.EventNormal, "SuccessfulCreate", "Created pod: web-"+strconv.Itoa(i))
	}
	r.settle()
	v := r.rec.View()
	require.Len(t, v.Recent, recentLength)
	assert.Equal(t, "Created pod: web-5", v.Recent[0].Message, "the oldest outcomes go first")
	assert.Equal(t, CombinedPrefix+"Created pod: web-"+strconv.Itoa(recentLength+4), v.Recent[recentLength-1].Message,
		"the view shows the message as written: from the 10th different message on, combined")
	assert.Equal(t, r.rec.Config().Component, v.Component)
}

// TestWriteQuotedQuotesAsStrconv holds writeQuoted, which writes a message
// of plain printable ASCII between quotes without looking further, to
// strconv.Quote: for such messages, and for every character that makes
// strconv escape (quotes, backslashes, control characters, DEL, and runes
// beyond ASCII, printable or not, valid or not).
func TestWriteQuotedQuotesAsStrconv(t *testing.T) {
	messages := []string{
		"", "Created pod: web-7xk2p", " ~!#$%&'()*+,-./0123456789:;<=>?@AZ[]^_`az{|}",
		`say "hi"`, `back\slash`, "tab\there", "new\nline", "bell\a", "del\x7f", "nul\x00",
		"café", "日本", "\u00a0non-breaking", "\u200bzero-width", "bad\xffutf8",
	}
	for c := 0; c < 256; c++ {
		messages = append(messages, "x"+string(rune(c))+"y", "x"+string([]byte{byte(c)})+"y")
	}
	for _, m := range messages {
		var b strings.Builder
		writeQuoted(&b, m)
		assert.Equal(t, strconv.Quote(m), b.String(), "%q", m)
	}
}
