package i18n

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// JSConstJSON reads an ES module whose only statement is
//
//	export const name = <literal>;
//
// and returns the literal as JSON, its keys in the order written. It is how
// a Go test reads the page's data files (site/glossary.js) without running
// JavaScript. The literal may hold objects, arrays and strings, and nothing
// else: keys are identifiers or strings, strings are in double or single
// quotes with JavaScript's escapes, and comments and trailing commas are
// allowed where JavaScript allows them. Anything else (a number, a template
// literal, a spread, a second statement) is refused with the line and column
// where it starts, as is a key written twice in one object, which JavaScript
// would take silently and which is always a mistake in a data file. file
// names the source in errors.
func JSConstJSON(src []byte, file, name string) ([]byte, error) {
	p := &literalParser{src: string(src), file: file, line: 1, col: 1}
	for _, word := range []string{"export", "const", name} {
		if err := p.expectWord(word); err != nil {
			return nil, err
		}
	}
	if err := p.expectPunct('='); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := p.value(&out); err != nil {
		return nil, err
	}
	if err := p.skipSpace(); err != nil {
		return nil, err
	}
	if p.peek() == ';' {
		p.next()
	}
	if err := p.expectEnd(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// JSONLiteral checks that src is one JSON value, as a browser's JSON.parse
// reads it, with no key written twice in any object (encoding/json would
// keep the last one silently), and returns it with its keys in the order
// written. file names the source in errors.
func JSONLiteral(src []byte, file string) ([]byte, error) {
	if !json.Valid(src) {
		// json.Unmarshal says where and why; Valid only says whether.
		var v any
		err := json.Unmarshal(src, &v)
		return nil, fmt.Errorf("%s: not valid JSON: %w", file, err)
	}
	p := &literalParser{src: string(src), file: file, line: 1, col: 1}
	var out bytes.Buffer
	if err := p.value(&out); err != nil {
		return nil, err
	}
	if err := p.expectEnd(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// literalParser reads a JavaScript object literal of strings from src,
// writing it out as JSON as it goes. pos is a byte offset into src; line
// and col are where pos is, 1-based, col counting characters.
type literalParser struct {
	src       string
	file      string
	pos       int
	line, col int
}

func (p *literalParser) errorf(line, col int, format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: %s", p.file, line, col, fmt.Sprintf(format, args...))
}

// peek returns the character at pos, or -1 at the end.
func (p *literalParser) peek() rune {
	if p.pos >= len(p.src) {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return r
}

// next moves past the character at pos and returns it.
func (p *literalParser) next() rune {
	r, n := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += n
	if r == '\n' {
		p.line++
		p.col = 1
	} else {
		p.col++
	}
	return r
}

// skipSpace moves past white space and comments.
func (p *literalParser) skipSpace() error {
	for p.pos < len(p.src) {
		switch {
		case unicode.IsSpace(p.peek()) || p.peek() == '\uFEFF':
			p.next()
		case strings.HasPrefix(p.src[p.pos:], "//"):
			for p.pos < len(p.src) && p.peek() != '\n' {
				p.next()
			}
		case strings.HasPrefix(p.src[p.pos:], "/*"):
			line, col := p.line, p.col
			end := strings.Index(p.src[p.pos+2:], "*/")
			if end < 0 {
				return p.errorf(line, col, "comment is not closed")
			}
			for stop := p.pos + 2 + end + 2; p.pos < stop; {
				p.next()
			}
		default:
			return nil
		}
	}
	return nil
}

// found describes what is at pos, for an error.
func (p *literalParser) found() string {
	if p.pos >= len(p.src) {
		return "the end of the file"
	}
	rest := p.src[p.pos:]
	if i := strings.IndexAny(rest, "\n"); i >= 0 {
		rest = rest[:i]
	}
	if utf8.RuneCountInString(rest) > 20 {
		rest = string([]rune(rest)[:20]) + "…"
	}
	return strconv.Quote(rest)
}

func (p *literalParser) expectWord(word string) error {
	if err := p.skipSpace(); err != nil {
		return err
	}
	line, col := p.line, p.col
	if got := p.identifier(); got != word {
		return p.errorf(line, col, "want %q, found %s", word, strconv.Quote(got))
	}
	return nil
}

func (p *literalParser) expectPunct(c rune) error {
	if err := p.skipSpace(); err != nil {
		return err
	}
	if p.peek() != c {
		return p.errorf(p.line, p.col, "want %q, found %s", c, p.found())
	}
	p.next()
	return nil
}

func (p *literalParser) expectEnd() error {
	if err := p.skipSpace(); err != nil {
		return err
	}
	if p.pos < len(p.src) {
		return p.errorf(p.line, p.col, "want the end of the file after the literal, found %s", p.found())
	}
	return nil
}

// identifier reads a JavaScript identifier of ASCII letters, digits, _ and
// $ at pos, or returns "" if there is none.
func (p *literalParser) identifier() string {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		isStart := c == '_' || c == '$' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
		if !isStart && (p.pos == start || c < '0' || c > '9') {
			break
		}
		p.next()
	}
	return p.src[start:p.pos]
}

// value reads one value at pos and writes it to out as JSON.
func (p *literalParser) value(out *bytes.Buffer) error {
	if err := p.skipSpace(); err != nil {
		return err
	}
	switch c := p.peek(); c {
	case '{':
		return p.object(out)
	case '[':
		return p.array(out)
	case '"', '\'':
		s, err := p.str()
		if err != nil {
			return err
		}
		writeJSONString(out, s)
		return nil
	case '`':
		return p.errorf(p.line, p.col, "a template literal: write a plain string in quotes, with no ${…} in it")
	default:
		return p.errorf(p.line, p.col, "want a string, an object or an array, found %s", p.found())
	}
}

func (p *literalParser) object(out *bytes.Buffer) error {
	p.next() // {
	out.WriteByte('{')
	seen := map[string]int{} // key -> line it was first written on
	for first := true; ; first = false {
		if err := p.skipSpace(); err != nil {
			return err
		}
		if p.peek() == '}' {
			p.next()
			out.WriteByte('}')
			return nil
		}
		if !first {
			if err := p.expectPunct(','); err != nil {
				return err
			}
			if err := p.skipSpace(); err != nil {
				return err
			}
			if p.peek() == '}' {
				continue // a trailing comma
			}
			out.WriteByte(',')
		}
		line, col := p.line, p.col
		var key string
		switch p.peek() {
		case '"', '\'':
			s, err := p.str()
			if err != nil {
				return err
			}
			key = s
		default:
			key = p.identifier()
			if key == "" {
				return p.errorf(line, col, "want a key (a name or a string), found %s", p.found())
			}
		}
		if prev, ok := seen[key]; ok {
			return p.errorf(line, col, "key %q is written twice in one object (first on line %d)", key, prev)
		}
		seen[key] = line
		writeJSONString(out, key)
		if err := p.expectPunct(':'); err != nil {
			return err
		}
		out.WriteByte(':')
		if err := p.value(out); err != nil {
			return err
		}
	}
}

func (p *literalParser) array(out *bytes.Buffer) error {
	p.next() // [
	out.WriteByte('[')
	for first := true; ; first = false {
		if err := p.skipSpace(); err != nil {
			return err
		}
		if p.peek() == ']' {
			p.next()
			out.WriteByte(']')
			return nil
		}
		if !first {
			if err := p.expectPunct(','); err != nil {
				return err
			}
			if err := p.skipSpace(); err != nil {
				return err
			}
			if p.peek() == ']' {
				continue // a trailing comma
			}
			out.WriteByte(',')
		}
		if err := p.value(out); err != nil {
			return err
		}
	}
}

// str reads a string literal in double or single quotes at pos and
// returns its value. It knows JavaScript's escapes, and refuses the octal
// ones, which strict mode (and so an ES module) does not allow.
func (p *literalParser) str() (string, error) {
	line, col := p.line, p.col
	quote := p.next()
	var b strings.Builder
	for {
		if p.pos >= len(p.src) {
			return "", p.errorf(line, col, "string is not closed")
		}
		c := p.next()
		switch c {
		case quote:
			return b.String(), nil
		case '\n', '\r':
			return "", p.errorf(line, col, "string is not closed before the end of its line")
		case '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		default:
			b.WriteRune(c)
		}
	}
}

// escape reads the escape sequence after a backslash and writes what it
// stands for to b.
func (p *literalParser) escape(b *strings.Builder) error {
	line, col := p.line, p.col-1
	if p.pos >= len(p.src) {
		return p.errorf(line, col, "string is not closed")
	}
	c := p.next()
	switch c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'v':
		b.WriteByte('\v')
	case '0':
		if r := p.peek(); r >= '0' && r <= '9' {
			return p.errorf(line, col, "an octal escape, which a module may not use")
		}
		b.WriteByte(0)
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return p.errorf(line, col, "an octal escape, which a module may not use")
	case '\n':
		// A line continuation stands for nothing.
	case '\r':
		if p.peek() == '\n' {
			p.next()
		}
	case 'x':
		r, err := p.hex(2, line, col)
		if err != nil {
			return err
		}
		b.WriteRune(r)
	case 'u':
		r, err := p.unicodeEscape(line, col)
		if err != nil {
			return err
		}
		// A surrogate pair is written as two escapes.
		if utf16.IsSurrogate(r) && strings.HasPrefix(p.src[p.pos:], `\u`) {
			save := *p
			p.next()
			p.next()
			low, err := p.unicodeEscape(line, col)
			if err == nil && utf16.DecodeRune(r, low) != unicode.ReplacementChar {
				r = utf16.DecodeRune(r, low)
			} else {
				*p = save
			}
		}
		b.WriteRune(r)
	default:
		// Any other character stands for itself: \" \' \\ \/.
		b.WriteRune(c)
	}
	return nil
}

// unicodeEscape reads the rest of \uXXXX or \u{X…}.
func (p *literalParser) unicodeEscape(line, col int) (rune, error) {
	if p.peek() != '{' {
		return p.hex(4, line, col)
	}
	p.next()
	end := strings.IndexByte(p.src[p.pos:], '}')
	if end < 1 || end > 6 {
		return 0, p.errorf(line, col, `a \u{…} escape needs 1 to 6 hex digits`)
	}
	r, err := p.hex(end, line, col)
	if err != nil {
		return 0, err
	}
	p.next() // }
	if r > unicode.MaxRune {
		return 0, p.errorf(line, col, `a \u{…} escape beyond U+10FFFF`)
	}
	return r, nil
}

// hex reads n hex digits as a code point.
func (p *literalParser) hex(n, line, col int) (rune, error) {
	if p.pos+n > len(p.src) {
		return 0, p.errorf(line, col, "an escape needs %d hex digits", n)
	}
	v, err := strconv.ParseUint(p.src[p.pos:p.pos+n], 16, 32)
	if err != nil {
		return 0, p.errorf(line, col, "an escape needs %d hex digits, found %q", n, p.src[p.pos:p.pos+n])
	}
	for range n {
		p.next()
	}
	return rune(v), nil
}

// writeJSONString writes s as a JSON string, without escaping <, > and &
// as json.Marshal would: the output is data, not HTML.
func writeJSONString(out *bytes.Buffer, s string) {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	// Encoding a string cannot fail.
	_ = enc.Encode(s)
	out.Truncate(out.Len() - 1) // Encode ends the value with a newline
}
