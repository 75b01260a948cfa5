package apistore

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
)

// This file reproduces the API server's validation of the kinds the store
// holds (k8s.io/apimachinery/pkg/api/validation for metadata,
// k8s.io/kubernetes/pkg/apis/{core,apps}/validation for the rest), limited to
// the fields this model keeps. Field paths, messages and the order of the
// checks follow upstream, so that an Invalid error reads like a real cluster's.
// Where upstream walks a map in random order, this walks it in key order.

// Messages shared by several checks, word for word from upstream.
const (
	isNegativeErrorMsg     = "must be greater than or equal to 0"
	fieldImmutableErrorMsg = "field is immutable"
	// totalAnnotationSizeLimit is the most bytes an object's annotations (keys
	// and values) may hold: 256 kB.
	totalAnnotationSizeLimit = 256 * (1 << 10)
)

// Finalizers the garbage collector acts on. A delete with propagationPolicy
// Orphan or Foreground adds one of them; the collector removes it when done.
const (
	FinalizerOrphanDependents = "orphan"
	FinalizerDeleteDependents = "foregroundDeletion"
)

// validateCreate checks a new object, after defaulting and name generation.
// memo remembers the last labels found valid.
func validateCreate(info *kindInfo, obj api.Object, memo *labelsMemo, names *namesMemo) fieldErrors {
	errs := validateObjectMeta(info, obj.Meta(), memo, names)
	switch o := obj.(type) {
	case *api.Pod:
		errs = validatePodSpecificAnnotations(errs, o.Metadata.Annotations, "metadata.annotations", false)
		errs = validatePodSpec(errs, &o.Spec, "spec")
		errs = validateContainersOnlyForPod(errs, o.Spec.Containers, "spec.containers")
	case *api.ReplicaSet:
		errs = validateRSSpec(errs, &o.Spec, false)
	case *api.ReplicationController:
		errs = validateRCSpec(errs, &o.Spec, false)
	case *api.Deployment:
		errs = validateDeploymentSpec(errs, &o.Spec, false)
	case *api.Event:
		errs = validateEvent(errs, o)
	}
	return errs
}

// validateUpdate checks an update of the main resource (also a patch): the
// metadata rules of every update, then the kind's own.
func validateUpdate(obj, old api.Object) fieldErrors {
	errs := validateObjectMetaUpdate(obj.Meta(), old.Meta())
	switch o := obj.(type) {
	case *api.Pod:
		prev := old.(*api.Pod)
		errs = validatePodSpecificAnnotations(errs, o.Metadata.Annotations, "metadata.annotations", !validDeletionCost(prev.Metadata.Annotations))
		errs = validatePodUpdate(errs, o, prev)
	case *api.ReplicaSet:
		errs = validateRSSpec(errs, &o.Spec, !validDeletionCost(old.(*api.ReplicaSet).Spec.Template.Metadata.Annotations))
		// apps/v1 made the selector immutable: changing it would orphan the pods
		// the ReplicaSet already owns.
		if prev := old.(*api.ReplicaSet); !eqSelector(o.Spec.Selector, prev.Spec.Selector) {
			errs = append(errs, invalid("spec.selector", showLabelSelector(o.Spec.Selector), fieldImmutableErrorMsg))
		}
	case *api.ReplicationController:
		var prevAnnotations map[string]string
		if t := old.(*api.ReplicationController).Spec.Template; t != nil {
			prevAnnotations = t.Metadata.Annotations
		}
		errs = validateRCSpec(errs, &o.Spec, !validDeletionCost(prevAnnotations))
	case *api.Deployment:
		prev := old.(*api.Deployment)
		errs = validateDeploymentSpec(errs, &o.Spec, !validDeletionCost(prev.Spec.Template.Metadata.Annotations))
		// apps/v1 made the selector immutable, as a ReplicaSet's.
		if !eqSelector(o.Spec.Selector, prev.Spec.Selector) {
			errs = append(errs, invalid("spec.selector", showLabelSelector(o.Spec.Selector), fieldImmutableErrorMsg))
		}
	case *api.Event:
		errs = validateEvent(errs, o)
	}
	return errs
}

