package script

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

// TestEveryExampleParses is the promise help makes: every example in the
// table parses, as the command it illustrates.
func TestEveryExampleParses(t *testing.T) {
	var script []string
	for _, s := range table {
		require.NotEmpty(t, s.Examples, "%s has no example", s.Name)
		for _, e := range s.Examples {
			c, err := ParseLine(e)
			if !assert.NoError(t, err, "example of %s", s.Name) {
				continue
			}
			assert.Equal(t, s.Name, c.Src().Name, "example %q", e)
			assert.Equal(t, e, c.Src().Text)
			if s.Name == "seed" {
				script = append([]string{e}, script...)
			} else {
				script = append(script, e)
			}
		}
	}
	s, err := Parse(strings.Join(script, "\n"), "examples")
	require.NoError(t, err, "the examples, seed first, make one script")
	assert.Len(t, s.Commands, len(script))
}

// TestEveryCommandTypeHasAnExample makes sure no command type is left without
// an example that produces it.
func TestEveryCommandTypeHasAnExample(t *testing.T) {
	seen := map[reflect.Type]bool{}
	for _, s := range table {
		for _, e := range s.Examples {
			if c, err := ParseLine(e); err == nil {
				seen[reflect.TypeOf(c)] = true
			}
		}
	}
	for _, c := range []Command{&CreateNode{}, &CreateRS{}, &CreateRC{}, &CreatePod{}, &Scale{}, &Label{}, &Delete{}, &Cordon{},
		&PodAction{}, &SetReady{}, &Fail{}, &WatchFault{}, &SlowKubelet{}, &Heal{}, &Seed{}, &Config{}, &Step{}, &Advance{},
		&UntilSync{}, &Stabilize{}, &ExpectPods{}, &ExpectObject{}, &ExpectCondition{}, &ExpectQueue{}, &ExpectExpectations{},
		&ExpectEvents{}, &ExpectRequests{}, &Get{}, &Describe{}, &Show{}, &Help{},
		&CreateDeploy{}, &SetImage{}, &RolloutStatus{}, &RolloutHistory{}, &RolloutUndo{}, &RolloutPause{}, &RolloutRestart{},
		&ExpectOwners{}} {
		assert.True(t, seen[reflect.TypeOf(c)], "no example parses to %T", c)
	}
}

func TestTableIsWellFormed(t *testing.T) {
	names := map[string]bool{}
	groups := map[Group]bool{}
	for _, s := range table {
		assert.False(t, names[s.Name], "%s twice", s.Name)
		names[s.Name] = true
		groups[s.Group] = true
		assert.Equal(t, s.Name, strings.Join(s.words, " "), "a command's name is its words")
		assert.True(t, strings.HasPrefix(s.Usage, s.words[0]), "%s: usage %q", s.Name, s.Usage)
		assert.Contains(t, Groups, s.Group, s.Name)
		assert.NotEmpty(t, s.Summary, s.Name)
		assert.NotNil(t, s.parse, s.Name)
		assert.Equal(t, strings.ToLower(s.Summary[:1]), s.Summary[:1], "%s: summaries start in lower case", s.Name)

		long, short := map[string]bool{}, map[string]bool{}
		for _, f := range s.Flags {
			assert.False(t, long[f.Name], "%s: --%s twice", s.Name, f.Name)
			long[f.Name] = true
			if f.Short != "" {
				assert.Len(t, f.Short, 1)
				assert.False(t, short[f.Short], "%s: -%s twice", s.Name, f.Short)
				short[f.Short] = true
			}
			assert.NotEmpty(t, f.Help, "%s --%s", s.Name, f.Name)
			assert.Equal(t, f.Type == TypeBool, f.Placeholder == "", "%s --%s: value flags have a placeholder", s.Name, f.Name)
			if f.Type == TypeEnum || f.Type == TypePick {
				assert.NotEmpty(t, f.Values, "%s --%s", s.Name, f.Name)
			}
			if f.Type == TypeEnum && f.Default != "" {
				assert.Contains(t, f.Values, f.Default, "%s --%s", s.Name, f.Name)
			}
			assert.Contains(t, []ValueType{TypeInt, TypeDuration, TypeBool, TypeString, TypeName, TypeSelector, TypeLabels,
				TypeEnum, TypePick, TypeIntOrPercent}, f.Type)
		}
		for _, a := range s.Args {
			assert.NotEmpty(t, a.Help, "%s %s", s.Name, a.Name)
			if a.complete == completeValues {
				assert.NotEmpty(t, a.Values, "%s %s", s.Name, a.Name)
			}
		}
	}
	for _, g := range Groups {
		assert.True(t, groups[g], "group %s has no command", g)
	}
}

