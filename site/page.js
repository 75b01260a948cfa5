// page.js holds what every part of the page shares: the elements it draws
// into (els, found once by findElements), its one mutable state, the
// widgets app.js makes (parts), the constants that pace it, its messages
// (#status, #error, #notice), the learner's step numbers, and call, which
// runs one engine op and shows its error. It imports none of the page's
// other parts (only a constant of the world's drawing, and the page's
// words, i18n.js), so each can import it.

import {maxPodsPerOwner} from "./ui-world.js";
import {has, t, tParts} from "./i18n.js";

// The sandbox's first command: a ReplicaSet ready to be stepped, so a
// learner sees the controller work without reading anything first.
const defaultCommand = "create rs web --replicas=3 --selector=app=web";
// The sandbox's starting worlds, by the value of their option in
// #world-select: the commands each runs after a new sandbox loads, echoed
// in the console as if the learner had typed them. They are the
// learner's inputs, so a share link carries them like any other.
/** @type {Record<string, string[]>} */
const sandboxStarts = {
	"sandbox": [defaultCommand],
	"sandbox:empty": [],
	"sandbox:adopt": [
		"create pod stray-1 --labels=app=web --node=node-1 --phase=Running --ready",
		"create pod stray-2 --labels=app=web --node=node-2 --phase=Running --ready",
		defaultCommand,
	],
	"sandbox:rc": ["create rc db --replicas=2 --selector=app=db"],
	"sandbox:two": [defaultCommand, "create rs api --replicas=2 --selector=tier=api --template-labels=tier=api,app=api"],
};
// The timeline keeps this many recent steps in the DOM; older ones are
// fetched on demand.
const timelineCap = 500;
// busyTimelineItems is how many of the newest steps the timeline shows
// while a chunked run (Stabilize) goes on, or Play runs: the whole list
// (500 items, 3,000 elements) made every frame of a 1,000-pod Play cost
// more (BenchmarkBrowserPlay: frame p95 32–34 ms against 49, late frames
// 33–38% against 41). It is drawn whole again when the run stops.
const busyTimelineItems = 30;
// A chunked run (Stabilize) asks the worker for chunks of steps that take
// about stabilizeChunkMs each: short enough that Cancel and Escape stop it
// soon and the step count moves, long enough that the round trips between
// chunks cost little. It begins at stabilizeChunk steps, and each next
// chunk is sized from how long the last took (engine.js's stabilize).
// Fixed chunks of 1000 steps were 30 ms each in a world of 10,000 pods,
// and its Stabilize took 7.0 s where chunks of 5000 took 6.1.
const stabilizeChunk = 1000;
const stabilizeChunkMs = 100;
// A stabilize that has not come to rest after this many steps is
// stopped, as the console's stabilize stops at --max-steps: a world that
// never rests (a create that fails for ever) must not run unattended. A
// million steps bring 10,000 pods to rest three times over.
const maxStabilizeSteps = 1_000_000;
// Between a chunked run's chunks the page shows a picture of the world
// at most every chunkViewEvery ms, and after a picture that cost c ms
// (the worker building the view, this thread drawing it) waits at
// least chunkViewPace × c before the next: see chunkView.
const chunkViewEvery = 250;
const chunkViewPace = 9;
// What each view asks for: the next agenda events, the last step (for the
// sentence), and caps on pods (in all, and of each group the world
// draws: it draws no more) and cache entries. The keys are in the
// engine's order, as the first world in index.html writes them.
const viewArgs = {agenda: 8, steps: 1, pods: 1000, podsPerGroup: maxPodsPerOwner, entries: 200};

/** @typedef {import("./bridge-types.js").BridgeOps} BridgeOps */

