package script

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// expectWorld is a converged world with rs/web (3 Ready pods), rc/db (1),
// a bare pod that is not Ready and a cordoned node.
func expectWorld(t *testing.T) *testSession {
	t.Helper()
	return newTestSession(t, "seed 1",
		"create rs web --replicas=3 --selector=app=web",
		"create rc db --replicas=1 --selector=app=db",
		"create pod stray --labels=app=web2 --node=node-2 --phase=Running",
		"cordon node-3",
		"stabilize")
}

func TestExpectsThatHold(t *testing.T) {
	ts := expectWorld(t)
	before := fingerprint(ts.World())
	for _, line := range []string{
		"expect pods -l app=web count=3",
		"expect pods -l app=web count>=3",
		"expect pods -l app=web count<=3",
		"expect pods count=5",
		"expect pods -l app=web count=3 phase=Running ready=true owner=rs/web terminating=false restarts=0",
		"expect pods -l app=web2 count=1 ready=false owner=none node=node-2",
		"expect pods -l app=web count!=2 status.phase=Running",
		"expect pods -l app=db count=1 owner=rc/db",
		"expect pods -n other count=0",
		"expect cache pods -l app=web count=3",
		"expect rs/web status.replicas=3 status.readyReplicas=3 status.availableReplicas=3 spec.replicas=3",
		"expect rs/web metadata.generation=1 status.observedGeneration=1 metadata.labels.app=web metadata.labels.nope=",
		"expect rs/web spec.template.metadata.labels.app=web status.fullyLabeledReplicas>=3",
		"expect rc/db spec.replicas=1 status.readyReplicas=1",
		"expect pod/stray status.phase=Running ready=false metadata.deletionTimestamp=",
		"expect node/node-3 spec.unschedulable=true",
		"expect node/node-1 spec.unschedulable=false",
		"expect cache rs/web status.replicas=3",
		"expect condition rs/web ReplicaFailure=absent",
		"expect condition rs/web ReplicaFailure!=True",
		"expect condition pod/stray Ready=False",
		"expect condition node/node-1 Ready=True reason=KubeletReady",
		"expect queue replicaset len=0",
		"expect queue rc len<1",
		"expect expectations rs/web add=0 del=0 satisfied=true",
		"expect expectations rs/nope add=0 satisfied=true",
		"expect expectations rc/db satisfied!=false",
		"expect events reason=SuccessfulCreate count=4",
		"expect events object=rs/web count=3 total=3",
		"expect events object=rc/db reason=SuccessfulCreate type=Normal count=1",
		"expect events type=Warning count=0",
		"expect events reason!=SuccessfulCreate count=0",
		"expect requests verb=create resource=pods count=5",
		"expect requests resource=pods/binding count=4",
		"expect requests resource=rs/status count>=1",
		"expect requests verb=update resource=nodes count=1",
		"expect requests count>50",
	} {
		out := ts.ok(t, line)
		assert.Empty(t, out, "an expect that holds prints nothing: %s", line)
	}
	assert.Equal(t, before, fingerprint(ts.World()), "expects never change the world")
}

