package controller

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/reconcilelab/rlab/core/api"
)

// TestSameOwnerRefAgreesWithDeepEqual pins sameOwnerRef to what upstream's
// reflect.DeepEqual of two controller references says.
func TestSameOwnerRefAgreesWithDeepEqual(t *testing.T) {
	yes, no, yes2 := true, false, true
	base := api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: "u1", Controller: &yes, BlockOwnerDeletion: &yes}
	variants := []*api.OwnerReference{nil, &base}
	for _, change := range []func(r *api.OwnerReference){
		func(r *api.OwnerReference) { r.APIVersion = "v1" },
		func(r *api.OwnerReference) { r.Kind = "ReplicationController" },
		func(r *api.OwnerReference) { r.Name = "db" },
		func(r *api.OwnerReference) { r.UID = "u2" },
		func(r *api.OwnerReference) { r.Controller = &no },
		func(r *api.OwnerReference) { r.Controller = nil },
		func(r *api.OwnerReference) { r.BlockOwnerDeletion = nil },
		func(r *api.OwnerReference) { r.BlockOwnerDeletion = &yes2 }, // another pointer, same value
	} {
		r := base
		change(&r)
		variants = append(variants, &r)
	}
	for _, a := range variants {
		for _, b := range variants {
			assert.Equal(t, reflect.DeepEqual(a, b), sameOwnerRef(a, b), "%+v vs %+v", a, b)
		}
	}
}
