// view.js draws the present: it fetches the engine's view (refresh), and
// renders it at most once a frame (scheduleRender): the world, the loop's
// picture, the sentence, the panels inside the controller, the timeline and
// the controls. While Play runs it spreads that work over several frames
// and skips the lists off the screen.

import {counterText, els, engine, parts, setStatus, showFailure, showIdle, state, stepName, stepNameStart, viewArgs} from "./page.js";
import {noteFork, renderTimeline, trimTimeline} from "./timeline.js";
import {syncURL} from "./share.js";
import {h, patch, settle} from "./ui-util.js";
import {onceAFrame} from "./loading.js";
import {duration, i18n, t, tParts} from "./i18n.js";
import {entryOfFunction, explain, roveTerms, term} from "./ui-glossary.js";
import {renderWorld, touchedSet} from "./ui-world.js";
import {renderInside} from "./ui-inside.js";

/** @typedef {import("./bridge-types.js").View} View */
/** @typedef {import("./bridge-types.js").Step} Step */

/** @returns {Promise<View>} */
function fetchView() {
	return engine().call("view", viewArgs);
}

// refresh fetches the view of the present, notes a fork of the timeline
// (an input given in the past), and schedules a render.
/**
 * @param {View | null} [before]
 * @returns {Promise<View>}
 */
async function refresh(before = state.view) {
	let view;
	try {
		view = await fetchView();
	} catch (e) {
		// The engine rejects with Errors only.
		const err = /** @type {Error & {shown?: boolean}} */ (e);
		showFailure(err);
		err.shown = true;
		throw err;
	}
	engine().remember(view);
	noteFork(before, view);
	trimTimeline(view.recordedSteps);
	setView(view);
	scheduleRender();
	return view;
}

// setView makes view the present, with the base of its world.
/** @param {View} view */
function setView(view) {
	state.view = view;
	state.base = view.baseStep || 0;
}

// scheduleRender draws the present view in the next frame; while Play
// runs, in the frame after, so that the frame in which a big world's
// view arrived (some 140 KB of JSON to read) does not draw it too.
function scheduleRender() {
	if (state.renderQueued) {
		return;
	}
	state.renderQueued = true;
	const draw = () => {
		state.renderQueued = false;
		render();
	};
	requestAnimationFrame(state.playing ? () => requestAnimationFrame(draw) : draw);
}

// lastStep is the step that brought the world to the present, if the view
// lists it.
/**
 * @param {View} view
 * @returns {Step | null}
 */
function lastStep(view) {
	const steps = view.lastSteps || [];
	const s = steps[steps.length - 1];
	return s && s.n === view.step ? s : null;
}

/**
 * @param {string | undefined} namespace
 * @param {string | undefined} name
 * @returns {HTMLButtonElement | null}
 */
function findPod(namespace, name) {
	for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (els.world.querySelectorAll("button.pod"))) {
		if (button.dataset.pod === name && button.dataset.namespace === namespace) {
			return button;
		}
	}
	return null;
}

