package apistore

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestErrorConstructorsMatchUpstream(t *testing.T) {
	pods, rs := infoFor("Pod"), infoFor("ReplicaSet")
	tests := []struct {
		name    string
		err     *StatusError
		code    int32
		reason  Reason
		message string
		is      func(error) bool
	}{
		{"not found", newNotFound(pods, "web-x"), 404, ReasonNotFound, `pods "web-x" not found`, IsNotFound},
		{"not found, apps group", newNotFound(rs, "web"), 404, ReasonNotFound, `replicasets.apps "web" not found`, IsNotFound},
		{"already exists", newAlreadyExists(pods, "web-x"), 409, ReasonAlreadyExists, `pods "web-x" already exists`, IsAlreadyExists},
		{"conflict", newOptimisticConflict(rs, "web"), 409, ReasonConflict,
			`Operation cannot be fulfilled on replicasets.apps "web": the object has been modified; please apply your changes to the latest version and try again`,
			IsConflict},
		{"forbidden", newForbidden(pods, "web-x", "exceeded quota: q"), 403, ReasonForbidden,
			`pods "web-x" is forbidden: exceeded quota: q`, IsForbidden},
		{"forbidden without a name", newForbidden(pods, "", "no"), 403, ReasonForbidden, `pods is forbidden: no`, IsForbidden},
		{"namespace terminating", newNamespaceTerminating(pods, "web-x", "default"), 403, ReasonForbidden,
			`pods "web-x" is forbidden: unable to create new content in namespace default because it is being terminated`, IsForbidden},
		{"invalid", newInvalidObject(rs, "web", fieldErrors{required("spec.selector", "")}), 422, ReasonInvalid,
			`ReplicaSet.apps "web" is invalid: spec.selector: Required value`, IsInvalid},
		{"internal", newInternalError("boom"), 500, ReasonInternalError, "Internal error occurred: boom", IsInternalError},
		{"unavailable", newServiceUnavailable("busy"), 503, ReasonServiceUnavailable, "busy", IsServiceUnavailable},
		{"expired", newExpired(5, 120), 410, ReasonExpired, "too old resource version: 5 (120)", IsExpired},
		{"too large", newTooLargeResourceVersion(9, 3), 504, ReasonTimeout, "Too large resource version: 9, current: 3", IsTimeout},
		{"bad request", newBadRequest("nope"), 400, ReasonBadRequest, "nope", IsBadRequest},
	}
	all := []func(error) bool{IsNotFound, IsAlreadyExists, IsConflict, IsInvalid, IsForbidden, IsExpired,
		IsInternalError, IsServiceUnavailable, IsBadRequest, IsTimeout}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.code, tt.err.Code)
			assert.Equal(t, tt.reason, tt.err.Reason)
			assert.Equal(t, tt.message, tt.err.Error())
			assert.Equal(t, tt.reason, ReasonOf(tt.err))
			assert.Equal(t, tt.code, CodeOf(tt.err))
			assert.True(t, tt.is(tt.err))
			assert.True(t, tt.is(fmt.Errorf("sync web: %w", tt.err)), "wrapped errors are recognised")
			matches := 0
			for _, is := range all {
				if is(tt.err) {
					matches++
				}
			}
			assert.Equal(t, 1, matches, "exactly one Is* helper says yes")
		})
	}
}

func TestErrorHelpersOnOtherErrors(t *testing.T) {
	plain := errors.New("plain")
	assert.Equal(t, ReasonUnknown, ReasonOf(plain))
	assert.Equal(t, ReasonUnknown, ReasonOf(nil))
	assert.Equal(t, int32(0), CodeOf(plain))
	assert.False(t, IsNotFound(nil))
	assert.False(t, IsConflict(plain))
	assert.False(t, HasStatusCause(plain, CauseTypeNamespaceTerminating))
	assert.False(t, HasStatusCause(nil, CauseTypeNamespaceTerminating))
}

func TestHasStatusCause(t *testing.T) {
	err := newNamespaceTerminating(infoFor("Pod"), "web-", "default")
	assert.True(t, HasStatusCause(err, CauseTypeNamespaceTerminating))
	assert.True(t, HasStatusCause(fmt.Errorf("wrapped: %w", err), CauseTypeNamespaceTerminating))
	assert.False(t, HasStatusCause(err, CauseTypeFieldValueInvalid))
	assert.Equal(t, []Cause{{Type: CauseTypeNamespaceTerminating, Message: "namespace default is being terminated",
		Field: "metadata.namespace"}}, err.Details.Causes)
}

func TestFieldErrorsAggregateLikeUpstream(t *testing.T) {
	one := invalidString("metadata.name", "Web", "bad")
	assert.Equal(t, `metadata.name: Invalid value: "Web": bad`, fieldErrors{one}.aggregate())
	assert.Equal(t, `metadata.name: Invalid value: "Web": bad`, fieldErrors{one, one}.aggregate(), "duplicates collapse")
	two := fieldErrors{one, required("spec.selector", ""), forbidden("spec", "no"), duplicate("spec.x", "a"),
		notSupported("spec.p", "N", "A", "B")}
	assert.Equal(t, `[metadata.name: Invalid value: "Web": bad, spec.selector: Required value, spec: Forbidden: no, `+
		`spec.x: Duplicate value: "a", spec.p: Unsupported value: "N": supported values: "A", "B"]`, two.aggregate())
	assert.Equal(t, "", fieldErrors{}.aggregate())
}
