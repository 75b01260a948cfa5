// app.js is Reconcile Lab's page: it starts the engine (engine.js, which runs
// the Go simulator in a Web Worker), loads the first world, and wires the
// controls, the keyboard, the timeline, the console, the pod menu, lessons and
// share links to it. The drawing itself lives in the ui-*.js files.
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
"use strict";

(() => {
	const UI = globalThis.RlabUI;
	const {h} = UI;

	// The sandbox's first command: a ReplicaSet ready to be stepped, so a
	// learner sees the controller work without reading anything first.
	const defaultCommand = "create rs web --replicas=3 --selector=app=web";
	// The sandbox's starting worlds, by the value of their option in
	// #world-select: the commands each runs after a new sandbox loads, echoed
	// in the console as if the learner had typed them. They are the
	// learner's inputs, so a share link carries them like any other.
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
	// A stabilize that has not come to rest after this many chunks of 1000
	// steps is stopped, as the console's stabilize stops at --max-steps: a
	// world that never rests (a create that fails for ever) must not run
	// unattended. A million steps bring 10,000 pods to rest three times over.
	const stabilizeChunk = 1000;
	const maxStabilizeChunks = 1000;
	// Between a chunked run's chunks the page shows a picture of the world
	// at most every chunkViewEvery ms, and after a picture that cost c ms
	// (the worker building the view, this thread drawing it) waits at
	// least chunkViewPace × c before the next: see chunkView.
	const chunkViewEvery = 250;
	const chunkViewPace = 4;
	// What each view asks for: the next agenda events, the last step (for the
	// sentence), and caps on pods (in all, and of each group the world
	// draws: it draws no more) and cache entries. The keys are in the
	// engine's order, as the first world in index.html writes them.
	const viewArgs = {agenda: 8, steps: 1, pods: 1000, podsPerGroup: UI.maxPodsPerOwner, entries: 200};

	const $ = (id) => document.getElementById(id);
	const els = {
		status: $("status"),
		error: $("error"), errorText: $("error-text"), errorDismiss: $("error-dismiss"),
		notice: $("notice"), noticeText: $("notice-text"), noticeDismiss: $("notice-dismiss"),
		worldSelect: $("world-select"), sandboxForm: $("sandbox-form"), seedInput: $("seed-input"), newSandbox: $("new-sandbox"),
		share: $("share"), shareRow: $("share-row"), shareLink: $("share-link"),
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
	};
	// The lists Play draws only on the screen (watchOffScreen).
	els.timelinePanel = els.timeline.closest(".panel");
	els.insidePanel = document.querySelector(".panel.inside");

	const state = {
		engine: null,
		view: null,
		ready: false, // the first world is drawn and the controls work
		// engineUp: the engine runs and holds the world on show. Until
		// then the page can be interactive (drawn from its first world),
		// but what the learner asks for waits for the engine.
		engineUp: false,
		// loadText is what #status says while the engine loads.
		loadText: "loading the simulator…",
		// waiting counts the learner's actions not yet started; pending
		// the actions not yet finished, by the control that asked for
		// them, which carries a pending mark until they are.
		waiting: 0,
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
		offScreen: new Set(),
		stale: new Set(),
		// drawnInPlay holds the lists drawn since Play started: each is
		// drawn once, on the screen or not, which trims the timeline to
		// its newest steps (a whole timeline left in the page is thousands
		// of boxes that every frame lays out again).
		drawnInPlay: new Set(),
		scrubbing: false,
		scrubTimer: 0,
		renderQueued: false,
		chunkViewPending: false,
		// nextChunkView is the earliest time (performance.now()) of the
		// next picture between a run's chunks (chunkView).
		nextChunkView: 0,
		// tl is the timeline: entries {n, step} for steps and {n: N + 0.5,
		// fork: N} for "timeline forked at step N", sorted by n.
		tl: [],
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

	// --- Messages -------------------------------------------------------------

	function showError(message) {
		els.errorText.textContent = message;
		els.error.hidden = false;
	}

	function clearError() {
		els.error.hidden = true;
		els.errorText.textContent = "";
	}

	function showNotice(message) {
		els.noticeText.textContent = message;
		els.notice.hidden = false;
	}

	function clearNotice() {
		els.notice.hidden = true;
		els.noticeText.textContent = "";
	}

	function setStatus(text) {
		els.status.textContent = text;
	}

	// showIdle says what the page is when it is not busy: "ready" once the
	// engine holds the world on show, and how far the engine has loaded
	// before that, when the page may already be interactive.
	function showIdle() {
		document.body.dataset.state = state.engineUp ? "ready" : "loading";
		setStatus(state.engineUp ? "ready" : loadingStatus());
	}

	// loadingStatus is #status while the engine loads. It is a live region,
	// so it changes seldom: at each quarter of the download, and when the
	// learner's first action starts or the last one stops waiting, not with
	// every byte or press.
	function loadingStatus() {
		return state.waiting > 0 ? `${state.loadText} (what you asked for runs then)` : state.loadText;
	}

	// fail reports a problem the page cannot get past (no engine).
	function fail(err) {
		console.error(err);
		const message = err instanceof Error ? err.message : String(err);
		setStatus(`error: ${message}`);
		showError(message);
		document.body.dataset.state = "error";
		if (!state.engineUp) {
			els.engineLoadText.textContent = "the simulator could not be loaded";
			els.engineProgress.removeAttribute("aria-valuetext");
		}
	}

	// --- Step numbers ------------------------------------------------------------------

	// The engine numbers every step from the world's start; the page counts
	// the learner's steps from the end of the setup (state.base), and names
	// a setup step as one. Share links and the engine's own trace keep the
	// engine's numbers.

	// stepName names step n for the learner: "step 3" or "setup step 40".
	function stepName(n) {
		return n >= state.base ? `step ${n - state.base}` : `setup step ${n}`;
	}

	// counterText is what the step counter says for step n of recorded.
	function counterText(n, recorded) {
		return n < state.base
			? `setup step ${n} of ${state.base}`
			: `step ${n - state.base} of ${Math.max(0, recorded - state.base)}`;
	}

	// --- Talking to the engine ---------------------------------------------------

	// call runs one engine op; a rejection is shown in #error and passed on
	// (marked as shown, so act does not show it twice).
	async function call(op, args) {
		try {
			return await state.engine.call(op, args);
		} catch (err) {
			showError(err.message);
			err.shown = true;
			throw err;
		}
	}

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
	let chain = Promise.resolve();
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
			} catch (err) {
				stopPlay();
				if (!err.shown) {
					showError(err.message || String(err));
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
		UI.settle(els.queued, {
			hidden: n === 0,
			text: n === 0 ? "" : state.engineUp
				? `+${n} queued`
				: `◷ ${UI.plural(n, "action")} waiting for the simulator`,
		});
		if (!state.engineUp && (n > 0) !== statusWaiting && state.ready && !state.busy) {
			showIdle();
		}
		statusWaiting = n > 0;
	}

	function fetchView() {
		return state.engine.call("view", viewArgs);
	}

	// refresh fetches the view of the present, notes a fork of the timeline
	// (an input given in the past), and schedules a render.
	async function refresh(before = state.view) {
		let view;
		try {
			view = await fetchView();
		} catch (err) {
			showError(err.message);
			err.shown = true;
			throw err;
		}
		state.engine.remember(view);
		noteFork(before, view);
		trimTimeline(view.recordedSteps);
		setView(view);
		scheduleRender();
		return view;
	}

	// setView makes view the present, with the base of its world.
	function setView(view) {
		state.view = view;
		state.base = view.baseStep || 0;
	}

	// noteFork adds "timeline forked at step N" when the learner gave a new
	// input while the world was sought back to step N: the recorded steps
	// after N are gone (the scrubber's maximum shrinks with them).
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
		const entry = {n: at + 0.5, fork: at, dropped: before.recordedSteps - at};
		const i = state.tl.findIndex((e) => e.n > entry.n);
		state.tl.splice(i < 0 ? state.tl.length : i, 0, entry);
		consoleUI.print(`timeline forked at ${stepName(at)}: the ${UI.plural(entry.dropped, "recorded step")} after it were dropped`, "console-note fork-note");
	}

	function inputsKey(view) {
		return JSON.stringify(view.inputs || []);
	}

	// --- The timeline ------------------------------------------------------------

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
			if (i >= 0 && tl[i].n === s.n && tl[i].step && tl[i].step.trace === s.trace) {
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
	function trimTimeline(recorded) {
		const tl = state.tl;
		while (tl.length && tl[tl.length - 1].n > recorded && !(tl[tl.length - 1].fork !== undefined && tl[tl.length - 1].fork <= recorded)) {
			tl.pop();
		}
	}

	// fillTimeline loads the most recent steps of the recorded timeline, for a
	// world that was just loaded or restored.
	async function fillTimeline(around) {
		const rec = state.view ? state.view.recordedSteps : 0;
		if (!rec) {
			state.tl = [];
			return;
		}
		const center = around === undefined ? rec : around;
		const from = Math.max(1, Math.min(center - Math.floor(timelineCap / 2), rec - timelineCap + 1));
		const res = await call("steps", {from, to: Math.min(rec, from + timelineCap - 1)});
		// Keep the items of steps the timeline already shows (no redraw),
		// and replace the list in one go, so it is never seen empty.
		const known = new Map(state.tl.filter((e) => e.step).map((e) => [e.n, e]));
		state.tl = (res.steps || []).map((s) => {
			const old = known.get(s.n);
			return old && old.step.trace === s.trace ? old : {n: s.n, step: s};
		});
	}

	// earlierSteps prepends up to 200 older steps to the timeline.
	function earlierSteps() {
		return act(async () => {
			const first = state.tl.find((e) => e.step);
			if (!first || first.n <= 1) {
				return;
			}
			const res = await call("steps", {from: Math.max(1, first.n - 200), to: first.n - 1});
			state.tl.unshift(...(res.steps || []).map((s) => ({n: s.n, step: s})));
			scheduleRender();
		}, {control: els.timelineEarlier});
	}

	function timelineItem(entry) {
		if (entry.fork !== undefined) {
			const li = h("li", {class: "fork"},
				h("span", {"aria-hidden": "true", text: "⎇ "}),
				`timeline forked at ${stepName(entry.fork)}: your input replaced the ${UI.plural(entry.dropped, "recorded step")} after it`);
			li._entry = entry;
			return li;
		}
		const s = entry.step;
		// The item is drawn for the setup it was made under: a world loaded
		// anew (another base) draws its items anew.
		entry.base = state.base;
		const setup = s.n <= state.base;
		const li = h("li", {class: setup ? "setup" : null, dataset: {step: s.n}, title: s.trace},
			setup
				? h("span", {class: "tl-n mono", text: `setup ${s.n}`})
				: h("span", {class: "tl-n mono", text: `#${s.n - state.base}`}), " ",
			h("span", {class: "tl-at mono", text: s.at}), " ",
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
		const entries = state.busy || state.playing ? state.tl.slice(-busyTimelineItems) : state.tl;
		const want = new Set(entries);
		for (const li of [...ol.children]) {
			if (!want.has(li._entry)) {
				li.remove();
			}
		}
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
			const isCurrent = entry.n === present;
			entry.li.classList.toggle("future", entry.n > present);
			entry.li.classList.toggle("current", isCurrent);
			if (isCurrent) {
				entry.li.setAttribute("aria-current", "step");
				current = entry.li;
			} else {
				entry.li.removeAttribute("aria-current");
			}
		}
		const first = entries.find((e) => e.step);
		els.timelineEarlier.hidden = !first || first.n <= 1;
		if (current && (added || state.lastCurrent !== present)) {
			scrollTimelineTo(current);
		}
		state.lastCurrent = present;
	}

	// scrollTimelineTo brings the present step into the timeline's view, in
	// the next frame: measuring it now would make the browser lay out the
	// whole page in the middle of drawing it, for nothing.
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

	// --- Rendering ------------------------------------------------------------------

	// onceAFrame returns a function that runs draw in the next frame, once
	// however often it is called before then.
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
	function lastStep(view) {
		const steps = view.lastSteps || [];
		const s = steps[steps.length - 1];
		return s && s.n === view.step ? s : null;
	}

	function findPod(namespace, name) {
		for (const button of els.world.querySelectorAll("button.pod")) {
			if (button.dataset.pod === name && button.dataset.namespace === namespace) {
				return button;
			}
		}
		return null;
	}

	// render draws the present view; with first set, only what the learner
	// sees and uses first: the world, the sentence and the controls.
	function render({first = false} = {}) {
		const view = state.view;
		if (view) {
			// The world redraws the cards of the pods that changed (and
			// moves the ones that moved): keep keyboard focus on the same
			// pod across the redraw, or, if that pod is gone (killed,
			// deleted), on Step, so a keyboard reader never loses their place.
			const active = document.activeElement;
			const focused = active && active.matches && active.matches("button.pod") && els.world.contains(active)
				? {namespace: active.dataset.namespace, name: active.dataset.pod} : null;
			const last = lastStep(view);
			UI.renderWorld(els.world, view, UI.touchedSet(last));
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
			news.note(view, last, state.playing || state.busy);
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
		UI.roveTerms(els.main);
		updateControls();
		syncURL();
		if (!first && view && view.mode === "lesson") {
			// The lesson's checklists are the engine's answers about the
			// world as it now is.
			lesson.refresh();
		}
	}

	// drawLoop draws the loop's picture of the present step, its token
	// flying for as long as the step stays on screen; while Play runs, the
	// lists follow in the next frame.
	function drawLoop() {
		const view = state.view;
		if (view) {
			loopUI.render(view, lastStep(view), {animate: true, stepMs: stepInterval()});
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
				if (e.isIntersecting) {
					state.offScreen.delete(e.target);
				} else {
					state.offScreen.add(e.target);
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

	function renderInsideAtPace(view) {
		const now = performance.now();
		if (state.playing && now - state.insideDrawnAt < insidePaceMs) {
			return;
		}
		state.insideDrawnAt = now;
		UI.renderInside(view);
	}

	function renderSentence(view, last) {
		if (state.intro) {
			els.sentence.replaceChildren(...introSentence(view).flat());
			return;
		}
		if (!last) {
			els.sentence.replaceChildren(view.step === 0
				? "Nothing has happened yet: press Step to run the first event."
				: `Step ${view.step}.`);
			return;
		}
		els.sentence.replaceChildren(
			h("span", {class: "sentence-meta mono", text: `${stepName(last.n)} · t=${last.at} · `}),
			h("strong", {class: "sentence-actor", text: last.actor}), ": ",
			last.summary,
			...(last.models ? [h("span", {class: "sentence-models", text: " — models "}), h("code", {text: last.models})] : []));
	}

	// introSentence says, in one sentence, what a learner is looking at in a
	// world just loaded: what its setup built, what they ran, what each
	// owner wants and has, and what to do next.
	function introSentence(view) {
		const nodes = UI.plural((view.nodes || []).length, "node");
		const where = view.mode === "lesson"
			? `the world of this lesson, after the ${UI.plural(state.base, "step")} of its setup: a cluster of ${nodes}`
			: `a cluster of ${nodes}, built by ${UI.plural(state.base, "setup step")}`;
		const ran = (view.inputs || []).filter((i) => i.step >= state.base).map((i) => i.text);
		const did = ran.length === 1 ? [", where you just ran ", h("code", {text: ran[0]})] : ran.length > 1 ? `, where you just ran ${UI.plural(ran.length, "command")}` : "";
		const owners = (view.owners || []).slice(0, 3).map((o) => {
			const id = `${o.kind}/${o.name}`;
			const group = (view.podGroups || []).find((g) => g.owner === id && g.namespace === o.namespace && !g.ownerGone);
			return `${id} wants ${UI.plural(o.replicas, "pod")} and has ${group ? group.active : 0}`;
		});
		const wants = owners.length ? `: ${owners.join("; ")}` : (view.podsTotal ? "" : ": no controller owns anything yet");
		const next = nothingToRun(view)
			? "Nothing is pending: intervene (click a pod, or type a command) and watch the controller react."
			: view.mode === "lesson"
				? "Read the guide, then press Step (→) to run the next event."
				: "Press Step (→) to run the next event and follow the controller's reaction.";
		return [`You are looking at ${where}`, did, `${wants}. ${next}`];
	}

	function setSyncNote(text) {
		UI.settle(els.syncNote, {text: text || "", hidden: !text});
	}

	// nothingToRun says whether running time forward would do nothing: the
	// present is the end of the recorded timeline and the agenda is empty
	// (no periodic timers either), so Step, Next sync, Play and Stabilize
	// are disabled, and the hint says why.
	function nothingToRun(view) {
		return Boolean(view) && view.step >= view.recordedSteps && (view.agenda ? view.agenda.pending : 0) === 0;
	}

	// updateControls enables what can be used now and shows where time is.
	// updateControls brings the controls in line with the present. Each
	// value is settled (UI.settle): written only if it changed, since Play
	// calls this at every tick.
	function updateControls() {
		const view = state.view;
		const usable = state.ready && !state.busy && Boolean(view);
		for (const el of [els.scrubber, els.share, els.worldSelect, els.seedInput, els.newSandbox, els.speed]) {
			UI.settle(el, {disabled: !usable});
		}
		const idle = nothingToRun(view);
		const stepwise = lesson.stepwise();
		for (const el of [els.stepForward, els.untilSync, els.play, els.stabilize]) {
			if (stepwise && (el === els.untilSync || el === els.stabilize)) {
				UI.settle(el, {disabled: true, title: "This page of the lesson walks every event: press Step."});
				continue;
			}
			UI.settle(el, {
				disabled: !usable || (idle && !(el === els.play && state.playing)),
				title: usable && idle ? "Nothing to run: the agenda is empty and the world is at rest. Intervene first: click a pod, or type a command in the console." : "",
			});
		}
		UI.settle(els.stepBack, {
			disabled: !usable || view.step === 0,
			title: usable && view.step <= state.base && view.step > 0
				? `Back into the world's setup: the ${UI.plural(state.base, "step")} that built it before you took over.`
				: "",
		});
		UI.settle(els.cancel, {hidden: !state.busy});
		UI.settle(els.play, {"aria-pressed": state.playing ? "true" : "false"});
		UI.settle(els.play.querySelector(".play-label"), {text: state.playing ? "Pause" : "Play"});
		UI.settle(els.play.querySelector(".play-icon"), {text: state.playing ? "‖" : "▶"});
		consoleUI.setEnabled(state.ready && !state.busy);
		if (!view) {
			return;
		}
		// The first-time hint is for the sandbox; a lesson has its guide. It
		// says what to do next: step while something is pending, and once the
		// world is at rest, disturb it.
		UI.settle(els.hint, {hidden: view.mode !== "sandbox" && !idle, text: sandboxHint(view, idle)});
		UI.settle(els.scrubber, {max: String(view.recordedSteps), "aria-valuetext": counterText(view.step, view.recordedSteps)});
		if (!state.scrubbing) {
			UI.settle(els.scrubber, {value: String(view.step)});
			setCounter(view.step, view.recordedSteps);
		}
		drawSetupSegment(view.recordedSteps);
		UI.settle(els.clock, {text: `simulated time ${view.clock}`});
		const pending = view.agenda ? view.agenda.pending : 0;
		UI.settle(els.worldState, {text: view.atRest ? "at rest" : `${UI.plural(pending, "event")} pending`});
		els.worldState.classList.toggle("at-rest", view.atRest);
	}

	// setCounter shows step n of recorded in the step counter, counted from
	// the learner's start. Its data attributes keep the engine's numbers,
	// for the test suite and for anyone reading the DOM.
	function setCounter(n, recorded) {
		UI.settle(els.stepCount, {
			text: counterText(n, recorded),
			"data-step": String(n),
			"data-recorded": String(recorded),
			"data-base": String(state.base),
		});
	}

	// drawSetupSegment marks the part of the scrubber's range that is the
	// world's setup: a hatched, labelled band under the track, as wide as the
	// setup's share of the recorded steps.
	function drawSetupSegment(recorded) {
		const share = String(recorded > 0 ? Math.min(1, state.base / recorded) : 0);
		UI.settle(els.setupSegment, {hidden: state.base === 0});
		if (els.scrubTrack.style.getPropertyValue("--setup-share") !== share) {
			els.scrubTrack.style.setProperty("--setup-share", share);
		}
		UI.settle(els.setupLabel, {text: `setup: ${UI.plural(state.base, "step")}`});
	}

	function sandboxHint(view, idle) {
		if (idle) {
			return (view.podsTotal ?? 0) === 0
				? "Nothing is left to run. Type a command below, such as create rs web --replicas=3 --selector=app=web, then step with → (it works on the console's empty line too)."
				: "The world is at rest and nothing is left to run. Click a pod to kill or relabel it, or type a command below; then step with → (on the console's empty line too, or press Esc to leave the console) and watch the controller react.";
		}
		if (!view.atRest) {
			return "Press Step (→) to run the next event and watch the controller work. In the console, → on an empty line steps too, and Esc leaves it.";
		}
		return "The world is at rest. Click a pod to kill or relabel it, or type a command below; then step with → (on the console's empty line too, or press Esc to leave the console) and watch the controller react.";
	}

	function setBusy(busy, text) {
		state.busy = busy;
		els.timeline.setAttribute("aria-busy", busy ? "true" : "false");
		if (busy) {
			document.body.dataset.state = "busy";
			setStatus(text || "busy…");
		} else if (state.ready) {
			showIdle();
			scheduleRender();
		} else {
			document.body.dataset.state = "loading";
		}
		updateControls();
	}

	// --- Time controls -----------------------------------------------------------

	function stepForward() {
		return act(async () => {
			stopPlay();
			state.intro = false;
			await stepOnce(1);
		}, {control: els.stepForward});
	}

	// stepOnce runs n steps and redraws; it says so when nothing is left to do.
	async function stepOnce(n) {
		const res = await call("step", {n});
		addSteps(res.steps);
		await refresh();
		if (res.ran === 0) {
			setSyncNote("The agenda is empty: nothing happens until you intervene (try the console, or click a pod).");
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
			await seekTo(state.view.step - 1);
		}, {control: els.stepBack});
	}

	function untilSync() {
		if (refuseOnStepwisePage("Next sync")) {
			return Promise.resolve();
		}
		return act(async () => {
			stopPlay();
			state.intro = false;
			const res = await call("untilSync", {});
			addSteps(res.steps);
			await refresh();
			if (res.sync) {
				const s = res.sync;
				setSyncNote(`The sync of ${s.owner} (key ${s.key}) by ${s.worker} ran from ${s.start} to ${s.end}${s.decision ? `: ${s.decision}` : ""}${s.err ? `; it failed: ${s.err}` : ""}.`);
			} else if (res.idle) {
				setSyncNote("No sync came: the agenda ran dry first.");
			} else if (res.limit) {
				setSyncNote(`No sync ended within ${res.limit}.`);
			}
		}, {control: els.untilSync});
	}

	// seekTo moves the world to a recorded step (inside an action).
	async function seekTo(n) {
		const view = state.view;
		const target = Math.max(0, Math.min(n, view.recordedSteps));
		if (target === view.step) {
			scheduleRender();
			return;
		}
		await call("seek", {step: target});
		await refresh();
		setSyncNote("");
		// Keep the timeline around the present when the learner jumps far.
		if (target > 0 && !state.tl.some((e) => e.n === target)) {
			const forks = state.tl.filter((e) => e.fork !== undefined);
			await fillTimeline(target);
			restoreForks(forks);
			scheduleRender();
		}
	}

	// restoreForks puts fork notes back into a refilled timeline, where
	// it holds steps on both sides of them.
	function restoreForks(forks) {
		for (const f of forks) {
			const i = state.tl.findIndex((e) => e.n > f.n);
			if (i > 0) {
				state.tl.splice(i, 0, f);
			}
		}
	}

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
			if (res.ran === 0 || state.view.atRest) {
				stopPlay();
				setSyncNote(state.view.atRest ? "Play stopped: the world is at rest." : "Play stopped: nothing is left to do.");
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
		try {
			const res = await state.engine.stabilize({
				chunk: stabilizeChunk,
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
					if (chunks >= maxStabilizeChunks && !r.atRest) {
						state.engine.cancel();
						state.stabilizeLimited = true;
					}
					chunkView();
				},
			});
			if (chunks > 1) {
				// The chunks after the first listed only the newest steps
				// the timeline draws during the run; at rest it shows the
				// run's newest timelineCap.
				const last = await state.engine.call("steps", {from: Math.max(1, res.step - timelineCap + 1), to: res.step});
				addSteps(last.steps);
			}
			await refresh();
			if (state.stabilizeLimited) {
				setSyncNote(`Stopped after ${chunks * stabilizeChunk} steps without coming to rest: press Stabilize to go on, or read the agenda for what keeps the world busy.`);
			} else if (res.cancelled) {
				setSyncNote(`Cancelled at ${stepName(res.step)}.`);
			} else {
				setSyncNote(`At rest after ${state.view.clock} of simulated time.`);
			}
			return res;
		} catch (err) {
			showError(err.message);
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
		if (refuseOnStepwisePage("Stabilize")) {
			return Promise.resolve();
		}
		return act(stabilizeNow, {control: els.stabilize});
	}

	// chunkView fetches a view between chunks of a run, one at a time, and
	// draws it, so the learner sees the run progress.
	//
	// A picture is paid for by the run. The worker builds the view while the
	// next chunk waits behind it, and the view looks at every object: in a
	// world of 10,000 pods it takes about 200 ms of WebAssembly, as long as
	// four chunks of steps. Then this thread draws a thousand pods and the
	// inside panels, and the next chunk's answer waits for it to be done.
	// Paced by the clock alone, four pictures a second took four fifths of
	// such a run (Stabilize took 65 s where the engine alone takes 13).
	// So the next picture comes no sooner than chunkViewPace times what the
	// last one cost after it ends (its cost counted from its request to the
	// end of the frame that drew it), which holds pictures to a fifth of a
	// long run in a world of any size. In a small world, where they are
	// cheap, chunkViewEvery keeps them to a few a second, enough to see the
	// run move: more would only cost the page time it needs for input.
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
				state.engine.remember(view);
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

	// afterNextFrame resolves once the next frame has been drawn: its
	// animation-frame callbacks (a render scheduled before this call among
	// them) have run, and so have the style, layout and paint that follow
	// them in the same task, before any later task, such as the timeout. A
	// hidden tab (a page opened in the background) draws no frames: there it
	// resolves at once, or after a second if the tab is hidden while it
	// waits.
	function afterNextFrame() {
		return new Promise((resolve) => {
			if (document.visibilityState === "hidden") {
				resolve();
				return;
			}
			requestAnimationFrame(() => setTimeout(resolve, 0));
			setTimeout(resolve, 1000);
		});
	}

	// --- Worlds: sandbox, lessons, share links --------------------------------------------

	// loadSandbox starts a new sandbox from one of sandboxStarts (the
	// default: a ReplicaSet ready to step), inside an action.
	async function loadSandbox(seed, start = "sandbox") {
		// The world's setup ends where the load leaves it: the start
		// commands below are the learner's, counted from there.
		state.base = (await call("load", seed ? {seed} : {})).step;
		lesson.show(null);
		els.worldSelect.value = start;
		state.view = null;
		news.forget();
		state.tl = [];
		setSyncNote("");
		for (const line of sandboxStarts[start] || sandboxStarts.sandbox) {
			await consoleUI.exec(line);
		}
		if (!state.view) {
			await refresh(null); // the empty start ran no command
		}
		state.intro = true;
		if (!seed && start === "sandbox") {
			rememberStart();
		}
		// The timeline now holds the command's steps; the world's start
		// (nodes registering, workers starting) is listed once the page is
		// interactive, or at once when this is not the first world.
		if (state.ready) {
			await fillTimeline();
		}
		scheduleRender();
	}

	async function loadLesson(id) {
		const res = await call("load", {lesson: id});
		state.view = null;
		state.base = res.step;
		news.forget();
		lesson.show(res.lesson || null, {saved: progress.get(id)});
		els.worldSelect.value = id;
		setSyncNote("");
		await refresh(null);
		state.intro = true;
		await fillTimeline();
		consoleUI.print(`Loaded lesson ${res.lesson ? res.lesson.title : id}: its setup ran ${UI.plural(res.step, "step")}; your steps count from there.`);
		scheduleRender();
	}

	// restoreLink rebuilds the world a share link describes; it resolves
	// false when that failed (the caller then loads the default sandbox).
	async function restoreLink(link) {
		if (link.version !== state.engine.version) {
			showNotice(`This link was made with engine ${link.version}, this is ${state.engine.version}; replaying anyway.`);
		}
		setBusy(true, "restoring the shared world…");
		try {
			// A lesson's guide comes with its load; the restore loads again.
			let info = null;
			if (link.world !== "sandbox") {
				info = (await call("load", {lesson: link.world})).lesson || null;
			}
			await state.engine.restore(link, {onProgress: (text) => setStatus(text)});
			lesson.show(info, {page: link.page, saved: info ? progress.get(info.id) : null});
			els.worldSelect.value = link.world;
			state.view = null;
			news.forget();
			await refresh(null);
			state.intro = false;
			await fillTimeline(link.at);
			// The counter's own words, from the world as restored: a link's
			// at and end are the engine's numbers, which count the setup.
			consoleUI.print(`Restored a shared world: ${UI.plural(link.inputs.length, "input")} replayed, now at ${counterText(state.view.step, state.view.recordedSteps)}.`);
			return true;
		} catch (err) {
			showError(`This share link could not be replayed: ${err.message}. Showing the default sandbox instead.`);
			return false;
		} finally {
			setBusy(false);
		}
	}

	// --- The URL ---------------------------------------------------------------------

	// The page's URL always says where the learner is, as a share link does
	// (the world, the seed, the inputs, the present step, the lesson's
	// page), so that a reload, or a link copied from the address bar,
	// returns to exactly here. It is rewritten with replaceState, which adds
	// no history entry, a moment after the learner stops moving; the
	// default first world has no hash at all, so "/" stays the fast path
	// that draws the page's own first world.
	const urlDelay = 300;

	// urlState is the replay state of the present, with the lesson's page;
	// null before the engine has said its version.
	function urlState() {
		const view = state.view;
		if (!view || !state.engine || !state.engine.version) {
			return null;
		}
		const st = RlabEngine.stateFromView(view, state.engine.version);
		if (view.mode === "lesson" && lesson.info) {
			st.page = lesson.page + 1;
		}
		return st;
	}

	// startKey identifies the default first world, whatever the version.
	function startKey(st) {
		return JSON.stringify(Object.assign({}, st, {version: ""}));
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

	async function loadLessonList() {
		try {
			const sources = await state.engine.call("sources");
			UI.sources = new Map((sources.sources || []).map((src) => [src.name, src]));
		} catch (err) {
			// Upstream links then lead to files only; nothing else needs them.
		}
		try {
			const res = await state.engine.call("lessons");
			const lessons = res.lessons || [];
			state.lessons = lessons;
			if (els.lessonsDialog.open) {
				// Opened before the list arrived: draw it now.
				openLessons();
			}
			if (lessons.length) {
				els.worldSelect.appendChild(h("optgroup", {label: "Lessons"},
					lessons.map((l) => h("option", {value: l.id, text: `Lesson ${l.number}: ${l.title}`}))));
			}
		} catch (err) {
			showError(`The lessons could not be listed: ${err.message}`);
		}
	}

	function share() {
		const view = state.view;
		if (!view) {
			return;
		}
		let hash;
		try {
			hash = RlabEngine.encodeState(RlabEngine.stateFromView(view, state.engine.version));
		} catch (err) {
			showError(err.message);
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
				() => showNotice("The share link is copied: whoever opens it gets this world, at this step."),
				() => showNotice("The share link is in the field above: copy it from there."));
		}
	}

	// --- Console ----------------------------------------------------------------

	// runLine runs one console line and brings the page up to date (inside an
	// action). A bare "stabilize" runs chunked, so it can be cancelled.
	async function runLine(line) {
		state.intro = false;
		if (/^\s*stabilize\s*$/.test(line) && !lesson.stepwise()) {
			const res = await stabilizeNow();
			return {ran: 0, step: res.step, atRest: res.atRest, output: res.cancelled ? "cancelled\n" : `at rest at ${stepName(res.step)}\n`};
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

	const consoleUI = new UI.Console({
		output: els.consoleOutput, input: els.consoleInput, form: els.consoleForm, button: els.consoleRun,
	}, {
		execute: runLine,
		submit: (line) => act(() => consoleUI.exec(line), {control: els.consoleRun}),
		complete: (line, cursor) => call("complete", {line, cursor}),
		stepName: (n) => stepName(n),
	});

	// runCommand echoes and runs a line the page made (the pod menu's).
	function runCommand(line) {
		return act(async () => {
			stopPlay();
			await consoleUI.exec(line);
		});
	}

	// --- Lessons -------------------------------------------------------------------

	// placeLoop puts the loop's picture where a learner looks: beside the
	// world, at the top of the right-hand column, in the sandbox; under the
	// world in a lesson, whose text takes the right-hand column's top (and
	// talks about the picture at every step). On a phone, one column holds
	// them all.
	function placeLoop(inLesson) {
		const world = els.world.closest(".panel");
		if (inLesson) {
			world.after(els.loopPanel);
		} else {
			document.querySelector(".col-side").prepend(els.loopPanel);
		}
	}

	const lesson = new UI.Lesson(els.lesson, {
		shown: placeLoop,
		run: (lines, page) => act(async () => {
			stopPlay();
			for (const line of lines) {
				const res = await consoleUI.exec(line);
				if (!res || res.failure) {
					break;
				}
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

	// progress keeps each lesson's progress (the page, the answers, the
	// pages passed, whether the goal was met and how) in localStorage, so
	// that it survives a reload. A browser that keeps nothing (a private
	// window with storage off) still plays every lesson; it only forgets.
	const progress = {
		key: "rlab.progress.v1",
		all() {
			try {
				const data = JSON.parse(localStorage.getItem(this.key) || "{}");
				return data && typeof data === "object" && data.lessons && typeof data.lessons === "object" ? data : {lessons: {}};
			} catch (err) {
				return {lessons: {}};
			}
		},
		get(id) {
			return this.all().lessons[id] || null;
		},
		save(id, st) {
			const data = this.all();
			data.lessons[id] = st;
			try {
				localStorage.setItem(this.key, JSON.stringify(data));
			} catch (err) {
				// Nowhere to keep it: the lesson goes on, unsaved.
			}
		},
		forget(id) {
			const data = this.all();
			delete data.lessons[id];
			try {
				localStorage.setItem(this.key, JSON.stringify(data));
			} catch (err) {
				// As above.
			}
		},
		// exported is the progress as a file's text.
		exported() {
			return JSON.stringify({format: "reconcile-lab-progress", version: 1, lessons: this.all().lessons}, null, "\t");
		},
		// imported merges a file's progress into the kept progress, a
		// lesson's imported progress replacing what was kept of it, and
		// says how many lessons it brought. A file that is not one the page
		// exported is refused whole, with what was wrong; progress for a
		// lesson this page does not have is left out.
		imported(text, known) {
			let data;
			try {
				data = JSON.parse(text);
			} catch (err) {
				throw new Error(`the file is not JSON (${err.message})`);
			}
			if (!data || data.format !== "reconcile-lab-progress" || data.version !== 1 || typeof data.lessons !== "object" || !data.lessons) {
				throw new Error("the file is not Reconcile Lab progress: it has no format \"reconcile-lab-progress\", version 1, and lessons");
			}
			const kept = this.all();
			let n = 0;
			const skipped = [];
			for (const [id, st] of Object.entries(data.lessons)) {
				const clean = cleanProgress(st);
				if (!known.includes(id) || !clean) {
					skipped.push(id);
					continue;
				}
				kept.lessons[id] = clean;
				n++;
			}
			try {
				localStorage.setItem(this.key, JSON.stringify(kept));
			} catch (err) {
				throw new Error("this browser keeps nothing (storage is off)");
			}
			return {n, skipped};
		},
	};

	// cleanProgress keeps of one lesson's imported progress only what the
	// player reads, each of the type it reads, or returns null.
	function cleanProgress(st) {
		if (!st || typeof st !== "object") {
			return null;
		}
		const answers = {};
		for (const [key, a] of Object.entries(st.answers && typeof st.answers === "object" ? st.answers : {})) {
			if (/^\d+\/\d+$/.test(key) && a && Number.isInteger(a.choice) && a.choice >= 0) {
				answers[key] = {choice: a.choice, step: Number.isInteger(a.step) ? a.step : 0,
					decided: Number.isInteger(a.decided) ? a.decided : null,
					verdict: ["right", "wrong", "undecided"].includes(a.verdict) ? a.verdict : null};
			}
		}
		return {
			page: Number.isInteger(st.page) && st.page >= 1 ? st.page : 1,
			answers,
			passed: Array.isArray(st.passed) ? st.passed.filter((n) => Number.isInteger(n) && n >= 1) : [],
			completed: st.completed === true,
			bySolution: st.bySolution === true,
		};
	}

	// openLessons opens the list of lessons, with each one's progress.
	function openLessons() {
		if (!state.lessons) {
			els.lessonsList.replaceChildren(h("li", {class: "lesson-item", text: "The lessons are loading with the simulator…"}));
			if (!els.lessonsDialog.open) {
				els.lessonsDialog.showModal();
			}
			els.lessonsClose.focus();
			return;
		}
		UI.drawLessonList(els.lessonsList, state.lessons, (id) => progress.get(id), (id) => {
			els.lessonsDialog.close();
			els.worldSelect.value = id;
			act(async () => {
				stopPlay();
				await loadLesson(id);
			});
		});
		els.lessonsNote.textContent = "";
		if (!els.lessonsDialog.open) {
			els.lessonsDialog.showModal();
		}
		const first = els.lessonsList.querySelector(".next button") || els.lessonsList.querySelector("button") || els.lessonsClose;
		first.focus();
	}

	function exportProgress() {
		const blob = new Blob([progress.exported()], {type: "application/json"});
		const a = h("a", {href: URL.createObjectURL(blob), download: "reconcile-lab-progress.json"});
		document.body.appendChild(a);
		a.click();
		a.remove();
		setTimeout(() => URL.revokeObjectURL(a.href), 1000);
		els.lessonsNote.textContent = "Your progress is in the file reconcile-lab-progress.json.";
	}

	async function importProgress() {
		const file = els.lessonsImport.files && els.lessonsImport.files[0];
		if (!file) {
			return;
		}
		try {
			const res = progress.imported(await file.text(), (state.lessons || []).map((l) => l.id));
			openLessons();
			els.lessonsNote.textContent = `Imported the progress of ${UI.plural(res.n, "lesson")}` +
				(res.skipped.length ? `; left out ${res.skipped.join(", ")}, which this page does not have.` : ".");
		} catch (err) {
			els.lessonsNote.textContent = `Not imported: ${err.message}.`;
		} finally {
			els.lessonsImport.value = "";
		}
	}

	// refuseOnStepwisePage, on a stepwise page of a lesson, says why a
	// button that runs many events does not, and reports true.
	function refuseOnStepwisePage(what) {
		if (!lesson.stepwise()) {
			return false;
		}
		showNotice(`This page of the lesson walks every event: press Step (→). ${what} runs many at once; it works again on a later page.`);
		return true;
	}

	// --- The pod menu --------------------------------------------------------------

	const podMenu = new UI.PodMenu(els.podMenu, {
		onCommand: runCommand,
		findPod,
		fallbackFocus: () => els.stepForward,
	});

	// --- What a screen reader hears of the timeline ----------------------------------

	const news = new UI.News(document.getElementById("timeline-news"), {stepName: (n) => stepName(n)});

	// --- The loop, drawn ----------------------------------------------------------------

	const loopUI = new UI.Loop({
		figure: els.loopFigure, caption: els.loopCaption, detail: els.loopDetail,
		// "Show its table" brings the part's panel into view and puts the
		// keyboard there.
		onShowPanel: (headingID) => {
			const heading = document.getElementById(headingID);
			const target = heading && (heading.closest(".sub, .panel") || heading);
			if (!target) {
				return;
			}
			target.scrollIntoView({block: "start", behavior: UI.reducedMotion() ? "auto" : "smooth"});
			if (!heading.hasAttribute("tabindex")) {
				heading.tabIndex = -1;
			}
			heading.focus({preventScroll: true});
		},
	});

	// stepInterval is how long one drawing stays on screen while playing
	// (a tick of playTick, which runs several steps a tick beyond 10 a
	// second), for the token's flight; a single step gets a flight of its
	// own length.
	function stepInterval() {
		return state.playing ? 1000 / Math.min(Number(els.speed.value) || 1, 10) : 400;
	}

	// A phone folds the loop away, one tap from the world; a wide screen
	// always shows it (style.css hides the button there).
	function setLoopOpen(open) {
		els.loopPanel.classList.toggle("open", open);
		els.loopToggle.setAttribute("aria-expanded", String(open));
		els.loopToggle.textContent = open ? "Hide the loop" : "Show the loop";
	}

	// --- Wiring ------------------------------------------------------------------------

	function openHelp() {
		if (!els.help.open) {
			state.helpReturn = document.activeElement;
			els.help.showModal();
			els.helpClose.focus();
		}
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
		els.errorDismiss.addEventListener("click", clearError);
		els.noticeDismiss.addEventListener("click", clearNotice);
		els.timelineEarlier.addEventListener("click", earlierSteps);

		els.helpButton.addEventListener("click", openHelp);
		els.lessonsButton.addEventListener("click", openLessons);
		els.lessonToggle.addEventListener("click", () => {
			const lowered = els.lesson.classList.toggle("lowered");
			els.lessonToggle.setAttribute("aria-expanded", String(!lowered));
			els.lessonToggle.textContent = lowered ? "Raise the lesson" : "Lower the lesson";
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
		els.help.addEventListener("close", () => {
			const back = state.helpReturn;
			state.helpReturn = null;
			if (back && back !== document.body && back.isConnected) {
				back.focus();
			}
			const now = document.activeElement;
			if (now === null || now === document.body || els.help.contains(now)) {
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
			const li = event.target.closest("li[data-step]");
			if (li && state.ready && !state.busy) {
				seek(Number(li.dataset.step));
			}
		});

		els.world.addEventListener("click", (event) => {
			const button = event.target.closest("button.pod");
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
				showError(`The seed must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}, not "${raw}".`);
				return;
			}
			act(async () => {
				stopPlay();
				clearHash();
				const start = els.worldSelect.value in sandboxStarts ? els.worldSelect.value : "sandbox";
				await loadSandbox(seed, start);
				consoleUI.print(`New sandbox${seed ? ` with seed ${seed}` : ""}.`);
			}, {control: els.newSandbox});
		});

		document.addEventListener("keydown", keydown);
		watchDock();
		watchSheet();
		watchOffScreen();
		// The sentence is clamped to three lines (along the bottom of a
		// phone's screen, in the dock of a wide one); a click or a tap
		// shows a long one whole, another clamps it.
		els.sentence.closest(".now").addEventListener("click", (event) => {
			if (!event.target.closest("a, button")) {
				event.currentTarget.classList.toggle("expanded");
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
		const dock = document.querySelector(".dock");
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
		const now = els.sentence.closest(".now");
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

	// consoleKey runs the keys that let a learner go on from the console
	// without a mouse: Escape leaves it, for Step (or, when nothing is left
	// to run, the console's output), so the shortcuts work again; → and ←
	// on an empty line step and step back, as they would outside it. It
	// says whether it used the key. A key the console itself used (an open
	// completion list's Escape) arrives marked defaultPrevented and is left
	// alone.
	function consoleKey(event) {
		if (!state.ready) {
			return false;
		}
		if (event.key === "Escape") {
			(els.stepForward.disabled ? els.consoleOutput : els.stepForward).focus();
			return true;
		}
		if (els.consoleInput.value !== "" || event.shiftKey) {
			return false;
		}
		if (event.key === "ArrowRight") {
			stepForward();
			return true;
		}
		if (event.key === "ArrowLeft") {
			stepBack();
			return true;
		}
		return false;
	}

	// keydown runs the page's shortcuts; none fires while the learner types
	// in a field, or with a modifier held (the browser's own shortcuts).
	function keydown(event) {
		if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) {
			return;
		}
		if (event.target === els.consoleInput && consoleKey(event)) {
			event.preventDefault();
			return;
		}
		if (event.key === "Escape") {
			if (els.help.open) {
				return; // the dialog closes itself
			}
			if (podMenu.isOpen()) {
				podMenu.close(true);
			} else if (state.busy && state.engine) {
				state.engine.cancel();
			} else if (state.playing) {
				stopPlay();
			} else {
				return;
			}
			event.preventDefault();
			return;
		}
		if (els.help.open || podMenu.isOpen() || UI.isTyping(event.target) || !state.ready) {
			return;
		}
		const onButton = event.target.closest && event.target.closest("button, a, summary, [role=button]");
		switch (event.key) {
		case "ArrowRight":
		case ".":
			stepForward();
			break;
		case "ArrowLeft":
		case ",":
			stepBack();
			break;
		case "n":
			untilSync();
			break;
		case " ":
			if (onButton) {
				return; // Space presses the focused button
			}
			togglePlay();
			break;
		case "r":
			stabilize();
			break;
		case "/":
			els.consoleInput.focus();
			break;
		case "g":
			els.scrubber.focus();
			break;
		case "?":
			openHelp();
			break;
		default:
			return;
		}
		event.preventDefault();
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
			globalThis.__rlabReadyAt = performance.now();
			performance.mark("rlab:painted");
			UI.decorateStatic();
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
		globalThis.__rlabEngineReadyAt = performance.now();
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
	const showProgress = onceAFrame(() => drawProgress(state.engine.download));

	// drawProgress shows the download as bytes of main.wasm's size, both as
	// it is once decoded (what the engine counts), and the compressed size
	// that crosses the network when the server says it. #status gets the
	// quarters only, for it is read aloud.
	function drawProgress(d) {
		if (state.engineUp) {
			return;
		}
		const mb = (n) => (n / 1e6).toFixed(1);
		const bar = els.engineProgress;
		let text;
		if (d.total > 0) {
			bar.max = d.total;
			bar.value = d.loaded;
			text = `${mb(d.loaded)} of ${mb(d.total)} MB`;
		} else {
			bar.removeAttribute("value"); // indeterminate
			text = `${mb(d.loaded)} MB`;
		}
		if (d.wire > 0) {
			text += ` (${mb(d.wire)} MB compressed)`;
		}
		if (d.done) {
			text += ", starting…";
		}
		els.engineLoadText.textContent = text;
		bar.setAttribute("aria-valuetext", text);
		if (globalThis.__rlabProgressAt === undefined) {
			performance.mark("rlab:progress");
			globalThis.__rlabProgressAt = performance.now();
		}
		if (!d.done && d.total > 0) {
			const quarters = Math.floor(4 * d.loaded / d.total);
			const loadText = quarters === 0
				? `loading the simulator (${mb(d.total)} MB)…`
				: `loading the simulator: ${25 * quarters}% done`;
			if (loadText !== state.loadText) {
				state.loadText = loadText;
				if (!state.busy) {
					setStatus(loadingStatus());
				}
			}
		}
	}

	async function main() {
		wire();
		if (typeof globalThis.RlabEngine !== "function") {
			fail(new Error("engine.js did not load"));
			return;
		}
		if (typeof WebAssembly !== "object" || typeof Worker !== "function") {
			fail(new Error("this browser cannot run WebAssembly in a worker"));
			return;
		}
		const engine = new RlabEngine({
			workerURL: "worker.js",
			onStatus: (text, kind) => {
				if (kind === "error") {
					setStatus(text);
					showError(text);
				} else if (kind === "restarting") {
					setStatus(text);
				} else if (kind === "starting" || (kind === "loading" && !engine.download.total)) {
					// (Once the download's size is known, drawProgress
					// says how far it is.)
					state.loadText = text;
					if (!state.engineUp && !state.busy) {
						setStatus(loadingStatus());
					}
				} else if (kind === "ready" && state.engineUp && state.ready && !state.busy) {
					setStatus("ready"); // restarted after a crash
				}
			},
			onProgress: showProgress,
			onRestart: (info) => {
				showError(`The simulator crashed (${info.reason}) and was restarted; your world was rebuilt.`);
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
		globalThis.__rlab = {engine, view: () => state.view};
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
				await catchUp(firstWorld);
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
					showError(`This share link cannot be used: ${err.message}. Showing the default sandbox instead.`);
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
			setStatus("error: the first world could not be loaded");
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
	const firstWorld = (() => {
		const block = document.getElementById("first-view");
		try {
			return block ? JSON.parse(block.textContent) : null;
		} catch {
			return null;
		}
	})();

	// showFirstWorld draws the prerendered first world, if it is the one
	// this page would load; it says whether it did.
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
		state.engine.remember(first.view);
		return true;
	}

	// catchUp makes the engine's world the one the page drew from
	// its first-world block, by sending the same requests. The engine is
	// deterministic, so the answers are the same; if they are not, the file
	// is stale, and the engine's world replaces the drawing.
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
		state.engine.remember(view);
	}

	// afterReady fetches what nothing waits for once the page is
	// interactive: the start of the timeline and the lessons.
	async function afterReady() {
		await act(async () => {
			if (!state.tl.some((e) => e.step && e.n === 1)) {
				const forks = state.tl.filter((e) => e.fork !== undefined);
				await fillTimeline(state.view.step);
				restoreForks(forks);
				scheduleRender();
			}
		}, {internal: true});
		await loadLessonList();
		if (state.view && state.view.mode === "lesson") {
			els.worldSelect.value = state.view.lesson;
		}
		if (state.wantsLessons) {
			state.wantsLessons = false;
			openLessons();
		}
		// The Glossary panel is built in the first idle moment, so that it
		// opens at once when asked for; opening it earlier builds it then.
		(globalThis.requestIdleCallback || setTimeout)(() => UI.buildGlossary());
	}

	main();
})();
