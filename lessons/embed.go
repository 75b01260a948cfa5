package lessons

import (
	"embed"
	"io/fs"
	"slices"

	"github.com/reconcilelab/rlab/core/lesson"
)

// files holds every lesson's source, compiled into native binaries (rlab
// lessons reads it) and left out of main.wasm by the linker, since nothing
// the page runs reads it.
//
//go:embed *.txtar
var files embed.FS

// bundle is the lessons as data, bundle.json: what Parse made of files,
// written by lesson.MarshalBundle. TestBundleIsCurrent keeps it so.
//
//go:embed bundle.json
var bundle []byte

// Bundle returns bundle.json's text: the lessons as main.wasm reads them.
// main.wasm does not carry it; make wasm writes it beside main.wasm as
// lessons.json, which the page's worker fetches and hands to the engine.
func Bundle() []byte { return slices.Clone(bundle) }

// FS returns the lesson files, NN-slug.txtar, at its top level.
func FS() fs.FS { return files }

// Parse reads and validates every lesson file, in the order of their
// numbers, reporting every problem with its position: what rlab lessons and
// the tests read.
func Parse() ([]*lesson.Lesson, error) { return lesson.ParseFS(files) }

// All returns the lessons as the page's engine loads them, from the bundle:
// the same lessons as Parse returns, without parsing or checking them
// again. An error here means bundle.json was edited by hand.
func All() ([]*lesson.Lesson, error) { return lesson.LoadBundle(bundle) }
