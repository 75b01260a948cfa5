package deployment

import (
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// The tests of this file are upstream's util/deployment_util_test.go at
// v1.31 (spec §10.6), case by case, with its numbers and names.

func templateWith(name, nodeName string, annotations, labels map[string]string) api.PodTemplateSpec {
	return api.PodTemplateSpec{
		Metadata: api.ObjectMeta{Name: name, Annotations: annotations, Labels: labels},
		Spec:     api.PodSpec{NodeName: nodeName},
	}
}

func TestEqualIgnoreHash(t *testing.T) {
	h := PodTemplateHashLabel
	none := map[string]string{}
	tests := []struct {
		name           string
		former, latter api.PodTemplateSpec
		want           bool
	}{
		{"Same spec, same labels",
			templateWith("foo", "foo-node", none, map[string]string{h: "value-1", "something": "else"}),
			templateWith("foo", "foo-node", none, map[string]string{h: "value-1", "something": "else"}), true},
		{"Same spec, only pod-template-hash label value is different",
			templateWith("foo", "foo-node", none, map[string]string{h: "value-1", "something": "else"}),
			templateWith("foo", "foo-node", none, map[string]string{h: "value-2", "something": "else"}), true},
		{"Same spec, the former doesn't have pod-template-hash label",
			templateWith("foo", "foo-node", none, map[string]string{"something": "else"}),
			templateWith("foo", "foo-node", none, map[string]string{h: "value-2", "something": "else"}), true},
		{"Same spec, the label is different, the former doesn't have pod-template-hash label, same number of labels",
			templateWith("foo", "foo-node", none, map[string]string{"something": "else"}),
			templateWith("foo", "foo-node", none, map[string]string{h: "value-2"}), false},
		{"Same spec, the label is different, the latter doesn't have pod-template-hash label, same number of labels",
			templateWith("foo", "foo-node", none, map[string]string{h: "value-1"}),
			templateWith("foo", "foo-node", none, map[string]string{"something": "else"}), false},
		{"Same spec, the label is different, and the pod-template-hash label value is the same",
			templateWith("foo", "foo-node", none, map[string]string{h: "value-1"}),
			templateWith("foo", "foo-node", none, map[string]string{h: "value-1", "something": "else"}), false},
		{"Different spec, same labels",
			templateWith("foo", "foo-node", map[string]string{"former": "value"}, map[string]string{h: "value-1", "something": "else"}),
			templateWith("foo", "foo-node", map[string]string{"latter": "value"}, map[string]string{h: "value-1", "something": "else"}), false},
		{"Different spec, different pod-template-hash label value",
			templateWith("foo-1", "foo-node", none, map[string]string{h: "value-1", "something": "else"}),
			templateWith("foo-2", "foo-node", none, map[string]string{h: "value-2", "something": "else"}), false},
		{"Different spec, the former doesn't have pod-template-hash label",
			templateWith("foo-1", "foo-node-1", none, map[string]string{"something": "else"}),
			templateWith("foo-2", "foo-node-2", none, map[string]string{h: "value-2", "something": "else"}), false},
		{"Different spec, different labels",
			templateWith("foo", "foo-node-1", none, map[string]string{"something": "else"}),
			templateWith("foo", "foo-node-2", none, map[string]string{"nothing": "else"}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, pair := range [][2]*api.PodTemplateSpec{{&tt.former, &tt.latter}, {&tt.latter, &tt.former}} {
				before := [2]int{len(pair[0].Metadata.Labels), len(pair[1].Metadata.Labels)}
				assert.Equal(t, tt.want, EqualIgnoreHash(pair[0], pair[1]))
				assert.Equal(t, before, [2]int{len(pair[0].Metadata.Labels), len(pair[1].Metadata.Labels)},
					"EqualIgnoreHash must not change its arguments")
			}
		})
	}
}

// generate is upstream's generateDeployment(image) with generateRS: a
// Deployment of one replica named after its image, and a ReplicaSet with
// its template.
func generateDeployment(image string) *api.Deployment {
	labels := map[string]string{"name": image}
	grace := int64(30)
	return &api.Deployment{
		Metadata: api.ObjectMeta{Name: image, Namespace: "default", UID: uid(image), Annotations: map[string]string{}},
		Spec: api.DeploymentSpec{
			Replicas: ptr32(1),
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				Metadata: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: image, Image: image}}, RestartPolicy: api.RestartAlways,
					TerminationGracePeriodSeconds: &grace},
			},
		},
	}
}

