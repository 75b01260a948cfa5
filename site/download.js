// download.js downloads main.wasm and counts its bytes as they arrive. The
// page asks for main.wasm first thing (early.js), before most of its scripts
// have even arrived: on a slow network the download is the longest wait of
// a page load, and its progress the first thing a learner should see. The
// engine (engine.js) takes the download over when the page starts it, and
// compiles what it brings. This module is in the page's first script, and
// imports nothing, so that it costs that script as little as it can.

/**
 * Download is how far main.wasm's download has come: loaded and total are
 * bytes of main.wasm itself, as it is once decoded (total 0 while it is not
 * known), and wire the bytes its compressed copy takes on the network (0
 * when it is sent as it is, or not known); done once every byte is in.
 * @typedef {{loaded: number, total: number, wire: number, done: boolean}} Download
 */

// WasmDownload is one download of main.wasm, from its request on. response
// resolves to a response for the compiler, with main.wasm's bytes; progress
// counts them as they arrive, and onProgress hears each change.
//
// The bytes are counted as the network brings them, not as the compiler
// reads them: the download starts before the page's scripts have all
// arrived, and the compiler only once the page's first world is on the
// screen, so counting what the compiler read would stand still while the
// bytes came. The body is split in two (tee): one branch is read at once
// and counted, the other waits for the compiler, holding the bytes read
// ahead of it.
//
// A reader sees the body decoded, so the bytes counted are main.wasm's
// own, and they are counted against main.wasm's own size: Content-Length
// when the file comes as it is, and, when it comes compressed
// (Content-Length is then the compressed size), X-Decoded-Length, which
// rlab serve adds to a precompressed file's response. A server that sends
// neither leaves the total unknown, and the page shows the bytes alone.
class WasmDownload {
	/** @param {string} url */
	constructor(url) {
		/** @type {Download} */
		this.progress = {loaded: 0, total: 0, wire: 0, done: false};
		/** @type {(download: Download) => void} */
		this.onProgress = () => {};
		/** @type {Promise<Response>} */
		this.response = fetch(url).then((r) => (r.ok ? this.counted(r) : r));
		// A failure is the compile's to report, whenever it starts; until
		// then it is not an unhandled one.
		this.response.catch(() => {});
	}

	// counted reads response's sizes and starts counting its bytes, and
	// returns a response with the same bytes for the compiler.
	/**
	 * @param {Response} response
	 * @returns {Response}
	 */
	counted(response) {
		const d = this.progress;
		/** @param {string} name */
		const length = (name) => {
			const n = Number(response.headers.get(name));
			return Number.isSafeInteger(n) && n > 0 ? n : 0;
		};
		const coding = (response.headers.get("Content-Encoding") || "identity").trim().toLowerCase();
		if (coding === "identity") {
			d.total = length("Content-Length");
		} else {
			d.total = length("X-Decoded-Length");
			d.wire = length("Content-Length");
		}
		this.onProgress(d);
		if (!response.body) {
			return response;
		}
		const [counting, kept] = response.body.tee();
		const reader = counting.getReader();
		/** @returns {Promise<void>} */
		const count = () => reader.read().then(({done, value}) => {
			if (done) {
				d.done = true;
				d.total = Math.max(d.total, d.loaded);
				this.onProgress(d);
				return;
			}
			d.loaded += value.byteLength;
			this.onProgress(d);
			return count();
		});
		// A download that fails fails the compiler's branch too, and the
		// compile says so; the count only stops.
		count().catch(() => {});
		// The compiler needs the type (application/wasm) from the original
		// headers; the status and headers are otherwise the original's too.
		return new Response(kept, {status: response.status, statusText: response.statusText, headers: response.headers});
	}
}

// early holds the downloads prefetchWasm started, by URL, until an engine
// takes them over (takeWasmDownload).
/** @type {Map<string, WasmDownload>} */
const early = new Map();

// prefetchWasm asks for a main.wasm before any engine exists, where
// WebAssembly modules can be compiled from a stream (elsewhere the engine's
// worker fetches main.wasm itself), and has onProgress hear how far its
// download has come until an engine takes it over.
/**
 * @param {string} url
 * @param {(download: Download) => void} [onProgress]
 */
function prefetchWasm(url, onProgress) {
	if (typeof WebAssembly !== "object" || typeof WebAssembly.compileStreaming !== "function") {
		return;
	}
	let fetched = early.get(url);
	if (!fetched) {
		fetched = new WasmDownload(url);
		early.set(url, fetched);
	}
	if (onProgress) {
		fetched.onProgress = onProgress;
	}
}

// takeWasmDownload returns the download prefetchWasm started for url, if
// any, and forgets it: the engine that takes it is its only reader.
/**
 * @param {string} url
 * @returns {WasmDownload | undefined}
 */
function takeWasmDownload(url) {
	const fetched = early.get(url);
	early.delete(url);
	return fetched;
}

export {WasmDownload, prefetchWasm, takeWasmDownload};
