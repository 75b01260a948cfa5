// Package apistore is the model's Kubernetes API server: a versioned,
// in-memory store of Pods, ReplicaSets, ReplicationControllers, Nodes and
// Events that answers create, get, list, watch, update, patch and delete the
// way a real API server does, with the same errors, word for word where it can.
//
// It is a plain synchronous library. Nothing here blocks, sleeps, starts a
// goroutine or reads the machine's clock: time comes from Options.Now and
// chance from Options.Rand, both owned by the simulation kernel. A request is a
// value (Request), and so is its outcome (Response); Serve turns one into the
// other. The kernel adapter carries requests and responses as simulation
// events, and delivers the watch events each write causes.
//
// # resourceVersion: one counter orders every write
//
// Every successful write (create, update, patch, bind, delete) takes the next
// value of one global counter, the resourceVersion, and stamps it on the object
// it wrote (metadata.resourceVersion, in decimal). A real API server takes it
// from etcd's revision, which works the same way. The counter says two things:
// which of two versions of an object is newer, and, because it is global, where
// a client is in the history of the whole store. Writes that change nothing
// are skipped, as etcd-backed storage skips them: no new resourceVersion, no
// event.
//
// # Watches, and list-then-watch
//
// The store remembers, per kind, the most recent writes as watch events: ADDED,
// MODIFIED, DELETED, each with the resourceVersion of its write. A client that
// wants to follow a kind (an informer's reflector) does two things:
//
//	items, rv, _ := store.List(api.KindPod, "", labels.Everything()) // the state, and where it stands
//	events, _ := store.Watch(api.KindPod, "", rv)                     // everything after that
//
// and from then on asks for the events after the resourceVersion of the last
// event it received. Listing alone would miss changes made after the list;
// watching alone would not know the state to which the changes apply. Together,
// list plus every later event is exactly the store's state. CheckInvariants
// verifies the store keeps that promise: replaying the remembered history gives
// the stored objects.
//
// Watch(kind, ns, fromRV) is strictly "the events after fromRV". (A real API
// server also accepts "0", meaning any recent state; list-then-watch never needs
// it.) EventsSince is the same without being a request: no faults, nothing
// logged. It is what the kernel adapter calls after each write to find what to
// deliver to each watcher, with a binary search in a per-kind log.
//
// # Why an old resourceVersion expires
//
// History is not kept forever: etcd compacts it, and the API server's watch
// cache holds a window of recent events. Here, Options.WatchWindow events per
// kind are remembered. A watch from a resourceVersion older than the window
// would have to skip events nobody remembers, so it is refused with Expired
// (HTTP 410 Gone, "too old resource version: 5 (120)"), and the client must
// list again: a full relist, then a watch from the new list's resourceVersion.
// This is what happens to an informer that was disconnected too long.
//
// # Optimistic concurrency: Conflict
//
// No locks: a client reads an object, changes its copy and writes it back with
// the resourceVersion it read. If anyone wrote the object in between, the
// resourceVersions differ and the write fails with Conflict ("the object has
// been modified; please apply your changes to the latest version and try
// again"). The client reads again and retries. An update without a
// resourceVersion is unconditional; a patch may carry one as a precondition.
//
// # generateName
//
// A controller does not name its pods; it sends generateName ("web-") and the
// server appends five random characters from an alphabet without vowels or
// look-alike characters ("web-7xk2p"), drawn here from the seeded source so a
// run is reproducible. If the name is taken, the server draws again, up to 8
// times, then gives up with AlreadyExists. Because the client does not know the
// name before the create returns, the replication manager counts the creates it
// expects instead of naming them.
//
// # The status subresource
//
// An object's spec is what its owner wants; its status is what its controller
// observed. They are written through different endpoints: an update of the
// object ignores the status sent with it, and an update of the status
// subresource (UpdateStatus, "replicasets/status") ignores the spec and the
// metadata other writers own (labels, owner references, finalizers). So a
// controller writing status cannot undo a user's change to the spec that raced
// with it. metadata.generation counts spec changes, never status changes: a
// controller writes the generation it acted on into status.observedGeneration.
//
// # Graceful deletion and finalizers
//
// Deleting a running pod does not remove it. The store sets its
// deletionTimestamp to now plus the grace period (30s unless the pod or the
// delete says otherwise) and leaves it, so that its kubelet can stop the
// containers; the kubelet then deletes it again with grace 0, which removes it.
// A pod that was never scheduled, or that has finished, has nothing to stop and
// is removed at once. Controllers see the first step as an update with a
// deletionTimestamp and count the pod as gone from then on. Use DeletionDeadline
// or PendingDeletions to learn when a grace period ends. The Server stands in
// for the kubelet's final delete when the period ends (see
// ServerConfig.NoGraceEnforcement); that delete can fail like any request (an
// injected fault), and is then tried again every GraceRetryPeriod, as the
// kubelet's status manager does, so a pod is never left Terminating for ever.
//
// Finalizers hold any object: an object with finalizers is only marked
// (deletionTimestamp set) by a delete, and is removed when an update or patch
// takes its last finalizer away. A delete with propagationPolicy Orphan or
// Foreground adds the "orphan" or "foregroundDeletion" finalizer for the
// garbage collector to act on and then remove.
//
// # Errors
//
// Every error is a *StatusError with the code, reason and message a real API
// server sends: NotFound (404), AlreadyExists and Conflict (409), Invalid (422,
// with one cause per bad field), Forbidden (403), InternalError (500),
// ServiceUnavailable (503), Expired (410). Test them with IsNotFound, IsConflict
// and the other helpers, as client-go code does.
//
// # Faults
//
// Faults (see FaultRule) make chosen requests fail, to show how the
// controllers cope: "the next 3 pod creates fail with exceeded quota", "every
// status update of replicasets fails until healed", "let 2 creates through,
// then fail". Every request consults the rules before anything is applied, so
// a failed request changes nothing; a create consults them after its name is
// generated, so a quota refusal names the pod, as quota admission does. The
// rule that fired is reported in Response.Fault, and the rules' counters are
// part of snapshots.
//
// # What is shared
//
// Stored objects are never changed after they are stored: every write stores a
// fresh copy. So reads hand out the stored pointers themselves, without
// copying, and callers must treat them as read-only (DeepCopyObject before
// changing one), as with client-go's caches. The same immutability makes
// Snapshot and Restore cheap (see Snapshot).
//
// It also lets stored objects share their parts. A new version shares
// whatever it did not change with the one it replaces (shallowCopy). Equal
// parts are shared across objects: a pod gets the labels map of the last
// create's labels or of its controller's pod template (shareLabels). A pod
// status gets the conditions, container statuses and start time of the last
// status stored, where they are equal (statusMemo). That makes the pods of
// one ReplicaSet cost what differs between them, not what they repeat: in a
// world of 10,000 pods, about 8 MiB less.
//
// What a client sends is shared too. A sent object is the sender's no more:
// it must not change it (a request in flight is shared with the agenda's
// snapshots anyway), and the store never writes into it. So a new pod or
// Event is stored as a shallow copy of the object sent (copyForCreate), with
// only the fields the create sets of its own; the pods of one slow-start
// batch, which the controller sends as one object, share their template's
// copy. A pod's status update whose times are whole seconds already, as a
// kubelet sends them, is stored with the status it was sent
// (copyForStatusUpdate), since truncating its times would write nothing.
// The golden scripts' test (core/script) holds every stored object, in
// every script, to what it was when stored.
//
// The history of changes is shared in the same way: the watch events are
// only ever appended to a kind's history, so every watcher of the kind is
// delivered the same entry of it (WatchDelivery.Event), not a copy each.
package apistore
