// ui-util.js holds the small helpers every part of the page uses: building
// DOM nodes, patching a drawing in place, and converting between the
// character offsets of a text field and the byte offsets the engine speaks.
// (Lessons' Markdown is ui-markdown.js.)
//
// Everything the page shows comes from the engine, from a lesson file or from
// a share link, so nothing here ever parses text as HTML: every node is made
// with document.createElement and every piece of text goes in as a text node.

// h builds an element. attrs maps attribute names to values, with three
// special keys: class (a string), text (the element's text content) and
// dataset (an object of data-* values). A value of null, undefined or false
// leaves the attribute out; true sets it empty. Children may be nodes,
// strings (added as text nodes), or null to skip.

/**
 * A child of h, append or patch: a node, text, nothing, or a list of them.
 * @typedef {Node | string | number | boolean | null | undefined | ChildList} Child
 * @typedef {Child[]} ChildList
 */
/** @typedef {Record<string, unknown>} Attrs */

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
function h(tag, attrs, ...children) {
	const el = document.createElement(tag);
	if (attrs) {
		for (const [key, value] of Object.entries(attrs)) {
			if (value === null || value === undefined || value === false) {
				continue;
			}
			if (key === "class") {
				el.className = String(value);
			} else if (key === "text") {
				el.textContent = String(value);
			} else if (key === "dataset") {
				for (const [dk, dv] of Object.entries(/** @type {Record<string, unknown>} */ (value))) {
					el.dataset[dk] = String(dv);
				}
			} else {
				el.setAttribute(key, value === true ? "" : String(value));
			}
		}
	}
	append(el, children);
	return el;
}

// append adds children (nodes, strings, arrays of them) to el.
/**
 * @param {Node} el
 * @param {Child[]} children
 */
function append(el, children) {
	for (const child of children) {
		if (child === null || child === undefined || child === false) {
			continue;
		}
		if (Array.isArray(child)) {
			append(el, child);
		} else if (child instanceof Node) {
			el.appendChild(child);
		} else {
			el.appendChild(document.createTextNode(String(child)));
		}
	}
}

// table builds a compact table: caption names it, for a screen reader
// (text, or text and nodes); headers are the column titles (text, or
// nodes such as a glossary term), rows are
// arrays of cells (strings or nodes), or {cells, attrs} for a row that
// needs attributes of its own. A cell may be {content, class} to get a
// class on its td.
/** @typedef {{content: Child, class?: string}} Cell */
/** @typedef {(Child | Cell)[] | {cells: (Child | Cell)[], attrs: Attrs}} Row */
/**
 * @param {Child} caption
 * @param {Child[]} headers
 * @param {Row[]} rows
 * @param {string} [className]
 * @returns {HTMLTableElement}
 */
function table(caption, headers, rows, className) {
	const thead = h("thead", null, h("tr", null, headers.map((t) => h("th", {scope: "col"}, t))));
	const tbody = h("tbody");
	for (const row of rows) {
		const cells = Array.isArray(row) ? row : row.cells;
		const tr = h("tr", Array.isArray(row) ? null : row.attrs);
		for (const cell of cells) {
			if (cell && typeof cell === "object" && !(cell instanceof Node) && "content" in cell) {
				tr.appendChild(h("td", {class: cell.class}, cell.content));
			} else {
				tr.appendChild(h("td", null, cell));
			}
		}
		tbody.appendChild(tr);
	}
	return h("table", {class: className || "grid"}, caption ? h("caption", {class: "visually-hidden"}, caption) : null, thead, tbody);
}

// The engine's offsets into a console line are UTF-8 byte offsets (Go
// strings); a text field's are UTF-16 code units. These convert.
const encoder = new TextEncoder();
/**
 * @param {string} text
 * @param {number} charIndex
 * @returns {number}
 */
function byteOffset(text, charIndex) {
	return encoder.encode(text.slice(0, charIndex)).length;
}
/**
 * @param {string} text
 * @param {number} byteIndex
 * @returns {number}
 */
function charOffset(text, byteIndex) {
	let bytes = 0;
	for (let i = 0; i < text.length; i++) {
		if (bytes >= byteIndex) {
			return i;
		}
		// i < text.length, so there is a code point here.
		const code = /** @type {number} */ (text.codePointAt(i));
		bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
		if (code >= 0x10000) {
			i++; // the second half of a surrogate pair
		}
	}
	return text.length;
}

// isTyping says whether keyboard input should go to the element, not to
// the page's shortcuts.
/**
 * @param {EventTarget | Element | null} el
 * @returns {boolean}
 */
