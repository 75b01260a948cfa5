package apistore

import (
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
)

// This file is what the API server knows of apps/v1 Deployments: their
// defaults (SetDefaults_Deployment), their registry strategy
// (pkg/registry/apps/deployment/strategy.go) and their validation
// (ValidateDeploymentSpec and ValidateDeploymentStatus in
// pkg/apis/apps/validation), in the order and words upstream uses.

// Defaults of apps/v1, which the API server fills in when a Deployment names
// none.
const (
	defaultDeploymentRevisionHistoryLimit int32 = 10
	defaultProgressDeadlineSeconds        int32 = 600
	defaultMaxUnavailable                       = "25%"
	defaultMaxSurge                             = "25%"
)

// defaultDeployment is SetDefaults_Deployment: one replica, a RollingUpdate
// at 25% surge and 25% unavailable, ten old ReplicaSets kept, a progress
// deadline of ten minutes. A Recreate Deployment gets no rollingUpdate.
func defaultDeployment(d *api.Deployment) {
	if d.Spec.Replicas == nil {
		one := int32(1)
		d.Spec.Replicas = &one
	}
	st := &d.Spec.Strategy
	if st.Type == "" {
		st.Type = api.RollingUpdateDeploymentStrategy
	}
	if st.Type == api.RollingUpdateDeploymentStrategy {
		if st.RollingUpdate == nil {
			st.RollingUpdate = &api.RollingUpdateDeployment{}
		}
		if st.RollingUpdate.MaxUnavailable == nil {
			v := api.FromString(defaultMaxUnavailable)
			st.RollingUpdate.MaxUnavailable = &v
		}
		if st.RollingUpdate.MaxSurge == nil {
			v := api.FromString(defaultMaxSurge)
			st.RollingUpdate.MaxSurge = &v
		}
	}
	if d.Spec.RevisionHistoryLimit == nil {
		limit := defaultDeploymentRevisionHistoryLimit
		d.Spec.RevisionHistoryLimit = &limit
	}
	if d.Spec.ProgressDeadlineSeconds == nil {
		deadline := defaultProgressDeadlineSeconds
		d.Spec.ProgressDeadlineSeconds = &deadline
	}
	defaultPodSpec(&d.Spec.Template.Spec)
}

// prepareDeploymentUpdate is the main resource's strategy: status is kept, and
// generation goes up when the spec or the annotations change. Annotations
// count because the controller copies them onto the ReplicaSets it makes, so
// a change there is new desired state too.
func prepareDeploymentUpdate(d, old *api.Deployment) {
	d.Status = old.Status
	if !eqDeploymentSpec(&d.Spec, &old.Spec) || !eqStringMap(d.Metadata.Annotations, old.Metadata.Annotations) {
		d.Metadata.Generation = old.Metadata.Generation + 1
	}
}

// prepareDeploymentStatusUpdate is the status subresource's strategy, which
// for Deployments resets only the spec and the labels. Annotations, owner
// references and finalizers are written as sent: the controller writes the
// Deployment's revision annotation through the status subresource, so that
// it does not bump generation.
func prepareDeploymentStatusUpdate(d, old *api.Deployment) {
	d.Spec = old.Spec
	d.Metadata.Labels = old.Metadata.Labels
}

// validateDeploymentSpec is ValidateDeploymentSpec.
func validateDeploymentSpec(errs fieldErrors, spec *api.DeploymentSpec, allowInvalidCost bool) fieldErrors {
	if spec.Replicas != nil && *spec.Replicas < 0 {
		errs = append(errs, invalid("spec.replicas", showInt(int64(*spec.Replicas)), isNegativeErrorMsg))
	}
	errs = validateSelectorAndTemplate(errs, spec.Selector, &spec.Template, allowInvalidCost)
	errs = validateDeploymentStrategy(errs, &spec.Strategy)
	if spec.MinReadySeconds < 0 {
		errs = append(errs, invalid("spec.minReadySeconds", showInt(int64(spec.MinReadySeconds)), isNegativeErrorMsg))
	}
	if l := spec.RevisionHistoryLimit; l != nil && *l < 0 {
		errs = append(errs, invalid("spec.revisionHistoryLimit", showInt(int64(*l)), isNegativeErrorMsg))
	}
	if p := spec.ProgressDeadlineSeconds; p != nil {
		if *p < 0 {
			errs = append(errs, invalid("spec.progressDeadlineSeconds", showInt(int64(*p)), isNegativeErrorMsg))
		}
		if *p <= spec.MinReadySeconds {
			errs = append(errs, invalid("spec.progressDeadlineSeconds", showInt(int64(*p)), "must be greater than minReadySeconds"))
		}
	}
	return errs
}

