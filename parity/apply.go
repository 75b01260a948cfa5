package parity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/script"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// This file applies an export (core/export: rlab export's script, or
// replay.sh beside world.yaml) to the plane, as bash and kubectl would:
// it reads the script line by line and sends, for each kubectl line, the
// requests kubectl sends for it. It knows exactly the lines an export
// writes; any other line is an error, never skipped, so that an export that
// grows a line nobody taught the interpreter fails here rather than passing
// unchecked. The shell functions the export defines (pick, wait_pods) are
// carried out by their meaning, written here in Go.

// Applier carries an export's lines out on a plane.
type Applier struct {
	real *Real
	ctx  context.Context
	// Namespace is $NAMESPACE. Dir is the directory replay.sh is in, where
	// it finds world.yaml.
	Namespace, Dir string
	// Timeout bounds every wait (kubectl wait, rollout status, wait_pods);
	// the export asks for 5 minutes.
	Timeout time.Duration
	rand    *rand.Rand
	// targets is the shell variable pick's names are kept in.
	targets []string
}

// NewApplier returns an applier on the plane r drives, in namespace ns.
func NewApplier(r *Real, ns string) *Applier {
	return &Applier{real: r, ctx: r.ctx, Namespace: ns, Timeout: 5 * time.Minute, rand: rand.New(rand.NewPCG(1, 1))}
}

// lineError is a line that failed, with its number in the script.
func lineError(n int, line string, err error) error {
	return fmt.Errorf("line %d: %s: %w", n, line, err)
}

// Apply runs the script's lines in order and stops at the first that fails.
func (a *Applier) Apply(src string) error {
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		n := i + 1
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case line == "set -euo pipefail" || line == `NAMESPACE="${NAMESPACE:-rlab}"`:
			continue // the namespace is the applier's
		case line == "pick() {" || line == "wait_pods() {":
			// The functions' meaning is pick and waitPods below.
			for i++; i < len(lines) && lines[i] != "}"; i++ {
			}
			continue
		case line == `kubectl get namespace "$NAMESPACE" >/dev/null 2>&1 || kubectl create namespace "$NAMESPACE"`:
			if err := a.real.ensureNamespace(a.Namespace); err != nil {
				return lineError(n, line, err)
			}
			continue
		}
		var stdin string
		if rest, ok := strings.CutSuffix(line, " <<'EOF'"); ok {
			end := i + 1
			for end < len(lines) && lines[end] != "EOF" {
				end++
			}
			if end == len(lines) {
				return lineError(n, line, errors.New("the here-document has no EOF line"))
			}
			stdin = strings.Join(lines[i+1:end], "\n") + "\n"
			line, i = rest, end
		}
		if err := a.run(line, stdin); err != nil {
			return lineError(n, line, err)
		}
	}
	return nil
}

// run carries out one line that is not a comment or a definition.
func (a *Applier) run(line, stdin string) error {
	if inner, ok := strings.CutPrefix(line, "targets=$(pick "); ok {
		inner, ok = strings.CutSuffix(inner, ")")
		words, err := a.words(inner)
		if !ok || err != nil || len(words) != 4 {
			return fmt.Errorf("a pick is targets=$(pick KIND SELECTOR HOW COUNT)")
		}
		a.targets, err = a.pick(words[0], words[1], words[2], words[3])
		return err
	}
	words, err := a.words(line)
	if err != nil {
		return err
	}
	switch words[0] {
	case "sleep":
		if len(words) != 2 {
			return errors.New("sleep takes one number of seconds")
		}
		s, err := strconv.ParseFloat(words[1], 64)
		if err != nil {
			return err
		}
		time.Sleep(a.real.scaled(time.Duration(s * float64(time.Second))))
		return nil
	case "wait_pods":
		if len(words) != 3 {
			return errors.New("wait_pods takes the number of pods and of Ready ones")
		}
		want, err := strconv.Atoi(words[1])
		if err != nil {
			return err
		}
		ready, err := strconv.Atoi(words[2])
		if err != nil {
			return err
		}
		return a.waitPods(want, ready)
	case "kubectl":
		return a.kubectl(words[1:], stdin)
	}
	return fmt.Errorf("the interpreter knows no command %q", words[0])
}

