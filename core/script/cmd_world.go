package script

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/world"
)

// This file holds the world commands, the verbs kubectl has: create node,
// create rs, create rc, create deploy, create pod, scale, label, annotate,
// delete, cordon and uncordon. Each is one input on the world's timeline that sends
// kubectl's requests, followed by the steps until kubectl has its answers;
// an answer that is an error is a runtime failure with the API's message.
// Each prints what kubectl prints.

// CreateNode is `create node NAME [--labels=…]`.
type CreateNode struct {
	Source
	Name   string
	Labels map[string]string
}

// CreateRS is `create rs NAME --replicas=N --selector=SEL …`.
type CreateRS struct {
	Source
	Namespace, Name string
	Replicas        int32
	// Selector holds no > or < requirement and is not empty.
	Selector     labels.Selector
	SelectorText string
	// TemplateLabels are the pods' labels: --template-labels, or the selector's
	// k=v requirements.
	TemplateLabels  map[string]string
	MinReadySeconds int32
}

// CreateRC is `create rc NAME --replicas=N --selector=k=v,…`.
type CreateRC struct {
	Source
	Namespace, Name string
	Replicas        int32
	// Selector is the equality-only selector, as the v1 API holds it.
	Selector        map[string]string
	TemplateLabels  map[string]string
	MinReadySeconds int32
}

// CreateDeploy is `create deploy NAME --replicas=N --selector=SEL …`. Its
// pods have one container, app. What the flags leave out is left out of the
// object too, for the API to default as apps/v1 does (RollingUpdate, 25%
// surge and unavailability, 10 old ReplicaSets kept, a 600s deadline).
type CreateDeploy struct {
	Source
	Namespace, Name string
	Replicas        int32
	// Selector holds no > or < requirement and is not empty.
	Selector     labels.Selector
	SelectorText string
	// TemplateLabels are the pods' labels: --template-labels, or the selector's
	// k=v requirements.
	TemplateLabels map[string]string
	// Image is the image of the container app.
	Image string
	// Strategy is RollingUpdate, Recreate, or "" for the API's default.
	Strategy string
	// MaxSurge and MaxUnavailable are "" when not given, else a number or a
	// percentage ("1", "25%").
	MaxSurge, MaxUnavailable string
	MinReadySeconds          int32
	// RevisionHistoryLimit and ProgressDeadlineSeconds are nil when not given.
	RevisionHistoryLimit    *int32
	ProgressDeadlineSeconds *int32
	Paused                  bool
}

// CreatePod is `create pod NAME …`: a bare pod.
type CreatePod struct {
	Source
	Namespace, Name string
	Labels          map[string]string
	// Node binds the pod at creation; "" leaves it to the scheduler.
	Node string
	// Phase is the phase it starts in; "" leaves it to the kubelet.
	Phase string
	Ready bool
}

// Scale is `scale rs/NAME --replicas=N`, and rc/NAME and deploy/NAME.
type Scale struct {
	_ incomparable

	Source
	Object   Ref
	Replicas int32
}

// Label is `label …` and `annotate …` (Annotate set).
type Label struct {
	Source
	Annotate bool
	Target   Target
	// Set are the k=v to set, Remove the keys of k- to remove. No key is in
	// both, nor twice in either; there is at least one of them.
	Set       []KeyValue
	Remove    []string
	Overwrite bool
}

// Cascade is delete's --cascade.
type Cascade string

// The cascade modes, kubectl's names for the propagation policies.
const (
	CascadeBackground Cascade = "background"
	CascadeForeground Cascade = "foreground"
	CascadeOrphan     Cascade = "orphan"
)

// Delete is `delete …`.
type Delete struct {
	Source
	Target Target
	// GracePeriod is --grace-period in seconds; nil leaves the pod's own.
	GracePeriod *int64
	Cascade     Cascade
}

// Cordon is `cordon node/NAME` (Unschedulable) and `uncordon node/NAME`.
type Cordon struct {
	_ incomparable

	Source
	Node          string
	Unschedulable bool
}

func parseCreateNode(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd("create node needs a NAME", c.example())
	}
	if perr := checkName(c.args[0], api.KindNode); perr != nil {
		return nil, perr
	}
	cmd := &CreateNode{Source: c.src, Name: c.args[0].Text}
	if fv := c.flags["labels"]; fv != nil {
		cmd.Labels = fv.set
	}
	return cmd, c.noMoreArgs(c.args[1:])
}

