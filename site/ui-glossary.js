// ui-glossary.js explains the words the page uses. The words themselves, in
// plain terms and with their upstream names, are data in glossary.js; this
// file draws them in three places:
//
//   - Terms: a word in a panel that has an entry is a small button. Pointing
//     at it or giving it the keyboard focus shows its one-line explanation in
//     a tooltip (role=tooltip, which the term names with aria-describedby, so
//     a screen reader says it too); Escape hides the tooltip, which never
//     takes the focus and never covers its term. Pressing the term opens the
//     glossary at its entry. The terms of one panel are one Tab stop, and ↓
//     and ↑ move between them (roveTerms).
//   - The Glossary panel: a dialog listing every entry with its longer
//     explanation and the Kubernetes function, type or field it comes from.
//     Each entry has a stable id, glossary-<id>, and UI.openGlossary(id)
//     opens it there, so any part of the page can link to an entry.
//   - Captions: one sentence under each panel of "Inside the controller"
//     that names the words the panel shows only now and then.
//
// The panels make their terms with UI.term (a word the code knows) and
// UI.termify (words found in the engine's text); static text, such as the
// help and the panels' headings, is decorated once, after the first paint
// (UI.decorateStatic). A word is made
// a term the first time it appears in a section, not at every repetition,
// so that the keyboard does not have to step through the same word twenty
// times.
//
// In another language than English, the glossary is glossary.js's English
// with each of its texts in that language where the page's glossary data
// in it (i18n.glossary, glossary-<locale>.json) has it: an entry it lacks
// stays English, marked lang="en", as does any text it lacks. Its terms
// are found both by the English words the engine writes (glossary.js's
// match) and by the words the page's own text writes for them in that
// language (the data's matchZh, by entry), so that a tooltip explains the
// engine's English in the page's language. useGlossaryLanguage makes it
// so, once the page's words are there and before anything is drawn.

import {focusIsNowhereOrIn, h, isTyping} from "./ui-util.js";
import {glossary as glossaryData} from "./glossary.js";
import {i18n} from "./i18n.js";

/**
 * An entry of the glossary, and the language of its words.
 * @typedef {typeof glossaryData.entries[number] & {lang: string, origin?: string}} Entry
 */
/**
 * The glossary as the page shows it: glossary.js's shape, each text in the
 * page's language or English, and, by the path of each text ("text.title",
 * "labels.lastSyncs", "captions.queue", "groups.queue"), its language.
 * @typedef {Object} Glossary
 * @property {string} lang
 * @property {Record<string, string>} text
 * @property {Record<string, string>} labels
 * @property {Array<{id: string, title: string}>} groups
 * @property {Record<string, string>} captions
 * @property {Entry[]} entries
 * @property {Record<string, string>} langs
 */

/** @type {Glossary} */
const G = localized(glossaryData, null, "en");
let entries = new Map(G.entries.map((e) => [e.id, e]));
// The words by which the page finds each entry's terms in a text, by
// entry id: the engine's English, and the page's own words.
/** @type {Record<string, string[]>} */
let matchWords = /** @type {Record<string, string[]>} */ (glossaryData.match);

// localized is the glossary en, each text in locale where tr (a
// glossary-<locale>.json's data, or null) has it.
/**
 * @param {typeof glossaryData} en
 * @param {any} tr the data as fetched, checked here field by field
 * @param {string} locale
 * @returns {Glossary}
 */
function localized(en, tr, locale) {
	/** @type {Record<string, string>} */
	const langs = {};
	/**
	 * @param {string} path
	 * @param {unknown} mine
	 * @param {string} english
	 */
	const pick = (path, mine, english) => {
		const ok = typeof mine === "string" && mine !== "";
		langs[path] = ok ? locale : "en";
		return ok ? /** @type {string} */ (mine) : english;
	};
	/**
	 * @param {string} part
	 * @param {Record<string, string>} english
	 */
	const texts = (part, english) => {
		const mine = tr && tr[part] && typeof tr[part] === "object" ? tr[part] : {};
		/** @type {Record<string, string>} */
		const out = {};
		for (const [key, text] of Object.entries(english)) {
			out[key] = pick(`${part}.${key}`, mine[key], text);
		}
		return out;
	};
	/** @param {string} part */
	const byID = (part) => new Map((tr && Array.isArray(tr[part]) ? tr[part] : []).filter((x) => x && typeof x.id === "string").map((x) => [x.id, x]));
	const groups = byID("groups");
	const mine = byID("entries");
	return {
		lang: locale,
		text: texts("text", en.text),
		labels: texts("labels", /** @type {Record<string, string>} */ (en.labels)),
		captions: texts("captions", /** @type {Record<string, string>} */ (en.captions)),
		groups: en.groups.map((g) => ({id: g.id, title: pick(`groups.${g.id}`, (groups.get(g.id) || {}).title, g.title)})),
		entries: en.entries.map((e) => {
			const m = mine.get(e.id);
			const whole = m && [m.term, m.short, m.long].every((x) => typeof x === "string" && x !== "");
			// An entry is in one language: a translation that lacks one
			// of its texts is not mixed with the English.
			return whole ? {...e, term: m.term, short: m.short, long: m.long, lang: locale} : {...e, lang: "en"};
		}),
		langs,
	};
}

