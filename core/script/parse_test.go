package script

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sim"
)

// src is the Source of a console line: line 1, column 1.
func src(name, text string) Source {
	return Source{Pos: Pos{Line: 1, Col: 1}, Text: text, Name: name}
}

func sel(t *testing.T, s string) labels.Selector {
	t.Helper()
	out, err := labels.Parse(s)
	require.NoError(t, err)
	return out
}

func parseOK(t *testing.T, line string) Command {
	t.Helper()
	c, err := ParseLine(line)
	require.NoError(t, err, line)
	require.NotNil(t, c, line)
	return c
}

func ptr[T any](v T) *T { return &v }

// check builds the FieldCheck parsing the text gives, for comparison.
func check(t *testing.T, kind api.Kind, text string, col int) FieldCheck {
	t.Helper()
	key, op, val, ok := splitCond(Token{Text: text, Line: 1, Col: col})
	require.True(t, ok)
	c := &cmdParser{src: src("", "")}
	fc, perr := c.fieldCheck(kind, cond{Token{Text: text, Line: 1, Col: col}, key, op, val})
	require.Nil(t, perr)
	return fc
}

func TestParseWorldCommands(t *testing.T) {
	web := sel(t, "app=web")
	for _, tc := range []struct {
		line string
		want Command
	}{
		{"create node node-4 --labels=disk=ssd", &CreateNode{Source: src("create node", "create node node-4 --labels=disk=ssd"),
			Name: "node-4", Labels: map[string]string{"disk": "ssd"}}},
		{"create replicasets web --replicas 3 -l app=web -n team-a", &CreateRS{
			Source:    src("create rs", "create replicasets web --replicas 3 -l app=web -n team-a"),
			Namespace: "team-a", Name: "web", Replicas: 3, Selector: web, SelectorText: "app=web",
			TemplateLabels: map[string]string{"app": "web"}}},
		{`create rs web --replicas=0 --selector="app=web,!canary" --template-labels=app=web,v=1 --min-ready-seconds=5`, &CreateRS{
			Source:    src("create rs", `create rs web --replicas=0 --selector="app=web,!canary" --template-labels=app=web,v=1 --min-ready-seconds=5`),
			Namespace: "default", Name: "web", Replicas: 0, Selector: sel(t, "app=web,!canary"), SelectorText: "app=web,!canary",
			TemplateLabels: map[string]string{"app": "web", "v": "1"}, MinReadySeconds: 5}},
		{"create rc legacy --replicas=2 --selector=app=legacy,tier==db", &CreateRC{
			Source:    src("create rc", "create rc legacy --replicas=2 --selector=app=legacy,tier==db"),
			Namespace: "default", Name: "legacy", Replicas: 2,
			Selector:       map[string]string{"app": "legacy", "tier": "db"},
			TemplateLabels: map[string]string{"app": "legacy", "tier": "db"}}},
		{"create po p1 --labels=app=web --node=node-1 --phase=Running --ready", &CreatePod{
			Source:    src("create pod", "create po p1 --labels=app=web --node=node-1 --phase=Running --ready"),
			Namespace: "default", Name: "p1", Labels: map[string]string{"app": "web"}, Node: "node-1", Phase: "Running", Ready: true}},
		{"create pod bare --ready=false", &CreatePod{Source: src("create pod", "create pod bare --ready=false"),
			Namespace: "default", Name: "bare"}},
		{"scale rc legacy --replicas=7", &Scale{Source: src("scale", "scale rc legacy --replicas=7"),
			Object: Ref{api.KindReplicationController, "default", "legacy"}, Replicas: 7}},
		{"scale ReplicaSet/web --replicas=1 --namespace=x", &Scale{Source: src("scale", "scale ReplicaSet/web --replicas=1 --namespace=x"),
			Object: Ref{api.KindReplicaSet, "x", "web"}, Replicas: 1}},
		{"label pod stray tier=front app- --overwrite", &Label{Source: src("label", "label pod stray tier=front app- --overwrite"),
			Target: Target{Kind: api.KindPod, Namespace: "default", Name: "stray"},
			Set:    []KeyValue{{"tier", "front"}}, Remove: []string{"app"}, Overwrite: true}},
		{"label pods -l app=web --pick=3 app=db", &Label{Source: src("label", "label pods -l app=web --pick=3 app=db"),
			Target: Target{Kind: api.KindPod, Namespace: "default", Selector: web, SelectorText: "app=web",
				Pick: Pick{Order: PickIndex, Index: 3, Count: 1}},
			Set: []KeyValue{{"app", "db"}}}},
		{"label node/node-1 disk=ssd empty=", &Label{Source: src("label", "label node/node-1 disk=ssd empty="),
			Target: Target{Kind: api.KindNode, Name: "node-1"}, Set: []KeyValue{{"disk", "ssd"}, {"empty", ""}}}},
		{`annotate pods --all --count=2 note="two words"`, &Label{Source: src("annotate", `annotate pods --all --count=2 note="two words"`),
			Annotate: true,
			Target: Target{Kind: api.KindPod, Namespace: "default", Selector: labels.Everything(),
				Pick: Pick{Order: PickOldest, Count: 2}},
			Set: []KeyValue{{"note", "two words"}}}},
		{"delete pods -l app=web --pick=newest --count=2 --grace-period=5", &Delete{
			Source: src("delete", "delete pods -l app=web --pick=newest --count=2 --grace-period=5"),
			Target: Target{Kind: api.KindPod, Namespace: "default", Selector: web, SelectorText: "app=web",
				Pick: Pick{Order: PickNewest, Count: 2}},
			GracePeriod: ptr(int64(5)), Cascade: CascadeBackground}},
		{"delete pod/x --grace-period=-1", &Delete{Source: src("delete", "delete pod/x --grace-period=-1"),
			Target: Target{Kind: api.KindPod, Namespace: "default", Name: "x"}, Cascade: CascadeBackground}},
		{"delete rs web --cascade=false", &Delete{Source: src("delete", "delete rs web --cascade=false"),
			Target: Target{Kind: api.KindReplicaSet, Namespace: "default", Name: "web"}, Cascade: CascadeOrphan}},
		{"delete rc/legacy --cascade=true", &Delete{Source: src("delete", "delete rc/legacy --cascade=true"),
			Target: Target{Kind: api.KindReplicationController, Namespace: "default", Name: "legacy"}, Cascade: CascadeBackground}},
		{"delete rs/web --cascade=foreground", &Delete{Source: src("delete", "delete rs/web --cascade=foreground"),
			Target: Target{Kind: api.KindReplicaSet, Namespace: "default", Name: "web"}, Cascade: CascadeForeground}},
		{"cordon node node-1", &Cordon{Source: src("cordon", "cordon node node-1"), Node: "node-1", Unschedulable: true}},
		{"cordon node", &Cordon{Source: src("cordon", "cordon node"), Node: "node", Unschedulable: true}},
		{"uncordon no/node-2", &Cordon{Source: src("uncordon", "uncordon no/node-2"), Node: "node-2"}},
	} {
		assert.Equal(t, tc.want, parseOK(t, tc.line), tc.line)
	}
}

