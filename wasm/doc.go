// Command wasm is Reconcile Lab's simulator as the browser runs it: the Go
// program that make wasm compiles to site/main.wasm (GOOS=js GOARCH=wasm) and
// the page's app.js starts with wasm_exec.js.
//
// The program is two files with one job each, so that nearly everything it does
// can be tested natively, without a JavaScript engine:
//
//   - bridge.go (with bridge_view.go) is plain Go: one JSON request in, one
//     JSON answer out ("load", "run", "step", "seek", "view", …), driving a
//     world from core/ through core/script. What the page draws of the
//     world is the world's read model (core/world's View, StepOf and the
//     syncs), which the bridge only marshals: it may import from core/ only
//     api, lesson, minijson, script, sim and world
//     (TestTheBridgeImportsOnlyTheReadModel), so that it can copy no
//     component's rule. It has no build tag, imports
//     nothing from JavaScript and is tested with go test like any other
//     package; its comment documents every op and JSON shape. main_js.go
//     publishes it as rlab.call. Builds with the rlabtest tag add two ops
//     that break the engine on purpose (bridge_testops.go), for the browser
//     tests of the page's error handling.
//   - main_js.go (//go:build js && wasm) is the only Go file of the project
//     that touches JavaScript (its test aside), and it does so only through
//     github.com/hack-pad/safejs, whose calls return errors where syscall/js
//     panics. It publishes the API object globalThis.rlab, tells the page it
//     is ready, and then parks main in select {} for the page's lifetime.
//
// The program runs in a Web Worker (site/worker.js), never on the page's own
// thread, so that no step, however long, freezes the page; site/engine.js is
// the page's side of that conversation. The worker sees this contract:
//
//	globalThis.rlab.version   // the build's version string, e.g. "dev"
//	globalThis.rlab.ping()    // {version: "…"}, or {error: "…"} if something broke
//	globalThis.rlab.call(s)   // s: a bridge request as JSON text; answers the
//	                          // bridge's JSON text, {"result": …} or {"error": …}
//	globalThis.rlabReady      // true once rlab is usable
//	globalThis.onRlabReady()  // called once at that moment, if the page defined it
//	globalThis.__rlabReadyAt  // performance.now() at that moment, for load-time budgets
//
// Three rules of the browser shape main_js.go, and every later callback must
// keep them:
//
//   - A Go panic inside a callback kills the whole program, and safejs does not
//     catch it (it only guards the calls Go makes into JavaScript). Every
//     callback is therefore wrapped by callback, which recovers and answers
//     {error: "…"}: the page reports a bug and keeps running.
//   - A callback must never block. The browser's event loop is paused while Go
//     runs, so a callback waiting for a timer, a fetch or a channel fed by
//     another callback waits forever. Long work runs in a goroutine that
//     settles a Promise. Even printing can block: under node, os.Stdout and
//     os.Stderr are asynchronous fs.write calls (a panicking callback that
//     printed its stack hung the tests), so callbacks log through
//     console.error instead.
//   - main must not return: the Go runtime would exit, and every later call
//     from the page would throw "Go program has already exited". select {}
//     parks main without spinning; callbacks still run, each on its own
//     goroutine.
//
// A Go fatal error (running out of memory, a panic in a goroutine) cannot be
// recovered by anything: the program exits. worker.js reports the death, and
// engine.js starts a new worker and replays the learner's inputs, which the
// engine's determinism turns back into the same world.
//
// Natively this directory builds only main_other.go, which explains how to
// build the real thing. Its tests drive the bridge through Handle, as the page
// does, and wasm_node_test.go compiles the program for js/wasm, checks the
// binary's dependencies and a size ceiling against regressions
// (BenchmarkWasmSize reports the size for make bench to judge against the
// budget), and starts it under node to prove it gets ready. GOOS=js
// GOARCH=wasm go test runs the bridge's tests again, and main_js_test.go,
// under node, which calls the callbacks through JavaScript.
//
// # JSON, and adding a field
//
// The bridge reads requests and writes answers with core/minijson, not
// encoding/json, which cost main.wasm 49 KB of its brotli size. minijson
// follows the json tags exactly as encoding/json does, so the JSON shapes
// are still the structs in bridge.go, bridge_view.go and core/world's
// view.go and view_steps.go, and adding a field
// to an answer or an argument is the one line that declares it, with its
// tag:
//
//	Releasing bool `json:"releasing,omitempty"`
//
// The field can be a boolean, an integer, a string, a pointer, a slice, a
// map[string]string, or a struct of those. A float, which the engine has
// no use for, fails TestAnswersEncodeAsEncodingJSONDoes, which fills every
// field of every answer type with random values and requires minijson to
// write what encoding/json would, byte for byte (the first world in
// site/index.html did not change); TestArgumentsDecodeAsEncodingJSONDoes does the same for the
// arguments. Two things differ on input: keys must be spelled exactly
// (encoding/json also took any capitalization), and nothing may follow the
// request, where encoding/json's Decoder let a stray ] or } pass.
//
// # Profiling the engine as the page runs it
//
// WebAssembly has no pprof, but V8 samples it: a test binary built for
// js/wasm keeps its functions' names, and node --cpu-prof writes a profile
// that names them (github_com_reconcilelab_rlab_core_sim.__StepLog_.Push):
//
//	GOOS=js GOARCH=wasm go test -c -o /tmp/bridge.wasm ./wasm
//	node --cpu-prof --cpu-prof-dir=/tmp/prof --stack-size=8192 \
//		"$(go env GOROOT)/lib/wasm/wasm_exec_node.js" /tmp/bridge.wasm \
//		-test.run '^$' -test.bench StabilizeThroughTheBridge -test.benchtime 1x
//
// The .cpuprofile is JSON (Chrome's DevTools open it). Two things make it
// read differently from pprof. Under js/wasm some costs are far larger than
// natively: hashing a string (no AES instructions), every allocation
// (mallocgc was 15% of the page's run) and the collector, which shares the
// one thread. And V8's attribution is only as good as the machine is
// quiet: on a loaded machine the self time of a function called a few
// hundred times in a run has moved between unrelated functions from one
// run to the next. Confirm a finding with an interleaved benchmark, native
// and under node, before believing it.
//
// FuzzBridge holds the bridge to the project's rule for bad input: a script
// of requests, however malformed, gets a JSON answer for each and never an
// internal error; a request that only reads, or that is refused, leaves the
// world byte for byte as it was; and the same script sent to a fresh bridge
// gets the same answers. go test runs its seeds, and make fuzz explores from
// them.
package main
