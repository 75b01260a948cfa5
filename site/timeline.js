// timeline.js owns the timeline: state.tl, the list of recent steps and
// fork notes ("timeline forked at step N"), kept in step with the engine's
// recorded steps (addSteps, trimTimeline, fillTimeline, noteFork), and its
// drawing in #timeline, which reuses items and marks the present and the
// recorded future.

import {busyTimelineItems, call, els, parts, state, stepName, timelineCap} from "./page.js";
import {h} from "./ui-util.js";
import {duration, pageLang, t} from "./i18n.js";

/** @typedef {import("./bridge-types.js").View} View */
/** @typedef {import("./bridge-types.js").Step} Step */
/** @typedef {import("./page.js").TimelineEntry} TimelineEntry */
/** @typedef {import("./page.js").TimelineItem} TimelineItem */

// noteFork adds "timeline forked at step N" when the learner gave a new
// input while the world was sought back to step N: the recorded steps
// after N are gone (the scrubber's maximum shrinks with them).
/**
 * @param {View | null | undefined} before
 * @param {View} view
 */
function noteFork(before, view) {
	if (!before || before.step >= before.recordedSteps) {
		return;
	}
	if (before.mode !== view.mode || before.lesson !== view.lesson || before.seed !== view.seed) {
		return;
	}
	if (inputsKey(before) === inputsKey(view)) {
		return;
	}
	const at = before.step;
	/** @type {TimelineEntry} */
	const entry = {n: at + 0.5, fork: at, dropped: before.recordedSteps - at};
	const i = state.tl.findIndex((e) => e.n > entry.n);
	state.tl.splice(i < 0 ? state.tl.length : i, 0, entry);
	parts.console.print(t("timeline.forkedDropped", {step: stepName(at), steps: t("count.recordedSteps", {n: before.recordedSteps - at})}), "console-note fork-note");
}

/** @param {View} view */
function inputsKey(view) {
	return JSON.stringify(view.inputs || []);
}

/** @returns {number | null} */
function lastStepN() {
	for (let i = state.tl.length - 1; i >= 0; i--) {
		if (state.tl[i].step) {
			return state.tl[i].n;
		}
	}
	return null;
}

// addSteps adds steps an op ran to the timeline. A step the timeline
// already holds with the same trace (stepping forward along the recorded
// timeline after a seek back) keeps its item; a different one replaces it
// and everything after it. A gap (an answer that listed only its last
// steps) starts the timeline over from the new steps.
/** @param {Step[] | undefined} steps */
function addSteps(steps) {
	if (!steps || !steps.length) {
		return;
	}
	const tl = state.tl;
	for (const s of steps) {
		let i = tl.length - 1;
		while (i >= 0 && tl[i].n > s.n) {
			i--;
		}
		if (i >= 0 && tl[i].n === s.n && tl[i].step?.trace === s.trace) {
			continue;
		}
		// Drop the entries from this step on, then append.
		let cut = tl.length;
		while (cut > 0 && tl[cut - 1].n >= s.n) {
			cut--;
		}
		tl.length = cut;
		const last = lastStepN();
		if (last !== null && s.n > last + 1) {
			tl.length = 0;
		}
		tl.push({n: s.n, step: s});
	}
	if (tl.length > timelineCap) {
		tl.splice(0, tl.length - timelineCap);
	}
}

// trimTimeline drops steps past the recorded end (a fork that ran no
// steps) but keeps the fork's note.
/** @param {number} recorded */
function trimTimeline(recorded) {
	const tl = state.tl;
	for (let last = tl.at(-1); last && last.n > recorded && !(last.fork !== undefined && last.fork <= recorded); last = tl.at(-1)) {
		tl.pop();
	}
}