// validatePodSpecificAnnotations is the part of upstream's
// ValidatePodSpecificAnnotations this model has: a pod's
// controller.kubernetes.io/pod-deletion-cost, which the ReplicaSet
// controller ranks pods by, must be a 32-bit integer in its canonical
// form, on a pod and in a pod template, on create and on update.
// allowInvalid is upstream's AllowInvalidPodDeletionCost for an update of an
// object whose old value was already invalid: backward compatibility lets
// such an object keep being updated.
func validatePodSpecificAnnotations(errs fieldErrors, annotations map[string]string, path string, allowInvalid bool) fieldErrors {
	if allowInvalid || validDeletionCost(annotations) {
		return errs
	}
	key := api.PodDeletionCostAnnotation
	return append(errs, invalidString(path+"["+key+"]", annotations[key], "must be a 32bit integer"))
}

// validDeletionCost reports whether annotations have no pod-deletion-cost,
// or one upstream's GetDeletionCostFromPodAnnotations reads: an int32,
// with no plus sign and no leading zero ("0" and "-5" are, "+10", "008",
// "abc" and "2147483648" are not).
func validDeletionCost(annotations map[string]string) bool {
	v, ok := annotations[api.PodDeletionCostAnnotation]
	if !ok {
		return true
	}
	if v == "" || !(v[0] == '-' || v == "0" || v[0] >= '1' && v[0] <= '9') {
		return false
	}
	_, err := strconv.ParseInt(v, 10, 32)
	return err == nil
}

// validateStatusUpdate checks a write to the status subresource.
func validateStatusUpdate(obj, old api.Object) fieldErrors {
	errs := validateObjectMetaUpdate(obj.Meta(), old.Meta())
	switch o := obj.(type) {
	case *api.ReplicaSet:
		s := &o.Status
		errs = validateReplicaCounts(errs, s.Replicas, s.FullyLabeledReplicas, s.ReadyReplicas, s.AvailableReplicas, s.ObservedGeneration)
	case *api.ReplicationController:
		s := &o.Status
		errs = validateReplicaCounts(errs, s.Replicas, s.FullyLabeledReplicas, s.ReadyReplicas, s.AvailableReplicas, s.ObservedGeneration)
	case *api.Deployment:
		errs = validateDeploymentStatus(errs, &o.Status, &old.(*api.Deployment).Status)
	}
	return errs
}

// validateObjectMeta is upstream's ValidateObjectMeta, run on create.
func validateObjectMeta(info *kindInfo, m *api.ObjectMeta, memo *labelsMemo, names *namesMemo) fieldErrors {
	var errs fieldErrors
	if m.GenerateName != "" && m.GenerateName != names.generateName[info.index] {
		for _, msg := range info.validateName(m.GenerateName, true) {
			errs = append(errs, invalidString("metadata.generateName", m.GenerateName, msg))
		}
		if len(errs) == 0 {
			names.generateName[info.index] = m.GenerateName
		}
	}
	if m.Name == "" {
		errs = append(errs, required("metadata.name", "name or generateName is required"))
	} else {
		for _, msg := range info.validateName(m.Name, false) {
			errs = append(errs, invalidString("metadata.name", m.Name, msg))
		}
	}
	if info.namespaced {
		if m.Namespace == "" {
			errs = append(errs, required("metadata.namespace", ""))
		} else if m.Namespace != names.namespace {
			n := len(errs)
			for _, msg := range labels.NameIsDNSLabel(m.Namespace, false) {
				errs = append(errs, invalidString("metadata.namespace", m.Namespace, msg))
			}
			if len(errs) == n {
				names.namespace = m.Namespace
			}
		}
	}
	if m.Generation < 0 {
		errs = append(errs, invalid("metadata.generation", showInt(m.Generation), isNegativeErrorMsg))
	}
	errs = memo.validate(errs, m, "metadata.labels")
	errs = validateAnnotations(errs, m.Annotations, "metadata.annotations")
	errs = validateOwnerReferences(errs, m.OwnerReferences, "metadata.ownerReferences")
	errs = validateFinalizers(errs, m.Finalizers, "metadata.finalizers")
	return errs
}