// render draws the present view; with first set, only what the learner
// sees and uses first: the world, the sentence and the controls.
/** @param {{first?: boolean}} [options] */
function render({first = false} = {}) {
	const view = state.view;
	if (view) {
		// The world redraws the cards of the pods that changed (and
		// moves the ones that moved): keep keyboard focus on the same
		// pod across the redraw, or, if that pod is gone (killed,
		// deleted), on Step, so a keyboard reader never loses their place.
		const active = /** @type {HTMLElement | null} */ (document.activeElement);
		const focused = active && active.matches && active.matches("button.pod") && els.world.contains(active)
			? {namespace: active.dataset.namespace, name: active.dataset.pod} : null;
		const last = lastStep(view);
		renderWorld(els.world, view, touchedSet(last));
		if (focused) {
			// The controls first: Step may have been disabled a moment
			// ago, with nothing to run, and a disabled button takes no
			// focus.
			updateControls();
			const again = findPod(focused.namespace, focused.name);
			(again || els.stepForward).focus({preventScroll: true});
		}
		if (!first && state.playing) {
			drawLoopNextFrame();
		} else if (!first) {
			drawLoop();
		}
		renderSentence(view, last);
		parts.news.note(view, last, state.playing || state.busy);
	}
	// During a chunked run the timeline is drawn with the view fetched
	// between chunks (a few times a second at most), so its present
	// keeps up with the step counter. While Play runs, the picture is
	// drawn in the frame after the world, and the timeline and the
	// panels inside the controller in the frame after that (drawLoop),
	// so that no one frame pays for them all: at ten ticks a second
	// there are six frames between two ticks.
	if (!first && !state.playing) {
		drawLists();
	}
	roveTerms(els.main);
	updateControls();
	syncURL();
	if (!first && view && view.mode === "lesson") {
		// The lesson's checklists are the engine's answers about the
		// world as it now is.
		parts.lesson.refresh();
	}
}

// drawLoop draws the loop's picture of the present step, its token
// flying for as long as the step stays on screen; while Play runs, the
// lists follow in the next frame.
function drawLoop() {
	const view = state.view;
	if (view) {
		parts.loop.render(view, lastStep(view), {animate: true, stepMs: stepInterval()});
	}
	if (state.playing) {
		drawListsNextFrame();
	}
}

const drawLoopNextFrame = onceAFrame(drawLoop);

// drawLists draws what is read rather than watched: the panels inside
// the controller (at Play's pace) and the timeline. While Play runs, a
// list off the screen is not drawn, only marked stale, and drawn when
// it comes into view (watchOffScreen) or Play stops.
function drawLists() {
	if (state.view && !skipOffScreen(els.insidePanel)) {
		renderInsideAtPace(state.view);
	}
	if (!skipOffScreen(els.timelinePanel)) {
		renderTimeline();
	}
}

const drawListsNextFrame = onceAFrame(drawLists);

// skipOffScreen says whether Play should leave panel undrawn, being off
// the screen and drawn once since Play started, and remembers that it
// did.
/**
 * @param {HTMLElement} panel
 * @returns {boolean}
 */
function skipOffScreen(panel) {
	if (!state.playing || !state.offScreen.has(panel) || !state.drawnInPlay.has(panel)) {
		state.stale.delete(panel);
		if (state.playing) {
			state.drawnInPlay.add(panel);
		}
		return false;
	}
	state.stale.add(panel);
	return true;
}

// watchOffScreen follows which lists are on the screen. A list that
// comes into view while Play left it stale is drawn at once: the
// learner who scrolls to the timeline never sees an old one.
function watchOffScreen() {
	if (typeof IntersectionObserver !== "function") {
		return;
	}
	const seen = new IntersectionObserver((entries) => {
		for (const e of entries) {
			// Only the two panels below are observed.
			const panel = /** @type {HTMLElement} */ (e.target);
			if (e.isIntersecting) {
				state.offScreen.delete(panel);
			} else {
				state.offScreen.add(panel);
			}
		}
		if ([...state.stale].some((panel) => !state.offScreen.has(panel))) {
			drawListsNextFrame();
		}
	});
	seen.observe(els.timelinePanel);
	seen.observe(els.insidePanel);
}

// insidePaceMs is the least time between two drawings of the panels
// inside the controller while Play runs. Their tables are for reading,
// which nobody does at fifty steps a second, and drawing them on every
// tick of a big world took a third of the frame's time; the loop's
// picture, the world and the sentence show each tick. When Play stops,
// the next render draws them again (stopPlay schedules it).
const insidePaceMs = 500;

/** @param {View} view */
function renderInsideAtPace(view) {
	const now = performance.now();
	if (state.playing && now - state.insideDrawnAt < insidePaceMs) {
		return;
	}
	state.insideDrawnAt = now;
	renderInside(view);
}

