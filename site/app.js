// app.js is Reconcile Lab's page: it makes the page's widgets (the console,
// the lesson player, the pod menu, the loop's picture), wires the controls
// to the parts that run them, starts the engine (engine.js, which runs the
// Go simulator in a Web Worker) and loads the first world, drawn from the
// page's own first-world block while main.wasm still loads. The parts it
// wires live in modules of their own: page.js (the shared state), view.js
// (drawing the present), timeline.js, playback.js (moving time), share.js
// (links and the URL), worlds.js (loading worlds and lessons), progress.js
// and keyboard.js; the drawing itself lives in the ui-*.js files.
//
// Three rules keep the page responsive and correct:
//   - Every action that talks to the engine runs through act(), one at a
//     time, so a step never interleaves with a seek or a console command and
//     the page's idea of the present is always the engine's. None is
//     dropped: what waits is marked, and counted on screen.
//   - After an action the page fetches one view and schedules one render;
//     renders are coalesced to at most one per animation frame, and a
//     chunked run (stabilize) renders only at chunk ends.
//   - Nothing the engine, a lesson or a share link says is parsed as HTML.

import {findElements, parts, call, engine, clearError, clearNotice, defaultCommand, els, english, fail, loadingStatus, reasonOf, sandboxStarts, setStatus, showError, showIdle, showNotice, state, stepName, stepNameStart, viewArgs} from "./page.js";
import {addSteps, fillTimeline, restoreForks} from "./timeline.js";
import {clearHash, exportWorld, rememberStart, share, syncURL, writeURL} from "./share.js";
import {afterNextFrame, fetchView, findPod, refresh, render, scheduleRender, setBusy, setCounter, setSyncNote, setView, updateControls, watchOffScreen} from "./view.js";
import {act, seek, seekTo, showQueue, stabilize, stabilizeNow, stepBack, stepForward, stopPlay, togglePlay, untilSync} from "./playback.js";
import {progress} from "./progress.js";
import {exportProgress, importProgress, loadLesson, loadLessonList, loadSandbox, openLessons, restoreLink} from "./worlds.js";
import {keydown, openHelp} from "./keyboard.js";
import {focusIsNowhereOrIn, reducedMotion} from "./ui-util.js";
import {buildGlossary, decorateStatic, useGlossaryLanguage} from "./ui-glossary.js";
import {PodMenu, refKey, renderWorld, touchedSet} from "./ui-world.js";
import {Loop} from "./ui-loop.js";
import {Lesson} from "./ui-lesson.js";
import {Console} from "./ui-console.js";
import {News} from "./ui-news.js";
import {RlabEngine} from "./engine.js";
import {drawDownload, megabytes, onceAFrame} from "./loading.js";
import {formatNumber, i18n, locales, rememberLocale, t, tParts, translateStatic} from "./i18n.js";

/** @typedef {import("./bridge-types.js").View} View */
/** @typedef {import("./bridge-types.js").RunResult} RunResult */

/**
 * What the page leaves on globalThis for the browser tests (and for a
 * reader in the devtools): when it became interactive, when the engine
 * held its world, when the download first showed, the engine and view,
 * and the drawing functions the tests compare with.
 * @typedef {Object} TestHooks
 * @property {number} [__rlabReadyAt]
 * @property {number} [__rlabEngineReadyAt]
 * @property {number} [__rlabProgressAt]
 * @property {number} [__rlabStartedUpAt]
 * @property {{engine: RlabEngine, view: () => View | null}} [__rlab]
 * @property {Record<string, Function>} [RlabUI]
 */
const hooks = /** @type {typeof globalThis & TestHooks} */ (globalThis);

// earlierSteps prepends up to 200 older steps to the timeline, as many of
// them as the engine still keeps (state.keptFrom).
function earlierSteps() {
	return act(async () => {
		const first = state.tl.find((e) => e.step);
		if (!first || first.n <= Math.max(1, state.keptFrom)) {
			return;
		}
		const res = await call("steps", {from: Math.max(1, first.n - 200), to: first.n - 1});
		state.keptFrom = res.keptFrom || 0;
		state.tl.unshift(...(res.steps || []).map((s) => ({n: s.n, step: s})));
		scheduleRender();
	}, {control: els.timelineEarlier});
}

