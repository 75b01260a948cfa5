package export

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/lesson"
	"github.com/reconcilelab/rlab/core/script"
	"github.com/reconcilelab/rlab/lessons"
)

// parse parses script lines, failing the test on a parse error.
func parse(t *testing.T, lines ...string) []script.Command {
	t.Helper()
	s, err := script.Parse(strings.Join(lines, "\n")+"\n", "test.txt")
	require.NoError(t, err)
	return s.Commands
}

// lessonByID returns a built-in lesson.
func lessonByID(t *testing.T, id string) *lesson.Lesson {
	t.Helper()
	all, err := lesson.ParseFS(lessons.FS())
	require.NoError(t, err)
	for _, l := range all {
		if strings.HasPrefix(l.ID, id) {
			return l
		}
	}
	t.Fatalf("no lesson %s", id)
	return nil
}

func exportLesson(t *testing.T, l *lesson.Lesson) *Result {
	t.Helper()
	res, err := Run(l.Setup.Script.Commands, l.Solution.Script.Commands, "lessons/"+l.ID+".txtar")
	require.NoError(t, err)
	return res
}

func TestLessonFiveExportsItsReplicaSetAndTheLearnersCommands(t *testing.T) {
	res := exportLesson(t, lessonByID(t, "05"))

	require.Len(t, res.World, 1, "the setup creates one ReplicaSet; its pods are the controller's")
	world := res.World[0]
	assert.Contains(t, world, "kind: ReplicaSet\n")
	assert.Contains(t, world, "  replicas: 3\n")
	assert.NotContains(t, world, "status", "a manifest to apply carries no status")
	assert.NotContains(t, world, "creationTimestamp")
	assert.NotContains(t, world, "namespace:", "kubectl apply -n places it")

	assert.Equal(t, []string{
		"targets=$(pick pods app=web oldest 1)",
		`kubectl -n "$NAMESPACE" label $targets app=debug --overwrite`,
		"# stabilize: wait for the world to come to rest.",
		`kubectl -n "$NAMESPACE" wait '--for=jsonpath={.status.availableReplicas}=3' rs/web --timeout=5m`,
		"wait_pods 4 4",
		`kubectl -n "$NAMESPACE" delete rs/web --cascade=background --wait=false`,
		"# stabilize: wait for the world to come to rest.",
		"wait_pods 1 1",
		`kubectl -n "$NAMESPACE" wait --for=delete rs/web --timeout=5m`,
	}, res.Learner)
}

func TestAPickIsDoneOnTheClusterByCreationTime(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"kill pods -l app=web --pick=oldest", "targets=$(pick pods app=web oldest 1)"},
		{"kill pods -l app=web --pick=newest --count=2", "targets=$(pick pods app=web newest 2)"},
		{"kill pods -l app=web --pick=1", "targets=$(pick pods app=web 1 1)"},
		{"kill pods -l app=web --count=2", "targets=$(pick pods app=web oldest 2)"},
		{"kill pods -l \"app in (web)\" --pick=oldest", "targets=$(pick pods 'app in (web)' oldest 1)"},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			res, err := Run(parse(t, "create rs web --replicas=3 --selector=app=web", "stabilize"), parse(t, tc.cmd), "test.txt")
			require.NoError(t, err)
			assert.Equal(t, []string{tc.want, `kubectl -n "$NAMESPACE" delete $targets --grace-period=0 --force --wait=false`}, res.Learner)
			assert.Contains(t, res.Script(), "\npick() {\n", "the script defines the pick it uses")
		})
	}
}

func TestKubectlVerbsBecomeKubectl(t *testing.T) {
	res, err := Run(parse(t, "create deploy web --replicas=2 --selector=app=web", "create rs db --replicas=1 --selector=app=db", "stabilize"),
		parse(t,
			"scale rs/db --replicas=2",
			`annotate deploy/web note="a b"`,
			"label rs/db tier- ",
			"set image deploy/web app=nginx:2.0",
			"rollout pause deploy/web",
			"rollout resume deploy/web",
			"rollout undo deploy/web --to-revision=1",
			"delete pods -l app=db --grace-period=5",
			"delete rs db --cascade=orphan",
			"advance 1500ms"), "test.txt")
	require.NoError(t, err)
	assert.Equal(t, []string{
		`kubectl -n "$NAMESPACE" scale rs/db --replicas=2`,
		`kubectl -n "$NAMESPACE" annotate deploy/web 'note=a b'`,
		`kubectl -n "$NAMESPACE" label rs/db tier-`,
		`kubectl -n "$NAMESPACE" set image deploy/web app=nginx:2.0`,
		`kubectl -n "$NAMESPACE" rollout pause deploy/web`,
		`kubectl -n "$NAMESPACE" rollout resume deploy/web`,
		`kubectl -n "$NAMESPACE" rollout undo deploy/web --to-revision=1`,
		`kubectl -n "$NAMESPACE" delete pods -l app=db --grace-period=5 --wait=false`,
		`kubectl -n "$NAMESPACE" delete rs/db --cascade=orphan --wait=false`,
		"sleep 1.5",
	}, res.Learner)
	assert.Equal(t, []string{"nginx:1.0", "nginx:2.0"}, res.Images)
	assert.Contains(t, res.Script(), "kind load docker-image nginx:1.0", "the script says how to give a cluster the simulator's images")
}