/**
 * @param {View} view
 * @param {Step | null} last
 */
function renderSentence(view, last) {
	if (state.intro) {
		els.sentence.replaceChildren(...introSentence(view));
		return;
	}
	if (!last) {
		els.sentence.replaceChildren(view.step === 0
			? t("sentence.nothingYet")
			: t("sentence.stepOnly", {step: stepNameStart(view.step)}));
		return;
	}
	// The actor, what it did and the function it models are the
	// engine's words; the rest is the page's.
	const models = last.models
		? tParts("sentence.models", {fn: h("code", {lang: "en", text: last.models})}).map((part) => (typeof part === "string" ? h("span", {class: "sentence-models", text: part}) : part))
		: [];
	els.sentence.replaceChildren(...tParts("sentence.step", {
		meta: h("span", {class: "sentence-meta mono", text: t("sentence.meta", {step: stepName(last.n), at: duration(last.at)})}),
		actor: h("strong", {class: "sentence-actor", lang: "en", text: last.actor}),
		summary: h("span", {class: "sentence-summary", lang: "en", text: last.summary}),
		models: h("span", {class: "sentence-models-part"}, models),
	}), ...glossOf(last));
}

// glossOf is, on a page in another language than English, the glossary's
// explanation in that language of the upstream function the step models,
// beside the step's sentence, which is the engine's English: nothing when
// the glossary has no entry for it. It is part of the sentence, whose
// height is fixed (style.css), and shows whole when the sentence does.
/**
 * @param {Step} last
 * @returns {HTMLElement[]}
 */
function glossOf(last) {
	const entry = i18n.locale === "en" || !last.models ? undefined : entryOfFunction(last.models);
	if (!entry || entry.lang !== i18n.locale) {
		return [];
	}
	// The same entry's gloss is the element drawn before: a term made
	// anew at every step would have the page look at every term of the
	// page again for its Tab stops (roveTerms), ten times a second in Play.
	if (!lastGloss || lastGloss.id !== entry.id) {
		lastGloss = {id: entry.id, el: h("span", {class: "sentence-gloss"}, tParts("sentence.gloss", {term: term(entry.id), explanation: fragment(explain(entry))}))};
	}
	return [lastGloss.el];
}

// lastGloss is the gloss glossOf drew last, and the entry it explains.
/** @type {{id: string, el: HTMLElement} | null} */
let lastGloss = null;

// introSentence says, in one sentence, what a learner is looking at in a
// world just loaded: what its setup built, what they ran, what each
// owner wants and has, and what to do next.
/**
 * @param {View} view
 * @returns {Array<string | Node>}
 */
function introSentence(view) {
	const nodes = t("count.nodes", {n: (view.nodes || []).length});
	const ran = (view.inputs || []).filter((i) => i.step >= state.base).map((i) => i.text);
	const did = ran.length === 1 ? tParts("intro.ranOne", {command: h("code", {lang: "en", text: ran[0]})})
		: ran.length > 1 ? tParts("intro.ranMany", {commands: t("count.commands", {n: ran.length})}) : [];
	/** @type {Array<string | Node>} */
	const owners = [];
	for (const o of (view.owners || []).slice(0, 3)) {
		const id = `${o.kind}/${o.name}`;
		const group = (view.podGroups || []).find((g) => g.owner === id && g.namespace === o.namespace && !g.ownerGone);
		if (owners.length) {
			owners.push(t("intro.ownerSeparator"));
		}
		owners.push(...tParts("intro.owner", {owner: h("span", {lang: "en", text: id}), pods: t("count.pods", {n: o.replicas}), active: group ? group.active : 0}));
	}
	const wants = owners.length ? tParts("intro.owners", {owners: fragment(owners)}) : (view.podsTotal ? [] : [t("intro.nothingOwned")]);
	const next = nothingToRun(view)
		? t("intro.nothingPending")
		: view.mode === "lesson" ? t("intro.readGuide") : t("intro.pressStep");
	const key = view.mode === "lesson" ? "intro.lesson" : "intro.sandbox";
	const steps = t(view.mode === "lesson" ? "count.steps" : "count.setupSteps", {n: state.base});
	return tParts(key, {nodes, steps, did: fragment(did), wants: fragment(wants), next});
}

