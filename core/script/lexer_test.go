package script

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// words lexes a line and returns each token's text and column.
func words(t *testing.T, line string) ([]string, []int) {
	t.Helper()
	sl, ok, perr := lexLine(line, 1)
	require.Nil(t, perr)
	if !ok {
		return nil, nil
	}
	var texts []string
	var cols []int
	for _, tok := range sl.Tokens {
		texts = append(texts, tok.Text)
		cols = append(cols, tok.Col)
	}
	return texts, cols
}

func TestLexSplitsOnSpacesAndTabs(t *testing.T) {
	texts, cols := words(t, "  scale\trs/web   --replicas=3 ")
	assert.Equal(t, []string{"scale", "rs/web", "--replicas=3"}, texts)
	assert.Equal(t, []int{3, 9, 18}, cols)
}

func TestLexQuotesGroupWords(t *testing.T) {
	texts, cols := words(t, `get pods -l "tier in (a, b)" --selector="x in (y)"`)
	assert.Equal(t, []string{"get", "pods", "-l", "tier in (a, b)", "--selector=x in (y)"}, texts)
	assert.Equal(t, []int{1, 5, 10, 13, 30}, cols)
}

func TestLexEscapesInsideQuotes(t *testing.T) {
	texts, _ := words(t, `annotate pod/x note="say \"hi\" \\ back\slash"`)
	assert.Equal(t, `note=say "hi" \ back\slash`, texts[2], `\" and \\ are escapes; any other backslash stays`)

	texts, _ = words(t, `a b\c`)
	assert.Equal(t, []string{"a", `b\c`}, texts, "outside quotes a backslash is an ordinary character")
}

func TestLexEmptyQuotesAreAWord(t *testing.T) {
	texts, _ := words(t, `get pods -l ""`)
	assert.Equal(t, []string{"get", "pods", "-l", ""}, texts)
}

func TestLexComments(t *testing.T) {
	texts, _ := words(t, "step 3 # three events")
	assert.Equal(t, []string{"step", "3"}, texts)

	texts, _ = words(t, "step 3# glued")
	assert.Equal(t, []string{"step", "3"}, texts, "# outside quotes starts a comment even inside a word")

	texts, _ = words(t, `annotate pod/x note="#1 # not a comment" # but this is`)
	assert.Equal(t, []string{"annotate", "pod/x", "note=#1 # not a comment"}, texts)

	texts, _ = words(t, "   # only a comment")
	assert.Nil(t, texts)
}

func TestLexLineText(t *testing.T) {
	sl, ok, perr := lexLine(`  label pods -l "a in (b)" c=d   # why`, 7)
	require.Nil(t, perr)
	require.True(t, ok)
	assert.Equal(t, `label pods -l "a in (b)" c=d`, sl.Text, "text as written: quotes kept, comment and blanks dropped")
	assert.Equal(t, 7, sl.Line)
	assert.Equal(t, 31, sl.End)
}

func TestLexUnterminatedQuote(t *testing.T) {
	_, _, perr := lexLine(`get pods -l "app=web`, 4)
	require.NotNil(t, perr)
	assert.Equal(t, `4:13: unterminated quoted string; add the closing " before the end of the line`, perr.Error())
}

func TestTokenColAtMapsIntoQuotedWords(t *testing.T) {
	sl, _, perr := lexLine(`x --sel="a \"b"c`, 1)
	require.Nil(t, perr)
	tok := sl.Tokens[1]
	require.Equal(t, `--sel=a "bc`, tok.Text)
	// --sel= is columns 3..8, the quote is 9, a is 10, space 11, \" 12-13, b 14,
	// closing quote 15, c 16.
	want := []int{3, 4, 5, 6, 7, 8, 10, 11, 12, 14, 16, 17}
	for i := range len(tok.Text) + 1 {
		assert.Equal(t, want[i], tok.ColAt(i), "byte %d", i)
	}
	assert.Equal(t, 10, tok.from(6).Col)
	assert.Equal(t, `"b`, tok.slice(8, 10).Text)
	assert.Equal(t, 12, tok.slice(8, 10).Col)
	assert.Equal(t, 16, tok.slice(8, 10).end())
}

func TestTokenColAtOnPlainWords(t *testing.T) {
	tok := Token{Text: "--replicas=abc", Line: 1, Col: 5}
	assert.Equal(t, 16, tok.ColAt(11))
	assert.Equal(t, 19, tok.ColAt(99), "clamped to just after the word")
	assert.Equal(t, 5, tok.ColAt(-1))
}

func TestSplitLinesDropsCarriageReturns(t *testing.T) {
	assert.Equal(t, []string{"a", "b", "", "c"}, splitLines("a\r\nb\n\nc"))
}

func TestLexPartial(t *testing.T) {
	for _, tc := range []struct {
		text    string
		words   []string
		current string
		start   int
		comment bool
	}{
		{"", nil, "", 0, false},
		{"sca", nil, "sca", 0, false},
		{"scale ", []string{"scale"}, "", 6, false},
		{"scale rs/w", []string{"scale"}, "rs/w", 6, false},
		{`get pods -l "a in (b`, []string{"get", "pods", "-l"}, "a in (b", 12, false},
		{`get -l "a b" --o`, []string{"get", "-l", "a b"}, "--o", 13, false},
		{"step # no", []string{"step"}, "", 0, true},
	} {
		p := lexPartial(tc.text)
		var ws []string
		for _, w := range p.words {
			ws = append(ws, w.Text)
		}
		assert.Equal(t, tc.words, ws, tc.text)
		assert.Equal(t, tc.current, p.current, tc.text)
		assert.Equal(t, tc.start, p.start, tc.text)
		assert.Equal(t, tc.comment, p.inComment, tc.text)
	}
}
