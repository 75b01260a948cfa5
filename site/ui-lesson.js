// ui-lesson.js is the lesson player in #lesson: the goal, always on show as
// a checklist the engine ticks after every action, then the guide, one page
// at a time, its Markdown rendered as DOM (never as HTML) with its blocks in
// place, then hints and the reference solution.
//
// The blocks: a do block runs its commands in the console, once, and then
// says so; a step block says what pressing Step reaches and ticks it off
// when the world gets there; a check block states what holds, ticked the
// same way; a predict block asks a question before its step runs, and once
// the step has run, the engine grades the answer by running each choice's
// expect (so "right" is what happened, not what the author wrote); a wrong
// answer offers to rewind to the moment it was given and watch again. The
// next page opens once the page's check and step blocks have held.
//
// Nothing here asks the learner to press "check": the page calls refresh
// after every action, and the player asks the engine then.
//
// A lesson is shown in the page's language: its title, summary, guide,
// questions and hints come from its translation into that language
// (lessonWords), the English standing in where there is none. Its
// commands, expects and the engine's answers stay English; they are what
// the learner types and what the engine says.

import {h} from "./ui-util.js";
import {roveTerms} from "./ui-glossary.js";
import {inline, markdown} from "./ui-markdown.js";
import {has, i18n, pageLang, t, tParts} from "./i18n.js";

/** @typedef {import("./bridge-types.js").LessonInfo} LessonInfo */
/** @typedef {import("./bridge-types.js").PageInfo} PageInfo */
/** @typedef {import("./bridge-types.js").BlockInfo} BlockInfo */
/** @typedef {import("./bridge-types.js").PredictInfo} PredictInfo */
/** @typedef {import("./bridge-types.js").CheckResult} CheckResult */
/** @typedef {import("./progress.js").LessonProgress} LessonProgress */
/** @typedef {import("./progress.js").Answer} Answer */

/**
 * A line of a checklist: an expect, and whether it holds (null: not
 * asked yet), with what the engine found when it does not.
 * @typedef {{text: string, met: boolean | null, failure?: import("./bridge-types.js").CommandError | null}} ChecklistLine
 */

/**
 * LessonHooks tie the player to the page (see the constructor).
 * @typedef {Object} LessonHooks
 * @property {(lines: string[], page: number, after?: () => Promise<unknown>) => Promise<unknown>} run
 * @property {(page: number, block?: number) => Promise<CheckResult>} check
 * @property {(page: number, block: number) => Promise<import("./bridge-types.js").GradeResult>} grade
 * @property {(step: number) => Promise<unknown>} seek
 * @property {() => Promise<import("./bridge-types.js").FunctionsResult>} functions
 * @property {() => Promise<unknown>} restart
 * @property {() => number} step
 * @property {(n: number) => string} [stepName]
 * @property {(text: string) => void} announce
 * @property {() => void} [moved]
 * @property {(state: LessonProgress) => void} [saved]
 * @property {(open: boolean) => void} shown
 */

// Lesson owns one lesson's state: the page on show, the answers given,
// the do blocks run, the pages passed, and whether the goal was met.
class Lesson {
	// hooks, each returning a Promise where it asks the engine:
	//   run(lines, page, after): runs console lines in order, then after,
	//     as one action: nothing the learner does runs in between;
	//   check(page, block): a CheckResult (page 0: the goal; block
	//     undefined: the page's check blocks);
	//   grade(page, block): a GradeResult;
	//   seek(step): brings the world back to that step;
	//   functions(): a FunctionsResult for the learner's steps;
	//   restart(): loads the lesson's world afresh;
	//   step(): the present step, or 0; stepName(n): how the page
	//     names step n to the learner;
	//   announce(text): tells the learner (the notice area);
	//   moved(): the learner turned a page;
	//   saved(state): the progress to keep (see state);
	//   shown(open): the panel was shown (a lesson) or hidden (the
	//     sandbox).
	/**
	 * @param {HTMLElement} panel
	 * @param {LessonHooks} hooks
	 */
	constructor(panel, hooks) {
		this.panel = panel;
		// index.html gives the panel its title and body.
		this.title = /** @type {HTMLElement} */ (panel.querySelector("#lesson-title"));
		this.body = /** @type {HTMLElement} */ (panel.querySelector("#lesson-body"));
		this.hooks = hooks;
		/** @type {LessonInfo | null} */
		this.info = null;
		/** @type {Promise<void> | null} */
		this.refreshing = null;
		this.again = false;
		// drawn is what the player last drew, as JSON (ask).
		/** @type {string | undefined} */
		this.drawn = undefined;
		// The progress in the lesson on show (resetProgress starts it
		// afresh).
		this.page = 0;
		/** @type {Map<string, Answer>} */
		this.answers = new Map(); // "page/block" → {choice, step, decided, verdict}
		/** @type {Set<string>} the answers being graded now */
		this.grading = new Set();
		/** @type {Map<string, number>} */
		this.picked = new Map(); // "page/block" → the choice picked and not yet answered
		/** @type {Map<string, number>} */
		this.ran = new Map(); // "page/block" → the step after the do block ran
		/** @type {Map<string, CheckResult>} */
		this.held = new Map(); // "page/block" → the CheckResult of a check or step block
		/** @type {Set<string>} */
		this.reached = new Set(); // "page/block" of the check and step blocks that have held
		/** @type {Set<number>} */
		this.passed = new Set(); // page numbers whose checks and steps held
		/** @type {CheckResult | null} */
		this.goal = null; // the goal's CheckResult
		this.completed = false;
		this.bySolution = false;
		/** @type {import("./bridge-types.js").FunctionsResult | null} */
		this.functions = null;
		this.hintsShown = 0;
		this.solution = {asking: false, shown: false, next: 0, running: false};
	}

