//go:build !js

// This file uses the upstream modules (k8s.io, gopkg.in/yaml.v2) as oracles,
// so it runs natively only: the js/wasm run of make test runs the package's
// other tests under node, and neither it nor the js/wasm lint compiles the
// oracles for WebAssembly, where they never run.

package workqueue

import (
	"strconv"
	"sync"
	"testing"

	upstream "k8s.io/client-go/util/workqueue"
)

// The benchmarks pair this queue with upstream's on the same workload, as
// sub-benchmarks "ours" and "upstream" of one benchmark, so that one run
// measures both under the same conditions and a report tool can put them side
// by side. The workloads are those of the oracle module's micro-benchmarks
// (/work/shared/oracle/micro), whose figures DESIGN.md quotes: keys
// "default/obj-<i>" built before the timer, one op per Add. The two halves of
// each benchmark are the same loop; only the queue differs.

// Key pools, built once and outside every timed region. The serial workload
// cycles through a million distinct keys, each done before the next Add, so no
// Add ever meets a key the queue still knows; the dedup workload cycles
// through ten thousand, so each is added a hundred times per million Adds.
var (
	serialKeys = sync.OnceValue(func() []string { return benchKeys(1_000_000) })
	dedupKeys  = sync.OnceValue(func() []string { return benchKeys(10_000) })
)

func benchKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "default/obj-" + strconv.Itoa(i)
	}
	return keys
}

// BenchmarkAddGetDoneSerial: one op is Add(k), Get, Done(k) on one key, with a
// new key every op. Budget: at most half of upstream's time, at most one
// allocation.
func BenchmarkAddGetDoneSerial(b *testing.B) {
	keys := serialKeys()
	b.Run("ours", func(b *testing.B) {
		q := New(Config{Name: "bench"})
		b.ReportAllocs()
		b.ResetTimer()
		j := 0
		for i := 0; i < b.N; i++ {
			q.Add(keys[j])
			key, _, _ := q.Get("worker-1")
			q.Done(key)
			if j++; j == len(keys) {
				j = 0
			}
		}
	})
	b.Run("upstream", func(b *testing.B) {
		q := upstream.NewTyped[string]()
		defer q.ShutDown()
		b.ReportAllocs()
		b.ResetTimer()
		j := 0
		for i := 0; i < b.N; i++ {
			q.Add(keys[j])
			key, _ := q.Get()
			q.Done(key)
			if j++; j == len(keys) {
				j = 0
			}
		}
	})
}

// BenchmarkDedup10kKeys: b.N Adds cycling over 10,000 keys before any Get,
// then a drain that Gets and Dones the 10,000 keys that come out. One op is
// one Add; at large b.N almost every Add meets a key that is already waiting.
func BenchmarkDedup10kKeys(b *testing.B) {
	keys := dedupKeys()
	b.Run("ours", func(b *testing.B) {
		q := New(Config{Name: "bench"})
		b.ReportAllocs()
		b.ResetTimer()
		j := 0
		for i := 0; i < b.N; i++ {
			q.Add(keys[j])
			if j++; j == len(keys) {
				j = 0
			}
		}
		q.ShutDown() // Get hands out what is queued, then reports shutdown
		processed := 0
		for {
			key, ok, _ := q.Get("worker-1")
			if !ok {
				break
			}
			q.Done(key)
			processed++
		}
		b.StopTimer()
		if want := min(b.N, len(keys)); processed != want {
			b.Fatalf("processed %d keys, want %d", processed, want)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		q := upstream.NewTyped[string]()
		b.ReportAllocs()
		b.ResetTimer()
		j := 0
		for i := 0; i < b.N; i++ {
			q.Add(keys[j])
			if j++; j == len(keys) {
				j = 0
			}
		}
		q.ShutDown()
		processed := 0
		for {
			key, shutdown := q.Get()
			if shutdown {
				break
			}
			q.Done(key)
			processed++
		}
		b.StopTimer()
		if want := min(b.N, len(keys)); processed != want {
			b.Fatalf("processed %d keys, want %d", processed, want)
		}
	})
}