// runLine runs one console line and brings the page up to date (inside an
// action). A bare "stabilize" runs chunked, so it can be cancelled.
/**
 * @param {string} line
 * @returns {Promise<RunResult & {note?: string}>}
 */
async function runLine(line) {
	state.intro = false;
	if (/^\s*stabilize\s*$/.test(line) && !lesson.stepwise()) {
		// The page ran it, so the page says what came of it.
		const res = await stabilizeNow();
		return {ran: 0, step: res.step, atRest: res.atRest, output: "", note: res.cancelled ? t("console.cancelled") : t("console.atRestAt", {step: stepName(res.step)})};
	}
	const before = state.view;
	const page = lesson.pageNumber();
	const res = await call("run", page ? {line, page} : {line});
	addSteps(res.steps);
	await refresh(before);
	if (res.ran > 0) {
		// The world moved: a note on an earlier run ("At rest after …")
		// no longer holds.
		setSyncNote("");
	}
	return res;
}

findElements();

const consoleUI = new Console({
	output: els.consoleOutput, input: els.consoleInput, form: els.consoleForm, button: els.consoleRun,
}, {
	execute: runLine,
	submit: (line) => act(() => consoleUI.exec(line), {control: els.consoleRun}),
	complete: (line, cursor) => call("complete", {line, cursor}),
	stepName: (n) => stepName(n),
});

// runCommand echoes and runs a line the page made (the pod menu's).
/** @param {string} line */
function runCommand(line) {
	return act(async () => {
		stopPlay();
		await consoleUI.exec(line);
	});
}

// placeLoop puts the loop's picture where a learner looks: beside the
// world, at the top of the right-hand column, in the sandbox; under the
// world in a lesson, whose text takes the right-hand column's top (and
// talks about the picture at every step). On a phone, one column holds
// them all.
/** @param {boolean} inLesson */
function placeLoop(inLesson) {
	// index.html puts the world in a panel, beside the side column.
	const world = /** @type {Element} */ (els.world.closest(".panel"));
	if (inLesson) {
		world.after(els.loopPanel);
	} else {
		/** @type {Element} */ (document.querySelector(".col-side")).prepend(els.loopPanel);
	}
}

const lesson = new Lesson(els.lesson, {
	shown: placeLoop,
	run: (lines, page, after) => act(async () => {
		stopPlay();
		for (const line of lines) {
			const res = await consoleUI.exec(line);
			if (!res || res.failure) {
				break;
			}
		}
		if (after) {
			await after();
		}
	}, {rethrow: true}),
	check: (page, block) => call("check", block === undefined ? {page} : {page, block}),
	grade: (page, block) => call("grade", {page, block}),
	seek: (step) => act(async () => {
		stopPlay();
		await seekTo(step);
	}),
	functions: () => call("functions", {from: state.base + 1}),
	restart: () => act(async () => {
		stopPlay();
		const id = lesson.info && lesson.info.id;
		if (id) {
			progress.forget(id);
			await loadLesson(id);
		}
	}),
	step: () => (state.view ? state.view.step : 0),
	stepName: (n) => stepName(n),
	announce: (text) => {
		els.lessonNews.textContent = text;
	},
	moved: () => {
		syncURL();
		updateControls();
	},
	saved: (st) => {
		if (lesson.info) {
			progress.save(lesson.info.id, st);
		}
	},
});

const podMenu = new PodMenu(els.podMenu, {
	onCommand: runCommand,
	findPod,
	fallbackFocus: () => els.stepForward,
});

const news = new News(/** @type {HTMLElement} */ (document.getElementById("timeline-news")), {stepName: (n) => stepName(n), stepNameStart: (n) => stepNameStart(n)});

const loopUI = new Loop({
	figure: els.loopFigure, caption: els.loopCaption, detail: els.loopDetail,
	// "Show its table" brings the part's panel into view and puts the
	// keyboard there.
	onShowPanel: (headingID) => {
		const heading = document.getElementById(headingID);
		const target = heading && (heading.closest(".sub, .panel") || heading);
		if (!target) {
			return;
		}
		target.scrollIntoView({block: "start", behavior: reducedMotion() ? "auto" : "smooth"});
		if (!heading.hasAttribute("tabindex")) {
			heading.tabIndex = -1;
		}
		heading.focus({preventScroll: true});
	},
});