func generateRS(d *api.Deployment) *api.ReplicaSet {
	template := d.Spec.Template.DeepCopy()
	return &api.ReplicaSet{
		Metadata: api.ObjectMeta{Name: "replicaset-" + uid("rs"), Namespace: "default", UID: uid("rs"), Labels: template.Metadata.Labels,
			OwnerReferences: []api.OwnerReference{api.NewControllerRef(&d.Metadata, "apps/v1", "Deployment")}},
		Spec: api.ReplicaSetSpec{Replicas: ptr32(0), Template: *template,
			Selector: &api.LabelSelector{MatchLabels: template.Metadata.Labels}},
	}
}

func TestFindNewReplicaSet(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	d := generateDeployment("nginx")
	// As upstream's generateRS, the ReplicaSet's labels are its template's
	// labels, so the hash label lands on both.
	newRS := generateRS(d)
	newRS.Metadata.Labels[PodTemplateHashLabel] = "hash"
	newRS.Metadata.CreationTimestamp = api.NewTime(now.Add(time.Minute))
	newRSDup := generateRS(d)
	newRSDup.Metadata.Labels[PodTemplateHashLabel] = "different-hash"
	newRSDup.Metadata.CreationTimestamp = api.NewTime(now)
	oldD := generateDeployment("nginx")
	oldD.Spec.Template.Spec.Containers[0].Name = "nginx-old-1"
	oldRS := generateRS(oldD)

	tests := []struct {
		name   string
		rsList []*api.ReplicaSet
		want   *api.ReplicaSet
	}{
		{"Get new ReplicaSet with the same template as Deployment spec but different pod-template-hash value", []*api.ReplicaSet{newRS, oldRS}, newRS},
		{"Get the oldest new ReplicaSet when there are more than one ReplicaSet with the same template", []*api.ReplicaSet{newRS, oldRS, newRSDup}, newRSDup},
		{"Get nil new ReplicaSet", []*api.ReplicaSet{oldRS}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Same(t, tt.want, FindNewReplicaSet(d, tt.rsList))
		})
	}
}

func TestFindOldReplicaSets(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	d := generateDeployment("nginx")
	newRS := generateRS(d)
	newRS.Spec.Replicas = ptr32(1)
	newRS.Metadata.Labels[PodTemplateHashLabel] = "hash"
	newRS.Metadata.CreationTimestamp = api.NewTime(now.Add(time.Minute))
	newRSDup := generateRS(d)
	newRSDup.Metadata.Labels[PodTemplateHashLabel] = "different-hash"
	newRSDup.Metadata.CreationTimestamp = api.NewTime(now)
	oldD := generateDeployment("nginx")
	oldD.Spec.Template.Spec.Containers[0].Name = "nginx-old-1"
	oldRS := generateRS(oldD)
	oldRS.Metadata.CreationTimestamp = api.NewTime(now.Add(-time.Minute))

	tests := []struct {
		name          string
		rsList        []*api.ReplicaSet
		want, require []*api.ReplicaSet
	}{
		{"Get old ReplicaSets", []*api.ReplicaSet{newRS, oldRS}, []*api.ReplicaSet{oldRS}, nil},
		{"Get old ReplicaSets with no new ReplicaSet", []*api.ReplicaSet{oldRS}, []*api.ReplicaSet{oldRS}, nil},
		{"Get old ReplicaSets with two new ReplicaSets, only the oldest new ReplicaSet is seen as new ReplicaSet",
			[]*api.ReplicaSet{oldRS, newRS, newRSDup}, []*api.ReplicaSet{oldRS, newRS}, []*api.ReplicaSet{newRS}},
		{"Get empty old ReplicaSets", []*api.ReplicaSet{newRS}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			required, all := FindOldReplicaSets(d, tt.rsList)
			assert.Equal(t, tt.want, all)
			assert.Equal(t, tt.require, required)
		})
	}
}

func TestGetReplicaCountForReplicaSets(t *testing.T) {
	rs1 := generateRS(generateDeployment("foo"))
	rs1.Spec.Replicas, rs1.Status.Replicas = ptr32(1), 2
	rs2 := generateRS(generateDeployment("bar"))
	rs2.Spec.Replicas, rs2.Status.Replicas = ptr32(2), 3
	tests := []struct {
		name          string
		sets          []*api.ReplicaSet
		count, actual int32
	}{
		{"1:2 Replicas", []*api.ReplicaSet{rs1}, 1, 2},
		{"3:5 Replicas", []*api.ReplicaSet{rs1, rs2}, 3, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.count, GetReplicaCountForReplicaSets(tt.sets))
			assert.Equal(t, tt.actual, GetActualReplicaCountForReplicaSets(tt.sets))
		})
	}
}