/**
 * Els are the page's elements, by name, each of the type its tag in
 * index.html gives it.
 * @typedef {Object} Els
 * @property {HTMLElement} status
 * @property {HTMLElement} error
 * @property {HTMLElement} errorText
 * @property {HTMLButtonElement} errorDismiss
 * @property {HTMLElement} notice
 * @property {HTMLElement} noticeText
 * @property {HTMLButtonElement} noticeDismiss
 * @property {HTMLSelectElement} worldSelect
 * @property {HTMLFormElement} sandboxForm
 * @property {HTMLInputElement} seedInput
 * @property {HTMLButtonElement} newSandbox
 * @property {HTMLButtonElement} share
 * @property {HTMLSelectElement} languageSelect
 * @property {HTMLButtonElement} exportButton
 * @property {HTMLElement} shareRow
 * @property {HTMLInputElement} shareLink
 * @property {HTMLButtonElement} helpButton
 * @property {HTMLDialogElement} help
 * @property {HTMLButtonElement} helpClose
 * @property {HTMLButtonElement} lessonsButton
 * @property {HTMLDialogElement} lessonsDialog
 * @property {HTMLOListElement} lessonsList
 * @property {HTMLButtonElement} lessonsClose
 * @property {HTMLButtonElement} lessonsExport
 * @property {HTMLInputElement} lessonsImport
 * @property {HTMLElement} lessonsNote
 * @property {HTMLButtonElement} stepBack
 * @property {HTMLButtonElement} stepForward
 * @property {HTMLButtonElement} untilSync
 * @property {HTMLButtonElement} play
 * @property {HTMLSelectElement} speed
 * @property {HTMLButtonElement} stabilize
 * @property {HTMLButtonElement} cancel
 * @property {HTMLElement} queued
 * @property {HTMLElement} engineLoad
 * @property {HTMLProgressElement} engineProgress
 * @property {HTMLElement} engineLoadText
 * @property {HTMLInputElement} scrubber
 * @property {HTMLElement} scrubTrack
 * @property {HTMLElement} setupSegment
 * @property {HTMLElement} setupLabel
 * @property {HTMLElement} stepCount
 * @property {HTMLElement} clock
 * @property {HTMLElement} worldState
 * @property {HTMLElement} sentence
 * @property {HTMLElement} syncNote
 * @property {HTMLElement} hint
 * @property {HTMLElement} world
 * @property {HTMLOListElement} timeline
 * @property {HTMLButtonElement} timelineEarlier
 * @property {HTMLElement} lesson
 * @property {HTMLElement} lessonNews
 * @property {HTMLButtonElement} lessonToggle
 * @property {HTMLElement} consoleOutput
 * @property {HTMLInputElement} consoleInput
 * @property {HTMLFormElement} consoleForm
 * @property {HTMLButtonElement} consoleRun
 * @property {HTMLElement} podMenu
 * @property {HTMLElement} loopPanel
 * @property {HTMLButtonElement} loopToggle
 * @property {HTMLElement} loopFigure
 * @property {HTMLElement} loopCaption
 * @property {HTMLElement} loopDetail
 * @property {HTMLElement} main
 * @property {HTMLElement} timelinePanel
 * @property {HTMLElement} insidePanel
 */

// els are the page's elements, by name, once findElements has found them
// (app.js calls it first thing, and nothing reads them before).
const els = /** @type {Els} */ ({});

// findElements fills els from the document.
function findElements() {
	// index.html has every element els names, of the type Els says.
	/** @param {string} id */
	const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
	Object.assign(els, /** @type {Els} */ ({
		status: $("status"),
		error: $("error"), errorText: $("error-text"), errorDismiss: $("error-dismiss"),
		notice: $("notice"), noticeText: $("notice-text"), noticeDismiss: $("notice-dismiss"),
		worldSelect: $("world-select"), sandboxForm: $("sandbox-form"), seedInput: $("seed-input"), newSandbox: $("new-sandbox"),
		share: $("share"), exportButton: $("export"), shareRow: $("share-row"), shareLink: $("share-link"), languageSelect: $("language-select"),
		helpButton: $("help-button"), help: $("help"), helpClose: $("help-close"),
		lessonsButton: $("lessons-button"), lessonsDialog: $("lessons"), lessonsList: $("lessons-list"),
		lessonsClose: $("lessons-close"), lessonsExport: $("lessons-export"), lessonsImport: $("lessons-import"),
		lessonsNote: $("lessons-note"),
		stepBack: $("step-back"), stepForward: $("step-forward"), untilSync: $("until-sync"),
		play: $("play"), speed: $("speed"), stabilize: $("stabilize"), cancel: $("cancel"), queued: $("queued"),
		engineLoad: $("engine-load"), engineProgress: $("engine-progress"), engineLoadText: $("engine-load-text"),
		scrubber: $("scrubber"), scrubTrack: $("scrub-track"), setupSegment: $("setup-segment"), setupLabel: $("setup-label"),
		stepCount: $("step-count"), clock: $("clock"), worldState: $("world-state"),
		sentence: $("sentence"), syncNote: $("sync-note"), hint: $("hint"),
		world: $("world"), timeline: $("timeline"), timelineEarlier: $("timeline-earlier"),
		lesson: $("lesson"), lessonNews: $("lesson-news"), lessonToggle: $("lesson-toggle"),
		consoleOutput: $("console-output"), consoleInput: $("console-input"), consoleForm: $("console-form"), consoleRun: $("console-run"),
		podMenu: $("pod-menu"),
		loopPanel: $("loop-panel"), loopToggle: $("loop-toggle"), loopFigure: $("loop-figure"), loopCaption: $("loop-caption"), loopDetail: $("loop-detail"),
		main: $("main"),
	}));
	// The lists Play draws only on the screen (watchOffScreen).
	els.timelinePanel = /** @type {HTMLElement} */ (els.timeline.closest(".panel"));
	els.insidePanel = /** @type {HTMLElement} */ (document.querySelector(".panel.inside"));
}

