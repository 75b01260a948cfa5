// Package lessons holds Reconcile Lab's lessons, one txtar file each
// (NN-slug.txtar), and embeds them with go:embed, so that rlab and the tests
// carry them. Parse reads and validates the files, as rlab lessons and CI
// do; FS hands out the raw files; All loads them from bundle.json, the
// lessons as data; Bundle hands out bundle.json's text.
//
// The bundle is what Parse makes of the files, written as JSON by
// core/lesson's MarshalBundle and committed beside them; TestBundleIsCurrent
// keeps it current. It spares the page the parser, its checks and their
// messages: 27,906 bytes of main.wasm's brotli size, measured with one
// lesson (November 2026; 1,285,904 bytes at quality 11 with the parser,
// 1,257,998 with the bundle).
//
// main.wasm does not import this package. make wasm writes the bundle
// beside it as lessons.json (internal/wasmbuild), and the page's worker
// fetches that while main.wasm compiles and hands it to the engine (the
// bridge's setLessons). With twenty-one lessons the bundle was 23,346
// bytes of main.wasm's brotli size (1,405,438 with it, 1,382,092 without),
// and each new lesson, or each lesson translated, would have added its
// own: the engine's download should not grow with the curriculum.
//
// A lesson is data, not code: the setup that builds its starting world, a guide
// that narrates it page by page, the goal (expect commands) the learner must
// reach, hints, and a reference solution. Because the engine is deterministic,
// the reference solution reaches the same world on every run, so CI can prove
// each lesson headless: setup plus solution meets the goal, setup alone does
// not, and every page's checks hold after its do blocks, and not before. This package's tests
// run that proof (core/lesson's Check) on every lesson, and rlab lessons
// --check runs it on demand, so a lesson that stops working fails the build,
// not the learner. Goals check what a learner can see (replicas, owners,
// conditions, requests) and ignore generated names, so any correct solution
// passes, not only the reference.
//
// Every lesson ships in English and Simplified Chinese (zh-CN): the
// Chinese is in the same file, beside the English, as guide.zh-CN.md,
// hints.zh-CN and the header's title.zh-CN: and summary.zh-CN:, with the
// English guide's pages, blocks and commands, so that every language of
// it is proven as the English is. Every lesson written from now on is
// written in both: lesson.Check, and so rlab lessons --check and this
// package's tests, fail a lesson that lacks one. Lesson 01 is the
// worked example of a translation; the words it uses for Kubernetes'
// concepts are those of kubernetes.io/zh-cn, while API kinds, fields,
// reasons, commands and function names stay English: internal/lessonlint,
// which rlab lessons --check and this package's tests run, fails a
// translation with an English word that i18n/terms.zh-CN.md does not keep.
// Each Chinese paragraph is one line, since the page joins a paragraph's
// lines with a space.
//
// The format is specified in spec/SCENARIO.md ("Lessons") and taught in
// core/lesson's package documentation. To add a lesson, write the next
// NN-slug.txtar here, in both languages, rewrite the bundle with
//
//	go test ./lessons -run TestBundleIsCurrent -update
//
// and run go test ./lessons, which proves every lesson; 02-a-pod-dies.txtar
// is a small, complete example.
package lessons