func TestResolveFenceposts(t *testing.T) {
	str := func(s string) *api.IntOrString { return percent(s) }
	tests := []struct {
		surge, unavailable     *api.IntOrString
		desired                int32
		wantSurge, wantUnavail int32
		wantErr                bool
	}{
		{str("0%"), str("0%"), 0, 0, 1, false},
		{str("39%"), str("39%"), 10, 4, 3, false},
		{str("oops"), str("39%"), 10, 0, 0, true},
		{str("55%"), str("urg"), 10, 0, 0, true},
		{nil, str("39%"), 10, 0, 3, false},
		{str("39%"), nil, 10, 4, 0, false},
		{nil, nil, 10, 0, 1, false},
	}
	for i, tt := range tests {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			surge, unavailable, err := ResolveFenceposts(tt.surge, tt.unavailable, tt.desired)
			if tt.wantErr {
				assert.Error(t, err)
			} else {
				assert.NoError(t, err)
			}
			assert.Equal(t, [2]int32{tt.wantSurge, tt.wantUnavail}, [2]int32{surge, unavailable})
		})
	}
	_, _, err := ResolveFenceposts(str("oops"), nil, 10)
	assert.EqualError(t, err, "invalid value for IntOrString: invalid type: string is not a percentage")
	_, _, err = ResolveFenceposts(nil, str("urg%"), 10)
	assert.EqualError(t, err, `invalid value for IntOrString: invalid value "urg%": strconv.Atoi: parsing "urg": invalid syntax`)
}

// TestResolveFencepostsRounding pins the rounding a learner meets: surge
// rounds up, unavailability down, and with both 0 one pod may be
// unavailable (spec §4.1).
func TestResolveFencepostsRounding(t *testing.T) {
	for _, tt := range []struct {
		desired            int32
		surge, unavailable int32
	}{{3, 1, 0}, {10, 3, 2}, {1, 1, 0}, {4, 1, 1}, {0, 0, 1}} {
		s, u, err := ResolveFenceposts(percent("25%"), percent("25%"), tt.desired)
		require.NoError(t, err)
		assert.Equal(t, [2]int32{tt.surge, tt.unavailable}, [2]int32{s, u}, "replicas %d at 25%%/25%%", tt.desired)
	}
}

func TestNewRSNewReplicas(t *testing.T) {
	tests := []struct {
		name                                       string
		strategy                                   string
		depReplicas, newRSReplicas, maxSurge, want int32
	}{
		{"can not scale up - to newRSReplicas", api.RollingUpdateDeploymentStrategy, 1, 5, 1, 5},
		{"scale up - to depReplicas", api.RollingUpdateDeploymentStrategy, 6, 2, 10, 6},
		{"recreate - to depReplicas", api.RecreateDeploymentStrategy, 3, 1, 1, 3},
	}
	d := generateDeployment("nginx")
	newRS := generateRS(d)
	rs5 := generateRS(d)
	rs5.Spec.Replicas = ptr32(5)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d.Spec.Replicas = ptr32(tt.depReplicas)
			d.Spec.Strategy = api.DeploymentStrategy{Type: tt.strategy,
				RollingUpdate: &api.RollingUpdateDeployment{MaxUnavailable: intstr(1), MaxSurge: intstr(tt.maxSurge)}}
			newRS.Spec.Replicas = ptr32(tt.newRSReplicas)
			got, err := NewRSNewReplicas(d, []*api.ReplicaSet{rs5}, newRS)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	d.Spec.Strategy.Type = "Canary"
	_, err := NewRSNewReplicas(d, nil, newRS)
	assert.EqualError(t, err, "deployment type Canary isn't supported")
}

var (
	condProgressing  = api.DeploymentCondition{Type: api.DeploymentProgressing, Status: api.ConditionFalse, Reason: "ForSomeReason"}
	condProgressing2 = api.DeploymentCondition{Type: api.DeploymentProgressing, Status: api.ConditionTrue, Reason: "BecauseItIs"}
	condAvailable    = api.DeploymentCondition{Type: api.DeploymentAvailable, Status: api.ConditionTrue, Reason: "AwesomeController"}
)

