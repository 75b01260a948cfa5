package script

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sim"
)

// Pos is where a command, or a part of one, was written.
type Pos struct {
	// File is the prefix errors print before the line: a file name, or a
	// lesson's "lesson 05-orphans.txtar, goal". It may be empty.
	File string
	// Line and Col count from 1; Col counts bytes.
	Line, Col int
}

// String prints the position as errors do: file:line:col, or line:col.
func (p Pos) String() string {
	s := strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
	if p.File != "" {
		s = p.File + ":" + s
	}
	return s
}

// Source is what every command knows of where it came from.
type Source struct {
	// Pos is the position of the command's first word.
	Pos Pos
	// Text is the command as written, without its comment.
	Text string
	// Name is the command's name in the command table: "create rs", "expect",
	// "expect pods", "kill". Several names share a type (kill, crash and evict
	// are a PodAction); Name tells them apart where the type does not.
	Name string
}

// Src returns the command's source; every command type has it by embedding
// Source.
func (s Source) Src() Source { return s }

// Command is one parsed command: a pointer to one of the types below. The
// executor switches on the type; every field it needs has been validated.
type Command interface {
	Src() Source
}

// Script is a parsed script: its commands in order. A script that parsed has no
// error left to find before it runs; what can still go wrong is at run time.
type Script struct {
	File     string
	Commands []Command
}

// Seed returns the value of the script's seed command, if it has one (it can
// only be the first).
func (s *Script) Seed() (uint64, bool) {
	if len(s.Commands) > 0 {
		if c, ok := s.Commands[0].(*Seed); ok {
			return c.Value, true
		}
	}
	return 0, false
}

// Ref names one object.
type Ref struct {
	Kind api.Kind
	// Namespace is "" for nodes, and the -n namespace (default "default") for
	// the other kinds.
	Namespace string
	Name      string
}

// String prints the reference as scripts write it: rs/web.
func (r Ref) String() string { return shortName(r.Kind) + "/" + r.Name }

// Key is the object's store and work-queue key: default/web, or node-1.
func (r Ref) Key() string { return api.Key(r.Namespace, r.Name) }

// Target is what a verb acts on: one object by name, or the objects of a kind
// that a selector matches, narrowed by Pick.
type Target struct {
	Kind      api.Kind
	Namespace string
	// Name names one object. When it is empty, Selector chooses.
	Name string
	// Selector chooses the objects when Name is empty: Everything() for --all
	// (and for get without -l).
	Selector labels.Selector
	// SelectorText is the selector as written, "" with --all.
	SelectorText string
	// Pick narrows the matching objects; its zero value takes them all.
	Pick Pick
}

// ByName reports whether the target names one object.
func (t Target) ByName() bool { return t.Name != "" }

// Ref returns the named object; it is meaningful only when ByName.
func (t Target) Ref() Ref { return Ref{t.Kind, t.Namespace, t.Name} }

// PickOrder is how --pick orders the objects a selector matches.
type PickOrder string

// The pick orders. Creation order is the order in which the API store
// created the objects.
const (
	PickAll    PickOrder = ""       // every match
	PickOldest PickOrder = "oldest" // in creation order
	PickNewest PickOrder = "newest" // in reverse creation order
	PickRandom PickOrder = "random" // drawn with the world's seeded random source
	PickIndex  PickOrder = "index"  // from Index on, in creation order
)

// Pick says which of the objects a selector matches a verb acts on, from
// --pick and --count. Parsing normalizes it: --pick alone picks one, --count
// alone picks in oldest order, neither takes every match.
type Pick struct {
	Order PickOrder
	// Index is the creation-order index (from 0) of --pick=N.
	Index int
	// Count is how many objects to pick; 0 with PickAll.
	Count int
}

// String prints the flags that gave the pick: "--pick=oldest --count=2", or ""
// for PickAll.
func (p Pick) String() string {
	if p.Order == PickAll {
		return ""
	}
	s := "--pick=" + string(p.Order)
	if p.Order == PickIndex {
		s = "--pick=" + strconv.Itoa(p.Index)
	}
	if p.Count != 1 {
		s += " --count=" + strconv.Itoa(p.Count)
	}
	return s
}

// Choose picks among n objects listed in creation order and returns the
// indexes of those to act on, in the order picked. intN draws a number in
// [0, n) from the world's seeded random source; only PickRandom calls it. It
// returns false when fewer than the pick needs match (no object at all, or
// --pick=N past the end): a runtime failure for the executor to report.
func (p Pick) Choose(n int, intN func(int) int) ([]int, bool) {
	if p.Order == PickAll {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out, true
	}
	need := p.Count
	if p.Order == PickIndex {
		need += p.Index
	}
	if n < need || p.Count < 1 {
		return nil, false
	}
	out := make([]int, 0, p.Count)
	switch p.Order {
	case PickOldest:
		for i := range p.Count {
			out = append(out, i)
		}
	case PickNewest:
		for i := range p.Count {
			out = append(out, n-1-i)
		}
	case PickIndex:
		for i := range p.Count {
			out = append(out, p.Index+i)
		}
	case PickRandom:
		// A partial Fisher-Yates shuffle: p.Count draws, each from what is left.
		perm := make([]int, n)
		for i := range perm {
			perm[i] = i
		}
		for i := range p.Count {
			j := i + intN(n-i)
			perm[i], perm[j] = perm[j], perm[i]
			out = append(out, perm[i])
		}
	}
	return out, true
}

// Op is a comparison.
type Op string

// The comparisons. Numbers allow all six; words, booleans and enums = and !=.
const (
	OpEq Op = "="
	OpNe Op = "!="
	OpLt Op = "<"
	OpLe Op = "<="
	OpGt Op = ">"
	OpGe Op = ">="
)

// ops lists the comparisons in the order splitCond tries them: two-character
// ones first.
var ops = []Op{OpNe, OpLe, OpGe, OpEq, OpLt, OpGt}

// Compare is a comparison with a number: count>=3.
type Compare struct {
	Op    Op
	Value int64
}

// Holds reports whether actual compares as required.
func (c Compare) Holds(actual int64) bool {
	switch c.Op {
	case OpEq:
		return actual == c.Value
	case OpNe:
		return actual != c.Value
	case OpLt:
		return actual < c.Value
	case OpLe:
		return actual <= c.Value
	case OpGt:
		return actual > c.Value
	case OpGe:
		return actual >= c.Value
	}
	return false
}

// String prints the comparison as written after its key: ">=3".
func (c Compare) String() string { return string(c.Op) + strconv.FormatInt(c.Value, 10) }

// Match is a comparison with a word: = or !=.
type Match struct {
	Op    Op
	Value string
}

// Holds reports whether actual matches.
func (m Match) Holds(actual string) bool { return (actual == m.Value) == (m.Op == OpEq) }

// String prints the match as written after its key: "=True".
func (m Match) String() string { return string(m.Op) + m.Value }

// FieldCheck is one FIELD OP VALUE of expect: status.readyReplicas>=2.
type FieldCheck struct {
	// Path is the field as written: status.readyReplicas, metadata.labels.app,
	// phase.
	Path string
	Op   Op
	// Want is the value to compare with, of the field's type.
	Want Value
	// Pos is where the check was written.
	Pos Pos

	// field indexes fieldTable; key is the map key of a map field.
	field int
	key   string
}

// Type returns the field's type.
func (f FieldCheck) Type() ValueType { return fieldTable[f.field].typ }

// Actual reads the field from an object of the kind the check was parsed for.
func (f FieldCheck) Actual(o api.Object) Value { return fieldTable[f.field].get(o, f.key) }

// Holds reports whether the actual value compares as required.
func (f FieldCheck) Holds(actual Value) bool {
	if f.Want.Type == TypeInt {
		return Compare{f.Op, f.Want.Int}.Holds(actual.Int)
	}
	eq := actual.Str == f.Want.Str
	if f.Want.Type == TypeBool {
		eq = actual.Bool == f.Want.Bool
	}
	return eq == (f.Op == OpEq)
}

// String prints the check as written: status.replicas=3.
func (f FieldCheck) String() string { return f.Path + string(f.Op) + f.Want.String() }

// KeyValue is one k=v of label and annotate, in the order written.
type KeyValue struct {
	Key, Value string
}

// --- World -------------------------------------------------------------------

// CreateNode is `create node NAME [--labels=…]`.
type CreateNode struct {
	Source
	Name   string
	Labels map[string]string
}

// CreateRS is `create rs NAME --replicas=N --selector=SEL …`.
type CreateRS struct {
	Source
	Namespace, Name string
	Replicas        int32
	// Selector holds no > or < requirement and is not empty.
	Selector     labels.Selector
	SelectorText string
	// TemplateLabels are the pods' labels: --template-labels, or the selector's
	// k=v requirements.
	TemplateLabels  map[string]string
	MinReadySeconds int32
}

// CreateRC is `create rc NAME --replicas=N --selector=k=v,…`.
type CreateRC struct {
	Source
	Namespace, Name string
	Replicas        int32
	// Selector is the equality-only selector, as the v1 API holds it.
	Selector        map[string]string
	TemplateLabels  map[string]string
	MinReadySeconds int32
}

// CreatePod is `create pod NAME …`: a bare pod.
type CreatePod struct {
	Source
	Namespace, Name string
	Labels          map[string]string
	// Node binds the pod at creation; "" leaves it to the scheduler.
	Node string
	// Phase is the phase it starts in; "" leaves it to the kubelet.
	Phase string
	Ready bool
}

// Scale is `scale rs/NAME --replicas=N`.
type Scale struct {
	Source
	Object   Ref
	Replicas int32
}

// Label is `label …` and `annotate …` (Annotate set).
type Label struct {
	Source
	Annotate bool
	Target   Target
	// Set are the k=v to set, Remove the keys of k- to remove. No key is in
	// both, nor twice in either; there is at least one of them.
	Set       []KeyValue
	Remove    []string
	Overwrite bool
}

// Cascade is delete's --cascade.
type Cascade string

// The cascade modes modelled.
const (
	CascadeBackground Cascade = "background"
	CascadeOrphan     Cascade = "orphan"
)

// Delete is `delete …`.
type Delete struct {
	Source
	Target Target
	// GracePeriod is --grace-period in seconds; nil leaves the pod's own.
	GracePeriod *int64
	Cascade     Cascade
}

// Cordon is `cordon node/NAME` (Unschedulable) and `uncordon node/NAME`.
type Cordon struct {
	Source
	Node          string
	Unschedulable bool
}

// --- Things that happen to pods ----------------------------------------------

// PodAction is `kill`, `crash` or `evict` (Action) applied to pods.
type PodAction struct {
	Source
	// Action is kill (delete with grace 0), crash (the container exits and is
	// restarted) or evict (phase Failed, reason Evicted).
	Action string
	Target Target
}

// SetReady is `set ready … true|false`.
type SetReady struct {
	Source
	Target Target
	Ready  bool
}

// --- Faults ------------------------------------------------------------------

// Fail is `fail VERB RESOURCE …`: an API fault rule.
type Fail struct {
	Source
	Verb        apistore.Verb
	Kind        api.Kind
	Subresource string
	// Resource is the API's name for what fails: pods, replicasets/status.
	Resource string
	// Count is how many requests fail; Always fails them all until healed.
	Count  int
	Always bool
	// After is how many matching requests go through first.
	After int
	Error apistore.FaultKind
}

