package script

import (
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/workqueue"
)

// This file executes the assertions. An expect reads the API store (the
// truth) or, for expect cache, the controllers' informer cache; it never
// changes the world. When it does not hold, it fails with the command as
// written, then what was found and the objects involved:
//
//	expect pods -l app=web count=3: found 2 (web-4vq9z Running Ready rs/web, web-kd2lm Running Ready rs/web)
//	expect rs/web status.readyReplicas=3: status.readyReplicas is 2
//	expect condition rs/web ReplicaFailure=absent: ReplicaFailure is True, reason FailedCreate: pods "web-x" is forbidden: ...

// maxListed is how many objects a failure lists before it says how many more
// there are.
const maxListed = 10

// podLine describes a pod in a failure message: name, phase, readiness,
// owner, and whether it is being deleted: "web-4vq9z Running Ready rs/web".
func podLine(p *api.Pod) string {
	ready := "NotReady"
	if podReady(p) {
		ready = "Ready"
	}
	phase := p.Status.Phase
	if phase == "" {
		phase = api.PodPending
	}
	owner := ownerOf(&p.Metadata)
	if owner == "none" {
		owner = "no owner"
	}
	line := p.Metadata.Name + " " + phase + " " + ready + " " + owner
	if p.Metadata.DeletionTimestamp != nil {
		line += " terminating"
	}
	return line
}

// listed joins at most maxListed lines with commas, and says how many were
// left out.
func listed(lines []string) string {
	if len(lines) <= maxListed {
		return strings.Join(lines, ", ")
	}
	return strings.Join(lines[:maxListed], ", ") + " and " + itoa(len(lines)-maxListed) + " more"
}

func podLines(objs []api.Object) string {
	lines := make([]string, len(objs))
	for i, o := range objs {
		lines[i] = podLine(podOf(o))
	}
	return listed(lines)
}

// runExpectPods counts the pods that match the selector and every filter.
func (s *Session) runExpectPods(c *ExpectPods) error {
	w := s.w
	var all []api.Object
	if c.Cache {
		all = w.Pods.Lister().List(c.Namespace, c.Selector)
	} else {
		for _, o := range w.Store.Objects(api.KindPod, c.Namespace) {
			if c.Selector.Matches(o.Meta().Labels) {
				all = append(all, o)
			}
		}
	}
	creationOrder(w, api.KindPod, all)
	var found, left []api.Object
	for _, o := range all {
		ok := true
		for _, f := range c.Filters {
			if !f.Holds(f.Actual(o)) {
				ok = false
				break
			}
		}
		if ok {
			found = append(found, o)
		} else {
			left = append(left, o)
		}
	}
	if c.Count.Holds(int64(len(found))) {
		return nil
	}
	msg := c.Text + ": found " + itoa(len(found))
	if len(found) > 0 {
		msg += " (" + podLines(found) + ")"
	}
	if len(left) > 0 {
		sel := "the selector"
		if c.SelectorText != "" {
			sel = "-l " + c.SelectorText
		}
		msg += "; " + pluralAs(len(left), "more pod matches", "more pods match") + " " + sel + " but not the filters (" + podLines(left) + ")"
	}
	if c.Cache {
		msg += " in the informer's cache"
	}
	return failure(c, msg)
}

// describeValue prints an actual value in a failure message.
func describeValue(v Value) string {
	if v.Type != TypeInt && v.Type != TypeBool && v.Str == "" {
		return "empty"
	}
	return v.String()
}

// runExpectObject checks fields of one object.
func (s *Session) runExpectObject(c *ExpectObject) error {
	r := c.Object
	var obj api.Object
	var ok bool
	if c.Cache {
		obj, ok = s.w.Informer(r.Kind).Lister().Get(r.Namespace, r.Name)
		if !ok {
			return failure(c, c.Text+": "+r.String()+inNamespace(r.Namespace)+" is not in the informer's cache")
		}
	} else {
		obj, ok = s.w.Store.Object(r.Kind, r.Namespace, r.Name)
		if !ok {
			return failure(c, c.Text+": "+notFound(r.Kind, r.Name)+inNamespace(r.Namespace))
		}
	}
	var wrong []string
	for _, f := range c.Checks {
		if actual := f.Actual(obj); !f.Holds(actual) {
			wrong = append(wrong, f.Path+" is "+describeValue(actual))
		}
	}
	if len(wrong) == 0 {
		return nil
	}
	return failure(c, c.Text+": "+strings.Join(wrong, ", "))
}