// validateObjectMetaUpdate is upstream's ValidateObjectMetaUpdate. The store
// has already carried over what an update may not change (creationTimestamp,
// deletionTimestamp, generation), so what is left to catch is mostly a client
// naming another object's uid: the check the controllers' adopt and release
// patches rely on.
func validateObjectMetaUpdate(m, old *api.ObjectMeta) fieldErrors {
	var errs fieldErrors
	if old.DeletionTimestamp != nil {
		var extra []string
		for _, f := range m.Finalizers {
			if !slices.Contains(old.Finalizers, f) && !slices.Contains(extra, f) {
				extra = append(extra, f)
			}
		}
		if len(extra) != 0 {
			slices.Sort(extra)
			errs = append(errs, forbidden("metadata.finalizers",
				"no new finalizers can be added if the object is being deleted, found new finalizers "+showStrings(extra)))
		}
	}
	if m.Name != old.Name {
		errs = append(errs, invalidString("metadata.name", m.Name, fieldImmutableErrorMsg))
	}
	if m.Namespace != old.Namespace {
		errs = append(errs, invalidString("metadata.namespace", m.Namespace, fieldImmutableErrorMsg))
	}
	if m.UID != old.UID {
		errs = append(errs, invalidString("metadata.uid", m.UID, fieldImmutableErrorMsg))
	}
	if !eqTime(m.CreationTimestamp, old.CreationTimestamp) {
		errs = append(errs, invalid("metadata.creationTimestamp", m.CreationTimestamp.String(), fieldImmutableErrorMsg))
	}
	if !eqTimePtr(m.DeletionTimestamp, old.DeletionTimestamp) {
		shown := "null"
		if m.DeletionTimestamp != nil {
			shown = m.DeletionTimestamp.String()
		}
		errs = append(errs, invalid("metadata.deletionTimestamp", shown, fieldImmutableErrorMsg))
	}
	if !eqInt64Ptr(m.DeletionGracePeriodSeconds, old.DeletionGracePeriodSeconds) {
		shown := "null"
		if m.DeletionGracePeriodSeconds != nil {
			shown = showInt(*m.DeletionGracePeriodSeconds)
		}
		errs = append(errs, invalid("metadata.deletionGracePeriodSeconds", shown, fieldImmutableErrorMsg))
	}
	// What the stored object already had was valid when it was stored: only
	// changed maps and lists need checking again. Most updates (status writes,
	// binds) change none of them.
	if !eqStringMap(m.Labels, old.Labels) {
		errs = validateLabels(errs, m.Labels, "metadata.labels")
	}
	if !eqStringMap(m.Annotations, old.Annotations) {
		errs = validateAnnotations(errs, m.Annotations, "metadata.annotations")
	}
	if !eqOwnerRefs(m.OwnerReferences, old.OwnerReferences) {
		errs = validateOwnerReferences(errs, m.OwnerReferences, "metadata.ownerReferences")
	}
	return errs
}

// validateLabels checks every key and value of a label map, in key order.
func validateLabels(errs fieldErrors, m map[string]string, path string) fieldErrors {
	if len(m) == 0 {
		return errs
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		for _, msg := range labels.IsQualifiedName(k) {
			errs = append(errs, invalidString(path, k, msg))
		}
		v := m[k]
		for _, msg := range labels.IsValidLabelValue(v) {
			errs = append(errs, invalidString(path, v, msg))
		}
	}
	return errs
}

