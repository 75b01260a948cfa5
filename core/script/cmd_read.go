package script

import (
	"slices"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/printers"
	"github.com/reconcilelab/rlab/core/sorting"
)

// This file holds the reading commands: get and describe, which read the
// API store as kubectl would, without sending requests, and the inside views
// queue, cache, expectations, agenda, requests and trace, which views.go
// prints. Reading never changes the world. Ages are measured on the
// simulated clock.

// Get is `get KIND [NAME] …`.
type Get struct {
	Source
	Kind      api.Kind
	Namespace string
	// Name is one object; "" lists those Selector matches.
	Name         string
	Selector     labels.Selector
	SelectorText string
	// Output is "", wide, json or yaml.
	Output     string
	ShowLabels bool
}

// Describe is `describe KIND/NAME`.
type Describe struct {
	_ incomparable

	Source
	Object Ref
}

// Show is one of the commands that show a part of the machinery: queue, cache,
// expectations, agenda, requests, trace (What).
type Show struct {
	_ incomparable

	Source
	What string
	// Queue narrows queue; Kind narrows cache; N narrows agenda, requests and
	// trace (0 shows all).
	Queue string
	Kind  api.Kind
	N     int
}

func parseGet(c *cmdParser) (Command, *ParseError) {
	if len(c.args) == 0 {
		return nil, c.errEnd("get needs a kind: "+orList(shortNames(c.spec.kinds)), c.example())
	}
	cmd := &Get{Source: c.src, Selector: labels.Everything(), ShowLabels: c.boolFlag("show-labels")}
	if fv := c.flags["output"]; fv != nil {
		cmd.Output = fv.s
	}
	var rest []Token
	if strings.Contains(c.args[0].Text, "/") || len(c.args) > 1 {
		r, r2, perr := c.ref(c.args, true)
		if perr != nil {
			return nil, perr
		}
		if perr := c.forbidFlag("selector", "lists objects; "+r.String()+" names one already"); perr != nil {
			return nil, perr
		}
		cmd.Kind, cmd.Namespace, cmd.Name, rest = r.Kind, r.Namespace, r.Name, r2
	} else {
		k, perr := c.kind(c.args[0], c.args[0].Text)
		if perr != nil {
			return nil, perr
		}
		cmd.Kind, cmd.Namespace = k, c.namespace(k)
		if fv := c.flags["selector"]; fv != nil {
			cmd.Selector, cmd.SelectorText = fv.sel, fv.s
		}
	}
	return cmd, c.noMoreArgs(rest)
}

func parseDescribe(c *cmdParser) (Command, *ParseError) {
	r, rest, perr := c.ref(c.args, len(c.args) > 1)
	if perr != nil {
		return nil, perr
	}
	return &Describe{Source: c.src, Object: r}, c.noMoreArgs(rest)
}

func parseShow(c *cmdParser) (Command, *ParseError) {
	cmd := &Show{Source: c.src, What: c.spec.Name}
	if len(c.args) == 0 {
		return cmd, nil
	}
	a := c.args[0]
	switch cmd.What {
	case "queue":
		q, _, perr := queueName(a)
		if perr != nil {
			return nil, perr
		}
		cmd.Queue = q
	case "cache":
		k, perr := c.kind(a, a.Text)
		if perr != nil {
			return nil, perr
		}
		cmd.Kind = k
	case "agenda", "requests", "trace":
		n, perr := parseInt(a, cmd.What, 1, 1<<31-1)
		if perr != nil {
			return nil, perr
		}
		cmd.N = int(n)
	default:
		return nil, c.noMoreArgs(c.args)
	}
	return cmd, c.noMoreArgs(c.args[1:])
}

