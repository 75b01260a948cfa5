// ui-lesson.js draws a lesson's guide in #lesson: one page at a time, its
// Markdown rendered as DOM (never as HTML), with its blocks in place: do
// blocks run their commands in the console, predict blocks ask a question
// and explain the answer, check blocks ask the engine whether the page's
// expects hold (the next page opens once they do). Below the pages: the
// goal with #check-goal, hints one at a time, and the reference solution.
"use strict";

(() => {
	const UI = globalThis.RlabUI;
	const {h, markdown} = UI;

	// Lesson owns the guide's state: the page on show, the predictions made
	// and the pages whose checks held.
	class Lesson {
		// hooks: run(lines) runs console lines in order and resolves when
		// done; check(page) resolves a CheckResult; announce(text) tells the
		// learner something (the notice area); moved() hears that the
		// learner turned a page.
		constructor(panel, hooks) {
			this.panel = panel;
			this.title = panel.querySelector("#lesson-title");
			this.body = panel.querySelector("#lesson-body");
			this.hooks = hooks;
			this.info = null;
		}

		// show loads a lesson's content (LessonInfo) into the panel, or hides
		// the panel for the sandbox (info null). page, from 1, opens that
		// page (a reload or a share link returning to where the learner
		// was): the learner got past the pages before it, so their checks
		// count as passed.
		show(info, {page = 1} = {}) {
			this.info = info;
			this.page = 0;
			this.predictions = new Map(); // "page/block" → chosen index
			this.passed = new Set(); // page numbers whose checks held
			this.hintsShown = 0;
			this.panel.hidden = !info;
			if (!info) {
				this.body.replaceChildren();
				return;
			}
			const pages = info.pages || [];
			this.page = Math.max(0, Math.min(page, pages.length) - 1);
			for (const p of pages.slice(0, this.page)) {
				this.passed.add(p.n);
			}
			this.title.textContent = `Lesson ${info.number}: ${info.title}`;
			this.render();
		}

		render() {
			const info = this.info;
			const pages = info.pages || [];
			const parts = [h("p", {class: "lesson-summary"}, h("span", {class: "badge", text: info.level}), " ", info.summary)];
			if (pages.length) {
				parts.push(this.pageNav(pages), this.pageView(pages[this.page]));
			}
			parts.push(this.goalView(), this.hintsView());
			this.body.replaceChildren(...parts);
		}

		pageNav(pages) {
			const page = pages[this.page];
			const needsCheck = (page.blocks || []).some((b) => b.kind === "check");
			const canNext = this.page < pages.length - 1 && (!needsCheck || this.passed.has(page.n));
			const prev = h("button", {type: "button", class: "small", disabled: this.page === 0, text: "◀ Previous page"});
			const next = h("button", {type: "button", class: "small", disabled: !canNext, text: "Next page ▶"});
			prev.addEventListener("click", () => this.go(this.page - 1));
			next.addEventListener("click", () => this.go(this.page + 1));
			const note = this.page < pages.length - 1 && needsCheck && !this.passed.has(page.n)
				? h("span", {class: "nav-note", text: "Check this page to open the next one."}) : null;
			return h("nav", {class: "lesson-nav", "aria-label": "Lesson pages"}, prev,
				h("span", {class: "page-count", text: `page ${this.page + 1} of ${pages.length}`}), next, note);
		}

		go(index) {
			this.page = index;
			this.render();
			if (this.hooks.moved) {
				this.hooks.moved();
			}
			const heading = this.body.querySelector(".lesson-page h3, .lesson-page h4");
			if (heading) {
				heading.setAttribute("tabindex", "-1");
				heading.focus();
			}
		}

		// pageView renders one page: its Markdown, with each fenced block
		// replaced by the widget of the matching block.
		pageView(page) {
			const blocks = page.blocks || [];
			let next = 0;
			const take = (kind) => {
				// Blocks come in the order their fences appear.
				while (next < blocks.length && blocks[next].kind !== kind) {
					next++;
				}
				return next < blocks.length ? {block: blocks[next], index: next++} : null;
			};
			const widget = (kind) => () => {
				const found = take(kind);
				return found ? this[kind + "Block"](page, found.block, found.index) : null;
			};
			const content = markdown(page.text, {do: widget("do"), predict: widget("predict"), check: widget("check")});
			return h("article", {class: "lesson-page", "aria-label": `Page ${page.n}`}, content);
		}

		doBlock(page, block) {
			const lines = block.text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
			const button = h("button", {type: "button", class: "small", text: lines.length > 1 ? "Run these commands" : "Run this command"});
			button.addEventListener("click", async () => {
				button.disabled = true;
				try {
					await this.hooks.run(lines);
				} finally {
					button.disabled = false;
				}
			});
			return h("div", {class: "block do-block"},
				h("p", {class: "block-label", text: "Do"}),
				h("pre", null, h("code", {text: lines.join("\n")})), button);
		}

		predictBlock(page, block, index) {
			const q = block.predict;
			if (!q) {
				return null;
			}
			const key = `${page.n}/${index}`;
			const name = `predict-${page.n}-${index}`;
			const chosen = this.predictions.get(key);
			const fieldset = h("fieldset", {class: "block predict-block"},
				h("legend", null, h("span", {class: "block-label", text: "Predict "}), q.question));
			q.choices.forEach((choice, i) => {
				const id = `${name}-${i}`;
				const input = h("input", {type: "radio", name, id, value: String(i), checked: chosen === i, disabled: chosen !== undefined});
				fieldset.appendChild(h("div", {class: "choice"}, input, h("label", {for: id}, UI.inline(choice.text))));
			});
			const result = h("div", {class: "predict-result", "aria-live": "polite"});
			const answer = h("button", {type: "button", class: "small", text: "Answer", disabled: chosen !== undefined});
			answer.addEventListener("click", () => {
				const picked = fieldset.querySelector(`input[name="${name}"]:checked`);
				if (!picked) {
					result.replaceChildren(h("p", {text: "Pick an answer first."}));
					return;
				}
				this.predictions.set(key, Number(picked.value));
				for (const input of fieldset.querySelectorAll("input")) {
					input.disabled = true;
				}
				answer.disabled = true;
				this.explain(result, q, Number(picked.value));
			});
			fieldset.append(answer, result);
			if (chosen !== undefined) {
				this.explain(result, q, chosen);
			}
			return fieldset;
		}

		explain(result, q, picked) {
			const right = picked === q.answer;
			result.replaceChildren(
				h("p", {class: right ? "ok" : "bad"},
					right ? "✓ Right. " : "✕ Not quite: the answer is ",
					right ? null : h("strong", null, UI.inline(q.choices[q.answer].text)),
					right ? null : ". "),
				q.explanation ? markdown(q.explanation) : null,
				h("p", {class: "compact", text: "Now run the step and see it happen."}));
		}

		checkBlock(page, block) {
			const result = h("div", {class: "check-result", "aria-live": "polite"});
			const button = h("button", {type: "button", class: "small", text: "Check"});
			if (this.passed.has(page.n)) {
				result.replaceChildren(h("p", {class: "ok", text: "✓ This holds."}));
			}
			button.addEventListener("click", async () => {
				button.disabled = true;
				try {
					const res = await this.hooks.check(page.n);
					if (res.met) {
						this.passed.add(page.n);
						this.render();
						this.hooks.announce(`Page ${page.n}: the check holds.`);
					} else {
						result.replaceChildren(h("p", {class: "bad", text: `✕ Not yet: ${res.failure ? res.failure.message : "the check does not hold"}`}));
					}
				} catch (err) {
					// The caller has shown the error.
				} finally {
					button.disabled = false;
				}
			});
			return h("div", {class: "block check-block"},
				h("p", {class: "block-label", text: "Check"}),
				h("pre", null, h("code", {text: block.text.trim()})), button, result);
		}

		goalView() {
			const info = this.info;
			const result = h("div", {id: "goal-result", "aria-live": "polite"});
			const button = h("button", {type: "button", id: "check-goal", text: "Check the goal"});
			button.addEventListener("click", async () => {
				button.disabled = true;
				try {
					const res = await this.hooks.check(0);
					result.replaceChildren(res.met
						? h("p", {class: "ok", text: "✓ Goal met: well done."})
						: h("p", {class: "bad", text: `✕ Not yet: ${res.failure ? res.failure.message : "the goal does not hold"}`}));
				} catch (err) {
					// The caller has shown the error.
				} finally {
					button.disabled = false;
				}
			});
			const solution = info.solution
				? h("details", {class: "solution"}, h("summary", {text: "Show the reference solution"}), h("pre", null, h("code", {text: info.solution.trim()})))
				: null;
			return h("section", {class: "goal", "aria-label": "Goal"},
				h("h3", {text: "Goal"}),
				info.goal ? h("pre", null, h("code", {text: info.goal.trim()})) : null,
				button, result, solution);
		}

		hintsView() {
			const hints = this.info.hints || [];
			if (!hints.length) {
				return null;
			}
			const list = h("ol", {class: "hints"});
			const button = h("button", {type: "button", class: "small"});
			const update = () => {
				list.replaceChildren(...hints.slice(0, this.hintsShown).map((text) => h("li", null, markdown(text))));
				button.textContent = this.hintsShown === 0 ? "Show a hint" : "Show another hint";
				button.hidden = this.hintsShown >= hints.length;
			};
			button.addEventListener("click", () => {
				this.hintsShown++;
				update();
				const last = list.lastElementChild;
				if (last) {
					last.setAttribute("tabindex", "-1");
					last.focus();
				}
			});
			update();
			return h("section", {class: "hints-section", "aria-label": "Hints"}, h("h3", {text: "Hints"}), list, button);
		}
	}

	Object.assign(UI, {Lesson});
})();
