// playback.js owns how time moves: the one queue every action that talks to
// the engine runs through (act), one at a time, with its pending marks;
// Step, Step back, Next sync and seeking; Play, its ticks at the chosen
// speed; and Stabilize's chunked run, with the pictures drawn between its
// chunks at a pace its cost allows.

import {busyTimelineItems, call, chunkViewEvery, chunkViewPace, els, engine, maxStabilizeSteps, parts, showFailure, showIdle, showNotice, stabilizeChunk, stabilizeChunkMs, state, stepName, timelineCap} from "./page.js";
import {addSteps, fillTimeline, restoreForks, scheduleTimeline} from "./timeline.js";
import {afterNextFrame, fetchView, refresh, scheduleRender, setBusy, setCounter, setSyncNote, setView, updateControls} from "./view.js";
import {h, settle} from "./ui-util.js";
import {duration, t, tParts} from "./i18n.js";

// act runs fn after every action before it has finished. Errors are shown
// and end the action (and play mode); the page goes on.
//
// Every action the learner asks for runs: 100 presses of → are 100
// steps, however fast they come, and an action asked for before the
// engine is up runs once it is. While one waits, it shows: control (the
// button or field the learner used) carries a pending mark until its
// action has run, and #queued counts the actions not yet started. The
// page's own actions (catching the engine up, filling the timeline) say
// internal and are not counted.
/** @type {Promise<unknown>} */
let chain = Promise.resolve();

/**
 * @template T
 * @param {() => Promise<T> | T} fn
 * @param {{rethrow?: boolean, control?: HTMLElement | null, internal?: boolean}} [options]
 * @returns {Promise<T | undefined>}
 */
function act(fn, {rethrow = false, control = null, internal = false} = {}) {
	const counted = !internal;
	if (counted) {
		state.waiting++;
		markPending(control, 1);
	}
	const run = chain.then(async () => {
		if (counted) {
			state.waiting--;
			showQueue();
		}
		try {
			return await fn();
		} catch (e) {
			// Anything thrown may carry the mark call and refresh set.
			const err = /** @type {{shown?: boolean, message?: string}} */ (e);
			stopPlay();
			if (!err.shown) {
				showFailure(err);
				err.shown = true;
			}
			if (rethrow) {
				throw err;
			}
			return undefined;
		} finally {
			if (counted) {
				markPending(control, -1);
			}
		}
	});
	chain = run.catch(() => {});
	return run;
}

// markPending adds delta to the actions control has waiting or running,
// and redraws the marks and the count.
/**
 * @param {HTMLElement | null} control
 * @param {number} delta
 */
function markPending(control, delta) {
	if (control) {
		const n = (state.pending.get(control) || 0) + delta;
		if (n > 0) {
			state.pending.set(control, n);
		} else {
			state.pending.delete(control);
		}
		drawPendingMark(control, n);
	}
	showQueue();
}

// drawPendingMark marks a control whose action has not run yet: a class
// (an outline) and, on a button, "◷" with the count, so the mark is not
// told by colour alone. The count is for the eye; #queued and #status
// say it in words.
/**
 * @param {HTMLElement} control
 * @param {number} n
 */
function drawPendingMark(control, n) {
	control.classList.toggle("pending", n > 0);
	let mark = control.querySelector(":scope > .pending-mark");
	if (n <= 0 || control.tagName !== "BUTTON") {
		if (mark) {
			mark.remove();
		}
		return;
	}
	if (!mark) {
		mark = h("span", {class: "pending-mark", "aria-hidden": "true"});
		control.appendChild(mark);
	}
	mark.textContent = n > 1 ? `◷${n}` : "◷";
}

// showQueue shows how many of the learner's actions wait: "+N queued"
// behind the one running, or, before the engine is up, that they wait
// for it. #status, which a screen reader reads, changes only when the
// first starts or the last stops waiting.
let statusWaiting = false;

function showQueue() {
	const n = state.waiting;
	settle(els.queued, {
		hidden: n === 0,
		text: n === 0 ? "" : state.engineUp
			? t("queue.queued", {n})
			: t("queue.waiting", {actions: t("count.actions", {n})}),
	});
	if (!state.engineUp && (n > 0) !== statusWaiting && state.ready && !state.busy) {
		showIdle();
	}
	statusWaiting = n > 0;
}

function stepForward() {
	return act(async () => {
		stopPlay();
		state.intro = false;
		await stepOnce(1);
	}, {control: els.stepForward});
}

// stepOnce runs n steps and redraws; it says so when nothing is left to do.
/**
 * @param {number} n
 * @returns {Promise<import("./bridge-types.js").StepsResult>}
 */
