package script

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/printers"
	"github.com/reconcilelab/rlab/core/world"
)

// This file holds the rollout commands, kubectl's verbs for Deployments:
// set image, rollout status, rollout history, rollout undo, rollout pause,
// rollout resume and rollout restart. They work on the client side, as
// kubectl does: they read the Deployment (and, for history and undo, its
// ReplicaSets) from the API and write the Deployment back; the Deployment
// controller does the rest when it sees the change. The words they print,
// and their errors, are kubectl's (k8s.io/kubectl v0.31).

// SetImage is `set image deploy/NAME app=IMAGE`.
type SetImage struct {
	Source
	Object Ref
	// Images are CONTAINER=IMAGE in the order written; the container is app
	// (the one container of a Deployment's pods here) or *, every container.
	Images []KeyValue
}

// RolloutStatus is `rollout status deploy/NAME`.
type RolloutStatus struct {
	_ incomparable

	Source
	Object Ref
}

// RolloutHistory is `rollout history deploy/NAME [--revision=N]`.
type RolloutHistory struct {
	_ incomparable

	Source
	Object Ref
	// Revision is the revision whose template to print; 0 lists them all.
	Revision int64
}

// RolloutUndo is `rollout undo deploy/NAME [--to-revision=N]`.
type RolloutUndo struct {
	_ incomparable

	Source
	Object Ref
	// ToRevision is the revision to go back to; 0 is the one before the
	// newest. It is never negative: a negative one is a parse error.
	ToRevision int64
}

// RolloutPause is `rollout pause deploy/NAME` (Pause set) and `rollout
// resume deploy/NAME`.
type RolloutPause struct {
	_ incomparable

	Source
	Object Ref
	Pause  bool
}

// RolloutRestart is `rollout restart deploy/NAME`.
type RolloutRestart struct {
	_ incomparable

	Source
	Object Ref
}

// Annotations kubectl reads and writes on Deployments.
const (
	// restartedAtAnnotation is the pod template annotation rollout restart
	// sets to the time: a new template, so a new ReplicaSet and new pods.
	restartedAtAnnotation = "kubectl.kubernetes.io/restartedAt"
)

// annotationsToSkip are the Deployment annotations rollout undo keeps on the
// Deployment instead of taking them from the ReplicaSet it goes back to
// (kubectl's rollback.go): kubectl apply's record, and the Deployment
// controller's own bookkeeping.
var annotationsToSkip = []string{
	"kubectl.kubernetes.io/last-applied-configuration",
	printers.RevisionAnnotation,
	"deployment.kubernetes.io/revision-history",
	"deployment.kubernetes.io/desired-replicas",
	"deployment.kubernetes.io/max-replicas",
	"deprecated.deployment.rollback.to",
}

// deployRef reads the Deployment a rollout command names, and nothing after
// it.
func (c *cmdParser) deployRef() (Ref, *ParseError) {
	r, rest, perr := c.ref(c.args, len(c.args) > 1 && !strings.Contains(c.args[0].Text, "/"))
	if perr != nil {
		return Ref{}, perr
	}
	return r, c.noMoreArgs(rest)
}

func parseSetImage(c *cmdParser) (Command, *ParseError) {
	nameFollows := len(c.args) > 1 && !strings.Contains(c.args[0].Text, "/") && !strings.Contains(c.args[1].Text, "=")
	r, rest, perr := c.ref(c.args, nameFollows)
	if perr != nil {
		return nil, perr
	}
	if len(rest) == 0 {
		return nil, c.errEnd("set image needs CONTAINER=IMAGE", "the container is "+deployContainer+": e.g. set image "+
			r.String()+" "+deployContainer+"=nginx:2.0")
	}
	cmd := &SetImage{Source: c.src, Object: r}
	for _, a := range rest {
		name, image, ok := strings.Cut(a.Text, "=")
		if !ok {
			return nil, &ParseError{Line: a.Line, Col: a.Col, Msg: strconv.Quote(a.Text) + " is not CONTAINER=IMAGE",
				Hint: "write " + deployContainer + "=IMAGE: a Deployment's pods have one container, " + deployContainer}
		}
		if name != deployContainer && name != "*" {
			// kubectl's words; it finds no such container in the template.
			e := unknown(a.slice(0, len(name)), "container", name, []string{deployContainer}, "")
			e.Msg = "unable to find container named " + strconv.Quote(name)
			e.Hint = "a Deployment's pods have one container, " + deployContainer + ": write " + deployContainer + "=" + image
			return nil, e
		}
		if image == "" {
			return nil, &ParseError{Line: a.Line, Col: a.ColAt(len(name) + 1), Msg: "the image of " + name + " is empty",
				Hint: "write " + name + "=IMAGE, e.g. " + name + "=nginx:2.0"}
		}
		for _, kv := range cmd.Images {
			if kv.Key == name {
				return nil, errAt(a, "container "+name+" given twice")
			}
		}
		cmd.Images = append(cmd.Images, KeyValue{name, image})
	}
	return cmd, nil
}

