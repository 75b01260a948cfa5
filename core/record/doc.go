// Package record writes Events: the "what happened" notes `kubectl describe`
// shows under an object, such as `Normal SuccessfulCreate Created pod:
// web-7xk2p` or `Warning FailedCreate Error creating: … exceeded quota`.
//
// It is client-go's tools/record made steppable: the recorder a controller
// calls, the broadcaster that hands events to a background writer, the
// EventCorrelator that decides what to write, and the sink that writes to the
// API server, all in one kernel component.
//
// # What the real recorder does
//
// A controller calls recorder.Eventf(object, type, reason, message) and
// carries on: recording never blocks a controller. The call builds an Event
// (named "<object name>.<unix nanoseconds in hex>", count 1, first and last
// timestamp now, source.component the controller's name) and drops it into a
// channel. A goroutine takes events off that channel one at a time, runs each
// through the correlator and writes the result, retrying a failed write up to
// 12 times, 10 seconds apart (the first wait is random, up to 10 seconds).
// While it retries, the events behind it wait.
//
// The correlator is why a quota that refuses a hundred pod creates does not
// leave a hundred Events. It does three things, in this order:
//
//  1. Aggregate. Events about one object with the same source, type and
//     reason but different messages are "similar". Once an object has had 10
//     similar events, each no more than 10 minutes after the one before,
//     the 10th and every one after it are folded into one Event whose message
//     is "(combined from similar events): " and the latest message.
//  2. Count. An event identical to one already written (same object, source,
//     type, reason and message) is not written again: the existing Event's
//     count goes up by one and its lastTimestamp moves to now.
//  3. Rate-limit. Every source and object has a token bucket of 25 that
//     refills one token every 5 minutes; an event that finds the bucket
//     empty is dropped. It was counted already, so the next Event written
//     shows the dropped ones in its count.
//
// The replication manager's quota failures show all three: quota admission
// names the generated pod ("pods \"web-x7k2p\" is forbidden: exceeded quota…"),
// so no two messages are identical and counting never merges them; the first
// nine are written as nine Events, the 10th and later update one combined
// Event; and after 25 writes about the ReplicaSet the spam filter lets one
// through every 5 minutes.
//
// # The steps a learner sees
//
//	worker-1   manageReplicas   … (the controller calls Eventf; nothing is written yet)
//	events     EventCorrelate   Warning FailedCreate on rs/web: "…": new; creating Event web.181…
//	apiserver  registry.Create  create events default/web.181… from event-recorder: ok
//	events     recordEvent      Event default/web.181… created (Warning FailedCreate, count 1)
//
// The recorder's first step comes at the same instant as the controller's,
// after whatever else was already due then: upstream's goroutine would run at
// about that moment. A
// correlation that needs no write (the spam filter dropped the event) is one
// step on its own. A failed write is followed by a retry step when its wait
// is over.
//
// # What the model keeps, and what it leaves out
//
// Kept: the Event's name, namespace (the object's, "default" for a
// cluster-scoped one), source, involvedObject (kind, namespace, name, uid,
// apiVersion, resourceVersion), type, reason, count and timestamps; the three
// correlator stages with upstream's keys, limits and order, including the
// count that keeps rising while the spam filter drops; the three caches,
// least-recently-used with 4096 entries each; the queue of 1000, with events
// arriving while it is full dropped; one write at a time; 12 tries; an update
// that finds the Event gone creating it again, count and all.
//
// Different, and why:
//
//   - An update sends the whole Event (VerbUpdate) where upstream sends a
//     strategic-merge patch of count, lastTimestamp and message: the model's
//     patch (apistore.MetaPatch) only reaches metadata. The body is the Event
//     as last stored with those three fields changed, which is what the
//     patch would produce, and carries no resourceVersion, as the patch
//     carries none.
//   - Which failed writes are retried. Upstream retries only when no answer
//     came back at all (a broken connection); any error status from the
//     server gives the event up. The model has no broken connections, so
//     500 InternalError, 503 ServiceUnavailable and 504 Timeout stand for
//     them and are retried; every other status (Forbidden, AlreadyExists,
//     Invalid, a terminating namespace) gives the event up, as upstream.
//   - When a group of similar events is full, upstream forgets one message
//     at random; the model forgets the newest, so one seed gives one run.
//   - Names: upstream relies on the wall clock never repeating a nanosecond;
//     the kernel clock stands still within a step, so a name that would
//     repeat the last one's time takes the next nanosecond (see Namer).
//   - Eventf takes a finished message rather than a format and arguments, so
//     that recording does not need fmt; Event and Eventf are the same call.
//   - Upstream also logs each event (klog); the trace line is the model's
//     log.
//
// # Invariants
//
//   - At most one write is under way; while it is, nothing else is taken
//     from the queue, and no process step is on the agenda.
//   - Every cache holds at most its capacity; an entry's last use is the
//     newest record of its key in the cache's log.
//   - A spam bucket never holds more than its burst, and a refused event
//     leaves it unchanged.
//   - Event names drawn by one recorder are unique and increase with time.
package record