// createName reads the NAME of create rs, rc and pod.
func (c *cmdParser) createName(kind api.Kind) (string, *ParseError) {
	if len(c.args) == 0 {
		return "", c.errEnd(c.spec.Name+" needs a NAME", c.example())
	}
	if perr := checkName(c.args[0], kind); perr != nil {
		return "", perr
	}
	return c.args[0].Text, c.noMoreArgs(c.args[1:])
}

// controllerArgs reads what create rs and create rc share, in the order
// their errors are reported: the name, --replicas, --min-ready-seconds and
// a selector that is not empty. Only what the selector may hold differs.
func (c *cmdParser) controllerArgs(kind api.Kind) (name string, replicas, minReady int32, sel *flagValue,
	reqs []labels.Requirement, perr *ParseError) {
	if name, perr = c.createName(kind); perr != nil {
		return
	}
	n, perr := c.intFlag("replicas", 0)
	if perr != nil {
		return
	}
	m, _ := c.intFlag("min-ready-seconds", 0)
	replicas, minReady = int32(n), int32(m)
	if sel, perr = c.flag("selector"); perr != nil {
		return
	}
	reqs, _ = sel.sel.Requirements()
	if len(reqs) == 0 {
		perr = errAt(sel.value, "the selector of a "+string(kind)+" must not be empty: it would claim every pod")
	}
	return
}

func parseCreateRS(c *cmdParser) (Command, *ParseError) {
	name, replicas, minReady, sel, reqs, perr := c.controllerArgs(api.KindReplicaSet)
	if perr != nil {
		return nil, perr
	}
	tl, perr := c.templateLabels(api.KindReplicaSet, sel, reqs)
	if perr != nil {
		return nil, perr
	}
	return &CreateRS{Source: c.src, Namespace: c.namespace(api.KindReplicaSet), Name: name, Replicas: replicas,
		Selector: sel.sel, SelectorText: sel.s, MinReadySeconds: minReady, TemplateLabels: tl}, nil
}

// templateLabels checks the structured selector of a ReplicaSet or a
// Deployment, which cannot hold > or <, and returns the labels of the pods:
// --template-labels, or the selector's k=v requirements, which a selector
// with set-based requirements cannot give.
func (c *cmdParser) templateLabels(kind api.Kind, sel *flagValue, reqs []labels.Requirement) (map[string]string, *ParseError) {
	derived := map[string]string{}
	setBased := ""
	for _, r := range reqs {
		switch r.Operator() {
		case labels.GreaterThan, labels.LessThan:
			return nil, &ParseError{Line: sel.value.Line, Col: sel.value.Col,
				Msg:  "a " + string(kind) + "'s selector cannot use > or < (" + strconv.Quote(r.String()) + ")",
				Hint: "its matchExpressions know only In, NotIn, Exists and DoesNotExist"}
		case labels.Equals, labels.DoubleEquals:
			derived[r.Key()] = r.Values()[0]
		default:
			if setBased == "" {
				setBased = r.String()
			}
		}
	}
	if tl := c.flags["template-labels"]; tl != nil {
		return tl.set, nil
	}
	if setBased != "" {
		return nil, &ParseError{Line: sel.value.Line, Col: sel.value.Col,
			Msg:  "the pods' labels cannot be derived from the selector's set-based requirement " + strconv.Quote(setBased),
			Hint: "add --template-labels=k=v,... with labels the selector matches"}
	}
	return derived, nil
}

