// share.js owns share links and the page's URL: the URL always says where
// the learner is, as a share link does (the world, the seed, the inputs, the
// present step, the lesson's page, the page's language), so that a reload,
// or a link copied from the address bar, returns to exactly here; the Share
// button puts the same link in a field and on the clipboard. The link's
// format, and the replay that turns one back into a world, are engine.js's.

import {clearNotice, els, engine, english, parts, showError, showFailure, showNotice, state} from "./page.js";
import {RlabEngine} from "./engine.js";
import {i18n, t, tParts} from "./i18n.js";

// The page's URL always says where the learner is, as a share link does
// (the world, the seed, the inputs, the present step, the lesson's
// page), so that a reload, or a link copied from the address bar,
// returns to exactly here. It is rewritten with replaceState, which adds
// no history entry, a moment after the learner stops moving; the
// default first world has no hash at all, so "/" stays the fast path
// that draws the page's own first world.
const urlDelay = 300;

// urlState is the replay state of the present, with the lesson's page and
// the page's language; null before the engine has said its version.
/** @returns {import("./engine.js").ReplayState | null} */
function urlState() {
	const view = state.view;
	if (!view || !state.engine || !state.engine.version) {
		return null;
	}
	const st = RlabEngine.stateFromView(view, state.engine.version);
	if (view.mode === "lesson" && parts.lesson.info) {
		st.page = parts.lesson.page + 1;
	}
	st.lang = i18n.locale;
	return st;
}

// startKey identifies the default first world, whatever the version and
// the language (which the learner's choice keeps, in localStorage).
/**
 * @param {import("./engine.js").ReplayState} st
 * @returns {string}
 */
function startKey(st) {
	return JSON.stringify(Object.assign({}, st, {version: "", lang: ""}));
}

function syncURL() {
	clearTimeout(state.urlTimer);
	state.urlTimer = setTimeout(writeURL, urlDelay);
}

// writeURL puts the present in the URL now. During a chunked run it
// waits: the run's end renders, which syncs again.
function writeURL() {
	clearTimeout(state.urlTimer);
	if (!state.ready || state.busy) {
		return;
	}
	const st = urlState();
	if (!st) {
		return;
	}
	let hash;
	try {
		hash = RlabEngine.encodeState(st);
	} catch (err) {
		return; // a seed too large for a link: the URL stays as it was
	}
	const want = startKey(st) === state.startKey ? "" : `#${hash}`;
	if (location.hash !== want && !(want === "" && location.hash === "#")) {
		history.replaceState(null, "", location.pathname + location.search + want);
	}
}

// rememberStart notes the world on show as the default first world.
function rememberStart() {
	const st = state.view ? RlabEngine.stateFromView(state.view, "") : null;
	state.startKey = st ? startKey(st) : null;
}

function clearHash() {
	if (location.hash) {
		history.replaceState(null, "", location.pathname + location.search);
	}
	els.shareRow.hidden = true;
}

function share() {
	const view = state.view;
	if (!view) {
		return;
	}
	let hash;
	try {
		hash = RlabEngine.encodeState(Object.assign(RlabEngine.stateFromView(view, engine().version), {lang: i18n.locale}));
	} catch (e) {
		// encodeState throws Errors only.
		showFailure(e);
		return;
	}
	const url = `${location.origin}${location.pathname}#${hash}`;
	els.shareRow.hidden = false;
	els.shareLink.value = url;
	els.shareLink.focus();
	els.shareLink.select();
	history.replaceState(null, "", `#${hash}`);
	if (navigator.clipboard && navigator.clipboard.writeText) {
		navigator.clipboard.writeText(url).then(
			() => showNotice(t("share.copied")),
			() => showNotice(t("share.notCopied")));
	}
}

// exportFileName is the name the page saves an export as.
const exportFileName = "rlab-export.sh";

// exporting is set while an export is being written, so that a second
// press of Export does not start a second worker.
let exporting = false;

// exportWorld downloads what the learner did, from the lesson's setup or
// the sandbox's start to the present, as a bash script of kubectl to
// replay on a real cluster. main.wasm does not carry the exporter (its
// size budget has no room for it): the view already holds the history (the
// lesson, the seed, the learner's inputs with their steps, the present
// step), which export.wasm, run in a worker of its own (export-worker.js),
// writes as rlab export would (core/export's FromHistory).
async function exportWorld() {
	const view = state.view;
	if (!view || exporting) {
		return;
	}
	// An export.History (core/export); export.wasm adds the lesson's setup.
	const history = JSON.stringify({
		...(view.mode === "lesson" && view.lesson ? {lesson: view.lesson} : {}),
		seed: view.seed,
		inputs: (view.inputs || []).map((input) => ({step: input.step, text: input.text})),
		present: view.step,
	});
	exporting = true;
	els.exportButton.setAttribute("aria-busy", "true");
	showNotice(t("export.preparing"));
	/** @type {{script?: string, error?: string}} */
	let reply;
	try {
		reply = await writeExport(history);
	} finally {
		exporting = false;
		els.exportButton.removeAttribute("aria-busy");
	}
	if (typeof reply.script !== "string") {
		clearNotice();
		showError(tParts("export.failed", {reason: english(reply.error || "no answer")}));
		return;
	}
	const blob = new Blob([reply.script], {type: "text/x-shellscript"});
	const a = document.createElement("a");
	a.href = URL.createObjectURL(blob);
	a.download = exportFileName;
	document.body.appendChild(a);
	a.click();
	a.remove();
	setTimeout(() => URL.revokeObjectURL(a.href), 1000);
	showNotice(t("export.downloaded", {file: exportFileName}));
}

// writeExport starts export-worker.js, hands it history (the JSON text of
// an export.History) and resolves with its reply, {script} or {error}; the
// worker is ended either way, so export.wasm holds no memory after it.
/**
 * @param {string} history
 * @returns {Promise<{script?: string, error?: string}>}
 */
function writeExport(history) {
	return new Promise((resolve) => {
		const worker = new Worker("export-worker.js");
		/** @param {{script?: string, error?: string}} reply */
		const done = (reply) => {
			worker.terminate();
			resolve(reply);
		};
		worker.addEventListener("message", (event) => done(event.data));
		worker.addEventListener("error", (event) => {
			// A worker that cannot load (its script missing, say) reports
			// here, not by a message.
			event.preventDefault();
			done({error: event.message || "export-worker.js could not be started"});
		});
		worker.postMessage({history});
	});
}

export {clearHash, exportWorld, rememberStart, share, syncURL, writeURL};