func TestParsePodAndFaultCommands(t *testing.T) {
	web := sel(t, "app=web")
	pods := Target{Kind: api.KindPod, Namespace: "default", Selector: web, SelectorText: "app=web"}
	for _, tc := range []struct {
		line string
		want Command
	}{
		{"kill pods -l app=web", &PodAction{Source: src("kill", "kill pods -l app=web"), Action: "kill", Target: pods}},
		{"crash pod web-1", &PodAction{Source: src("crash", "crash pod web-1"), Action: "crash",
			Target: Target{Kind: api.KindPod, Namespace: "default", Name: "web-1"}}},
		{"evict po -lapp=web --pick=random", &PodAction{Source: src("evict", "evict po -lapp=web --pick=random"), Action: "evict",
			Target: Target{Kind: api.KindPod, Namespace: "default", Selector: web, SelectorText: "app=web", Pick: Pick{Order: PickRandom, Count: 1}}}},
		{"set ready pods -l=app=web false", &SetReady{Source: src("set ready", "set ready pods -l=app=web false"), Target: pods}},
		{"set ready pod web-1 true", &SetReady{Source: src("set ready", "set ready pod web-1 true"),
			Target: Target{Kind: api.KindPod, Namespace: "default", Name: "web-1"}, Ready: true}},
		{"fail create pods --count=2 --after=1 --error=namespace-terminating", &Fail{
			Source: src("fail", "fail create pods --count=2 --after=1 --error=namespace-terminating"),
			Verb:   apistore.VerbCreate, Kind: api.KindPod, Resource: "pods", Count: 2, After: 1,
			Error: apistore.FaultNamespaceTerminating}},
		{"fail update rc/status --always", &Fail{Source: src("fail", "fail update rc/status --always"),
			Verb: apistore.VerbUpdate, Kind: api.KindReplicationController, Subresource: "status",
			Resource: "replicationcontrollers/status", Always: true, Error: apistore.FaultServer}},
		{"drop watch replicationcontrollers --count 4", &WatchFault{Source: src("drop watch", "drop watch replicationcontrollers --count 4"),
			Action: WatchDrop, Kind: api.KindReplicationController, Count: 4}},
		{"break watch rs", &WatchFault{Source: src("break watch", "break watch rs"), Action: WatchBreak, Kind: api.KindReplicaSet}},
		{"expire watch pods", &WatchFault{Source: src("expire watch", "expire watch pods"), Action: WatchExpire, Kind: api.KindPod}},
		{"delay watch pods 1m30s", &WatchFault{Source: src("delay watch", "delay watch pods 1m30s"), Action: WatchDelay, Kind: api.KindPod,
			Delay: 90 * time.Second}},
		{"slow kubelet 0s", &SlowKubelet{Source: src("slow kubelet", "slow kubelet 0s")}},
		{"heal", &Heal{Source: src("heal", "heal"), Scope: HealAll}},
		{"heal create", &Heal{Source: src("heal", "heal create"), Scope: HealRequests, Verb: apistore.VerbCreate}},
		{"heal patch pods", &Heal{Source: src("heal", "heal patch pods"), Scope: HealRequests, Verb: apistore.VerbPatch,
			Kind: api.KindPod, Resource: "pods"}},
		{"heal watch", &Heal{Source: src("heal", "heal watch"), Scope: HealWatch}},
		{"heal watch rc", &Heal{Source: src("heal", "heal watch rc"), Scope: HealWatch, Kind: api.KindReplicationController}},
		{"heal kubelet", &Heal{Source: src("heal", "heal kubelet"), Scope: HealKubelet}},
	} {
		assert.Equal(t, tc.want, parseOK(t, tc.line), tc.line)
	}
}