func parseCreateDeploy(c *cmdParser) (Command, *ParseError) {
	name, replicas, minReady, sel, reqs, perr := c.controllerArgs(api.KindDeployment)
	if perr != nil {
		return nil, perr
	}
	tl, perr := c.templateLabels(api.KindDeployment, sel, reqs)
	if perr != nil {
		return nil, perr
	}
	cmd := &CreateDeploy{Source: c.src, Namespace: c.namespace(api.KindDeployment), Name: name, Replicas: replicas,
		Selector: sel.sel, SelectorText: sel.s, TemplateLabels: tl, Image: defaultImage, MinReadySeconds: minReady,
		Paused: c.boolFlag("paused")}
	if fv := c.flags["image"]; fv != nil {
		if fv.s == "" {
			return nil, &ParseError{Line: fv.value.Line, Col: fv.value.Col, Msg: "--image is empty",
				Hint: "write --image=IMAGE, e.g. --image=" + defaultImage + " (the default)"}
		}
		cmd.Image = fv.s
	}
	if fv := c.flags["strategy"]; fv != nil {
		cmd.Strategy = fv.s
	}
	if fv := c.flags["max-surge"]; fv != nil {
		cmd.MaxSurge = fv.s
	}
	if fv := c.flags["max-unavailable"]; fv != nil {
		cmd.MaxUnavailable = fv.s
	}
	if fv := c.flags["revision-history-limit"]; fv != nil {
		n := int32(fv.i)
		cmd.RevisionHistoryLimit = &n
	}
	if fv := c.flags["progress-deadline-seconds"]; fv != nil {
		n := int32(fv.i)
		cmd.ProgressDeadlineSeconds = &n
	}
	return cmd, nil
}

func parseCreateRC(c *cmdParser) (Command, *ParseError) {
	name, replicas, minReady, sel, reqs, perr := c.controllerArgs(api.KindReplicationController)
	if perr != nil {
		return nil, perr
	}
	m := map[string]string{}
	for _, r := range reqs {
		if op := r.Operator(); op != labels.Equals && op != labels.DoubleEquals {
			return nil, &ParseError{Line: sel.value.Line, Col: sel.value.Col,
				Msg:  "a ReplicationController's selector is a plain map: only k=v requirements, not " + strconv.Quote(r.String()),
				Hint: "use a ReplicaSet (create rs) for set-based selectors"}
		}
		m[r.Key()] = r.Values()[0]
	}
	cmd := &CreateRC{Source: c.src, Namespace: c.namespace(api.KindReplicationController), Name: name, Replicas: replicas,
		Selector: m, TemplateLabels: maps.Clone(m), MinReadySeconds: minReady}
	if tl := c.flags["template-labels"]; tl != nil {
		cmd.TemplateLabels = tl.set
	}
	return cmd, nil
}

func parseCreatePod(c *cmdParser) (Command, *ParseError) {
	name, perr := c.createName(api.KindPod)
	if perr != nil {
		return nil, perr
	}
	cmd := &CreatePod{Source: c.src, Namespace: c.namespace(api.KindPod), Name: name, Ready: c.boolFlag("ready")}
	if fv := c.flags["labels"]; fv != nil {
		cmd.Labels = fv.set
	}
	if fv := c.flags["node"]; fv != nil {
		cmd.Node = fv.s
	}
	if fv := c.flags["phase"]; fv != nil {
		cmd.Phase = fv.s
	}
	return cmd, nil
}

func parseScale(c *cmdParser) (Command, *ParseError) {
	r, rest, perr := c.ref(c.args, len(c.args) > 1)
	if perr != nil {
		return nil, perr
	}
	if perr := c.noMoreArgs(rest); perr != nil {
		return nil, perr
	}
	n, perr := c.intFlag("replicas", 0)
	if perr != nil {
		return nil, perr
	}
	return &Scale{Source: c.src, Object: r, Replicas: int32(n)}, nil
}

// isEdit reports whether a word of label or annotate is k=v or k-.
func isEdit(t Token) bool { return strings.Contains(t.Text, "=") || strings.HasSuffix(t.Text, "-") }

func parseLabel(c *cmdParser) (Command, *ParseError) {
	annotate := c.spec.Name == "annotate"
	what := "label"
	if annotate {
		what = "annotation"
	}
	nameFollows := len(c.args) > 1 && !strings.Contains(c.args[0].Text, "/") && !isEdit(c.args[1])
	t, rest, perr := c.target(nameFollows, true)
	if perr != nil {
		return nil, perr
	}
	cmd := &Label{Source: c.src, Annotate: annotate, Target: t, Overwrite: c.boolFlag("overwrite")}
	seen := map[string]bool{}
	for _, a := range rest {
		var key string
		if k, v, ok := strings.Cut(a.Text, "="); ok {
			if perr := checkLabel(a, k, v, annotate); perr != nil {
				return nil, perr
			}
			key = k
			cmd.Set = append(cmd.Set, KeyValue{k, v})
		} else if k, ok := strings.CutSuffix(a.Text, "-"); ok {
			if perr := checkLabel(a, k, "", annotate); perr != nil {
				return nil, perr
			}
			key = k
			cmd.Remove = append(cmd.Remove, k)
		} else {
			return nil, &ParseError{Line: a.Line, Col: a.Col, Msg: strconv.Quote(a.Text) + " is neither k=v nor k-",
				Hint: "write k=v to set the " + what + " k to v, or k- to remove it"}
		}
		if seen[key] {
			return nil, errAt(a, "can not both modify and remove "+what+" "+strconv.Quote(key)+", nor change it twice")
		}
		seen[key] = true
	}
	if len(rest) == 0 {
		return nil, c.errEnd(c.spec.Name+" needs at least one k=v or k- to change", c.example())
	}
	return cmd, nil
}