// useGlossaryLanguage makes the glossary the page's language's, from the
// page's glossary data in it (i18n.glossary), and makes the tooltips. The
// page calls it once its words are there, before it draws anything; an
// English page, whose glossary is glossary.js's, calls it too, for the
// tooltips.
function useGlossaryLanguage() {
	if (i18n.locale !== "en") {
		const tr = /** @type {any} */ (i18n.glossary);
		Object.assign(G, localized(glossaryData, tr, i18n.locale));
		entries = new Map(G.entries.map((e) => [e.id, e]));
		/** @type {Record<string, string[]>} */
		const both = {};
		const zh = tr && tr.matchZh && typeof tr.matchZh === "object" ? tr.matchZh : {};
		for (const [id, words] of Object.entries(/** @type {Record<string, string[]>} */ (glossaryData.match))) {
			both[id] = [...words];
		}
		for (const [id, words] of Object.entries(zh)) {
			if (Array.isArray(words)) {
				both[id] = [...(both[id] || []), ...words.filter((w) => typeof w === "string" && w !== "")];
			}
		}
		matchWords = both;
		matchers.clear();
	}
	makeTips();
}

// otherLang is the lang attribute of a text of the glossary in lang: none
// when it is the page's.
/** @param {string} lang */
function otherLang(lang) {
	return lang === i18n.locale ? null : lang;
}

// glossaryEntry is the entry id names, as the page shows it, or undefined.
/** @param {string} id */
function glossaryEntry(id) {
	return entries.get(id);
}

// byFunction holds, by the upstream function an entry comes from (the last
// part of its upstream name, in lower case), the entry's id: the first
// entry, in the glossary's order, of each function.
/** @type {Map<string, string> | null} */
let byFunction = null;

// entryOfFunction is the entry that explains the upstream function a
// step models ("processNextWorkItem", "Reflector.watch"), or undefined
// when the glossary has none.
/** @param {string} name */
function entryOfFunction(name) {
	if (!byFunction) {
		byFunction = new Map();
		for (const e of G.entries) {
			const fn = /** @type {string} */ (e.upstream.name.split(".").pop()).toLowerCase();
			if (!byFunction.has(fn)) {
				byFunction.set(fn, e.id);
			}
		}
	}
	const id = byFunction.get(/** @type {string} */ (name.split(".").pop()).toLowerCase());
	return id === undefined ? undefined : entries.get(id);
}

/** @param {string} id */
const tipId = (id) => `glossary-tip-${id}`;
/** @param {string} id */
const entryId = (id) => `glossary-${id}`;

// entry returns the entry id names, and says on the console when there
// is none: a term without an entry is a bug (the test suite fails on
// console errors).
/**
 * @param {string} id
 * @returns {Entry | undefined}
 */
function entry(id) {
	const e = entries.get(id);
	if (!e) {
		console.error(`glossary: no entry "${id}"`);
	}
	return e;
}

// --- Terms ----------------------------------------------------------------

// term returns the element for one use of an entry: a button showing
// text (the entry's term when text is omitted).
/**
 * @param {string} id
 * @param {string} [text]
 * @returns {HTMLButtonElement | string}
 */
function term(id, text) {
	const e = entry(id);
	if (!e) {
		return text ?? id;
	}
	termsMade++;
	return h("button", {
		type: "button",
		class: "term",
		"aria-describedby": tipId(id),
		"aria-haspopup": "dialog",
		// Words given are in the language of the text around them; the
		// entry's own term is in the entry's.
		lang: text === undefined ? otherLang(e.lang) : null,
		dataset: {term: id},
	}, text ?? e.term);
}

// format builds a sentence from a text whose {{id}} and {{id|words}}
// name entries, with each such place drawn by place(id, words), {name}
// replaced by parts[name] (a node or a string), and the rest as text,
// with its `code` drawn as code (withCode).
/**
 * @param {string} text
 * @param {(id: string, words?: string) => Node | string} place
 * @param {Record<string, Node | string>} [parts]
 * @returns {Array<Node | string>}
 */