// TestRequiredSet lists the commands SCENARIO.md requires, each as a line that
// must parse to the named command.
func TestRequiredSet(t *testing.T) {
	for _, tc := range []struct{ line, name string }{
		{"create node n1 --labels=a=b", "create node"},
		{"create rs web --replicas=3 --selector=app=web --template-labels=app=web --min-ready-seconds=1", "create rs"},
		{"create rc web --replicas=3 --selector=app=web", "create rc"},
		{"create pod p --labels=app=web --node=node-1 --phase=Running --ready", "create pod"},
		{"scale rs/web --replicas=3", "scale"},
		{"scale rc/web --replicas=3", "scale"},
		{"label pod/p k=v k2- --overwrite", "label"},
		{"label pods -l app=web --pick=oldest --count=2 k=v --overwrite", "label"},
		{"annotate pod/p controller.kubernetes.io/pod-deletion-cost=5", "annotate"},
		{"annotate pods -l app=web --pick=newest k=v", "annotate"},
		{"delete pod/p --grace-period=3", "delete"},
		{"delete pods -l app=web --pick=random --count=2 --grace-period=0", "delete"},
		{"delete rs/web --cascade=background", "delete"},
		{"delete rc/web --cascade=orphan", "delete"},
		{"cordon node/node-1", "cordon"},
		{"uncordon node/node-1", "uncordon"},
		{"kill pods -l app=web --pick=1 --count=1", "kill"},
		{"crash pods -l app=web --pick=oldest", "crash"},
		{"evict pods -l app=web --count=3", "evict"},
		{"set ready pods -l app=web --pick=newest true", "set ready"},
		{"fail create pods --count=2 --after=1 --error=quota", "fail"},
		{"fail create pods --count=1 --error=server", "fail"},
		{"fail create pods --count=1 --error=conflict", "fail"},
		{"fail create pods --count=1 --error=namespace-terminating", "fail"},
		{"fail create pods --always --after=3", "fail"},
		{"fail delete pods --count=1", "fail"},
		{"fail delete pods --always", "fail"},
		{"fail update rs/status --count=1", "fail"},
		{"fail update rc/status --count=1", "fail"},
		{"fail patch pods --count=1", "fail"},
		{"drop watch pods --count=2", "drop watch"},
		{"drop watch rs --count=2", "drop watch"},
		{"drop watch rc --count=2", "drop watch"},
		{"break watch pods", "break watch"},
		{"break watch rs", "break watch"},
		{"break watch rc", "break watch"},
		{"expire watch pods", "expire watch"},
		{"expire watch rs", "expire watch"},
		{"expire watch rc", "expire watch"},
		{"delay watch pods 1s", "delay watch"},
		{"delay watch rs 1s", "delay watch"},
		{"delay watch rc 1s", "delay watch"},
		{"slow kubelet 10s", "slow kubelet"},
		{"heal", "heal"},
		{"heal all", "heal"},
		{"heal create pods", "heal"},
		{"heal watch pods", "heal"},
		{"seed 7", "seed"},
		{"config workers=5 burst-replicas=500 kubelet-start=2s kubelet-stop=1s resync=0 api-latency=1ms watch-latency=1ms", "config"},
		{"step", "step"},
		{"step 5", "step"},
		{"advance 2m", "advance"},
		{"until sync rs/web", "until sync"},
		{"until sync rc/web", "until sync"},
		{"stabilize --max-steps=100000 --max-time=10m", "stabilize"},
		{"expect pods -l app=web count=3 phase=Running ready=true owner=rs/web terminating=false", "expect pods"},
		{"expect pods -l app=web count=1 owner=none", "expect pods"},
		{"expect rs/web status.replicas=3", "expect"},
		{"expect condition rs/web ReplicaFailure=True reason=FailedCreate", "expect condition"},
		{"expect condition rs/web ReplicaFailure=absent", "expect condition"},
		{"expect condition rc/web ReplicaFailure=Unknown", "expect condition"},
		{"expect queue replicaset len=1", "expect queue"},
		{"expect queue replicaset contains default/web", "expect queue"},
		{"expect expectations rs/web add=1 del=0 satisfied=false", "expect expectations"},
		{"expect events reason=FailedCreate object=rs/web count=1", "expect events"},
		{"expect events total=12", "expect events"},
		{"expect requests verb=create resource=pods count=3", "expect requests"},
		{"expect requests resource=pods/binding count=3", "expect requests"},
		{"expect requests resource=rs/status count=3", "expect requests"},
		{"expect cache pods -l app=web count=3", "expect cache"},
		{"get pods", "get"},
		{"get rs web -l app=web", ""},
		{"get rs/web -o wide", "get"},
		{"get pods -l app=web -o json", "get"},
		{"get rc -o yaml", "get"},
		{"describe rs/web", "describe"},
		{"queue", "queue"},
		{"cache", "cache"},
		{"expectations", "expectations"},
		{"agenda", "agenda"},
		{"requests", "requests"},
		{"trace", "trace"},
		{"trace 20", "trace"},
		{"help", "help"},
		{"help scale", "help"},

		// The Deployments section.
		{"create deploy web --replicas=4 --selector=app=web --image=nginx:1.0 --template-labels=app=web,tier=a " +
			"--strategy=RollingUpdate --max-surge=1 --max-unavailable=25% --min-ready-seconds=2 " +
			"--revision-history-limit=3 --progress-deadline-seconds=60 --paused", "create deploy"},
		{"create deploy web --replicas=1 --selector=app=web --strategy=Recreate", "create deploy"},
		{"scale deploy/web --replicas=3", "scale"},
		{"set image deploy/web app=nginx:2.0", "set image"},
		{"rollout status deploy/web", "rollout status"},
		{"rollout history deploy/web", "rollout history"},
		{"rollout history deploy/web --revision=2", "rollout history"},
		{"rollout undo deploy/web", "rollout undo"},
		{"rollout undo deploy/web --to-revision=1", "rollout undo"},
		{"rollout pause deploy/web", "rollout pause"},
		{"rollout resume deploy/web", "rollout resume"},
		{"rollout restart deploy/web", "rollout restart"},
		{"delete deploy/web --cascade=background", "delete"},
		{"delete deploy/web --cascade=orphan", "delete"},
		{"expect rs -l app=web count=2 owner=deploy/web revision=1 replicas=0 ready=0 available=0", "expect rs"},
		{"expect rs -l app=web count=1 owner=none", "expect rs"},
		{"expect pods -l app=web count=4 image=nginx:2.0", "expect pods"},
		{"expect deploy/web status.updatedReplicas=3 spec.paused=true", "expect"},
		{"expect condition deploy/web Progressing=True reason=NewReplicaSetAvailable", "expect condition"},
		{"get rs", "get"},
		{"get deploy -o yaml", "get"},
		{"describe deploy/web", "describe"},
	} {
		c, err := ParseLine(tc.line)
		if tc.name == "" {
			assert.Error(t, err, tc.line)
			continue
		}
		if assert.NoError(t, err, tc.line) {
			assert.Equal(t, tc.name, c.Src().Name, tc.line)
		}
	}
	for _, cmp := range []string{"=", "!=", "<", "<=", ">", ">="} {
		_, err := ParseLine("expect rs/web status.replicas" + cmp + "3")
		assert.NoError(t, err, cmp)
		_, err = ParseLine("expect pods count" + cmp + "3")
		assert.NoError(t, err, cmp)
	}
}

