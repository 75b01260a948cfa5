package labels

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// Operator relates a requirement's key to its values. The spellings are those of
// k8s.io/apimachinery/pkg/selection, so an Operator converts to upstream's type and
// back with a plain conversion.
type Operator string

// The operators a Requirement may use.
const (
	// Exists matches a set that has the key, whatever its value (even "").
	Exists Operator = "exists"
	// DoesNotExist matches a set that lacks the key; it is written "!key".
	DoesNotExist Operator = "!"
	// Equals matches a set whose value for the key is the one value; "key=value".
	Equals Operator = "="
	// DoubleEquals is another spelling of Equals; "key==value".
	DoubleEquals Operator = "=="
	// NotEquals matches a set whose value for the key differs from the one value,
	// and also a set that lacks the key; "key!=value".
	NotEquals Operator = "!="
	// In matches a set whose value for the key is one of the values;
	// "key in (a,b)".
	In Operator = "in"
	// NotIn matches a set whose value for the key is none of the values, and also
	// a set that lacks the key; "key notin (a,b)".
	NotIn Operator = "notin"
	// GreaterThan matches a set whose value for the key, read as a base-10 int64,
	// is greater than the one value; "key>5". It is spelled "gt" as upstream's.
	GreaterThan Operator = "gt"
	// LessThan is GreaterThan's mirror; "key<5", spelled "lt".
	LessThan Operator = "lt"
)

// supportedOperators lists the operators in the order upstream names them when it
// rejects an unknown one.
var supportedOperators = []Operator{In, NotIn, Equals, DoubleEquals, NotEquals, GreaterThan, LessThan, Exists, DoesNotExist}

// opcode is an Operator as a small number, so that matching tests a byte and a
// Requirement stays small. The opcodes come in three runs, the classes of
// matchRank, so that matching can tell the classes apart with one comparison:
// those that demand one of their values, those that demand the key, and the
// negative ones. The zero opcode is the zero Requirement's; matching treats it as
// one of the first run and, as it has no values, it matches nothing, as upstream's
// zero Requirement does.
type opcode uint8

const (
	opInvalid opcode = iota

	// The key must be present with one of the values.
	opEquals
	opDoubleEquals
	opIn

	// The key must be present.
	opExists
	opGreaterThan
	opLessThan

	// The key must be absent, or present with none of the values.
	opNotEquals
	opNotIn
	opDoesNotExist
)

func (op Operator) code() opcode {
	switch op {
	case Exists:
		return opExists
	case DoesNotExist:
		return opDoesNotExist
	case Equals:
		return opEquals
	case DoubleEquals:
		return opDoubleEquals
	case NotEquals:
		return opNotEquals
	case In:
		return opIn
	case NotIn:
		return opNotIn
	case GreaterThan:
		return opGreaterThan
	case LessThan:
		return opLessThan
	}
	return opInvalid
}

func (c opcode) operator() Operator {
	switch c {
	case opExists:
		return Exists
	case opDoesNotExist:
		return DoesNotExist
	case opEquals:
		return Equals
	case opDoubleEquals:
		return DoubleEquals
	case opNotEquals:
		return NotEquals
	case opIn:
		return In
	case opNotIn:
		return NotIn
	case opGreaterThan:
		return GreaterThan
	case opLessThan:
		return LessThan
	}
	return ""
}

// Requirement is one condition of a selector: a key, an operator, and the values
// the operator compares with. Requirements are values: build them with
// NewRequirement or Parse, copy them freely, never change them.
//
// The zero Requirement is invalid: it matches no set and prints as "".
type Requirement struct {
	key string

	// values is sorted and holds no duplicates. It is empty for Exists and
	// DoesNotExist, holds one value for the equality and comparison operators, and
	// at least one for In and NotIn. It may share its backing array with the other
	// requirements of a selector, and is never written after construction.
	values []string

	// bound is values[0] read as an integer, for GreaterThan and LessThan, so that
	// matching does not parse it again for every set.
	bound int64

	op opcode
}

// NewRequirement builds a requirement and checks it as upstream's NewRequirement
// does:
//   - the key must be a valid label key (see IsQualifiedName);
//   - In and NotIn need at least one value; Equals, DoubleEquals and NotEquals
//     exactly one; Exists and DoesNotExist none;
//   - GreaterThan and LessThan need exactly one value, a base-10 integer that fits
//     in an int64;
//   - every value must be a valid label value (see IsValidLabelValue), and the
//     empty string is one;
//   - any other operator is rejected.
//
// The values are copied, sorted and de-duplicated; the caller's slice is not kept.
// The error, when there is one, lists every rule the requirement broke.
func NewRequirement(key string, op Operator, values []string) (Requirement, error) {
	if problems := requirementProblems(key, op, values); problems != nil {
		return Requirement{}, problemsError(problems)
	}
	return makeRequirement(key, op.code(), slices.Clone(values)), nil
}

