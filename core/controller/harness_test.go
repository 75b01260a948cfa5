package controller

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/informer"
	"github.com/reconcilelab/rlab/core/sim"
)

// rig is a small world for the manager's tests: a kernel, an API server,
// the two informers and the manager, with no scheduler or kubelet, so pods
// stay Pending unless a test changes them.
type rig struct {
	t     *testing.T
	k     *sim.Kernel
	srv   *apistore.Server
	pods  *informer.Informer
	rss   *informer.Informer
	m     *Manager
	trace []sim.StepResult
}

// kubectl is the test's client: it ignores the answers.
type kubectl struct{}

func (kubectl) Handle(*sim.Context, sim.Event) sim.Report {
	return sim.Report{Actor: "kubectl", Summary: "answer"}
}
func (kubectl) Snapshot() any { return nil }
func (kubectl) Restore(any)   {}

func newRig(t *testing.T, kind api.Kind, cfg Config) *rig {
	t.Helper()
	k := sim.New(1)
	store := apistore.New(apistore.Options{Now: k.Wall, Rand: k.Rand()})
	srv := apistore.NewServer("apiserver", store, apistore.ServerConfig{})
	pods := informer.New(informer.Config{Name: "informer/pods", Kind: api.KindPod, Server: srv}, k)
	owners := informer.New(informer.Config{Name: "informer/" + kind.Resource(), Kind: kind, Server: srv}, k)
	cfg.Kind, cfg.Server, cfg.Pods, cfg.Owners = kind, srv, pods, owners
	m := New(cfg, k)
	require.NoError(t, k.Register("apiserver", srv))
	require.NoError(t, k.Register("kubectl", kubectl{}))
	require.NoError(t, k.Register(pods.Name(), pods))
	require.NoError(t, k.Register(owners.Name(), owners))
	for _, c := range m.Components() {
		require.NoError(t, k.Register(c.Name, c.Component))
	}
	require.NoError(t, m.Start())
	pods.Start()
	owners.Start()
	r := &rig{t: t, k: k, srv: srv, pods: pods, rss: owners, m: m}
	r.settle()
	return r
}

func (r *rig) do(req apistore.Request) { r.srv.Send(r.k, "kubectl", req) }

// settle steps until nothing but background work is left.
func (r *rig) settle() {
	r.t.Helper()
	for n := 0; r.k.Busy(); n++ {
		require.Less(r.t, n, 100000, "the world does not settle")
		res, ok := r.k.Step()
		require.True(r.t, ok)
		r.trace = append(r.trace, res)
	}
}

func (r *rig) traceText() string {
	var b strings.Builder
	for _, s := range r.trace {
		b.WriteString(s.TraceLine())
		b.WriteByte('\n')
	}
	return b.String()
}

func newRS(name string, replicas int32, sel map[string]string) *api.ReplicaSet {
	return &api.ReplicaSet{
		Metadata: api.ObjectMeta{Namespace: "default", Name: name},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: sel},
			Template: api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: sel},
				Spec:     api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
			},
		},
	}
}

func (r *rig) podsOwnedBy(name string) []*api.Pod {
	var out []*api.Pod
	for _, o := range r.srv.Store().Objects(api.KindPod, "default") {
		p := o.(*api.Pod)
		if ref := api.GetControllerOf(&p.Metadata); ref != nil && ref.Name == name && p.Metadata.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out
}

func (r *rig) rsStatus(name string) api.ReplicaSetStatus {
	o, ok := r.srv.Store().Object(api.KindReplicaSet, "default", name)
	require.True(r.t, ok)
	return o.(*api.ReplicaSet).Status
}

func TestSmokeScaleUpFromZero(t *testing.T) {
	r := newRig(t, api.KindReplicaSet, Config{})
	r.do(apistore.Request{Verb: apistore.VerbCreate, Kind: api.KindReplicaSet, Object: newRS("web", 5, map[string]string{"app": "web"})})
	r.settle()
	t.Log("\n" + r.traceText())
	require.Len(t, r.podsOwnedBy("web"), 5)
	require.Equal(t, int32(5), r.rsStatus("web").Replicas)
}
