package siteserver

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
)

// This file is the page's module joiner: it turns the page's ES modules
// into one classic script, so that index.html loads one file (one request)
// and the page still runs under a policy that allows no eval and no inline
// script. It is small because it asks the modules to keep to a subset of
// the module syntax, and refuses, naming the file and line, anything
// outside it:
//
//   - An import or export statement begins a line, at the module's top
//     level, and ends with a semicolon.
//   - import {a, b as c} from "./file.js"; and import "./file.js"; (run
//     that module first) are the imports. A path is relative, "./" and a
//     file in the same directory; no default or namespace imports, no
//     import().
//   - export function, export async function, export class and export const
//     (one name) mark a declaration as exported; export {a, b as c}; lists
//     names declared elsewhere in the module. No export let or var: an
//     importer gets each export's value once, when the module has run, so
//     a binding that changes later would go stale in it (a module shares
//     changing state through the properties of an exported object). No
//     export default, no export … from.
//   - The imports form no cycle: a module runs after the modules it
//     imports, and one that needed itself first could not.
//
// Each module becomes a function of its own, which keeps its top-level
// names to itself as a module does, and returns its exports; an import
// becomes a const destructuring of the returned object of a module that ran
// before. The modules run in the order of a depth-first walk of the import
// graph from the entries, each after its imports, in the order the
// statements name them.

// module is one source file of the page, read and scanned.
type module struct {
	name    string   // the file's name in the page's directory
	src     []byte   // its text
	imports []string // the modules it imports, in order
	// edits replace the module's import and export statements.
	edits []edit
	// exports maps each exported name to the local name it exports.
	exports [][2]string
}

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// modulePath is the one form of an import's path the joiner follows.
var modulePath = regexp.MustCompile(`^\./[A-Za-z0-9_-]+\.js$`)

// identifier matches a JavaScript name as the page writes them.
var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// JoinModules reads entries and every module they import from site and
// returns them joined into one script: each module in its own scope, after
// the modules it imports, the entries in their order. It also returns the
// names of the files it read, in the order they run.
func JoinModules(site fs.FS, entries []string) ([]byte, []string, error) {
	return join(site, entries, nil, false)
}

// Script is one of the scripts a page loads, joined from modules: the file
// it is written to, and its entry modules (see JoinModules).
type Script struct {
	Name    string
	Entries []string
}

// JoinScripts joins each of scripts, which a page loads in their order, and
// returns their texts and the names of the files each read. A module that an
// earlier script joined is not joined again: that script ran it, and left
// its exports in a registry on globalThis ($rlab$modules), where a later
// script that imports it takes them. So a module runs once, and its state
// (a cache, a download under way) is one, whichever script imports it. A
// later script that runs without the earlier one fails at once, naming the
// module it missed and the script that holds it.
func JoinScripts(site fs.FS, scripts []Script) ([][]byte, [][]string, error) {
	texts := make([][]byte, len(scripts))
	names := make([][]string, len(scripts))
	earlier := map[string]string{}
	for i, sc := range scripts {
		data, read, err := join(site, sc.Entries, earlier, i < len(scripts)-1)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", sc.Name, err)
		}
		texts[i], names[i] = data, read
		for _, n := range read {
			earlier[n] = sc.Name
		}
	}
	return texts, names, nil
}

