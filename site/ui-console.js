// ui-console.js is the console: a text field that runs one command of the
// scenario language at a time, with history (↑/↓), Tab completion from the
// engine's complete op, and did-you-mean suggestions for a line that failed
// to parse, each a button that puts the corrected line back in the field.
//
// Completion follows the ARIA combobox pattern: the field is the combobox,
// and several candidates open a listbox under it. While the list is open,
// ↑/↓ move through it, Enter or Tab picks, Escape closes it, and a click
// picks; the focus never leaves the field, which points at the active option
// with aria-activedescendant. One candidate is put in the line at once, and
// "no completions" is said in a status line in the list's place.
//
// The console only shows things; running a line is the app's business (the
// execute hook), because a line can step the world, fork the timeline and
// change everything else the page draws.

import {byteOffset, charOffset, h} from "./ui-util.js";
import {listParts, t, tParts} from "./i18n.js";

// maxEntries is how many commands the output keeps; older ones scroll away.
const maxEntries = 200;
const maxHistory = 200;
// maxOptions is how many candidates the list shows: a world of ten
// thousand pods completes kill pod/ to ten thousand names, and a list
// that long helps nobody; the status line says to type more.
const maxOptions = 100;
// statusMillis is how long "no completions" stays up.
const statusMillis = 4000;

/**
 * RunResult is the engine's answer to a line, or the page's, which says
 * in note, in its own words, what came of a line it ran itself.
 * @typedef {import("./bridge-types.js").RunResult & {note?: string}} RunResult
 */
/** @typedef {import("./bridge-types.js").CommandError} CommandError */

/**
 * ConsoleHooks tie the console to the page (see the constructor).
 * @typedef {Object} ConsoleHooks
 * @property {(line: string) => Promise<RunResult>} execute
 * @property {(line: string, byteCursor: number) => Promise<import("./bridge-types.js").CompleteResult>} complete
 * @property {(n: number) => string} [stepName]
 * @property {(line: string) => void} [submit]
 */