func TestExpectFailureMessages(t *testing.T) {
	ts := expectWorld(t)
	var web []string
	db := ""
	for _, p := range ts.pods() {
		switch p.Metadata.Labels["app"] {
		case "web":
			web = append(web, p.Metadata.Name+" Running Ready rs/web")
		case "db":
			db = p.Metadata.Name
		}
	}
	require.Len(t, web, 3)
	webPods := strings.Join(web, ", ")
	before := fingerprint(ts.World())
	for _, tc := range []struct{ line, msg string }{
		{"expect pods -l app=web count=2",
			"expect pods -l app=web count=2: found 3 (" + webPods + ")"},
		{"expect pods -l app=nope count>0",
			"expect pods -l app=nope count>0: found 0"},
		{"expect pods -l app=web2 count=1 ready=true",
			"expect pods -l app=web2 count=1 ready=true: found 0; 1 more pod matches -l app=web2 but not the filters (stray Running NotReady no owner)"},
		{"expect cache pods -l app=web count=4",
			"expect cache pods -l app=web count=4: found 3 (" + webPods + ") in the informer's cache"},
		{"expect rs/web status.replicas=2 status.readyReplicas=3 metadata.labels.tier=x",
			"expect rs/web status.replicas=2 status.readyReplicas=3 metadata.labels.tier=x: status.replicas is 3, metadata.labels.tier is empty"},
		{"expect rs/nope status.replicas=1",
			`expect rs/nope status.replicas=1: replicasets.apps "nope" not found`},
		{"expect rs/web status.replicas=1 -n x",
			`expect rs/web status.replicas=1 -n x: replicasets.apps "web" not found in namespace x`},
		{"expect pod/stray ready=true phase=Pending",
			"expect pod/stray ready=true phase=Pending: ready is false, phase is Running"},
		{"expect condition rs/web ReplicaFailure=True",
			"expect condition rs/web ReplicaFailure=True: ReplicaFailure is absent"},
		{"expect condition pod/stray Ready=True",
			"expect condition pod/stray Ready=True: Ready is False"},
		{"expect condition node/node-1 Ready=True reason=Other",
			"expect condition node/node-1 Ready=True reason=Other: Ready is True, reason KubeletReady: kubelet is posting ready status"},
		{"expect queue replicaset len>0",
			"expect queue replicaset len>0: len is 0 (the queue is empty)"},
		{"expect queue rs contains web",
			"expect queue rs contains web: default/web is not waiting (the queue is empty)"},
		{"expect expectations rs/web add=1",
			"expect expectations rs/web add=1: add is 0, del is 0, satisfied is true"},
		{"expect expectations rs/nope satisfied=false",
			"expect expectations rs/nope satisfied=false: add is 0, del is 0, satisfied is true (no expectations are recorded for default/nope)"},
		{"expect events object=rc/db count=2",
			`expect events object=rc/db count=2: found 1 Event (Normal SuccessfulCreate rc/db ×1 "Created pod: ` + db + `")`},
		{"expect events reason=FailedCreate total=1",
			"expect events reason=FailedCreate total=1: found 0 Events with a total count of 0"},
		{"expect requests verb=delete count=1",
			"expect requests verb=delete count=1: found 0"},
	} {
		e := ts.fails(t, tc.line)
		assert.Equal(t, tc.msg, e.Msg)
		assert.False(t, e.applied)
		assert.Equal(t, tc.line, e.Text)
	}
	assert.Equal(t, before, fingerprint(ts.World()), "a failed expect changes nothing")
}

func TestExpectListsAtMostTenObjects(t *testing.T) {
	ts := newTestSession(t, "create rs web --replicas=12 --selector=app=web", "stabilize")
	e := ts.fails(t, "expect pods -l app=web count=1")
	assert.Contains(t, e.Msg, "found 12 (")
	assert.Contains(t, e.Msg, " and 2 more)")
}

func TestExpectQueueWhileProcessing(t *testing.T) {
	ts := newTestSession(t, "seed 1", "create rs web --replicas=3 --selector=app=web", "step 15")
	e := ts.fails(t, "expect queue replicaset contains default/web")
	assert.Equal(t, "expect queue replicaset contains default/web: default/web is not waiting (processing: default/web by rs-worker-1, dirty)", e.Msg)
	ts.ok(t, "expect queue replicaset len=0")
}

// TestExpectSyncs counts the syncs of a key that have ended: a failed one
// counts, a key never synced has none, and the count goes back with a seek.
func TestExpectSyncs(t *testing.T) {
	ts := newTestSession(t, "seed 1", "create rs web --replicas=3 --selector=app=web")
	ts.ok(t, "expect syncs rs/web count=0")
	ts.ok(t, "expect syncs rs/nope count=0")
	ts.ok(t, "until sync rs/web")
	ts.ok(t, "expect syncs rs/web count=1")
	ts.ok(t, "stabilize")
	ts.ok(t, "expect syncs rs/web count>=2")
	e := ts.fails(t, "expect syncs rs/web count=99")
	assert.Regexp(t, `^expect syncs rs/web count=99: \d+ syncs of default/web ended \(the last by rs-worker-\d, at t=[\d.]+s: `, e.Msg)
	ts.ok(t, "expect syncs rc/web count=0")

	ts.ok(t, "fail update rs/status --count=2 --error=conflict")
	ts.ok(t, "scale rs/web --replicas=4")
	before := ts.World().RS.Syncs()
	ts.ok(t, "until sync rs/web")
	assert.Equal(t, before+1, ts.World().RS.Syncs(), "a failed sync ended, and counts")

	for line, msg := range map[string]string{
		"expect syncs rs/web":                 "expect syncs needs count=N",
		"expect syncs rs/web count=1 count=2": "count",
		"expect syncs rs/web cnt=1":           `unknown check "cnt"`,
	} {
		_, err := ParseLine(line)
		if assert.Error(t, err, line) {
			assert.Contains(t, err.Error(), msg, line)
		}
	}
}
