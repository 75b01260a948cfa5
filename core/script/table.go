package script

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/printers"
)

// This file holds the one table of the language: every command with its words,
// arguments, flags, help and examples, and the smaller tables the commands
// share (kinds, config keys, expect fields, fault targets). The parser, help,
// the page's help panel and completion all read these tables, so a command is
// described once.

// ValueType is the type of a flag's, an argument's or a field's value.
type ValueType string

// The value types.
const (
	TypeInt      ValueType = "int"      // a base-10 whole number
	TypeDuration ValueType = "duration" // Go syntax: 500ms, 5s, 2m
	TypeBool     ValueType = "bool"     // true or false
	TypeString   ValueType = "string"   // any word
	TypeName     ValueType = "name"     // an object name: a DNS-1123 subdomain
	TypeSelector ValueType = "selector" // a label selector, one word
	TypeLabels   ValueType = "labels"   // k=v,k2=v2
	TypeEnum     ValueType = "enum"     // one of Values
	TypePick     ValueType = "pick"     // oldest, newest, random or an index
	TypeOwner    ValueType = "owner"    // rs/NAME, rc/NAME, deploy/NAME or none
	// TypeIntOrPercent is a number or a percentage: 1, 25%.
	TypeIntOrPercent ValueType = "int-or-percent"
)

// Group is a section of the command list.
type Group string

// The groups, in the order help lists them.
const (
	GroupWorld      Group = "World"
	GroupRollouts   Group = "Rollouts"
	GroupPods       Group = "Things that happen to pods"
	GroupFaults     Group = "Faults"
	GroupTime       Group = "Time and stepping"
	GroupAssertions Group = "Assertions"
	GroupReading    Group = "Reading"
	GroupHelp       Group = "Help"
)

// Groups lists the groups in help order.
var Groups = []Group{GroupWorld, GroupRollouts, GroupPods, GroupFaults, GroupTime, GroupAssertions, GroupReading, GroupHelp}

// FlagDoc describes one flag of a command.
type FlagDoc struct {
	// Name is the long name, without dashes: "replicas" for --replicas.
	Name string `json:"name"`
	// Short is the one-letter name, or "": "l" for -l.
	Short string    `json:"short,omitempty"`
	Type  ValueType `json:"type"`
	// Placeholder stands for the value in usage lines: N, SEL, D.
	Placeholder string `json:"placeholder,omitempty"`
	// Default is the value when the flag is left out, as text; "" when there is
	// none to speak of.
	Default string `json:"default,omitempty"`
	// Values are the allowed values of an enum (and the named values of a pick).
	Values   []string `json:"values,omitempty"`
	Required bool     `json:"required,omitempty"`
	Help     string   `json:"help"`

	// lo and hi bound an int flag's value; hi == 0 means no upper bound.
	lo, hi int64
	// minDur bounds a duration flag's value from below.
	minDur time.Duration
	// names says which existing things the value names (a node, a
	// namespace), so that completion can offer them.
	names valueNames
}

// Spelling returns how the flag is written in a usage line: --replicas=N, or
// --overwrite for a bool.
func (f FlagDoc) Spelling() string {
	if f.Type == TypeBool {
		return "--" + f.Name
	}
	return "--" + f.Name + "=" + f.Placeholder
}

// ArgDoc describes one positional argument of a command.
type ArgDoc struct {
	// Name stands for the argument in usage lines: NAME, KIND/NAME, k=v.
	Name     string `json:"name"`
	Help     string `json:"help"`
	Optional bool   `json:"optional,omitempty"`
	Repeated bool   `json:"repeated,omitempty"`
	// Values are the words the argument may be, when they are a fixed list.
	Values []string `json:"values,omitempty"`

	// complete says what completion offers for the argument.
	complete argCompletion
	// named are the KEY= words of Values whose value names something that
	// exists (object=KIND/NAME), so completion can offer it after the =.
	named []namedKey
}

// namedKey is a KEY= word of an argument whose value names something.
type namedKey struct {
	key   string
	names valueNames
}

// argCompletion is what completion offers for a positional argument.
type argCompletion uint8

const (
	completeNothing argCompletion = iota
	completeValues                // ArgDoc.Values
	// completeRef is an object of the command's kinds, written KIND/NAME or
	// KIND NAME: completion offers the KIND/ prefixes (and the kinds, where
	// a selector may follow), then the names of the objects that exist.
	completeRef
	// completeRefOrName is completeRef, and also the bare NAME of an object
	// of the command's one kind (cordon node-1, as kubectl writes it).
	completeRefOrName
	completeKind       // the command's kinds
	completeConfig     // config keys, each with its "="
	completeField      // fields of the object named before
	completeCountField // count= and the filters of the command's kind (pods, rs)
	completeTopic      // help topics
)

// valueNames says what existing thing a flag's, a field's or a KEY='s value
// names, so that completion can ask the world for the names (see CompleteIn).
type valueNames uint8

const (
	namesNone      valueNames = iota
	namesNode                 // a node: node-1
	namesNamespace            // a namespace: default, or one objects are in
	namesOwner                // a controller: rs/NAME or rc/NAME for pods, deploy/NAME for ReplicaSets, or none
	namesObject               // any object describe takes: pod/NAME, rs/NAME, deploy/NAME, ...
)

// CommandDoc describes one command, for help, the page's help panel and
// completion. Commands returns them in table order.
type CommandDoc struct {
	// Name is the command's words, as help lists them: "create rs".
	Name  string `json:"name"`
	Group Group  `json:"group"`
	// Usage is the full synopsis: the words, the arguments and the flags, with
	// optional parts in brackets.
	Usage   string `json:"usage"`
	Summary string `json:"summary"`
	// Details is a paragraph or two for help COMMAND, or "".
	Details string `json:"details,omitempty"`
	// Aliases are other spellings of the command's words, such as the long
	// kind names: "replicaset", "replicasets" for create rs.
	Aliases  []string  `json:"aliases,omitempty"`
	Args     []ArgDoc  `json:"args,omitempty"`
	Flags    []FlagDoc `json:"flags,omitempty"`
	Examples []string  `json:"examples"`
}

// spec is one row of the command table.
type spec struct {
	CommandDoc
	// words are the fixed words that select the command, in canonical spelling.
	// A word that names a kind also matches that kind's other names.
	words []string
	// kinds are the kinds the command's object arguments may name.
	kinds []api.Kind
	// parse builds the command from what the generic parser split off.
	parse func(c *cmdParser) (Command, *ParseError)
}

// flag returns the command's flag with the given long name.
func (s *spec) flag(name string) (FlagDoc, bool) {
	for _, f := range s.Flags {
		if f.Name == name {
			return f, true
		}
	}
	return FlagDoc{}, false
}

// KindDoc describes a kind as scripts write it.
type KindDoc struct {
	Kind api.Kind `json:"kind"`
	// Short is the name help and messages use: pod, rs, rc, node, event.
	Short string `json:"short"`
	// Names are every accepted spelling, Short first; matching ignores case.
	Names []string `json:"names"`
}

// kindTable lists the kinds in the order of api.Kinds, with the names kubectl
// accepts for them.
var kindTable = []KindDoc{
	{api.KindPod, "pod", []string{"pod", "pods", "po"}},
	{api.KindReplicaSet, "rs", []string{"rs", "replicaset", "replicasets"}},
	{api.KindReplicationController, "rc", []string{"rc", "replicationcontroller", "replicationcontrollers"}},
	{api.KindNode, "node", []string{"node", "nodes", "no"}},
	{api.KindEvent, "event", []string{"event", "events", "ev"}},
	{api.KindDeployment, "deploy", []string{"deploy", "deployment", "deployments"}},
}

// Kinds describes every kind a script may name.
func Kinds() []KindDoc {
	out := make([]KindDoc, len(kindTable))
	for i, k := range kindTable {
		out[i] = KindDoc{k.Kind, k.Short, slices.Clone(k.Names)}
	}
	return out
}

// kindOf looks a kind up by any of its names, ignoring case, and also by its
// manifest name (ReplicaSet).
func kindOf(word string) (api.Kind, bool) {
	lw := strings.ToLower(word)
	for _, k := range kindTable {
		if slices.Contains(k.Names, lw) || strings.ToLower(string(k.Kind)) == lw {
			return k.Kind, true
		}
	}
	return "", false
}

// shortName is the name messages use for a kind.
func shortName(k api.Kind) string { return api.ShortName(k) }

// kindNames lists the names of the given kinds, for suggestions: every
// spelling, short names first.
func kindNames(kinds []api.Kind) []string {
	var out []string
	for _, k := range kindTable {
		if slices.Contains(kinds, k.Kind) {
			out = append(out, k.Short)
		}
	}
	for _, k := range kindTable {
		if slices.Contains(kinds, k.Kind) {
			out = append(out, k.Names[1:]...)
		}
	}
	return out
}

// shortNames lists the short names of kinds.
func shortNames(kinds []api.Kind) []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = shortName(k)
	}
	return out
}

// Kind sets the commands use.
var (
	allKinds        = []api.Kind{api.KindPod, api.KindReplicaSet, api.KindReplicationController, api.KindNode, api.KindEvent, api.KindDeployment}
	podKinds        = []api.Kind{api.KindPod}
	rsKinds         = []api.Kind{api.KindReplicaSet}
	nodeKinds       = []api.Kind{api.KindNode}
	deployKinds     = []api.Kind{api.KindDeployment}
	controllerKinds = []api.Kind{api.KindReplicaSet, api.KindReplicationController}
	// syncKinds are the kinds whose objects a controller syncs by key:
	// the replication managers' and the Deployment controller's.
	syncKinds = []api.Kind{api.KindReplicaSet, api.KindReplicationController, api.KindDeployment}
	// workloadKinds are the kinds that want a number of pods, with a
	// template, a generation and a replica count in their status.
	workloadKinds = []api.Kind{api.KindReplicaSet, api.KindReplicationController, api.KindDeployment}
	watchKinds    = []api.Kind{api.KindPod, api.KindReplicaSet, api.KindReplicationController}
	labelKinds    = []api.Kind{api.KindPod, api.KindReplicaSet, api.KindReplicationController, api.KindDeployment, api.KindNode}
	deleteKinds   = []api.Kind{api.KindPod, api.KindReplicaSet, api.KindReplicationController, api.KindDeployment}
	describeKinds = []api.Kind{api.KindPod, api.KindReplicaSet, api.KindReplicationController, api.KindDeployment, api.KindNode}
)

// ownersOf lists the kinds whose objects may own one of kind, as owner=
// names them: a pod's ReplicaSet or ReplicationController, a ReplicaSet's
// Deployment.
func ownersOf(kind api.Kind) []api.Kind {
	if kind == api.KindReplicaSet {
		return deployKinds
	}
	return controllerKinds
}

// The help of flags that come in two variants.
const (
	helpSelector   = `label selector, as one word: quote it when it holds spaces, -l "tier in (a,b)"`
	helpFaultCount = "how many times the fault strikes before it ends by itself"
)