// join is JoinModules, for a script that may come after others: earlier
// maps each module they joined to the script that holds it, and publish
// says whether this script leaves its own modules' exports in the registry
// for a later one.
func join(site fs.FS, entries []string, earlier map[string]string, publish bool) ([]byte, []string, error) {
	mods := map[string]*module{}
	var order []*module
	// taken are the earlier scripts' modules that this one imports, in the
	// order they are first met.
	var taken []string
	// state is 1 while a module's imports are being walked, 2 once it is in
	// order: meeting a module in state 1 again is a cycle.
	state := map[string]int{}
	var visit func(name string, chain []string) error
	visit = func(name string, chain []string) error {
		switch state[name] {
		case 1:
			return fmt.Errorf("the page's modules import each other in a cycle: %s", strings.Join(append(chain, name), " → "))
		case 2:
			return nil
		}
		if _, ok := earlier[name]; ok {
			state[name] = 2
			taken = append(taken, name)
			return nil
		}
		state[name] = 1
		src, err := fs.ReadFile(site, name)
		if err != nil {
			if len(chain) > 0 {
				return fmt.Errorf("%s imports %s: %w", chain[len(chain)-1], name, err)
			}
			return err
		}
		m, err := scanModule(name, src)
		if err != nil {
			return err
		}
		mods[name] = m
		for _, dep := range m.imports {
			if err := visit(dep, append(chain, name)); err != nil {
				return err
			}
		}
		state[name] = 2
		order = append(order, m)
		return nil
	}
	for _, e := range entries {
		if err := visit(e, nil); err != nil {
			return nil, nil, err
		}
	}

	var b bytes.Buffer
	b.WriteString("// This script is generated by rlab bundle (make wasm) from the page's modules\n" +
		"// in site/, named below in the order they run: edit those, not this.\n" +
		"\"use strict\";\n(() => {\n")
	if len(taken) > 0 || publish {
		// The registry's name cannot be a module's: moduleVar makes no $
		// after its prefix.
		b.WriteString("const $rlab$modules = globalThis.$rlab$modules ??= {};\n")
	}
	for _, name := range taken {
		fmt.Fprintf(&b, "const %s = $rlab$modules[%q];\n", moduleVar(name), name)
		fmt.Fprintf(&b, "if (!%s) {\n\tthrow new Error(%q);\n}\n", moduleVar(name),
			name+" has not run: "+earlier[name]+", which holds it, must load before this script")
	}
	names := make([]string, len(order))
	for i, m := range order {
		names[i] = m.name
		fmt.Fprintf(&b, "\n// ---- %s ----\nconst %s = (() => {\n", m.name, moduleVar(m.name))
		last := 0
		for _, e := range m.edits {
			b.Write(m.src[last:e.start])
			b.WriteString(e.text)
			last = e.end
		}
		b.Write(m.src[last:])
		if !bytes.HasSuffix(m.src, []byte("\n")) {
			b.WriteByte('\n')
		}
		b.WriteString("return {")
		for i, x := range m.exports {
			if i > 0 {
				b.WriteString(", ")
			}
			if x[0] == x[1] {
				b.WriteString(x[0])
			} else {
				fmt.Fprintf(&b, "%s: %s", x[0], x[1])
			}
		}
		b.WriteString("};\n})();\n")
	}
	if publish {
		b.WriteString("\n// The modules a later script may import.\n")
		for _, m := range order {
			fmt.Fprintf(&b, "$rlab$modules[%q] = %s;\n", m.name, moduleVar(m.name))
		}
	}
	b.WriteString("})();\n")
	return b.Bytes(), names, nil
}

// moduleVar is the name of the const that holds a module's exports in the
// joined script: $rlab_ and the file's name, made a name. No module's own
// names start with $rlab_.
func moduleVar(name string) string {
	return "$rlab_" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, strings.TrimSuffix(name, ".js"))
}

// scanModule finds the import and export statements of a module's top
// level and works out what replaces each.
func scanModule(name string, src []byte) (*module, error) {
	m := &module{name: name, src: src}
	starts, err := topLevelLines(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	exported := map[string]bool{}
	addExport := func(line int, as, local string) error {
		if !identifier.MatchString(as) || !identifier.MatchString(local) {
			return fmt.Errorf("%s:%d: cannot read the exported name %q", name, line, as)
		}
		if exported[as] {
			return fmt.Errorf("%s:%d: %s is exported twice", name, line, as)
		}
		exported[as] = true
		m.exports = append(m.exports, [2]string{as, local})
		return nil
	}
	for _, at := range starts {
		line := 1 + bytes.Count(src[:at], []byte("\n"))
		rest := src[at:]
		switch {
		case hasWord(rest, "import"):
			end := bytes.IndexByte(rest, ';')
			if end < 0 {
				return nil, fmt.Errorf("%s:%d: an import statement ends with a semicolon", name, line)
			}
			stmt := string(rest[:end])
			text, dep, err := importText(stmt)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, line, err)
			}
			m.imports = append(m.imports, dep)
			m.edits = append(m.edits, edit{at, at + end + 1, text})
		case hasWord(rest, "export"):
			decl := bytes.TrimLeft(rest[len("export"):], " \t")
			skip := len(rest) - len(decl)
			switch {
			case bytes.HasPrefix(decl, []byte("{")):
				end := bytes.IndexByte(rest, ';')
				if end < 0 {
					return nil, fmt.Errorf("%s:%d: an export list ends with a semicolon", name, line)
				}
				list := strings.TrimSpace(string(rest[skip:end]))
				if !strings.HasSuffix(list, "}") {
					return nil, fmt.Errorf("%s:%d: export … from is not supported; import, then export", name, line)
				}
				for _, item := range splitList(list[1 : len(list)-1]) {
					local, as := item, item
					if l, a, ok := strings.Cut(item, " as "); ok {
						local, as = strings.TrimSpace(l), strings.TrimSpace(a)
					}
					if err := addExport(line, as, local); err != nil {
						return nil, err
					}
				}
				// The list goes; its lines stay, so line numbers in the
				// joined script still match the source's.
				m.edits = append(m.edits, edit{at, at + end + 1, strings.Repeat("\n", strings.Count(string(rest[:end]), "\n"))})
			default:
				kind, declName := declaration(decl)
				if kind == "" {
					return nil, fmt.Errorf("%s:%d: export what? (export function, async function, class, const, or {…})", name, line)
				}
				if kind == "let" || kind == "var" {
					return nil, fmt.Errorf("%s:%d: export %s is not supported: an importer would not see it change; export a const object instead", name, line, kind)
				}
				if err := addExport(line, declName, declName); err != nil {
					return nil, err
				}
				m.edits = append(m.edits, edit{at, at + skip, ""})
			}
		}
	}
	return m, nil
}

