// Command exportwasm is export.wasm, the page's second, small Go program:
// it writes a learner's history as a bash script of kubectl, with
// core/export, when the learner presses Export.
//
// # Why a program of its own
//
// core/export (the translation of each command to kubectl, the waits a
// stabilize becomes, the script's shell functions) cost main.wasm about
// 26 KB of brotli, which took it over its budget of 1,400,000 bytes
// (DESIGN.md). Most learners never export, so they should not download the
// exporter with the engine. The page already has a world's history in the
// view main.wasm gives it (the lesson, the seed, the learner's inputs with
// their steps, the present step), so it writes it as an export.History,
// and this program, fetched on the first Export and cached by the service
// worker after that, adds the lesson's setup from the lessons it carries
// (the ones make wasm wrote into lessons.json) and replays it with
// export.FromHistory. The export is written once, in Go, by the same code
// rlab export runs; nothing of it is ported to JavaScript.
//
// # Its one function
//
// Started with wasm_exec.js's Go.run, main sets
//
//	globalThis.rlabExport(historyJSON) → the script's text, or an Error
//
// and parks, so that the function stays callable. The argument is the JSON
// of an export.History; unknown fields and unknown lessons are refused, so
// a page and an export.wasm from different builds say so rather than
// export something else. A Go function called from JavaScript cannot throw, so a failure is
// returned as an Error object, with a message that says what was wrong;
// the caller (site/export-worker.js) throws it. The program holds no state
// between calls: each export replays its history in a fresh session.
//
// make wasm (rlab wasm, internal/wasmbuild) builds it with main.wasm's
// flags into site/export.wasm; rlab compress compresses it like main.wasm.
package main