// The flags more than one command shares.
var (
	flagNamespace = FlagDoc{Name: "namespace", Short: "n", Type: TypeName, Placeholder: "NS", Default: "default",
		Help: "the namespace of the objects (nodes have none)", names: namesNamespace}
	flagSelector = FlagDoc{Name: "selector", Short: "l", Type: TypeSelector, Placeholder: "SEL",
		Help: helpSelector}
	// flagSelectorRequired is flagSelector for the commands that cannot do
	// without one.
	flagSelectorRequired = FlagDoc{Name: "selector", Short: "l", Type: TypeSelector, Placeholder: "SEL", Required: true,
		Help: helpSelector}
	flagAll = FlagDoc{Name: "all", Type: TypeBool,
		Help: "every object of the kind in the namespace, as -l with an empty selector"}
	flagPick = FlagDoc{Name: "pick", Type: TypePick, Placeholder: "oldest|newest|random|N",
		Values: []string{"oldest", "newest", "random"},
		Help:   "act on one matching pod: the oldest, the newest, a seeded random one, or the one at index N in creation order (from 0)"}
	flagPickCount = FlagDoc{Name: "count", Type: TypeInt, Placeholder: "N", lo: 1,
		Help: "act on N matching pods, in --pick order (default oldest)"}
	flagMaxSteps = FlagDoc{Name: "max-steps", Type: TypeInt, Placeholder: "N", lo: 1,
		Default: "100000", Help: "fail after this many kernel events"}
	flagMaxTime = FlagDoc{Name: "max-time", Type: TypeDuration, Placeholder: "D", minDur: 1,
		Default: "10m0s", Help: "fail after this much simulated time"}
	flagFaultCount = FlagDoc{Name: "count", Type: TypeInt, Placeholder: "N", lo: 1,
		Help: helpFaultCount}
	flagFaultCountRequired = FlagDoc{Name: "count", Type: TypeInt, Placeholder: "N", lo: 1, Required: true,
		Help: helpFaultCount}
	flagReplicas = FlagDoc{Name: "replicas", Type: TypeInt, Placeholder: "N", Required: true, hi: 1<<31 - 1,
		Help: "the number of pods wanted"}
	flagMinReady = FlagDoc{Name: "min-ready-seconds", Type: TypeInt, Placeholder: "S", Default: "0", hi: 1<<31 - 1,
		Help: "seconds a pod must have been Ready to count as available"}
	flagTemplateLabels = FlagDoc{Name: "template-labels", Type: TypeLabels, Placeholder: "k=v,...",
		Help: "the labels of the pods it creates (default: the selector's k=v requirements)"}
)

// selection is the flag set of verbs that act on pods picked by a selector.
// The commands that take more flags than these list them again, after their
// own, as a literal (see commands for why).
var selection = []FlagDoc{flagSelector, flagAll, flagPick, flagPickCount, flagNamespace}

// faultErrors are the errors a fail rule may answer with.
var faultErrors = []string{string(apistore.FaultServer), string(apistore.FaultQuota),
	string(apistore.FaultConflict), string(apistore.FaultNamespaceTerminating)}

// podPhases are the phases a pod may be created in or expected to have.
var podPhases = []string{api.PodPending, api.PodRunning, api.PodSucceeded, api.PodFailed, api.PodUnknown}

// apiTarget is a verb and resource the API store serves, as fail, heal and
// expect requests name them.
type apiTarget struct {
	verb        apistore.Verb
	kind        api.Kind
	subresource string
}

// String is the target as scripts write it: "create pods", "update rs/status".
func (t apiTarget) String() string { return string(t.verb) + " " + resourceWord(t.kind, t.subresource) }

// faultTargets are the requests `fail` can make fail: the writes the
// replication manager issues.
var faultTargets = []apiTarget{
	{apistore.VerbCreate, api.KindPod, ""},
	{apistore.VerbDelete, api.KindPod, ""},
	{apistore.VerbUpdate, api.KindReplicaSet, apistore.SubresourceStatus},
	{apistore.VerbUpdate, api.KindReplicationController, apistore.SubresourceStatus},
	{apistore.VerbPatch, api.KindPod, ""},
}

// faultVerbs are the verbs of faultTargets, in order, once each.
func faultVerbs() []string {
	var out []string
	for _, t := range faultTargets {
		if !slices.Contains(out, string(t.verb)) {
			out = append(out, string(t.verb))
		}
	}
	return out
}

// resourceWord is how scripts write a resource: pods, rs/status.
func resourceWord(kind api.Kind, subresource string) string {
	w := resourcePlural(kind)
	if subresource != "" {
		w = shortName(kind) + "/" + subresource
	}
	return w
}

// resourcePlural is the plural scripts use for a kind's resource: pods, rs, rc.
func resourcePlural(kind api.Kind) string {
	switch kind {
	case api.KindPod, api.KindNode, api.KindEvent:
		return shortName(kind) + "s"
	}
	return shortName(kind)
}

// ConfigKeyDoc describes one key of the config command.
type ConfigKeyDoc struct {
	Key     string    `json:"key"`
	Type    ValueType `json:"type"`
	Default string    `json:"default"`
	Help    string    `json:"help"`
	// lo is the least int value.
	lo int64
}

// The config keys.
const (
	ConfigWorkers       = "workers"
	ConfigBurstReplicas = "burst-replicas"
	ConfigKubeletStart  = "kubelet-start"
	ConfigKubeletStop   = "kubelet-stop"
	ConfigResync        = "resync"
	ConfigAPILatency    = "api-latency"
	ConfigWatchLatency  = "watch-latency"
)

var configTable = []ConfigKeyDoc{
	{ConfigWorkers, TypeInt, "5", "workers of each replication manager (kube-controller-manager's --concurrent-replicaset-syncs)", 1},
	{ConfigBurstReplicas, TypeInt, "500", "the most pods one sync creates or deletes", 1},
	{ConfigKubeletStart, TypeDuration, "2s", "how long a bound pod takes to become Running and Ready", 0},
	{ConfigKubeletStop, TypeDuration, "1s", "how long a kubelet takes to stop a pod being deleted (never past its grace period)", 0},
	{ConfigResync, TypeDuration, "0", "the controllers' informer resync period; 0 is off", 0},
	{ConfigAPILatency, TypeDuration, "1ms", "how long a request takes to reach the API server, and its answer to come back", 0},
	{ConfigWatchLatency, TypeDuration, "1ms", "how long a change takes to reach each watcher", 0},
}

// ConfigKeys describes the keys of the config command.
func ConfigKeys() []ConfigKeyDoc { return slices.Clone(configTable) }

func configKeyNames() []string {
	out := make([]string, len(configTable))
	for i, k := range configTable {
		out[i] = k.Key
	}
	return out
}

// queueTable maps the work queues to the kinds their managers sync. The
// names are upstream's.
var queueTable = []struct {
	name string
	kind api.Kind
}{
	{"replicaset", api.KindReplicaSet},
	{"replicationmanager", api.KindReplicationController},
}

// conditionTypes are the condition types each kind reports.
var conditionTypes = []struct {
	kind  api.Kind
	types []string
}{
	{api.KindReplicaSet, []string{api.ReplicaFailure}},
	{api.KindReplicationController, []string{api.ReplicaFailure}},
	{api.KindPod, []string{api.PodReady, api.PodScheduled}},
	{api.KindNode, []string{api.NodeReady}},
	{api.KindDeployment, []string{api.DeploymentAvailable, api.DeploymentProgressing, api.DeploymentReplicaFailure}},
}

// conditionStatuses are the values a condition may be expected to have;
// absent means the object reports no condition of the type.
var conditionStatuses = []string{api.ConditionTrue, api.ConditionFalse, api.ConditionUnknown, "absent"}

// table is the command table; init sets it to commands, because its parse
// functions reach back into it (expect cache, help), which a variable's
// initializer cannot do without an initialization cycle.
var table []*spec

func init() {
	table = commands
	firstWordList = listFirstWords()
}