// hasWord says whether b starts with word followed by something that cannot
// continue a name.
func hasWord(b []byte, word string) bool {
	if !bytes.HasPrefix(b, []byte(word)) {
		return false
	}
	if len(b) == len(word) {
		return true
	}
	c := b[len(word)]
	return !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')
}

// declaration reads the kind and the name a declaration begins with.
func declaration(decl []byte) (kind, name string) {
	fields := strings.Fields(string(decl[:min(len(decl), 200)]))
	if len(fields) >= 2 && fields[0] == "async" {
		fields = fields[1:]
	}
	if len(fields) < 2 {
		return "", ""
	}
	switch fields[0] {
	case "function", "class", "const", "let", "var":
		n := fields[1]
		if fields[0] == "function" && strings.HasPrefix(n, "*") {
			n = n[1:]
		}
		if i := strings.IndexAny(n, "(=;{<"); i >= 0 {
			n = n[:i]
		}
		if !identifier.MatchString(n) {
			return "", ""
		}
		return fields[0], n
	}
	return "", ""
}

// importText reads an import statement (without its semicolon) and returns
// the const that replaces it and the module it imports.
func importText(stmt string) (text, dep string, err error) {
	rest := strings.TrimSpace(strings.TrimPrefix(stmt, "import"))
	var names string
	if strings.HasPrefix(rest, "{") {
		close := strings.IndexByte(rest, '}')
		if close < 0 {
			return "", "", fmt.Errorf("cannot read the import's names")
		}
		names = rest[1:close]
		rest = strings.TrimSpace(rest[close+1:])
		if !hasWord([]byte(rest), "from") {
			return "", "", fmt.Errorf(`an import says from "./file.js" after its names`)
		}
		rest = strings.TrimSpace(rest[len("from"):])
	} else if !strings.HasPrefix(rest, `"`) {
		return "", "", fmt.Errorf(`only import {…} from "./file.js" and import "./file.js" are supported`)
	}
	if len(rest) < 2 || rest[0] != '"' || rest[len(rest)-1] != '"' || strings.Count(rest, `"`) != 2 {
		return "", "", fmt.Errorf("cannot read the import's path %s", rest)
	}
	p := rest[1 : len(rest)-1]
	if !modulePath.MatchString(p) {
		return "", "", fmt.Errorf(`the import's path %q is not of the form "./file.js"`, p)
	}
	dep = path.Clean(p)
	lines := strings.Repeat("\n", strings.Count(stmt, "\n"))
	if names == "" {
		return lines, dep, nil
	}
	var parts []string
	for _, item := range splitList(names) {
		theirs, ours := item, item
		if t, o, ok := strings.Cut(item, " as "); ok {
			theirs, ours = strings.TrimSpace(t), strings.TrimSpace(o)
		}
		if !identifier.MatchString(theirs) || !identifier.MatchString(ours) {
			return "", "", fmt.Errorf("cannot read the imported name %q", item)
		}
		if theirs == ours {
			parts = append(parts, ours)
		} else {
			parts = append(parts, theirs+": "+ours)
		}
	}
	if len(parts) == 0 {
		return "", "", fmt.Errorf(`an import of no names: write import "%s";`, p)
	}
	return fmt.Sprintf("const {%s} = %s;%s", strings.Join(parts, ", "), moduleVar(dep), lines), dep, nil
}

// splitList splits a comma-separated list of names, dropping empty items
// (a trailing comma) and comments-free white space.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		item = strings.Join(strings.Fields(item), " ")
		if item != "" {
			out = append(out, item)
		}
	}
	return out
}

