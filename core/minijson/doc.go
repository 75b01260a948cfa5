// Package minijson reads and writes JSON without reflection, so that the
// WebAssembly build of the engine carries no encoding/json: that package,
// with the reflection and the sorting it brings, cost main.wasm about 77 KB
// of its brotli size (measured in November 2026, Go 1.26: 1,340,931 bytes at
// quality 11 with it, 1,263,913 without), more than any other single
// dependency. What it writes is what encoding/json writes, byte for byte,
// and its tests hold it to that.
//
// # Writing
//
// A type that goes out as JSON gets an EncodeJSON method that lists its
// fields in the order of the struct, one line each, with the JSON name its
// tag would give:
//
//	type Step struct {
//		N       uint64 `json:"n"`
//		Models  string `json:"models,omitempty"`
//		Touched []Ref  `json:"touched,omitempty"`
//		Sync    *Sync  `json:"sync,omitempty"`
//	}
//
//	func (s *Step) EncodeJSON(w *minijson.Writer) {
//		w.BeginObject()
//		w.Uint("n", s.N)
//		w.OptString("models", s.Models)
//		minijson.OptList(w, "touched", s.Touched)
//		minijson.OptObject(w, "sync", s.Sync)
//		w.EndObject()
//	}
//
// The member writers are named after the field's type: String, Int (any
// signed integer, converted to int64), Uint, Bool, Strings ([]string),
// StringMap (map[string]string), and the functions Object, List (a slice
// of a type with an EncodeJSON method) and their Opt forms. An Opt writer
// leaves the member out when it is empty, as omitempty does; the others
// always write it, a nil slice or map as null, as encoding/json does. The
// tags stay on the fields: they document the names, and the tests that
// compare this encoder with encoding/json read them.
//
// Adding a field to such a type is therefore two lines: the field, and its
// line in EncodeJSON. A test that fills every field of the type and compares
// Marshal with encoding/json's (internal/jsontest) fails on a forgotten one.
//
// # Reading
//
// A Decoder reads a JSON text value by value, checking its syntax as it
// goes: Object calls a function with each key, which reads the member's
// value with the reader of its type (String, Int, Int64, Uint64, Bool,
// IntPtr), Skip, Raw, or a nested Object or Array. Value reads any value as
// a generic one (map[string]any, []any, string, Number, bool, nil), which is
// what the printers print manifests from, and AppendIndent writes a generic
// value as encoding/json's MarshalIndent does.
//
// The reader follows encoding/json in everything a well-formed request can
// show, with one deliberate difference: keys are matched exactly, where
// encoding/json also accepts any other capitalization. Its tests fuzz it
// against encoding/json on the same inputs.
package minijson