// words splits a line as bash would for the lines an export writes:
// single quotes, double quotes around $NAMESPACE and $(dirname "$0"), and
// $targets unquoted, which splits into the names pick printed.
func (a *Applier) words(line string) ([]string, error) {
	line = strings.ReplaceAll(line, `"$(dirname "$0")`, `"`+a.Dir)
	var out []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("an unclosed single quote")
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '\\' && i+1 < len(line):
			cur.WriteByte(line[i+1]) // an escaped character, as in 'it'\''s'
			i++
			inWord = true
		case c == '"':
			j := strings.IndexByte(line[i+1:], '"')
			if j < 0 {
				return nil, errors.New("an unclosed double quote")
			}
			in := line[i+1 : i+1+j]
			if strings.Contains(in, "$") && in != "$NAMESPACE" {
				return nil, fmt.Errorf("the interpreter expands only \"$NAMESPACE\" in double quotes, not %q", in)
			}
			cur.WriteString(strings.ReplaceAll(in, "$NAMESPACE", a.Namespace))
			i += j + 1
			inWord = true
		case strings.HasPrefix(line[i:], "$targets"):
			if inWord {
				return nil, errors.New("$targets inside a word")
			}
			out = append(out, a.targets...)
			i += len("$targets") - 1
		case c == '$' || c == '`' || c == '|' || c == ';' || c == '&' || c == '<' || c == '>':
			return nil, fmt.Errorf("the interpreter does not read %q outside quotes", c)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	if len(out) == 0 {
		return nil, errors.New("an empty command")
	}
	return out, nil
}

// kubectlArgs are a kubectl command's words: the verb and its positional
// words in order, and its flags by name.
type kubectlArgs struct {
	pos   []string
	flags map[string]string
}

// flagsWithValue are the flags an export writes as "-x VALUE".
var flagsWithValue = map[string]bool{"-n": true, "-l": true, "-f": true}

func parseKubectl(words []string) (kubectlArgs, error) {
	k := kubectlArgs{flags: map[string]string{}}
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case flagsWithValue[w]:
			if i+1 == len(words) {
				return k, fmt.Errorf("%s needs a value", w)
			}
			k.flags[w] = words[i+1]
			i++
		case strings.HasPrefix(w, "--"):
			name, value, _ := strings.Cut(w, "=")
			k.flags[name] = value
		default:
			k.pos = append(k.pos, w)
		}
	}
	if k.flags["-n"] == "" {
		return k, errors.New("every kubectl line of an export names its namespace with -n")
	}
	return k, nil
}

