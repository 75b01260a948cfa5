package script

import (
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/labels"
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

// ExpectPods is `expect [cache] pods [-l SEL] count=N [filters]`: count the pods
// that match the selector and every filter.
type ExpectPods struct {
	Source
	// Cache reads the informer's cache instead of the API store.
	Cache        bool
	Namespace    string
	Selector     labels.Selector
	SelectorText string
	Count        Compare
	Filters      []FieldCheck
}

// ExpectOwners is `expect rs|deploy [-l SEL] count=N [filters]`: count the
// ReplicaSets, or the Deployments, that match the selector and every
// filter. A Deployment's ReplicaSets have generated names, so scripts count
// them by selector, owner and revision; and a count is how a script says
// that a Deployment is gone (count=0), or still there, being deleted,
// which expect deploy/NAME cannot say of an object that may not exist.
type ExpectOwners struct {
	Source
	// Kind is api.KindReplicaSet or api.KindDeployment.
	Kind         api.Kind
	Namespace    string
	Selector     labels.Selector
	SelectorText string
	Count        Compare
	Filters      []FieldCheck
}

// ExpectObject is `expect [cache] KIND/NAME FIELD=VALUE…`.
type ExpectObject struct {
	Source
	Cache  bool
	Object Ref
	Checks []FieldCheck
}

// ExpectCondition is `expect condition KIND/NAME TYPE=STATUS [reason=R]`.
type ExpectCondition struct {
	_ incomparable

	Source
	Object Ref
	Type   string
	// Status matches True, False, Unknown or absent (no such condition).
	Status Match
	// Reason, when set, matches the condition's reason.
	Reason *Match
}

// ExpectQueue is `expect queue NAME len=N` or `… contains KEY`.
type ExpectQueue struct {
	_ incomparable

	Source
	// Queue is the queue's upstream name; Kind is what its manager syncs.
	Queue string
	Kind  api.Kind
	// Exactly one of Len and Contains is set.
	Len      *Compare
	Contains string
}

// ExpectExpectations is `expect expectations rs/NAME [add=N] [del=N] [satisfied=B]`.
type ExpectExpectations struct {
	_ incomparable

	Source
	Object Ref
	// At least one of these is set. Satisfied is normalized: satisfied!=true is
	// stored as false.
	Add, Del  *Compare
	Satisfied *bool
}

// ExpectSyncs is `expect syncs rs/NAME count=N`.
type ExpectSyncs struct {
	_ incomparable

	Source
	Object Ref
	Count  Compare
}

// ExpectEvents is `expect events [filters] count=N|total=N`.
type ExpectEvents struct {
	_ incomparable

	Source
	Namespace string
	Reason    *Match
	Type      *Match
	// Object, when set, is the Events' involved object.
	Object *Ref
	// At least one of Count (Event objects) and Total (their counts summed).
	Count, Total *Compare
}

// ExpectRequests is `expect requests [verb=V] [resource=R] count=N`.
type ExpectRequests struct {
	_ incomparable

	Source
	// Verb and Resource filter; "" means any. Resource is the API's name:
	// pods, pods/binding, replicasets/status.
	Verb     apistore.Verb
	Resource string
	Count    Compare
}

func parseExpectPods(c *cmdParser) (Command, *ParseError) {
	return c.expectPods(c.args, false)
}

// expectPods parses the checks of expect [cache] pods.
func (c *cmdParser) expectPods(args []Token, cache bool) (Command, *ParseError) {
	q, perr := c.countChecks(api.KindPod, args)
	if perr != nil {
		return nil, perr
	}
	return &ExpectPods{Source: c.src, Cache: cache, Namespace: q.namespace, Selector: q.selector,
		SelectorText: q.selectorText, Count: q.count, Filters: q.filters}, nil
}

func parseExpectRS(c *cmdParser) (Command, *ParseError) { return c.expectOwners(api.KindReplicaSet) }

func parseExpectDeploy(c *cmdParser) (Command, *ParseError) {
	return c.expectOwners(api.KindDeployment)
}

// expectOwners parses expect rs|deploy: a count of the kind's objects, or,
// when the first argument is a name and not a check, one object, as expect
// KIND NAME FIELD=VALUE (which was the expect command's form first).
func (c *cmdParser) expectOwners(kind api.Kind) (Command, *ParseError) {
	if len(c.args) > 0 {
		if _, _, _, isCheck := splitCond(c.args[0]); !isCheck {
			return c.as("expect", c.head[1:]).expectObject(false)
		}
	}
	q, perr := c.countChecks(kind, c.args)
	if perr != nil {
		return nil, perr
	}
	return &ExpectOwners{Source: c.src, Kind: kind, Namespace: q.namespace, Selector: q.selector,
		SelectorText: q.selectorText, Count: q.count, Filters: q.filters}, nil
}

// as returns the line parsed as the command row name instead, with extra
// words put back before the arguments: expect rs web ... is expect's
// KIND NAME. The flags stay as split; the row's parse function refuses
// those its form cannot use.
func (c *cmdParser) as(name string, extra []Token) *cmdParser {
	for _, s := range table {
		if s.Name == name {
			d := *c
			d.spec, d.src.Name = s, name
			d.args = append(append([]Token(nil), extra...), c.args...)
			return &d
		}
	}
	panic("no command " + name)
}

// countQuery is what expect pods and expect rs share: which objects to
// count, how many there must be, and the filters they must pass.
type countQuery struct {
	namespace    string
	selector     labels.Selector
	selectorText string
	count        Compare
	filters      []FieldCheck
}

// countChecks parses count=N and the filters of expect pods or expect rs:
// the kind's field paths, and its short names.
func (c *cmdParser) countChecks(kind api.Kind, args []Token) (countQuery, *ParseError) {
	q := countQuery{namespace: c.namespace(kind), selector: labels.Everything()}
	if fv := c.flags["selector"]; fv != nil {
		q.selector, q.selectorText = fv.sel, fv.s
	}
	conds, perr := c.conds(args)
	if perr != nil {
		return q, perr
	}
	hasCount := false
	seen := map[string]bool{}
	for _, k := range conds {
		if seen[k.key] {
			return q, twice(k)
		}
		seen[k.key] = true
		if k.key == "count" {
			if q.count, perr = numberCompare(k); perr != nil {
				return q, perr
			}
			hasCount = true
			continue
		}
		if _, _, ok := lookupField(kind, k.key); !ok {
			keyTok := k.tok.slice(0, len(k.key))
			e := unknown(keyTok, "filter", k.key, append([]string{"count"}, fieldCandidates(kind, k.key)...), "")
			e.Hint = "filters are count, " + strings.Join(shortFilters(kind), ", ") + ", or a " + kindWord(kind) +
				" field path (help fields)"
			return q, e
		}
		fc, perr := c.fieldCheck(kind, k)
		if perr != nil {
			return q, perr
		}
		q.filters = append(q.filters, fc)
	}
	if !hasCount {
		return q, c.errEnd(c.spec.Name+" needs count=N", c.example())
	}
	return q, nil
}

// shortFilters lists the short names of a kind's filters: phase, ready,
// owner, ...
func shortFilters(kind api.Kind) []string {
	var out []string
	for _, i := range fieldsOf(kind) {
		if fieldTable[i].filter {
			out = append(out, fieldTable[i].path)
		}
	}
	return out
}

// kindWord names a kind in prose: pod, ReplicaSet.
func kindWord(kind api.Kind) string {
	if kind == api.KindPod {
		return "pod"
	}
	return string(kind)
}

func parseExpectObject(c *cmdParser) (Command, *ParseError) {
	return c.expectObject(false)
}

// expectForms are the words that may follow expect.
func expectForms() []string {
	var out []string
	for _, s := range table {
		if s.words[0] == "expect" && len(s.words) > 1 {
			out = append(out, s.words[1])
		}
	}
	return out
}

// expectObject parses expect [cache] KIND/NAME FIELD=VALUE...
func (c *cmdParser) expectObject(cache bool) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd(c.spec.Name+" needs what to check", "write "+c.spec.Name+" KIND/NAME FIELD=VALUE, or one of "+
			orList(expectForms()))
	}
	a := c.args[0]
	_, isKind := kindOf(a.Text)
	if !cache && !isKind && !strings.Contains(a.Text, "/") {
		e := unknown(a, "word", a.Text, expectForms(), "expect takes "+orList(expectForms())+", or KIND/NAME")
		e.Msg += " after expect"
		return nil, e
	}
	_, _, _, hasOp := splitCond(Token{Text: textOf(c.args, 1)})
	nameFollows := !strings.Contains(a.Text, "/") && len(c.args) > 1 && !hasOp
	r, rest, perr := c.ref(c.args, nameFollows)
	if perr != nil {
		return nil, perr
	}
	if perr := c.forbidFlag("selector", "is for expect cache pods; "+r.String()+" names one object"); perr != nil {
		return nil, perr
	}
	if len(rest) == 0 {
		return nil, c.errEnd(c.spec.Name+" "+r.String()+" needs FIELD=VALUE", c.example())
	}
	conds, perr := c.conds(rest)
	if perr != nil {
		return nil, perr
	}
	cmd := &ExpectObject{Source: c.src, Cache: cache, Object: r}
	for _, k := range conds {
		fc, perr := c.fieldCheck(r.Kind, k)
		if perr != nil {
			return nil, perr
		}
		cmd.Checks = append(cmd.Checks, fc)
	}
	return cmd, nil
}