	// resetProgress forgets the progress in the lesson on show.
	resetProgress() {
		this.page = 0;
		this.answers = new Map();
		this.grading = new Set();
		this.picked = new Map();
		this.ran = new Map();
		this.held = new Map();
		this.reached = new Set();
		this.passed = new Set();
		this.goal = null;
		this.completed = false;
		this.bySolution = false;
		this.functions = null;
		this.hintsShown = 0;
		this.solution = {asking: false, shown: false, next: 0, running: false};
	}

	// show loads a lesson's content (LessonInfo) into the panel, or hides
	// the panel for the sandbox (info null). saved is the progress kept
	// from before (state's shape); page, from 1, opens that page (a
	// reload or a share link returning to where the learner was).
	/**
	 * @param {LessonInfo | null} info
	 * @param {{page?: number, saved?: LessonProgress | null}} [options]
	 */
	show(info, {page = 0, saved = null} = {}) {
		this.info = info;
		this.resetProgress();
		this.panel.hidden = !info;
		this.hooks.shown(Boolean(info));
		if (!info) {
			this.body.replaceChildren();
			return;
		}
		if (saved) {
			for (const [key, a] of Object.entries(saved.answers || {})) {
				this.answers.set(key, {choice: a.choice, step: a.step, decided: a.decided ?? null, verdict: a.verdict || null});
			}
			for (const n of saved.passed || []) {
				this.passed.add(n);
			}
			this.completed = Boolean(saved.completed);
			this.bySolution = Boolean(saved.bySolution);
			page = page || saved.page || 0;
		}
		const pages = info.pages || [];
		this.page = Math.max(0, Math.min(page || 1, pages.length) - 1);
		// The pages before the one opened were passed.
		for (const p of pages.slice(0, this.page)) {
			this.passed.add(p.n);
		}
		const words = lessonWords(info);
		this.title.replaceChildren(...tParts("lesson.numbered", {n: info.number, title: h("span", {lang: langOf(words.lang), text: words.title})}));
		this.render();
		this.refresh();
	}

	// state is the progress to keep: the page, the answers, the pages
	// passed, and whether the goal was met (and how).
	/** @returns {LessonProgress | null} */
	state() {
		if (!this.info) {
			return null;
		}
		/** @type {Record<string, Answer>} */
		const answers = {};
		for (const [key, a] of this.answers) {
			answers[key] = {choice: a.choice, step: a.step, decided: a.decided, verdict: a.verdict};
		}
		return {page: this.page + 1, answers, passed: [...this.passed].sort((a, b) => a - b),
			completed: this.completed, bySolution: this.bySolution};
	}

	save() {
		if (this.info && this.hooks.saved) {
			// A lesson is on show, so there is its progress.
			this.hooks.saved(/** @type {LessonProgress} */ (this.state()));
		}
	}

	// pageNumber is the guide's page on show, from 1, or 0 outside a
	// lesson.
	pageNumber() {
		return this.info ? this.page + 1 : 0;
	}

	// stepwise reports whether the page on show walks every event: the
	// page refuses the commands and buttons that run many at once.
	stepwise() {
		const r = this.info && this.info.stepwise;
		const n = this.pageNumber();
		return Boolean(r && n >= r.from && n <= r.to);
	}

	// --- Asking the engine --------------------------------------------------