func exampleStatus() *api.DeploymentStatus {
	return &api.DeploymentStatus{Conditions: []api.DeploymentCondition{condProgressing, condAvailable}}
}

func TestGetCondition(t *testing.T) {
	assert.NotNil(t, GetDeploymentCondition(*exampleStatus(), api.DeploymentAvailable), "condition exists")
	assert.Nil(t, GetDeploymentCondition(*exampleStatus(), api.DeploymentReplicaFailure), "condition does not exist")
}

func TestSetCondition(t *testing.T) {
	tests := []struct {
		name   string
		status *api.DeploymentStatus
		cond   api.DeploymentCondition
		want   *api.DeploymentStatus
	}{
		{"set for the first time", &api.DeploymentStatus{}, condAvailable,
			&api.DeploymentStatus{Conditions: []api.DeploymentCondition{condAvailable}}},
		{"simple set", &api.DeploymentStatus{Conditions: []api.DeploymentCondition{condProgressing}}, condAvailable, exampleStatus()},
		{"overwrite", &api.DeploymentStatus{Conditions: []api.DeploymentCondition{condProgressing}}, condProgressing2,
			&api.DeploymentStatus{Conditions: []api.DeploymentCondition{condProgressing2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			SetDeploymentCondition(tt.status, tt.cond)
			assert.Equal(t, tt.want, tt.status)
		})
	}
}

// TestSetConditionKeepsTimes pins the two time rules of SetDeploymentCondition:
// the same status and reason change nothing, the same status with another
// reason keeps the transition time.
func TestSetConditionKeepsTimes(t *testing.T) {
	t0, t1 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 1, 1, 0, 1, 0, 0, time.UTC)
	s := &api.DeploymentStatus{}
	SetDeploymentCondition(s, NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, ReplicaSetUpdatedReason, "a", t0))
	SetDeploymentCondition(s, NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, ReplicaSetUpdatedReason, "b", t1))
	require.Len(t, s.Conditions, 1)
	assert.Equal(t, "a", s.Conditions[0].Message)
	assert.Equal(t, t0, s.Conditions[0].LastUpdateTime.Time)
	SetDeploymentCondition(s, NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, NewRSAvailableReason, "c", t1))
	assert.Equal(t, t0, s.Conditions[0].LastTransitionTime.Time)
	assert.Equal(t, t1, s.Conditions[0].LastUpdateTime.Time)
	SetDeploymentCondition(s, NewDeploymentCondition(api.DeploymentProgressing, api.ConditionFalse, TimedOutReason, "d", t1))
	assert.Equal(t, t1, s.Conditions[0].LastTransitionTime.Time)
}

func TestRemoveCondition(t *testing.T) {
	tests := []struct {
		name     string
		status   *api.DeploymentStatus
		condType string
		want     *api.DeploymentStatus
	}{
		{"remove from empty status", &api.DeploymentStatus{}, api.DeploymentProgressing, &api.DeploymentStatus{}},
		{"simple remove", &api.DeploymentStatus{Conditions: []api.DeploymentCondition{condProgressing}}, api.DeploymentProgressing, &api.DeploymentStatus{}},
		{"doesn't remove anything", exampleStatus(), api.DeploymentReplicaFailure, exampleStatus()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			RemoveDeploymentCondition(tt.status, tt.condType)
			assert.Equal(t, tt.want, tt.status)
		})
	}
}

func TestDeploymentComplete(t *testing.T) {
	deployment := func(desired, current, updated, available, maxUnavailable, maxSurge int32) *api.Deployment {
		return &api.Deployment{
			Spec: api.DeploymentSpec{Replicas: ptr32(desired), Strategy: api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategy,
				RollingUpdate: &api.RollingUpdateDeployment{MaxUnavailable: intstr(maxUnavailable), MaxSurge: intstr(maxSurge)}}},
			Status: api.DeploymentStatus{Replicas: current, UpdatedReplicas: updated, AvailableReplicas: available},
		}
	}
	tests := []struct {
		name string
		d    *api.Deployment
		want bool
	}{
		{"not complete: min but not all pods become available", deployment(5, 5, 5, 4, 1, 0), false},
		{"not complete: min availability is not honored", deployment(5, 5, 5, 3, 1, 0), false},
		{"complete", deployment(5, 5, 5, 5, 0, 0), true},
		{"not complete: all pods are available but not updated", deployment(5, 5, 4, 5, 0, 0), false},
		{"not complete: still running old pods", deployment(1, 2, 1, 1, 0, 1), false},
		{"not complete: one replica deployment never comes up", deployment(1, 1, 1, 0, 1, 1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, DeploymentComplete(tt.d, &tt.d.Status))
		})
	}
}