func parseRolloutStatus(c *cmdParser) (Command, *ParseError) {
	r, perr := c.deployRef()
	if perr != nil {
		return nil, perr
	}
	return &RolloutStatus{Source: c.src, Object: r}, nil
}

func parseRolloutHistory(c *cmdParser) (Command, *ParseError) {
	r, perr := c.deployRef()
	if perr != nil {
		return nil, perr
	}
	n, _ := c.intFlag("revision", 0)
	return &RolloutHistory{Source: c.src, Object: r, Revision: n}, nil
}

func parseRolloutUndo(c *cmdParser) (Command, *ParseError) {
	r, perr := c.deployRef()
	if perr != nil {
		return nil, perr
	}
	cmd := &RolloutUndo{Source: c.src, Object: r}
	if fv := c.flags["to-revision"]; fv != nil {
		if fv.i < 0 {
			// kubectl accepts the number and then finds no such revision.
			return nil, &ParseError{Line: fv.value.Line, Col: fv.value.Col,
				Msg:  "unable to find specified revision " + strconv.FormatInt(fv.i, 10) + " in history",
				Hint: "revisions count from 1; --to-revision=0, the default, is the one before the newest"}
		}
		cmd.ToRevision = fv.i
	}
	return cmd, nil
}

func parseRolloutPause(c *cmdParser) (Command, *ParseError) {
	r, perr := c.deployRef()
	if perr != nil {
		return nil, perr
	}
	return &RolloutPause{Source: c.src, Object: r, Pause: c.spec.Name == "rollout pause"}, nil
}

func parseRolloutRestart(c *cmdParser) (Command, *ParseError) {
	r, perr := c.deployRef()
	if perr != nil {
		return nil, perr
	}
	return &RolloutRestart{Source: c.src, Object: r}, nil
}

// deployment reads the Deployment a command names from the API store, or
// fails with the API's NotFound.
func (s *Session) deployment(cmd Command, r Ref) (*api.Deployment, *RuntimeError) {
	o, ok := s.w.Store.Object(api.KindDeployment, r.Namespace, r.Name)
	if !ok {
		return nil, failure(cmd, cmd.Src().Name+" "+r.String()+": "+notFound(r.Kind, r.Name)+inNamespace(r.Namespace))
	}
	return o.(*api.Deployment), nil
}

// replicaSets lists the ReplicaSets of a namespace, which kubectl lists to
// find a Deployment's (printers.DeploymentReplicaSets keeps those).
func replicaSets(w *world.World, namespace string) []*api.ReplicaSet {
	objs := w.Store.Objects(api.KindReplicaSet, namespace)
	out := make([]*api.ReplicaSet, len(objs))
	for i, o := range objs {
		out[i] = o.(*api.ReplicaSet)
	}
	return out
}

// rolloutError is a client-side refusal of a rollout command, as kubectl
// words it after the resource and the name: deployments.apps "web" is
// already paused.
func rolloutError(r Ref, msg string) string {
	return qualifiedResource(r.Kind) + " " + strconv.Quote(r.Name) + " " + msg
}

// updateDeployment sends kubectl's write of a Deployment: one update,
// built when the input is applied from the Deployment then in the store,
// changed by change. It prints kubectl's NAME DONE line when the API
// accepted it.
func (s *Session) updateDeployment(cmd Command, r Ref, done string, change func(d *api.Deployment, w *world.World)) error {
	replies, err := s.send(cmd, func(w *world.World) ([]apistore.Request, error) {
		o, ok := w.Store.Object(api.KindDeployment, r.Namespace, r.Name)
		if !ok {
			return nil, nil
		}
		upd := o.(*api.Deployment).DeepCopy()
		upd.Metadata.ResourceVersion = ""
		change(upd, w)
		return []apistore.Request{{Verb: apistore.VerbUpdate, Kind: api.KindDeployment, Name: r.Name, Object: upd}}, nil
	})
	if err != nil {
		return err
	}
	if err := expectOK(cmd, cmd.Src().Name+" "+r.String(), replies); err != nil {
		return err
	}
	s.print(kubectlName(api.KindDeployment, r.Name) + " " + done)
	return nil
}