	// refresh asks the engine about everything on show: the goal, the
	// page's check and step blocks, the answers whose step has run, and,
	// on the last page, what the real code did. The page calls it after
	// every action; calls while one runs are folded into one more.
	refresh() {
		if (!this.info) {
			return Promise.resolve();
		}
		if (this.refreshing) {
			this.again = true;
			return this.refreshing;
		}
		this.refreshing = (async () => {
			try {
				do {
					this.again = false;
					await this.ask();
				} while (this.again && this.info);
			} catch (err) {
				// The page has shown the engine's error; the player
				// keeps what it had.
			} finally {
				this.refreshing = null;
			}
		})();
		return this.refreshing;
	}

	async ask() {
		// refresh asks only with a lesson on show, which has pages.
		const info = /** @type {LessonInfo} */ (this.info);
		const pages = /** @type {PageInfo[]} */ (lessonWords(info).pages);
		const page = pages[this.page];
		const blocks = page.blocks || [];
		let allHeld = true;
		for (let i = 0; i < blocks.length; i++) {
			const b = blocks[i];
			if (b.kind !== "check" && b.kind !== "step") {
				continue;
			}
			const res = await this.hooks.check(page.n, i);
			if (this.info !== info) {
				return;
			}
			const key = `${page.n}/${i}`;
			this.held.set(key, res);
			if (res.met) {
				this.reached.add(key);
			}
			// A block holds where it stands on the page: once it has
			// held, a later block's step may undo it without undoing
			// the page.
			allHeld = allHeld && this.reached.has(key);
		}
		if (allHeld && !this.passed.has(page.n)) {
			this.passed.add(page.n);
			if (blocks.some((b) => b.kind === "check" || b.kind === "step")) {
				this.hooks.announce(t("lesson.pageDone", {n: page.n}));
			}
		}
		await this.grade(page);
		this.goal = await this.hooks.check(0);
		if (this.info !== info) {
			return;
		}
		if (this.goal.met && !this.completed) {
			this.completed = true;
			this.hooks.announce(this.bySolution ? t("lesson.goalMetBySolution") : t("lesson.goalMetSolved"));
		}
		if (this.page === pages.length - 1) {
			this.functions = await this.hooks.functions();
		}
		this.save();
		// Redraw only what changed: the page calls this after every
		// step, and most steps change nothing the lesson shows.
		const sig = JSON.stringify([[...this.held], [...this.reached], this.goal, [...this.answers], this.functions, [...this.passed], this.completed]);
		if (sig !== this.drawn) {
			this.drawn = sig;
			this.update();
		}
	}

	// grade asks the engine about every answer on the page whose step has
	// run and that is not graded yet: the block after the predict, a do
	// block that ran or a step block that holds.
	/** @param {PageInfo} page */
	async grade(page) {
		const blocks = page.blocks || [];
		for (let i = 0; i < blocks.length; i++) {
			const key = `${page.n}/${i}`;
			const a = this.answers.get(key);
			if (blocks[i].kind !== "predict" || !a || a.verdict || this.grading.has(key)) {
				continue;
			}
			const act = blocks.findIndex((b, j) => j > i && (b.kind === "do" || b.kind === "step"));
			const actKey = `${page.n}/${act}`;
			const done = act >= 0 && (blocks[act].kind === "do" ? this.ran.has(actKey) : this.held.get(actKey)?.met);
			if (!done) {
				continue;
			}
			// The do block's action and a refresh may both come here;
			// one asks.
			this.grading.add(key);
			let g;
			try {
				g = await this.hooks.grade(page.n, i);
			} finally {
				this.grading.delete(key);
			}
			a.decided = g.decided;
			a.verdict = g.decided < 0 ? "undecided" : g.decided === a.choice ? "right" : "wrong";
			this.hooks.announce(a.verdict === "right" ? t("lesson.predictionRight") : t("lesson.predictionWrong"));
		}
	}

	// --- Drawing ------------------------------------------------------------

	render() {
		// Drawn only with a lesson on show.
		const info = /** @type {LessonInfo} */ (this.info);
		const words = lessonWords(info);
		const pages = words.pages || [];
		/** @type {Array<HTMLElement | null>} */
		const parts = [
			h("p", {class: "lesson-summary"}, h("span", {class: "badge", text: levelName(info.level)}), " ", h("span", {lang: langOf(words.lang), text: words.summary})),
			this.goalView(),
		];
		if (pages.length) {
			parts.push(this.pageNav(pages), this.pageView(pages[this.page]));
		}
		parts.push(this.codeView(), this.hintsView(), this.solutionView());
		this.body.replaceChildren(...parts.filter((p) => p !== null));
		roveTerms(this.body);
	}

