// Package i18n reads Reconcile Lab's tables of terms: for each locale, the
// words its translations use for the concepts the lessons teach, and the
// words that stay English. The tables are Markdown files a translator reads
// and edits, i18n/terms.<locale>.md (package
// github.com/reconcilelab/rlab/i18n embeds them); this package turns one
// into data and refuses a table that would mislead:
//
//	t, err := i18n.Load("zh-CN")
//	t.Translate("desired state")          // "期望状态", true
//	t.IsKept("ReplicaSet")                // true: API kinds stay English
//	t.UntranslatedWords("创建 3 个 pods") // ["pods"]
//
// A table has two sections, each with one table:
//
//	## Translated terms
//	| English | 中文 | Source |
//	| controller | 控制器 | https://kubernetes.io/zh-cn/docs/concepts/architecture/controller/ |
//
//	## Kept terms
//	| Term | What it is |
//	| ReplicaSet | API kind |
//
// A translation's source is the page of the Kubernetes documentation in
// that language that uses it, or "ours: " and the reason, where those pages
// have no word for the concept. Parse reports every fault with its line:
// an empty cell, an English term translated twice (whatever its case), a
// kept term listed twice, a term both kept and translated, a translation
// with no word of the locale's script or with an English word that is not
// kept, a source that is neither.
//
// Kept terms are exact, case and all. That is the zh-cn style guide's rule
// (API kinds keep their API spelling; no lower-case or plural forms in
// Chinese text), and it lets a table keep Ready, the condition type, while
// translating ready, the concept.
//
// UntranslatedWords is the check both readers share. rlab lessons --check
// runs it on a lesson's Chinese guide, hints, title and summary; the
// browser suite runs it on every visible text, label, title and
// placeholder of the page in Chinese, outside elements marked lang="en".
// It skips code (backticks, fences, link targets, and tokens shaped like
// code: rs/web, app=web, --cascade), numbers and a unit after a number, and
// the markup of the page's texts ({{id}}, the id of {{id|words}}, {name}),
// so that what it returns are English words a translator left in: each is
// either translated or added to the table's kept terms.
//
// # The page's glossary
//
// The page explains its words with a glossary, site/glossary.js, and loads
// a translation of it in another locale, site/glossary-<locale>.json: the
// same object, its texts translated. CheckGlossary holds a translation to
// the English, so that the two cannot drift apart unseen:
//
//	en, _ := i18n.ReadGlossaryJS("site/glossary.js")
//	zh, _ := i18n.ReadGlossaryJSON("site/glossary-zh-CN.json")
//	faults := i18n.CheckGlossary(en, zh, terms) // nil when they agree
//
// glossary.js is JavaScript, and a Go test should not need node to read
// it: JSConstJSON reads the plain object literal such a data module holds
// (strings, objects and arrays, with comments and trailing commas) and
// refuses anything else, naming the line and column.
//
// # The page's words
//
// Every string the page itself writes is a message of a catalogue, by key:
// site/messages-en.js, which the page's script carries, and
// site/messages-<locale>.json for each other locale (site/i18n.js reads
// them). A message is a string, or, for one that counts, a string per
// plural category ({one: "{n} pod", other: "{n} pods"}); {name} is a place
// where the page puts a value in. CheckCatalogue holds a translation to
// the English:
//
//	en, _ := i18n.ReadCatalogueJS("site/messages-en.js", src)
//	zh, _ := i18n.ReadCatalogueJSON("site/messages-zh-CN.json", data)
//	faults := terms.CheckCatalogue(en, zh) // nil when they agree
//
// It reports a key one lacks, a message whose places differ from the
// English (the page could not fill it), an English word that is not a
// kept term, and a message left as its English unless it is a kept term.
package i18n
