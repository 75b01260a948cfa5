// export-worker.js writes the page's export: it runs export.wasm, the small
// Go program that turns a learner's history into a bash script of kubectl
// (exportwasm/, with core/export, the code rlab export runs), in a Web
// Worker of its own. main.wasm does not carry the exporter, which would take
// it over its size budget, so the page starts this worker only when the
// learner presses Export, and ends it once the script is written: export.wasm
// is fetched then and not at page load (the service worker keeps it for the
// next time, and for offline use).
//
// The protocol (share.js's exportWorld is the other side):
//
//	page → worker  {history}   the JSON text of an export.History: the
//	                           view's lesson, seed, inputs and present step
//	worker → page  {script}    the script's text
//	               {error}     why there is none, in English (the Go
//	                           program's words, or the fetch's)
"use strict";

importScripts("wasm_exec.js");

// started is export.wasm running, with rlabExport installed, once fetched
// and compiled; the first message starts it.
/** @type {Promise<void> | null} */
let started = null;

function start() {
	const go = new Go();
	// wasm_exec.js calls exit if the program ends; main parks forever, so an
	// exit is a failure, which the next call of rlabExport reports.
	go.exit = (/** @type {number} */ code) => {
		console.error(`export.wasm exited with code ${code}`);
	};
	return WebAssembly.instantiateStreaming(fetchWasm(), go.importObject).then((result) => {
		// Go.run runs main until it parks in select {}, having set
		// rlabExport; the promise it returns settles only if Go exits.
		go.run(result.instance).catch((err) => console.error(err));
		if (typeof globalThis.rlabExport !== "function") {
			throw new Error("export.wasm did not install rlabExport");
		}
	});
}

// fetchWasm fetches export.wasm for compiling while the bytes stream in,
// checking the response first, since instantiateStreaming's own message
// for a 404 does not name the file.
function fetchWasm() {
	return fetch("export.wasm").then((response) => {
		if (!response.ok) {
			throw new Error(`export.wasm: ${response.status} ${response.statusText}; build it with make wasm`);
		}
		return response;
	});
}

addEventListener("message", (event) => {
	const {history} = /** @type {{history: string}} */ (event.data);
	started ??= start();
	started
		.then(() => {
			const res = globalThis.rlabExport(history);
			if (typeof res !== "string") {
				// rlabExport returns an Error rather than throwing it: a Go
				// function called from JavaScript cannot throw.
				throw res;
			}
			postMessage({script: res});
		})
		.catch((/** @type {unknown} */ err) => {
			postMessage({error: err instanceof Error ? err.message : String(err)});
		});
});
