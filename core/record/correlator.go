package record

import (
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sim"
)

// The correlator's defaults, upstream's (client-go tools/record
// events_cache.go).
const (
	// DefaultCacheSize is the capacity of each of the correlator's three
	// caches.
	DefaultCacheSize = 4096
	// DefaultMaxEvents is how many similar events (same object, type and
	// reason, different messages) an object may have within MaxInterval
	// before they are combined: the 10th is the first to be combined.
	DefaultMaxEvents = 10
	// DefaultMaxInterval is how long after the last similar event a new one
	// still counts as similar.
	DefaultMaxInterval = 10 * time.Minute
	// DefaultBurst is how many events one source may write about one object
	// before the spam filter starts refusing them.
	DefaultBurst = 25
)

// DefaultQPS is the spam filter's refill rate: one event every 5 minutes.
// Upstream passes it as a float32 (1/300 rounded to float32, a hair above
// 1/300) and x/time/rate widens it to float64; so does this model, so that a
// token comes back when upstream's does.
var DefaultQPS = float64(float32(1. / 300.))

// CombinedPrefix starts the message of an event that stands for several
// similar ones (upstream's EventAggregatorByReasonMessageFunc).
const CombinedPrefix = "(combined from similar events): "

// CorrelatorOptions tune the correlator. The zero value means upstream's
// defaults.
type CorrelatorOptions struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// CacheSize is the capacity of each cache (default 4096).
	CacheSize int
	// MaxEvents is the number of similar events at which they are combined
	// (default 10).
	MaxEvents int
	// MaxInterval is how long a run of similar events stays open after the
	// last one (default 10m).
	MaxInterval time.Duration
	// Burst is the spam filter's bucket size per source and object (default
	// 25).
	Burst int
	// QPS is the spam filter's refill rate in events per second (default
	// DefaultQPS, one every 5 minutes).
	QPS float64
}

func (o CorrelatorOptions) withDefaults() CorrelatorOptions {
	if o.CacheSize <= 0 {
		o.CacheSize = DefaultCacheSize
	}
	if o.MaxEvents <= 0 {
		o.MaxEvents = DefaultMaxEvents
	}
	if o.MaxInterval <= 0 {
		o.MaxInterval = DefaultMaxInterval
	}
	if o.Burst <= 0 {
		o.Burst = DefaultBurst
	}
	if o.QPS <= 0 {
		o.QPS = DefaultQPS
	}
	return o
}

// Correlator is client-go's EventCorrelator: every event goes through its
// three parts, in this order, before anything is written.
//
//  1. The aggregator groups the events of one object by source, type and
//     reason, and remembers the distinct messages of each group. Once a
//     group holds MaxEvents distinct messages within MaxInterval of each
//     other, the event is replaced by a combined one whose message is
//     CombinedPrefix plus its own, and which is counted under the group's key
//     rather than its own.
//  2. The logger (upstream's eventLogger) counts occurrences per key: an
//     event whose key it has seen turns into the next occurrence of the Event
//     already written (same name, count + 1, first timestamp kept), which the
//     recorder then updates instead of creating another.
//  3. The spam filter takes one token from the bucket of the event's source
//     and object, or refuses the event.
//
// The logger counts before the spam filter decides, as upstream's does: an
// event the filter refuses still raises the count, so the next one written
// jumps by more than one.
type Correlator struct {
	opts CorrelatorOptions

	// aggregator maps an aggregate key (source, object, type, reason) to the
	// distinct messages seen and when the last of them came.
	aggregator *lru[*aggregateRecord]
	// logger maps an event key (source, object, type, reason, message), or an
	// aggregate key for combined events, to the Event that stands for it.
	logger *lru[*eventLog]
	// spam maps a spam key (source, object) to its token bucket.
	spam *lru[*spamRecord]

	// keys are the keys of the objects lately seen, kept to be used again.
	keys eventKeys

	// The caches' records are never changed once added (see lru), so they
	// are written into slabs (see sim.Slab) rather than allocated one by
	// one: every event correlated adds four, which were a sixteenth of the
	// allocations of 100 ReplicaSets of 10 pods converging. Like the
	// API server's, the slabs are not state and no snapshot holds them.
	aggregates sim.Slab[aggregateRecord]
	logs       sim.Slab[eventLog]
	spams      sim.Slab[spamRecord]
}