func TestKubectlKindNames(t *testing.T) {
	for word, kind := range map[string]api.Kind{
		"pods": api.KindPod, "pod": api.KindPod, "po": api.KindPod, "Pod": api.KindPod,
		"replicaset": api.KindReplicaSet, "replicasets": api.KindReplicaSet, "rs": api.KindReplicaSet, "ReplicaSet": api.KindReplicaSet,
		"replicationcontroller": api.KindReplicationController, "replicationcontrollers": api.KindReplicationController,
		"rc":   api.KindReplicationController,
		"node": api.KindNode, "nodes": api.KindNode, "no": api.KindNode,
		"event": api.KindEvent, "events": api.KindEvent, "ev": api.KindEvent,
		"deploy": api.KindDeployment, "deployment": api.KindDeployment, "deployments": api.KindDeployment,
	} {
		k, ok := kindOf(word)
		assert.True(t, ok, word)
		assert.Equal(t, kind, k, word)
		c := parseOK(t, "get "+word)
		assert.Equal(t, kind, c.(*Get).Kind, word)
	}
	_, ok := kindOf("statefulset")
	assert.False(t, ok)
}

func TestKindTableCoversAPIKinds(t *testing.T) {
	kinds := Kinds()
	require.Len(t, kinds, len(api.Kinds))
	seen := map[string]bool{}
	for i, k := range kinds {
		assert.Equal(t, api.Kinds[i], k.Kind)
		assert.Equal(t, api.ShortName(k.Kind), k.Short)
		assert.Equal(t, k.Short, k.Names[0])
		assert.Contains(t, k.Names, k.Kind.Resource(), "the API's resource name is a name")
		for _, n := range k.Names {
			assert.False(t, seen[n], "%s names two kinds", n)
			seen[n] = true
		}
	}
	kinds[0].Names[0] = "changed"
	assert.Equal(t, "pod", Kinds()[0].Names[0], "Kinds returns a copy")
}

