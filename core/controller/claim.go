package controller

import (
	"errors"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/minijson"
)

// A ReplicaSet does not own the pods its selector matches; it owns the pods
// whose controller reference points at it. Claiming reconciles the two on
// every sync: a matching orphan is adopted (a patch adds our controller
// reference), an owned pod that stopped matching is released (a patch removes
// it), and pods controlled by someone else are left alone whatever their
// labels. This file holds the per-pod decision and the patches, as pure
// functions; the claim loop, which sends the patches and gathers the errors,
// is the sync's. It models upstream's BaseControllerRefManager.ClaimObject,
// PodControllerRefManager.AdoptPod and ReleasePod, and
// RecheckDeletionTimestamp (pkg/controller/controller_ref_manager.go).

// ClaimDecision is what the claim loop does with one pod.
type ClaimDecision uint8

const (
	// ClaimIgnore: the pod is not ours and we leave it alone.
	ClaimIgnore ClaimDecision = iota
	// ClaimClaimed: the pod is ours already and stays ours; no API call.
	ClaimClaimed
	// ClaimNeedsRelease: the pod is ours but no longer matches: patch our
	// controller reference away. A released pod is not claimed, whatever the
	// patch's outcome.
	ClaimNeedsRelease
	// ClaimNeedsAdoption: the pod is a matching orphan: check that we may
	// adopt, then patch our controller reference onto it. It is claimed if
	// the patch succeeds.
	ClaimNeedsAdoption
)

// String names the decision as the trace does.
func (d ClaimDecision) String() string {
	switch d {
	case ClaimIgnore:
		return "ignore"
	case ClaimClaimed:
		return "claimed"
	case ClaimNeedsRelease:
		return "release"
	case ClaimNeedsAdoption:
		return "adopt"
	}
	return "ClaimDecision(?)"
}

// DecideClaim decides what the claim loop does with pod, for the controller
// with metadata controller and the given selector, and says why in a sentence
// for the learner. It is upstream's ClaimObject without its API calls, rule
// for rule, first match wins:
//
//  1. The pod has a controller reference (an owner reference with
//     controller: true):
//     a. to another UID: ignore;
//     b. to ours, and the selector matches: claimed (even while we are being
//     deleted: keeping a pod costs no API call);
//     c. to ours, no match, and we are being deleted: ignore;
//     d. to ours, no match: release.
//  2. The pod is an orphan:
//     a. we are being deleted, or the selector does not match: ignore;
//     b. the pod is being deleted: ignore (a dying pod is never adopted);
//     c. we have a namespace and the pod is in another: ignore (only a
//     cluster-scoped owner, whose namespace is empty, adopts across
//     namespaces);
//     d. otherwise: adopt.
//
// The controller is given by its metadata so that any kind can claim; the
// replication manager passes its ReplicaSet's (a ReplicationController's is
// converted to one first). The sentences are constants, so deciding for
// every pod of a large namespace allocates nothing. It is exported for the
// world's read model (core/world), which tells the learner what the next
// sync will do with each pod by asking this rule rather than copying it.
func DecideClaim(pod *api.Pod, controller *api.ObjectMeta, selector labels.Selector) (ClaimDecision, string) {
	return DecideClaimObject(&pod.Metadata, controller, selector)
}

// DecideClaimObject is DecideClaim for an object of any kind, given by its
// metadata: the Deployment controller claims ReplicaSets by the same rule
// (upstream's ReplicaSetControllerRefManager.ClaimReplicaSets runs the same
// ClaimObject).
func DecideClaimObject(obj *api.ObjectMeta, controller *api.ObjectMeta, selector labels.Selector) (ClaimDecision, string) {
	return decideClaim(obj, controller, selector.Matches)
}