// Rule returns the store's fault rule for the command.
func (f *Fail) Rule() apistore.FaultRule {
	return apistore.FaultRule{Verb: f.Verb, Resource: f.Resource, Count: f.Count, Always: f.Always, After: f.After, Error: f.Error}
}

// WatchAction is what a watch fault does.
type WatchAction string

// The watch faults.
const (
	WatchDrop   WatchAction = "drop"   // lose the next Count events
	WatchBreak  WatchAction = "break"  // close the watch; re-watch from the last resourceVersion
	WatchExpire WatchAction = "expire" // close it as too old: relist
	WatchDelay  WatchAction = "delay"  // deliver events Delay late
)

// WatchFault is `drop|break|expire|delay watch KIND …`.
type WatchFault struct {
	Source
	Action WatchAction
	Kind   api.Kind
	// Count is set for drop, Delay for delay.
	Count int
	Delay time.Duration
}

// SlowKubelet is `slow kubelet D`.
type SlowKubelet struct {
	Source
	Start time.Duration
}

// HealScope is what a heal command ends.
type HealScope string

// The heal scopes.
const (
	HealAll      HealScope = "all"      // every fault
	HealRequests HealScope = "requests" // fail rules: of Verb ("" any), of Resource ("" any)
	HealWatch    HealScope = "watch"    // watch faults of Kind ("" any)
	HealKubelet  HealScope = "kubelet"  // slow kubelet
)

// Heal is `heal …`.
type Heal struct {
	Source
	Scope HealScope
	// Verb, Kind, Subresource and Resource narrow HealRequests; Kind narrows
	// HealWatch. Empty means any.
	Verb        apistore.Verb
	Kind        api.Kind
	Subresource string
	Resource    string
}

// --- Time and stepping -------------------------------------------------------

// Seed is `seed N`; it can only be a script's first command.
type Seed struct {
	Source
	Value uint64
}

// Setting is one KEY=VALUE of config.
type Setting struct {
	// Key is one of the Config* constants.
	Key string
	// Int is the value of workers and burst-replicas, Duration that of the
	// others.
	Int      int
	Duration time.Duration
	Pos      Pos
}

// Config is `config KEY=VALUE…`.
type Config struct {
	Source
	// Settings are in the order written; no key is set twice.
	Settings []Setting
}

// Step is `step [N]`.
type Step struct {
	Source
	N int
}

// Advance is `advance D`.
type Advance struct {
	Source
	D time.Duration
}

// UntilSync is `until sync rs/NAME`.
type UntilSync struct {
	Source
	Object Ref
	Limits sim.Limits
}

// Stabilize is `stabilize`; Limits holds the defaults when no flag is given.
type Stabilize struct {
	Source
	Limits sim.Limits
}

// --- Assertions --------------------------------------------------------------

// ExpectPods is `expect [cache] pods [-l SEL] count=N [filters]`: count the pods
// that match the selector and every filter.
type ExpectPods struct {
	Source
	// Cache reads the informer's cache instead of the API store.
	Cache        bool
	Namespace    string
	Selector     labels.Selector
	SelectorText string
	Count        Compare
	Filters      []FieldCheck
}

// ExpectObject is `expect [cache] KIND/NAME FIELD=VALUE…`.
type ExpectObject struct {
	Source
	Cache  bool
	Object Ref
	Checks []FieldCheck
}

// ExpectCondition is `expect condition KIND/NAME TYPE=STATUS [reason=R]`.
type ExpectCondition struct {
	Source
	Object Ref
	Type   string
	// Status matches True, False, Unknown or absent (no such condition).
	Status Match
	// Reason, when set, matches the condition's reason.
	Reason *Match
}

// ExpectQueue is `expect queue NAME len=N` or `… contains KEY`.
type ExpectQueue struct {
	Source
	// Queue is the queue's upstream name; Kind is what its manager syncs.
	Queue string
	Kind  api.Kind
	// Exactly one of Len and Contains is set.
	Len      *Compare
	Contains string
}

// ExpectExpectations is `expect expectations rs/NAME [add=N] [del=N] [satisfied=B]`.
type ExpectExpectations struct {
	Source
	Object Ref
	// At least one of these is set. Satisfied is normalized: satisfied!=true is
	// stored as false.
	Add, Del  *Compare
	Satisfied *bool
}

// ExpectSyncs is `expect syncs rs/NAME count=N`.
type ExpectSyncs struct {
	Source
	Object Ref
	Count  Compare
}

// ExpectEvents is `expect events [filters] count=N|total=N`.
type ExpectEvents struct {
	Source
	Namespace string
	Reason    *Match
	Type      *Match
	// Object, when set, is the Events' involved object.
	Object *Ref
	// At least one of Count (Event objects) and Total (their counts summed).
	Count, Total *Compare
}

// ExpectRequests is `expect requests [verb=V] [resource=R] count=N`.
type ExpectRequests struct {
	Source
	// Verb and Resource filter; "" means any. Resource is the API's name:
	// pods, pods/binding, replicasets/status.
	Verb     apistore.Verb
	Resource string
	Count    Compare
}

// --- Reading -----------------------------------------------------------------

// Get is `get KIND [NAME] …`.
type Get struct {
	Source
	Kind      api.Kind
	Namespace string
	// Name is one object; "" lists those Selector matches.
	Name         string
	Selector     labels.Selector
	SelectorText string
	// Output is "", wide, json or yaml.
	Output     string
	ShowLabels bool
}

// Describe is `describe KIND/NAME`.
type Describe struct {
	Source
	Object Ref
}

// Show is one of the commands that show a part of the machinery: queue, cache,
// expectations, agenda, requests, trace (What).
type Show struct {
	Source
	What string
	// Queue narrows queue; Kind narrows cache; N narrows agenda, requests and
	// trace (0 shows all).
	Queue string
	Kind  api.Kind
	N     int
}

// Help is `help [TOPIC]`; Topic is "" for the command list, a command's name
// (create rs), a first word shared by several (create, expect), or kinds,
// fields, config or selectors.
type Help struct {
	Source
	Topic string
}

// --- Parsing -----------------------------------------------------------------

