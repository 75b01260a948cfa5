package export

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/printers"
	"github.com/reconcilelab/rlab/core/script"
	"github.com/reconcilelab/rlab/core/world"
)

// Part says whose commands the exporter is given: the setup's, which build
// the world a learner starts from, or the learner's.
type Part int

// The parts of a script, in the order they come.
const (
	PartSetup Part = iota
	PartLearner
)

// Exporter turns commands into kubectl, one at a time, as a session runs
// them. The caller runs each command in a script.Session and, when it ran
// without error, hands it over with Add and the session's world after it;
// Run does exactly that for a whole script.
type Exporter struct {
	part Part
	// gathering is set while the setup's creates still go to the world's
	// manifests: until the first setup command that changes the world in
	// another way, after which order matters and creates are applied where
	// they stand.
	gathering bool

	// world are the manifests of world.yaml, in the order created.
	world []string
	// setup and learner are the replay's lines after the world is applied:
	// the rest of the setup, and what the learner did.
	setup, learner []string
	// images are the container images the manifests and set image name,
	// in the order first met.
	images []string
	// picks says the replay uses the pick function.
	picks, waitsForPods bool

	// watchFaulted is set while a watch fault the script injected is in
	// force (fail rules are read from the world's store).
	watchFaulted bool
	// diverged is set once a command that has no kubectl (crash, evict,
	// set ready, a node command) changed the simulated world: the pod
	// counts a cluster reaches may differ from then on.
	diverged bool
	// atLastRest are the owners (rs/web, deploy/web, rc/db) that stood at
	// the last stabilize, to wait for the deletion of those that went.
	atLastRest []string
	// created are the owners the script created, by the names it gave
	// them: the only names a cluster shares.
	created []string
}

// New returns an exporter that expects the setup's commands first.
func New() *Exporter { return &Exporter{gathering: true} }

// Begin starts a part: every command added after it is the part's. The
// learner's part ends the gathering of the world.
func (x *Exporter) Begin(p Part) {
	if p != x.part {
		x.part = p
		x.gathering = false
	}
}

// refuse is the error of a command that cannot be exported, with why:
// file:line:col: cannot export "TEXT": WHY. (A plain error, not a type of
// its own, keeps main.wasm smaller.)
func refuse(cmd script.Command, msg string) error {
	src := cmd.Src()
	return errors.New(src.Pos.String() + ": cannot export " + strconv.Quote(src.Text) + ": " + msg)
}