// labelsMemo remembers the last label set validateLabels found valid on a
// create. A ReplicaSet's pods all carry its template's labels, so nearly
// every create repeats the last one's; sorting the keys to check them again
// was a tenth of a run's allocations. Validity depends on the labels alone,
// so the memo changes no answer, and it needs no place in snapshots.
type labelsMemo struct {
	last map[string]string
	// vouched is the metadata of the object being created whose labels
	// shareLabels has just replaced with a map known valid: the memo's own,
	// or a stored pod template's, which was validated by the same rules when
	// its owner was stored. Its labels need no second look. (The pointer is
	// the store's own copy of the object, made for this create.)
	vouched *api.ObjectMeta
}

// vouch records that meta's labels are now a map known valid.
func (v *labelsMemo) vouch(meta *api.ObjectMeta) {
	v.vouched = meta
	v.last = meta.Labels
}

// namesMemo spares a create the validation of the generateName its kind's
// last valid one had, and of the namespace the last valid one was in: the
// pods of one ReplicaSet share both, and checking them against the DNS
// rules every time was a sixth of what validating a pod's create cost. A
// name valid once is valid for ever (the rules are fixed, and each kind
// keeps its own generateName, since kinds may name by different rules), so
// the memo is a cache, not state. Only a valid string is remembered: an
// invalid one is checked, and reported, every time.
type namesMemo struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	generateName [numKinds]string
	namespace    string
}

// validate is validateLabels on meta's labels, skipped for the labels it
// last found valid and for labels shareLabels vouched for.
func (v *labelsMemo) validate(errs fieldErrors, meta *api.ObjectMeta, path string) fieldErrors {
	m := meta.Labels
	if meta == v.vouched {
		v.vouched = nil
		return errs
	}
	if len(m) == 0 || labels.SameSet(m, v.last) || maps.Equal(m, v.last) {
		return errs
	}
	n := len(errs)
	if errs = validateLabels(errs, m, path); len(errs) == n {
		// m belongs to the store's own copy of the object, which nothing
		// changes once it is stored (and nothing uses if it is not).
		v.last = m
	}
	return errs
}

// validateAnnotations checks annotation keys (qualified names, case ignored)
// and the total size.
func validateAnnotations(errs fieldErrors, m map[string]string, path string) fieldErrors {
	if len(m) == 0 {
		return errs
	}
	size := 0
	for _, k := range slices.Sorted(maps.Keys(m)) {
		for _, msg := range labels.IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, invalidString(path, k, msg))
		}
		size += len(k) + len(m[k])
	}
	if size > totalAnnotationSizeLimit {
		errs = append(errs, fieldError{
			typ: CauseTypeFieldValueTooLong, field: path,
			detail: "must have at most " + strconv.Itoa(totalAnnotationSizeLimit) + " bytes",
		})
	}
	return errs
}

// validateOwnerReferences checks each reference and that at most one of them
// is the controller. The second check is what makes adoption safe: a patch
// that would give a pod a second controller is refused, so two controllers
// racing to adopt one orphan cannot both win.
func validateOwnerReferences(errs fieldErrors, refs []api.OwnerReference, path string) fieldErrors {
	// The first controller is named only if a second one makes it an error.
	firstController := -1
	for i, r := range refs {
		version := apiVersionVersion(r.APIVersion)
		if version == "" {
			errs = append(errs, invalidString(path+".apiVersion", r.APIVersion, "version must not be empty"))
		}
		if r.Kind == "" {
			errs = append(errs, invalidString(path+".kind", r.Kind, "kind must not be empty"))
		}
		if r.Name == "" {
			errs = append(errs, invalidString(path+".name", r.Name, "name must not be empty"))
		}
		if r.UID == "" {
			errs = append(errs, invalidString(path+".uid", r.UID, "uid must not be empty"))
		}
		if r.Kind == "Event" && version == "v1" && apiVersionGroup(r.APIVersion) == "" {
			errs = append(errs, invalid(path, showOwnerReference(r), "/v1, Kind=Event is disallowed from being an owner"))
		}
		if r.IsController() {
			if firstController >= 0 {
				first := refs[firstController]
				errs = append(errs, invalid(path, showOwnerReferences(refs),
					`Only one reference can have Controller set to true. Found "true" in references for `+
						first.Kind+"/"+first.Name+" and "+r.Kind+"/"+r.Name))
			} else {
				firstController = i
			}
		}
	}
	return errs
}

