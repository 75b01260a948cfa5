// Package lesson reads Reconcile Lab's lessons and proves that they work.
//
// A lesson is data, not code: one txtar file, NN-slug.txtar (two digits, a
// dash, then lower-case letters, digits and dashes), whose commands are the
// scenario language of package script. Parse reads and validates one; Check
// proves it in a fresh world; ParseFS reads a directory of them. The page
// loads the same lessons as data: MarshalBundle writes what Parse read as
// JSON, and LoadBundle reads it back, parsing only the commands again, so a
// lesson CI has proved is the lesson the learner gets, and main.wasm carries
// no parser of lesson files (see bundle.go).
//
//	l, err := lesson.Parse("02-a-pod-dies.txtar", data) // every problem, with its position
//	err = lesson.Check(l)                                  // setup + solution meets the goal, ...
//	data, err := lesson.MarshalBundle(lessons)             // the lessons as data, for the page
//	lessons, err := lesson.LoadBundle(data)                // what Parse returned, commands included
//
// # The format
//
// A txtar archive is a comment, then files, each started by a line
// "-- name --". A lesson's comment is its header, three "key: value" lines
// and an optional fourth (stepwise, below), then the title and summary in
// each other language (see Languages); its files are setup, guide.md,
// goal, hints and solution, all required, then the guide and hints in each
// other language:
//
//	title: Self-healing
//	summary: A ReplicaSet replaces a pod that dies, and only that pod.
//	level: beginner
//	-- setup --
//	create rs web --replicas=3 --selector=app=web
//	stabilize
//	-- guide.md --
//	# A ReplicaSet keeps its pods
//	... Markdown, with fenced do, predict and check blocks ...
//	---
//	# Kill a pod
//	...
//	-- goal --
//	expect pods -l app=web count=3 ready=true owner=rs/web
//	expect requests verb=create resource=pods count=4
//	-- hints --
//	The goal wants a fourth pod create.
//
//	A ReplicaSet creates a pod when it owns fewer than it wants.
//	-- solution --
//	kill pods -l app=web --pick=oldest
//	stabilize
//
// The level is beginner, intermediate or advanced. setup builds the starting
// world, and is run before the learner arrives; it alone may start with seed,
// since a seed anywhere later would come after the world has changed. goal
// holds the expects that define success, and only expects: a goal tests the
// world and must never change it. hints are shown one at a time, one per
// paragraph (paragraphs are separated by blank lines). solution is the
// reference solution. Goals should check what a learner can see (counts,
// readiness, owners, conditions, requests) rather than generated names, so
// any correct solution passes, not only the reference.
//
// # The guide
//
// guide.md is the narration, in Markdown, split into pages by lines that are
// exactly --- (outside fenced blocks; a --- in a ```yaml block is YAML's).
// Every page needs text. Four kinds of fenced block have a meaning; fenced
// blocks of any other kind are plain Markdown:
//
//	```do
//	kill pods -l app=web --pick=oldest
//	until sync rs/web
//	```
//
// A do block holds commands the learner runs, with one click or by typing
// them.
//
//	```step
//	expect queue replicaset contains default/web
//	```
//
// A step block holds expects, as a check block does, but the learner gets
// there by pressing Step, one event at a time, until they hold: the page
// says what to step to and ticks it off when it holds, and Check proves it
// is reached within 200 events. It is how a lesson walks a mechanism event
// by event, rather than jumping over it with until sync.
//
// The header's optional "stepwise: 1-6" names the pages on which the
// learner walks every event: their do blocks may not run more than one
// event at a time (until sync, stabilize, advance and step N>1 are errors
// there; see Multistep), and the page refuses those commands on them.
//
//	```check
//	expect requests verb=create resource=pods count=4
//	```
//
// A check block holds expects, and only expects, that must hold before the
// next page opens.
//
//	```predict
//	How many pods will rs/web create to make up for it?
//	- [ ] none: it stays gone => expect requests verb=create resource=pods count=3
//	- [x] one: it counts two where it wants three => expect requests verb=create resource=pods count=4
//	- [ ] three: it starts over => expect requests verb=create resource=pods count=6
//
//	The controller does not know why a pod went away: it counts.
//	```
//
// A predict block is a question the learner answers before a step runs: the
// question's text, then the choices as a Markdown task list with exactly one
// ticked ([x] or [X]), at least two of them, then, optionally, an explanation
// the page shows once the learner has answered. Each choice ends with "=>"
// and the one expect that decides it: after the step, the ticked choice's
// expect holds and every other's fails. The page grades an answer by running
// them, so what it calls right is what the engine did, not what the author
// wrote. A predict must be followed on its page by a do block (the step
// whose outcome it asks about, which runs once the learner has answered)
// and a check block after that do, which states what then happens.
//
// Blocks run in the order they stand on the page, and the pages in order,
// all in one world, from setup: what the learner does on page 2 is still
// done on page 3.
//
// # Languages
//
// Every lesson ships in every language the project ships, Languages: en
// and zh-CN. A lesson file's unmarked parts are English; each other
// language has its own, named with its tag, in the same file:
//
//	title: The control loop
//	summary: Follow one ReplicaSet from the API server to its pods, one event at a time.
//	level: beginner
//	title.zh-CN: 控制回路
//	summary.zh-CN: 一次一个事件，跟随一个 ReplicaSet 从 API 服务器走到它的 Pod。
//	-- setup --
//	...
//	-- guide.zh-CN.md --
//	... the guide in Chinese ...
//	-- hints.zh-CN --
//	... the hints in Chinese ...
//
// Parse reads them into Lesson.Translations, a list in the order of
// Languages whose every Translation names its language (Lang; find one
// with l.Translation("zh-CN")), and holds each translation to the English: all four parts present; guide.zh-CN.md
// with the same pages, and on each page the same do, step, predict and
// check blocks in the same order; a do, step or check block with the same
// commands (compared as parsed, so its # comments may be translated); a
// predict with the same number of choices, each decided by the same
// expect, and the same one ticked (its question, choices and explanation
// translated); and as many hints. setup, goal and solution are never
// translated: they are the engine's words. A translation that differs is
// an error naming its page and block, positioned in the translation, with
// where the English counterpart stands:
//
//	lesson 05-orphans.txtar, guide.zh-CN.md:41:1: page 3, block 2: the English page has a predict block here (guide.md:30), the zh-CN page has a do block; a translation has the English blocks, in the same order
//
// The page runs, checks and grades the English blocks by their page and
// block numbers whatever language the learner reads, which is why a
// translation may change words and nothing else. The bundle, and the
// bridge's lesson, carry the list as it is, and the page picks the
// learner's language from it by its "lang":
//
//	"translations": [{"lang": "zh-CN", "title": "控制回路", "summary": …, "pages": […], "hints": […]}]
//
// A list and not an object keyed by language, because core/minijson
// writes no maps but labels and selectors: map support cost main.wasm
// 6 KB of its brotli size (1,388,040 bytes with it, 1,381,708 without). LoadBundle refuses a translation into a
// language not shipped, or one listed twice or out of order.
//
// Check proves each language's guide as it proves the English's, and fails
// a lesson that lacks a language: every lesson written from now on is
// written in English and Simplified Chinese, as every lesson before it
// is.
//
// # Errors
//
// Parse reports every problem it finds, each with the lesson's file name, the
// part of the lesson and, when there is one, the line and column, counted in
// that part (for guide.md, in guide.md, so a block's lines are found where
// they are written):
//
//	lesson 05-orphans.txtar, goal:3:8: unknown check "cont"; did you mean "count"?
//	lesson 05-orphans.txtar, guide.md:30:4: unknown block kind "chek"; did you mean "check"?
//	lesson 05-orphans.txtar, guide.md:11:1: a predict block without a right answer; tick the right choice: - [x]
//	lesson 05-orphans.txtar:47:4: unknown file "solutoin"; did you mean "solution"?
//	lesson 05-orphans.txtar:3:8: unknown level "beginer"; did you mean "beginner"?
//
// Errors about the header and the files count lines in the whole archive. The
// positional errors are *script.ParseError values; misspellings get the same
// "did you mean" suggestions as the scenario language.
//
// # Proof
//
// Check runs four proofs, each in a fresh world (and the guide's two again
// for each translation, see Languages): setup then solution meets
// the goal; setup alone does not (else the learner would have nothing to
// do); walking the guide from setup, every check holds where it stands,
// after the do and step blocks before it, and fails just before the do or
// step block it follows (a check that held already would pin nothing of
// what that block does), every step block is reached by
// single steps, every predict is decided as ticked just after its step,
// and the goal holds at the guide's end (a learner who follows the pages
// finishes); and setup, then every do block run twice in a row, then
// stabilize, still meets the goal (a learner who clicks twice can still
// finish, so goals count "at least", not "exactly", what a do block
// adds). A failed proof is a *CheckError that names
// the proof and wraps the *script.RuntimeError that broke it, which names
// the block, line and column:
//
//	lesson 02-a-pod-dies.txtar: setup + solution must meet the goal: lesson 02-a-pod-dies.txtar, goal:2:1: expect requests verb=create resource=pods count=4: found 3 ...
//	lesson 02-a-pod-dies.txtar: page 2: its checks must hold after its do blocks: lesson 02-a-pod-dies.txtar, guide.md:33:1: ...
//	lesson 02-a-pod-dies.txtar: zh-CN: page 2: its checks must hold after its do blocks: lesson 02-a-pod-dies.txtar, guide.zh-CN.md:33:1: ...
//	lesson 22-next.txtar: every lesson ships in every language the project ships (en and zh-CN), but it has no zh-CN translation: write guide.zh-CN.md, hints.zh-CN, title.zh-CN: and summary.zh-CN:
//
// Like the rest of core, this package is deterministic and never touches the
// file system: callers hand it bytes or an fs.FS (package lessons embeds the
// lessons; rlab lessons and the page read them from there).
package lesson
