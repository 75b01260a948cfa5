package script

import (
	"errors"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
)

// helpWidth is the width help text is wrapped to.
const helpWidth = 80

// HelpText returns the help for a topic, as help TOPIC prints it: "" lists the
// commands by group; a command's name (create rs) explains it; a first word
// (create, expect) explains every command that starts with it; kinds, fields
// and selectors explain those (and help config lists the config keys).
// Everything comes from the tables in table.go.
func HelpText(topic string) (string, error) {
	switch topic {
	case "":
		return overview(), nil
	case "kinds":
		return kindsHelp(), nil
	case "fields":
		return fieldsHelp(), nil
	case "selectors":
		return selectorsHelp, nil
	}
	var rows []*spec
	for _, s := range table {
		if s.Name == topic || (!strings.Contains(topic, " ") && s.words[0] == topic) {
			rows = append(rows, s)
		}
	}
	if len(rows) == 0 {
		var names []string
		for _, s := range table {
			names = append(names, s.Name)
		}
		names = append(names, helpTopics...)
		return "", errors.New(withSuggestions("unknown help topic "+strconv.Quote(topic), Suggest(topic, names),
			`"help" lists the commands`))
	}
	var parts []string
	for _, s := range rows {
		parts = append(parts, commandHelp(s))
	}
	return strings.Join(parts, "\n"), nil
}

// overview lists every command by group, with its summary.
func overview() string {
	var b strings.Builder
	b.WriteString("Reconcile Lab scenario commands. One command per line; # starts a comment;\n" +
		"\"double quotes\" group words. Objects are KIND/NAME or KIND NAME.\n")
	width := 0
	for _, s := range table {
		width = max(width, len(s.Name))
	}
	for _, g := range Groups {
		b.WriteString("\n" + string(g) + ":\n")
		var left, right []string
		for _, s := range table {
			if s.Group == g {
				left, right = append(left, s.Name), append(right, s.Summary)
			}
		}
		b.WriteString(columnsWidth(left, right, width))
	}
	b.WriteString("\nhelp COMMAND explains a command (help create rs, help expect);\n" +
		"help kinds, help fields, help config and help selectors explain the rest.\n")
	return b.String()
}

// commandHelp explains one command.
func commandHelp(s *spec) string {
	var b strings.Builder
	for _, u := range UsageLines(s.Usage) {
		b.WriteString(u + "\n")
	}
	b.WriteString("\n")
	b.WriteString(wrap(upperFirst(s.Summary)+".", "  "))
	if s.Details != "" {
		b.WriteString("\n" + wrap(s.Details, "  "))
	}
	if len(s.Args) > 0 {
		b.WriteString("\nArguments:\n")
		var left, right []string
		for _, a := range s.Args {
			left = append(left, a.Name)
			h := a.Help
			if a.Optional {
				h += " (optional)"
			}
			right = append(right, h)
		}
		b.WriteString(columns(left, right))
	}
	if len(s.Flags) > 0 {
		b.WriteString("\nFlags:\n")
		var left, right []string
		for _, f := range s.Flags {
			l := f.Spelling()
			if f.Short != "" {
				l = "-" + f.Short + ", " + l
			}
			left = append(left, l)
			right = append(right, flagHelp(f))
		}
		b.WriteString(columns(left, right))
	}
	if s.Name == "config" {
		b.WriteString("\nKeys:\n" + configKeysHelp())
	}
	b.WriteString("\nExamples:\n")
	for _, e := range s.Examples {
		b.WriteString("  " + e + "\n")
	}
	if d := s.doc(); len(d.Aliases) > 0 {
		b.WriteString("\nAlso written: " + strings.Join(d.Aliases, ", ") + "\n")
	}
	return b.String()
}

// UsageLines splits a usage into its alternatives, at each " | " that is not
// inside brackets or parentheses: "delete pod/NAME | delete rs/NAME" is two.
func UsageLines(usage string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(usage); i++ {
		switch usage[i] {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case '|':
			if depth == 0 && i > 0 && usage[i-1] == ' ' && i+1 < len(usage) && usage[i+1] == ' ' {
				out = append(out, usage[start:i-1])
				start = i + 2
			}
		}
	}
	return append(out, usage[start:])
}

