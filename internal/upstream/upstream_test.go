package upstream

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLookupFindsFunctionsAndMethods(t *testing.T) {
	got := Lookup("slowStartBatch", "")
	require.Len(t, got, 1, "a function")
	assert.Equal(t, "pkg/controller/replicaset/replica_set.go", got[0].File)
	assert.Positive(t, got[0].Line)
	assert.Equal(t, "https://github.com/kubernetes/kubernetes/blob/v1.31.14/pkg/controller/replicaset/replica_set.go#L"+
		strconv.Itoa(got[0].Line), got[0].URL())

	methods := Lookup("syncReplicaSet", "")
	require.Len(t, methods, 1, "a bare name finds the method")
	assert.Equal(t, "ReplicaSetController.syncReplicaSet", methods[0].Name)
	assert.Equal(t, methods, Lookup("ReplicaSetController.syncReplicaSet", ""), "Type.Name finds it too")
	assert.Empty(t, Lookup("Controller.syncReplicaSet", ""), "Type.Name finds only that type's method")

	processed := Lookup("processNextWorkItem", "")
	assert.Greater(t, len(processed), 1, "several controllers have a processNextWorkItem")
	assert.Len(t, Lookup("processNextWorkItem", "pkg/controller/replicaset/replica_set.go"), 1, "a file narrows it")

	assert.Empty(t, Lookup("watchHandler", ""), "client-go v0.31 calls it handleWatch")
	assert.Len(t, Lookup("handleWatch", "staging/src/k8s.io/client-go/tools/cache/reflector.go"), 1)
}

func TestHasFile(t *testing.T) {
	assert.True(t, HasFile("pkg/controller/controller_utils.go"))
	assert.True(t, HasFile("staging/src/k8s.io/client-go/util/workqueue/queue.go"))
	assert.False(t, HasFile("pkg/controller/replicaset/replica_set_test.go"), "tests are not in the manifest")
	assert.False(t, HasFile("k8s.io/client-go/util/workqueue/queue.go"), "paths are the repository's")
}
