package i18n

import (
	"iter"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// units are the unit words that may follow a number in text for a learner
// ("5 ms", "1000 s"); after a number they are not English words.
var units = []string{"ns", "us", "µs", "ms", "s", "m", "min", "h"}

// codePunct are the characters that make a token code rather than a word:
// an object (rs/web), a label selector (app=web), an image (nginx:2.0), a
// link target (glossary:informer), an annotation key, a URL's query.
const codePunct = "/=:@#%~&?+"

// UntranslatedWords returns the English words in text, a piece of the
// locale's text (Markdown or a page's visible text), that are not kept
// terms: each once, in the order they first appear. An English word is a
// run of two or more Latin letters, with the dots, hyphens and underscores
// inside it (spec.replicas, pod-template-hash). Not words, and skipped:
//   - code: inline code (`rs/web`), Markdown link targets
//     (](glossary:informer)), and the commands and expects of fenced blocks
//     (a predict block's question, choices and explanation, and the
//     comments of the others, are words a learner reads, and are checked);
//   - tokens that are code by their shape: a flag (--cascade), anything
//     holding one of / = : @ # % ~ & ? + (rs/web, app=web, nginx:2.0, URLs);
//   - tokens with a digit (node-1, v1.31, 409, 5ms);
//   - a unit after a number (5 ms, 1000 s);
//   - the markup of the page's texts (the glossary, the message
//     catalogue): a reference to a glossary entry, {{id}}, which the page
//     draws as that entry's term, a text checked on its own, and a value
//     the page puts in, {name}. Of a reference that names its words,
//     {{id|words}}, the words are text and are checked, the id is not.
//     A value is read as a number, so a unit after it (the {n} ms that a
//     duration may be written as) is not a word either.
//
// The English of a translated term in full-width parentheses right after
// its translation, as the style guide asks on a term's first use
// (控制器（controller）, 期望状态（Desired State）), is not an English word
// left in; the English is matched without regard to case, as the zh-cn
// pages capitalize it at will.
//
// Kept terms are matched exactly, with their case: ReplicaSet is kept,
// replicaset and ReplicaSets are English words. A kept term with a space
// (Reconcile Lab) is matched whole, between non-letters.
func (t *Terms) UntranslatedWords(text string) []string {
	text = stripMarkdownCode(text)
	text = stripTextMarkup(text)
	text = t.removeGlosses(text)
	text = t.removePhrases(text)

	var found []string
	prevNumber := false // the previous token was a number, with only spaces since
	for tok := range tokens(text) {
		number := tok.isNumber()
		word, ok := t.untranslated(tok, prevNumber)
		prevNumber = number
		if ok && !slices.Contains(found, word) {
			found = append(found, word)
		}
	}
	return found
}

// untranslated classifies one token: the English word it is, and true, when
// it is a word that is not kept.
func (t *Terms) untranslated(tok token, afterNumber bool) (string, bool) {
	s := tok.text
	if strings.HasPrefix(s, "-") && len(s) > 1 && !strings.HasPrefix(s, "--") && !isLatinLetter(firstRune(s[1:])) {
		// "-" before something other than a letter is a sign or a dash.
		s = strings.TrimLeft(s, "-")
	}
	if strings.HasPrefix(s, "-") {
		return "", false // a flag: --cascade, -l
	}
	s = strings.Trim(s, ".-_"+codePunct)
	switch {
	case s == "":
		return "", false
	case strings.ContainsAny(s, codePunct):
		return "", false
	case strings.ContainsFunc(s, unicode.IsDigit):
		return "", false
	case latinLetters(s) < 2:
		return "", false
	case afterNumber && tok.spaceBefore && slices.Contains(units, s):
		return "", false
	case t.keptSet[s]:
		return "", false
	}
	return s, true
}

// token is a run of the characters a word or a piece of code is made of.
type token struct {
	text        string
	spaceBefore bool // only spaces separate it from the token before
}

func (tok token) isNumber() bool {
	return tok.text != "" && strings.Trim(tok.text, "0123456789.,") == "" && strings.ContainsFunc(tok.text, unicode.IsDigit)
}

// tokens yields the tokens of text in order. A token is a maximal run of
// Latin letters, digits and the characters of "._-" and codePunct; anything
// else (a Han character, a space, full-width punctuation) ends it.
func tokens(text string) iter.Seq[token] {
	return func(yield func(token) bool) {
		start := -1
		onlySpaces := false // since the end of the previous token
		for i, r := range text {
			if isTokenRune(r) {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 {
				if !yield(token{text: text[start:i], spaceBefore: onlySpaces}) {
					return
				}
				start = -1
				onlySpaces = true
			}
			if r != ' ' && r != '\u00a0' {
				onlySpaces = false
			}
		}
		if start >= 0 {
			yield(token{text: text[start:], spaceBefore: onlySpaces})
		}
	}
}

func isTokenRune(r rune) bool {
	return isLatinLetter(r) || (r < utf8.RuneSelf && unicode.IsDigit(r)) || strings.ContainsRune("._-"+codePunct, r)
}

func isLatinLetter(r rune) bool {
	return unicode.IsLetter(r) && unicode.Is(unicode.Latin, r) && !isFullWidth(r)
}

// isFullWidth reports whether r is a full-width form (Ｐｏｄ): Chinese
// typesetting, not an English word, and not a token character.
func isFullWidth(r rune) bool { return r >= 0xFF01 && r <= 0xFF5E }

func latinLetters(s string) int {
	n := 0
	for _, r := range s {
		if isLatinLetter(r) {
			n++
		}
	}
	return n
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// textMarkup matches the markup of the page's texts, as ui-glossary.js's
// format reads it: {{id}} or {{id|words}}, an entry id being lower-case
// letters, digits and hyphens, and {name}, a value's name. A name may have
// capitals and digits here (a catalogue may write {podCount}); the check is
// the more lenient for it, never the stricter.
// Its groups are the id and the words of a reference, and a value's name.
var textMarkup = regexp.MustCompile(`\{\{([a-z0-9-]+)(?:\|([^}]*))?\}\}|\{([A-Za-z][A-Za-z0-9_]*)\}`)

// stripTextMarkup reduces the page's markup to what a reader sees, as far
// as the word check is concerned: {{id|words}} to its words, so that a
// gloss after them (（sync）) still follows its translation; {{id}} to
// nothing, since the entry's term is another text, checked where it is
// written; {name} to a number, the value it most often stands for.
func stripTextMarkup(text string) string {
	return textMarkup.ReplaceAllStringFunc(text, func(m string) string {
		switch {
		case !strings.HasPrefix(m, "{{"):
			return "0"
		case strings.Contains(m, "|"):
			return textMarkup.FindStringSubmatch(m)[2]
		default:
			return " "
		}
	})
}

// removeGlosses blanks out each "（English）" that follows the translation
// of English. Parentheses may nest (（先扩容（scale up），再缩容）): each
// closing one pairs with the latest opening one still open, so the inner
// gloss is found.
func (t *Terms) removeGlosses(text string) string {
	const open, closing = "（", "）"
	out := []byte(text)
	var opened []int // byte offsets of the "（" still open
	for i := 0; i < len(text); {
		switch {
		case strings.HasPrefix(text[i:], open):
			opened = append(opened, i)
			i += len(open)
		case strings.HasPrefix(text[i:], closing) && len(opened) > 0:
			start := opened[len(opened)-1]
			opened = opened[:len(opened)-1]
			gloss := text[start+len(open) : i]
			i += len(closing)
			if tr, ok := t.byFold[strings.ToLower(gloss)]; ok && strings.HasSuffix(text[:start], t.translations[tr].Text) {
				for j := start; j < i; j++ {
					out[j] = ' '
				}
			}
		default:
			_, n := utf8.DecodeRuneInString(text[i:])
			i += n
		}
	}
	return string(out)
}

// removePhrases blanks out the kept terms with a space in them where they
// stand whole, between non-letters, longest first, so that their words are
// not taken one by one.
func (t *Terms) removePhrases(text string) string {
	for _, p := range t.phrases {
		var b strings.Builder
		rest := text
		for {
			i := strings.Index(rest, p)
			if i < 0 {
				b.WriteString(rest)
				break
			}
			before, _ := utf8.DecodeLastRuneInString(rest[:i])
			after, _ := utf8.DecodeRuneInString(rest[i+len(p):])
			if (i > 0 && isTokenRune(before)) || (i+len(p) < len(rest) && isTokenRune(after)) {
				b.WriteString(rest[:i+len(p)])
			} else {
				b.WriteString(rest[:i])
				b.WriteString(strings.Repeat(" ", len(p)))
			}
			rest = rest[i+len(p):]
		}
		text = b.String()
	}
	return text
}

// stripMarkdownCode reduces Markdown to the words a reader sees: it blanks
// out inline code spans and the code in fenced blocks, turns each link into
// its text and drops emphasis marks, so that a first-use gloss after a link
// or in bold (**控制器**（controller）) still follows its translation. A
// line starting with ``` opens or closes a fence. Of a fenced block only the
// words a learner reads are kept: a predict block's question, choices and
// explanation (without their "=> expect" parts and check boxes), and the
// comments of the other blocks (# 创建 ReplicaSet). A run of backticks opens
// a span that the next run of as many backticks closes (an unclosed run is
// left alone, as Markdown renders it).
func stripMarkdownCode(text string) string {
	lines := strings.Split(text, "\n")
	fence := "" // the info string of the open fence, "" outside one
	inFence := false
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		if strings.HasPrefix(trimmed, "```") {
			if inFence {
				inFence, fence = false, ""
			} else {
				inFence, fence = true, strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))
			}
			lines[i] = ""
			continue
		}
		if !inFence {
			continue
		}
		switch {
		case fence == "predict":
			if before, _, found := strings.Cut(l, "=>"); found {
				l = before
			}
			for _, box := range []string{"- [x]", "- [X]", "- [ ]"} {
				l = strings.Replace(l, box, "", 1)
			}
			lines[i] = l
		case strings.HasPrefix(trimmed, "#"):
			lines[i] = strings.TrimPrefix(trimmed, "#")
		default:
			lines[i] = ""
		}
	}
	// A code span may run across a line break, as Markdown allows, so
	// spans are found in the text as a whole.
	text = linkTexts(stripCodeSpans(strings.Join(lines, "\n")))
	return strings.ReplaceAll(text, "*", "")
}