function format(text, place, parts = {}) {
	/** @type {Array<Node | string>} */
	const out = [];
	const re = /\{\{([a-z0-9-]+)(?:\|([^}]*))?\}\}|\{([a-z]+)\}/g;
	let last = 0;
	for (const m of text.matchAll(re)) {
		if (m.index > last) {
			out.push(...withCode(text.slice(last, m.index)));
		}
		out.push(m[3] ? parts[m[3]] ?? m[0] : place(m[1], m[2]));
		last = m.index + m[0].length;
	}
	if (last < text.length) {
		out.push(...withCode(text.slice(last)));
	}
	return out;
}

// withCode draws a glossary text's code, `between backticks` (the
// commands, flags and object names a translation writes), as code, which
// is English whatever the text's language; the rest is text.
/**
 * @param {string} text
 * @returns {Array<Node | string>}
 */
function withCode(text) {
	/** @type {Array<Node | string>} */
	const out = [];
	let last = 0;
	for (const m of text.matchAll(/`([^`]+)`/g)) {
		if (m.index > last) {
			out.push(text.slice(last, m.index));
		}
		out.push(h("code", {lang: "en", text: m[1]}));
		last = m.index + m[0].length;
	}
	if (last < text.length) {
		out.push(text.slice(last));
	}
	return out;
}

// explain is an entry's one-line explanation, its code drawn as code and
// the entries it names ({{id|words}}) as their words: the tooltip's and
// the loop's words for it, where a term could not be pressed.
/**
 * @param {Entry} e
 * @returns {Array<Node | string>}
 */
function explain(e) {
	return format(e.short, (id, words) => words ?? (entries.get(id) || {term: id}).term);
}

// phrase builds the panel phrase G.labels[name], its terms drawn as
// terms and its {part} places filled from parts.
/**
 * @param {string} name
 * @param {Record<string, Node | string>} [parts]
 * @returns {Array<Node | string>}
 */
function phrase(name, parts) {
	const words = format(G.labels[name], (id, words) => term(id, words), parts);
	const lang = otherLang(G.langs[`labels.${name}`]);
	return lang ? [h("span", {lang}, words)] : words;
}

// matchers caches, by the list of entries looked for, a regular
// expression matching any of their words and the entry each word
// belongs to (the first in the list, when two share a word). A word is
// matched whole: not inside a longer word, nor next to a slash or a
// hyphen, which make it part of a name such as informer/pods.
/** @type {Map<string, {re: RegExp, owner: Map<string, string>}>} */
const matchers = new Map();
/** @param {string[]} ids */
function matcher(ids) {
	const key = ids.join(" ");
	let m = matchers.get(key);
	if (!m) {
		/** @type {Map<string, string>} */
		const owner = new Map();
		for (const id of ids) {
			entry(id);
			for (const word of matchWords[id] || []) {
				if (!owner.has(word)) {
					owner.set(word, id);
				}
			}
		}
		const words = [...owner.keys()].sort((a, b) => b.length - a.length)
			.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
		m = {re: new RegExp(`(?<![\\w/-])(?:${words.join("|")})(?![\\w/-])`, "g"), owner};
		matchers.set(key, m);
	}
	return m;
}

// termify returns text as a list of strings and terms: the first use in
// text of each entry in ids becomes a term, unless seen (a Set shared by
// the calls for one section) already holds it.
/**
 * @param {unknown} text
 * @param {string[]} ids
 * @param {Set<string>} [seen]
 * @returns {Array<Node | string>}
 */
function termify(text, ids, seen = new Set()) {
	const {re, owner} = matcher(ids);
	const s = String(text);
	/** @type {Array<Node | string>} */
	const out = [];
	let last = 0;
	for (const m of s.matchAll(re)) {
		// The matcher matches only the words it owns.
		const id = /** @type {string} */ (owner.get(m[0]));
		if (seen.has(id)) {
			continue;
		}
		seen.add(id);
		out.push(s.slice(last, m.index), term(id, m[0]));
		last = m.index + m[0].length;
	}
	out.push(s.slice(last));
	return out.filter((part) => part !== "");
}

// decorate makes terms of the words of ids in the text under root, in
// place, except inside controls and code.
/**
 * @param {Element} root
 * @param {string[]} ids
 * @param {Set<string>} [seen]
 */
function decorate(root, ids, seen = new Set()) {
	const skip = "button, a, input, select, textarea, code, kbd, [data-no-terms]";
	const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
		// A text node under root has a parent element.
		acceptNode: (node) => (/** @type {Element} */ (node.parentElement).closest(skip) && root.contains(/** @type {Element} */ (node.parentElement).closest(skip))
			? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
	});
	/** @type {Text[]} */
	const nodes = [];
	for (let n = walker.nextNode(); n; n = walker.nextNode()) {
		nodes.push(/** @type {Text} */ (n));
	}
	for (const node of nodes) {
		const parts = termify(node.textContent, ids, seen);
		if (parts.some((p) => p instanceof Node)) {
			node.replaceWith(...parts);
		}
	}
}

// worldTerms says which words the world's drawing explains, by where
// they are drawn. ui-world.js calls decorateWorld after each redraw.
/** @type {Array<[string, string[]]>} */
const worldTerms = [
	[".node-col.unscheduled .node-name", ["scheduled"]],
	[".node-state", ["node-ready", "cordoned", "kubelet"]],
	[".owner-title", ["deployment", "orphan", "terminating", "revision"]],
	[".owner-meta", ["selector", "desired", "current", "ready", "available", "controller-ref", "adopt", "garbage-collector"]],
	[".owner-failure", ["replica-failure"]],
	[".rs-revision", ["revision", "pod-template-hash"]],
	[".deploy-meta", ["selector", "desired", "rolling-update", "recreate", "max-surge", "max-unavailable", "ready", "available"]],
	[".deploy-budget", ["max-surge", "max-unavailable", "available"]],
	[".deploy-last-scale", ["max-surge", "max-unavailable", "available"]],
];
/** @param {Element} root */
function decorateWorld(root) {
	for (const [selector, ids] of worldTerms) {
		for (const el of root.querySelectorAll(selector)) {
			decorate(el, ids);
		}
	}
}

// decorateWorldPart makes terms in el, a part of the drawing that is
// drawn where selector (one of worldTerms') says, or inside such a
// part, within: then the words already terms in within are not made
// terms again, as a drawing of the whole part would not.
/**
 * @param {Element} el
 * @param {string} selector
 * @param {Element | null} [within]
 */
function decorateWorldPart(el, selector, within = null) {
	const found = worldTerms.find(([sel]) => sel === selector);
	if (!found) {
		throw new Error(`decorateWorldPart: no terms are drawn in ${selector}`);
	}
	const seen = new Set(within ? termsIn(within).map((t) => /** @type {string} */ (t.dataset.term)) : []);
	decorate(el, found[1], seen);
}

// termFocus and restoreTermFocus keep the keyboard focus on a term
// across a redraw of root: the same entry's term at the same place in
// order, if the redraw still has one.
/**
 * @param {Element} root
 * @returns {{id: string | undefined, index: number} | null}
 */
function termFocus(root) {
	const active = /** @type {HTMLElement | null} */ (document.activeElement);
	if (!active || !active.classList || !active.classList.contains("term") || !root.contains(active)) {
		return null;
	}
	const same = termsIn(root).filter((t) => t.dataset.term === active.dataset.term);
	return {id: active.dataset.term, index: same.indexOf(active)};
}
/**
 * @param {Element} root
 * @param {{id: string | undefined, index: number} | null} focus
 */
function restoreTermFocus(root, focus) {
	if (!focus || document.activeElement !== document.body) {
		return;
	}
	const same = termsIn(root).filter((t) => t.dataset.term === focus.id);
	const again = same[Math.min(focus.index, same.length - 1)];
	if (again) {
		again.focus({preventScroll: true});
	}
}

// termsIn lists the terms under root (each a button that term made).
/**
 * @param {ParentNode} root
 * @returns {HTMLElement[]}
 */
function termsIn(root) {
	return [.../** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".term"))];
}

// --- Tooltips ---------------------------------------------------------------

// Each entry has one tooltip, made as the page starts (makeTips, once the
// glossary is in the page's language), that all its terms name with
// aria-describedby: a reader hears the explanation whether or not it is
// on the screen. The tooltips wait, hidden, in #glossary-tips; the one
// shown moves into the open dialog when its term is in one, since a
// modal dialog covers everything outside it.
const store = h("div", {id: "glossary-tips"});
/** @type {Map<string, HTMLElement>} */
const tips = new Map();
document.body.appendChild(store);

// makeTips makes the tooltips, once.
function makeTips() {
	if (tips.size) {
		return;
	}
	for (const e of G.entries) {
		const tip = h("div", {role: "tooltip", id: tipId(e.id), class: "term-tip", hidden: true, lang: otherLang(e.lang)}, explain(e));
		tips.set(e.id, tip);
		store.appendChild(tip);
	}
}

// shown is the tooltip on the screen: {el, tip}, el being its term.
/** @type {{el: HTMLElement, tip: HTMLElement} | null} */
let shown = null;
// dismissed is the term whose tooltip Escape hid: it stays hidden until
// the pointer and the focus have both left that term.
/** @type {Element | null} */
let dismissed = null;
let showTimer = 0;
let hideTimer = 0;
/** @type {Element | null} */
let hovered = null;

/** @param {HTMLElement} el */
function show(el) {
	clearTimeout(showTimer);
	clearTimeout(hideTimer);
	if (el === dismissed || !el.isConnected) {
		return;
	}
	if (shown && shown.el === el) {
		return;
	}
	hide();
	const tip = tips.get(/** @type {string} */ (el.dataset.term));
	if (!tip) {
		return;
	}
	const host = el.closest("dialog[open]") || store;
	if (tip.parentNode !== host) {
		host.appendChild(tip);
	}
	tip.hidden = false;
	shown = {el, tip};
	place();
	requestAnimationFrame(follow);
}

function hide() {
	clearTimeout(hideTimer);
	if (!shown) {
		return;
	}
	shown.tip.hidden = true;
	if (shown.tip.parentNode !== store) {
		store.appendChild(shown.tip);
	}
	shown = null;
}

// place puts the tooltip under its term, or above it when there is no
// room below, and inside the viewport, never over the term.
function place() {
	// Only called with a tooltip shown.
	const {el, tip} = /** @type {{el: HTMLElement, tip: HTMLElement}} */ (shown);
	const r = el.getBoundingClientRect();
	const t = tip.getBoundingClientRect();
	const width = document.documentElement.clientWidth;
	const height = globalThis.innerHeight;
	const gap = 6;
	let top = r.bottom + gap;
	if (top + t.height > height - 4 && r.top - gap - t.height >= 4) {
		top = r.top - gap - t.height;
	}
	const left = Math.max(4, Math.min(r.left, width - t.width - 4));
	tip.style.left = `${left}px`;
	tip.style.top = `${top}px`;
}

// follow keeps a shown tooltip with its term while the page scrolls or
// redraws, and hides it when the term is gone (a panel redrawn under it).
function follow() {
	if (!shown) {
		return;
	}
	if (!shown.el.isConnected || shown.el.getClientRects().length === 0) {
		hide();
		return;
	}
	place();
	requestAnimationFrame(follow);
}

// hideSoon hides the tooltip after a moment, so the pointer can move
// from the term onto the tooltip (to read or select it) without losing
// it.
function hideSoon() {
	clearTimeout(hideTimer);
	hideTimer = setTimeout(() => {
		if (shown && shown.el !== document.activeElement && hovered !== shown.el && hovered !== shown.tip) {
			hide();
		}
	}, 200);
}

// Only a pointer that moves onto a term shows its tooltip: a pointerover
// alone may come with no pointer there at all. After a tap that scrolled
// the page, the browser reports the content now under where the finger
// was as hovered, by a mouse pointerover and no pointermove; a tooltip
// shown for that stayed up, since no pointer ever left. pointerover still
// says what is under the pointer, for hiding.
/** @type {Element | null} */
let showingFor = null;
document.addEventListener("pointerover", (event) => {
	if (event.pointerType === "touch") {
		return;
	}
	const target = event.target instanceof Element ? event.target : null;
	const el = target && /** @type {HTMLElement | null} */ (target.closest(".term"));
	const onTip = shown && target && shown.tip.contains(target);
	hovered = el || (onTip && shown ? shown.tip : null);
	if (onTip || el) {
		clearTimeout(hideTimer);
	}
});
document.addEventListener("pointermove", (event) => {
	if (event.pointerType === "touch") {
		return;
	}
	const target = event.target instanceof Element ? event.target : null;
	const el = target && /** @type {HTMLElement | null} */ (target.closest(".term"));
	if (!el || el === showingFor || (shown && shown.el === el)) {
		return;
	}
	hovered = el;
	clearTimeout(hideTimer);
	clearTimeout(showTimer);
	showingFor = el;
	showTimer = setTimeout(() => {
		showingFor = null;
		show(el);
	}, 120);
});
document.addEventListener("pointerout", (event) => {
	const target = event.target instanceof Element ? event.target : null;
	const from = target && (target.closest(".term") || (shown && shown.tip.contains(target) ? shown.tip : null));
	const to = event.relatedTarget instanceof Element ? event.relatedTarget : null;
	if (!from || (to && (from.contains(to) || (shown && (shown.el.contains(to) || shown.tip.contains(to)))))) {
		return;
	}
	hovered = null;
	clearTimeout(showTimer);
	showingFor = null;
	if (dismissed && from === dismissed && document.activeElement !== dismissed) {
		dismissed = null;
	}
	hideSoon();
});
document.addEventListener("focusin", (event) => {
	const el = event.target instanceof Element && /** @type {HTMLElement | null} */ (event.target.closest(".term"));
	if (el) {
		show(el);
	} else if (shown && shown.el !== hovered) {
		hide();
	}
});
document.addEventListener("focusout", (event) => {
	if (dismissed && event.target === dismissed && hovered !== dismissed) {
		dismissed = null;
	}
	if (shown && event.target === shown.el && hovered !== shown.el && hovered !== shown.tip) {
		hide();
	}
});
// Escape hides the tooltip, and does only that: it is caught before the
// page's shortcuts (which would cancel a run) and a dialog (which would
// close) see it.
document.addEventListener("keydown", (event) => {
	if (event.key === "Escape" && shown) {
		dismissed = shown.el;
		hide();
		event.preventDefault();
		event.stopPropagation();
	}
}, true);

// --- The Glossary panel -------------------------------------------------------

// rich draws an entry's long text, its references to other entries as
// terms that lead there.
/** @param {string} text */
function rich(text) {
	return format(text, (id, words) => term(id, words));
}

/** @param {Entry} e */
function entryNode(e) {
	const which = e.origin === "rlab" ? "model" : "upstream";
	return h("article", {id: entryId(e.id), class: "gloss-entry", tabindex: "-1", "aria-labelledby": `${entryId(e.id)}-term`, lang: otherLang(e.lang), dataset: {entry: e.id}},
		h("h4", {id: `${entryId(e.id)}-term`, class: "gloss-term"}, e.term),
		h("p", {class: "gloss-short"}, rich(e.short)),
		h("p", {class: "gloss-long"}, rich(e.long)),
		h("p", {class: "gloss-upstream", lang: G.langs[`text.${which}`] === e.lang ? null : G.langs[`text.${which}`]}, format(G.text[which], term, {
			name: h("code", {class: "gloss-name", lang: "en", text: e.upstream.name}),
			file: h("code", {class: "gloss-file", lang: "en", text: e.upstream.file}),
		})));
}

// The panel is built when it is first needed (opened, or once the page
// is interactive, when app.js asks for it in idle time), not at load:
// its sixty-odd entries cost the first drawing a tenth of a second on a
// slow phone, for a panel nobody has opened yet.
/** @type {HTMLButtonElement | null} */
let closeButton = null;
/** @type {HTMLDialogElement | null} */
let dialog = null;

// buildGlossary makes the Glossary panel, #glossary, once, and returns
// it.
/** @returns {HTMLDialogElement} */
function buildGlossary() {
	if (dialog) {
		return dialog;
	}
	/** @param {string} path */
	const lang = (path) => otherLang(G.langs[path]);
	closeButton = h("button", {type: "button", class: "small gloss-close", lang: lang("text.close"), text: G.text.close});
	dialog = h("dialog", {id: "glossary", class: "glossary", "aria-labelledby": "glossary-title"},
		h("div", {class: "gloss-head"},
			h("h2", {id: "glossary-title", lang: lang("text.title"), text: G.text.title}),
			closeButton),
		h("p", {class: "gloss-intro", lang: lang("text.intro"), text: G.text.intro}),
		// The nav's name is in the page's language or the glossary's
		// English: its lang says which.
		h("nav", {class: "gloss-nav", "aria-label": G.text.sections, lang: lang("text.sections")},
			h("ul", {lang: otherLang(G.langs["text.sections"]) ? i18n.locale : null}, G.groups.map((g) => h("li", null,
				h("button", {type: "button", class: "small", lang: lang(`groups.${g.id}`), dataset: {group: g.id}, text: g.title}))))),
		G.groups.map((g) => h("section", {id: `glossary-group-${g.id}`, class: "gloss-group", "aria-labelledby": `glossary-group-${g.id}-h`},
			h("h3", {id: `glossary-group-${g.id}-h`, lang: lang(`groups.${g.id}`), text: g.title}),
			G.entries.filter((e) => e.group === g.id).map(entryNode))));
	document.body.appendChild(dialog);
	wireDialog(dialog, closeButton);
	return dialog;
}

// returnTo is where the focus goes back when the glossary closes: the
// element that had it when the glossary opened, or, if a redraw
// replaced it, a term for the same entry.
/** @type {{el: HTMLElement, term: string | undefined} | null} */
let returnTo = null;

// openGlossary opens the glossary, at the entry id names if any.
/** @param {string | null | undefined} id */
function openGlossary(id) {
	hide();
	const dialog = buildGlossary();
	if (!dialog.open) {
		const active = /** @type {HTMLElement | null} */ (document.activeElement);
		returnTo = active && active !== document.body ? {el: active, term: active.dataset && active.dataset.term} : null;
		dialog.showModal();
	}
	for (const el of dialog.querySelectorAll(".gloss-entry.current")) {
		el.classList.remove("current");
	}
	const target = id && document.getElementById(entryId(id));
	if (target) {
		target.classList.add("current");
		target.scrollIntoView({block: "start"});
		target.focus({preventScroll: true});
	} else {
		dialog.scrollTop = 0;
		/** @type {HTMLButtonElement} */ (closeButton).focus();
	}
}

// wireDialog gives the panel its behaviour, once it is built.
/**
 * @param {HTMLDialogElement} dialog
 * @param {HTMLButtonElement} closeButton
 */
function wireDialog(dialog, closeButton) {
	closeButton.addEventListener("click", () => dialog.close());
	// The close event runs a task after the dialog closed, after any
	// input that came in between (see the help's in app.js): a focus a
	// click has put on a control stays there, and a glossary opened again
	// keeps the place its own opening remembered.
	dialog.addEventListener("close", () => {
		hide();
		if (dialog.open) {
			return;
		}
		const back = returnTo;
		returnTo = null;
		if (!focusIsNowhereOrIn(dialog)) {
			return;
		}
		/** @type {HTMLElement | null} */
		let el = back && back.el;
		if (back && el && !el.isConnected && back.term) {
			el = document.querySelector(`.term[data-term="${CSS.escape(back.term)}"]`);
		}
		(el && el.isConnected ? el : document.getElementById("glossary-button") || document.body).focus();
	});
	// Keys typed in the glossary stay there: the page's shortcuts (→ steps)
	// must not act on the world hidden behind it.
	dialog.addEventListener("keydown", (event) => event.stopPropagation());
	dialog.addEventListener("click", (event) => {
		// A click lands on an element of the dialog.
		const group = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("[data-group]"));
		if (group) {
			// Each group's button has its section.
			/** @type {HTMLElement} */ (document.getElementById(`glossary-group-${group.dataset.group}`)).scrollIntoView({block: "start"});
			return;
		}
		// A click on the backdrop (outside the dialog's box) closes it.
		if (event.target === dialog) {
			const r = dialog.getBoundingClientRect();
			if (event.clientX < r.left || event.clientX > r.right || event.clientY < r.top || event.clientY > r.bottom) {
				dialog.close();
			}
		}
	});
}

// A press on any term, wherever it is, opens its entry.
document.addEventListener("click", (event) => {
	const el = event.target instanceof Element && /** @type {HTMLElement | null} */ (event.target.closest(".term"));
	if (el) {
		event.preventDefault();
		openGlossary(el.dataset.term);
	}
});

// t opens the glossary, at the entry of the term that has the focus if
// one has. Like the page's other shortcuts it does nothing while the
// learner types, while a dialog or the pod menu is open, or with a
// modifier held.
document.addEventListener("keydown", (event) => {
	if (event.key !== "t" || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey ||
		isTyping(event.target) || document.querySelector("dialog[open]")) {
		return;
	}
	const menu = document.getElementById("pod-menu");
	if (menu && !menu.hidden) {
		return;
	}
	const focused = event.target instanceof Element && /** @type {HTMLElement | null} */ (event.target.closest(".term"));
	event.preventDefault();
	openGlossary(focused ? focused.dataset.term : null);
});

for (const id of ["glossary-button", "help-glossary"]) {
	const button = document.getElementById(id);
	if (button) {
		button.addEventListener("click", () => openGlossary(null));
	}
}

// --- What is decorated once, after the first paint --------------------------------

// staticTerms says which words are explained in the page's fixed text:
// the panels' headings, the help and the world's note.
/** @type {Array<[string, string[]]>} */
const staticTerms = [
	["#queue > h3", ["workqueue"]],
	["#workers > h3", ["worker"]],
	["#expectations > h3", ["expectations"]],
	["#informers > h3", ["informer"]],
	["#agenda > h3", ["agenda"]],
	["#faults > h3", ["faults"]],
	["#gc > h3", ["garbage-collector"]],
	["#help-title + p", ["informer", "cache", "deltafifo", "rate-limited", "workqueue", "expectations"]],
	["#help ul", ["ready", "phase", "terminating", "orphan", "controller-ref", "owner", "selector", "release", "adopt"]],
	["#world-heading + .panel-note", ["owner"]],
];

// decorateStatic makes terms of the page's fixed text and adds the
// panels' captions, once. The page calls it once its first world is on
// the screen, with the panels it draws just after: done while the page
// loaded, it was a fifth of the page's own work before the first paint,
// for text that is below the fold or in the closed help.
let decorated = false;
function decorateStatic() {
	if (decorated) {
		return;
	}
	decorated = true;
	for (const [selector, ids] of staticTerms) {
		for (const el of document.querySelectorAll(selector)) {
			decorate(el, ids);
		}
	}
	// Each panel inside the controller gets its caption, between its
	// heading and its body (which the panel redraws).
	for (const [panel, text] of Object.entries(G.captions)) {
		const body = document.querySelector(`#${panel} > .sub-body`);
		if (body) {
			body.before(h("p", {class: "sub-note", lang: otherLang(G.langs[`captions.${panel}`])}, format(text, (id, words) => term(id, words))));
		}
	}
	for (const root of [document.querySelector("main"), document.getElementById("help")]) {
		if (root) {
			roveTerms(root);
		}
	}
}