class Console {
	// hooks: execute(line) resolves the RunResult (or rejects with the
	// engine's error); complete(line, byteCursor) resolves a
	// CompleteResult; stepName(n), if given, names the engine's step n
	// as the page counts it ("step 3", "setup step 40").
	/**
	 * @param {{output: HTMLElement, input: HTMLInputElement, form: HTMLFormElement, button: HTMLButtonElement}} els
	 * @param {ConsoleHooks} hooks
	 */
	constructor({output, input, form, button}, hooks) {
		this.output = output;
		this.input = input;
		this.form = form;
		this.button = button;
		this.hooks = hooks;
		/** @type {string[]} */
		this.history = [];
		this.historyIndex = 0;
		this.draft = "";

		form.addEventListener("submit", (event) => {
			event.preventDefault();
			const line = input.value;
			if (!line.trim()) {
				return;
			}
			input.value = "";
			// The app's submit hook queues the line behind any action
			// in progress; without one, run it at once.
			if (this.hooks.submit) {
				this.hooks.submit(line);
			} else {
				this.exec(line);
			}
		});
		input.addEventListener("keydown", (event) => this.keydown(event));

		// The completion popup: the listbox and the status line that
		// stands in for it, under the field. The field is the combobox
		// that controls the list.
		// (The list is named when it opens: the page makes the console
		// before a page in another language has its words.)
		this.list = h("div", {id: "console-completions", class: "completions", role: "listbox", hidden: true});
		this.status = h("p", {id: "console-completion-status", class: "completions-status", role: "status"});
		this.popup = h("div", {class: "completions-popup"}, this.list, this.status);
		form.appendChild(this.popup);
		input.setAttribute("role", "combobox");
		input.setAttribute("aria-autocomplete", "list");
		input.setAttribute("aria-controls", this.list.id);
		input.setAttribute("aria-expanded", "false");
		// open is the completion the list shows: the line it was made
		// for, the span its candidates replace (character offsets) and
		// the candidates; active indexes the option chosen with ↑/↓, or
		// is -1.
		/** @type {{line: string, start: number, end: number, candidates: string[]} | null} */
		this.open = null;
		this.active = -1;
		this.statusTimer = 0;
		this.scrollQueued = false;
		// A pick by mouse must not take the focus from the field.
		this.list.addEventListener("mousedown", (event) => event.preventDefault());
		this.list.addEventListener("click", (event) => {
			// A click lands on an element of the list.
			const option = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("[role=option]"));
			if (option) {
				this.pick(Number(option.dataset.index));
			}
		});
		// A browser sends no keypress for a keydown the page prevented,
		// but synthetic input (automation, some assistive tools) may:
		// the Enter that picked an option must not also run the line.
		/** @type {string | null} */
		this.listHad = null;
		input.addEventListener("keypress", (event) => {
			if (event.key === this.listHad) {
				event.preventDefault();
			}
		});
		input.addEventListener("keyup", () => {
			this.listHad = null;
		});
		input.addEventListener("input", () => this.closeList());
		input.addEventListener("blur", () => this.closeList());
		form.addEventListener("submit", () => this.closeList());
	}

	/**
	 * @param {number} n
	 * @returns {string}
	 */
	stepName(n) {
		return this.hooks.stepName ? this.hooks.stepName(n) : t("step.name", {n});
	}

	/** @param {boolean} enabled */
	setEnabled(enabled) {
		this.input.disabled = !enabled;
		this.button.disabled = !enabled;
		if (!enabled) {
			this.closeList();
		}
	}

	// exec echoes a line, runs it, and shows what it printed or why it
	// failed. Resolves the RunResult, or null when the engine refused.
	/**
	 * @param {string} line
	 * @param {{record?: boolean}} [options]
	 * @returns {Promise<RunResult | null>}
	 */
	async exec(line, {record = true} = {}) {
		if (record) {
			this.remember(line);
		}
		const entry = h("div", {class: "console-entry"}, h("p", {class: "console-echo"}, h("span", {class: "prompt", "aria-hidden": "true", text: "$ "}), h("code", {lang: "en", text: line})));
		this.add(entry);
		let result;
		try {
			result = await this.hooks.execute(line);
		} catch (err) {
			// execute rejects with the engine's Error.
			entry.appendChild(h("p", {class: "console-error", lang: "en", text: /** @type {Error} */ (err).message}));
			this.scroll();
			return null;
		}
		this.show(entry, line, result);
		this.scroll();
		return result;
	}

	// echo shows a line and a RunResult the page already has, as if the
	// line had just been run: the page's prerendered first command.
	/**
	 * @param {string} line
	 * @param {RunResult} result
	 */
	echo(line, result) {
		this.remember(line);
		const entry = h("div", {class: "console-entry"}, h("p", {class: "console-echo"}, h("span", {class: "prompt", "aria-hidden": "true", text: "$ "}), h("code", {lang: "en", text: line})));
		this.add(entry);
		this.show(entry, line, result);
		this.scroll();
	}

	// show adds a RunResult's output, failure and step count to an entry.
	/**
	 * @param {HTMLElement} entry
	 * @param {string} line
	 * @param {RunResult} result
	 */
	show(entry, line, result) {
		if (result.output) {
			entry.appendChild(h("pre", {class: "console-out", lang: "en", text: result.output.replace(/\n$/, "")}));
		}
		if (result.failure) {
			entry.appendChild(this.failureView(line, result.failure));
		}
		if (result.note) {
			entry.appendChild(h("p", {class: "console-note", text: result.note}));
		}
		if (result.ran) {
			entry.appendChild(h("p", {class: "console-note", text: t("console.ran", {steps: t("count.steps", {n: result.ran}), step: this.stepName(result.step)})}));
		}
		if (!result.output && !result.failure && !result.ran && !result.note) {
			entry.appendChild(h("p", {class: "console-note", text: t("console.ok")}));
		}
	}

	// failureView shows a failed line: the message, a caret under the
	// column it points at, and the suggestions, each a button that puts
	// it in the line, or else the hint. The engine's error text says
	// "did you mean" (or the hint) too, for readers without buttons; a
	// parse error is therefore shown as its position and message alone,
	// so that the page says each thing once.
	/**
	 * @param {string} line
	 * @param {CommandError} failure
	 * @returns {HTMLElement}
	 */
	failureView(line, failure) {
		const text = failure.kind === "parse" && failure.message ? `${failure.line}:${failure.col}: ${failure.message}` : failure.error || failure.message;
		// The engine's message, the line and its hint are English; "did
		// you mean" and the list of suggestions are the page's words.
		const box = h("div", {class: "console-error"}, h("p", {class: "console-error-text", lang: "en"}, h("span", {"aria-hidden": "true", text: "✕ "}), text));
		const firstLine = line.split("\n")[Math.max(0, (failure.line || 1) - 1)] || "";
		if (failure.col > 0 && failure.kind === "parse") {
			const col = charOffset(firstLine, failure.col - 1);
			box.appendChild(h("pre", {class: "caret", "aria-hidden": "true", lang: "en", text: `${firstLine}\n${" ".repeat(col)}^`}));
		}
		const suggestions = failure.suggestions || [];
		if (suggestions.length) {
			const buttons = suggestions.map((word) => {
				// The button says a word of the console's language, and its
				// title names it: both are English.
				const button = h("button", {type: "button", class: "suggestion", lang: "en", dataset: {suggestion: word}, title: t("console.putSuggestion", {word}), text: word});
				button.addEventListener("click", () => {
					this.input.value = replaceWord(firstLine, failure.col, word);
					this.input.focus();
					this.input.setSelectionRange(this.input.value.length, this.input.value.length);
				});
				return button;
			});
			box.appendChild(h("p", {class: "suggestions"}, suggestionRow(buttons)));
		} else if (failure.hint) {
			box.appendChild(h("p", {class: "hint-text", lang: "en", text: failure.hint}));
		}
		return box;
	}

	// print adds a plain note to the output (notes from the page).
	/**
	 * @param {string} text
	 * @param {string} [className]
	 */
	print(text, className) {
		this.add(h("div", {class: "console-entry"}, h("p", {class: className || "console-note", text})));
		this.scroll();
	}

	/** @param {HTMLElement} entry */
	add(entry) {
		this.output.appendChild(entry);
		while (this.output.childElementCount > maxEntries) {
			/** @type {Element} */ (this.output.firstElementChild).remove();
		}
	}

	// scroll shows the newest output, in the next frame: reading the
	// output's height now would make the browser lay out the whole page
	// in the middle of building it.
	scroll() {
		if (this.scrollQueued) {
			return;
		}
		this.scrollQueued = true;
		requestAnimationFrame(() => {
			this.scrollQueued = false;
			this.output.scrollTop = this.output.scrollHeight;
		});
	}

	/** @param {string} line */
	remember(line) {
		if (this.history[this.history.length - 1] !== line) {
			this.history.push(line);
			if (this.history.length > maxHistory) {
				this.history.shift();
			}
		}
		this.historyIndex = this.history.length;
		this.draft = "";
	}

	/** @param {KeyboardEvent} event */
	keydown(event) {
		const input = this.input;
		if (this.open && this.listKey(event)) {
			// The list had the key: neither history, nor the form, nor
			// the page's shortcuts (Escape) may act on it too.
			event.preventDefault();
			event.stopPropagation();
			this.listHad = event.key;
			return;
		}
		if (event.key === "ArrowUp" || event.key === "ArrowDown") {
			if (!this.history.length) {
				return;
			}
			event.preventDefault();
			if (this.historyIndex === this.history.length) {
				this.draft = input.value;
			}
			const delta = event.key === "ArrowUp" ? -1 : 1;
			this.historyIndex = Math.max(0, Math.min(this.history.length, this.historyIndex + delta));
			input.value = this.historyIndex === this.history.length ? this.draft : this.history[this.historyIndex];
			input.setSelectionRange(input.value.length, input.value.length);
		} else if (event.key === "Tab" && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
			// An empty line lets Tab move focus on, so the keyboard is
			// never trapped in the console.
			if (!input.value.trim()) {
				return;
			}
			event.preventDefault();
			this.complete();
		}
	}

	// listKey handles a key while the completion list is open, and
	// says whether it did: ↑/↓ move the active option, Enter picks it
	// (with none active, Enter runs the line as usual), Tab picks it
	// (with none active, it makes the first one active), Escape closes
	// the list. Any other key is the field's.
	/**
	 * @param {KeyboardEvent} event
	 * @returns {boolean}
	 */
	listKey(event) {
		const n = this.list.childElementCount;
		if (event.altKey || event.ctrlKey || event.metaKey) {
			return false;
		}
		switch (event.key) {
		case "ArrowDown":
			this.setActive(this.active < 0 ? 0 : (this.active + 1) % n);
			return true;
		case "ArrowUp":
			this.setActive(this.active < 0 ? n - 1 : (this.active - 1 + n) % n);
			return true;
		case "Enter":
			if (this.active < 0) {
				this.closeList();
				return false;
			}
			this.pick(this.active);
			return true;
		case "Tab":
			if (event.shiftKey) {
				this.closeList();
				return false;
			}
			if (this.active < 0) {
				this.setActive(0);
			} else {
				this.pick(this.active);
			}
			return true;
		case "Escape":
			this.closeList();
			return true;
		}
		return false;
	}

	// complete asks the engine for completions of the word under the
	// cursor: one candidate replaces the word; several fill in their
	// common prefix and open the list to pick from; none says so in the
	// status line.
	async complete() {
		const input = this.input;
		const line = input.value;
		const cursor = input.selectionStart ?? line.length;
		let res;
		try {
			res = await this.hooks.complete(line, byteOffset(line, cursor));
		} catch (err) {
			return; // the app has shown the error
		}
		if (input.value !== line) {
			return; // the learner typed on meanwhile
		}
		this.closeList();
		const candidates = res.candidates || [];
		const start = charOffset(line, res.start);
		const end = charOffset(line, res.end);
		const current = line.slice(start, end);
		if (candidates.length === 1) {
			this.insert(start, end, finished(candidates[0], line.slice(end, end + 1)));
		} else if (candidates.length > 1) {
			const prefix = commonPrefix(candidates);
			const at = prefix.length > current.length ? this.insert(start, end, prefix) : end;
			this.openList(start, at, candidates);
		} else {
			this.say(tParts("console.noCompletions", {word: h("span", {lang: "en", text: current || line.trim()})}));
		}
	}

	// insert puts text in place of the line's characters start to end,
	// leaves the cursor after it, and returns where that is.
	/**
	 * @param {number} start
	 * @param {number} end
	 * @param {string} text
	 * @returns {number}
	 */
	insert(start, end, text) {
		const input = this.input;
		input.value = input.value.slice(0, start) + text + input.value.slice(end);
		const at = start + text.length;
		input.setSelectionRange(at, at);
		return at;
	}

	// openList shows candidates as options; each replaces the field's
	// characters start to end when picked.
	/**
	 * @param {number} start
	 * @param {number} end
	 * @param {string[]} candidates
	 */
	openList(start, end, candidates) {
		this.open = {line: this.input.value, start, end, candidates};
		this.active = -1;
		const shown = candidates.slice(0, maxOptions);
		// The options are the console's words; the list's name is the
		// page's.
		this.list.replaceChildren(...shown.map((c, i) => h("div", {id: `console-completion-${i}`, class: "completion", role: "option", "aria-selected": "false", lang: "en", dataset: {index: i}, text: c})));
		this.list.setAttribute("aria-label", t("console.completionsLabel"));
		this.list.hidden = false;
		this.input.setAttribute("aria-expanded", "true");
		this.input.removeAttribute("aria-activedescendant");
		const count = candidates.length > shown.length
			? t("console.completionsShown", {n: candidates.length, shown: shown.length})
			: t("console.completions", {n: candidates.length});
		this.say(t("console.completionsHelp", {count}), {keep: true});
	}

	// setActive makes option i the active one, for assistive technology
	// (aria-activedescendant, aria-selected) and for the eye.
	/** @param {number} i */
	setActive(i) {
		const options = this.list.children;
		if (this.active >= 0 && options[this.active]) {
			options[this.active].setAttribute("aria-selected", "false");
			options[this.active].classList.remove("active");
		}
		this.active = i;
		const option = options[i];
		option.setAttribute("aria-selected", "true");
		option.classList.add("active");
		this.input.setAttribute("aria-activedescendant", option.id);
		option.scrollIntoView({block: "nearest"});
	}

	// pick puts candidate i in the line, as a single candidate would be.
	/** @param {number} i */
	pick(i) {
		const open = this.open;
		this.closeList();
		if (!open || this.input.value !== open.line || !(i >= 0 && i < open.candidates.length)) {
			return;
		}
		this.insert(open.start, open.end, finished(open.candidates[i], open.line.slice(open.end, open.end + 1)));
		this.input.focus();
	}

	// place lines the popup up under the field, which the prompt and
	// the Run button flank (through the CSSOM: the CSP forbids style
	// attributes).
	place() {
		this.popup.style.left = `${this.input.offsetLeft}px`;
		this.popup.style.width = `${this.input.offsetWidth}px`;
	}

	// closeList hides the list and the status line.
	closeList() {
		if (this.open) {
			this.open = null;
			this.active = -1;
			this.list.hidden = true;
			this.list.replaceChildren();
			this.input.setAttribute("aria-expanded", "false");
			this.input.removeAttribute("aria-activedescendant");
		}
		this.say("");
	}

	// say puts a short note in the status line, in the list's place;
	// unless kept (while the list is open), it goes after a moment.
	/**
	 * @param {string | Array<string | Node>} text
	 * @param {{keep?: boolean}} [options]
	 */
	say(text, {keep = false} = {}) {
		clearTimeout(this.statusTimer);
		if (!text.length) {
			// Emptying an empty status line would still change the live
			// region's nodes, and every blur of the field closes the
			// list: leave it untouched, so a click elsewhere is silent.
			if (this.status.childNodes.length) {
				this.status.replaceChildren();
			}
			return;
		}
		this.place();
		this.status.replaceChildren(...(typeof text === "string" ? [text] : text));
		if (!keep) {
			this.statusTimer = setTimeout(() => {
				this.status.textContent = "";
			}, statusMillis);
		}
	}
}