// Add translates cmd, which the caller's session has just run without
// error; w is the session's world after it.
func (x *Exporter) Add(cmd script.Command, w *world.World) error {
	if ns := namespaceOf(cmd); ns != "" && ns != "default" {
		return refuse(cmd, "it uses namespace "+strconv.Quote(ns)+"; an export puts every object in one namespace, $NAMESPACE, which stands for the script's default")
	}
	src := cmd.Src()
	var out []string
	changesWorld := true
	switch c := cmd.(type) {
	case *script.CreateRS, *script.CreateRC, *script.CreateDeploy, *script.CreatePod:
		doc, err := x.manifest(cmd)
		if r := createdRef(cmd); r != "" {
			x.created = append(x.created, r)
		}
		if err != nil {
			return refuse(cmd, err.Error())
		}
		if x.gathering {
			x.world = append(x.world, doc)
			return nil
		}
		out = []string{kubectl("apply -f - <<'EOF'\n" + string(doc) + "EOF")}
		changesWorld = false
	case *script.Scale:
		out = []string{kubectl("scale " + ref(c.Object) + " --replicas=" + itoa(int64(c.Replicas)))}
	case *script.Label:
		verb := "label "
		if c.Annotate {
			verb = "annotate "
		}
		edits := ""
		for _, kv := range c.Set {
			edits += " " + quote(kv.Key+"="+kv.Value)
		}
		for _, k := range c.Remove {
			edits += " " + quote(k+"-")
		}
		if c.Overwrite {
			edits += " --overwrite"
		}
		out = x.verb(verb, c.Target, edits)
	case *script.Delete:
		if c.Target.Kind == api.KindNode || c.Target.Kind == api.KindEvent {
			x.diverged = true
			out = []string{comment(src.Text, "the simulator's "+c.Target.Kind.Resource()+"; on your cluster, delete your own with kubectl delete "+c.Target.Kind.Resource()+" NAME")}
			break
		}
		flags := ""
		if c.GracePeriod != nil {
			flags = " --grace-period=" + itoa(*c.GracePeriod)
		}
		if c.Cascade != "" && c.Target.Kind != api.KindPod {
			flags += " --cascade=" + string(c.Cascade)
		}
		// kubectl delete waits until the objects are gone; the simulator's
		// delete does not, so the replay waits where the script stabilizes.
		out = x.verb("delete ", c.Target, flags+" --wait=false")
	case *script.PodAction:
		if c.Action == "kill" {
			// A chaos tool's kill: kubectl sends a grace period of 0 only
			// with --force; without it, it turns 0 into 1. Crash and evict
			// have no kubectl: simulatorOnlyWhy says what to do.
			out = x.verb("delete ", c.Target, " --grace-period=0 --force --wait=false")
		}
	case *script.SetImage:
		line := "set image " + ref(c.Object)
		for _, kv := range c.Images {
			x.image(kv.Value)
			line += " " + quote(kv.Key+"="+kv.Value)
		}
		out = []string{kubectl(line)}
	case *script.RolloutPause:
		verb := "rollout resume "
		if c.Pause {
			verb = "rollout pause "
		}
		out = []string{kubectl(verb + ref(c.Object))}
	case *script.RolloutRestart:
		out = []string{kubectl("rollout restart " + ref(c.Object))}
	case *script.RolloutUndo:
		line := "rollout undo " + ref(c.Object)
		if c.ToRevision != 0 {
			line += " --to-revision=" + itoa(c.ToRevision)
		}
		out = []string{kubectl(line)}
	case *script.Advance:
		// Simulated time passes on a cluster as real time.
		out = []string{"sleep " + strconv.FormatFloat(c.D.Seconds(), 'f', -1, 64)}
		changesWorld = false
	case *script.Stabilize:
		out = x.stabilized(src.Text, w)
		changesWorld = false
	case *script.WatchFault:
		x.watchFaulted = true
	case *script.Heal:
		if c.Scope == script.HealAll || c.Scope == script.HealWatch {
			x.watchFaulted = false
		}
	case *script.Seed, *script.Config, *script.Step, *script.UntilSync, *script.Help:
		changesWorld = false
	}
	if out == nil {
		why, ok := simulatorOnly(src.Name)
		if !ok {
			// Reading and expecting change nothing: Run writes them with
			// the kubectl to look with (Read); here they are the command.
			why, changesWorld = "it only reads", false
		}
		if why != "" {
			out = []string{comment(src.Text, why)}
		}
		switch src.Name {
		case "crash", "evict", "set ready", "cordon", "uncordon", "create node":
			x.diverged = true
		}
	}
	if changesWorld {
		x.gathering = false
	}
	x.add(out...)
	return nil
}

// add appends lines to the current part.
func (x *Exporter) add(lines ...string) {
	if x.part == PartSetup {
		x.setup = append(x.setup, lines...)
	} else {
		x.learner = append(x.learner, lines...)
	}
}

// Comment adds a comment line to the current part: what a caller that
// drives its own session has to say that no command says (the page's
// bridge notes an input it could not replay).
func (x *Exporter) Comment(text string) { x.add("# " + text) }

// simulatorOnlyWhy says, for each command that only the simulator can
// carry out, what it did and what to do by hand on a cluster; "" leaves
// nothing in the replay. It is a table, not code, to keep main.wasm small.
var simulatorOnlyWhy = [...]struct{ name, why string }{
	{"help", ""},
	{"seed", "seeds the simulator's random choices (pod names, --pick=random); a cluster makes its own"},
	{"config", "the simulator's settings; a cluster's controllers and kubelets have their own"},
	{"step", "steps the simulator; a cluster does not stop between events, it goes on by itself"},
	{"until sync", "steps the simulator; a cluster does not stop between events, it goes on by itself"},
	{"fail", "the simulator's API server refuses these requests; a cluster can be made to refuse pod creates by hand, with a ResourceQuota: kubectl create quota"},
	{"drop watch", watchFaultWhy},
	{"break watch", watchFaultWhy},
	{"expire watch", watchFaultWhy},
	{"delay watch", watchFaultWhy},
	{"heal", "ends the simulator's faults"},
	{"slow kubelet", "the simulator's kubelets start pods this slowly from now on; a cluster's take what they take"},
	{"crash", "the container exits and its kubelet restarts it: on a cluster, make it exit (kubectl exec POD -- kill 1)"},
	{"evict", "the kubelet evicts the pod: on a cluster, a node under memory or disk pressure does; kubectl drain evicts through the API instead"},
	{"set ready", "the simulator's kubelet reports the pods' readiness; on a cluster a readiness probe decides it"},
	{"create node", "a node of the simulator; a cluster gets more nodes from its maker: kind create cluster with more workers in its config, or minikube start --nodes=N"},
	{"cordon", "on your cluster, pick a node of your own (kubectl get nodes) and run: kubectl cordon NODE"},
	{"uncordon", "on your cluster, pick a node of your own (kubectl get nodes) and run: kubectl uncordon NODE"},
}

