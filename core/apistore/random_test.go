package apistore

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
)

// TestRandomOperations applies seeded random operations, valid and invalid,
// and after each one checks the store's invariants, that stored objects were
// never changed, and that a list-then-watch client (a toy informer) holds
// exactly what the store holds. A failure names the seed and the step; rerun
// one seed with -run 'TestRandomOperations/seed=N'.
func TestRandomOperations(t *testing.T) {
	seeds := 24
	steps := 400
	if testing.Short() {
		seeds, steps = 4, 200
	}
	for seed := 1; seed <= seeds; seed++ {
		t.Run("seed="+strconv.Itoa(seed), func(t *testing.T) {
			runRandom(t, uint64(seed), steps)
		})
	}
}

// toyInformer follows one kind with list-then-watch and relists when its
// watch expires, as a reflector does.
type toyInformer struct {
	kind    api.Kind
	cache   map[string]api.Object
	cursor  uint64
	relists int
}

func (inf *toyInformer) relist(s *Store) {
	inf.cache = map[string]api.Object{}
	for _, obj := range s.Objects(inf.kind, "") {
		inf.cache[keyOf(obj.Meta())] = obj
	}
	inf.cursor = s.ResourceVersion()
	inf.relists++
}

func (inf *toyInformer) sync(s *Store) {
	events, err := s.EventsSince(inf.kind, "", inf.cursor)
	if IsExpired(err) {
		inf.relist(s)
		return
	}
	for _, ev := range events {
		if ev.Type == Deleted {
			delete(inf.cache, keyOf(ev.Object.Meta()))
		} else {
			inf.cache[keyOf(ev.Object.Meta())] = ev.Object
		}
		inf.cursor = ev.ResourceVersion
	}
}

func (inf *toyInformer) agrees(s *Store) bool {
	objs := s.Objects(inf.kind, "")
	if len(objs) != len(inf.cache) {
		return false
	}
	for _, obj := range objs {
		if inf.cache[keyOf(obj.Meta())] != obj {
			return false
		}
	}
	return true
}