// suggestionRow is "did you mean a, b or c?" with a button for each
// suggestion, as the row's items: the words of the message and of the
// list each an item of their own, and the punctuation kept to the button
// before it ("c?"), as the row wraps.
/**
 * @param {HTMLButtonElement[]} buttons
 * @returns {Array<string | Node>}
 */
function suggestionRow(buttons) {
	const list = document.createDocumentFragment();
	/** @type {Array<string | Node>} */
	const pieces = [];
	for (const part of tParts("console.didYouMean", {suggestions: list})) {
		pieces.push(...(part === list ? listParts(buttons, "disjunction") : [part]));
	}
	/** @type {Array<string | HTMLElement>} */
	const items = [];
	for (const piece of pieces) {
		if (piece instanceof Node) {
			items.push(h("span", null, piece));
			continue;
		}
		// Text: its leading punctuation goes to the button before it.
		const [, lead, words] = /** @type {RegExpExecArray} */ (/^([\p{P}\s]*)([\s\S]*)$/u.exec(piece));
		const before = items[items.length - 1];
		if (lead.trim() && before instanceof HTMLElement) {
			before.append(lead.trim());
		} else if (lead.trim()) {
			items.push(lead.trim());
		}
		if (words.trim()) {
			items.push(words.trim());
		}
	}
	return items;
}

