package loop_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/loop"
	"github.com/reconcilelab/rlab/core/script"
	"github.com/reconcilelab/rlab/core/sim"
)

// run runs setup, then script, in one session, and returns the steps script
// ran, each with its move; the test fails on a step with no place.
func run(t *testing.T, setup, src string) []placed {
	t.Helper()
	var got []placed
	recording := false
	s := script.NewSession(script.Options{SnapshotEvery: -1, OnStep: func(step sim.StepResult) {
		if !recording {
			return
		}
		m, ok := loop.Of(step)
		require.True(t, ok, "no place for %s", step.TraceLine())
		got = append(got, placed{step.Kept(), m})
	}})
	parsed, err := script.Parse(setup, "setup")
	require.NoError(t, err)
	require.NoError(t, s.RunScript(parsed))
	recording = true
	parsed, err = script.Parse(src, "script")
	require.NoError(t, err)
	require.NoError(t, s.RunScript(parsed))
	return got
}

type placed struct {
	step sim.StepResult
	move loop.Move
}

// first returns the first step after from whose actor starts with actor and
// whose function is models, and its index.
func first(t *testing.T, steps []placed, from int, actor, models string) (int, placed) {
	t.Helper()
	for i := from; i < len(steps); i++ {
		if strings.HasPrefix(steps[i].step.Actor, actor) && steps[i].step.Models == models {
			return i, steps[i]
		}
	}
	require.Failf(t, "no such step", "no step of %s modelling %s after #%d", actor, models, from)
	return 0, placed{}
}

const world = "seed 1\ncreate rs web --replicas=3 --selector=app=web\nstabilize\n"

// TestAKilledPodTravelsTheLoop follows a killed pod around the loop, as the
// page draws it: kubectl's delete reaches the API server, the watch event the
// pod informer's reflector, the DeltaFIFO is popped into the indexer and the
// handlers, the ReplicaSet's handler hands its key to the queue, a worker
// takes it, and the create it sends reaches the API server.
func TestAKilledPodTravelsTheLoop(t *testing.T) {
	steps := run(t, world, "kill pods -l app=web --pick=oldest\nstabilize\n")

	i, del := first(t, steps, 0, "apiserver", "registry.Delete")
	assert.Equal(t, loop.Move{Lit: []loop.Place{loop.APIServer}, From: loop.Kubectl, To: loop.APIServer, Token: "delete pods"}, del.move)

	i, watch := first(t, steps, i, "informer/pods", "watchHandler")
	reflector := loop.InformerPlace("informer/pods", loop.Reflector)
	assert.Equal(t, loop.APIServer, watch.move.From)
	assert.Equal(t, reflector, watch.move.To)
	assert.Equal(t, []loop.Place{reflector}, watch.move.Lit)
	assert.Regexp(t, `^MODIFIED pod/web-`, watch.move.Token)

	i, pop := first(t, steps, i, "informer/pods", "processDeltas")
	fifo, handlers := loop.InformerPlace("informer/pods", loop.FIFO), loop.InformerPlace("informer/pods", loop.Handlers)
	assert.Equal(t, []loop.Place{fifo, loop.InformerPlace("informer/pods", loop.Indexer), handlers}, pop.move.Lit)
	assert.Equal(t, fifo, pop.move.From)
	assert.Equal(t, handlers, pop.move.To)

	queue := loop.ControllerPlace("rs", loop.Queue)
	j, enqueue := first(t, steps, i, "rs-controller", "updatePod")
	assert.Equal(t, loop.Move{Lit: []loop.Place{queue, handlers}, From: handlers, To: queue, Token: "default/web"}, enqueue.move)

	// The ReplicationController's handler hears of the same pod, which is
	// not its own: it hands nothing on.
	_, ignored := first(t, steps, i, "rc-controller", "updatePod")
	assert.Equal(t, loop.Move{Lit: []loop.Place{handlers}}, ignored.move)

	workers, sync := loop.ControllerPlace("rs", loop.Workers), loop.ControllerPlace("rs", loop.SyncHandler)
	j, took := first(t, steps, j, "rs-worker-", "slowStartBatch")
	assert.Equal(t, loop.Move{Lit: []loop.Place{workers, sync}, From: queue, To: workers, Token: "default/web"}, took.move)

	j, create := first(t, steps, j, "apiserver", "registry.Create")
	assert.Equal(t, loop.Move{Lit: []loop.Place{loop.APIServer}, From: sync, To: loop.APIServer, Token: "create pods"}, create.move)

	_, answer := first(t, steps, j, "rs-worker-", "updateReplicaSetStatus")
	assert.Equal(t, loop.Move{Lit: []loop.Place{sync}, From: loop.APIServer, To: sync, Token: "create pods"}, answer.move)
}