// commands is the table as data. As a package variable's initializer the
// compiler lays most of it out in main.wasm's data; built by a function, it
// was 77 KB of code that set every field of every command one at a time.
//
// That holds only while no initializer in the package calls a function
// (append, slices.Clone, strings.Join, a helper of ours): the compiler
// cannot know what such a call changes, so after one it stops copying other
// variables into the data (flagNamespace into a command's flags, podKinds
// into its kinds) and writes code that copies them at start-up instead, 25
// KB of it. So the tables spell out what they could compute, such as the
// fail command's verbs and the flags of selection after a command's own.
// TestTheTablesAreData keeps the initializers free of calls, and
// TestSpelledOutTablesMatchWhatTheyWouldCompute holds what they spell out
// equal to what it stands for.
var commands = []*spec{
	// World.
	{
		CommandDoc: CommandDoc{Name: "create node", Group: GroupWorld,
			Usage:   "create node NAME [--labels=k=v,...]",
			Summary: "add a node the scheduler can place pods on",
			Details: "The world starts with node-1, node-2 and node-3. A new node is Ready at once.",
			Args:    []ArgDoc{{Name: "NAME", Help: "the node's name (a DNS-1123 subdomain)"}},
			Flags: []FlagDoc{{Name: "labels", Type: TypeLabels, Placeholder: "k=v,...",
				Help: "the node's labels"}},
			Examples: []string{"create node node-4", "create node big-1 --labels=disk=ssd,zone=a"}},
		words: []string{"create", "node"}, kinds: nodeKinds, parse: parseCreateNode,
	},
	{
		CommandDoc: CommandDoc{Name: "create rs", Group: GroupWorld,
			Usage:   "create rs NAME --replicas=N --selector=SEL [--template-labels=k=v,...] [--min-ready-seconds=S] [-n NS]",
			Summary: "create a ReplicaSet",
			Details: "Without --template-labels the pods get the selector's k=v requirements as labels; a selector " +
				"with set-based requirements (in, notin, !, exists) then needs explicit --template-labels. " +
				"A ReplicaSet's selector cannot use > or <: its matchExpressions have no such operator.",
			Args:  []ArgDoc{{Name: "NAME", Help: "the ReplicaSet's name (a DNS-1123 subdomain)"}},
			Flags: []FlagDoc{flagReplicas, flagSelectorRequired, flagTemplateLabels, flagMinReady, flagNamespace},
			Examples: []string{
				"create rs web --replicas=3 --selector=app=web",
				`create rs web --replicas=2 --selector="app=web,tier in (front,back)" --template-labels=app=web,tier=front`,
				"create rs slow --replicas 1 -l app=slow --min-ready-seconds=10",
			}},
		words: []string{"create", "rs"}, kinds: controllerKinds, parse: parseCreateRS,
	},
	{
		CommandDoc: CommandDoc{Name: "create rc", Group: GroupWorld,
			Usage:   "create rc NAME --replicas=N --selector=k=v,... [--template-labels=k=v,...] [--min-ready-seconds=S] [-n NS]",
			Summary: "create a ReplicationController",
			Details: "A ReplicationController's selector is a plain map, as in the v1 API: only k=v requirements. " +
				"Without --template-labels the pods get the selector's labels.",
			Args: []ArgDoc{{Name: "NAME", Help: "the ReplicationController's name (a DNS-1123 subdomain)"}},
			Flags: []FlagDoc{flagReplicas,
				{Name: "selector", Short: "l", Type: TypeSelector, Placeholder: "k=v,...", Required: true,
					Help: "equality-only label selector"},
				flagTemplateLabels, flagMinReady, flagNamespace},
			Examples: []string{"create rc legacy --replicas=2 --selector=app=legacy"}},
		words: []string{"create", "rc"}, kinds: controllerKinds, parse: parseCreateRC,
	},
	{
		CommandDoc: CommandDoc{Name: "create deploy", Group: GroupWorld,
			Usage: "create deploy NAME --replicas=N --selector=SEL [--image=IMAGE] [--template-labels=k=v,...] " +
				"[--strategy=RollingUpdate|Recreate] [--max-surge=N|P%] [--max-unavailable=N|P%] [--min-ready-seconds=S] " +
				"[--revision-history-limit=N] [--progress-deadline-seconds=S] [--paused] [-n NS]",
			Summary: "create a Deployment, which rolls its pods from one template to the next through ReplicaSets",
			Details: "Its pods have one container, app, running --image. The selector and --template-labels work " +
				"as for create rs. What the flags leave out the API fills in as apps/v1 does: RollingUpdate, " +
				"25% max surge and max unavailable, 10 old ReplicaSets kept, a 600s progress deadline. The API " +
				"refuses max surge and max unavailable both 0, max unavailable over 100%, and either with " +
				"--strategy=Recreate: the create fails, naming the field.",
			Args: []ArgDoc{{Name: "NAME", Help: "the Deployment's name (a DNS-1123 subdomain)"}},
			// The flags after those create rs has too come in the order of
			// the apps/v1 spec. What is left out the API defaults.
			Flags: []FlagDoc{flagReplicas, flagSelectorRequired, flagTemplateLabels,
				{Name: "image", Type: TypeString, Placeholder: "IMAGE", Default: defaultImage,
					Help: "the image of the pods' one container, app"},
				{Name: "strategy", Type: TypeEnum, Placeholder: "STRATEGY", Default: api.RollingUpdateDeploymentStrategy,
					Values: []string{api.RollingUpdateDeploymentStrategy, api.RecreateDeploymentStrategy},
					Help:   "how a new template replaces the pods: a few at a time, or all old pods gone before the first new one"},
				{Name: "max-surge", Type: TypeIntOrPercent, Placeholder: "N|P%", Default: "25%",
					Help: "RollingUpdate: how many pods above --replicas may exist, a number or a percentage of --replicas rounded up"},
				{Name: "max-unavailable", Type: TypeIntOrPercent, Placeholder: "N|P%", Default: "25%",
					Help: "RollingUpdate: how many pods below --replicas may be unavailable, a number or a percentage rounded down"},
				flagMinReady,
				{Name: "revision-history-limit", Type: TypeInt, Placeholder: "N", Default: "10", hi: 1<<31 - 1,
					Help: "how many old ReplicaSets, scaled to zero, to keep for rollout undo"},
				{Name: "progress-deadline-seconds", Type: TypeInt, Placeholder: "S", Default: "600", hi: 1<<31 - 1,
					Help: "seconds a rollout may go without progress before Progressing turns False (ProgressDeadlineExceeded); nothing is rolled back"},
				{Name: "paused", Type: TypeBool, Help: "create it paused: no ReplicaSet until rollout resume"},
				flagNamespace},
			Examples: []string{
				"create deploy web --replicas=4 --selector=app=web",
				"create deploy api --replicas=10 --selector=app=api --image=api:1.0 --max-surge=1 --max-unavailable=0",
				"create deploy db --replicas=1 -l app=db --strategy=Recreate --paused",
			}},
		words: []string{"create", "deploy"}, kinds: deployKinds, parse: parseCreateDeploy,
	},
	{
		CommandDoc: CommandDoc{Name: "create pod", Group: GroupWorld,
			Usage:   "create pod NAME [--labels=k=v,...] [--node=NODE] [--phase=PHASE] [--ready] [-n NS]",
			Summary: "create a bare pod, owned by nobody",
			Details: "Without --node the pod is Pending until the scheduler binds it. --phase and --ready set the " +
				"status it starts with, as if a kubelet had already reported it.",
			Args: []ArgDoc{{Name: "NAME", Help: "the pod's name (a DNS-1123 subdomain)"}},
			Flags: []FlagDoc{
				{Name: "labels", Type: TypeLabels, Placeholder: "k=v,...", Help: "the pod's labels"},
				{Name: "node", Type: TypeName, Placeholder: "NODE", Help: "bind the pod to this node at once", names: namesNode},
				{Name: "phase", Type: TypeEnum, Placeholder: "PHASE", Values: podPhases, Help: "the phase it starts in"},
				{Name: "ready", Type: TypeBool, Help: "it starts Ready"},
				flagNamespace},
			Examples: []string{"create pod stray --labels=app=web", "create pod p1 --labels=app=web --node=node-1 --phase=Running --ready"}},
		words: []string{"create", "pod"}, kinds: podKinds, parse: parseCreatePod,
	},
	{
		CommandDoc: CommandDoc{Name: "scale", Group: GroupWorld,
			Usage:   "scale rs/NAME --replicas=N [-n NS]",
			Summary: "change how many pods a ReplicaSet, ReplicationController or Deployment wants",
			Details: "Also written scale rs NAME, and for rc and deploy. Scaling changes spec.replicas, so the " +
				"generation goes up. A Deployment passes the change on to its ReplicaSets: during a rollout, " +
				"or while it is paused, in proportion to their sizes.",
			Args:  []ArgDoc{{Name: "KIND/NAME", Help: "rs/NAME, rc/NAME or deploy/NAME", complete: completeRef}},
			Flags: []FlagDoc{flagReplicas, flagNamespace},
			Examples: []string{"scale rs/web --replicas=5", "scale rc legacy --replicas 0",
				"scale replicaset/web --replicas=1 -n default", "scale deploy/web --replicas=6"}},
		words: []string{"scale"}, kinds: workloadKinds, parse: parseScale,
	},
	{
		CommandDoc: CommandDoc{Name: "label", Group: GroupWorld,
			Usage:   "label pod/NAME k=v... k- ... [--overwrite] | label pods -l SEL [--pick=...] [--count=N] k=v... [--overwrite]",
			Summary: "set or remove labels, with kubectl label's semantics",
			Details: "k=v sets a label, k- removes one. Changing a label that exists needs --overwrite, as with kubectl. " +
				"With -l the command acts on every matching pod unless --pick or --count narrows it. " +
				"Relabelling a pod out of its owner's selector makes the controller release it.",
			Args: []ArgDoc{
				{Name: "KIND/NAME", Help: "pod/NAME, or KIND with -l SEL; also rs, rc, deploy, node", complete: completeRef},
				{Name: "k=v|k-", Help: "a label to set, or to remove", Repeated: true}},
			Flags: []FlagDoc{{Name: "overwrite", Type: TypeBool, Help: "allow changing labels that exist"},
				flagSelector, flagAll, flagPick, flagPickCount, flagNamespace},
			Examples: []string{"label pod/stray app=web", "label pod stray tier=front app- --overwrite",
				"label pods -l app=web --pick=oldest app=db --overwrite",
				`label pods -l "app=web,tier in (a,b)" --count=2 canary=true`},
		},
		words: []string{"label"}, kinds: labelKinds, parse: parseLabel,
	},
	{
		CommandDoc: CommandDoc{Name: "annotate", Group: GroupWorld,
			Usage:   "annotate pod/NAME k=v... k- ... [--overwrite] | annotate pods -l SEL [--pick=...] [--count=N] k=v... [--overwrite]",
			Summary: "set or remove annotations, with kubectl annotate's semantics",
			Details: "Values may be any text; quote values with spaces. The replication manager deletes pods with a " +
				"lower controller.kubernetes.io/pod-deletion-cost first when it scales down. A Deployment's " +
				"kubernetes.io/change-cause is copied onto the ReplicaSet its next rollout makes, and rollout " +
				"history shows it as the revision's CHANGE-CAUSE.",
			Args: []ArgDoc{
				{Name: "KIND/NAME", Help: "pod/NAME, or KIND with -l SEL; also rs, rc, deploy, node", complete: completeRef},
				{Name: "k=v|k-", Help: "an annotation to set, or to remove", Repeated: true}},
			Flags: []FlagDoc{{Name: "overwrite", Type: TypeBool, Help: "allow changing annotations that exist"},
				flagSelector, flagAll, flagPick, flagPickCount, flagNamespace},
			Examples: []string{"annotate pod/stray controller.kubernetes.io/pod-deletion-cost=-100",
				`annotate pods -l app=web --pick=newest note="picked last" --overwrite`,
				`annotate deploy/web kubernetes.io/change-cause="image 2.0" --overwrite`},
		},
		words: []string{"annotate"}, kinds: labelKinds, parse: parseLabel,
	},
	{
		CommandDoc: CommandDoc{Name: "delete", Group: GroupWorld,
			Usage:   "delete pod/NAME [--grace-period=S] | delete pods -l SEL [--pick=...] [--count=N] [--grace-period=S] | delete rs/NAME [--cascade=background|foreground|orphan]",
			Summary: "delete objects, as kubectl delete does",
			Details: "A pod's default grace period is 30s; the kubelet removes it once it has stopped it. " +
				"--cascade=background (the default) removes a ReplicaSet at once and lets the garbage collector delete " +
				"the pods it owns (and a Deployment's ReplicaSets, and their pods); --cascade=foreground keeps the owner, " +
				"marked for deletion, until the garbage collector has deleted its dependents and they are gone; " +
				"--cascade=orphan leaves them, released. Also rc/NAME and deploy/NAME. " +
				"The command returns at once, as kubectl delete --wait=false does.",
			Args: []ArgDoc{{Name: "KIND/NAME", Help: "pod/NAME, rs/NAME, rc/NAME, deploy/NAME, or pods with -l SEL", complete: completeRef}},
			Flags: []FlagDoc{
				{Name: "grace-period", Type: TypeInt, Placeholder: "S", Default: "-1", lo: -1,
					Help: "seconds the pod gets to stop; -1 uses the pod's own (30s); 0 removes it at once"},
				{Name: "cascade", Type: TypeEnum, Placeholder: "background|foreground|orphan", Default: "background",
					Values: []string{"background", "foreground", "orphan"}, Help: "what happens to what the object owns: an rs or rc its pods, a deploy its ReplicaSets"},
				flagSelector, flagAll, flagPick, flagPickCount, flagNamespace},
			Examples: []string{"delete pod/stray", "delete pods -l app=web --pick=random --grace-period=0",
				"delete rs/web --cascade=orphan", "delete rs/web --cascade=foreground", "delete rc legacy", "delete pods --all -n default", "delete deploy/web"},
		},
		words: []string{"delete"}, kinds: deleteKinds, parse: parseDelete,
	},
	{
		CommandDoc: CommandDoc{Name: "cordon", Group: GroupWorld,
			Usage:    "cordon node/NAME",
			Summary:  "mark a node unschedulable: the scheduler places no new pods on it",
			Args:     []ArgDoc{{Name: "node/NAME", Help: "the node (also written NAME, as kubectl does)", complete: completeRefOrName}},
			Examples: []string{"cordon node/node-1", "cordon node-2"},
		},
		words: []string{"cordon"}, kinds: nodeKinds, parse: parseCordon,
	},
	{
		CommandDoc: CommandDoc{Name: "uncordon", Group: GroupWorld,
			Usage:    "uncordon node/NAME",
			Summary:  "mark a node schedulable again",
			Args:     []ArgDoc{{Name: "node/NAME", Help: "the node (also written NAME, as kubectl does)", complete: completeRefOrName}},
			Examples: []string{"uncordon node/node-1"},
		},
		words: []string{"uncordon"}, kinds: nodeKinds, parse: parseCordon,
	},

	// Rollouts.
	{
		CommandDoc: CommandDoc{Name: "set image", Group: GroupRollouts,
			Usage:   "set image deploy/NAME app=IMAGE [-n NS]",
			Summary: "change the image of a Deployment's pods: a new pod template, so a rollout",
			Details: "As kubectl set image: it writes the Deployment's template; the Deployment controller then " +
				"makes a ReplicaSet for the new template and moves the replicas over to it. A Deployment's pods " +
				"have one container, app (* also names it). Setting the image it already has changes nothing " +
				"and prints nothing.",
			Args: []ArgDoc{{Name: "deploy/NAME", Help: "the Deployment (also deploy NAME)", complete: completeRef},
				{Name: "app=IMAGE", Help: "the container and its new image", Values: []string{deployContainer + "="}, complete: completeValues}},
			Flags:    []FlagDoc{flagNamespace},
			Examples: []string{"set image deploy/web app=nginx:2.0", "set image deployment web app=nginx:1.0"},
		},
		words: []string{"set", "image"}, kinds: deployKinds, parse: parseSetImage,
	},
	{
		CommandDoc: CommandDoc{Name: "rollout status", Group: GroupRollouts,
			Usage:   "rollout status deploy/NAME [-n NS]",
			Summary: "say how far the Deployment's rollout has come, in kubectl's words",
			Details: "It prints kubectl rollout status's message for the state now and never waits: step or " +
				"stabilize, then ask again. A Deployment past its progress deadline is an error, as in kubectl.",
			Args:     []ArgDoc{{Name: "deploy/NAME", Help: "the Deployment (also deploy NAME)", complete: completeRef}},
			Flags:    []FlagDoc{flagNamespace},
			Examples: []string{"rollout status deploy/web"},
		},
		words: []string{"rollout", "status"}, kinds: deployKinds, parse: parseRolloutStatus,
	},
	{
		CommandDoc: CommandDoc{Name: "rollout history", Group: GroupRollouts,
			Usage:   "rollout history deploy/NAME [--revision=N] [-n NS]",
			Summary: "list a Deployment's revisions, or show one revision's pod template",
			Details: "The revisions are those of the Deployment's ReplicaSets (their deployment.kubernetes.io/revision " +
				"annotation); CHANGE-CAUSE is their kubernetes.io/change-cause annotation, copied from the " +
				"Deployment's when the rollout made them.",
			Args: []ArgDoc{{Name: "deploy/NAME", Help: "the Deployment (also deploy NAME)", complete: completeRef}},
			Flags: []FlagDoc{{Name: "revision", Type: TypeInt, Placeholder: "N", Default: "0", hi: 1<<31 - 1,
				Help: "show this revision's pod template; 0 lists them all"}, flagNamespace},
			Examples: []string{"rollout history deploy/web", "rollout history deploy/web --revision=2"},
		},
		words: []string{"rollout", "history"}, kinds: deployKinds, parse: parseRolloutHistory,
	},
	{
		CommandDoc: CommandDoc{Name: "rollout undo", Group: GroupRollouts,
			Usage:   "rollout undo deploy/NAME [--to-revision=N] [-n NS]",
			Summary: "roll a Deployment back to an earlier revision's pod template",
			Details: "As kubectl does it, on the client side: it copies the template (and annotations) of the " +
				"ReplicaSet with that revision into the Deployment, which the controller then rolls out like any " +
				"new template: the old ReplicaSet comes back as the newest revision, so revisions are renumbered. " +
				"It refuses a paused Deployment and a revision that does not exist, and skips the write when the " +
				"template already matches.",
			Args: []ArgDoc{{Name: "deploy/NAME", Help: "the Deployment (also deploy NAME)", complete: completeRef}},
			Flags: []FlagDoc{{Name: "to-revision", Type: TypeInt, Placeholder: "N", Default: "0", lo: -1 << 31, hi: 1<<31 - 1,
				Help: "the revision to go back to; 0 is the one before the newest"}, flagNamespace},
			Examples: []string{"rollout undo deploy/web", "rollout undo deploy/web --to-revision=1"},
		},
		words: []string{"rollout", "undo"}, kinds: deployKinds, parse: parseRolloutUndo,
	},
	{
		CommandDoc: CommandDoc{Name: "rollout pause", Group: GroupRollouts,
			Usage:   "rollout pause deploy/NAME [-n NS]",
			Summary: "pause a Deployment: template changes wait, scaling still happens",
			Details: "It sets spec.paused. While paused the controller makes no new ReplicaSet, so set image and " +
				"rollout restart only store the new template; scale still resizes the ReplicaSets, in proportion.",
			Args:     []ArgDoc{{Name: "deploy/NAME", Help: "the Deployment (also deploy NAME)", complete: completeRef}},
			Flags:    []FlagDoc{flagNamespace},
			Examples: []string{"rollout pause deploy/web"},
		},
		words: []string{"rollout", "pause"}, kinds: deployKinds, parse: parseRolloutPause,
	},
	{
		CommandDoc: CommandDoc{Name: "rollout resume", Group: GroupRollouts,
			Usage:    "rollout resume deploy/NAME [-n NS]",
			Summary:  "resume a paused Deployment: the stored template rolls out",
			Args:     []ArgDoc{{Name: "deploy/NAME", Help: "the Deployment (also deploy NAME)", complete: completeRef}},
			Flags:    []FlagDoc{flagNamespace},
			Examples: []string{"rollout resume deploy/web"},
		},
		words: []string{"rollout", "resume"}, kinds: deployKinds, parse: parseRolloutPause,
	},
	{
		CommandDoc: CommandDoc{Name: "rollout restart", Group: GroupRollouts,
			Usage:   "rollout restart deploy/NAME [-n NS]",
			Summary: "replace every pod of a Deployment through a rollout, with nothing else changed",
			Details: "As kubectl does it: it sets the pod template's kubectl.kubernetes.io/restartedAt annotation " +
				"to the (simulated) time, a new template, so a new revision. kubectl refuses a paused Deployment, " +
				"and a second restart within the same second.",
			Args:     []ArgDoc{{Name: "deploy/NAME", Help: "the Deployment (also deploy NAME)", complete: completeRef}},
			Flags:    []FlagDoc{flagNamespace},
			Examples: []string{"rollout restart deploy/web"},
		},
		words: []string{"rollout", "restart"}, kinds: deployKinds, parse: parseRolloutRestart,
	},

	// Things that happen to pods.
	{
		CommandDoc: CommandDoc{Name: "kill", Group: GroupPods,
			Usage:    "kill pods -l SEL [--pick=...] [--count=N]",
			Summary:  "kill pods the way chaos tools do: delete them with grace period 0",
			Args:     []ArgDoc{{Name: "KIND", Help: "pods with -l SEL, or pod/NAME", complete: completeRef}},
			Flags:    selection,
			Examples: []string{"kill pods -l app=web --pick=oldest", "kill pods -l app=web --count=2 --pick=random", "kill pod/stray"},
		},
		words: []string{"kill"}, kinds: podKinds, parse: parsePodAction,
	},
	{
		CommandDoc: CommandDoc{Name: "crash", Group: GroupPods,
			Usage:   "crash pods -l SEL [--pick=...] [--count=N]",
			Summary: "make a pod's container exit: the kubelet restarts it",
			Details: "The pod stays, with restartCount one higher, and is not Ready until its container is back " +
				"(kubelet-start later).",
			Args:     []ArgDoc{{Name: "KIND", Help: "pods with -l SEL, or pod/NAME", complete: completeRef}},
			Flags:    selection,
			Examples: []string{"crash pods -l app=web --pick=newest", "crash pods --all"},
		},
		words: []string{"crash"}, kinds: podKinds, parse: parsePodAction,
	},
	{
		CommandDoc: CommandDoc{Name: "evict", Group: GroupPods,
			Usage:    "evict pods -l SEL [--pick=...] [--count=N]",
			Summary:  "have the kubelet evict pods: phase Failed, reason Evicted",
			Args:     []ArgDoc{{Name: "KIND", Help: "pods with -l SEL, or pod/NAME", complete: completeRef}},
			Flags:    selection,
			Examples: []string{"evict pods -l app=web --pick=2"},
		},
		words: []string{"evict"}, kinds: podKinds, parse: parsePodAction,
	},
	{
		CommandDoc: CommandDoc{Name: "set ready", Group: GroupPods,
			Usage:   "set ready pods -l SEL [--pick=...] [--count=N] true|false",
			Summary: "flip pods' readiness, as a readiness probe would",
			Args: []ArgDoc{{Name: "KIND", Help: "pods with -l SEL, or pod/NAME", complete: completeRef},
				{Name: "true|false", Help: "Ready or not", Values: []string{"true", "false"}, complete: completeValues}},
			Flags:    selection,
			Examples: []string{"set ready pods -l app=web --pick=oldest false", "set ready pod/stray true"},
		},
		words: []string{"set", "ready"}, kinds: podKinds, parse: parseSetReady,
	},

	// Faults.
	{
		CommandDoc: CommandDoc{Name: "fail", Group: GroupFaults,
			Usage:   "fail VERB RESOURCE (--count=N | --always) [--after=M] [--error=server|quota|conflict|namespace-terminating]",
			Summary: "make API requests fail",
			Details: "The requests that can fail are the controller's writes: create pods, delete pods, patch pods " +
				"(adopt and release) and update rs/status or rc/status. The first M matching requests go through, " +
				"then the next N fail (or all of them, with --always, until healed).",
			Args: []ArgDoc{{Name: "VERB", Help: "create, delete, update or patch", Values: []string{"create", "delete", "update", "patch"}, complete: completeValues},
				{Name: "RESOURCE", Help: "pods, rs/status or rc/status", complete: completeValues,
					Values: []string{"pods", "rs/status", "rc/status"}}},
			Flags: []FlagDoc{flagFaultCount,
				{Name: "always", Type: TypeBool, Help: "fail every matching request until healed"},
				{Name: "after", Type: TypeInt, Placeholder: "M", Default: "0", Help: "let M matching requests through first"},
				{Name: "error", Type: TypeEnum, Placeholder: "ERROR", Default: "server", Values: faultErrors,
					Help: "how the request fails: server (500), quota (403 exceeded quota), conflict (409), namespace-terminating (403)"}},
			Examples: []string{"fail create pods --count=2 --error=quota", "fail create pods --always --after=3",
				"fail delete pods --always", "fail update rs/status --count=1 --error=conflict", "fail patch pods --count=1"},
		},
		words: []string{"fail"}, parse: parseFail,
	},
	{
		CommandDoc: CommandDoc{Name: "drop watch", Group: GroupFaults,
			Usage:    "drop watch KIND --count=N",
			Summary:  "lose the next N watch events of a kind; the watch goes on",
			Args:     []ArgDoc{{Name: "KIND", Help: "pods, rs or rc", complete: completeKind}},
			Flags:    []FlagDoc{flagFaultCountRequired},
			Examples: []string{"drop watch pods --count=1", "drop watch rs --count=3"},
		},
		words: []string{"drop", "watch"}, kinds: watchKinds, parse: parseWatchFault,
	},
	{
		CommandDoc: CommandDoc{Name: "break watch", Group: GroupFaults,
			Usage:    "break watch KIND",
			Summary:  "close the watch; the reflector re-watches from its last resourceVersion",
			Args:     []ArgDoc{{Name: "KIND", Help: "pods, rs or rc", complete: completeKind}},
			Examples: []string{"break watch pods"},
		},
		words: []string{"break", "watch"}, kinds: watchKinds, parse: parseWatchFault,
	},
	{
		CommandDoc: CommandDoc{Name: "expire watch", Group: GroupFaults,
			Usage:    "expire watch KIND",
			Summary:  "close the watch with a resourceVersion too old to resume: the reflector relists",
			Args:     []ArgDoc{{Name: "KIND", Help: "pods, rs or rc", complete: completeKind}},
			Examples: []string{"expire watch rc"},
		},
		words: []string{"expire", "watch"}, kinds: watchKinds, parse: parseWatchFault,
	},
	{
		CommandDoc: CommandDoc{Name: "delay watch", Group: GroupFaults,
			Usage:   "delay watch KIND D",
			Summary: "deliver a kind's watch events D late, until healed",
			Args: []ArgDoc{{Name: "KIND", Help: "pods, rs or rc", complete: completeKind},
				{Name: "D", Help: "the extra delay, a duration such as 500ms or 2s"}},
			Examples: []string{"delay watch pods 2s"},
		},
		words: []string{"delay", "watch"}, kinds: watchKinds, parse: parseWatchFault,
	},
	{
		CommandDoc: CommandDoc{Name: "slow kubelet", Group: GroupFaults,
			Usage:    "slow kubelet D",
			Summary:  "make kubelet-start D from now on: pods take D to become Running and Ready",
			Args:     []ArgDoc{{Name: "D", Help: "the new start delay, a duration"}},
			Examples: []string{"slow kubelet 30s"},
		},
		words: []string{"slow", "kubelet"}, parse: parseSlowKubelet,
	},
	{
		CommandDoc: CommandDoc{Name: "heal", Group: GroupFaults,
			Usage:   "heal [all | VERB [RESOURCE] | watch [KIND] | kubelet]",
			Summary: "end faults",
			Details: "heal and heal all end every fault. heal create pods ends the fail rules for that request; " +
				"heal watch pods ends the pod watch's faults, and a watch that lost events relists, so the cache " +
				"is whole again; heal kubelet undoes slow kubelet.",
			Args: []ArgDoc{{Name: "WHAT", Optional: true, Help: "all, a verb and resource, watch and a kind, or kubelet",
				Values: []string{"all", "watch", "kubelet", "create", "delete", "update", "patch"}, complete: completeValues},
				{Name: "RESOURCE|KIND", Optional: true, Help: "what the verb or watch is about"}},
			Examples: []string{"heal", "heal all", "heal create pods", "heal update rs/status", "heal watch pods", "heal kubelet"},
		},
		words: []string{"heal"}, parse: parseHeal,
	},

	// Time and stepping.
	{
		CommandDoc: CommandDoc{Name: "seed", Group: GroupTime,
			Usage:   "seed N",
			Summary: "seed the world's random source (default 1); only as a script's first command",
			Details: "Generated names, uids, back-off jitter and --pick=random all draw from it, so a seed " +
				"reproduces a run exactly. rlab run --seed=N overrides it.",
			Args:     []ArgDoc{{Name: "N", Help: "a whole number from 1"}},
			Examples: []string{"seed 4"},
		},
		words: []string{"seed"}, parse: parseSeed,
	},
	{
		CommandDoc: CommandDoc{Name: "config", Group: GroupTime,
			Usage:   "config KEY=VALUE...",
			Summary: "set the world's knobs: workers, burst-replicas, kubelet-start, kubelet-stop, resync, api-latency, watch-latency",
			Details: "workers and burst-replicas are whole numbers from 1; the others are durations from 0. " +
				"help config lists each key with its default.",
			Args:     []ArgDoc{{Name: "KEY=VALUE", Help: "a key and its value", Repeated: true, complete: completeConfig}},
			Examples: []string{"config workers=1 burst-replicas=2", "config kubelet-start=5s kubelet-stop=1s resync=0 api-latency=2ms watch-latency=5ms"},
		},
		words: []string{"config"}, parse: parseConfig,
	},
	{
		CommandDoc: CommandDoc{Name: "step", Group: GroupTime,
			Usage:    "step [N]",
			Summary:  "run the next N kernel events (default 1)",
			Args:     []ArgDoc{{Name: "N", Optional: true, Help: "how many events, from 1"}},
			Examples: []string{"step", "step 10"},
		},
		words: []string{"step"}, parse: parseStep,
	},
	{
		CommandDoc: CommandDoc{Name: "advance", Group: GroupTime,
			Usage:    "advance D",
			Summary:  "move the clock forward by D, running every event that comes due",
			Args:     []ArgDoc{{Name: "D", Help: "a duration such as 500ms, 5s or 2m"}},
			Examples: []string{"advance 5s", "advance 1m30s"},
		},
		words: []string{"advance"}, parse: parseAdvance,
	},
	{
		CommandDoc: CommandDoc{Name: "until sync", Group: GroupTime,
			Usage:   "until sync rs/NAME [--max-steps=N] [--max-time=D] [-n NS]",
			Summary: "run until the next sync of that key has ended",
			Details: "A sync has ended when its worker calls Done for the key; by then every write the sync issued " +
				"itself (its pod creates and deletes, its status) has been applied. Its Events are not among them: " +
				"the event recorder writes them on its own, a little later, as upstream's broadcaster does, so " +
				"advance or stabilize before counting them with expect events. Also rc/NAME, and deploy/NAME: " +
				"the Deployment controller's sync, whose writes are ReplicaSets (creates and scales) and the " +
				"Deployment's status, so a rollout can be walked one decision at a time.",
			Args:     []ArgDoc{{Name: "KIND/NAME", Help: "rs/NAME, rc/NAME or deploy/NAME", complete: completeRef}},
			Flags:    []FlagDoc{flagMaxSteps, flagMaxTime, flagNamespace},
			Examples: []string{"until sync rs/web", "until sync rc legacy --max-time=1m", "until sync deploy/web"},
		},
		words: []string{"until", "sync"}, kinds: syncKinds, parse: parseUntilSync,
	},
	{
		CommandDoc: CommandDoc{Name: "stabilize", Group: GroupTime,
			Usage:   "stabilize [--max-steps=N] [--max-time=D]",
			Summary: "run until nothing is left to do but periodic timers",
			Details: "It advances the clock through pending timers, and fails with a clear message when it hits " +
				"a limit first.",
			Flags:    []FlagDoc{flagMaxSteps, flagMaxTime},
			Examples: []string{"stabilize", "stabilize --max-steps=500 --max-time=30s"},
		},
		words: []string{"stabilize"}, parse: parseStabilize,
	},

	// Assertions.
	{
		CommandDoc: CommandDoc{Name: "expect pods", Group: GroupAssertions,
			Usage:   "expect pods [-l SEL] count=N [phase=P] [ready=true|false] [owner=rs/NAME|none] [terminating=true|false] [node=NODE] [restarts=N] [image=IMAGE] [-n NS]",
			Summary: "count the pods that match the selector and every filter",
			Details: "Without -l every pod of the namespace counts. Numbers compare with =, !=, <, <=, > and >=; " +
				"words with = and !=. Any pod field path works as a filter too (status.phase=Running); help fields lists them.",
			Args: []ArgDoc{{Name: "count=N", Help: "how many pods match", complete: completeCountField},
				{Name: "FILTER", Help: "phase, ready, owner, terminating, node, restarts, image or a field path, with a comparison",
					Optional: true, Repeated: true, complete: completeCountField}},
			Flags: []FlagDoc{flagSelector, flagNamespace},
			Examples: []string{"expect pods -l app=web count=3", "expect pods -l app=web count=3 phase=Running ready=true owner=rs/web",
				"expect pods -l app=web count>=1 terminating=true", "expect pods count=0 owner!=none restarts>0",
				"expect pods -l app=web count=4 image=nginx:2.0"},
		},
		words: []string{"expect", "pods"}, kinds: podKinds, parse: parseExpectPods,
	},
	{
		CommandDoc: CommandDoc{Name: "expect rs", Group: GroupAssertions,
			Usage:   "expect rs [-l SEL] count=N [owner=deploy/NAME|none] [revision=N] [replicas=N] [ready=N] [available=N] [-n NS]",
			Summary: "count the ReplicaSets that match the selector and every filter",
			Details: "A Deployment's ReplicaSets have generated names (NAME-HASH), so scripts select them. revision " +
				"is the deployment.kubernetes.io/revision annotation; replicas, ready and available are " +
				"spec.replicas, status.readyReplicas and status.availableReplicas. Any ReplicaSet field path works " +
				"as a filter too. expect rs NAME FIELD=VALUE checks one ReplicaSet, as expect rs/NAME does.",
			Args: []ArgDoc{{Name: "count=N", Help: "how many ReplicaSets match", complete: completeCountField},
				{Name: "FILTER", Help: "owner, revision, replicas, ready, available or a field path, with a comparison",
					Optional: true, Repeated: true, complete: completeCountField}},
			Flags: []FlagDoc{flagSelector, flagNamespace},
			Examples: []string{"expect rs -l app=web count=2 owner=deploy/web", "expect rs -l app=web count=1 revision=2 replicas=4 available=4",
				"expect rs -l app=web count=1 replicas>0"},
		},
		words: []string{"expect", "rs"}, kinds: rsKinds, parse: parseExpectRS,
	},
	{
		CommandDoc: CommandDoc{Name: "expect deploy", Group: GroupAssertions,
			Usage:   "expect deploy [-l SEL] count=N [FIELD=VALUE...] [-n NS]",
			Summary: "count the Deployments that match the selector and every filter",
			Details: "It says what expect deploy/NAME cannot, since that one needs the Deployment to exist: " +
				"count=0 once it is gone, or count=1 with metadata.deletionTimestamp!=\"\" while a foreground " +
				"deletion holds it. Any Deployment field path works as a filter. expect deploy NAME FIELD=VALUE " +
				"checks one Deployment, as expect deploy/NAME does.",
			Args: []ArgDoc{{Name: "count=N", Help: "how many Deployments match", complete: completeCountField},
				{Name: "FILTER", Help: "a field path, with a comparison", Optional: true, Repeated: true, complete: completeCountField}},
			Flags: []FlagDoc{flagSelector, flagNamespace},
			Examples: []string{"expect deploy -l app=web count=0", "expect deploy -l app=web count=1 metadata.deletionTimestamp!=\"\"",
				"expect deploy count=2 spec.paused=false"},
		},
		words: []string{"expect", "deploy"}, kinds: deployKinds, parse: parseExpectDeploy,
	},
	{
		CommandDoc: CommandDoc{Name: "expect", Group: GroupAssertions,
			Usage:   "expect KIND/NAME FIELD=VALUE... [-n NS]",
			Summary: "check fields of one object: expect rs/web status.replicas=3",
			Details: "Field paths are those of the object's manifest (help fields lists them). An absent number " +
				"is 0, an absent string is empty, an absent list is empty. Numbers compare with =, !=, <, <=, > " +
				"and >=; words with = and !=.",
			Args: []ArgDoc{{Name: "KIND/NAME", Help: "rs/NAME, rc/NAME, deploy/NAME, pod/NAME or node/NAME", complete: completeRef},
				{Name: "FIELD=VALUE", Help: "a field path, a comparison and a value", Repeated: true, complete: completeField}},
			Flags: []FlagDoc{flagNamespace},
			Examples: []string{"expect rs/web status.replicas=3", "expect rs/web status.readyReplicas=3 status.availableReplicas>=2",
				"expect rc legacy spec.replicas=2 metadata.labels.app=legacy", "expect pod/stray status.phase=Running owner=rs/web",
				"expect node/node-1 spec.unschedulable=true", "expect deploy/web status.updatedReplicas=4 spec.paused=false"},
		},
		words: []string{"expect"}, kinds: describeKinds, parse: parseExpectObject,
	},
	{
		CommandDoc: CommandDoc{Name: "expect condition", Group: GroupAssertions,
			Usage:   "expect condition KIND/NAME TYPE=STATUS [reason=R] [-n NS]",
			Summary: "check a condition of an object",
			Details: "STATUS is True, False, Unknown or absent (no condition of that type). ReplicaSets and " +
				"ReplicationControllers report ReplicaFailure; Deployments Available, Progressing and " +
				"ReplicaFailure; pods Ready and PodScheduled; nodes Ready.",
			Args: []ArgDoc{{Name: "KIND/NAME", Help: "rs/NAME, rc/NAME, deploy/NAME, pod/NAME or node/NAME", complete: completeRef},
				{Name: "TYPE=STATUS", Help: "the condition type and its status"},
				{Name: "reason=R", Optional: true, Help: "the condition's reason"}},
			Flags: []FlagDoc{flagNamespace},
			Examples: []string{"expect condition rs/web ReplicaFailure=True reason=FailedCreate",
				"expect condition rs/web ReplicaFailure=absent", "expect condition pod/stray Ready=True",
				"expect condition deploy/web Progressing=False reason=ProgressDeadlineExceeded"},
		},
		words: []string{"expect", "condition"}, kinds: describeKinds, parse: parseExpectCondition,
	},
	{
		CommandDoc: CommandDoc{Name: "expect queue", Group: GroupAssertions,
			Usage:   "expect queue NAME len=N | expect queue NAME contains KEY",
			Summary: "check a controller's work queue",
			Details: "NAME is the queue's name, replicaset or replicationmanager (rs and rc work too). len counts " +
				"the keys waiting, not those being processed or delayed. KEY is NAMESPACE/NAME, or NAME in the " +
				"namespace given with -n.",
			Args: []ArgDoc{{Name: "NAME", Help: "replicaset or replicationmanager",
				Values: []string{"replicaset", "replicationmanager"}, complete: completeValues},
				{Name: "len=N|contains KEY", Help: "what to check"}},
			Flags:    []FlagDoc{flagNamespace},
			Examples: []string{"expect queue replicaset len=0", "expect queue rs contains default/web", "expect queue replicationmanager len>0"},
		},
		words: []string{"expect", "queue"}, parse: parseExpectQueue,
	},
	{
		CommandDoc: CommandDoc{Name: "expect expectations", Group: GroupAssertions,
			Usage:   "expect expectations rs/NAME [add=N] [del=N] [satisfied=true|false] [-n NS]",
			Summary: "check the creates and deletes a controller still expects to see",
			Args: []ArgDoc{{Name: "KIND/NAME", Help: "rs/NAME or rc/NAME", complete: completeRef},
				{Name: "CHECK", Help: "add, del or satisfied with a comparison", Repeated: true,
					Values: []string{"add=", "del=", "satisfied="}, complete: completeValues}},
			Flags:    []FlagDoc{flagNamespace},
			Examples: []string{"expect expectations rs/web add=0 del=0 satisfied=true", "expect expectations rc/legacy add>0"},
		},
		words: []string{"expect", "expectations"}, kinds: controllerKinds, parse: parseExpectExpectations,
	},
	{
		CommandDoc: CommandDoc{Name: "expect syncs", Group: GroupAssertions,
			Usage:   "expect syncs rs/NAME count=N [-n NS]",
			Summary: "count the syncs of an owner that have ended",
			Details: "A sync has ended when its worker called Done for the key; a sync that failed counts too. " +
				"Also rc/NAME.",
			Args: []ArgDoc{{Name: "KIND/NAME", Help: "rs/NAME or rc/NAME", complete: completeRef},
				{Name: "count=N", Help: "how many syncs, with a comparison", Values: []string{"count="}, complete: completeValues}},
			Flags:    []FlagDoc{flagNamespace},
			Examples: []string{"expect syncs rs/web count=2", "expect syncs rc/legacy count>=1"},
		},
		words: []string{"expect", "syncs"}, kinds: controllerKinds, parse: parseExpectSyncs,
	},
	{
		CommandDoc: CommandDoc{Name: "expect events", Group: GroupAssertions,
			Usage:   "expect events [reason=R] [object=KIND/NAME] [type=Normal|Warning] count=N|total=N [-n NS]",
			Summary: "count Events",
			Details: "count counts Event objects; total sums their count fields, since similar Events are merged " +
				"into one whose count goes up.",
			Args: []ArgDoc{{Name: "CHECK", Help: "filters, and count or total with a comparison", Repeated: true,
				Values:   []string{"reason=", "object=", "type=", "count=", "total="},
				complete: completeValues, named: []namedKey{{"object=", namesObject}}}},
			Flags:    []FlagDoc{flagNamespace},
			Examples: []string{"expect events reason=FailedCreate object=rs/web count=1", "expect events reason=SuccessfulCreate total=3", "expect events type=Warning count=0"},
		},
		words: []string{"expect", "events"}, parse: parseExpectEvents,
	},
	{
		CommandDoc: CommandDoc{Name: "expect requests", Group: GroupAssertions,
			Usage:   "expect requests [verb=V] [resource=R] count=N",
			Summary: "count the API requests received, failed ones included",
			Details: "resource=R matches the resource itself; subresources are written R/SUB (pods/binding, rs/status).",
			Args: []ArgDoc{{Name: "CHECK", Help: "filters, and count with a comparison", Repeated: true,
				Values: []string{"verb=", "resource=", "count="}, complete: completeValues}},
			Examples: []string{"expect requests verb=create resource=pods count=3", "expect requests resource=rs/status count>=1", "expect requests count<100"},
		},
		words: []string{"expect", "requests"}, parse: parseExpectRequests,
	},
	{
		CommandDoc: CommandDoc{Name: "expect cache", Group: GroupAssertions,
			Usage:   "expect cache pods [-l SEL] count=N [filters...] | expect cache KIND/NAME FIELD=VALUE...",
			Summary: "like expect pods and expect KIND/NAME, but read the controller's informer cache",
			Details: "expect reads the API store, which is the truth; expect cache reads what the controller " +
				"believes, which lags behind and can miss events while a watch is faulty.",
			Args: []ArgDoc{{Name: "pods|KIND/NAME", Help: "as for expect pods or expect KIND/NAME", complete: completeRef},
				{Name: "CHECK", Help: "as for expect pods or expect KIND/NAME", Repeated: true}},
			Flags:    []FlagDoc{flagSelector, flagNamespace},
			Examples: []string{"expect cache pods -l app=web count=3", "expect cache rs/web status.replicas=3"},
		},
		words: []string{"expect", "cache"}, kinds: watchKinds, parse: parseExpectCache,
	},

	// Reading.
	{
		CommandDoc: CommandDoc{Name: "get", Group: GroupReading,
			Usage:   "get KIND [NAME] [-l SEL] [-o wide|json|yaml] [--show-labels] [-n NS]",
			Summary: "list objects, as kubectl get does",
			Details: "-o json and -o yaml print real Kubernetes manifests, so what you see can be applied to a " +
				"real cluster. Also get KIND/NAME.",
			Args: []ArgDoc{{Name: "KIND", Help: "pods, rs, rc, deploy, nodes or events", complete: completeRef},
				{Name: "NAME", Optional: true, Help: "one object"}},
			Flags: []FlagDoc{flagSelector,
				{Name: "output", Short: "o", Type: TypeEnum, Placeholder: "FORMAT", Values: []string{"wide", "json", "yaml"},
					Help: "print more columns, or the objects as manifests"},
				{Name: "show-labels", Type: TypeBool, Help: "add a column with the labels"},
				flagNamespace},
			Examples: []string{"get pods", "get pods -l app=web -o wide", "get rs/web -o yaml", "get rs web --output=json", "get nodes --show-labels", "get events",
				"get deploy -o wide"},
		},
		words: []string{"get"}, kinds: allKinds, parse: parseGet,
	},
	{
		CommandDoc: CommandDoc{Name: "describe", Group: GroupReading,
			Usage:    "describe KIND/NAME [-n NS]",
			Summary:  "show one object in detail, with its Events",
			Args:     []ArgDoc{{Name: "KIND/NAME", Help: "pod/NAME, rs/NAME, rc/NAME, deploy/NAME or node/NAME (also KIND NAME)", complete: completeRef}},
			Flags:    []FlagDoc{flagNamespace},
			Examples: []string{"describe rs/web", "describe pod stray", "describe deploy/web"},
		},
		words: []string{"describe"}, kinds: describeKinds, parse: parseDescribe,
	},
	{
		CommandDoc: CommandDoc{Name: "queue", Group: GroupReading,
			Usage:   "queue [NAME]",
			Summary: "show the controllers' work queues: keys waiting, being processed and delayed",
			Args: []ArgDoc{{Name: "NAME", Optional: true, Help: "replicaset or replicationmanager (default both)",
				Values: []string{"replicaset", "replicationmanager"}, complete: completeValues}},
			Examples: []string{"queue", "queue replicaset"},
		},
		words: []string{"queue"}, parse: parseShow,
	},
	{
		CommandDoc: CommandDoc{Name: "cache", Group: GroupReading,
			Usage:    "cache [KIND]",
			Summary:  "show the informers' caches, and how they differ from the API store",
			Args:     []ArgDoc{{Name: "KIND", Optional: true, Help: "pods, rs or rc (default all)", complete: completeKind}},
			Examples: []string{"cache", "cache pods"},
		},
		words: []string{"cache"}, kinds: watchKinds, parse: parseShow,
	},
	{
		CommandDoc: CommandDoc{Name: "expectations", Group: GroupReading,
			Usage:    "expectations",
			Summary:  "show the controllers' expectations: creates and deletes they still wait to see",
			Examples: []string{"expectations"},
		},
		words: []string{"expectations"}, parse: parseShow,
	},
	{
		CommandDoc: CommandDoc{Name: "agenda", Group: GroupReading,
			Usage:    "agenda [N]",
			Summary:  "show the kernel's pending events, soonest first",
			Args:     []ArgDoc{{Name: "N", Optional: true, Help: "show only the first N"}},
			Examples: []string{"agenda", "agenda 5"},
		},
		words: []string{"agenda"}, parse: parseShow,
	},
	{
		CommandDoc: CommandDoc{Name: "requests", Group: GroupReading,
			Usage:    "requests [N]",
			Summary:  "show the API requests received so far",
			Args:     []ArgDoc{{Name: "N", Optional: true, Help: "show only the last N"}},
			Examples: []string{"requests", "requests 20"},
		},
		words: []string{"requests"}, parse: parseShow,
	},
	{
		CommandDoc: CommandDoc{Name: "trace", Group: GroupReading,
			Usage:    "trace [N]",
			Summary:  "show the kernel events run so far, one line each",
			Args:     []ArgDoc{{Name: "N", Optional: true, Help: "show only the last N"}},
			Examples: []string{"trace", "trace 50"},
		},
		words: []string{"trace"}, parse: parseShow,
	},

	// Help.
	{
		CommandDoc: CommandDoc{Name: "help", Group: GroupHelp,
			Usage:   "help [COMMAND | kinds | fields | config | selectors]",
			Summary: "list the commands, or explain one",
			Args: []ArgDoc{{Name: "TOPIC", Optional: true, Repeated: true,
				Help: "a command (create rs, expect), or kinds, fields, config, selectors", complete: completeTopic}},
			Examples: []string{"help", "help create rs", "help expect", "help fields"},
		},
		words: []string{"help"}, parse: parseHelp,
	},
}