const watchFaultWhy = "a fault of the simulator's watches; a cluster's informers lose events only when the network or the API server fails"

func simulatorOnly(name string) (string, bool) {
	for _, e := range simulatorOnlyWhy {
		if e.name == name {
			return e.why, true
		}
	}
	return "", false
}

// Read adds a command that only reads (get, describe, rollout status and
// history, an expect, a view of the simulator's insides) as a comment,
// with the kubectl to look with where there is one. Run calls it; the
// page's inputs are never reads, so main.wasm need not carry it.
func (x *Exporter) Read(cmd script.Command) {
	x.add("# " + cmd.Src().Text)
	if look := lookWith(cmd); look != "" {
		x.add("#   " + look)
	}
}

// verb writes a verb on a target: kind/name, pods -l SEL, or, for a
// --pick, the names the pick function prints, chosen on the cluster by
// creation time. flags follow the target.
func (x *Exporter) verb(verb string, t script.Target, flags string) []string {
	if t.ByName() {
		return []string{kubectl(verb + resource(t.Kind) + "/" + t.Name + flags)}
	}
	if t.Pick.Order == script.PickAll {
		sel := " --all"
		if t.SelectorText != "" {
			sel = " -l " + quote(t.SelectorText)
		}
		return []string{kubectl(verb + resource(t.Kind) + sel + flags)}
	}
	x.picks = true
	how := string(t.Pick.Order)
	if t.Pick.Order == script.PickIndex {
		how = strconv.Itoa(t.Pick.Index)
	}
	// An empty selector (--all) selects every object of the kind.
	out := []string{"targets=$(pick " + resource(t.Kind) + " " + quote(t.SelectorText) + " " + how + " " + strconv.Itoa(t.Pick.Count) + ")",
		kubectl(verb + "$targets" + flags)}
	if t.Pick.Order == script.PickRandom {
		out = append([]string{"# --pick=random: the simulator draws with its seed; here shuf draws, so the pod may differ."}, out...)
	}
	return out
}

// manifest is the YAML of what a create command creates, for kubectl
// apply, after a comment for what a manifest cannot say.
func (x *Exporter) manifest(cmd script.Command) (string, error) {
	var obj api.Object
	note := ""
	switch c := cmd.(type) {
	case *script.CreateRS:
		rs, err := c.Object()
		if err != nil {
			return "", err
		}
		obj = rs
	case *script.CreateRC:
		obj = c.Object()
	case *script.CreateDeploy:
		d, err := c.Object()
		if err != nil {
			return "", err
		}
		for _, ct := range d.Spec.Template.Spec.Containers {
			x.image(ct.Image)
		}
		obj = d
	case *script.CreatePod:
		pod := c.Object()
		if pod.Spec.NodeName != "" || c.Phase != "" || c.Ready {
			// The simulator's nodes are not the cluster's, and a status is
			// the kubelet's to report: the scheduler and a real kubelet do it.
			x.diverged = x.diverged || (c.Phase != "" && c.Phase != api.PodRunning)
			note = comment(c.Text, "the simulator binds pod/"+c.Name+" to "+orNone(c.Node)+" and sets its status; on a cluster the scheduler picks the node and the kubelet reports the status") + "\n"
			pod.Spec.NodeName = ""
		}
		obj = pod
	}
	doc, err := printers.ApplyYAML(obj)
	return note + string(doc), err
}

func orNone(node string) string {
	if node == "" {
		return "no node"
	}
	return node
}

func (x *Exporter) image(img string) {
	if img != "" && !slices.Contains(x.images, img) {
		x.images = append(x.images, img)
	}
}