// A phone folds the loop away, one tap from the world; a wide screen
// always shows it (style.css hides the button there).
/** @param {boolean} open */
function setLoopOpen(open) {
	els.loopPanel.classList.toggle("open", open);
	els.loopToggle.setAttribute("aria-expanded", String(open));
	els.loopToggle.textContent = open ? t("loop.hide") : t("loop.show");
}

function wire() {
	els.loopToggle.addEventListener("click", () => setLoopOpen(!els.loopPanel.classList.contains("open")));
	els.stepForward.addEventListener("click", stepForward);
	els.stepBack.addEventListener("click", stepBack);
	els.untilSync.addEventListener("click", untilSync);
	els.play.addEventListener("click", togglePlay);
	els.stabilize.addEventListener("click", stabilize);
	els.cancel.addEventListener("click", () => state.engine && state.engine.cancel());
	els.share.addEventListener("click", share);
	els.exportButton.addEventListener("click", exportWorld);
	els.languageSelect.addEventListener("change", () => switchLanguage(els.languageSelect.value));
	els.errorDismiss.addEventListener("click", clearError);
	els.noticeDismiss.addEventListener("click", clearNotice);
	els.timelineEarlier.addEventListener("click", earlierSteps);

	els.helpButton.addEventListener("click", openHelp);
	els.lessonsButton.addEventListener("click", openLessons);
	els.lessonToggle.addEventListener("click", () => {
		const lowered = els.lesson.classList.toggle("lowered");
		els.lessonToggle.setAttribute("aria-expanded", String(!lowered));
		els.lessonToggle.textContent = lowered ? t("lesson.raise") : t("lesson.lower");
	});
	els.lessonsClose.addEventListener("click", () => els.lessonsDialog.close());
	els.lessonsExport.addEventListener("click", exportProgress);
	els.lessonsImport.addEventListener("change", importProgress);
	els.helpClose.addEventListener("click", () => els.help.close());
	// Closing the help gives the focus back to where it was, or, when
	// that was nowhere (the help opened by ? with nothing focused) or
	// cannot take it any more, to the ? button, so that a keyboard reader
	// goes on from a control rather than from the top of the page. (With
	// nothing to go back to, the browser leaves the focus on the closed
	// dialog's button, and drops it to the body at its next layout.)
	//
	// The close event runs a task after the dialog closed, and the browser
	// runs input first: a click that came in between may already have put
	// the focus on a control, or opened the help again. So the event moves
	// the focus only while it is still nowhere or in the dialog, and leaves
	// a help opened again, with the place its own opening remembered, alone.
	els.help.addEventListener("close", () => {
		if (els.help.open) {
			return;
		}
		const back = state.helpReturn;
		state.helpReturn = null;
		if (!focusIsNowhereOrIn(els.help)) {
			return;
		}
		if (back && back !== document.body && back.isConnected) {
			/** @type {HTMLElement} */ (back).focus();
		}
		if (focusIsNowhereOrIn(els.help)) {
			els.helpButton.focus();
		}
	});
	// A click on the backdrop (outside the dialog's box) closes it.
	els.help.addEventListener("click", (event) => {
		if (event.target === els.help) {
			const r = els.help.getBoundingClientRect();
			if (event.clientX < r.left || event.clientX > r.right || event.clientY < r.top || event.clientY > r.bottom) {
				els.help.close();
			}
		}
	});

	// The scrubber seeks when let go, and while dragging once it rests
	// for a moment.
	els.scrubber.addEventListener("pointerdown", () => {
		state.scrubbing = true;
	});
	els.scrubber.addEventListener("input", () => {
		const n = Number(els.scrubber.value);
		setCounter(n, Number(els.scrubber.max));
		clearTimeout(state.scrubTimer);
		state.scrubTimer = setTimeout(() => seek(n), 200);
	});
	els.scrubber.addEventListener("change", () => {
		clearTimeout(state.scrubTimer);
		state.scrubbing = false;
		seek(Number(els.scrubber.value));
	});
	els.scrubber.addEventListener("pointerup", () => {
		state.scrubbing = false;
	});

	els.timeline.addEventListener("click", (event) => {
		// A click lands on an element of the list.
		const li = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("li[data-step]"));
		if (li && state.ready && !state.busy) {
			seek(Number(li.dataset.step));
		}
	});

	els.world.addEventListener("click", (event) => {
		const button = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (event.target).closest("button.pod"));
		if (button && state.ready && !state.busy) {
			if (podMenu.isOpen() && podMenu.pod && podMenu.pod.name === button.dataset.pod) {
				podMenu.close(true);
			} else {
				podMenu.open(button);
			}
		}
	});

	els.worldSelect.addEventListener("change", () => {
		const id = els.worldSelect.value;
		act(async () => {
			stopPlay();
			clearHash();
			if (id in sandboxStarts) {
				await loadSandbox(0, id);
			} else {
				await loadLesson(id);
			}
		}, {control: els.worldSelect});
	});

	els.sandboxForm.addEventListener("submit", (event) => {
		event.preventDefault();
		const raw = els.seedInput.value.trim();
		const seed = raw === "" ? 0 : Number(raw);
		if (!Number.isSafeInteger(seed) || seed < 0) {
			showError(tParts("sandbox.badSeed", {max: Number.MAX_SAFE_INTEGER, seed: english(raw)}));
			return;
		}
		act(async () => {
			stopPlay();
			clearHash();
			const start = els.worldSelect.value in sandboxStarts ? els.worldSelect.value : "sandbox";
			await loadSandbox(seed, start);
			consoleUI.print(seed ? t("sandbox.newWithSeed", {seed}) : t("sandbox.new"));
		}, {control: els.newSandbox});
	});

	document.addEventListener("keydown", keydown);
	watchDock();
	watchSheet();
	watchOffScreen();
	// The sentence is clamped to three lines (along the bottom of a
	// phone's screen, in the dock of a wide one); a click or a tap
	// shows a long one whole, another clamps it.
	const now = /** @type {HTMLElement} */ (els.sentence.closest(".now"));
	now.addEventListener("click", (event) => {
		if (!/** @type {Element} */ (event.target).closest("a, button")) {
			now.classList.toggle("expanded");
		}
	});
	// A reload right after a step must not lose it to the URL's delay.
	addEventListener("pagehide", writeURL);
}