// kubectl sends what kubectl sends for the verbs an export uses.
func (a *Applier) kubectl(words []string, stdin string) error {
	k, err := parseKubectl(words)
	if err != nil {
		return err
	}
	ns := k.flags["-n"]
	if len(k.pos) == 0 {
		return errors.New("kubectl without a verb")
	}
	verb, pos := k.pos[0], k.pos[1:]
	allowed := map[string][]string{
		"apply": {"-n", "-f"}, "scale": {"-n", "--replicas"}, "label": {"-n", "-l", "--all", "--overwrite"},
		"annotate": {"-n", "-l", "--all", "--overwrite"}, "delete": {"-n", "-l", "--all", "--grace-period", "--force", "--cascade", "--wait"},
		"set": {"-n"}, "rollout": {"-n", "--to-revision", "--timeout"}, "wait": {"-n", "--for", "--timeout"},
	}
	known, ok := allowed[verb]
	if !ok {
		return fmt.Errorf("the interpreter knows no kubectl %s", verb)
	}
	for f := range k.flags {
		if !contains(known, f) {
			return fmt.Errorf("kubectl %s: the interpreter knows no flag %s here", verb, f)
		}
	}
	switch verb {
	case "apply":
		return a.apply(ns, k.flags["-f"], stdin)
	case "scale":
		ref, err := oneRef(pos)
		if err != nil {
			return err
		}
		n, err := strconv.Atoi(k.flags["--replicas"])
		if err != nil {
			return fmt.Errorf("--replicas: %w", err)
		}
		return a.real.Run(&script.Scale{Object: ref.in(ns), Replicas: int32(n)})
	case "label", "annotate":
		return a.label(verb == "annotate", ns, pos, k)
	case "delete":
		return a.delete(ns, pos, k)
	case "set":
		if len(pos) < 3 || pos[0] != "image" {
			return errors.New("kubectl set is only set image deploy/NAME CONTAINER=IMAGE…")
		}
		ref, err := oneRef(pos[1:2])
		if err != nil {
			return err
		}
		c := &script.SetImage{Object: ref.in(ns)}
		for _, kv := range pos[2:] {
			key, value, ok := strings.Cut(kv, "=")
			if !ok {
				return fmt.Errorf("set image wants CONTAINER=IMAGE, not %q", kv)
			}
			c.Images = append(c.Images, script.KeyValue{Key: key, Value: value})
		}
		return a.real.Run(c)
	case "rollout":
		return a.rollout(ns, pos, k)
	case "wait":
		return a.wait(ns, pos, k)
	}
	return nil
}

// kindRef is a kubectl KIND/NAME.
type kindRef struct {
	kind api.Kind
	name string
}

func (r kindRef) in(ns string) script.Ref {
	return script.Ref{Kind: r.kind, Namespace: ns, Name: r.name}
}

var kubectlKinds = map[string]api.Kind{
	"pod": api.KindPod, "pods": api.KindPod, "rs": api.KindReplicaSet, "rc": api.KindReplicationController,
	"deploy": api.KindDeployment, "deployment": api.KindDeployment, "replicaset": api.KindReplicaSet,
}

func parseRef(s string) (kindRef, error) {
	kind, name, ok := strings.Cut(s, "/")
	k, known := kubectlKinds[kind]
	if !ok || !known || name == "" {
		return kindRef{}, fmt.Errorf("%q is not KIND/NAME of a kind the interpreter knows", s)
	}
	return kindRef{k, name}, nil
}

func oneRef(pos []string) (kindRef, error) {
	if len(pos) != 1 {
		return kindRef{}, fmt.Errorf("want one KIND/NAME, got %q", pos)
	}
	return parseRef(pos[0])
}

// objects are the objects a verb acts on: KIND/NAME words, or a kind with
// -l SELECTOR or --all, listed as kubectl lists them.
func (a *Applier) objects(ns string, pos []string, k kubectlArgs) (api.Kind, []string, error) {
	if sel, ok := k.flags["-l"]; ok || hasFlag(k, "--all") {
		if len(pos) < 1 {
			return "", nil, errors.New("-l or --all needs a kind")
		}
		kind, known := kubectlKinds[pos[0]]
		if !known {
			return "", nil, fmt.Errorf("no kind %q", pos[0])
		}
		names, err := a.list(ns, kind, sel)
		return kind, names, err
	}
	var kind api.Kind
	var names []string
	for _, p := range pos {
		r, err := parseRef(p)
		if err != nil {
			return "", nil, err
		}
		if kind != "" && r.kind != kind {
			return "", nil, errors.New("objects of two kinds in one line")
		}
		kind = r.kind
		names = append(names, r.name)
	}
	if len(names) == 0 {
		return "", nil, errors.New("no objects named")
	}
	return kind, names, nil
}

func hasFlag(k kubectlArgs, name string) bool {
	_, ok := k.flags[name]
	return ok
}

// list returns the names of the objects of kind that sel matches, in the
// API server's order (by name), as kubectl get lists them.
func (a *Applier) list(ns string, kind api.Kind, sel string) ([]string, error) {
	objs, err := a.listObjects(ns, kind, sel)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(objs))
	for i, o := range objs {
		names[i] = o.Meta().Name
	}
	return names, nil
}