// Parse parses a whole script. Nothing of it should run unless it all parses:
// on error the script is nil and the error is an ErrorList of every line's
// first error (at most ten), each a *ParseError whose File is file.
func Parse(src, file string) (*Script, error) {
	s := &Script{File: file}
	var errs ErrorList
	seenCommand := false
	for i, text := range splitLines(src) {
		sl, ok, perr := lexLine(text, i+1)
		if perr == nil && ok {
			var cmd Command
			cmd, perr = parseCommand(sl, file)
			if perr == nil {
				if _, isSeed := cmd.(*Seed); isSeed && seenCommand {
					perr = &ParseError{Line: sl.Line, Col: sl.Tokens[0].Col,
						Msg:  "seed must be the first command of a script",
						Hint: "it seeds the world before anything happens; move it to the top"}
				} else {
					s.Commands = append(s.Commands, cmd)
				}
			}
			seenCommand = true
		}
		if perr != nil {
			perr.File = file
			errs = append(errs, perr)
			if len(errs) == maxErrors {
				break
			}
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return s, nil
}

// ParseLine parses one line, as the console reads it. A blank line or a
// comment gives (nil, nil). seed parses anywhere here: whether it may run is
// the console's decision. The error, if any, is a *ParseError.
func ParseLine(line string) (Command, error) {
	if i := strings.IndexByte(line, '\n'); i >= 0 && strings.TrimSpace(line[i:]) != "" {
		return nil, &ParseError{Line: 1, Col: i + 1, Msg: "one command per line", Hint: "use Parse for a script"}
	}
	line, _, _ = strings.Cut(line, "\n")
	sl, ok, perr := lexLine(strings.TrimSuffix(line, "\r"), 1)
	if perr != nil {
		return nil, perr
	}
	if !ok {
		return nil, nil
	}
	cmd, perr := parseCommand(sl, "")
	if perr != nil {
		return nil, perr
	}
	return cmd, nil
}

// parseCommand parses one line's words.
func parseCommand(sl sourceLine, file string) (Command, *ParseError) {
	sp, n, perr := dispatch(sl.Tokens, sl.End)
	if perr != nil {
		return nil, perr
	}
	c := &cmdParser{spec: sp, line: sl, head: sl.Tokens[:n],
		src: Source{Pos: Pos{file, sl.Line, sl.Tokens[0].Col}, Text: sl.Text, Name: sp.Name}}
	if perr := c.split(sl.Tokens[n:]); perr != nil {
		return nil, perr
	}
	return sp.parse(c)
}

// dispatch finds the table row a line's first words select, and how many
// words that took. end is the column after the line's last word.
func dispatch(toks []Token, end int) (*spec, int, *ParseError) {
	w0 := toks[0]
	var rows []*spec
	for _, s := range table {
		if s.words[0] == w0.Text {
			rows = append(rows, s)
		}
	}
	if len(rows) == 0 {
		return nil, 0, unknown(w0, "command", w0.Text, firstWords(), `type "help" for the list of commands`)
	}
	var fallback *spec
	var seconds []string
	var secondKinds []api.Kind
	for _, s := range rows {
		if len(s.words) == 1 {
			fallback = s
			continue
		}
		seconds = append(seconds, s.words[1])
		if k, ok := kindOf(s.words[1]); ok {
			secondKinds = append(secondKinds, k)
		}
		if len(toks) > 1 && wordMatches(s.words[1], toks[1].Text) {
			return s, 2, nil
		}
	}
	if fallback != nil {
		return fallback, 1, nil
	}
	kindsOnly := len(secondKinds) == len(seconds)
	if len(toks) < 2 {
		what := "a word"
		if kindsOnly {
			what = "a kind"
		}
		return nil, 0, &ParseError{Line: w0.Line, Col: end,
			Msg: w0.Text + " needs " + what + ": " + orList(seconds)}
	}
	w1 := toks[1]
	if kindsOnly {
		if k, ok := kindOf(w1.Text); ok {
			return nil, 0, errAt(w1, w0.Text+" cannot act on "+resourcePlural(k)+"; it takes "+orList(seconds))
		}
		return nil, 0, unknownKind(w1, w1.Text, secondKinds, w0.Text+" takes "+orList(seconds))
	}
	e := unknown(w1, "command", w0.Text+" "+w1.Text, nil, w0.Text+" takes "+orList(seconds))
	for _, s := range Suggest(w1.Text, seconds) {
		e.Suggestions = append(e.Suggestions, w0.Text+" "+s)
	}
	return nil, 0, e
}

// flagValue is one flag as given, with its value checked against its type.
type flagValue struct {
	doc FlagDoc
	// flag is the flag's word; value its value (a part of flag, or the next
	// word), with the positions it had.
	flag  Token
	value Token

	// The checked value; which field is set depends on doc.Type.
	i   int64
	d   time.Duration
	b   bool
	s   string
	sel labels.Selector
	set map[string]string
}

// cmdParser holds one command line split into flags and positional arguments,
// for the row's parse function.
type cmdParser struct {
	spec *spec
	line sourceLine
	src  Source
	// head are the command's words.
	head []Token
	// args are the positional arguments, in order.
	args []Token
	// flags are the flags given, by long name.
	flags map[string]*flagValue
}

// split sorts the words after the command's into flags and positional
// arguments, and checks each flag's value against its type. A flag may be
// written --name=value, --name value, -x value, -x=value or -xvalue; a bool
// flag is --name or --name=true|false. A word starting with - and a digit is
// an argument, not a flag.
func (c *cmdParser) split(toks []Token) *ParseError {
	c.flags = map[string]*flagValue{}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		txt := t.Text
		if len(txt) < 2 || txt[0] != '-' || (txt[1] >= '0' && txt[1] <= '9') {
			c.args = append(c.args, t)
			continue
		}
		var fd FlagDoc
		var found bool
		var value Token
		hasValue := false
		if strings.HasPrefix(txt, "--") {
			name := txt[2:]
			if eq := strings.IndexByte(name, '='); eq >= 0 {
				value, hasValue = t.from(2+eq+1), true
				name = name[:eq]
			}
			if name == "" {
				return errAt(t, "unexpected "+strconv.Quote(txt))
			}
			fd, found = c.spec.flag(name)
			if !found {
				return c.unknownFlag(t, "--"+name)
			}
		} else {
			short := txt[1:2]
			for _, f := range c.spec.Flags {
				if f.Short == short {
					fd, found = f, true
				}
			}
			if !found {
				return c.unknownFlag(t, "-"+short)
			}
			if len(txt) > 2 {
				if txt[2] == '=' {
					value = t.from(3)
				} else {
					value = t.from(2)
				}
				hasValue = true
			}
		}
		if prev := c.flags[fd.Name]; prev != nil {
			return &ParseError{Line: t.Line, Col: t.Col, Msg: "flag --" + fd.Name + " given twice",
				Hint: "it was given at column " + strconv.Itoa(prev.flag.Col) + " already"}
		}
		fv := &flagValue{doc: fd, flag: t}
		if fd.Type == TypeBool {
			fv.b = true
			if hasValue {
				b, err := strconv.ParseBool(value.Text)
				if err != nil {
					return &ParseError{Line: t.Line, Col: value.Col,
						Msg:  "bad value " + strconv.Quote(value.Text) + " for --" + fd.Name,
						Hint: "--" + fd.Name + " is true or false; --" + fd.Name + " alone means true"}
				}
				fv.b, fv.value = b, value
			}
			c.flags[fd.Name] = fv
			continue
		}
		if !hasValue {
			if i+1 >= len(toks) || c.isFlag(toks[i+1].Text) {
				return &ParseError{Line: t.Line, Col: t.end(), Msg: "flag " + txt + " needs a value",
					Hint: "write " + fd.Spelling()}
			}
			i++
			value = toks[i]
		}
		fv.value = value
		if perr := c.check(fv, toks[i+1:]); perr != nil {
			return perr
		}
		c.flags[fd.Name] = fv
	}
	return nil
}

// isFlag reports whether a word is one of the command's flags.
func (c *cmdParser) isFlag(word string) bool {
	if strings.HasPrefix(word, "--") {
		name, _, _ := strings.Cut(word[2:], "=")
		_, ok := c.spec.flag(name)
		return ok
	}
	if len(word) >= 2 && word[0] == '-' {
		for _, f := range c.spec.Flags {
			if f.Short == word[1:2] {
				return true
			}
		}
	}
	return false
}

// unknownFlag builds the error for a flag the command does not have.
func (c *cmdParser) unknownFlag(t Token, written string) *ParseError {
	var names []string
	for _, f := range c.spec.Flags {
		names = append(names, "--"+f.Name)
		if f.Short != "" {
			names = append(names, "-"+f.Short)
		}
	}
	e := unknown(t, "flag", written, names, "")
	e.Msg += " for " + c.spec.Name
	if len(c.spec.Flags) == 0 {
		e.Hint = c.spec.Name + " takes no flags"
	} else {
		var list []string
		for _, f := range c.spec.Flags {
			list = append(list, f.Spelling())
		}
		e.Hint = c.spec.Name + " takes " + orList(list)
	}
	return e
}

// check parses a flag's value as its type requires. rest are the words after
// the value, which a selector cut apart by spaces may have spilled into.
func (c *cmdParser) check(fv *flagValue, rest []Token) *ParseError {
	fd, v := fv.doc, fv.value
	what := "--" + fd.Name
	switch fd.Type {
	case TypeInt:
		n, perr := parseInt(v, what, fd.lo, fd.hi)
		fv.i = n
		return perr
	case TypeDuration:
		d, perr := parseDuration(v, what, fd.minDur)
		fv.d = d
		return perr
	case TypeName:
		fv.s = v.Text
		if fd.Name == "namespace" {
			return checkProblems(v, "namespace", labels.IsDNS1123Label(v.Text))
		}
		return checkProblems(v, "name", labels.IsDNS1123Subdomain(v.Text))
	case TypeEnum:
		if fd.Name == "cascade" {
			return c.checkCascade(fv)
		}
		fv.s = v.Text
		return checkEnum(v, what, fd.Values)
	case TypePick:
		fv.s = v.Text
		if n, err := strconv.Atoi(v.Text); err == nil && n >= 0 && isDigits(v.Text) {
			fv.i = int64(n)
			return nil
		}
		if e := checkEnum(v, what, fd.Values); e != nil {
			e.Hint = "--pick is oldest, newest, random, or an index in creation order from 0"
			return e
		}
		return nil
	case TypeLabels:
		set, perr := parseLabelList(v, what)
		fv.set = set
		return perr
	case TypeSelector:
		return checkSelector(fv, rest)
	}
	fv.s = v.Text
	return nil
}

// checkCascade accepts background and orphan, and kubectl's old spellings
// true (background) and false (orphan); foreground is not modelled.
func (c *cmdParser) checkCascade(fv *flagValue) *ParseError {
	v := fv.value
	switch v.Text {
	case "background", "true":
		fv.s = string(CascadeBackground)
	case "orphan", "false":
		fv.s = string(CascadeOrphan)
	case "foreground":
		return &ParseError{Line: v.Line, Col: v.Col, Msg: "--cascade=foreground is not modelled yet",
			Hint: "the garbage collector here deletes dependents in the background: use --cascade=background " +
				"(the default), or --cascade=orphan to keep the pods"}
	default:
		return checkEnum(v, "--cascade", fv.doc.Values)
	}
	return nil
}

// checkSelector parses a selector flag's value. When the words after it look
// like the rest of the selector ("-l tier in (a,b)"), it says to quote it.
func checkSelector(fv *flagValue, rest []Token) *ParseError {
	v := fv.value
	sel, err := labels.Parse(v.Text)
	if joined, n := joinSelector(v.Text, rest); n > 0 {
		if _, jerr := labels.Parse(joined); jerr == nil {
			spelled := "-" + fv.doc.Short + " " + strconv.Quote(joined)
			if strings.HasPrefix(fv.flag.Text, "--") {
				spelled = "--" + fv.doc.Name + "=" + strconv.Quote(joined)
			}
			return &ParseError{Line: v.Line, Col: v.Col,
				Msg:  "the selector " + strconv.Quote(v.Text) + " goes on after a space",
				Hint: "did you forget quotes around the selector? write " + spelled}
		}
	}
	if err != nil {
		e := &ParseError{Line: v.Line, Col: v.Col, Msg: "bad selector " + strconv.Quote(v.Text) + ": " + err.Error()}
		if strings.HasPrefix(v.Text, "'") {
			e.Hint = "single quotes do not group words here; use double quotes"
		}
		return e
	}
	fv.sel, fv.s = sel, v.Text
	return nil
}

// joinSelector glues to a selector the words after it that continue it, and
// says how many it took. A word continues a selector when the selector so far
// ends in an operator, a comma or an opening parenthesis, or ends with the
// word in or notin, or when the word starts with an operator, a comma or a
// parenthesis, or is in or notin. Flags never continue one.
func joinSelector(sel string, rest []Token) (string, int) {
	parts := []string{sel}
	last := sel
	for _, t := range rest {
		w := t.Text
		if w == "" || (w[0] == '-' && len(w) > 1) {
			break
		}
		prevOpen := (len(parts) > 1 && (last == "in" || last == "notin")) ||
			(last != "" && strings.IndexByte(",(=!<>", last[len(last)-1]) >= 0)
		if !prevOpen && w != "in" && w != "notin" && strings.IndexByte(",()=!<>", w[0]) < 0 {
			break
		}
		parts = append(parts, w)
		last = w
	}
	return strings.Join(parts, " "), len(parts) - 1
}

// parseLabelList parses k=v,k2=v2 and checks each key and value.
func parseLabelList(t Token, what string) (map[string]string, *ParseError) {
	if t.Text == "" {
		return nil, &ParseError{Line: t.Line, Col: t.Col, Msg: what + " is empty", Hint: "write " + what + "=k=v,k2=v2"}
	}
	set := map[string]string{}
	off := 0
	for _, part := range strings.Split(t.Text, ",") {
		pt := t.slice(off, off+len(part))
		off += len(part) + 1
		k, val, ok := strings.Cut(part, "=")
		if !ok {
			return nil, &ParseError{Line: pt.Line, Col: pt.Col, Msg: strconv.Quote(part) + " is not k=v",
				Hint: what + " takes k=v pairs separated by commas"}
		}
		if perr := checkLabel(pt, k, val, false); perr != nil {
			return nil, perr
		}
		if _, dup := set[k]; dup {
			return nil, errAt(pt, "label "+strconv.Quote(k)+" given twice")
		}
		set[k] = val
	}
	return set, nil
}

// checkLabel checks a label (or, with annotation, an annotation) key and
// value written in t as k=v.
func checkLabel(t Token, k, v string, annotation bool) *ParseError {
	what := "label"
	if annotation {
		what = "annotation"
	}
	if p := labels.IsQualifiedName(k); len(p) > 0 {
		return errAt(t, "invalid "+what+" key "+strconv.Quote(k)+": "+strings.Join(p, "; "))
	}
	if annotation {
		return nil
	}
	if p := labels.IsValidLabelValue(v); len(p) > 0 {
		return &ParseError{Line: t.Line, Col: t.ColAt(len(k) + 1),
			Msg: "invalid label value " + strconv.Quote(v) + " for " + strconv.Quote(k) + ": " + strings.Join(p, "; ")}
	}
	return nil
}

// checkProblems turns a validator's messages into an error.
func checkProblems(t Token, what string, problems []string) *ParseError {
	if len(problems) == 0 {
		return nil
	}
	return errAt(t, "invalid "+what+" "+strconv.Quote(t.Text)+": "+strings.Join(problems, "; "))
}

// checkEnum checks that a word is one of values.
func checkEnum(t Token, what string, values []string) *ParseError {
	for _, v := range values {
		if t.Text == v {
			return nil
		}
	}
	e := unknown(t, "value", t.Text, values, "want "+orList(values))
	e.Msg = "bad value " + strconv.Quote(t.Text) + " for " + what
	return e
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseInt parses a whole number in [lo, hi] (hi == 0: no upper bound).
func parseInt(t Token, what string, lo, hi int64) (int64, *ParseError) {
	n, err := strconv.ParseInt(t.Text, 10, 64)
	if err != nil {
		msg := "bad value " + strconv.Quote(t.Text) + " for " + what
		hint := "want a whole number"
		if lo >= 0 {
			hint += " from " + strconv.FormatInt(lo, 10)
		}
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			hint = "the number is too large"
		}
		return 0, &ParseError{Line: t.Line, Col: t.Col, Msg: msg, Hint: hint}
	}
	if n < lo {
		return 0, errAt(t, what+" must be at least "+strconv.FormatInt(lo, 10)+", not "+t.Text)
	}
	if hi > 0 && n > hi {
		return 0, errAt(t, what+" must be at most "+strconv.FormatInt(hi, 10)+", not "+t.Text)
	}
	return n, nil
}

// durationUnits maps the units people write to Go's.
var durationUnits = []struct{ unit, wrong string }{
	{"s", "sec"}, {"s", "secs"}, {"s", "second"}, {"s", "seconds"},
	{"m", "min"}, {"m", "mins"}, {"m", "minute"}, {"m", "minutes"},
	{"h", "hr"}, {"h", "hrs"}, {"h", "hour"}, {"h", "hours"},
	{"ms", "msec"}, {"ms", "msecs"}, {"ms", "millis"}, {"ms", "millisecond"}, {"ms", "milliseconds"},
}

// parseDuration parses a Go duration of at least min (min == 0: not
// negative; min > 0: more than 0).
func parseDuration(t Token, what string, minD time.Duration) (time.Duration, *ParseError) {
	d, err := time.ParseDuration(t.Text)
	if err != nil {
		e := &ParseError{Line: t.Line, Col: t.Col, Msg: "bad duration " + strconv.Quote(t.Text) + " for " + what,
			Hint: "write it as Go does: 500ms, 5s, 2m or 1m30s (units ns, us, ms, s, m, h)"}
		num := strings.TrimLeft(t.Text, "0123456789.")
		digits := t.Text[:len(t.Text)-len(num)]
		switch {
		case isDigits(t.Text):
			e.Hint = "a duration needs a unit, e.g. " + t.Text + "s or " + t.Text + "ms"
		case digits != "":
			unit := strings.ToLower(num)
			if _, err := time.ParseDuration(digits + unit); err == nil {
				e.Suggestions = []string{digits + unit}
			}
			for _, u := range durationUnits {
				if u.wrong == unit {
					e.Suggestions = []string{digits + u.unit}
				}
			}
		}
		return 0, e
	}
	if minD > 0 && d <= 0 {
		return 0, errAt(t, what+" must be more than 0")
	}
	if d < 0 {
		return 0, errAt(t, what+" must not be negative")
	}
	return d, nil
}

// slice returns bytes [i, j) of t as a token of their own.
func (t Token) slice(i, j int) Token {
	s := t.from(i)
	j = max(i, min(j, len(t.Text)))
	s.Text = s.Text[:j-i]
	if s.cols != nil {
		s.cols = s.cols[:j-i+1]
	}
	return s
}

// --- Helpers the parse functions share ---------------------------------------

// errEnd builds an error about something missing, at the end of the line.
func (c *cmdParser) errEnd(msg, hint string) *ParseError {
	return &ParseError{Line: c.line.Line, Col: c.line.End, Msg: msg, Hint: hint}
}

// example returns the row's first example, for hints.
func (c *cmdParser) example() string {
	if len(c.spec.Examples) == 0 {
		return c.spec.Usage
	}
	return "e.g. " + c.spec.Examples[0]
}

// flag returns a flag if it was given; a required flag that was not is an error.
func (c *cmdParser) flag(name string) (*flagValue, *ParseError) {
	if fv := c.flags[name]; fv != nil {
		return fv, nil
	}
	if fd, ok := c.spec.flag(name); ok && fd.Required {
		return nil, c.errEnd(c.spec.Name+" needs "+fd.Spelling(), c.example())
	}
	return nil, nil
}

// intFlag returns an int flag's value, or def.
func (c *cmdParser) intFlag(name string, def int64) (int64, *ParseError) {
	fv, perr := c.flag(name)
	if fv == nil {
		return def, perr
	}
	return fv.i, nil
}

// durFlag returns a duration flag's value, or def.
func (c *cmdParser) durFlag(name string, def time.Duration) time.Duration {
	if fv := c.flags[name]; fv != nil {
		return fv.d
	}
	return def
}

// boolFlag returns a bool flag's value.
func (c *cmdParser) boolFlag(name string) bool {
	fv := c.flags[name]
	return fv != nil && fv.b
}

// namespace returns -n's value for a kind, "default" when not given, or "" for
// nodes.
func (c *cmdParser) namespace(kind api.Kind) string {
	if kind != "" && !kind.Namespaced() {
		return ""
	}
	if fv := c.flags["namespace"]; fv != nil {
		return fv.s
	}
	return "default"
}

// noMoreArgs fails when arguments are left after the n the command takes.
func (c *cmdParser) noMoreArgs(rest []Token) *ParseError {
	if len(rest) == 0 {
		return nil
	}
	return &ParseError{Line: rest[0].Line, Col: rest[0].Col, Msg: "unexpected argument " + strconv.Quote(rest[0].Text),
		Hint: "usage: " + c.spec.Usage}
}

// forbidFlag fails when a flag was given that the command's form at hand
// cannot use.
func (c *cmdParser) forbidFlag(name, why string) *ParseError {
	if fv := c.flags[name]; fv != nil {
		return errAt(fv.flag, "--"+name+" "+why)
	}
	return nil
}

// kind reads a kind name that the command accepts.
func (c *cmdParser) kind(t Token, word string) (api.Kind, *ParseError) {
	return c.kindIn(t, word, c.spec.kinds)
}

// kindIn reads a kind name that is one of allowed.
func (c *cmdParser) kindIn(t Token, word string, allowed []api.Kind) (api.Kind, *ParseError) {
	k, ok := kindOf(word)
	if !ok {
		return "", unknownKind(t, word, allowed, c.spec.Name+" takes "+orList(shortNames(allowed)))
	}
	for _, a := range allowed {
		if a == k {
			return k, nil
		}
	}
	return "", errAt(t, c.spec.Name+" cannot act on "+resourcePlural(k)+"; it takes "+orList(shortNames(allowed)))
}

// unknownKind builds the error for a word that is no kind: it suggests one
// spelling per kind, the closest, among kinds.
func unknownKind(t Token, word string, kinds []api.Kind, hint string) *ParseError {
	e := unknown(t, "kind", word, nil, hint)
	var seen []api.Kind
	for _, s := range Suggest(word, kindNames(kinds)) {
		if k, _ := kindOf(s); !containsKind(seen, k) {
			seen = append(seen, k)
			e.Suggestions = append(e.Suggestions, s)
		}
	}
	return e
}

// checkName checks an object name.
func checkName(t Token, kind api.Kind) *ParseError {
	if t.Text == "" {
		return errAt(t, "missing name after "+shortName(kind)+"/")
	}
	return checkProblems(t, "name", labels.IsDNS1123Subdomain(t.Text))
}

// ref reads KIND/NAME, or KIND NAME when nameFollows, from the arguments, and
// returns the rest.
func (c *cmdParser) ref(args []Token, nameFollows bool) (Ref, []Token, *ParseError) {
	return c.refIn(args, nameFollows, c.spec.kinds)
}

// refIn is ref for an object of one of kinds.
func (c *cmdParser) refIn(args []Token, nameFollows bool, kinds []api.Kind) (Ref, []Token, *ParseError) {
	if len(args) == 0 {
		return Ref{}, nil, c.errEnd(c.spec.Name+" needs "+objectWord(kinds), c.example())
	}
	a := args[0]
	kindWord, rest := a.Text, args[1:]
	var nameTok Token
	if slash := strings.IndexByte(a.Text, '/'); slash >= 0 {
		kindWord, nameTok = a.Text[:slash], a.from(slash+1)
	} else if nameFollows && len(args) > 1 {
		nameTok, rest = args[1], args[2:]
	} else {
		k, perr := c.kindIn(a, kindWord, kinds)
		if perr != nil {
			return Ref{}, nil, perr
		}
		return Ref{}, nil, &ParseError{Line: a.Line, Col: a.end(), Msg: "missing name after " + a.Text,
			Hint: "write " + shortName(k) + "/NAME"}
	}
	k, perr := c.kindIn(a, kindWord, kinds)
	if perr != nil {
		return Ref{}, nil, perr
	}
	if perr := checkName(nameTok, k); perr != nil {
		return Ref{}, nil, perr
	}
	return Ref{Kind: k, Namespace: c.namespace(k), Name: nameTok.Text}, rest, nil
}

// objectWord is how hints name an object of one of kinds: rs/NAME or rc/NAME.
func objectWord(kinds []api.Kind) string {
	var forms []string
	for _, k := range kinds {
		forms = append(forms, shortName(k)+"/NAME")
	}
	return orList(forms)
}

// target reads what a verb acts on: KIND/NAME, KIND NAME (when nameFollows),
// or KIND with -l SEL or --all, narrowed by --pick and --count. With
// needChoice, a bare KIND needs -l or --all. It returns the arguments left.
func (c *cmdParser) target(nameFollows, needChoice bool) (Target, []Token, *ParseError) {
	args := c.args
	if len(args) == 0 {
		return Target{}, nil, c.errEnd(c.spec.Name+" needs what to act on", c.example())
	}
	a := args[0]
	if strings.Contains(a.Text, "/") || nameFollows {
		r, rest, perr := c.ref(args, nameFollows)
		if perr != nil {
			return Target{}, nil, perr
		}
		for _, f := range []string{"selector", "all", "pick", "count"} {
			if perr := c.forbidFlag(f, "chooses among the objects of a kind; "+a.Text+" names one already"); perr != nil {
				if f == "selector" {
					perr.Msg = "give either " + r.String() + " or -l SEL, not both"
				}
				return Target{}, nil, perr
			}
		}
		return Target{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}, rest, nil
	}
	k, perr := c.kind(a, a.Text)
	if perr != nil {
		return Target{}, nil, perr
	}
	t := Target{Kind: k, Namespace: c.namespace(k), Selector: labels.Everything()}
	sel, all := c.flags["selector"], c.flags["all"]
	switch {
	case sel != nil && all != nil && all.b:
		return Target{}, nil, errAt(all.flag, "give either -l SEL or --all, not both")
	case sel != nil:
		t.Selector, t.SelectorText = sel.sel, sel.s
	case all != nil && all.b:
	case needChoice:
		plural := resourcePlural(k)
		return Target{}, nil, &ParseError{Line: a.Line, Col: a.end(), Msg: c.spec.Name + " " + a.Text + " needs -l SEL",
			Hint: "or --all for every one of the " + plural + ", or " + shortName(k) + "/NAME for one"}
	}
	pick, count := c.flags["pick"], c.flags["count"]
	switch {
	case pick != nil && pick.s != "" && isDigits(pick.s):
		t.Pick = Pick{Order: PickIndex, Index: int(pick.i), Count: 1}
	case pick != nil:
		t.Pick = Pick{Order: PickOrder(pick.s), Count: 1}
	case count != nil:
		t.Pick = Pick{Order: PickOldest, Count: 1}
	}
	if count != nil {
		t.Pick.Count = int(count.i)
	}
	return t, args[1:], nil
}

// splitCond splits FIELD OP VALUE. It returns ok == false when the word holds
// no comparison.
func splitCond(t Token) (key string, op Op, val Token, ok bool) {
	i := strings.IndexAny(t.Text, "=!<>")
	if i < 0 {
		return "", "", Token{}, false
	}
	rest := t.Text[i:]
	if strings.HasPrefix(rest, "==") {
		return t.Text[:i], OpEq, t.from(i + 2), true
	}
	for _, o := range ops {
		if strings.HasPrefix(rest, string(o)) {
			return t.Text[:i], o, t.from(i + len(o)), true
		}
	}
	return "", "", Token{}, false
}

// cond is one parsed FIELD OP VALUE.
type cond struct {
	tok Token
	key string
	op  Op
	val Token
}

// conds splits every argument into FIELD OP VALUE.
func (c *cmdParser) conds(args []Token) ([]cond, *ParseError) {
	out := make([]cond, 0, len(args))
	for i, a := range args {
		key, op, val, ok := splitCond(a)
		if !ok {
			e := errAt(a, strconv.Quote(a.Text)+" is not a check")
			e.Hint = "write FIELD=VALUE, or FIELD with !=, <, <=, > or >="
			if i+1 < len(args) && args[i+1].Text != "" && strings.IndexByte("=!<>", args[i+1].Text[0]) >= 0 {
				e.Hint = "write the check without spaces: " + a.Text + args[i+1].Text
				if i+2 < len(args) && len(args[i+1].Text) <= 2 {
					e.Hint += args[i+2].Text
				}
			}
			return nil, e
		}
		if key == "" {
			return nil, errAt(a, "missing field before "+strconv.Quote(string(op)))
		}
		out = append(out, cond{a, key, op, val})
	}
	return out, nil
}

// numberCompare reads a numeric comparison.
func numberCompare(k cond) (Compare, *ParseError) {
	n, perr := parseInt(k.val, k.key, 0, 0)
	if perr != nil {
		return Compare{}, perr
	}
	return Compare{k.op, n}, nil
}

// wordMatch reads a = or != comparison with a word.
func wordMatch(k cond) (Match, *ParseError) {
	if k.op != OpEq && k.op != OpNe {
		return Match{}, opError(k)
	}
	return Match{k.op, k.val.Text}, nil
}

func opError(k cond) *ParseError {
	return &ParseError{Line: k.tok.Line, Col: k.tok.ColAt(len(k.key)),
		Msg:  strconv.Quote(string(k.op)) + " compares numbers, and " + k.key + " is not one",
		Hint: "use = or !="}
}

// onlyEq fails unless a filter is written with =.
func onlyEq(k cond) *ParseError {
	if k.op == OpEq {
		return nil
	}
	return &ParseError{Line: k.tok.Line, Col: k.tok.ColAt(len(k.key)),
		Msg: k.key + " takes =, not " + strconv.Quote(string(k.op))}
}

// twice builds the error for a key given twice.
func twice(k cond) *ParseError { return errAt(k.tok, k.key+" given twice") }

// lookupField finds a field of a kind by path; key is a map field's key.
func lookupField(kind api.Kind, path string) (idx int, key string, ok bool) {
	for _, i := range fieldsOf(kind) {
		f := &fieldTable[i]
		if f.mapKey {
			if strings.HasPrefix(path, f.path) && len(path) > len(f.path) {
				return i, path[len(f.path):], true
			}
		} else if path == f.path {
			return i, "", true
		}
	}
	return 0, "", false
}

// fieldCandidates lists the paths to suggest for a mistyped path: every field
// of the kind, with a map field spelled with the key the user wrote.
func fieldCandidates(kind api.Kind, path string) []string {
	var out []string
	for _, i := range fieldsOf(kind) {
		f := &fieldTable[i]
		if !f.mapKey {
			out = append(out, f.path)
			continue
		}
		n := strings.Count(f.path, ".")
		if parts := strings.SplitN(path, ".", n+1); len(parts) == n+1 {
			out = append(out, f.path+parts[n])
		} else {
			out = append(out, f.path+"KEY")
		}
	}
	return out
}

// fieldCheck parses one FIELD OP VALUE for an object of a kind.
func (c *cmdParser) fieldCheck(kind api.Kind, k cond) (FieldCheck, *ParseError) {
	idx, key, ok := lookupField(kind, k.key)
	if !ok {
		keyTok := k.tok.slice(0, len(k.key))
		return FieldCheck{}, unknown(keyTok, "field", k.key, fieldCandidates(kind, k.key),
			"help fields lists the fields of "+shortName(kind)+" and the other kinds")
	}
	f := &fieldTable[idx]
	if f.mapKey {
		if p := labels.IsQualifiedName(key); len(p) > 0 {
			return FieldCheck{}, &ParseError{Line: k.tok.Line, Col: k.tok.ColAt(len(f.path)),
				Msg: "invalid key " + strconv.Quote(key) + " in " + k.key + ": " + strings.Join(p, "; ")}
		}
	}
	fc := FieldCheck{Path: k.key, Op: k.op, Pos: Pos{c.src.Pos.File, k.tok.Line, k.tok.Col}, field: idx, key: key}
	v := k.val
	if f.typ != TypeInt && k.op != OpEq && k.op != OpNe {
		return FieldCheck{}, opError(k)
	}
	switch f.typ {
	case TypeInt:
		n, perr := parseInt(v, k.key, -1<<63, 0)
		if perr != nil {
			perr.Hint = k.key + " is a whole number"
			return FieldCheck{}, perr
		}
		fc.Want = intValue(n)
		return fc, nil
	case TypeBool:
		b, err := strconv.ParseBool(v.Text)
		if err != nil || (v.Text != "true" && v.Text != "false") {
			return FieldCheck{}, checkEnum(v, k.key, []string{"true", "false"})
		}
		fc.Want = boolValue(b)
	case TypeEnum:
		if perr := checkEnum(v, k.key, f.values); perr != nil {
			return FieldCheck{}, perr
		}
		fc.Want = enumValue(v.Text)
	case TypeOwner:
		owner, perr := c.owner(v)
		if perr != nil {
			return FieldCheck{}, perr
		}
		fc.Want = ownerValue(owner)
	default:
		fc.Want = strValue(v.Text)
	}
	return fc, nil
}

// owner reads none or rs/NAME or rc/NAME, spelled with the short kind name.
func (c *cmdParser) owner(v Token) (string, *ParseError) {
	if v.Text == "none" {
		return "none", nil
	}
	kindWord, name, ok := strings.Cut(v.Text, "/")
	if !ok {
		e := unknown(v, "owner", v.Text, []string{"none"}, "")
		e.Hint = "an owner is rs/NAME, rc/NAME or none"
		return "", e
	}
	k, known := kindOf(kindWord)
	if !known || (k != api.KindReplicaSet && k != api.KindReplicationController) {
		e := unknownKind(v, kindWord, controllerKinds, "an owner is rs/NAME, rc/NAME or none")
		e.Msg = "unknown owner kind " + strconv.Quote(kindWord)
		return "", e
	}
	if perr := checkName(v.from(len(kindWord)+1), k); perr != nil {
		return "", perr
	}
	return shortName(k) + "/" + name, nil
}

// resource reads a resource as fail, heal and expect requests write it: a kind
// name and an optional /status or /binding. It returns the API's name for it.
func resource(t Token) (api.Kind, string, string, *ParseError) {
	kindWord, sub, hasSub := strings.Cut(t.Text, "/")
	k, ok := kindOf(kindWord)
	if !ok {
		e := unknownKind(t, kindWord, allKinds, "resources are pods, rs, rc, nodes and events")
		e.Msg = "unknown resource " + strconv.Quote(kindWord)
		return "", "", "", e
	}
	if hasSub {
		subs := []string{apistore.SubresourceStatus, apistore.SubresourceBinding}
		st := t.from(len(kindWord) + 1)
		if perr := checkEnum(st, "the subresource", subs); perr != nil {
			perr.Msg = "unknown subresource " + strconv.Quote(sub)
			return "", "", "", perr
		}
	}
	return k, sub, apistore.Request{Kind: k, Subresource: sub}.Resource(), nil
}

// --- World -------------------------------------------------------------------

func parseCreateNode(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd("create node needs a NAME", c.example())
	}
	if perr := checkName(c.args[0], api.KindNode); perr != nil {
		return nil, perr
	}
	cmd := &CreateNode{Source: c.src, Name: c.args[0].Text}
	if fv := c.flags["labels"]; fv != nil {
		cmd.Labels = fv.set
	}
	return cmd, c.noMoreArgs(c.args[1:])
}

