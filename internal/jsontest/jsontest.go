// Package jsontest holds the hand-written JSON encoders of core/minijson to
// encoding/json's output. Tests only: it uses reflection and encoding/json,
// which the WebAssembly build must not carry.
//
// Check fills a value of a type with random contents, every exported field
// of every nested struct included, and requires that the type's EncodeJSON
// writes what encoding/json's Marshal writes for it, byte for byte. A field
// added to a struct but not to its EncodeJSON fails the check, which names
// the field and says which line is missing.
package jsontest

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/reconcilelab/rlab/core/minijson"
)

// Rounds is how many random values Check tries of each type: enough that
// every field is set, and left empty, in some of them.
const Rounds = 300

// Check fills Rounds values made by newValue and compares their encodings.
func Check[T any, P interface {
	*T
	minijson.Encoder
}](t testing.TB) {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	var zero T
	typ := reflect.TypeOf(zero)
	seen := map[string]bool{}
	for round := range Rounds {
		v := P(new(T))
		Fill(r, reflect.ValueOf(v).Elem())
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("encoding/json cannot encode %s: %v", typ, err)
		}
		got := minijson.Marshal(v)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s.EncodeJSON writes what encoding/json does not (round %d): %s\nencoding/json: %s\nEncodeJSON:    %s",
				typ, round, Difference(want, got), want, got)
		}
		collectKeys(want, seen)
	}
	// Every member a tag names must have been written in some round, so
	// that a member whose line is missing cannot pass by staying empty.
	for _, path := range memberPaths(typ, "") {
		if !seen[path] {
			t.Errorf("%s: no round wrote the member %s; Fill never sets it, so its encoding is not checked", typ, path)
		}
	}
}

// CheckDecoder fills Rounds values of T, encodes each with encoding/json,
// and requires that T's DecodeJSON reads the text back into what
// encoding/json's Unmarshal reads, refusing nothing.
func CheckDecoder[T any, P interface {
	*T
	DecodeJSON(d *minijson.Decoder) error
}](t testing.TB) {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	var zero T
	typ := reflect.TypeOf(zero)
	seen := map[string]bool{}
	for round := range Rounds {
		var v T
		Fill(r, reflect.ValueOf(&v).Elem())
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("encoding/json cannot encode %s: %v", typ, err)
		}
		var want, got T
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("encoding/json cannot decode %s: %v", data, err)
		}
		d := minijson.NewDecoder(data)
		if err := P(&got).DecodeJSON(d); err != nil {
			t.Fatalf("%s.DecodeJSON refuses %s (round %d): %v; a field without its case in DecodeJSON is an unknown field", typ, data, round, err)
		}
		if err := d.End(); err != nil {
			t.Fatalf("%s.DecodeJSON left part of %s unread: %v", typ, data, err)
		}
		if !reflect.DeepEqual(want, got) {
			gotText, _ := json.Marshal(got)
			t.Fatalf("%s.DecodeJSON reads %s as %s, which encoding/json reads as %s", typ, data, gotText, data)
		}
		collectKeys(data, seen)
	}
	for _, path := range memberPaths(typ, "") {
		if !seen[path] {
			t.Errorf("%s: no round wrote the member %s; Fill never sets it, so its decoding is not checked", typ, path)
		}
	}
}

// Difference describes the first member where got differs from want, two
// JSON texts, in words: a member missing, one extra, or a value changed.
func Difference(want, got []byte) string {
	var w, g any
	if json.Unmarshal(want, &w) != nil || json.Unmarshal(got, &g) != nil {
		return "the EncodeJSON output is not JSON"
	}
	if d := difference(w, g, ""); d != "" {
		return d
	}
	return "the members are the same but their order differs from the struct's fields (write the lines in field order)"
}

