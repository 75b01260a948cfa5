// ui-markdown.js renders the safe subset of Markdown that lessons are
// written in (markdown, and inline for one paragraph), with the links a
// lesson may make: to the glossary, to upstream's code, and to https pages.
// It is apart from ui-util.js because a glossary link is a term, drawn by
// ui-glossary.js, which itself draws with ui-util.js.
//
// Nothing here parses text as HTML: every node is made with
// document.createElement and every piece of text goes in as a text node.

import {h} from "./ui-util.js";
import {term} from "./ui-glossary.js";

// links holds what the links need from the engine: sources, upstream's
// files by the name the trace gives them (the bridge's sources op), which
// app.js sets once the engine has answered. Until then an upstream link
// leads to a file only.
const links = {
	/** @type {Map<string, {name: string, url: string}> | null} */
	sources: null,
};

// inline renders one paragraph's inline Markdown: `code`, **bold** and
// *emphasis*. Anything else, including HTML, stays literal text.
/**
 * @param {string} text
 * @returns {DocumentFragment}
 */
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
				// Code is what the learner types or the engine writes:
				// English, whatever the lesson's language.
				frag.appendChild(h("code", {lang: "en", text: text.slice(i + 1, end)}));
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
/**
 * @param {string} text
 * @param {number} i
 * @returns {{words: string, dest: string, end: number} | null}
 */
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
/**
 * @param {{words: string, dest: string}} link
 * @returns {Node}
 */
function linkNode({words, dest}) {
	const [scheme, ...rest] = dest.split(":");
	const target = rest.join(":");
	if (scheme === "glossary") {
		const t = term(target, words);
		return typeof t === "string" ? document.createTextNode(t) : t;
	}
	let href = null;
	if (scheme === "upstream") {
		const known = links.sources && links.sources.get(target);
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
/**
 * @param {string} text
 * @param {Record<string, (body: string) => Node | null | undefined>} [special]
 * @returns {DocumentFragment}
 */
function markdown(text, special) {
	const frag = document.createDocumentFragment();
	const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
	/** @type {string[]} */
	let para = [];
	/** @type {{el: HTMLOListElement | HTMLUListElement, ordered: boolean} | null} */
	let list = null;
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
				frag.appendChild(h("pre", {lang: "en"}, h("code", {text: body.join("\n")})));
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
			const tag = /** @type {"h3" | "h4" | "h5" | "h6"} */ ("h" + level);
			frag.appendChild(h(tag, null, inline(heading[2].trim())));
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
			// An indented line continues the last list item (a list
			// has one from its first line).
			const li = /** @type {HTMLLIElement} */ (list.el.lastChild);
			li.appendChild(document.createTextNode(" "));
			li.appendChild(inline(line.trim()));
			continue;
		}
		endList();
		para.push(line.trim());
	}
	endPara();
	return frag;
}

export {inline, markdown, links};