// textOf returns the text of args[i], or "".
func textOf(args []Token, i int) string {
	if i < len(args) {
		return args[i].Text
	}
	return ""
}

func parseExpectCache(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd("expect cache needs pods or KIND/NAME", c.example())
	}
	if k, ok := kindOf(c.args[0].Text); ok && k == api.KindPod && (len(c.args) == 1 || strings.ContainsAny(c.args[1].Text, "=<>")) {
		return c.expectPods(c.args[1:], true)
	}
	return c.expectObject(true)
}

func parseExpectCondition(c *cmdParser) (Command, *ParseError) {
	_, _, _, hasOp := splitCond(Token{Text: textOf(c.args, 1)})
	r, rest, perr := c.ref(c.args, len(c.args) > 1 && !strings.Contains(c.args[0].Text, "/") && !hasOp)
	if perr != nil {
		return nil, perr
	}
	if len(rest) == 0 {
		return nil, c.errEnd("expect condition needs TYPE=STATUS", c.example())
	}
	conds, perr := c.conds(rest)
	if perr != nil {
		return nil, perr
	}
	var types []string
	for _, ct := range conditionTypes {
		if ct.kind == r.Kind {
			types = ct.types
		}
	}
	cmd := &ExpectCondition{Source: c.src, Object: r}
	first := conds[0]
	if !containsString(types, first.key) {
		return nil, unknown(first.tok.slice(0, len(first.key)), "condition type", first.key, types,
			resourcePlural(r.Kind)+" report "+orList(types))
	}
	cmd.Type = first.key
	if cmd.Status, perr = wordMatch(first); perr != nil {
		return nil, perr
	}
	if perr := checkEnum(first.val, "a condition's status", conditionStatuses); perr != nil {
		return nil, perr
	}
	for _, k := range conds[1:] {
		if k.key != "reason" {
			return nil, unknown(k.tok.slice(0, len(k.key)), "check", k.key, []string{"reason"}, "after TYPE=STATUS only reason=R may follow")
		}
		if cmd.Reason != nil {
			return nil, twice(k)
		}
		m, perr := wordMatch(k)
		if perr != nil {
			return nil, perr
		}
		cmd.Reason = &m
	}
	return cmd, nil
}

