package gc

import (
	"maps"
	"slices"

	"github.com/reconcilelab/rlab/core/cow"
)

// nodeParts is how many parts nodeSet keeps the graph's nodes in.
const nodeParts = 256

// nodeSet holds the graph's nodes by uid, in nodeParts maps chosen by a hash
// of the uid. A snapshot shares every part (it copies the array of their
// headers); the first change to a part after a snapshot or a restore copies
// that part alone (cow.Map). One map of every node, copied whole at the
// first change after each snapshot, was the largest copy the page made while
// 1,000 ReplicaSets of 10 pods converged (53 MB): the page's snapshots are a
// few thousand steps apart by then, and the few dozen nodes that change
// between two of them fall in a fraction of the parts.
type nodeSet struct {
	parts [nodeParts]cow.Map[*node]
	epoch cow.Epoch

	// slots is where put writes the nodes it stores: a chunk of nodes, one
	// allocation for many, where every node stored was an allocation of
	// its own. A node is never changed once stored (put stores a new one),
	// so, as with a sim.Slab, parts and snapshots share the slots
	// read-only, and slots is not state: a full chunk is left to the nodes
	// still held, and a restore neither copies nor rewinds it.
	slots []node
}

// nodeChunk is how many nodes one chunk of slots holds (4 KiB): small,
// because a node still held keeps its whole chunk alive.
const nodeChunk = 32

// partOf picks the part of a uid: FNV-1a of its last eight bytes, a fixed
// function, so that a world's parts are the same from run to run (nothing
// walks them unsorted, but nothing should depend on that either). The API
// server's uids end in twelve random hex digits, so eight of them spread
// the nodes as well as the whole uid did, in a fifth of the work: hashing
// all 36 bytes of every uid the graph looked up was 0.7% of a run.
func partOf(uid string) int {
	h := uint32(2166136261)
	for i := max(len(uid)-8, 0); i < len(uid); i++ {
		h ^= uint32(uid[i])
		h *= 16777619
	}
	return int(h % nodeParts)
}

func (s *nodeSet) get(uid string) (node, bool) {
	n, ok := s.parts[partOf(uid)].Read()[uid]
	if !ok {
		return node{}, false
	}
	return *n, true
}

// put stores n under its uid.
func (s *nodeSet) put(n node) {
	if len(s.slots) == cap(s.slots) {
		s.slots = make([]node, 0, nodeChunk)
	}
	s.slots = append(s.slots, n)
	s.parts[partOf(n.uid)].Write(s.epoch)[n.uid] = &s.slots[len(s.slots)-1]
}

func (s *nodeSet) remove(uid string) {
	p := &s.parts[partOf(uid)]
	if _, ok := p.Read()[uid]; ok {
		delete(p.Write(s.epoch), uid)
	}
}

// len returns how many nodes the set holds.
func (s *nodeSet) len() int {
	n := 0
	for i := range s.parts {
		n += len(s.parts[i].Read())
	}
	return n
}

// sortedUIDs returns every uid, in order: the one way to walk the set.
func (s *nodeSet) sortedUIDs() []string {
	out := make([]string, 0, s.len())
	for i := range s.parts {
		out = append(out, slices.Sorted(maps.Keys(s.parts[i].Read()))...)
	}
	slices.Sort(out)
	return out
}

// share returns the parts for a snapshot, which from then on shares them:
// the set copies a part before its next change.
func (s *nodeSet) share() [nodeParts]cow.Map[*node] {
	s.epoch.Next()
	return s.parts
}

// restore takes back the parts a snapshot shares; they are copied before
// their next change, so the snapshot can be restored again.
func (s *nodeSet) restore(parts [nodeParts]cow.Map[*node]) {
	s.parts = parts
	s.epoch.Next()
}