// stripCodeSpans blanks out inline code spans.
func stripCodeSpans(l string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(l, '`')
		if i < 0 {
			b.WriteString(l)
			return b.String()
		}
		n := i
		for n < len(l) && l[n] == '`' {
			n++
		}
		ticks := l[i:n]
		end := closingRun(l[n:], len(ticks))
		if end < 0 {
			b.WriteString(l[:n])
			l = l[n:]
			continue
		}
		b.WriteString(l[:i])
		b.WriteByte(' ')
		l = l[n+end+len(ticks):]
	}
}

// closingRun returns the index in s of the first run of exactly n
// backticks, or -1.
func closingRun(s string, n int) int {
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j-i == n {
			return i
		}
		i = j
	}
	return -1
}

// linkTexts turns each Markdown link, [text](target), into its text, as the
// page shows it.
func linkTexts(l string) string {
	var b strings.Builder
	for {
		i := strings.Index(l, "](")
		if i < 0 {
			b.WriteString(l)
			return b.String()
		}
		end := strings.IndexByte(l[i+2:], ')')
		if end < 0 {
			b.WriteString(l)
			return b.String()
		}
		open := strings.LastIndexByte(l[:i], '[')
		if open < 0 {
			// A "](" with no "[" before it is not a link: keep it as text.
			b.WriteString(l[:i+2])
			l = l[i+2:]
			continue
		}
		b.WriteString(l[:open])
		b.WriteString(l[open+1 : i])
		l = l[i+2+end+1:]
	}
}