// --- One Tab stop for the words of each part of the page ---------------------

// The panels explain dozens of words, and as Tab stops of their own
// they were most of the page's: 75 of the first screen's 83, all
// between the controls and the console. So the words of one part of
// the page (a section, the help) are one stop, as a toolbar's buttons
// are: Tab reaches one word of each part, the one that has the focus
// or else the first, and ↓ and ↑ move to the part's next and previous
// word, Home and End to its first and last, each showing its
// explanation as Tab did. A screen reader's own reading reaches every
// word as before. ← and → stay the page's Step and Back.
//
// partOf is the part of the page a term is in: a panel, a section
// inside the controller (not each informer's or controller's section
// within it), a dialog, or else the nearest section, or the body.
/**
 * @param {Element} t
 * @returns {Element}
 */
function partOf(t) {
	return t.closest(".panel:not(.inside), .inside > .sub, dialog") || t.closest("section") || document.body;
}

// termParts groups the terms under root by the part of the page they
// are in, in document order.
/**
 * @param {Element} root
 * @returns {Map<Element, HTMLButtonElement[]>}
 */
function termParts(root) {
	/** @type {Map<Element, HTMLButtonElement[]>} */
	const parts = new Map();
	for (const t of /** @type {NodeListOf<HTMLButtonElement>} */ (root.querySelectorAll("button.term"))) {
		const part = partOf(t);
		let list = parts.get(part);
		if (!list) {
			list = [];
			parts.set(part, list);
		}
		list.push(t);
	}
	return parts;
}