// validateDeploymentStrategy is ValidateDeploymentStrategy and
// ValidateRollingUpdateDeployment.
func validateDeploymentStrategy(errs fieldErrors, st *api.DeploymentStrategy) fieldErrors {
	switch st.Type {
	case api.RecreateDeploymentStrategy:
		if st.RollingUpdate != nil {
			errs = append(errs, forbidden("spec.strategy.rollingUpdate", "may not be specified when strategy `type` is 'Recreate'"))
		}
	case api.RollingUpdateDeploymentStrategy:
		ru := st.RollingUpdate
		if ru == nil {
			return append(errs, required("spec.strategy.rollingUpdate", "this should be defaulted and never be nil"))
		}
		const path = "spec.strategy.rollingUpdate."
		var maxUnavailable, maxSurge api.IntOrString
		if ru.MaxUnavailable != nil {
			maxUnavailable = *ru.MaxUnavailable
		}
		if ru.MaxSurge != nil {
			maxSurge = *ru.MaxSurge
		}
		errs = validatePositiveIntOrPercent(errs, maxUnavailable, path+"maxUnavailable")
		errs = validatePositiveIntOrPercent(errs, maxSurge, path+"maxSurge")
		if intOrPercentValue(maxUnavailable) == 0 && intOrPercentValue(maxSurge) == 0 {
			// Both zero would let the rollout neither add a pod nor remove one.
			errs = append(errs, invalid(path+"maxUnavailable", showIntOrString(maxUnavailable), "may not be 0 when `maxSurge` is 0"))
		}
		if v, ok := percentValue(maxUnavailable); ok && v > 100 {
			errs = append(errs, invalid(path+"maxUnavailable", showIntOrString(maxUnavailable), "must not be greater than 100%"))
		}
	default:
		// Upstream names spec.strategy and prints the whole struct, a
		// pointer's address included, which would differ from run to run;
		// this names the field that is wrong.
		errs = append(errs, notSupported("spec.strategy.type", st.Type,
			api.RecreateDeploymentStrategy, api.RollingUpdateDeploymentStrategy))
	}
	return errs
}

// percentErrMsg is IsValidPercent's message, with upstream's examples.
const percentErrMsg = "a valid percent string must be a numeric string followed by an ending '%' " +
	"(e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"

// validatePositiveIntOrPercent is ValidatePositiveIntOrPercent: a string must
// be digits and a '%', a number must not be negative.
func validatePositiveIntOrPercent(errs fieldErrors, v api.IntOrString, path string) fieldErrors {
	if v.IsString {
		if !isPercent(v.StrVal) {
			errs = append(errs, invalid(path, showIntOrString(v), percentErrMsg))
		}
		return errs
	}
	if v.IntVal < 0 {
		errs = append(errs, invalid(path, showInt(int64(v.IntVal)), isNegativeErrorMsg))
	}
	return errs
}