// fillTimeline loads the most recent steps of the recorded timeline, for a
// world that was just loaded or restored.
/** @param {number} [around] */
async function fillTimeline(around) {
	const rec = state.view ? state.view.recordedSteps : 0;
	if (!rec) {
		state.tl = [];
		state.keptFrom = 0;
		return;
	}
	const center = around === undefined ? rec : around;
	const from = Math.max(1, Math.min(center - Math.floor(timelineCap / 2), rec - timelineCap + 1));
	let res = await call("steps", {from, to: Math.min(rec, from + timelineCap - 1)});
	state.keptFrom = res.keptFrom || 0;
	if (state.keptFrom > from) {
		// The steps around a step the engine no longer keeps: its oldest
		// kept steps, after the note that says why the rest are missing.
		res = await call("steps", {from: state.keptFrom, to: Math.min(rec, state.keptFrom + timelineCap - 1)});
	}
	// Keep the items of steps the timeline already shows (no redraw),
	// and replace the list in one go, so it is never seen empty.
	const known = new Map(state.tl.filter((e) => e.step).map((e) => [e.n, e]));
	state.tl = (res.steps || []).map((s) => {
		const old = known.get(s.n);
		return old && old.step?.trace === s.trace ? old : {n: s.n, step: s};
	});
}

/**
 * @param {TimelineEntry} entry
 * @returns {TimelineItem}
 */
function timelineItem(entry) {
	if (entry.gap !== undefined) {
		/** @type {TimelineItem} */
		const li = h("li", {class: "gap"}, entry.here
			? t("timeline.notKeptHere", {step: stepName(entry.gap)})
			: t("timeline.notKept", {step: stepName(entry.gap)}));
		li._entry = entry;
		return li;
	}
	if (entry.fork !== undefined) {
		// A fork's entry always counts the steps it dropped (noteFork).
		const dropped = /** @type {number} */ (entry.dropped);
		/** @type {TimelineItem} */
		const li = h("li", {class: "fork"},
			h("span", {"aria-hidden": "true", text: "⎇ "}),
			t("timeline.forkedReplaced", {step: stepName(entry.fork), steps: t("count.recordedSteps", {n: dropped})}));
		li._entry = entry;
		return li;
	}
	// An entry is a fork or a step.
	const s = /** @type {Step} */ (entry.step);
	// The item is drawn for the setup it was made under: a world loaded
	// anew (another base) draws its items anew.
	entry.base = state.base;
	const setup = s.n <= state.base;
	/** @type {TimelineItem} */
	// The step's actor, sentence and function are the engine's words,
	// and so is its trace line, the item's title: the item is English,
	// but for the page's words, its number and time.
	const li = h("li", {class: setup ? "setup" : null, dataset: {step: s.n}, title: s.trace, lang: "en"},
		setup
			? h("span", {class: "tl-n mono", lang: pageLang(), text: t("timeline.setupStep", {n: s.n})})
			: h("span", {class: "tl-n mono", text: `#${s.n - state.base}`}), " ",
		h("span", {class: "tl-at mono", lang: pageLang(), text: duration(s.at)}), " ",
		h("span", {class: "tl-actor", text: s.actor}), " ",
		h("span", {class: "tl-summary", text: s.summary}),
		s.models ? [" ", h("code", {class: "tl-models", text: s.models})] : null);
	li._entry = entry;
	return li;
}

// scheduleTimeline draws the timeline in the next frame, alone: a
// chunked run's chunks come faster than the views between them, and the
// timeline's present must keep up with the step counter.
function scheduleTimeline() {
	if (state.timelineQueued) {
		return;
	}
	state.timelineQueued = true;
	requestAnimationFrame(() => {
		state.timelineQueued = false;
		renderTimeline();
	});
}

