package i18n

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
)

// Glossary is the page's glossary in one language: the object that
// site/glossary.js exports, in English, or a translation of it,
// site/glossary-<locale>.json, which the page loads in that locale.
// ui-glossary.js draws it; glossary.js's header comment says what each
// part is.
type Glossary struct {
	Lang     string            `json:"lang"`
	Text     map[string]string `json:"text"`
	Labels   map[string]string `json:"labels"`
	Groups   []GlossaryGroup   `json:"groups"`
	Captions map[string]string `json:"captions"`
	Entries  []GlossaryEntry   `json:"entries"`

	// Match is the English glossary's: by entry id, the English words the
	// engine and the panels write for the entry. The page uses it in every
	// language, since the engine's words stay English.
	Match map[string][]string `json:"match,omitempty"`
	// MatchZh is a Chinese glossary's: by entry id, the Chinese words the
	// page's own Chinese text writes for the entry, longest first.
	MatchZh map[string][]string `json:"matchZh,omitempty"`
}

// GlossaryGroup is a section of the glossary.
type GlossaryGroup struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// GlossaryEntry is one word the page explains: its term, a one-line
// explanation (the tooltip), a longer one, and where it comes from.
type GlossaryEntry struct {
	ID       string           `json:"id"`
	Group    string           `json:"group"`
	Term     string           `json:"term"`
	Short    string           `json:"short"`
	Long     string           `json:"long"`
	Origin   string           `json:"origin,omitempty"` // "rlab" for the model's own devices
	Upstream GlossaryUpstream `json:"upstream"`
}

// GlossaryUpstream names the function, type or field an entry comes from
// and its file: code, the same in every language.
type GlossaryUpstream struct {
	Name string `json:"name"`
	File string `json:"file"`
}

// ReadGlossaryJS reads the English glossary from path, site/glossary.js,
// without running it: see JSConstJSON.
func ReadGlossaryJS(path string) (*Glossary, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	data, err := JSConstJSON(src, path, "glossary")
	if err != nil {
		return nil, err
	}
	return decodeGlossary(data, path)
}

// ReadGlossaryJSON reads a translated glossary from path,
// site/glossary-<locale>.json: valid JSON, no key twice in an object, and
// no field the page does not know.
func ReadGlossaryJSON(path string) (*Glossary, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	data, err := JSONLiteral(src, path)
	if err != nil {
		return nil, err
	}
	return decodeGlossary(data, path)
}

func decodeGlossary(data []byte, path string) (*Glossary, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var g Glossary
	if err := dec.Decode(&g); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &g, nil
}

// CheckGlossary compares tr, a translation of the glossary into the
// locale of terms, with en, the English, and returns every fault it
// finds, each naming where it is, or nil. A translation must have:
//   - the lang of its locale, and en the lang "en";
//   - the same groups and entries, by id, in the same order, each entry in
//     the same group, with the same origin and upstream name and file;
//   - the same keys of text, labels and captions;
//   - in each text, the same references to entries ({{id}} or
//     {{id|words}}, counted, in any order, since a translation may put
//     them elsewhere in its sentence) and the same values ({name}); each
//     reference names an entry;
//   - no English word that is not a kept term (Terms.UntranslatedWords),
//     and no text equal to its English unless it is a kept term (an
//     entry's term DeltaFIFO); no empty text; no code span left open (a
//     translation writes code in backticks, which the page draws as code);
//   - a matchZh table, and no match table: by entry id, the words the
//     page's own text in the locale writes, each passing the word check,
//     none twice, longest first.
func CheckGlossary(en, tr *Glossary, terms *Terms) []string {
	c := &glossaryCheck{en: en, tr: tr, terms: terms, entries: map[string]bool{}}
	for _, e := range en.Entries {
		c.entries[e.ID] = true
	}
	c.check()
	return c.faults
}

type glossaryCheck struct {
	en, tr  *Glossary
	terms   *Terms
	entries map[string]bool // the English entries' ids
	faults  []string
}

func (c *glossaryCheck) faultf(format string, args ...any) {
	c.faults = append(c.faults, fmt.Sprintf(format, args...))
}