func runRandom(t *testing.T, seed uint64, steps int) {
	r := rand.New(rand.NewPCG(seed, 99))
	h := newHarnessWith(t, Options{WatchWindow: 5 + r.IntN(40), Rand: rand.New(rand.NewPCG(seed, 1))})
	s := h.s
	informers := []*toyInformer{{kind: api.KindPod}, {kind: api.KindReplicaSet}, {kind: api.KindNode}}
	for _, inf := range informers {
		inf.relist(s)
	}
	var snaps []*Snapshot
	namespaces := []string{"default", "team-a", "Bad"}
	labelsOf := func() map[string]string {
		switch r.IntN(4) {
		case 0:
			return nil
		case 1:
			return map[string]string{"app": "web"}
		case 2:
			return map[string]string{"app": "db", "tier": "back"}
		}
		return map[string]string{"app": "web", "bad key": "x"}
	}
	pick := func(kind api.Kind) api.Object {
		objs := s.Objects(kind, "")
		if len(objs) == 0 || r.IntN(10) == 0 {
			return newPod("default", "ghost", nil) // a name that does not exist
		}
		return objs[r.IntN(len(objs))]
	}

	for step := 0; step < steps; step++ {
		var op string
		var err error
		switch n := r.IntN(20); {
		case n < 4:
			p := newGeneratedPod(namespaces[r.IntN(3)], "web-", labelsOf())
			if r.IntN(3) == 0 {
				p.Spec.NodeName = "node-" + strconv.Itoa(r.IntN(3))
			}
			op = "create pod " + p.Metadata.Namespace + "/web-"
			_, err = s.Create(p)
		case n < 5:
			name := "rs-" + strconv.Itoa(r.IntN(4))
			rs := newRS("default", name, int32(r.IntN(4))-1, map[string]string{"app": "web"})
			if r.IntN(3) == 0 {
				rs.Metadata.Finalizers = []string{"example.com/hold"}
			}
			op = "create rs " + name
			_, err = s.Create(rs)
		case n < 6:
			name := "node-" + strconv.Itoa(r.IntN(4))
			op = "create node " + name
			_, err = s.Create(newNode(name))
		case n < 8:
			pod := pick(api.KindPod)
			in := pod.DeepCopyObject().(*api.Pod)
			in.Metadata.Labels = labelsOf()
			if r.IntN(3) == 0 {
				in.Metadata.ResourceVersion = "1" // probably stale
			}
			op = "update pod " + in.Metadata.Name
			_, err = s.Update(in)
		case n < 9:
			pod := pick(api.KindPod)
			in := pod.DeepCopyObject().(*api.Pod)
			in.Status.Phase = []string{api.PodRunning, api.PodSucceeded, api.PodFailed}[r.IntN(3)]
			op = "update status of pod " + in.Metadata.Name + " to " + in.Status.Phase
			_, err = s.UpdateStatus(in)
		case n < 10:
			pod := pick(api.KindPod)
			op = "bind pod " + pod.Meta().Name
			_, err = s.Bind(pod.Meta().Namespace, pod.Meta().Name, "node-"+strconv.Itoa(r.IntN(3)))
		case n < 12:
			pod := pick(api.KindPod)
			owner := pick(api.KindReplicaSet)
			p := MetaPatch{UID: pod.Meta().UID}
			switch r.IntN(4) {
			case 0:
				p.SetOwnerReferences = []api.OwnerReference{controllerRef(owner)}
			case 1:
				p.RemoveOwnerReferences = []string{owner.Meta().UID}
			case 2:
				p.SetLabels = labelsOf()
			case 3:
				p.RemoveFinalizers = []string{"example.com/hold"}
				p.AddFinalizers = []string{"example.com/other"}
			}
			op = "patch pod " + pod.Meta().Name
			_, err = s.Patch(api.KindPod, pod.Meta().Namespace, pod.Meta().Name, p)
		case n < 14:
			pod := pick(api.KindPod)
			var opts *DeleteOptions
			if r.IntN(2) == 0 {
				opts = GracePeriod(int64(r.IntN(40)) - 5)
			}
			op = "delete pod " + pod.Meta().Name
			_, err = s.Delete(api.KindPod, pod.Meta().Namespace, pod.Meta().Name, opts)
		case n < 15:
			rs := pick(api.KindReplicaSet)
			policies := []PropagationPolicy{"", DeletePropagationOrphan, DeletePropagationBackground, DeletePropagationForeground}
			policy := policies[r.IntN(4)]
			op = "delete rs " + rs.Meta().Name + " " + string(policy)
			_, err = s.Delete(api.KindReplicaSet, rs.Meta().Namespace, rs.Meta().Name, &DeleteOptions{PropagationPolicy: policy})
		case n < 16:
			rs := pick(api.KindReplicaSet)
			op = "remove finalizers of rs " + rs.Meta().Name
			_, err = s.Patch(api.KindReplicaSet, rs.Meta().Namespace, rs.Meta().Name, MetaPatch{
				RemoveFinalizers: []string{"example.com/hold", FinalizerOrphanDependents, FinalizerDeleteDependents}})
		case n < 17:
			node := pick(api.KindNode)
			op = "delete node " + node.Meta().Name
			_, err = s.Delete(api.KindNode, "", node.Meta().Name, nil)
		case n < 18:
			op = "advance the clock"
			h.clock.Advance(time.Duration(r.IntN(5000)) * time.Millisecond)
		case n < 19:
			switch r.IntN(3) {
			case 0:
				op = "snapshot"
				snaps = append(snaps, s.Snapshot())
			case 1:
				if len(snaps) > 0 {
					op = "restore"
					s.Restore(snaps[r.IntN(len(snaps))])
					for _, inf := range informers {
						inf.relist(s) // a restored world's informers are restored too
					}
				}
			case 2:
				op = "fault"
				verbs := []Verb{VerbCreate, VerbUpdate, VerbPatch, VerbDelete, ""}
				_, err = s.Faults().Add(FaultRule{Verb: verbs[r.IntN(len(verbs))], Resource: "pods",
					Count: 1 + r.IntN(3), After: r.IntN(2), Error: FaultKinds[r.IntN(len(FaultKinds))]})
			}
		default:
			op = "list and heal"
			sel, _ := labels.Parse("app=web")
			_, _, err = s.List(api.KindPod, "", sel)
			if r.IntN(2) == 0 {
				s.Faults().HealAll()
			}
		}
		if err != nil {
			if _, ok := err.(*StatusError); !ok {
				t.Fatalf("seed %d, step %d, %s: an error that is not a *StatusError: %v", seed, step, op, err)
			}
		}
		if cerr := s.CheckInvariants(); cerr != nil {
			t.Fatalf("seed %d, step %d, %s: %v", seed, step, op, cerr)
		}
		h.guard.verify(t, s)
		for _, inf := range informers {
			inf.sync(s)
			if !inf.agrees(s) {
				t.Fatalf("seed %d, step %d, %s: a list-then-watch client of %s disagrees with the store", seed, step, op, inf.kind)
			}
		}
	}
}