// aggregateRecord is a group of similar events: the distinct messages seen,
// as a chain that runs from the last one added back to the first, and when
// the last event of the group came. A record is never changed: an event
// that brings a new message gets a new record that points to the record
// before it, so the messages are shared by the records of a group rather
// than copied into a new slice for every event correlated.
type aggregateRecord struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// message is the last distinct message added, and earlier the record
	// that holds the ones added before it (nil for none). size counts the
	// messages of the chain, never more than MaxEvents-1 between events;
	// a record of size 0 holds none.
	message string
	earlier *aggregateRecord
	size    int
	// last is when the last event of the group was seen.
	last time.Duration
}

// eventLog is what the logger remembers of one Event.
type eventLog struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// count is the number of occurrences so far, written or not.
	count int32
	// first is the Event's firstTimestamp.
	first api.Time
	// name is the Event's name: the name of its first occurrence.
	name string
	// resourceVersion is the version the server last returned.
	resourceVersion string
	// stored is the Event as the server last returned it under this key, nil
	// if it was never written. (Upstream keeps only the fields above; the
	// model keeps the object to build its update from; see Result.Previous.)
	stored *api.Event
}

// NewCorrelator returns a correlator with empty caches.
func NewCorrelator(opts CorrelatorOptions) *Correlator {
	opts = opts.withDefaults()
	return &Correlator{
		opts:       opts,
		aggregator: newLRU[*aggregateRecord](opts.CacheSize),
		logger:     newLRU[*eventLog](opts.CacheSize),
		spam:       newLRU[*spamRecord](opts.CacheSize),
	}
}

// Options returns the correlator's options, defaults filled in.
func (c *Correlator) Options() CorrelatorOptions { return c.opts }

// Result is what the correlator decided about one event.
type Result struct {
	// Event is the event to write: the one given (the same pointer, not a
	// copy), a combined one, or either turned into the next occurrence of an
	// Event already written. Nil when Skip. It is read-only.
	Event *api.Event
	// Update says the Event exists already (its count is above one): the
	// recorder updates it rather than creating it.
	Update bool
	// Previous is the Event as the server last returned it under this key,
	// if the recorder wrote it before: the base of the update.
	Previous *api.Event
	// Combined says the aggregator replaced the event by a combined one.
	Combined bool
	// Similar is the number of distinct messages the event's group holds,
	// counting its own (at most MaxEvents).
	Similar int
	// Skip says the spam filter refused the event; nothing is written.
	Skip bool
	// Wait is, when Skip, how long until the object's bucket has a token.
	Wait time.Duration
}

// Correlate runs one event through the aggregator, the logger and the spam
// filter at now, the kernel time since sim.Epoch. names draws the names of
// combined events. ev is not changed.
//
// The Event to write is ev itself when it is the first occurrence of its
// key, as nearly every event is (each SuccessfulCreate names its own pod):
// the result is as read-only as ev, so it needs no copy of its own. A later
// occurrence, or a combined event, is a new Event.
//
// The three parts run in upstream's order and change the caches as
// upstream's do, but the Event to write is built only once the spam filter
// has let it through: in a busy world most events are refused (a ReplicaSet
// of 10,000 pods writes 25 of its 10,000 SuccessfulCreates), and building
// each one's combined Event and its copy, only to throw them away, was most
// of what the recorder allocated.
//
// The keys of ev's object are looked up once, here, and handed to the three
// parts: each looked them up by the object's UID on its own, four lookups
// for every event correlated.
func (c *Correlator) Correlate(ev *api.Event, now time.Duration, names *Namer) Result {
	keys := c.keys.reasoned(ev)
	agg := c.aggregate(ev, keys, now, names)
	occ := c.observe(agg.key, agg.first(ev, now))
	if ok, wait := c.filter(keys.spamKey, now); !ok {
		return Result{Skip: true, Wait: wait, Combined: agg.combined, Similar: agg.similar}
	}
	out := ev
	if agg.combined || occ.name != ev.Metadata.Name || occ.resourceVersion != ev.Metadata.ResourceVersion ||
		occ.first != ev.FirstTimestamp || occ.count != ev.Count {
		out = agg.event(ev, now)
		out.Metadata.Name = occ.name
		out.Metadata.ResourceVersion = occ.resourceVersion
		out.FirstTimestamp = occ.first
		out.Count = occ.count
	}
	return Result{Event: out, Update: out.Count > 1, Previous: occ.previous, Combined: agg.combined, Similar: agg.similar}
}

// UpdateState records the Event the server returned, as upstream's
// UpdateState does: under the key of the Event as stored. For a combined
// Event that is the key of its combined message, which no event will ask for
// again; the combined occurrences keep being counted under the aggregate key.
func (c *Correlator) UpdateState(stored *api.Event) {
	c.logger.Add(c.keys.join(c.keys.reasoned(stored).prefix, stored.Message), c.logs.Put(eventLog{
		count: stored.Count, first: stored.FirstTimestamp, name: stored.Metadata.Name,
		resourceVersion: stored.Metadata.ResourceVersion, stored: stored,
	}))
}

