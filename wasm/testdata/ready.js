// ready.js starts Reconcile Lab's wasm under node the way site/app.js starts it
// in a page, and checks the startup contract of wasm/doc.go.
//
// Usage: node ready.js <wasm_exec.js> <main.wasm> [timeout-ms]
//
// On success it prints "ready <version>" and exits 0. It exits 1 if the program
// fails (exits, throws or answers {error}) and 3 if it is not ready in time.
"use strict";

const fs = require("fs");
const path = require("path");

const [wasmExec, wasmFile, timeoutArg] = process.argv.slice(2);
if (!wasmExec || !wasmFile) {
	console.error("usage: node ready.js <wasm_exec.js> <main.wasm> [timeout-ms]");
	process.exit(2);
}
const timeoutMs = Number(timeoutArg || 10000);

function fail(message) {
	console.error("not ready: " + message);
	process.exit(1);
}

// ping calls rlab.ping() and returns its version, failing on {error}.
function ping(when) {
	const res = globalThis.rlab.ping();
	if (res.error !== undefined) {
		fail(`rlab.ping() ${when} answered error: ${res.error}`);
	}
	return res.version;
}

// Let Go's stdout and stderr reach ours, as wasm_exec_node.js does.
globalThis.fs ??= fs;
require(path.resolve(wasmExec));

// The timer also keeps node's event loop alive while Go waits in select {}.
const timer = setTimeout(() => {
	console.error(`not ready: no onRlabReady within ${timeoutMs} ms`);
	process.exit(3);
}, timeoutMs);

globalThis.onRlabReady = () => {
	if (globalThis.rlabReady !== true) {
		fail("onRlabReady ran but globalThis.rlabReady is " + globalThis.rlabReady);
	}
	if (typeof globalThis.__rlabReadyAt !== "number") {
		fail("globalThis.__rlabReadyAt is " + globalThis.__rlabReadyAt);
	}
	// A call made while Go is still inside markReady...
	const version = ping("inside onRlabReady");
	// ...and one made after main has parked in select {}: it fails with
	// "Go program has already exited" if main returned instead.
	setTimeout(() => {
		try {
			ping("after startup");
		} catch (err) {
			fail("rlab.ping() after startup threw: " + err.message);
		}
		clearTimeout(timer);
		console.log("ready " + version);
		process.exit(0);
	}, 0);
};

const go = new Go();
WebAssembly.instantiate(fs.readFileSync(wasmFile), go.importObject)
	.then((result) => go.run(result.instance))
	.then(() => fail("the Go program exited; main must not return"))
	.catch((err) => fail(String(err && err.stack || err)));
