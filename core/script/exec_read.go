package script

import (
	"slices"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/printers"
	"github.com/reconcilelab/rlab/core/sorting"
)

// This file executes the reading commands get, describe and help. They read
// the API store, as kubectl would, without sending requests: reading never
// changes the world. Ages are measured on the simulated clock.

func (s *Session) runGet(c *Get) error {
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

func (s *Session) runDescribe(c *Describe) error {
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
	s.printText(printers.Describe(obj, rel, w.Kernel.Wall()))
	return nil
}

func (s *Session) runHelp(c *Help) error {
	text, err := HelpText(c.Topic)
	if err != nil {
		return failure(c, "help: "+err.Error())
	}
	s.printText(text)
	return nil
}