// Commands describes every command, in table order, for help and the page's
// help panel. The result is a copy: changing it changes nothing.
func Commands() []CommandDoc {
	out := make([]CommandDoc, len(table))
	for i, s := range table {
		out[i] = s.doc()
	}
	return out
}

// doc returns a deep copy of the row's documentation with its aliases filled in.
func (s *spec) doc() CommandDoc {
	d := s.CommandDoc
	d.Aliases = nil
	for i, w := range s.words {
		if i == 0 {
			continue
		}
		if k, ok := kindOf(w); ok {
			for _, n := range kindTable[slices.IndexFunc(kindTable, func(kd KindDoc) bool { return kd.Kind == k })].Names {
				if n != w {
					d.Aliases = append(d.Aliases, strings.Join(s.words[:i], " ")+" "+n)
				}
			}
		}
	}
	d.Args = slices.Clone(d.Args)
	for i := range d.Args {
		d.Args[i].Values = slices.Clone(d.Args[i].Values)
	}
	d.Flags = slices.Clone(d.Flags)
	for i := range d.Flags {
		d.Flags[i].Values = slices.Clone(d.Flags[i].Values)
	}
	d.Examples = slices.Clone(d.Examples)
	return d
}

// firstWords lists the distinct first words of the table, in table order.
// The slice is shared: callers must not change it.
func firstWords() []string { return firstWordList }

