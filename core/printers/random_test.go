//go:build !js

// This file generates the random objects of the oracle tests, which run
// natively only (see manifest_test.go).

package printers

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/reconcilelab/rlab/core/api"
)

// scaled returns how many generated cases a property test runs: n, or a
// tenth of it with -short. (These tests are native only; the js/wasm run
// proves that the code works where it ships with the others.)
func scaled(n int) int {
	if testing.Short() {
		return max(n/10, 1)
	}
	return n
}

// randomObject builds an object of kind with every field filled at random
// (or left empty), so that a field added to the api types is exercised by
// the manifest tests without anyone remembering to add it. Strings come
// from pools of realistic values and YAML edge cases; safe leaves out the
// characters kubectl itself cannot carry through YAML (see kubectlYAML).
func randomObject(r *rand.Rand, kind api.Kind, safe bool) api.Object {
	obj, ok := api.NewObject(kind)
	if !ok {
		panic("no kind " + kind)
	}
	g := &objectGen{r: r, safe: safe}
	g.fill(reflect.ValueOf(obj).Elem(), "")
	obj.Meta().Name = g.pick(objectNames)
	return obj
}

type objectGen struct {
	r    *rand.Rand
	safe bool
}

var (
	objectNames = []string{"web", "web-7xk2p", "db-0", "node-1", "legacy", "web.17f3a9c2b1d4e5f6", "a"}
	labelKeys   = []string{"app", "tier", "pod-template-hash", "app.kubernetes.io/name", "app.kubernetes.io/part-of",
		"kubernetes.io/hostname", "node-role.kubernetes.io/control-plane", "a1", "a10", "a2", "A", "z", "x-y", "x.y", "x_y",
		"controller.kubernetes.io/pod-deletion-cost", "example.com/Tier"}
	labelValues = []string{"web", "front", "5d8f7b9c4d", "", "true", "false", "1", "2025-01-01", "yes", "null", "v1.2.3",
		"-100", "0x1F", "1:30", "on", "~"}
	phrases = []string{"Created pod: web-7xk2p", "Deleted pod: web-7xk2p", "containers with unready status: [web]",
		"kubelet is posting ready status", "The node was low on resource: memory.",
		`pods "web-7xk2p" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=10, limited: pods=10`,
		"0/3 nodes are available: 3 node(s) were unschedulable. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
		"line one\nline two\n", "trailing newline\n", "two\n\nbreaks\n\n", " leading space", "trailing space ", "a: b # c",
		"- dash", "'quoted'", `"double"`, "tab\there", "<html> & </html>", "é日本語", "emoji 🙂", "\u2028", "x\ty\rz",
		"\x1b[31mred\x1b[0m", strings.Repeat("long words ", 20)}
	unsafeStrings = []string{"del\x7f", "nel\u0085here", "\uffff", "c1\u0090"}
)

func (g *objectGen) pick(pool []string) string { return pool[g.r.IntN(len(pool))] }

func (g *objectGen) str(field string) string {
	for {
		if s := g.anyStr(field); !g.safe || roundTripsThroughKubectlYAML(s) {
			return s
		}
	}
}

// roundTripsThroughKubectlYAML reports whether kubectl's YAML carries s
// unchanged: not with DEL, C1 controls (NEL among them, which YAML folds),
// U+FFFE or U+FFFF, nor as "<<", which yaml.v2 writes plain and then reads as
// a merge key. (None of these can be a label or annotation key.)
func roundTripsThroughKubectlYAML(s string) bool {
	if s == "<<" {
		return false
	}
	for _, r := range s {
		if r == 0x7F || r >= 0x80 && r <= 0x9F || r == 0xFFFE || r == 0xFFFF {
			return false
		}
	}
	return true
}

func (g *objectGen) anyStr(field string) string {
	switch {
	case !g.safe && g.r.IntN(20) == 0:
		return g.pick(unsafeStrings)
	case g.r.IntN(6) == 0:
		return g.pick(yamlEdgeStrings)
	case strings.Contains(field, "Message"), strings.Contains(field, "Reason"):
		return g.pick(phrases)
	default:
		return g.pick(append(labelValues, objectNames...))
	}
}

func (g *objectGen) fill(v reflect.Value, field string) {
	if v.Type() == reflect.TypeOf(api.Time{}) {
		if g.r.IntN(5) > 0 {
			v.Set(reflect.ValueOf(api.NewTime(time.Unix(g.r.Int64N(2_000_000_000), 0).UTC())))
		}
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(g.str(field))
	case reflect.Bool:
		v.SetBool(g.r.IntN(2) == 0)
	case reflect.Int32:
		v.SetInt(int64(int32(g.r.Uint32())) >> g.r.IntN(32))
	case reflect.Int64:
		v.SetInt(int64(g.r.Uint64()) >> g.r.IntN(64))
	case reflect.Pointer:
		if g.r.IntN(3) > 0 {
			p := reflect.New(v.Type().Elem())
			g.fill(p.Elem(), field)
			v.Set(p)
		}
	case reflect.Slice:
		if n := g.r.IntN(4); n > 0 {
			s := reflect.MakeSlice(v.Type(), n, n)
			for i := range n {
				g.fill(s.Index(i), field)
			}
			v.Set(s)
		}
	case reflect.Map:
		if n := g.r.IntN(5); n > 0 {
			m := reflect.MakeMap(v.Type())
			for range n {
				k := g.pick(labelKeys)
				if g.r.IntN(8) == 0 {
					k = g.str(field)
				}
				e := reflect.New(v.Type().Elem()).Elem()
				g.fill(e, field)
				m.SetMapIndex(reflect.ValueOf(k), e)
			}
			v.Set(m)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() && f.Name != "TypeMeta" {
				g.fill(v.Field(i), f.Name)
			}
		}
	}
}