// createName reads the NAME of create rs, rc and pod.
func (c *cmdParser) createName(kind api.Kind) (string, *ParseError) {
	if len(c.args) == 0 {
		return "", c.errEnd(c.spec.Name+" needs a NAME", c.example())
	}
	if perr := checkName(c.args[0], kind); perr != nil {
		return "", perr
	}
	return c.args[0].Text, c.noMoreArgs(c.args[1:])
}

// replicas reads --replicas (required) and --min-ready-seconds.
func (c *cmdParser) replicas() (replicas, minReady int32, perr *ParseError) {
	n, perr := c.intFlag("replicas", 0)
	if perr != nil {
		return 0, 0, perr
	}
	m, _ := c.intFlag("min-ready-seconds", 0)
	return int32(n), int32(m), nil
}

func parseCreateRS(c *cmdParser) (Command, *ParseError) {
	name, perr := c.createName(api.KindReplicaSet)
	if perr != nil {
		return nil, perr
	}
	replicas, minReady, perr := c.replicas()
	if perr != nil {
		return nil, perr
	}
	sel, perr := c.flag("selector")
	if perr != nil {
		return nil, perr
	}
	reqs, _ := sel.sel.Requirements()
	if len(reqs) == 0 {
		return nil, errAt(sel.value, "the selector of a ReplicaSet must not be empty: it would claim every pod")
	}
	derived := map[string]string{}
	setBased := ""
	for _, r := range reqs {
		switch r.Operator() {
		case labels.GreaterThan, labels.LessThan:
			return nil, &ParseError{Line: sel.value.Line, Col: sel.value.Col,
				Msg:  "a ReplicaSet's selector cannot use > or < (" + strconv.Quote(r.String()) + ")",
				Hint: "its matchExpressions know only In, NotIn, Exists and DoesNotExist"}
		case labels.Equals, labels.DoubleEquals:
			derived[r.Key()] = r.Values()[0]
		default:
			if setBased == "" {
				setBased = r.String()
			}
		}
	}
	cmd := &CreateRS{Source: c.src, Namespace: c.namespace(api.KindReplicaSet), Name: name, Replicas: replicas,
		Selector: sel.sel, SelectorText: sel.s, MinReadySeconds: minReady}
	if tl := c.flags["template-labels"]; tl != nil {
		cmd.TemplateLabels = tl.set
	} else {
		if setBased != "" {
			return nil, &ParseError{Line: sel.value.Line, Col: sel.value.Col,
				Msg:  "the pods' labels cannot be derived from the selector's set-based requirement " + strconv.Quote(setBased),
				Hint: "add --template-labels=k=v,... with labels the selector matches"}
		}
		cmd.TemplateLabels = derived
	}
	return cmd, nil
}

