package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/lessons"
)

func TestLessonsListsTheBuiltInLessons(t *testing.T) {
	status, stdout, stderr := rlab(t, "lessons")

	assert.Equal(t, 0, status)
	assert.Empty(t, stderr)
	lines := strings.Split(stdout, "\n")
	// The columns are as wide as their longest cell.
	assert.Equal(t, []string{"ID", "LEVEL", "TITLE"}, strings.Fields(lines[0]))
	assert.Equal(t, []string{"01-the-control-loop", "beginner", "The", "control", "loop"}, strings.Fields(lines[1]))
	assert.Equal(t, []string{"02-a-pod-dies", "beginner", "A", "pod", "dies"}, strings.Fields(lines[2]))
	assert.Equal(t, strings.Index(lines[0], "LEVEL"), strings.Index(lines[1], "beginner"), "the columns line up")
}

func TestLessonsChoosesByIDNumberOrSlug(t *testing.T) {
	for _, id := range []string{"02-a-pod-dies", "02-a-pod-dies.txtar", "02", "2", "a-pod-dies"} {
		status, stdout, stderr := rlab(t, "lessons", id)

		assert.Equal(t, 0, status, id)
		assert.Empty(t, stderr, id)
		assert.Equal(t, 1, strings.Count(stdout, "02-a-pod-dies"), id)
	}
}

func TestLessonsRefusesAnUnknownLesson(t *testing.T) {
	status, stdout, stderr := rlab(t, "lessons", "a-pod-die")

	assert.Equal(t, 2, status)
	assert.Empty(t, stdout)
	assert.Equal(t, "rlab lessons: unknown lesson \"a-pod-die\"; did you mean \"a-pod-dies\"?\n"+
		"Run 'rlab lessons' for the list.\n", stderr)
}

func TestLessonsCheckProvesTheBuiltInLessons(t *testing.T) {
	status, stdout, stderr := rlab(t, "lessons", "--check", "--site=../../site")

	assert.Equal(t, 0, status, stderr)
	assert.Empty(t, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	assert.Equal(t, []string{"ID", "LEVEL", "TITLE", "CHECK", "LANGUAGES"}, strings.Fields(lines[0]))
	// It says which languages it proved: every lesson's every language.
	for _, line := range lines[1:] {
		assert.True(t, strings.HasSuffix(line, "  ok     en, zh-CN"), line)
	}
}

// TestLessonsCheckProvesEveryLanguage: a translation whose structure
// differs from the English fails, named by lesson, file, page and block;
// a lesson without every language fails.
func TestLessonsCheckProvesEveryLanguage(t *testing.T) {
	data, err := fs.ReadFile(lessons.FS(), "01-the-control-loop.txtar")
	require.NoError(t, err)
	dir := t.TempDir()
	// Lesson 01 whose zh-CN first page asks nothing before its do block.
	changed := strings.Replace(string(data), "```predict\nAPI 服务器存储了这个 ReplicaSet 之后", "```text\nAPI 服务器存储了这个 ReplicaSet 之后", 1)
	require.NotEqual(t, string(data), changed)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "01-the-control-loop.txtar"), []byte(changed), 0o644))

	status, stdout, stderr := rlab(t, "lessons", "--check", "--dir="+dir, "--site=../../site")

	assert.Equal(t, 1, status)
	assert.Empty(t, stdout)
	assert.Equal(t, "lesson 01-the-control-loop.txtar, guide.zh-CN.md:14:1: page 1, block 1: the English page has a predict block here (guide.md:11), the zh-CN page has a do block; "+
		"a translation has the English blocks, in the same order\n", stderr)

	// Lesson 02 in English alone.
	data, err = fs.ReadFile(lessons.FS(), "02-a-pod-dies.txtar")
	require.NoError(t, err)
	english := withoutLanguage(string(data), "zh-CN")
	require.NotContains(t, english, "zh-CN")
	dir = t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "07-broken.txtar"), []byte(english), 0o644))
	status, stdout, stderr = rlab(t, "lessons", "--check", "--dir="+dir, "--site=../../site")
	assert.Equal(t, 1, status)
	assert.Contains(t, stdout, "07-broken  beginner  A pod dies  FAIL   en\n")
	assert.Contains(t, stderr, "lesson 07-broken.txtar: every lesson ships in every language the project ships (en and zh-CN), "+
		"but it has no zh-CN translation: write guide.zh-CN.md, hints.zh-CN, title.zh-CN: and summary.zh-CN:\n")
}