// termsMade counts the terms term has made, and roved remembers, for
// each root roveTerms was called on, that count then and the Tab stops
// it left.
let termsMade = 0;
/** @type {WeakMap<Element, {made: number, stops: HTMLElement[]}>} */
const roved = new WeakMap();

// roveTerms leaves one Tab stop per part of the page among the terms
// under root; the drawing calls it after each redraw, which makes new
// terms. When no term was made since its last call on root, and every
// stop it left is still on the page, the stops stand as they are (the
// arrow keys move a stop themselves): Play draws ten times a second,
// and looking at every term of the page each time cost half a
// millisecond.
/** @param {Element} root */
function roveTerms(root) {
	const last = roved.get(root);
	if (last && last.made === termsMade && last.stops.every((t) => t.isConnected)) {
		return;
	}
	const stops = [];
	for (const terms of termParts(root).values()) {
		const stop = terms.find((t) => t === document.activeElement) || terms[0];
		stops.push(stop);
		for (const t of terms) {
			const tabIndex = t === stop ? 0 : -1;
			// Only a change is written: every drawing calls this, and
			// an attribute written restyles its element.
			if (t.tabIndex !== tabIndex || !t.hasAttribute("tabindex")) {
				t.tabIndex = tabIndex;
			}
		}
	}
	roved.set(root, {made: termsMade, stops});
}