func TestCommandsIsJSONAndACopy(t *testing.T) {
	docs := Commands()
	require.Len(t, docs, len(table))
	b, err := json.Marshal(docs)
	require.NoError(t, err)
	var back []CommandDoc
	require.NoError(t, json.Unmarshal(b, &back))
	for i := range docs {
		assert.Equal(t, docs[i].Name, back[i].Name)
		assert.Equal(t, docs[i].Usage, back[i].Usage)
		assert.Len(t, back[i].Flags, len(docs[i].Flags))
	}
	assert.Contains(t, string(b), `"name":"replicas","type":"int","placeholder":"N","required":true`)

	docs[0].Examples[0] = "changed"
	docs[1].Flags[0].Name = "changed"
	assert.NotEqual(t, "changed", Commands()[0].Examples[0])
	assert.NotEqual(t, "changed", Commands()[1].Flags[0].Name)

	var rs CommandDoc
	for _, d := range Commands() {
		if d.Name == "create rs" {
			rs = d
		}
	}
	assert.Equal(t, []string{"create replicaset", "create replicasets"}, rs.Aliases)

	for _, v := range []any{Kinds(), Fields(), ConfigKeys()} {
		_, err := json.Marshal(v)
		assert.NoError(t, err)
	}
}

// TestFieldTable checks every field of every kind: its path parses in an
// expect line, and it reads an object of the kind, empty or not, as a value of
// its type.
func TestFieldTable(t *testing.T) {
	objects := map[api.Kind]api.Object{
		api.KindPod: &api.Pod{}, api.KindReplicaSet: &api.ReplicaSet{},
		api.KindReplicationController: &api.ReplicationController{}, api.KindNode: &api.Node{},
		api.KindDeployment: &api.Deployment{},
	}
	for _, f := range fieldTable {
		require.NotEmpty(t, f.kinds, f.path)
		for _, k := range f.kinds {
			path := f.path
			if f.mapKey {
				path += "example.com/key"
			}
			value := map[ValueType]string{TypeInt: "0", TypeBool: "false", TypeString: "", TypeOwner: "none"}[f.typ]
			if f.typ == TypeEnum {
				value = f.values[0]
			}
			line := "expect " + shortName(k) + "/x " + path + "=" + value
			c, err := ParseLine(line)
			require.NoError(t, err, line)
			fc := c.(*ExpectObject).Checks[0]
			assert.Equal(t, f.typ, fc.Type(), line)
			v := fc.Actual(objects[k])
			assert.Equal(t, f.typ, v.Type, line)
			if f.typ != TypeEnum {
				assert.True(t, fc.Holds(v), "%s: an empty object has the zero value (%s)", line, v)
			}
		}
	}
	// A path may mean different things for different kinds (ready is a
	// pod's Ready condition and a ReplicaSet's ready pods), but one thing
	// for each kind.
	paths := map[string]bool{}
	for _, d := range Fields() {
		for _, k := range d.Kinds {
			assert.False(t, paths[k+" "+d.Path], "%s twice for %s", d.Path, k)
			paths[k+" "+d.Path] = true
		}
	}
}

func TestFieldsHoldForReplicationControllers(t *testing.T) {
	replicas := int32(2)
	rc := &api.ReplicationController{Spec: api.ReplicationControllerSpec{Replicas: &replicas, MinReadySeconds: 4,
		Template: &api.PodTemplateSpec{Metadata: api.ObjectMeta{Labels: map[string]string{"app": "db"}}}},
		Status: api.ReplicationControllerStatus{Replicas: 2, FullyLabeledReplicas: 1, AvailableReplicas: 1, ObservedGeneration: 3}}
	c := parseOK(t, "expect rc/db spec.replicas=2 spec.minReadySeconds=4 spec.template.metadata.labels.app=db "+
		"status.replicas=2 status.fullyLabeledReplicas=1 status.readyReplicas=0 status.availableReplicas=1 status.observedGeneration=3").(*ExpectObject)
	for _, fc := range c.Checks {
		assert.True(t, fc.Holds(fc.Actual(rc)), "%s (actual %s)", fc, fc.Actual(rc))
	}
}

func TestConfigTableDefaultsParse(t *testing.T) {
	var kv []string
	for _, k := range ConfigKeys() {
		kv = append(kv, k.Key+"="+k.Default)
	}
	c := parseOK(t, "config "+strings.Join(kv, " ")).(*Config)
	require.Len(t, c.Settings, len(configTable))
	assert.Equal(t, 5, c.Settings[0].Int)
	assert.Equal(t, "2s", c.Settings[2].Duration.String())
}

func TestFaultTargetsAreServed(t *testing.T) {
	for _, ft := range faultTargets {
		line := "fail " + ft.String() + " --count=1"
		c := parseOK(t, line).(*Fail)
		assert.Equal(t, ft.verb, c.Verb, line)
		assert.Contains(t, []string{"pods", "replicasets/status", "replicationcontrollers/status"}, c.Resource, line)
	}
}