// flagHelp is a flag's help with its type's rules appended.
func flagHelp(f FlagDoc) string {
	h := f.Help
	var notes []string
	if f.Required {
		notes = append(notes, "required")
	}
	if f.Type == TypeEnum {
		notes = append(notes, "one of "+strings.Join(f.Values, ", "))
	}
	if f.Type == TypeDuration {
		notes = append(notes, "a duration")
	}
	switch {
	case f.Default != "" && f.Type == TypeName:
		notes = append(notes, "default "+strconv.Quote(f.Default))
	case f.Default != "":
		notes = append(notes, "default "+f.Default)
	}
	if len(notes) > 0 {
		h += " (" + strings.Join(notes, "; ") + ")"
	}
	return h
}

// columns lays out two columns, the left one padded to its widest entry (at
// most 30), the right one wrapped.
func columns(left, right []string) string {
	width := 0
	for _, l := range left {
		if len(l) <= 30 {
			width = max(width, len(l))
		}
	}
	return columnsWidth(left, right, width)
}

// columnsWidth is columns with the left column's width given.
func columnsWidth(left, right []string, width int) string {
	var b strings.Builder
	indent := strings.Repeat(" ", width+4)
	for i, l := range left {
		if len(l) > width {
			b.WriteString("  " + l + "\n")
			b.WriteString(wrap(right[i], indent))
			continue
		}
		text := wrap(right[i], indent)
		b.WriteString("  " + pad(l, width+2) + text[len(indent):])
	}
	return b.String()
}

// wrap fills text into lines of at most helpWidth, each starting with indent.
func wrap(text, indent string) string {
	var b strings.Builder
	line := indent
	for _, w := range strings.Fields(text) {
		if len(line) > len(indent) && len(line)+1+len(w) > helpWidth {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
	return b.String()
}

func pad(s string, n int) string {
	if len(s) >= n {
		return s + " "
	}
	return s + strings.Repeat(" ", n-len(s))
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

func kindsHelp() string {
	var b strings.Builder
	b.WriteString("Kinds, as scripts name them (any spelling; case does not matter):\n\n")
	var left, right []string
	for _, k := range kindTable {
		left = append(left, k.Short)
		right = append(right, string(k.Kind)+": "+strings.Join(k.Names, ", "))
	}
	b.WriteString(columns(left, right))
	b.WriteString("\nWrite one object as KIND/NAME (rs/web) or KIND NAME (rs web). -n NS picks the\n" +
		"namespace (default \"default\"); nodes have none.\n")
	return b.String()
}

func fieldsHelp() string {
	var b strings.Builder
	b.WriteString("Fields that expect can check, by kind (expect rs/web status.replicas=3).\n" +
		"An absent number is 0 and an absent string is empty. Numbers compare with\n" +
		"=, !=, <, <=, > and >=; everything else with = and !=.\n")
	for _, k := range describeKinds {
		b.WriteString("\n" + shortName(k) + ":\n")
		var left, right []string
		for _, i := range fieldsOf(k) {
			d := fieldTable[i].doc()
			left = append(left, d.Path)
			h := d.Help + " (" + string(d.Type)
			if len(d.Values) > 0 {
				h += ": " + strings.Join(d.Values, ", ")
			}
			right = append(right, h+")")
		}
		b.WriteString(columns(left, right))
	}
	b.WriteString("\n" + wrap("expect pods takes count=N and the pod fields as filters; "+
		andList(shortFilters(api.KindPod))+" are its short names. expect rs takes count=N and the "+
		"ReplicaSet fields; "+andList(shortFilters(api.KindReplicaSet))+" are its short names.", ""))
	return b.String()
}

// andList joins words as prose does: "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// configKeysHelp lists the config keys with their types and defaults.
func configKeysHelp() string {
	var left, right []string
	for _, k := range configTable {
		left = append(left, k.Key)
		kind := "a duration from 0"
		if k.Type == TypeInt {
			kind = "a whole number from " + strconv.FormatInt(k.lo, 10)
		}
		right = append(right, k.Help+" ("+kind+"; default "+k.Default+")")
	}
	return columns(left, right)
}

const selectorsHelp = `Label selectors use the Kubernetes grammar, requirements separated by commas:

  app=web, app==web   app is web
  app!=web            app is absent, or not web
  tier in (a,b)       tier is a or b
  tier notin (a,b)    tier is absent, or neither a nor b
  canary, !canary     canary is present / absent

A selector is one word: quote it when it holds spaces,
  get pods -l "tier in (front,back)"    or    --selector="tier in (front,back)"
ReplicaSets also cannot hold > or <; ReplicationControllers only k=v.
`