// parts are the page's widgets, which app.js makes, with the callbacks
// that tie each to the rest of the page, before anything runs: the console,
// the lesson player, the pod menu, the timeline's news for screen readers
// and the loop's picture. The other parts reach them here.
/**
 * @typedef {Object} Parts
 * @property {import("./ui-console.js").Console} console
 * @property {import("./ui-lesson.js").Lesson} lesson
 * @property {import("./ui-world.js").PodMenu} podMenu
 * @property {import("./ui-news.js").News} news
 * @property {import("./ui-loop.js").Loop} loop
 */
// app.js fills parts before anything reads them, so they are typed as
// the widgets they then are.
const parts = /** @type {Parts} */ (/** @type {unknown} */ ({console: null, lesson: null, podMenu: null, news: null, loop: null}));

/**
 * A timeline entry: a step, or the mark where the timeline forked at
 * step fork (n is then fork + 0.5), which dropped the recorded steps
 * after it. li is its item in #timeline once drawn, and base the
 * state.base it was drawn under (timeline.js).
 * @typedef {Object} TimelineEntry
 * @property {number} n
 * @property {import("./bridge-types.js").Step} [step]
 * @property {number} [fork]
 * @property {number} [dropped]
 * @property {number} [gap]
 * @property {boolean} [here]
 * @property {TimelineItem | null} [li]
 * @property {number} [base]
 */
/**
 * An item of #timeline, which knows its entry.
 * @typedef {HTMLLIElement & {_entry?: TimelineEntry}} TimelineItem
 */

// state is the page's one mutable state.
const state = {
	/** @type {import("./engine.js").RlabEngine | null} */
	engine: null,
	/** @type {import("./bridge-types.js").View | null} */
	view: null,
	ready: false, // the first world is drawn and the controls work
	// engineUp: the engine runs and holds the world on show. Until
	// then the page can be interactive (drawn from its first world),
	// but what the learner asks for waits for the engine.
	engineUp: false,
	// loadText is what #status says while the engine loads, once the
	// engine has said more than that it is loading.
	loadText: "",
	// waiting counts the learner's actions not yet started; pending
	// the actions not yet finished, by the control that asked for
	// them, which carries a pending mark until they are.
	waiting: 0,
	/** @type {Map<HTMLElement, number>} */
	pending: new Map(),
	busy: false, // a chunked run or a restore is going
	playing: false,
	playTimer: 0,
	// insideDrawnAt is when the panels inside the controller were last
	// drawn (renderInsideAtPace).
	insideDrawnAt: 0,
	// offScreen holds the lists (els.timelinePanel, els.insidePanel)
	// that are off the screen, which Play does not draw; stale those
	// it left undrawn, drawn when they come into view (watchOffScreen).
	/** @type {Set<HTMLElement>} */
	offScreen: new Set(),
	/** @type {Set<HTMLElement>} */
	stale: new Set(),
	// drawnInPlay holds the lists drawn since Play started: each is
	// drawn once, on the screen or not, which trims the timeline to
	// its newest steps (a whole timeline left in the page is thousands
	// of boxes that every frame lays out again).
	/** @type {Set<HTMLElement>} */
	drawnInPlay: new Set(),
	scrubbing: false,
	scrubTimer: 0,
	renderQueued: false,
	// timelineQueued: the timeline alone is to be drawn in the next
	// frame (scheduleTimeline).
	timelineQueued: false,
	// lastCurrent is the present step the timeline last marked.
	/** @type {number | undefined} */
	lastCurrent: undefined,
	// stabilizeLimited: the stabilize going on was stopped at its
	// most chunks (playback.js).
	stabilizeLimited: false,
	// urlTimer writes the present into the URL a moment after the
	// learner stops (share.js); startKey identifies the default first
	// world, whose URL has no hash.
	/** @type {number | undefined} */
	urlTimer: undefined,
	/** @type {string | null} */
	startKey: null,
	// helpReturn is where focus goes back to when the help closes.
	/** @type {Element | null} */
	helpReturn: null,
	// lessons is the engine's list of lessons, once asked for
	// (worlds.js); wantsLessons says the page was opened at #lessons.
	/** @type {import("./bridge-types.js").LessonInfo[] | null} */
	lessons: null,
	// lessonsError says why the engine has no lessons to list, when it
	// has none (lessons.json could not be fetched).
	lessonsError: "",
	wantsLessons: false,
	chunkViewPending: false,
	// nextChunkView is the earliest time (performance.now()) of the
	// next picture between a run's chunks (chunkView).
	nextChunkView: 0,
	// tl is the timeline: entries {n, step} for steps and {n: N + 0.5,
	// fork: N} for "timeline forked at step N", sorted by n.
	/** @type {TimelineEntry[]} */
	tl: [],
	// keptFrom is the oldest step the engine still lists, once a long run
	// made it drop the steps before it (StepsResult.keptFrom), else 0. The
	// timeline then begins with a note that says so ({n: N - 0.5, gap: N},
	// kept in gapEntry so that its item is drawn once), and offers no
	// earlier steps.
	keptFrom: 0,
	/** @type {TimelineEntry | null} */
	gapEntry: null,
	// base is the step at which the learner took over the world on show:
	// the steps up to it are the world's setup (nodes registering,
	// informers listing, a lesson's setup script), its history rather
	// than the learner's. The page counts the learner's steps from it.
	base: 0,
	// intro is true until the learner first moves time or gives an input
	// in a newly loaded world: until then the sentence says what they
	// are looking at, rather than what the last setup step did.
	intro: false,
};


