package apistore

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
)

// fieldError is one validation problem, shaped like upstream's field.Error: a
// type, the path of the field, the offending value (already printed) and a
// detail. Printing the value when the error is built, rather than keeping an
// interface{}, keeps the store free of fmt on its hot paths and makes the
// output deterministic.
type fieldError struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	typ   CauseType
	field string
	// value is the bad value as upstream prints it: strings quoted, numbers bare,
	// composite values in Go syntax. It is only shown for the types whose message
	// includes a value (see body).
	value  string
	detail string
}

// body is the message without the field path (upstream's ErrorBody).
func (e fieldError) body() string {
	var s string
	switch e.typ {
	case CauseTypeFieldValueRequired:
		s = "Required value"
	case CauseTypeFieldValueForbidden:
		s = "Forbidden"
	case CauseTypeFieldValueTooLong:
		s = "Too long"
	case CauseTypeFieldValueInvalid:
		s = "Invalid value: " + e.value
	case CauseTypeFieldValueDuplicate:
		s = "Duplicate value: " + e.value
	case CauseTypeFieldValueNotSupported:
		s = "Unsupported value: " + e.value
	default:
		s = string(e.typ)
	}
	if e.detail != "" {
		s += ": " + e.detail
	}
	return s
}

// String is "field: body", as upstream's field.Error prints.
func (e fieldError) String() string { return e.field + ": " + e.body() }

// fieldErrors collects the problems of one request, in the order found.
type fieldErrors []fieldError

// aggregate joins the messages as upstream's ErrorList.ToAggregate().Error()
// does: one message alone, several in brackets separated by ", ", duplicates
// dropped.
func (errs fieldErrors) aggregate() string {
	switch len(errs) {
	case 0:
		return ""
	case 1:
		return errs[0].String()
	}
	msgs := make([]string, 0, len(errs))
	for _, e := range errs {
		m := e.String()
		if !slices.Contains(msgs, m) {
			msgs = append(msgs, m)
		}
	}
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

func required(field, detail string) fieldError {
	return fieldError{typ: CauseTypeFieldValueRequired, field: field, detail: detail}
}

func forbidden(field, detail string) fieldError {
	return fieldError{typ: CauseTypeFieldValueForbidden, field: field, detail: detail}
}

// invalid reports a bad value; value must already be printed (see the show*
// helpers).
func invalid(field, value, detail string) fieldError {
	return fieldError{typ: CauseTypeFieldValueInvalid, field: field, value: value, detail: detail}
}

func invalidString(field, value, detail string) fieldError {
	return invalid(field, strconv.Quote(value), detail)
}

func duplicate(field, value string) fieldError {
	return fieldError{typ: CauseTypeFieldValueDuplicate, field: field, value: strconv.Quote(value)}
}

// notSupported lists the accepted values as upstream does:
// `Unsupported value: "Never": supported values: "Always"`.
func notSupported(field, value string, supported ...string) fieldError {
	quoted := make([]string, len(supported))
	for i, s := range supported {
		quoted[i] = strconv.Quote(s)
	}
	return fieldError{
		typ: CauseTypeFieldValueNotSupported, field: field, value: strconv.Quote(value),
		detail: "supported values: " + strings.Join(quoted, ", "),
	}
}

// The show* helpers print composite values the way upstream's field errors do
// (Go's %#v), so that messages read like a real cluster's. One difference is
// deliberate: %#v prints the address of a *bool, which changes from run to run;
// these print the value the pointer points to, as (*bool)(true), so that runs
// stay reproducible.

// showStringMap prints map[string]string{"a":"b", "c":"d"}, keys in order.
func showStringMap(m map[string]string) string {
	if m == nil {
		return "map[string]string(nil)"
	}
	var b strings.Builder
	b.WriteString("map[string]string{")
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(k))
		b.WriteByte(':')
		b.WriteString(strconv.Quote(m[k]))
	}
	b.WriteByte('}')
	return b.String()
}

func showStrings(s []string) string {
	if s == nil {
		return "[]string(nil)"
	}
	quoted := make([]string, len(s))
	for i, v := range s {
		quoted[i] = strconv.Quote(v)
	}
	return "[]string{" + strings.Join(quoted, ", ") + "}"
}

func showBoolPtr(p *bool) string {
	if p == nil {
		return "(*bool)(nil)"
	}
	return "(*bool)(" + strconv.FormatBool(*p) + ")"
}

func showOwnerReference(r api.OwnerReference) string {
	return "v1.OwnerReference{APIVersion:" + strconv.Quote(r.APIVersion) +
		", Kind:" + strconv.Quote(r.Kind) +
		", Name:" + strconv.Quote(r.Name) +
		", UID:" + strconv.Quote(r.UID) +
		", Controller:" + showBoolPtr(r.Controller) +
		", BlockOwnerDeletion:" + showBoolPtr(r.BlockOwnerDeletion) + "}"
}

func showOwnerReferences(refs []api.OwnerReference) string {
	if refs == nil {
		return "[]v1.OwnerReference(nil)"
	}
	parts := make([]string, len(refs))
	for i, r := range refs {
		parts[i] = showOwnerReference(r)
	}
	return "[]v1.OwnerReference{" + strings.Join(parts, ", ") + "}"
}

// showLabelSelector prints a selector the way upstream prints the *LabelSelector
// it was given (dereferenced): v1.LabelSelector{MatchLabels:..., MatchExpressions:...}.
func showLabelSelector(s *api.LabelSelector) string {
	if s == nil {
		return "null"
	}
	var b strings.Builder
	b.WriteString("v1.LabelSelector{MatchLabels:")
	b.WriteString(showStringMap(s.MatchLabels))
	b.WriteString(", MatchExpressions:")
	if s.MatchExpressions == nil {
		b.WriteString("[]v1.LabelSelectorRequirement(nil)")
	} else {
		b.WriteString("[]v1.LabelSelectorRequirement{")
		for i, r := range s.MatchExpressions {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("v1.LabelSelectorRequirement{Key:")
			b.WriteString(strconv.Quote(r.Key))
			b.WriteString(", Operator:")
			b.WriteString(strconv.Quote(r.Operator))
			b.WriteString(", Values:")
			b.WriteString(showStrings(r.Values))
			b.WriteByte('}')
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return b.String()
}

func showInt(v int64) string { return strconv.FormatInt(v, 10) }
