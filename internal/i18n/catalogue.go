package i18n

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Message is one message of the page's catalogue: a string, or, for a
// message that counts, one string per plural category of
// Intl.PluralRules ("one", "other", …), the page choosing by its {n}.
type Message struct {
	// Text is the message, when it has one form.
	Text string
	// Forms are its forms by plural category, when it counts; nil
	// otherwise.
	Forms map[string]string
}

// Texts returns the message's forms, in the order of their categories'
// names: its one text, or each plural form.
func (m Message) Texts() []string {
	if m.Forms == nil {
		return []string{m.Text}
	}
	cats := make([]string, 0, len(m.Forms))
	for c := range m.Forms {
		cats = append(cats, c)
	}
	slices.Sort(cats)
	texts := make([]string, len(cats))
	for i, c := range cats {
		texts[i] = m.Forms[c]
	}
	return texts
}

// placeRE matches a place in a message, {name}, where the page puts in a
// value (site/i18n.js fills them the same way).
var placeRE = regexp.MustCompile(`\{([A-Za-z][A-Za-z0-9]*)\}`)

// Places returns the names of the places in any of the message's forms,
// sorted, each once.
func (m Message) Places() []string {
	var names []string
	for _, text := range m.Texts() {
		for _, match := range placeRE.FindAllStringSubmatch(text, -1) {
			if !slices.Contains(names, match[1]) {
				names = append(names, match[1])
			}
		}
	}
	slices.Sort(names)
	return names
}

// WithoutPlaces returns text with each {place} blanked out: what a
// translator wrote, without what the page puts in.
func WithoutPlaces(text string) string {
	return placeRE.ReplaceAllString(text, " ")
}

// Catalogue is one locale's messages for the page, by key, with the keys
// in the order the file lists them.
type Catalogue struct {
	Messages map[string]Message
	Keys     []string
}

// pluralCategories are the categories Intl.PluralRules names.
var pluralCategories = []string{"zero", "one", "two", "few", "many", "other"}

// ReadCatalogueJS reads the English catalogue, site/messages-en.js, which
// the page's bundle carries as a module. It reads only the form that file
// keeps to: `export const messages = {…};`, an object literal whose keys
// are double-quoted strings or names and whose values are double-quoted
// strings, or objects of them by plural category; comments, and a comma
// after the last property, are allowed. name starts every error.
func ReadCatalogueJS(name string, src []byte) (*Catalogue, error) {
	const head = "export const messages = "
	text := string(src)
	start := strings.Index(text, "\n"+head)
	if strings.HasPrefix(text, head) {
		start = 0
	} else if start >= 0 {
		start++
	}
	if start < 0 {
		return nil, fmt.Errorf("%s: no line starting %q", name, head)
	}
	r := &jsReader{name: name, src: text, pos: start + len(head)}
	c := &Catalogue{Messages: map[string]Message{}}
	if err := r.object(func(key string, line int) error {
		if _, dup := c.Messages[key]; dup {
			return fmt.Errorf("%s:%d: %q is listed twice", name, line, key)
		}
		m, err := r.message(key)
		if err != nil {
			return err
		}
		c.Messages[key] = m
		c.Keys = append(c.Keys, key)
		return nil
	}); err != nil {
		return nil, err
	}
	r.space()
	if !strings.HasPrefix(r.src[r.pos:], ";") {
		return nil, r.errorf("the object ends with };")
	}
	r.pos++
	if r.space(); r.pos != len(r.src) {
		return nil, r.errorf("nothing may follow the catalogue")
	}
	return c, nil
}

