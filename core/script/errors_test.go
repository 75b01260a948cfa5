package script

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseErrorFormat(t *testing.T) {
	e := &ParseError{Line: 3, Col: 1, Msg: `unknown command "scael"`, Suggestions: []string{"scale"}}
	assert.Equal(t, `3:1: unknown command "scael"; did you mean "scale"?`, e.Error())

	e.File = "lesson 05-orphans.txtar, goal"
	assert.Equal(t, `lesson 05-orphans.txtar, goal:3:1: unknown command "scael"; did you mean "scale"?`, e.Error(),
		"any prefix stands before the position")

	e.Suggestions = []string{"a", "b"}
	assert.Equal(t, `lesson 05-orphans.txtar, goal:3:1: unknown command "scael"; did you mean "a" or "b"?`, e.Error())
	e.Suggestions = []string{"a", "b", "c"}
	assert.Contains(t, e.Error(), `did you mean "a", "b" or "c"?`)

	e = &ParseError{Line: 1, Col: 2, Msg: "bad", Hint: "want good"}
	assert.Equal(t, "1:2: bad; want good", e.Error(), "the hint shows when there is no suggestion")
	e.Suggestions = []string{"good"}
	assert.Equal(t, `1:2: bad; did you mean "good"?`, e.Error(), "a suggestion replaces the hint")
}

func TestErrorListUnwraps(t *testing.T) {
	first := &ParseError{Line: 1, Col: 1, Msg: "one"}
	list := ErrorList{first, {Line: 2, Col: 1, Msg: "two"}}
	assert.Equal(t, "1:1: one\n2:1: two", list.Error())

	var pe *ParseError
	require.True(t, errors.As(error(list), &pe))
	assert.Same(t, first, pe, "errors.As finds the first error")
	assert.Same(t, first, FirstError(list))
	assert.Same(t, first, FirstError(first))
	assert.Nil(t, FirstError(errors.New("other")))
}

func TestSuggest(t *testing.T) {
	table := []string{"create", "scale", "label", "annotate", "delete", "step", "stabilize", "status.readyReplicas", "status.replicas"}
	for _, tc := range []struct {
		word string
		want []string
	}{
		{"scael", []string{"scale"}},
		{"Scale", []string{"scale"}}, // case does not count as a difference
		{"stpe", []string{"step"}},   // a swap costs two edits, allowed from four characters
		{"stabilise", []string{"stabilize"}},
		{"status.ready", []string{"status.readyReplicas"}}, // a prefix qualifies whatever its distance
		{"xyzzy", nil},
		{"", nil},
		{"scale", nil}, // the word itself is never suggested
		{"lbel", []string{"label"}},
	} {
		assert.Equal(t, tc.want, Suggest(tc.word, table), tc.word)
	}
}

func TestSuggestRanksByDistanceThenTableOrder(t *testing.T) {
	assert.Equal(t, []string{"rs", "rc"}, Suggest("rz", []string{"pod", "rs", "rc", "node"}), "ties keep table order")
	assert.Equal(t, []string{"rc", "rs"}, Suggest("rz", []string{"pod", "rc", "rs", "node"}))
	assert.Equal(t, []string{"rcx"}, Suggest("rcxy", []string{"rsxyzz", "rcx"}), "the closest wins")
	assert.Len(t, Suggest("ab", []string{"aa", "bb", "ac", "ad", "ae"}), 3, "at most three")
	assert.Equal(t, []string{"x"}, Suggest("y", []string{"x", "x"}), "duplicates count once")
}

func TestOrList(t *testing.T) {
	assert.Equal(t, "", orList(nil))
	assert.Equal(t, "a", orList([]string{"a"}))
	assert.Equal(t, "a or b", orList([]string{"a", "b"}))
	assert.Equal(t, "a, b or c", orList([]string{"a", "b", "c"}))
}
