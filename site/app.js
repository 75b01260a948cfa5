// app.js starts Reconcile Lab's simulator, Go compiled to WebAssembly, and
// says in #status how that went. It is deliberately small: once main.wasm runs,
// it sets #status to "ready" itself and serves the page through globalThis.rlab
// (see wasm/doc.go).
//
// It runs as a deferred external script, after wasm_exec.js has defined Go and
// after the page has painted "loading…": the Content-Security-Policy forbids
// inline scripts.
"use strict";

(() => {
	const status = document.getElementById("status");

	function fail(err) {
		console.error(err);
		status.textContent = "error: " + (err instanceof Error ? err.message : String(err));
	}

	if (typeof WebAssembly !== "object") {
		fail(new Error("this browser cannot run WebAssembly"));
		return;
	}
	if (typeof Go !== "function") {
		fail(new Error("wasm_exec.js did not load; build the page with make wasm"));
		return;
	}

	globalThis.onRlabReady = () => {
		console.info(`Reconcile Lab ${globalThis.rlab.version} ready ${Math.round(globalThis.__rlabReadyAt)} ms after navigation`);
	};

	const go = new Go();
	// Check the response ourselves: instantiateStreaming's own message for a
	// 404 does not say which file was missing.
	const wasm = fetch("main.wasm").then((response) => {
		if (!response.ok) {
			throw new Error(`main.wasm: ${response.status} ${response.statusText}; build it with make wasm`);
		}
		return response;
	});
	WebAssembly.instantiateStreaming(wasm, go.importObject)
		.then((result) => go.run(result.instance))
		// go.run settles only when the Go program exits, which it must not do
		// while the page is open.
		.then(() => fail(new Error("the simulator stopped; the browser console says why")))
		.catch(fail);
})();
