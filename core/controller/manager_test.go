package controller

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// TestOwnerKindsNameTheirHandlers: the actor of a kind's handler steps is
// its short name and "-controller", written out once rather than joined at
// every step.
func TestOwnerKindsNameTheirHandlers(t *testing.T) {
	for _, k := range []ownerKind{replicaSetKind, replicationControllerKind} {
		assert.Equal(t, k.short+"-controller", k.handlers)
	}
}

// TestSelectorOfParsesEachSpecSelectorOnce: a sync gets the selector parsed
// from its owner's spec.selector; the same spec.selector (a stored object's,
// which never changes) is parsed once, any other object's afresh, and a
// selector that cannot be parsed fails every time.
func TestSelectorOfParsesEachSpecSelectorOnce(t *testing.T) {
	m := &Manager{}
	web := &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	first, err := m.selectorOf("default/web", web)
	require.NoError(t, err)
	assert.Equal(t, "app=web", first.String())
	again, err := m.selectorOf("default/web", web)
	require.NoError(t, err)
	assert.Equal(t, first, again)

	// The ReplicaSet deleted and created again with another selector: a
	// new object, which the memo must not answer for the old one.
	api2 := &api.LabelSelector{MatchLabels: map[string]string{"app": "api"}}
	other, err := m.selectorOf("default/web", api2)
	require.NoError(t, err)
	assert.Equal(t, "app=api", other.String())

	bad := &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: "Sideways"}}}
	for range 2 {
		_, err = m.selectorOf("default/web", bad)
		require.Error(t, err)
	}
	assert.NotContains(t, m.selectors, "default/web", "a selector that failed is not remembered")
	sel, err := m.selectorOf("default/web", web)
	require.NoError(t, err)
	assert.Equal(t, "app=web", sel.String())
}