func parseExpectQueue(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd("expect queue needs a queue name: replicaset or replicationmanager", c.example())
	}
	q, kind, perr := queueName(c.args[0])
	if perr != nil {
		return nil, perr
	}
	cmd := &ExpectQueue{Source: c.src, Queue: q, Kind: kind}
	rest := c.args[1:]
	if len(rest) == 0 {
		return nil, c.errEnd("expect queue "+c.args[0].Text+" needs len=N or contains KEY", c.example())
	}
	a := rest[0]
	if a.Text == "contains" {
		if len(rest) < 2 {
			return nil, c.errEnd("contains needs a key: NAMESPACE/NAME", c.example())
		}
		kt := rest[1]
		key := kt.Text
		if !strings.Contains(key, "/") {
			key = api.Key(c.namespace(kind), key)
		}
		ns, name, err := api.SplitKey(key)
		if err != nil {
			return nil, errAt(kt, "bad key "+strconv.Quote(kt.Text)+": want NAMESPACE/NAME or NAME")
		}
		if p := labels.IsDNS1123Label(ns); len(p) > 0 {
			return nil, errAt(kt, "invalid namespace "+strconv.Quote(ns)+" in key: "+strings.Join(p, "; "))
		}
		if p := labels.IsDNS1123Subdomain(name); len(p) > 0 {
			return nil, errAt(kt, "invalid name "+strconv.Quote(name)+" in key: "+strings.Join(p, "; "))
		}
		cmd.Contains = key
		return cmd, c.noMoreArgs(rest[2:])
	}
	conds, perr := c.conds(rest[:1])
	if perr != nil {
		return nil, perr
	}
	if k := conds[0]; k.key != "len" {
		return nil, unknown(k.tok.slice(0, len(k.key)), "check", k.key, []string{"len", "contains"}, "expect queue checks len=N or contains KEY")
	}
	n, perr := numberCompare(conds[0])
	if perr != nil {
		return nil, perr
	}
	cmd.Len = &n
	return cmd, c.noMoreArgs(rest[1:])
}