// finished is a candidate as it goes in the line: a finished word gets a
// space after it (unless one follows already); a kind/ or flag= waits for
// more.
/**
 * @param {string} candidate
 * @param {string} next
 * @returns {string}
 */
function finished(candidate, next) {
	return /[=/]$/.test(candidate) || next === " " ? candidate : candidate + " ";
}

/**
 * @param {string[]} words
 * @returns {string}
 */
function commonPrefix(words) {
	let prefix = words[0];
	for (const w of words.slice(1)) {
		let i = 0;
		while (i < prefix.length && i < w.length && prefix[i] === w[i]) {
			i++;
		}
		prefix = prefix.slice(0, i);
	}
	return prefix;
}

// replaceWord puts a suggestion in place of the word a failure points at
// (col is the engine's 1-based byte column). For a flag, --replcas=2 with
// the suggestion --replicas, only the flag's name is replaced; for a
// flag's value, --output=yml with the suggestion yaml, only the value.
/**
 * @param {string} line
 * @param {number} col
 * @param {string} word
 * @returns {string}
 */
function replaceWord(line, col, word) {
	const start = charOffset(line, Math.max(0, col - 1));
	let end = start;
	while (end < line.length && !/\s/.test(line[end])) {
		end++;
	}
	const token = line.slice(start, end);
	let from = start;
	let to = end;
	const eq = token.indexOf("=");
	if (eq >= 0 && !word.includes("=")) {
		if (word.startsWith("-")) {
			to = start + eq; // the flag's name
		} else if (token.startsWith("-")) {
			from = start + eq + 1; // the flag's value
		}
	}
	return line.slice(0, from) + word + line.slice(to);
}

export {Console, replaceWord};