// makeRequirement assembles a requirement that has passed requirementProblems. It
// takes ownership of values: it sorts and compacts them in place.
func makeRequirement(key string, op opcode, values []string) Requirement {
	if len(values) > 1 && !slices.IsSorted(values) {
		slices.Sort(values)
	}
	values = slices.Compact(values)
	r := Requirement{key: key, op: op}
	if len(values) > 0 {
		// Clipped, so that no append through r.values can write past its end.
		r.values = values[:len(values):len(values)]
	}
	if op == opGreaterThan || op == opLessThan {
		r.bound, _ = parseInt64(values[0])
	}
	return r
}

// requirementProblems returns what is wrong with a would-be requirement, in the
// shape of upstream's field errors, or nil. It allocates only when something is
// wrong, because Parse calls it for every requirement it reads.
func requirementProblems(key string, op Operator, values []string) []string {
	var problems []string
	if p := keyProblem(key); p != "" {
		problems = append(problems, p)
	}
	return valueProblems(key, op, values, problems)
}

// keyProblem describes what is wrong with a requirement's key, or returns "".
func keyProblem(key string) string {
	if p := IsQualifiedName(key); p != nil {
		return invalidValue("key", key, strings.Join(p, "; "))
	}
	return ""
}

// valueProblems appends to problems what is wrong with a requirement's operator
// and values, and returns the list, nil when all is well.
func valueProblems(key string, op Operator, values []string, problems []string) []string {
	switch op.code() {
	case opIn, opNotIn:
		if len(values) == 0 {
			problems = append(problems, "values: Invalid value: "+quoteList(values)+": for 'in', 'notin' operators, values set can't be empty")
		}
	case opEquals, opDoubleEquals, opNotEquals:
		if len(values) != 1 {
			problems = append(problems, "values: Invalid value: "+quoteList(values)+": exact-match compatibility requires one single value")
		}
	case opExists, opDoesNotExist:
		if len(values) != 0 {
			problems = append(problems, "values: Invalid value: "+quoteList(values)+": values set must be empty for exists and does not exist")
		}
	case opGreaterThan, opLessThan:
		if len(values) != 1 {
			problems = append(problems, "values: Invalid value: "+quoteList(values)+": for 'Gt', 'Lt' operators, exactly one value is required")
		}
		for i, v := range values {
			if _, ok := parseInt64(v); !ok {
				problems = append(problems, invalidValue(valuePath(i, ""), v, "for 'Gt', 'Lt' operators, the value must be an integer"))
			}
		}
	default:
		supported := make([]string, len(supportedOperators))
		for i, s := range supportedOperators {
			supported[i] = strconv.Quote(string(s))
		}
		problems = append(problems, "operator: Unsupported value: "+strconv.Quote(string(op))+": supported values: "+strings.Join(supported, ", "))
	}
	for i, v := range values {
		if p := IsValidLabelValue(v); p != nil {
			problems = append(problems, invalidValue(valuePath(i, key), v, strings.Join(p, "; ")))
		}
	}
	return problems
}

// Key returns the label key the requirement tests.
func (r Requirement) Key() string { return r.key }

// Operator returns how the requirement compares; "" for the zero Requirement.
func (r Requirement) Operator() Operator { return r.op.operator() }

// Values returns a copy of the requirement's values, sorted and de-duplicated.
func (r Requirement) Values() []string { return slices.Clone(r.values) }

// Matches reports whether the label set satisfies the requirement. A missing key
// satisfies NotIn, NotEquals and DoesNotExist, and nothing else.
func (r Requirement) Matches(labels Set) bool {
	one := [1]Requirement{r}
	return matchesAll(one[:], labels)
}

// matchesAll reports whether the label set satisfies every requirement: the one
// implementation of matching, behind both Requirement.Matches and
// Selector.Matches. It makes one map lookup per requirement (upstream makes two
// for a present key: Has, then Get), stops at the first requirement that fails,
// and allocates nothing. The map lookups are most of its cost; the rest is kept
// small by deciding the common operators in the loop itself, by opcode class
// (see opcode), and only the numeric ones, rare and slower anyway, out of line.
func matchesAll(requirements []Requirement, labels Set) bool {
	for i := range requirements {
		r := &requirements[i]
		value, present := labels[r.key]
		switch {
		case r.op <= opIn: // =, ==, in, and the zero Requirement
			if !present || !r.hasValue(value) {
				return false
			}
		case r.op >= opNotEquals: // !=, notin, !key
			if present && (r.op == opDoesNotExist || r.hasValue(value)) {
				return false
			}
		case r.op == opExists:
			if !present {
				return false
			}
		default:
			if !r.compares(value, present) {
				return false
			}
		}
	}
	return true
}

