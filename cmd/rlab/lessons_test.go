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
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n")[1:] {
		f := strings.Fields(line)
		assert.Equal(t, "ok", f[len(f)-1], line)
	}
	assert.Contains(t, stdout, "01-the-control-loop")
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
	assert.Contains(t, stdout, "07-broken  beginner  A pod dies  FAIL\n")
	assert.Contains(t, stderr, "lesson 07-broken.txtar: setup + solution must meet the goal: "+
		"lesson 07-broken.txtar, goal:2:1: expect requests verb=create resource=pods count>=4: found 3")
	assert.True(t, strings.HasSuffix(stderr, "rlab lessons: 1 of 1 lessons failed their check\n"), stderr)
}

func TestLessonsCheckReportsALinkThatLeadsNowhere(t *testing.T) {
	dir := writeLesson(t, "07-broken.txtar", "Right now the world is at rest", "Right now the [world](glossary:wrold) is at rest")

	status, stdout, stderr := rlab(t, "lessons", "--check", "--dir="+dir, "--site=../../site")

	assert.Equal(t, 1, status)
	assert.Contains(t, stdout, "07-broken  beginner  A pod dies  FAIL\n")
	assert.Contains(t, stderr, `lesson 07-broken.txtar, guide.md:`)
	assert.Contains(t, stderr, `: glossary link "wrold" is no entry of the glossary`)

	status, _, stderr = rlab(t, "lessons", "--check", "--dir="+dir)
	assert.Equal(t, 1, status)
	assert.Contains(t, stderr, "--check reads the page's glossary to check the lessons' links: open site/glossary.js: no such file or directory (run it in the repository's root, or give --site)")
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