// apiVersionVersion returns the version part of "group/version" or "version",
// and "" for anything that is not a group version.
func apiVersionVersion(apiVersion string) string {
	switch strings.Count(apiVersion, "/") {
	case 0:
		return apiVersion
	case 1:
		group, version, _ := strings.Cut(apiVersion, "/")
		if group == "" {
			return ""
		}
		return version
	}
	return ""
}

func apiVersionGroup(apiVersion string) string {
	group, _, found := strings.Cut(apiVersion, "/")
	if !found {
		return ""
	}
	return group
}

// validateFinalizers checks finalizer names and that a delete cannot be both
// orphaning and foreground.
func validateFinalizers(errs fieldErrors, finalizers []string, path string) fieldErrors {
	orphan, foreground := false, false
	for _, f := range finalizers {
		for _, msg := range labels.IsQualifiedName(f) {
			errs = append(errs, invalidString(path, f, msg))
		}
		orphan = orphan || f == FinalizerOrphanDependents
		foreground = foreground || f == FinalizerDeleteDependents
	}
	if orphan && foreground {
		errs = append(errs, invalid(path, showStrings(finalizers),
			"finalizer "+FinalizerOrphanDependents+" and "+FinalizerDeleteDependents+" cannot be both set"))
	}
	return errs
}

// validatePodSpec checks the pod spec fields this model keeps, under path
// ("spec" for a pod, "spec.template.spec" for a template).
func validatePodSpec(errs fieldErrors, spec *api.PodSpec, path string) fieldErrors {
	if len(spec.Containers) == 0 {
		errs = append(errs, required(path+".containers", ""))
	}
	// A container's path is joined only for an error: every pod created is
	// validated, and almost all are valid.
	idx := func(i int) string { return path + ".containers[" + strconv.Itoa(i) + "]" }
	for i, c := range spec.Containers {
		if c.Name == "" {
			errs = append(errs, required(idx(i)+".name", ""))
		} else {
			for _, msg := range labels.IsDNS1123Label(c.Name) {
				errs = append(errs, invalidString(idx(i)+".name", c.Name, msg))
			}
		}
		if c.Image == "" {
			errs = append(errs, required(idx(i)+".image", ""))
		}
		for j := 0; j < i; j++ {
			if spec.Containers[j].Name == c.Name {
				errs = append(errs, duplicate(idx(i)+".name", c.Name))
				break
			}
		}
	}
	switch spec.RestartPolicy {
	case api.RestartAlways, api.RestartOnFailure, api.RestartNever:
	case "":
		errs = append(errs, required(path+".restartPolicy", ""))
	default:
		errs = append(errs, notSupported(path+".restartPolicy", spec.RestartPolicy,
			api.RestartAlways, api.RestartOnFailure, api.RestartNever))
	}
	if spec.NodeName != "" {
		for _, msg := range labels.NameIsDNSSubdomain(spec.NodeName, false) {
			errs = append(errs, invalidString(path+".nodeName", spec.NodeName, msg))
		}
	}
	return errs
}

// validateContainersOnlyForPod holds the checks upstream makes of a pod's
// containers but not of a template's.
func validateContainersOnlyForPod(errs fieldErrors, containers []api.Container, path string) fieldErrors {
	for i, c := range containers {
		if len(c.Image) != len(strings.TrimSpace(c.Image)) {
			errs = append(errs, invalidString(path+"["+strconv.Itoa(i)+"].image", c.Image,
				"must not have leading or trailing whitespace"))
		}
	}
	return errs
}

