package sim

import (
	"errors"
	"math/rand/v2"
	"time"
)

// Epoch is where every simulated clock starts. It is fixed so that two runs of
// one scenario print the same timestamps.
var Epoch = time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC)

// Component is anything that reacts to events: the API server, an informer, a
// worker, a kubelet. The kernel calls Handle for every event addressed to the
// component, one at a time; the component changes its own state, schedules
// follow-up events through the Context, and reports what it did.
//
// Handle must be deterministic: everything it needs about time or chance comes
// from the Context.
type Component interface {
	Handle(ctx *Context, ev Event) Report
}

// Snapshotter is implemented by components with state. Snapshot returns a value
// from which Restore can bring the component back to this moment; the value must
// stay valid however the component changes afterwards, and may be restored more
// than once. Sharing immutable parts between snapshots and the live state is
// what keeps a long run's snapshots small.
type Snapshotter interface {
	Snapshot() any
	Restore(any)
}

// Describer is implemented by components that can say in words what a pending
// event of theirs will do, for the agenda view ("deliver MODIFIED pod/web-x to
// informer/pods").
type Describer interface {
	Describe(ev Event) string
}

// Kernel owns the logical clock, the seeded random source and the agenda, and
// runs events one at a time. It knows nothing of Kubernetes.
type Kernel struct {
	// now is the simulated time since Epoch. It only moves forward: to the time
	// of each event that runs, or by Advance.
	now time.Duration

	// seq is the Seq the next scheduled event gets.
	seq uint64

	// steps counts the events run so far.
	steps uint64

	// hash is the running digest of every trace line so far (hashStep).
	hash uint64

	pcg  *rand.PCG
	rand *rand.Rand

	agenda agenda

	// components maps a name to its component; names lists them in the order
	// they were registered, which is the order snapshots visit them in.
	components map[string]Component
	names      []string

	// recent answers most steps' look-up of their component without the
	// map (see handler).
	recent [recentComponents]namedComponent

	// ctx is handed to every Handle call; it only holds a pointer back here.
	ctx Context
}

// New returns a kernel at Epoch whose random source is seeded with seed.
func New(seed uint64) *Kernel {
	// The second PCG word is a fixed stream constant: one number is all a
	// learner has to remember to reproduce a run.
	pcg := rand.NewPCG(seed, 0x9e3779b97f4a7c15)
	k := &Kernel{
		hash:       hashSeed,
		pcg:        pcg,
		rand:       rand.New(pcg),
		components: make(map[string]Component),
	}
	k.ctx.k = k
	return k
}

// Register adds a component under a unique name; events addressed To that name
// go to it.
func (k *Kernel) Register(name string, c Component) error {
	if name == "" {
		return errors.New("sim: a component needs a name")
	}
	if _, dup := k.components[name]; dup {
		return errors.New("sim: a component named " + quote(name) + " is already registered")
	}
	k.components[name] = c
	k.names = append(k.names, name)
	return nil
}

// Component returns the component registered under name.
func (k *Kernel) Component(name string) (Component, bool) {
	c, ok := k.components[name]
	return c, ok
}

// recentComponents is how many components a kernel remembers in front of
// its map; a world has a few dozen.
const recentComponents = 64

// namedComponent is one remembered component, with the name it was asked by.
type namedComponent struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	name string
	c    Component
	// starter is c as a StepStarter, or nil. Asserting it once, when c is
	// remembered, spares every step the runtime's assertion from one
	// interface to another.
	starter StepStarter
}

// handler returns the component registered under name, or nil, and it as a
// StepStarter, or nil. Every step looks one up, and most of them the same
// few dozen: a slot chosen by the name's length and two of its bytes
// answers with a comparison, where the map would hash the whole name.
// Under js/wasm, whose runtime hashes strings without the AES instructions,
// that hashing was a hundredth of the page's 10,000-pod run (0.15 µs a step
// under node). Components are never unregistered, so a remembered one stays
// right.
func (k *Kernel) handler(name string) (Component, StepStarter) {
	n := len(name)
	if n == 0 {
		c := k.components[name]
		starter, _ := c.(StepStarter)
		return c, starter
	}
	slot := &k.recent[(n*37+int(name[n-1])*7+int(name[n/2]))&(recentComponents-1)]
	if slot.c != nil && slot.name == name {
		return slot.c, slot.starter
	}
	c := k.components[name]
	starter, _ := c.(StepStarter)
	if c != nil {
		*slot = namedComponent{name: name, c: c, starter: starter}
	}
	return c, starter
}

// Now returns the simulated time since Epoch.
func (k *Kernel) Now() time.Duration { return k.now }

// Wall returns the simulated time as a timestamp, for objects' timestamps.
func (k *Kernel) Wall() time.Time { return Epoch.Add(k.now) }

