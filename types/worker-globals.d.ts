// worker-globals.d.ts declares, for tsc (make typecheck), what the page's
// workers (site/worker.js, site/export-worker.js) find in their global scope
// without declaring it: the Go class that wasm_exec.js, copied from the Go
// toolchain by make wasm, defines, and what main.wasm and export.wasm
// install once Go runs (wasm/main_js.go, exportwasm/main_js.go). The
// service worker (site/sw.js) needs none of it.

// Go runs a Go program compiled to WebAssembly (wasm_exec.js).
declare class Go {
	// importObject is what the program's module imports.
	importObject: WebAssembly.Imports;
	// run starts the program; it resolves when the program exits.
	run(instance: WebAssembly.Instance): Promise<void>;
	// exit is called with the program's exit code.
	exit: (code: number) => void;
	// env is the program's environment, which its runtime reads as it
	// starts (GOMEMLIMIT, GODEBUG).
	env: Record<string, string>;
}

// rlab is the bridge main.wasm installs: its version, and call, which
// answers one request's JSON text with the answer's.
declare var rlab: {version: string; call(request: string): unknown};
// onRlabReady is called by main.wasm once rlab is installed.
declare var onRlabReady: () => void;
// __rlabReadyAt is when Go was up (performance.now()).
declare var __rlabReadyAt: number;
// rlabExport is the function export.wasm installs: the script's text for
// the JSON text of an export.History, or an Error (returned, not thrown)
// that says why there is none.
declare var rlabExport: (history: string) => string | Error;
