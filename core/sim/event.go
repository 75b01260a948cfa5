package sim

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Event is one entry of the agenda: something that will happen to one
// component at one simulated time.
//
// Events are values. Data is shared between the agenda, snapshots of it and
// the component that receives it, so whoever schedules an event must not
// change Data afterwards: pass immutable values, or pointers to objects nobody
// writes again (the API store's objects are such).
type Event struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// At is the simulated time, since Epoch, at which the event fires.
	At time.Duration

	// Seq orders events scheduled for the same instant: the one scheduled
	// first fires first. It is unique within a kernel and never reused, so it
	// also identifies the event (for Cancel).
	Seq uint64

	// To names the component that handles the event.
	To string

	// Kind says what the event is in the receiving component's vocabulary:
	// "request", "response", "deliver", "timer".
	Kind string

	// Data is the payload the component needs; see the type's comment.
	Data any

	// Background marks periodic housekeeping (resync timers, heartbeats). Such
	// events still fire when their time comes, but they do not keep Stabilize
	// running: a world where only background events remain is at rest.
	Background bool

	// cancelled marks an event Cancel took back: it stays on the agenda,
	// unseen, until it reaches the top and is dropped (see agenda).
	cancelled bool
}

// Ref names one object an event touched, so a page can highlight it. The kernel
// knows nothing of Kubernetes; the kinds are whatever the components use
// ("pod", "rs").
type Ref struct {
	// Never compared with ==: the field keeps the compiler from writing an
	// equality function for the type (and for every array of it that a
	// list literal makes), which only made main.wasm bigger.
	_ [0]func()

	Kind      string
	Namespace string
	Name      string
}

// String writes the ref as kubectl names objects: "pod/web-7xk2p".
func (r Ref) String() string { return r.Kind + "/" + r.Name }

// Report is what a component says about the event it just handled. The kernel
// turns it into a StepResult and a trace line.
type Report struct {
	// Actor is who acted, as a learner would name it: "apiserver",
	// "informer/pods", "worker-2", "kubelet/node-1". Empty means the event's
	// component name.
	Actor string

	// Models names the upstream function or mechanism this step models, such
	// as "manageReplicas" or "processDeltas", so a learner can find it in the
	// Kubernetes source.
	Models string

	// Summary says what happened and why, in one sentence for a learner:
	// its form and facts, written out only when asked for (see Sentence).
	Summary Sentence

	// Touched lists the objects read or written, for highlighting.
	Touched []Ref

	// Handed lists what the step passed on inside its own process, with no
	// event of its own (see Handoff).
	Handed []Handoff
}

// Handoff is something a step passed on to another part of its process
// without an event: an informer's event handler adding a key to a
// controller's workqueue, or a worker putting a key back after a failed
// sync. A message between components is an event of its own and needs no
// Handoff. Pages draw handoffs as tokens moving from the step's component to
// To; the trace line does not show them (the summary says it in words).
type Handoff struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// To names where it went, as components are named ("queue/replicaset").
	To string
	// What is what was passed, as the receiver names it ("default/web").
	What string
}

// StepResult describes one step of the kernel: the event that ran and what
// its component reported.
type StepResult struct {
	// N is the step's position in the run, counting from 1.
	N uint64

	// At is the simulated time of the step, since Epoch.
	At time.Duration

	// Event is the event that ran.
	Event Event

	// Report is the component's report: its Actor, Models, Summary,
	// Touched and Handed are the step's. Touched and Handed are good until
	// the next step starts, when the component may write the next step's
	// lists over them (Arena). Kept gives a step that is good for longer.
	// The report is held whole, so that the kernel writes the one a
	// component returns straight into the result, where it was copied into
	// a report and then field by field again.
	Report

	// Hash is the running trace hash after this step: a digest of the trace
	// line fields of every step so far. Two runs with the same seed and inputs have equal hashes at
	// every step; a replay that differs is caught at the first step that
	// differs.
	Hash uint64
}

// Kept returns the step with Touched and Handed lists of its own, which stay
// as they are after the next step has started: what to keep of a step that
// is kept (StepLog.Push copies them into lists of its own instead).
func (r StepResult) Kept() StepResult {
	r.Touched, r.Handed = slices.Clone(r.Touched), slices.Clone(r.Handed)
	return r
}

// Trace column widths; see the legend in doc.go.
const (
	traceStepWidth  = 6
	traceTimeWidth  = 10
	traceActorWidth = 16
	traceModelWidth = 19
)

// TraceLine formats the step as one line of the documented trace format:
//
//	#57    t=2.004s   worker-1         claimPods           release pod/web-7xk2p (labels no longer match app=web)
//
// The columns are the step number, the simulated time in seconds with
// millisecond precision, the actor, the upstream function the step models and
// the summary. Columns are padded to fixed widths and never truncated, so a
// long actor name shifts the rest of its line but loses nothing.
func (r StepResult) TraceLine() string {
	line, _ := r.TraceLineAndSummary()
	return line
}

// TraceLineAndSummary returns the step's trace line and its summary written
// out, the end of that line, from one writing of the sentence: what a page
// that shows both needs.
func (r StepResult) TraceLineAndSummary() (line, summary string) {
	var b strings.Builder
	b.Grow(96 + r.Summary.sizeHint())
	pad(&b, "#"+strconv.FormatUint(r.N, 10), traceStepWidth)
	pad(&b, "t="+FormatSeconds(r.At), traceTimeWidth)
	pad(&b, r.Actor, traceActorWidth)
	model := r.Models
	if model == "" {
		model = "-"
	}
	pad(&b, model, traceModelWidth)
	start := b.Len()
	r.Summary.Render(&b)
	line = b.String()
	return line, line[start:]
}

// pad writes s and then spaces up to width, always leaving at least one space.
func pad(b *strings.Builder, s string, width int) {
	b.WriteString(s)
	n := width - len(s)
	if n < 1 {
		n = 1
	}
	for ; n > 0; n-- {
		b.WriteByte(' ')
	}
}

// FormatSeconds writes a simulated time as seconds with three decimals,
// "2.004s", the form traces and the page use. It avoids fmt so that the trace
// of every step stays cheap.
func FormatSeconds(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	ms := uint64(d / time.Millisecond)
	frac := ms % 1000
	s := strconv.FormatUint(ms/1000, 10) + "." + string([]byte{byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10)}) + "s"
	if neg {
		return "-" + s
	}
	return s
}
