package lessonlint

import (
	"errors"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/lesson"
)

// sameLinks checks that each page of a translation links what its English
// page links, and its hints what the English hints link: the same glossary
// entries and upstream code, as many times, in any order (a translation
// may reorder a sentence). firstUse cannot find a term's first use in
// Chinese text, since the glossary's terms are English; holding each
// translated page to the English page's links, which firstUse has checked,
// gives a learner reading either language the same one-click
// explanations. Core/lesson has held the translation to the English's
// pages already.
func sameLinks(l *lesson.Lesson) []error {
	var errs []error
	for _, lang := range l.LanguagesOf()[1:] {
		t := l.Translation(lang)
		guide := lesson.GuideFile(lang)
		for i, ep := range l.Pages {
			if i >= len(t.Pages) {
				break
			}
			tp := t.Pages[i]
			errs = append(errs, compareLinks(l, lang, "page "+strconv.Itoa(ep.N), ep.Links(lesson.GuideFile(lesson.English)), tp.Links(guide),
				guide+":"+strconv.Itoa(tp.Line))...)
		}
		errs = append(errs, compareLinks(l, lang, "the hints", hintLinks(l, lesson.English), hintLinks(l, lang), lesson.HintsFile(lang))...)
	}
	return errs
}

// hintLinks returns the links of the hints in language lang.
func hintLinks(l *lesson.Lesson, lang string) []lesson.Link {
	prefix := lesson.HintsFile(lang) + ", paragraph "
	var out []lesson.Link
	for _, link := range l.Links() {
		if strings.HasPrefix(link.Where, prefix) {
			out = append(out, link)
		}
	}
	return out
}

// compareLinks reports the links of en that tr lacks, and those tr has
// that en does not, each as often as it differs.
func compareLinks(l *lesson.Lesson, lang, what string, en, tr []lesson.Link, at string) []error {
	key := func(k lesson.Link) string { return k.Scheme + ":" + k.Target }
	left := map[string]int{}
	for _, k := range tr {
		left[key(k)]++
	}
	var errs []error
	for _, k := range en {
		if left[key(k)] > 0 {
			left[key(k)]--
			continue
		}
		errs = append(errs, errors.New("lesson "+l.File()+", "+at+": "+what+" in "+lang+" does not link "+key(k)+
			", which the English links at "+k.Where+"; link it where the translation first uses it"))
	}
	for _, k := range tr {
		if left[key(k)] > 0 {
			left[key(k)]--
			errs = append(errs, errors.New("lesson "+l.File()+", "+k.Where+": "+what+" in "+lang+" links "+key(k)+
				", which the English does not; a translation links what the English links"))
		}
	}
	return errs
}
