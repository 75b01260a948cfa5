package i18n

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
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
// the page's bundle carries as a module: `export const messages = {…};`,
// an object literal of strings, or objects of them by plural category, as
// JSConstJSON reads it. name starts every error.
func ReadCatalogueJS(name string, src []byte) (*Catalogue, error) {
	data, err := JSConstJSON(src, name, "messages")
	if err != nil {
		return nil, err
	}
	return ReadCatalogueJSON(name, data)
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