	// update redraws what the engine's answers change, in place: the
	// checklists, the verdicts and the page's navigation.
	update() {
		if (!this.info) {
			return;
		}
		const active = /** @type {HTMLElement | null} */ (document.activeElement);
		const focused = active && this.body.contains(active)
			? active.dataset.focusKey : null;
		this.render();
		if (focused) {
			const again = /** @type {HTMLElement | null} */ (this.body.querySelector(`[data-focus-key="${focused}"]`));
			if (again) {
				again.focus({preventScroll: true});
			}
		}
	}

	goalView() {
		const info = /** @type {LessonInfo} */ (this.info);
		/** @type {ChecklistLine[]} */
		const lines = (this.goal && this.goal.lines) || (info.goal || "").split("\n").filter((l) => l.trim()).map((text) => ({text, met: null}));
		const metCount = lines.filter((l) => l.met).length;
		const summary = !this.goal ? t("lesson.checking")
			: this.goal.met ? (this.bySolution ? t("lesson.goalMetBySolutionShort") : t("lesson.goalMetWellDone"))
				: t("lesson.goalNotYet", {met: metCount, n: lines.length});
		return h("section", {class: "goal", "aria-labelledby": "goal-heading"},
			h("h3", {id: "goal-heading", text: t("lesson.goal")}),
			checklist(lines, "goal-checklist"),
			h("p", {id: "goal-result", class: this.goal && this.goal.met ? "ok" : "", role: "status", text: summary}));
	}

	/** @param {PageInfo[]} pages */
	pageNav(pages) {
		const page = pages[this.page];
		const blocks = page.blocks || [];
		const needs = blocks.some((b) => b.kind === "check" || b.kind === "step");
		const canNext = this.page < pages.length - 1 && (!needs || this.passed.has(page.n));
		const prev = h("button", {type: "button", class: "small", disabled: this.page === 0, text: t("lesson.previousPage"), dataset: {focusKey: "prev"}});
		const next = h("button", {type: "button", class: "small", disabled: !canNext, text: t("lesson.nextPage"), dataset: {focusKey: "next"}});
		prev.addEventListener("click", () => this.go(this.page - 1));
		next.addEventListener("click", () => this.go(this.page + 1));
		const note = this.page < pages.length - 1 && needs && !this.passed.has(page.n)
			? h("span", {class: "nav-note", text: t("lesson.nextPageOpens")}) : null;
		const stepwise = this.stepwise()
			? h("p", {class: "nav-note stepwise-note", text: t("lesson.stepwisePage")})
			: null;
		return h("nav", {class: "lesson-nav", "aria-label": t("lesson.pages")}, prev,
			h("span", {class: "page-count", text: t("lesson.pageCount", {n: this.page + 1, total: pages.length})}), next, note, stepwise);
	}

	/** @param {number} index */
	go(index) {
		this.page = index;
		this.render();
		this.save();
		if (this.hooks.moved) {
			this.hooks.moved();
		}
		const heading = /** @type {HTMLElement | null} */ (this.body.querySelector(".lesson-page h3, .lesson-page h4"));
		if (heading) {
			heading.setAttribute("tabindex", "-1");
			heading.focus();
		}
		this.refresh();
	}

	// pageView renders one page: its Markdown, with each fenced block
	// replaced by the widget of the matching block.
	/** @param {PageInfo} page */
	pageView(page) {
		const blocks = page.blocks || [];
		let next = 0;
		/** @param {string} kind */
		const take = (kind) => {
			// Blocks come in the order their fences appear.
			while (next < blocks.length && blocks[next].kind !== kind) {
				next++;
			}
			return next < blocks.length ? {block: blocks[next], index: next++} : null;
		};
		/** @param {"do" | "step" | "predict" | "check"} kind */
		const widget = (kind) => () => {
			const found = take(kind);
			// One of doBlock, stepBlock, predictBlock and checkBlock.
			const draw = /** @type {Record<string, (page: PageInfo, block: BlockInfo, index: number) => HTMLElement | null>} */ (/** @type {unknown} */ (this));
			return found ? draw[kind + "Block"](page, found.block, found.index) : null;
		};
		const content = markdown(page.text, {do: widget("do"), step: widget("step"), predict: widget("predict"), check: widget("check")});
		const lang = langOf(lessonWords(/** @type {LessonInfo} */ (this.info)).lang);
		return h("article", {class: "lesson-page", "aria-label": t("lesson.page", {n: page.n}), lang}, content);
	}

