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
// Native builds (rlab, the tests) keep Go's defaults; only the wasm program
// is built this way.
package wasmbuild
