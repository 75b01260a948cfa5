// glossary.js is the glossary's data and nothing else: the words the panels
// use, each with a one-line explanation (the tooltip), a longer one (the
// Glossary panel) and the name of the Kubernetes v1.31 function, type or field
// it comes from, with its file. ui-glossary.js draws it.
//
// A translation of the glossary is JSON, site/glossary-<locale>.json
// (glossary-zh-CN.json): this object with the strings under text, labels,
// groups, captions and entries translated, in the same order. Every text is a
// whole sentence or phrase, never joined from pieces: where a word inside it
// is an entry, it says so in place as {{id}} (the entry's term) or {{id|the
// words shown}}, and where the page puts in a value it names it, as {name}
// and {file}, so a translation may put them in any order. Upstream names and files are code:
// they stay as they are; so do the commands, flags and object names a
// translation writes, in backticks, which the page draws as code. The match
// table at the end is not text to translate either: it lists the words the
// engine and the panels write (in English), by which the page finds an
// entry's term in their text, in every language. A translation has instead
// its own table of the words its panels write (matchZh, for Chinese).
// internal/i18n's CheckGlossary holds a translation to all of this.
export const glossary = {
	lang: "en",

	text: {
		title: "Glossary",
		intro: "The words the panels use, in plain terms, and where each comes from in Kubernetes v1.31: the function, type or field to read next, and its file.",
		close: "Close",
		// {name} and {file} are code, put in as they are.
		upstream: "In Kubernetes v1.31: {name} in {file}",
		model: "Reconcile Lab's own, with no Kubernetes counterpart: {name} in {file}",
		sections: "Sections of the glossary",
	},

	// labels are the panels' phrases that hold a term, by name: {{…}}
	// marks the term, {key} and the like the values the panel puts in.
	labels: {
		lastSyncs: "last syncs ({{sync|syncReplicaSet}})",
		lastSyncsDeploy: "last syncs ({{sync-deployment|syncDeployment}})",
		pendingDeltas: "{{deltafifo|DeltaFIFO}}: not yet delivered",
		deletesAwaited: "{{deletes-awaited|deletes awaited}} for {key}: {pods}",
		gcOwners: "owners whose dependents are being orphaned ({{attempt-to-orphan|attemptToOrphan}})",
		gcDependents: "dependents to check ({{attempt-to-delete|attemptToDelete}})",
	},

	// groups are the glossary's sections, in the order it lists them.
	groups: [
		{id: "queue", title: "Workqueue"},
		{id: "workers", title: "Workers and syncs"},
		{id: "expectations", title: "Expectations"},
		{id: "informers", title: "Informers"},
		{id: "agenda", title: "Agenda and faults"},
		{id: "gc", title: "Garbage collector"},
		{id: "world", title: "The world"},
		{id: "deployments", title: "Deployments"},
	],

	// captions are one sentence under each panel of "Inside the controller",
	// by the panel's id, naming the words that panel shows only some of the
	// time.
	captions: {
		queue: "Keys of owners that need a {{sync|sync}}. A key added again while it is {{processing}} is only marked {{dirty}}; a failed sync comes back {{delayed}}, later each time it fails ({{requeues|NumRequeues}}).",
		workers: "Each {{worker}} takes one key at a time and runs {{sync|syncReplicaSet}} on it (a Deployment's worker runs {{sync-deployment|syncDeployment}}); new pods go out in {{slow-start|slow-start}} batches, at most {{burst-replicas|burstReplicas}} per sync.",
		expectations: "A sync first records the creations and deletions it {{expectations|expects}} to see; the next sync acts only once they are {{satisfied}} or {{expired}}.",
		informers: "Each {{informer}} {{list|lists}}, then {{watch|watches}}, and keeps a {{cache}}; changes wait in its {{deltafifo|DeltaFIFO}}. A broken watch means a {{relist}}, which turns a missed delete into a {{tombstone}}; a {{resync}} replays the cache.",
		agenda: "What the simulator runs next, one step each, soonest first; {{periodic}} timers do not keep the world busy.",
		gc: "When an {{owner}} is deleted, its {{dependent|dependents}} are deleted ({{attempt-to-delete|attemptToDelete}}): after it by default, before it with --cascade=foreground, while it waits. With --cascade=orphan they are left as orphans ({{attempt-to-orphan|attemptToOrphan}}).",
	},

	entries: [
		// --- Workqueue ---------------------------------------------------
		{
			id: "workqueue", group: "queue", term: "workqueue",
			short: "The controller's to-do list: keys of owners that need a sync, each handed to one worker at a time.",
			long: "Event handlers sync nothing themselves: they add the owner's {{key}} to the workqueue and return. {{worker|Workers}} take keys out with {{get|Get}} and hand them back with Done. The queue never gives one key to two workers at once, and a key added many times before a worker takes it is synced once.",
			upstream: {name: "workqueue.Typed", file: "k8s.io/client-go/util/workqueue/queue.go"},
		},
		{
			id: "key", group: "queue", term: "key",
			short: "How the controller names an owner in its queue and its caches: namespace/name, such as default/web.",
			long: "The queue holds keys, not objects, so a worker reads the newest copy of the owner from the informer's {{cache}} when its turn comes. A key outlives its object: after rs/web is deleted its key may still be queued, and the sync that takes it finds nothing and drops the owner's {{expectations}}.",
			upstream: {name: "controller.KeyFunc", file: "k8s.io/kubernetes/pkg/controller/controller_utils.go"},
		},
		{
			id: "waiting", group: "queue", term: "waiting",
			short: "Keys in line for a worker, in the order Get will hand them out.",
			long: "A key waits here from the moment it is added until a worker takes it. Adding a key that is already waiting changes nothing, which is how a burst of events about one owner becomes a single sync.",
			upstream: {name: "workqueue.Typed.queue", file: "k8s.io/client-go/util/workqueue/queue.go"},
		},
		{
			id: "processing", group: "queue", term: "processing",
			short: "Keys a worker holds right now: taken with Get, not yet given back with Done.",
			long: "A key stays in processing for its whole sync, including while the worker waits for the API server's answers. The queue does not hand it out again before Done, so one owner is never synced by two workers at once.",
			upstream: {name: "workqueue.Typed.processing", file: "k8s.io/client-go/util/workqueue/queue.go"},
		},
		{
			id: "dirty", group: "queue", term: "dirty",
			short: "Keys that need a sync: every waiting key, and any key added again while a worker was processing it.",
			long: "A key added while a worker holds it is only marked dirty, not queued a second time. When the worker calls Done, a dirty key goes back in line, so a change that arrived in the middle of a sync gets a sync of its own.",
			upstream: {name: "workqueue.Typed.dirty", file: "k8s.io/client-go/util/workqueue/queue.go"},
		},
		{
			id: "delayed", group: "queue", term: "delayed (AddAfter)",
			short: "Keys that join the line later: a failed sync's back-off, or a wait the controller asked for.",
			long: "AddAfter parks a key until its time comes, then adds it like any other. The replication manager asks for one when pods are ready but not yet available (minReadySeconds); a failed sync gets one through AddRateLimited, marked {{rate-limited|rate limited}} here.",
			upstream: {name: "workqueue.TypedDelayingInterface.AddAfter", file: "k8s.io/client-go/util/workqueue/delaying_queue.go"},
		},
		{
			id: "rate-limited", group: "queue", term: "rate limited",
			short: "Put back with a delay after a failed sync: the more often a key fails, the longer it waits.",
			long: "A sync that returns an error calls AddRateLimited. The default controller rate limiter waits 5 ms after a key's first failure and doubles the wait at each further one, up to 1000 s; it also lets all keys together through at 10 per second, in bursts of up to 100. Forget, called after a sync that succeeds, resets the key's count.",
			upstream: {name: "workqueue.DefaultTypedControllerRateLimiter", file: "k8s.io/client-go/util/workqueue/default_rate_limiters.go"},
		},
		{
			id: "requeues", group: "queue", term: "NumRequeues",
			short: "How many times in a row a key's sync has failed: the rate limiter's count, which sets the key's next delay.",
			long: "Each AddRateLimited adds one and Forget clears it. The replication manager calls Forget after every sync that succeeds, so a key is listed here only while its syncs keep failing.",
			upstream: {name: "workqueue.TypedRateLimitingInterface.NumRequeues", file: "k8s.io/client-go/util/workqueue/rate_limiting_queue.go"},
		},
		{
			id: "get", group: "queue", term: "Get",
			short: "Where an idle worker waits: Get blocks until the queue has a key to give it.",
			long: "A worker loops for ever: Get a key, sync it, call Done, Get again. Idle workers are listed longest waiting first, the order in which the model gives them keys.",
			upstream: {name: "workqueue.Typed.Get", file: "k8s.io/client-go/util/workqueue/queue.go"},
		},

		// --- Workers and syncs ------------------------------------------
		{
			id: "worker", group: "workers", term: "worker",
			short: "One of the controller's loops that take a key from the queue and sync it, one key at a time.",
			long: "kube-controller-manager runs five workers for ReplicaSets unless told otherwise (--concurrent-replicaset-syncs). Each loops in processNextWorkItem: {{get|Get}} a key, run {{sync|syncReplicaSet}}, then Forget the key on success or AddRateLimited it on error, and always call Done. A worker is idle while it waits in Get, starting before it first asks, and syncing while it holds a key.",
			upstream: {name: "replicaset.ReplicaSetController.processNextWorkItem", file: "k8s.io/kubernetes/pkg/controller/replicaset/replica_set.go"},
		},
		{
			id: "sync", group: "workers", term: "syncReplicaSet",
			short: "One pass of the controller over one owner: compare the pods it has with the replicas it wants, and act on the difference.",
			long: "A sync reads the owner and the namespace's pods from the informers' caches, {{claim|claims}} the pods that are its own, creates or deletes the difference if its {{expectations}} allow, and writes the owner's status. It never waits for pods to start: the events that follow bring the next sync.",
			upstream: {name: "replicaset.ReplicaSetController.syncReplicaSet", file: "k8s.io/kubernetes/pkg/controller/replicaset/replica_set.go"},
		},
		{
			id: "claim", group: "workers", term: "claiming",
			short: "The start of a sync: deciding which pods are the owner's, adopting orphans that match its selector and releasing pods that no longer do.",
			long: "ClaimPods looks at every active pod in the namespace. A pod whose {{controller-ref|controllerRef}} names this owner stays if its labels still match the {{selector}} and is {{release|released}} if not; an {{orphan}} whose labels match is {{adopt|adopted}}, but only after a fresh read of the owner from the API server shows it is not being deleted.",
			upstream: {name: "controller.PodControllerRefManager.ClaimPods", file: "k8s.io/kubernetes/pkg/controller/controller_ref_manager.go"},
		},
		{
			id: "slow-start", group: "workers", term: "slow start",
			short: "Creating pods in batches of 1, 2, 4, 8 and so on: a batch goes out only if every create of the one before succeeded.",
			long: "If the first create fails, for want of quota say, the sync stops after one refused request instead of hundreds. The creates it never sent are taken off its {{expectations}}, and the sync returns the error, so the key comes back {{rate-limited|rate limited}}.",
			upstream: {name: "replicaset.slowStartBatch", file: "k8s.io/kubernetes/pkg/controller/replicaset/replica_set.go"},
		},
		{
			id: "burst-replicas", group: "workers", term: "burstReplicas",
			short: "The most pods one sync creates or deletes: 500 in Kubernetes.",
			long: "A ReplicaSet scaled from 0 to 2,000 gets 500 pods from its first sync; the next 500 come from a later sync, once the first ones have been seen. It keeps one sync from flooding the API server. The console's config burst-replicas changes it in this model.",
			upstream: {name: "replicaset.BurstReplicas", file: "k8s.io/kubernetes/pkg/controller/replicaset/replica_set.go"},
		},
		{
			id: "status", group: "workers", term: "writing status",
			short: "The last thing a sync does: write the counts it found (replicas, ready, available) into the owner's status.",
			long: "The counts come from the pods the sync claimed, so the status can lag behind the pods drawn in the world until the next sync writes it again. It is written even when the sync's expectations kept it from creating or deleting anything.",
			upstream: {name: "replicaset.updateReplicaSetStatus", file: "k8s.io/kubernetes/pkg/controller/replicaset/replica_set_utils.go"},
		},

		// --- Expectations ------------------------------------------------
		{
			id: "expectations", group: "expectations", term: "expectations",
			short: "What a sync still waits to see: the creations and deletions it asked for that its informer has not shown it yet.",
			long: "Caches lag behind the API server. Without expectations, a sync that just created three pods could run again before they reach the cache, see three too few, and create three more. So a sync records {{add}} or {{del}} counts before it acts, the pod informer's handlers count them down as the pods appear or go, and the next sync acts only once they are {{satisfied}} or {{expired}}.",
			upstream: {name: "controller.UIDTrackingControllerExpectations", file: "k8s.io/kubernetes/pkg/controller/controller_utils.go"},
		},
		{
			id: "add", group: "expectations", term: "add",
			short: "Pod creations this owner still expects to see in its cache.",
			long: "ExpectCreations sets it before the first create is sent. Each of the owner's pods the informer then shows takes one off (CreationObserved), and so does each create that failed or was never sent.",
			upstream: {name: "controller.ControllerExpectations.ExpectCreations", file: "k8s.io/kubernetes/pkg/controller/controller_utils.go"},
		},
		{
			id: "del", group: "expectations", term: "del",
			short: "Pod deletions this owner still expects to see in its cache.",
			long: "ExpectDeletions remembers which pods it asked to delete, by key, so that a pod seen first as {{terminating}} and then as gone counts once (DeletionObserved).",
			upstream: {name: "controller.UIDTrackingControllerExpectations.ExpectDeletions", file: "k8s.io/kubernetes/pkg/controller/controller_utils.go"},
		},
		{
			id: "satisfied", group: "expectations", term: "satisfied",
			short: "Every expected creation and deletion has been seen: the next sync may create and delete pods.",
			long: "SatisfiedExpectations is asked at the start of every sync, before the pods are listed. A sync whose expectations are not satisfied still claims pods and writes status, but creates and deletes nothing.",
			upstream: {name: "controller.ControllerExpectations.SatisfiedExpectations", file: "k8s.io/kubernetes/pkg/controller/controller_utils.go"},
		},
		{
			id: "expired", group: "expectations", term: "expired",
			short: "Expectations older than five minutes: the next sync acts anyway, in case the events it waited for were lost.",
			long: "If the informer never sees an event (a watch that lost it and has not {{relist|relisted}} yet, say), the counts never reach zero and the owner would never act again. ExpectationsTimeout, five minutes, bounds that wait; the age column counts toward it.",
			upstream: {name: "controller.ExpectationsTimeout", file: "k8s.io/kubernetes/pkg/controller/controller_utils.go"},
		},
		{
			id: "deletes-awaited", group: "expectations", term: "deletes awaited",
			short: "The pods, by key, whose deletion this owner still waits to see.",
			long: "The expectations keep the keys of the pods a sync chose to delete, not just their number, so that each deletion is counted once, whether it is seen as the pod turning terminating or as the pod disappearing.",
			upstream: {name: "controller.UIDTrackingControllerExpectations.GetUIDs", file: "k8s.io/kubernetes/pkg/controller/controller_utils.go"},
		},

		// --- Informers ---------------------------------------------------
		{
			id: "informer", group: "informers", term: "informer",
			short: "A client-side copy of one kind of object: it lists and watches the API server, keeps a cache, and tells the controller's handlers of each change.",
			long: "Controllers do not poll. Each informer {{list|lists}} once, then keeps a {{watch}} open; every change arrives as an event, waits in its {{deltafifo|DeltaFIFO}}, updates its {{cache}} and is passed to the event handlers, which queue keys. The controller reads only the cache, which may be a little behind.",
			upstream: {name: "cache.SharedIndexInformer", file: "k8s.io/client-go/tools/cache/shared_informer.go"},
		},
		{
			id: "reflector", group: "informers", term: "reflector",
			short: "The part of an informer that talks to the API server: it lists, then watches, and puts every change it hears of into the DeltaFIFO.",
			long: "Its ListAndWatch loop is the informer's only connection to the cluster. Each watch event it receives (watchHandler) becomes a {{delta}} in the {{deltafifo|DeltaFIFO}}; a watch that breaks is opened again from the last {{resource-version|resourceVersion}} it saw, and a gap it cannot close means a {{relist}}.",
			upstream: {name: "cache.Reflector", file: "k8s.io/client-go/tools/cache/reflector.go"},
		},
		{
			id: "indexer", group: "informers", term: "indexer",
			short: "The informer's store: the cache of objects by key, with indexes (such as pods by owner) for fast lookups.",
			long: "processDeltas writes each {{delta}} into the indexer before the handlers hear of it, so a handler, and the sync after it, always read a {{cache}} that already holds the change. Listers read the indexer, never the API server.",
			upstream: {name: "cache.Indexer", file: "k8s.io/client-go/tools/cache/index.go"},
		},
		{
			id: "event-handler", group: "informers", term: "event handlers",
			short: "The functions a controller registers with an informer (addPod, updatePod, deletePod, …): they turn each change into the keys of the owners to sync.",
			long: "They run as the informer pops its {{deltafifo|DeltaFIFO}}, and they do no work of their own: the replication manager's handlers record what the change means for the {{expectations}} and add the owner's {{key}} to the {{workqueue}}.",
			upstream: {name: "cache.ResourceEventHandlerFuncs", file: "k8s.io/client-go/tools/cache/controller.go"},
		},
		{
			id: "list", group: "informers", term: "list",
			short: "A LIST request: the informer reads every object of its kind, and its cache is replaced with the answer.",
			long: "An informer lists when it starts, and again whenever its watch cannot go on (a {{relist}}). The answer carries a {{resource-version|resourceVersion}}, from which the next watch starts. The count shows how many lists the informer has made.",
			upstream: {name: "cache.Reflector.ListAndWatch", file: "k8s.io/client-go/tools/cache/reflector.go"},
		},
		{
			id: "watch", group: "informers", term: "watch",
			short: "A long-lived WATCH request: the API server streams every change after a given resourceVersion, as ADDED, MODIFIED and DELETED events.",
			long: "When a watch ends, the informer opens a new one from the last resourceVersion it saw, and misses nothing. If the server no longer keeps that version, it refuses, and the informer must {{relist}}. The count shows how many watches the informer has opened.",
			upstream: {name: "cache.Reflector.watch", file: "k8s.io/client-go/tools/cache/reflector.go"},
		},
		{
			id: "backing-off", group: "informers", term: "backing off",
			short: "The informer waits before listing again after its watch failed, longer after each failure.",
			long: "The reflector's back-off starts at 800 ms and grows, with jitter, so that an API server in trouble is not hammered by every informer at the same moment.",
			upstream: {name: "cache.Reflector.backoffManager", file: "k8s.io/client-go/tools/cache/reflector.go"},
		},
		{
			id: "has-synced", group: "informers", term: "HasSynced",
			short: "True once the informer's first list has been delivered to its cache: the controller starts its workers only then.",
			long: "A controller that synced before its caches were full would miss pods that exist and create more. So the controller's Run waits until every informer it reads says HasSynced (WaitForNamedCacheSync) before it starts a single {{worker}}.",
			upstream: {name: "cache.SharedInformer.HasSynced", file: "k8s.io/client-go/tools/cache/shared_informer.go"},
		},
		{
			id: "last-sync-rv", group: "informers", term: "lastSyncResourceVersion",
			short: "The newest resourceVersion this informer has seen: where its next watch will start.",
			long: "The reflector records it after every list and every event. A watch reopened from there misses nothing; if the API server has already forgotten that version, the watch fails as too old and the informer {{relist|relists}}.",
			upstream: {name: "cache.Reflector.LastSyncResourceVersion", file: "k8s.io/client-go/tools/cache/reflector.go"},
		},
		{
			id: "resource-version", group: "informers", term: "resourceVersion",
			short: "A version stamp the API server puts on every object, new at each write: comparing two tells a stale copy from a fresh one.",
			long: "The cache RV column is the version the informer's {{cache}} holds, and API RV the version the API server holds now. When they differ, the controller would act on an older picture of the object. Writes can name the version they were based on, and the API server refuses them if the object has changed since (a conflict).",
			upstream: {name: "metav1.ObjectMeta.ResourceVersion", file: "k8s.io/apimachinery/pkg/apis/meta/v1/types.go"},
		},
		{
			id: "cache", group: "informers", term: "cache",
			short: "The informer's local copy of every object of its kind: what the controller reads instead of asking the API server.",
			long: "It is an Indexer: the objects by key, with extra indexes. It changes only when the informer processes a {{delta}}, so it lags the API server by the events still on their way.",
			upstream: {name: "cache.Indexer", file: "k8s.io/client-go/tools/cache/index.go"},
		},
		{
			id: "differ", group: "informers", term: "differ",
			short: "The cache and the API server disagree about this object right now: the informer has not processed the newest change yet.",
			long: "It is normal and short-lived: a write lands in the API server first and reaches the cache one watch event later. Stale means the cache holds an older version, not in the cache that the informer has not seen the object yet, and gone from the API that it has not yet seen it deleted. The controller reads the cache through listers, so it acts on that older picture.",
			upstream: {name: "corelisters.PodLister", file: "k8s.io/client-go/listers/core/v1/pod.go"},
		},
		{
			id: "deltafifo", group: "informers", term: "DeltaFIFO",
			short: "The informer's inbox: each key's changes (deltas) wait here, in order, until the informer applies them to its cache.",
			long: "The watch pushes events in; the informer pops one key at a time, with all of its deltas, updates the {{cache}} and calls the handlers. A key listed here is a change the API server has made that the controller cannot see yet.",
			upstream: {name: "cache.DeltaFIFO", file: "k8s.io/client-go/tools/cache/delta_fifo.go"},
		},
		{
			id: "delta", group: "informers", term: "delta",
			short: "One change to one object as the DeltaFIFO keeps it: Added, Updated, Deleted, Replaced or Sync.",
			long: "The deltas of one key stay together, oldest first, and are delivered together. Replaced comes from a {{relist}}, Sync from a {{resync}}, and a Deleted that holds a {{tombstone}} from a relist that found the object gone.",
			upstream: {name: "cache.DeltaType", file: "k8s.io/client-go/tools/cache/delta_fifo.go"},
		},
		{
			id: "tombstone", group: "informers", term: "tombstone",
			short: "What a relist leaves for an object that vanished while the watch was down: its last known copy, marked as deleted with its final state unknown.",
			long: "If a watch misses a DELETED event, the next list simply lacks the object. The DeltaFIFO then queues a Deleted delta that holds a DeletedFinalStateUnknown, and every handler must unwrap it; the copy inside may be stale.",
			upstream: {name: "cache.DeletedFinalStateUnknown", file: "k8s.io/client-go/tools/cache/delta_fifo.go"},
		},
		{
			id: "relist", group: "informers", term: "relist",
			short: "Listing again because the watch could not go on: events were lost, or its resourceVersion is too old.",
			long: "A relist replaces the informer's view with the list's answer: objects still there come as Replaced deltas, and objects no longer there as {{tombstone|tombstones}}. It repairs a cache that missed events, at the cost of reading every object again.",
			upstream: {name: "cache.DeltaFIFO.Replace", file: "k8s.io/client-go/tools/cache/delta_fifo.go"},
		},
		{
			id: "resync", group: "informers", term: "resync",
			short: "A periodic replay of every cached object to the handlers, as a Sync delta, whether it changed or not.",
			long: "A resync asks the API server nothing: it hands the {{cache}} to the handlers again, so a controller gets another chance at every object. The replication manager ignores pod updates whose resourceVersion did not change, but queues every owner again. In kube-controller-manager it comes every 12 to 24 hours (a period drawn at start, from --min-resync-period, 12h, up to twice that); in this model it is off unless set (the console's config resync=…).",
			upstream: {name: "cache.DeltaFIFO.Resync", file: "k8s.io/client-go/tools/cache/delta_fifo.go"},
		},
		{
			id: "api-server", group: "informers", term: "API server",
			short: "The cluster's single store of every object: every other part reads and writes through it, and watches it for changes.",
			long: "It stamps each write with a new {{resource-version|resourceVersion}} and streams the changes to every {{watch}}. Nothing else is the truth: a controller's {{cache}} is a copy of what the API server held a moment ago.",
			upstream: {name: "registry.Store", file: "k8s.io/apiserver/pkg/registry/generic/registry/store.go"},
		},

		// --- Agenda and faults -------------------------------------------
		{
			id: "agenda", group: "agenda", term: "agenda",
			short: "The simulator's list of what happens next, soonest first: each entry is one step.",
			long: "In a cluster the API server, the informers, the workers and the kubelets all run at once. Reconcile Lab puts each of their moves on one agenda, ordered by simulated time, and runs them one at a time, so every step can be seen, undone and replayed. It is the model's device, not a part of Kubernetes.",
			origin: "rlab",
			upstream: {name: "sim.Kernel.Agenda", file: "core/sim/kernel.go"},
		},
		{
			id: "periodic", group: "agenda", term: "periodic",
			short: "A timer that repeats, such as an informer's resync check: the world counts as at rest when only these are left.",
			long: "Periodic events keep coming for ever, so Stabilize stops when nothing else is on the {{agenda}}; stepping on runs them one by one.",
			origin: "rlab",
			upstream: {name: "sim.Kernel.Background", file: "core/sim/kernel.go"},
		},
		{
			id: "faults", group: "agenda", term: "faults",
			short: "Failures you injected: errors the API server returns to chosen requests, and watch events dropped or delayed.",
			long: "The console's fail command adds the API errors, and drop watch, break watch, expire watch and delay watch the watch faults; heal ends them. They show how the controller copes: a refused create comes back with back-off, and lost events are repaired by a {{relist}} or outlasted by {{expired}} expectations. A real cluster has such failures without being asked.",
			origin: "rlab",
			upstream: {name: "apistore.Faults", file: "core/apistore/faults.go"},
		},

		// --- Garbage collector -------------------------------------------
		{
			id: "garbage-collector", group: "gc", term: "garbage collector",
			short: "The controller that deletes objects whose owners are gone or going, or strips the owner's reference from them when it was deleted with --cascade=orphan.",
			long: "Deleting a ReplicaSet deletes only the ReplicaSet. The garbage collector watches owners and {{dependent|dependents}}, keeps a graph of who owns whom, and finishes the job: by default it deletes, after the owner, each dependent whose owners are all gone.",
			upstream: {name: "garbagecollector.GarbageCollector", file: "k8s.io/kubernetes/pkg/controller/garbagecollector/garbagecollector.go"},
		},
		{
			id: "owner", group: "gc", term: "owner",
			short: "An object others belong to, as pods belong to a ReplicaSet: they name it in their ownerReferences.",
			long: "An owner reference holds the owner's kind, name and uid. The uid matters: a new rs/web created after the old one was deleted is another owner, and the old pods are not its own. At most one of an object's owners is its {{controller-ref|controller}}.",
			upstream: {name: "metav1.OwnerReference", file: "k8s.io/apimachinery/pkg/apis/meta/v1/types.go"},
		},
		{
			id: "dependent", group: "gc", term: "dependent",
			short: "An object that names an owner in its ownerReferences, as a pod names its ReplicaSet.",
			long: "The garbage collector keeps, for every owner, the set of its dependents, built from watch events, so when the owner goes it knows at once which objects to delete or orphan.",
			upstream: {name: "garbagecollector.node.dependents", file: "k8s.io/kubernetes/pkg/controller/garbagecollector/graph.go"},
		},
		{
			id: "attempt-to-delete", group: "gc", term: "attemptToDelete",
			short: "The garbage collector's queue of dependents to check: is any of their owners still alive? If none is, the dependent is deleted.",
			long: "For each dependent, attemptToDeleteItem reads its owners from the API server, or remembers them as absent. A dependent with a live owner only loses its references to the gone ones and to those being deleted in the {{foreground|foreground}}; one with no live owner left is deleted, with its uid as a precondition so that a newer object of the same name is safe.",
			upstream: {name: "garbagecollector.GarbageCollector.attemptToDeleteItem", file: "k8s.io/kubernetes/pkg/controller/garbagecollector/garbagecollector.go"},
		},
		{
			id: "attempt-to-orphan", group: "gc", term: "attemptToOrphan",
			short: "The garbage collector's queue of owners deleted with --cascade=orphan: remove the owner's reference from every dependent, then let the owner go.",
			long: "Such an owner stays in the API server, {{terminating}}, held by the orphan {{finalizer}}. The collector patches each dependent to drop its reference to the owner, then removes the finalizer, and the owner is gone. Its pods stay, as {{orphan|orphans}}.",
			upstream: {name: "garbagecollector.GarbageCollector.orphanDependents", file: "k8s.io/kubernetes/pkg/controller/garbagecollector/garbagecollector.go"},
		},
		{
			id: "propagation", group: "gc", term: "mode",
			short: "How a delete treats the owner's dependents: Background deletes them after the owner, Foreground before it, Orphan keeps them as orphans.",
			long: "The delete request's propagationPolicy sets it, and kubectl's --cascade=background, --cascade=foreground or --cascade=orphan chooses it. Every DELETE returns at once: Foreground only keeps the owner, {{terminating}}, with the foregroundDeletion {{finalizer}}, until the collector has deleted each dependent whose owner reference has blockOwnerDeletion set, terminating pods included. A ReplicationController deleted through the API with no policy orphans its pods, for old clients' sake; kubectl asks for background unless told otherwise.",
			upstream: {name: "metav1.DeletionPropagation", file: "k8s.io/apimachinery/pkg/apis/meta/v1/types.go"},
		},
		{
			id: "finalizer", group: "gc", term: "finalizer",
			short: "A name in an object's finalizers that holds it, terminating, until whoever added it has finished and removes it.",
			long: "An owner deleted with propagationPolicy Orphan gets the finalizer orphan: the garbage collector removes it once every dependent has dropped its reference to the owner.",
			upstream: {name: "metav1.FinalizerOrphanDependents", file: "k8s.io/apimachinery/pkg/apis/meta/v1/types.go"},
		},
		{
			id: "graph", group: "gc", term: "graph",
			short: "The garbage collector's map of who owns whom, built from watch events.",
			long: "Like an informer's cache, it lags behind the API server; an owner's dependents are orphaned only once the graph has caught up with the owner's deletion.",
			upstream: {name: "garbagecollector.GraphBuilder", file: "k8s.io/kubernetes/pkg/controller/garbagecollector/graph_builder.go"},
		},

		// --- The world ---------------------------------------------------
		{
			id: "orphan", group: "world", term: "orphan",
			short: "A pod that no controller owns: none of its owner references is marked controller. An owner whose selector matches it adopts it.",
			long: "Pods become orphans when created on their own, when their owner was deleted with --cascade=orphan, or when their labels stopped matching and the owner {{release|released}} them. They keep running, but nobody replaces one that dies.",
			upstream: {name: "metav1.GetControllerOf", file: "k8s.io/apimachinery/pkg/apis/meta/v1/controller_ref.go"},
		},
		{
			id: "controller-ref", group: "world", term: "controllerRef",
			short: "The one owner reference of an object marked controller: it says which owner manages the object.",
			long: "A pod may have several {{owner|owners}} but at most one controller. The replication manager acts only on pods whose controllerRef names it, uid and all, and on orphans it may {{adopt}}; a pod another controller manages is left alone even if the selector matches it.",
			upstream: {name: "metav1.NewControllerRef", file: "k8s.io/apimachinery/pkg/apis/meta/v1/controller_ref.go"},
		},
		{
			id: "adopt", group: "world", term: "adopt",
			short: "Claim an orphan: the owner patches the pod to name itself as its controller, because the pod's labels match its selector.",
			long: "Adoption happens during a sync, while {{claim|claiming}}, and only after a fresh read of the owner shows it is not being deleted. If two owners match, the first patch wins; the patch carries the pod's uid, so it cannot land on a newer pod of the same name.",
			upstream: {name: "controller.PodControllerRefManager.AdoptPod", file: "k8s.io/kubernetes/pkg/controller/controller_ref_manager.go"},
		},
		{
			id: "release", group: "world", term: "release",
			short: "Let go of a pod whose labels no longer match the owner's selector: the owner removes its controllerRef, and the pod becomes an orphan.",
			long: "A release happens during the owner's next sync, while {{claim|claiming}}. The owner then has one pod fewer and creates a replacement; the released pod keeps running on its own.",
			upstream: {name: "controller.PodControllerRefManager.ReleasePod", file: "k8s.io/kubernetes/pkg/controller/controller_ref_manager.go"},
		},
		{
			id: "terminating", group: "world", term: "terminating",
			short: "Being deleted: the object has a deletionTimestamp and waits out its grace period or its finalizers before it is gone.",
			long: "A terminating pod no longer counts as one of its owner's replicas, so the owner creates its replacement at once, while the old pod is still shutting down. An owner that is being deleted creates and deletes nothing.",
			upstream: {name: "metav1.ObjectMeta.DeletionTimestamp", file: "k8s.io/apimachinery/pkg/apis/meta/v1/types.go"},
		},
		{
			id: "selector", group: "world", term: "selector",
			short: "The label query an owner picks its pods by, such as app=web.",
			long: "An owner claims the active pods of its namespace whose labels match its selector: it {{adopt|adopts}} matching orphans and {{release|releases}} its own pods that stop matching. A ReplicaSet's selector cannot be changed once it is created.",
			upstream: {name: "metav1.LabelSelectorAsSelector", file: "k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go"},
		},
		{
			id: "desired", group: "world", term: "desired",
			short: "spec.replicas: how many pods the owner wants.",
			long: "Scaling changes only this number; the controller's next sync creates or deletes pods until the owner has that many, {{burst-replicas|burstReplicas}} at most per sync.",
			upstream: {name: "appsv1.ReplicaSetSpec.Replicas", file: "k8s.io/api/apps/v1/types.go"},
		},
		{
			id: "current", group: "world", term: "current",
			short: "status.replicas: how many active pods the owner had when its controller last wrote its status.",
			long: "The controller writes the status at the end of each sync, from the pods it claimed. Until the next one, it can differ from the pods drawn beside it.",
			upstream: {name: "appsv1.ReplicaSetStatus.Replicas", file: "k8s.io/api/apps/v1/types.go"},
		},
		{
			id: "ready", group: "world", term: "ready",
			short: "A pod whose Ready condition is true: its containers passed their readiness checks and it may get traffic.",
			long: "The owner's status counts its ready pods (readyReplicas) at its last status write. A pod set not ready is still one of the owner's replicas: the owner does not replace it.",
			upstream: {name: "podutil.IsPodReady", file: "k8s.io/kubernetes/pkg/api/v1/pod/util.go"},
		},
		{
			id: "available", group: "world", term: "available",
			short: "A ready pod that has stayed ready for the owner's minReadySeconds (none by default).",
			long: "With minReadySeconds at 0, every ready pod is available at once. Otherwise the controller asks to look again once that time has passed ({{delayed|AddAfter}}).",
			upstream: {name: "podutil.IsPodAvailable", file: "k8s.io/kubernetes/pkg/api/v1/pod/util.go"},
		},
		{
			id: "replica-failure", group: "world", term: "ReplicaFailure",
			short: "A condition in the owner's status, set when creating or deleting its pods failed, with the API server's error as its message.",
			long: "The next sync whose creates and deletes, if it sends any, all succeed removes it. A quota that refuses pods is the usual cause.",
			upstream: {name: "appsv1.ReplicaSetReplicaFailure", file: "k8s.io/api/apps/v1/types.go"},
		},
		{
			id: "phase", group: "world", term: "phase",
			short: "A pod's coarse state: Pending (not running yet), Running, Succeeded or Failed.",
			long: "The kubelet sets it. A Succeeded or Failed pod is no longer active: its owner counts it out and creates a replacement.",
			upstream: {name: "corev1.PodPhase", file: "k8s.io/api/core/v1/types.go"},
		},
		{
			id: "node-ready", group: "world", term: "node Ready",
			short: "A node's Ready condition: Unknown, which kubectl prints as NotReady, once its kubelet has stopped reporting.",
			long: "Pods on a NotReady node are not moved by the ReplicaSet controller; they stay its replicas until something deletes them.",
			upstream: {name: "corev1.NodeReady", file: "k8s.io/api/core/v1/types.go"},
		},
		{
			id: "cordoned", group: "world", term: "cordoned",
			short: "Marked unschedulable: the scheduler puts no new pod on this node, and the pods already there keep running.",
			long: "kubectl cordon sets it, and uncordon clears it.",
			upstream: {name: "corev1.NodeSpec.Unschedulable", file: "k8s.io/api/core/v1/types.go"},
		},
		{
			id: "kubelet", group: "world", term: "kubelet",
			short: "The agent on each node that starts and stops the pods placed there and reports their status.",
			long: "Without a kubelet, a node's pods do not start, and their phase and readiness stop changing.",
			upstream: {name: "kubelet.Kubelet", file: "k8s.io/kubernetes/pkg/kubelet/kubelet.go"},
		},
		{
			id: "scheduler", group: "world", term: "scheduler",
			short: "The component that picks a node for each new pod and binds the pod to it; until then no kubelet runs the pod.",
			long: "It watches pods and nodes like any controller. Here it places each pod on the schedulable node with the fewest pods and sends a pods/binding request; the pod's kubelet sees the binding through its own watch.",
			upstream: {name: "scheduler.Scheduler.scheduleOne", file: "k8s.io/kubernetes/pkg/scheduler/schedule_one.go"},
		},
		{
			id: "event-recorder", group: "world", term: "event recorder",
			short: "What turns a controller's \"Created pod: web-x\" into an Event object in the API server, which kubectl describe shows.",
			long: "A sync records events and goes on; the recorder correlates repeats (counting them instead of writing new ones) and writes them to the API server on its own time.",
			upstream: {name: "record.EventRecorder", file: "k8s.io/client-go/tools/record/event.go"},
		},
		{
			id: "kubectl", group: "world", term: "kubectl",
			short: "The learner's own commands: each is a request to the API server, like any controller's.",
			long: "kubectl does not talk to the controller. It changes objects in the API server, and the controller finds out the way it finds out everything: through its informers' watches.",
			upstream: {name: "kubectl", file: "k8s.io/kubectl/pkg/cmd/cmd.go"},
		},
		{
			id: "scheduled", group: "world", term: "not scheduled",
			short: "No node yet: the scheduler has not placed the pod, so no kubelet runs it.",
			long: "A new pod has an empty spec.nodeName until the scheduler binds it to a node; it is Pending until then.",
			upstream: {name: "corev1.PodSpec.NodeName", file: "k8s.io/api/core/v1/types.go"},
		},

		// --- Deployments -------------------------------------------------
		{
			id: "deployment", group: "deployments", term: "Deployment",
			short: "An object that wants a number of pods from one pod template, and changes template by moving its pods from one ReplicaSet to the next.",
			long: "The Deployment controller creates no pods: it creates and scales ReplicaSets, one for each pod template, and the ReplicaSet controller makes the pods. A new template starts a {{rollout}}. The old ReplicaSets stay, scaled to 0, as the Deployment's history: each has a {{revision}}.",
			upstream: {name: "appsv1.Deployment", file: "k8s.io/api/apps/v1/types.go"},
		},
		{
			id: "rollout", group: "deployments", term: "rollout",
			short: "Moving a Deployment's replicas from its old ReplicaSets to the ReplicaSet of its current pod template.",
			long: "A sync moves it on: it grows the new ReplicaSet if {{max-surge|maxSurge}} allows, or else shrinks old ones as far as {{max-unavailable|maxUnavailable}} allows (the sync that makes the new ReplicaSet may do both), and deletes old ReplicaSets past the history limit. With the {{rolling-update|RollingUpdate}} strategy both ReplicaSets run at once, within {{max-surge|maxSurge}} and {{max-unavailable|maxUnavailable}}; with {{recreate|Recreate}} every old pod is gone before the new ReplicaSet is made. A rollout that makes no progress for {{progress-deadline|progressDeadlineSeconds}} is marked as failed, and nothing is undone.",
			upstream: {name: "DeploymentController.rolloutRolling", file: "k8s.io/kubernetes/pkg/controller/deployment/rolling.go"},
		},
		{
			id: "sync-deployment", group: "deployments", term: "syncDeployment",
			short: "One pass of the Deployment controller over one Deployment: move its ReplicaSets one step toward what it wants. It never creates or deletes a pod.",
			long: "A sync reads the Deployment and its ReplicaSets from the informers' caches (and, for {{recreate|Recreate}}, their pods, to see whether the old ones are gone). It finds the ReplicaSet of the current pod template, or creates it; scales ReplicaSets up or down, within {{max-surge|maxSurge}} and {{max-unavailable|maxUnavailable}} for {{rolling-update|RollingUpdate}}, or every old one to 0 first for Recreate; deletes the oldest old ReplicaSets beyond revisionHistoryLimit; and writes the Deployment's status. The ReplicaSet controller makes and removes the pods. A paused Deployment is only scaled, and one being deleted only has its status written.",
			upstream: {name: "DeploymentController.syncDeployment", file: "k8s.io/kubernetes/pkg/controller/deployment/deployment_controller.go"},
		},
		{
			id: "rolling-update", group: "deployments", term: "RollingUpdate",
			short: "The default strategy: replace the pods a few at a time, within {{max-surge|maxSurge}} and {{max-unavailable|maxUnavailable}}.",
			long: "A sync grows the new ReplicaSet if maxSurge allows it, and otherwise shrinks old ones as far as maxUnavailable allows. The sync that creates the new ReplicaSet may do both: it creates it at the size maxSurge allows, then shrinks old ones in the same pass. Pods becoming available, seen through the ReplicaSets' status, let the next sync go on.",
			upstream: {name: "deployment.DeploymentController.rolloutRolling", file: "k8s.io/kubernetes/pkg/controller/deployment/rolling.go"},
		},
		{
			id: "recreate", group: "deployments", term: "Recreate",
			short: "The other strategy: scale every old ReplicaSet to 0, wait until their pods are gone, then create the new one at full size.",
			long: "Old and new pods never run together, at the price of a time with none at all.",
			upstream: {name: "deployment.DeploymentController.rolloutRecreate", file: "k8s.io/kubernetes/pkg/controller/deployment/recreate.go"},
		},
		{
			id: "max-surge", group: "deployments", term: "maxSurge",
			short: "How many pods above spec.replicas a rollout's ReplicaSets may want, all together: a number, or a percentage rounded up.",
			long: "The default, 25%, of 10 replicas is 2.5, rounded up to 3: the ReplicaSets may want 13 pods in all. It counts what the ReplicaSets want (their spec.replicas), not the pods running, so pods still terminating come on top.",
			upstream: {name: "deploymentutil.ResolveFenceposts", file: "k8s.io/kubernetes/pkg/controller/deployment/util/deployment_util.go"},
		},
		{
			id: "max-unavailable", group: "deployments", term: "maxUnavailable",
			short: "How many of spec.replicas may be unavailable during a rollout: a number, or a percentage rounded down.",
			long: "25% of 10 replicas is 2.5, rounded down to 2: at least 8 pods stay {{available}}. 25% of 3 rounds down to 0: no old pod goes before a new one is available. When {{max-surge|maxSurge}} and maxUnavailable both come to 0, maxUnavailable becomes 1; both written as 0, the API server refuses the Deployment.",
			upstream: {name: "deploymentutil.ResolveFenceposts", file: "k8s.io/kubernetes/pkg/controller/deployment/util/deployment_util.go"},
		},
		{
			id: "revision", group: "deployments", term: "revision",
			short: "The number on a Deployment's ReplicaSet (its deployment.kubernetes.io/revision annotation): which rollout last made it the new one.",
			long: "A rollout gives the new ReplicaSet the highest revision so far plus one. An old ReplicaSet that becomes the new one again, after rollout undo, gets a new number, and its old number disappears from rollout history. Scaling makes no revision.",
			upstream: {name: "deploymentutil.SetNewReplicaSetAnnotations", file: "k8s.io/kubernetes/pkg/controller/deployment/util/deployment_util.go"},
		},
		{
			id: "pod-template-hash", group: "deployments", term: "pod-template-hash",
			short: "A label the Deployment controller puts on each ReplicaSet it makes, in its selector and on its pods: a hash of the pod template.",
			long: "It keeps a Deployment's ReplicaSets from claiming each other's pods, and ends the ReplicaSet's name (web-5c8dbf74b). The controller finds the ReplicaSet of a template by comparing templates, not hashes.",
			upstream: {name: "controller.ComputeHash", file: "k8s.io/kubernetes/pkg/controller/controller_utils.go"},
		},
		{
			id: "proportional-scaling", group: "deployments", term: "proportional scaling",
			short: "Scaling a Deployment that has pods in more than one ReplicaSet: the change is shared out in proportion to their sizes.",
			long: "It happens when a Deployment is scaled in the middle of a rollout, or while it is paused: a paused Deployment still scales. Each ReplicaSet gets its share, rounded; what the rounding leaves over goes to the largest.",
			upstream: {name: "DeploymentController.scale", file: "k8s.io/kubernetes/pkg/controller/deployment/sync.go"},
		},
		{
			id: "progress-deadline", group: "deployments", term: "progressDeadlineSeconds",
			short: "How long a rollout may go without progress before the Deployment's Progressing condition turns False, with reason ProgressDeadlineExceeded.",
			long: "Nothing is rolled back: the old ReplicaSet keeps serving, and the new one keeps trying. Any progress (a pod updated, ready or available, an old one gone) starts the clock again. The default is 600 seconds; a paused Deployment cannot time out.",
			upstream: {name: "DeploymentController.syncRolloutStatus", file: "k8s.io/kubernetes/pkg/controller/deployment/progress.go"},
		},
		{
			id: "foreground", group: "deployments", term: "foreground",
			short: "A cascading delete that keeps the owner, marked for deletion, until the garbage collector has deleted its blocking dependents and they are gone.",
			long: "The DELETE returns at once. The owner gets a deletionTimestamp and the foregroundDeletion {{finalizer}}. The collector deletes each {{dependent}}, in the foreground too when it has dependents of its own, and removes the finalizer once no dependent with {{block-owner-deletion|blockOwnerDeletion}} is left, terminating pods included.",
			upstream: {name: "garbagecollector.GarbageCollector.processDeletingDependentsItem", file: "k8s.io/kubernetes/pkg/controller/garbagecollector/garbagecollector.go"},
		},
		{
			id: "block-owner-deletion", group: "deployments", term: "blockOwnerDeletion",
			short: "A flag on an owner reference: in a foreground delete, the owner waits until this dependent is gone.",
			long: "Controllers set it on the references they write, so a ReplicaSet's pods and a Deployment's ReplicaSets all have it. Only a {{foreground}} delete waits for it; background and orphan deletes ignore it.",
			upstream: {name: "metav1.OwnerReference.BlockOwnerDeletion", file: "k8s.io/apimachinery/pkg/apis/meta/v1/types.go"},
		},
	],

	// match lists, by entry, the words the page's panels and the engine's
	// text write for it, in English, whatever the language of the entries
	// above: the page finds an entry's term in their text by these. They are
	// matched whole and with their case; the longest match at a place wins.
	match: {
		"workqueue": ["Workqueue", "workqueue"],
		"key": ["key"],
		"waiting": ["waiting"],
		"processing": ["processing"],
		"dirty": ["dirty"],
		"delayed": ["delayed (AddAfter)", "delayed", "AddAfter"],
		"rate-limited": ["rate limited", "rate-limited", "AddRateLimited"],
		"requeues": ["requeues (NumRequeues)", "NumRequeues"],
		"get": ["Get"],
		"worker": ["worker", "workers", "Workers"],
		"sync": ["syncReplicaSet", "syncs"],
		"claim": ["claiming"],
		"slow-start": ["slow-start", "slow start"],
		"burst-replicas": ["burstReplicas"],
		"status": ["writing status"],
		"expectations": ["Expectations", "expectations"],
		"add": ["add"],
		"del": ["del"],
		"satisfied": ["satisfied"],
		"expired": ["expired"],
		"deletes-awaited": ["deletes awaited"],
		"informer": ["Informers", "informers", "informer"],
		"list": ["listing", "lists", "list"],
		"watch": ["opening watch", "watching", "watches", "watch"],
		"backing-off": ["backing off"],
		"has-synced": ["HasSynced", "not synced"],
		"last-sync-rv": ["lastSyncResourceVersion"],
		"resource-version": ["resourceVersion", "cache RV", "API RV"],
		"cache": ["caches", "cached", "cache"],
		"differ": ["differ", "stale"],
		"deltafifo": ["DeltaFIFOs", "DeltaFIFO"],
		"delta": ["Added", "Updated", "Deleted"],
		"tombstone": ["tombstone"],
		"relist": ["relists", "relist", "Replaced"],
		"resync": ["resyncs", "resync", "Sync"],
		"api-server": ["API server", "the API"],
		"agenda": ["Agenda"],
		"periodic": ["periodic"],
		"faults": ["Faults"],
		"garbage-collector": ["Garbage collector", "garbage collector"],
		"owner": ["Owners", "owners", "owner"],
		"dependent": ["dependents", "dependent"],
		"attempt-to-delete": ["attemptToDelete"],
		"attempt-to-orphan": ["attemptToOrphan", "orphaning dependents"],
		"propagation": ["mode"],
		"finalizer": ["finalizer"],
		"graph": ["graph"],
		"orphan": ["Orphans", "orphans", "orphan"],
		"controller-ref": ["controllerRef", "controller"],
		"adopt": ["adopts", "adopting", "adopt"],
		"release": ["releases", "releasing", "release"],
		"terminating": ["terminating", "being deleted"],
		"selector": ["selector"],
		"desired": ["desired"],
		"current": ["current"],
		"ready": ["Ready", "ready"],
		"available": ["available"],
		"replica-failure": ["ReplicaFailure"],
		"phase": ["Pending", "Failed"],
		"node-ready": ["NotReady", "Ready"],
		"cordoned": ["cordoned"],
		"kubelet": ["kubelet"],
		"scheduled": ["not scheduled"],
		"sync-deployment": ["syncDeployment"],
		"deployment": ["Deployments", "Deployment"],
		"revision": ["revisions", "revision"],
		"pod-template-hash": ["pod-template-hash"],
		"rolling-update": ["RollingUpdate"],
		"recreate": ["Recreate"],
		"max-surge": ["maxSurge"],
		"max-unavailable": ["maxUnavailable"],
	},
};
