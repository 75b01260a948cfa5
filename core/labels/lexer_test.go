package labels

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// lexAll returns the kinds and texts of every token before the end.
func lexAll(input string) (kinds []tokenKind, texts []string) {
	l := lexer{input: input}
	for {
		t := l.next()
		if t.kind == tokenEnd {
			return kinds, texts
		}
		kinds = append(kinds, t.kind)
		texts = append(texts, l.text(t))
	}
}

// TestLexer: each operator, keyword and special character lexes to its own token,
// the longest operator wins ("!=" over "!", "==" over "="), and characters that
// are not special belong to identifiers, even "~" and "||".
func TestLexer(t *testing.T) {
	tests := []struct {
		input string
		kind  tokenKind
	}{
		{"", tokenEnd},
		{",", tokenComma},
		{"notin", tokenNotIn},
		{"in", tokenIn},
		{"=", tokenEquals},
		{"==", tokenDoubleEquals},
		{">", tokenGreaterThan},
		{"<", tokenLessThan},
		{"!", tokenNot},
		{"!=", tokenNotEquals},
		{"(", tokenOpenParen},
		{")", tokenCloseParen},
		{"~", tokenIdentifier},
		{"||", tokenIdentifier},
		{"innot", tokenIdentifier},
		{"IN", tokenIdentifier},
	}
	for _, tt := range tests {
		l := lexer{input: tt.input}
		got := l.next()
		assert.Equal(t, tt.kind, got.kind, "kind of %q", tt.input)
		assert.Equal(t, tt.input, l.text(got), "text of %q", tt.input)
		assert.Equal(t, tokenEnd, l.next().kind, "%q is one token", tt.input)
	}
}

// TestLexerSequence: whole selectors split into the expected token sequences, with
// spaces ignored and keywords recognised wherever they stand.
func TestLexerSequence(t *testing.T) {
	tests := []struct {
		input string
		kinds []tokenKind
	}{
		{"key in ( value )", []tokenKind{tokenIdentifier, tokenIn, tokenOpenParen, tokenIdentifier, tokenCloseParen}},
		{"key notin ( value )", []tokenKind{tokenIdentifier, tokenNotIn, tokenOpenParen, tokenIdentifier, tokenCloseParen}},
		{"key in ( value1, value2 )", []tokenKind{tokenIdentifier, tokenIn, tokenOpenParen, tokenIdentifier, tokenComma, tokenIdentifier, tokenCloseParen}},
		{"key", []tokenKind{tokenIdentifier}},
		{"!key", []tokenKind{tokenNot, tokenIdentifier}},
		{"()", []tokenKind{tokenOpenParen, tokenCloseParen}},
		{"x in (),y", []tokenKind{tokenIdentifier, tokenIn, tokenOpenParen, tokenCloseParen, tokenComma, tokenIdentifier}},
		{"== != (), = notin", []tokenKind{tokenDoubleEquals, tokenNotEquals, tokenOpenParen, tokenCloseParen, tokenComma, tokenEquals, tokenNotIn}},
		{"key>2", []tokenKind{tokenIdentifier, tokenGreaterThan, tokenIdentifier}},
		{"key<1", []tokenKind{tokenIdentifier, tokenLessThan, tokenIdentifier}},
		// Operators are at most two characters long.
		{"===", []tokenKind{tokenDoubleEquals, tokenEquals}},
		{"!==", []tokenKind{tokenNotEquals, tokenEquals}},
		{"!!", []tokenKind{tokenNot, tokenNot}},
		{"=!", []tokenKind{tokenEquals, tokenNot}},
		{">=", []tokenKind{tokenGreaterThan, tokenEquals}},
		// Only space, tab, CR and LF separate; other control characters do not.
		{"a\t\r\nb", []tokenKind{tokenIdentifier, tokenIdentifier}},
		{"a\vb", []tokenKind{tokenIdentifier}},
	}
	for _, tt := range tests {
		kinds, _ := lexAll(tt.input)
		assert.Equal(t, tt.kinds, kinds, "tokens of %q", tt.input)
	}
}

// TestLexerNULBytes: a NUL byte ends the input where a token would start, and is
// swallowed when it directly follows a token, as upstream's reader makes it.
func TestLexerNULBytes(t *testing.T) {
	tests := []struct {
		input string
		texts []string
	}{
		{"\x00x", nil},
		{"x \x00 y", []string{"x"}},
		{"x\x00y", []string{"x", "y"}},
		{"x=\x00a", []string{"x", "=", "a"}},
		{"x=\x00\x00a", []string{"x", "="}},
		{"!=\x00=", []string{"!=", "="}},
	}
	for _, tt := range tests {
		_, texts := lexAll(tt.input)
		assert.Equal(t, tt.texts, texts, "tokens of %q", tt.input)
	}
}

// TestLexerEndIsSticky: once the end has been returned, the lexer never looks
// further, even when input is left after a NUL.
func TestLexerEndIsSticky(t *testing.T) {
	l := lexer{input: "a \x00 b"}
	assert.Equal(t, "a", l.text(l.next()))
	assert.Equal(t, tokenEnd, l.next().kind)
	assert.Equal(t, tokenEnd, l.next().kind)
}

// TestLexerPositions: tokens know their byte offset, for error messages.
func TestLexerPositions(t *testing.T) {
	l := lexer{input: "  ab != (c)"}
	for _, want := range []int{2, 5, 8, 9, 10, 11} {
		assert.Equal(t, want, l.next().start)
	}
}