// watchDock keeps the page's scroll padding at the height of the sticky
// dock, so that whatever the page or the browser scrolls into view (a
// focused pod, a found text) lands below the dock rather than under it.
// On a phone the dock does not stick, and the padding is the bottom
// bar's, in the stylesheet. It sets html's scroll-padding-top itself,
// and only when the height changed: a custom property on html, which
// it set before, is inherited by every element, so each write restyled
// and laid out the whole page again, in the first frame too.
function watchDock() {
	const dock = /** @type {HTMLElement | null} */ (document.querySelector(".dock"));
	if (!dock || typeof ResizeObserver !== "function") {
		return;
	}
	let padded = "";
	const measure = () => {
		const sticky = getComputedStyle(dock).position === "sticky";
		const padding = sticky ? `calc(${dock.offsetHeight}px + 0.5rem)` : "";
		if (padding !== padded) {
			padded = padding;
			document.documentElement.style.scrollPaddingTop = padding;
		}
	};
	new ResizeObserver(measure).observe(dock);
	addEventListener("resize", measure);
}

// watchSheet keeps a phone's lesson sheet just above the bottom bar
// (the sentence and Step), whose height follows the sentence, and keeps
// room below the page's content for both, so that the end of the page
// scrolls clear of them. It writes the two styles only when they
// change; on a wide screen it leaves both to the stylesheet.
function watchSheet() {
	if (typeof ResizeObserver !== "function" || typeof matchMedia !== "function") {
		return;
	}
	// The sentence is in the bottom bar, .now.
	const now = /** @type {Element} */ (els.sentence.closest(".now"));
	const phone = matchMedia("(max-width: 800px)");
	let placed = "";
	const measure = () => {
		let bottom = "";
		let room = "";
		if (phone.matches) {
			const bar = document.documentElement.clientHeight - now.getBoundingClientRect().top;
			const sheet = els.lesson.hidden ? 0 : els.lesson.offsetHeight;
			bottom = `${Math.round(bar)}px`;
			room = `${Math.round(bar + sheet) + 16}px`;
		}
		if (bottom + " " + room === placed) {
			return;
		}
		placed = bottom + " " + room;
		els.lesson.style.bottom = bottom;
		document.body.style.paddingBottom = room;
	};
	const seen = new ResizeObserver(measure);
	seen.observe(now);
	seen.observe(els.lesson);
	phone.addEventListener("change", measure);
}

