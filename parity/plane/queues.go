package plane

import (
	"k8s.io/component-base/metrics/legacyregistry"
	// Importing it registers the workqueue metrics with the legacy registry
	// and makes them every workqueue's metrics provider; the controllers'
	// packages import it already, this says that the plane relies on it.
	_ "k8s.io/component-base/metrics/prometheus/workqueue"
)

// ControllerQueues are the workqueues of the plane's controllers, by the
// names they give them upstream: what stabilize watches for activity.
var ControllerQueues = []string{
	"replicaset", "replicationmanager", "deployment",
	"garbage_collector_attempt_to_delete", "garbage_collector_attempt_to_orphan", "garbage_collector_graph_changes",
}

// QueueActivity is what a workqueue holds now, read from its metrics.
type QueueActivity struct {
	// Depth is the number of keys waiting to be handed to a worker.
	Depth float64
	// InFlight is the number of keys handed out and not yet Done: the
	// queue's gets (observations of its queue latency) less its Dones
	// (observations of its work duration).
	InFlight float64
	// Adds counts every key ever added.
	Adds float64
}

// Queues reads the controllers' workqueues from the process's workqueue
// metrics. A key waiting in a delaying queue's heap (AddAfter, a rate
// limiter's back-off) is not in them until its time comes: stabilize covers
// those by what they are waiting for (see the runner's settled rules).
func Queues() (map[string]QueueActivity, error) {
	families, err := legacyregistry.DefaultGatherer.Gather()
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, q := range ControllerQueues {
		want[q] = true
	}
	out := map[string]QueueActivity{}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			name := ""
			for _, l := range m.GetLabel() {
				if l.GetName() == "name" {
					name = l.GetValue()
				}
			}
			if !want[name] {
				continue
			}
			a := out[name]
			switch f.GetName() {
			case "workqueue_depth":
				a.Depth = m.GetGauge().GetValue()
			case "workqueue_adds_total":
				a.Adds = m.GetCounter().GetValue()
			case "workqueue_queue_duration_seconds":
				a.InFlight += float64(m.GetHistogram().GetSampleCount())
			case "workqueue_work_duration_seconds":
				a.InFlight -= float64(m.GetHistogram().GetSampleCount())
			}
			out[name] = a
		}
	}
	return out, nil
}
