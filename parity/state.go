package parity

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/printers"
	"github.com/reconcilelab/rlab/core/world"
	"k8s.io/client-go/kubernetes"
)

// Reading is one look at a world: every object of each compared kind.
type Reading map[api.Kind][]api.Object

// readKinds are the kinds a Reading holds.
var readKinds = []api.Kind{api.KindNode, api.KindPod, api.KindReplicaSet, api.KindReplicationController, api.KindDeployment, api.KindEvent}

// ReadSim reads an rlab world's API store.
func ReadSim(w *world.World, namespaces map[string]bool) Reading {
	r := Reading{}
	for _, k := range readKinds {
		for _, o := range w.Store.Objects(k, "") {
			if !k.Namespaced() || namespaces[o.Meta().Namespace] {
				r[k] = append(r[k], o)
			}
		}
	}
	return r
}

// ReadReal reads a real API server, in the script's namespaces only (the
// API server's own namespaces hold nothing a script made).
func ReadReal(ctx context.Context, c kubernetes.Interface, namespaces map[string]bool) (Reading, error) {
	r := Reading{}
	for _, k := range readKinds {
		objs, _, err := listAPI(ctx, c, k)
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			if !k.Namespaced() || namespaces[o.Meta().Namespace] {
				r[k] = append(r[k], o)
			}
		}
	}
	return r, nil
}

// State is the observable state of a world, written so that two worlds that
// agree write the same: one line of text per key. Named objects are keyed
// by kind and name; objects with generated names by what they belong to
// (a Deployment's ReplicaSet by the Deployment and its revision, a
// controller's pods by their owner, counted by what they look like), since
// the names themselves are random on both sides.
type State map[string]string

// labelsIgnored are labels whose values are made from generated names or
// hashes, which differ between any two worlds.
var labelsIgnored = map[string]bool{"pod-template-hash": true}

// annotationsCompared are the annotations the controllers write that a
// learner reads.
var annotationsCompared = []string{printers.RevisionAnnotation, "deployment.kubernetes.io/desired-replicas", "deployment.kubernetes.io/max-replicas"}

// namer turns an object's name into its comparable identity.
type namer struct {
	// rs maps a ReplicaSet's namespace/name to its identity.
	rs map[string]string
	// pods maps a pod's namespace/name to its identity.
	pods map[string]string
}

func ownerOf(m *api.ObjectMeta) *api.OwnerReference {
	for i := range m.OwnerReferences {
		if o := &m.OwnerReferences[i]; o.Controller != nil && *o.Controller {
			return o
		}
	}
	return nil
}

func shortKind(kind string) string { return api.ShortName(api.Kind(kind)) }

func nsPrefix(ns string) string {
	if ns == "" || ns == "default" {
		return ""
	}
	return ns + ":"
}

// generated reports whether an object's name was made by a controller: a
// name from generateName (a ReplicaSet's pods), or a ReplicaSet a
// Deployment named after its pod template's hash (getNewReplicaSet in
// pkg/controller/deployment/sync.go sets Name, not GenerateName), owned
// still or orphaned.
func generated(m *api.ObjectMeta) bool {
	if m.GenerateName != "" {
		return true
	}
	if ref := ownerOf(m); ref != nil && ref.Kind == string(api.KindDeployment) {
		return true
	}
	hash := m.Labels["pod-template-hash"]
	return hash != "" && strings.HasSuffix(m.Name, "-"+hash)
}

func newNamer(r Reading) namer {
	n := namer{rs: map[string]string{}, pods: map[string]string{}}
	for _, o := range r[api.KindReplicaSet] {
		m := o.Meta()
		id := "rs/" + m.Name
		if generated(m) {
			owner := "none"
			if ref := ownerOf(m); ref != nil {
				owner = shortKind(ref.Kind) + "/" + ref.Name
			}
			id = "rs[" + owner + " revision " + m.Annotations[printers.RevisionAnnotation] + "]"
		}
		n.rs[m.Namespace+"/"+m.Name] = nsPrefix(m.Namespace) + id
	}
	for _, o := range r[api.KindPod] {
		m := o.Meta()
		id := "pod/" + m.Name
		if generated(m) {
			id = "a pod of " + n.ownerName(m)
		}
		n.pods[m.Namespace+"/"+m.Name] = nsPrefix(m.Namespace) + id
	}
	return n
}