	/**
	 * @param {PageInfo} page
	 * @param {BlockInfo} block
	 * @param {number} index
	 */
	doBlock(page, block, index) {
		const key = `${page.n}/${index}`;
		const lines = block.text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
		const ranAt = this.ran.get(key);
		const button = h("button", {type: "button", class: "small", dataset: {focusKey: `do-${key}`},
			disabled: ranAt !== undefined,
			text: ranAt !== undefined ? t("lesson.ran") : t("lesson.runCommands", {n: lines.length})});
		button.addEventListener("click", async () => {
			if (this.ran.has(key)) {
				return;
			}
			button.disabled = true;
			try {
				// A question about this block is about the world it left:
				// grade it inside the same action, so that a second do
				// block or a step the learner asks for meanwhile waits
				// until the answer is decided.
				await this.hooks.run(lines, page.n, async () => {
					this.ran.set(key, this.hooks.step());
					await this.grade(page);
				});
			} finally {
				this.update();
				this.refresh();
			}
		});
		return h("div", {class: "block do-block"},
			h("p", {class: "block-label", text: t("lesson.do")}),
			h("pre", {lang: "en"}, h("code", {text: lines.join("\n")})), button,
			ranAt !== undefined ? h("p", {class: "compact muted", text: t("lesson.ranOnce")}) : null);
	}

	/**
	 * @param {PageInfo} page
	 * @param {BlockInfo} block
	 * @param {number} index
	 */
	stepBlock(page, block, index) {
		const key = `${page.n}/${index}`;
		const res = this.held.get(key);
		const lines = (res && res.lines) || exp(block.text);
		const reached = res && res.met || this.reached.has(key);
		return h("div", {class: "block step-block"},
			h("p", {class: "block-label", text: t("lesson.stepUntil")}),
			checklist(lines),
			h("p", {class: reached ? "ok" : "compact", role: "status",
				text: reached ? t("lesson.reached") : t("lesson.pressStep")}));
	}

	/**
	 * @param {PageInfo} page
	 * @param {BlockInfo} block
	 * @param {number} index
	 */
	checkBlock(page, block, index) {
		const key = `${page.n}/${index}`;
		const res = this.held.get(key);
		const lines = (res && res.lines) || exp(block.text);
		const earlier = !(res && res.met) && this.reached.has(key);
		return h("div", {class: "block check-block"},
			h("p", {class: "block-label", text: t("lesson.check")}),
			checklist(lines),
			h("p", {class: res && res.met || earlier ? "ok" : "compact", role: "status",
				text: res && res.met ? t("lesson.holds") : earlier ? t("lesson.held") : t("lesson.notYet")}));
	}

	/**
	 * @param {PageInfo} page
	 * @param {BlockInfo} block
	 * @param {number} index
	 */
	predictBlock(page, block, index) {
		const q = block.predict;
		if (!q) {
			return null;
		}
		const key = `${page.n}/${index}`;
		const name = `predict-${page.n}-${index}`;
		const a = this.answers.get(key);
		const fieldset = h("fieldset", {class: "block predict-block"},
			h("legend", null, h("span", {class: "block-label", text: t("lesson.predict")}), " ", inline(q.question)));
		q.choices.forEach((choice, i) => {
			const id = `${name}-${i}`;
			// A choice picked but not answered yet survives a redraw.
			const checked = a ? a.choice === i : this.picked.get(key) === i;
			const input = h("input", {type: "radio", name, id, value: String(i), checked, disabled: Boolean(a)});
			input.addEventListener("change", () => this.picked.set(key, i));
			fieldset.appendChild(h("div", {class: "choice"}, input, h("label", {for: id}, inline(choice.text))));
		});
		const result = h("div", {class: "predict-result", role: "status"});
		if (!a) {
			const answer = h("button", {type: "button", class: "small", text: t("lesson.answer"), dataset: {focusKey: `answer-${key}`}});
			answer.addEventListener("click", () => {
				const picked = /** @type {HTMLInputElement | null} */ (fieldset.querySelector(`input[name="${name}"]:checked`));
				if (!picked) {
					result.replaceChildren(h("p", {text: t("lesson.pickFirst")}));
					return;
				}
				this.answers.set(key, {choice: Number(picked.value), step: this.hooks.step(), decided: null, verdict: null});
				this.save();
				this.update();
			});
			fieldset.append(answer, result);
			return fieldset;
		}
		result.replaceChildren(...this.verdict(q, a));
		fieldset.append(result);
		return fieldset;
	}

