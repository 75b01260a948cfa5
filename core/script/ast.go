package script

import (
	"strconv"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
)

// This file holds the syntax tree's shared parts: where a command came from
// (Pos, Source), the Command interface and the Script, and the values many
// commands hold (Ref, Target, Pick, Compare, Match, FieldCheck, KeyValue).
// Each command's own type lives in its group's cmd_*.go file, next to its
// parse function and its run method.

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
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	_ incomparable

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

// Command is one parsed command: a pointer to one of the command types, each
// declared in its group's cmd_*.go file next to its parse function. Every
// field has been validated, so run only acts: Session.Run calls it, with the
// world built first unless the command needs none (worldless).
type Command interface {
	Src() Source
	// run carries the command out in a session.
	run(s *Session) error
}

// worldless is a command that runs before the world is built, or on its
// own: seed and config say what the world is built from, and help reads
// only the command table.
type worldless interface {
	Command
	worldless()
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
	_ incomparable

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
	_ incomparable

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