// decideClaim is the rule of DecideClaimObject, asking matches whether the
// controller's selector matches a label set; it asks at most once.
func decideClaim(obj *api.ObjectMeta, controller *api.ObjectMeta, matches func(labels.Set) bool) (ClaimDecision, string) {
	if ref := api.GetControllerOf(obj); ref != nil {
		if ref.UID != controller.UID {
			return ClaimIgnore, "its controller is another object; an object has one controller, and it is not us"
		}
		if matches(obj.Labels) {
			return ClaimClaimed, "we are its controller and its labels match our selector"
		}
		if controller.DeletionTimestamp != nil {
			return ClaimIgnore, "we are its controller and its labels no longer match, but we are being deleted, so we leave it as it is"
		}
		return ClaimNeedsRelease, "we are its controller but its labels no longer match our selector, so we let it go"
	}
	if controller.DeletionTimestamp != nil {
		return ClaimIgnore, "it is an orphan, but we are being deleted and adopt nothing"
	}
	if !matches(obj.Labels) {
		return ClaimIgnore, "it is an orphan whose labels do not match our selector"
	}
	if obj.DeletionTimestamp != nil {
		return ClaimIgnore, "it is an orphan that matches, but it is being deleted, and a dying object is never adopted"
	}
	if controller.Namespace != "" && controller.Namespace != obj.Namespace {
		return ClaimIgnore, "it is an orphan that matches, but in another namespace than ours"
	}
	return ClaimNeedsAdoption, "it is an orphan whose labels match our selector, so we adopt it"
}

// adoptionPatch is the patch that adopts pod: it adds the controller reference
// {apiVersion, kind, name, uid, controller: true, blockOwnerDeletion: true} of
// the controller, adds the finalizers (the replication manager passes none),
// and carries the pod's UID as a precondition, so that if the pod was deleted
// and another took its name the patch fails (Invalid) instead of adopting the
// wrong pod. The API server also refuses it if the pod has meanwhile gained
// another controller. It models the patch of upstream's AdoptPod; its JSON is
// adoptionPatchBytes.
func adoptionPatch(pod *api.Pod, controller *api.ObjectMeta, apiVersion, kind string, finalizers ...string) apistore.MetaPatch {
	return apistore.MetaPatch{
		UID:                pod.Metadata.UID,
		SetOwnerReferences: []api.OwnerReference{api.NewControllerRef(controller, apiVersion, kind)},
		AddFinalizers:      finalizers,
	}
}

// releasePatch is the patch that releases pod from the controller with
// controllerUID: it deletes the owner reference with that UID and the
// finalizers, with the pod's UID as a precondition. It models the patch of
// upstream's ReleasePod; its JSON is GenerateDeleteOwnerRefStrategicMergeBytes.
func releasePatch(pod *api.Pod, controllerUID string, finalizers ...string) apistore.MetaPatch {
	return apistore.MetaPatch{
		UID:                   pod.Metadata.UID,
		RemoveOwnerReferences: []string{controllerUID},
		RemoveFinalizers:      finalizers,
	}
}

// adoptionPatchBytes is the strategic-merge patch upstream sends to adopt a
// pod (ownerRefControllerPatch), byte for byte what its json.Marshal writes:
//
//	{"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web",
//	  "uid":"<rs uid>","controller":true,"blockOwnerDeletion":true}],"uid":"<pod uid>"}}
//
// with "finalizers":[…] after the uid when there are finalizers. The page
// shows it as what goes over the wire; the model itself sends adoptionPatch.
func adoptionPatchBytes(podUID string, controller *api.ObjectMeta, apiVersion, kind string, finalizers ...string) []byte {
	b := make([]byte, 0, 192)
	b = append(b, `{"metadata":{"ownerReferences":[{"apiVersion":`...)
	b = minijson.AppendString(b, apiVersion)
	b = append(b, `,"kind":`...)
	b = minijson.AppendString(b, kind)
	b = append(b, `,"name":`...)
	b = minijson.AppendString(b, controller.Name)
	b = append(b, `,"uid":`...)
	b = minijson.AppendString(b, controller.UID)
	b = append(b, `,"controller":true,"blockOwnerDeletion":true}],"uid":`...)
	b = minijson.AppendString(b, podUID)
	if len(finalizers) > 0 {
		b = append(b, `,"finalizers":`...)
		b = appendJSONStrings(b, finalizers)
	}
	return append(b, "}}"...)
}