// isPercent matches upstream's ^[0-9]+%$.
func isPercent(s string) bool {
	digits := strings.TrimSuffix(s, "%")
	if len(digits) == len(s) || digits == "" {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

// percentValue returns the number of a valid percentage.
func percentValue(v api.IntOrString) (int, bool) {
	if !v.IsString || !isPercent(v.StrVal) {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	return n, err == nil
}

// intOrPercentValue is upstream's getIntOrPercentValue: the number of a
// percentage, the integer, or for any other string what IntValue makes of
// it (Atoi, 0 when it is not a number).
func intOrPercentValue(v api.IntOrString) int {
	if n, ok := percentValue(v); ok {
		return n
	}
	if v.IsString {
		n, _ := strconv.Atoi(v.StrVal)
		return n
	}
	return int(v.IntVal)
}

// showIntOrString prints an IntOrString as upstream's field errors do, with
// %#v of the internal type.
func showIntOrString(v api.IntOrString) string {
	if v.IsString {
		return `intstr.IntOrString{Type:1, IntVal:0, StrVal:` + strconv.Quote(v.StrVal) + `}`
	}
	return `intstr.IntOrString{Type:0, IntVal:` + strconv.Itoa(int(v.IntVal)) + `, StrVal:""}`
}

// validateDeploymentStatus is ValidateDeploymentStatus, with the status
// update's rule that collisionCount never goes down.
func validateDeploymentStatus(errs fieldErrors, s, old *api.DeploymentStatus) fieldErrors {
	nonNegative := func(path string, v int64) {
		if v < 0 {
			errs = append(errs, invalid(path, showInt(v), isNegativeErrorMsg))
		}
	}
	nonNegative("status.observedGeneration", s.ObservedGeneration)
	nonNegative("status.replicas", int64(s.Replicas))
	nonNegative("status.updatedReplicas", int64(s.UpdatedReplicas))
	nonNegative("status.readyReplicas", int64(s.ReadyReplicas))
	nonNegative("status.availableReplicas", int64(s.AvailableReplicas))
	nonNegative("status.unavailableReplicas", int64(s.UnavailableReplicas))
	if s.CollisionCount != nil {
		nonNegative("status.collisionCount", int64(*s.CollisionCount))
	}
	const msg = "cannot be greater than status.replicas"
	if s.UpdatedReplicas > s.Replicas {
		errs = append(errs, invalid("status.updatedReplicas", showInt(int64(s.UpdatedReplicas)), msg))
	}
	if s.ReadyReplicas > s.Replicas {
		errs = append(errs, invalid("status.readyReplicas", showInt(int64(s.ReadyReplicas)), msg))
	}
	if s.AvailableReplicas > s.Replicas {
		errs = append(errs, invalid("status.availableReplicas", showInt(int64(s.AvailableReplicas)), msg))
	}
	if s.AvailableReplicas > s.ReadyReplicas {
		errs = append(errs, invalid("status.availableReplicas", showInt(int64(s.AvailableReplicas)), "cannot be greater than readyReplicas"))
	}
	if old != nil && old.CollisionCount != nil && (s.CollisionCount == nil || *s.CollisionCount < *old.CollisionCount) {
		var v int32
		if s.CollisionCount != nil {
			v = *s.CollisionCount
		}
		errs = append(errs, invalid("status.collisionCount", showInt(int64(v)), "cannot be decremented"))
	}
	return errs
}

// validateSelectorAndTemplate is what a Deployment and a ReplicaSet share:
// a non-empty, valid selector that the pod template's labels match, and a
// valid template whose pods restart Always (ValidatePodTemplateSpecForReplicaSet).
func validateSelectorAndTemplate(errs fieldErrors, sel *api.LabelSelector, t *api.PodTemplateSpec, allowInvalidCost bool) fieldErrors {
	if sel == nil {
		errs = append(errs, required("spec.selector", ""))
	} else {
		errs = validateLabelSelector(errs, sel, "spec.selector")
		if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
			// Upstream's wording, shared by ReplicaSets.
			errs = append(errs, invalid("spec.selector", showLabelSelector(sel), "empty selector is invalid for deployment"))
		}
	}
	selector, err := labels.LabelSelectorAsSelector(sel)
	if err != nil {
		return append(errs, invalid("spec.selector", showLabelSelector(sel), "invalid label selector"))
	}
	// A controller whose pods would not match its own selector would create
	// pods forever: every new pod is invisible to the next sync.
	if !selector.Empty() && !selector.Matches(t.Metadata.Labels) {
		errs = append(errs, invalid("spec.template.metadata.labels", showStringMap(t.Metadata.Labels),
			"`selector` does not match template `labels`"))
	}
	errs = validatePodTemplate(errs, t, "spec.template", allowInvalidCost)
	if t.Spec.RestartPolicy != api.RestartAlways {
		errs = append(errs, notSupported("spec.template.spec.restartPolicy", t.Spec.RestartPolicy, api.RestartAlways))
	}
	return errs
}

func eqIntOrStringPtr(a, b *api.IntOrString) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func eqDeploymentSpec(a, b *api.DeploymentSpec) bool {
	if !eqInt32Ptr(a.Replicas, b.Replicas) || !eqSelector(a.Selector, b.Selector) || !eqTemplate(&a.Template, &b.Template) ||
		a.Strategy.Type != b.Strategy.Type || a.MinReadySeconds != b.MinReadySeconds ||
		!eqInt32Ptr(a.RevisionHistoryLimit, b.RevisionHistoryLimit) || a.Paused != b.Paused ||
		!eqInt32Ptr(a.ProgressDeadlineSeconds, b.ProgressDeadlineSeconds) {
		return false
	}
	x, y := a.Strategy.RollingUpdate, b.Strategy.RollingUpdate
	if x == nil || y == nil {
		return x == y
	}
	return eqIntOrStringPtr(x.MaxUnavailable, y.MaxUnavailable) && eqIntOrStringPtr(x.MaxSurge, y.MaxSurge)
}

func eqDeploymentStatus(a, b *api.DeploymentStatus) bool {
	if a.ObservedGeneration != b.ObservedGeneration || a.Replicas != b.Replicas ||
		a.UpdatedReplicas != b.UpdatedReplicas || a.ReadyReplicas != b.ReadyReplicas ||
		a.AvailableReplicas != b.AvailableReplicas || a.UnavailableReplicas != b.UnavailableReplicas ||
		!eqInt32Ptr(a.CollisionCount, b.CollisionCount) || len(a.Conditions) != len(b.Conditions) {
		return false
	}
	for i := range a.Conditions {
		x, y := &a.Conditions[i], &b.Conditions[i]
		if !eqCondition(x.Type, x.Status, x.Reason, x.Message, x.LastTransitionTime,
			y.Type, y.Status, y.Reason, y.Message, y.LastTransitionTime) || !eqTime(x.LastUpdateTime, y.LastUpdateTime) {
			return false
		}
	}
	return true
}