func parseCreateRC(c *cmdParser) (Command, *ParseError) {
	name, perr := c.createName(api.KindReplicationController)
	if perr != nil {
		return nil, perr
	}
	replicas, minReady, perr := c.replicas()
	if perr != nil {
		return nil, perr
	}
	sel, perr := c.flag("selector")
	if perr != nil {
		return nil, perr
	}
	reqs, _ := sel.sel.Requirements()
	if len(reqs) == 0 {
		return nil, errAt(sel.value, "the selector of a ReplicationController must not be empty: it would claim every pod")
	}
	m := map[string]string{}
	for _, r := range reqs {
		if op := r.Operator(); op != labels.Equals && op != labels.DoubleEquals {
			return nil, &ParseError{Line: sel.value.Line, Col: sel.value.Col,
				Msg:  "a ReplicationController's selector is a plain map: only k=v requirements, not " + strconv.Quote(r.String()),
				Hint: "use a ReplicaSet (create rs) for set-based selectors"}
		}
		m[r.Key()] = r.Values()[0]
	}
	cmd := &CreateRC{Source: c.src, Namespace: c.namespace(api.KindReplicationController), Name: name, Replicas: replicas,
		Selector: m, TemplateLabels: maps.Clone(m), MinReadySeconds: minReady}
	if tl := c.flags["template-labels"]; tl != nil {
		cmd.TemplateLabels = tl.set
	}
	return cmd, nil
}

