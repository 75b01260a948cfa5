package controller

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"

	"github.com/reconcilelab/rlab/core/api"
)

// TestDecisionWords pins the words a sync's decision and its status write
// are joined from, which are written into a buffer rather than joined with
// +: counts with their nouns, the slow-start batches, and a status with and
// without its ReplicaFailure condition.
func TestDecisionWords(t *testing.T) {
	for n, want := range map[int]string{0: "0 pods", 1: "1 pod", 2: "2 pods", 1000: "1000 pods"} {
		assert.Equal(t, want, string(appendCount(nil, n, "pod")))
	}
	assert.Equal(t, "x: one batch of 3", string(appendBatches([]byte("x: "), []int{3})))
	assert.Equal(t, "slow-start batches of 1, 2, 4, 3", string(appendBatches(nil, []int{1, 2, 4, 3})))

	status := api.ReplicaSetStatus{Replicas: 3, ReadyReplicas: 2, AvailableReplicas: 1}
	assert.Equal(t, "replicas=3 ready=2 available=1", statusWords(status))
	status.Conditions = []api.ReplicaSetCondition{{Type: api.ReplicaFailure, Status: "True", Reason: "FailedCreate"}}
	assert.Equal(t, "replicas=3 ready=2 available=1 ReplicaFailure=True (FailedCreate)", statusWords(status))
}

// TestDecisionTextKeepsTheLastString: a decision that reads as the last one
// is that very string, not a new copy; one that reads otherwise is its own
// text, and is remembered in turn. A buffer changed after the call changes
// no string handed out.
func TestDecisionTextKeepsTheLastString(t *testing.T) {
	var m Manager
	buf := []byte("10 pods owned, want 10: nothing to create or delete")
	first := m.decisionText(buf)
	assert.Equal(t, string(buf), first)
	again := m.decisionText([]byte("10 pods owned, want 10: nothing to create or delete"))
	assert.Same(t, unsafe.StringData(first), unsafe.StringData(again), "the same words are the same string")

	copy(buf, "9")
	assert.Equal(t, "10 pods owned, want 10: nothing to create or delete", first, "the string is its own copy of the buffer")
	other := m.decisionText(buf)
	assert.Equal(t, "90 pods owned, want 10: nothing to create or delete", other)
	assert.Same(t, unsafe.StringData(other), unsafe.StringData(m.decisionText(buf)))
}

// TestStatusWordsOfKeepsTheLastString: a status with the last one's counts
// and no conditions gets the last one's words, the very string; a status
// with a condition gets its own words and is never the answer for the same
// counts without it; other counts get theirs.
func TestStatusWordsOfKeepsTheLastString(t *testing.T) {
	var m Manager
	status := api.ReplicaSetStatus{Replicas: 3, ReadyReplicas: 2, AvailableReplicas: 1, ObservedGeneration: 4}
	first := m.statusWordsOf(&status)
	assert.Equal(t, statusWords(status), first)
	same := api.ReplicaSetStatus{Replicas: 3, ReadyReplicas: 2, AvailableReplicas: 1, FullyLabeledReplicas: 3}
	assert.Same(t, unsafe.StringData(first), unsafe.StringData(m.statusWordsOf(&same)), "the same counts are the same string")

	failed := status
	failed.Conditions = []api.ReplicaSetCondition{{Type: api.ReplicaFailure, Status: "True", Reason: "FailedCreate"}}
	assert.Equal(t, statusWords(failed), m.statusWordsOf(&failed))
	assert.Equal(t, statusWords(failed), m.statusWordsOf(&failed), "a condition is said every time")
	assert.Equal(t, statusWords(status), m.statusWordsOf(&status), "the counts alone do not say the condition")

	for _, s := range []api.ReplicaSetStatus{{Replicas: 4, ReadyReplicas: 2, AvailableReplicas: 1},
		{Replicas: 4, ReadyReplicas: 3, AvailableReplicas: 1}, {Replicas: 4, ReadyReplicas: 3, AvailableReplicas: 3}, {}} {
		assert.Equal(t, statusWords(s), m.statusWordsOf(&s))
	}
}

// TestKeyOfRemembersKeysByName: keyOf gives every owner its own key,
// namespace and name, whichever owners came before it, also two of one name
// in two namespaces, and an owner it saw before, not the one before it, gets
// the string it joined then.
func TestKeyOfRemembersKeysByName(t *testing.T) {
	var m Manager
	metas := []api.ObjectMeta{
		{Namespace: "default", Name: "web"}, {Namespace: "default", Name: "api"}, {Namespace: "prod", Name: "web"},
		{Namespace: "pro", Name: "dweb"}, {Namespace: "", Name: "web"}, {Namespace: "default", Name: "web"},
		{Namespace: "prod", Name: "web"}, {Namespace: "default", Name: "api"}, {Namespace: "default", Name: "api"},
	}
	for _, meta := range metas {
		assert.Equal(t, api.Key(meta.Namespace, meta.Name), m.keyOf(&meta))
	}
	api1 := m.keyOf(&api.ObjectMeta{Namespace: "default", Name: "api"})
	m.keyOf(&api.ObjectMeta{Namespace: "default", Name: "web"})
	api2 := m.keyOf(&api.ObjectMeta{Namespace: "default", Name: "api"})
	assert.Same(t, unsafe.StringData(api1), unsafe.StringData(api2), "a key seen before is the same string")
}