func parseDelete(c *cmdParser) (Command, *ParseError) {
	t, perr := c.onlyTarget()
	if perr != nil {
		return nil, perr
	}
	cmd := &Delete{Source: c.src, Target: t, Cascade: CascadeBackground}
	if fv := c.flags["grace-period"]; fv != nil && fv.i >= 0 {
		g := fv.i
		cmd.GracePeriod = &g
	}
	if fv := c.flags["cascade"]; fv != nil {
		cmd.Cascade = Cascade(fv.s)
	}
	return cmd, nil
}

func parseCordon(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd(c.spec.Name+" needs node/NAME", c.example())
	}
	a := c.args[0]
	var name string
	rest := c.args[1:]
	switch _, isKind := kindOf(a.Text); {
	case strings.Contains(a.Text, "/") || (isKind && len(c.args) > 1):
		r, r2, perr := c.ref(c.args, true)
		if perr != nil {
			return nil, perr
		}
		name, rest = r.Name, r2
	default:
		if perr := checkName(a, api.KindNode); perr != nil {
			return nil, perr
		}
		name = a.Text
	}
	if perr := c.noMoreArgs(rest); perr != nil {
		return nil, perr
	}
	return &Cordon{Source: c.src, Node: name, Unschedulable: c.spec.Name == "cordon"}, nil
}

// podContainers is the container every pod the scripts create runs, but
// those of Deployments.
func podContainers() []api.Container {
	return []api.Container{{Name: "nginx", Image: "nginx"}}
}

// The one container of a Deployment's pods, and its image unless --image
// names another: set image changes it, and rollout history and describe
// show it, so it has a version to change.
const (
	deployContainer = "app"
	defaultImage    = "nginx:1.0"
)

// expectOK turns the first failed reply into a runtime failure: what the
// command was doing, then the API's message.
func expectOK(cmd Command, what string, replies []*apistore.Reply) error {
	for _, rep := range replies {
		if rep.Response.Err != nil {
			return failureAfter(cmd, what+": "+apiError(rep), rep.Response.Err)
		}
	}
	return nil
}

// create sends one create request as kubectl and prints kubectl's message.
func (s *Session) create(cmd Command, what string, obj api.Object) error {
	replies, err := s.send(cmd, func(*world.World) ([]apistore.Request, error) {
		return []apistore.Request{{Verb: apistore.VerbCreate, Kind: obj.Kind(), Object: obj}}, nil
	})
	if err != nil {
		return err
	}
	if err := expectOK(cmd, what, replies); err != nil {
		return err
	}
	s.print(kubectlName(obj.Kind(), replies[0].Response.Object.Meta().Name) + " created")
	return nil
}

// run starts a kubelet on a new machine and runs until it has
// registered its Node.
func (c *CreateNode) run(s *Session) error {
	w := s.w
	if _, ok := w.Store.Object(api.KindNode, "", c.Name); ok {
		return failure(c, "create node "+c.Name+": nodes "+strconv.Quote(c.Name)+" already exists")
	}
	name, nodeLabels := c.Name, maps.Clone(c.Labels)
	if err := s.do(c, func(w *world.World) error { return w.Cluster.CreateNode(name, maps.Clone(nodeLabels)) }); err != nil {
		return failureAfter(c, "create node "+c.Name+": "+err.Error(), err)
	}
	_, err := s.runUntil("create node "+c.Name, func() bool {
		_, ok := w.Store.Object(api.KindNode, "", name)
		return ok
	}, sim.Limits{}, false)
	if err != nil {
		return failureAfter(c, "create node "+c.Name+": the kubelet did not register the node: "+err.Error(), err)
	}
	s.print("node/" + c.Name + " created")
	return nil
}