func TestDeploymentProgressing(t *testing.T) {
	status := func(current, updated, ready, available int32) api.DeploymentStatus {
		return api.DeploymentStatus{Replicas: current, UpdatedReplicas: updated, ReadyReplicas: ready, AvailableReplicas: available}
	}
	tests := []struct {
		name     string
		old, cur api.DeploymentStatus
		want     bool
	}{
		{"progressing: updated pods", status(10, 4, 4, 4), status(10, 6, 4, 4), true},
		{"not progressing", status(10, 4, 4, 4), status(10, 4, 4, 4), false},
		{"progressing: old pods removed", status(10, 4, 6, 6), status(8, 4, 6, 6), true},
		{"not progressing: less new pods", status(10, 7, 3, 3), status(10, 6, 3, 3), false},
		{"progressing: less overall but more new pods", status(10, 4, 7, 7), status(8, 8, 5, 5), true},
		{"progressing: more ready pods", status(10, 10, 9, 8), status(10, 10, 10, 8), true},
		{"progressing: more available pods", status(10, 10, 10, 9), status(10, 10, 10, 10), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, DeploymentProgressing(&api.Deployment{Status: tt.old}, &tt.cur))
		})
	}
}

func TestDeploymentTimedOut(t *testing.T) {
	at := func(min, sec int) time.Time { return time.Date(2016, 1, 1, 0, min, sec, 0, time.UTC) }
	deployment := func(reason string, pds *int32, from time.Time) *api.Deployment {
		return &api.Deployment{
			Spec: api.DeploymentSpec{ProgressDeadlineSeconds: pds},
			Status: api.DeploymentStatus{Conditions: []api.DeploymentCondition{{Type: api.DeploymentProgressing,
				Status: api.ConditionTrue, Reason: reason, LastUpdateTime: api.NewTime(from)}}},
		}
	}
	tests := []struct {
		name string
		d    *api.Deployment
		now  time.Time
		want bool
	}{
		{"nil progressDeadlineSeconds specified - no timeout", deployment("", nil, at(1, 9)), at(1, 20), false},
		{"infinite progressDeadlineSeconds specified - no timeout", deployment("", ptr32(math.MaxInt32), at(1, 9)), at(1, 20), false},
		{"progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:09 => 11s", deployment("", ptr32(10), at(1, 9)), at(1, 20), true},
		{"progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:11 => 9s", deployment("", ptr32(10), at(1, 11)), at(1, 20), false},
		{"previous status was a complete deployment", deployment(NewRSAvailableReason, nil, time.Time{}), at(1, 20), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, DeploymentTimedOut(tt.d, &tt.d.Status, tt.now))
		})
	}
}

func rollingDeployment(replicas int32, maxUnavailable *api.IntOrString) *api.Deployment {
	return &api.Deployment{Spec: api.DeploymentSpec{Replicas: ptr32(replicas), Strategy: api.DeploymentStrategy{
		Type: api.RollingUpdateDeploymentStrategy, RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: intstr(1), MaxUnavailable: maxUnavailable}}}}
}

func TestMaxUnavailable(t *testing.T) {
	tests := []struct {
		name string
		d    *api.Deployment
		want int32
	}{
		{"maxUnavailable less than replicas", rollingDeployment(10, intstr(5)), 5},
		{"maxUnavailable equal replicas", rollingDeployment(10, intstr(10)), 10},
		{"maxUnavailable greater than replicas", rollingDeployment(5, intstr(10)), 5},
		{"maxUnavailable with replicas is 0", rollingDeployment(0, intstr(10)), 0},
		{"maxUnavailable with Recreate deployment strategy",
			&api.Deployment{Spec: api.DeploymentSpec{Strategy: api.DeploymentStrategy{Type: api.RecreateDeploymentStrategy}}}, 0},
		{"maxUnavailable less than replicas with percents", rollingDeployment(10, percent("50%")), 5},
		{"maxUnavailable equal replicas with percents", rollingDeployment(10, percent("100%")), 10},
		{"maxUnavailable greater than replicas with percents", rollingDeployment(5, percent("100%")), 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, MaxUnavailable(tt.d)) })
	}
}