// markReady makes the page interactive: the first world is drawn and
// the controls work. The test suite measures time to interactive by
// window.__rlabReadyAt, which it sets once the browser has laid out and
// painted that world, for until then a learner sees nothing to press.
//
// The engine may still be loading then: #status says "ready" only once
// it holds the world on show (engineReady), and says how far it has
// loaded until then. markReady resolves once the first world is on the
// screen.
function markReady() {
	state.ready = true;
	// The world, the sentence and the controls first; the timeline and
	// the panels inside the controller follow once that frame is on
	// the screen. Drawn in the same frame, they made its layout cost
	// half as much again, before the learner saw anything.
	render({first: true});
	// setBusy schedules a full render for the next frame, which would
	// put the timeline and the panels into the first frame after all:
	// marking a render as queued holds it back until that frame is on
	// the screen.
	state.renderQueued = true;
	setBusy(false);
	return afterNextFrame().then(() => {
		hooks.__rlabReadyAt = performance.now();
		performance.mark("rlab:painted");
		decorateStatic();
		state.renderQueued = false;
		scheduleRender();
	});
}

// engineReady says the engine runs and holds the world on show: the
// actions waiting for it run from now on, and the page is "ready".
function engineReady() {
	state.engineUp = true;
	els.engineLoad.hidden = true;
	performance.mark("rlab:engine-holds-world");
	hooks.__rlabEngineReadyAt = performance.now();
	// offline.js registers the service worker on this event: its
	// install downloads main.wasm again, which must not share the
	// network with the page's own download.
	window.dispatchEvent(new Event("rlab:engine-ready"));
	showQueue();
	if (state.ready && !state.busy) {
		showIdle();
	}
}

// showProgress draws main.wasm's download, at most once a frame: the
// engine reports every chunk of it.
const showProgress = onceAFrame(() => drawProgress(engine().download));

// drawProgress shows the download (loading.js, which early.js drew it with
// until the page ran). #status gets the quarters only, for it is read
// aloud.
/** @param {import("./download.js").Download} d */
function drawProgress(d) {
	if (state.engineUp) {
		return;
	}
	drawDownload(d);
	if (!d.done && d.total > 0) {
		const quarters = Math.floor(4 * d.loaded / d.total);
		const loadText = quarters === 0
			? t("status.loadingSize", {size: t("unit.megabytes", {n: megabytes(d.total)})})
			: t("status.loadingDone", {percent: t("unit.percent", {n: formatNumber(25 * quarters)})});
		if (loadText !== state.loadText) {
			state.loadText = loadText;
			if (!state.busy) {
				setStatus(loadingStatus());
			}
		}
	}
}

// showLanguage puts the page's language into what the page draws, once its
// words are there (startLocale has put it into index.html's own text), and
// says so when the language chosen could not be loaded. The English page
// has its words in index.html already.
function showLanguage() {
	useGlossaryLanguage();
	els.languageSelect.value = i18n.locale;
	// The mark of the timeline's present step is the stylesheet's, in
	// the page's words.
	els.timeline.style.setProperty("--now-mark", JSON.stringify(t("timeline.now")));
	if (i18n.locale !== "en") {
		// index.html's own text is in the page's language already
		// (startLocale).
		setStatus(loadingStatus());
	}
	if (i18n.failure) {
		const chosen = locales.find((l) => l.tag === i18n.wanted);
		showNotice(tParts("language.failed", {language: chosen ? chosen.name : i18n.wanted, reason: english(i18n.failure)}));
	}
}