func parseCreatePod(c *cmdParser) (Command, *ParseError) {
	name, perr := c.createName(api.KindPod)
	if perr != nil {
		return nil, perr
	}
	cmd := &CreatePod{Source: c.src, Namespace: c.namespace(api.KindPod), Name: name, Ready: c.boolFlag("ready")}
	if fv := c.flags["labels"]; fv != nil {
		cmd.Labels = fv.set
	}
	if fv := c.flags["node"]; fv != nil {
		cmd.Node = fv.s
	}
	if fv := c.flags["phase"]; fv != nil {
		cmd.Phase = fv.s
	}
	return cmd, nil
}

func parseScale(c *cmdParser) (Command, *ParseError) {
	r, rest, perr := c.ref(c.args, len(c.args) > 1)
	if perr != nil {
		return nil, perr
	}
	if perr := c.noMoreArgs(rest); perr != nil {
		return nil, perr
	}
	n, perr := c.intFlag("replicas", 0)
	if perr != nil {
		return nil, perr
	}
	return &Scale{Source: c.src, Object: r, Replicas: int32(n)}, nil
}

// isEdit reports whether a word of label or annotate is k=v or k-.
func isEdit(t Token) bool { return strings.Contains(t.Text, "=") || strings.HasSuffix(t.Text, "-") }

func parseLabel(c *cmdParser) (Command, *ParseError) {
	annotate := c.spec.Name == "annotate"
	what := "label"
	if annotate {
		what = "annotation"
	}
	nameFollows := len(c.args) > 1 && !strings.Contains(c.args[0].Text, "/") && !isEdit(c.args[1])
	t, rest, perr := c.target(nameFollows, true)
	if perr != nil {
		return nil, perr
	}
	cmd := &Label{Source: c.src, Annotate: annotate, Target: t, Overwrite: c.boolFlag("overwrite")}
	seen := map[string]bool{}
	for _, a := range rest {
		var key string
		if k, v, ok := strings.Cut(a.Text, "="); ok {
			if perr := checkLabel(a, k, v, annotate); perr != nil {
				return nil, perr
			}
			key = k
			cmd.Set = append(cmd.Set, KeyValue{k, v})
		} else if k, ok := strings.CutSuffix(a.Text, "-"); ok {
			if perr := checkLabel(a, k, "", annotate); perr != nil {
				return nil, perr
			}
			key = k
			cmd.Remove = append(cmd.Remove, k)
		} else {
			return nil, &ParseError{Line: a.Line, Col: a.Col, Msg: strconv.Quote(a.Text) + " is neither k=v nor k-",
				Hint: "write k=v to set the " + what + " k to v, or k- to remove it"}
		}
		if seen[key] {
			return nil, errAt(a, "can not both modify and remove "+what+" "+strconv.Quote(key)+", nor change it twice")
		}
		seen[key] = true
	}
	if len(rest) == 0 {
		return nil, c.errEnd(c.spec.Name+" needs at least one k=v or k- to change", c.example())
	}
	return cmd, nil
}

func parseDelete(c *cmdParser) (Command, *ParseError) {
	nameFollows := len(c.args) > 1 && !strings.Contains(c.args[0].Text, "/")
	t, rest, perr := c.target(nameFollows, true)
	if perr != nil {
		return nil, perr
	}
	if perr := c.noMoreArgs(rest); perr != nil {
		return nil, perr
	}
	cmd := &Delete{Source: c.src, Target: t, Cascade: CascadeBackground}
	if fv := c.flags["grace-period"]; fv != nil && fv.i >= 0 {
		g := fv.i
		cmd.GracePeriod = &g
	}
	if fv := c.flags["cascade"]; fv != nil {
		cmd.Cascade = Cascade(fv.s)
	}
	return cmd, nil
}

func parseCordon(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd(c.spec.Name+" needs node/NAME", c.example())
	}
	a := c.args[0]
	var name string
	rest := c.args[1:]
	switch _, isKind := kindOf(a.Text); {
	case strings.Contains(a.Text, "/") || (isKind && len(c.args) > 1):
		r, r2, perr := c.ref(c.args, true)
		if perr != nil {
			return nil, perr
		}
		name, rest = r.Name, r2
	default:
		if perr := checkName(a, api.KindNode); perr != nil {
			return nil, perr
		}
		name = a.Text
	}
	if perr := c.noMoreArgs(rest); perr != nil {
		return nil, perr
	}
	return &Cordon{Source: c.src, Node: name, Unschedulable: c.spec.Name == "cordon"}, nil
}

// --- Things that happen to pods ----------------------------------------------

func parsePodAction(c *cmdParser) (Command, *ParseError) {
	nameFollows := len(c.args) > 1 && !strings.Contains(c.args[0].Text, "/")
	t, rest, perr := c.target(nameFollows, true)
	if perr != nil {
		return nil, perr
	}
	if perr := c.noMoreArgs(rest); perr != nil {
		return nil, perr
	}
	return &PodAction{Source: c.src, Action: c.spec.Name, Target: t}, nil
}

func parseSetReady(c *cmdParser) (Command, *ParseError) {
	nameFollows := len(c.args) > 2 && !strings.Contains(c.args[0].Text, "/")
	t, rest, perr := c.target(nameFollows, true)
	if perr != nil {
		return nil, perr
	}
	if len(rest) == 0 {
		return nil, c.errEnd("set ready needs true or false at the end", c.example())
	}
	if perr := checkEnum(rest[0], "set ready", []string{"true", "false"}); perr != nil {
		return nil, perr
	}
	if perr := c.noMoreArgs(rest[1:]); perr != nil {
		return nil, perr
	}
	return &SetReady{Source: c.src, Target: t, Ready: rest[0].Text == "true"}, nil
}

// --- Faults ------------------------------------------------------------------

// apiTargetArgs reads VERB RESOURCE of fail and heal; with optional, the
// resource may be left out (heal create).
func (c *cmdParser) apiTargetArgs(args []Token, optional bool) (apiTarget, string, []Token, *ParseError) {
	if len(args) == 0 {
		return apiTarget{}, "", nil, c.errEnd(c.spec.Name+" needs a verb and a resource", c.example())
	}
	verbs := faultVerbs()
	v := args[0]
	if !containsString(verbs, v.Text) {
		return apiTarget{}, "", nil, unknown(v, "verb", v.Text, verbs, c.spec.Name+" takes "+orList(verbs))
	}
	t := apiTarget{verb: apistore.Verb(v.Text)}
	var resources []string
	for _, ft := range faultTargets {
		if ft.verb == t.verb {
			resources = append(resources, resourceWord(ft.kind, ft.subresource))
		}
	}
	if len(args) < 2 {
		if optional {
			return t, "", nil, nil
		}
		return apiTarget{}, "", nil, &ParseError{Line: v.Line, Col: v.end(),
			Msg: c.spec.Name + " " + v.Text + " needs a resource: " + orList(resources)}
	}
	r := args[1]
	kind, sub, res, perr := resource(r)
	if perr != nil {
		return apiTarget{}, "", nil, perr
	}
	t.kind, t.subresource = kind, sub
	for _, ft := range faultTargets {
		if ft == t {
			return t, res, args[2:], nil
		}
	}
	return apiTarget{}, "", nil, errAt(r, c.spec.Name+" "+t.String()+" is not modelled; "+
		c.spec.Name+" "+v.Text+" takes "+orList(resources))
}

func containsString(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

func parseFail(c *cmdParser) (Command, *ParseError) {
	t, res, rest, perr := c.apiTargetArgs(c.args, false)
	if perr != nil {
		return nil, perr
	}
	if perr := c.noMoreArgs(rest); perr != nil {
		return nil, perr
	}
	cmd := &Fail{Source: c.src, Verb: t.verb, Kind: t.kind, Subresource: t.subresource, Resource: res,
		Always: c.boolFlag("always"), Error: apistore.FaultServer}
	count := c.flags["count"]
	switch {
	case count != nil && cmd.Always:
		return nil, errAt(count.flag, "give either --count=N or --always, not both")
	case count == nil && !cmd.Always:
		return nil, c.errEnd("fail needs --count=N or --always", c.example())
	case count != nil:
		cmd.Count = int(count.i)
	}
	after, _ := c.intFlag("after", 0)
	cmd.After = int(after)
	if fv := c.flags["error"]; fv != nil {
		cmd.Error = apistore.FaultKind(fv.s)
	}
	return cmd, nil
}

func parseWatchFault(c *cmdParser) (Command, *ParseError) {
	action := WatchAction(c.spec.words[0])
	if len(c.args) == 0 {
		return nil, c.errEnd(c.spec.Name+" needs a kind: "+orList(shortNames(c.spec.kinds)), c.example())
	}
	k, perr := c.kind(c.args[0], c.args[0].Text)
	if perr != nil {
		return nil, perr
	}
	cmd := &WatchFault{Source: c.src, Action: action, Kind: k}
	rest := c.args[1:]
	switch action {
	case WatchDrop:
		n, perr := c.intFlag("count", 0)
		if perr != nil {
			return nil, perr
		}
		cmd.Count = int(n)
	case WatchDelay:
		if len(rest) == 0 {
			return nil, c.errEnd("delay watch needs a duration", c.example())
		}
		d, perr := parseDuration(rest[0], "the delay", 1)
		if perr != nil {
			return nil, perr
		}
		cmd.Delay, rest = d, rest[1:]
	}
	return cmd, c.noMoreArgs(rest)
}

func parseSlowKubelet(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd("slow kubelet needs a duration", c.example())
	}
	d, perr := parseDuration(c.args[0], "kubelet-start", 0)
	if perr != nil {
		return nil, perr
	}
	return &SlowKubelet{Source: c.src, Start: d}, c.noMoreArgs(c.args[1:])
}