func TestMinAvailable(t *testing.T) {
	tests := []struct {
		name string
		d    *api.Deployment
		want int32
	}{
		{"replicas greater than maxUnavailable", rollingDeployment(10, intstr(5)), 5},
		{"replicas equal maxUnavailable", rollingDeployment(10, intstr(10)), 0},
		{"replicas less than maxUnavailable", rollingDeployment(5, intstr(10)), 0},
		{"replicas is 0", rollingDeployment(0, intstr(10)), 0},
		{"minAvailable with Recreate deployment strategy",
			&api.Deployment{Spec: api.DeploymentSpec{Replicas: ptr32(10), Strategy: api.DeploymentStrategy{Type: api.RecreateDeploymentStrategy}}}, 0},
		{"replicas greater than maxUnavailable with percents", rollingDeployment(10, percent("60%")), 4},
		{"replicas equal maxUnavailable with percents", rollingDeployment(10, percent("100%")), 0},
		{"replicas less than maxUnavailable with percents", rollingDeployment(5, percent("100%")), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, MinAvailable(tt.d)) })
	}
}

func TestAnnotationUtils(t *testing.T) {
	d := generateDeployment("nginx")
	r := generateRS(d)
	d.Metadata.Annotations[RevisionAnnotation] = "1"

	t.Run("SetNewReplicaSetAnnotations", func(t *testing.T) {
		for i := 10; i < 20; i++ {
			next := strconv.Itoa(i + 1)
			SetNewReplicaSetAnnotations(d, r, next, true, 5)
			if i >= 12 {
				assert.Equal(t, strconv.Itoa(i-1)+","+strconv.Itoa(i), r.Metadata.Annotations[RevisionHistoryAnnotation], "revision %s", next)
			}
			assert.Equal(t, next, r.Metadata.Annotations[RevisionAnnotation])
		}
	})
	t.Run("SetReplicasAnnotations", func(t *testing.T) {
		assert.True(t, SetReplicasAnnotations(r, 10, 11))
		assert.Equal(t, "10", r.Metadata.Annotations[DesiredReplicasAnnotation])
		assert.Equal(t, "11", r.Metadata.Annotations[MaxReplicasAnnotation])
		assert.False(t, SetReplicasAnnotations(r, 10, 11), "a second call changes nothing")
	})
	r.Metadata.Annotations[DesiredReplicasAnnotation] = "1"
	r.Status.AvailableReplicas = 1
	r.Spec.Replicas = ptr32(1)
	t.Run("IsSaturated", func(t *testing.T) {
		assert.True(t, IsSaturated(d, r))
		r.Status.AvailableReplicas = 0
		assert.False(t, IsSaturated(d, r), "not all available")
		assert.False(t, IsSaturated(d, nil))
	})
}

// TestSetNewReplicaSetAnnotationsCopiesAndSkips pins what is copied from a
// Deployment to its new ReplicaSet: its own annotations but the skipped
// ones, and, for a ReplicaSet about to be created, the replica annotations.
func TestSetNewReplicaSetAnnotationsCopiesAndSkips(t *testing.T) {
	d := newDeployment("web", 4, nil, intstr(1), nil, map[string]string{"app": "web"})
	d.Metadata.Annotations = map[string]string{"team": "blue", RevisionAnnotation: "7", lastAppliedAnnotation: "{}", RollbackToAnnotation: "2"}
	r := &api.ReplicaSet{}
	assert.True(t, SetNewReplicaSetAnnotations(d, r, "3", false, maxRevHistoryLengthInChars))
	assert.Equal(t, map[string]string{"team": "blue", RevisionAnnotation: "3", DesiredReplicasAnnotation: "4", MaxReplicasAnnotation: "5"},
		r.Metadata.Annotations)
	assert.False(t, SetNewReplicaSetAnnotations(d, r, "3", true, maxRevHistoryLengthInChars), "nothing left to change")

	r.Metadata.Annotations[RevisionAnnotation] = "x"
	assert.False(t, SetNewReplicaSetAnnotations(d, r, "4", true, maxRevHistoryLengthInChars), "an unparsable revision stops it")
	assert.Equal(t, "x", r.Metadata.Annotations[RevisionAnnotation])
}

