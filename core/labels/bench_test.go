//go:build !js

// This file uses the upstream modules (k8s.io, gopkg.in/yaml.v2) as oracles,
// so it runs natively only: the js/wasm run of make test runs the package's
// other tests under node, and neither it nor the js/wasm lint compiles the
// oracles for WebAssembly, where they never run.

package labels

import (
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8slabels "k8s.io/apimachinery/pkg/labels"

	"github.com/reconcilelab/rlab/core/api"
)

// The benchmarks run this package and upstream side by side, as sub-benchmarks
// named "ours" and "upstream", so that one run gives comparable figures and a
// report can pair them. DESIGN.md's budgets: Parse at most a quarter of
// upstream's time and 10 allocations; Matches at most half of upstream's time
// and no allocation.
//
//	go test -run '^$' -bench Selector -benchmem ./core/labels

// benchSets is the shared corpus of 100,000 label sets, built once, outside any
// timed region. The Matches benchmarks cycle through it with a counter that wraps,
// rather than an index modulo its length, so that a division per operation does
// not blur the comparison; both sides run the same loop.
var benchSets = sync.OnceValue(func() []Set { return corpusSets(100_000) })

// The sinks keep results alive so that the compiler cannot drop the work.
var (
	sink         int
	upstreamSink k8slabels.Selector
)

func BenchmarkSelectorParse(b *testing.B) {
	b.Run("ours", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sel, err := Parse(benchSelector)
			if err != nil {
				b.Fatal(err)
			}
			sink += len(sel.requirements)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sel, err := k8slabels.Parse(benchSelector)
			if err != nil {
				b.Fatal(err)
			}
			upstreamSink = sel
		}
	})
}

func BenchmarkSelectorMatches(b *testing.B) {
	benchmarkMatches(b, benchSets())
}

// BenchmarkSelectorMatchesCached is BenchmarkSelectorMatches over one period of
// the corpus, 60 sets that stay in the CPU cache. The full corpus, 100,000 maps
// scattered over tens of megabytes, makes every Matches wait for memory, and both
// sides wait the same; this one shows what the matching itself costs.
func BenchmarkSelectorMatchesCached(b *testing.B) {
	benchmarkMatches(b, benchSets()[:60])
}

func benchmarkMatches(b *testing.B, sets []Set) {
	b.Run("ours", func(b *testing.B) {
		sel, err := Parse(benchSelector)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		matched, next := 0, 0
		for i := 0; i < b.N; i++ {
			if sel.Matches(sets[next]) {
				matched++
			}
			if next++; next == len(sets) {
				next = 0
			}
		}
		sink += matched
	})
	b.Run("upstream", func(b *testing.B) {
		sel, err := k8slabels.Parse(benchSelector)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		matched, next := 0, 0
		for i := 0; i < b.N; i++ {
			if sel.Matches(k8slabels.Set(sets[next])) {
				matched++
			}
			if next++; next == len(sets) {
				next = 0
			}
		}
		sink += matched
	})
}

// BenchmarkLabelSelectorAsSelector converts the benchmark selector in its
// structured form, which the replication manager does on every sync.
func BenchmarkLabelSelectorAsSelector(b *testing.B) {
	ours := &api.LabelSelector{
		MatchLabels: map[string]string{"app": "web"},
		MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "tier", Operator: api.LabelSelectorOpIn, Values: []string{"front", "back"}},
			{Key: "canary", Operator: api.LabelSelectorOpDoesNotExist},
		},
	}
	theirs := toUpstreamLabelSelector(ours, false)
	b.Run("ours", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sel, err := LabelSelectorAsSelector(ours)
			if err != nil {
				b.Fatal(err)
			}
			sink += len(sel.requirements)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sel, err := metav1.LabelSelectorAsSelector(theirs)
			if err != nil {
				b.Fatal(err)
			}
			upstreamSink = sel
		}
	})
}