// aggregation is what the aggregator decided about one event: whether it is
// replaced by a combined event, and the key the logger counts it under.
type aggregation struct {
	// key is the event's own key, or its group's when combined.
	key string
	// combined says the event is replaced by a combined one, whose name
	// would be its object's name and nanos.
	combined bool
	nanos    int64
	// similar is the size of the event's group, counting its own message.
	similar int
}

// first returns how the event to write is written if the logger has not
// seen its key: as itself, or as a combined event.
func (a *aggregation) first(ev *api.Event, now time.Duration) firstOccurrence {
	if !a.combined {
		return firstOccurrence{occurrence: occurrence{
			count: ev.Count, name: ev.Metadata.Name, resourceVersion: ev.Metadata.ResourceVersion, first: ev.FirstTimestamp,
		}}
	}
	return firstOccurrence{
		occurrence: occurrence{count: 1, first: api.NewTime(sim.Epoch.Add(now))},
		combined:   true, object: ev.InvolvedObject.Name, nanos: a.nanos,
	}
}

// event builds the event to write before the logger's count: a copy of ev,
// or the combined event that replaces it (upstream's EventAggregate and
// eventObserve's copy, in one).
func (a *aggregation) event(ev *api.Event, now time.Duration) *api.Event {
	if !a.combined {
		return ev.DeepCopy()
	}
	wall := api.NewTime(sim.Epoch.Add(now))
	return &api.Event{
		Metadata:       api.ObjectMeta{Namespace: ev.Metadata.Namespace},
		InvolvedObject: ev.InvolvedObject,
		Reason:         ev.Reason,
		Message:        CombinedPrefix + ev.Message,
		Source:         ev.Source,
		FirstTimestamp: wall,
		LastTimestamp:  wall,
		Count:          1,
		Type:           ev.Type,
	}
}

// aggregate is EventAggregator.EventAggregate, deciding but not building:
// see aggregation. keys are the keys of ev's object, reasoned for ev
// (eventKeys.reasoned).
func (c *Correlator) aggregate(ev *api.Event, keys *objectKeys, now time.Duration, names *Namer) aggregation {
	aggKey, localKey := keys.aggregated, ev.Message

	rec, found := c.aggregator.Peek(aggKey)
	// A group whose last event is older than the interval starts again. (A
	// group not found has last 0, far enough in the past in upstream's
	// wall-clock terms; here the clock starts at 0, so found is checked too.)
	var group *aggregateRecord // the group's messages so far, nil for none
	if found && now-rec.last <= c.opts.MaxInterval && rec.size > 0 {
		group = rec
	}
	kept := aggregateRecord{last: now}
	if group != nil {
		kept.message, kept.earlier, kept.size = group.message, group.earlier, group.size
	}
	held := false
	for r := group; r != nil && r.size > 0 && !held; r = r.earlier {
		held = r.message == localKey
	}
	if held {
		c.aggregator.Add(aggKey, c.aggregates.Put(kept))
		return aggregation{key: c.keys.join(keys.prefix, localKey), similar: kept.size}
	}
	if similar := kept.size + 1; similar < c.opts.MaxEvents {
		c.aggregator.Add(aggKey, c.aggregates.Put(aggregateRecord{message: localKey, earlier: group, size: similar, last: now}))
		return aggregation{key: c.keys.join(keys.prefix, localKey), similar: similar}
	}
	// The group is full. Upstream drops one message at random
	// (sets.String.PopAny) so the group never grows past MaxEvents-1; this
	// model drops the one just added, so the group keeps the first messages
	// it saw, and every new message keeps being combined.
	c.aggregator.Add(aggKey, c.aggregates.Put(kept))
	// Upstream names the combined event when it makes it, and the logger
	// then replaces the name if it has seen the group. The name is drawn
	// here, so that the names drawn after it are upstream's, but it is only
	// written out if the logger keeps it.
	return aggregation{key: aggKey, combined: true, nanos: names.draw(now), similar: kept.size + 1}
}

// firstOccurrence is how an event the logger has not seen is written. A
// combined event's name is written out only if it is used: it is named
// after object and nanos.
type firstOccurrence struct {
	occurrence
	combined bool
	object   string
	nanos    int64
}

// occurrence is what the logger says about one event: which occurrence of
// its key it is, and the name, version and first timestamp it is written
// under.
type occurrence struct {
	count           int32
	name            string
	resourceVersion string
	first           api.Time
	// previous is the Event as last stored under the key, if this is a
	// later occurrence of it (see Result.Previous).
	previous *api.Event
}

