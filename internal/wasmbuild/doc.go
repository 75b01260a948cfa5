// Package wasmbuild says how main.wasm is built, once, for everything that
// builds it: make wasm (through rlab wasm), the size test and benchmark of the
// wasm program, and the browser suite's harness. A figure measured by a test
// is then the figure of the file the learner downloads.
//
// # Why inlining is off
//
// Go's js/wasm back end turns every function into a loop around a br_table
// with one arm per call site, so that a goroutine can unwind and resume at any
// call. Inlining copies a callee's body, resume points included, into each
// caller, and on wasm that costs more than it gains: the browser's own
// compiler (V8's TurboFan, SpiderMonkey's Ion) inlines hot wasm functions
// anyway, after it has seen which ones are hot. Measured on the engine
// (November 2026, Go 1.26):
//
//	                               raw        gzip -9   brotli -q9
//	inlining on (Go's default)     8,114,250  2,148,704  1,761,943
//	off but in the runtime         7,625,858  1,880,811  1,537,960
//
// and the converge and seek benchmarks of core/world under node ran as fast
// with inlining off as with it on, within the machine's noise. The runtime keeps
// its inlining: its allocation and map fast paths are where it pays, and
// turning it off there saved little more.
//
// Three small packages of the engine keep theirs too: core/labels, core/api
// and core/sim. A ReplicaSet's sync looks at every pod it owns, several
// times (claiming, filtering the active ones, counting the ready ones), and
// a world of 10,000 pods syncs its ReplicaSet about a hundred times on its
// way to rest: millions of calls to a selector's match, a pod's controller
// reference and its Ready condition, each a few lines long. Calls are what
// WebAssembly pays most for, and V8 did not inline these. Timed in
// Chromium, from the page's Stabilize to the answer that the 10,000-pod
// world is at rest, in four rounds of 8 to 12 interleaved runs each
// (November 2026), the median fell by 6, 9, 14 and 2% against the build
// with inlining off everywhere; core/labels alone gave most of it. main.wasm
// grew by 6,638 bytes raw, 11,647 gzip and 2,599 brotli (a draw: see below).
// Keeping core/controller's as well gave nothing more over 12 runs (its
// median was 5% slower, within the noise), for 35,944 more bytes raw and
// 21,518 more brotli, and was left out.
//
// Native builds (rlab, the tests) keep Go's defaults; only the wasm program
// is built this way.
//
// # What else main.wasm is made of, and the levers measured on it
//
// The budget is on the copy a learner downloads, brotli at quality 11 (make
// bench; make wasm prints the figures). Go's js/wasm port has a floor: the
// runtime, fmt (which safejs needs) and reflect, built alone with these
// flags, are 573 KB of brotli; the engine is the rest. Each lever below was
// measured on the whole program, in this order, with the flags above (raw,
// GNU gzip -9, brotli at quality 11 with andybalholm/brotli as rlab compress
// writes it; November 2026, Go 1.26):
//
//	                                                  raw        gzip -9    brotli 11
//	before (encoding/json, slices sorts, lesson parser) 7,632,353  1,882,740  1,341,395
//	core/minijson instead of encoding/json             7,276,939  1,805,672  1,292,306
//	core/sorting: one sort, not eleven generic copies  7,163,250  1,785,262  1,285,904
//	lessons as data (lessons/bundle.json)              6,976,570  1,739,055  1,257,998
//	yaml timestamps without time.Parse                 6,933,368  1,728,452  1,250,657
//	minijson: map[string]string only, no reflect.New   6,922,917  1,726,380  1,246,301
//
// With Deployments (the controller, its language and foreground deletion)
// the program grew to 7,915,713 bytes raw and 1,393,359 brotli. Two tables
// were then laid out as data instead of code: core/loop's rules (a map
// literal that compiled to 29 KB of code) and core/script's command table
// (77 KB of code as a function; now a package variable's initializer that
// init hands to the table). Raw fell by 77 KB, to 7,838,740, and the code
// the browser compiles by 62 KB, but brotli by only 440 bytes: it had
// compressed the repeated field-setting code almost to nothing.
//
// The Deployment page and six more lessons then took it to 7,950,378 raw
// and 1,405,438 brotli, over the budget. The lessons were 23 KB of that,
// and every lesson written or translated would add its own, so main.wasm
// no longer carries them: make wasm writes lessons.json beside it (Lessons),
// which the worker fetches while main.wasm compiles (7,765,125 raw,
// 1,382,092 brotli without them; lessons.json is 25,884 brotli on its own).
//
// The page's Export (core/export, which writes a learner's history as
// kubectl) took main.wasm from 1,399,159 to 1,419,921 brotli when the
// bridge called it, and still to 1,406,832 as a bridge op that only
// returned the history as data (its types, their JSON and the op's code).
// So main.wasm has no export op: the page writes the history from the view
// it already has, and export.wasm (ExportFile, built from ExportPackage with
// the same flags) writes the script, fetched only on the first Export
// (November 2026: main.wasm 1,398,999 brotli; export.wasm 8,014,083 raw and
// 1,416,457 brotli, nearly the whole engine, since an export replays the
// history in a session, plus the lessons' setups, about 51 KB of it).
//
// Levers tried and left: a GOWASM=signext,satconv build (no smaller),
// hand-written JSON methods per type instead of minijson's walker over the
// tags (6 KB larger), and reading requests and lessons by hand instead of
// with reflect (1 KB smaller: the decoders cost what reflect's setters did,
// and each new field would have needed a second line). What remains large is the engine's own code, each
// package's share about its share of the source; among the rest, an
// equality function for every comparable struct type that is used as an
// interface (about 11 KB), and the long names of generic functions
// instantiated per struct shape, which the runtime keeps for tracebacks.
// To see the largest functions of a build, build without -s -w and read
// the wasm name section; a package's brotli cost is best measured by
// building without it.
//
// # Brotli at quality 11 does not follow the program's size
//
// Near the budget, brotli's figure moves by several kilobytes for changes
// that do not change the program at all. Built from one commit (0fb5f11)
// with nothing but the version string (-X main.version) changed:
//
//	version          raw        gzip       brotli 11
//	(no -X: "dev")   7,885,610  1,970,514  1,393,569
//	-X dev           7,885,616  1,970,521  1,403,115
//	0fb5f11          7,885,618  1,970,517  1,406,803
//	d5004f4          7,885,618  1,970,517  1,406,061
//	0fb5f11-dirty    7,885,625  1,970,503  1,398,043
//
// A string set by the linker is laid out elsewhere than one in the
// source, and a longer one moves every address after it, in the data and in
// the code that refers to it (two versions of one length still draw 742
// bytes apart). Brotli's quality 11 (and 10) compress the results by up to
// 13 KB differently;
// libbrotli and andybalholm/brotli agree to the byte, and every window from
// 18 to 24 bits draws alike. gzip moves by bytes. So a change is judged by
// its raw and gzip figures as well as by brotli's, which is one draw: making
// the Deployment code's eight slices.SortFunc calls sorting.Func took 23 KB
// of code and 4.9 KB of gzip away and drew 6.7 KB more brotli; making 48
// struct types incomparable, which drops their equality functions (63 KB of
// code), drew from -2 KB to +2 KB. BenchmarkWasmSize builds with no version
// (the first row); make wasm, and so the page, with git describe's.
package wasmbuild
