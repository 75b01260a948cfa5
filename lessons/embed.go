package lessons

import (
	"embed"
	"io/fs"

	"github.com/reconcilelab/rlab/core/lesson"
)

// files holds every lesson, compiled into the binary so that the page and
// rlab carry their lessons wherever they run, with no file to find at run
// time.
//
//go:embed *.txtar
var files embed.FS

// FS returns the lesson files, NN-slug.txtar, at its top level.
func FS() fs.FS { return files }

// All parses every lesson, in the order of their numbers. The lessons are
// proved by this package's tests, so an error here means a lesson was changed
// without running them.
func All() ([]*lesson.Lesson, error) { return lesson.ParseFS(files) }