func (c *Get) run(s *Session) error {
	w := s.w
	now := w.Kernel.Wall()
	var objs []api.Object
	if c.Name != "" {
		o, ok := w.Store.Object(c.Kind, c.Namespace, c.Name)
		if !ok {
			return failure(c, "get "+shortName(c.Kind)+"/"+c.Name+": "+notFound(c.Kind, c.Name)+inNamespace(c.Namespace))
		}
		objs = []api.Object{o}
	} else {
		for _, o := range w.Store.Objects(c.Kind, c.Namespace) {
			if c.Selector.Matches(o.Meta().Labels) {
				objs = append(objs, o)
			}
		}
	}
	var out []byte
	var err error
	switch {
	case c.Output == "json" && c.Name != "":
		out, err = printers.JSON(objs[0])
	case c.Output == "json":
		out, err = printers.JSONList(c.Kind, objs)
	case c.Output == "yaml" && c.Name != "":
		out, err = printers.YAML(objs[0])
	case c.Output == "yaml":
		out, err = printers.YAMLList(c.Kind, objs)
	default:
		table := printers.Table(c.Kind, c.Namespace, objs, now, c.Output == "wide")
		if c.ShowLabels && len(objs) > 0 {
			table = withLabelsColumn(table, objs)
		}
		s.printText(table)
		return nil
	}
	if err != nil {
		return failure(c, c.Text+": "+err.Error())
	}
	s.printText(string(out))
	return nil
}

// withLabelsColumn appends kubectl's --show-labels column to a table that
// printers.Table printed for objs: LABELS, each object's labels as k=v in
// key order, or <none>. The column starts three spaces after the longest
// line, where kubectl's tabwriter would put it. A table that does not have
// one row per object comes back unchanged.
func withLabelsColumn(table string, objs []api.Object) string {
	lines := strings.Split(strings.TrimSuffix(table, "\n"), "\n")
	if len(lines) != len(objs)+1 {
		return table
	}
	sorted := slices.Clone(objs)
	sorting.Func(sorted, func(a, b api.Object) int {
		return strings.Compare(api.Key(a.Meta().Namespace, a.Meta().Name), api.Key(b.Meta().Namespace, b.Meta().Name))
	})
	width := 0
	for _, l := range lines {
		width = max(width, len(l))
	}
	var b strings.Builder
	for i, l := range lines {
		cell := "LABELS"
		if i > 0 {
			cell = "<none>"
			if ls := sorted[i-1].Meta().Labels; len(ls) > 0 {
				cell = labels.Set(ls).String()
			}
		}
		b.WriteString(l)
		b.WriteString(strings.Repeat(" ", width+3-len(l)))
		b.WriteString(cell)
		b.WriteByte('\n')
	}
	return b.String()
}

func (c *Describe) run(s *Session) error {
	w := s.w
	r := c.Object
	obj, ok := w.Store.Object(r.Kind, r.Namespace, r.Name)
	if !ok {
		return failure(c, "describe "+r.String()+": "+notFound(r.Kind, r.Name)+inNamespace(r.Namespace))
	}
	var rel printers.Related
	for _, o := range w.Store.Objects(api.KindEvent, "") {
		rel.Events = append(rel.Events, o.(*api.Event))
	}
	for _, o := range w.Store.Objects(api.KindPod, "") {
		rel.Pods = append(rel.Pods, o.(*api.Pod))
	}
	for _, o := range w.Store.Objects(api.KindReplicaSet, "") {
		rel.ReplicaSets = append(rel.ReplicaSets, o.(*api.ReplicaSet))
	}
	s.printText(printers.Describe(obj, rel, w.Kernel.Wall()))
	return nil
}

// run prints one of the inside views.
func (c *Show) run(s *Session) error {
	var text string
	switch c.What {
	case "queue":
		text = s.queueView(c.Queue)
	case "cache":
		text = s.cacheView(c.Kind)
	case "expectations":
		text = s.expectationsView()
	case "agenda":
		text = s.agendaView(c.N)
	case "requests":
		text = s.requestsView(c.N)
	case "trace":
		text = s.traceView(c.N)
	}
	s.printText(text)
	return nil
}
