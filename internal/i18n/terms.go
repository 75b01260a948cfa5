package i18n

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"unicode"

	termfiles "github.com/reconcilelab/rlab/i18n"
)

// The headings of the two sections Parse reads, and the header cells of
// their tables. The second header cell of the translated table names the
// locale's language in that language (中文), so Parse only requires it to
// be there.
const (
	translatedHeading = "## Translated terms"
	keptHeading       = "## Kept terms"
	oursPrefix        = "ours:"
)

var (
	translatedHeader = []string{"English", "", "Source"}
	keptHeader       = []string{"Term", "What it is"}
)

// Translation is one row of the "Translated terms" table: a concept in
// English, the words the locale uses for it, and where the Kubernetes
// documentation in that language uses them (or "ours: …", the reason for
// a choice of our own).
type Translation struct {
	English string
	Text    string
	Source  string
	Line    int // 1-based line of the row in its file
}

// Kept is one row of the "Kept terms" table: a word (or a phrase, such as
// Reconcile Lab) that stays English in the locale's text, and what it is.
type Kept struct {
	Term string
	What string
	Line int // 1-based line of the row in its file
}

// Terms is one locale's table of terms, parsed and validated. It is
// read-only once Parse returns it.
type Terms struct {
	// Locale is the BCP 47 tag the table is for: "zh-CN".
	Locale string

	// translations holds the translated terms in the file's order;
	// byEnglish indexes them by their English, exactly as written.
	translations []Translation
	byEnglish    map[string]int
	byFold       map[string]int // the same, by the English in lower case

	// kept holds the kept terms in the file's order; keptSet holds every
	// kept term, and phrases the ones with a space in them, longest first,
	// which UntranslatedWords removes whole before it splits words.
	kept    []Kept
	keptSet map[string]bool
	phrases []string
}

// Locales returns the locales with a table of terms, sorted: the tags of
// the files terms.<locale>.md that the i18n directory holds.
func Locales() []string {
	names, err := fs.Glob(termfiles.FS(), "terms.*.md")
	if err != nil {
		// The pattern is a constant and valid, so Glob cannot fail.
		panic(err)
	}
	locales := make([]string, 0, len(names))
	for _, name := range names {
		locales = append(locales, strings.TrimSuffix(strings.TrimPrefix(name, "terms."), ".md"))
	}
	slices.Sort(locales)
	return locales
}

// Load parses and validates the committed table of terms of locale,
// i18n/terms.<locale>.md.
func Load(locale string) (*Terms, error) {
	name := "terms." + locale + ".md"
	src, err := fs.ReadFile(termfiles.FS(), name)
	if err != nil {
		return nil, fmt.Errorf("no table of terms for locale %q: %w", locale, err)
	}
	return Parse(locale, "i18n/"+name, src)
}