// switchLanguage shows the page in locale: it keeps the choice and loads
// the page again, at the world, step and lesson page the URL holds, once
// the actions asked for before have run.
/** @param {string} locale */
function switchLanguage(locale) {
	rememberLocale(locale);
	act(async () => {
		stopPlay();
		writeURL();
		location.reload();
	}, {control: els.languageSelect});
}

async function main() {
	if (i18n.wanted !== "en") {
		// The page's text is hidden until its words are there
		// (i18n.js): nothing is drawn before.
		await i18n.ready;
	}
	showLanguage();
	wire();
	if (typeof WebAssembly !== "object" || typeof Worker !== "function") {
		fail(new Error(t("engine.unsupported")), {pageWords: true});
		return;
	}
	const engine = new RlabEngine({
		workerURL: "worker.js",
		onStatus: (kind, detail = "") => {
			if (kind === "error") {
				setStatus(tParts("status.restartFailed", {reason: english(detail)}));
				showError(tParts("status.restartFailed", {reason: english(detail)}));
			} else if (kind === "restarting") {
				setStatus(t("status.restarting"));
			} else if (kind === "starting" || (kind === "loading" && !engine.download.total)) {
				// (Once the download's size is known, drawProgress
				// says how far it is.)
				state.loadText = t(kind === "starting" ? "status.starting" : "status.loading");
				if (!state.engineUp && !state.busy) {
					setStatus(loadingStatus());
				}
			} else if (kind === "ready" && state.engineUp && state.ready && !state.busy) {
				setStatus(t("status.ready")); // restarted after a crash
			}
		},
		onProgress: showProgress,
		onRestart: (info) => {
			showError(tParts("engine.restarted", {reason: english(info.reason)}));
			act(async () => {
				await refresh();
				scheduleRender();
				if (!state.engineUp) {
					// It crashed while catching up with the first
					// world; the restart rebuilt that world.
					engineReady();
				}
			}, {internal: true});
		},
	});
	state.engine = engine;
	hooks.__rlab = {engine, view: () => state.view};
	// The download starts now; the compile waits for the first drawing.
	engine.prefetch();

	// Marks on the performance timeline show where the time to
	// interactive goes (the browser's devtools list them).
	performance.mark("rlab:start");
	const start = () => engine.start().then(() => performance.mark("rlab:engine-ready"));
	// #lessons opens the list of lessons over the first world: the
	// address to give a learner who should start there.
	const wantsLessons = location.hash === "#lessons";
	const hash = wantsLessons ? "" : location.hash.replace(/^#/, "");
	state.wantsLessons = wantsLessons;
	if (!hash && showFirstWorld(firstWorld)) {
		// Interactive now, with the engine's own answers computed ahead;
		// the engine catches up before any action runs (act queues them,
		// marked as waiting).
		// It starts only once that world is on the screen (prefetch
		// only asked for main.wasm): compiling 8 MB of wasm takes every
		// core of a small machine for a while, and reading it into the
		// compiler takes this thread's time too, which the first frame
		// needs more.
		const painted = markReady();
		performance.mark("rlab:ready");
		const started = painted.then(start);
		await act(async () => {
			try {
				await started;
			} catch (err) {
				fail(err);
				return;
			}
			// showFirstWorld drew it, so there is one.
			await catchUp(/** @type {FirstWorld} */ (firstWorld));
			engineReady();
		}, {internal: true});
		await afterReady();
		return;
	}
	try {
		await start();
	} catch (err) {
		fail(err);
		return;
	}

	await act(async () => {
		let restored = false;
		if (hash) {
			let link = null;
			try {
				link = RlabEngine.decodeState(hash);
			} catch (err) {
				// decodeState throws Errors only.
				showError(tParts("link.unusable", {reason: reasonOf(err)}));
			}
			if (link) {
				restored = await restoreLink(link);
			}
		}
		if (!restored) {
			await loadSandbox();
		}
	}, {internal: true});
	if (!state.view) {
		// Even the default world failed to load: say so, keep what works.
		setStatus(t("status.firstWorldFailed"));
		document.body.dataset.state = "error";
		return;
	}
	performance.mark("rlab:world-loaded");
	engineReady();
	markReady();
	performance.mark("rlab:ready");
	await afterReady();
}

// firstWorld is the page's first world, from its #first-view block: the
// answers the engine gives the page's first three requests (load the
// sandbox, run defaultCommand, view it), computed ahead by the engine
// itself (wasm/firstview_test.go keeps the block current). Drawing it
// makes the page interactive while main.wasm still downloads and
// compiles. It is in the page rather than a file of its own because a
// fetch, even of a preloaded file, answered only after the browser had
// laid out the page once more, about a third of the time to
// interactive. Null if it cannot be had.
/**
 * @typedef {{command: string, viewArgs: unknown, view: View, run: RunResult}} FirstWorld
 */
/** @type {FirstWorld | null} */
const firstWorld = (() => {
	const block = document.getElementById("first-view");
	try {
		return block ? JSON.parse(/** @type {string} */ (block.textContent)) : null;
	} catch {
		return null;
	}
})();

// showFirstWorld draws the prerendered first world, if it is the one
// this page would load; it says whether it did.
/**
 * @param {FirstWorld | null} first
 * @returns {boolean}
 */
function showFirstWorld(first) {
	if (!first || first.command !== defaultCommand || JSON.stringify(first.viewArgs) !== JSON.stringify(viewArgs)) {
		return false;
	}
	lesson.show(null);
	els.worldSelect.value = "sandbox";
	setView(first.view);
	consoleUI.echo(first.command, first.run);
	addSteps(first.run.steps);
	state.intro = true;
	rememberStart();
	engine().remember(first.view);
	return true;
}

// catchUp makes the engine's world the one the page drew from
// its first-world block, by sending the same requests. The engine is
// deterministic, so the answers are the same; if they are not, the file
// is stale, and the engine's world replaces the drawing.
/** @param {FirstWorld} first */
async function catchUp(first) {
	// The three requests go at once: the worker answers them in order,
	// and none waits for this thread, which is busy drawing the rest
	// of the page just then, to read the answer before it.
	const [, res, view] = await Promise.all([call("load", {}), call("run", {line: first.command}), fetchView()]);
	if (JSON.stringify(view) !== JSON.stringify(first.view) || res.step !== first.run.step) {
		console.warn("the first world in site/index.html is stale: the engine computed another first world (go test ./wasm -run TestFirstViewIsCurrent -update)");
		state.tl = [];
		addSteps(res.steps);
		setView(view);
		scheduleRender();
	}
	engine().remember(view);
}

// afterReady fetches what nothing waits for once the page is
// interactive: the start of the timeline and the lessons. Until it has,
// the timeline of the prerendered first world lists only the command's
// own steps, not the setup before them; window.__rlabStartedUpAt says
// when it is done, for tests that count what the timeline lists.
async function afterReady() {
	await act(async () => {
		if (!state.tl.some((e) => e.step && e.n === 1)) {
			const forks = state.tl.filter((e) => e.fork !== undefined);
			// The first world is on show by now.
			await fillTimeline(/** @type {View} */ (state.view).step);
			restoreForks(forks);
			scheduleRender();
		}
	}, {internal: true});
	await loadLessonList();
	if (state.view && state.view.mode === "lesson") {
		// A lesson's view names its lesson.
		els.worldSelect.value = /** @type {string} */ (state.view.lesson);
	}
	if (state.wantsLessons) {
		state.wantsLessons = false;
		openLessons();
	}
	// The Glossary panel is built in the first idle moment, so that it
	// opens at once when asked for; opening it earlier builds it then.
	(hooks.requestIdleCallback || setTimeout)(() => buildGlossary());
	performance.mark("rlab:started-up");
	hooks.__rlabStartedUpAt = performance.now();
}

// The widgets are the other parts' too (page.js).
Object.assign(parts, {console: consoleUI, lesson, podMenu, news, loop: loopUI});

// The browser tests reach these through RlabUI, as they read the page's
// state through __rlab: they build the Glossary panel as opening it would,
// draw the world afresh to compare with the drawing kept in the page, and
// translate a copy of index.html to compare with the catalogue.
hooks.RlabUI = {buildGlossary, renderWorld, touchedSet, refKey, translateStatic};

main();