// queueName reads a work queue's name, or the kind its manager syncs.
func queueName(t Token) (string, api.Kind, *ParseError) {
	var names []string
	for _, q := range queueTable {
		if t.Text == q.name {
			return q.name, q.kind, nil
		}
		names = append(names, q.name)
	}
	if k, ok := kindOf(t.Text); ok {
		for _, q := range queueTable {
			if q.kind == k {
				return q.name, q.kind, nil
			}
		}
	}
	return "", "", unknown(t, "queue", t.Text, append(names, "rs", "rc"), "the queues are "+orList(names)+" (or rs, rc)")
}

// ownerConds reads what expect expectations and expect syncs take: an
// owner (rs/NAME, or rs NAME), then conditions.
func (c *cmdParser) ownerConds() (Ref, []cond, *ParseError) {
	_, _, _, hasOp := splitCond(Token{Text: textOf(c.args, 1)})
	r, rest, perr := c.ref(c.args, len(c.args) > 1 && !strings.Contains(c.args[0].Text, "/") && !hasOp)
	if perr != nil {
		return Ref{}, nil, perr
	}
	conds, perr := c.conds(rest)
	return r, conds, perr
}

func parseExpectSyncs(c *cmdParser) (Command, *ParseError) {
	r, conds, perr := c.ownerConds()
	if perr != nil {
		return nil, perr
	}
	cmd := &ExpectSyncs{Source: c.src, Object: r}
	seen := false
	for _, k := range conds {
		if k.key != "count" {
			return nil, unknown(k.tok.slice(0, len(k.key)), "check", k.key, []string{"count"}, "expect syncs takes count")
		}
		if seen {
			return nil, twice(k)
		}
		n, perr := numberCompare(k)
		if perr != nil {
			return nil, perr
		}
		cmd.Count, seen = n, true
	}
	if !seen {
		return nil, c.errEnd("expect syncs needs count=N", c.example())
	}
	return cmd, nil
}

func parseExpectExpectations(c *cmdParser) (Command, *ParseError) {
	r, conds, perr := c.ownerConds()
	if perr != nil {
		return nil, perr
	}
	cmd := &ExpectExpectations{Source: c.src, Object: r}
	for _, k := range conds {
		switch k.key {
		case "add", "del":
			p := &cmd.Add
			if k.key == "del" {
				p = &cmd.Del
			}
			if *p != nil {
				return nil, twice(k)
			}
			n, perr := numberCompare(k)
			if perr != nil {
				return nil, perr
			}
			*p = &n
		case "satisfied":
			if cmd.Satisfied != nil {
				return nil, twice(k)
			}
			m, perr := wordMatch(k)
			if perr != nil {
				return nil, perr
			}
			if perr := checkEnum(k.val, "satisfied", []string{"true", "false"}); perr != nil {
				return nil, perr
			}
			b := (m.Value == "true") == (m.Op == OpEq)
			cmd.Satisfied = &b
		default:
			return nil, unknown(k.tok.slice(0, len(k.key)), "check", k.key, []string{"add", "del", "satisfied"},
				"expect expectations checks add, del and satisfied")
		}
	}
	if len(conds) == 0 {
		return nil, c.errEnd("expect expectations needs add=N, del=N or satisfied=true|false", c.example())
	}
	return cmd, nil
}