// renderTimeline brings the list in line with state.tl, reusing items,
// and marks the present step and the recorded future.
function renderTimeline() {
	const ol = els.timeline;
	// During a chunked run, and while Play runs, only the newest
	// steps are drawn: a run replaces hundreds of steps a chunk, and
	// drawing them all a few times a second made Stabilize three times
	// slower. The whole timeline is drawn when the run ends.
	const entries = state.busy || state.playing ? state.tl.slice(-busyTimelineItems) : withGap(state.tl);
	const want = new Set(entries);
	for (const li of /** @type {TimelineItem[]} */ ([...ol.children])) {
		if (!li._entry || !want.has(li._entry)) {
			li.remove();
		}
	}
	/** @type {TimelineItem | null} */
	let prev = null;
	let added = false;
	for (const entry of entries) {
		if (entry.li && entry.step && entry.base !== state.base) {
			entry.li.remove();
			entry.li = null;
		}
		if (!entry.li) {
			entry.li = timelineItem(entry);
		}
		const li = entry.li;
		/** @type {ChildNode | null} */
		const expected = prev ? prev.nextSibling : ol.firstChild;
		if (li !== expected) {
			ol.insertBefore(li, expected);
			added = true;
		}
		prev = li;
	}
	// During a chunked run the present is the run's newest step, as the
	// counter says; the view, fetched between chunks, trails it.
	const view = state.view;
	const present = state.busy ? lastStepN() ?? 0 : view ? view.step : 0;
	let current = null;
	for (const entry of entries) {
		if (!entry.step) {
			continue;
		}
		// The loop above gave every entry drawn its item.
		const li = /** @type {TimelineItem} */ (entry.li);
		const isCurrent = entry.n === present;
		li.classList.toggle("future", entry.n > present);
		li.classList.toggle("current", isCurrent);
		if (isCurrent) {
			li.setAttribute("aria-current", "step");
			current = li;
		} else {
			li.removeAttribute("aria-current");
		}
	}
	const first = entries.find((e) => e.step);
	els.timelineEarlier.hidden = !first || first.n <= Math.max(1, state.keptFrom);
	// A present from before the steps listed has no item: the note that
	// says why stands for it.
	const gap = entries[0]?.here ? entries[0].li : null;
	const shown = current || gap;
	if (shown && (added || state.lastCurrent !== present)) {
		scrollTimelineTo(shown);
	}
	state.lastCurrent = present;
}

// withGap returns the entries to draw: tl, after the note that the steps
// before it are no longer kept when tl begins with the oldest kept step.
// The note is drawn anew when it names other steps: the present moved
// to the other side of it, or a world loaded anew named its steps anew.
/**
 * @param {TimelineEntry[]} tl
 * @returns {TimelineEntry[]}
 */
function withGap(tl) {
	const first = tl.find((e) => e.step);
	const kept = state.keptFrom;
	if (kept <= 1 || !first || first.n !== kept) {
		return tl;
	}
	const here = (state.view ? state.view.step : 0) < kept;
	const g = state.gapEntry;
	if (!g || g.gap !== kept || g.base !== state.base || g.here !== here) {
		g?.li?.remove();
		state.gapEntry = {n: kept - 0.5, gap: kept, base: state.base, here};
	}
	return [/** @type {TimelineEntry} */ (state.gapEntry), ...tl];
}

// scrollTimelineTo brings the present step into the timeline's view, in
// the next frame: measuring it now would make the browser lay out the
// whole page in the middle of drawing it, for nothing.
/** @param {HTMLElement} li */
function scrollTimelineTo(li) {
	requestAnimationFrame(() => {
		const ol = els.timeline;
		if (!li.isConnected) {
			return;
		}
		// Scroll the list itself, never the page.
		const top = li.offsetTop - ol.offsetTop;
		if (top < ol.scrollTop || top + li.offsetHeight > ol.scrollTop + ol.clientHeight) {
			ol.scrollTop = Math.max(0, top - ol.clientHeight / 2);
		}
	});
}

// restoreForks puts fork notes back into a refilled timeline, where
// it holds steps on both sides of them.
/** @param {TimelineEntry[]} forks */
function restoreForks(forks) {
	for (const f of forks) {
		const i = state.tl.findIndex((e) => e.n > f.n);
		if (i > 0) {
			state.tl.splice(i, 0, f);
		}
	}
}

export {addSteps, fillTimeline, noteFork, renderTimeline, restoreForks, scheduleTimeline, trimTimeline};