func parseHeal(c *cmdParser) (Command, *ParseError) {
	cmd := &Heal{Source: c.src, Scope: HealAll}
	if len(c.args) == 0 {
		return cmd, nil
	}
	a := c.args[0]
	rest := c.args[1:]
	switch a.Text {
	case "all":
	case "kubelet":
		cmd.Scope = HealKubelet
	case "watch":
		cmd.Scope = HealWatch
		if len(rest) > 0 {
			k, perr := c.kindIn(rest[0], rest[0].Text, watchKinds)
			if perr != nil {
				return nil, perr
			}
			cmd.Kind, rest = k, rest[1:]
		}
	default:
		words := append([]string{"all", "watch", "kubelet"}, faultVerbs()...)
		if !containsString(faultVerbs(), a.Text) {
			return nil, unknown(a, "fault", a.Text, words, "heal takes all, watch [KIND], kubelet, or a verb and a resource (create pods)")
		}
		t, res, r2, perr := c.apiTargetArgs(c.args, true)
		if perr != nil {
			return nil, perr
		}
		cmd.Scope, cmd.Verb, cmd.Kind, cmd.Subresource, cmd.Resource = HealRequests, t.verb, t.kind, t.subresource, res
		rest = r2
	}
	return cmd, c.noMoreArgs(rest)
}

func containsKind(list []api.Kind, k api.Kind) bool {
	for _, l := range list {
		if l == k {
			return true
		}
	}
	return false
}

// --- Time and stepping -------------------------------------------------------

func parseSeed(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd("seed needs a number", c.example())
	}
	a := c.args[0]
	n, err := strconv.ParseUint(a.Text, 10, 64)
	if err != nil || n == 0 {
		return nil, &ParseError{Line: a.Line, Col: a.Col, Msg: "bad seed " + strconv.Quote(a.Text),
			Hint: "a seed is a whole number from 1 to 18446744073709551615"}
	}
	return &Seed{Source: c.src, Value: n}, c.noMoreArgs(c.args[1:])
}

func parseConfig(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd("config needs KEY=VALUE", "keys: "+strings.Join(configKeyNames(), ", "))
	}
	cmd := &Config{Source: c.src}
	seen := map[string]bool{}
	for i, a := range c.args {
		key, _, ok := strings.Cut(a.Text, "=")
		var kd ConfigKeyDoc
		found := false
		for _, k := range configTable {
			if k.Key == key {
				kd, found = k, true
			}
		}
		if !found {
			return nil, unknown(a.slice(0, len(key)), "config key", key, configKeyNames(), "keys: "+strings.Join(configKeyNames(), ", "))
		}
		if !ok {
			hint := "write " + key + "=VALUE"
			if i+1 < len(c.args) {
				hint = "write " + key + "=" + c.args[i+1].Text + ", without spaces"
			}
			return nil, &ParseError{Line: a.Line, Col: a.end(), Msg: "config " + key + " needs a value", Hint: hint}
		}
		if seen[key] {
			return nil, errAt(a, "config "+key+" given twice")
		}
		seen[key] = true
		vt := a.from(len(key) + 1)
		s := Setting{Key: key, Pos: Pos{c.src.Pos.File, a.Line, a.Col}}
		if kd.Type == TypeInt {
			n, perr := parseInt(vt, key, kd.lo, 1<<31-1)
			if perr != nil {
				return nil, perr
			}
			s.Int = int(n)
		} else {
			d, perr := parseDuration(vt, key, 0)
			if perr != nil {
				return nil, perr
			}
			s.Duration = d
		}
		cmd.Settings = append(cmd.Settings, s)
	}
	return cmd, nil
}

func parseStep(c *cmdParser) (Command, *ParseError) {
	cmd := &Step{Source: c.src, N: 1}
	if len(c.args) > 0 {
		n, perr := parseInt(c.args[0], "step", 1, 1<<31-1)
		if perr != nil {
			return nil, perr
		}
		cmd.N = int(n)
	}
	return cmd, c.noMoreArgs(c.args[min(1, len(c.args)):])
}

func parseAdvance(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd("advance needs a duration", c.example())
	}
	d, perr := parseDuration(c.args[0], "advance", 0)
	if perr != nil {
		return nil, perr
	}
	return &Advance{Source: c.src, D: d}, c.noMoreArgs(c.args[1:])
}

// limits reads --max-steps and --max-time.
func (c *cmdParser) limits() sim.Limits {
	n, _ := c.intFlag("max-steps", sim.DefaultMaxSteps)
	return sim.Limits{MaxSteps: int(n), MaxTime: c.durFlag("max-time", sim.DefaultMaxTime)}
}

func parseUntilSync(c *cmdParser) (Command, *ParseError) {
	r, rest, perr := c.ref(c.args, len(c.args) > 1)
	if perr != nil {
		return nil, perr
	}
	return &UntilSync{Source: c.src, Object: r, Limits: c.limits()}, c.noMoreArgs(rest)
}

func parseStabilize(c *cmdParser) (Command, *ParseError) {
	return &Stabilize{Source: c.src, Limits: c.limits()}, c.noMoreArgs(c.args)
}

// --- Assertions --------------------------------------------------------------

func parseExpectPods(c *cmdParser) (Command, *ParseError) {
	return c.expectPods(c.args, false)
}

// expectPods parses the checks of expect [cache] pods.
func (c *cmdParser) expectPods(args []Token, cache bool) (Command, *ParseError) {
	cmd := &ExpectPods{Source: c.src, Cache: cache, Namespace: c.namespace(api.KindPod), Selector: labels.Everything()}
	if fv := c.flags["selector"]; fv != nil {
		cmd.Selector, cmd.SelectorText = fv.sel, fv.s
	}
	conds, perr := c.conds(args)
	if perr != nil {
		return nil, perr
	}
	hasCount := false
	seen := map[string]bool{}
	for _, k := range conds {
		if seen[k.key] {
			return nil, twice(k)
		}
		seen[k.key] = true
		if k.key == "count" {
			if cmd.Count, perr = numberCompare(k); perr != nil {
				return nil, perr
			}
			hasCount = true
			continue
		}
		if _, _, ok := lookupField(api.KindPod, k.key); !ok {
			keyTok := k.tok.slice(0, len(k.key))
			e := unknown(keyTok, "filter", k.key, append([]string{"count"}, fieldCandidates(api.KindPod, k.key)...), "")
			e.Hint = "filters are count, phase, ready, owner, terminating, node, restarts, or a pod field path (help fields)"
			return nil, e
		}
		fc, perr := c.fieldCheck(api.KindPod, k)
		if perr != nil {
			return nil, perr
		}
		cmd.Filters = append(cmd.Filters, fc)
	}
	if !hasCount {
		return nil, c.errEnd(c.spec.Name+" needs count=N", c.example())
	}
	return cmd, nil
}

func parseExpectObject(c *cmdParser) (Command, *ParseError) {
	return c.expectObject(false)
}

// expectForms are the words that may follow expect.
func expectForms() []string {
	var out []string
	for _, s := range table {
		if s.words[0] == "expect" && len(s.words) > 1 {
			out = append(out, s.words[1])
		}
	}
	return out
}

// expectObject parses expect [cache] KIND/NAME FIELD=VALUE...
func (c *cmdParser) expectObject(cache bool) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd(c.spec.Name+" needs what to check", "write "+c.spec.Name+" KIND/NAME FIELD=VALUE, or one of "+
			orList(expectForms()))
	}
	a := c.args[0]
	_, isKind := kindOf(a.Text)
	if !cache && !isKind && !strings.Contains(a.Text, "/") {
		e := unknown(a, "word", a.Text, expectForms(), "expect takes "+orList(expectForms())+", or KIND/NAME")
		e.Msg += " after expect"
		return nil, e
	}
	_, _, _, hasOp := splitCond(Token{Text: textOf(c.args, 1)})
	nameFollows := !strings.Contains(a.Text, "/") && len(c.args) > 1 && !hasOp
	r, rest, perr := c.ref(c.args, nameFollows)
	if perr != nil {
		return nil, perr
	}
	if perr := c.forbidFlag("selector", "is for expect cache pods; "+r.String()+" names one object"); perr != nil {
		return nil, perr
	}
	if len(rest) == 0 {
		return nil, c.errEnd(c.spec.Name+" "+r.String()+" needs FIELD=VALUE", c.example())
	}
	conds, perr := c.conds(rest)
	if perr != nil {
		return nil, perr
	}
	cmd := &ExpectObject{Source: c.src, Cache: cache, Object: r}
	for _, k := range conds {
		fc, perr := c.fieldCheck(r.Kind, k)
		if perr != nil {
			return nil, perr
		}
		cmd.Checks = append(cmd.Checks, fc)
	}
	return cmd, nil
}

// textOf returns the text of args[i], or "".
func textOf(args []Token, i int) string {
	if i < len(args) {
		return args[i].Text
	}
	return ""
}

func parseExpectCache(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd("expect cache needs pods or KIND/NAME", c.example())
	}
	if k, ok := kindOf(c.args[0].Text); ok && k == api.KindPod && (len(c.args) == 1 || strings.ContainsAny(c.args[1].Text, "=<>")) {
		return c.expectPods(c.args[1:], true)
	}
	return c.expectObject(true)
}

func parseExpectCondition(c *cmdParser) (Command, *ParseError) {
	_, _, _, hasOp := splitCond(Token{Text: textOf(c.args, 1)})
	r, rest, perr := c.ref(c.args, len(c.args) > 1 && !strings.Contains(c.args[0].Text, "/") && !hasOp)
	if perr != nil {
		return nil, perr
	}
	if len(rest) == 0 {
		return nil, c.errEnd("expect condition needs TYPE=STATUS", c.example())
	}
	conds, perr := c.conds(rest)
	if perr != nil {
		return nil, perr
	}
	var types []string
	for _, ct := range conditionTypes {
		if ct.kind == r.Kind {
			types = ct.types
		}
	}
	cmd := &ExpectCondition{Source: c.src, Object: r}
	first := conds[0]
	if !containsString(types, first.key) {
		return nil, unknown(first.tok.slice(0, len(first.key)), "condition type", first.key, types,
			resourcePlural(r.Kind)+" report "+orList(types))
	}
	cmd.Type = first.key
	if cmd.Status, perr = wordMatch(first); perr != nil {
		return nil, perr
	}
	if perr := checkEnum(first.val, "a condition's status", conditionStatuses); perr != nil {
		return nil, perr
	}
	for _, k := range conds[1:] {
		if k.key != "reason" {
			return nil, unknown(k.tok.slice(0, len(k.key)), "check", k.key, []string{"reason"}, "after TYPE=STATUS only reason=R may follow")
		}
		if cmd.Reason != nil {
			return nil, twice(k)
		}
		m, perr := wordMatch(k)
		if perr != nil {
			return nil, perr
		}
		cmd.Reason = &m
	}
	return cmd, nil
}

