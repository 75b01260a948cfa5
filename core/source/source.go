package source

import (
	"maps"
	"strconv"
)

// Tag is the kubernetes release the sources are at.
const Tag = "v1.31.14"

// Ref is where a function lives upstream: Func, its name as Go reads it
// (a function, or Type.Method), in File, by its path in the kubernetes
// repository, starting at Line.
type Ref struct {
	Func string `json:"func"`
	File string `json:"file"`
	Line int    `json:"line"`
}

// URL links to the function in the kubernetes repository at Tag.
func (r Ref) URL() string {
	return "https://github.com/kubernetes/kubernetes/blob/" + Tag + "/" + r.File + "#L" + strconv.Itoa(r.Line)
}

// Of returns the upstream function a step models, by the name the trace's
// function column gives it (sim.Report.Models); ok is false for a name that
// models nothing upstream (see Own) or that the table does not know.
func Of(models string) (Ref, bool) {
	r, ok := refs[models]
	return r, ok
}

// Own reports whether a function name is one the trace gives to what has no
// single function upstream: the learner's kubectl commands and the faults
// the simulator injects.
func Own(models string) bool { return own[models] }

// All returns a copy of the table, by the trace's name: what the page
// links from.
func All() map[string]Ref { return maps.Clone(refs) }

// own are the trace's names with no upstream function: kubectl is the
// learner's own hand (its code is a client of the API server, not part of
// the control loop), and the faults are the simulator's.
var own = map[string]bool{
	"":                   true,
	"kubectl":            true,
	"kubectl cordon":     true,
	"kubectl uncordon":   true,
	"fault: drop watch":  true,
	"fault: delay watch": true,
}

// Files of the kubernetes repository the table names often.
const (
	store         = "staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go"
	reflector     = "staging/src/k8s.io/client-go/tools/cache/reflector.go"
	informerCtl   = "staging/src/k8s.io/client-go/tools/cache/controller.go"
	sharedInf     = "staging/src/k8s.io/client-go/tools/cache/shared_informer.go"
	replicaSet    = "pkg/controller/replicaset/replica_set.go"
	schedHandlers = "pkg/scheduler/eventhandlers.go"
	scheduleOne   = "pkg/scheduler/schedule_one.go"
	kubelet       = "pkg/kubelet/kubelet.go"
	statusManager = "pkg/kubelet/status/status_manager.go"
	gc            = "pkg/controller/garbagecollector/garbagecollector.go"
	graphBuilder  = "pkg/controller/garbagecollector/graph_builder.go"
	recordEvent   = "staging/src/k8s.io/client-go/tools/record/event.go"
	dController   = "pkg/controller/deployment/deployment_controller.go"
	dSync         = "pkg/controller/deployment/sync.go"
	dRolling      = "pkg/controller/deployment/rolling.go"
	dProgress     = "pkg/controller/deployment/progress.go"
	dUtil         = "pkg/controller/deployment/util/deployment_util.go"
)

