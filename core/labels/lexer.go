package labels

// tokenKind is what a token is to the grammar.
type tokenKind uint8

const (
	tokenEnd          tokenKind = iota // the end of the input
	tokenIdentifier                    // a key or a value
	tokenIn                            // the keyword "in"
	tokenNotIn                         // the keyword "notin"
	tokenNot                           // "!"
	tokenEquals                        // "="
	tokenDoubleEquals                  // "=="
	tokenNotEquals                     // "!="
	tokenGreaterThan                   // ">"
	tokenLessThan                      // "<"
	tokenOpenParen                     // "("
	tokenCloseParen                    // ")"
	tokenComma                         // ","
)

// token is one lexeme of a selector string: the bytes input[start:end]. It holds
// offsets rather than the text itself, so that copying tokens around writes no
// pointers, which keeps the garbage collector's write barriers out of the
// parser's inner loop. For the end token, start is where the input ended.
type token struct {
	kind       tokenKind
	start, end int
}

// text returns the token's bytes.
func (l *lexer) text(t token) string { return l.input[t.start:t.end] }

// describe names a token for an error message: its text in quotes, or "end of
// string".
func (l *lexer) describe(t token) string {
	if t.kind == tokenEnd {
		return "end of string"
	}
	return "'" + l.text(t) + "'"
}

// lexer splits a selector string into tokens, byte by byte, as upstream's Lexer
// does:
//   - Space, tab, CR and LF separate tokens and are otherwise ignored.
//   - The special characters = ! ( ) , > < form operators. The longest operator
//     wins, and no operator is longer than two characters, so "==" and "!=" are one
//     token each, and "!!" or "=(" are two.
//   - Any other run of bytes is an identifier, except that the runs "in" and
//     "notin" are keywords. Whether a keyword acts as an operator or as a plain
//     value is the parser's call, not the lexer's.
//   - A NUL byte ends the input when a token would start there, and is swallowed
//     when it directly follows a token. Upstream reads a zero byte as "no more
//     input", which gives exactly this; it is reproduced so that both accept the
//     same strings.
type lexer struct {
	input string
	pos   int
	// done is set once the end has been returned: upstream stops lexing there, so
	// whatever follows an early NUL is never looked at.
	done bool
}

// next returns the next token; after the end, it keeps returning the end.
func (l *lexer) next() token {
	for !l.done && l.pos < len(l.input) && isSelectorSpace(l.input[l.pos]) {
		l.pos++
	}
	start := l.pos
	if l.done || start >= len(l.input) || l.input[start] == 0 {
		l.done = true
		return token{kind: tokenEnd, start: start, end: start}
	}

	var kind tokenKind
	if c := l.input[start]; isSelectorSpecial(c) {
		l.pos++
		kind = specialKinds[c]
		if c == '=' || c == '!' {
			if l.pos < len(l.input) && l.input[l.pos] == '=' {
				l.pos++
				kind = tokenDoubleEquals
				if c == '!' {
					kind = tokenNotEquals
				}
			}
		}
	} else {
		for l.pos < len(l.input) {
			c := l.input[l.pos]
			if c == 0 || isSelectorSpace(c) || isSelectorSpecial(c) {
				break
			}
			l.pos++
		}
		kind = tokenIdentifier
		switch l.input[start:l.pos] {
		case "in":
			kind = tokenIn
		case "notin":
			kind = tokenNotIn
		}
	}
	end := l.pos
	if l.pos < len(l.input) && l.input[l.pos] == 0 {
		l.pos++ // a NUL right after a token goes with it (see the type's comment)
	}
	return token{kind: kind, start: start, end: end}
}

// specialKinds maps each special character to its one-character token.
var specialKinds = [256]tokenKind{
	'=': tokenEquals,
	'!': tokenNot,
	'(': tokenOpenParen,
	')': tokenCloseParen,
	',': tokenComma,
	'>': tokenGreaterThan,
	'<': tokenLessThan,
}

func isSelectorSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n'
}

func isSelectorSpecial(c byte) bool {
	switch c {
	case '=', '!', '(', ')', ',', '>', '<':
		return true
	}
	return false
}
