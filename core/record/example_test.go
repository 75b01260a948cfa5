package record_test

import (
	"fmt"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/record"
	"github.com/reconcilelab/rlab/core/sim"
)

// A controller records the same failure three times; the recorder writes one
// Event and counts.
func Example() {
	k := sim.New(1)
	store := apistore.New(apistore.Options{Now: k.Wall, Rand: k.Rand()})
	srv := apistore.NewServer("apiserver", store, apistore.ServerConfig{})
	rec := record.New(record.Config{Component: "replicaset-controller", Server: srv})
	_ = k.Register("apiserver", srv)
	_ = k.Register(rec.Name(), rec)

	rs := &api.ReplicaSet{Metadata: api.ObjectMeta{Namespace: "default", Name: "web", UID: "rs-uid"}}
	for i := 0; i < 3; i++ {
		rec.Eventf(k, rs, api.EventWarning, "FailedCreate", "Error creating: etcdserver: request timed out")
	}
	if _, err := k.Stabilize(sim.Limits{}); err != nil {
		fmt.Println(err)
	}
	for _, obj := range store.Objects(api.KindEvent, "default") {
		ev := obj.(*api.Event)
		fmt.Println(ev.Type, ev.Reason, ev.InvolvedObject.Kind+"/"+ev.InvolvedObject.Name, "count", ev.Count)
	}
	// Output:
	// Warning FailedCreate ReplicaSet/web count 3
}