// Rand returns the kernel's seeded random source. Every random choice in a
// world draws from it, in step order, so a seed reproduces a run.
func (k *Kernel) Rand() *rand.Rand { return k.rand }

// Steps returns how many events have run.
func (k *Kernel) Steps() uint64 { return k.steps }

// Hash returns the running trace hash.
func (k *Kernel) Hash() uint64 { return k.hash }

// Scheduler is the part of the kernel a component keeps to schedule events
// outside of Handle, for instance a work queue that wakes a worker when a key
// is added from another component's handler. Both *Kernel and *Context
// implement it.
type Scheduler interface {
	Now() time.Duration
	After(d time.Duration, to, kind string, data any) uint64
	Background(d time.Duration, to, kind string, data any) uint64
	Cancel(seq uint64) bool
}

var (
	_ Scheduler = (*Kernel)(nil)
	_ Scheduler = (*Context)(nil)
)

// After adds an event d after now and returns its Seq. It is how inputs from
// outside (a learner's command) enter the world; components usually use their
// Context, which does the same.
func (k *Kernel) After(d time.Duration, to, kind string, data any) uint64 {
	return k.schedule(d, to, kind, data, false)
}

// Background is After for periodic housekeeping events, which do not keep
// Stabilize running.
func (k *Kernel) Background(d time.Duration, to, kind string, data any) uint64 {
	return k.schedule(d, to, kind, data, true)
}

func (k *Kernel) schedule(d time.Duration, to, kind string, data any, background bool) uint64 {
	if d < 0 {
		d = 0
	}
	seq := k.seq
	k.seq++
	// Written in place, field by field (see agenda.place).
	at := k.now + d
	ev := k.agenda.place(at, seq, d, background)
	ev.At, ev.Seq, ev.To, ev.Kind, ev.Data, ev.Background = at, seq, to, kind, data, background
	return seq
}

// Cancel removes a pending event so it never fires, and reports whether it was
// still pending.
func (k *Kernel) Cancel(seq uint64) bool { return k.agenda.cancel(seq) }

// Pending reports whether any event, background or not, is waiting.
func (k *Kernel) Pending() bool {
	_, ok := k.agenda.peek()
	return ok
}

// Busy reports whether any foreground event is waiting: whether the world is
// still settling rather than at rest.
func (k *Kernel) Busy() bool { return k.agenda.foreground > 0 }

// Next returns the event that Step would run, without running it.
func (k *Kernel) Next() (Event, bool) { return k.agenda.peek() }

// NextAt returns when the event that Step would run falls due: Next without
// the copy of the event, for a run that looks at the clock before each step.
func (k *Kernel) NextAt() (time.Duration, bool) {
	if ev := k.agenda.first(); ev != nil {
		return ev.At, true
	}
	return 0, false
}

// Agenda returns the pending events, earliest first.
func (k *Kernel) Agenda() []Event { return k.agenda.sorted() }

// Describe says in words what a pending event will do, asking its component if
// it can tell, and falling back to "To: Kind".
func (k *Kernel) Describe(ev Event) string {
	if d, ok := k.components[ev.To].(Describer); ok {
		return d.Describe(ev)
	}
	return ev.To + ": " + ev.Kind
}

var formDropped = &Form{Text: "dropped %s for unknown component %q"}

func init() { Register(formDropped) }

// Step runs the earliest pending event and reports what happened. It returns
// false when the agenda is empty.
func (k *Kernel) Step() (StepResult, bool) {
	var res StepResult
	ok := k.StepInto(&res)
	return res, ok
}

// StepInto is Step writing its report into res, which it overwrites whole
// (with the zero StepResult when the agenda is empty). A run of many steps
// reuses one StepResult this way: the report is 272 bytes, and returning it
// by value through the kernel, the world and a run's loop copied it three
// times a step, about 2% of a large world's run.
func (k *Kernel) StepInto(res *StepResult) bool {
	if !k.agenda.popInto(&res.Event) {
		*res = StepResult{}
		return false
	}
	ev := &res.Event
	if ev.At > k.now {
		k.now = ev.At
	}
	k.steps++
	if c, starter := k.handler(ev.To); c != nil {
		if starter != nil {
			starter.StartStep()
		}
		res.Report = c.Handle(&k.ctx, *ev)
	} else {
		// An event for nobody is a wiring bug; it still counts as a step so the
		// trace shows it rather than hiding it.
		res.Report = Report{Actor: "kernel", Summary: Say(formDropped, ev.Kind, ev.To)}
	}
	if res.Actor == "" {
		res.Actor = ev.To
	}
	// Field by field: a composite literal is built in a temporary, zeroed
	// first and then copied whole into res, three passes over a result of
	// 272 bytes for every step.
	res.N, res.At = k.steps, k.now
	k.hash = hashStep(k.hash, res)
	res.Hash = k.hash
	return true
}