func (a *Applier) listObjects(ns string, kind api.Kind, sel string) ([]api.Object, error) {
	selector, err := labels.Parse(sel)
	if err != nil {
		return nil, err
	}
	all, _, err := listAPI(a.ctx, a.real.c, kind)
	if err != nil {
		return nil, err
	}
	var out []api.Object
	for _, o := range all {
		if o.Meta().Namespace == ns && selector.Matches(labels.Set(o.Meta().Labels)) {
			out = append(out, o)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Meta().Name < out[j].Meta().Name })
	return out, nil
}

// pick is the export's pick function: kubectl get KIND -l SEL
// --sort-by=.metadata.creationTimestamp -o name, then head, tail, shuf or
// an index. kubectl's sort is stable, so pods created in the same second
// keep the list's order, by name.
func (a *Applier) pick(kind, sel, how, count string) ([]string, error) {
	k, ok := kubectlKinds[kind]
	if !ok {
		return nil, fmt.Errorf("pick: no kind %q", kind)
	}
	n, err := strconv.Atoi(count)
	if err != nil {
		return nil, err
	}
	objs, err := a.listObjects(a.Namespace, k, sel)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(objs, func(i, j int) bool {
		return objs[i].Meta().CreationTimestamp.Time.Before(objs[j].Meta().CreationTimestamp.Time)
	})
	names := make([]string, len(objs))
	for i, o := range objs {
		names[i] = kind + "/" + o.Meta().Name
	}
	var chosen []string
	switch how {
	case "oldest":
		chosen = names[:min(n, len(names))]
	case "newest":
		chosen = names[max(0, len(names)-n):]
	case "random":
		a.rand.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		chosen = names[:min(n, len(names))]
	default:
		from, err := strconv.Atoi(how)
		if err != nil {
			return nil, fmt.Errorf("pick: HOW is oldest, newest, random or an index, not %q", how)
		}
		if from < len(names) {
			chosen = names[from:min(from+n, len(names))]
		}
	}
	if len(chosen) < n {
		return nil, fmt.Errorf("pick: fewer than %d %s match -l %s", n, kind, sel)
	}
	return chosen, nil
}

// apply creates the objects of a manifest stream, as kubectl apply does
// for objects that do not exist yet: a create with the manifest in the
// last-applied-configuration annotation.
func (a *Applier) apply(ns, file, stdin string) error {
	data := []byte(stdin)
	if file != "-" {
		b, err := os.ReadFile(filepath.Clean(file))
		if err != nil {
			return err
		}
		data = b
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		var m map[string]any
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
		if m == nil {
			continue
		}
		applied, err := json.Marshal(m)
		if err != nil {
			return err
		}
		meta, _ := m["metadata"].(map[string]any)
		if meta == nil {
			return errors.New("a manifest without metadata")
		}
		annotations, _ := meta["annotations"].(map[string]any)
		if annotations == nil {
			annotations = map[string]any{}
		}
		annotations["kubectl.kubernetes.io/last-applied-configuration"] = string(applied) + "\n"
		meta["annotations"] = annotations
		meta["namespace"] = ns
		b, err := json.Marshal(m)
		if err != nil {
			return err
		}
		if err := a.create(ns, m["kind"], b); err != nil {
			return err
		}
	}
}

func (a *Applier) create(ns string, kind any, b []byte) error {
	opts := metav1.CreateOptions{}
	var err error
	switch kind {
	case "ReplicaSet":
		var o appsv1.ReplicaSet
		if err = strictJSON(b, &o); err == nil {
			_, err = a.real.c.AppsV1().ReplicaSets(ns).Create(a.ctx, &o, opts)
		}
	case "Deployment":
		var o appsv1.Deployment
		if err = strictJSON(b, &o); err == nil {
			_, err = a.real.c.AppsV1().Deployments(ns).Create(a.ctx, &o, opts)
		}
	case "ReplicationController":
		var o corev1.ReplicationController
		if err = strictJSON(b, &o); err == nil {
			_, err = a.real.c.CoreV1().ReplicationControllers(ns).Create(a.ctx, &o, opts)
		}
	case "Pod":
		var o corev1.Pod
		if err = strictJSON(b, &o); err == nil {
			_, err = a.real.c.CoreV1().Pods(ns).Create(a.ctx, &o, opts)
		}
	default:
		return fmt.Errorf("apply: the interpreter knows no kind %v", kind)
	}
	return err
}