// fragment holds parts (text and nodes) as one node, to be put into a
// message's place.
/** @param {Array<string | Node>} parts */
function fragment(parts) {
	const frag = document.createDocumentFragment();
	frag.append(...parts);
	return frag;
}

// setSyncNote says what the last run came to, under the sentence: text,
// or a message's parts (tParts) with the engine's words in them; nothing
// hides the note.
/** @param {string | Array<string | Node>} [text] */
function setSyncNote(text) {
	if (typeof text === "object" && text.length) {
		patch(els.syncNote, text);
		settle(els.syncNote, {hidden: false});
		return;
	}
	settle(els.syncNote, {text: typeof text === "string" ? text : "", hidden: !text || !text.length});
}

// nothingToRun says whether running time forward would do nothing: the
// present is the end of the recorded timeline and the agenda is empty
// (no periodic timers either), so Step, Next sync, Play and Stabilize
// are disabled, and the hint says why.
/**
 * @param {View | null} view
 * @returns {boolean}
 */
function nothingToRun(view) {
	return view !== null && view.step >= view.recordedSteps && (view.agenda ? view.agenda.pending : 0) === 0;
}

// updateControls enables what can be used now and shows where time is.
// updateControls brings the controls in line with the present. Each
// value is settled (settle): written only if it changed, since Play
// calls this at every tick.
function updateControls() {
	const view = state.view;
	const usable = state.ready && !state.busy && Boolean(view);
	for (const el of [els.scrubber, els.share, els.exportButton, els.worldSelect, els.seedInput, els.newSandbox, els.speed]) {
		settle(el, {disabled: !usable});
	}
	const idle = nothingToRun(view);
	const stepwise = parts.lesson.stepwise();
	for (const el of [els.stepForward, els.untilSync, els.play, els.stabilize]) {
		if (stepwise && (el === els.untilSync || el === els.stabilize)) {
			settle(el, {disabled: true, title: t("controls.stepwise")});
			continue;
		}
		settle(el, {
			disabled: !usable || (idle && !(el === els.play && state.playing)),
			title: usable && idle ? t("controls.nothingToRun") : "",
		});
	}
	settle(els.stepBack, {
		disabled: !usable || !view || view.step === 0,
		title: usable && view && view.step <= state.base && view.step > 0
			? t("controls.backIntoSetup", {steps: t("count.steps", {n: state.base})})
			: "",
	});
	settle(els.cancel, {hidden: !state.busy});
	settle(els.play, {"aria-pressed": state.playing ? "true" : "false"});
	// index.html gives Play its label and its icon.
	settle(/** @type {HTMLElement} */ (els.play.querySelector(".play-label")), {text: state.playing ? t("controls.pause") : t("controls.play")});
	settle(/** @type {HTMLElement} */ (els.play.querySelector(".play-icon")), {text: state.playing ? "‖" : "▶"});
	parts.console.setEnabled(state.ready && !state.busy);
	if (!view) {
		return;
	}
	// The first-time hint is for the sandbox; a lesson has its guide. It
	// says what to do next: step while something is pending, and once the
	// world is at rest, disturb it.
	settle(els.hint, {hidden: view.mode !== "sandbox" && !idle});
	drawHint(sandboxHint(view, idle));
	settle(els.scrubber, {max: String(view.recordedSteps), "aria-valuetext": counterText(view.step, view.recordedSteps)});
	if (!state.scrubbing) {
		settle(els.scrubber, {value: String(view.step)});
		setCounter(view.step, view.recordedSteps);
	}
	drawSetupSegment(view.recordedSteps);
	settle(els.clock, {text: t("controls.clock", {time: duration(view.clock)})});
	const pending = view.agenda ? view.agenda.pending : 0;
	settle(els.worldState, {text: view.atRest ? t("world.atRest") : t("world.pending", {n: pending})});
	els.worldState.classList.toggle("at-rest", view.atRest);
}

