// export.js runs export.wasm under node as site/export-worker.js runs it in
// a page, and calls globalThis.rlabExport.
//
// Usage: node export.js <wasm_exec.js> <export.wasm> <history.json>
//
// It prints the script rlabExport returns for the history and exits 0, or
// prints the message of the Error it returns and exits 1. Before that it
// checks that a call with no argument returns an Error, not a script, and
// exits 3 if not.
"use strict";

const fs = require("fs");
const path = require("path");

const [wasmExec, wasmFile, historyFile] = process.argv.slice(2);
if (!wasmExec || !wasmFile || !historyFile) {
	console.error("usage: node export.js <wasm_exec.js> <export.wasm> <history.json>");
	process.exit(2);
}

globalThis.fs ??= fs;
require(path.resolve(wasmExec));

const go = new Go();
WebAssembly.instantiate(fs.readFileSync(wasmFile), go.importObject).then((result) => {
	go.run(result.instance).then(() => {
		console.error("the Go program exited; main must not return");
		process.exit(1);
	});
	// Go.run runs main until it parks, so the function is there now.
	if (typeof globalThis.rlabExport !== "function") {
		console.error("export.wasm set no globalThis.rlabExport");
		process.exit(1);
	}
	const wrong = globalThis.rlabExport();
	if (!(wrong instanceof Error) || !wrong.message.includes("one argument")) {
		console.error("rlabExport() returned " + String(wrong) + ", not an Error that says what it takes");
		process.exit(3);
	}
	const res = globalThis.rlabExport(fs.readFileSync(historyFile, "utf8"));
	if (typeof res === "string") {
		process.stdout.write(res, () => process.exit(0));
	} else {
		console.error(res.message);
		process.exit(1);
	}
}).catch((err) => {
	console.error(String(err && err.stack || err));
	process.exit(1);
});
