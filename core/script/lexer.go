package script

import "strings"

// Token is one word of a command line, with its quotes removed and its escapes
// applied, and where it was written.
type Token struct {
	// Text is the word as the command sees it: `"tier in (a,b)"` is the five
	// bytes-and-spaces tier in (a,b), without the quotes.
	Text string
	// Line and Col locate the word's first byte in the source, from 1. Col
	// counts bytes.
	Line, Col int
	// Quoted reports whether some part of the word was written in double quotes.
	Quoted bool

	// cols holds the source column of each byte of Text, and one more for the
	// position just after it, when the word held quotes or escapes; nil when
	// Text is the source verbatim, so byte i sits at Col+i.
	cols []int
}

// ColAt returns the source column of byte i of Text; i == len(Text) gives the
// column just after the word's last byte. It lets an error point inside a
// word, at the value of --replicas=abc rather than at the flag.
func (t Token) ColAt(i int) int {
	i = max(0, min(i, len(t.Text)))
	if t.cols != nil {
		return t.cols[i]
	}
	return t.Col + i
}

// from returns the part of t from byte i on, as a token of its own, with the
// positions it had in t.
func (t Token) from(i int) Token {
	i = max(0, min(i, len(t.Text)))
	s := Token{Text: t.Text[i:], Line: t.Line, Col: t.ColAt(i), Quoted: t.Quoted}
	if t.cols != nil {
		s.cols = t.cols[i:]
	}
	return s
}

// end returns the column just after the token.
func (t Token) end() int { return t.ColAt(len(t.Text)) }

// sourceLine is one line that holds a command: its words and its text.
type sourceLine struct {
	// Line is the line's number, from 1.
	Line int
	// Text is the command as written: from its first word to its last, quotes
	// included, comment and surrounding blanks excluded.
	Text string
	// Tokens are the words; there is at least one.
	Tokens []Token
	// End is the column just after the last word, where an error about
	// something missing points.
	End int
}

// splitLines cuts src into lines, dropping the \r of \r\n endings.
func splitLines(src string) []string {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// lexLine splits one line into words. Words are separated by spaces and tabs.
// A double-quoted part groups spaces into the word and may sit next to other
// characters ("--selector=\"tier in (a,b)\"" is one word); inside quotes \" is
// a quote and \\ a backslash, and every other backslash is kept as written. A #
// outside quotes starts a comment that runs to the end of the line. A line with
// no words gives ok == false.
func lexLine(text string, line int) (sl sourceLine, ok bool, perr *ParseError) {
	sl.Line = line
	first, last := -1, -1
	i := 0
	for i < len(text) {
		c := text[i]
		if c == ' ' || c == '\t' {
			i++
			continue
		}
		if c == '#' {
			break
		}
		start := i
		var b strings.Builder
		var cols []int
		quoted := false
		for i < len(text) {
			c := text[i]
			if c == ' ' || c == '\t' || c == '#' {
				break
			}
			if c != '"' {
				if cols != nil {
					cols = append(cols, i+1)
				}
				b.WriteByte(c)
				i++
				continue
			}
			// A quoted part: switch to recording columns byte by byte.
			if cols == nil {
				cols = make([]int, 0, b.Len()+8)
				for k := range b.Len() {
					cols = append(cols, start+k+1)
				}
			}
			quoted = true
			open := i
			i++
			closed := false
			for i < len(text) {
				c := text[i]
				if c == '"' {
					closed = true
					i++
					break
				}
				if c == '\\' && i+1 < len(text) && (text[i+1] == '"' || text[i+1] == '\\') {
					cols = append(cols, i+1)
					b.WriteByte(text[i+1])
					i += 2
					continue
				}
				cols = append(cols, i+1)
				b.WriteByte(c)
				i++
			}
			if !closed {
				return sl, false, &ParseError{Line: line, Col: open + 1,
					Msg: "unterminated quoted string", Hint: `add the closing " before the end of the line`}
			}
		}
		tok := Token{Text: b.String(), Line: line, Col: start + 1, Quoted: quoted}
		if cols != nil {
			tok.cols = append(cols, i+1)
		}
		sl.Tokens = append(sl.Tokens, tok)
		if first < 0 {
			first = start
		}
		last = i
	}
	if len(sl.Tokens) == 0 {
		return sl, false, nil
	}
	sl.Text = text[first:last]
	sl.End = last + 1
	return sl, true, nil
}

// partialLine is what completion needs of the text before the cursor: the
// words before the word being typed, and that word so far.
type partialLine struct {
	words []Token
	// current is the word under the cursor, possibly empty; start is its byte
	// offset in the line.
	current string
	start   int
	// inComment reports that the cursor sits in a comment, where nothing is
	// completed.
	inComment bool
}

// lexPartial splits text (a line up to the cursor) the way lexLine does, but
// forgives an unterminated quote: the open word is the one being typed.
func lexPartial(text string) partialLine {
	var p partialLine
	i := 0
	for i < len(text) {
		c := text[i]
		if c == ' ' || c == '\t' {
			i++
			continue
		}
		if c == '#' {
			p.inComment = true
			return p
		}
		start := i
		var b strings.Builder
		inQuote := false
		for i < len(text) {
			c := text[i]
			if inQuote {
				if c == '"' {
					inQuote = false
				} else if c == '\\' && i+1 < len(text) && (text[i+1] == '"' || text[i+1] == '\\') {
					b.WriteByte(text[i+1])
					i++
				} else {
					b.WriteByte(c)
				}
				i++
				continue
			}
			if c == ' ' || c == '\t' || c == '#' {
				break
			}
			if c == '"' {
				inQuote = true
			} else {
				b.WriteByte(c)
			}
			i++
		}
		if i == len(text) {
			p.current, p.start = b.String(), start
			return p
		}
		p.words = append(p.words, Token{Text: b.String(), Col: start + 1})
	}
	p.start = len(text)
	return p
}
