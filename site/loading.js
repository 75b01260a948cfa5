// loading.js draws main.wasm's download, the longest wait of a page load on
// a slow network: a bar and its words, bytes of main.wasm's size. early.js
// draws with it from the moment the download starts, before the rest of the
// page's scripts have arrived; the page (app.js) draws with it once it runs,
// and says the download's quarters in #status too.
import {formatNumber, t} from "./i18n.js";

/** @typedef {import("./download.js").Download} Download */

/**
 * What the page leaves on globalThis for the browser tests: when the
 * download first showed.
 * @typedef {{__rlabProgressAt?: number}} ProgressHooks
 */
const hooks = /** @type {typeof globalThis & ProgressHooks} */ (globalThis);

// megabytes writes n bytes as megabytes, to one decimal.
/**
 * @param {number} n
 * @returns {string}
 */
function megabytes(n) {
	return formatNumber(n / 1e6, {minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false});
}

// drawDownload shows the download in #engine-progress and its words in
// #engine-load-text, as bytes of main.wasm's size, both as it is once
// decoded (what the download counts) and the compressed size that crosses
// the network when the server says it.
/** @param {Download} d */
function drawDownload(d) {
	const bar = /** @type {HTMLProgressElement} */ (document.getElementById("engine-progress"));
	const words = /** @type {HTMLElement} */ (document.getElementById("engine-load-text"));
	let text;
	if (d.total > 0) {
		bar.max = d.total;
		bar.value = d.loaded;
		text = t("load.ofTotal", {loaded: megabytes(d.loaded), total: megabytes(d.total)});
	} else {
		bar.removeAttribute("value"); // indeterminate
		text = t("unit.megabytes", {n: megabytes(d.loaded)});
	}
	if (d.wire > 0) {
		text = t("load.compressed", {progress: text, wire: megabytes(d.wire)});
	}
	if (d.done) {
		text = t("load.starting", {progress: text});
	}
	words.textContent = text;
	// The words are the drawing's from now on: translating index.html's
	// text (translateStatic) must not put its "loading…" back.
	delete words.dataset.i18n;
	bar.setAttribute("aria-valuetext", text);
	if (hooks.__rlabProgressAt === undefined) {
		performance.mark("rlab:progress");
		hooks.__rlabProgressAt = performance.now();
	}
}

// onceAFrame returns a function that runs draw in the next frame, once
// however often it is called before then.
/**
 * @param {() => void} draw
 * @returns {() => void}
 */
function onceAFrame(draw) {
	let queued = false;
	return () => {
		if (queued) {
			return;
		}
		queued = true;
		requestAnimationFrame(() => {
			queued = false;
			draw();
		});
	};
}

export {drawDownload, megabytes, onceAFrame};