// firstWordList is firstWords' answer, computed once the table is built.
var firstWordList []string

func listFirstWords() []string {
	var out []string
	for _, s := range table {
		if !slices.Contains(out, s.words[0]) {
			out = append(out, s.words[0])
		}
	}
	return out
}

// wordMatches reports whether an input word selects a command word: the same
// word, or, where the command word names a kind, any name of that kind.
func wordMatches(cmdWord, input string) bool {
	if cmdWord == input {
		return true
	}
	k, ok := kindOf(cmdWord)
	if !ok {
		return false
	}
	ik, ok := kindOf(input)
	return ok && ik == k
}

// FieldDoc describes a field that expect can check.
type FieldDoc struct {
	// Path is the field path; a map field ends in KEY: metadata.labels.KEY.
	Path string `json:"path"`
	// Kinds are the short names of the kinds that have the field.
	Kinds []string  `json:"kinds"`
	Type  ValueType `json:"type"`
	// Values are the values of an enum.
	Values []string `json:"values,omitempty"`
	Help   string   `json:"help"`
	// Filter marks the short names expect pods offers as filters (phase, ready, …).
	Filter bool `json:"filter,omitempty"`
}

// Value is a field's value as expect compares it.
type Value struct {
	_ incomparable

	Type ValueType
	// Int is set for TypeInt, Bool for TypeBool, Str for every other type.
	Int  int64
	Bool bool
	Str  string
}

