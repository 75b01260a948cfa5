// progress.js keeps each lesson's progress (the page, the answers, the
// pages passed, whether the goal was met and how) in localStorage, so that
// it survives a reload, and reads a progress file back, keeping only what
// the lesson player reads. It touches nothing else of the page but its
// words (i18n.js).

import {t} from "./i18n.js";

// progress keeps each lesson's progress (the page, the answers, the
// pages passed, whether the goal was met and how) in localStorage, so
// that it survives a reload. A browser that keeps nothing (a private
// window with storage off) still plays every lesson; it only forgets.

/**
 * An answer to a lesson's question, by page/question.
 * @typedef {{choice: number, step: number, decided: number | null, verdict: string | null}} Answer
 */
/**
 * LessonProgress is what is kept of one lesson.
 * @typedef {Object} LessonProgress
 * @property {number} page
 * @property {Record<string, Answer>} answers
 * @property {number[]} passed
 * @property {boolean} completed
 * @property {boolean} bySolution
 */
/** @typedef {{lessons: Record<string, LessonProgress>}} Kept */

const progress = {
	/** @returns {Kept} */
	key: "rlab.progress.v1",
	all() {
		try {
			const data = JSON.parse(localStorage.getItem(this.key) || "{}");
			return data && typeof data === "object" && data.lessons && typeof data.lessons === "object" ? data : {lessons: {}};
		} catch (err) {
			return {lessons: {}};
		}
	},
	/**
	 * @param {string} id
	 * @returns {LessonProgress | null}
	 */
	get(id) {
		return this.all().lessons[id] || null;
	},
	/**
	 * @param {string} id
	 * @param {LessonProgress} st
	 */
	save(id, st) {
		const data = this.all();
		data.lessons[id] = st;
		try {
			localStorage.setItem(this.key, JSON.stringify(data));
		} catch (err) {
			// Nowhere to keep it: the lesson goes on, unsaved.
		}
	},
	/** @param {string} id */
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
	/**
	 * @param {string} text
	 * @param {string[]} known
	 * @returns {{n: number, skipped: string[]}}
	 */
	imported(text, known) {
		let data;
		try {
			data = JSON.parse(text);
		} catch (err) {
			// JSON.parse throws SyntaxErrors only.
			throw new Error(t("progress.notJSON", {reason: /** @type {Error} */ (err).message}));
		}
		if (!data || data.format !== "reconcile-lab-progress" || data.version !== 1 || typeof data.lessons !== "object" || !data.lessons) {
			throw new Error(t("progress.notProgress", {format: `format "reconcile-lab-progress"`, version: "version 1", lessons: "lessons"}));
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
			throw new Error(t("progress.noStorage"));
		}
		return {n, skipped};
	},
};

// cleanProgress keeps of one lesson's imported progress only what the
// player reads, each of the type it reads, or returns null.
//
// st is parsed JSON from a file, so it has JSON.parse's type, any: every
// field is checked below before anything of it is kept.
/**
 * @param {any} st
 * @returns {LessonProgress | null}
 */
function cleanProgress(st) {
	if (!st || typeof st !== "object") {
		return null;
	}
	/** @type {Record<string, Answer>} */
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
		passed: Array.isArray(st.passed) ? st.passed.filter((/** @type {number} */ n) => Number.isInteger(n) && n >= 1) : [],
		completed: st.completed === true,
		bySolution: st.bySolution === true,
	};
}

export {progress, cleanProgress};