// Limits bound RunUntil and Stabilize. A zero field means its default.
type Limits struct {
	// MaxSteps is the most events one call may run (default 100000).
	MaxSteps int
	// MaxTime is the most simulated time one call may cover (default 10m).
	MaxTime time.Duration
}

// Default limits, as the scenario language documents them.
const (
	DefaultMaxSteps = 100000
	DefaultMaxTime  = 10 * time.Minute
)

func (l Limits) withDefaults() Limits {
	if l.MaxSteps <= 0 {
		l.MaxSteps = DefaultMaxSteps
	}
	if l.MaxTime <= 0 {
		l.MaxTime = DefaultMaxTime
	}
	return l
}

// LimitError says a run stopped because it hit one of its limits before its
// goal held.
type LimitError struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// What was being run: "stabilize", "until sync rs/web".
	What string
	// Steps and Elapsed are how far the run got.
	Steps   int
	Elapsed time.Duration
	// Limit names the limit that was hit, as a flag would: "--max-steps=100000".
	Limit string
	// Next describes the next pending event, to hint at what keeps the world
	// busy.
	Next string
}

func (e *LimitError) Error() string {
	msg := e.What + ": stopped after " + itoa(e.Steps) + " steps and " + FormatSeconds(e.Elapsed) +
		" of simulated time (" + e.Limit + ")"
	if e.Next != "" {
		msg += "; next on the agenda: " + e.Next
	}
	return msg
}

// ErrIdle is returned by RunUntil when the agenda runs dry before the
// condition holds.
var ErrIdle = errors.New("nothing left on the agenda")

// RunUntil steps until done returns true for a step's result, and returns that
// result. It fails with ErrIdle when nothing is left to run, and with a
// *LimitError when the limits are reached first.
func (k *Kernel) RunUntil(what string, done func(StepResult) bool, lim Limits) (StepResult, error) {
	lim = lim.withDefaults()
	start := k.now
	var res StepResult
	for n := 0; ; n++ {
		next, ok := k.agenda.peek()
		if !ok {
			return StepResult{}, ErrIdle
		}
		if err := k.checkLimits(what, n, start, next, lim); err != nil {
			return StepResult{}, err
		}
		k.StepInto(&res)
		if done(res) {
			return res, nil
		}
	}
}

// Stabilize runs until no foreground event is left: everything the world was
// doing has finished and only periodic timers remain. Background events that
// fall due before the last foreground one still run, in their turn. It returns
// the number of steps run.
func (k *Kernel) Stabilize(lim Limits) (int, error) {
	lim = lim.withDefaults()
	start := k.now
	n := 0
	var res StepResult
	for k.agenda.foreground > 0 {
		next, _ := k.agenda.peek()
		if err := k.checkLimits("stabilize", n, start, next, lim); err != nil {
			return n, err
		}
		k.StepInto(&res)
		n++
	}
	return n, nil
}

func (k *Kernel) checkLimits(what string, n int, start time.Duration, next Event, lim Limits) error {
	limit := ""
	switch {
	case n >= lim.MaxSteps:
		limit = "--max-steps=" + itoa(lim.MaxSteps)
	case next.At-start > lim.MaxTime:
		limit = "--max-time=" + lim.MaxTime.String()
	default:
		return nil
	}
	return &LimitError{What: what, Steps: n, Elapsed: k.now - start, Limit: limit, Next: FormatSeconds(next.At) + " " + k.Describe(next)}
}

// Advance moves the clock forward by d, running every event that falls due on
// the way, background ones included, and returns the results in order.
func (k *Kernel) Advance(d time.Duration) []StepResult {
	until := k.now + d
	var out []StepResult
	for {
		next, ok := k.agenda.peek()
		if !ok || next.At > until {
			break
		}
		res, _ := k.Step()
		out = append(out, res.Kept())
	}
	if until > k.now {
		k.now = until
	}
	return out
}

// Context is what a component sees of the kernel while it handles an event.
type Context struct{ k *Kernel }

// Now returns the simulated time since Epoch.
func (c *Context) Now() time.Duration { return c.k.now }

// Wall returns the simulated time as a timestamp.
func (c *Context) Wall() time.Time { return c.k.Wall() }

// Rand returns the kernel's seeded random source.
func (c *Context) Rand() *rand.Rand { return c.k.rand }

// After schedules an event d from now and returns its Seq.
func (c *Context) After(d time.Duration, to, kind string, data any) uint64 {
	return c.k.schedule(d, to, kind, data, false)
}

// Background schedules a periodic housekeeping event d from now; see
// Event.Background.
func (c *Context) Background(d time.Duration, to, kind string, data any) uint64 {
	return c.k.schedule(d, to, kind, data, true)
}

// Cancel removes a pending event so it never fires.
func (c *Context) Cancel(seq uint64) bool { return c.k.agenda.cancel(seq) }

// Kernel returns the kernel itself, for components that read its views.
func (c *Context) Kernel() *Kernel { return c.k }
