package cluster

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// TestSentPartsAreSentAgainOnlyWhenEqual builds statuses in the kubelets'
// scratch lists, as status does, and checks what is sent: the last status's
// parts when they are equal field for field, a copy of its own when they
// differ in any field, and never the scratch list that the next status is
// built in.
func TestSentPartsAreSentAgainOnlyWhenEqual(t *testing.T) {
	at := time.Date(2024, 1, 1, 0, 0, 1, 0, time.UTC)
	conds := func(ready string) []api.PodCondition {
		return []api.PodCondition{
			{Type: "Initialized", Status: "True", LastTransitionTime: api.NewTime(at)},
			{Type: "Ready", Status: ready, LastTransitionTime: api.NewTime(at)},
		}
	}
	var p sentParts

	first := p.conditionsLike(conds("False"))
	require.Equal(t, conds("False"), first)
	assert.Len(t, first, cap(first), "a part sent is clipped: an append to it makes a new array")
	scratch := conds("False")
	again := p.conditionsLike(scratch)
	assert.Same(t, &first[0], &again[0], "equal conditions are sent as the last ones")
	assert.NotSame(t, &scratch[0], &again[0])
	changed := p.conditionsLike(conds("True"))
	assert.NotSame(t, &first[0], &changed[0], "a condition that differs makes a list of its own")
	assert.Equal(t, conds("True"), changed)
	assert.Equal(t, conds("False"), first, "the list sent before is left as it was")

	yes, no := true, false
	cs := func(started *bool, restarts int32) []api.ContainerStatus {
		return []api.ContainerStatus{{Name: "app", Image: "nginx", Ready: true, RestartCount: restarts, Started: started}}
	}
	c1 := p.containersLike(cs(&yes, 0))
	require.Equal(t, cs(&yes, 0), c1)
	scratchStarted := true
	c2 := p.containersLike(cs(&scratchStarted, 0))
	assert.Same(t, &c1[0], &c2[0], "Started is compared by the value it points at")
	assert.NotSame(t, &scratchStarted, c2[0].Started, "Started never points at the scratch value")
	scratchStarted = false
	c3 := p.containersLike(cs(&scratchStarted, 0))
	assert.NotSame(t, &c1[0], &c3[0])
	scratchStarted = true // as the next status is built
	assert.False(t, *c3[0].Started, "a Started sent points at a value of its own, not the scratch one")
	c4 := p.containersLike(cs(&no, 1))
	assert.NotSame(t, &c3[0], &c4[0], "a restart count that differs makes a list of its own")
	c5 := p.containersLike(cs(nil, 1))
	assert.NotSame(t, &c4[0], &c5[0], "so does a Started that is missing")
	assert.Nil(t, c5[0].Started)
	assert.True(t, *c1[0].Started, "the list sent before is left as it was")

	s1 := p.startTimeLike(at)
	assert.Same(t, s1, p.startTimeLike(at))
	s2 := p.startTimeLike(at.Add(time.Second))
	assert.NotSame(t, s1, s2)
	assert.Equal(t, api.NewTime(at), *s1)
}

// TestKeyedConditionsAreTheConditionsBuilt writes the statuses of pods one
// after another, as the kubelets do, and checks that each carries the
// conditions a kubelet with nothing remembered builds for it: the
// remembered conditions are sent again without being built only when they
// were built from the same times, all True, and never for a pod that is
// evicted, has a condition that is not True, or holds one that others own.
func TestKeyedConditionsAreTheConditionsBuilt(t *testing.T) {
	at := time.Date(2024, 1, 1, 0, 0, 1, 0, time.UTC)
	pod := func(others ...api.PodCondition) *api.Pod {
		return &api.Pod{
			Spec:   api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
			Status: api.PodStatus{Conditions: others},
		}
	}
	running := func(since time.Time, pod *api.Pod) *kpod {
		p := &kpod{pod: pod, phase: api.PodRunning, running: true, ready: true, startTime: stampOf(at)}
		for i := range p.conds {
			p.conds[i] = condOf(api.ConditionTrue, since)
		}
		return p
	}
	k := &Kubelets{nodeIndex: map[string]int{}}
	check := func(p *kpod, why string) []api.PodCondition {
		t.Helper()
		fresh := &Kubelets{nodeIndex: map[string]int{}}
		got := k.status(p).Conditions
		require.Equal(t, fresh.status(p).Conditions, got, why)
		return got
	}

	first := check(running(at, pod()), "the first status builds its conditions")
	again := check(running(at.Add(time.Millisecond), pod()), "a time within the same second")
	assert.Same(t, &first[0], &again[0], "conditions of the same key are the remembered ones")
	later := check(running(at.Add(time.Second), pod()), "a second later")
	assert.NotSame(t, &first[0], &later[0])

	notReady := running(at, pod())
	notReady.ready = false
	notReady.conds[condReady] = condOf(api.ConditionFalse, at)
	check(notReady, "a condition that is not True has a reason and a message")
	check(running(at, pod()), "all True again, after conditions that could not be keyed")

	custom := api.PodCondition{Type: "example.com/Gate", Status: api.ConditionTrue, LastTransitionTime: api.NewTime(at)}
	withOthers := check(running(at, pod(custom)), "a condition others own is written back")
	assert.Contains(t, withOthers, custom)
	check(running(at, pod()), "and left out when the pod no longer holds it")

	evicted := running(at, pod())
	evicted.evicted, evicted.message = true, EvictionMessage
	check(evicted, "an evicted pod reports DisruptionTarget")
	check(running(at, pod()), "all True again, after an eviction")
}
