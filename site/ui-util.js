// ui-util.js holds the small helpers every part of the page uses: building
// DOM nodes, rendering a safe subset of Markdown, and converting between the
// character offsets of a text field and the byte offsets the engine speaks.
//
// Everything the page shows comes from the engine, from a lesson file or from
// a share link, so nothing here ever parses text as HTML: every node is made
// with document.createElement and every piece of text goes in as a text node.
"use strict";

(() => {
	const UI = (globalThis.RlabUI = globalThis.RlabUI || {});

	// h builds an element. attrs maps attribute names to values, with three
	// special keys: class (a string), text (the element's text content) and
	// dataset (an object of data-* values). A value of null, undefined or false
	// leaves the attribute out; true sets it empty. Children may be nodes,
	// strings (added as text nodes), or null to skip.
	function h(tag, attrs, ...children) {
		const el = document.createElement(tag);
		if (attrs) {
			for (const [key, value] of Object.entries(attrs)) {
				if (value === null || value === undefined || value === false) {
					continue;
				}
				if (key === "class") {
					el.className = value;
				} else if (key === "text") {
					el.textContent = String(value);
				} else if (key === "dataset") {
					for (const [dk, dv] of Object.entries(value)) {
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

	// table builds a compact table: headers are the column titles (text, or
	// nodes such as a glossary term), rows are
	// arrays of cells (strings or nodes), or {cells, attrs} for a row that
	// needs attributes of its own. A cell may be {content, class} to get a
	// class on its td.
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
		return h("table", {class: className || "grid"}, caption ? h("caption", {class: "visually-hidden", text: caption}) : null, thead, tbody);
	}

	// inline renders one paragraph's inline Markdown: `code`, **bold** and
	// *emphasis*. Anything else, including HTML, stays literal text.
	function inline(text) {
		const frag = document.createDocumentFragment();
		let plain = "";
		const flush = () => {
			if (plain) {
				frag.appendChild(document.createTextNode(plain));
				plain = "";
			}
		};
		let i = 0;
		while (i < text.length) {
			const c = text[i];
			const link = c === "[" ? linkAt(text, i) : null;
			if (link) {
				flush();
				frag.appendChild(linkNode(link));
				i = link.end;
				continue;
			}
			if (c === "`") {
				const end = text.indexOf("`", i + 1);
				if (end > i) {
					flush();
					frag.appendChild(h("code", {text: text.slice(i + 1, end)}));
					i = end + 1;
					continue;
				}
			} else if (c === "*" && text[i + 1] === "*") {
				const end = text.indexOf("**", i + 2);
				if (end > i + 2) {
					flush();
					frag.appendChild(h("strong", null, inline(text.slice(i + 2, end))));
					i = end + 2;
					continue;
				}
			} else if ((c === "*" || c === "_") && text[i + 1] && text[i + 1] !== " ") {
				// Single * or _ emphasis, only when it closes on the same
				// paragraph and the opener starts a word (so snake_case and
				// 2*3 stay literal).
				const end = text.indexOf(c, i + 1);
				const startsWord = i === 0 || /[\s(]/.test(text[i - 1]);
				if (end > i + 1 && startsWord && text[end - 1] !== " ") {
					flush();
					frag.appendChild(h("em", null, inline(text.slice(i + 1, end))));
					i = end + 1;
					continue;
				}
			}
			plain += c;
			i++;
		}
		flush();
		return frag;
	}

	// linkAt reads a Markdown link, [words](dest), starting at text[i]: its
	// words, its destination and the index after it; null when there is
	// none.
	function linkAt(text, i) {
		const close = text.indexOf("](", i + 1);
		if (close < 0 || text.lastIndexOf("[", close) !== i) {
			return null;
		}
		const end = text.indexOf(")", close + 2);
		if (end < 0) {
			return null;
		}
		return {words: text.slice(i + 1, close), dest: text.slice(close + 2, end), end: end + 1};
	}

	// upstreamTag is the kubernetes release the page's upstream links point at.
	const upstreamTag = "v1.31.14";

	// linkNode draws a link of a lesson's text: glossary:ID is the
	// glossary's term (a button that explains itself), upstream:NAME the
	// upstream function the trace calls NAME, or upstream:FILE a file of
	// the kubernetes repository, both at v1.31.14, and an https link a link.
	// Anything else is its words, plain: a lesson's text is data, and only
	// these destinations are trusted.
	function linkNode({words, dest}) {
		const [scheme, ...rest] = dest.split(":");
		const target = rest.join(":");
		if (scheme === "glossary" && UI.term) {
			const t = UI.term(target, words);
			return typeof t === "string" ? document.createTextNode(t) : t;
		}
		let href = null;
		if (scheme === "upstream") {
			const known = UI.sources && UI.sources.get(target);
			href = known ? known.url
				: /^[\w./-]+\.go$/.test(target) ? `https://github.com/kubernetes/kubernetes/blob/${upstreamTag}/${target}` : null;
		} else if (scheme === "https") {
			href = dest;
		}
		if (!href) {
			return inline(words);
		}
		return h("a", {href, target: "_blank", rel: "noopener noreferrer", class: scheme === "upstream" ? "upstream-link" : null}, inline(words));
	}

	// markdown renders a safe subset of Markdown into a fragment: headings
	// (# becomes h3, so a lesson page sits under the page's h2), paragraphs,
	// lists, fenced code, and inline code, bold and emphasis. A fenced block
	// whose info string is in special (do, predict, check) is replaced by what
	// special[info]() returns, so lesson widgets appear where the author put
	// them.
	function markdown(text, special) {
		const frag = document.createDocumentFragment();
		const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
		let para = [];
		let list = null; // {el, ordered}
		const endPara = () => {
			if (para.length) {
				frag.appendChild(h("p", null, inline(para.join(" "))));
				para = [];
			}
		};
		const endList = () => {
			list = null;
		};
		for (let i = 0; i < lines.length; i++) {
			const line = lines[i];
			const fence = /^```\s*([\w-]*)\s*$/.exec(line);
			if (fence) {
				endPara();
				endList();
				const body = [];
				for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) {
					body.push(lines[i]);
				}
				const kind = fence[1];
				if (special && typeof special[kind] === "function") {
					const node = special[kind](body.join("\n"));
					if (node) {
						frag.appendChild(node);
					}
				} else {
					frag.appendChild(h("pre", null, h("code", {text: body.join("\n")})));
				}
				continue;
			}
			if (/^\s*$/.test(line)) {
				endPara();
				endList();
				continue;
			}
			const heading = /^(#{1,6})\s+(.*)$/.exec(line);
			if (heading) {
				endPara();
				endList();
				const level = Math.min(6, heading[1].length + 2);
				frag.appendChild(h("h" + level, null, inline(heading[2].trim())));
				continue;
			}
			const item = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(line);
			if (item) {
				endPara();
				const ordered = !item[1];
				if (!list || list.ordered !== ordered) {
					list = {el: h(ordered ? "ol" : "ul"), ordered};
					frag.appendChild(list.el);
				}
				list.el.appendChild(h("li", null, inline(item[3])));
				continue;
			}
			if (list && /^\s+\S/.test(line)) {
				// An indented line continues the last list item.
				list.el.lastChild.appendChild(document.createTextNode(" "));
				list.el.lastChild.appendChild(inline(line.trim()));
				continue;
			}
			endList();
			para.push(line.trim());
		}
		endPara();
		return frag;
	}

	// The engine's offsets into a console line are UTF-8 byte offsets (Go
	// strings); a text field's are UTF-16 code units. These convert.
	const encoder = new TextEncoder();
	function byteOffset(text, charIndex) {
		return encoder.encode(text.slice(0, charIndex)).length;
	}
	function charOffset(text, byteIndex) {
		let bytes = 0;
		for (let i = 0; i < text.length; i++) {
			if (bytes >= byteIndex) {
				return i;
			}
			const code = text.codePointAt(i);
			bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
			if (code >= 0x10000) {
				i++; // the second half of a surrogate pair
			}
		}
		return text.length;
	}

	// isTyping says whether keyboard input should go to the element, not to
	// the page's shortcuts.
	function isTyping(el) {
		if (!el) {
			return false;
		}
		const tag = el.tagName;
		return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || el.isContentEditable;
	}

	// plural says "1 pod" or "3 pods".
	function plural(n, word, many) {
		return `${n} ${n === 1 ? word : many || word + "s"}`;
	}

	// reducedMotion is true when the reader asked for less animation.
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
	function patch(el, children, keep = patchKeeps) {
		const next = document.createDocumentFragment();
		append(next, children);
		patchChildren(el, [...next.childNodes], keep);
	}

	const patchKeeps = new Set(["tabindex"]);

	function patchChildren(el, nodes, keep) {
		const old = el.childNodes;
		for (let i = 0; i < nodes.length; i++) {
			const cur = old[i];
			const want = nodes[i];
			if (!cur) {
				el.appendChild(want);
			} else if (cur.nodeType === Node.TEXT_NODE && want.nodeType === Node.TEXT_NODE) {
				if (cur.data !== want.data) {
					cur.data = want.data;
				}
			} else if (cur.isEqualNode(want)) {
				continue;
			} else if (cur.nodeType === Node.ELEMENT_NODE && cur.nodeName === want.nodeName) {
				patchAttributes(cur, want, keep);
				patchChildren(cur, [...want.childNodes], keep);
			} else {
				el.replaceChild(want, cur);
			}
		}
		while (old.length > nodes.length) {
			el.lastChild.remove();
		}
	}

	function patchAttributes(cur, want, keep) {
		for (const name of cur.getAttributeNames()) {
			if (!want.hasAttribute(name) && !keep.has(name)) {
				cur.removeAttribute(name);
			}
		}
		for (const name of want.getAttributeNames()) {
			const value = want.getAttribute(name);
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
	function settle(el, values) {
		for (const [key, value] of Object.entries(values)) {
			if (key === "text") {
				if (el.textContent !== value) {
					el.textContent = value;
				}
			} else if (key.startsWith("data-") || key.startsWith("aria-")) {
				if (value === null) {
					if (el.hasAttribute(key)) {
						el.removeAttribute(key);
					}
				} else if (el.getAttribute(key) !== value) {
					el.setAttribute(key, value);
				}
			} else if (el[key] !== value) {
				el[key] = value;
			}
		}
	}

	Object.assign(UI, {h, append, patch, settle, table, inline, markdown, byteOffset, charOffset, isTyping, plural, reducedMotion});
})();