// String prints the value as a script would write it.
func (v Value) String() string {
	switch v.Type {
	case TypeInt:
		return strconv.FormatInt(v.Int, 10)
	case TypeBool:
		return strconv.FormatBool(v.Bool)
	}
	return v.Str
}

// field is one row of the field table.
type field struct {
	// path is the field's path; for a map field (mapKey), the prefix up to and
	// including the dot before the key: "metadata.labels.".
	path   string
	mapKey bool
	kinds  []api.Kind
	typ    ValueType
	values []string
	help   string
	filter bool
	// names says which existing things the value names (owner, node), so
	// that completion can offer them.
	names valueNames
	// get reads the field from an object of one of kinds; key is the map key.
	get func(o api.Object, key string) Value
}

// doc returns the row as help shows it.
func (f *field) doc() FieldDoc {
	p := f.path
	if f.mapKey {
		p += "KEY"
	}
	return FieldDoc{Path: p, Kinds: shortNames(f.kinds), Type: f.typ, Values: slices.Clone(f.values), Help: f.help, Filter: f.filter}
}

// Fields describes every field expect can check, in table order.
func Fields() []FieldDoc {
	out := make([]FieldDoc, len(fieldTable))
	for i := range fieldTable {
		out[i] = fieldTable[i].doc()
	}
	return out
}

