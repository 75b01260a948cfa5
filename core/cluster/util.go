package cluster

import (
	"maps"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sim"
)

// isTerminal reports whether a pod has finished for good.
func isTerminal(p *api.Pod) bool {
	return p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
}

// podRef names a pod for a report.
func podRef(p *api.Pod) sim.Ref {
	return sim.Ref{Kind: "pod", Namespace: p.Metadata.Namespace, Name: p.Metadata.Name}
}

func refOf(obj api.Object) sim.Ref {
	if obj == nil {
		return sim.Ref{}
	}
	m := obj.Meta()
	return sim.Ref{Kind: api.ShortName(obj.Kind()), Namespace: m.Namespace, Name: m.Name}
}

// keyName returns the name part of a "namespace/name" key.
func keyName(key string) string {
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		return key[i+1:]
	}
	return key
}

// cloneMap copies a map, never returning nil. maps.Clone does not depend on
// iteration order, so it keeps runs deterministic.
func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	if out := maps.Clone(m); out != nil {
		return out
	}
	return map[K]V{}
}
