// share.js owns share links and the page's URL: the URL always says where
// the learner is, as a share link does (the world, the seed, the inputs, the
// present step, the lesson's page, the page's language), so that a reload,
// or a link copied from the address bar, returns to exactly here; the Share
// button puts the same link in a field and on the clipboard. The link's
// format, and the replay that turns one back into a world, are engine.js's.

import {call, els, engine, parts, showFailure, showNotice, state} from "./page.js";
import {RlabEngine} from "./engine.js";
import {i18n, t} from "./i18n.js";

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

// exportWorld downloads what the learner did, from the lesson's setup or
// the sandbox's start to the present, as the bridge's export op writes
// it: a bash script of kubectl (core/export) to replay on a real cluster.
async function exportWorld() {
	if (!state.view) {
		return;
	}
	/** @type {import("./bridge-types.js").ExportResult} */
	let res;
	try {
		res = await call("export");
	} catch {
		return; // call has shown the failure
	}
	const blob = new Blob([res.script], {type: "text/x-shellscript"});
	const a = document.createElement("a");
	a.href = URL.createObjectURL(blob);
	a.download = res.fileName;
	document.body.appendChild(a);
	a.click();
	a.remove();
	setTimeout(() => URL.revokeObjectURL(a.href), 1000);
	showNotice(t("export.downloaded", {file: res.fileName}));
}

export {clearHash, exportWorld, rememberStart, share, syncURL, writeURL};