func TestReplicasAnnotationsNeedUpdate(t *testing.T) {
	withAnnotations := func(a map[string]string) *api.ReplicaSet {
		return &api.ReplicaSet{Metadata: api.ObjectMeta{Name: "hello", Namespace: "test", Annotations: a}}
	}
	tests := []struct {
		name string
		rs   *api.ReplicaSet
		want bool
	}{
		{"test Annotations nil", withAnnotations(nil), true},
		{"test desiredReplicas update", withAnnotations(map[string]string{DesiredReplicasAnnotation: "8", MaxReplicasAnnotation: "20"}), true},
		{"test maxReplicas update", withAnnotations(map[string]string{DesiredReplicasAnnotation: "10", MaxReplicasAnnotation: "16"}), true},
		{"test needn't update", withAnnotations(map[string]string{DesiredReplicasAnnotation: "10", MaxReplicasAnnotation: "20"}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, ReplicasAnnotationsNeedUpdate(tt.rs, 10, 20)) })
	}
}

func TestGetDeploymentsForReplicaSet(t *testing.T) {
	var ds []*api.Deployment
	for i := range 3 {
		ds = append(ds, &api.Deployment{Metadata: api.ObjectMeta{Name: "deployment-" + strconv.Itoa(i), Namespace: "test"},
			Spec: api.DeploymentSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "test-" + strconv.Itoa(i)}}}})
	}
	for i := range 5 {
		r := &api.ReplicaSet{Metadata: api.ObjectMeta{Namespace: "test", Name: "test-replicaSet-" + strconv.Itoa(i),
			Labels: map[string]string{"app": "test-" + strconv.Itoa(i), "label": "label-" + strconv.Itoa(i)}}}
		t.Run("GetDeploymentsForReplicaSet for rs-"+strconv.Itoa(i), func(t *testing.T) {
			got, err := GetDeploymentsForReplicaSet(ds, r)
			if i < 3 {
				require.NoError(t, err)
				assert.Equal(t, []*api.Deployment{ds[i]}, got)
				return
			}
			assert.EqualError(t, err, "could not find deployments set for ReplicaSet "+r.Metadata.Name+
				" in namespace test with labels: app=test-"+strconv.Itoa(i)+",label=label-"+strconv.Itoa(i))
		})
	}
	_, err := GetDeploymentsForReplicaSet(ds, &api.ReplicaSet{Metadata: api.ObjectMeta{Name: "bare"}})
	assert.EqualError(t, err, "no deployments found for ReplicaSet bare because it has no labels")
}

// TestGetReplicaSetFraction is the spec's §10.6 table of
// getReplicaSetFraction (maxUnavailable 1), its non-zero cases; the zero
// guards are a deliberate choice of ours (see getReplicaSetFraction).
func TestGetReplicaSetFraction(t *testing.T) {
	tests := []struct {
		name                string
		dReplicas, surge    int32
		dStatus, rsReplicas int32
		annotation          string
		want                int32
	}{
		{"deployment scaled to zero", 0, 0, 0, 10, "", -10},
		{"no annotation, no status: no share", 10, 0, 0, 5, "", 0},
		{"annotation 0 and no status: no share", 10, 0, 0, 5, "0", 0},
		{"no annotation: status.replicas is the base", 120, 0, 100, 50, "", 10},
		{"annotation 0: status.replicas is the base", 120, 0, 100, 50, "0", 10},
		{"annotation is the base", 120, 0, 0, 50, "100", 10},
		{"surge counts in the target", 120, 10, 0, 50, "110", 9},
		{"scaling down", 10, 0, 0, 6, "12", -1},
		{"scaling down with surge", 100, 10, 0, 50, "130", -8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := rollingDeployment(tt.dReplicas, intstr(1))
			d.Spec.Strategy.RollingUpdate.MaxSurge = intstr(tt.surge)
			d.Status.Replicas = tt.dStatus
			r := rs("rs", tt.rsReplicas, nil, noTimestamp)
			if tt.annotation != "" {
				r.Metadata.Annotations = map[string]string{MaxReplicasAnnotation: tt.annotation}
			}
			assert.Equal(t, tt.want, getReplicaSetFraction(r, d))
		})
	}
}

