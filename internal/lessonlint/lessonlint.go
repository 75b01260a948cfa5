package lessonlint

import (
	"errors"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/lesson"
	"github.com/reconcilelab/rlab/core/script"
	"github.com/reconcilelab/rlab/core/source"
	"github.com/reconcilelab/rlab/internal/upstream"
)

// Lint checks every link of lesson l against the glossary's entries and
// the upstream code, and returns one error per link that leads nowhere,
// each naming the lesson, the place and what would be valid; then one per
// glossary term whose first use is not linked (firstUse); then one per link
// a translated page or its hints lack or add against the English
// (sameLinks); then one per translated text with English words its
// locale's table of terms does not keep (englishLeft):
//
//	lesson 05-orphans.txtar, guide.md:12: glossary link "controler-ref" is no entry of the glossary; did you mean "controller-ref"?
//	lesson 09-expectations.txtar, guide.md:40: the first use of "informer" is not linked to the glossary: write [informer](glossary:informer)
func Lint(l *lesson.Lesson, glossary []Entry) []error {
	var errs []error
	known := map[string]bool{}
	var ids []string
	for _, e := range glossary {
		known[e.ID] = true
		ids = append(ids, e.ID)
	}
	sources := source.All()
	names := slices.Sorted(maps.Keys(sources))
	for _, link := range l.Links() {
		at := "lesson " + l.File() + ", " + link.Where + ": "
		switch link.Scheme {
		case lesson.SchemeGlossary:
			if !known[link.Target] {
				errs = append(errs, errors.New(at+"glossary link "+strconv.Quote(link.Target)+" is no entry of the glossary"+
					didYouMean(link.Target, ids)))
			}
		case lesson.SchemeUpstream:
			if _, ok := sources[link.Target]; ok || upstream.HasFile(link.Target) {
				continue
			}
			what := "no function core/source links to"
			if strings.HasSuffix(link.Target, ".go") {
				what = "no file of the upstream manifest (internal/upstream)"
			}
			errs = append(errs, errors.New(at+"upstream link "+strconv.Quote(link.Target)+" is "+what+didYouMean(link.Target, names)))
		}
	}
	errs = append(errs, firstUse(l, glossary)...)
	errs = append(errs, sameLinks(l)...)
	return append(errs, englishLeft(l)...)
}

// didYouMean suggests the valid names closest to a wrong one.
func didYouMean(wrong string, valid []string) string {
	s := script.Suggest(wrong, valid)
	if len(s) == 0 {
		return ""
	}
	quoted := make([]string, len(s))
	for i, v := range s {
		quoted[i] = strconv.Quote(v)
	}
	return "; did you mean " + strings.Join(quoted, " or ") + "?"
}

// Glossary reads the entries of the page's glossary from the text of
// site/glossary.js: each entry's id and term, on the line that opens it
// (id: "…", group: "…", term: "…").
func Glossary(js string) ([]Entry, error) {
	_, entries, ok := strings.Cut(js, "\n\tentries: [")
	if !ok {
		return nil, errors.New("the glossary has no entries: [ list")
	}
	var out []Entry
	for _, m := range entryPattern.FindAllStringSubmatch(entries, -1) {
		out = append(out, Entry{ID: m[1], Term: m[2]})
	}
	if len(out) == 0 {
		return nil, errors.New(`the glossary's entries have no id: "…", group: "…", term: "…" lines`)
	}
	if n := strings.Count(entries, "\n\t\t\tid: \""); n != len(out) {
		return nil, errors.New("the glossary has " + strconv.Itoa(n) + " entries, but " + strconv.Itoa(len(out)) +
			` open with id: "…", group: "…", term: "…"`)
	}
	return out, nil
}

// entryPattern matches the line that opens an entry of the glossary.
var entryPattern = regexp.MustCompile(`\n\t\t\tid: "([^"]+)", group: "[^"]+", term: "([^"]+)"`)