// LabelSelectorOf turns a selector as a script writes it (--selector) into
// the structured selector of a ReplicaSet or a Deployment, with empty parts
// left out, as the world's create commands send it. The parity runner sends
// the same, so that both worlds store one object.
func LabelSelectorOf(text string) (*api.LabelSelector, error) {
	ls, err := labels.ParseToLabelSelector(text)
	if err != nil {
		return nil, err
	}
	if len(ls.MatchLabels) == 0 {
		ls.MatchLabels = nil
	}
	if len(ls.MatchExpressions) == 0 {
		ls.MatchExpressions = nil
	}
	return ls, nil
}

// podTemplate is the pod template of the ReplicaSets and
// ReplicationControllers the scripts create: their pods get the template's
// labels and run podContainers.
func podTemplate(labels map[string]string) api.PodTemplateSpec {
	return api.PodTemplateSpec{
		Metadata: api.ObjectMeta{Labels: maps.Clone(labels)},
		Spec:     api.PodSpec{Containers: podContainers()},
	}
}

func (c *CreateRS) run(s *Session) error {
	rs, err := c.Object()
	if err != nil {
		return failure(c, "create rs "+c.Name+": "+err.Error())
	}
	return s.create(c, "create rs "+c.Name, rs)
}

func (c *CreateDeploy) run(s *Session) error {
	d, err := c.Object()
	if err != nil {
		return failure(c, "create deploy "+c.Name+": "+err.Error())
	}
	return s.create(c, "create deploy "+c.Name, d)
}

func copyInt32(p *int32) *int32 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func (c *CreateRC) run(s *Session) error {
	return s.create(c, "create rc "+c.Name, c.Object())
}

// run creates a bare pod. With --phase or --ready, a second request
// writes the status it starts with, as a kubelet would have reported it.
func (c *CreatePod) run(s *Session) error {
	what := "create pod " + c.Name
	phase := c.Phase
	if c.Ready && phase == "" {
		phase = api.PodRunning
	}
	if c.Ready && phase != api.PodRunning {
		return failure(c, what+": --ready needs --phase=Running: only a running pod can be Ready")
	}
	pod := c.Object()
	if phase == "" {
		return s.create(c, what, pod)
	}
	replies, err := s.send(c, func(*world.World) ([]apistore.Request, error) {
		return []apistore.Request{{Verb: apistore.VerbCreate, Kind: api.KindPod, Object: pod}}, nil
	})
	if err != nil {
		return err
	}
	if err := expectOK(c, what, replies); err != nil {
		return err
	}
	ns, name, ready, node := c.Namespace, c.Name, c.Ready, c.Node
	replies, err = s.send(c, func(w *world.World) ([]apistore.Request, error) {
		o, ok := w.Store.Object(api.KindPod, ns, name)
		if !ok {
			return nil, nil // deleted in between: nothing to report
		}
		upd := o.(*api.Pod).DeepCopy()
		upd.Metadata.ResourceVersion = ""
		upd.Status = startedStatus(phase, ready, node != "", w.Kernel.Wall())
		return []apistore.Request{{Verb: apistore.VerbUpdate, Kind: api.KindPod, Subresource: apistore.SubresourceStatus, Object: upd}}, nil
	})
	if err != nil {
		return err
	}
	if err := expectOK(c, what+" (writing its status)", replies); err != nil {
		return err
	}
	s.print("pod/" + c.Name + " created")
	return nil
}

// startedStatus is the status of a bare pod created with --phase (and
// --ready), as its kubelet would have reported it at now.
func startedStatus(phase string, ready, bound bool, now time.Time) api.PodStatus {
	st := api.PodStatus{Phase: phase}
	if phase != api.PodRunning {
		return st
	}
	at := api.NewTime(now)
	readyStatus := api.ConditionFalse
	if ready {
		readyStatus = api.ConditionTrue
	}
	st.StartTime = api.NewTimePtr(now)
	st.Conditions = []api.PodCondition{
		{Type: "PodReadyToStartContainers", Status: api.ConditionTrue, LastTransitionTime: at},
		{Type: "Initialized", Status: api.ConditionTrue, LastTransitionTime: at},
		{Type: api.PodReady, Status: readyStatus, LastTransitionTime: at},
		{Type: "ContainersReady", Status: readyStatus, LastTransitionTime: at},
	}
	if bound {
		st.Conditions = append(st.Conditions, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: at})
	}
	started := true
	for _, ct := range podContainers() {
		st.ContainerStatuses = append(st.ContainerStatuses, api.ContainerStatus{Name: ct.Name, Image: ct.Image, Ready: ready, Started: &started})
	}
	return st
}

