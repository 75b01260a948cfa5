// Package lessonlint proves what lesson.Check cannot, since the engine the
// page runs knows neither the page's glossary nor the upstream code: that
// every link a lesson makes leads somewhere. A glossary link
// ([ControllerRef](glossary:controller-ref)) must name an entry of the
// page's glossary, site/glossary.js; an upstream link
// ([the sync](upstream:syncReplicaSet)) must name a function core/source
// links to, or a file of the upstream release's manifest
// (internal/upstream). And every term of the glossary is linked where a
// lesson first uses it, so that a learner meeting "informer" or "slow start"
// for the first time is one click from what it means (firstUse; the terms
// that are everyday words too, such as "add" or "ready", are left to the
// writer). A translation (guide.zh-CN.md, hints.zh-CN) must link, page by
// page, what the English links (sameLinks): the glossary's terms are
// English, so their first uses cannot be found in Chinese text, and
// holding the translation to the English's links, in any order, gives it
// the same explanations. And a translation must be written in its
// language (englishLeft): its title, summary, pages (predict blocks and
// block comments included) and hints hold no English word that its
// locale's table of terms, i18n/terms.<locale>.md, does not keep, as
// internal/i18n's UntranslatedWords reads them. The lessons' tests and rlab
// lessons --check run it on every lesson, beside lesson.Check.
package lessonlint