// Parse reads a table of terms for locale from src and validates it. name
// is the file's name, which starts every problem Parse reports
// ("i18n/terms.zh-CN.md:42: …"). It reports every problem it finds, joined,
// not only the first: a translator fixing the table should see them all.
func Parse(locale, name string, src []byte) (*Terms, error) {
	p := &parser{name: name, lines: splitLines(string(src))}
	translatedRows := p.section(translatedHeading, translatedHeader)
	keptRows := p.section(keptHeading, keptHeader)

	t := &Terms{Locale: locale, byEnglish: map[string]int{}, byFold: map[string]int{}, keptSet: map[string]bool{}}
	for _, r := range keptRows {
		t.addKept(p, Kept{Term: r.cells[0], What: r.cells[1], Line: r.line})
	}
	for _, r := range translatedRows {
		t.addTranslation(p, locale, Translation{English: r.cells[0], Text: r.cells[1], Source: r.cells[2], Line: r.line})
	}
	slices.SortFunc(t.phrases, func(a, b string) int { return len(b) - len(a) })
	// A translation's own Latin words (Pod in Pod 模板) must be kept terms,
	// as in any other Chinese text; this needs the whole kept table, so it
	// runs once both tables are read.
	for _, tr := range t.translations {
		if words := t.UntranslatedWords(tr.Text); len(words) > 0 {
			p.errorf(tr.Line, "translation %q of %q uses %s, which is not a kept term", tr.Text, tr.English, quoteAll(words))
		}
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *Terms) addKept(p *parser, k Kept) {
	switch {
	case k.Term != strings.TrimSpace(k.Term) || strings.Contains(k.Term, "  "):
		p.errorf(k.Line, "kept term %q has stray spaces", k.Term)
		return
	case !hasLatinLetter(k.Term):
		p.errorf(k.Line, "kept term %q has no Latin letter: only words that stay English are kept", k.Term)
		return
	case hasOtherLetter(k.Term):
		p.errorf(k.Line, "kept term %q is not all English", k.Term)
		return
	}
	if t.keptSet[k.Term] {
		p.errorf(k.Line, "duplicate kept term %q (first on line %d)", k.Term, t.keptLine(k.Term))
		return
	}
	t.kept = append(t.kept, k)
	t.keptSet[k.Term] = true
	if strings.Contains(k.Term, " ") {
		t.phrases = append(t.phrases, k.Term)
	}
}

func (t *Terms) addTranslation(p *parser, locale string, tr Translation) {
	ok := true
	// Case is ignored here: "Controller" and "controller" in one table
	// would be two answers to one question.
	for _, prev := range t.translations {
		if strings.EqualFold(prev.English, tr.English) {
			p.errorf(tr.Line, "duplicate English term %q (first on line %d)", tr.English, prev.Line)
			ok = false
			break
		}
	}
	// Case counts here: Ready (a condition type) is kept and ready (the
	// concept) is translated, as the docs write them.
	if t.keptSet[tr.English] {
		p.errorf(tr.Line, "%q is both translated and kept (kept on line %d)", tr.English, t.keptLine(tr.English))
		ok = false
	}
	if !hasOtherLetter(tr.Text) {
		p.errorf(tr.Line, "translation %q of %q has no word of the locale's script", tr.Text, tr.English)
		ok = false
	}
	if !validSource(locale, tr.Source) {
		p.errorf(tr.Line, "source of %q must be a page under https://kubernetes.io/%s/ or \"ours: <the reason>\", not %q",
			tr.English, strings.ToLower(locale), tr.Source)
		ok = false
	}
	if ok {
		t.byEnglish[tr.English] = len(t.translations)
		t.byFold[strings.ToLower(tr.English)] = len(t.translations)
		t.translations = append(t.translations, tr)
	}
}

func (t *Terms) keptLine(term string) int {
	for _, k := range t.kept {
		if k.Term == term {
			return k.Line
		}
	}
	return 0
}

// validSource reports whether source names a page of the Kubernetes
// documentation in locale's language, or says "ours:" and why.
func validSource(locale, source string) bool {
	if reason, ok := strings.CutPrefix(source, oursPrefix); ok {
		return strings.TrimSpace(reason) != ""
	}
	prefix := "https://kubernetes.io/" + strings.ToLower(locale) + "/"
	return strings.HasPrefix(source, prefix) && len(source) > len(prefix) && !strings.ContainsAny(source, " \t")
}

// Translations returns the translated terms in the file's order.
func (t *Terms) Translations() []Translation { return slices.Clone(t.translations) }

// Translate returns the locale's words for an English term, written exactly
// as in the table ("desired state"), and whether the table has it.
func (t *Terms) Translate(english string) (string, bool) {
	i, ok := t.byEnglish[english]
	if !ok {
		return "", false
	}
	return t.translations[i].Text, true
}

// TranslatedMap returns the translated terms as a map from English to the
// locale's words: a fresh map the caller may change.
func (t *Terms) TranslatedMap() map[string]string {
	m := make(map[string]string, len(t.translations))
	for _, tr := range t.translations {
		m[tr.English] = tr.Text
	}
	return m
}

// KeptTerms returns the kept terms in the file's order.
func (t *Terms) KeptTerms() []Kept { return slices.Clone(t.kept) }

// IsKept reports whether s is a kept term, exactly as written: the check a
// page string whose translation equals its English must pass.
func (t *Terms) IsKept(s string) bool { return t.keptSet[s] }

// KeptSet returns the kept terms as a set: a fresh map the caller may change.
func (t *Terms) KeptSet() map[string]bool {
	m := make(map[string]bool, len(t.keptSet))
	for k := range t.keptSet {
		m[k] = true
	}
	return m
}

// hasLatinLetter reports whether s has a letter of the Latin script.
func hasLatinLetter(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Latin, r) })
}

// hasOtherLetter reports whether s has a letter of a script other than
// Latin: a Han character, for zh-CN. The tables are for locales written in
// such a script, where an English word stands out; a locale written in
// Latin letters would need a word check of its own.
func hasOtherLetter(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) })
}

func quoteAll(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = fmt.Sprintf("%q", w)
	}
	return strings.Join(q, ", ")
}