	// verdict says what the engine made of an answer: waiting for the
	// step, right, or not, with the explanation and a way back.
	/**
	 * @param {PredictInfo} q
	 * @param {Answer} a
	 * @returns {Array<Node | string>}
	 */
	verdict(q, a) {
		if (!a.verdict) {
			return [h("p", {class: "compact", text: t("lesson.answered")})];
		}
		/** @type {Node[]} */
		const parts = [];
		if (a.verdict === "right") {
			parts.push(h("p", {class: "ok"}, t("lesson.right")));
		} else if (a.verdict === "wrong") {
			parts.push(h("p", {class: "bad"}, tParts("lesson.wrong", {choice: inline(q.choices[/** @type {number} */ (a.decided)].text)})));
		} else {
			parts.push(h("p", {class: "bad", text: t("lesson.undecided")}));
		}
		if (q.explanation) {
			parts.push(markdown(q.explanation));
		}
		if (a.verdict !== "right" && a.step) {
			const at = this.hooks.stepName ? this.hooks.stepName(a.step) : t("step.name", {n: a.step});
			const back = h("button", {type: "button", class: "small", text: t("lesson.rewind", {step: at})});
			back.addEventListener("click", async () => {
				await this.hooks.seek(a.step);
				// Watching again: the answer stands, the verdict waits for
				// the step to run again.
				a.verdict = null;
				a.decided = null;
				this.save();
				this.update();
				this.refresh();
			});
			parts.push(back);
		}
		return parts;
	}

	// codeView is the lesson's end, on its last page: the functions the
	// learner's steps ran, in the order each first ran, each linked to
	// its upstream source.
	codeView() {
		const pages = lessonWords(/** @type {LessonInfo} */ (this.info)).pages || [];
		if (this.page !== pages.length - 1 || !this.functions) {
			return null;
		}
		const fns = this.functions.functions || [];
		if (!fns.length) {
			return null;
		}
		return h("section", {class: "code-run", "aria-labelledby": "code-run-heading"},
			h("h3", {id: "code-run-heading", text: t("lesson.codeRun")}),
			h("p", {class: "compact", text: t("lesson.codeRunNote", {version: "v1.31.14"})}),
			h("ol", {class: "code-run-list"}, fns.map((f) => h("li", null,
				f.source
					? h("a", {href: f.source.url, target: "_blank", rel: "noopener noreferrer"}, h("code", {lang: "en", text: f.source.func}))
					: h("code", {lang: "en", text: f.name}),
				` ×${f.count}`,
				f.source ? h("span", {class: "muted", lang: "en", text: ` — ${f.source.file}`}) : h("span", {class: "muted", text: t("lesson.ownCode")})))));
	}

	hintsView() {
		const hints = lessonWords(/** @type {LessonInfo} */ (this.info)).hints || [];
		if (!hints.length) {
			return null;
		}
		const lang = langOf(lessonWords(/** @type {LessonInfo} */ (this.info)).lang);
		const list = h("ol", {class: "hints", lang}, hints.slice(0, this.hintsShown).map((text) => h("li", null, markdown(text))));
		const button = h("button", {type: "button", class: "small", hidden: this.hintsShown >= hints.length, dataset: {focusKey: "hint"},
			text: this.hintsShown === 0 ? t("lesson.showHint") : t("lesson.showAnotherHint")});
		button.addEventListener("click", () => {
			this.hintsShown++;
			this.update();
			const last = /** @type {HTMLElement | null} */ (this.body.querySelector(".hints li:last-child"));
			if (last) {
				last.setAttribute("tabindex", "-1");
				last.focus();
			}
		});
		return h("section", {class: "hints-section", "aria-label": t("lesson.hints")}, h("h3", {text: t("lesson.hints")}), list, button);
	}