func parseExpectQueue(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd("expect queue needs a queue name: replicaset or replicationmanager", c.example())
	}
	q, kind, perr := queueName(c.args[0])
	if perr != nil {
		return nil, perr
	}
	cmd := &ExpectQueue{Source: c.src, Queue: q, Kind: kind}
	rest := c.args[1:]
	if len(rest) == 0 {
		return nil, c.errEnd("expect queue "+c.args[0].Text+" needs len=N or contains KEY", c.example())
	}
	a := rest[0]
	if a.Text == "contains" {
		if len(rest) < 2 {
			return nil, c.errEnd("contains needs a key: NAMESPACE/NAME", c.example())
		}
		kt := rest[1]
		key := kt.Text
		if !strings.Contains(key, "/") {
			key = api.Key(c.namespace(kind), key)
		}
		ns, name, err := api.SplitKey(key)
		if err != nil {
			return nil, errAt(kt, "bad key "+strconv.Quote(kt.Text)+": want NAMESPACE/NAME or NAME")
		}
		if p := labels.IsDNS1123Label(ns); len(p) > 0 {
			return nil, errAt(kt, "invalid namespace "+strconv.Quote(ns)+" in key: "+strings.Join(p, "; "))
		}
		if p := labels.IsDNS1123Subdomain(name); len(p) > 0 {
			return nil, errAt(kt, "invalid name "+strconv.Quote(name)+" in key: "+strings.Join(p, "; "))
		}
		cmd.Contains = key
		return cmd, c.noMoreArgs(rest[2:])
	}
	conds, perr := c.conds(rest[:1])
	if perr != nil {
		return nil, perr
	}
	if k := conds[0]; k.key != "len" {
		return nil, unknown(k.tok.slice(0, len(k.key)), "check", k.key, []string{"len", "contains"}, "expect queue checks len=N or contains KEY")
	}
	n, perr := numberCompare(conds[0])
	if perr != nil {
		return nil, perr
	}
	cmd.Len = &n
	return cmd, c.noMoreArgs(rest[1:])
}

// queueName reads a work queue's name, or the kind its manager syncs.
func queueName(t Token) (string, api.Kind, *ParseError) {
	var names []string
	for _, q := range queueTable {
		if t.Text == q.name {
			return q.name, q.kind, nil
		}
		names = append(names, q.name)
	}
	if k, ok := kindOf(t.Text); ok {
		for _, q := range queueTable {
			if q.kind == k {
				return q.name, q.kind, nil
			}
		}
	}
	return "", "", unknown(t, "queue", t.Text, append(names, "rs", "rc"), "the queues are "+orList(names)+" (or rs, rc)")
}

// ownerConds reads what expect expectations and expect syncs take: an
// owner (rs/NAME, or rs NAME), then conditions.
func (c *cmdParser) ownerConds() (Ref, []cond, *ParseError) {
	_, _, _, hasOp := splitCond(Token{Text: textOf(c.args, 1)})
	r, rest, perr := c.ref(c.args, len(c.args) > 1 && !strings.Contains(c.args[0].Text, "/") && !hasOp)
	if perr != nil {
		return Ref{}, nil, perr
	}
	conds, perr := c.conds(rest)
	return r, conds, perr
}

func parseExpectSyncs(c *cmdParser) (Command, *ParseError) {
	r, conds, perr := c.ownerConds()
	if perr != nil {
		return nil, perr
	}
	cmd := &ExpectSyncs{Source: c.src, Object: r}
	seen := false
	for _, k := range conds {
		if k.key != "count" {
			return nil, unknown(k.tok.slice(0, len(k.key)), "check", k.key, []string{"count"}, "expect syncs takes count")
		}
		if seen {
			return nil, twice(k)
		}
		n, perr := numberCompare(k)
		if perr != nil {
			return nil, perr
		}
		cmd.Count, seen = n, true
	}
	if !seen {
		return nil, c.errEnd("expect syncs needs count=N", c.example())
	}
	return cmd, nil
}

func parseExpectExpectations(c *cmdParser) (Command, *ParseError) {
	r, conds, perr := c.ownerConds()
	if perr != nil {
		return nil, perr
	}
	cmd := &ExpectExpectations{Source: c.src, Object: r}
	for _, k := range conds {
		switch k.key {
		case "add", "del":
			p := &cmd.Add
			if k.key == "del" {
				p = &cmd.Del
			}
			if *p != nil {
				return nil, twice(k)
			}
			n, perr := numberCompare(k)
			if perr != nil {
				return nil, perr
			}
			*p = &n
		case "satisfied":
			if cmd.Satisfied != nil {
				return nil, twice(k)
			}
			m, perr := wordMatch(k)
			if perr != nil {
				return nil, perr
			}
			if perr := checkEnum(k.val, "satisfied", []string{"true", "false"}); perr != nil {
				return nil, perr
			}
			b := (m.Value == "true") == (m.Op == OpEq)
			cmd.Satisfied = &b
		default:
			return nil, unknown(k.tok.slice(0, len(k.key)), "check", k.key, []string{"add", "del", "satisfied"},
				"expect expectations checks add, del and satisfied")
		}
	}
	if len(conds) == 0 {
		return nil, c.errEnd("expect expectations needs add=N, del=N or satisfied=true|false", c.example())
	}
	return cmd, nil
}

func parseExpectEvents(c *cmdParser) (Command, *ParseError) {
	conds, perr := c.conds(c.args)
	if perr != nil {
		return nil, perr
	}
	cmd := &ExpectEvents{Source: c.src, Namespace: c.namespace(api.KindEvent)}
	seen := map[string]bool{}
	for _, k := range conds {
		if seen[k.key] {
			return nil, twice(k)
		}
		seen[k.key] = true
		switch k.key {
		case "count", "total":
			n, perr := numberCompare(k)
			if perr != nil {
				return nil, perr
			}
			if k.key == "count" {
				cmd.Count = &n
			} else {
				cmd.Total = &n
			}
		case "reason":
			m, perr := wordMatch(k)
			if perr != nil {
				return nil, perr
			}
			cmd.Reason = &m
		case "type":
			m, perr := wordMatch(k)
			if perr != nil {
				return nil, perr
			}
			if perr := checkEnum(k.val, "type", []string{api.EventNormal, api.EventWarning}); perr != nil {
				return nil, perr
			}
			cmd.Type = &m
		case "object":
			if perr := onlyEq(k); perr != nil {
				return nil, perr
			}
			r, _, perr := c.refIn([]Token{k.val}, false, describeKinds)
			if perr != nil {
				return nil, perr
			}
			cmd.Object = &r
		default:
			return nil, unknown(k.tok.slice(0, len(k.key)), "check", k.key, []string{"reason", "object", "type", "count", "total"},
				"expect events takes reason, object, type, count and total")
		}
	}
	if cmd.Count == nil && cmd.Total == nil {
		return nil, c.errEnd("expect events needs count=N or total=N", c.example())
	}
	return cmd, nil
}

func parseExpectRequests(c *cmdParser) (Command, *ParseError) {
	conds, perr := c.conds(c.args)
	if perr != nil {
		return nil, perr
	}
	cmd := &ExpectRequests{Source: c.src}
	seen := map[string]bool{}
	hasCount := false
	for _, k := range conds {
		if seen[k.key] {
			return nil, twice(k)
		}
		seen[k.key] = true
		switch k.key {
		case "count":
			if cmd.Count, perr = numberCompare(k); perr != nil {
				return nil, perr
			}
			hasCount = true
		case "verb":
			if perr := onlyEq(k); perr != nil {
				return nil, perr
			}
			verbs := make([]string, len(apistore.Verbs))
			for i, v := range apistore.Verbs {
				verbs[i] = string(v)
			}
			if perr := checkEnum(k.val, "verb", verbs); perr != nil {
				return nil, perr
			}
			cmd.Verb = apistore.Verb(k.val.Text)
		case "resource":
			if perr := onlyEq(k); perr != nil {
				return nil, perr
			}
			_, _, res, perr := resource(k.val)
			if perr != nil {
				return nil, perr
			}
			cmd.Resource = res
		default:
			return nil, unknown(k.tok.slice(0, len(k.key)), "check", k.key, []string{"verb", "resource", "count"},
				"expect requests takes verb, resource and count")
		}
	}
	if !hasCount {
		return nil, c.errEnd("expect requests needs count=N", c.example())
	}
	return cmd, nil
}

// --- Reading -----------------------------------------------------------------

func parseGet(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd("get needs a kind: "+orList(shortNames(c.spec.kinds)), c.example())
	}
	cmd := &Get{Source: c.src, Selector: labels.Everything(), ShowLabels: c.boolFlag("show-labels")}
	if fv := c.flags["output"]; fv != nil {
		cmd.Output = fv.s
	}
	var rest []Token
	if strings.Contains(c.args[0].Text, "/") || len(c.args) > 1 {
		r, r2, perr := c.ref(c.args, true)
		if perr != nil {
			return nil, perr
		}
		if perr := c.forbidFlag("selector", "lists objects; "+r.String()+" names one already"); perr != nil {
			return nil, perr
		}
		cmd.Kind, cmd.Namespace, cmd.Name, rest = r.Kind, r.Namespace, r.Name, r2
	} else {
		k, perr := c.kind(c.args[0], c.args[0].Text)
		if perr != nil {
			return nil, perr
		}
		cmd.Kind, cmd.Namespace = k, c.namespace(k)
		if fv := c.flags["selector"]; fv != nil {
			cmd.Selector, cmd.SelectorText = fv.sel, fv.s
		}
	}
	return cmd, c.noMoreArgs(rest)
}

func parseDescribe(c *cmdParser) (Command, *ParseError) {
	r, rest, perr := c.ref(c.args, len(c.args) > 1)
	if perr != nil {
		return nil, perr
	}
	return &Describe{Source: c.src, Object: r}, c.noMoreArgs(rest)
}

func parseShow(c *cmdParser) (Command, *ParseError) {
	cmd := &Show{Source: c.src, What: c.spec.Name}
	if len(c.args) == 0 {
		return cmd, nil
	}
	a := c.args[0]
	switch cmd.What {
	case "queue":
		q, _, perr := queueName(a)
		if perr != nil {
			return nil, perr
		}
		cmd.Queue = q
	case "cache":
		k, perr := c.kind(a, a.Text)
		if perr != nil {
			return nil, perr
		}
		cmd.Kind = k
	case "agenda", "requests", "trace":
		n, perr := parseInt(a, cmd.What, 1, 1<<31-1)
		if perr != nil {
			return nil, perr
		}
		cmd.N = int(n)
	default:
		return nil, c.noMoreArgs(c.args)
	}
	return cmd, c.noMoreArgs(c.args[1:])
}

// helpTopics are the topics help explains besides the commands.
var helpTopics = []string{"kinds", "fields", "selectors"}

func parseHelp(c *cmdParser) (Command, *ParseError) {
	cmd := &Help{Source: c.src}
	if len(c.args) == 0 {
		return cmd, nil
	}
	a := c.args[0]
	if len(c.args) == 1 && (containsString(helpTopics, a.Text) || containsString(firstWords(), a.Text)) {
		cmd.Topic = a.Text
		return cmd, nil
	}
	if !containsString(firstWords(), a.Text) {
		return nil, unknown(a, "help topic", a.Text, slices.Concat(firstWords(), helpTopics), `"help" lists the commands`)
	}
	sp, n, perr := dispatch(c.args, c.line.End)
	if perr != nil {
		return nil, perr
	}
	cmd.Topic = sp.Name
	return cmd, c.noMoreArgs(c.args[n:])
}