func (c *glossaryCheck) check() {
	if c.en.Lang != "en" {
		c.faultf("the English glossary's lang is %q, want \"en\"", c.en.Lang)
	}
	if c.tr.Lang != c.terms.Locale {
		c.faultf("lang is %q, want %q", c.tr.Lang, c.terms.Locale)
	}

	c.compareKeys("text", c.en.Text, c.tr.Text)
	c.compareKeys("labels", c.en.Labels, c.tr.Labels)
	c.compareKeys("captions", c.en.Captions, c.tr.Captions)

	c.compareOrder("groups", groupIDs(c.en.Groups), groupIDs(c.tr.Groups))
	trGroups := map[string]GlossaryGroup{}
	for _, g := range c.tr.Groups {
		trGroups[g.ID] = g
	}
	for _, g := range c.en.Groups {
		if t, ok := trGroups[g.ID]; ok {
			c.compareText(fmt.Sprintf("groups %q: title", g.ID), g.Title, t.Title, false)
		}
	}

	c.compareOrder("entries", entryIDs(c.en.Entries), entryIDs(c.tr.Entries))
	trEntries := map[string]GlossaryEntry{}
	for _, e := range c.tr.Entries {
		trEntries[e.ID] = e
	}
	for _, e := range c.en.Entries {
		t, ok := trEntries[e.ID]
		if !ok {
			continue
		}
		where := fmt.Sprintf("entries %q", e.ID)
		if t.Group != e.Group {
			c.faultf("%s: group is %q, the English has %q", where, t.Group, e.Group)
		}
		if t.Origin != e.Origin {
			c.faultf("%s: origin is %q, the English has %q", where, t.Origin, e.Origin)
		}
		if t.Upstream != e.Upstream {
			c.faultf("%s: upstream is %s in %s, the English has %s in %s: upstream names are code and stay as they are",
				where, t.Upstream.Name, t.Upstream.File, e.Upstream.Name, e.Upstream.File)
		}
		c.compareText(where+": term", e.Term, t.Term, true)
		c.compareText(where+": short", e.Short, t.Short, false)
		c.compareText(where+": long", e.Long, t.Long, false)
	}

	c.checkMatch()
}

// compareKeys reports the keys of one of the glossary's tables that the
// translation lacks or adds, and compares the texts of the others.
func (c *glossaryCheck) compareKeys(table string, en, tr map[string]string) {
	for _, k := range sortedKeys(en) {
		t, ok := tr[k]
		if !ok {
			c.faultf("%s: no %q", table, k)
			continue
		}
		c.compareText(fmt.Sprintf("%s %q", table, k), en[k], t, false)
	}
	for _, k := range sortedKeys(tr) {
		if _, ok := en[k]; !ok {
			c.faultf("%s: %q is not in the English", table, k)
		}
	}
}

// compareOrder reports the ids of a list (groups, entries) that the
// translation lacks, adds or repeats, and, when it has the same ones, the
// first place where its order differs from the English.
func (c *glossaryCheck) compareOrder(list string, en, tr []string) {
	ok := true
	for _, id := range en {
		if !slices.Contains(tr, id) {
			c.faultf("%s: no %q", list, id)
			ok = false
		}
	}
	seen := map[string]bool{}
	for _, id := range tr {
		switch {
		case seen[id]:
			c.faultf("%s: %q is there twice", list, id)
			ok = false
		case !slices.Contains(en, id):
			c.faultf("%s: %q is not in the English", list, id)
			ok = false
		}
		seen[id] = true
	}
	if !ok {
		return
	}
	for i := range en {
		if en[i] != tr[i] {
			c.faultf("%s: out of order: number %d is %q, the English has %q there", list, i+1, tr[i], en[i])
			return
		}
	}
}