// ownerName names an object's controller by its identity: rs/web,
// rs[deploy/web revision 2], or none.
func (n namer) ownerName(m *api.ObjectMeta) string {
	ref := ownerOf(m)
	if ref == nil {
		return "none"
	}
	if ref.Kind == string(api.KindReplicaSet) {
		if id, ok := n.rs[m.Namespace+"/"+ref.Name]; ok {
			return strings.TrimPrefix(id, nsPrefix(m.Namespace))
		}
	}
	return shortKind(ref.Kind) + "/" + ref.Name
}

func (n namer) involved(e *api.Event) string {
	inv := e.InvolvedObject
	key := inv.Namespace + "/" + inv.Name
	switch api.Kind(inv.Kind) {
	case api.KindReplicaSet:
		if id, ok := n.rs[key]; ok {
			return id
		}
	case api.KindPod:
		if id, ok := n.pods[key]; ok {
			return id
		}
	}
	if strings.Contains(inv.Name, "-") && (inv.Kind == string(api.KindPod) || inv.Kind == string(api.KindReplicaSet)) {
		return nsPrefix(inv.Namespace) + "a " + shortKind(inv.Kind) + " gone"
	}
	return nsPrefix(inv.Namespace) + shortKind(inv.Kind) + "/" + inv.Name
}

