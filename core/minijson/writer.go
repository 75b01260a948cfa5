package minijson

import (
	"maps"
	"slices"
	"strconv"
)

// An Encoder writes itself as one JSON value, usually an object listing its
// fields in order, one line each (see the package documentation).
type Encoder interface {
	EncodeJSON(w *Writer)
}

// Writer appends compact JSON to a buffer. It puts the commas and colons
// where they belong, so an encoder only says what to write: an object's
// members with the methods named after their types (String, OptString, …),
// nested objects and lists with the functions Object, OptObject, List and
// OptList, and anything else with Key and the value methods.
//
// The methods whose names start with Opt leave the member out when its value
// is empty ("", 0, false, an empty list or map), as the omitempty option of
// encoding/json does; the others always write it, a nil list or map as
// null, as encoding/json does.
type Writer struct {
	buf []byte
	// comma says a value has been written at the current level, so the next
	// member or element needs a comma before it.
	comma bool
}

// Bytes returns what has been written. The slice aliases the Writer's
// buffer until the next write.
func (w *Writer) Bytes() []byte { return w.buf }

// Reset empties the Writer, keeping its buffer.
func (w *Writer) Reset() { w.buf, w.comma = w.buf[:0], false }

// value starts a value: a comma before it if one came before it at this
// level.
func (w *Writer) value() {
	if w.comma {
		w.buf = append(w.buf, ',')
	}
	w.comma = true
}

// Key starts a member of the current object: the value written next is the
// member's.
func (w *Writer) Key(k string) {
	w.value()
	w.buf = AppendString(w.buf, k)
	w.buf = append(w.buf, ':')
	w.comma = false
}

// BeginObject and EndObject write the braces of an object, BeginArray and
// EndArray the brackets of an array.
func (w *Writer) BeginObject() { w.value(); w.buf = append(w.buf, '{'); w.comma = false }
func (w *Writer) EndObject()   { w.buf = append(w.buf, '}'); w.comma = true }
func (w *Writer) BeginArray()  { w.value(); w.buf = append(w.buf, '['); w.comma = false }
func (w *Writer) EndArray()    { w.buf = append(w.buf, ']'); w.comma = true }

// StringValue, IntValue, UintValue, BoolValue and Null write one value: an
// array's element, or a member's after Key.
func (w *Writer) StringValue(v string) { w.value(); w.buf = AppendString(w.buf, v) }
func (w *Writer) IntValue(v int64)     { w.value(); w.buf = strconv.AppendInt(w.buf, v, 10) }
func (w *Writer) UintValue(v uint64)   { w.value(); w.buf = strconv.AppendUint(w.buf, v, 10) }
func (w *Writer) BoolValue(v bool)     { w.value(); w.buf = strconv.AppendBool(w.buf, v) }
func (w *Writer) Null()                { w.value(); w.buf = append(w.buf, "null"...) }

// String writes the member k: v.
func (w *Writer) String(k, v string) { w.Key(k); w.StringValue(v) }

// OptString writes the member k: v unless v is "".
func (w *Writer) OptString(k, v string) {
	if v != "" {
		w.String(k, v)
	}
}

// Int writes the member k: v.
func (w *Writer) Int(k string, v int64) { w.Key(k); w.IntValue(v) }

// OptInt writes the member k: v unless v is 0.
func (w *Writer) OptInt(k string, v int64) {
	if v != 0 {
		w.Int(k, v)
	}
}

// Uint writes the member k: v.
func (w *Writer) Uint(k string, v uint64) { w.Key(k); w.UintValue(v) }

// OptUint writes the member k: v unless v is 0.
func (w *Writer) OptUint(k string, v uint64) {
	if v != 0 {
		w.Uint(k, v)
	}
}

// Bool writes the member k: v.
func (w *Writer) Bool(k string, v bool) { w.Key(k); w.BoolValue(v) }

// OptBool writes the member k: true, or nothing when v is false.
func (w *Writer) OptBool(k string, v bool) {
	if v {
		w.Bool(k, v)
	}
}

// Strings writes the member k: an array of v's strings, or null when v is
// nil.
func (w *Writer) Strings(k string, v []string) {
	w.Key(k)
	if v == nil {
		w.Null()
		return
	}
	w.BeginArray()
	for _, s := range v {
		w.StringValue(s)
	}
	w.EndArray()
}

// OptStrings writes the member k: v's strings, unless v is empty.
func (w *Writer) OptStrings(k string, v []string) {
	if len(v) > 0 {
		w.Strings(k, v)
	}
}

// StringMap writes the member k: an object of m's entries with the keys in
// sorted order, as encoding/json writes a map, or null when m is nil.
func (w *Writer) StringMap(k string, m map[string]string) {
	w.Key(k)
	if m == nil {
		w.Null()
		return
	}
	w.BeginObject()
	for _, key := range slices.Sorted(maps.Keys(m)) {
		w.String(key, m[key])
	}
	w.EndObject()
}

// OptStringMap writes the member k: m's entries, unless m is empty.
func (w *Writer) OptStringMap(k string, m map[string]string) {
	if len(m) > 0 {
		w.StringMap(k, m)
	}
}

// Object writes the member k: v, an object. (Object, OptObject, List and
// OptList are functions because a method cannot have type parameters; P is
// always inferred, as in minijson.Object(w, "gc", &v.GC).)
func Object[T any, P interface {
	*T
	Encoder
}](w *Writer, k string, v P) {
	w.Key(k)
	v.EncodeJSON(w)
}

// OptObject writes the member k: *v, unless v is nil.
func OptObject[T any, P interface {
	*T
	Encoder
}](w *Writer, k string, v P) {
	if v != nil {
		Object(w, k, v)
	}
}

// List writes the member k: an array of items, or null when items is nil.
func List[T any, P interface {
	*T
	Encoder
}](w *Writer, k string, items []T) {
	w.Key(k)
	if items == nil {
		w.Null()
		return
	}
	w.BeginArray()
	for i := range items {
		P(&items[i]).EncodeJSON(w)
	}
	w.EndArray()
}

// OptList writes the member k: items, unless there are none.
func OptList[T any, P interface {
	*T
	Encoder
}](w *Writer, k string, items []T) {
	if len(items) > 0 {
		List[T, P](w, k, items)
	}
}

// Marshal returns v's JSON.
func Marshal(v Encoder) []byte {
	var w Writer
	v.EncodeJSON(&w)
	return w.Bytes()
}