// showError shows a problem in #error: message, the page's own words
// (text, or a message's parts, tParts), or, marked engine, the engine's
// (or the browser's) words, which stay English and are marked so.
/**
 * @param {string | Array<string | Node>} message
 * @param {{engine?: boolean}} [options]
 */
function showError(message, {engine = false} = {}) {
	els.errorText.replaceChildren(...(typeof message === "string" ? [message] : message));
	setLang(els.errorText, engine);
	els.error.hidden = false;
}

// showEngineError shows the engine's words in #error, as showError does.
/** @param {string} message */
function showEngineError(message) {
	showError(message, {engine: true});
}

// setLang marks el as holding the engine's English (engine) or the page's
// language (its lang attribute removed, so that el takes the page's).
/**
 * @param {Element} el
 * @param {boolean} engine
 */
function setLang(el, engine) {
	if (engine) {
		el.setAttribute("lang", "en");
	} else {
		el.removeAttribute("lang");
	}
}

// english wraps the engine's words (an error's message, a command) in a
// span marked lang="en", to be put into a sentence of the page's.
/** @param {string} text */
function english(text) {
	const span = document.createElement("span");
	span.lang = "en";
	span.textContent = text;
	return span;
}

// reasonOf is what err says, as the page shows it: an error engine.js made
// from one of the page's messages (its key and values: engine.js's
// failure) in the page's language, each value it quotes (a part of the
// link, the learner's text, the browser's reason) marked as English; any
// other error in the engine's English, marked as English.
/**
 * @param {unknown} err
 * @returns {HTMLElement}
 */
function reasonOf(err) {
	const e = /** @type {{key?: unknown, params?: Record<string, unknown>}} */ (err ?? {});
	if (typeof e.key === "string" && has(e.key)) {
		/** @type {Record<string, unknown>} */
		const params = {};
		for (const [name, value] of Object.entries(e.params || {})) {
			params[name] = typeof value === "string" ? english(value) : value;
		}
		const span = document.createElement("span");
		span.append(...tParts(e.key, params));
		return span;
	}
	return english(err instanceof Error ? err.message : String(err));
}

// showFailure shows what err says in #error: in the page's words where
// engine.js made it from one of the page's messages (reasonOf), else in the
// engine's, as showEngineError does.
/** @param {unknown} err */
function showFailure(err) {
	const reason = reasonOf(err);
	if (reason.lang === "en") {
		showEngineError(reason.textContent || "");
	} else {
		showError([reason]);
	}
}

function clearError() {
	els.error.hidden = true;
	els.errorText.textContent = "";
}

/** @param {string | Array<string | Node>} message */
function showNotice(message) {
	els.noticeText.replaceChildren(...(typeof message === "string" ? [message] : message));
	els.notice.hidden = false;
}