// observe is eventLogger.eventObserve: it counts an occurrence of the
// event under key, and returns how it is to be written. fresh is how an
// event the logger has not seen is written.
func (c *Correlator) observe(key string, fresh firstOccurrence) occurrence {
	last, found := c.logger.Peek(key)
	if !found {
		last = &eventLog{}
	}
	occ := fresh.occurrence
	switch {
	case last.count > 0:
		occ = occurrence{count: last.count + 1, name: last.name, resourceVersion: last.resourceVersion, first: last.first}
	case fresh.combined:
		occ.name = eventName(fresh.object, fresh.nanos)
	}
	c.logger.Add(key, c.logs.Put(eventLog{
		count: occ.count, first: occ.first, name: occ.name,
		resourceVersion: occ.resourceVersion, stored: last.stored,
	}))
	if last.stored != nil && last.stored.Metadata.Name == occ.name {
		occ.previous = last.stored
	}
	return occ
}

// filter is EventSourceObjectSpamFilter.Filter: it takes a token from the
// bucket under key, an event's spam key (its source and object), and
// reports whether there was one.
func (c *Correlator) filter(key string, now time.Duration) (bool, time.Duration) {
	rec, found := c.spam.Peek(key)
	if !found {
		rec = &spamRecord{}
	}
	bucket, ok, wait := rec.bucket.tryAccept(now, c.opts.QPS, c.opts.Burst, rec.started)
	c.spam.Add(key, c.spams.Put(spamRecord{bucket: bucket, started: rec.started || ok}))
	return ok, wait
}

// CacheSizes returns the number of entries in the aggregator's, the logger's
// and the spam filter's caches.
func (c *Correlator) CacheSizes() (aggregator, logger, spam int) {
	return c.aggregator.Len(), c.logger.Len(), c.spam.Len()
}

// The keys, as upstream builds them: the fields joined with nothing between
// them. The model's Events have no fieldPath, reportingController or
// reportingInstance; upstream's recorder sets the last two to the source's
// component and host, which the keys hold already.

// eventKey identifies an event exactly: source, object, type, reason and
// message (upstream's getEventKey). The correlator takes it from eventKeys,
// which joins its fields before the message once per object; this is the
// definition eventKeys is tested against.
func eventKey(e *api.Event) string {
	o := &e.InvolvedObject
	return strings.Join([]string{
		e.Source.Component, e.Source.Host,
		o.Kind, o.Namespace, o.Name, o.UID, o.APIVersion,
		e.Type, e.Reason, e.Message,
	}, "")
}

// aggregateKeys returns the key of ev's group of similar events and its key
// within the group, the message (upstream's EventAggregatorByReasonFunc).
func aggregateKeys(e *api.Event) (string, string) {
	o := &e.InvolvedObject
	return strings.Join([]string{
		e.Source.Component, e.Source.Host,
		o.Kind, o.Namespace, o.Name, o.UID, o.APIVersion,
		e.Type, e.Reason,
		e.Source.Component, e.Source.Host, // reportingController, reportingInstance
	}, ""), e.Message
}

// spamKey identifies a source and an object (upstream's getSpamKey).
func spamKey(e *api.Event) string {
	o := &e.InvolvedObject
	return strings.Join([]string{
		e.Source.Component, e.Source.Host,
		o.Kind, o.Namespace, o.Name, o.UID, o.APIVersion,
	}, "")
}

// eventKeys remembers, for each object events were lately correlated about,
// the keys its events are counted under, so that they are joined once per
// object rather than for every event. A controller's events interleave
// between its objects (a hundred ReplicaSets creating their pods at once),
// so one remembered object would not do; joining the spam key, the
// aggregate key and twice the event key for every event was a twentieth of
// the bytes a world of a hundred ReplicaSets of ten pods allocated. It is a
// cache of a function of each event, checked against the event's fields on
// every use, so snapshots need not keep it. It is emptied when it holds
// eventKeysMax objects, so that objects long gone do not pile up.
type eventKeys struct {
	byUID map[string]*objectKeys

	// last is the keys that of returned last. The events correlated one
	// after another are often about one object, and the Event stored after
	// a write is always about the object last correlated.
	last *objectKeys

	// lastPrefix and lastMessage are what the event key event joined last
	// was joined from, and lastKey the key. An event's key is asked for when
	// it is correlated and again when the Event it became is stored: the
	// same prefix and message, joined twice for every event written.
	lastPrefix, lastMessage, lastKey string
}