func TestSimulatorOnlyCommandsBecomeCommentsThatSayWhatToDo(t *testing.T) {
	res, err := Run(nil, parse(t,
		"seed 3",
		"config kubelet-start=3s",
		"create rs web --replicas=2 --selector=app=web",
		"fail create pods --count=1 --error=quota",
		"drop watch pods --count=1",
		"step 3",
		"until sync rs/web",
		"heal",
		"stabilize",
		"crash pods -l app=web --pick=oldest",
		"evict pods -l app=web --pick=newest",
		"set ready pods -l app=web false",
		"cordon node/node-1",
		"queue",
		"expect pods -l app=web count>=2",
		"expect queue replicaset len=0",
		"get pods -l app=web"), "test.txt")
	require.NoError(t, err)
	for _, l := range res.Learner {
		if strings.HasPrefix(l, "kubectl") || strings.HasPrefix(l, "targets=") || strings.HasPrefix(l, "wait_pods") ||
			l == "EOF" || !strings.HasPrefix(l, "#") && strings.Contains(strings.Join(res.Learner, "\n"), "<<'EOF'") {
			continue // the create, its manifest, and the stabilize's waits
		}
		assert.True(t, strings.HasPrefix(l, "# "), "%q: a simulator-only command is a comment", l)
	}
	text := strings.Join(res.Learner, "\n")
	assert.Contains(t, text, "# fail create pods --count=1 --error=quota: ")
	assert.Contains(t, text, "kubectl create quota", "a fault says how to cause it by hand")
	assert.Contains(t, text, "kubectl exec POD -- kill 1", "a crash says how to cause it by hand")
	assert.Contains(t, text, "kubectl cordon NODE")
	assert.Contains(t, text, "#   "+`kubectl -n "$NAMESPACE" get pods -l app=web`, "an expect says how to look")
	assert.NotContains(t, text, "\nkubectl -n \"$NAMESPACE\" delete $targets", "crash and evict are not deletes")
}

// Under a fault of the simulator's, the simulated world may rest with
// other pods than a cluster, which has no such fault: lesson 11's two lost
// watch events leave a killed pod unreplaced until a relist. The owners'
// waits still hold; the count of pods is waited for only when it is whole.
func TestStabilizeUnderAFaultWaitsForTheOwnersOnly(t *testing.T) {
	res, err := Run(nil, parse(t,
		"create rs web --replicas=3 --selector=app=web",
		"stabilize",
		"drop watch pods --count=2",
		"kill pods -l app=web --pick=oldest",
		"stabilize",
		"expire watch pods",
		"stabilize"), "test.txt")
	require.NoError(t, err)
	stabilizes := strings.Split(strings.Join(res.Learner, "\n"), "# stabilize: wait for the world to come to rest.\n")
	require.Len(t, stabilizes, 4)
	assert.Equal(t, `kubectl -n "$NAMESPACE" wait '--for=jsonpath={.status.availableReplicas}=3' rs/web --timeout=5m`+"\nwait_pods 3 3",
		strings.TrimSpace(stabilizes[1][:strings.Index(stabilizes[1], "\n#")]), "before the fault, the pods are waited for")
	assert.Equal(t, `kubectl -n "$NAMESPACE" wait '--for=jsonpath={.status.availableReplicas}=3' rs/web --timeout=5m`,
		strings.TrimSpace(stabilizes[2][:strings.Index(stabilizes[2], "\n#")]),
		"the ReplicaSet, whose cache lost the kill, rests whole; the simulated world holds 2 pods where a cluster holds 3: no count")
	assert.Equal(t, `kubectl -n "$NAMESPACE" wait '--for=jsonpath={.status.availableReplicas}=3' rs/web --timeout=5m`+"\nwait_pods 3 3",
		strings.TrimSpace(stabilizes[3]), "after the relist the count is whole again, and waited for")
}

func TestExportIsDeterministic(t *testing.T) {
	l := lessonByID(t, "19")
	assert.Equal(t, exportLesson(t, l).Script(), exportLesson(t, l).Script())
}

func TestCommandsThatCannotBeExportedSayWhy(t *testing.T) {
	_, err := Run(nil, parse(t, "create rs web --replicas=1 --selector=app=web -n other"), "test.txt")
	require.Error(t, err)
	assert.Equal(t, `test.txt:1:1: cannot export "create rs web --replicas=1 --selector=app=web -n other": it uses namespace "other"; an export puts every object in one namespace, $NAMESPACE, which stands for the script's default`, err.Error())

	_, err = Run(nil, parse(t, "scale rs/web --replicas=2"), "test.txt")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the script fails before it can be exported: test.txt:1:1: ")
}

func TestTheSetupsLeadingCreatesAreTheWorld(t *testing.T) {
	res, err := Run(parse(t,
		"create rs a --replicas=1 --selector=app=a",
		"stabilize",
		"create rc b --replicas=1 --selector=app=b",
		"delete rs a",
		"create pod c --labels=app=c --node=node-1 --phase=Running --ready"), nil, "test.txt")
	require.NoError(t, err)
	require.Len(t, res.World, 2, "a stabilize changes nothing; the delete ends the world's manifests")
	assert.Contains(t, res.World[1], "kind: ReplicationController")
	setup := strings.Join(res.Setup, "\n")
	assert.Contains(t, setup, "apply -f - <<'EOF'\n", "a create after the delete is applied in its place")
	assert.Contains(t, setup, "the scheduler picks the node", "a bound pod says why its node is gone")
	assert.NotContains(t, setup, "nodeName")
}

// An owner whose name its controller made (a Deployment's ReplicaSet,
// orphaned) has another name on a cluster: the export never waits for it
// by name.
func TestNamesAControllerMadeAreNeverWaitedFor(t *testing.T) {
	res := exportLesson(t, lessonByID(t, "21"))
	text := strings.Join(res.Learner, "\n")
	assert.NotContains(t, text, "wait '--for=jsonpath={.status.availableReplicas}=3' rs/web-")
	assert.Contains(t, text, "is named by its controller; on a cluster it has a name of its own.")
	assert.Contains(t, text, `kubectl -n "$NAMESPACE" wait --for=delete deploy/web --timeout=5m`)
}