// TestADroppedWatchEventFallsOffItsEdge: a watch event lost on its way is
// drawn on the edge from the API server to the reflector, marked dropped.
func TestADroppedWatchEventFallsOffItsEdge(t *testing.T) {
	steps := run(t, world, "drop watch pods --count=1\nkill pods -l app=web --pick=oldest\nstabilize\n")
	_, lost := first(t, steps, 0, "informer/pods", "fault: drop watch")
	assert.Equal(t, loop.APIServer, lost.move.From)
	assert.Equal(t, loop.InformerPlace("informer/pods", loop.Reflector), lost.move.To)
	assert.Equal(t, loop.Dropped, lost.move.Fault)
	assert.Regexp(t, `^MODIFIED pod/web-`, lost.move.Token)
}

// TestAFailedCreateBouncesBack: the answer to a create the API server
// refused travels back to the sync, marked failed, with the reason; the
// failed sync hands its key back to the queue.
func TestAFailedCreateBouncesBack(t *testing.T) {
	steps := run(t, "seed 2\nfail create pods --always --error=quota\n", "create rs web --replicas=2 --selector=app=web\nuntil sync rs/web\n")
	sync := loop.ControllerPlace("rs", loop.SyncHandler)
	var bounced *placed
	for i := range steps {
		if steps[i].move.Fault == loop.Failed {
			bounced = &steps[i]
			break
		}
	}
	require.NotNil(t, bounced, "no answer bounced")
	assert.Equal(t, loop.APIServer, bounced.move.From)
	assert.Equal(t, sync, bounced.move.To)
	assert.Equal(t, "create pods: Forbidden", bounced.move.Token)

	last := steps[len(steps)-1].step
	require.NotEmpty(t, last.Handed, "the failed sync puts its key back: %s", last.TraceLine())
	assert.Equal(t, sim.Handoff{To: "queue/replicaset", What: "default/web"}, last.Handed[0])
}

// TestAnIdleWorkerLightsOnlyItself: a worker that finds the queue empty
// takes nothing.
func TestAnIdleWorkerLightsOnlyItself(t *testing.T) {
	steps := run(t, world, "kill pods -l app=web --pick=oldest\nstabilize\n")
	_, idle := first(t, steps, 0, "rs-worker-", "processNextWorkItem")
	assert.Equal(t, loop.Move{Lit: []loop.Place{loop.ControllerPlace("rs", loop.Workers)}}, idle.move)
}

// TestUnknownStepsHaveNoPlace: an actor, or a function, the rules do not
// know is not placed, which the tests over every golden script and lesson
// turn into a failure.
func TestUnknownStepsHaveNoPlace(t *testing.T) {
	_, ok := loop.Of(sim.StepResult{Report: sim.Report{Actor: "someone", Models: "something"}})
	assert.False(t, ok)
	_, ok = loop.Of(sim.StepResult{Report: sim.Report{Actor: "rs-worker-1", Models: "somethingNew"}})
	assert.False(t, ok)
}

// TestHandlersHandOnWhatTheySayTheyEnqueue: a controller's event handler
// lists a key as handed to the queue exactly when its sentence says it
// enqueued one, through adoption, release, a kill and a scale: the picture
// and the words agree.
func TestHandlersHandOnWhatTheySayTheyEnqueue(t *testing.T) {
	steps := run(t, world, `label pods -l app=web --pick=oldest app=canary --overwrite
stabilize
label pods -l app=canary app=web --overwrite
stabilize
kill pods -l app=web --pick=newest
scale rs web --replicas=1
stabilize
`)
	handlers := 0
	for _, p := range steps {
		if p.step.Event.Kind != "notify" || !strings.HasSuffix(p.step.Actor, "-controller") {
			continue
		}
		handlers++
		assert.Equal(t, strings.Contains(p.step.Summary.String(), "enqueued"), len(p.step.Handed) > 0, p.step.TraceLine())
	}
	assert.Greater(t, handlers, 20, "the script ran few handler steps")
}

// TestEventsOnTheirWayHaveAnEdge: what the agenda holds after a kill, a
// moment later, travels edges of the loop: the watch events to every
// informer and component that watches pods, and every request and answer.
func TestEventsOnTheirWayHaveAnEdge(t *testing.T) {
	s := script.NewSession(script.Options{SnapshotEvery: -1})
	parsed, err := script.Parse(world+"kill pods -l app=web --pick=oldest\nstep 3\n", "script")
	require.NoError(t, err)
	require.NoError(t, s.RunScript(parsed))
	edges := map[[2]loop.Place]int{}
	for _, ev := range s.World().Kernel.Agenda() {
		if from, to, ok := loop.Waiting(ev); ok {
			edges[[2]loop.Place{from, to}]++
		} else {
			assert.NotContains(t, []string{"watch", "request", "response"}, ev.Kind, "an event on its way with no edge: %+v", ev)
		}
	}
	assert.Positive(t, edges[[2]loop.Place{loop.APIServer, loop.InformerPlace("informer/pods", loop.Reflector)}],
		"the pod's watch events are on their way to the pod informer: %v", edges)
	assert.Positive(t, edges[[2]loop.Place{loop.APIServer, loop.GC}], "and to the garbage collector: %v", edges)
}

