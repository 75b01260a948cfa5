package apistore

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/reconcilelab/rlab/core/api"
)

// benchStore holds n pods in one namespace, created from a ReplicaSet-like
// template with generateName, as a controller creates them.
func benchStore(b *testing.B, n int) (*Store, []string) {
	b.Helper()
	s := New(Options{Rand: rand.New(rand.NewPCG(1, 1)), WatchWindow: 1000})
	names := make([]string, n)
	for i := range names {
		obj, err := s.Create(newGeneratedPod("default", "web-", map[string]string{"app": "web"}))
		if err != nil {
			b.Fatal(err)
		}
		names[i] = obj.Meta().Name
	}
	return s, names
}

func BenchmarkCreatePod(b *testing.B) {
	s := New(Options{Rand: rand.New(rand.NewPCG(1, 1))})
	pod := newGeneratedPod("default", "web-", map[string]string{"app": "web"})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Create(pod); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGetPod(b *testing.B) {
	s, names := benchStore(b, 10000)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := s.Get(api.KindPod, "default", names[i%len(names)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkUpdatePodStatus(b *testing.B) {
	s, names := benchStore(b, 10000)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		obj, _ := s.Object(api.KindPod, "default", names[i%len(names)])
		in := obj.(*api.Pod).DeepCopy()
		in.Status.Phase = api.PodRunning
		in.Status.Message = strconv.Itoa(i)
		if _, err := s.UpdateStatus(in); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkPatchAdopt(b *testing.B) {
	s, names := benchStore(b, 10000)
	owner := newRS("default", "web", 1, map[string]string{"app": "web"})
	owner.Metadata.UID = "rs-uid"
	ref := controllerRef(owner)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		name := names[i%len(names)]
		p := MetaPatch{SetOwnerReferences: []api.OwnerReference{ref}}
		if i/len(names)%2 == 1 {
			p = MetaPatch{RemoveOwnerReferences: []string{"rs-uid"}}
		}
		if _, err := s.Patch(api.KindPod, "default", name, p); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkSnapshotThenWrite(b *testing.B) {
	s, names := benchStore(b, 1000)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s.Snapshot()
		if _, err := s.Patch(api.KindPod, "default", names[i%len(names)],
			MetaPatch{SetLabels: map[string]string{"i": strconv.Itoa(i)}}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
