package lessons

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/lesson"
)

// TestEveryLessonWorks is the proof CI runs for every lesson: it parses, the
// reference solution meets its goal, setup alone does not, and every page's
// checks hold when its do blocks are run in order.
func TestEveryLessonWorks(t *testing.T) {
	all, err := All()
	require.NoError(t, err)
	require.NotEmpty(t, all)

	for _, l := range all {
		t.Run(l.ID, func(t *testing.T) {
			assert.NoError(t, lesson.Check(l))
		})
	}
}

func TestSelfHealingLesson(t *testing.T) {
	all, err := All()
	require.NoError(t, err)
	l := all[0]

	assert.Equal(t, "01-self-healing", l.ID)
	assert.Equal(t, "Self-healing", l.Title)
	assert.Equal(t, lesson.Beginner, l.Level)
	require.Len(t, l.Pages, 3)
	kill := l.Pages[1]
	var kinds []lesson.Kind
	for _, b := range kill.Blocks {
		kinds = append(kinds, b.Kind)
	}
	assert.Equal(t, []lesson.Kind{lesson.KindPredict, lesson.KindDo, lesson.KindCheck}, kinds,
		"the kill page asks, kills, then proves the answer")
	assert.Equal(t, "one: it counts two pods where it wants three",
		kill.Blocks[0].Predict.Choices[kill.Blocks[0].Predict.Answer])
}
