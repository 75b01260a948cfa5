package script

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/agnivade/levenshtein"
)

// ParseError is one thing wrong with a script, found before anything ran. It
// says where (Line and Col, both from 1; Col counts bytes, as the Go toolchain
// does), what was wrong and what would be right:
//
//	3:1: unknown command "scael"; did you mean "scale"?
//	lesson 05-orphans.txtar, goal:3:15: unknown field "status.ready"; did you mean "status.readyReplicas"?
//
// File, when set, is printed before the position with a colon; it may be a file
// name or any prefix a caller wants ("lesson 05-orphans.txtar, goal").
type ParseError struct {
	File string
	Line int
	Col  int
	// Msg says what was wrong, without the suggestions.
	Msg string
	// Suggestions are the valid words closest to what was written, best first
	// (by Levenshtein distance; ties in the order of the command table).
	Suggestions []string
	// Hint says what is valid; Error prints it when there is no suggestion.
	Hint string
}

// Error formats the error as file:line:col: message; did you mean "x"?
func (e *ParseError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	b.WriteString(strconv.Itoa(e.Line))
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(e.Col))
	b.WriteString(": ")
	b.WriteString(withSuggestions(e.Msg, e.Suggestions, e.Hint))
	return b.String()
}

// withSuggestions appends to msg `; did you mean "x" or "y"?`, or, when there
// is no suggestion, "; " and the hint, if any.
func withSuggestions(msg string, suggestions []string, hint string) string {
	var b strings.Builder
	b.WriteString(msg)
	switch {
	case len(suggestions) > 0:
		b.WriteString("; did you mean ")
		for i, s := range suggestions {
			switch {
			case i == 0:
			case i == len(suggestions)-1:
				b.WriteString(" or ")
			default:
				b.WriteString(", ")
			}
			b.WriteString(strconv.Quote(s))
		}
		b.WriteByte('?')
	case hint != "":
		b.WriteString("; ")
		b.WriteString(hint)
	}
	return b.String()
}

// ErrorList is every parse error of a script, in source order, one per line at
// most. Parse returns one as its error; errors.As finds the first *ParseError
// in it.
type ErrorList []*ParseError

// maxErrors is how many errors Parse collects before it stops reading: past a
// handful, the rest are usually echoes of the first.
const maxErrors = 10

// Error prints one error per line.
func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap lets errors.As and errors.Is look at each error.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// FirstError returns the first *ParseError in err, which may be a *ParseError
// or an ErrorList, or nil when there is none.
func FirstError(err error) *ParseError {
	var pe *ParseError
	if errors.As(err, &pe) {
		return pe
	}
	return nil
}

// errAt builds an error at a token's first character.
func errAt(t Token, msg string) *ParseError {
	return &ParseError{Line: t.Line, Col: t.Col, Msg: msg}
}

// unknown builds the error for a word that is not one of the valid ones:
// `unknown what "word"; did you mean "x"?`, or, with no close match, the
// hint (which should list what is valid).
func unknown(t Token, what, word string, valid []string, hint string) *ParseError {
	return &ParseError{Line: t.Line, Col: t.Col,
		Msg:         "unknown " + what + " " + strconv.Quote(word),
		Suggestions: Suggest(word, valid),
		Hint:        hint}
}

// maxSuggestions caps the suggestions one error offers.
const maxSuggestions = 3

// Suggest returns the candidates closest to word, for "did you mean". A
// candidate qualifies when its Levenshtein distance to word (compared without
// case) is small for word's length (1 for up to 3 characters, 2 up to 6, then
// 3), or when it starts with word (so "status.ready" finds
// "status.readyReplicas"). Only the qualifying candidates at the smallest
// distance are returned, at most three, in the order of candidates; duplicates
// count once, and a candidate equal to word is never suggested.
func Suggest(word string, candidates []string) []string {
	if word == "" {
		return nil
	}
	lw := strings.ToLower(word)
	limit := min(max((len(lw)+2)/3, 1), 3)
	best := -1
	var out []string
	for _, c := range candidates {
		if c == word || slices.Contains(out, c) {
			continue
		}
		lc := strings.ToLower(c)
		prefix := len(lw) >= 3 && strings.HasPrefix(lc, lw)
		if !prefix && (len(lw) > len(lc)+limit || len(lc) > len(lw)+limit) {
			continue // the lengths alone put it out of reach
		}
		d := levenshtein.ComputeDistance(lw, lc)
		if d > limit && !prefix {
			continue
		}
		switch {
		case best < 0 || d < best:
			best = d
			out = append(out[:0], c)
		case d == best && len(out) < maxSuggestions:
			out = append(out, c)
		}
	}
	return out
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