// condition is one condition of any kind's status.
type condition struct {
	typ, status, reason, message string
}

// conditionsOf lists an object's status conditions.
func conditionsOf(o api.Object) []condition {
	var out []condition
	switch o := o.(type) {
	case *api.Pod:
		for _, c := range o.Status.Conditions {
			out = append(out, condition{c.Type, c.Status, c.Reason, c.Message})
		}
	case *api.ReplicaSet:
		for _, c := range o.Status.Conditions {
			out = append(out, condition{c.Type, c.Status, c.Reason, c.Message})
		}
	case *api.ReplicationController:
		for _, c := range o.Status.Conditions {
			out = append(out, condition{c.Type, c.Status, c.Reason, c.Message})
		}
	case *api.Node:
		for _, c := range o.Status.Conditions {
			out = append(out, condition{c.Type, c.Status, c.Reason, c.Message})
		}
	}
	return out
}

// runExpectCondition checks one condition's status, and its reason.
func (s *Session) runExpectCondition(c *ExpectCondition) error {
	r := c.Object
	obj, ok := s.w.Store.Object(r.Kind, r.Namespace, r.Name)
	if !ok {
		return failure(c, c.Text+": "+notFound(r.Kind, r.Name)+inNamespace(r.Namespace))
	}
	found := condition{typ: c.Type, status: "absent"}
	for _, cond := range conditionsOf(obj) {
		if cond.typ == c.Type {
			found = cond
			break
		}
	}
	if c.Status.Holds(found.status) && (c.Reason == nil || c.Reason.Holds(found.reason)) {
		return nil
	}
	msg := c.Text + ": " + c.Type + " is " + found.status
	if found.reason != "" {
		msg += ", reason " + found.reason
	} else if c.Reason != nil && found.status != "absent" {
		msg += ", with no reason"
	}
	if found.message != "" {
		msg += ": " + found.message
	}
	return failure(c, msg)
}