// TestGetProportionRoundsHalfUp pins the derivations of spec §10.3: a share
// rounds half away from zero, and never exceeds what is left to hand out.
func TestGetProportionRoundsHalfUp(t *testing.T) {
	d := rollingDeployment(5, intstr(1))
	d.Spec.Strategy.RollingUpdate.MaxSurge = intstr(0)
	r := rs("v2", 2, nil, noTimestamp)
	r.Metadata.Annotations = map[string]string{MaxReplicasAnnotation: "4"}
	assert.Equal(t, int32(1), getReplicaSetFraction(r, d), "round(2·5/4) − 2 = round(2.5) − 2 = 1")
	assert.Equal(t, int32(1), GetProportion(r, d, 3, 2), "only 1 is left to hand out")
	assert.Equal(t, int32(0), GetProportion(r, d, 3, 3))
	assert.Equal(t, int32(0), GetProportion(nil, d, 3, 0))
}

func TestLastAndMaxRevision(t *testing.T) {
	withRevision := func(v string) *api.ReplicaSet {
		return &api.ReplicaSet{Metadata: api.ObjectMeta{Annotations: map[string]string{RevisionAnnotation: v}}}
	}
	rss := []*api.ReplicaSet{withRevision("3"), withRevision("x"), withRevision("7"), withRevision("5"), {}}
	assert.Equal(t, int64(7), MaxRevision(rss))
	assert.Equal(t, int64(5), LastRevision(rss))
	assert.Equal(t, int64(0), LastRevision(rss[:1]))
}

func TestComputeHashIsStableAndUsesCollisionCount(t *testing.T) {
	d := newDeployment("web", 1, nil, nil, nil, map[string]string{"app": "web"})
	h := ComputeHash(&d.Spec.Template, nil)
	assert.Equal(t, h, ComputeHash(d.Spec.Template.DeepCopy(), nil), "equal templates hash alike")
	assert.Regexp(t, "^[456789bcdf]{1,10}$", h)
	assert.NotEqual(t, h, ComputeHash(&d.Spec.Template, ptr32(1)), "a collision count changes the hash")
	other := d.Spec.Template.DeepCopy()
	other.Spec.Containers[0].Image = "foo/baz"
	assert.NotEqual(t, h, ComputeHash(other, nil))
	assert.Equal(t, "5678", SafeEncodeString("1234"))
	assert.Equal(t, "456789bcdf", SafeEncodeString("0123456789"))
}

func TestSortOrders(t *testing.T) {
	t0 := time.Date(2016, 5, 20, 0, 0, 0, 0, time.UTC)
	a := rs("a", 2, nil, t0)
	b := rs("b", 2, nil, t0)
	c := rs("c", 2, nil, t0.Add(time.Hour))
	big := rs("big", 5, nil, t0)
	assert.Negative(t, byCreationTimestamp(a, b), "equal times: by name")
	assert.Negative(t, byCreationTimestamp(b, c), "older first")
	assert.Negative(t, bySizeOlder(big, c), "larger first")
	assert.Negative(t, bySizeOlder(a, c), "equal sizes: older first")
	assert.Negative(t, bySizeNewer(c, a), "equal sizes: newer first")
	assert.Negative(t, bySizeNewer(b, a), "equal sizes and times: reversed name order")
	a.Metadata.Annotations = map[string]string{RevisionAnnotation: "9"}
	c.Metadata.Annotations = map[string]string{RevisionAnnotation: "2"}
	assert.Negative(t, byRevision(c, a), "by revision")
	b.Metadata.Annotations = map[string]string{RevisionAnnotation: "bad"}
	assert.Negative(t, byRevision(a, b), "an unparsable revision: by creation time, then name")
}

// TestReplicaAnnotationsParseAsV131Does: v1.31 reads the replica
// annotations with Atoi and a plain int32 conversion, so a negative value is
// read as it is; later releases refuse it.
func TestReplicaAnnotationsParseAsV131Does(t *testing.T) {
	for _, tt := range []struct {
		value string
		want  int32
		ok    bool
	}{{"", 0, false}, {"invalid", 0, false}, {"-1", -1, true}, {"0", 0, true}, {"13", 13, true}, {"2147483647", math.MaxInt32, true}} {
		r := &api.ReplicaSet{}
		if tt.value != "" {
			r.Metadata.Annotations = map[string]string{DesiredReplicasAnnotation: tt.value, MaxReplicasAnnotation: tt.value}
		}
		n, ok := GetDesiredReplicasAnnotation(r)
		assert.Equal(t, [2]any{tt.want, tt.ok}, [2]any{n, ok}, "desired %q", tt.value)
		n, ok = getMaxReplicasAnnotation(r)
		assert.Equal(t, [2]any{tt.want, tt.ok}, [2]any{n, ok}, "max %q", tt.value)
	}
}
