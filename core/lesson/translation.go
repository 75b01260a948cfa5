package lesson

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/script"
)

// This file holds a lesson's other languages: reading the translated parts
// of a lesson file, and holding a translation to the English's structure.

// English is the language of a lesson file's unmarked parts: guide.md,
// hints, and the header's title: and summary:.
const English = "en"

// Languages are the languages the project ships, English first, as BCP 47
// tags: every lesson is written in all of them (Check fails a lesson that
// lacks one). Each language but English has its own parts in the lesson
// file, named with its tag: guide.zh-CN.md, hints.zh-CN, title.zh-CN: and
// summary.zh-CN:. Adding a language here makes every lesson need it.
var Languages = []string{English, "zh-CN"}

// Translation is a lesson's words in another language than English: what
// the learner reads. The commands, expects and right answers are the
// English's, block for block (Parse holds a translation to that), and
// setup, goal and solution are never translated: they are the engine's
// words.
type Translation struct {
	// Lang is the translation's language, a tag of Languages: "zh-CN".
	Lang string `json:"lang"`
	// Title and Summary come from the header's title.LANG: and
	// summary.LANG: lines.
	Title   string `json:"title"`
	Summary string `json:"summary"`
	// Pages are guide.LANG.md's pages, in order: as many as the English
	// guide has, with the same blocks in the same order. A do, step or
	// check block holds the English block's commands (its # comments may
	// be translated); a predict block the same number of choices, decided
	// by the same expects, with the same one ticked, its question, choices
	// and explanation translated.
	Pages []*Page `json:"pages"`
	// Hints are hints.LANG's paragraphs: one for each English hint.
	Hints []string `json:"hints"`
}

// GuideFile is the name of the lesson file's guide in language lang:
// guide.md for English, guide.zh-CN.md for zh-CN.
func GuideFile(lang string) string {
	if lang == English {
		return fileGuide
	}
	return "guide." + lang + ".md"
}

// HintsFile is the name of the lesson file's hints in language lang: hints
// for English, hints.zh-CN for zh-CN.
func HintsFile(lang string) string {
	if lang == English {
		return fileHints
	}
	return fileHints + "." + lang
}

// translatedFiles are the names of the files that hold the lesson's other
// languages, language by language.
func translatedFiles() []string {
	var out []string
	for _, lang := range Languages[1:] {
		out = append(out, GuideFile(lang), HintsFile(lang))
	}
	return out
}

// translatedKeys are the header's keys of the lesson's other languages.
func translatedKeys() []string {
	var out []string
	for _, lang := range Languages[1:] {
		out = append(out, "title."+lang, "summary."+lang)
	}
	return out
}

// translationParts lists what a translation into lang is made of, for the
// error that says which part is missing.
func translationParts(lang string) string {
	return GuideFile(lang) + ", " + HintsFile(lang) + ", title." + lang + ": and summary." + lang + ":"
}

// Translation returns l's translation into lang, or nil if it has none
// (English is not a translation: l's own fields hold it).
func (l *Lesson) Translation(lang string) *Translation {
	for _, t := range l.Translations {
		if t.Lang == lang {
			return t
		}
	}
	return nil
}

// LanguagesOf returns the languages lesson l is written in: English, then
// those of its translations, in the order of Languages.
func (l *Lesson) LanguagesOf() []string {
	out := []string{English}
	for _, lang := range Languages[1:] {
		if l.Translation(lang) != nil {
			out = append(out, lang)
		}
	}
	return out
}

// MissingLanguages returns the languages of Languages that lesson l has no
// translation into, in order: none, for a lesson that is complete.
func (l *Lesson) MissingLanguages() []string {
	var out []string
	for _, lang := range Languages[1:] {
		if l.Translation(lang) == nil {
			out = append(out, lang)
		}
	}
	return out
}

// translationMade returns l's translation into lang, added empty if there
// is none yet: Parse fills it part by part. It is added where Languages
// puts lang, since the header's title.LANG: lines, which may come in any
// order, can add it first.
func (l *Lesson) translationMade(lang string) *Translation {
	if t := l.Translation(lang); t != nil {
		return t
	}
	t := &Translation{Lang: lang}
	i := 0
	for i < len(l.Translations) && slices.Index(Languages, l.Translations[i].Lang) < slices.Index(Languages, lang) {
		i++
	}
	l.Translations = slices.Insert(l.Translations, i, t)
	return t
}

// translatedParts is what Parse found of one language's parts, to tell a
// partial translation (an error) from none.
type translatedParts struct {
	title, summary, guide, hints bool
	// guideOK is set when the translated guide parsed, so that its
	// structure can be compared with the English's.
	guideOK bool
}