func TestParseTimeCommands(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Command
	}{
		{"seed 18446744073709551615", &Seed{Source: src("seed", "seed 18446744073709551615"), Value: 1<<64 - 1}},
		{"config workers=2 resync=30s", &Config{Source: src("config", "config workers=2 resync=30s"), Settings: []Setting{
			{Key: ConfigWorkers, Int: 2, Pos: Pos{Line: 1, Col: 8}},
			{Key: ConfigResync, Duration: 30 * time.Second, Pos: Pos{Line: 1, Col: 18}}}}},
		{"step", &Step{Source: src("step", "step"), N: 1}},
		{"step 25", &Step{Source: src("step", "step 25"), N: 25}},
		{"advance 0s", &Advance{Source: src("advance", "advance 0s")}},
		{"advance 250ms", &Advance{Source: src("advance", "advance 250ms"), D: 250 * time.Millisecond}},
		{"until sync rs/web -n team-a --max-steps=10", &UntilSync{Source: src("until sync", "until sync rs/web -n team-a --max-steps=10"),
			Object: Ref{api.KindReplicaSet, "team-a", "web"}, Limits: sim.Limits{MaxSteps: 10, MaxTime: sim.DefaultMaxTime}}},
		{"stabilize", &Stabilize{Source: src("stabilize", "stabilize"),
			Limits: sim.Limits{MaxSteps: sim.DefaultMaxSteps, MaxTime: sim.DefaultMaxTime}}},
		{"stabilize --max-time 1h", &Stabilize{Source: src("stabilize", "stabilize --max-time 1h"),
			Limits: sim.Limits{MaxSteps: sim.DefaultMaxSteps, MaxTime: time.Hour}}},
	} {
		assert.Equal(t, tc.want, parseOK(t, tc.line), tc.line)
	}
}

func TestParseExpectCommands(t *testing.T) {
	web := sel(t, "app=web")
	for _, tc := range []struct {
		line string
		want Command
	}{
		{"expect pods -l app=web count>=2 phase!=Pending owner=replicaset/web", &ExpectPods{
			Source:    src("expect pods", "expect pods -l app=web count>=2 phase!=Pending owner=replicaset/web"),
			Namespace: "default", Selector: web, SelectorText: "app=web", Count: Compare{OpGe, 2},
			Filters: []FieldCheck{check(t, api.KindPod, "phase!=Pending", 33), check(t, api.KindPod, "owner=replicaset/web", 48)}}},
		{"expect po count=0", &ExpectPods{Source: src("expect pods", "expect po count=0"), Namespace: "default",
			Selector: labels.Everything(), Count: Compare{OpEq, 0}}},
		{"expect cache pods count==1 -n x", &ExpectPods{Source: src("expect cache", "expect cache pods count==1 -n x"), Cache: true,
			Namespace: "x", Selector: labels.Everything(), Count: Compare{OpEq, 1}}},
		{"expect rs web status.replicas<=3 metadata.labels.app=web", &ExpectObject{
			Source: src("expect", "expect rs web status.replicas<=3 metadata.labels.app=web"),
			Object: Ref{api.KindReplicaSet, "default", "web"},
			Checks: []FieldCheck{check(t, api.KindReplicaSet, "status.replicas<=3", 15), check(t, api.KindReplicaSet, "metadata.labels.app=web", 34)}}},
		{"expect cache pod/p ready=false", &ExpectObject{Source: src("expect cache", "expect cache pod/p ready=false"), Cache: true,
			Object: Ref{api.KindPod, "default", "p"}, Checks: []FieldCheck{check(t, api.KindPod, "ready=false", 20)}}},
		{"expect condition pod p Ready!=True reason=ContainersNotReady", &ExpectCondition{
			Source: src("expect condition", "expect condition pod p Ready!=True reason=ContainersNotReady"),
			Object: Ref{api.KindPod, "default", "p"}, Type: "Ready", Status: Match{OpNe, "True"}, Reason: &Match{OpEq, "ContainersNotReady"}}},
		{"expect queue rc len<2", &ExpectQueue{Source: src("expect queue", "expect queue rc len<2"), Queue: "replicationmanager",
			Kind: api.KindReplicationController, Len: &Compare{OpLt, 2}}},
		{"expect queue replicaset contains web -n team-a", &ExpectQueue{Source: src("expect queue", "expect queue replicaset contains web -n team-a"),
			Queue: "replicaset", Kind: api.KindReplicaSet, Contains: "team-a/web"}},
		{"expect expectations rs/web satisfied!=true del>1", &ExpectExpectations{
			Source: src("expect expectations", "expect expectations rs/web satisfied!=true del>1"),
			Object: Ref{api.KindReplicaSet, "default", "web"}, Satisfied: ptr(false), Del: &Compare{OpGt, 1}}},
		{"expect events reason!=SuccessfulCreate type=Normal object=pod/p total>=3 count=1", &ExpectEvents{
			Source:    src("expect events", "expect events reason!=SuccessfulCreate type=Normal object=pod/p total>=3 count=1"),
			Namespace: "default", Reason: &Match{OpNe, "SuccessfulCreate"}, Type: &Match{OpEq, "Normal"},
			Object: &Ref{api.KindPod, "default", "p"}, Count: &Compare{OpEq, 1}, Total: &Compare{OpGe, 3}}},
		{"expect requests verb=create resource=pods/binding count!=0", &ExpectRequests{
			Source: src("expect requests", "expect requests verb=create resource=pods/binding count!=0"),
			Verb:   apistore.VerbCreate, Resource: "pods/binding", Count: Compare{OpNe, 0}}},
	} {
		assert.Equal(t, tc.want, parseOK(t, tc.line), tc.line)
	}
}