function isTyping(el) {
	if (!el) {
		return false;
	}
	// An event's target is an element whenever it is not null here.
	const e = /** @type {HTMLElement} */ (el);
	const tag = e.tagName;
	return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || e.isContentEditable;
}

// plural says "1 pod" or "3 pods".
/**
 * @param {number} n
 * @param {string} word
 * @param {string} [many]
 * @returns {string}
 */
function plural(n, word, many) {
	return `${n} ${n === 1 ? word : many || word + "s"}`;
}

// reducedMotion is true when the reader asked for less animation.
/** @returns {boolean} */
function reducedMotion() {
	return globalThis.matchMedia && globalThis.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// patch makes el's children the same as children (as append takes them),
// changing the drawing only where it differs: a child equal to the new
// one is kept, an element of the same tag is patched in place (its
// attributes, then its children, likewise), a text node takes the new
// text, and anything else is replaced. A panel redrawn at every step
// usually differs from the drawing before in a few rows; patching it
// restyles and relays out those rows, where replacing its children
// rebuilt the whole panel's boxes. The new nodes are only a description:
// patch adopts some of them and drops the rest.
//
// Attributes named in keep are the drawing's own and outlive a patch:
// the roving Tab stop among a panel's terms (tabindex), which roveTerms
// sets after each drawing.
/**
 * @param {Node} el
 * @param {Child[]} children
 * @param {Set<string>} [keep]
 */
function patch(el, children, keep = patchKeeps) {
	const next = document.createDocumentFragment();
	append(next, children);
	patchChildren(el, [...next.childNodes], keep);
}

const patchKeeps = new Set(["tabindex"]);

/**
 * @param {Node} el
 * @param {ChildNode[]} nodes
 * @param {Set<string>} keep
 */
function patchChildren(el, nodes, keep) {
	const old = el.childNodes;
	for (let i = 0; i < nodes.length; i++) {
		const cur = old[i];
		const want = nodes[i];
		if (!cur) {
			el.appendChild(want);
		} else if (cur instanceof Text && want instanceof Text) {
			if (cur.data !== want.data) {
				cur.data = want.data;
			}
		} else if (cur.isEqualNode(want)) {
			continue;
		} else if (cur instanceof Element && want instanceof Element && cur.nodeName === want.nodeName) {
			patchAttributes(cur, want, keep);
			patchChildren(cur, [...want.childNodes], keep);
		} else {
			el.replaceChild(want, cur);
		}
	}
	while (old.length > nodes.length) {
		/** @type {ChildNode} */ (el.lastChild).remove();
	}
}

/**
 * @param {Element} cur
 * @param {Element} want
 * @param {Set<string>} keep
 */
function patchAttributes(cur, want, keep) {
	for (const name of cur.getAttributeNames()) {
		if (!want.hasAttribute(name) && !keep.has(name)) {
			cur.removeAttribute(name);
		}
	}
	for (const name of want.getAttributeNames()) {
		const value = /** @type {string} */ (want.getAttribute(name));
		if (cur.getAttribute(name) !== value) {
			cur.setAttribute(name, value);
		}
	}
}

// settle sets an element's properties and attributes to values, each
// only if it differs: Play redraws the controls ten times a second, and
// a write of the same value still has the browser check the element's
// style again (and a mutation observer hear it). In values, a key
// "text" is the text content, "data-…" and "aria-…" keys are
// attributes (null removes one), and any other key a property
// (disabled, hidden, title, value).
/**
 * @param {Element} el
 * @param {Record<string, unknown>} values
 */
function settle(el, values) {
	for (const [key, value] of Object.entries(values)) {
		if (key === "text") {
			if (el.textContent !== value) {
				el.textContent = /** @type {string} */ (value);
			}
		} else if (key.startsWith("data-") || key.startsWith("aria-")) {
			if (value === null) {
				if (el.hasAttribute(key)) {
					el.removeAttribute(key);
				}
			} else if (el.getAttribute(key) !== value) {
				el.setAttribute(key, /** @type {string} */ (value));
			}
		} else {
			// Any other key names one of the element's own properties.
			const props = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (el));
			if (props[key] !== value) {
				props[key] = value;
			}
		}
	}
}

// focusIsNowhereOrIn says whether the focus is on no control (the body,
// or nothing) or inside container: where a closed dialog's close event
// may still move it, because no click or key has put it anywhere since.
/**
 * @param {HTMLElement} container
 * @returns {boolean}
 */
function focusIsNowhereOrIn(container) {
	const now = document.activeElement;
	return now === null || now === document.body || container.contains(now);
}

export {h, append, patch, settle, table, byteOffset, charOffset, focusIsNowhereOrIn, isTyping, plural, reducedMotion};