// stabilized writes what a stabilize means on a cluster: waits for the
// state the simulated world rests in, where a cluster reaches it too.
func (x *Exporter) stabilized(text string, w *world.World) []string {
	out := []string{"# " + text + ": wait for the world to come to rest."}
	// With a fault of the simulator's in force, the simulated world may
	// rest with other pods than a cluster, which has no such fault (a lost
	// watch event leaves a killed pod unreplaced): the count of pods is
	// waited for then only when it is whole, what the owners want and the
	// bare pods. The owners' waits hold where they rest whole.
	faulted := x.watchFaulted || len(w.Store.Faults().Rules()) > 0
	pods := w.Store.Objects(api.KindPod, "default")
	whole := 0
	for _, p := range pods {
		if api.GetControllerOf(p.Meta()) == nil {
			whole++
		}
	}
	var owners []string
	var waits []string
	for _, kind := range []api.Kind{api.KindReplicaSet, api.KindReplicationController, api.KindDeployment} {
		for _, o := range w.Store.Objects(kind, "default") {
			m := o.Meta()
			if api.GetControllerOf(m) != nil {
				continue // a Deployment's ReplicaSet: its rollout is waited for
			}
			r := resource(kind) + "/" + m.Name
			whole += int(wanted(o))
			if !slices.Contains(x.created, r) {
				// A name the controller made (an orphaned ReplicaSet of a
				// Deployment, web-5c8dbf74b): a cluster's is another.
				waits = append(waits, "# "+r+" is named by its controller; on a cluster it has a name of its own.")
				continue
			}
			owners = append(owners, r)
			waits = append(waits, restWait(o, r))
		}
	}
	out = append(out, waits...)
	// The pods after the owners: an owner's status may still count a pod
	// just killed or relabelled, so its wait can hold too soon, and a
	// rollout's old pods are still going when rollout status is satisfied.
	if !x.diverged && (!faulted || whole == len(pods)) {
		x.waitsForPods = true
		ready := 0
		for _, p := range pods {
			if c := api.PodReadyCondition(p.(*api.Pod)); c != nil && c.Status == api.ConditionTrue {
				ready++
			}
		}
		// A ReplicaSet's status may still count a pod just killed as
		// available: the pods' own readiness is what says the replacement
		// is up.
		out = append(out, "wait_pods "+strconv.Itoa(len(pods))+" "+strconv.Itoa(ready))
	}
	for _, r := range x.atLastRest {
		if !slices.Contains(owners, r) {
			out = append(out, kubectl("wait --for=delete "+r+" --timeout=5m"))
		}
	}
	x.atLastRest = owners
	return out
}

// restWait is the wait for one owner at rest, or "" when it rests short of
// what it wants (a cluster would not stop there) or has no wait.
func restWait(o api.Object, r string) string {
	var want, ready int32
	switch v := o.(type) {
	case *api.ReplicaSet:
		want, ready = deref(v.Spec.Replicas), v.Status.AvailableReplicas
	case *api.ReplicationController:
		want, ready = deref(v.Spec.Replicas), v.Status.AvailableReplicas
	case *api.Deployment:
		if _, done, err := printers.RolloutStatus(v); err != nil || !done || v.Spec.Paused {
			return "# " + r + " is not rolled out at rest (paused, or past its deadline): kubectl rollout status would wait for ever."
		}
		return kubectl("rollout status " + r + " --timeout=5m")
	}
	if ready != want {
		return "# " + r + " rests with " + itoa(int64(ready)) + " of " + itoa(int64(want)) + " pods available here; a cluster may get further."
	}
	if want == 0 {
		return kubectl("wait '--for=jsonpath={.status.replicas}=0' " + r + " --timeout=5m")
	}
	return kubectl("wait '--for=jsonpath={.status.availableReplicas}=" + itoa(int64(want)) + "' " + r + " --timeout=5m")
}

// createdRef is rs/NAME, rc/NAME or deploy/NAME of a create command, ""
// for a pod.
func createdRef(cmd script.Command) string {
	switch c := cmd.(type) {
	case *script.CreateRS:
		return "rs/" + c.Name
	case *script.CreateRC:
		return "rc/" + c.Name
	case *script.CreateDeploy:
		return "deploy/" + c.Name
	}
	return ""
}

// wanted is an owner's spec.replicas.
func wanted(o api.Object) int32 {
	switch v := o.(type) {
	case *api.ReplicaSet:
		return deref(v.Spec.Replicas)
	case *api.ReplicationController:
		return deref(v.Spec.Replicas)
	case *api.Deployment:
		return deref(v.Spec.Replicas)
	}
	return 0
}