// hasValue reports whether value is one of the requirement's values. Value lists
// are short, one value nearly always, where a linear scan beats a binary search;
// it is also what upstream does, so long lists cost what they cost upstream.
func (r *Requirement) hasValue(value string) bool {
	for _, v := range r.values {
		if sameString(v, value) {
			return true
		}
	}
	return false
}

// sameString is a == b, faster for short strings. Go compares strings of equal
// length by calling the runtime's memequal, and for the handful of bytes of a
// typical label value the call costs more than the comparison; comparing short
// strings in line made matching the benchmark corpus about a tenth faster. Long
// strings still go to memequal, whose wide loads win there.
func sameString(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) > 16 {
		return a == b
	}
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// compares decides GreaterThan and LessThan. It allocates nothing, even for a
// value that is not a number.
func (r *Requirement) compares(value string, present bool) bool {
	if !present {
		return false
	}
	n, ok := parseInt64(value)
	switch r.op {
	case opGreaterThan:
		return ok && n > r.bound
	case opLessThan:
		return ok && n < r.bound
	}
	return false
}

// String writes the requirement in selector syntax, as upstream does:
// "key", "!key", "key=v", "key==v", "key!=v", "key>v", "key<v",
// "key in (a,b)", "key notin (a,b)". The zero Requirement prints as "".
func (r Requirement) String() string {
	var b strings.Builder
	b.Grow(r.stringLen())
	r.writeTo(&b)
	return b.String()
}

// stringLen is the length of String, so that callers can size a buffer once.
func (r *Requirement) stringLen() int {
	n := len(r.key)
	switch r.op {
	case opInvalid:
		return 0
	case opExists:
	case opDoesNotExist, opEquals, opGreaterThan, opLessThan:
		n++
	case opDoubleEquals, opNotEquals:
		n += 2
	case opIn:
		n += len(" in ()")
	case opNotIn:
		n += len(" notin ()")
	}
	for i, v := range r.values {
		if i > 0 {
			n++
		}
		n += len(v)
	}
	return n
}

func (r *Requirement) writeTo(b *strings.Builder) {
	var infix, suffix string
	switch r.op {
	case opInvalid:
		return
	case opExists:
		b.WriteString(r.key)
		return
	case opDoesNotExist:
		b.WriteString("!")
		b.WriteString(r.key)
		return
	case opEquals:
		infix = "="
	case opDoubleEquals:
		infix = "=="
	case opNotEquals:
		infix = "!="
	case opGreaterThan:
		infix = ">"
	case opLessThan:
		infix = "<"
	case opIn:
		infix, suffix = " in (", ")"
	case opNotIn:
		infix, suffix = " notin (", ")"
	}
	b.WriteString(r.key)
	b.WriteString(infix)
	for i, v := range r.values {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(v)
	}
	b.WriteString(suffix)
}

// parseInt64 reads s as strconv.ParseInt(s, 10, 64) does (an optional sign, then
// one or more decimal digits, within the int64 range) and reports whether it
// could. It exists because strconv allocates an error for every label value that
// is not a number, and matching must not allocate.
func parseInt64(s string) (int64, bool) {
	negative := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		negative = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return 0, false
	}
	// The magnitude is gathered as a uint64, whose range holds both int64 limits.
	var magnitude uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if magnitude > (1<<63)/10 {
			return 0, false
		}
		magnitude = magnitude*10 + uint64(c-'0')
		if magnitude > 1<<63 {
			return 0, false
		}
	}
	if negative {
		return -int64(magnitude), true // 1<<63 wraps to math.MinInt64, as it should
	}
	if magnitude > 1<<63-1 {
		return 0, false
	}
	return int64(magnitude), true
}

// valuePath names the i-th value in an error as upstream does: "values[i]", and
// "values[i][key]" when the problem is the value's own format.
func valuePath(i int, key string) string {
	path := "values[" + strconv.Itoa(i) + "]"
	if key != "" {
		path += "[" + key + "]"
	}
	return path
}

// quoteList prints a value list for an error message: ["a", "b"].
func quoteList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = strconv.Quote(v)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// problemsError turns a list of problems into one error, printed as upstream
// prints an aggregate: the problem itself when there is one, "[a, b]" otherwise.
func problemsError(problems []string) error {
	if len(problems) == 1 {
		return errors.New(problems[0])
	}
	return errors.New("[" + strings.Join(problems, ", ") + "]")
}