async function stepOnce(n) {
	const res = await call("step", {n});
	addSteps(res.steps);
	await refresh();
	if (res.ran === 0) {
		setSyncNote(t("note.agendaEmpty"));
	} else {
		setSyncNote("");
	}
	return res;
}

function stepBack() {
	if (!state.view || state.view.step === 0) {
		return Promise.resolve();
	}
	return act(async () => {
		stopPlay();
		state.intro = false;
		// The present when the action runs: queued presses go back a
		// step each. A world on show stays on show.
		await seekTo(/** @type {import("./bridge-types.js").View} */ (state.view).step - 1);
	}, {control: els.stepBack});
}

function untilSync() {
	if (refuseOnStepwisePage(t("controls.untilSyncName"))) {
		return Promise.resolve();
	}
	return act(async () => {
		stopPlay();
		state.intro = false;
		const res = await call("untilSync", {});
		addSteps(res.steps);
		await refresh();
		if (res.sync) {
			// The names, the decision and the error are the engine's.
			const s = res.sync;
			/** @param {string} text */
			const en = (text) => h("span", {lang: "en", text});
			const params = {owner: en(s.owner), key: en(s.key), worker: en(s.worker), start: duration(s.start), end: duration(s.end),
				decision: s.decision ? en(s.decision) : "", err: s.err ? en(s.err) : ""};
			const key = s.decision ? (s.err ? "note.syncDecidedFailed" : "note.syncDecided") : (s.err ? "note.syncFailed" : "note.sync");
			setSyncNote(tParts(key, params));
		} else if (res.idle) {
			setSyncNote(t("note.noSyncIdle"));
		} else if (res.limit) {
			setSyncNote(tParts("note.noSyncLimit", {limit: h("code", {lang: "en", text: res.limit})}));
		}
	}, {control: els.untilSync});
}

// seekTo moves the world to a recorded step (inside an action).
/** @param {number} n */
async function seekTo(n) {
	// Time moves only in a world on show.
	const view = /** @type {import("./bridge-types.js").View} */ (state.view);
	const target = Math.max(0, Math.min(n, view.recordedSteps));
	if (target === view.step) {
		scheduleRender();
		return;
	}
	await call("seek", {step: target});
	await refresh();
	setSyncNote("");
	// Keep the timeline around the present when the learner jumps far,
	// unless the present is one of the steps no longer kept and the
	// timeline already begins with the oldest kept step.
	const before = target < state.keptFrom && state.tl.find((e) => e.step)?.n === state.keptFrom;
	if (target > 0 && !before && !state.tl.some((e) => e.n === target)) {
		const forks = state.tl.filter((e) => e.fork !== undefined);
		await fillTimeline(target);
		restoreForks(forks);
		scheduleRender();
	}
}

/** @param {number} n */
function seek(n) {
	return act(async () => {
		stopPlay();
		state.intro = false;
		await seekTo(n);
	}, {control: els.scrubber});
}

function togglePlay() {
	if (state.playing) {
		stopPlay();
	} else {
		startPlay();
	}
}

function startPlay() {
	if (!state.ready || state.busy || state.playing) {
		return;
	}
	state.playing = true;
	state.intro = false;
	state.drawnInPlay.clear();
	updateControls();
	playTick();
}

function stopPlay() {
	if (!state.playing) {
		return;
	}
	state.playing = false;
	clearTimeout(state.playTimer);
	updateControls();
	// The panels inside the controller were drawn at Play's pace:
	// draw them as the world now is.
	scheduleRender();
}

// playTick steps, redraws and waits, at the chosen speed: up to 10 ticks
// a second, several steps a tick beyond that.
async function playTick() {
	if (!state.playing) {
		return;
	}
	const speed = Number(els.speed.value) || 1;
	const ticks = Math.min(speed, 10);
	const n = Math.max(1, Math.round(speed / ticks));
	const started = performance.now();
	// Play's ticks are the page's own: the learner asked for Play once,
	// and "+1 queued" showing and hiding at every tick would only move
	// the controls about.
	await act(async () => {
		if (!state.playing) {
			return;
		}
		const res = await stepOnce(n);
		// stepOnce refreshed the view.
		const atRest = /** @type {import("./bridge-types.js").View} */ (state.view).atRest;
		if (res.ran === 0 || atRest) {
			stopPlay();
			setSyncNote(atRest ? t("note.playAtRest") : t("note.playNothingLeft"));
		}
	}, {internal: true});
	if (!state.playing) {
		return;
	}
	const wait = Math.max(0, 1000 / ticks - (performance.now() - started));
	state.playTimer = setTimeout(playTick, wait);
}

