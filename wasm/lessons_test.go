package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/lessons"
)

// newBridge returns a bridge as the page's worker makes one: NewBridge, then
// setLessons with the text of lessons.json (which make wasm writes from the
// lessons package's bundle).
func newBridge(t testing.TB) *Bridge {
	t.Helper()
	b := NewBridge()
	_, err := b.SetLessons(SetLessonsArgs{Bundle: string(lessons.Bundle())})
	require.NoError(t, err)
	return b
}

// TestSetLessons: the lessons come only through setLessons; without them a
// lesson op says what is missing and the sandbox still loads; a reason the
// page could not fetch them is passed on; a bundle that is not one is
// refused and the lessons held stay.
func TestSetLessons(t *testing.T) {
	b := NewBridge()
	_, err := b.Lessons()
	require.ErrorContains(t, err, "no lessons were given to the engine: the page's worker hands over lessons.json (setLessons)")
	_, err = b.Load(LoadArgs{Lesson: "01-the-control-loop"})
	require.ErrorContains(t, err, "no lessons were given")
	_, err = b.Load(LoadArgs{})
	require.NoError(t, err, "the sandbox needs no lessons")

	_, err = b.SetLessons(SetLessonsArgs{Unavailable: "lessons.json: 404 Not Found"})
	require.NoError(t, err)
	_, err = b.Lessons()
	require.EqualError(t, err, "the lessons could not be loaded: lessons.json: 404 Not Found")

	list, err := b.SetLessons(SetLessonsArgs{Bundle: string(lessons.Bundle())})
	require.NoError(t, err)
	require.NotEmpty(t, list.Lessons)
	require.Equal(t, "01-the-control-loop", list.Lessons[0].ID)

	_, err = b.SetLessons(SetLessonsArgs{Bundle: `{"lessons": 1}`})
	require.ErrorContains(t, err, "lessons.json is not a lesson bundle this engine reads")
	_, err = b.SetLessons(SetLessonsArgs{})
	require.EqualError(t, err, "setLessons needs the text of lessons.json as bundle, or why it could not be fetched as unavailable")
	_, err = b.SetLessons(SetLessonsArgs{Bundle: "[]", Unavailable: "x"})
	require.EqualError(t, err, "setLessons takes a bundle or the reason there is none, not both")
	again, err := b.Lessons()
	require.NoError(t, err)
	require.Equal(t, list, again, "a refused bundle leaves the lessons held")

	// Through the op, as the worker sends it.
	answer := string(NewBridge().Handle([]byte(`{"op": "setLessons", "args": {"unavailable": "offline"}}`)))
	require.JSONEq(t, `{"result": {"lessons": []}}`, answer)
}
