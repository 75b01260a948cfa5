// i18n.js gives the page its words in the learner's language. Every string
// a learner reads that the page itself writes (a control, a panel's label,
// a note, an error of the page's own, the keyboard help) is a message of one
// catalogue per locale, by key: messages-en.js, which the bundle carries, so
// that the English page fetches nothing more, and messages-<locale>.json for
// the others, fetched only by a page in that language. The engine's words
// (the console, a step's sentence, kubectl-shaped output, upstream names)
// are not messages: they stay English, in elements marked lang="en".
//
// A message is a whole sentence or phrase, never glued from pieces, so that
// a translation may put its parts in any order: where the page puts in a
// value, the message names it, {name}; t fills the places with text and
// tParts with nodes (a term, a code span, a button), in the order the
// translation wrote them. A message that counts has one form per plural
// category of Intl.PluralRules ({one: "{n} pod", other: "{n} pods"}),
// chosen by its {n}; a language with one form writes one string.
//
// The locale is chosen once, as the page loads (locale.js, the bundle's
// second entry, right after main.wasm's download has started): the one the
// learner picked with the header's Language select, kept in localStorage;
// else a share link's; else the first of the browser's languages the page
// has (any zh is zh-CN); else English. Switching reloads the page, at the
// world and step the URL holds: nothing drawn has to be drawn again in
// another language.

import {messages} from "./messages-en.js";

/** @typedef {string | Record<string, string>} Message */
/** @typedef {Record<string, Message>} Catalogue */

// english is the English catalogue, which stands in for a message another
// catalogue lacks.
/** @type {Catalogue} */
const english = messages;

// locales are the page's languages, each with its name in itself, as the
// Language select offers them.
const locales = [
	{tag: "en", name: "English"},
	{tag: "zh-CN", name: "中文"},
];

// storageKey is where the learner's choice is kept.
const storageKey = "rlab.locale";

// loadTimeoutMs is how long a page in another language waits for its
// catalogue before it shows itself in English, and says why.
const loadTimeoutMs = 4000;

// i18n is the page's language, once chosen: its locale, its catalogue and,
// for a locale other than English, the glossary's data in that language
// (null until loaded, or when there is none: the glossary is then
// English). wanted is the locale chosen, which is the locale shown unless
// its catalogue could not be loaded (failure says why). ready settles once
// the page's words are there: at once for English.
const i18n = {
	locale: "en",
	wanted: "en",
	/** @type {Catalogue} */
	messages: english,
	/** @type {unknown} */
	glossary: null,
	failure: "",
	/** @type {Promise<void>} */
	ready: Promise.resolve(),
	/** @type {Intl.PluralRules | null} */
	plurals: null,
};

// supportedLocale is the page's locale for a language tag, or "" when the
// page does not have that language: any English is en, any Chinese zh-CN.
/**
 * @param {unknown} tag
 * @returns {string}
 */
function supportedLocale(tag) {
	if (typeof tag !== "string") {
		return "";
	}
	const lang = tag.trim().toLowerCase().split(/[-_]/)[0];
	if (lang === "zh") {
		return "zh-CN";
	}
	return lang === "en" ? "en" : "";
}

// chooseLocale picks the page's locale: the learner's own choice (stored),
// else a share link's (link), else the first of the browser's languages
// the page has, else English.
/**
 * @param {{stored?: string | null, link?: string | null, languages?: readonly string[]}} from
 * @returns {string}
 */
function chooseLocale({stored = null, link = null, languages = []}) {
	for (const tag of [stored, link, ...languages]) {
		const locale = supportedLocale(tag);
		if (locale) {
			return locale;
		}
	}
	return "en";
}

// linkLocale reads the language a share link carries (its l part), if any.
/**
 * @param {string} hash
 * @returns {string | null}
 */
