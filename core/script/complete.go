package script

import (
	"slices"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
)

// This file is Tab completion. The grammar comes from the command table: an
// argument's ArgDoc says what completes it (a kind, an object, a config key,
// a field), a flag's or a field's names say which things that exist its
// value names (a node, a namespace, an owner). The names themselves come
// from the world: CompleteIn asks an ObjectLister, and a Session hands it
// its world's API store, so the page and the tests complete the same way.

// Completion is what completion offers for the word under the cursor.
type Completion struct {
	// Start and End are the byte offsets of the word being completed (End is
	// the cursor); a candidate replaces line[Start:End].
	Start, End int
	// Candidates are whole words that start with what was typed: the words
	// of the grammar in table order, then the names of things that exist,
	// sorted (nodes, namespaces and, per kind, the objects of the namespace
	// the line selects).
	Candidates []string
}

// ObjectLister is where completion finds the objects that exist. Objects
// returns a kind's objects in one namespace ("" for every namespace; a
// cluster-scoped kind ignores it), sorted by namespace and name, and must
// not change anything. *apistore.Store is one: a direct read, not an API
// request, so completing never shows in the request log.
type ObjectLister interface {
	Objects(kind api.Kind, namespace string) []api.Object
}

// Complete returns the candidates for the word under the cursor (a byte
// offset into line) that the grammar alone offers: commands, kinds, flags,
// flag values from enumerations, config keys and expect fields, all from the
// command table.
func Complete(line string, cursor int) []string { return CompleteAt(line, cursor).Candidates }

// CompleteAt is Complete with the span of the word the candidates replace.
func CompleteAt(line string, cursor int) Completion { return CompleteIn(nil, line, cursor) }

// CompleteIn is CompleteAt that also offers what exists in objs wherever the
// line names something: an object after KIND/ or KIND (kill pod/web-x7k2p,
// describe pod web-x7k2p, scale rs/web, cordon node-1), a node (--node=,
// node=), a namespace (-n), a pod's owner (owner=rs/web), an Event's object
// (object=rs/web) and a work queue's key (expect queue rs contains
// default/web). Objects of a namespaced kind come from the namespace the
// line selects with -n or --namespace, wherever in the line it is, and from
// default without one. objs may be nil: then only the grammar is offered.
func CompleteIn(objs ObjectLister, line string, cursor int) Completion {
	cursor = max(0, min(cursor, len(line)))
	p := lexPartial(line[:cursor])
	out := Completion{Start: p.start, End: cursor}
	if p.inComment {
		return out
	}
	words := make([]string, len(p.words))
	for i, w := range p.words {
		words[i] = w.Text
	}
	c := completer{objs: objs, namespace: lineNamespace(line)}
	seen := map[string]bool{}
	for _, cand := range c.candidates(words, p.current) {
		if strings.HasPrefix(cand, p.current) && !seen[cand] {
			seen[cand] = true
			out.Candidates = append(out.Candidates, cand)
		}
	}
	return out
}

// Complete offers completions for the word under the cursor, with the names
// of what exists in the session's world now (see CompleteIn). Before a
// command has built the world nothing exists yet, and it offers the grammar.
// It never changes the world.
func (s *Session) Complete(line string, cursor int) Completion {
	if s.w == nil {
		return CompleteAt(line, cursor)
	}
	return CompleteIn(s.w.Store, line, cursor)
}

// lineNamespace is the namespace a line selects: the value of its -n or
// --namespace, in any of the spellings the parser reads, or default.
func lineNamespace(line string) string {
	p := lexPartial(line)
	words := make([]string, 0, len(p.words)+1)
	for _, w := range p.words {
		words = append(words, w.Text)
	}
	words = append(words, p.current)
	for i, w := range words {
		switch {
		case (w == "-n" || w == "--namespace") && i+1 < len(words) && words[i+1] != "":
			return words[i+1]
		case strings.HasPrefix(w, "--namespace=") && len(w) > len("--namespace="):
			return w[len("--namespace="):]
		case strings.HasPrefix(w, "-n=") && len(w) > len("-n="):
			return w[len("-n="):]
		case strings.HasPrefix(w, "-n") && len(w) > len("-n") && w[2] != '=':
			return w[len("-n"):]
		}
	}
	return flagNamespace.Default
}

