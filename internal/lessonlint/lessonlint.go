package lessonlint

import (
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/lesson"
	"github.com/reconcilelab/rlab/core/script"
	"github.com/reconcilelab/rlab/core/source"
	"github.com/reconcilelab/rlab/internal/upstream"
)

// Lint checks every link of lesson l against glossary, the ids of the
// glossary's entries, and the upstream code, and returns one error per link
// that leads nowhere, each naming the lesson, the place and what would be
// valid:
//
//	lesson 05-orphans.txtar, guide.md:12: glossary link "controler-ref" is no entry of the glossary; did you mean "controller-ref"?
func Lint(l *lesson.Lesson, glossary []string) []error {
	var errs []error
	known := map[string]bool{}
	for _, id := range glossary {
		known[id] = true
	}
	sources := source.All()
	names := slices.Sorted(maps.Keys(sources))
	for _, link := range l.Links() {
		at := "lesson " + l.File() + ", " + link.Where + ": "
		switch link.Scheme {
		case lesson.SchemeGlossary:
			if !known[link.Target] {
				errs = append(errs, errors.New(at+"glossary link "+strconv.Quote(link.Target)+" is no entry of the glossary"+
					didYouMean(link.Target, glossary)))
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
	return errs
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

// GlossaryIDs reads the ids of the entries of the page's glossary from the
// text of site/glossary.js: each entry's id: "…" after its entries: line.
func GlossaryIDs(js string) ([]string, error) {
	_, entries, ok := strings.Cut(js, "\n\tentries: [")
	if !ok {
		return nil, errors.New("the glossary has no entries: [ list")
	}
	var ids []string
	for rest := entries; ; {
		i := strings.Index(rest, "id: \"")
		if i < 0 {
			break
		}
		rest = rest[i+len("id: \""):]
		end := strings.IndexByte(rest, '"')
		if end < 0 {
			return nil, errors.New("the glossary has an id without its closing quote")
		}
		ids = append(ids, rest[:end])
		rest = rest[end:]
	}
	if len(ids) == 0 {
		return nil, errors.New("the glossary's entries have no ids")
	}
	return ids, nil
}