// run changes spec.replicas, as kubectl scale does: it reads the object
// when the input is applied and writes it back with the new count.
func (c *Scale) run(s *Session) error {
	r := c.Object
	what := "scale " + r.String()
	if _, ok := s.w.Store.Object(r.Kind, r.Namespace, r.Name); !ok {
		return failure(c, what+": "+notFound(r.Kind, r.Name)+inNamespace(r.Namespace))
	}
	replicas := c.Replicas
	replies, err := s.send(c, func(w *world.World) ([]apistore.Request, error) {
		o, ok := w.Store.Object(r.Kind, r.Namespace, r.Name)
		if !ok {
			return nil, nil
		}
		upd := o.DeepCopyObject()
		switch u := upd.(type) {
		case *api.ReplicaSet:
			u.Spec.Replicas = &replicas
		case *api.ReplicationController:
			u.Spec.Replicas = &replicas
		case *api.Deployment:
			u.Spec.Replicas = &replicas
		}
		upd.Meta().ResourceVersion = ""
		return []apistore.Request{{Verb: apistore.VerbUpdate, Kind: r.Kind, Object: upd}}, nil
	})
	if err != nil {
		return err
	}
	if err := expectOK(c, what, replies); err != nil {
		return err
	}
	s.print(kubectlName(r.Kind, r.Name) + " scaled")
	return nil
}

// overwriteConflict says, as kubectl does, why k=v may not change an object
// without --overwrite, or returns "".
func overwriteConflict(c *Label, o api.Object) string {
	if c.Overwrite {
		return ""
	}
	have := o.Meta().Labels
	if c.Annotate {
		have = o.Meta().Annotations
	}
	var conflicts []string
	for _, kv := range c.Set {
		if cur, found := have[kv.Key]; found && cur != kv.Value {
			conflicts = append(conflicts, "'"+kv.Key+"' already has a value ("+cur+")")
		}
	}
	if len(conflicts) == 0 {
		return ""
	}
	if c.Annotate {
		return "--overwrite is false but found the following declared annotation(s): " + strings.Join(conflicts, "; ")
	}
	return strings.Join(conflicts, "; ") + ", and --overwrite is false"
}

// firstConflict finds the first chosen object a label command may not change.
func firstConflict(c *Label, objs []api.Object) (string, string) {
	for _, o := range objs {
		if msg := overwriteConflict(c, o); msg != "" {
			return o.Meta().Name, msg
		}
	}
	return "", ""
}

// run executes label and annotate: one metadata patch per chosen object.
func (c *Label) run(s *Session) error {
	t := c.Target
	verb, done, same := "label", "labeled", "not labeled"
	if c.Annotate {
		verb, done, same = "annotate", "annotated", "not annotated"
	}
	objs, none, rerr := s.chosenOrSay(c, t)
	if rerr != nil || none {
		return rerr
	}
	if name, msg := firstConflict(c, objs); msg != "" {
		return failure(c, verb+" "+shortName(t.Kind)+"/"+name+": "+msg)
	}
	patch := apistore.MetaPatch{}
	set := map[string]string{}
	for _, kv := range c.Set {
		set[kv.Key] = kv.Value
	}
	if c.Annotate {
		patch.SetAnnotations, patch.RemoveAnnotations = set, slices.Clone(c.Remove)
	} else {
		patch.SetLabels, patch.RemoveLabels = set, slices.Clone(c.Remove)
	}
	var conflict, conflictName string
	replies, err := s.send(c, func(w *world.World) ([]apistore.Request, error) {
		objs, rerr := chosen(c, w, t, drawFrom(w))
		if rerr != nil {
			return nil, rerr
		}
		if conflictName, conflict = firstConflict(c, objs); conflict != "" {
			return nil, &podError{name: conflictName, msg: conflict}
		}
		reqs := make([]apistore.Request, len(objs))
		for i, o := range objs {
			p := patch
			reqs[i] = apistore.Request{Verb: apistore.VerbPatch, Kind: t.Kind, Namespace: o.Meta().Namespace, Name: o.Meta().Name, Patch: &p}
		}
		return reqs, nil
	})
	if conflict != "" {
		return failureAfter(c, verb+" "+shortName(t.Kind)+"/"+conflictName+": "+conflict, err)
	}
	if err != nil {
		return err
	}
	for _, rep := range replies {
		if rep.Response.Err != nil {
			return failureAfter(c, verb+" "+shortName(t.Kind)+"/"+rep.Request.Name+": "+apiError(rep), rep.Response.Err)
		}
		msg := done
		if len(rep.Response.Events) == 0 {
			msg = same
		}
		s.print(kubectlName(t.Kind, rep.Request.Name) + " " + msg)
	}
	return nil
}