// ReadCatalogueJSON reads a translated catalogue, messages-<locale>.json:
// a JSON object of the same shape as the English one. Its keys are in the
// file's order.
func ReadCatalogueJSON(name string, src []byte) (*Catalogue, error) {
	dec := json.NewDecoder(strings.NewReader(string(src)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("%s: not a JSON object", name)
	}
	c := &Catalogue{Messages: map[string]Message{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		key := tok.(string) // an object's keys are strings
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("%s: %q: %w", name, key, err)
		}
		if _, dup := c.Messages[key]; dup {
			return nil, fmt.Errorf("%s: %q is listed twice", name, key)
		}
		var m Message
		if err := json.Unmarshal(raw, &m.Text); err != nil {
			if err := json.Unmarshal(raw, &m.Forms); err != nil {
				return nil, fmt.Errorf("%s: %q is neither a string nor an object of strings by plural category", name, key)
			}
		}
		if err := checkForms(m); err != nil {
			return nil, fmt.Errorf("%s: %q: %w", name, key, err)
		}
		c.Messages[key] = m
		c.Keys = append(c.Keys, key)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: nothing may follow the catalogue", name)
	}
	return c, nil
}

// checkForms refuses plural forms without "other" (the form every language
// has, and the page's fallback) or with a category Intl.PluralRules does
// not name.
func checkForms(m Message) error {
	if m.Forms == nil {
		return nil
	}
	for c := range m.Forms {
		if !slices.Contains(pluralCategories, c) {
			return fmt.Errorf("%q is not a plural category (%s)", c, strings.Join(pluralCategories, ", "))
		}
	}
	if _, ok := m.Forms["other"]; !ok {
		return errors.New(`plural forms without "other"`)
	}
	return nil
}

// jsReader reads the object literal of messages-en.js.
type jsReader struct {
	name string
	src  string
	pos  int
}

func (r *jsReader) line() int { return 1 + strings.Count(r.src[:r.pos], "\n") }

func (r *jsReader) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", r.name, r.line(), fmt.Sprintf(format, args...))
}

// space skips white space and comments.
func (r *jsReader) space() {
	for r.pos < len(r.src) {
		rest := r.src[r.pos:]
		switch {
		case unicode.IsSpace(rune(rest[0])):
			r.pos++
		case strings.HasPrefix(rest, "//"):
			end := strings.IndexByte(rest, '\n')
			if end < 0 {
				end = len(rest)
			}
			r.pos += end
		case strings.HasPrefix(rest, "/*"):
			end := strings.Index(rest, "*/")
			if end < 0 {
				r.pos = len(r.src)
				return
			}
			r.pos += end + 2
		default:
			return
		}
	}
}

// object reads {key: value, …}, calling prop with each key and its line
// to read the value that follows the colon.
func (r *jsReader) object(prop func(key string, line int) error) error {
	r.space()
	if !strings.HasPrefix(r.src[r.pos:], "{") {
		return r.errorf("an object starts with {")
	}
	r.pos++
	for {
		r.space()
		if strings.HasPrefix(r.src[r.pos:], "}") {
			r.pos++
			return nil
		}
		line := r.line()
		key, err := r.key()
		if err != nil {
			return err
		}
		r.space()
		if !strings.HasPrefix(r.src[r.pos:], ":") {
			return r.errorf("a colon follows the key %q", key)
		}
		r.pos++
		if err := prop(key, line); err != nil {
			return err
		}
		r.space()
		switch {
		case strings.HasPrefix(r.src[r.pos:], ","):
			r.pos++
		case strings.HasPrefix(r.src[r.pos:], "}"):
		default:
			return r.errorf("a comma or } follows the value of %q", key)
		}
	}
}

var jsName = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*`)

// key reads a property's key: a double-quoted string or a name.
func (r *jsReader) key() (string, error) {
	if strings.HasPrefix(r.src[r.pos:], `"`) {
		return r.str()
	}
	if m := jsName.FindString(r.src[r.pos:]); m != "" {
		r.pos += len(m)
		return m, nil
	}
	return "", r.errorf("a key is a double-quoted string or a name")
}