func TestParseReadingCommands(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Command
	}{
		{"get po -l tier -o yaml", &Get{Source: src("get", "get po -l tier -o yaml"), Kind: api.KindPod, Namespace: "default",
			Selector: sel(t, "tier"), SelectorText: "tier", Output: "yaml"}},
		{"get no/node-1 -o=wide", &Get{Source: src("get", "get no/node-1 -o=wide"), Kind: api.KindNode, Name: "node-1",
			Selector: labels.Everything(), Output: "wide"}},
		{"get ev", &Get{Source: src("get", "get ev"), Kind: api.KindEvent, Namespace: "default", Selector: labels.Everything()}},
		{"describe node node-1", &Describe{Source: src("describe", "describe node node-1"), Object: Ref{api.KindNode, "", "node-1"}}},
		{"queue rc", &Show{Source: src("queue", "queue rc"), What: "queue", Queue: "replicationmanager"}},
		{"cache replicaset", &Show{Source: src("cache", "cache replicaset"), What: "cache", Kind: api.KindReplicaSet}},
		{"expectations", &Show{Source: src("expectations", "expectations"), What: "expectations"}},
		{"trace 3", &Show{Source: src("trace", "trace 3"), What: "trace", N: 3}},
		{"help", &Help{Source: src("help", "help")}},
		{"help create replicasets", &Help{Source: src("help", "help create replicasets"), Topic: "create rs"}},
		{"help expect", &Help{Source: src("help", "help expect"), Topic: "expect"}},
		{"help expect po", &Help{Source: src("help", "help expect po"), Topic: "expect pods"}},
		{"help selectors", &Help{Source: src("help", "help selectors"), Topic: "selectors"}},
		{"help config", &Help{Source: src("help", "help config"), Topic: "config"}},
	} {
		assert.Equal(t, tc.want, parseOK(t, tc.line), tc.line)
	}
}