func intValue(n int64) Value    { return Value{Type: TypeInt, Int: n} }
func boolValue(b bool) Value    { return Value{Type: TypeBool, Bool: b} }
func strValue(s string) Value   { return Value{Type: TypeString, Str: s} }
func enumValue(s string) Value  { return Value{Type: TypeEnum, Str: s} }
func ownerValue(s string) Value { return Value{Type: TypeOwner, Str: s} }

// replicaFields are the fields ReplicaSets, ReplicationControllers and
// Deployments share.
type replicaFields struct {
	replicas, minReady                         int64
	statusReplicas, fullyLabeled, ready, avail int64
	observedGeneration                         int64
	template                                   *api.PodTemplateSpec
}

func replicaFieldsOf(o api.Object) replicaFields {
	var f replicaFields
	switch o := o.(type) {
	case *api.ReplicaSet:
		if o.Spec.Replicas != nil {
			f.replicas = int64(*o.Spec.Replicas)
		}
		s := o.Status
		f.minReady = int64(o.Spec.MinReadySeconds)
		f.statusReplicas, f.fullyLabeled, f.ready, f.avail = int64(s.Replicas), int64(s.FullyLabeledReplicas), int64(s.ReadyReplicas), int64(s.AvailableReplicas)
		f.observedGeneration = s.ObservedGeneration
		f.template = &o.Spec.Template
	case *api.ReplicationController:
		if o.Spec.Replicas != nil {
			f.replicas = int64(*o.Spec.Replicas)
		}
		s := o.Status
		f.minReady = int64(o.Spec.MinReadySeconds)
		f.statusReplicas, f.fullyLabeled, f.ready, f.avail = int64(s.Replicas), int64(s.FullyLabeledReplicas), int64(s.ReadyReplicas), int64(s.AvailableReplicas)
		f.observedGeneration = s.ObservedGeneration
		f.template = o.Spec.Template
	case *api.Deployment:
		if o.Spec.Replicas != nil {
			f.replicas = int64(*o.Spec.Replicas)
		}
		s := o.Status
		f.minReady = int64(o.Spec.MinReadySeconds)
		f.statusReplicas, f.ready, f.avail = int64(s.Replicas), int64(s.ReadyReplicas), int64(s.AvailableReplicas)
		f.observedGeneration = s.ObservedGeneration
		f.template = &o.Spec.Template
	}
	if f.template == nil {
		f.template = &api.PodTemplateSpec{}
	}
	return f
}

func podOf(o api.Object) *api.Pod {
	if p, ok := o.(*api.Pod); ok {
		return p
	}
	return &api.Pod{}
}

func deployOf(o api.Object) *api.Deployment {
	if d, ok := o.(*api.Deployment); ok {
		return d
	}
	return &api.Deployment{}
}

