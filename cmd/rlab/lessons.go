package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/reconcilelab/rlab/core/lesson"
	"github.com/reconcilelab/rlab/core/script"
	"github.com/reconcilelab/rlab/internal/lessonlint"
	"github.com/reconcilelab/rlab/lessons"
)

var lessonsCommand = &command{
	name:     "lessons",
	synopsis: "[--check] [--dir=path] [--site=path] [ID...]",
	summary:  "list the lessons, or prove that they work",
	details: "Lessons lists the lessons built into rlab, or those given by ID (02-a-pod-dies, 01 or\n" +
		"self-healing), with their level and title. --check proves each: setup + solution meets the\n" +
		"goal, setup alone does not, every page's checks hold after its do and step blocks (and\n" +
		"not before them), every\n" +
		"predict is decided as ticked, every do block run twice still leaves the goal reachable, and\n" +
		"every link leads somewhere: to an entry of the page's glossary (the glossary.js of --site)\n" +
		"or to upstream code at v1.31.14, and every glossary term is linked where a lesson first\n" +
		"uses it. Every language of a lesson is proven so (English, and each translation: guide.zh-CN.md,\n" +
		"hints.zh-CN), each translation must have the English's pages, blocks, commands, choices and\n" +
		"hints and no English word its table of terms (i18n/terms.zh-CN.md) does not keep, and every\n" +
		"lesson must ship in every language the project ships (en and zh-CN): a lesson\n" +
		"written from now on is written in both. The LANGUAGES column says which languages were\n" +
		"proven. A lesson that fails its proof is reported on stderr and the exit status is 1.",
	flags: func(fs *flag.FlagSet) runFunc {
		check := fs.Bool("check", false, "prove each lesson, as CI does")
		dir := fs.String("dir", "", "read the lessons in `path` instead of those built in (for lesson authors)")
		site := fs.String("site", "site", "with --check, check glossary links against the page in `path`")
		return func(ctx context.Context, stdout, stderr io.Writer, args []string) error {
			fsys, from := lessons.FS(), "rlab"
			if *dir != "" {
				fsys, from = os.DirFS(*dir), displayDir(*dir)
			}
			var glossary []lessonlint.Entry
			if *check {
				js, err := os.ReadFile(filepath.Join(*site, "glossary.js"))
				if err != nil {
					return fmt.Errorf("--check reads the page's glossary to check the lessons' links: %w (run it in the repository's root, or give --site)", err)
				}
				if glossary, err = lessonlint.Glossary(string(js)); err != nil {
					return fmt.Errorf("reading %s: %w", filepath.Join(*site, "glossary.js"), err)
				}
			}
			return listLessons(ctx, stdout, stderr, fsys, from, args, *check, glossary)
		}
	},
}

// listLessons prints the lessons of fsys (found in from) named by ids (all
// when there is none) and, with check, proves each, its links checked
// against the glossary's entries.
func listLessons(ctx context.Context, stdout, stderr io.Writer, fsys fs.FS, from string, ids []string, check bool, glossary []lessonlint.Entry) error {
	all, err := lesson.ParseFS(fsys)
	if err != nil {
		// Each line names its lesson and position already, as compilers
		// print errors.
		fmt.Fprintln(stderr, err)
		return exitStatus(1)
	}
	if len(all) == 0 {
		return fmt.Errorf("no lessons (NN-slug.txtar files) in %s", from)
	}
	chosen, err := chooseLessons(all, ids)
	if err != nil {
		fmt.Fprintf(stderr, "rlab lessons: %v\nRun 'rlab lessons' for the list.\n", err)
		return exitStatus(2)
	}

	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	header := "ID\tLEVEL\tTITLE"
	if check {
		header += "\tCHECK\tLANGUAGES"
	}
	fmt.Fprintln(tw, header)
	failed := 0
	for _, l := range chosen {
		if err := ctx.Err(); err != nil {
			return err
		}
		row := l.ID + "\t" + string(l.Level) + "\t" + l.Title
		if check {
			errs := lessonlint.Lint(l, glossary)
			if err := lesson.Check(l); err != nil {
				errs = append([]error{err}, errs...)
			}
			for _, err := range errs {
				fmt.Fprintln(stderr, err)
			}
			if len(errs) > 0 {
				failed++
				row += "\tFAIL"
			} else {
				row += "\tok"
			}
			row += "\t" + languagesCell(l)
		}
		fmt.Fprintln(tw, row)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if failed > 0 {
		fmt.Fprintf(stderr, "rlab lessons: %d of %d lessons failed their check\n", failed, len(chosen))
		return exitStatus(1)
	}
	return nil
}

// languagesCell says which languages of lesson l --check proved: those it
// is written in.
func languagesCell(l *lesson.Lesson) string {
	return strings.Join(l.LanguagesOf(), ", ")
}

// chooseLessons returns the lessons named by ids, in the order given, or all
// of them when there is no id. An id is a lesson's ID, its number (1 or 01)
// or its slug.
func chooseLessons(all []*lesson.Lesson, ids []string) ([]*lesson.Lesson, error) {
	if len(ids) == 0 {
		return all, nil
	}
	var out []*lesson.Lesson
	for _, id := range ids {
		l := findLesson(all, strings.TrimSuffix(id, ".txtar"))
		if l == nil {
			var names []string
			for _, l := range all {
				names = append(names, l.ID, l.Slug)
			}
			return nil, fmt.Errorf("%s", withSuggestion("unknown lesson "+strconv.Quote(id), script.Suggest(id, names)))
		}
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out, nil
}

func findLesson(all []*lesson.Lesson, id string) *lesson.Lesson {
	n, err := strconv.Atoi(id)
	for _, l := range all {
		if l.ID == id || l.Slug == id || err == nil && l.Number == n {
			return l
		}
	}
	return nil
}

// withSuggestion appends `; did you mean "x"?` for the best suggestion.
func withSuggestion(msg string, suggestions []string) string {
	if len(suggestions) == 0 {
		return msg
	}
	return msg + "; did you mean " + strconv.Quote(suggestions[0]) + "?"
}