// strictJSON decodes with unknown fields refused, as the API server's
// strict field validation (kubectl's default, since 1.27) does.
func strictJSON(b []byte, into any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(into)
}

// label is kubectl label and annotate: the --overwrite check for every
// object first, then one merge patch each.
func (a *Applier) label(annotate bool, ns string, pos []string, k kubectlArgs) error {
	var edits []string
	var objs []string
	for _, p := range pos {
		if strings.Contains(p, "=") || strings.HasSuffix(p, "-") {
			edits = append(edits, p)
		} else {
			objs = append(objs, p)
		}
	}
	kind, names, err := a.objects(ns, objs, k)
	if err != nil {
		return err
	}
	c := &script.Label{Annotate: annotate, Overwrite: hasFlag(k, "--overwrite")}
	for _, e := range edits {
		if key, value, ok := strings.Cut(e, "="); ok {
			c.Set = append(c.Set, script.KeyValue{Key: key, Value: value})
		} else {
			c.Remove = append(c.Remove, strings.TrimSuffix(e, "-"))
		}
	}
	for _, name := range names {
		c.Target = script.Target{Kind: kind, Namespace: ns, Name: name}
		if err := a.real.label(c); err != nil {
			return err
		}
	}
	return nil
}

// delete is kubectl delete: pods with --grace-period (0 is sent as 1
// unless --force, as kubectl does), the others with --cascade as the
// propagation policy.
func (a *Applier) delete(ns string, pos []string, k kubectlArgs) error {
	kind, names, err := a.objects(ns, pos, k)
	if err != nil {
		return err
	}
	if k.flags["--wait"] != "false" {
		return errors.New("an export's deletes do not wait (--wait=false); it waits where the script stabilizes")
	}
	opts := metav1.DeleteOptions{}
	if g, ok := k.flags["--grace-period"]; ok {
		n, err := strconv.ParseInt(g, 10, 64)
		if err != nil {
			return err
		}
		if n == 0 && !hasFlag(k, "--force") {
			n = 1
		}
		opts.GracePeriodSeconds = &n
	}
	if c, ok := k.flags["--cascade"]; ok {
		policy := map[string]metav1.DeletionPropagation{"background": metav1.DeletePropagationBackground,
			"foreground": metav1.DeletePropagationForeground, "orphan": metav1.DeletePropagationOrphan}[c]
		if policy == "" {
			return fmt.Errorf("--cascade=%s is not background, foreground or orphan", c)
		}
		opts.PropagationPolicy = &policy
	}
	for _, name := range names {
		if err := a.real.deleteOne(kind, ns, name, opts); err != nil {
			return err
		}
	}
	return nil
}

