// Package lessons holds Reconcile Lab's lessons, one txtar file each
// (NN-slug.txtar), and will embed them with go:embed into both the page and the
// rlab runner.
//
// A lesson is data, not code: the setup that builds its starting world, a guide
// that narrates it page by page, the goal (expect commands) the learner must
// reach, hints, and a reference solution. Because the engine is deterministic,
// the reference solution reaches the same world on every run, so CI can prove
// each lesson headless: setup plus solution meets the goal, setup alone does
// not. A lesson that stops working fails the build, not the learner. Goals
// check what a learner can see (replicas, owners, conditions) and ignore
// generated names, so any correct solution passes, not only the reference.
//
// The format is specified in spec/SCENARIO.md ("Lessons"); the lessons and
// their embedding arrive with the scenario language (core/script, core/lesson).
package lessons
