package apistore

import (
	"errors"
	"strconv"
)

// Reason says why a request failed, in the words of the Kubernetes API
// (metav1.StatusReason). Clients branch on it, never on the message: the
// replication manager, for instance, treats a NotFound on delete as done and a
// Forbidden whose cause is NamespaceTerminating as a success.
type Reason string

// The reasons this store answers with. Each comes with one HTTP status code, as
// in Kubernetes; ReasonUnknown is what a plain server error without a reason
// carries.
const (
	ReasonUnknown            Reason = ""
	ReasonBadRequest         Reason = "BadRequest"         // 400
	ReasonForbidden          Reason = "Forbidden"          // 403
	ReasonNotFound           Reason = "NotFound"           // 404
	ReasonMethodNotAllowed   Reason = "MethodNotAllowed"   // 405
	ReasonAlreadyExists      Reason = "AlreadyExists"      // 409
	ReasonConflict           Reason = "Conflict"           // 409
	ReasonExpired            Reason = "Expired"            // 410
	ReasonInvalid            Reason = "Invalid"            // 422
	ReasonInternalError      Reason = "InternalError"      // 500
	ReasonServiceUnavailable Reason = "ServiceUnavailable" // 503
	ReasonTimeout            Reason = "Timeout"            // 504
)

// CauseType names one cause of a failure (metav1.CauseType). Validation errors
// carry one cause per offending field, typed like upstream's field errors.
type CauseType string

// The cause types this store reports.
const (
	CauseTypeFieldValueRequired     CauseType = "FieldValueRequired"
	CauseTypeFieldValueInvalid      CauseType = "FieldValueInvalid"
	CauseTypeFieldValueDuplicate    CauseType = "FieldValueDuplicate"
	CauseTypeFieldValueNotSupported CauseType = "FieldValueNotSupported"
	CauseTypeFieldValueForbidden    CauseType = "FieldValueForbidden"
	CauseTypeFieldValueTooLong      CauseType = "FieldValueTooLong"
	// CauseTypeNamespaceTerminating marks a create refused because its namespace is
	// being deleted. The replication manager counts such a create as a success.
	CauseTypeNamespaceTerminating CauseType = "NamespaceTerminating"
	// CauseTypeResourceVersionTooLarge marks a watch from a resourceVersion the
	// store has not reached yet.
	CauseTypeResourceVersionTooLarge CauseType = "ResourceVersionTooLarge"
)

// StatusError is a failed request, shaped like the Kubernetes Status object
// that a real API server returns (k8s.io/apimachinery/pkg/api/errors). Every
// error the store returns is a *StatusError, so callers can test it with the
// Is* helpers below exactly as client-go code tests apierrors.
type StatusError struct {
	// Code is the HTTP status code: 404 for NotFound, 409 for Conflict, ...
	Code int32
	// Reason is the machine-readable category; see the Reason constants.
	Reason Reason
	// Message is the sentence a real API server would send, word for word where
	// this model can reproduce it.
	Message string
	// Details names the object the request was about and, for Invalid, every
	// field that was wrong.
	Details Details
}

// Details is the part of a Status that names what failed.
type Details struct {
	// Group is the API group: "apps" for ReplicaSets, "" for the core kinds.
	Group string
	// Kind is, as in upstream's Status, the resource ("pods") for most errors and
	// the kind ("Pod") for Invalid.
	Kind string
	// Name is the object's name, when the request had one.
	Name string
	// Causes lists the individual problems, one per field for Invalid.
	Causes []Cause
	// RetryAfterSeconds suggests when to try again; 0 means no suggestion.
	RetryAfterSeconds int32
}

// Cause is one problem behind a failure.
type Cause struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Type    CauseType
	Message string
	// Field is the path of the offending field, such as "metadata.name" or
	// "spec.template.spec.containers[0].image".
	Field string
}

// Error returns the message, as upstream's StatusError does.
func (e *StatusError) Error() string { return e.Message }

// statusOf finds the StatusError in err's chain.
func statusOf(err error) (*StatusError, bool) {
	if err == nil {
		return nil, false
	}
	if se, ok := err.(*StatusError); ok {
		return se, true
	}
	var se *StatusError
	if errors.As(err, &se) {
		return se, true
	}
	return nil, false
}

// ReasonOf returns the reason of a StatusError (also one wrapped in another
// error), and ReasonUnknown for nil and for any other error.
func ReasonOf(err error) Reason {
	if se, ok := statusOf(err); ok {
		return se.Reason
	}
	return ReasonUnknown
}

