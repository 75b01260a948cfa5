// ui-console.js is the console: a text field that runs one command of the
// scenario language at a time, with history (↑/↓), Tab completion from the
// engine's complete op, and did-you-mean suggestions for a line that failed
// to parse, each a button that puts the corrected line back in the field.
//
// The console only shows things; running a line is the app's business (the
// execute hook), because a line can step the world, fork the timeline and
// change everything else the page draws.
"use strict";

(() => {
	const UI = globalThis.RlabUI;
	const {h} = UI;

	// maxEntries is how many commands the output keeps; older ones scroll away.
	const maxEntries = 200;
	const maxHistory = 200;

	class Console {
		// hooks: execute(line) resolves the RunResult (or rejects with the
		// engine's error); complete(line, byteCursor) resolves a
		// CompleteResult; stepName(n), if given, names the engine's step n
		// as the page counts it ("step 3", "setup step 40").
		constructor({output, input, form, button}, hooks) {
			this.output = output;
			this.input = input;
			this.form = form;
			this.button = button;
			this.hooks = hooks;
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
		}

		stepName(n) {
			return this.hooks.stepName ? this.hooks.stepName(n) : `step ${n}`;
		}

		setEnabled(enabled) {
			this.input.disabled = !enabled;
			this.button.disabled = !enabled;
		}

		// exec echoes a line, runs it, and shows what it printed or why it
		// failed. Resolves the RunResult, or null when the engine refused.
		async exec(line, {record = true} = {}) {
			if (record) {
				this.remember(line);
			}
			const entry = h("div", {class: "console-entry"}, h("p", {class: "console-echo"}, h("span", {class: "prompt", "aria-hidden": "true", text: "$ "}), h("code", {text: line})));
			this.add(entry);
			let result;
			try {
				result = await this.hooks.execute(line);
			} catch (err) {
				entry.appendChild(h("p", {class: "console-error", text: err.message}));
				this.scroll();
				return null;
			}
			this.show(entry, line, result);
			this.scroll();
			return result;
		}

		// echo shows a line and a RunResult the page already has, as if the
		// line had just been run: the page's prerendered first command.
		echo(line, result) {
			this.remember(line);
			const entry = h("div", {class: "console-entry"}, h("p", {class: "console-echo"}, h("span", {class: "prompt", "aria-hidden": "true", text: "$ "}), h("code", {text: line})));
			this.add(entry);
			this.show(entry, line, result);
			this.scroll();
		}

		// show adds a RunResult's output, failure and step count to an entry.
		show(entry, line, result) {
			if (result.output) {
				entry.appendChild(h("pre", {class: "console-out", text: result.output.replace(/\n$/, "")}));
			}
			if (result.failure) {
				entry.appendChild(this.failureView(line, result.failure));
			}
			if (result.ran) {
				entry.appendChild(h("p", {class: "console-note", text: `ran ${UI.plural(result.ran, "step")}; now at ${this.stepName(result.step)}`}));
			}
			if (!result.output && !result.failure && !result.ran) {
				entry.appendChild(h("p", {class: "console-note", text: "ok"}));
			}
		}

		// failureView shows a failed line: the message, a caret under the
		// column it points at, and a button per suggestion.
		failureView(line, failure) {
			const box = h("div", {class: "console-error"}, h("p", {class: "console-error-text"}, h("span", {"aria-hidden": "true", text: "✕ "}), failure.error || failure.message));
			const firstLine = line.split("\n")[Math.max(0, (failure.line || 1) - 1)] || "";
			if (failure.col > 0 && failure.kind === "parse") {
				const col = UI.charOffset(firstLine, failure.col - 1);
				box.appendChild(h("pre", {class: "caret", "aria-hidden": "true", text: `${firstLine}\n${" ".repeat(col)}^`}));
			}
			const suggestions = failure.suggestions || [];
			if (suggestions.length) {
				const row = h("p", {class: "suggestions"});
				for (const word of suggestions) {
					const button = h("button", {type: "button", class: "suggestion", dataset: {suggestion: word}, text: `did you mean ${word}?`});
					button.addEventListener("click", () => {
						this.input.value = replaceWord(firstLine, failure.col, word);
						this.input.focus();
						this.input.setSelectionRange(this.input.value.length, this.input.value.length);
					});
					row.appendChild(button);
				}
				box.appendChild(row);
			} else if (failure.hint) {
				box.appendChild(h("p", {class: "hint-text", text: failure.hint}));
			}
			return box;
		}

		// print adds a plain note to the output (used for completions and
		// notes from the page).
		print(text, className) {
			this.add(h("div", {class: "console-entry"}, h("p", {class: className || "console-note", text})));
			this.scroll();
		}

		add(entry) {
			this.output.appendChild(entry);
			while (this.output.childElementCount > maxEntries) {
				this.output.firstElementChild.remove();
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

		keydown(event) {
			const input = this.input;
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

		// complete asks the engine for completions of the word under the
		// cursor: one candidate replaces the word, several are listed (and
		// their common prefix filled in).
		async complete() {
			const input = this.input;
			const line = input.value;
			const cursor = input.selectionStart ?? line.length;
			let res;
			try {
				res = await this.hooks.complete(line, UI.byteOffset(line, cursor));
			} catch (err) {
				return; // the app has shown the error
			}
			if (input.value !== line) {
				return; // the learner typed on meanwhile
			}
			const candidates = res.candidates || [];
			const start = UI.charOffset(line, res.start);
			const end = UI.charOffset(line, res.end);
			const current = line.slice(start, end);
			let insert = null;
			if (candidates.length === 1) {
				insert = candidates[0];
				// A finished word gets a space; a kind/ or flag= waits for more.
				if (!/[=/]$/.test(insert) && line.slice(end, end + 1) !== " ") {
					insert += " ";
				}
			} else if (candidates.length > 1) {
				const prefix = commonPrefix(candidates);
				if (prefix.length > current.length) {
					insert = prefix;
				}
				this.print(`completions: ${candidates.join("  ")}`, "console-candidates");
			} else {
				this.print(`no completions for "${current || line.trim()}"`, "console-candidates");
			}
			if (insert !== null) {
				input.value = line.slice(0, start) + insert + line.slice(end);
				const at = start + insert.length;
				input.setSelectionRange(at, at);
			}
		}
	}

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
	function replaceWord(line, col, word) {
		const start = UI.charOffset(line, Math.max(0, col - 1));
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

	Object.assign(UI, {Console, replaceWord});
})();