// roveKeys says where each key moves from the term at index at, among
// terms up to index last.
/** @type {Record<string, (at: number, last: number) => number>} */
const roveKeys = {
	ArrowDown: (at, last) => Math.min(last, at + 1),
	ArrowUp: (at) => Math.max(0, at - 1),
	Home: () => 0,
	End: (at, last) => last,
};
document.addEventListener("keydown", (event) => {
	const move = roveKeys[event.key];
	const from = event.target;
	if (move === undefined || event.ctrlKey || event.metaKey || event.altKey || event.shiftKey ||
		!(from instanceof Element) || !from.matches("button.term") || from.closest("#glossary")) {
		return;
	}
	// from matches button.term.
	const button = /** @type {HTMLButtonElement} */ (from);
	const part = partOf(from);
	const terms = [.../** @type {NodeListOf<HTMLButtonElement>} */ (part.querySelectorAll("button.term"))].filter((t) => partOf(t) === part);
	const to = terms[move(terms.indexOf(button), terms.length - 1)];
	event.preventDefault();
	if (!to || to === from) {
		return;
	}
	button.tabIndex = -1;
	to.tabIndex = 0;
	to.focus();
});

export {term, termify, phrase, decorate, decorateWorld, decorateWorldPart, decorateStatic, termFocus, restoreTermFocus, roveTerms, openGlossary, buildGlossary, entryOfFunction, explain, glossaryEntry, useGlossaryLanguage, G as glossary};
