// keyboard.js owns the page's keyboard shortcuts (→ ← n Space r / g ? and
// Escape), the keys that let a learner go on from the console without a
// mouse, and the help dialog that lists them.

import {els, parts, state} from "./page.js";
import {stabilize, stepBack, stepForward, stopPlay, togglePlay, untilSync} from "./playback.js";
import {isTyping} from "./ui-util.js";

function openHelp() {
	if (!els.help.open) {
		state.helpReturn = document.activeElement;
		els.help.showModal();
		els.helpClose.focus();
	}
}

// consoleKey runs the keys that let a learner go on from the console
// without a mouse: Escape leaves it, for Step (or, when nothing is left
// to run, the console's output), so the shortcuts work again; → and ←
// on an empty line step and step back, as they would outside it. It
// says whether it used the key. A key the console itself used (an open
// completion list's Escape) arrives marked defaultPrevented and is left
// alone.
/**
 * @param {KeyboardEvent} event
 * @returns {boolean}
 */
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
/** @param {KeyboardEvent} event */
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
		if (parts.podMenu.isOpen()) {
			parts.podMenu.close(true);
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
	if (els.help.open || parts.podMenu.isOpen() || isTyping(event.target) || !state.ready) {
		return;
	}
	// A key goes to an element (or the document, which has no closest).
	const target = /** @type {Element} */ (event.target);
	const onButton = target.closest && target.closest("button, a, summary, [role=button]");
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

export {keydown, openHelp};