// validatePodTemplate is upstream's ValidatePodTemplateSpec. Note the label path:
// upstream checks template labels under "spec.template.labels", without
// "metadata", and this keeps its spelling.
func validatePodTemplate(errs fieldErrors, t *api.PodTemplateSpec, path string, allowInvalidCost bool) fieldErrors {
	errs = validateLabels(errs, t.Metadata.Labels, path+".labels")
	errs = validateAnnotations(errs, t.Metadata.Annotations, path+".annotations")
	errs = validatePodSpecificAnnotations(errs, t.Metadata.Annotations, path+".annotations", allowInvalidCost)
	return validatePodSpec(errs, &t.Spec, path+".spec")
}

// validateRSSpec is upstream's ValidateReplicaSetSpec.
func validateRSSpec(errs fieldErrors, spec *api.ReplicaSetSpec, allowInvalidCost bool) fieldErrors {
	if spec.Replicas != nil && *spec.Replicas < 0 {
		errs = append(errs, invalid("spec.replicas", showInt(int64(*spec.Replicas)), isNegativeErrorMsg))
	}
	if spec.MinReadySeconds < 0 {
		errs = append(errs, invalid("spec.minReadySeconds", showInt(int64(spec.MinReadySeconds)), isNegativeErrorMsg))
	}
	return validateSelectorAndTemplate(errs, spec.Selector, &spec.Template, allowInvalidCost)
}

