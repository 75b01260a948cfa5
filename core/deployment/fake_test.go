package deployment

import (
	"slices"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sim"
)

// fakeEnv is the env the unit tests give a sync, as upstream's tests give
// theirs a fake clientset and a FakeRecorder: every call is recorded as an
// action and answered at once with success (or the error set for its verb
// and resource), the caches are slices, and the clock stands still.
type fakeEnv struct {
	actions []action
	events  []string
	clock   time.Time

	deployments []*api.Deployment
	rss         []*api.ReplicaSet
	pods        []*api.Pod
	// live is what a GET of a Deployment returns: the API server's copy,
	// which may differ from the cache's.
	live map[string]*api.Deployment

	// fail maps "verb resource" (as actions name them) to the error those
	// calls return.
	fail map[string]error

	rateLimited []string
	after       []time.Duration
	said        []string
	scales      []Scale
}

// action is one API call of a sync: its verb and resource as upstream's
// fake clientset names them ("update", "replicasets"), the object it sent,
// and the name it addressed.
type action struct {
	verb, resource string
	obj            api.Object
	name           string
}

func (a action) String() string { return a.verb + " " + a.resource }

func (f *fakeEnv) record(verb, resource, name string, obj api.Object) error {
	a := action{verb: verb, resource: resource, name: name}
	if obj != nil {
		a.obj = obj.DeepCopyObject()
	}
	f.actions = append(f.actions, a)
	return f.fail[a.String()]
}

func (f *fakeEnv) createReplicaSet(rs *api.ReplicaSet) (*api.ReplicaSet, error) {
	if err := f.record("create", "replicasets", rs.Metadata.Name, rs); err != nil {
		return nil, err
	}
	out := rs.DeepCopy()
	out.Metadata.UID = "created-" + rs.Metadata.Name
	return out, nil
}

func (f *fakeEnv) updateReplicaSet(rs *api.ReplicaSet) (*api.ReplicaSet, error) {
	if err := f.record("update", "replicasets", rs.Metadata.Name, rs); err != nil {
		return &api.ReplicaSet{}, err
	}
	return rs.DeepCopy(), nil
}

func (f *fakeEnv) deleteReplicaSet(_, name string) error {
	return f.record("delete", "replicasets", name, nil)
}

func (f *fakeEnv) patchReplicaSet(_, name string, _ apistore.MetaPatch) error {
	return f.record("patch", "replicasets", name, nil)
}

func (f *fakeEnv) getDeployment(namespace, name string) (*api.Deployment, error) {
	if err := f.record("get", "deployments", name, nil); err != nil {
		return nil, err
	}
	d, ok := f.live[api.Key(namespace, name)]
	if !ok {
		return nil, notFound("deployments.apps", name)
	}
	return d.DeepCopy(), nil
}

func (f *fakeEnv) updateDeployment(d *api.Deployment) error {
	return f.record("update", "deployments", d.Metadata.Name, d)
}

func (f *fakeEnv) updateDeploymentStatus(d *api.Deployment) error {
	return f.record("update", "deployments/status", d.Metadata.Name, d)
}

func (f *fakeEnv) cachedDeployment(namespace, name string) (*api.Deployment, bool) {
	for _, d := range f.deployments {
		if d.Metadata.Namespace == namespace && d.Metadata.Name == name {
			return d, true
		}
	}
	return nil, false
}

func (f *fakeEnv) cachedReplicaSets(namespace string) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, rs := range f.rss {
		if rs.Metadata.Namespace == namespace {
			out = append(out, rs)
		}
	}
	return out
}

func (f *fakeEnv) cachedReplicaSet(namespace, name string) (*api.ReplicaSet, bool) {
	for _, rs := range f.rss {
		if rs.Metadata.Namespace == namespace && rs.Metadata.Name == name {
			return rs, true
		}
	}
	return nil, false
}

func (f *fakeEnv) cachedPods(namespace string, sel labels.Selector, owners []string) []*api.Pod {
	var out []*api.Pod
	for _, p := range f.pods {
		ref := api.GetControllerOf(&p.Metadata)
		if p.Metadata.Namespace == namespace && sel.Matches(p.Metadata.Labels) && ref != nil && slices.Contains(owners, ref.UID) {
			out = append(out, p)
		}
	}
	return out
}

func (f *fakeEnv) now() time.Time { return f.clock }

func (f *fakeEnv) event(_ *api.Deployment, eventType, reason, message string) {
	f.events = append(f.events, eventType+" "+reason+" "+message)
}

func (f *fakeEnv) enqueueRateLimited(key string) { f.rateLimited = append(f.rateLimited, key) }

func (f *fakeEnv) enqueueAfter(_ string, after time.Duration) { f.after = append(f.after, after) }

func (f *fakeEnv) say(_, text string, _ ...sim.Ref) { f.said = append(f.said, text) }

func (f *fakeEnv) scaled(s Scale) { f.scales = append(f.scales, s) }

// verbs lists the actions as "verb resource", in order.
func (f *fakeEnv) verbs() []string {
	out := make([]string, len(f.actions))
	for i, a := range f.actions {
		out[i] = a.String()
	}
	return out
}

// updatedSizes returns, by name, the spec.replicas of every ReplicaSet the
// actions updated, the last update winning.
func (f *fakeEnv) updatedSizes() map[string]int32 {
	out := map[string]int32{}
	for _, a := range f.actions {
		if a.verb == "update" && a.resource == "replicasets" {
			rs := a.obj.(*api.ReplicaSet)
			out[rs.Metadata.Name] = *rs.Spec.Replicas
		}
	}
	return out
}

func (f *fakeEnv) deleted() []string {
	var out []string
	for _, a := range f.actions {
		if a.verb == "delete" {
			out = append(out, a.name)
		}
	}
	slices.Sort(out)
	return out
}

func newFake() (*fakeEnv, *dc) {
	f := &fakeEnv{clock: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), live: map[string]*api.Deployment{}, fail: map[string]error{}}
	return f, &dc{env: f}
}

var _ env = (*fakeEnv)(nil)
