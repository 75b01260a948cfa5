package lessons

import (
	"encoding/json"
	"flag"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/lesson"
	"github.com/reconcilelab/rlab/core/loop"
	"github.com/reconcilelab/rlab/core/script"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/internal/lessonlint"
)

// TestEveryLessonWorks is the proof CI runs for every lesson: it parses, the
// reference solution meets its goal, setup alone does not, and every page's
// checks hold when its do blocks are run in order.
func TestEveryLessonWorks(t *testing.T) {
	all, err := Parse()
	require.NoError(t, err)
	require.NotEmpty(t, all)

	for _, l := range all {
		t.Run(l.ID, func(t *testing.T) {
			assert.NoError(t, lesson.Check(l))
		})
	}
}

// TestEveryLessonStepIsOnTheLoop: every step a lesson runs, its setup, its
// pages' do blocks in order and its reference solution, has its place on the
// page's picture of the loop (core/loop), which lights it as the learner
// steps.
func TestEveryLessonStepIsOnTheLoop(t *testing.T) {
	all, err := Parse()
	require.NoError(t, err)
	for _, l := range all {
		t.Run(l.ID, func(t *testing.T) {
			var unplaced []string
			steps := 0
			opts := script.Options{SnapshotEvery: -1, OnStep: func(step sim.StepResult) {
				steps++
				if _, ok := loop.Of(step); !ok {
					unplaced = append(unplaced, step.TraceLine())
				}
			}}
			guide := script.NewSession(opts)
			require.NoError(t, guide.RunScript(l.Setup.Script))
			for _, p := range l.Pages {
				for _, b := range p.Blocks {
					if b.Kind == lesson.KindDo {
						require.NoError(t, guide.RunScript(b.Script))
					}
				}
			}
			solved := script.NewSession(opts)
			require.NoError(t, solved.RunScript(l.Setup.Script))
			require.NoError(t, solved.RunScript(l.Solution.Script))
			require.Positive(t, steps, "the lesson ran no steps")
			assert.Empty(t, unplaced, "steps with no place on the loop: give their actor and function a rule in core/loop's rules")
		})
	}
}

func TestAPodDiesLesson(t *testing.T) {
	all, err := Parse()
	require.NoError(t, err)
	l := all[1]

	assert.Equal(t, "02-a-pod-dies", l.ID)
	assert.Equal(t, "A pod dies", l.Title)
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
		kill.Blocks[0].Predict.Choices[kill.Blocks[0].Predict.Answer].Text)
}

// updateBundle rewrites bundle.json: go test ./lessons -run TestBundleIsCurrent -update.
var updateBundle = flag.Bool("update", false, "rewrite bundle.json from the lesson files")

// TestBundleIsCurrent keeps bundle.json, which the page's engine loads, equal
// to what the lesson files parse to, so that a lesson changed or added
// without rewriting the bundle fails here, not in the browser.
func TestBundleIsCurrent(t *testing.T) {
	parsed, err := Parse()
	require.NoError(t, err)
	want, err := lesson.MarshalBundle(parsed)
	require.NoError(t, err)
	if *updateBundle {
		require.NoError(t, os.WriteFile("bundle.json", want, 0o644))
	}
	got, err := os.ReadFile("bundle.json")
	require.NoError(t, err)
	require.Equal(t, string(want), string(got),
		"bundle.json is not what the lesson files parse to; run: go test ./lessons -run TestBundleIsCurrent -update")
}

// TestBundleHoldsWhatParseReads proves the bundle loses nothing: the lessons
// All loads from it, commands and their positions included, are those Parse
// reads from the files.
func TestBundleHoldsWhatParseReads(t *testing.T) {
	parsed, err := Parse()
	require.NoError(t, err)
	loaded, err := All()
	require.NoError(t, err)
	require.Equal(t, parsed, loaded)
}

// TestBundleListsTranslationsInTheOrderOfLanguages reads bundle.json as
// the page does, as plain JSON, and finds each lesson's translations in
// the order of lesson.Languages, each language once: the page shows a
// lesson's languages in that order, and finds a language by its "lang".
func TestBundleListsTranslationsInTheOrderOfLanguages(t *testing.T) {
	var bundle []struct {
		ID           string `json:"id"`
		Translations []struct {
			Lang string `json:"lang"`
		} `json:"translations"`
	}
	require.NoError(t, json.Unmarshal(Bundle(), &bundle))
	require.NotEmpty(t, bundle)
	translated := 0
	for _, l := range bundle {
		var langs []string
		for _, tr := range l.Translations {
			langs = append(langs, tr.Lang)
		}
		var want []string
		for _, lang := range lesson.Languages[1:] {
			if slices.Contains(langs, lang) {
				want = append(want, lang)
			}
		}
		assert.Equal(t, want, langs, "%s lists its translations out of the order of %v, or one twice, or one it does not ship", l.ID, lesson.Languages)
		if slices.Equal(langs, lesson.Languages[1:]) {
			translated++
		}
	}
	assert.Equal(t, len(bundle), translated, "every lesson ships in every language")
}

// TestEveryLessonLinksSomewhereAndIsWrittenInItsLanguages: every glossary link
// names an entry of the page's glossary, and every upstream link a function
// core/source links to or a file of the upstream manifest; every glossary
// term is linked where a lesson first uses it; every translation links what
// the English links and leaves no English word its table of terms does not
// keep (internal/lessonlint).
func TestEveryLessonLinksSomewhereAndIsWrittenInItsLanguages(t *testing.T) {
	js, err := os.ReadFile("../site/glossary.js")
	require.NoError(t, err)
	glossary, err := lessonlint.Glossary(string(js))
	require.NoError(t, err)
	all, err := Parse()
	require.NoError(t, err)
	for _, l := range all {
		assert.Empty(t, lessonlint.Lint(l, glossary), l.ID)
	}
}
