package cluster

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/sim"
)

// harness is a kernel with an API server, the cluster and a "user" client
// that creates and deletes pods, stepped by the test. Every step is recorded.
type harness struct {
	t     *testing.T
	k     *sim.Kernel
	store *apistore.Store
	srv   *apistore.Server
	c     *Cluster
	user  *Client
	steps []sim.StepResult
}

type harnessOption func(*apistore.ServerConfig)

func noGraceEnforcement(c *apistore.ServerConfig) { c.NoGraceEnforcement = true }

func newHarness(t *testing.T, cfg Config, opts ...harnessOption) *harness {
	t.Helper()
	k := sim.New(1)
	store := apistore.New(apistore.Options{Now: k.Wall, Rand: k.Rand()})
	var scfg apistore.ServerConfig
	for _, o := range opts {
		o(&scfg)
	}
	srv := apistore.NewServer("apiserver", store, scfg)
	require.NoError(t, k.Register("apiserver", srv))
	c, err := New(cfg, srv, k)
	require.NoError(t, err)
	require.NoError(t, c.Register(k))
	user := NewClient("user", srv, k)
	require.NoError(t, k.Register("user", user))
	c.Start()
	return &harness{t: t, k: k, store: store, srv: srv, c: c, user: user}
}

// started returns a harness whose nodes are registered and whose components
// watch, with nothing else going on.
func started(t *testing.T, cfg Config, opts ...harnessOption) *harness {
	h := newHarness(t, cfg, opts...)
	h.stabilize()
	return h
}

func (h *harness) step() sim.StepResult {
	h.t.Helper()
	res, ok := h.k.Step()
	require.True(h.t, ok, "the agenda is empty")
	h.steps = append(h.steps, res.Kept())
	return res
}

func (h *harness) stabilize() {
	h.t.Helper()
	for h.k.Busy() {
		h.step()
		require.Less(h.t, len(h.steps), 2_000_000, "the world does not settle")
	}
}

// until steps until a step satisfies f and returns it.
func (h *harness) until(what string, f func(sim.StepResult) bool) sim.StepResult {
	h.t.Helper()
	for h.k.Pending() {
		if res := h.step(); f(res) {
			return res
		}
	}
	h.t.Fatalf("the agenda ran dry before %s", what)
	return sim.StepResult{}
}

// advance runs everything due within d.
func (h *harness) advance(d time.Duration) {
	h.steps = append(h.steps, h.k.Advance(d)...)
}

func newPod(name, node string) *api.Pod {
	return &api.Pod{
		Metadata: api.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{"app": "web"}},
		Spec:     api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}, NodeName: node},
	}
}

// createPod sends a create from the user client; it reaches the server at
// the next steps.
func (h *harness) createPod(name, node string) {
	h.user.Send(apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindPod, Object: newPod(name, node)})
}

func (h *harness) deletePod(name string, grace int64) {
	h.user.Send(apistore.Request{Verb: apistore.VerbDelete, Kind: api.KindPod, Namespace: "default", Name: name,
		DeleteOptions: apistore.GracePeriod(grace)})
}

func (h *harness) pod(name string) *api.Pod {
	h.t.Helper()
	obj, ok := h.store.Object(api.KindPod, "default", name)
	require.True(h.t, ok, "pod %s is not in the store", name)
	return obj.(*api.Pod)
}

func (h *harness) hasPod(name string) bool {
	_, ok := h.store.Object(api.KindPod, "default", name)
	return ok
}

func (h *harness) node(name string) *api.Node {
	h.t.Helper()
	obj, ok := h.store.Object(api.KindNode, "", name)
	require.True(h.t, ok, "node %s is not in the store", name)
	return obj.(*api.Node)
}

// stepsOf returns the recorded steps of an actor whose models column is
// models ("" for any) and whose summary mentions pod/name ("" for any).
func (h *harness) stepsOf(actor, models, name string) []sim.StepResult {
	var out []sim.StepResult
	for _, s := range h.steps {
		if s.Actor != actor || (models != "" && s.Models != models) {
			continue
		}
		if name != "" && !strings.Contains(s.Summary.String(), "pod/"+name+" ") && !strings.HasSuffix(s.Summary.String(), "pod/"+name) &&
			!strings.Contains(s.Summary.String(), "pod/"+name+",") && !strings.Contains(s.Summary.String(), "pod/"+name+":") {
			continue
		}
		out = append(out, s)
	}
	return out
}

// firstStep returns the first recorded step matching stepsOf's filters.
func (h *harness) firstStep(actor, models, name string) sim.StepResult {
	h.t.Helper()
	steps := h.stepsOf(actor, models, name)
	require.NotEmpty(h.t, steps, "no step of %s %s for pod/%s", actor, models, name)
	return steps[0]
}

// requests counts the requests the server received from a component, of a
// verb and resource ("" matches any).
func (h *harness) requests(from string, verb apistore.Verb, resource string) int {
	n := 0
	for _, r := range h.srv.Requests() {
		if (from == "" || r.From == from) && (verb == "" || r.Verb == verb) && (resource == "" || r.Resource == resource) {
			n++
		}
	}
	return n
}

func condition(p *api.Pod, typ string) (api.PodCondition, bool) {
	for _, c := range p.Status.Conditions {
		if c.Type == typ {
			return c, true
		}
	}
	return api.PodCondition{}, false
}

// at is a simulated time as a wall-clock timestamp, truncated to the second
// as the API stores it.
func at(d time.Duration) time.Time { return sim.Epoch.Add(d).Truncate(time.Second) }