// compareText checks one text of the translation against its English.
// term says it is an entry's term, which the page draws as a heading and
// in place of {{id}}.
func (c *glossaryCheck) compareText(where, en, tr string, term bool) {
	enRefs, enValues := textMarkupOf(en)
	trRefs, trValues := textMarkupOf(tr)
	for _, id := range enRefs {
		if !c.entries[id] {
			c.faultf("%s: the English refers to {{%s}}, which is no entry", where, id)
		}
	}
	for _, id := range trRefs {
		if !c.entries[id] && slices.Contains(enRefs, id) {
			continue // reported for the English
		}
		if !c.entries[id] {
			c.faultf("%s: refers to {{%s}}, which is no entry", where, id)
		}
	}
	if !slices.Equal(enRefs, trRefs) {
		c.faultf("%s: refers to entries %s, the English to %s", where, braceAll(trRefs, "{{", "}}"), braceAll(enRefs, "{{", "}}"))
	}
	if !slices.Equal(enValues, trValues) {
		c.faultf("%s: has the values %s, the English %s", where, braceAll(trValues, "{", "}"), braceAll(enValues, "{", "}"))
	}

	switch {
	case strings.TrimSpace(tr) == "":
		c.faultf("%s: is empty", where)
		return
	case tr == en && !c.terms.IsKept(tr):
		c.faultf("%s: %q is the same as the English, and only a kept term may be", where, tr)
	}
	if words := c.terms.UntranslatedWords(tr); len(words) > 0 {
		c.faultf("%s: English words %s, which are not kept terms (translate them, or write code in backticks)", where, quoteAll(words))
	}
	if strings.Count(tr, "`")%2 != 0 {
		c.faultf("%s: a code span is not closed: an odd number of backticks", where)
	}
	if term && strings.ContainsAny(tr, "{}`") {
		c.faultf("%s: a term is plain words, with no markup or code", where)
	}
}

// checkMatch checks the tables of words by which the page finds an entry
// in text.
func (c *glossaryCheck) checkMatch() {
	for _, id := range sortedKeys(c.en.Match) {
		if !c.entries[id] {
			c.faultf("the English match: %q is no entry", id)
		}
	}
	if len(c.en.MatchZh) > 0 {
		c.faultf("the English glossary has a matchZh table; only a Chinese one has")
	}
	if len(c.tr.Match) > 0 {
		c.faultf("match: a translation has none: the page finds the engine's English words with the English one in every language")
	}
	if len(c.tr.MatchZh) == 0 {
		c.faultf("matchZh: missing: the page finds the entries' words in its own Chinese text by it")
	}
	for _, id := range sortedKeys(c.tr.MatchZh) {
		where := fmt.Sprintf("matchZh %q", id)
		if !c.entries[id] {
			c.faultf("%s: no such entry", where)
		}
		words := c.tr.MatchZh[id]
		if len(words) == 0 {
			c.faultf("%s: no words", where)
		}
		for i, w := range words {
			switch {
			case strings.TrimSpace(w) != w || w == "":
				c.faultf("%s: word %q is empty or has spaces around it", where, w)
			case slices.Index(words, w) < i:
				c.faultf("%s: %q is there twice", where, w)
			case i > 0 && utf8.RuneCountInString(w) > utf8.RuneCountInString(words[i-1]):
				c.faultf("%s: %q is longer than %q before it: longest first, so that the longest match wins", where, w, words[i-1])
			}
			if bad := c.terms.UntranslatedWords(w); len(bad) > 0 {
				c.faultf("%s: English words %s, which are not kept terms", where, quoteAll(bad))
			}
		}
	}
}

// textMarkupOf returns the entries a text refers to, sorted, once for each
// reference, and the names of its values, sorted, each once.
func textMarkupOf(text string) (refs, values []string) {
	for _, m := range textMarkup.FindAllStringSubmatch(text, -1) {
		if m[1] != "" {
			refs = append(refs, m[1])
		} else if !slices.Contains(values, m[3]) {
			values = append(values, m[3])
		}
	}
	slices.Sort(refs)
	slices.Sort(values)
	return refs, values
}

func braceAll(names []string, open, closing string) string {
	if len(names) == 0 {
		return "none"
	}
	b := make([]string, len(names))
	for i, n := range names {
		b[i] = open + n + closing
	}
	return strings.Join(b, " ")
}

func groupIDs(groups []GlossaryGroup) []string {
	ids := make([]string, len(groups))
	for i, g := range groups {
		ids[i] = g.ID
	}
	return ids
}

func entryIDs(entries []GlossaryEntry) []string {
	ids := make([]string, len(entries))
	for i, e := range entries {
		ids[i] = e.ID
	}
	return ids
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