// str reads a double-quoted string. Its escapes are those Go and
// JavaScript read alike (\" \\ \n \t \uXXXX); any other is refused.
func (r *jsReader) str() (string, error) {
	rest := r.src[r.pos:]
	end := 1
	for end < len(rest) && rest[end] != '"' {
		switch rest[end] {
		case '\\':
			end += 2
		case '\n':
			return "", r.errorf("a string ends on its line")
		default:
			end++
		}
	}
	if end >= len(rest) {
		return "", r.errorf("an unterminated string")
	}
	lit := rest[:end+1]
	for i := 0; i < len(lit); i++ {
		if lit[i] == '\\' {
			if !strings.ContainsRune(`"\ntu`, rune(lit[i+1])) {
				return "", r.errorf("the escape \\%c: write the character itself", lit[i+1])
			}
			i++
		}
	}
	s, err := strconv.Unquote(lit)
	if err != nil {
		return "", r.errorf("cannot read the string %s: %v", lit, err)
	}
	r.pos += len(lit)
	return s, nil
}

// message reads a message: a string, or {category: string, …}.
func (r *jsReader) message(key string) (Message, error) {
	r.space()
	if strings.HasPrefix(r.src[r.pos:], `"`) {
		s, err := r.str()
		return Message{Text: s}, err
	}
	if !strings.HasPrefix(r.src[r.pos:], "{") {
		return Message{}, r.errorf("%q is a double-quoted string, or an object of them by plural category", key)
	}
	m := Message{Forms: map[string]string{}}
	err := r.object(func(cat string, line int) error {
		r.space()
		if !strings.HasPrefix(r.src[r.pos:], `"`) {
			return r.errorf("%q's form %q is a double-quoted string", key, cat)
		}
		s, err := r.str()
		if err != nil {
			return err
		}
		if _, dup := m.Forms[cat]; dup {
			return fmt.Errorf("%s:%d: %q has the form %q twice", r.name, line, key, cat)
		}
		m.Forms[cat] = s
		return nil
	})
	if err != nil {
		return Message{}, err
	}
	if err := checkForms(m); err != nil {
		return Message{}, r.errorf("%q: %v", key, err)
	}
	return m, nil
}

// CheckCatalogue compares tr, the page's catalogue in t's locale, with en,
// the English one, and returns every fault it finds, by key in en's order
// (then tr's extra keys): a key one has and the other lacks; a message
// whose places ({name}) differ from the English, which the page could not
// fill; an English word that is not a kept term (UntranslatedWords, on
// the message without its places); and a message equal to its English,
// unless what it says is a kept term (or has no letter at all): a string
// left untranslated.
func (t *Terms) CheckCatalogue(en, tr *Catalogue) []error {
	var errs []error
	for _, key := range en.Keys {
		m, ok := tr.Messages[key]
		if !ok {
			errs = append(errs, fmt.Errorf("%q is not translated", key))
			continue
		}
		e := en.Messages[key]
		if want, got := e.Places(), m.Places(); !slices.Equal(want, got) {
			errs = append(errs, fmt.Errorf("%q has the places %v; the English has %v", key, got, want))
		}
		for _, text := range m.Texts() {
			if words := t.UntranslatedWords(WithoutPlaces(text)); len(words) > 0 {
				errs = append(errs, fmt.Errorf("%q: %q has the English %s, which is not a kept term", key, text, quoteAll(words)))
			}
			if slices.Contains(e.Texts(), text) && !t.keptOrNoWords(text) {
				errs = append(errs, fmt.Errorf("%q: %q is the English, untranslated (a kept term may stay; add it to the table's kept terms)", key, text))
			}
		}
	}
	for _, key := range tr.Keys {
		if _, ok := en.Messages[key]; !ok {
			errs = append(errs, fmt.Errorf("%q is not an English message (a key renamed or removed?)", key))
		}
	}
	return errs
}

// keptOrNoWords says whether text, without its places and punctuation, is
// a kept term, or has no letter at all ("{a} · {b}").
func (t *Terms) keptOrNoWords(text string) bool {
	rest := strings.Join(strings.FieldsFunc(WithoutPlaces(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != '-'
	}), " ")
	return !strings.ContainsFunc(rest, unicode.IsLetter) || t.IsKept(strings.Trim(rest, ".-"))
}
