package script

import (
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/labels"
)

// This file holds the parser's machinery: Parse and ParseLine, finding a
// line's command in the table (dispatch), splitting and checking its flags
// against the table's row (cmdParser), and the helpers the commands' parse
// functions share: numbers, durations, label lists, kinds, names, object
// references, targets (-l SEL --pick --count), field conditions and owners.
// lexer.go splits lines into words; errors.go builds the errors and their
// did-you-mean suggestions. Each command's own parse function lives in its
// group's cmd_*.go file.

// Parse parses a whole script. Nothing of it should run unless it all parses:
// on error the script is nil and the error is an ErrorList of every line's
// first error (at most ten), each a *ParseError whose File is file.
func Parse(src, file string) (*Script, error) {
	s := &Script{File: file}
	var errs ErrorList
	seenCommand := false
	for i, text := range splitLines(src) {
		sl, ok, perr := lexLine(text, i+1)
		if perr == nil && ok {
			var cmd Command
			cmd, perr = parseCommand(sl, file)
			if perr == nil {
				if _, isSeed := cmd.(*Seed); isSeed && seenCommand {
					perr = &ParseError{Line: sl.Line, Col: sl.Tokens[0].Col,
						Msg:  "seed must be the first command of a script",
						Hint: "it seeds the world before anything happens; move it to the top"}
				} else {
					s.Commands = append(s.Commands, cmd)
				}
			}
			seenCommand = true
		}
		if perr != nil {
			perr.File = file
			errs = append(errs, perr)
			if len(errs) == maxErrors {
				break
			}
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return s, nil
}

// ParseLine parses one line, as the console reads it. A blank line or a
// comment gives (nil, nil). seed parses anywhere here: whether it may run is
// the console's decision. The error, if any, is a *ParseError.
func ParseLine(line string) (Command, error) {
	if i := strings.IndexByte(line, '\n'); i >= 0 && strings.TrimSpace(line[i:]) != "" {
		return nil, &ParseError{Line: 1, Col: i + 1, Msg: "one command per line", Hint: "use Parse for a script"}
	}
	line, _, _ = strings.Cut(line, "\n")
	sl, ok, perr := lexLine(strings.TrimSuffix(line, "\r"), 1)
	if perr != nil {
		return nil, perr
	}
	if !ok {
		return nil, nil
	}
	cmd, perr := parseCommand(sl, "")
	if perr != nil {
		return nil, perr
	}
	return cmd, nil
}

// parseCommand parses one line's words.
func parseCommand(sl sourceLine, file string) (Command, *ParseError) {
	sp, n, perr := dispatch(sl.Tokens, sl.End)
	if perr != nil {
		return nil, perr
	}
	c := &cmdParser{spec: sp, line: sl, head: sl.Tokens[:n],
		src: Source{Pos: Pos{file, sl.Line, sl.Tokens[0].Col}, Text: sl.Text, Name: sp.Name}}
	if perr := c.split(sl.Tokens[n:]); perr != nil {
		return nil, perr
	}
	return sp.parse(c)
}

// dispatch finds the table row a line's first words select, and how many
// words that took. end is the column after the line's last word.
func dispatch(toks []Token, end int) (*spec, int, *ParseError) {
	w0 := toks[0]
	var rows []*spec
	for _, s := range table {
		if s.words[0] == w0.Text {
			rows = append(rows, s)
		}
	}
	if len(rows) == 0 {
		return nil, 0, unknown(w0, "command", w0.Text, firstWords(), `type "help" for the list of commands`)
	}
	var fallback *spec
	var seconds []string
	var secondKinds []api.Kind
	for _, s := range rows {
		if len(s.words) == 1 {
			fallback = s
			continue
		}
		seconds = append(seconds, s.words[1])
		if k, ok := kindOf(s.words[1]); ok {
			secondKinds = append(secondKinds, k)
		}
		if len(toks) > 1 && wordMatches(s.words[1], toks[1].Text) {
			return s, 2, nil
		}
	}
	if fallback != nil {
		return fallback, 1, nil
	}
	kindsOnly := len(secondKinds) == len(seconds)
	if len(toks) < 2 {
		what := "a word"
		if kindsOnly {
			what = "a kind"
		}
		return nil, 0, &ParseError{Line: w0.Line, Col: end,
			Msg: w0.Text + " needs " + what + ": " + orList(seconds)}
	}
	w1 := toks[1]
	if kindsOnly {
		if k, ok := kindOf(w1.Text); ok {
			return nil, 0, errAt(w1, w0.Text+" cannot act on "+resourcePlural(k)+"; it takes "+orList(seconds))
		}
		return nil, 0, unknownKind(w1, w1.Text, secondKinds, w0.Text+" takes "+orList(seconds))
	}
	e := unknown(w1, "command", w0.Text+" "+w1.Text, nil, w0.Text+" takes "+orList(seconds))
	for _, s := range Suggest(w1.Text, seconds) {
		e.Suggestions = append(e.Suggestions, w0.Text+" "+s)
	}
	return nil, 0, e
}

// flagValue is one flag as given, with its value checked against its type.
type flagValue struct {
	doc FlagDoc
	// flag is the flag's word; value its value (a part of flag, or the next
	// word), with the positions it had.
	flag  Token
	value Token

	// The checked value; which field is set depends on doc.Type.
	i   int64
	d   time.Duration
	b   bool
	s   string
	sel labels.Selector
	set map[string]string
}

// cmdParser holds one command line split into flags and positional arguments,
// for the row's parse function.
type cmdParser struct {
	spec *spec
	line sourceLine
	src  Source
	// head are the command's words.
	head []Token
	// args are the positional arguments, in order.
	args []Token
	// flags are the flags given, by long name.
	flags map[string]*flagValue
}

// split sorts the words after the command's into flags and positional
// arguments, and checks each flag's value against its type. A flag may be
// written --name=value, --name value, -x value, -x=value or -xvalue; a bool
// flag is --name or --name=true|false. A word starting with - and a digit is
// an argument, not a flag.
func (c *cmdParser) split(toks []Token) *ParseError {
	c.flags = map[string]*flagValue{}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		txt := t.Text
		if len(txt) < 2 || txt[0] != '-' || (txt[1] >= '0' && txt[1] <= '9') {
			c.args = append(c.args, t)
			continue
		}
		var fd FlagDoc
		var found bool
		var value Token
		hasValue := false
		if strings.HasPrefix(txt, "--") {
			name := txt[2:]
			if eq := strings.IndexByte(name, '='); eq >= 0 {
				value, hasValue = t.from(2+eq+1), true
				name = name[:eq]
			}
			if name == "" {
				return errAt(t, "unexpected "+strconv.Quote(txt))
			}
			fd, found = c.spec.flag(name)
			if !found {
				return c.unknownFlag(t, "--"+name)
			}
		} else {
			short := txt[1:2]
			for _, f := range c.spec.Flags {
				if f.Short == short {
					fd, found = f, true
				}
			}
			if !found {
				return c.unknownFlag(t, "-"+short)
			}
			if len(txt) > 2 {
				if txt[2] == '=' {
					value = t.from(3)
				} else {
					value = t.from(2)
				}
				hasValue = true
			}
		}
		if prev := c.flags[fd.Name]; prev != nil {
			return &ParseError{Line: t.Line, Col: t.Col, Msg: "flag --" + fd.Name + " given twice",
				Hint: "it was given at column " + strconv.Itoa(prev.flag.Col) + " already"}
		}
		fv := &flagValue{doc: fd, flag: t}
		if fd.Type == TypeBool {
			fv.b = true
			if hasValue {
				b, err := strconv.ParseBool(value.Text)
				if err != nil {
					return &ParseError{Line: t.Line, Col: value.Col,
						Msg:  "bad value " + strconv.Quote(value.Text) + " for --" + fd.Name,
						Hint: "--" + fd.Name + " is true or false; --" + fd.Name + " alone means true"}
				}
				fv.b, fv.value = b, value
			}
			c.flags[fd.Name] = fv
			continue
		}
		if !hasValue {
			if i+1 >= len(toks) || c.isFlag(toks[i+1].Text) {
				return &ParseError{Line: t.Line, Col: t.end(), Msg: "flag " + txt + " needs a value",
					Hint: "write " + fd.Spelling()}
			}
			i++
			value = toks[i]
		}
		fv.value = value
		if perr := c.check(fv, toks[i+1:]); perr != nil {
			return perr
		}
		c.flags[fd.Name] = fv
	}
	return nil
}

// isFlag reports whether a word is one of the command's flags.
func (c *cmdParser) isFlag(word string) bool {
	if strings.HasPrefix(word, "--") {
		name, _, _ := strings.Cut(word[2:], "=")
		_, ok := c.spec.flag(name)
		return ok
	}
	if len(word) >= 2 && word[0] == '-' {
		for _, f := range c.spec.Flags {
			if f.Short == word[1:2] {
				return true
			}
		}
	}
	return false
}

// unknownFlag builds the error for a flag the command does not have.
func (c *cmdParser) unknownFlag(t Token, written string) *ParseError {
	var names []string
	for _, f := range c.spec.Flags {
		names = append(names, "--"+f.Name)
		if f.Short != "" {
			names = append(names, "-"+f.Short)
		}
	}
	e := unknown(t, "flag", written, names, "")
	e.Msg += " for " + c.spec.Name
	if len(c.spec.Flags) == 0 {
		e.Hint = c.spec.Name + " takes no flags"
	} else {
		var list []string
		for _, f := range c.spec.Flags {
			list = append(list, f.Spelling())
		}
		e.Hint = c.spec.Name + " takes " + orList(list)
	}
	return e
}

// check parses a flag's value as its type requires. rest are the words after
// the value, which a selector cut apart by spaces may have spilled into.
func (c *cmdParser) check(fv *flagValue, rest []Token) *ParseError {
	fd, v := fv.doc, fv.value
	what := "--" + fd.Name
	switch fd.Type {
	case TypeInt:
		n, perr := parseInt(v, what, fd.lo, fd.hi)
		fv.i = n
		return perr
	case TypeDuration:
		d, perr := parseDuration(v, what, fd.minDur)
		fv.d = d
		return perr
	case TypeName:
		fv.s = v.Text
		if fd.Name == "namespace" {
			return checkProblems(v, "namespace", labels.IsDNS1123Label(v.Text))
		}
		return checkProblems(v, "name", labels.IsDNS1123Subdomain(v.Text))
	case TypeEnum:
		if fd.Name == "cascade" {
			return c.checkCascade(fv)
		}
		fv.s = v.Text
		return checkEnum(v, what, fd.Values)
	case TypePick:
		fv.s = v.Text
		if n, err := strconv.Atoi(v.Text); err == nil && n >= 0 && isDigits(v.Text) {
			fv.i = int64(n)
			return nil
		}
		if e := checkEnum(v, what, fd.Values); e != nil {
			e.Hint = "--pick is oldest, newest, random, or an index in creation order from 0"
			return e
		}
		return nil
	case TypeLabels:
		set, perr := parseLabelList(v, what)
		fv.set = set
		return perr
	case TypeSelector:
		return checkSelector(fv, rest)
	case TypeIntOrPercent:
		fv.s = v.Text
		return checkIntOrPercent(v, what)
	}
	fv.s = v.Text
	return nil
}

// checkIntOrPercent checks a number of pods or a percentage, as maxSurge
// and maxUnavailable hold them: digits, or digits and %. Whether the value
// suits the field (not both 0, not over 100% unavailable) is the API's to
// say, as it says it for kubectl apply.
func checkIntOrPercent(t Token, what string) *ParseError {
	digits := strings.TrimSuffix(t.Text, "%")
	if isDigits(digits) {
		if _, err := strconv.ParseInt(digits, 10, 32); err == nil {
			return nil
		}
		return errAt(t, what+" "+strconv.Quote(t.Text)+" is too large")
	}
	e := &ParseError{Line: t.Line, Col: t.Col, Msg: "bad value " + strconv.Quote(t.Text) + " for " + what,
		Hint: "want a number of pods (1) or a percentage of the replicas (25%)"}
	if strings.HasPrefix(t.Text, "-") {
		e.Hint = what + " cannot be negative; " + e.Hint
	}
	return e
}

// checkCascade accepts background, foreground and orphan, and kubectl's old
// spellings true (background) and false (orphan).
func (c *cmdParser) checkCascade(fv *flagValue) *ParseError {
	v := fv.value
	switch v.Text {
	case "background", "true":
		fv.s = string(CascadeBackground)
	case "foreground":
		fv.s = string(CascadeForeground)
	case "orphan", "false":
		fv.s = string(CascadeOrphan)
	default:
		return checkEnum(v, "--cascade", fv.doc.Values)
	}
	return nil
}

// checkSelector parses a selector flag's value. When the words after it look
// like the rest of the selector ("-l tier in (a,b)"), it says to quote it.
func checkSelector(fv *flagValue, rest []Token) *ParseError {
	v := fv.value
	sel, err := labels.Parse(v.Text)
	if joined, n := joinSelector(v.Text, rest); n > 0 {
		if _, jerr := labels.Parse(joined); jerr == nil {
			spelled := "-" + fv.doc.Short + " " + strconv.Quote(joined)
			if strings.HasPrefix(fv.flag.Text, "--") {
				spelled = "--" + fv.doc.Name + "=" + strconv.Quote(joined)
			}
			return &ParseError{Line: v.Line, Col: v.Col,
				Msg:  "the selector " + strconv.Quote(v.Text) + " goes on after a space",
				Hint: "did you forget quotes around the selector? write " + spelled}
		}
	}
	if err != nil {
		e := &ParseError{Line: v.Line, Col: v.Col, Msg: "bad selector " + strconv.Quote(v.Text) + ": " + err.Error()}
		if strings.HasPrefix(v.Text, "'") {
			e.Hint = "single quotes do not group words here; use double quotes"
		}
		return e
	}
	fv.sel, fv.s = sel, v.Text
	return nil
}

// joinSelector glues to a selector the words after it that continue it, and
// says how many it took. A word continues a selector when the selector so far
// ends in an operator, a comma or an opening parenthesis, or ends with the
// word in or notin, or when the word starts with an operator, a comma or a
// parenthesis, or is in or notin. Flags never continue one.
func joinSelector(sel string, rest []Token) (string, int) {
	parts := []string{sel}
	last := sel
	for _, t := range rest {
		w := t.Text
		if w == "" || (w[0] == '-' && len(w) > 1) {
			break
		}
		prevOpen := (len(parts) > 1 && (last == "in" || last == "notin")) ||
			(last != "" && strings.IndexByte(",(=!<>", last[len(last)-1]) >= 0)
		if !prevOpen && w != "in" && w != "notin" && strings.IndexByte(",()=!<>", w[0]) < 0 {
			break
		}
		parts = append(parts, w)
		last = w
	}
	return strings.Join(parts, " "), len(parts) - 1
}

// parseLabelList parses k=v,k2=v2 and checks each key and value.
func parseLabelList(t Token, what string) (map[string]string, *ParseError) {
	if t.Text == "" {
		return nil, &ParseError{Line: t.Line, Col: t.Col, Msg: what + " is empty", Hint: "write " + what + "=k=v,k2=v2"}
	}
	set := map[string]string{}
	off := 0
	for _, part := range strings.Split(t.Text, ",") {
		pt := t.slice(off, off+len(part))
		off += len(part) + 1
		k, val, ok := strings.Cut(part, "=")
		if !ok {
			return nil, &ParseError{Line: pt.Line, Col: pt.Col, Msg: strconv.Quote(part) + " is not k=v",
				Hint: what + " takes k=v pairs separated by commas"}
		}
		if perr := checkLabel(pt, k, val, false); perr != nil {
			return nil, perr
		}
		if _, dup := set[k]; dup {
			return nil, errAt(pt, "label "+strconv.Quote(k)+" given twice")
		}
		set[k] = val
	}
	return set, nil
}

// checkLabel checks a label (or, with annotation, an annotation) key and
// value written in t as k=v.
func checkLabel(t Token, k, v string, annotation bool) *ParseError {
	what := "label"
	if annotation {
		what = "annotation"
	}
	if p := labels.IsQualifiedName(k); len(p) > 0 {
		return errAt(t, "invalid "+what+" key "+strconv.Quote(k)+": "+strings.Join(p, "; "))
	}
	if annotation {
		return nil
	}
	if p := labels.IsValidLabelValue(v); len(p) > 0 {
		return &ParseError{Line: t.Line, Col: t.ColAt(len(k) + 1),
			Msg: "invalid label value " + strconv.Quote(v) + " for " + strconv.Quote(k) + ": " + strings.Join(p, "; ")}
	}
	return nil
}

// checkProblems turns a validator's messages into an error.
func checkProblems(t Token, what string, problems []string) *ParseError {
	if len(problems) == 0 {
		return nil
	}
	return errAt(t, "invalid "+what+" "+strconv.Quote(t.Text)+": "+strings.Join(problems, "; "))
}

// checkEnum checks that a word is one of values.
func checkEnum(t Token, what string, values []string) *ParseError {
	for _, v := range values {
		if t.Text == v {
			return nil
		}
	}
	e := unknown(t, "value", t.Text, values, "want "+orList(values))
	e.Msg = "bad value " + strconv.Quote(t.Text) + " for " + what
	return e
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseInt parses a whole number in [lo, hi] (hi == 0: no upper bound).
func parseInt(t Token, what string, lo, hi int64) (int64, *ParseError) {
	n, err := strconv.ParseInt(t.Text, 10, 64)
	if err != nil {
		msg := "bad value " + strconv.Quote(t.Text) + " for " + what
		hint := "want a whole number"
		if lo >= 0 {
			hint += " from " + strconv.FormatInt(lo, 10)
		}
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			hint = "the number is too large"
		}
		return 0, &ParseError{Line: t.Line, Col: t.Col, Msg: msg, Hint: hint}
	}
	if n < lo {
		return 0, errAt(t, what+" must be at least "+strconv.FormatInt(lo, 10)+", not "+t.Text)
	}
	if hi > 0 && n > hi {
		return 0, errAt(t, what+" must be at most "+strconv.FormatInt(hi, 10)+", not "+t.Text)
	}
	return n, nil
}

// durationUnits maps the units people write to Go's.
var durationUnits = []struct{ unit, wrong string }{
	{"s", "sec"}, {"s", "secs"}, {"s", "second"}, {"s", "seconds"},
	{"m", "min"}, {"m", "mins"}, {"m", "minute"}, {"m", "minutes"},
	{"h", "hr"}, {"h", "hrs"}, {"h", "hour"}, {"h", "hours"},
	{"ms", "msec"}, {"ms", "msecs"}, {"ms", "millis"}, {"ms", "millisecond"}, {"ms", "milliseconds"},
}

// parseDuration parses a Go duration of at least min (min == 0: not
// negative; min > 0: more than 0).
func parseDuration(t Token, what string, minD time.Duration) (time.Duration, *ParseError) {
	d, err := time.ParseDuration(t.Text)
	if err != nil {
		e := &ParseError{Line: t.Line, Col: t.Col, Msg: "bad duration " + strconv.Quote(t.Text) + " for " + what,
			Hint: "write it as Go does: 500ms, 5s, 2m or 1m30s (units ns, us, ms, s, m, h)"}
		num := strings.TrimLeft(t.Text, "0123456789.")
		digits := t.Text[:len(t.Text)-len(num)]
		switch {
		case isDigits(t.Text):
			e.Hint = "a duration needs a unit, e.g. " + t.Text + "s or " + t.Text + "ms"
		case digits != "":
			unit := strings.ToLower(num)
			if _, err := time.ParseDuration(digits + unit); err == nil {
				e.Suggestions = []string{digits + unit}
			}
			for _, u := range durationUnits {
				if u.wrong == unit {
					e.Suggestions = []string{digits + u.unit}
				}
			}
		}
		return 0, e
	}
	if minD > 0 && d <= 0 {
		return 0, errAt(t, what+" must be more than 0")
	}
	if d < 0 {
		return 0, errAt(t, what+" must not be negative")
	}
	return d, nil
}

// slice returns bytes [i, j) of t as a token of their own.
func (t Token) slice(i, j int) Token {
	s := t.from(i)
	j = max(i, min(j, len(t.Text)))
	s.Text = s.Text[:j-i]
	if s.cols != nil {
		s.cols = s.cols[:j-i+1]
	}
	return s
}

// --- Helpers the parse functions share ---------------------------------------

// errEnd builds an error about something missing, at the end of the line.
func (c *cmdParser) errEnd(msg, hint string) *ParseError {
	return &ParseError{Line: c.line.Line, Col: c.line.End, Msg: msg, Hint: hint}
}

// example returns the row's first example, for hints.
func (c *cmdParser) example() string {
	if len(c.spec.Examples) == 0 {
		return c.spec.Usage
	}
	return "e.g. " + c.spec.Examples[0]
}

// flag returns a flag if it was given; a required flag that was not is an error.
func (c *cmdParser) flag(name string) (*flagValue, *ParseError) {
	if fv := c.flags[name]; fv != nil {
		return fv, nil
	}
	if fd, ok := c.spec.flag(name); ok && fd.Required {
		return nil, c.errEnd(c.spec.Name+" needs "+fd.Spelling(), c.example())
	}
	return nil, nil
}

// intFlag returns an int flag's value, or def.
func (c *cmdParser) intFlag(name string, def int64) (int64, *ParseError) {
	fv, perr := c.flag(name)
	if fv == nil {
		return def, perr
	}
	return fv.i, nil
}

// durFlag returns a duration flag's value, or def.
func (c *cmdParser) durFlag(name string, def time.Duration) time.Duration {
	if fv := c.flags[name]; fv != nil {
		return fv.d
	}
	return def
}

// boolFlag returns a bool flag's value.
func (c *cmdParser) boolFlag(name string) bool {
	fv := c.flags[name]
	return fv != nil && fv.b
}

// namespace returns -n's value for a kind, "default" when not given, or "" for
// nodes.
func (c *cmdParser) namespace(kind api.Kind) string {
	if kind != "" && !kind.Namespaced() {
		return ""
	}
	if fv := c.flags["namespace"]; fv != nil {
		return fv.s
	}
	return "default"
}

// noMoreArgs fails when arguments are left after the n the command takes.
func (c *cmdParser) noMoreArgs(rest []Token) *ParseError {
	if len(rest) == 0 {
		return nil
	}
	return &ParseError{Line: rest[0].Line, Col: rest[0].Col, Msg: "unexpected argument " + strconv.Quote(rest[0].Text),
		Hint: "usage: " + c.spec.Usage}
}

// forbidFlag fails when a flag was given that the command's form at hand
// cannot use.
func (c *cmdParser) forbidFlag(name, why string) *ParseError {
	if fv := c.flags[name]; fv != nil {
		return errAt(fv.flag, "--"+name+" "+why)
	}
	return nil
}

// kind reads a kind name that the command accepts.
func (c *cmdParser) kind(t Token, word string) (api.Kind, *ParseError) {
	return c.kindIn(t, word, c.spec.kinds)
}

// kindIn reads a kind name that is one of allowed.
func (c *cmdParser) kindIn(t Token, word string, allowed []api.Kind) (api.Kind, *ParseError) {
	k, ok := kindOf(word)
	if !ok {
		return "", unknownKind(t, word, allowed, c.spec.Name+" takes "+orList(shortNames(allowed)))
	}
	for _, a := range allowed {
		if a == k {
			return k, nil
		}
	}
	return "", errAt(t, c.spec.Name+" cannot act on "+resourcePlural(k)+"; it takes "+orList(shortNames(allowed)))
}

// unknownKind builds the error for a word that is no kind: it suggests one
// spelling per kind, the closest, among kinds.
func unknownKind(t Token, word string, kinds []api.Kind, hint string) *ParseError {
	e := unknown(t, "kind", word, nil, hint)
	var seen []api.Kind
	for _, s := range Suggest(word, kindNames(kinds)) {
		if k, _ := kindOf(s); !containsKind(seen, k) {
			seen = append(seen, k)
			e.Suggestions = append(e.Suggestions, s)
		}
	}
	return e
}

// checkName checks an object name.
func checkName(t Token, kind api.Kind) *ParseError {
	if t.Text == "" {
		return errAt(t, "missing name after "+shortName(kind)+"/")
	}
	return checkProblems(t, "name", labels.IsDNS1123Subdomain(t.Text))
}

// ref reads KIND/NAME, or KIND NAME when nameFollows, from the arguments, and
// returns the rest.
func (c *cmdParser) ref(args []Token, nameFollows bool) (Ref, []Token, *ParseError) {
	return c.refIn(args, nameFollows, c.spec.kinds)
}

// refIn is ref for an object of one of kinds.
func (c *cmdParser) refIn(args []Token, nameFollows bool, kinds []api.Kind) (Ref, []Token, *ParseError) {
	if len(args) == 0 {
		return Ref{}, nil, c.errEnd(c.spec.Name+" needs "+objectWord(kinds), c.example())
	}
	a := args[0]
	kindWord, rest := a.Text, args[1:]
	var nameTok Token
	if slash := strings.IndexByte(a.Text, '/'); slash >= 0 {
		kindWord, nameTok = a.Text[:slash], a.from(slash+1)
	} else if nameFollows && len(args) > 1 {
		nameTok, rest = args[1], args[2:]
	} else {
		k, perr := c.kindIn(a, kindWord, kinds)
		if perr != nil {
			return Ref{}, nil, perr
		}
		return Ref{}, nil, &ParseError{Line: a.Line, Col: a.end(), Msg: "missing name after " + a.Text,
			Hint: "write " + shortName(k) + "/NAME"}
	}
	k, perr := c.kindIn(a, kindWord, kinds)
	if perr != nil {
		return Ref{}, nil, perr
	}
	if perr := checkName(nameTok, k); perr != nil {
		return Ref{}, nil, perr
	}
	return Ref{Kind: k, Namespace: c.namespace(k), Name: nameTok.Text}, rest, nil
}

// objectWord is how hints name an object of one of kinds: rs/NAME or rc/NAME.
func objectWord(kinds []api.Kind) string {
	var forms []string
	for _, k := range kinds {
		forms = append(forms, shortName(k)+"/NAME")
	}
	return orList(forms)
}

// onlyTarget reads the whole of a command whose arguments are one target
// (KIND/NAME, KIND NAME, or KIND with a choice), as target reads it, and
// nothing after it.
func (c *cmdParser) onlyTarget() (Target, *ParseError) {
	nameFollows := len(c.args) > 1 && !strings.Contains(c.args[0].Text, "/")
	t, rest, perr := c.target(nameFollows, true)
	if perr != nil {
		return Target{}, perr
	}
	if perr := c.noMoreArgs(rest); perr != nil {
		return Target{}, perr
	}
	return t, nil
}

// target reads what a verb acts on: KIND/NAME, KIND NAME (when nameFollows),
// or KIND with -l SEL or --all, narrowed by --pick and --count. With
// needChoice, a bare KIND needs -l or --all. It returns the arguments left.
func (c *cmdParser) target(nameFollows, needChoice bool) (Target, []Token, *ParseError) {
	args := c.args
	if len(args) == 0 {
		return Target{}, nil, c.errEnd(c.spec.Name+" needs what to act on", c.example())
	}
	a := args[0]
	if strings.Contains(a.Text, "/") || nameFollows {
		r, rest, perr := c.ref(args, nameFollows)
		if perr != nil {
			return Target{}, nil, perr
		}
		for _, f := range []string{"selector", "all", "pick", "count"} {
			if perr := c.forbidFlag(f, "chooses among the objects of a kind; "+a.Text+" names one already"); perr != nil {
				if f == "selector" {
					perr.Msg = "give either " + r.String() + " or -l SEL, not both"
				}
				return Target{}, nil, perr
			}
		}
		return Target{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}, rest, nil
	}
	k, perr := c.kind(a, a.Text)
	if perr != nil {
		return Target{}, nil, perr
	}
	t := Target{Kind: k, Namespace: c.namespace(k), Selector: labels.Everything()}
	sel, all := c.flags["selector"], c.flags["all"]
	switch {
	case sel != nil && all != nil && all.b:
		return Target{}, nil, errAt(all.flag, "give either -l SEL or --all, not both")
	case sel != nil:
		t.Selector, t.SelectorText = sel.sel, sel.s
	case all != nil && all.b:
	case needChoice:
		plural := resourcePlural(k)
		return Target{}, nil, &ParseError{Line: a.Line, Col: a.end(), Msg: c.spec.Name + " " + a.Text + " needs -l SEL",
			Hint: "or --all for every one of the " + plural + ", or " + shortName(k) + "/NAME for one"}
	}
	pick, count := c.flags["pick"], c.flags["count"]
	switch {
	case pick != nil && pick.s != "" && isDigits(pick.s):
		t.Pick = Pick{Order: PickIndex, Index: int(pick.i), Count: 1}
	case pick != nil:
		t.Pick = Pick{Order: PickOrder(pick.s), Count: 1}
	case count != nil:
		t.Pick = Pick{Order: PickOldest, Count: 1}
	}
	if count != nil {
		t.Pick.Count = int(count.i)
	}
	return t, args[1:], nil
}

// splitCond splits FIELD OP VALUE. It returns ok == false when the word holds
// no comparison.
func splitCond(t Token) (key string, op Op, val Token, ok bool) {
	i := strings.IndexAny(t.Text, "=!<>")
	if i < 0 {
		return "", "", Token{}, false
	}
	rest := t.Text[i:]
	if strings.HasPrefix(rest, "==") {
		return t.Text[:i], OpEq, t.from(i + 2), true
	}
	for _, o := range ops {
		if strings.HasPrefix(rest, string(o)) {
			return t.Text[:i], o, t.from(i + len(o)), true
		}
	}
	return "", "", Token{}, false
}

// cond is one parsed FIELD OP VALUE.
type cond struct {
	tok Token
	key string
	op  Op
	val Token
}

// conds splits every argument into FIELD OP VALUE.
func (c *cmdParser) conds(args []Token) ([]cond, *ParseError) {
	out := make([]cond, 0, len(args))
	for i, a := range args {
		key, op, val, ok := splitCond(a)
		if !ok {
			e := errAt(a, strconv.Quote(a.Text)+" is not a check")
			e.Hint = "write FIELD=VALUE, or FIELD with !=, <, <=, > or >="
			if i+1 < len(args) && args[i+1].Text != "" && strings.IndexByte("=!<>", args[i+1].Text[0]) >= 0 {
				e.Hint = "write the check without spaces: " + a.Text + args[i+1].Text
				if i+2 < len(args) && len(args[i+1].Text) <= 2 {
					e.Hint += args[i+2].Text
				}
			}
			return nil, e
		}
		if key == "" {
			return nil, errAt(a, "missing field before "+strconv.Quote(string(op)))
		}
		out = append(out, cond{a, key, op, val})
	}
	return out, nil
}

// numberCompare reads a numeric comparison.
func numberCompare(k cond) (Compare, *ParseError) {
	n, perr := parseInt(k.val, k.key, 0, 0)
	if perr != nil {
		return Compare{}, perr
	}
	return Compare{k.op, n}, nil
}

// wordMatch reads a = or != comparison with a word.
func wordMatch(k cond) (Match, *ParseError) {
	if k.op != OpEq && k.op != OpNe {
		return Match{}, opError(k)
	}
	return Match{k.op, k.val.Text}, nil
}

func opError(k cond) *ParseError {
	return &ParseError{Line: k.tok.Line, Col: k.tok.ColAt(len(k.key)),
		Msg:  strconv.Quote(string(k.op)) + " compares numbers, and " + k.key + " is not one",
		Hint: "use = or !="}
}

// onlyEq fails unless a filter is written with =.
func onlyEq(k cond) *ParseError {
	if k.op == OpEq {
		return nil
	}
	return &ParseError{Line: k.tok.Line, Col: k.tok.ColAt(len(k.key)),
		Msg: k.key + " takes =, not " + strconv.Quote(string(k.op))}
}

// twice builds the error for a key given twice.
func twice(k cond) *ParseError { return errAt(k.tok, k.key+" given twice") }

// lookupField finds a field of a kind by path; key is a map field's key.
func lookupField(kind api.Kind, path string) (idx int, key string, ok bool) {
	for _, i := range fieldsOf(kind) {
		f := &fieldTable[i]
		if f.mapKey {
			if strings.HasPrefix(path, f.path) && len(path) > len(f.path) {
				return i, path[len(f.path):], true
			}
		} else if path == f.path {
			return i, "", true
		}
	}
	return 0, "", false
}

// fieldCandidates lists the paths to suggest for a mistyped path: every field
// of the kind, with a map field spelled with the key the user wrote.
func fieldCandidates(kind api.Kind, path string) []string {
	var out []string
	for _, i := range fieldsOf(kind) {
		f := &fieldTable[i]
		if !f.mapKey {
			out = append(out, f.path)
			continue
		}
		n := strings.Count(f.path, ".")
		if parts := strings.SplitN(path, ".", n+1); len(parts) == n+1 {
			out = append(out, f.path+parts[n])
		} else {
			out = append(out, f.path+"KEY")
		}
	}
	return out
}

// fieldCheck parses one FIELD OP VALUE for an object of a kind.
func (c *cmdParser) fieldCheck(kind api.Kind, k cond) (FieldCheck, *ParseError) {
	idx, key, ok := lookupField(kind, k.key)
	if !ok {
		keyTok := k.tok.slice(0, len(k.key))
		return FieldCheck{}, unknown(keyTok, "field", k.key, fieldCandidates(kind, k.key),
			"help fields lists the fields of "+shortName(kind)+" and the other kinds")
	}
	f := &fieldTable[idx]
	if f.mapKey {
		if p := labels.IsQualifiedName(key); len(p) > 0 {
			return FieldCheck{}, &ParseError{Line: k.tok.Line, Col: k.tok.ColAt(len(f.path)),
				Msg: "invalid key " + strconv.Quote(key) + " in " + k.key + ": " + strings.Join(p, "; ")}
		}
	}
	fc := FieldCheck{Path: k.key, Op: k.op, Pos: Pos{c.src.Pos.File, k.tok.Line, k.tok.Col}, field: idx, key: key}
	v := k.val
	if f.typ != TypeInt && k.op != OpEq && k.op != OpNe {
		return FieldCheck{}, opError(k)
	}
	switch f.typ {
	case TypeInt:
		n, perr := parseInt(v, k.key, -1<<63, 0)
		if perr != nil {
			perr.Hint = k.key + " is a whole number"
			return FieldCheck{}, perr
		}
		fc.Want = intValue(n)
		return fc, nil
	case TypeBool:
		b, err := strconv.ParseBool(v.Text)
		if err != nil || (v.Text != "true" && v.Text != "false") {
			return FieldCheck{}, checkEnum(v, k.key, []string{"true", "false"})
		}
		fc.Want = boolValue(b)
	case TypeEnum:
		if perr := checkEnum(v, k.key, f.values); perr != nil {
			return FieldCheck{}, perr
		}
		fc.Want = enumValue(v.Text)
	case TypeOwner:
		owner, perr := c.owner(v, kind)
		if perr != nil {
			return FieldCheck{}, perr
		}
		fc.Want = ownerValue(owner)
	default:
		fc.Want = strValue(v.Text)
	}
	return fc, nil
}

// owner reads the owner of an object of kind: none, or for a pod rs/NAME
// or rc/NAME, for a ReplicaSet deploy/NAME, spelled with the short kind
// name.
func (c *cmdParser) owner(v Token, kind api.Kind) (string, *ParseError) {
	if v.Text == "none" {
		return "none", nil
	}
	owners := ownersOf(kind)
	var forms []string
	for _, k := range owners {
		forms = append(forms, shortName(k)+"/NAME")
	}
	valid := orList(append(forms, "none"))
	whose := "a pod's owner is "
	if kind == api.KindReplicaSet {
		whose = "a ReplicaSet's owner is "
	}
	kindWord, name, ok := strings.Cut(v.Text, "/")
	if !ok {
		e := unknown(v, "owner", v.Text, []string{"none"}, "")
		e.Hint = whose + valid
		return "", e
	}
	k, known := kindOf(kindWord)
	if !known {
		e := unknownKind(v, kindWord, owners, whose+valid)
		e.Msg = "unknown owner kind " + strconv.Quote(kindWord)
		return "", e
	}
	if !containsKind(owners, k) {
		e := errAt(v, whose+valid+", not "+shortName(k)+"/NAME")
		switch {
		case kind == api.KindPod && k == api.KindDeployment:
			// The chain a learner is likely to skip: a Deployment owns
			// ReplicaSets, and they own the pods.
			e.Hint = "a Deployment owns ReplicaSets, which own its pods: count them with expect rs -l SEL owner=" + v.Text
		case kind == api.KindReplicaSet && containsKind(controllerKinds, k):
			e.Hint = "ReplicaSets and ReplicationControllers own pods; a ReplicaSet is owned by a Deployment"
		}
		return "", e
	}
	if perr := checkName(v.from(len(kindWord)+1), k); perr != nil {
		return "", perr
	}
	return shortName(k) + "/" + name, nil
}

// resource reads a resource as fail, heal and expect requests write it: a kind
// name and an optional /status or /binding. It returns the API's name for it.
func resource(t Token) (api.Kind, string, string, *ParseError) {
	kindWord, sub, hasSub := strings.Cut(t.Text, "/")
	k, ok := kindOf(kindWord)
	if !ok {
		e := unknownKind(t, kindWord, allKinds, "resources are pods, rs, rc, nodes and events")
		e.Msg = "unknown resource " + strconv.Quote(kindWord)
		return "", "", "", e
	}
	if hasSub {
		subs := []string{apistore.SubresourceStatus, apistore.SubresourceBinding}
		st := t.from(len(kindWord) + 1)
		if perr := checkEnum(st, "the subresource", subs); perr != nil {
			perr.Msg = "unknown subresource " + strconv.Quote(sub)
			return "", "", "", perr
		}
	}
	return k, sub, apistore.Request{Kind: k, Subresource: sub}.Resource(), nil
}

func containsString(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

func containsKind(list []api.Kind, k api.Kind) bool {
	for _, l := range list {
		if l == k {
			return true
		}
	}
	return false
}