function clearNotice() {
	els.notice.hidden = true;
	els.noticeText.textContent = "";
}

// setStatus says text in #status, a live region: the page's words, or a
// message's parts (tParts) with the engine's words in them.
/** @param {string | Array<string | Node>} text */
function setStatus(text) {
	if (typeof text === "string") {
		els.status.textContent = text;
	} else {
		els.status.replaceChildren(...text);
	}
}

// showIdle says what the page is when it is not busy: "ready" once the
// engine holds the world on show, and how far the engine has loaded
// before that, when the page may already be interactive.
function showIdle() {
	document.body.dataset.state = state.engineUp ? "ready" : "loading";
	setStatus(state.engineUp ? t("status.ready") : loadingStatus());
}

// loadingStatus is #status while the engine loads. It is a live region,
// so it changes seldom: at each quarter of the download, and when the
// learner's first action starts or the last one stops waiting, not with
// every byte or press.
function loadingStatus() {
	const text = state.loadText || t("status.loading");
	return state.waiting > 0 ? t("status.waiting", {status: text}) : text;
}

// fail reports a problem the page cannot get past (no engine): the
// engine's (or the browser's) words, or, with pageWords, the page's own.
/**
 * @param {unknown} err
 * @param {{pageWords?: boolean}} [options]
 */
function fail(err, {pageWords = false} = {}) {
	console.error(err);
	const message = err instanceof Error ? err.message : String(err);
	// An error engine.js made from one of the page's messages is in the
	// page's words too (reasonOf).
	const reason = pageWords ? message : reasonOf(err);
	const ours = typeof reason === "string" || reason.lang !== "en";
	setStatus(tParts("status.error", {reason}));
	showError(typeof reason === "string" || !ours ? message : [/** @type {HTMLElement} */ (reason.cloneNode(true))], {engine: !ours});
	document.body.dataset.state = "error";
	if (!state.engineUp) {
		els.engineLoadText.textContent = t("engine.loadFailed");
		els.engineProgress.removeAttribute("aria-valuetext");
	}
}


// The engine numbers every step from the world's start; the page counts
// the learner's steps from the end of the setup (state.base), and names
// a setup step as one. Share links and the engine's own trace keep the
// engine's numbers.

// stepName names step n for the learner: "step 3" or "setup step 40".
/**
 * @param {number} n
 * @returns {string}
 */
function stepName(n) {
	return n >= state.base ? t("step.name", {n: n - state.base}) : t("step.setupName", {n});
}

// stepNameStart names step n as stepName does, to start a sentence with:
// "Step 3" or "Setup step 40".
/**
 * @param {number} n
 * @returns {string}
 */
function stepNameStart(n) {
	return n >= state.base ? t("step.nameStart", {n: n - state.base}) : t("step.setupNameStart", {n});
}

// counterText is what the step counter says for step n of recorded.
/**
 * @param {number} n
 * @param {number} recorded
 * @returns {string}
 */
function counterText(n, recorded) {
	return n < state.base
		? t("step.setupCounter", {n, total: state.base})
		: t("step.counter", {n: n - state.base, total: Math.max(0, recorded - state.base)});
}

// engine is the page's engine, which app.js makes before any part of the
// page asks for it.
/** @returns {import("./engine.js").RlabEngine} */
function engine() {
	if (!state.engine) {
		throw new Error(t("engine.notStarted"));
	}
	return state.engine;
}

// call runs one engine op; a rejection is shown in #error and passed on
// (marked as shown, so act does not show it twice).
/**
 * @template {keyof BridgeOps} Op
 * @param {Op} op
 * @param {BridgeOps[Op]["args"]} [args]
 * @returns {Promise<BridgeOps[Op]["result"]>}
 */
async function call(op, args) {
	try {
		return await engine().call(op, args);
	} catch (e) {
		// The engine rejects with Errors only.
		const err = /** @type {Error & {shown?: boolean}} */ (e);
		showFailure(err);
		err.shown = true;
		throw err;
	}
}

export {findElements, busyTimelineItems, call, engine, chunkViewEvery, chunkViewPace, clearError, clearNotice, counterText, defaultCommand, els, english, fail, loadingStatus, maxStabilizeSteps, parts, reasonOf, sandboxStarts, setStatus, showEngineError, showError, showFailure, showIdle, showNotice, stabilizeChunk, stabilizeChunkMs, state, stepName, stepNameStart, timelineCap, viewArgs};