// completer completes one line: objs and namespace are where names come
// from (objs is nil for the grammar alone).
type completer struct {
	objs      ObjectLister
	namespace string
}

// candidates lists what may come after words, before filtering by what was
// typed of the current word.
func (c completer) candidates(words []string, current string) []string {
	if len(words) == 0 {
		return firstWords()
	}
	var rows []*spec
	var fallback *spec
	for _, s := range table {
		if s.words[0] == words[0] {
			rows = append(rows, s)
			if len(s.words) == 1 {
				fallback = s
			}
		}
	}
	if len(rows) == 0 {
		return nil
	}
	row, n := fallback, 1
	for _, s := range rows {
		if len(s.words) > 1 && len(words) > 1 && wordMatches(s.words[1], words[1]) {
			row, n = s, 2
		}
	}
	var out []string
	if len(words) == 1 && !strings.HasPrefix(current, "-") {
		for _, s := range rows {
			if len(s.words) > 1 {
				out = append(out, s.words[1])
			}
		}
	}
	if row == nil {
		return out
	}
	// expect rs NAME FIELD=VALUE is the expect command's KIND NAME.
	if row.Name == "expect rs" {
		if args := positionals(row, words[n:]); len(args) > 0 && !isCheck(args[0]) {
			row, n = fallback, 1
		}
	}
	rest := words[n:]
	// A flag, or a flag's value written after =.
	if strings.HasPrefix(current, "-") {
		if name, value, ok := strings.Cut(strings.TrimLeft(current, "-"), "="); ok {
			if f, found := row.flag(name); found {
				for _, v := range f.Values {
					out = append(out, "--"+name+"="+v)
				}
				out = append(out, c.values(f.names, "--"+name+"=", value)...)
			}
			return out
		}
		for _, f := range row.Flags {
			if given(rest, f) {
				continue
			}
			if f.Type == TypeBool {
				out = append(out, "--"+f.Name)
			} else {
				out = append(out, "--"+f.Name+"=")
			}
		}
		return out
	}
	// A flag's value written after a space.
	if len(rest) > 0 {
		if f, ok := flagNamed(row, rest[len(rest)-1]); ok && f.Type != TypeBool && flagAlone(f, rest[len(rest)-1]) {
			return append(append(out, f.Values...), c.values(f.names, "", current)...)
		}
	}
	// A positional argument.
	return append(out, c.positional(row, rest, positionals(row, rest), current)...)
}

// positionals are the words of rest that are not the row's flags or their
// values.
func positionals(row *spec, rest []string) []string {
	var args []string
	for i := 0; i < len(rest); i++ {
		if f, ok := flagNamed(row, rest[i]); ok {
			if f.Type != TypeBool && flagAlone(f, rest[i]) {
				i++
			}
			continue
		}
		args = append(args, rest[i])
	}
	return args
}

// isCheck reports whether a word is FIELD OP VALUE.
func isCheck(word string) bool {
	_, _, _, ok := splitCond(Token{Text: word})
	return ok
}

// positional lists the candidates for the positional argument after args;
// rest is every word after the command's own, flags included.
func (c completer) positional(row *spec, rest, args []string, current string) []string {
	switch row.Name {
	case "fail", "heal":
		if len(args) == 1 {
			if args[0] == "watch" {
				return resourcePlurals(watchKinds)
			}
			var out []string
			for _, t := range faultTargets {
				if string(t.verb) == args[0] {
					out = append(out, resourceWord(t.kind, t.subresource))
				}
			}
			return out
		}
	case "expect rs":
		// The first word may also be the NAME of expect rs NAME FIELD=VALUE.
		if len(args) == 0 {
			return append(c.argCandidates(row, row.Args[0], args, current), c.names(api.KindReplicaSet, "")...)
		}
	case "expect queue":
		// expect queue NAME (len=N | contains KEY): the key is a
		// NAMESPACE/NAME of the kind the queue's manager syncs.
		switch len(args) {
		case 1:
			return []string{"len=", "contains"}
		case 2:
			if _, kind, perr := queueName(Token{Text: args[0]}); perr == nil && args[1] == "contains" {
				return c.keys(kind)
			}
			return nil
		}
	}
	if len(row.Args) == 0 {
		return nil
	}
	idx := len(args)
	// An object written as two words, KIND NAME: the word after the kind is
	// the name, and the arguments after it move one on.
	if kind, ok := c.kindBeforeName(row, rest, args); ok {
		if idx == 1 {
			return c.names(kind, "")
		}
		idx--
	}
	if idx >= len(row.Args) {
		if !row.Args[len(row.Args)-1].Repeated {
			return nil
		}
		idx = len(row.Args) - 1
	}
	return c.argCandidates(row, row.Args[idx], args, current)
}