// refs maps the trace's function names, and a few the lessons name, to
// their upstream functions. Where
// the trace's name is not the function's own, the function is the one that
// does what the step does: the trace's "watchHandler" is client-go v0.31's
// handleWatch (renamed in v0.30), its "PLEG" the generic PLEG's Relist, its
// "registry.Patch" the API server's patch handler. TestEveryTraceNameHasItsSource
// holds the table to core/loop's names and every line to the manifest of
// internal/upstream.
var refs = map[string]Ref{
	"registry.Create":   {"Store.Create", store, 427},
	"registry.Delete":   {"Store.Delete", store, 1109},
	"registry.Get":      {"Store.Get", store, 825},
	"registry.List":     {"Store.List", store, 349},
	"registry.Patch":    {"PatchResource", "staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go", 64},
	"registry.Update":   {"Store.Update", store, 598},
	"registry.Watch":    {"Store.Watch", store, 1396},
	"graceful deletion": {"BeforeDelete", "staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go", 75},

	"Reflector.list":                {"Reflector.list", reflector, 494},
	"Reflector.ListAndWatch":        {"Reflector.ListAndWatch", reflector, 340},
	"Reflector.syncWith":            {"Reflector.syncWith", reflector, 713},
	"Reflector.watch":               {"Reflector.watch", reflector, 410},
	"watchHandler":                  {"handleWatch", reflector, 746},
	"processDeltas":                 {"processDeltas", informerCtl, 541},
	"DeltaFIFO.Resync":              {"DeltaFIFO.Resync", "staging/src/k8s.io/client-go/tools/cache/delta_fifo.go", 720},
	"sharedProcessor.shouldResync":  {"sharedProcessor.shouldResync", sharedInf, 827},
	"WaitForNamedCacheSync":         {"WaitForNamedCacheSync", sharedInf, 312},
	"FilteringResourceEventHandler": {"FilteringResourceEventHandler.OnUpdate", informerCtl, 313},

	"addPod":                 {"ReplicaSetController.addPod", replicaSet, 384},
	"updatePod":              {"ReplicaSetController.updatePod", replicaSet, 427},
	"deletePod":              {"ReplicaSetController.deletePod", replicaSet, 501},
	"addRS":                  {"ReplicaSetController.addRS", replicaSet, 312},
	"updateRS":               {"ReplicaSetController.updateRS", replicaSet, 319},
	"deleteRS":               {"ReplicaSetController.deleteRS", replicaSet, 354},
	"Run":                    {"ReplicaSetController.Run", replicaSet, 205},
	"processNextWorkItem":    {"ReplicaSetController.processNextWorkItem", replicaSet, 547},
	"syncReplicaSet":         {"ReplicaSetController.syncReplicaSet", replicaSet, 675},
	"claimPods":              {"ReplicaSetController.claimPods", replicaSet, 743},
	"manageReplicas":         {"ReplicaSetController.manageReplicas", replicaSet, 569},
	"slowStartBatch":         {"slowStartBatch", replicaSet, 771},
	"updateReplicaSetStatus": {"updateReplicaSetStatus", "pkg/controller/replicaset/replica_set_utils.go", 37},
	"waitingLoop":            {"delayingType.waitingLoop", "staging/src/k8s.io/client-go/util/workqueue/delaying_queue.go", 260},

	"Scheduler.Run":              {"Scheduler.Run", "pkg/scheduler/scheduler.go", 460},
	"scheduleOne":                {"Scheduler.ScheduleOne", scheduleOne, 65},
	"schedulePod":                {"Scheduler.schedulePod", scheduleOne, 400},
	"bind":                       {"Scheduler.bind", scheduleOne, 967},
	"handleBindingCycleError":    {"Scheduler.handleBindingCycleError", scheduleOne, 334},
	"addPodToSchedulingQueue":    {"Scheduler.addPodToSchedulingQueue", schedHandlers, 143},
	"updatePodInSchedulingQueue": {"Scheduler.updatePodInSchedulingQueue", schedHandlers, 155},
	"addPodToCache":              {"Scheduler.addPodToCache", schedHandlers, 220},
	"updatePodInCache":           {"Scheduler.updatePodInCache", schedHandlers, 252},
	"deletePodFromCache":         {"Scheduler.deletePodFromCache", schedHandlers, 292},
	"addNodeToCache":             {"Scheduler.addNodeToCache", schedHandlers, 70},
	"updateNodeInCache":          {"Scheduler.updateNodeInCache", schedHandlers, 85},
	"deleteNodeFromCache":        {"Scheduler.deleteNodeFromCache", schedHandlers, 116},
	"flushBackoffQCompleted":     {"PriorityQueue.flushBackoffQCompleted", "pkg/scheduler/internal/queue/scheduling_queue.go", 890},

	"Kubelet.Run":             {"Kubelet.Run", kubelet, 1596},
	"registerWithAPIServer":   {"Kubelet.registerWithAPIServer", "pkg/kubelet/kubelet_node_status.go", 50},
	"HandlePodAdditions":      {"Kubelet.HandlePodAdditions", kubelet, 2534},
	"HandlePodUpdates":        {"Kubelet.HandlePodUpdates", kubelet, 2627},
	"HandlePodRemoves":        {"Kubelet.HandlePodRemoves", kubelet, 2651},
	"syncPod":                 {"Kubelet.SyncPod", kubelet, 1750},
	"killPod":                 {"Kubelet.killPod", "pkg/kubelet/kubelet_pods.go", 960},
	"statusManager.syncPod":   {"manager.syncPod", statusManager, 839},
	"statusManager.syncBatch": {"manager.syncBatch", statusManager, 764},
	"PLEG":                    {"GenericPLEG.Relist", "pkg/kubelet/pleg/generic.go", 219},
	"evictionManager":         {"managerImpl.synchronize", "pkg/kubelet/eviction/eviction_manager.go", 243},
	"prober":                  {"worker.doProbe", "pkg/kubelet/prober/worker.go", 198},

	"GraphBuilder.startMonitors":    {"GraphBuilder.startMonitors", graphBuilder, 292},
	"processGraphChanges":           {"GraphBuilder.processGraphChanges", graphBuilder, 678},
	"attemptToDeleteItem":           {"GarbageCollector.attemptToDeleteItem", gc, 537},
	"attemptToOrphanWorker":         {"GarbageCollector.attemptToOrphanWorker", gc, 775},
	"processAttemptToDeleteWorker":  {"GarbageCollector.processAttemptToDeleteWorker", gc, 329},
	"isDangling":                    {"GarbageCollector.isDangling", gc, 417},
	"orphanDependents":              {"GarbageCollector.orphanDependents", gc, 707},
	"removeFinalizer":               {"GarbageCollector.removeFinalizer", "pkg/controller/garbagecollector/operations.go", 85},
	"processDeletingDependentsItem": {"GarbageCollector.processDeletingDependentsItem", gc, 688},

	// Functions the lessons name that no step models on its own: the
	// ranking a scale-down sorts pods by, and the filter of active pods.
	"getPodsToDelete":          {"getPodsToDelete", replicaSet, 825},
	"ActivePodsWithRanks.Less": {"ActivePodsWithRanks.Less", "pkg/controller/controller_utils.go", 826},
	"FilterActivePods":         {"FilterActivePods", "pkg/controller/controller_utils.go", 948},
	// And the Deployment controller's functions that the Deployment
	// lessons name but no step models on its own: the rounding of
	// maxSurge and maxUnavailable, the size a rollout gives the new
	// ReplicaSet, the shares of proportional scaling, and the two
	// strategies' rollouts.
	"ResolveFenceposts":     {"ResolveFenceposts", dUtil, 851},
	"NewRSNewReplicas":      {"NewRSNewReplicas", dUtil, 784},
	"getReplicaSetFraction": {"getReplicaSetFraction", dUtil, 492},
	"rolloutRolling":        {"DeploymentController.rolloutRolling", dRolling, 31},
	"rolloutRecreate":       {"DeploymentController.rolloutRecreate", "pkg/controller/deployment/recreate.go", 29},

	// The Deployment controller's steps. Names it shares with the
	// replication manager's take its receiver, dc, as upstream's code
	// calls it.
	"addDeployment":                           {"DeploymentController.addDeployment", dController, 187},
	"updateDeployment":                        {"DeploymentController.updateDeployment", dController, 193},
	"deleteDeployment":                        {"DeploymentController.deleteDeployment", dController, 200},
	"addReplicaSet":                           {"DeploymentController.addReplicaSet", dController, 219},
	"updateReplicaSet":                        {"DeploymentController.updateReplicaSet", dController, 275},
	"deleteReplicaSet":                        {"DeploymentController.deleteReplicaSet", dController, 322},
	"dc.deletePod":                            {"DeploymentController.deletePod", dController, 356},
	"dc.Run":                                  {"DeploymentController.Run", dController, 162},
	"dc.processNextWorkItem":                  {"DeploymentController.processNextWorkItem", dController, 487},
	"syncDeployment":                          {"DeploymentController.syncDeployment", dController, 590},
	"ClaimReplicaSets":                        {"ReplicaSetControllerRefManager.ClaimReplicaSets", "pkg/controller/controller_ref_manager.go", 319},
	"getNewReplicaSet":                        {"DeploymentController.getNewReplicaSet", dSync, 138},
	"isScalingEvent":                          {"DeploymentController.isScalingEvent", dSync, 532},
	"checkPausedConditions":                   {"DeploymentController.checkPausedConditions", dSync, 74},
	"scale":                                   {"DeploymentController.scale", dSync, 299},
	"scaleReplicaSet":                         {"DeploymentController.scaleReplicaSet", dSync, 413},
	"cleanupDeployment":                       {"DeploymentController.cleanupDeployment", dSync, 438},
	"syncDeploymentStatus":                    {"DeploymentController.syncDeploymentStatus", dSync, 476},
	"syncRolloutStatus":                       {"DeploymentController.syncRolloutStatus", dProgress, 36},
	"requeueStuckDeployment":                  {"DeploymentController.requeueStuckDeployment", dProgress, 160},
	"reconcileNewReplicaSet":                  {"DeploymentController.reconcileNewReplicaSet", dRolling, 68},
	"reconcileOldReplicaSets":                 {"DeploymentController.reconcileOldReplicaSets", dRolling, 86},
	"cleanupUnhealthyReplicas":                {"DeploymentController.cleanupUnhealthyReplicas", dRolling, 155},
	"scaleDownOldReplicaSetsForRollingUpdate": {"DeploymentController.scaleDownOldReplicaSetsForRollingUpdate", dRolling, 193},
	"oldPodsRunning":                          {"oldPodsRunning", "pkg/controller/deployment/recreate.go", 99},
	"rollback":                                {"DeploymentController.rollback", "pkg/controller/deployment/rollback.go", 33},

	"EventCorrelate": {"EventCorrelator.EventCorrelate", "staging/src/k8s.io/client-go/tools/record/events_cache.go", 510},
	"recordToSink":   {"eventBroadcasterImpl.recordToSink", recordEvent, 288},
	"recordEvent":    {"recordEvent", recordEvent, 330},
}