func kv(m map[string]string, skip map[string]bool) string {
	keys := slices.Sorted(maps.Keys(m))
	var parts []string
	for _, k := range keys {
		if !skip[k] {
			parts = append(parts, k+"="+m[k])
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ",")
}

func metaLine(n namer, m *api.ObjectMeta) string {
	s := "labels=" + kv(m.Labels, labelsIgnored) + " owner=" + n.ownerName(m)
	for _, a := range annotationsCompared {
		if v, ok := m.Annotations[a]; ok {
			s += " " + strings.TrimPrefix(a, "deployment.kubernetes.io/") + "=" + v
		}
	}
	if m.DeletionTimestamp != nil {
		s += " terminating"
	}
	if len(m.Finalizers) > 0 {
		s += " finalizers=" + strings.Join(m.Finalizers, ",")
	}
	return s
}

func conds[T any](cs []T, f func(T) (string, string, string)) string {
	var parts []string
	for _, c := range cs {
		t, st, reason := f(c)
		p := t + "=" + st
		if reason != "" {
			p += "(" + reason + ")"
		}
		parts = append(parts, p)
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ",")
}

func i32(p *int32) string {
	if p == nil {
		return "nil"
	}
	return strconv.Itoa(int(*p))
}

func podLine(p *api.Pod) string {
	s := "phase=" + p.Status.Phase + " ready=" + strconv.FormatBool(api.IsPodReady(p))
	var images []string
	var restarts int32
	for _, c := range p.Spec.Containers {
		images = append(images, c.Image)
	}
	for _, c := range p.Status.ContainerStatuses {
		restarts += c.RestartCount
	}
	s += " image=" + strings.Join(images, ",")
	if restarts > 0 {
		s += " restarts=" + strconv.Itoa(int(restarts))
	}
	if p.Status.Reason != "" {
		s += " reason=" + p.Status.Reason
	}
	s += " labels=" + kv(p.Metadata.Labels, labelsIgnored)
	if p.Metadata.DeletionTimestamp != nil {
		s += " terminating"
	}
	return s
}

// StateOf writes a reading's observable state.
func StateOf(r Reading) State {
	n := newNamer(r)
	st := State{}
	for _, o := range r[api.KindNode] {
		nd := o.(*api.Node)
		st["node/"+nd.Metadata.Name] = fmt.Sprintf("unschedulable=%v conditions=%s labels=%s", nd.Spec.Unschedulable,
			conds(nd.Status.Conditions, func(c api.NodeCondition) (string, string, string) { return c.Type, c.Status, "" }),
			kv(nd.Metadata.Labels, nil))
	}
	groups := map[string]map[string]int{}
	for _, o := range r[api.KindPod] {
		p := o.(*api.Pod)
		id := n.pods[p.Metadata.Namespace+"/"+p.Metadata.Name]
		if !generated(&p.Metadata) {
			st[id] = podLine(p) + " owner=" + n.ownerName(&p.Metadata)
			continue
		}
		if groups[id] == nil {
			groups[id] = map[string]int{}
		}
		groups[id][podLine(p)]++
	}
	for id, g := range groups {
		lines := slices.Sorted(maps.Keys(g))
		parts := make([]string, len(lines))
		for i, l := range lines {
			parts[i] = strconv.Itoa(g[l]) + "× " + l
		}
		st["pods: "+strings.Replace(id, "a pod of ", "of ", 1)] = strings.Join(parts, "; ")
	}
	for _, o := range r[api.KindReplicaSet] {
		rs := o.(*api.ReplicaSet)
		s := rs.Status
		st[n.rs[rs.Metadata.Namespace+"/"+rs.Metadata.Name]] = fmt.Sprintf(
			"spec.replicas=%s minReadySeconds=%d status: replicas=%d fullyLabeled=%d ready=%d available=%d observedGeneration=%d generation=%d conditions=%s %s",
			i32(rs.Spec.Replicas), rs.Spec.MinReadySeconds, s.Replicas, s.FullyLabeledReplicas, s.ReadyReplicas, s.AvailableReplicas,
			s.ObservedGeneration, rs.Metadata.Generation,
			conds(s.Conditions, func(c api.ReplicaSetCondition) (string, string, string) { return c.Type, c.Status, c.Reason }),
			metaLine(n, &rs.Metadata))
	}
	for _, o := range r[api.KindReplicationController] {
		rc := o.(*api.ReplicationController)
		s := rc.Status
		st[nsPrefix(rc.Metadata.Namespace)+"rc/"+rc.Metadata.Name] = fmt.Sprintf(
			"spec.replicas=%s status: replicas=%d fullyLabeled=%d ready=%d available=%d observedGeneration=%d generation=%d conditions=%s %s",
			i32(rc.Spec.Replicas), s.Replicas, s.FullyLabeledReplicas, s.ReadyReplicas, s.AvailableReplicas, s.ObservedGeneration, rc.Metadata.Generation,
			conds(s.Conditions, func(c api.ReplicationControllerCondition) (string, string, string) { return c.Type, c.Status, c.Reason }),
			metaLine(n, &rc.Metadata))
	}
	for _, o := range r[api.KindDeployment] {
		d := o.(*api.Deployment)
		s := d.Status
		st[nsPrefix(d.Metadata.Namespace)+"deploy/"+d.Metadata.Name] = fmt.Sprintf(
			"spec.replicas=%s paused=%v status: replicas=%d updated=%d ready=%d available=%d unavailable=%d observedGeneration=%d generation=%d conditions=%s %s",
			i32(d.Spec.Replicas), d.Spec.Paused, s.Replicas, s.UpdatedReplicas, s.ReadyReplicas, s.AvailableReplicas, s.UnavailableReplicas,
			s.ObservedGeneration, d.Metadata.Generation,
			conds(s.Conditions, func(c api.DeploymentCondition) (string, string, string) { return c.Type, c.Status, c.Reason }),
			metaLine(n, &d.Metadata))
	}
	type evAgg struct{ objects, total int }
	events := map[string]*evAgg{}
	for _, o := range r[api.KindEvent] {
		e := o.(*api.Event)
		key := "events: " + n.involved(e) + " " + e.Type + " " + e.Reason
		a := events[key]
		if a == nil {
			a = &evAgg{}
			events[key] = a
		}
		a.objects++
		a.total += int(e.Count)
	}
	for k, a := range events {
		st[k] = fmt.Sprintf("objects=%d total=%d", a.objects, a.total)
	}
	return st
}

// Line is one difference between two states.
type Line struct {
	Key       string
	Sim, Real string // "" where that side has no such key
}

// Diff lists the keys whose lines differ, sorted.
func Diff(sim, real State) []Line {
	keys := map[string]bool{}
	for k := range sim {
		keys[k] = true
	}
	for k := range real {
		keys[k] = true
	}
	var out []Line
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if sim[k] != real[k] {
			out = append(out, Line{Key: k, Sim: sim[k], Real: real[k]})
		}
	}
	return out
}

// String prints a difference as the report shows it.
func (l Line) String() string {
	show := func(s string) string {
		if s == "" {
			return "(absent)"
		}
		return s
	}
	return "  " + l.Key + "\n    rlab: " + show(l.Sim) + "\n    real: " + show(l.Real)
}
