package lessonlint

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/lesson"
)

// Entry is one entry of the page's glossary: its id, which glossary links
// name, and the term it explains, as the page writes it.
type Entry struct {
	ID, Term string
}

// everyday are the glossary's terms that are everyday words too ("add",
// "get", "ready", "the list of"): a lint cannot tell the word from the term,
// so their first use is left to the lesson's writer. Every other term must
// be linked where a lesson first uses it.
var everyday = map[string]bool{
	"waiting": true, "processing": true, "dirty": true, "get": true, "add": true, "del": true,
	"satisfied": true, "expired": true, "differ": true, "delta": true, "agenda": true,
	"periodic": true, "faults": true, "propagation": true, "graph": true, "release": true,
	"desired": true, "current": true, "phase": true, "status": true, "list": true, "watch": true,
	"key": true, "ready": true, "available": true, "owner": true, "dependent": true, "scheduled": true,
}

// firstUse checks that where a lesson's guide first uses a glossary term,
// the term is a link: to its entry ([informers](glossary:informer)), or to
// the upstream code ([syncReplicaSet](upstream:syncReplicaSet)). A use
// inside another term's link ([slow start](glossary:slow-start) uses
// "start") is no use; headings, code and fenced blocks hold none. A term
// counts in its usual inflections: informers, adopted, claiming.
func firstUse(l *lesson.Lesson, glossary []Entry) []error {
	type use struct {
		text, where string
	}
	var lines []use
	for _, p := range l.Pages {
		fenced := false
		for i, line := range strings.Split(p.Text, "\n") {
			trimmed := strings.TrimSpace(line)
			if strings.HasPrefix(trimmed, "```") {
				fenced = !fenced
				continue
			}
			if fenced || strings.HasPrefix(trimmed, "#") {
				continue
			}
			lines = append(lines, use{text: blankCode(line), where: fileGuide + ":" + strconv.Itoa(p.Line+i)})
		}
	}
	type finding struct {
		line int
		err  error
	}
	var found []finding
	for _, e := range glossary {
		if everyday[e.ID] {
			continue
		}
		word := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(stem(e.Term)) + `(e|es|ed|s|d|ing)?\b`)
	search:
		for n, line := range lines {
			links := linkPattern.FindAllStringSubmatchIndex(line.text, -1)
			for _, m := range word.FindAllStringIndex(line.text, -1) {
				var in []int
				for _, lk := range links {
					if m[0] >= lk[2] && m[1] <= lk[3] {
						in = lk
					}
				}
				if in == nil {
					found = append(found, finding{n, errors.New("lesson " + l.File() + ", " + line.where + ": the first use of " + strconv.Quote(line.text[m[0]:m[1]]) +
						" is not linked to the glossary: write [" + line.text[m[0]:m[1]] + "](glossary:" + e.ID + ")")})
					break search
				}
				scheme, target := line.text[in[4]:in[5]], line.text[in[6]:in[7]]
				if scheme == lesson.SchemeUpstream || target == e.ID {
					break search
				}
				// Part of another term's link: not this term's use.
			}
		}
	}
	// In the order of the guide, as a writer fixes them.
	slices.SortStableFunc(found, func(a, b finding) int { return a.line - b.line })
	errs := make([]error, len(found))
	for i, f := range found {
		errs[i] = f.err
	}
	return errs
}

// fileGuide is the lesson file whose pages firstUse reads.
const fileGuide = "guide.md"

// linkPattern matches a glossary or upstream link: its text, scheme and
// target.
var linkPattern = regexp.MustCompile(`\[([^\]]*)\]\((glossary|upstream):([^)]+)\)`)

// blankCode hides a line's code spans, keeping its length, so that a term
// written as code is no use of it.
func blankCode(line string) string {
	b := []byte(line)
	in := false
	for i, c := range b {
		if c == '`' {
			in = !in
			continue
		}
		if in {
			b[i] = ' '
		}
	}
	return string(b)
}

// stem drops a term's final e, so that its inflections match: "adopt"
// matches adopted, "release" released, "claiming" only itself.
func stem(term string) string {
	if strings.HasSuffix(term, "e") && !strings.Contains(term, " ") {
		return strings.TrimSuffix(term, "e")
	}
	return term
}