func parseExpectEvents(c *cmdParser) (Command, *ParseError) {
	conds, perr := c.conds(c.args)
	if perr != nil {
		return nil, perr
	}
	cmd := &ExpectEvents{Source: c.src, Namespace: c.namespace(api.KindEvent)}
	seen := map[string]bool{}
	for _, k := range conds {
		if seen[k.key] {
			return nil, twice(k)
		}
		seen[k.key] = true
		switch k.key {
		case "count", "total":
			n, perr := numberCompare(k)
			if perr != nil {
				return nil, perr
			}
			if k.key == "count" {
				cmd.Count = &n
			} else {
				cmd.Total = &n
			}
		case "reason":
			m, perr := wordMatch(k)
			if perr != nil {
				return nil, perr
			}
			cmd.Reason = &m
		case "type":
			m, perr := wordMatch(k)
			if perr != nil {
				return nil, perr
			}
			if perr := checkEnum(k.val, "type", []string{api.EventNormal, api.EventWarning}); perr != nil {
				return nil, perr
			}
			cmd.Type = &m
		case "object":
			if perr := onlyEq(k); perr != nil {
				return nil, perr
			}
			r, _, perr := c.refIn([]Token{k.val}, false, describeKinds)
			if perr != nil {
				return nil, perr
			}
			cmd.Object = &r
		default:
			return nil, unknown(k.tok.slice(0, len(k.key)), "check", k.key, []string{"reason", "object", "type", "count", "total"},
				"expect events takes reason, object, type, count and total")
		}
	}
	if cmd.Count == nil && cmd.Total == nil {
		return nil, c.errEnd("expect events needs count=N or total=N", c.example())
	}
	return cmd, nil
}

func parseExpectRequests(c *cmdParser) (Command, *ParseError) {
	conds, perr := c.conds(c.args)
	if perr != nil {
		return nil, perr
	}
	cmd := &ExpectRequests{Source: c.src}
	seen := map[string]bool{}
	hasCount := false
	for _, k := range conds {
		if seen[k.key] {
			return nil, twice(k)
		}
		seen[k.key] = true
		switch k.key {
		case "count":
			if cmd.Count, perr = numberCompare(k); perr != nil {
				return nil, perr
			}
			hasCount = true
		case "verb":
			if perr := onlyEq(k); perr != nil {
				return nil, perr
			}
			verbs := make([]string, len(apistore.Verbs))
			for i, v := range apistore.Verbs {
				verbs[i] = string(v)
			}
			if perr := checkEnum(k.val, "verb", verbs); perr != nil {
				return nil, perr
			}
			cmd.Verb = apistore.Verb(k.val.Text)
		case "resource":
			if perr := onlyEq(k); perr != nil {
				return nil, perr
			}
			_, _, res, perr := resource(k.val)
			if perr != nil {
				return nil, perr
			}
			cmd.Resource = res
		default:
			return nil, unknown(k.tok.slice(0, len(k.key)), "check", k.key, []string{"verb", "resource", "count"},
				"expect requests takes verb, resource and count")
		}
	}
	if !hasCount {
		return nil, c.errEnd("expect requests needs count=N", c.example())
	}
	return cmd, nil
}

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

// rsLine describes a ReplicaSet in a failure message: name, revision,
// replicas wanted, ready and available, and owner:
// "web-7b9c5d6f8 revision 2, replicas 3, ready 2, available 2, deploy/web".
func rsLine(rs *api.ReplicaSet) string {
	f := replicaFieldsOf(rs)
	owner := ownerOf(&rs.Metadata)
	if owner == "none" {
		owner = "no owner"
	}
	line := rs.Metadata.Name + " revision " + strconv.FormatInt(revisionOf(&rs.Metadata), 10) +
		", replicas " + strconv.FormatInt(f.replicas, 10) + ", ready " + strconv.FormatInt(f.ready, 10) +
		", available " + strconv.FormatInt(f.avail, 10) + ", " + owner
	if rs.Metadata.DeletionTimestamp != nil {
		line += ", terminating"
	}
	return line
}

// deployLine describes a Deployment for a failure message:
//
//	web replicas 3, updated 3, available 3, terminating
func deployLine(d *api.Deployment) string {
	var replicas int64
	if d.Spec.Replicas != nil {
		replicas = int64(*d.Spec.Replicas)
	}
	line := d.Metadata.Name + " replicas " + strconv.FormatInt(replicas, 10) +
		", updated " + strconv.FormatInt(int64(d.Status.UpdatedReplicas), 10) +
		", available " + strconv.FormatInt(int64(d.Status.AvailableReplicas), 10)
	if d.Metadata.DeletionTimestamp != nil {
		line += ", terminating"
	}
	return line
}

// objectLines describes pods, ReplicaSets or Deployments for a failure
// message.
func objectLines(objs []api.Object) string {
	lines := make([]string, len(objs))
	for i, o := range objs {
		switch o := o.(type) {
		case *api.Pod:
			lines[i] = podLine(o)
		case *api.ReplicaSet:
			lines[i] = rsLine(o)
		case *api.Deployment:
			lines[i] = deployLine(o)
		}
	}
	return listed(lines)
}

func (c *ExpectPods) query() countQuery {
	return countQuery{namespace: c.Namespace, selector: c.Selector, selectorText: c.SelectorText, count: c.Count, filters: c.Filters}
}