// CodeOf returns the HTTP status code of a StatusError, and 0 otherwise.
func CodeOf(err error) int32 {
	if se, ok := statusOf(err); ok {
		return se.Code
	}
	return 0
}

// IsNotFound reports whether err says the object does not exist.
func IsNotFound(err error) bool { return ReasonOf(err) == ReasonNotFound }

// IsAlreadyExists reports whether err says a create found the name taken.
func IsAlreadyExists(err error) bool { return ReasonOf(err) == ReasonAlreadyExists }

// IsConflict reports whether err is an optimistic-concurrency conflict (or any
// other Conflict, such as binding an already bound pod).
func IsConflict(err error) bool { return ReasonOf(err) == ReasonConflict }

// IsInvalid reports whether err is a validation failure (HTTP 422).
func IsInvalid(err error) bool { return ReasonOf(err) == ReasonInvalid }

// IsForbidden reports whether err is a refusal by admission: a quota, or a
// namespace being terminated.
func IsForbidden(err error) bool { return ReasonOf(err) == ReasonForbidden }

// IsExpired reports whether err says a watch's resourceVersion is too old: the
// client must list again.
func IsExpired(err error) bool { return ReasonOf(err) == ReasonExpired }

// IsInternalError reports whether err is a server-side failure (HTTP 500).
func IsInternalError(err error) bool { return ReasonOf(err) == ReasonInternalError }

// IsServiceUnavailable reports whether err says the server could not take the
// request (HTTP 503).
func IsServiceUnavailable(err error) bool { return ReasonOf(err) == ReasonServiceUnavailable }

// IsBadRequest reports whether err says the request itself was malformed.
func IsBadRequest(err error) bool { return ReasonOf(err) == ReasonBadRequest }

// IsTimeout reports whether err is a Timeout, such as a watch from a
// resourceVersion the store has not reached.
func IsTimeout(err error) bool { return ReasonOf(err) == ReasonTimeout }

// HasStatusCause reports whether err is a StatusError with a cause of the
// given type, as upstream's HasStatusCause does.
func HasStatusCause(err error, t CauseType) bool {
	se, ok := statusOf(err)
	if !ok {
		return false
	}
	for _, c := range se.Details.Causes {
		if c.Type == t {
			return true
		}
	}
	return false
}

// The constructors below build each error exactly as upstream's
// k8s.io/apimachinery/pkg/api/errors does, so the messages a learner reads are
// the ones a real cluster prints. Messages are built with strconv rather than
// fmt: these run on hot paths (a failing create per pod), and strconv.Quote is
// what %q does.

// OptimisticLockErrorMsg is the explanation of every resourceVersion conflict.
const OptimisticLockErrorMsg = "the object has been modified; please apply your changes to the latest version and try again"

func newNotFound(info *kindInfo, name string) *StatusError {
	return &StatusError{
		Code:    404,
		Reason:  ReasonNotFound,
		Message: info.qualifiedResource + " " + strconv.Quote(name) + " not found",
		Details: Details{Group: info.group, Kind: info.resource, Name: name},
	}
}

func newAlreadyExists(info *kindInfo, name string) *StatusError {
	return &StatusError{
		Code:    409,
		Reason:  ReasonAlreadyExists,
		Message: info.qualifiedResource + " " + strconv.Quote(name) + " already exists",
		Details: Details{Group: info.group, Kind: info.resource, Name: name},
	}
}

// newGenerateNameConflict is what a create with generateName gets when every
// name the server drew was taken.
func newGenerateNameConflict(info *kindInfo, name string) *StatusError {
	return &StatusError{
		Code:   409,
		Reason: ReasonAlreadyExists,
		Message: info.qualifiedResource + " " + strconv.Quote(name) +
			" already exists, the server was not able to generate a unique name for the object",
		Details: Details{Group: info.group, Kind: info.resource, Name: name, RetryAfterSeconds: 1},
	}
}

// newConflict builds "Operation cannot be fulfilled on <resource> "<name>": <why>".
// resource is usually the qualified resource ("replicasets.apps"); delete
// preconditions use the kind instead, as upstream's BeforeDelete does.
func newConflict(group, resource, name, why string) *StatusError {
	qualified := resource
	if group != "" {
		qualified += "." + group
	}
	return &StatusError{
		Code:    409,
		Reason:  ReasonConflict,
		Message: "Operation cannot be fulfilled on " + qualified + " " + strconv.Quote(name) + ": " + why,
		Details: Details{Group: group, Kind: resource, Name: name},
	}
}