// rollout is kubectl rollout pause, resume, restart and undo, as Real
// carries them out (kubectl's client-side logic), and rollout status,
// which waits as kubectl's DeploymentStatusViewer does.
func (a *Applier) rollout(ns string, pos []string, k kubectlArgs) error {
	if len(pos) != 2 {
		return errors.New("kubectl rollout VERB deploy/NAME")
	}
	ref, err := parseRef(pos[1])
	if err != nil {
		return err
	}
	if ref.kind != api.KindDeployment {
		return errors.New("the interpreter rolls out Deployments only")
	}
	obj := ref.in(ns)
	switch pos[0] {
	case "pause", "resume":
		return a.real.Run(&script.RolloutPause{Object: obj, Pause: pos[0] == "pause"})
	case "restart":
		return a.real.Run(&script.RolloutRestart{Object: obj})
	case "undo":
		c := &script.RolloutUndo{Object: obj}
		if r, ok := k.flags["--to-revision"]; ok {
			if c.ToRevision, err = strconv.ParseInt(r, 10, 64); err != nil {
				return err
			}
		}
		return a.real.Run(c)
	case "status":
		return a.poll("rollout status "+pos[1], func() (bool, error) {
			d, err := a.real.c.AppsV1().Deployments(ns).Get(a.ctx, ref.name, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			return rolledOut(d)
		})
	}
	return fmt.Errorf("the interpreter knows no rollout %s", pos[0])
}

// rolledOut is kubectl rollout status's verdict: the controller has seen
// the latest spec, and every replica is updated and available, none old.
func rolledOut(d *appsv1.Deployment) (bool, error) {
	if d.Generation > d.Status.ObservedGeneration {
		return false, nil
	}
	for _, c := range d.Status.Conditions {
		if c.Type == appsv1.DeploymentProgressing && c.Reason == "ProgressDeadlineExceeded" {
			return false, fmt.Errorf("deployment %q exceeded its progress deadline", d.Name)
		}
	}
	want := int32(1)
	if d.Spec.Replicas != nil {
		want = *d.Spec.Replicas
	}
	s := d.Status
	return s.UpdatedReplicas >= want && s.Replicas <= s.UpdatedReplicas && s.AvailableReplicas >= s.UpdatedReplicas, nil
}

// wait is kubectl wait for the two conditions an export writes: a status
// counter (--for=jsonpath={.status.F}=N) and deletion (--for=delete).
func (a *Applier) wait(ns string, pos []string, k kubectlArgs) error {
	ref, err := oneRef(pos)
	if err != nil {
		return err
	}
	get := func() (api.Object, error) {
		objs, err := a.listObjects(ns, ref.kind, "")
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			if o.Meta().Name == ref.name {
				return o, nil
			}
		}
		return nil, nil
	}
	cond := k.flags["--for"]
	if cond == "delete" {
		return a.poll("wait --for=delete "+pos[0], func() (bool, error) {
			o, err := get()
			return o == nil, err
		})
	}
	path, want, ok := strings.Cut(strings.TrimPrefix(cond, "jsonpath="), "}=")
	field := map[string]string{"{.status.availableReplicas": "status.availableReplicas", "{.status.replicas": "status.replicas"}[path]
	if !ok || field == "" || !strings.HasPrefix(cond, "jsonpath=") {
		return fmt.Errorf("the interpreter waits --for=delete or --for=jsonpath={.status.availableReplicas|replicas}=N, not %q", cond)
	}
	check, err := script.ParseLine("expect " + pos[0] + " " + field + "=" + want)
	if err != nil {
		return err
	}
	return a.poll("wait --for="+cond+" "+pos[0], func() (bool, error) {
		o, err := get()
		if err != nil || o == nil {
			return false, err // kubectl wait waits for an object to appear, too
		}
		for _, f := range check.(*script.ExpectObject).Checks {
			if !f.Holds(f.Actual(o)) {
				return false, nil
			}
		}
		return true, nil
	})
}

// waitPods is the export's wait_pods: the namespace holds want pods,
// ready of them Ready, none of them being deleted.
func (a *Applier) waitPods(want, ready int) error {
	return a.poll("wait_pods "+strconv.Itoa(want)+" "+strconv.Itoa(ready), func() (bool, error) {
		pods, err := a.real.c.CoreV1().Pods(a.Namespace).List(a.ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		n := 0
		for _, p := range pods.Items {
			if p.DeletionTimestamp != nil {
				return false, nil
			}
			for _, c := range p.Status.Conditions {
				if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
					n++
				}
			}
		}
		return len(pods.Items) == want && n == ready, nil
	})
}

// poll asks done every 100ms until it says so, fails, or Timeout passes.
func (a *Applier) poll(what string, done func() (bool, error)) error {
	deadline := time.Now().Add(a.Timeout)
	for {
		ok, err := done()
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: still not so after %s", what, a.Timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