// withoutLanguage returns the lesson file data without its translation
// into lang: its title.LANG: and summary.LANG: lines and its guide.LANG.md
// and hints.LANG files.
func withoutLanguage(data, lang string) string {
	var out []string
	skipping := false
	for _, line := range strings.SplitAfter(data, "\n") {
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(line, " --\n") {
			name := strings.TrimSuffix(strings.TrimPrefix(line, "-- "), " --\n")
			skipping = name == "guide."+lang+".md" || name == "hints."+lang
		}
		if skipping || strings.HasPrefix(line, "title."+lang+":") || strings.HasPrefix(line, "summary."+lang+":") {
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "")
}

// writeLesson writes the built-in lesson 02-a-pod-dies, with old replaced by
// new, under name in a new directory, and returns the directory.
func writeLesson(t *testing.T, name, old, new string) string {
	t.Helper()
	data, err := fs.ReadFile(lessons.FS(), "02-a-pod-dies.txtar")
	require.NoError(t, err)
	require.Contains(t, string(data), old)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(strings.Replace(string(data), old, new, 1)), 0o644))
	return dir
}

func TestLessonsCheckReportsALessonThatFails(t *testing.T) {
	// A solution that never kills a pod: no fourth create.
	dir := writeLesson(t, "07-broken.txtar", "-- solution --\nkill pods -l app=web --pick=oldest\n", "-- solution --\n")

	status, stdout, stderr := rlab(t, "lessons", "--check", "--dir="+dir, "--site=../../site")

	assert.Equal(t, 1, status)
	assert.Contains(t, stdout, "07-broken  beginner  A pod dies  FAIL   en, zh-CN\n")
	assert.Contains(t, stderr, "lesson 07-broken.txtar: setup + solution must meet the goal: "+
		"lesson 07-broken.txtar, goal:2:1: expect requests verb=create resource=pods count>=4: found 3")
	assert.True(t, strings.HasSuffix(stderr, "rlab lessons: 1 of 1 lessons failed their check\n"), stderr)
}

func TestLessonsCheckReportsALinkThatLeadsNowhere(t *testing.T) {
	dir := writeLesson(t, "07-broken.txtar", "Right now the world is at rest", "Right now the [world](glossary:wrold) is at rest")

	status, stdout, stderr := rlab(t, "lessons", "--check", "--dir="+dir, "--site=../../site")

	assert.Equal(t, 1, status)
	assert.Contains(t, stdout, "07-broken  beginner  A pod dies  FAIL   en, zh-CN\n")
	assert.Contains(t, stderr, `lesson 07-broken.txtar, guide.md:`)
	assert.Contains(t, stderr, `: glossary link "wrold" is no entry of the glossary`)

	status, _, stderr = rlab(t, "lessons", "--check", "--dir="+dir)
	assert.Equal(t, 1, status)
	assert.Contains(t, stderr, "--check reads the page's glossary to check the lessons' links: open site/glossary.js: no such file or directory (run it in the repository's root, or give --site)")
}

// TestLessonsCheckReportsEnglishLeftInATranslation: a Chinese word left in
// English, here a lower-case pod in a predict's choice, fails the check,
// named by lesson, file, page and word.
func TestLessonsCheckReportsEnglishLeftInATranslation(t *testing.T) {
	dir := writeLesson(t, "07-broken.txtar", "零个：这个 Pod 是被故意杀死的", "零个：这个 pod 是被故意杀死的")

	status, stdout, stderr := rlab(t, "lessons", "--check", "--dir="+dir, "--site=../../site")

	assert.Equal(t, 1, status)
	assert.Contains(t, stdout, "07-broken  beginner  A pod dies  FAIL   en, zh-CN\n")
	assert.Contains(t, stderr, "lesson 07-broken.txtar, guide.zh-CN.md:13: page 2 in zh-CN has English words that are not kept terms: \"pod\"; "+
		"translate each as i18n/terms.zh-CN.md does, or, if kubernetes.io/zh-cn keeps it English, add it to that table's kept terms\n")
}

func TestLessonsReportsALessonThatDoesNotParse(t *testing.T) {
	dir := writeLesson(t, "07-broken.txtar", "count>=4\n-- hints --", "cont>=4\n-- hints --")

	status, stdout, stderr := rlab(t, "lessons", "--dir="+dir)

	assert.Equal(t, 1, status)
	assert.Empty(t, stdout)
	assert.Equal(t, "lesson 07-broken.txtar, goal:2:43: unknown check \"cont\"; did you mean \"count\"?\n", stderr)
}

func TestLessonsUsageErrors(t *testing.T) {
	status, _, stderr := rlab(t, "lessons", "--chek")
	assert.Equal(t, 2, status)
	assert.Contains(t, stderr, "flag provided but not defined: -chek\nusage: rlab lessons [--check] [--dir=path] [--site=path] [ID...]")

	status, _, stderr = rlab(t, "lessons", "--dir="+t.TempDir())
	assert.Equal(t, 1, status)
	assert.Contains(t, stderr, "rlab lessons: no lessons (NN-slug.txtar files) in ")

	status, stdout, _ := rlab(t, "help", "lessons")
	assert.Equal(t, 0, status)
	assert.Contains(t, stdout, "-check\n")
}