// kindBeforeName reports whether the line writes the command's object as
// KIND NAME: its first argument is a bare kind the command takes (no /), and
// no -l or --all makes that kind a selection instead.
func (c completer) kindBeforeName(row *spec, rest, args []string) (api.Kind, bool) {
	if len(args) == 0 || (row.Args[0].complete != completeRef && row.Args[0].complete != completeRefOrName) ||
		strings.Contains(args[0], "/") {
		return "", false
	}
	k, ok := kindOf(args[0])
	if !ok || !slices.Contains(row.kinds, k) {
		return "", false
	}
	for _, f := range []FlagDoc{flagSelector, flagAll} {
		if _, has := row.flag(f.Name); has && given(rest, f) {
			return "", false
		}
	}
	return k, true
}

// argCandidates lists the candidates for one positional argument, given the
// arguments before it.
func (c completer) argCandidates(row *spec, a ArgDoc, args []string, current string) []string {
	switch a.complete {
	case completeValues:
		for _, nk := range a.named {
			if value, ok := strings.CutPrefix(current, nk.key); ok {
				return c.values(nk.names, nk.key, value)
			}
		}
		return a.Values
	case completeKind:
		return resourcePlurals(row.kinds)
	case completeRef, completeRefOrName:
		if strings.Contains(current, "/") {
			return c.refs(row.kinds, "", current)
		}
		var out []string
		for _, k := range row.kinds {
			out = append(out, shortName(k)+"/")
		}
		if _, ok := row.flag("selector"); ok || row.Name == "get" || row.Name == "cache" {
			out = append(out, resourcePlurals(row.kinds)...)
		}
		if a.complete == completeRefOrName && len(row.kinds) == 1 {
			out = append(out, c.names(row.kinds[0], "")...)
		}
		return out
	case completeConfig:
		var out []string
		for _, k := range configTable {
			out = append(out, k.Key+"=")
		}
		return out
	case completeField:
		if len(args) == 0 {
			return nil
		}
		kindWord, _, _ := strings.Cut(args[0], "/")
		k, ok := kindOf(kindWord)
		if !ok {
			return nil
		}
		return c.fieldWords(k, current)
	case completeCountField:
		return append([]string{"count="}, c.fieldWords(row.kinds[0], current)...)
	case completeTopic:
		return slices.Concat(firstWords(), helpTopics)
	}
	return nil
}

// fieldWords lists a kind's fields as completion offers them: path= or, for
// a map field, its prefix. Once the current word holds a comparison, it
// offers the field's values instead: an enumeration's, true and false, or
// the names of what exists that the field names (owner=rs/web, node=node-1).
func (c completer) fieldWords(k api.Kind, current string) []string {
	if key, op, val, ok := splitCond(Token{Text: current}); ok {
		i, _, found := lookupField(k, key)
		if !found {
			return nil
		}
		f := &fieldTable[i]
		prefix := key + string(op)
		var out []string
		switch {
		case f.typ == TypeEnum:
			for _, v := range f.values {
				out = append(out, prefix+v)
			}
		case f.typ == TypeBool:
			out = append(out, prefix+"true", prefix+"false")
		}
		if f.names == namesOwner {
			return append(out, c.owners(k, prefix, val.Text)...)
		}
		return append(out, c.values(f.names, prefix, val.Text)...)
	}
	var out []string
	for _, i := range fieldsOf(k) {
		f := &fieldTable[i]
		if f.mapKey {
			out = append(out, f.path)
		} else {
			out = append(out, f.path+"=")
		}
	}
	return out
}