func (c *ExpectOwners) query() countQuery {
	return countQuery{namespace: c.Namespace, selector: c.Selector, selectorText: c.SelectorText, count: c.Count, filters: c.Filters}
}

// run counts the pods that match the selector and every filter.
func (c *ExpectPods) run(s *Session) error {
	w := s.w
	var all []api.Object
	if c.Cache {
		all = w.Pods.Lister().List(c.Namespace, c.Selector)
		creationOrder(w, api.KindPod, all)
	} else {
		all = matching(w, Target{Kind: api.KindPod, Namespace: c.Namespace, Selector: c.Selector})
	}
	msg, ok := c.query().check(c.Text, api.KindPod, all)
	if ok {
		return nil
	}
	if c.Cache {
		msg += " in the informer's cache"
	}
	return failure(c, msg)
}

// run counts the objects of the kind that match the selector and every
// filter.
func (c *ExpectOwners) run(s *Session) error {
	all := matching(s.w, Target{Kind: c.Kind, Namespace: c.Namespace, Selector: c.Selector})
	if msg, ok := c.query().check(c.Text, c.Kind, all); !ok {
		return failure(c, msg)
	}
	return nil
}

// check counts the objects of all (those the selector matches, in
// creation order) that pass every filter. When the count does not hold it
// returns the failure message: what was found, and the objects the
// selector matched that the filters left out.
func (q countQuery) check(text string, kind api.Kind, all []api.Object) (string, bool) {
	var found, left []api.Object
	for _, o := range all {
		ok := true
		for _, f := range q.filters {
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
	if q.count.Holds(int64(len(found))) {
		return "", true
	}
	msg := text + ": found " + itoa(len(found))
	if len(found) > 0 {
		msg += " (" + objectLines(found) + ")"
	}
	if len(left) > 0 {
		sel := "the selector"
		if q.selectorText != "" {
			sel = "-l " + q.selectorText
		}
		one, many := "more pod matches", "more pods match"
		switch kind {
		case api.KindReplicaSet:
			one, many = "more ReplicaSet matches", "more ReplicaSets match"
		case api.KindDeployment:
			one, many = "more Deployment matches", "more Deployments match"
		}
		msg += "; " + pluralAs(len(left), one, many) + " " + sel + " but not the filters (" + objectLines(left) + ")"
	}
	return msg, false
}

// describeValue prints an actual value in a failure message.
func describeValue(v Value) string {
	if v.Type != TypeInt && v.Type != TypeBool && v.Str == "" {
		return "empty"
	}
	return v.String()
}

// run checks fields of one object.
func (c *ExpectObject) run(s *Session) error {
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
	return c.checkFields(obj)
}

// checkFields checks the fields of the object the expect names.
func (c *ExpectObject) checkFields(obj api.Object) error {
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
	case *api.Deployment:
		for _, c := range o.Status.Conditions {
			out = append(out, condition{c.Type, c.Status, c.Reason, c.Message})
		}
	}
	return out
}

// run checks one condition's status, and its reason.
func (c *ExpectCondition) run(s *Session) error {
	r := c.Object
	obj, ok := s.w.Store.Object(r.Kind, r.Namespace, r.Name)
	if !ok {
		return failure(c, c.Text+": "+notFound(r.Kind, r.Name)+inNamespace(r.Namespace))
	}
	return c.checkConditionOf(obj)
}

// checkConditionOf checks the condition of the object the expect names.
func (c *ExpectCondition) checkConditionOf(obj api.Object) error {
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

// run checks how many keys wait in a queue, or that one does.
func (c *ExpectQueue) run(s *Session) error {
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

// run checks the creates and deletes a controller still
// expects for a key. A key without a record expects nothing and is
// satisfied.
func (c *ExpectExpectations) run(s *Session) error {
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

// run counts the syncs of a key that have ended (Done called),
// since the world began.
func (c *ExpectSyncs) run(s *Session) error {
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

// run counts Events, or sums their counts.
func (c *ExpectEvents) run(s *Session) error {
	return c.checkEvents(s.w.Store.Objects(api.KindEvent, c.Namespace))
}

// checkEvents counts the Events among events (those of the expect's
// namespace) that the expect selects.
func (c *ExpectEvents) checkEvents(events []api.Object) error {
	var found []*api.Event
	total := int64(0)
	for _, o := range events {
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

// run counts the API requests received.
func (c *ExpectRequests) run(s *Session) error {
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
