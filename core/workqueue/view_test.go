package workqueue

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/sim"
)

// busyQueue builds a rate-limiting queue with something in most parts of its
// view: a waiting key, a key processed and dirty, a key processed and clean,
// delayed keys and failure counts. (Idle workers and waiting keys seldom
// meet: a key that arrives wakes an idle worker.)
func busyQueue(t *testing.T) (*sim.Kernel, *checked) {
	t.Helper()
	k, q := newRateLimitingWorld(t, Config{Name: "replicaset", Kind: "rs"}, nil)
	q.Add("default/web")
	q.Add("default/api")
	q.Add("default/db")
	q.Get("worker-1") // default/web
	q.Get("worker-2") // default/api
	q.Add("default/web")
	q.AddRateLimited("default/cache")
	q.AddRateLimited("default/cache")
	q.AddAfter("kube-system/dns", time.Second)
	q.AddRateLimited("default/api")
	return k, q
}

func TestViewShowsEveryPartOfTheQueue(t *testing.T) {
	_, q := busyQueue(t)
	assert.Equal(t, View{
		Name:       "replicaset",
		Waiting:    []string{"default/db"},
		Dirty:      []string{"default/db", "default/web"},
		Processing: []Held{{Key: "default/api", Worker: "worker-2"}, {Key: "default/web", Worker: "worker-1"}},
		Delayed: []DelayedKey{
			{Key: "default/cache", ReadyAt: 5 * ms, Delay: 5 * ms, RateLimited: true},
			{Key: "default/api", ReadyAt: 5 * ms, Delay: 5 * ms, RateLimited: true},
			{Key: "kube-system/dns", ReadyAt: time.Second, Delay: time.Second},
		},
		Requeues: []Requeues{{Key: "default/api", Count: 1}, {Key: "default/cache", Count: 2}},
	}, q.view())

	q.ShutDownWithDrain("main")
	v := q.view()
	assert.True(t, v.ShuttingDown)
	assert.Equal(t, Draining, v.Drain)
	assert.Empty(t, v.Delayed)
}

func TestViewListsIdleWorkers(t *testing.T) {
	_, q, _ := newPlainWorld(t)
	q.Get("worker-2")
	q.Get("worker-1")
	assert.Equal(t, []string{"worker-2", "worker-1"}, q.view().IdleWorkers, "longest waiting first")
}

func TestViewSharesNothingWithTheQueue(t *testing.T) {
	_, q := busyQueue(t)
	v := q.view()
	want := q.view()
	v.Waiting[0] = "changed"
	v.Processing[0].Key = "changed"
	v.Delayed[0].Key = "changed"
	v.Requeues[0].Count = 99
	assert.Equal(t, want, q.view())
}

func TestPlainQueueViewHasNoDelayedOrRequeues(t *testing.T) {
	q := checkPlain(t, nil, New(Config{Name: "plain"}))
	q.Add("b")
	q.Add("a")
	v := q.view()
	assert.Equal(t, View{Name: "plain", Waiting: []string{"b", "a"}, Dirty: []string{"a", "b"}}, v)
	require.Empty(t, v.Delayed)
}
