// Package minijson writes and reads JSON as encoding/json does, for the
// engine's own types, so that the WebAssembly build carries no encoding/json.
//
// Marshal writes a value from its json tags exactly as encoding/json's
// Marshal would, byte for byte: struct members in field order, omitempty,
// promoted fields of embedded structs, map keys sorted, nil pointers, slices
// and maps as null, HTML characters and U+2028/U+2029 escaped. Decode reads a
// request into a struct as encoding/json's Unmarshal would with unknown
// fields disallowed, except that keys must be spelled exactly (encoding/json
// also accepts any capitalization) and nothing may follow the value. Parse
// reads any JSON as generic values (map[string]any, []any, string, Number,
// bool, nil) and AppendIndent writes them as MarshalIndent does, which is
// how the printers write kubectl's manifests. Both walk values with
// reflect, which main.wasm links anyway (fmt needs it); a type that writes
// itself (api.Time) implements Appender.
//
// So a type's JSON is still its struct and its tags: adding a field to an
// encoded struct is the one line that declares it, with its json tag. The
// kinds handled are those the engine uses: booleans, integers, strings,
// pointers, interfaces, slices, map[string]string, structs and
// RawMessage. A float, a []byte or a channel is an error, and
// internal/jsontest, which compares Marshal and Decode with encoding/json on
// randomly filled values of the bridge's and the API's types, fails on such
// a field, naming it.
//
// # Why not encoding/json, and why reflection
//
// encoding/json was the largest single dependency of main.wasm. Measured on
// the engine (November 2026, Go 1.26, the make wasm flags; brotli at quality
// 11 with andybalholm/brotli, as rlab compress writes it):
//
//	                                         raw        gzip -9    brotli 11
//	encoding/json                            7,632,353  1,882,740  1,341,395
//	hand-written EncodeJSON per type         7,379,519  1,810,759  1,297,633
//	this package (tags, reflect)             7,276,939  1,805,672  1,292,306
//
// Methods written by hand for each of the sixty types, one line per field,
// cost about 6 KB of brotli more than one walker over the tags, because
// every call in Go's wasm code is large and every generic helper is copied
// for each type; they were also a second place to edit for each new field.
// The walker is slower than encoding/json, which caches each type's encoder
// for the program's life where this package, in core/ and without locks,
// caches a type's tags for one call: Marshal of a view of 1,000 pods takes
// 1.6 ms natively against encoding/json's 0.95 ms. The view request as a
// whole, which builds the view first, costs what it did (8 to 11 ms on the
// 2-core machine), because the bridge keeps its answer buffer between
// requests (Append) instead of growing a new one each time.
package minijson