func newOptimisticConflict(info *kindInfo, name string) *StatusError {
	return newConflict(info.group, info.resource, name, OptimisticLockErrorMsg)
}

// newForbidden builds `<resource> "<name>" is forbidden: <why>`.
func newForbidden(info *kindInfo, name, why string) *StatusError {
	msg := info.qualifiedResource + " is forbidden: " + why
	if name != "" {
		msg = info.qualifiedResource + " " + strconv.Quote(name) + " is forbidden: " + why
	}
	return &StatusError{
		Code:    403,
		Reason:  ReasonForbidden,
		Message: msg,
		Details: Details{Group: info.group, Kind: info.resource, Name: name},
	}
}

// newNamespaceTerminating is the refusal of the NamespaceLifecycle admission
// plugin, with the cause the replication manager looks for.
func newNamespaceTerminating(info *kindInfo, name, namespace string) *StatusError {
	err := newForbidden(info, name, "unable to create new content in namespace "+namespace+" because it is being terminated")
	err.Details.Causes = []Cause{{
		Type:    CauseTypeNamespaceTerminating,
		Message: "namespace " + namespace + " is being terminated",
		Field:   "metadata.namespace",
	}}
	return err
}

// newInvalid aggregates field errors as upstream's NewInvalid does:
// `ReplicaSet.apps "web" is invalid: [spec.replicas: ..., spec.selector: ...]`.
func newInvalid(qualifiedKind, group, kind, name string, errs fieldErrors) *StatusError {
	causes := make([]Cause, 0, len(errs))
	for _, e := range errs {
		causes = append(causes, Cause{Type: e.typ, Message: e.body(), Field: e.field})
	}
	msg := qualifiedKind + " " + strconv.Quote(name) + " is invalid"
	if agg := errs.aggregate(); agg != "" {
		msg += ": " + agg
	}
	return &StatusError{
		Code:    422,
		Reason:  ReasonInvalid,
		Message: msg,
		Details: Details{Group: group, Kind: kind, Name: name, Causes: causes},
	}
}

func newInvalidObject(info *kindInfo, name string, errs fieldErrors) *StatusError {
	return newInvalid(info.qualifiedKind, info.group, string(info.kind), name, errs)
}

func newBadRequest(msg string) *StatusError {
	return &StatusError{Code: 400, Reason: ReasonBadRequest, Message: msg}
}

func newMethodNotSupported(info *kindInfo, action string) *StatusError {
	return &StatusError{
		Code:    405,
		Reason:  ReasonMethodNotAllowed,
		Message: action + " is not supported on resources of kind " + strconv.Quote(info.qualifiedResource),
		Details: Details{Group: info.group, Kind: info.resource},
	}
}

// newInternalError wraps a server-side failure: "Internal error occurred: <why>".
func newInternalError(why string) *StatusError {
	return &StatusError{
		Code:    500,
		Reason:  ReasonInternalError,
		Message: "Internal error occurred: " + why,
		Details: Details{Causes: []Cause{{Message: why}}},
	}
}

func newServiceUnavailable(msg string) *StatusError {
	return &StatusError{Code: 503, Reason: ReasonServiceUnavailable, Message: msg}
}

// newExpired is what a watch from a compacted resourceVersion gets:
// "too old resource version: 5 (120)", the second number being the newest
// resourceVersion the history has forgotten.
func newExpired(from, compacted uint64) *StatusError {
	return &StatusError{
		Code:   410,
		Reason: ReasonExpired,
		Message: "too old resource version: " + strconv.FormatUint(from, 10) +
			" (" + strconv.FormatUint(compacted, 10) + ")",
	}
}

// newTooLargeResourceVersion is upstream's answer to a watch or list from a
// resourceVersion the server has not reached yet.
func newTooLargeResourceVersion(from, current uint64) *StatusError {
	return &StatusError{
		Code:   504,
		Reason: ReasonTimeout,
		Message: "Too large resource version: " + strconv.FormatUint(from, 10) +
			", current: " + strconv.FormatUint(current, 10),
		Details: Details{
			Causes:            []Cause{{Type: CauseTypeResourceVersionTooLarge, Message: "Too large resource version"}},
			RetryAfterSeconds: 1,
		},
	}
}