// validateLabelSelector is upstream's ValidateLabelSelector for a structured
// selector.
func validateLabelSelector(errs fieldErrors, sel *api.LabelSelector, path string) fieldErrors {
	errs = validateLabels(errs, sel.MatchLabels, path+".matchLabels")
	for i, r := range sel.MatchExpressions {
		idx := path + ".matchExpressions[" + strconv.Itoa(i) + "]"
		switch r.Operator {
		case api.LabelSelectorOpIn, api.LabelSelectorOpNotIn:
			if len(r.Values) == 0 {
				errs = append(errs, required(idx+".values", "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case api.LabelSelectorOpExists, api.LabelSelectorOpDoesNotExist:
			if len(r.Values) > 0 {
				errs = append(errs, forbidden(idx+".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		default:
			errs = append(errs, invalidString(idx+".operator", r.Operator, "not a valid selector operator"))
		}
		for _, msg := range labels.IsQualifiedName(r.Key) {
			errs = append(errs, invalidString(idx+".key", r.Key, msg))
		}
		for j, v := range r.Values {
			for _, msg := range labels.IsValidLabelValue(v) {
				errs = append(errs, invalidString(idx+".values["+strconv.Itoa(j)+"]", v, msg))
			}
		}
	}
	return errs
}

// validateRCSpec is upstream's ValidateReplicationControllerSpec.
func validateRCSpec(errs fieldErrors, spec *api.ReplicationControllerSpec, allowInvalidCost bool) fieldErrors {
	if spec.MinReadySeconds < 0 {
		errs = append(errs, invalid("spec.minReadySeconds", showInt(int64(spec.MinReadySeconds)), isNegativeErrorMsg))
	}
	if len(spec.Selector) == 0 {
		errs = append(errs, required("spec.selector", ""))
	}
	if spec.Replicas != nil && *spec.Replicas < 0 {
		errs = append(errs, invalid("spec.replicas", showInt(int64(*spec.Replicas)), isNegativeErrorMsg))
	}
	if spec.Template == nil {
		return append(errs, required("spec.template", ""))
	}
	if len(spec.Selector) != 0 && !labels.SelectorFromSet(spec.Selector).Matches(spec.Template.Metadata.Labels) {
		errs = append(errs, invalid("spec.template.metadata.labels", showStringMap(spec.Template.Metadata.Labels),
			"`selector` does not match template `labels`"))
	}
	errs = validatePodTemplate(errs, spec.Template, "spec.template", allowInvalidCost)
	if spec.Template.Spec.RestartPolicy != api.RestartAlways {
		errs = append(errs, notSupported("spec.template.spec.restartPolicy", spec.Template.Spec.RestartPolicy, api.RestartAlways))
	}
	return errs
}

// validateReplicaCounts is upstream's ValidateReplicaSetStatus (the
// ReplicationController's is the same).
func validateReplicaCounts(errs fieldErrors, replicas, fullyLabeled, ready, available int32, observed int64) fieldErrors {
	nonNegative := func(path string, v int64) {
		if v < 0 {
			errs = append(errs, invalid(path, showInt(v), isNegativeErrorMsg))
		}
	}
	nonNegative("status.replicas", int64(replicas))
	nonNegative("status.fullyLabeledReplicas", int64(fullyLabeled))
	nonNegative("status.readyReplicas", int64(ready))
	nonNegative("status.availableReplicas", int64(available))
	nonNegative("status.observedGeneration", observed)
	const msg = "cannot be greater than status.replicas"
	if fullyLabeled > replicas {
		errs = append(errs, invalid("status.fullyLabeledReplicas", showInt(int64(fullyLabeled)), msg))
	}
	if ready > replicas {
		errs = append(errs, invalid("status.readyReplicas", showInt(int64(ready)), msg))
	}
	if available > replicas {
		errs = append(errs, invalid("status.availableReplicas", showInt(int64(available)), msg))
	}
	if available > ready {
		errs = append(errs, invalid("status.availableReplicas", showInt(int64(available)), "cannot be greater than readyReplicas"))
	}
	return errs
}

// validateEvent is upstream's legacy Event validation: an Event lives in the
// namespace of the object it is about.
func validateEvent(errs fieldErrors, e *api.Event) fieldErrors {
	ns := e.InvolvedObject.Namespace
	if ns == "" {
		if e.Metadata.Namespace != "" && e.Metadata.Namespace != "default" {
			errs = append(errs, invalidString("involvedObject.namespace", ns, "does not match event.namespace"))
		}
	} else if e.Metadata.Namespace != ns {
		errs = append(errs, invalidString("involvedObject.namespace", ns, "does not match event.namespace"))
	}
	return errs
}

// podUpdateForbiddenMsg is upstream's refusal of a pod update that changes more
// than the few mutable fields. Upstream appends a diff of the specs; this model
// leaves it out.
const podUpdateForbiddenMsg = "pod updates may not change fields other than `spec.containers[*].image`," +
	"`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations)," +
	"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"

// validatePodUpdate is the part of upstream's ValidatePodUpdate that concerns
// this model: a pod's spec is fixed once created, except its images. (The node
// a pod runs on is chosen through the binding subresource, not by an update.)
func validatePodUpdate(errs fieldErrors, pod, old *api.Pod) fieldErrors {
	if len(pod.Spec.Containers) != len(old.Spec.Containers) {
		return append(errs, forbidden("spec.containers", "pod updates may not add or remove containers"))
	}
	for i, c := range pod.Spec.Containers {
		idx := "spec.containers[" + strconv.Itoa(i) + "]"
		if c.Image == "" {
			errs = append(errs, required(idx+".image", ""))
		}
	}
	errs = validateContainersOnlyForPod(errs, pod.Spec.Containers, "spec.containers")
	// Compare the specs with the images (the one mutable field) taken from the
	// old pod.
	munged := pod.Spec
	munged.Containers = make([]api.Container, len(pod.Spec.Containers))
	for i, c := range pod.Spec.Containers {
		c.Image = old.Spec.Containers[i].Image
		munged.Containers[i] = c
	}
	if !eqPodSpec(&munged, &old.Spec) {
		errs = append(errs, forbidden("spec", podUpdateForbiddenMsg))
	}
	return errs
}

// validateBinding checks a pods/binding request.
func validateBinding(nodeName string) fieldErrors {
	if nodeName == "" {
		return fieldErrors{required("target.name", "")}
	}
	return nil
}
