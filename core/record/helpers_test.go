package record

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
)

// rig is a kernel with an API server and one recorder on it.
type rig struct {
	t     *testing.T
	k     *sim.Kernel
	srv   *apistore.Server
	rec   *Recorder
	trace []string
}

func newRig(t *testing.T, cfg Config) *rig {
	t.Helper()
	k := sim.New(1)
	store := apistore.New(apistore.Options{Now: k.Wall, Rand: k.Rand()})
	srv := apistore.NewServer("apiserver", store, apistore.ServerConfig{})
	if cfg.Component == "" {
		cfg.Component = "replicaset-controller"
	}
	cfg.Server = srv
	rec := New(cfg)
	require.NoError(t, k.Register("apiserver", srv))
	require.NoError(t, k.Register(rec.Name(), rec))
	return &rig{t: t, k: k, srv: srv, rec: rec}
}

// rs stores a ReplicaSet directly and returns it as stored.
func (r *rig) rs(name string) *api.ReplicaSet {
	r.t.Helper()
	three := int32(3)
	obj, err := r.srv.Store().Create(&api.ReplicaSet{
		Metadata: api.ObjectMeta{Namespace: "default", Name: name},
		Spec: api.ReplicaSetSpec{
			Replicas: &three,
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Template: api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: map[string]string{"app": name}},
				Spec:     api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
			},
		},
	})
	require.NoError(r.t, err)
	return obj.(*api.ReplicaSet)
}

// step runs one step, records its trace line and checks the invariants.
func (r *rig) step() sim.StepResult {
	r.t.Helper()
	res, ok := r.k.Step()
	require.True(r.t, ok, "the agenda is empty")
	r.trace = append(r.trace, res.TraceLine())
	r.check()
	return res
}

// settle steps until nothing but background events is left.
func (r *rig) settle() {
	r.t.Helper()
	for n := 0; r.k.Busy(); n++ {
		require.Less(r.t, n, 100000, "the world does not settle")
		r.step()
	}
}

// advance moves the clock, running what falls due.
func (r *rig) advance(d time.Duration) {
	r.t.Helper()
	for _, res := range r.k.Advance(d) {
		r.trace = append(r.trace, res.TraceLine())
		r.check()
	}
}

// check verifies the recorder's invariants.
func (r *rig) check() {
	r.t.Helper()
	rec := r.rec
	require.False(r.t, rec.write != nil && rec.scheduled, "a process step is on the agenda while a write is under way")
	if rec.write != nil {
		require.False(r.t, rec.write.request != 0 && rec.write.timer != 0, "a write is both in flight and waiting to retry")
	}
	checkLRU(r.t, rec.corr.aggregator)
	checkLRU(r.t, rec.corr.logger)
	checkLRU(r.t, rec.corr.spam)
	for _, key := range sortedKeys(rec.corr.spam) {
		e := rec.corr.spam.slots[rec.corr.spam.entries[key]]
		require.LessOrEqual(r.t, e.value.bucket.tokens, float64(rec.corr.opts.Burst), "bucket over its burst")
	}
}

// events returns the stored Events, oldest name first.
func (r *rig) events() []*api.Event {
	var out []*api.Event
	for _, obj := range r.srv.Store().Objects(api.KindEvent, "") {
		out = append(out, obj.(*api.Event))
	}
	slices.SortFunc(out, func(a, b *api.Event) int { return strings.Compare(a.Metadata.Name, b.Metadata.Name) })
	return out
}

// requests counts the requests of a verb on events.
func (r *rig) requests(verb apistore.Verb) int {
	n := 0
	for _, rec := range r.srv.Requests() {
		if rec.Verb == verb && rec.Resource == "events" {
			n++
		}
	}
	return n
}

func (r *rig) traceContains(s string) bool {
	for _, line := range r.trace {
		if strings.Contains(line, s) {
			return true
		}
	}
	return false
}

// checkLRU verifies a cache: within capacity, every key's place holds the
// key, every place is a key's or free, and every entry's tick is that of the
// newest record of its place in the log, which no later key took.
func checkLRU[V any](t *testing.T, c *lru[V]) {
	t.Helper()
	require.LessOrEqual(t, len(c.entries), c.capacity)
	require.Equal(t, len(c.slots), len(c.entries)+len(c.free), "a place is neither a key's nor free")
	for _, i := range c.free {
		require.Zero(t, c.slots[i].tick, "a free place holds an entry")
	}
	newest := map[int32]uint64{}
	var prev uint64
	for _, u := range c.log[c.head:] {
		require.Greater(t, u.tick, prev, "log out of order")
		prev = u.tick
		newest[u.slot] = u.tick
	}
	for _, key := range sortedKeys(c) {
		e := c.slots[c.entries[key]]
		require.Equal(t, key, e.key, "entry %q is not in its place", key)
		require.NotZero(t, e.tick, "entry %q is free", key)
		require.Equal(t, newest[c.entries[key]], e.tick, "entry %q is not its newest log record", key)
	}
}

func sortedKeys[V any](c *lru[V]) []string {
	keys := make([]string, 0, len(c.entries))
	for k := range c.entries {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