// parseTranslations reads the translated files of a lesson whose English
// parts Parse has read, and holds each translation to the English: every
// part present, and the same structure. header says which translated
// header lines were found; suggested are the names a misspelled file was
// close to, which are not reported missing as well.
func (l *Lesson) parseTranslations(file string, files map[string]archiveFile, header map[string]int, suggested []string, englishOK bool) []error {
	var errs []error
	where := func(part string) string { return "lesson " + file + ", " + part }
	for _, lang := range Languages[1:] {
		_, title := header["title."+lang]
		_, summary := header["summary."+lang]
		parts := translatedParts{title: title, summary: summary}
		if f, ok := files[HintsFile(lang)]; ok {
			parts.hints = true
			hints := paragraphs(f.data)
			l.translationMade(lang).Hints = hints
			if len(hints) != len(l.Hints) && len(l.Hints) > 0 {
				errs = append(errs, &script.ParseError{File: where(HintsFile(lang)), Line: 1, Col: 1,
					Msg:  plural(len(hints), "hint") + ", but " + fileHints + " has " + strconv.Itoa(len(l.Hints)),
					Hint: "a translation has one hint for each English hint, in the same order, one per paragraph"})
			}
		}
		if f, ok := files[GuideFile(lang)]; ok {
			parts.guide = true
			pages, guideErrs := parseGuide(where(GuideFile(lang)), f.data)
			l.translationMade(lang).Pages = pages
			errs = append(errs, guideErrs...)
			parts.guideOK = len(guideErrs) == 0
		}
		if !parts.title && !parts.summary && !parts.guide && !parts.hints {
			continue // not translated: Check says so
		}
		for _, p := range []struct {
			found bool
			name  string
		}{
			{parts.guide, GuideFile(lang) + " file"}, {parts.hints, HintsFile(lang) + " file"},
			{parts.title, "title." + lang + ": line"}, {parts.summary, "summary." + lang + ": line"},
		} {
			if !p.found && !slices.Contains(suggested, strings.TrimSuffix(strings.TrimSuffix(p.name, " file"), ": line")) {
				errs = append(errs, errors.New("lesson "+file+": the "+lang+" translation has no "+p.name+
					"; a translation has "+translationParts(lang)))
			}
		}
		if parts.guideOK && englishOK {
			errs = append(errs, compareGuides(where(GuideFile(lang)), lang, l.Pages, l.Translation(lang).Pages)...)
		}
	}
	return errs
}

// plural writes "1 hint" or "3 hints".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// compareGuides holds the translated guide tr, in language lang and read
// from the file where names, to the English guide en: the same pages, on
// each the same blocks in the same order, do, step and check blocks with
// the same commands, predicts with the same choices decided by the same
// expects and the same one ticked. The page runs the English blocks
// whatever the learner reads, and grades a translated predict with the
// English expects, so a translation that differed would teach one thing
// and run another. Each error names the page and the block, positioned in
// the translation, with where the English counterpart stands.
func compareGuides(where, lang string, en, tr []*Page) []error {
	at := func(line, col int, msg, hint string) error {
		return &script.ParseError{File: where, Line: line, Col: col, Msg: msg, Hint: hint}
	}
	if len(tr) != len(en) {
		last := tr[len(tr)-1]
		return []error{at(last.Line, 1, plural(len(tr), "page")+", but "+fileGuide+" has "+strconv.Itoa(len(en)),
			"a translation has the English pages, split by the same --- lines")}
	}
	var errs []error
	for i, ep := range en {
		errs = append(errs, comparePage(at, lang, ep, tr[i])...)
	}
	return errs
}

// sameCommands is the hint of every error about a block whose commands
// differ from the English's.
const sameCommands = "a translation's do, step and check blocks hold the English commands; only # comments may be translated"