// TestARolloutsScaleTravelsTheLoop follows a rolling update's moves around
// the loop: a Deployment worker takes its Deployment's key from its queue,
// its scale of a ReplicaSet reaches the API server, and the ReplicaSet's
// change comes back through the ReplicaSet informer to both controllers:
// the replication manager, handed the ReplicaSet's key, and the Deployment
// controller, handed the Deployment's.
func TestARolloutsScaleTravelsTheLoop(t *testing.T) {
	steps := run(t, "seed 1\ncreate deploy web --replicas=4 --selector=app=web\nstabilize\n",
		"set image deploy/web app=nginx:2.0\nstabilize\n")
	dQueue, dWorkers, dSync := loop.ControllerPlace("deploy", loop.Queue), loop.ControllerPlace("deploy", loop.Workers),
		loop.ControllerPlace("deploy", loop.SyncHandler)
	i, took := first(t, steps, 0, "deploy-worker-", "getNewReplicaSet")
	assert.Equal(t, loop.Move{Lit: []loop.Place{dWorkers, dSync}, From: dQueue, To: dWorkers, Token: "default/web"}, took.move,
		"the token is the Deployment's key, though the step touched the ReplicaSet it creates")

	var scale placed
	for ; i < len(steps); i++ {
		if s := steps[i]; s.step.Actor == "apiserver" && s.move.From == dSync && s.move.Token == "update replicasets" {
			scale = s
			break
		}
	}
	require.NotZero(t, scale.step.N, "no scale of a ReplicaSet reached the API server from the Deployment controller")
	assert.Equal(t, []loop.Place{loop.APIServer}, scale.move.Lit)

	handlers := loop.InformerPlace("informer/replicasets", loop.Handlers)
	_, rs := first(t, steps, i, "rs-controller", "updateRS")
	assert.Equal(t, handlers, rs.move.From)
	assert.Equal(t, loop.ControllerPlace("rs", loop.Queue), rs.move.To)
	assert.Regexp(t, `^default/web-`, rs.move.Token, "the replication manager is handed the ReplicaSet's key")
	_, d := first(t, steps, i, "deploy-controller", "updateReplicaSet")
	assert.Equal(t, loop.Move{Lit: []loop.Place{dQueue, handlers}, From: handlers, To: dQueue, Token: "default/web"}, d.move,
		"the Deployment controller is handed its Deployment's key")

	// A Deployment worker that finds its queue empty takes nothing from it.
	idle := 0
	for _, s := range steps {
		if s.step.Models == "dc.processNextWorkItem" {
			idle++
			assert.Equal(t, loop.Move{Lit: []loop.Place{dWorkers}}, s.move, "step %d: %s", s.step.N, s.step.Summary)
		}
	}
	assert.Positive(t, idle, "no Deployment worker found its queue empty")
}

// TestAPackedStepTravelsAsItRan packs the steps of a run that meets every
// kind of event data (requests, answers that failed and that did not, watch
// events dropped, delayed and delivered, a rollout) into a step log, which
// packs them in chunks as a session's does, and checks that every packed
// step read back is the step that ran but for its event's data, which is
// the data's gist, and that the picture of the loop draws every step kept as
// it drew the step that ran.
func TestAPackedStepTravelsAsItRan(t *testing.T) {
	steps := run(t, "seed 3\nfail create pods --count=1\n", "create rs web --replicas=3 --selector=app=web\nstabilize\n"+
		"drop watch pods --count=1\ndelay watch pods 2s\nkill pods -l app=web --pick=oldest\nstabilize\n"+
		"create deploy api --replicas=3 --selector=app=api\nstabilize\nset image deploy/api app=nginx:2.0\nstabilize\n")
	log := sim.StepLog{Keep: 800} // chunks of 100
	for _, p := range steps {
		log.Push(&p.step)
	}
	carried := map[sim.Carried]int{}
	for i := range log.Len() {
		got := log.At(i)
		p := steps[int(got.N-steps[0].step.N)]
		want := p.step
		m, ok := loop.Of(got)
		require.True(t, ok, "no place for %s", got.TraceLine())
		require.Equal(t, p.move, m, "%s is drawn as it was", got.TraceLine())
		if i >= log.Len()-log.Chunk() {
			continue // perhaps not packed yet
		}
		gist := sim.GistOf(want.Event)
		carried[gist.Carried]++
		if gist.Carried == 0 {
			assert.Nil(t, got.Event.Data, "%s: data with no gist is dropped", want.TraceLine())
		} else {
			assert.Equal(t, gist, got.Event.Data, "%s: the data's gist is kept", want.TraceLine())
		}
		got.Event.Data, want.Event.Data = nil, nil
		require.Equal(t, want, got, "step %d reads back as it ran", want.N)
		require.Equal(t, want.TraceLine(), got.TraceLine())
	}
	for _, c := range []sim.Carried{0, sim.CarriedRequest, sim.CarriedReply, sim.CarriedWatch} {
		assert.Positive(t, carried[c], "the run has steps that carried %d", c)
	}
	moves := map[string]int{}
	for _, p := range steps {
		moves[p.move.Fault]++
	}
	for _, f := range []string{loop.Dropped, loop.Delayed, loop.Failed} {
		assert.Positive(t, moves[f], "the run has a step whose way was %s", f)
	}
}