// setImages sets the images of a pod template's containers; it reports
// whether anything changed.
func setImages(t *api.PodTemplateSpec, images []KeyValue) bool {
	changed := false
	for _, kv := range images {
		for i := range t.Spec.Containers {
			if ct := &t.Spec.Containers[i]; (kv.Key == "*" || ct.Name == kv.Key) && ct.Image != kv.Value {
				ct.Image, changed = kv.Value, true
			}
		}
	}
	return changed
}

// run changes the template's image, as kubectl set image does: a new pod
// template, so the Deployment controller rolls out a new ReplicaSet. An
// image that is already the container's changes nothing and, as with
// kubectl, prints nothing.
func (c *SetImage) run(s *Session) error {
	d, rerr := s.deployment(c, c.Object)
	if rerr != nil {
		return rerr
	}
	t := d.Spec.Template.DeepCopy()
	if !setImages(t, c.Images) {
		return nil
	}
	return s.updateDeployment(c, c.Object, "image updated", func(d *api.Deployment, _ *world.World) {
		setImages(&d.Spec.Template, c.Images)
	})
}

// run prints kubectl rollout status's message for the Deployment as it is
// now. It never waits, as kubectl rollout status --watch=false does not; a
// Deployment past its progress deadline is kubectl's error.
func (c *RolloutStatus) run(s *Session) error {
	d, rerr := s.deployment(c, c.Object)
	if rerr != nil {
		return rerr
	}
	msg, _, err := printers.RolloutStatus(d)
	if err != nil {
		return failure(c, c.Src().Name+" "+c.Object.String()+": "+err.Error())
	}
	s.printText(msg)
	return nil
}

// run prints the Deployment's revisions, or one revision's pod template,
// from its ReplicaSets.
func (c *RolloutHistory) run(s *Session) error {
	d, rerr := s.deployment(c, c.Object)
	if rerr != nil {
		return rerr
	}
	out, err := printers.RolloutHistory(d, replicaSets(s.w, d.Metadata.Namespace), c.Revision)
	if err != nil {
		return failure(c, c.Src().Name+" "+c.Object.String()+": "+err.Error())
	}
	s.printText(out)
	return nil
}

// undoTarget is the first half of kubectl's DeploymentRollbacker.Rollback
// (deploymentRevision): the ReplicaSet of the revision to go back to among
// the Deployment's, or kubectl's error. Revision 0 is the newest but one.
// ReplicaSets whose revision is not a number are skipped, as kubectl skips
// them.
func undoTarget(d *api.Deployment, rss []*api.ReplicaSet, to int64) (*api.ReplicaSet, string) {
	old, newRS := printers.DeploymentReplicaSets(d, rss)
	all := old
	if newRS != nil {
		all = append(all[:len(all):len(all)], newRS)
	}
	var latest, previous *api.ReplicaSet
	latestRev, previousRev := int64(-1), int64(-1)
	for _, rs := range all {
		v, err := printers.Revision(&rs.Metadata)
		if err != nil {
			continue
		}
		switch {
		case to > 0:
			if v == to {
				return rs, ""
			}
		case v > latestRev:
			previous, previousRev = latest, latestRev
			latest, latestRev = rs, v
		case v > previousRev:
			previous, previousRev = rs, v
		}
	}
	if to > 0 {
		return nil, "unable to find specified revision " + strconv.FormatInt(to, 10) + " in history"
	}
	if previous == nil {
		return nil, "no rollout history found for deployment " + strconv.Quote(d.Metadata.Name)
	}
	return previous, ""
}

