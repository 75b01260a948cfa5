package labels

import (
	"maps"
	"slices"
	"strings"

	"github.com/reconcilelab/rlab/core/sorting"
)

// Set is a map of labels, as an object's metadata.labels holds them. A plain
// map[string]string can be passed wherever a Set is asked for.
type Set map[string]string

// String writes the set as "key=value" pairs in key order, joined by commas: the
// form a selector that requires exactly this set would print.
func (s Set) String() string {
	var b strings.Builder
	for i, key := range slices.Sorted(maps.Keys(s)) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(key)
		b.WriteByte('=')
		b.WriteString(s[key])
	}
	return b.String()
}

// Selector picks label sets: it matches a set when every one of its requirements
// does. It is a small immutable value; copy it freely, and share it between
// readers.
//
// The zero Selector has no requirements and matches every set, like Everything()
// and like upstream's NewSelector(). A selector that matches no set at all is not
// the absence of requirements, so it must be asked for by name: Nothing().
type Selector struct {
	// requirements is sorted by key; requirements that share a key are in the
	// order upstream's sort leaves them (see sortByKey). Its backing array is never
	// written after construction, so copies of a Selector may share it.
	requirements []Requirement

	// plan holds the same requirements in the order Matches tests them: those
	// that demand a value first, then those that demand a key, then the negative
	// ones (see matchRank). It is requirements itself when that order already
	// holds, as it does for most selectors.
	plan []Requirement

	// nothing marks Nothing(): a selector that matches no set. When it is set,
	// requirements is empty.
	nothing bool
}

// Everything returns the selector with no requirements, which matches every set.
// It is what an empty string parses to, and what a non-nil but empty
// api.LabelSelector converts to.
func Everything() Selector { return Selector{} }

// Nothing returns the selector that matches no set. It is what a nil
// *api.LabelSelector converts to. It prints as the empty string, as upstream's
// does, and adding requirements to it leaves it matching nothing.
func Nothing() Selector { return Selector{nothing: true} }

// Matches reports whether the label set satisfies every requirement. It tests the
// requirements most likely to fail first, looks up one key per requirement, stops
// at the first one that fails, and allocates nothing.
func (s Selector) Matches(labels Set) bool {
	if s.nothing {
		return false
	}
	return matchesAll(s.plan, labels)
}

// Empty reports whether the selector restricts nothing, i.e. matches every set.
// Nothing() is not empty: it restricts everything.
func (s Selector) Empty() bool {
	return !s.nothing && len(s.requirements) == 0
}

// Requirements returns a copy of the selector's requirements, sorted by key, and
// whether the selector can select anything at all: it is false only for
// Nothing(), as in upstream's Selector.Requirements.
func (s Selector) Requirements() (requirements []Requirement, selectable bool) {
	if s.nothing {
		return nil, false
	}
	return slices.Clone(s.requirements), true
}

// Add returns a selector that also demands the given requirements; s itself is
// unchanged. The requirements are kept sorted by key. Adding to Nothing() gives
// Nothing().
func (s Selector) Add(requirements ...Requirement) Selector {
	if s.nothing {
		return s
	}
	all := make([]Requirement, 0, len(s.requirements)+len(requirements))
	all = append(all, s.requirements...)
	all = append(all, requirements...)
	sortByKey(all)
	return withPlan(all, nil)
}

// RequiresExactMatch reports whether the selector pins key to one value, and
// which: true when the first requirement on key is "=", "==" or "in" with a
// single value. Informer indexes use this to find candidates without scanning.
func (s Selector) RequiresExactMatch(key string) (value string, found bool) {
	for i := range s.requirements {
		r := &s.requirements[i]
		if r.key != key {
			continue
		}
		switch r.op {
		case opEquals, opDoubleEquals, opIn:
			if len(r.values) == 1 {
				return r.values[0], true
			}
		}
		return "", false
	}
	return "", false
}