func difference(want, got any, path string) string {
	wm, wok := want.(map[string]any)
	gm, gok := got.(map[string]any)
	if wok && gok {
		for _, k := range sortedKeys(wm) {
			if _, ok := gm[k]; !ok {
				return "member " + path + "." + k + " is missing: add its line to EncodeJSON (String, Int, List, … or an Opt form for omitempty)"
			}
			if d := difference(wm[k], gm[k], path+"."+k); d != "" {
				return d
			}
		}
		for _, k := range sortedKeys(gm) {
			if _, ok := wm[k]; !ok {
				return "member " + path + "." + k + " should not be there: check its name, and whether it is omitempty (an Opt form)"
			}
		}
		return ""
	}
	wa, wok := want.([]any)
	ga, gok := got.([]any)
	if wok && gok && len(wa) == len(ga) {
		for i := range wa {
			if d := difference(wa[i], ga[i], path+"[]"); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(want, got) {
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got)
		return "member " + path + " is " + string(gj) + ", not " + string(wj)
	}
	return ""
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// collectKeys records the path of every member of the JSON text data,
// ".metadata.labels" style, with [] for array elements.
func collectKeys(data []byte, seen map[string]bool) {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return
	}
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				seen[path+"."+k] = true
				walk(e, path+"."+k)
			}
		case []any:
			for _, e := range v {
				walk(e, path+"[]")
			}
		}
	}
	walk(v, "")
}

// memberPaths lists the paths of the members the json tags of typ name,
// following nested structs, slices and pointers, but not into maps or
// types with their own MarshalJSON (whose contents are not members).
func memberPaths(typ reflect.Type, path string) []string {
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
		if typ.Kind() == reflect.Slice {
			path += "[]"
		}
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct || reflect.PointerTo(typ).Implements(marshalerType) {
		return nil
	}
	var out []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, embedded := jsonName(f)
		switch {
		case name == "-":
		case embedded:
			out = append(out, memberPaths(f.Type, path)...)
		default:
			out = append(out, path+"."+name)
			out = append(out, memberPaths(f.Type, path+"."+name)...)
		}
	}
	return out
}

var marshalerType = reflect.TypeFor[json.Marshaler]()

// jsonName returns the member name of a field as encoding/json derives it,
// "-" for a field it skips, and whether the field is an embedded struct
// whose members are promoted.
func jsonName(f reflect.StructField) (name string, embedded bool) {
	tag := f.Tag.Get("json")
	name, _, _ = strings.Cut(tag, ",")
	if tag == "-" || !f.IsExported() && !f.Anonymous {
		return "-", false
	}
	if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
		return "", true
	}
	if name == "" {
		name = f.Name
	}
	return name, false
}

// strings that exercise the escaping: HTML characters, control characters,
// quotes, line and paragraph separators, invalid UTF-8 and plain text.
var samples = []string{
	"", "web", "default/web", "<b>&</b>", "line\nbreak\ttab", "\x00\x1f\x7f", `quote " backslash \`,
	"\u2028\u2029", "bad \xff utf-8", "é ü 日本 🙂", "2.004s",
}

// Fill sets v, which must be settable, to random contents: every exported
// field, element and pointer target, recursively, with each slice, map and
// pointer sometimes nil, sometimes empty and sometimes full, and each scalar
// sometimes zero.
func Fill(r *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(samples[r.IntN(len(samples))])
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := v.Type().Bits()
		choices := []int64{0, 1, -1, 42, math.MaxInt64 >> (64 - bits), math.MinInt64 >> (64 - bits)}
		v.SetInt(choices[r.IntN(len(choices))])
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		bits := v.Type().Bits()
		choices := []uint64{0, 1, 42, math.MaxUint64 >> (64 - bits)}
		v.SetUint(choices[r.IntN(len(choices))])
	case reflect.Pointer:
		if r.IntN(3) == 0 {
			v.SetZero()
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		Fill(r, v.Elem())
	case reflect.Slice:
		switch n := r.IntN(4); n {
		case 0:
			v.SetZero()
		default:
			s := reflect.MakeSlice(v.Type(), n-1, n-1)
			for i := range s.Len() {
				Fill(r, s.Index(i))
			}
			v.Set(s)
		}
	case reflect.Map:
		switch n := r.IntN(4); n {
		case 0:
			v.SetZero()
		default:
			m := reflect.MakeMap(v.Type())
			for range n - 1 {
				k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
				Fill(r, k)
				Fill(r, e)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			if r.IntN(3) > 0 {
				v.Set(reflect.ValueOf(time.Unix(r.Int64N(4e9), r.Int64N(1e9)).In(time.FixedZone("X", 3600))))
			}
			return
		}
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() || f.Anonymous {
				if fv := v.Field(i); fv.CanSet() {
					Fill(r, fv)
				}
			}
		}
	}
}