// noResources is kubectl's message when a selector matched nothing.
func noResources(kind api.Kind, ns string) string {
	if !kind.Namespaced() {
		return "No resources found\n"
	}
	return "No resources found in " + ns + " namespace.\n"
}

// run deletes objects as kubectl delete does: pods with their grace
// period (or --grace-period), owners with a propagation policy (kubectl's
// default is background, whatever the API's default for the kind).
func (c *Delete) run(s *Session) error {
	t := c.Target
	_, none, rerr := s.chosenOrSay(c, t)
	if rerr != nil || none {
		return rerr
	}
	opts := apistore.DeleteOptions{GracePeriodSeconds: c.GracePeriod}
	if t.Kind != api.KindPod {
		opts = apistore.DeleteOptions{PropagationPolicy: apistore.DeletePropagationBackground}
		switch c.Cascade {
		case CascadeForeground:
			opts.PropagationPolicy = apistore.DeletePropagationForeground
		case CascadeOrphan:
			opts.PropagationPolicy = apistore.DeletePropagationOrphan
		}
	}
	replies, err := s.send(c, func(w *world.World) ([]apistore.Request, error) {
		objs, rerr := chosen(c, w, t, drawFrom(w))
		if rerr != nil {
			return nil, rerr
		}
		reqs := make([]apistore.Request, len(objs))
		for i, o := range objs {
			reqs[i] = apistore.Request{Verb: apistore.VerbDelete, Kind: t.Kind, Namespace: o.Meta().Namespace, Name: o.Meta().Name,
				DeleteOptions: &opts}
		}
		return reqs, nil
	})
	if err != nil {
		return err
	}
	for _, rep := range replies {
		if rep.Response.Err != nil {
			return failureAfter(c, "delete "+shortName(t.Kind)+"/"+rep.Request.Name+": "+apiError(rep), rep.Response.Err)
		}
		s.print(kubectlKind(t.Kind) + " " + strconv.Quote(rep.Request.Name) + " deleted")
	}
	return nil
}

// run marks a node unschedulable or schedulable again, as kubectl
// cordon does: an update of spec.unschedulable, unless it is already so.
func (c *Cordon) run(s *Session) error {
	verb, done := "cordon", "cordoned"
	if !c.Unschedulable {
		verb, done = "uncordon", "uncordoned"
	}
	o, ok := s.w.Store.Object(api.KindNode, "", c.Node)
	if !ok {
		return failure(c, verb+" node/"+c.Node+": "+notFound(api.KindNode, c.Node))
	}
	if o.(*api.Node).Spec.Unschedulable == c.Unschedulable {
		s.print("node/" + c.Node + " already " + done)
		return nil
	}
	name, on := c.Node, c.Unschedulable
	replies, err := s.send(c, func(w *world.World) ([]apistore.Request, error) {
		o, ok := w.Store.Object(api.KindNode, "", name)
		if !ok {
			return nil, nil
		}
		upd := o.(*api.Node).DeepCopy()
		upd.Metadata.ResourceVersion = ""
		upd.Spec.Unschedulable = on
		return []apistore.Request{{Verb: apistore.VerbUpdate, Kind: api.KindNode, Name: name, Object: upd}}, nil
	})
	if err != nil {
		return err
	}
	if err := expectOK(c, verb+" node/"+c.Node, replies); err != nil {
		return err
	}
	s.print("node/" + c.Node + " " + done)
	return nil
}