// ImpliesSet reports whether every label set the selector matches contains all
// of set: whether each label of set is pinned to its value by the selector (see
// RequiresExactMatch). It is true for an empty set, and false for Nothing(),
// which matches no set to vouch for. Callers that hold sets known to match the
// selector use it to skip matching each of them against set as well: the
// replication manager counts a ReplicaSet's fully labeled pods this way, once
// per sync instead of once per pod. It looks up one key of set per requirement.
func (s Selector) ImpliesSet(set Set) bool {
	if s.nothing {
		return false
	}
	// Requirements are sorted by key, so a key pinned by several of them
	// is counted once, at the first that pins it.
	pinned, last := 0, ""
	for i := range s.requirements {
		r := &s.requirements[i]
		if (pinned > 0 && r.key == last) || len(r.values) != 1 {
			continue
		}
		switch r.op {
		case opEquals, opDoubleEquals, opIn:
			if v, ok := set[r.key]; ok && v == r.values[0] {
				pinned, last = pinned+1, r.key
			}
		}
	}
	// Each pinned key is a distinct key of set; all of set is pinned when
	// they are as many as its labels.
	return pinned == len(set)
}

// String writes the selector in the syntax Parse reads, with requirements in key
// order: "x in (abc,def),y notin (jkl),!z". Parsing what it writes gives back the
// same requirements. Everything() and Nothing() both print as "", as upstream's
// do, so the text alone cannot tell them apart.
func (s Selector) String() string {
	if len(s.requirements) == 0 {
		return ""
	}
	size := len(s.requirements) - 1
	for i := range s.requirements {
		size += s.requirements[i].stringLen()
	}
	var b strings.Builder
	b.Grow(size)
	for i := range s.requirements {
		if i > 0 {
			b.WriteByte(',')
		}
		s.requirements[i].writeTo(&b)
	}
	return b.String()
}

// SelectorFromSet returns the selector that matches every set containing all of
// labels: one "key=value" requirement per label, in key order. Like upstream's
// current SelectorFromSet it does not validate, so a selector built from bad labels
// only fails later, where the API server checks it; use ValidatedSelectorFromSet to
// fail early. A nil or empty set gives Everything().
func SelectorFromSet(labels Set) Selector {
	if len(labels) == 0 {
		return Everything()
	}
	keys := slices.Sorted(maps.Keys(labels))
	requirements := make([]Requirement, len(keys))
	values := make([]string, len(keys))
	for i, key := range keys {
		values[i] = labels[key]
		requirements[i] = Requirement{key: key, op: opEquals, values: values[i : i+1 : i+1]}
	}
	return Selector{requirements: requirements, plan: requirements}
}

// ValidatedSelectorFromSet is SelectorFromSet for labels that may be invalid: it
// returns an error naming the first bad key or value, in key order.
func ValidatedSelectorFromSet(labels Set) (Selector, error) {
	for _, key := range slices.Sorted(maps.Keys(labels)) {
		if problems := requirementProblems(key, Equals, []string{labels[key]}); problems != nil {
			return Selector{}, problemsError(problems)
		}
	}
	return SelectorFromSet(labels), nil
}

// builder assembles a selector from requirements whose values it holds in one
// list, so that however many requirements a selector has, building it costs two
// allocations: one for the requirements (in key order and, when it differs, in
// match order) and one for all their values. Until then everything lives inside
// the builder itself, which its user keeps on the stack, and is sorted there.
type builder struct {
	// pending holds the requirements added so far, in the order they were added.
	pending scratch[pendingRequirement]

	// values holds the values of every pending requirement, each requirement's as
	// one segment, sorted and without repeats.
	values scratch[string]
}

// pendingRequirement is a requirement whose values are the segment
// values[start:end] of its builder.
type pendingRequirement struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	key        string
	start, end int
	op         opcode
}

// add records a requirement whose values are the builder's values from start
// on, which the caller has appended, checked, sorted and de-duplicated.
func (b *builder) add(key string, op opcode, start int) {
	b.pending.push(pendingRequirement{key: key, start: start, end: b.values.len(), op: op})
}

