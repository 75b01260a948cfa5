//go:build !js

package main

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/minijson"
)

// updateBridgeTypes rewrites site/bridge-types.js:
// go test ./wasm -run TestBridgeTypesAreCurrent -update-bridge-types
var updateBridgeTypes = flag.Bool("update-bridge-types", false, "rewrite site/bridge-types.js from the bridge's Go types")

// bridgeTypesFile is where the page's JSDoc types for the bridge live.
const bridgeTypesFile = "../site/bridge-types.js"

// bridgeOps are the ops of opTable, each with the method whose argument and
// answer types are its request and answer. TestBridgeTypesAreCurrent fails
// when an op is added without being listed here.
var bridgeOps = map[string]any{
	"setLessons": (*Bridge).SetLessons,
	"lessons":    (*Bridge).Lessons,
	"load":       (*Bridge).Load,
	"run":        (*Bridge).Run,
	"step":       (*Bridge).Step,
	"untilSync":  (*Bridge).UntilSync,
	"stabilize":  (*Bridge).Stabilize,
	"seek":       (*Bridge).Seek,
	"prepare":    (*Bridge).Prepare,
	"view":       (*Bridge).View,
	"steps":      (*Bridge).Steps,
	"check":      (*Bridge).Check,
	"grade":      (*Bridge).Grade,
	"sources":    (*Bridge).Sources,
	"functions":  (*Bridge).Functions,
	"complete":   (*Bridge).Complete,
	"help":       (*Bridge).Help,
}

// TestBridgeTypesAreCurrent keeps site/bridge-types.js, the JSDoc types of
// every bridge request and answer, equal to what the Go types say, so that
// the page's calls are checked against the JSON the bridge really speaks.
func TestBridgeTypesAreCurrent(t *testing.T) {
	var names []string
	for name := range newOpTable() {
		if _, test := testOps[name]; !test {
			names = append(names, name)
		}
	}
	var listed []string
	for name := range bridgeOps {
		listed = append(listed, name)
	}
	sort.Strings(names)
	sort.Strings(listed)
	require.Equal(t, names, listed, "bridgeOps lists every op of opTable, with its method")

	want := bridgeTypesJS()
	if *updateBridgeTypes {
		require.NoError(t, os.WriteFile(bridgeTypesFile, []byte(want), 0o644))
	}
	got, err := os.ReadFile(bridgeTypesFile)
	require.NoError(t, err)
	assert.Equal(t, want, string(got),
		"site/bridge-types.js is not what the bridge's Go types say; run: go test ./wasm -run TestBridgeTypesAreCurrent -update-bridge-types")
}

// bridgeTypesJS writes the JSDoc typedefs: one per Go struct reached from
// an op's argument or answer, named after the Go type, and BridgeOps,
// which maps each op to its request and answer.
func bridgeTypesJS() string {
	g := &typeWriter{defs: map[string]string{}, names: map[reflect.Type]string{}}
	var ops []string
	for name := range bridgeOps {
		ops = append(ops, name)
	}
	sort.Strings(ops)
	var table []string
	for _, name := range ops {
		m := reflect.TypeOf(bridgeOps[name])
		args := "undefined"
		if m.NumIn() > 1 {
			args = g.js(m.In(1))
		}
		// An op's answer is a pointer only to save a copy: it is never
		// nil when the op succeeds.
		result := m.Out(0)
		if result.Kind() == reflect.Pointer {
			result = result.Elem()
		}
		table = append(table, fmt.Sprintf(" *   %s: {args: %s, result: %s},", name, args, g.js(result)))
	}
	var b strings.Builder
	b.WriteString("// bridge-types.js is generated from the bridge's Go types (wasm/*.go) by\n" +
		"// go test ./wasm -run TestBridgeTypesAreCurrent -update-bridge-types: edit\n" +
		"// those, not this. It holds only JSDoc types, for tsc (make typecheck) to\n" +
		"// check the page's requests and its reading of the answers against the JSON\n" +
		"// the bridge speaks. A field marked [optional] is left out when empty (Go's\n" +
		"// omitempty); a pointer may be null.\n\n")
	b.WriteString("/**\n * BridgeOps maps each op to its arguments and its answer's result.\n * @typedef {{\n")
	b.WriteString(strings.Join(table, "\n"))
	b.WriteString("\n * }} BridgeOps\n */\n")
	defs := make([]string, 0, len(g.defs))
	for name := range g.defs {
		defs = append(defs, name)
	}
	sort.Strings(defs)
	for _, name := range defs {
		b.WriteString("\n")
		b.WriteString(g.defs[name])
	}
	b.WriteString("\nexport {};\n")
	return b.String()
}

// typeWriter turns Go types into JSDoc types, writing a typedef for each
// struct it meets.
type typeWriter struct {
	defs  map[string]string       // typedef text by JS name
	names map[reflect.Type]string // JS name by Go struct type
}

var (
	rawMessage = reflect.TypeOf(minijson.RawMessage(nil))
	apiTime    = reflect.TypeOf(api.Time{})
)

// js is the JSDoc type of t as JSON.
func (g *typeWriter) js(t reflect.Type) string {
	switch {
	case t == rawMessage:
		return "unknown"
	case t == apiTime:
		return "string | null" // RFC 3339, null for the zero time
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.js(t.Elem()) + " | null"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "Array<" + g.js(t.Elem()) + ">"
	case reflect.Map:
		return "Record<string, " + g.js(t.Elem()) + ">"
	case reflect.Interface:
		return "unknown"
	case reflect.Struct:
		return g.typedef(t)
	}
	panic(fmt.Sprintf("bridge types: no JSON type for %v", t))
}

// typedef writes the typedef of struct t, once, and returns its name: the
// Go type's, with its package's name first when two packages share it.
func (g *typeWriter) typedef(t reflect.Type) string {
	if name, ok := g.names[t]; ok {
		return name
	}
	name := t.Name()
	if name == "" {
		panic(fmt.Sprintf("bridge types: an anonymous struct %v", t))
	}
	if _, taken := g.defs[name]; taken {
		pkg := t.PkgPath()[strings.LastIndex(t.PkgPath(), "/")+1:]
		name = strings.ToUpper(pkg[:1]) + pkg[1:] + name
	}
	g.names[t] = name
	g.defs[name] = "" // taken, while its fields are written
	var props []string
	g.fields(t, &props)
	var b strings.Builder
	fmt.Fprintf(&b, "/**\n * %s is %s.%s.\n * @typedef {Object} %s\n", name, t.PkgPath()[strings.LastIndex(t.PkgPath(), "/")+1:], t.Name(), name)
	for _, p := range props {
		b.WriteString(p)
	}
	b.WriteString(" */\n")
	g.defs[name] = b.String()
	return name
}

// fields writes a @property line for each field of t that JSON carries,
// those of embedded structs included, as encoding/json reads them.
func (g *typeWriter) fields(t reflect.Type, props *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct && ft != apiTime {
				g.fields(ft, props)
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		typ := g.js(f.Type)
		if slices.Contains(strings.Split(opts, ","), "omitempty") {
			*props = append(*props, fmt.Sprintf(" * @property {%s} [%s]\n", typ, name))
		} else {
			*props = append(*props, fmt.Sprintf(" * @property {%s} %s\n", typ, name))
		}
	}
}
