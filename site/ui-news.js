// ui-news.js tells a screen reader what the simulation did, in a sentence
// and every few seconds at most, through one visually hidden live region
// (#timeline-news). The timeline itself is a plain list, not a live region:
// Play adds ten items a second and Stabilize hundreds, and a reader who was
// told each of them would hear nothing else for minutes.
//
// The page tells News every view it draws; News compares its step with the
// step it last spoke of and, once its gap has passed, says in one sentence
// how far the world moved and what the latest step did: "Step 68:
// kubelet: …" for one step, "Steps 121 to 180 ran. Step 180: …" for a
// run. While a run (Play, Stabilize) goes on it speaks every few seconds;
// otherwise it speaks as soon as the world moves, but no more than once a
// second, so that a key held down is a few sentences, not thirty a second.

import {t, tParts} from "./i18n.js";

/** @typedef {import("./bridge-types.js").View} View */
/** @typedef {import("./bridge-types.js").Step} Step */
/** @typedef {{step: number, recorded: number, atRest: boolean}} Spoken */

class News {
	// region is the live region to speak through. runGap and idleGap are
	// the least time between two sentences, in milliseconds, during a
	// run and otherwise. stepName(n) names the engine's step n as the
	// page counts steps ("step 3", "setup step 40"), and stepNameStart(n)
	// so as to start a sentence ("Step 3").
	/**
	 * @param {HTMLElement} region
	 * @param {{runGap?: number, idleGap?: number, stepName?: (n: number) => string, stepNameStart?: (n: number) => string}} [options]
	 */
	constructor(region, {runGap = 3000, idleGap = 1000, stepName = (n) => t("step.name", {n}), stepNameStart = (n) => t("step.nameStart", {n})} = {}) {
		this.region = region;
		this.stepName = stepName;
		this.stepNameStart = stepNameStart;
		this.runGap = runGap;
		this.idleGap = idleGap;
		this.spokenAt = -Infinity;
		/** @type {number | undefined} */
		this.timer = 0;
		/** @type {Spoken | null} */
		this.base = null;
		/** @type {View | null} */
		this.view = null;
		/** @type {Step | null} */
		this.last = null;
		this.forget();
	}

	// forget drops what News knows of the world: a new world (a sandbox,
	// a lesson, a share link) is loaded, and the step it starts at is
	// not news; the console says what was loaded.
	forget() {
		clearTimeout(this.timer);
		this.base = null; // the step last spoken of, or the first seen
		this.view = null; // the latest view, while there is news
		this.last = null; // the step that brought the world to it
	}

	// note is told each view the page draws, last the step that brought
	// the world there (null if the view does not list it), and whether a
	// run is going on.
	/**
	 * @param {View} view
	 * @param {Step | null} last
	 * @param {boolean} running
	 */
	note(view, last, running) {
		if (this.base === null) {
			this.base = {step: view.step, recorded: view.recordedSteps, atRest: view.atRest};
			return;
		}
		if (this.view === null && view.step === this.base.step) {
			return; // drawn again, nothing moved
		}
		this.view = view;
		this.last = last;
		const gap = running ? this.runGap : this.idleGap;
		clearTimeout(this.timer);
		this.timer = setTimeout(() => this.speak(), Math.max(0, this.spokenAt + gap - performance.now()));
	}

	// speak says what happened since the step last spoken of.
	speak() {
		const view = this.view;
		if (view === null) {
			return;
		}
		// A view to speak of comes after the first, which set base.
		const from = /** @type {Spoken} */ (this.base);
		this.base = {step: view.step, recorded: view.recordedSteps, atRest: view.atRest};
		this.view = null;
		if (view.step === from.step) {
			return; // there and back again
		}
		// The step's actor and sentence are the engine's words.
		const last = this.last;
		const what = last
			? tParts("news.what", {actor: english(last.actor), summary: english(last.summary)})
			: [t("news.noWhat")];
		/** @type {Record<string, unknown>} */
		const params = {step: this.stepName(view.step), Step: this.stepNameStart(view.step), n: view.step - from.step, what: fragment(what)};
		let key;
		if (view.step < from.step || view.recordedSteps <= from.recorded) {
			// A seek: nothing ran, the world went to a recorded step.
			key = "news.seek";
		} else if (view.step === from.step + 1) {
			key = "news.step";
		} else {
			key = "news.run";
		}
		const said = tParts(key, params);
		if (view.atRest && !from.atRest) {
			said.push(t("news.atRest"));
		}
		this.region.replaceChildren(...said);
		this.spokenAt = performance.now();
	}
}

// english wraps the engine's words in a span marked lang="en".
/** @param {string} text */
function english(text) {
	const span = document.createElement("span");
	span.lang = "en";
	span.textContent = text;
	return span;
}

/** @param {Array<string | Node>} parts */
function fragment(parts) {
	const frag = document.createDocumentFragment();
	frag.append(...parts);
	return frag;
}

export {News};