func deref(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

// lookWith is the kubectl to look at what a reading command or an expect
// reads, or "" for the simulator's insides.
func lookWith(cmd script.Command) string {
	switch c := cmd.(type) {
	case *script.ExpectPods:
		if !c.Cache {
			return kubectl("get pods" + selected(c.SelectorText))
		}
	case *script.ExpectOwners:
		return kubectl("get " + resource(c.Kind) + selected(c.SelectorText))
	case *script.ExpectObject:
		if !c.Cache {
			return kubectl("get " + ref(c.Object) + " -o yaml")
		}
	case *script.ExpectCondition:
		return kubectl("describe " + ref(c.Object))
	case *script.ExpectEvents:
		return kubectl("get events")
	case *script.Get:
		line := "get " + resource(c.Kind) + selected(c.SelectorText)
		if c.Name != "" {
			line = "get " + resource(c.Kind) + "/" + c.Name
		}
		if c.Output != "" {
			line += " -o " + c.Output
		}
		return kubectl(line)
	case *script.Describe:
		return kubectl("describe " + ref(c.Object))
	case *script.RolloutStatus:
		return kubectl("rollout status " + ref(c.Object) + " --watch=false")
	case *script.RolloutHistory:
		line := "rollout history " + ref(c.Object)
		if c.Revision != 0 {
			line += " --revision=" + itoa(c.Revision)
		}
		return kubectl(line)
	}
	return ""
}

// selected is " -l SEL", or "" for every object.
func selected(sel string) string {
	if sel == "" {
		return ""
	}
	return " -l " + quote(sel)
}

// isRead reports whether cmd only reads: an expect, get, describe,
// rollout status or history, or a view of the simulator's insides.
func isRead(cmd script.Command) bool {
	switch cmd.(type) {
	case *script.Get, *script.Describe, *script.RolloutStatus, *script.RolloutHistory, *script.Show:
		return true
	}
	return strings.HasPrefix(cmd.Src().Name, "expect")
}

// namespaceOf is the namespace a command acts in, or "" when it names none.
func namespaceOf(cmd script.Command) string {
	switch c := cmd.(type) {
	case *script.CreateRS:
		return c.Namespace
	case *script.CreateRC:
		return c.Namespace
	case *script.CreateDeploy:
		return c.Namespace
	case *script.CreatePod:
		return c.Namespace
	case *script.Scale:
		return c.Object.Namespace
	case *script.Label:
		return c.Target.Namespace
	case *script.Delete:
		return c.Target.Namespace
	case *script.PodAction:
		return c.Target.Namespace
	case *script.SetImage:
		return c.Object.Namespace
	case *script.RolloutPause:
		return c.Object.Namespace
	case *script.RolloutRestart:
		return c.Object.Namespace
	case *script.RolloutUndo:
		return c.Object.Namespace
	}
	return ""
}

// kubectl writes one kubectl command in the replay's namespace.
func kubectl(args string) string { return `kubectl -n "$NAMESPACE" ` + args }

// ref is kind/name as kubectl takes it: rs/web, deploy/web.
func ref(r script.Ref) string { return resource(r.Kind) + "/" + r.Name }

// resource is kubectl's short name for a kind.
func resource(k api.Kind) string {
	switch k {
	case api.KindReplicaSet:
		return "rs"
	case api.KindReplicationController:
		return "rc"
	case api.KindDeployment:
		return "deploy"
	case api.KindPod:
		return "pods"
	}
	return k.Resource()
}

// comment writes a command the replay cannot carry out: the command as the
// script wrote it, then why, or what to do by hand.
func comment(text, why string) string { return "# " + text + ": " + why + "." }

// quote writes a word for the shell: as it is when it holds nothing the
// shell would read, else in single quotes.
func quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,-+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Run exports a script: setup (which may be empty) builds the world a
// learner starts from, learner is what the learner did. It runs both in a
// new session, as rlab run would, so that each stabilize waits for the
// state the world rests in; a command that fails there fails the export,
// as a script that does not run has no meaning to export.
func Run(setup, learner []script.Command, source string) (*Result, error) {
	s := script.NewSession(script.Options{SnapshotEvery: -1})
	x := New()
	for i, part := range [][]script.Command{setup, learner} {
		x.Begin(Part(i))
		for _, cmd := range part {
			if err := s.Run(cmd); err != nil {
				return nil, errors.New("the script fails before it can be exported: " + err.Error())
			}
			if isRead(cmd) {
				x.Read(cmd)
				continue
			}
			if err := x.Add(cmd, s.World()); err != nil {
				return nil, err
			}
		}
	}
	return x.Result(source), nil
}