function linkLocale(hash) {
	try {
		return new URLSearchParams(hash.replace(/^#/, "")).get("l");
	} catch {
		return null;
	}
}

// storedLocale is the learner's choice, if the browser keeps one.
/** @returns {string | null} */
function storedLocale() {
	try {
		return localStorage.getItem(storageKey);
	} catch {
		return null; // storage is off: the browser's languages decide
	}
}

// rememberLocale keeps the learner's choice; a browser that keeps nothing
// forgets it, and the share link and the browser's languages decide.
/** @param {string} locale */
function rememberLocale(locale) {
	try {
		localStorage.setItem(storageKey, locale);
	} catch {
		// Nowhere to keep it.
	}
}

// startLocale chooses the page's locale and, for one other than English,
// fetches its catalogue and glossary. Until they are there the page's text
// is hidden (the class i18n-loading on <html>, style.css), so that no
// English flashes before the translation; once they are, index.html's own
// text is translated (translateStatic) and only then shown, for the page's
// own script may still be on its way (it is the second of the page's two,
// and on a slow network arrives half a second after the catalogue). After
// loadTimeoutMs without a catalogue the page shows itself in English.
// i18n.ready settles when the words are there.
function startLocale() {
	const languages = typeof navigator === "object" ? (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]) : [];
	const locale = chooseLocale({stored: storedLocale(), link: linkLocale(location.hash), languages});
	i18n.wanted = locale;
	if (locale === "en") {
		return;
	}
	const root = document.documentElement;
	root.classList.add("i18n-loading");
	i18n.ready = loadLocale(locale).then(() => {
		if (i18n.locale !== "en") {
			translateStatic(document);
			// The language select says the language shown.
			const select = document.getElementById("language-select");
			if (select instanceof HTMLSelectElement) {
				select.value = i18n.locale;
			}
		}
	}).finally(() => root.classList.remove("i18n-loading"));
}

// loadLocale fetches locale's catalogue and glossary and makes them the
// page's. A glossary that cannot be had leaves the English one (each entry
// then says it is English); a catalogue that cannot be had within
// loadTimeoutMs leaves the page English, with i18n.failure saying why.
/**
 * @param {string} locale
 * @returns {Promise<void>}
 */
async function loadLocale(locale) {
	const glossary = fetchJSON(`glossary-${locale}.json`).catch((err) => {
		console.warn(`The glossary in ${locale} could not be loaded (${err.message}); it is shown in English.`);
		return null;
	});
	const late = Symbol("late");
	/** @type {Promise<typeof late>} */
	const deadline = new Promise((resolve) => {
		setTimeout(() => resolve(late), loadTimeoutMs);
	});
	try {
		const messages = await Promise.race([fetchJSON(`messages-${locale}.json`), deadline]);
		if (messages === late) {
			throw new Error(`messages-${locale}.json did not come within ${loadTimeoutMs / 1000} s`);
		}
		if (!messages || typeof messages !== "object") {
			throw new Error(`messages-${locale}.json holds no catalogue`);
		}
		// The glossary gets what is left of the wait; without it the
		// page is in the locale, with the English glossary.
		const gloss = await Promise.race([glossary, deadline.then(() => null)]);
		useLocale(locale, /** @type {Catalogue} */ (messages), gloss);
	} catch (e) {
		// fetchJSON, JSON and the deadline throw Errors only.
		i18n.failure = /** @type {Error} */ (e).message;
	}
}

/**
 * @param {string} url
 * @returns {Promise<unknown>}
 */
async function fetchJSON(url) {
	const response = await fetch(url);
	if (!response.ok) {
		throw new Error(`${url}: ${response.status} ${response.statusText}`);
	}
	return response.json();
}

// useLocale makes locale, with its catalogue and glossary data, the page's
// language, and says so to the browser (<html lang>).
/**
 * @param {string} locale
 * @param {Catalogue} messages
 * @param {unknown} [glossary]
 */
function useLocale(locale, messages, glossary = null) {
	i18n.locale = locale;
	i18n.messages = messages;
	i18n.glossary = glossary;
	i18n.plurals = null;
	if (typeof document === "object" && document.documentElement) {
		document.documentElement.lang = locale;
	}
}

// pluralRules are the locale's plural rules, made once.
function pluralRules() {
	if (!i18n.plurals) {
		i18n.plurals = new Intl.PluralRules(i18n.locale);
	}
	return i18n.plurals;
}

// message is the text of key in the page's language for params: the form
// for params.n of a message that counts. A key the catalogue lacks is a
// bug (the test suite fails on the console error); the English stands in.
/**
 * @param {string} key
 * @param {Record<string, unknown>} params
 * @returns {string}
 */
function message(key, params) {
	let m = i18n.messages[key];
	if (m === undefined) {
		console.error(`i18n: no message "${key}" in ${i18n.locale}`);
		m = english[key];
		if (m === undefined) {
			return key;
		}
	}
	if (typeof m === "string") {
		return m;
	}
	const form = m[pluralRules().select(Number(params.n))];
	return form ?? m.other ?? Object.values(m)[0];
}

const placeRE = /\{([A-Za-z][A-Za-z0-9]*)\}/g;

// Chinese text leaves a space between a Chinese character and a Latin
// letter or a digit (the zh-cn style guide's first rule), which a
// translation cannot write around a place whose value it does not know:
// "从{from}传到{to}" with from "API 服务器". spaceBefore and spaceAfter say
// whether a value needs one at its start or end, between the message's
// character c and the value's first or last character.
const hanRE = /\p{Script=Han}/u;
const latinRE = /[A-Za-z0-9]/;
/**
 * @param {string | undefined} a
 * @param {string | undefined} b
 */
function needsSpace(a, b) {
	return Boolean(a && b && i18n.locale.startsWith("zh") &&
		((hanRE.test(a) && latinRE.test(b)) || (latinRE.test(a) && hanRE.test(b))));
}

// tidy takes out of Chinese text the spaces the style guide does not want
// and that a place's value can leave: between two Chinese characters, and
// on either side of full-width punctuation ("从 {start} 运行到", with start
// "0.102 秒"). Any other text is left as it is.
const unwantedSpace = /(\p{Script=Han})[ \u00a0]+(?=\p{Script=Han})|[ \u00a0]+(?=[、，。：；！？（）“”])|([、，。：；！？（）“”])[ \u00a0]+/gu;
/** @param {string} text */
function tidy(text) {
	return i18n.locale.startsWith("zh") ? text.replace(unwantedSpace, "$1$2") : text;
}

// spaced is value, as text, put into text at a place from at to end, with
// the spaces Chinese leaves at its edges.
/**
 * @param {string} text the message
 * @param {number} at where the place starts in it
 * @param {number} end where it ends
 * @param {string} value
 */
function spaced(text, at, end, value) {
	if (!value) {
		return value;
	}
	const before = needsSpace(text[at - 1], value[0]) ? " " : "";
	const after = needsSpace(value[value.length - 1], text[end]) ? " " : "";
	return before + value + after;
}

// t is the message key in the page's language, its {places} filled from
// params: numbers and strings as text.
/**
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
function t(key, params = {}) {
	return tidy(message(key, params).replace(placeRE, (all, name, at, text) =>
		(name in params ? spaced(text, at, at + all.length, String(params[name])) : all)));
}

// tParts is the message key as a list of text and nodes: each {place} is
// params[place], a node put in where the translation put it, or text.
/**
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 * @returns {Array<string | Node>}
 */
function tParts(key, params = {}) {
	const text = message(key, params);
	/** @type {Array<string | Node>} */
	const out = [];
	let last = 0;
	for (const m of text.matchAll(placeRE)) {
		const at = /** @type {number} */ (m.index);
		if (at > last) {
			out.push(text.slice(last, at));
		}
		const value = m[1] in params ? params[m[1]] : m[0];
		const end = at + m[0].length;
		if (value instanceof Node) {
			// A node's text gets the spaces a text would.
			const words = value.textContent || "";
			const padded = spaced(text, at, end, words);
			out.push(...(padded.startsWith(" ") && !words.startsWith(" ") ? [" "] : []), value, ...(padded.endsWith(" ") && !words.endsWith(" ") ? [" "] : []));
		} else {
			out.push(spaced(text, at, end, String(value)));
		}
		last = end;
	}
	if (last < text.length) {
		out.push(text.slice(last));
	}
	// Neighbouring texts are one text, as t would write them.
	return out.reduce((/** @type {Array<string | Node>} */ acc, part) => {
		if (typeof part === "string" && typeof acc[acc.length - 1] === "string") {
			acc[acc.length - 1] += part;
		} else if (part !== "") {
			acc.push(part);
		}
		return acc;
	}, []).map((part) => (typeof part === "string" ? tidy(part) : part));
}

// has says whether the page's catalogue has key (a message for one of a
// set of values the engine may name, such as an informer's state).
/** @param {string} key */
function has(key) {
	return key in i18n.messages;
}

// listParts joins nodes into a list as the locale writes one ("a, b, or
// c"; "a、b或c"), kind "disjunction" or "conjunction": the nodes, with the
// locale's words and punctuation between them as text.
/**
 * @param {Node[]} nodes
 * @param {"conjunction" | "disjunction"} kind
 * @returns {Array<string | Node>}
 */
function listParts(nodes, kind) {
	const keys = nodes.map((_, i) => `\u0000${i}\u0000`);
	/** @type {Array<string | Node>} */
	const out = [];
	for (const part of new Intl.ListFormat(i18n.locale, {type: kind}).formatToParts(keys)) {
		out.push(part.type === "element" ? nodes[keys.indexOf(part.value)] : part.value);
	}
	return out;
}

// pageLang is the lang attribute of the page's words inside an element
// marked as the engine's English: the page's locale, or null for an
// English page, whose words need no mark.
/** @returns {string | null} */
function pageLang() {
	return i18n.locale === "en" ? null : i18n.locale;
}

// formatNumber writes n as the locale writes numbers, with options as
// Intl.NumberFormat takes them.
/**
 * @param {number} n
 * @param {Intl.NumberFormatOptions} [options]
 * @returns {string}
 */
function formatNumber(n, options) {
	// Making a NumberFormat costs far more than using one, and the page
	// writes numbers in every timeline item and counter: one per locale
	// and options is kept.
	const key = `${i18n.locale}|${options ? JSON.stringify(options) : ""}`;
	let f = numberFormats.get(key);
	if (!f) {
		f = new Intl.NumberFormat(i18n.locale, options);
		numberFormats.set(key, f);
	}
	return f.format(n);
}

/** @type {Map<string, Intl.NumberFormat>} */
const numberFormats = new Map();

// durationUnits are the units of Go's time.Duration.String, with their
// length in nanoseconds and the message that writes an amount of them.
/** @type {Record<string, [number, string]>} */
const durationUnits = {
	h: [3600e9, "unit.hours"],
	m: [60e9, "unit.minutes"],
	s: [1e9, "unit.seconds"],
	ms: [1e6, "unit.milliseconds"],
	"µs": [1e3, "unit.microseconds"],
	us: [1e3, "unit.microseconds"],
	ns: [1, "unit.nanoseconds"],
};

// duration writes one of the engine's durations ("0.102s", "5ms",
// "1m30s", as Go writes a time.Duration) as the locale writes durations:
// "0.102 秒", "5 毫秒". English keeps the engine's own form; text that is
// not a duration is returned as it is.
/**
 * @param {string} text
 * @returns {string}
 */
function duration(text) {
	if (i18n.locale === "en") {
		return text;
	}
	const parts = [...String(text).matchAll(/(\d+(?:\.\d+)?)(h|ms|µs|us|ns|m|s)/g)];
	if (!parts.length || parts.map((p) => p[0]).join("") !== text) {
		return text;
	}
	return parts.map((p) => {
		// The engine's precision stays: "0.000s" is "0.000 秒".
		const digits = (p[1].split(".")[1] || "").length;
		const n = formatNumber(Number(p[1]), {minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false});
		return t(durationUnits[p[2]][1], {n});
	}).join(" ");
}

// translateStatic puts the page's language into index.html's own text,
// under root: an element with data-i18n="key" takes the message key as its
// content, its children marked data-i18n-part="name" put in at the
// message's {name} (and data-i18n-n its {n}, for a message that counts);
// data-i18n-aria-label, data-i18n-title,
// data-i18n-placeholder and data-i18n-label name the messages of those
// attributes. index.html holds the English, which the English page shows
// as it is, without this (e2e's TestStaticTextIsTheCatalogue holds the
// two to the same words).
/** @param {ParentNode} root */
function translateStatic(root) {
	for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n]"))) {
		/** @type {Record<string, Node>} */
		const parts = {};
		for (const part of /** @type {NodeListOf<HTMLElement>} */ (el.querySelectorAll("[data-i18n-part]"))) {
			if (part.parentElement && part.parentElement.closest("[data-i18n]") === el) {
				parts[/** @type {string} */ (part.dataset.i18nPart)] = part;
			}
		}
		/** @type {Record<string, unknown>} */
		const params = {...parts};
		if (el.dataset.i18nN !== undefined) {
			params.n = Number(el.dataset.i18nN);
		}
		el.replaceChildren(...tParts(/** @type {string} */ (el.dataset.i18n), params));
	}
	for (const attr of ["aria-label", "title", "placeholder", "label"]) {
		for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) {
			el.setAttribute(attr, t(/** @type {string} */ (el.getAttribute(`data-i18n-${attr}`))));
		}
	}
}

export {i18n, locales, chooseLocale, linkLocale, supportedLocale, startLocale, rememberLocale, useLocale, t, tParts, has, listParts, pageLang, formatNumber, duration, translateStatic};