// podReady reports whether a pod's Ready condition is True.
func podReady(p *api.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

// ownerOf writes an object's controller as KIND/NAME, or none.
func ownerOf(m *api.ObjectMeta) string {
	ref := api.GetControllerOf(m)
	if ref == nil {
		return "none"
	}
	kind := api.Kind(ref.Kind)
	return shortName(kind) + "/" + ref.Name
}

// revisionOf is the deployment.kubernetes.io/revision annotation as a
// number; 0 when it is absent or not a number.
func revisionOf(m *api.ObjectMeta) int64 {
	v, err := printers.Revision(m)
	if err != nil {
		return 0
	}
	return v
}

// imagesOf lists the images of containers, comma-separated, as the IMAGES
// column of get -o wide does.
func imagesOf(containers []api.Container) string {
	images := make([]string, len(containers))
	for i, c := range containers {
		images[i] = c.Image
	}
	return strings.Join(images, ",")
}

// firstImage is the image of the first container, or "".
func firstImage(containers []api.Container) string {
	if len(containers) == 0 {
		return ""
	}
	return containers[0].Image
}

// rollingUpdateField reads maxSurge or maxUnavailable of a Deployment, ""
// when it has none (a Recreate Deployment).
func rollingUpdateField(o api.Object, surge bool) Value {
	ru := deployOf(o).Spec.Strategy.RollingUpdate
	if ru == nil {
		return strValue("")
	}
	v := ru.MaxUnavailable
	if surge {
		v = ru.MaxSurge
	}
	if v == nil {
		return strValue("")
	}
	return strValue(v.String())
}

func int32PtrValue(p *int32) Value {
	if p == nil {
		return intValue(0)
	}
	return intValue(int64(*p))
}

var (
	replicaKinds = controllerKinds
	metaKinds    = describeKinds
	ownedKinds   = []api.Kind{api.KindPod, api.KindReplicaSet}
	revKinds     = []api.Kind{api.KindReplicaSet, api.KindDeployment}
)

// fieldTable lists the fields expect can check, metadata first, then the
// short names expect pods and expect rs filter by, then spec and status.
// Absent numbers read 0 and absent strings "".
var fieldTable = []field{
	{path: "metadata.name", kinds: metaKinds, typ: TypeString, help: "the object's name",
		get: func(o api.Object, _ string) Value { return strValue(o.Meta().Name) }},
	{path: "metadata.namespace", kinds: deleteKinds, typ: TypeString, help: "the object's namespace",
		get: func(o api.Object, _ string) Value { return strValue(o.Meta().Namespace) }},
	{path: "metadata.labels.", mapKey: true, kinds: metaKinds, typ: TypeString, help: "one label's value",
		get: func(o api.Object, k string) Value { return strValue(o.Meta().Labels[k]) }},
	{path: "metadata.annotations.", mapKey: true, kinds: metaKinds, typ: TypeString, help: "one annotation's value",
		get: func(o api.Object, k string) Value { return strValue(o.Meta().Annotations[k]) }},
	{path: "metadata.generation", kinds: workloadKinds, typ: TypeInt, help: "counts changes to the spec",
		get: func(o api.Object, _ string) Value { return intValue(o.Meta().Generation) }},
	{path: "metadata.deletionTimestamp", kinds: metaKinds, typ: TypeString, help: "when deletion was asked for (RFC 3339), or empty",
		get: func(o api.Object, _ string) Value {
			if t := o.Meta().DeletionTimestamp; t != nil {
				return strValue(t.UTC().Format(time.RFC3339))
			}
			return strValue("")
		}},

	{path: "phase", kinds: podKinds, typ: TypeEnum, values: podPhases, filter: true, help: "the pod's phase (status.phase)",
		get: func(o api.Object, _ string) Value { return enumValue(podOf(o).Status.Phase) }},
	{path: "ready", kinds: podKinds, typ: TypeBool, filter: true, help: "whether the pod's Ready condition is True",
		get: func(o api.Object, _ string) Value { return boolValue(podReady(podOf(o))) }},
	{path: "owner", kinds: ownedKinds, typ: TypeOwner, filter: true, names: namesOwner,
		help: "the controller: a pod's rs/NAME or rc/NAME, a ReplicaSet's deploy/NAME, or none",
		get:  func(o api.Object, _ string) Value { return ownerValue(ownerOf(o.Meta())) }},
	{path: "terminating", kinds: podKinds, typ: TypeBool, filter: true, help: "whether the pod is being deleted",
		get: func(o api.Object, _ string) Value { return boolValue(o.Meta().DeletionTimestamp != nil) }},
	{path: "node", kinds: podKinds, typ: TypeString, filter: true, names: namesNode, help: "the node the pod is bound to, or empty (spec.nodeName)",
		get: func(o api.Object, _ string) Value { return strValue(podOf(o).Spec.NodeName) }},
	{path: "restarts", kinds: podKinds, typ: TypeInt, filter: true, help: "the restarts of the pod's containers, summed",
		get: func(o api.Object, _ string) Value {
			var n int64
			for _, c := range podOf(o).Status.ContainerStatuses {
				n += int64(c.RestartCount)
			}
			return intValue(n)
		}},
	{path: "image", kinds: podKinds, typ: TypeString, filter: true, help: "the image of the pod's container (comma-separated, if several)",
		get: func(o api.Object, _ string) Value { return strValue(imagesOf(podOf(o).Spec.Containers)) }},
	{path: "revision", kinds: revKinds, typ: TypeInt, filter: true,
		help: "the deployment.kubernetes.io/revision annotation: the rollout that made the ReplicaSet (a Deployment's: its newest)",
		get:  func(o api.Object, _ string) Value { return intValue(revisionOf(o.Meta())) }},
	{path: "replicas", kinds: rsKinds, typ: TypeInt, filter: true, help: "the pods the ReplicaSet wants (spec.replicas)",
		get: func(o api.Object, _ string) Value { return intValue(replicaFieldsOf(o).replicas) }},
	{path: "ready", kinds: rsKinds, typ: TypeInt, filter: true, help: "its pods that are Ready (status.readyReplicas)",
		get: func(o api.Object, _ string) Value { return intValue(replicaFieldsOf(o).ready) }},
	{path: "available", kinds: rsKinds, typ: TypeInt, filter: true, help: "its pods Ready for minReadySeconds (status.availableReplicas)",
		get: func(o api.Object, _ string) Value { return intValue(replicaFieldsOf(o).avail) }},

	{path: "spec.nodeName", kinds: podKinds, typ: TypeString, names: namesNode, help: "the node the pod is bound to",
		get: func(o api.Object, _ string) Value { return strValue(podOf(o).Spec.NodeName) }},
	{path: "spec.containers[0].image", kinds: podKinds, typ: TypeString, help: "the image of the pod's first container",
		get: func(o api.Object, _ string) Value { return strValue(firstImage(podOf(o).Spec.Containers)) }},
	{path: "status.phase", kinds: podKinds, typ: TypeEnum, values: podPhases, help: "the pod's phase",
		get: func(o api.Object, _ string) Value { return enumValue(podOf(o).Status.Phase) }},
	{path: "status.reason", kinds: podKinds, typ: TypeString, help: "why the pod is in its phase (Evicted)",
		get: func(o api.Object, _ string) Value { return strValue(podOf(o).Status.Reason) }},

	{path: "spec.unschedulable", kinds: nodeKinds, typ: TypeBool, help: "whether the node is cordoned",
		get: func(o api.Object, _ string) Value {
			n, _ := o.(*api.Node)
			return boolValue(n != nil && n.Spec.Unschedulable)
		}},

	{path: "spec.replicas", kinds: workloadKinds, typ: TypeInt, help: "the number of pods wanted",
		get: func(o api.Object, _ string) Value { return intValue(replicaFieldsOf(o).replicas) }},
	{path: "spec.minReadySeconds", kinds: workloadKinds, typ: TypeInt, help: "seconds Ready before a pod counts as available",
		get: func(o api.Object, _ string) Value { return intValue(replicaFieldsOf(o).minReady) }},
	{path: "spec.paused", kinds: deployKinds, typ: TypeBool, help: "whether rollouts are paused (rollout pause)",
		get: func(o api.Object, _ string) Value { return boolValue(deployOf(o).Spec.Paused) }},
	{path: "spec.strategy.type", kinds: deployKinds, typ: TypeEnum,
		values: []string{api.RollingUpdateDeploymentStrategy, api.RecreateDeploymentStrategy}, help: "how a new template replaces the pods",
		get: func(o api.Object, _ string) Value { return enumValue(deployOf(o).Spec.Strategy.Type) }},
	{path: "spec.strategy.rollingUpdate.maxSurge", kinds: deployKinds, typ: TypeString,
		help: "how many pods above spec.replicas a rollout may add, as written (1, 25%); empty for Recreate",
		get:  func(o api.Object, _ string) Value { return rollingUpdateField(o, true) }},
	{path: "spec.strategy.rollingUpdate.maxUnavailable", kinds: deployKinds, typ: TypeString,
		help: "how many pods below spec.replicas may be unavailable, as written; empty for Recreate",
		get:  func(o api.Object, _ string) Value { return rollingUpdateField(o, false) }},
	{path: "spec.revisionHistoryLimit", kinds: deployKinds, typ: TypeInt, help: "how many old ReplicaSets are kept",
		get: func(o api.Object, _ string) Value { return int32PtrValue(deployOf(o).Spec.RevisionHistoryLimit) }},
	{path: "spec.progressDeadlineSeconds", kinds: deployKinds, typ: TypeInt, help: "seconds a rollout may go without progress",
		get: func(o api.Object, _ string) Value { return int32PtrValue(deployOf(o).Spec.ProgressDeadlineSeconds) }},
	{path: "spec.template.metadata.labels.", mapKey: true, kinds: workloadKinds, typ: TypeString, help: "one label of the pods it creates",
		get: func(o api.Object, k string) Value { return strValue(replicaFieldsOf(o).template.Metadata.Labels[k]) }},
	{path: "spec.template.metadata.annotations.", mapKey: true, kinds: workloadKinds, typ: TypeString,
		help: "one annotation of the pods it creates (kubectl.kubernetes.io/restartedAt)",
		get: func(o api.Object, k string) Value {
			return strValue(replicaFieldsOf(o).template.Metadata.Annotations[k])
		}},
	{path: "spec.template.spec.containers[0].image", kinds: workloadKinds, typ: TypeString, help: "the image of its pods' first container",
		get: func(o api.Object, _ string) Value {
			return strValue(firstImage(replicaFieldsOf(o).template.Spec.Containers))
		}},
	{path: "status.replicas", kinds: workloadKinds, typ: TypeInt,
		help: "the pods it owns that are not being deleted (a Deployment: those of all its ReplicaSets)",
		get:  func(o api.Object, _ string) Value { return intValue(replicaFieldsOf(o).statusReplicas) }},
	{path: "status.updatedReplicas", kinds: deployKinds, typ: TypeInt, help: "those of its new ReplicaSet, the current template's",
		get: func(o api.Object, _ string) Value { return intValue(int64(deployOf(o).Status.UpdatedReplicas)) }},
	{path: "status.fullyLabeledReplicas", kinds: replicaKinds, typ: TypeInt, help: "those whose labels match the template's",
		get: func(o api.Object, _ string) Value { return intValue(replicaFieldsOf(o).fullyLabeled) }},
	{path: "status.readyReplicas", kinds: workloadKinds, typ: TypeInt, help: "those that are Ready",
		get: func(o api.Object, _ string) Value { return intValue(replicaFieldsOf(o).ready) }},
	{path: "status.availableReplicas", kinds: workloadKinds, typ: TypeInt, help: "those Ready for at least minReadySeconds",
		get: func(o api.Object, _ string) Value { return intValue(replicaFieldsOf(o).avail) }},
	{path: "status.unavailableReplicas", kinds: deployKinds, typ: TypeInt, help: "spec.replicas less the available ones, at least 0",
		get: func(o api.Object, _ string) Value { return intValue(int64(deployOf(o).Status.UnavailableReplicas)) }},
	{path: "status.observedGeneration", kinds: workloadKinds, typ: TypeInt, help: "the generation the status describes",
		get: func(o api.Object, _ string) Value { return intValue(replicaFieldsOf(o).observedGeneration) }},
	{path: "status.collisionCount", kinds: deployKinds, typ: TypeInt, help: "pod-template-hash collisions met so far",
		get: func(o api.Object, _ string) Value { return int32PtrValue(deployOf(o).Status.CollisionCount) }},
}

// fieldsOf lists the indexes in fieldTable of the fields a kind has.
func fieldsOf(kind api.Kind) []int {
	var out []int
	for i := range fieldTable {
		if slices.Contains(fieldTable[i].kinds, kind) {
			out = append(out, i)
		}
	}
	return out
}