// eventKeysMax is how many objects eventKeys remembers before it starts
// again: more than a world's ReplicaSets, at a few hundred bytes each.
const eventKeysMax = 2048

// objectKeys are the keys of one object's events from one source.
type objectKeys struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	src     api.EventSource
	obj     api.ObjectReference
	spamKey string
	// typ and reason are those of the last event the two keys below are
	// for. prefix is the event key before its message: source, object,
	// type and reason. The aggregate key is prefix followed by the
	// source's component and host (reportingController and
	// reportingInstance).
	typ, reason        string
	prefix, aggregated string
}

// of returns the keys of ev's object, joining its spam key if they are not
// remembered.
func (c *eventKeys) of(ev *api.Event) *objectKeys {
	if k := c.last; k != nil && k.isFor(ev) {
		return k
	}
	k := c.byUID[ev.InvolvedObject.UID]
	if k == nil || !k.isFor(ev) {
		if c.byUID == nil || len(c.byUID) >= eventKeysMax {
			c.byUID = make(map[string]*objectKeys)
		}
		k = &objectKeys{src: ev.Source, obj: ev.InvolvedObject, spamKey: spamKey(ev)}
		c.byUID[ev.InvolvedObject.UID] = k
	}
	c.last = k
	return k
}

// isFor reports whether the keys are those of ev's object and source: the
// fields the spam key joins (an object's resourceVersion is not one).
func (k *objectKeys) isFor(ev *api.Event) bool {
	o := &ev.InvolvedObject
	return k.src.Component == ev.Source.Component && k.src.Host == ev.Source.Host &&
		k.obj.Kind == o.Kind && k.obj.Namespace == o.Namespace && k.obj.Name == o.Name && k.obj.UID == o.UID &&
		k.obj.APIVersion == o.APIVersion
}

// reasoned returns the keys of ev's object with prefix and aggregated those
// of ev's type and reason.
func (c *eventKeys) reasoned(ev *api.Event) *objectKeys {
	k := c.of(ev)
	if k.prefix == "" || k.typ != ev.Type || k.reason != ev.Reason {
		k.typ, k.reason = ev.Type, ev.Reason
		k.aggregated, _ = aggregateKeys(ev)
		k.prefix = k.aggregated[:len(k.aggregated)-len(ev.Source.Component)-len(ev.Source.Host)]
	}
	return k
}

// join returns an event key, prefix followed by message (eventKey of an
// event whose keys' prefix is prefix): the key last joined from the same
// two, or a new one.
func (c *eventKeys) join(prefix, message string) string {
	if prefix != c.lastPrefix || message != c.lastMessage || c.lastKey == "" {
		c.lastPrefix, c.lastMessage, c.lastKey = prefix, message, prefix+message
	}
	return c.lastKey
}

// Namer draws Event names as upstream does, "<object name>.<unix nanoseconds
// in hex>", from the kernel clock. Upstream relies on the wall clock never
// showing the same nanosecond twice; the kernel clock often does (every event
// of one step shares its instant), so a name that would repeat the last one's
// time takes the next nanosecond instead. Names therefore stay unique and
// ordered, and one seed gives one set of names.
type Namer struct {
	// last is the unix nanoseconds of the last name drawn.
	last int64
}

// Next returns a fresh name for an event about the object called object.
func (n *Namer) Next(object string, now time.Duration) string {
	return eventName(object, n.draw(now))
}

// draw takes the time of the next name, in unix nanoseconds, without
// writing the name out.
func (n *Namer) draw(now time.Duration) int64 {
	nanos := sim.Epoch.Add(now).UnixNano()
	if nanos <= n.last {
		nanos = n.last + 1
	}
	n.last = nanos
	return nanos
}

// eventName is the name of an event about object drawn at nanos. It is
// written in one buffer: formatting the time apart and joining it made two
// strings for every event.
func eventName(object string, nanos int64) string {
	var buf [64]byte
	return string(strconv.AppendInt(append(append(buf[:0], object...), '.'), nanos, 16))
}

type correlatorSnapshot struct {
	aggregator lruSnapshot[*aggregateRecord]
	logger     lruSnapshot[*eventLog]
	spam       lruSnapshot[*spamRecord]
}

func (c *Correlator) snapshot() correlatorSnapshot {
	return correlatorSnapshot{aggregator: c.aggregator.snapshot(), logger: c.logger.snapshot(), spam: c.spam.snapshot()}
}

func (c *Correlator) restore(s correlatorSnapshot) {
	c.aggregator.restore(s.aggregator)
	c.logger.restore(s.logger)
	c.spam.restore(s.spam)
}