// undoPlan is kubectl's rollout undo decision for the Deployment as it is
// in w: the Deployment to write, or kubectl's message when it writes
// nothing (skipped), or kubectl's error. In the order kubectl checks: the
// revision must exist, the Deployment must not be paused, and its
// template must differ from the revision's.
func undoPlan(w *world.World, d *api.Deployment, to int64) (upd *api.Deployment, skipped, errMsg string) {
	rs, errMsg := undoTarget(d, replicaSets(w, d.Metadata.Namespace), to)
	if errMsg != "" {
		return nil, "", errMsg
	}
	if d.Spec.Paused {
		return nil, "", "you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/" +
			d.Metadata.Name + "' and try again"
	}
	if printers.EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
		// kubectl names the revision as it was asked for: 0 when none was.
		return nil, "skipped rollback (current template already matches revision " + strconv.FormatInt(to, 10) + ")", ""
	}
	upd = d.DeepCopy()
	upd.Metadata.ResourceVersion = ""
	upd.Spec.Template = *rs.Spec.Template.DeepCopy()
	delete(upd.Spec.Template.Metadata.Labels, printers.PodTemplateHashLabel)
	annotations := map[string]string{}
	for _, k := range annotationsToSkip {
		if v, ok := d.Metadata.Annotations[k]; ok {
			annotations[k] = v
		}
	}
	for _, k := range slices.Sorted(maps.Keys(rs.Metadata.Annotations)) {
		if !containsString(annotationsToSkip, k) {
			annotations[k] = rs.Metadata.Annotations[k]
		}
	}
	upd.Metadata.Annotations = annotations
	if len(annotations) == 0 {
		upd.Metadata.Annotations = nil
	}
	return upd, "", ""
}

// run rolls the Deployment back as kubectl does, on the client side: it
// copies the chosen ReplicaSet's template (without its pod-template-hash
// label) and annotations into the Deployment. The controller then finds
// that ReplicaSet as the new one and gives it the next revision number.
func (c *RolloutUndo) run(s *Session) error {
	r := c.Object
	d, rerr := s.deployment(c, r)
	if rerr != nil {
		return rerr
	}
	_, skipped, errMsg := undoPlan(s.w, d, c.ToRevision)
	switch {
	case errMsg != "":
		return failure(c, c.Src().Name+" "+r.String()+": "+errMsg)
	case skipped != "":
		s.print(kubectlName(api.KindDeployment, r.Name) + " " + skipped)
		return nil
	}
	return s.updateDeployment(c, r, "rolled back", func(d *api.Deployment, w *world.World) {
		// Planned again from the world as the input finds it, which is the
		// world just checked: a replay takes the same decision.
		if upd, _, _ := undoPlan(w, d, c.ToRevision); upd != nil {
			d.Spec.Template, d.Metadata.Annotations = upd.Spec.Template, upd.Metadata.Annotations
		}
	})
}

// run sets spec.paused, as kubectl rollout pause and resume do. Pausing a
// paused Deployment (resuming one that is not) is kubectl's error.
func (c *RolloutPause) run(s *Session) error {
	r := c.Object
	d, rerr := s.deployment(c, r)
	if rerr != nil {
		return rerr
	}
	if d.Spec.Paused == c.Pause {
		msg := "is not paused"
		if c.Pause {
			msg = "is already paused"
		}
		return failure(c, c.Src().Name+" "+r.String()+": "+rolloutError(r, msg))
	}
	done := "resumed"
	if c.Pause {
		done = "paused"
	}
	pause := c.Pause
	return s.updateDeployment(c, r, done, func(d *api.Deployment, _ *world.World) { d.Spec.Paused = pause })
}

// restartedAt is the time rollout restart writes: RFC 3339 in whole
// seconds, as kubectl writes its machine's current time, but read from the
// simulated clock, so that a run stays reproducible.
func restartedAt(w *world.World) string { return w.Kernel.Wall().UTC().Format(time.RFC3339) }

// run sets the restartedAt annotation of the pod template to the
// simulated clock's time, which changes the template: the Deployment
// controller rolls every pod over to a new ReplicaSet. kubectl refuses a
// paused Deployment, and a second restart within the same second, which
// would change nothing.
func (c *RolloutRestart) run(s *Session) error {
	r := c.Object
	d, rerr := s.deployment(c, r)
	if rerr != nil {
		return rerr
	}
	what := c.Src().Name + " " + r.String() + ": "
	if d.Spec.Paused {
		return failure(c, what+rolloutError(r, "can't restart paused deployment (run rollout resume first)"))
	}
	if d.Spec.Template.Metadata.Annotations[restartedAtAnnotation] == restartedAt(s.w) {
		return failure(c, what+"failed to create patch for "+r.Name+": if restart has already been triggered within "+
			"the past second, please wait before attempting to trigger another")
	}
	return s.updateDeployment(c, r, "restarted", func(d *api.Deployment, w *world.World) {
		a := maps.Clone(d.Spec.Template.Metadata.Annotations)
		if a == nil {
			a = map[string]string{}
		}
		a[restartedAtAnnotation] = restartedAt(w)
		d.Spec.Template.Metadata.Annotations = a
	})
}