// values lists what a value naming something may be, each after prefix (the
// flag or key it follows in the same word); value is what was typed of it.
func (c completer) values(what valueNames, prefix, value string) []string {
	var out []string
	switch what {
	case namesNode:
		out = c.names(api.KindNode, "")
	case namesNamespace:
		out = c.namespaces()
	case namesOwner:
		return c.owners(api.KindPod, prefix, value)
	case namesObject:
		if strings.Contains(value, "/") {
			return c.refs(describeKinds, prefix, value)
		}
		for _, k := range describeKinds {
			out = append(out, shortName(k)+"/")
		}
	}
	for i := range out {
		out[i] = prefix + out[i]
	}
	return out
}

// owners lists what owner= may be for an object of kind, each after prefix:
// none and the KIND/ of its owners' kinds, or, once a kind is written, the
// objects of that kind.
func (c completer) owners(kind api.Kind, prefix, value string) []string {
	kinds := ownersOf(kind)
	if strings.Contains(value, "/") {
		return c.refs(kinds, prefix, value)
	}
	out := []string{prefix + "none"}
	for _, k := range kinds {
		out = append(out, prefix+shortName(k)+"/")
	}
	return out
}

// refs lists the objects written KIND/NAME that complete written (which
// holds the /), keeping the kind as it was spelled (pods/web-x7k2p), when
// that kind is one of kinds.
func (c completer) refs(kinds []api.Kind, prefix, written string) []string {
	kindWord, _, _ := strings.Cut(written, "/")
	k, ok := kindOf(kindWord)
	if !ok || !slices.Contains(kinds, k) {
		return nil
	}
	return c.names(k, prefix+kindWord+"/")
}

// names lists the names of the objects of a kind that exist, in the line's
// namespace, sorted, each after prefix.
func (c completer) names(kind api.Kind, prefix string) []string {
	if c.objs == nil {
		return nil
	}
	objs := c.objs.Objects(kind, c.namespace)
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = prefix + o.Meta().Name
	}
	return out
}

// keys lists the queue keys, NAMESPACE/NAME, of the objects of a kind in
// the line's namespace, sorted.
func (c completer) keys(kind api.Kind) []string { return c.names(kind, c.namespace+"/") }

// namespaces lists the namespaces there are: default, and every namespace
// an object is in, sorted. (The simulator has no Namespace objects: a
// namespace exists while something is in it.)
func (c completer) namespaces() []string {
	out := []string{flagNamespace.Default}
	if c.objs == nil {
		return out
	}
	for _, k := range api.Kinds {
		if !k.Namespaced() {
			continue
		}
		for _, o := range c.objs.Objects(k, "") {
			if ns := o.Meta().Namespace; !slices.Contains(out, ns) {
				out = append(out, ns)
			}
		}
	}
	slices.Sort(out)
	return out
}

// given reports whether a flag appears among words.
func given(words []string, f FlagDoc) bool {
	for _, w := range words {
		if flagSpells(f, w) {
			return true
		}
	}
	return false
}

// flagNamed finds the row's flag a word spells, if any.
func flagNamed(row *spec, word string) (FlagDoc, bool) {
	for _, f := range row.Flags {
		if flagSpells(f, word) {
			return f, true
		}
	}
	return FlagDoc{}, false
}

// flagSpells reports whether word is the flag f, with or without a value.
func flagSpells(f FlagDoc, word string) bool {
	name, _, _ := strings.Cut(word, "=")
	return name == "--"+f.Name || (f.Short != "" && strings.HasPrefix(word, "-"+f.Short) && !strings.HasPrefix(word, "--"))
}

// flagAlone reports whether word is the flag f without its value, so that
// the value is the next word (--node node-1, -n kube-system).
func flagAlone(f FlagDoc, word string) bool {
	return word == "--"+f.Name || (f.Short != "" && word == "-"+f.Short)
}

func resourcePlurals(kinds []api.Kind) []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = resourcePlural(k)
	}
	return out
}