func TestFlagSpellings(t *testing.T) {
	want := parseOK(t, "get pods --selector=app=web --output=wide --namespace=x")
	for _, line := range []string{
		"get pods --selector app=web --output wide --namespace x",
		"get pods -l app=web -o wide -n x",
		"get pods -l=app=web -o=wide -n=x",
		"get pods -lapp=web -owide -nx",
		"get pods -o wide -n x -l app=web",
		`get pods -l "app=web" -o "wide" -n "x"`,
		"get\tpods   -l app=web\t-o wide -n x   # with a comment",
	} {
		got := parseOK(t, line)
		g, w := *got.(*Get), *want.(*Get)
		g.Source, w.Source = Source{}, Source{}
		assert.Equal(t, w, g, line)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		// Unknown words, with suggestions.
		{"scael rs/web --replicas=3", `1:1: unknown command "scael"; did you mean "scale"?`},
		{"frobnicate", `1:1: unknown command "frobnicate"; type "help" for the list of commands`},
		{"create rz web", `1:8: unknown kind "rz"; did you mean "rs" or "rc"?`},
		{"get pdos", `1:5: unknown kind "pdos"; did you mean "pod"?`},
		{"create event x", `1:8: create cannot act on events; it takes node, rs, rc, deploy or pod`},
		{"set raedy pods -l a=b true", `1:5: unknown command "set raedy"; did you mean "set ready"?`},
		{"scale rs/web --replica=3", `1:14: unknown flag "--replica" for scale; did you mean "--replicas"?`},
		{"step --fast", `1:6: unknown flag "--fast" for step; step takes no flags`},
		{"get pods -x", `1:10: unknown flag "-x" for get; did you mean "-l", "-o" or "-n"?`},
		{"expect queu replicaset len=0", `1:8: unknown word "queu" after expect; did you mean "queue"?`},
		{"expect rs/web status.ready=3", `1:15: unknown field "status.ready"; did you mean "status.readyReplicas"?`},
		{"expect rs/web metadata.label.app=web", `1:15: unknown field "metadata.label.app"; did you mean "metadata.labels.app"?`},
		{"expect node/n spec.replicas=1", `1:15: unknown field "spec.replicas"; help fields lists the fields of node and the other kinds`},
		{"expect pods count=3 phse=Running", `1:21: unknown filter "phse"; did you mean "phase"?`},
		{"expect condition rs/web ReplicaFailur=True", `1:25: unknown condition type "ReplicaFailur"; did you mean "ReplicaFailure"?`},
		{"expect condition rs/web ReplicaFailure=true", `1:40: bad value "true" for a condition's status; did you mean "True"?`},
		{"expect queue rsq len=0", `1:14: unknown queue "rsq"; did you mean "rs"?`},
		{"expect events count=1 reasn=x", `1:23: unknown check "reasn"; did you mean "reason"?`},
		{"expect requests resource=rs/stats count=1", `1:29: unknown subresource "stats"; did you mean "status"?`},
		{"config worker=3", `1:8: unknown config key "worker"; did you mean "workers"?`},
		{"fail crate pods --count=1", `1:6: unknown verb "crate"; did you mean "create"?`},
		{"heal foo", `1:6: unknown fault "foo"; heal takes all, watch [KIND], kubelet, or a verb and a resource (create pods)`},
		{"help creat", `1:6: unknown help topic "creat"; did you mean "create"?`},

		// Missing arguments and flags.
		{"create", `1:7: create needs a kind: node, rs, rc, deploy or pod`},
		{"create rs --replicas=3 --selector=app=web", `1:42: create rs needs a NAME; e.g. create rs web --replicas=3 --selector=app=web`},
		{"create rs web --selector=app=web", `1:33: create rs needs --replicas=N; e.g. create rs web --replicas=3 --selector=app=web`},
		{"scale rs --replicas=1", `1:9: missing name after rs; write rs/NAME`},
		{"scale rs/ --replicas=1", `1:10: missing name after rs/`},
		{"scale", `1:6: scale needs rs/NAME, rc/NAME or deploy/NAME; e.g. scale rs/web --replicas=5`},
		{"label pods app=web", `1:11: label pods needs -l SEL; or --all for every one of the pods, or pod/NAME for one`},
		{"label pods -l app=web", `1:22: label needs at least one k=v or k- to change; e.g. label pod/stray app=web`},
		{"fail create pods", `1:17: fail needs --count=N or --always; e.g. fail create pods --count=2 --error=quota`},
		{"fail create", `1:12: fail create needs a resource: pods`},
		{"drop watch pods", `1:16: drop watch needs --count=N; e.g. drop watch pods --count=1`},
		{"stabilize --max-steps", `1:22: flag --max-steps needs a value; write --max-steps=N`},
		{"get pods -l --show-labels", `1:12: flag -l needs a value; write --selector=SEL`},
		{"advance", `1:8: advance needs a duration; e.g. advance 5s`},
		{"expect pods -l app=web", `1:23: expect pods needs count=N; e.g. expect pods -l app=web count=3`},
		{"expect events reason=x", `1:23: expect events needs count=N or total=N; e.g. expect events reason=FailedCreate object=rs/web count=1`},
		{"expect rs/web", `1:14: expect rs/web needs FIELD=VALUE; e.g. expect rs/web status.replicas=3`},
		{"set ready pods -l a=b", `1:22: set ready needs true or false at the end; e.g. set ready pods -l app=web --pick=oldest false`},

		// Bad values.
		{"scale rs/web --replicas=abc", `1:25: bad value "abc" for --replicas; want a whole number from 0`},
		{"scale rs/web --replicas=-1", `1:25: --replicas must be at least 0, not -1`},
		{"scale rs/web --replicas=4294967296", `1:25: --replicas must be at most 2147483647, not 4294967296`},
		{"scale pod/web --replicas=1", `1:7: scale cannot act on pods; it takes rs, rc or deploy`},
		{"scale rs/Web --replicas=1", `1:10: invalid name "Web": a lowercase RFC 1123 subdomain must consist of lower case ` +
			`alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', ` +
			`regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{"get pods -n Bad_NS", `1:13: invalid namespace "Bad_NS": a lowercase RFC 1123 label must consist of lower case ` +
			`alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or ` +
			`'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
		{"label pod/x app=we_b_", `1:17: invalid label value "we_b_" for "app": a valid label must be an empty string or ` +
			`consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ` +
			`(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`},
		{"create node n --labels=a=b,c", `1:28: "c" is not k=v; --labels takes k=v pairs separated by commas`},
		{"create node n --labels=a=b,a=c", `1:28: label "a" given twice`},
		{"create node n --labels=", `1:24: --labels is empty; write --labels=k=v,k2=v2`},
		{"label pod/x app=web app-", `1:21: can not both modify and remove label "app", nor change it twice`},
		{"label pod/x foo", `1:13: "foo" is neither k=v nor k-; write k=v to set the label k to v, or k- to remove it`},
		{"delete rs/web --cascade=orphn", `1:25: bad value "orphn" for --cascade; did you mean "orphan"?`},
		{"delete rs/web --cascade=foregrund", `1:25: bad value "foregrund" for --cascade; did you mean "foreground"?`},
		{"delete pod/x --grace-period=-2", `1:29: --grace-period must be at least -1, not -2`},
		{"delete pods -l app=web --pick=oldst", `1:31: bad value "oldst" for --pick; did you mean "oldest"?`},
		{"delete pods -l app=web --pick=first", `1:31: bad value "first" for --pick; --pick is oldest, newest, random, or an index in creation order from 0`},
		{"kill pods -l app=web --count=0", `1:30: --count must be at least 1, not 0`},
		{"create pod p --phase=running", `1:22: bad value "running" for --phase; did you mean "Running"?`},
		{"create pod p --ready=yes", `1:22: bad value "yes" for --ready; --ready is true or false; --ready alone means true`},
		{"fail create pods --count=1 --error=qouta", `1:36: bad value "qouta" for --error; did you mean "quota"?`},
		{"fail update pods --count=1", `1:13: fail update pods is not modelled; fail update takes rs/status or rc/status`},
		{"fail create pods --count=1 --always", `1:18: give either --count=N or --always, not both`},
		{"drop watch nodes --count=1", `1:12: drop watch cannot act on nodes; it takes pod, rs or rc`},
		{"heal watch nodes", `1:12: heal cannot act on nodes; it takes pod, rs or rc`},
		{"delay watch pods 5", `1:18: bad duration "5" for the delay; a duration needs a unit, e.g. 5s or 5ms`},
		{"delay watch pods 5sec", `1:18: bad duration "5sec" for the delay; did you mean "5s"?`},
		{"delay watch pods 5S", `1:18: bad duration "5S" for the delay; did you mean "5s"?`},
		{"delay watch pods soon", `1:18: bad duration "soon" for the delay; write it as Go does: 500ms, 5s, 2m or 1m30s (units ns, us, ms, s, m, h)`},
		{"delay watch pods 0s", `1:18: the delay must be more than 0`},
		{"slow kubelet -1s", `1:14: kubelet-start must not be negative`},
		{"seed 0", `1:6: bad seed "0"; a seed is a whole number from 1 to 18446744073709551615`},
		{"config workers=0", `1:16: workers must be at least 1, not 0`},
		{"config workers 3", `1:15: config workers needs a value; write workers=3, without spaces`},
		{"config workers=1 workers=2", `1:18: config workers given twice`},
		{"config resync=-1s", `1:15: resync must not be negative`},
		{"step 0", `1:6: step must be at least 1, not 0`},
		{"step 1 2", `1:8: unexpected argument "2"; usage: step [N]`},
		{"until sync rs/web --max-time=0s", `1:30: --max-time must be more than 0`},
		{"stabilize --max-steps=1 --max-steps=2", `1:25: flag --max-steps given twice; it was given at column 11 already`},
		{"expect rs/web status.readyReplicas=abc", `1:36: bad value "abc" for status.readyReplicas; status.readyReplicas is a whole number`},
		{"expect rs/web status.readyReplicas", `1:15: "status.readyReplicas" is not a check; write FIELD=VALUE, or FIELD with !=, <, <=, > or >=`},
		{"expect rs/web status.readyReplicas = 3", `1:15: "status.readyReplicas" is not a check; write the check without spaces: status.readyReplicas=3`},
		{"expect rs/web =3", `1:15: missing field before "="`},
		{"expect rs/web metadata.labels.app<web", `1:34: "<" compares numbers, and metadata.labels.app is not one; use = or !=`},
		{"expect pods count=3 ready=yes", `1:27: bad value "yes" for ready; want true or false`},
		{"expect pods count=3 owner=deploy/web", `1:27: a pod's owner is rs/NAME, rc/NAME or none, not deploy/NAME; ` +
			`a Deployment owns ReplicaSets, which own its pods: count them with expect rs -l SEL owner=deploy/web`},
		{"expect pods count=3 count=4", `1:21: count given twice`},
		{"expect requests verb!=create count=1", `1:21: verb takes =, not "!="`},
		{"get pods -o wid", `1:13: bad value "wid" for --output; did you mean "wide"?`},
		{"get pods/x -l a=b", `1:12: --selector lists objects; pod/x names one already`},
		{"delete pod/x -l app=web", `1:14: give either pod/x or -l SEL, not both`},
		{"delete pod/x --pick=oldest", `1:14: --pick chooses among the objects of a kind; pod/x names one already`},
		{"delete pods -l a=b --all", `1:20: give either -l SEL or --all, not both`},
		{"help create rs web", `1:16: unexpected argument "web"; usage: help [COMMAND | kinds | fields | config | selectors]`},

		// Selectors.
		{"create rs web --replicas=3 -l tier in (a,b)", `1:31: the selector "tier" goes on after a space; did you forget quotes around the selector? write -l "tier in (a,b)"`},
		{"create rs web --replicas=3 --selector=app=web,tier in (a,b)", `1:39: the selector "app=web,tier" goes on after a space; did you forget quotes around the selector? write --selector="app=web,tier in (a,b)"`},
		{"label pods -l app=web, tier=x k=v", `1:15: the selector "app=web," goes on after a space; did you forget quotes around the selector? write -l "app=web, tier=x"`},
		{`create rs web --replicas=3 -l "tier in (a,b)"`, `1:31: the pods' labels cannot be derived from the selector's set-based requirement "tier in (a,b)"; add --template-labels=k=v,... with labels the selector matches`},
		{"create rs web --replicas=3 --selector=replicas>2", `1:39: a ReplicaSet's selector cannot use > or < ("replicas>2"); its matchExpressions know only In, NotIn, Exists and DoesNotExist`},
		{"create rc web --replicas=3 --selector=app!=web", `1:39: a ReplicationController's selector is a plain map: only k=v requirements, not "app!=web"; use a ReplicaSet (create rs) for set-based selectors`},
		{"create rs web --replicas=3 --selector=", `1:39: the selector of a ReplicaSet must not be empty: it would claim every pod`},
		{"get pods -l 'app=web'", `1:13: bad selector "'app=web'": unable to parse requirement: key: Invalid value: "'app": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'); single quotes do not group words here; use double quotes`},
		{"get pods -l x=(", `1:13: bad selector "x=(": unable to parse requirement: found '(' at column 3, expected: identifier`},

		// Lexing.
		{`step "3`, `1:6: unterminated quoted string; add the closing " before the end of the line`},
	} {
		_, err := ParseLine(tc.line)
		if !assert.Error(t, err, tc.line) {
			continue
		}
		assert.Equal(t, tc.want, err.Error(), tc.line)
		pe := FirstError(err)
		require.NotNil(t, pe, "ParseLine's error is a *ParseError")
	}
}

func TestSplitSelectorHintOnlyWhenJoiningHelps(t *testing.T) {
	// "app=web" and "k=v" do not form a selector with a space between them, so
	// k=v is read as what it is: a label to set.
	parseOK(t, "label pods -l app=web k=v")
	// count=3 is a check, not a continuation of the selector.
	parseOK(t, "expect pods -l app=web count=3")
	// A quoted selector with spaces is one word.
	parseOK(t, `expect pods -l "tier in (a, b)" count=3`)
}

func TestParseScript(t *testing.T) {
	script := `# A lesson's solution.
seed 4

create rs web --replicas=2 --selector=app=web   # two pods
  stabilize
expect rs/web status.readyReplicas=2
`
	s, err := Parse(script, "lesson 05-orphans.txtar, solution")
	require.NoError(t, err)
	require.Len(t, s.Commands, 4)
	assert.Equal(t, "lesson 05-orphans.txtar, solution", s.File)
	seed, ok := s.Seed()
	assert.True(t, ok)
	assert.Equal(t, uint64(4), seed)

	assert.Equal(t, Source{Pos: Pos{"lesson 05-orphans.txtar, solution", 4, 1},
		Text: "create rs web --replicas=2 --selector=app=web", Name: "create rs"}, s.Commands[1].Src())
	assert.Equal(t, Pos{"lesson 05-orphans.txtar, solution", 5, 3}, s.Commands[2].Src().Pos)
	assert.Equal(t, "lesson 05-orphans.txtar, solution:5:3", s.Commands[2].Src().Pos.String())
	fc := s.Commands[3].(*ExpectObject).Checks[0]
	assert.Equal(t, Pos{"lesson 05-orphans.txtar, solution", 6, 15}, fc.Pos)

	s, err = Parse("", "")
	require.NoError(t, err)
	assert.Empty(t, s.Commands)
	_, ok = s.Seed()
	assert.False(t, ok)
}

func TestParseCollectsOneErrorPerLine(t *testing.T) {
	_, err := Parse("scael rs/web\nstep\nstep 0 x\nget pdos\n", "f.txt")
	require.Error(t, err)
	list, ok := err.(ErrorList)
	require.True(t, ok)
	require.Len(t, list, 3)
	assert.Equal(t, `f.txt:1:1: unknown command "scael"; did you mean "scale"?
f.txt:3:6: step must be at least 1, not 0
f.txt:4:5: unknown kind "pdos"; did you mean "pod"?`, err.Error())
	assert.Equal(t, 1, FirstError(err).Line, "the first error is the first line's")
}

func TestParseStopsAfterTenErrors(t *testing.T) {
	_, err := Parse(strings.Repeat("nope\n", 50), "")
	assert.Len(t, err.(ErrorList), maxErrors)
}

func TestSeedOnlyFirst(t *testing.T) {
	_, err := Parse("# comments and blank lines do not count\n\nseed 3\nstep", "")
	assert.NoError(t, err)

	_, err = Parse("step\nseed 3", "s")
	assert.EqualError(t, err, "s:2:1: seed must be the first command of a script; it seeds the world before anything happens; move it to the top")

	_, err = Parse("seed 1\nseed 2", "")
	assert.EqualError(t, err, "2:1: seed must be the first command of a script; it seeds the world before anything happens; move it to the top")

	_, err = Parse("scael\nseed 2", "")
	assert.Len(t, err.(ErrorList), 2, "a line that failed to parse still held a command")

	c, err := ParseLine("seed 9")
	require.NoError(t, err, "the console decides what seed means after the start")
	assert.Equal(t, uint64(9), c.(*Seed).Value)
}

func TestParseLine(t *testing.T) {
	for _, blank := range []string{"", "   ", "\t", "# just a comment", "  # indented comment", "\n", "\r\n"} {
		c, err := ParseLine(blank)
		assert.NoError(t, err, "%q", blank)
		assert.Nil(t, c, "%q", blank)
	}
	c, err := ParseLine("step 2\r\n")
	require.NoError(t, err)
	assert.Equal(t, 2, c.(*Step).N)

	_, err = ParseLine("step\nstep")
	assert.EqualError(t, err, "1:5: one command per line; use Parse for a script")
}

func TestErrorsPointInsideQuotedWords(t *testing.T) {
	_, err := ParseLine(`scale rs/web "--replicas=x"`)
	assert.EqualError(t, err, `1:26: bad value "x" for --replicas; want a whole number from 0`,
		"the column is the value's, past the opening quote")
	_, err = ParseLine(`create node n --labels="a=b,c=d d"`)
	assert.Contains(t, err.Error(), `1:31: invalid label value "d d" for "c"`)
}

func TestPickChoose(t *testing.T) {
	never := func(int) int { panic("random not drawn") }
	for _, tc := range []struct {
		pick Pick
		n    int
		want []int
		ok   bool
	}{
		{Pick{}, 3, []int{0, 1, 2}, true},
		{Pick{}, 0, []int{}, true},
		{Pick{Order: PickOldest, Count: 1}, 3, []int{0}, true},
		{Pick{Order: PickOldest, Count: 2}, 3, []int{0, 1}, true},
		{Pick{Order: PickNewest, Count: 2}, 3, []int{2, 1}, true},
		{Pick{Order: PickIndex, Index: 1, Count: 2}, 3, []int{1, 2}, true},
		{Pick{Order: PickIndex, Index: 2, Count: 2}, 3, nil, false},
		{Pick{Order: PickOldest, Count: 4}, 3, nil, false},
		{Pick{Order: PickOldest, Count: 1}, 0, nil, false},
	} {
		got, ok := tc.pick.Choose(tc.n, never)
		assert.Equal(t, tc.ok, ok, "%+v of %d", tc.pick, tc.n)
		assert.Equal(t, tc.want, got, "%+v of %d", tc.pick, tc.n)
	}

	draws := []int{2, 0}
	intN := func(n int) int {
		d := draws[0]
		draws = draws[1:]
		require.Less(t, d, n)
		return d
	}
	got, ok := Pick{Order: PickRandom, Count: 2}.Choose(4, intN)
	require.True(t, ok)
	assert.Equal(t, []int{2, 1}, got, "a partial Fisher-Yates shuffle: 2 swaps with 0, then 1 is first of the rest")
}

func TestPickString(t *testing.T) {
	assert.Equal(t, "", Pick{}.String())
	assert.Equal(t, "--pick=oldest", Pick{Order: PickOldest, Count: 1}.String())
	assert.Equal(t, "--pick=2 --count=3", Pick{Order: PickIndex, Index: 2, Count: 3}.String())
}

func TestCompareHolds(t *testing.T) {
	for _, tc := range []struct {
		op   Op
		want [3]bool // actual 1, 2, 3 against 2
	}{
		{OpEq, [3]bool{false, true, false}},
		{OpNe, [3]bool{true, false, true}},
		{OpLt, [3]bool{true, false, false}},
		{OpLe, [3]bool{true, true, false}},
		{OpGt, [3]bool{false, false, true}},
		{OpGe, [3]bool{false, true, true}},
	} {
		for i, want := range tc.want {
			assert.Equal(t, want, Compare{tc.op, 2}.Holds(int64(i+1)), "%d %s 2", i+1, tc.op)
		}
	}
	assert.False(t, Compare{Op("~"), 1}.Holds(1))
	assert.Equal(t, ">=3", Compare{OpGe, 3}.String())
	assert.True(t, Match{OpNe, "a"}.Holds("b"))
	assert.False(t, Match{OpEq, "a"}.Holds("b"))
	assert.Equal(t, "!=a", Match{OpNe, "a"}.String())
}

func TestFieldChecksReadObjects(t *testing.T) {
	replicas := int32(3)
	rs := &api.ReplicaSet{Metadata: api.ObjectMeta{Name: "web", Labels: map[string]string{"app": "web"}, Generation: 2},
		Spec:   api.ReplicaSetSpec{Replicas: &replicas},
		Status: api.ReplicaSetStatus{Replicas: 3, ReadyReplicas: 2, ObservedGeneration: 1}}
	controller := true
	pod := &api.Pod{
		Metadata: api.ObjectMeta{Name: "web-1", OwnerReferences: []api.OwnerReference{{Kind: "ReplicaSet", Name: "web", Controller: &controller}}},
		Spec:     api.PodSpec{NodeName: "node-1"},
		Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}},
			ContainerStatuses: []api.ContainerStatus{{RestartCount: 2}, {RestartCount: 1}}}}

	for _, tc := range []struct {
		line string
		obj  api.Object
		want []bool
	}{
		{"expect rs/web status.readyReplicas<3 status.replicas=3 spec.replicas>=4 metadata.labels.app=web metadata.labels.tier= metadata.generation!=1",
			rs, []bool{true, true, false, true, true, true}},
		{"expect pod/web-1 phase=Running ready=true owner=rs/web owner!=none restarts=3 node=node-1 terminating=false status.reason=",
			pod, []bool{true, true, true, true, true, true, true, true}},
		{"expect pod/web-1 ready=false owner=rc/web", pod, []bool{false, false}},
		{"expect pod/bare owner=none ready=false restarts=0", &api.Pod{}, []bool{true, true, true}},
	} {
		c := parseOK(t, tc.line).(*ExpectObject)
		require.Len(t, c.Checks, len(tc.want), tc.line)
		for i, fc := range c.Checks {
			assert.Equal(t, tc.want[i], fc.Holds(fc.Actual(tc.obj)), "%s: %s (actual %s)", tc.line, fc, fc.Actual(tc.obj))
		}
	}
}

func TestFailRule(t *testing.T) {
	c := parseOK(t, "fail update rs/status --count=2 --after=1 --error=conflict").(*Fail)
	assert.Equal(t, apistore.FaultRule{Verb: apistore.VerbUpdate, Resource: "replicasets/status", Count: 2, After: 1,
		Error: apistore.FaultConflict}, c.Rule())
	var f apistore.Faults
	_, err := f.Add(c.Rule())
	assert.NoError(t, err, "the store accepts every rule fail parses")
}

func TestRef(t *testing.T) {
	r := Ref{api.KindReplicaSet, "default", "web"}
	assert.Equal(t, "rs/web", r.String())
	assert.Equal(t, "default/web", r.Key())
	assert.Equal(t, "node-1", Ref{api.KindNode, "", "node-1"}.Key())
	tg := Target{Kind: api.KindPod, Namespace: "x", Name: "p"}
	assert.True(t, tg.ByName())
	assert.Equal(t, Ref{api.KindPod, "x", "p"}, tg.Ref())
}