	// solutionView offers the reference solution. While the goal is not
	// met it asks first, since a lesson solved by its solution is not
	// marked solved. Shown, the solution is a list of its commands,
	// played one at a time (Run the next command), so that the learner
	// can watch what each does before the next, or all at once (Run the
	// rest). What was asked and how far it was played survive a redraw
	// (this.solution).
	solutionView() {
		const info = /** @type {LessonInfo} */ (this.info);
		const restart = h("button", {type: "button", class: "small", text: t("lesson.restart"), dataset: {focusKey: "restart"}});
		restart.addEventListener("click", async () => {
			await this.hooks.restart();
		});
		if (!info.solution) {
			return h("section", {class: "solution"}, restart);
		}
		const lines = info.solution.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
		const sol = this.solution;
		/** @type {Array<Node | string>} */
		const parts = [];
		if (!sol.shown) {
			const show = h("button", {type: "button", class: "small", text: t("lesson.showSolution"), dataset: {focusKey: "solution"}});
			show.addEventListener("click", () => {
				if (!this.completed && !sol.asking) {
					sol.asking = true;
					this.update();
					// The redraw above drew the question's Yes.
					/** @type {HTMLElement} */ (this.body.querySelector('[data-focus-key="solution-yes"]')).focus();
					return;
				}
				this.showSolution();
			});
			parts.push(show, " ");
		}
		parts.push(restart);
		if (sol.asking && !sol.shown) {
			const yes = h("button", {type: "button", class: "small", text: t("lesson.yesShow"), dataset: {focusKey: "solution-yes"}});
			yes.addEventListener("click", () => this.showSolution());
			parts.push(h("div", {class: "solution-box"},
				h("p", {text: t("lesson.solutionAsk")}), yes));
		}
		if (sol.shown) {
			const left = lines.length - sol.next;
			const next = h("button", {type: "button", class: "small", text: t("lesson.runNext"), disabled: left === 0, dataset: {focusKey: "solution-next"}});
			next.addEventListener("click", () => this.playSolution(lines, 1));
			const rest = h("button", {type: "button", class: "small", text: t("lesson.runRest"), disabled: left < 2, dataset: {focusKey: "solution-rest"}});
			rest.addEventListener("click", () => this.playSolution(lines, left));
			parts.push(h("div", {class: "solution-box"},
				h("p", {text: left === 0 ? t("lesson.solutionRan") : t("lesson.solutionIs", {n: lines.length})}),
				h("ol", {class: "solution-lines"}, lines.map((l, i) => h("li", {class: i < sol.next ? "done" : i === sol.next ? "next" : ""},
					h("span", {class: "mark", "aria-hidden": "true", text: i < sol.next ? "✓" : i === sol.next ? "▶" : "·"}),
					h("code", {lang: "en", text: l}),
					i < sol.next ? h("span", {class: "visually-hidden", text: t("lesson.lineRan")}) : i === sol.next ? h("span", {class: "visually-hidden", text: t("lesson.lineNext")}) : null))),
				next, " ", rest));
		}
		return h("section", {class: "solution", "aria-label": t("lesson.solution")}, parts);
	}

	// showSolution shows the solution's commands, unplayed; a lesson
	// whose goal is not met yet will not be marked solved.
	showSolution() {
		const sol = this.solution;
		sol.asking = false;
		sol.shown = true;
		if (!this.completed) {
			this.bySolution = true;
		}
		this.save();
		this.update();
		/** @type {HTMLElement | null} */ (this.body.querySelector('[data-focus-key="solution-next"]'))?.focus();
	}

	// playSolution runs the next n commands of the solution, one after
	// another, and checks the goal after them.
	/**
	 * @param {string[]} lines
	 * @param {number} n
	 */
	async playSolution(lines, n) {
		const sol = this.solution;
		if (sol.running) {
			return;
		}
		sol.running = true;
		try {
			for (let i = 0; i < n && sol.next < lines.length; i++) {
				const line = lines[sol.next];
				sol.next++;
				await this.hooks.run([line], this.pageNumber());
			}
		} finally {
			sol.running = false;
		}
		this.update();
		this.refresh();
	}
}

// exp lists a block's expects before the engine has answered.
/**
 * @param {string} text
 * @returns {ChecklistLine[]}
 */
function exp(text) {
	return text.split("\n").map((t) => t.trim()).filter((t) => t && !t.startsWith("#")).map((t) => ({text: t, met: null}));
}

// checklist draws expects with their state: ✓ holds, ✕ does not (with
// what the engine found), … not asked yet. The marks are words too.
/**
 * @param {ChecklistLine[]} lines
 * @param {string} [id]
 */
function checklist(lines, id) {
	return h("ul", {class: "checklist", id}, lines.map((l) => h("li", {class: l.met === true ? "met" : l.met === false ? "unmet" : ""},
		h("span", {class: "mark", "aria-hidden": "true", text: l.met === true ? "✓" : l.met === false ? "✕" : "…"}),
		h("span", {class: "visually-hidden", text: l.met === true ? t("lesson.lineHolds") : l.met === false ? t("lesson.lineFails") : t("lesson.lineUnchecked")}),
		h("code", {lang: "en", text: l.text}),
		l.met === false && l.failure ? why(reason(l)) : null)));
}

// reason is what an expect found, without the expect repeated.
/** @param {ChecklistLine} l */
function reason(l) {
	const msg = l.failure?.message || "";
	return msg.startsWith(l.text) ? msg.slice(l.text.length).replace(/^:\s*/, "— ") : `— ${msg}`;
}

// longReason is how long a reason may be before its lists of objects fold
// away: a goal about ten pods would otherwise list all ten under each line.
const longReason = 140;