// stabilize runs the world to rest in chunks (inside an action), drawing
// at chunk ends; Cancel or Escape stops it at the next chunk.
async function stabilizeNow() {
	stopPlay();
	state.intro = false;
	setBusy(true, "stabilizing…");
	let chunks = 0;
	const first = state.view ? state.view.step : 0;
	try {
		const res = await engine().stabilize({
			chunk: stabilizeChunk,
			chunkMs: stabilizeChunkMs,
			steps: busyTimelineItems,
			onChunk: (r) => {
				chunks++;
				addSteps(r.steps);
				scheduleTimeline();
				// The step count shows the progress; #status, a live
				// region, keeps saying "stabilizing…", and #timeline-news
				// tells a screen reader how far the run got every few
				// seconds, rather than at every chunk.
				setCounter(r.step, Math.max(r.step, state.view ? state.view.recordedSteps : 0));
				if (r.step - first >= maxStabilizeSteps && !r.atRest) {
					engine().cancel();
					state.stabilizeLimited = true;
				}
				chunkView();
			},
		});
		if (chunks > 1) {
			// The chunks after the first listed only the newest steps
			// the timeline draws during the run; at rest it shows the
			// run's newest timelineCap.
			const last = await engine().call("steps", {from: Math.max(1, res.step - timelineCap + 1), to: res.step});
			addSteps(last.steps);
		}
		await refresh();
		if (state.stabilizeLimited) {
			setSyncNote(t("note.stabilizeLimited", {n: res.step - first}));
		} else if (res.cancelled) {
			setSyncNote(t("note.cancelledAt", {step: stepName(res.step)}));
		} else {
			// refresh set the view.
			setSyncNote(t("note.atRestAfter", {time: duration(/** @type {import("./bridge-types.js").View} */ (state.view).clock)}));
		}
		return res;
	} catch (e) {
		// The engine rejects with Errors only.
		const err = /** @type {Error & {shown?: boolean}} */ (e);
		showFailure(err);
		err.shown = true;
		// The world went on as far as it got; show that.
		await refresh().catch(() => {});
		throw err;
	} finally {
		state.stabilizeLimited = false;
		setBusy(false);
	}
}

function stabilize() {
	if (refuseOnStepwisePage(t("controls.stabilize"))) {
		return Promise.resolve();
	}
	return act(stabilizeNow, {control: els.stabilize});
}

// chunkView fetches a view between chunks of a run, one at a time, and
// draws it, so the learner sees the run progress.
//
// A picture is paid for by the run. The worker builds the view while the
// next chunk waits behind it, and the view looks at every object: in a
// world of 10,000 pods it takes about 40 ms of WebAssembly in Chromium
// (170 before the view merged sorted lists where it sorted maps), as long
// as half a chunk of steps. Then this thread draws a thousand pods and
// the inside panels, and the next chunk's answer waits for it to be done.
// Paced by the clock alone, four pictures a second took four fifths of
// such a run (Stabilize took 65 s where the engine alone takes 13).
// So the next picture comes no sooner than chunkViewPace times what the
// last one cost after it ends (its cost counted from its request to the
// end of the frame that drew it), which holds pictures to a tenth of a
// long run in a world of any size. In a world of 10,000 pods a picture
// costs about 110 ms so counted: its request waits behind the chunk the
// worker is running, and this thread draws a thousand pods. So a picture
// comes about once a second there, as it did when the view alone took
// 170 ms and the pace was four times; at four times now, pictures came
// every 0.4 s and Stabilize took 3.55-3.6 s where it takes 3.33-3.43. In
// a small world, where they are cheap, chunkViewEvery keeps them to a few
// a second, enough to see the run move: more would only cost the page
// time it needs for input.
function chunkView() {
	const now = performance.now();
	if (state.chunkViewPending || now < state.nextChunkView) {
		return;
	}
	state.chunkViewPending = true;
	fetchView()
		.then((view) => {
			if (!state.busy) {
				return null;
			}
			setView(view);
			engine().remember(view);
			scheduleRender();
			return afterNextFrame();
		})
		.catch(() => {})
		.finally(() => {
			const end = performance.now();
			state.nextChunkView = Math.max(now + chunkViewEvery, end + chunkViewPace * (end - now));
			state.chunkViewPending = false;
		});
}

// refuseOnStepwisePage, on a stepwise page of a lesson, says why a
// button that runs many events does not, and reports true.
/**
 * @param {string} what
 * @returns {boolean}
 */
function refuseOnStepwisePage(what) {
	if (!parts.lesson.stepwise()) {
		return false;
	}
	showNotice(t("note.stepwise", {what}));
	return true;
}

export {act, seek, seekTo, showQueue, stabilize, stabilizeNow, stepBack, stepForward, stopPlay, togglePlay, untilSync};