// GenerateDeleteOwnerRefStrategicMergeBytes is the strategic-merge patch that
// removes the owner references with ownerUIDs (and the finalizers) from the
// object with dependentUID, byte for byte what upstream's function of the same
// name writes with json.Marshal:
//
//	{"metadata":{"uid":"<pod uid>","ownerReferences":[{"$patch":"delete","uid":"<owner uid>"}],
//	  "$deleteFromPrimitiveList/finalizers":["<finalizer>"]}}
//
// with one ownerReferences entry per owner, "ownerReferences":null when there
// are none, and no $deleteFromPrimitiveList/finalizers without finalizers.
// Quotes, backslashes and control characters in the UIDs are escaped as JSON
// requires. It is the JSON of releasePatch, for the page.
func GenerateDeleteOwnerRefStrategicMergeBytes(dependentUID string, ownerUIDs []string, finalizers ...string) []byte {
	b := make([]byte, 0, 96+48*len(ownerUIDs))
	b = append(b, `{"metadata":{"uid":`...)
	b = minijson.AppendString(b, dependentUID)
	b = append(b, `,"ownerReferences":`...)
	if len(ownerUIDs) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, uid := range ownerUIDs {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"$patch":"delete","uid":`...)
			b = minijson.AppendString(b, uid)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(finalizers) > 0 {
		b = append(b, `,"$deleteFromPrimitiveList/finalizers":`...)
		b = appendJSONStrings(b, finalizers)
	}
	return append(b, "}}"...)
}

// appendJSONStrings appends a JSON array of strings.
func appendJSONStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = minijson.AppendString(b, s)
	}
	return append(b, ']')
}

// releaseResult interprets the API's answer to a release patch: the error
// the claim loop reports for this pod, or nil when the release counts as done.
// NotFound (the pod is gone) and Invalid (the pod's UID no longer matches,
// because it was deleted and recreated under its name, or it has no owner
// references left to remove) both count as done, as in upstream's ReleasePod.
func releaseResult(err error) error {
	if apistore.IsNotFound(err) || apistore.IsInvalid(err) {
		return nil
	}
	return err
}

// adoptResult interprets the API's answer to an adoption patch (or the error
// of the may-we-adopt check, see cantAdoptError): whether the pod is now
// claimed, and the error the claim loop reports for it. NotFound means the pod
// went away meanwhile and is skipped silently; any other error, such as an
// Invalid because another controller got there first, is reported, and the
// sync is retried later. It models how upstream's ClaimObject treats adopt's
// error.
func adoptResult(err error) (claimed bool, reported error) {
	switch {
	case err == nil:
		return true, nil
	case apistore.IsNotFound(err):
		return false, nil
	}
	return false, err
}

// cantAdoptError is the error every adoption of one claim pass fails with
// once the may-we-adopt check (recheckDeletionTimestamp) has failed, worded as
// upstream's AdoptPod words it.
func cantAdoptError(pod *api.Pod, err error) error {
	return errors.New("can't adopt Pod " + pod.Metadata.Namespace + "/" + pod.Metadata.Name +
		" (" + pod.Metadata.UID + "): " + err.Error())
}

// recheckDeletionTimestamp is the may-we-adopt check of the replication
// manager, which runs at most once per claim pass, just before its first
// adoption: a live GET of the controller from the API server (not from the
// cache, which may not have seen a deletion yet), whose result is fresh, or
// getErr when it failed. It returns nil when adopting is allowed, and
// otherwise the error, worded as upstream's RecheckDeletionTimestamp and the
// ReplicaSet controller's getter word it:
//
//   - the GET failed: "can't recheck DeletionTimestamp: <error>";
//   - the object under that name has another UID (ours was deleted and
//     recreated): "can't recheck DeletionTimestamp: original <kind>
//     <ns>/<name> is gone: got uid <new>, wanted <old>";
//   - it is being deleted: "<ns>/<name> has just been deleted at <time>".
//
// kind is the controller's kind, as "ReplicaSet".
func recheckDeletionTimestamp(kind string, original, fresh *api.ObjectMeta, getErr error) error {
	const prefix = "can't recheck DeletionTimestamp: "
	if getErr != nil {
		return errors.New(prefix + getErr.Error())
	}
	if fresh.UID != original.UID {
		return errors.New(prefix + "original " + kind + " " + original.Namespace + "/" + original.Name +
			" is gone: got uid " + fresh.UID + ", wanted " + original.UID)
	}
	if fresh.DeletionTimestamp != nil {
		return errors.New(fresh.Namespace + "/" + fresh.Name + " has just been deleted at " + fresh.DeletionTimestamp.String())
	}
	return nil
}

// The claim loop's pieces for objects of any kind, for the Deployment
// controller's claim of ReplicaSets: the patches by the object's UID, the
// reading of their answers, and the may-we-adopt check.

// AdoptionPatch is adoptionPatch for the object with uid.
func AdoptionPatch(uid string, controller *api.ObjectMeta, apiVersion, kind string) apistore.MetaPatch {
	return apistore.MetaPatch{UID: uid, SetOwnerReferences: []api.OwnerReference{api.NewControllerRef(controller, apiVersion, kind)}}
}

// ReleasePatch is releasePatch for the object with uid.
func ReleasePatch(uid, controllerUID string) apistore.MetaPatch {
	return apistore.MetaPatch{UID: uid, RemoveOwnerReferences: []string{controllerUID}}
}

// AdoptResult is adoptResult: whether an adoption patch's answer err leaves
// the object claimed, and the error the claim loop reports for it.
func AdoptResult(err error) (claimed bool, reported error) { return adoptResult(err) }

// ReleaseResult is releaseResult: the error the claim loop reports for a
// release patch's answer err, nil when the release counts as done.
func ReleaseResult(err error) error { return releaseResult(err) }

// RecheckDeletionTimestamp is recheckDeletionTimestamp: nil when a fresh
// GET of the controller (fresh, or getErr) allows adopting.
func RecheckDeletionTimestamp(kind string, original, fresh *api.ObjectMeta, getErr error) error {
	return recheckDeletionTimestamp(kind, original, fresh, getErr)
}

// selectorMemo answers a selector's Matches for the label sets of cached
// objects, remembering its answer for the last map it was asked about. The
// pods of one ReplicaSet share one labels map (the API server gives each the
// map of its template; see apistore's shareLabels), so a claim loop over a
// thousand of them matches the selector once rather than a thousand times:
// the matching was 6% of the instructions of a world of ten ReplicaSets of a
// thousand pods.
//
// It is sound only for maps nothing changes, which the cache's objects'
// maps are: every write of an object stores a new version, with a new map
// for changed labels. It holds the last map itself, so that the map's
// memory cannot be given to another map while it is remembered.
type selectorMemo struct {
	selector labels.Selector
	last     labels.Set
	matched  bool
}

// Matches is selector.Matches(set).
func (m *selectorMemo) Matches(set labels.Set) bool {
	if set == nil || !labels.SameSet(set, m.last) {
		m.last, m.matched = set, m.selector.Matches(set)
	}
	return m.matched
}

// claimMemo remembers the claim loop's decision for the last pod it decided
// that has a controller. The pods a ReplicaSet created share one list of
// owner references (the API server copies a created pod shallowly, and a
// pod's next version keeps the references of the one before), as they share
// one labels map (see selectorMemo). A pod with a controller is decided by
// that reference, its labels and the owner only, and the owner is the same
// through a sync; so a pod with the same list of references and the same
// labels map as the last one is decided as it was. Finding each pod's
// controller reference and deciding anew was a fiftieth of the
// instructions of a world of ten ReplicaSets of a thousand pods. An orphan
// is decided by its own fields as well (being deleted, its namespace), so
// it is always decided anew.
//
// Like selectorMemo it is sound only for what nothing changes, the cache's
// objects' lists and maps, and it holds them itself, so that their memory
// cannot be given to others while they are remembered.
type claimMemo struct {
	refs   []api.OwnerReference
	labels labels.Set
	// decision is a ClaimDecision, kept as its number: a field of the
	// type would link its String methods into main.wasm, since a
	// worker's snapshot holds its sync in an interface.
	decision uint8
}

// known returns the decision remembered for pod, if the memo has one for
// it. It is small enough for the compiler to write into the claim loop, so
// that a pod the memo decides costs no call.
func (c *claimMemo) known(pod *api.Pod) (ClaimDecision, bool) {
	refs := pod.Metadata.OwnerReferences
	return ClaimDecision(c.decision), len(refs) > 0 && len(refs) == len(c.refs) && &refs[0] == &c.refs[0] &&
		labels.SameSet(pod.Metadata.Labels, c.labels)
}

// decide decides for pod by the rule, for the owner with metadata owner
// whose selector matches answers (decideClaim), and remembers the decision
// if pod has a controller.
func (c *claimMemo) decide(pod *api.Pod, owner *api.ObjectMeta, matches func(labels.Set) bool) ClaimDecision {
	decision, _ := decideClaim(&pod.Metadata, owner, matches)
	c.refs, c.labels, c.decision = nil, nil, uint8(decision)
	if api.GetControllerOf(&pod.Metadata) != nil {
		c.refs, c.labels = pod.Metadata.OwnerReferences, pod.Metadata.Labels
	}
	return decision
}