// queueSummary sums a queue up in parentheses, for failure messages.
func queueSummary(v workqueue.View) string {
	var parts []string
	if len(v.Waiting) > 0 {
		parts = append(parts, "waiting: "+listed(v.Waiting))
	}
	var held []string
	for _, h := range v.Processing {
		held = append(held, heldLine(h, v))
	}
	if len(held) > 0 {
		parts = append(parts, "processing: "+listed(held))
	}
	var delayed []string
	for _, d := range v.Delayed {
		delayed = append(delayed, d.Key+" until t="+sim.FormatSeconds(d.ReadyAt))
	}
	if len(delayed) > 0 {
		parts = append(parts, "delayed: "+listed(delayed))
	}
	if len(parts) == 0 {
		return " (the queue is empty)"
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// heldLine describes a key being processed: "default/web by rs-worker-1,
// dirty".
func heldLine(h workqueue.Held, v workqueue.View) string {
	line := h.Key
	if h.Worker != "" {
		line += " by " + h.Worker
	}
	if isDirty(h.Key, v) {
		line += ", dirty"
	}
	return line
}

// isDirty reports whether a key being processed was added again meanwhile.
func isDirty(key string, v workqueue.View) bool {
	for _, d := range v.Dirty {
		if d == key {
			return true
		}
	}
	return false
}

// runExpectQueue checks how many keys wait in a queue, or that one does.
func (s *Session) runExpectQueue(c *ExpectQueue) error {
	v := s.manager(c.Kind).Queue().View()
	if c.Len != nil {
		if c.Len.Holds(int64(len(v.Waiting))) {
			return nil
		}
		return failure(c, c.Text+": len is "+itoa(len(v.Waiting))+queueSummary(v))
	}
	for _, k := range v.Waiting {
		if k == c.Contains {
			return nil
		}
	}
	return failure(c, c.Text+": "+c.Contains+" is not waiting"+queueSummary(v))
}

// runExpectExpectations checks the creates and deletes a controller still
// expects for a key. A key without a record expects nothing and is
// satisfied.
func (s *Session) runExpectExpectations(c *ExpectExpectations) error {
	key := c.Object.Key()
	v, ok := s.manager(c.Object.Kind).Expectations().View(key)
	satisfied := !ok || v.Satisfied
	holds := (c.Add == nil || c.Add.Holds(v.Add)) && (c.Del == nil || c.Del.Holds(v.Del)) &&
		(c.Satisfied == nil || *c.Satisfied == satisfied)
	if holds {
		return nil
	}
	msg := c.Text + ": add is " + strconv.FormatInt(v.Add, 10) + ", del is " + strconv.FormatInt(v.Del, 10) +
		", satisfied is " + strconv.FormatBool(satisfied)
	switch {
	case !ok:
		msg += " (no expectations are recorded for " + key + ")"
	case v.Expired:
		msg += " (the record expired: set " + v.Age.String() + " ago)"
	}
	return failure(c, msg)
}

// runExpectSyncs counts the syncs of a key that have ended (Done called),
// since the world began.
func (s *Session) runExpectSyncs(c *ExpectSyncs) error {
	key := c.Object.Key()
	last, ok := s.manager(c.Object.Kind).LastSync(key)
	if c.Count.Holds(int64(last.Count)) {
		return nil
	}
	msg := c.Text + ": " + plural(last.Count, "sync") + " of " + key + " ended"
	if ok {
		msg += " (the last by " + last.Worker + ", at t=" + sim.FormatSeconds(last.End) + ": " + last.Decision + ")"
	}
	return failure(c, msg)
}

// eventLine describes an Event in a failure message:
// `Warning FailedCreate rs/web ×3 "Error creating: ..."`.
func eventLine(e *api.Event) string {
	msg := e.Message
	if len(msg) > 80 {
		msg = msg[:77] + "..."
	}
	return e.Type + " " + e.Reason + " " + shortName(api.Kind(e.InvolvedObject.Kind)) + "/" + e.InvolvedObject.Name +
		" ×" + strconv.Itoa(int(e.Count)) + " " + strconv.Quote(msg)
}

// runExpectEvents counts Events, or sums their counts.
func (s *Session) runExpectEvents(c *ExpectEvents) error {
	var found []*api.Event
	total := int64(0)
	for _, o := range s.w.Store.Objects(api.KindEvent, c.Namespace) {
		e := o.(*api.Event)
		if c.Reason != nil && !c.Reason.Holds(e.Reason) {
			continue
		}
		if c.Type != nil && !c.Type.Holds(e.Type) {
			continue
		}
		if r := c.Object; r != nil {
			inv := e.InvolvedObject
			if inv.Kind != string(r.Kind) || inv.Name != r.Name || (r.Kind.Namespaced() && inv.Namespace != r.Namespace) {
				continue
			}
		}
		found = append(found, e)
		total += int64(e.Count)
	}
	if (c.Count == nil || c.Count.Holds(int64(len(found)))) && (c.Total == nil || c.Total.Holds(total)) {
		return nil
	}
	msg := c.Text + ": found " + plural(len(found), "Event")
	if c.Total != nil {
		msg += " with a total count of " + strconv.FormatInt(total, 10)
	}
	if len(found) > 0 {
		lines := make([]string, len(found))
		for i, e := range found {
			lines[i] = eventLine(e)
		}
		msg += " (" + listed(lines) + ")"
	}
	return failure(c, msg)
}

// runExpectRequests counts the API requests received.
func (s *Session) runExpectRequests(c *ExpectRequests) error {
	var found []string
	for _, r := range s.w.Server.Requests() {
		if (c.Verb == "" || r.Verb == c.Verb) && (c.Resource == "" || r.Resource == c.Resource) {
			found = append(found, requestLine(r.From, string(r.Verb), r.Resource, r.Key, r.Outcome))
		}
	}
	if c.Count.Holds(int64(len(found))) {
		return nil
	}
	msg := c.Text + ": found " + itoa(len(found))
	if len(found) > 0 {
		last := found[max(0, len(found)-5):]
		msg += " (the last: " + strings.Join(last, ", ") + ")"
	}
	return failure(c, msg)
}

// requestLine describes one request: "create pods default/web-x from
// rs-worker-1: ok".
func requestLine(from, verb, resource, key, outcome string) string {
	line := verb + " " + resource
	if key != "" {
		line += " " + key
	}
	return line + " from " + from + ": " + outcome
}