// comparePage compares one translated page tp with its English page ep.
func comparePage(at func(line, col int, msg, hint string) error, lang string, ep, tp *Page) []error {
	page := "page " + strconv.Itoa(ep.N)
	for j := 0; j < max(len(ep.Blocks), len(tp.Blocks)); j++ {
		block := page + ", block " + strconv.Itoa(j+1)
		switch {
		case j >= len(tp.Blocks):
			eb := ep.Blocks[j]
			return []error{at(tp.Line, 1, page+": the English page has a "+string(eb.Kind)+" block as block "+strconv.Itoa(j+1)+
				" ("+fileGuide+":"+strconv.Itoa(eb.Line-1)+"), the "+lang+" page has "+plural(len(tp.Blocks), "block"),
				"a translation has the English blocks, in the same order")}
		case j >= len(ep.Blocks):
			tb := tp.Blocks[j]
			return []error{at(tb.Line-1, 1, block+": the "+lang+" page has a "+string(tb.Kind)+" block here, the English page has "+
				plural(len(ep.Blocks), "block"), "a translation has the English blocks, in the same order")}
		}
		eb, tb := ep.Blocks[j], tp.Blocks[j]
		if eb.Kind != tb.Kind {
			return []error{at(tb.Line-1, 1, block+": the English page has a "+string(eb.Kind)+" block here ("+fileGuide+":"+
				strconv.Itoa(eb.Line-1)+"), the "+lang+" page has a "+string(tb.Kind)+" block",
				"a translation has the English blocks, in the same order")}
		}
		var errs []error
		if eb.Kind == KindPredict {
			errs = comparePredict(at, block, eb, tb)
		} else {
			errs = compareCommands(at, block+" ("+string(eb.Kind)+")", eb, tb)
		}
		if len(errs) > 0 {
			return errs
		}
	}
	return nil
}

// compareCommands compares the commands of a translated block with the
// English block's, as parsed: comments are not commands, and spaces
// between words do not count.
func compareCommands(at func(line, col int, msg, hint string) error, what string, eb, tb *Block) []error {
	ec, tc := eb.Script.Commands, tb.Script.Commands
	english := " (" + fileGuide + ":" + strconv.Itoa(eb.Line) + ")"
	for k := range min(len(ec), len(tc)) {
		e, t := commandWords(ec[k]), commandWords(tc[k])
		if e != t {
			pos := tc[k].Src().Pos
			return []error{at(pos.Line, pos.Col, what+": command "+strconv.Itoa(k+1)+" is "+strconv.Quote(t)+
				", the English block's is "+strconv.Quote(e)+" ("+fileGuide+":"+strconv.Itoa(ec[k].Src().Pos.Line)+")", sameCommands)}
		}
	}
	if len(ec) != len(tc) {
		return []error{at(tb.Line, 1, what+": "+plural(len(tc), "command")+", the English block has "+
			strconv.Itoa(len(ec))+english, sameCommands)}
	}
	return nil
}

// commandWords is a command as written, its words separated by one space.
func commandWords(c script.Command) string {
	return strings.Join(strings.Fields(c.Src().Text), " ")
}

// comparePredict compares a translated predict block with the English one:
// the same number of choices, the same one ticked, each decided by the
// same expect.
func comparePredict(at func(line, col int, msg, hint string) error, block string, eb, tb *Block) []error {
	what := block + " (predict)"
	english := " (" + fileGuide + ":" + strconv.Itoa(eb.Line-1) + ")"
	ep, tp := eb.Predict, tb.Predict
	switch {
	case len(ep.Choices) != len(tp.Choices):
		return []error{at(tb.Line-1, 1, what+": "+plural(len(tp.Choices), "choice")+", the English block has "+
			strconv.Itoa(len(ep.Choices))+english, "a translation has the English choices, in the same order")}
	case ep.Answer != tp.Answer:
		line := tp.Choices[tp.Answer].Expect.Line
		return []error{at(line, 1, what+": choice "+strconv.Itoa(tp.Answer+1)+" is ticked [x], the English block ticks choice "+
			strconv.Itoa(ep.Answer+1)+english, "tick the choice the English ticks: the page grades every language with the English expects")}
	}
	for k, ec := range ep.Choices {
		tc := tp.Choices[k].Expect
		e, t := commandWords(ec.Expect.Script.Commands[0]), commandWords(tc.Script.Commands[0])
		if e != t {
			return []error{at(tc.Line, tc.Col, what+", choice "+strconv.Itoa(k+1)+": its expect is "+strconv.Quote(t)+
				", the English choice's is "+strconv.Quote(e)+" ("+fileGuide+":"+strconv.Itoa(ec.Expect.Line)+")",
				"a translation's choices are decided by the English expects; only their words are translated")}
		}
	}
	return nil
}

// proveLanguages is Check's rule that every lesson ships in every
// language, and the lessons' doc.go says it too: a lesson written from now
// on is written in all of Languages.
func (l *Lesson) proveLanguages() *CheckError {
	missing := l.MissingLanguages()
	if len(missing) == 0 {
		return nil
	}
	var parts []string
	for _, lang := range missing {
		parts = append(parts, translationParts(lang))
	}
	return &CheckError{Lesson: l.File(), Proof: "every lesson ships in every language the project ships (" +
		plainList(Languages, "and") + "), but it has no " + plainList(missing, "or") +
		" translation: write " + strings.Join(parts, "; ")}
}

// plainList joins words as "a, b and c" (or "or").
func plainList(words []string, conj string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}