// topLevelLines returns the offsets of the lines of src that begin, at
// column 0 and at the module's top level (outside any bracket, string,
// template or comment), with the word import or export. It lexes just
// enough JavaScript for that: comments, strings, template literals with
// their ${…} parts, regular expression literals (told from division by the
// token before them), and bracket depth.
func topLevelLines(src []byte) ([]int, error) {
	var starts []int
	depth := 0
	// templates holds, for each ${ being read inside a template literal,
	// the depth at which its } returns to the template.
	var templates []int
	// regexOK says whether a / here would begin a regular expression
	// rather than divide: after an operator or an opening bracket, not
	// after a name, a number or a closing bracket.
	regexOK := true
	line := 1
	i := 0
	lineStart := true
	// template reads a template literal's text from just after its ` (or
	// the } that ends one of its ${…}) to its end or its next ${, which
	// opens a part read as code.
	template := func() error {
		j, opened, n, err := skipTemplate(src, i+1)
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		line += n
		i = j
		if opened {
			templates = append(templates, depth)
			depth++
		}
		regexOK = opened
		return nil
	}
	for i < len(src) {
		c := src[i]
		if lineStart && depth == 0 && (hasWord(src[i:], "import") || hasWord(src[i:], "export")) {
			starts = append(starts, i)
		}
		lineStart = false
		switch {
		case c == '\n':
			line++
			lineStart = true
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return nil, fmt.Errorf("line %d: a comment is never closed", line)
			}
			line += bytes.Count(src[i:i+2+end], []byte("\n"))
			i += end + 4
		case c == '"' || c == '\'':
			j, err := skipString(src, i, c)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			i = j
			regexOK = false
		case c == '`':
			if err := template(); err != nil {
				return nil, err
			}
		case c == '}' && len(templates) > 0 && depth-1 == templates[len(templates)-1]:
			// The end of a template's ${…}: the template goes on.
			templates = templates[:len(templates)-1]
			depth--
			if err := template(); err != nil {
				return nil, err
			}
		case c == '/' && regexOK:
			j, err := skipRegexp(src, i)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			i = j
			regexOK = false
		case c == '(' || c == '[' || c == '{':
			depth++
			regexOK = true
			i++
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("line %d: %q closes nothing", line, c)
			}
			// After ) or ], / divides; after } (the end of a block, far
			// more often than of an object literal) it begins a regexp.
			regexOK = c == '}'
			i++
		case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c >= 0x80:
			j := i
			for j < len(src) && (src[j] == '_' || src[j] == '$' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9' || src[j] >= 0x80 || src[j] == '.' && j == i) {
				j++
			}
			word := string(src[i:j])
			// After a keyword that takes an expression, / begins a regexp.
			switch word {
			case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await":
				regexOK = true
			default:
				regexOK = word == "."
			}
			i = j
		default:
			// An operator or punctuation: / after it begins a regexp.
			regexOK = true
			i++
		}
	}
	if depth != 0 || len(templates) > 0 {
		return nil, fmt.Errorf("the module ends inside a bracket or a template")
	}
	return starts, nil
}

// skipString returns the offset after the string literal opened by quote at
// src[i].
func skipString(src []byte, i int, quote byte) (int, error) {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '\n':
			return 0, fmt.Errorf("a string is not closed on its line")
		case quote:
			return j + 1, nil
		}
	}
	return 0, fmt.Errorf("a string is never closed")
}

// skipTemplate reads a template literal's text from src[i] to its closing
// backquote, or to a ${ that opens an expression, and returns the offset
// after it, whether it was a ${, and the newlines it passed.
func skipTemplate(src []byte, i int) (int, bool, int, error) {
	n := 0
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '\n':
			n++
		case '`':
			return j + 1, false, n, nil
		case '$':
			if j+1 < len(src) && src[j+1] == '{' {
				return j + 2, true, n, nil
			}
		}
	}
	return 0, false, 0, fmt.Errorf("a template literal is never closed")
}

// skipRegexp returns the offset after the regular expression literal at
// src[i], its flags included.
func skipRegexp(src []byte, i int) (int, error) {
	inClass := false
	for j := i + 1; j < len(src); j++ {
		switch c := src[j]; {
		case c == '\\':
			j++
		case c == '\n':
			return 0, fmt.Errorf("a regular expression is not closed on its line")
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			j++
			for j < len(src) && (src[j] >= 'a' && src[j] <= 'z') {
				j++
			}
			return j, nil
		}
	}
	return 0, fmt.Errorf("a regular expression is never closed")
}
