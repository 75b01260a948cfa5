// Package jsontest holds core/minijson to encoding/json on the project's own
// types. Tests only: it uses encoding/json, which the WebAssembly build must
// not carry.
//
// Check fills a value of a type with random contents, every exported field
// of every nested struct included, and requires that minijson.Marshal writes
// what encoding/json's Marshal writes for it, byte for byte; CheckDecoder
// requires that minijson.Decode reads back what encoding/json's Unmarshal
// reads. A field of a kind minijson does not handle (a float, say) fails
// them, naming the field.
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

// Check fills Rounds values of T and compares their encodings.
func Check[T any](t testing.TB) {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	var zero T
	typ := reflect.TypeOf(zero)
	seen := map[string]bool{}
	for round := range Rounds {
		v := new(T)
		Fill(r, reflect.ValueOf(v).Elem())
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("encoding/json cannot encode %s: %v", typ, err)
		}
		got, err := minijson.Marshal(v)
		if err != nil {
			t.Fatalf("minijson cannot encode %s (round %d): %v", typ, round, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("minijson writes a %s differently from encoding/json (round %d): %s\nencoding/json: %s\nminijson:      %s",
				typ, round, Difference(want, got), want, got)
		}
		collectKeys(want, seen)
	}
	// Every member a tag names must have been written in some round, so
	// that a member cannot pass by staying empty.
	for _, path := range memberPaths(typ, "") {
		if !seen[path] {
			t.Errorf("%s: no round wrote the member %s; Fill never sets it, so its encoding is not checked", typ, path)
		}
	}
}

// CheckDecoder fills Rounds values of T, encodes each with encoding/json,
// and requires that minijson.Decode reads the text back into what
// encoding/json's Unmarshal reads, refusing nothing.
func CheckDecoder[T any](t testing.TB) {
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
		if err := minijson.Decode(data, &got); err != nil {
			t.Fatalf("minijson refuses %s as a %s (round %d): %v", data, typ, round, err)
		}
		if !reflect.DeepEqual(want, got) {
			gotText, _ := json.Marshal(got)
			t.Fatalf("minijson reads %s as the %s %s, which encoding/json reads as %s", data, typ, gotText, data)
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
		return "minijson's output is not JSON"
	}
	if d := difference(w, g, ""); d != "" {
		return d
	}
	return "the members are the same but in another order"
}

func difference(want, got any, path string) string {
	wm, wok := want.(map[string]any)
	gm, gok := got.(map[string]any)
	if wok && gok {
		for _, k := range sortedKeys(wm) {
			if _, ok := gm[k]; !ok {
				return "member " + path + "." + k + " is missing"
			}
			if d := difference(wm[k], gm[k], path+"."+k); d != "" {
				return d
			}
		}
		for _, k := range sortedKeys(gm) {
			if _, ok := wm[k]; !ok {
				return "member " + path + "." + k + " should not be there"
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
	for _, f := range visibleFields(typ) {
		out = append(out, path+"."+f.name)
		out = append(out, memberPaths(f.typ, path+"."+f.name)...)
	}
	return out
}

// A visible field is a member of a struct's object, embedded structs'
// promoted fields included.
type visibleField struct {
	name   string
	typ    reflect.Type
	depth  int
	tagged bool
}

// visibleFields lists typ's members by encoding/json's rules: promoted
// fields of embedded structs, and of several fields with one name, the
// least deeply embedded, then a tagged one, or none.
func visibleFields(typ reflect.Type) []visibleField {
	var all []visibleField
	var walk func(t reflect.Type, depth int)
	walk = func(t reflect.Type, depth int) {
		for i := range t.NumField() {
			f := t.Field(i)
			name, embedded := jsonName(f)
			switch {
			case name == "-":
			case embedded:
				walk(f.Type, depth+1)
			default:
				all = append(all, visibleField{name, f.Type, depth, f.Tag.Get("json") != ""})
			}
		}
	}
	walk(typ, 0)
	var out []visibleField
	for i, f := range all {
		wins := true
		for j, o := range all {
			if i != j && o.name == f.name && (o.depth < f.depth || o.depth == f.depth && (o.tagged || !f.tagged)) {
				wins = false
			}
		}
		if wins {
			out = append(out, f)
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