// why draws a reason. A long one shows its counts, with the objects each
// count is made of (the parenthesised lists the engine writes) folded into
// a disclosure the learner can open, by keyboard too.
// The reason is the engine's, and English; the summary that opens its
// objects is the page's.
/** @param {string} text */
function why(text) {
	const short = text.replace(/ \([^()]*\)/g, "");
	if (text.length <= longReason || short === text) {
		return h("span", {class: "why", lang: "en", text: ` ${text}`});
	}
	return h("span", {class: "why", lang: "en"}, ` ${short} `,
		h("details", {class: "why-objects"}, h("summary", {lang: pageLang(), text: t("lesson.which")}), h("span", {text})));
}

// lessonStatus says where a learner stands in a lesson, from its kept
// progress: solved, met by the solution, under way, or not started.
/**
 * @param {LessonInfo} info
 * @param {LessonProgress | null} saved
 * @returns {{key: string, text: string}}
 */
function lessonStatus(info, saved) {
	if (!saved) {
		return {key: "new", text: t("lesson.statusNew")};
	}
	if (saved.completed && !saved.bySolution) {
		return {key: "solved", text: t("lesson.statusSolved")};
	}
	if (saved.completed) {
		return {key: "shown", text: t("lesson.statusShown")};
	}
	return {key: "started", text: t("lesson.statusStarted", {n: saved.page || 1})};
}

// drawLessonList fills list (an ol) with the lessons, in order, each with
// its level, summary and status, and a button that opens it; the first
// lesson not solved is marked as the next one. progress(id) is the kept
// progress of a lesson, open(id) opens it.
/**
 * @param {HTMLElement} list
 * @param {LessonInfo[]} lessons
 * @param {(id: string) => LessonProgress | null} progress
 * @param {(id: string) => void} open
 */
function drawLessonList(list, lessons, progress, open) {
	const next = lessons.find((l) => lessonStatus(l, progress(l.id)).key !== "solved");
	list.replaceChildren(...lessons.map((l) => {
		const status = lessonStatus(l, progress(l.id));
		const isNext = next && next.id === l.id;
		const button = h("button", {type: "button", class: isNext ? "primary" : "small", dataset: {lesson: l.id},
			text: status.key === "started" ? t("lesson.continue") : status.key === "new" ? t("lesson.start") : t("lesson.openAgain")});
		button.addEventListener("click", () => open(l.id));
		const words = lessonWords(l);
		return h("li", {class: `lesson-item status-${status.key}${isNext ? " next" : ""}`, dataset: {lesson: l.id}},
			h("h3", {class: "lesson-item-title"}, h("span", {lang: langOf(words.lang)}, t("lesson.listTitle", {n: l.number, title: words.title})), isNext ? h("span", {class: "badge next-badge", text: t("lesson.nextForYou")}) : null),
			h("p", {class: "lesson-item-meta"}, h("span", {class: "badge", text: levelName(l.level)}), " ", h("span", {class: "lesson-status", text: status.text})),
			h("p", {class: "lesson-item-summary", lang: langOf(words.lang), text: words.summary}),
			button);
	}));
}

// lessonWords is a lesson's words in the page's language: the title,
// summary, pages and hints of its translation into the page's locale, and
// that locale (lang), or, for a lesson with no such translation (or the
// English page), its own, in English. A translation's pages have the
// English pages' numbers and blocks, in order, with the same commands and
// expects (core/lesson holds it to that), so the player shows them and
// checks and grades by the same numbers.
/**
 * @param {LessonInfo} info
 * @returns {{title: string, summary: string, pages: PageInfo[] | undefined, hints: string[] | undefined, lang: string}}
 */
function lessonWords(info) {
	const tr = i18n.locale === "en" ? undefined : (info.translations || []).find((x) => x.lang === i18n.locale);
	if (!tr) {
		return {title: info.title, summary: info.summary, pages: info.pages, hints: info.hints, lang: "en"};
	}
	return {
		title: tr.title || info.title,
		summary: tr.summary || info.summary,
		// The list of lessons carries titles and summaries only.
		pages: tr.pages && tr.pages.length ? tr.pages : info.pages,
		hints: tr.hints && tr.hints.length ? tr.hints : info.hints,
		lang: tr.lang,
	};
}

// langOf is the lang attribute of a lesson's words in lang: none when
// they are in the page's language, which the page's own lang says.
/** @param {string} lang */
function langOf(lang) {
	return lang === i18n.locale ? null : lang;
}

// levelName is a lesson's level in the page's words.
/** @param {string} level */
function levelName(level) {
	return has(`lesson.level.${level}`) ? t(`lesson.level.${level}`) : level;
}

export {Lesson, drawLessonList, lessonStatus, lessonWords, why};
