package lessonlint

import (
	"errors"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/lesson"
	"github.com/reconcilelab/rlab/internal/i18n"
)

// englishLeft checks that every translation of lesson l is written in its
// language: its title, summary, each page's Markdown (a predict block's
// question, choices and explanation, and the comments of the other blocks,
// included) and each hint has no English word that its locale's table of
// terms does not keep (internal/i18n's UntranslatedWords). A word left in
// English is either a term the translator missed, which the table
// translates, or one that stays English in kubernetes.io/zh-cn, which the
// table must then keep: either way the table decides, not the lesson. It
// returns one error per text with such words, naming the lesson, the file,
// the page or hint and the words:
//
//	lesson 01-the-control-loop.txtar, guide.zh-CN.md:12: page 1 in zh-CN has English words that are not kept terms: "informer"; ...
func englishLeft(l *lesson.Lesson) []error {
	var errs []error
	for _, lang := range l.LanguagesOf()[1:] {
		t := l.Translation(lang)
		terms, err := i18n.Load(lang)
		if err != nil {
			errs = append(errs, errors.New("lesson "+l.File()+": its "+lang+" translation cannot be checked for English words left in: "+err.Error()))
			continue
		}
		check := func(where, what, text string) {
			if words := terms.UntranslatedWords(text); len(words) > 0 {
				errs = append(errs, errors.New("lesson "+l.File()+", "+where+": "+what+" in "+lang+
					" has English words that are not kept terms: "+quoted(words)+
					"; translate each as i18n/terms."+lang+".md does, or, if kubernetes.io/"+strings.ToLower(lang)+
					" keeps it English, add it to that table's kept terms"))
			}
		}
		check("title."+lang, "the title", t.Title)
		check("summary."+lang, "the summary", t.Summary)
		guide := lesson.GuideFile(lang)
		for _, p := range t.Pages {
			check(guide+":"+strconv.Itoa(p.Line), "page "+strconv.Itoa(p.N), p.Text)
		}
		for i, h := range t.Hints {
			n := strconv.Itoa(i + 1)
			check(lesson.HintsFile(lang)+", paragraph "+n, "hint "+n, h)
		}
	}
	return errs
}

// quoted writes words as "a", "b", "c".
func quoted(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	return strings.Join(q, ", ")
}
