// fakedom.mjs installs the little of a document that the page's modules
// touch when they are imported and when their pure parts run under node:
// elements with attributes, classes, a dataset, text and children; text
// nodes; fragments; and a body. It is no browser: the browser suite (e2e/)
// tests the page in one. It lets these tests import modules that make an
// element at load (ui-glossary.js makes its tooltips' store) and read what
// markdown() builds.

class FakeNode {
	constructor(nodeName) {
		this.nodeName = nodeName;
		/** @type {FakeNode[]} */
		this.childNodes = [];
		/** @type {FakeNode | null} */
		this.parentNode = null;
	}

	appendChild(child) {
		if (child.nodeName === "#document-fragment") {
			for (const c of [...child.childNodes]) {
				this.appendChild(c);
			}
			child.childNodes = [];
			return child;
		}
		if (child.parentNode) {
			child.parentNode.childNodes = child.parentNode.childNodes.filter((c) => c !== child);
		}
		child.parentNode = this;
		this.childNodes.push(child);
		return child;
	}

	append(...children) {
		for (const c of children) {
			this.appendChild(typeof c === "string" ? new FakeText(c) : c);
		}
	}

	get firstChild() {
		return this.childNodes[0] || null;
	}

	get textContent() {
		return this.childNodes.map((c) => c.textContent).join("");
	}

	set textContent(text) {
		this.childNodes = [];
		if (text !== "") {
			this.appendChild(new FakeText(String(text)));
		}
	}
}

class FakeText extends FakeNode {
	constructor(text) {
		super("#text");
		this.data = text;
	}

	get textContent() {
		return this.data;
	}

	set textContent(text) {
		this.data = String(text);
	}
}

class FakeElement extends FakeNode {
	constructor(tag) {
		super(tag.toUpperCase());
		this.tagName = tag.toUpperCase();
		/** @type {Map<string, string>} */
		this.attributes = new Map();
		/** @type {Record<string, string>} */
		this.dataset = {};
		this.className = "";
		this.hidden = false;
		this.style = {};
		/** @type {Record<string, Function[]>} */
		this.listeners = {};
	}

	setAttribute(name, value) {
		this.attributes.set(name, String(value));
	}

	getAttribute(name) {
		return this.attributes.has(name) ? this.attributes.get(name) : null;
	}

	hasAttribute(name) {
		return this.attributes.has(name);
	}

	removeAttribute(name) {
		this.attributes.delete(name);
	}

	addEventListener(type, listener) {
		(this.listeners[type] ||= []).push(listener);
	}

	// dispatch calls the element's listeners for type, as a browser would
	// for an event of that type, and returns what they return (a handler
	// that is async returns its promise).
	dispatch(type) {
		return (this.listeners[type] || []).map((fn) => fn({type, target: this}));
	}

	get children() {
		return this.childNodes.filter((c) => c instanceof FakeElement);
	}
}

// install puts the fake document on globalThis (where a module reads it),
// unless there is a document already.
export function install() {
	if (globalThis.document) {
		return;
	}
	const body = new FakeElement("body");
	globalThis.document = /** @type {any} */ ({
		body,
		createElement: (tag) => new FakeElement(tag),
		createElementNS: (ns, tag) => new FakeElement(tag),
		createTextNode: (text) => new FakeText(String(text)),
		createDocumentFragment: () => new FakeNode("#document-fragment"),
		getElementById: () => null,
		querySelector: () => null,
		querySelectorAll: () => [],
		addEventListener() {},
	});
	globalThis.addEventListener = () => {};
	globalThis.Node = FakeNode;
	globalThis.Element = FakeElement;
}

// outline writes a node as a short text, tags in angle brackets and text
// as it is, so a test can say what a drawing is in one string.
export function outline(node) {
	if (node.nodeName === "#text") {
		return node.data;
	}
	const inner = node.childNodes.map(outline).join("");
	if (node.nodeName === "#document-fragment") {
		return inner;
	}
	const tag = node.tagName.toLowerCase();
	const href = node.getAttribute("href");
	return `<${tag}${href ? ` ${href}` : ""}>${inner}</${tag}>`;
}