// selector sorts the pending requirements by key and copies them, with their
// values, to the heap.
func (b *builder) selector() Selector {
	pending := b.pending.items()
	if len(pending) == 0 {
		return Everything()
	}
	// The same pattern-defeating quicksort as upstream's sort.Sort, so that
	// requirements sharing a key end up in upstream's order (see sortByKey).
	sorting.Func(pending, func(x, y pendingRequirement) int {
		return strings.Compare(x.key, y.key)
	})
	var values []string
	if b.values.len() > 0 {
		values = slices.Clone(b.values.items())
	}
	// When the match order differs from key order, one allocation holds both.
	n := len(pending)
	size := n
	for i := 1; i < n; i++ {
		if matchRank(pending[i].op) < matchRank(pending[i-1].op) {
			size = 2 * n
			break
		}
	}
	all := make([]Requirement, size)
	requirements := all[:n:n]
	for i, p := range pending {
		r := &requirements[i]
		r.key, r.op = p.key, p.op
		if p.end > p.start {
			r.values = values[p.start:p.end:p.end]
		}
		if p.op == opGreaterThan || p.op == opLessThan {
			r.bound, _ = parseInt64(r.values[0])
		}
	}
	return withPlan(requirements, all[n:])
}

// withPlan makes a selector of requirements sorted by key, working out the order
// Matches should test them in. The plan goes into spare when it is long enough,
// and into a new slice otherwise, and is requirements itself when key order will
// do.
func withPlan(requirements, spare []Requirement) Selector {
	s := Selector{requirements: requirements, plan: requirements}
	if slices.IsSortedFunc(requirements, func(a, b Requirement) int { return matchRank(a.op) - matchRank(b.op) }) {
		return s
	}
	if len(spare) < len(requirements) {
		spare = make([]Requirement, len(requirements))
	}
	plan := spare[:0:len(requirements)]
	for rank := range 3 {
		for _, r := range requirements {
			if matchRank(r.op) == rank {
				plan = append(plan, r)
			}
		}
	}
	s.plan = plan
	return s
}

// matchRank orders requirements for matching so that the ones most likely to
// reject a set are tested first, and a set that fails is given up on after as few
// map lookups as possible. A requirement that demands a particular value (=, ==,
// in) rejects every set without the key and most sets with it; one that demands
// the key (exists, >, <) rejects sets without it; a negative one (!=, notin,
// !key) passes every set without the key, which is most sets. The order changes
// nothing but speed: a selector matches when all its requirements do.
func matchRank(op opcode) int {
	switch {
	case op == opInvalid:
		return 1 // matches nothing, and no faster than any other
	case op <= opIn:
		return 0
	case op >= opNotEquals:
		return 2
	}
	return 1
}

// scratch is an append-only list that keeps its first elements inside itself,
// so that a builder on the stack needs no heap memory for typical selectors.
// Once the inline array is full, everything moves to one growing heap slice.
type scratch[T any] struct {
	inline [8]T
	spill  []T // nil until the inline array overflows; then it holds every element
	n      int
}

func (s *scratch[T]) push(v T) {
	if s.spill == nil && s.n < len(s.inline) {
		s.inline[s.n] = v
		s.n++
		return
	}
	if s.spill == nil {
		s.spill = append(make([]T, 0, 4*len(s.inline)), s.inline[:s.n]...)
	}
	s.spill = append(s.spill, v)
	s.n++
}

func (s *scratch[T]) len() int { return s.n }

// items returns the elements in place; the slice is valid until the next push.
func (s *scratch[T]) items() []T {
	if s.spill != nil {
		return s.spill
	}
	return s.inline[:s.n]
}

// truncate drops the elements from n on.
func (s *scratch[T]) truncate(n int) {
	s.n = n
	if s.spill != nil {
		s.spill = s.spill[:n]
	}
}

// sortByKey orders requirements by key. It uses the same pattern-defeating
// quicksort as upstream's sort.Sort, so that requirements sharing a key end up in
// the same order as upstream puts them, and String agrees with upstream even then.
// (Up to twelve requirements that order is simply the given one.)
func sortByKey(requirements []Requirement) {
	sorting.Func(requirements, func(a, b Requirement) int {
		return strings.Compare(a.key, b.key)
	})
}
