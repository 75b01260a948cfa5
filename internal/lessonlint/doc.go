// Package lessonlint proves what lesson.Check cannot, since the engine the
// page runs knows neither the page's glossary nor the upstream code: that
// every link a lesson makes leads somewhere. A glossary link
// ([ControllerRef](glossary:controller-ref)) must name an entry of the
// page's glossary, site/glossary.js; an upstream link
// ([the sync](upstream:syncReplicaSet)) must name a function core/source
// links to, or a file of the upstream release's manifest
// (internal/upstream). The lessons' tests and rlab lessons --check run it
// on every lesson, beside lesson.Check.
package lessonlint