// setCounter shows step n of recorded in the step counter, counted from
// the learner's start. Its data attributes keep the engine's numbers,
// for the test suite and for anyone reading the DOM.
/**
 * @param {number} n
 * @param {number} recorded
 */
function setCounter(n, recorded) {
	settle(els.stepCount, {
		text: counterText(n, recorded),
		"data-step": String(n),
		"data-recorded": String(recorded),
		"data-base": String(state.base),
	});
}

// drawSetupSegment marks the part of the scrubber's range that is the
// world's setup: a hatched, labelled band under the track, as wide as the
// setup's share of the recorded steps.
/** @param {number} recorded */
function drawSetupSegment(recorded) {
	const share = String(recorded > 0 ? Math.min(1, state.base / recorded) : 0);
	settle(els.setupSegment, {hidden: state.base === 0});
	if (els.scrubTrack.style.getPropertyValue("--setup-share") !== share) {
		els.scrubTrack.style.setProperty("--setup-share", share);
	}
	settle(els.setupLabel, {text: t("controls.setupSegment", {steps: t("count.steps", {n: state.base})})});
}

// sandboxHint is the key of the hint for view: what to do next.
/**
 * @param {View} view
 * @param {boolean} idle
 * @returns {string}
 */
function sandboxHint(view, idle) {
	if (idle) {
		return (view.podsTotal ?? 0) === 0 ? "hint.empty" : "hint.idle";
	}
	return view.atRest ? "hint.atRest" : "hint.step";
}

// drawHint puts the hint key says in #hint, when it is another.
/** @param {string} key */
function drawHint(key) {
	if (els.hint.dataset.hint === key) {
		return;
	}
	els.hint.dataset.hint = key;
	patch(els.hint, tParts(key, {command: h("code", {lang: "en", text: "create rs web --replicas=3 --selector=app=web"})}));
}

/**
 * @param {boolean} busy
 * @param {string} [text]
 */
function setBusy(busy, text) {
	state.busy = busy;
	els.timeline.setAttribute("aria-busy", busy ? "true" : "false");
	if (busy) {
		document.body.dataset.state = "busy";
		setStatus(text || t("status.busy"));
	} else if (state.ready) {
		showIdle();
		scheduleRender();
	} else {
		document.body.dataset.state = "loading";
	}
	updateControls();
}

// afterNextFrame resolves once the next frame has been drawn: its
// animation-frame callbacks (a render scheduled before this call among
// them) have run, and so have the style, layout and paint that follow
// them in the same task, before any later task, such as the timeout. A
// hidden tab (a page opened in the background) draws no frames: there it
// resolves at once, or after a second if the tab is hidden while it
// waits.
/** @returns {Promise<void>} */
function afterNextFrame() {
	return new Promise((/** @type {(value?: undefined) => void} */ resolve) => {
		if (document.visibilityState === "hidden") {
			resolve();
			return;
		}
		requestAnimationFrame(() => setTimeout(resolve, 0));
		setTimeout(resolve, 1000);
	});
}

// stepInterval is how long one drawing stays on screen while playing
// (a tick of playTick, which runs several steps a tick beyond 10 a
// second), for the token's flight; a single step gets a flight of its
// own length.
function stepInterval() {
	return state.playing ? 1000 / Math.min(Number(els.speed.value) || 1, 10) : 400;
}

export {afterNextFrame, fetchView, findPod, refresh, render, scheduleRender, setBusy, setCounter, setSyncNote, setView, updateControls, watchOffScreen};
