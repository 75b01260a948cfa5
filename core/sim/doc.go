// Package sim is the kernel every world runs on: a logical clock, a seeded
// random source and an agenda of events, stepped one event at a time.
//
// In a real cluster the API server, each informer, each worker and each kubelet
// run at once, on their own goroutines and clocks. Here each of their actions
// is an event on one agenda, ordered by (simulated time, order of scheduling),
// and the kernel runs exactly one of them per Step. That one decision gives a
// learner what a real cluster cannot: step forward, see every intermediate
// state, and step back, because a run is fully determined by its seed and its
// inputs and can be replayed exactly. It is the design of etcd-io/raft's
// RawNode: inputs are method calls, and what a component wants to happen next
// is handed back as a value (an event on the agenda), never done behind the
// caller's back.
//
// The kernel knows nothing of Kubernetes and imports nothing else from core.
// Components plug in through one small interface:
//
//	type Component interface {
//		Handle(ctx *Context, ev Event) Report
//	}
//
// A component is registered under a name; events are addressed To that name.
// While handling one, a component may read the clock and the random source
// and schedule follow-up events through the Context, and returns a Report
// saying what it did in a learner's words. An API request, for instance, is two
// events: the request reaching the API server, and the response reaching the
// client a simulated latency later; every watch event the request causes is one
// more event per watcher. The objects a Report names as Touched, and the keys
// it hands on (Handed), come from the component's own arenas (RefArena,
// HandoffArena), since nearly every step names one or two and a list made for
// each was a run's most frequent allocation. The lists are the step's: a
// component that is a StepStarter reuses its arenas when a step it handles
// starts, so whoever keeps a step past the next one keeps it as
// StepResult.Kept gives it (the StepLog copies the lists itself). An event's
// Data lives longer, on the agenda and in its snapshots: a component that
// schedules many events writes their payloads into a Slab, whose slots are
// never written again once handed out, rather than putting each in the
// event's interface, an allocation of its own.
//
// # Driving a kernel
//
//	k := sim.New(seed)
//	k.Register("apiserver", server)
//	k.Register("informer/pods", podInformer)
//	for {
//		res, ok := k.Step()
//		if !ok {
//			break // nothing left to do
//		}
//		fmt.Println(res.TraceLine())
//	}
//
// RunUntil steps until a condition holds; Stabilize steps until only
// Background events (resync timers, heartbeats) remain; Advance moves the clock
// by a duration, running whatever falls due. Inputs from outside (a learner's
// command) enter through After between steps.
//
// # Time
//
// The clock starts at Epoch and only moves when an event runs (to that event's
// time) or when Advance moves it. Nothing in a world reads the machine's clock.
// Events scheduled for the same instant run in the order they were scheduled.
//
// # The trace
//
// Every step produces one trace line with fixed columns:
//
//	#57    t=2.004s   worker-1         claimPods           release pod/web-7xk2p (labels no longer match app=web)
//	^      ^          ^                ^                   ^
//	step   simulated  actor            upstream function   what happened and why
//	number seconds    (who acted)      the step models     (one sentence)
//
// The step number counts from 1; the time is seconds since Epoch with
// millisecond precision; the actor is the component's own name for itself
// ("apiserver", "informer/pods", "worker-2", "kubelet/node-1"); the fourth
// column names the Kubernetes function or mechanism the step reproduces ("-"
// when none); the summary is free text. Columns are padded, never truncated.
//
// The kernel keeps a running 64-bit hash (see hashStep) of every step's trace-line
// fields (number, time, actor, function, summary). Equal
// seeds and inputs give equal hashes at every step; the first step whose hash
// differs is the first step that behaved differently.
//
// A StepLog keeps the newest steps for a learner to read later, packing the
// older ones into bytes. A packed step keeps its event's data only as a Gist
// (what a request, an answer or a watch event was, in a few words; the data
// types that travel say theirs as Gisters), because the data holds whole
// objects in old versions that nothing else keeps alive.
//
// # Sentences
//
// A summary is a Sentence: a Form, the wording with holes, and the facts that
// fill them, strings that already exist and numbers. Nothing is written when
// a step runs; a sentence is written out when someone reads it (a trace line,
// the page's timeline), and most steps of a large run are never read. The
// trace hash folds in the form and the facts, so it changes whenever a fact
// does, as it did when it hashed the written words:
//
//	var formEnqueued = &sim.Form{Text: "pod/%s added: enqueued %s (%{key|keys} waiting)"}
//
//	return sim.Report{Summary: sim.Say(formEnqueued, pod.Name, key).With(int64(q.Len()))}
//
// A form is parsed once, the first time a sentence of it is said; a test (core's
// TestEverySentenceGivesItsFormItsFacts) checks that every form of core/ is
// given the facts it has holes for where it is said.
//
// # Snapshots
//
// Snapshot captures the clock, the random source, the agenda and every
// component (each must implement Snapshotter); Restore returns to it, and the
// same snapshot can be restored again and again. Step-back and seek are a
// restore of the nearest earlier snapshot followed by a deterministic replay of
// the recorded inputs. Components keep snapshots small by sharing structure:
// objects are immutable once stored, so a snapshot holds pointers to the same
// objects the live state holds, and copies only its own maps and slices.
package sim
